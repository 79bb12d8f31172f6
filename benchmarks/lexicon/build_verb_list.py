"""Write ``src/idiomkit/idioms/resources/en_verbs.txt``: WordNet 3.0's one-word English verbs, one a line, sorted.

usage: python benchmarks/lexicon/build_verb_list.py [--wordnet-dir /usr/share/wordnet]

The rewriter reads it (:func:`idiomkit.idioms.morphology_en.en_verbs`) to tell a meaning that is a verb phrase without
its "to" ("tease someone", "reveal a secret") from one that is not ("easy", "very happy"), so that the verb takes
the span's tense. Needs WordNet (Debian ``wordnet-base``, ``make wordnet``); a rebuild is byte-identical.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from idiomkit.data.extra.wordnet import WORDNET_DIR
from idiomkit.idioms.morphology_en import EN_VERB_FILE
from idiomkit.results import atomic_write_text

OUT = Path(__file__).resolve().parents[2] / "src" / "idiomkit" / "idioms" / "resources" / EN_VERB_FILE
_WORD = re.compile(r"[a-z]+")


def verb_lemmas(wordnet_dir: Path) -> list[str]:
    """The one-word lemmas of WordNet's ``index.verb`` (letters only), sorted."""
    lines = (wordnet_dir / "index.verb").read_text(encoding="utf-8").splitlines()
    lemmas = {line.split(" ", 1)[0] for line in lines if line and not line.startswith(" ")}
    return sorted(lemma for lemma in lemmas if _WORD.fullmatch(lemma))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wordnet-dir", type=Path, default=WORDNET_DIR)
    args = parser.parse_args()
    lemmas = verb_lemmas(args.wordnet_dir)
    atomic_write_text(OUT, "\n".join(lemmas) + "\n")
    print(f"{len(lemmas)} verbs -> {OUT}")


if __name__ == "__main__":
    main()
