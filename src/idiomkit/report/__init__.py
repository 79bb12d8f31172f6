"""Regenerate the results pages (``docs/results/``) from the result JSON files (nothing typed by hand).

Runs of the same configuration (same :class:`~idiomkit.results.ResultKey` but for its seed, read from each file's
stored ``key``, never from its name) are aggregated: mean ± std over seeds. Reference rows (papers, independent
re-computations) come from :data:`~idiomkit.report.tables.REFERENCES`; prose that explains a table comes from
``docs/notes/<task>.md`` when present. One job per module: :mod:`~idiomkit.report.tables` (a benchmark's table),
:mod:`~idiomkit.report.matrix` (the cross-benchmark matrix), :mod:`~idiomkit.report.scorecard` (the scorecard
tables), :mod:`~idiomkit.report.versus_base` (trained models against their base with the reader),
:mod:`~idiomkit.report.leave_one_out` (the leave-one-out rows), :mod:`~idiomkit.report.targets` (the flagship's
targets), :mod:`~idiomkit.report.core_test` (the core test with its intervals), :mod:`~idiomkit.report.curves`
(the training curves), :mod:`~idiomkit.report.semeval2b` (the 2B page's grid and training-rule rows),
:mod:`~idiomkit.report.engineering` (the engineering page), :mod:`~idiomkit.report.experiments` (the experiment that
trains a row's model) and :mod:`~idiomkit.report.pages` (pages and README).
"""

from idiomkit.report.matrix import matrix_section, row_config
from idiomkit.report.pages import README_MARKERS, readme_table, render, render_pages, update_readme, write_report
from idiomkit.report.scorecard import (
    HEADLINE,
    SCORECARD_MARKERS,
    dig,
    headline,
    markdown_table,
    scorecard_section,
    transposed,
)
from idiomkit.report.semeval2b import semeval2b_grid
from idiomkit.report.tables import TASK_TITLES, seeds_commands

__all__ = [
    "HEADLINE",
    "README_MARKERS",
    "SCORECARD_MARKERS",
    "TASK_TITLES",
    "dig",
    "headline",
    "markdown_table",
    "matrix_section",
    "readme_table",
    "render",
    "render_pages",
    "row_config",
    "scorecard_section",
    "seeds_commands",
    "semeval2b_grid",
    "transposed",
    "update_readme",
    "write_report",
]
