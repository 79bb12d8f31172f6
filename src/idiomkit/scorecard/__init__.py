"""The idiom scorecard: one frozen model on every benchmark at once (``idiomkit evaluate all``), plain and marked
tracks, the core test of idiom understanding, and the STS guards no training may touch."""

from idiomkit.scorecard.blocks import BLOCKS, Block, BlockOutput, run_block
from idiomkit.scorecard.result import HEADLINE, Scorecard, headline, markdown_table
from idiomkit.scorecard.run import ScorecardOptions, evaluate_all

__all__ = [
    "BLOCKS",
    "HEADLINE",
    "Block",
    "BlockOutput",
    "Scorecard",
    "ScorecardOptions",
    "evaluate_all",
    "headline",
    "markdown_table",
    "run_block",
]
