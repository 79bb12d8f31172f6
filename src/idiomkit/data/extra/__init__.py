"""Extra idiom training data (``data_dir/idioms_extra``): typed records and strict loaders, one module per dataset.

Every loader takes ``data_dir`` (the folder holding ``idioms_extra/``) and raises
:class:`~idiomkit.data.errors.DataError` naming file, row and field on bad input. :func:`load_overlap` gives the
benchmark held-out idioms each folder lists (SemEval-2022 T2 and IdioLink only): dedupe against every held-out
split as well.
"""

from idiomkit.data.extra.astitch import CompoundSenses, load_astitch
from idiomkit.data.extra.clue import ClueUnit, load_clue
from idiomkit.data.extra.figqa import FigQaItem, load_figqa
from idiomkit.data.extra.itu import IdiomUsage, load_itu
from idiomkit.data.extra.lidioms import LidiomsEntry, load_lidioms
from idiomkit.data.extra.miqa import MiqaItem, load_miqa
from idiomkit.data.extra.mt_ambiguity import IdiomMeaning, UsageTriple, load_mt_meanings, load_mt_triples
from idiomkit.data.extra.ncs import NcsCompound, load_ncs
from idiomkit.data.extra.overlap import OverlapRow, load_overlap, load_overlap_rows
from idiomkit.data.extra.pie import PieParaphrase, load_pie

__all__ = [
    "ClueUnit",
    "CompoundSenses",
    "FigQaItem",
    "IdiomMeaning",
    "IdiomUsage",
    "LidiomsEntry",
    "MiqaItem",
    "NcsCompound",
    "OverlapRow",
    "PieParaphrase",
    "UsageTriple",
    "load_astitch",
    "load_clue",
    "load_figqa",
    "load_itu",
    "load_lidioms",
    "load_miqa",
    "load_mt_meanings",
    "load_mt_triples",
    "load_ncs",
    "load_overlap",
    "load_overlap_rows",
    "load_pie",
]
