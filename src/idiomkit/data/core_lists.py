"""Regenerate the core test's two stored lists (``make core-test-lists``; see :mod:`idiomkit.data.meaning_triples`).

- ``resources/literal_words.tsv``: the WordNet literal renderings of every word in the PIE idiom spans
  (:mod:`idiomkit.data.literal_words`; needs WordNet, ``apt-get install -y wordnet-base``);
- ``resources/core_test_heldout.tsv``: the held-out idioms the rule gives (reads the benchmarks' held-out splits).

Example::

    python -m idiomkit.data.core_lists --data-dir ../shared/data
"""

from __future__ import annotations

import argparse
import logging

from idiomkit.data.heldout import benchmark_index
from idiomkit.data.literal_words import RESOURCE, WORDNET_DIR, build_literal_words, write_literal_words
from idiomkit.data.meaning_triples import HELDOUT_LIST, heldout_list, pie_span_words, write_heldout_list

log = logging.getLogger(__name__)


def write_lists(data_dir: str, wordnet_dir: str = str(WORDNET_DIR), words: bool = True) -> None:
    """Write the literal words (unless ``words`` is False), then the held-out list (which reads them)."""
    if words:
        path = write_literal_words(build_literal_words(pie_span_words(data_dir), wordnet_dir), RESOURCE)
        log.info("wrote %s", path)
    rows = heldout_list(data_dir, benchmark_index(data_dir).benchmark_idioms)
    log.info("wrote %s (%d idioms)", write_heldout_list(rows, HELDOUT_LIST), len(rows))


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", default="../shared/data")
    parser.add_argument("--wordnet", default=str(WORDNET_DIR))
    parser.add_argument("--no-words", action="store_true", help="keep literal_words.tsv; only the held-out list")
    args = parser.parse_args()
    write_lists(args.data_dir, args.wordnet, words=not args.no_words)


if __name__ == "__main__":
    main()
