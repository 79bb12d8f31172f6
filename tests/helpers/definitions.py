"""Idiom/definition data: a tiny EPIE + definitions tree and merged idioms (unit/data, integration/training)."""

from __future__ import annotations

from pathlib import Path

from idiomkit.data.definitions import (
    Definition,
    Idiom,
    SentencePair,
    merge,
)

MEANING = (
    '[<div class="ds-single">In the event that something happens. <span class="illustration">Take it, just in '
    'case.</span></div>, <div class="ds-single">second sense</div>]'
)


def write_tree(root: Path, baiango: str | None = None, static_tags: str = "O O B-IDIOM I-IDIOM I-IDIOM O") -> Path:
    """A tiny data tree: 2 static + 2 formal EPIE idioms, one baiango and one Wiktionary definition."""
    epie = root / "epie"
    (epie / "Static_Idioms_Corpus").mkdir(parents=True)
    (epie / "Formal_Idioms_Corpus").mkdir(parents=True)
    (epie / "Static_idioms.txt").write_text("just in case\nrule of thumb\n")
    (epie / "Static_idioms_meanings.txt").write_text(
        MEANING + '\n[<div class="ds-list">1. <i>slang</i> A rough guide. <span class="illustration">x</span></div>]\n'
    )
    (epie / "Formal_idioms.txt").write_text("keep [pron] eye on\nbring (somebody) to ([pron]) knees\n")
    (epie / "Formal_idioms_meanings_final.txt").write_text(
        '[<div class="ds-single">To watch closely.</div>]\n[<div class="ds-single">To defeat.</div>]\n'
    )
    s = epie / "Static_Idioms_Corpus" / "Static_Idioms"
    Path(f"{s}_Words.txt").write_text("Bring it just in case .\nA rule of thumb helps .\n")
    Path(f"{s}_Candidates.txt").write_text("just in case\nrule of thumb\n")
    Path(f"{s}_Tags.txt").write_text(f"{static_tags}\nO B-IDIOM I-IDIOM I-IDIOM O O\n")
    f = epie / "Formal_Idioms_Corpus" / "Formal_Idioms"
    Path(f"{f}_Words.txt").write_text("I keep an eye on him .\nThey brought us to our knees .\nKeep an eye out .\n")
    Path(f"{f}_Candidates.txt").write_text("keep [pron] eye on\nbring to knees\nkeep [pron] eye on\n")
    Path(f"{f}_Labels.txt").write_text("1\n0\n1\n")
    Path(f"{f}_Tags.txt").write_text("O O O O O O O\nO O O O O O\nO O O O\n")
    (epie / "Formal_Idioms_Corpus" / "translated_sentences.txt").write_text(
        "I watch him closely .\nThey defeated us .\n"
    )
    d = root / "definitions"
    (d / "baiango_english_idioms").mkdir(parents=True)
    (d / "wiktionary_idiom_dataset").mkdir(parents=True)
    (d / "baiango_english_idioms" / "idioms.csv").write_text(
        baiango or '"{Break a leg}>>{Good luck!}"\n"{Keep an eye on}>>{Watch.}"\n'
    )
    (d / "wiktionary_idiom_dataset" / "wiktionary.csv").write_text(
        "idiom,definition\nthe early bird catches the worm,Success comes to those who prepare.\n"
    )
    return root


def idiom_with_pairs(key: str, definition: str, sentences: int = 0) -> Idiom:
    pairs = [SentencePair(key, f"{key} sentence {i}", f"{key} paraphrase {i}", "epie-static") for i in range(sentences)]
    return merge([Definition(key, key, definition, "epie")], pairs)[key]
