"""The lexicon's sources as rows (:class:`Sense`): one loader per source, read by
:func:`~idiomkit.idioms.lexicon_build.build_lexicon` (its ``SOURCES``), and the idiom corpora that attest idioms
(:func:`corpus_idioms`). The dictionary loaders themselves are :mod:`idiomkit.data.extra.dictionaries`.

Example::

    rows = idiomkit_senses("unused")  # [Sense("abrir o jogo", "PT", "falar com franqueza", "idiomkit"), ...]
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from idiomkit.data.keys import normalise_idiom
from idiomkit.idioms.fragments import Sense
from idiomkit.idioms.morphology import word_set
from idiomkit.idioms.morphology_en import en_forms

log = logging.getLogger(__name__)

_DETERMINERS = word_set("a an the this that these those my your his her its our their one's some any no")


# --- the sources ------------------------------------------------------------------------------------------------


PT_IDIOMS = Path(__file__).parent / "resources" / "pt_idioms.tsv"
PT_IDIOMS_COLUMNS = ("idiom", "meaning", "attested")


def idiomkit_senses(data_dir: str | Path, path: str | Path = PT_IDIOMS) -> list[Sense]:
    """The project's own list of common Portuguese idioms (PT-BR and PT-PT) with Portuguese meanings
    (``resources/pt_idioms.tsv``: idiom, meaning, and where the idiom is attested: ``lidioms``, ``freedict``,
    ``dicionario_aberto`` whose meanings are English or 1913 Portuguese, or ``common``); ``data_dir`` is not used.
    A row without three tab-separated values, or with an empty field, is a DataError naming file, row and field."""
    from idiomkit.data.csvio import read_filled_tsv

    return [
        Sense(values[0].strip(), "PT", values[1].strip(), "idiomkit")
        for values in read_filled_tsv(path, PT_IDIOMS_COLUMNS)
    ]


def astitch_senses(data_dir: str | Path) -> list[Sense]:
    """AStitch train compounds with their figurative meanings (dev/test compounds are SemEval eval ones)."""
    from idiomkit.data.extra.astitch import load_astitch

    rows = load_astitch(data_dir, splits=("train",))
    return [Sense(r.idiom, r.language, m, "astitch") for r in rows for m in r.figurative_meanings]


def clue_senses(data_dir: str | Path) -> list[Sense]:
    """CLUE units (idioms, similes, proverbs; one-word metaphors fall to the one-word rule)."""
    from idiomkit.data.extra.clue import load_clue

    return [Sense(u.idiom, "EN", u.meaning, "clue") for u in load_clue(data_dir)]


def definition_senses(data_dir: str | Path) -> list[Sense]:
    """EPIE / Wiktionary / baiango definitions of every idiom (the held-out split's too: the evaluation lexicon
    drops those, :func:`evaluation_lexicon`)."""
    from idiomkit.data.definitions import load_idiom_data

    kept = list(load_idiom_data(data_dir).idioms.values())
    log.info(
        "lexicon definitions: %d idioms (%d of the held-out split)", len(kept), sum(i.split == "heldout" for i in kept)
    )
    return [
        Sense(_epie_slots(d.idiom) if d.source == "epie" else d.idiom, "EN", d.text, d.source)
        for i in kept
        for d in i.definitions
    ]


def _epie_slots(idiom: str) -> str:
    """EPIE's ``[pron]`` back where its display text wrote "one's" (the slot takes any determiner: "put the cart
    before the horse" is EPIE's "put [pron] cart before [pron] horse")."""
    return re.sub(r"\bone's\b", "[pron]", idiom)


def pie_senses(data_dir: str | Path) -> list[Sense]:
    """PIE ISP train: one (idiom, sense) per idiom, the idiom with a ``[pron]`` slot wherever its train sentences
    put a determiner or possessive that PIE's lemma leaves out ("eat words" -> "eat [pron] words")."""
    from idiomkit.data.csvio import read_csv_rows
    from idiomkit.data.extra.pie import load_pie, pie_file

    spans: dict[str, list[list[str]]] = defaultdict(list)
    for _, rec in read_csv_rows(pie_file(data_dir, "train"), ("Idiom", "Idiomatic_Sent", "Idiomatic_Label")):
        tokens, labels = rec["Idiomatic_Sent"].split(" "), rec["Idiomatic_Label"].split(" ")
        tagged = [i for i, tag in enumerate(labels) if tag != "O"]
        if tagged and len(tokens) == len(labels):
            spans[rec["Idiom"].strip()].append([t.casefold() for t in tokens[tagged[0] : tagged[-1] + 1]])
    seen = {(p.idiom, p.sense) for p in load_pie(data_dir, ("train",)) if p.sense}
    return [Sense(with_slots(idiom, spans[idiom]), "EN", sense, "pie") for idiom, sense in sorted(seen)]


def with_slots(idiom: str, spans: Iterable[list[str]]) -> str:
    """``idiom`` with ``[pron]`` before each word that a determiner or possessive precedes in one of ``spans``
    (the idiom's tokens as used), where the idiom has none.

    Example::

        with_slots("eat words", [["ate", "my", "words"]])  # "eat [pron] words"
    """
    words = idiom.split()
    slotted: set[int] = set()
    for span in spans:
        at = 0
        for token in span:
            if at < len(words) and token in en_forms(words[at].casefold()):
                at += 1
            elif token in _DETERMINERS and 0 < at < len(words) and words[at - 1].casefold() not in _DETERMINERS:
                slotted.add(at)
    return " ".join(f"[pron] {w}" if i in slotted else w for i, w in enumerate(words))


def mt_senses(data_dir: str | Path) -> list[Sense]:
    """mt-ambiguity idiom meanings (TheIdioms.com and the pfbt corpus)."""
    from idiomkit.data.extra.mt_ambiguity import load_mt_meanings

    return [Sense(m.idiom, "EN", m.meaning, "mt_ambiguity") for m in load_mt_meanings(data_dir)]


def lidioms_senses(data_dir: str | Path) -> list[Sense]:
    """LIdioms EN and PT idioms; every definition is English."""
    from idiomkit.data.extra.lidioms import load_lidioms

    return [Sense(e.idiom, e.language, e.definition, "lidioms", "EN") for e in load_lidioms(data_dir)]


def dictionary_senses(load: Callable[[str | Path], list]) -> Callable[[str | Path], list[Sense]]:
    """A loader of :mod:`idiomkit.data.extra.dictionaries` as a lexicon source."""

    def senses(data_dir: str | Path) -> list[Sense]:
        return [Sense(d.idiom, d.language, d.meaning, d.source, d.meaning_language, d.labelled) for d in load(data_dir)]

    senses.__doc__ = load.__doc__
    return senses


def wordnet_senses(data_dir: str | Path) -> list[Sense]:
    """WordNet's idiomatic multiword lemmas (Debian ``wordnet-base``, :func:`~idiomkit.data.extra.wordnet.
    load_wordnet`); ``data_dir`` is not used."""
    from idiomkit.data.extra.wordnet import load_wordnet

    return dictionary_senses(lambda _: load_wordnet())(data_dir)


def dictionaries_loader(name: str) -> Callable[[str | Path], list[Sense]]:
    from idiomkit.data.extra import dictionaries

    return dictionary_senses(getattr(dictionaries, f"load_{name}"))


def corpus_idioms(data_dir: str | Path) -> set[tuple[str, str]]:
    """``(language, normalised idiom)`` of the idiom corpora's idioms, PIE (every ISP split) and EPIE (its formal
    sentences): they attest an idiom (:func:`~idiomkit.idioms.curation.entry_problem`) whose meaning comes from a
    dictionary ("gain ground", "beat a retreat"). Empty parts when the data is missing. (SemEval 2A's MWEs attest
    nothing: its "idiomatic" label marks any non-compositional compound, terms such as "search engine" too.)"""
    from idiomkit.data.definitions import load_epie_usages
    from idiomkit.data.errors import DataError
    from idiomkit.data.extra.pie import load_pie

    out: set[tuple[str, str]] = set()
    try:
        out |= {("EN", normalise_idiom(p.idiom)) for p in load_pie(data_dir)}
        out |= {("EN", normalise_idiom(key)) for key in load_epie_usages(data_dir)[1].values()}
    except DataError as exc:
        log.warning("lexicon: idiom attestation without the PIE / EPIE idiom lists (%s)", exc)
    return out
