"""The core test's construction on tiny inputs: WordNet literal renderings (a fake WordNet database), the idiom span
of a PIE sentence, the NCS / 2A substitutions, the held-out rule, the seen/held-out split, the per-idiom cap and the
stored lists' errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import idiomkit.data.meaning_triples as core
from idiomkit.data.errors import DataError
from idiomkit.data.literal_words import (
    COLUMNS,
    WordNet,
    build_literal_words,
    inflect_like,
    literal_span,
    load_literal_words,
    part_of_speech,
    write_literal_words,
)
from idiomkit.data.meaning_triples import Triple

# (pos, words, pointers as (symbol, key of the target synset)) keyed by a name
SYNSETS = {
    "bucket": ("n", ["bucket", "pail"], []),
    "kick": ("v", ["kick"], [("@", "strike")]),
    "strike": ("v", ["strike", "hit"], []),
    "leg": ("n", ["leg"], [("@", "limb")]),
    "limb": ("n", ["limb"], []),
    "bacon": ("n", ["bacon"], [("@", "pork")]),
    "pork": ("n", ["cut_of_pork"], []),
    "fence_n": ("n", ["fence", "fencing"], []),
    "fence_v": ("v", ["fence"], [("@", "enclose")]),
    "enclose": ("v", ["enclose"], []),
}
INDEX = {  # (lemma, pos): synsets in sense order
    ("bucket", "n"): ["bucket"],
    ("pail", "n"): ["bucket"],
    ("kick", "v"): ["kick"],
    ("strike", "v"): ["strike"],
    ("hit", "v"): ["strike"],
    ("leg", "n"): ["leg"],
    ("limb", "n"): ["leg", "limb"],
    ("bacon", "n"): ["bacon"],
    ("cut_of_pork", "n"): ["pork"],
    ("fence", "n"): ["fence_n"],
    ("fencing", "n"): ["fence_n"],
    ("fence", "v"): ["fence_v"],
    ("enclose", "v"): ["enclose"],
}


def words_of(text: str) -> list[str]:
    return text.split()


FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def fake_wordnet(root: Path) -> Path:
    """A WordNet database in WordNet's file formats, with byte offsets as in the real one."""

    def line(key: str, offsets: dict[str, int]) -> str:
        pos, words, pointers = SYNSETS[key]
        cells = [
            f"{offsets[key]:08d}",
            "00",
            pos,
            f"{len(words):02x}",
            *(c for w in words for c in (w, "0")),
            f"{len(pointers):03d}",
            *(c for s, t in pointers for c in (s, f"{offsets[t]:08d}", SYNSETS[t][0], "0000")),
        ]
        return " ".join(cells) + " | a gloss  \n"

    offsets = dict.fromkeys(SYNSETS, 0)
    for _ in range(2):  # offsets are fixed width: the second pass writes the real ones
        for pos in FILES:
            at = len("  1 licence header\n")
            for key in (k for k in SYNSETS if SYNSETS[k][0] == pos):
                offsets[key] = at
                at += len(line(key, offsets).encode())
    for pos, name in FILES.items():
        body = "".join(line(k, offsets) for k in SYNSETS if SYNSETS[k][0] == pos)
        (root / f"data.{name}").write_text("  1 licence header\n" + body, encoding="latin-1")
        rows = [
            f"{lemma} {p} {len(keys)} 0 {len(keys)} 1 " + " ".join(f"{offsets[k]:08d}" for k in keys)
            for (lemma, p), keys in sorted(INDEX.items())
            if p == pos
        ]
        (root / f"index.{name}").write_text("  1 licence header\n" + "".join(r + "\n" for r in rows))
    (root / "verb.exc").write_text("struck strike\nstricken strike\n")
    (root / "noun.exc").write_text("")
    (root / "cntlist.rev").write_text("fence%1:06:00:: 1 32\nfence%2:35:00:: 1 1\nkick%2:35:00:: 1 20\n")
    return root


def test_renderings_from_a_wordnet_database(tmp_path):
    rows = build_literal_words(
        ["kicked", "the", "bucket", "legs", "bacon", "fence", "hits", "zzz"], fake_wordnet(tmp_path)
    )
    got = {(r.word, r.pos): (r.literal, r.how) for r in rows}
    assert got[("bucket", "n")] == ("pail", "synonym")
    assert got[("kicked", "v")] == ("struck", "hypernym")  # the English inflector's irregular past
    assert got[("legs", "n")] == ("limbs", "hypernym")
    assert got[("bacon", "n")] == ("cut of pork", "hypernym")  # several words only when one word fails
    assert got[("fence", "n")] == ("fencing", "synonym") and got[("fence", "v")] == ("enclose", "hypernym")
    assert got[("hits", "v")] == ("strikes", "synonym")
    assert ("the", "n") not in got and got[("zzz", "")] == (None, "")  # function words left out; unknown: no pos
    fence = {r.pos: r.count for r in rows if r.word == "fence"}
    assert fence == {"n": 32, "v": 1}
    path = write_literal_words(rows, tmp_path / "words.tsv")
    words = load_literal_words(path)
    assert words["fence"] == {"n": ("fencing", 32), "v": ("enclose", 1)}
    assert literal_span(words_of("He kicked the bucket ."), [1, 3], words) == words_of("He struck the pail .")
    assert literal_span(words_of("They fence it ."), [1], words) == words_of("They fencing it .")  # most counted
    assert literal_span(words_of("to fence it"), [1], words) == words_of("to enclose it")  # a verb after "to"
    assert literal_span(words_of("a zzz"), [1], words) is None and words["zzz"] == {}


@pytest.mark.parametrize(
    ("literal", "word", "lemma", "pos", "expected"),
    [
        ("pail", "buckets", "bucket", "n", "pails"),
        ("person", "friends", "friend", "n", "people"),  # an irregular plural
        ("strike", "kicked", "kick", "v", "struck"),
        ("go", "fallen", "fall", "v", "gone"),  # a participle that is no past
        ("go", "fell", "fall", "v", "went"),
        ("hit", "shooting", "shoot", "v", "hitting"),  # the final consonant doubles
        ("run", "draining", "drain", "v", "running"),
        ("shut", "closed", "close", "v", "shut"),
        ("have", "bears", "bear", "v", "has"),
        ("be", "lay", "lie", "v", "was"),  # "be" by be_form
        ("be", "lying", "lie", "v", "being"),
        ("increase", "upped", "up", "v", "increased"),  # a form the English tables do not know: read from its end
        ("pop", "downs", "down", "v", "pops"),
        ("big", "larger", "large", "a", "more big"),
        ("big", "largest", "large", "a", "most big"),
        ("pail", "bucket", "bucket", "n", "pail"),  # the word is its lemma: the literal as it is
    ],
)
def test_literal_inflected_like_the_word_by_the_readers_inflector(literal, word, lemma, pos, expected):
    assert inflect_like(literal, word, lemma, pos) == expected


def test_part_of_speech_reads_the_context():
    options = {"n": ("pail", 2), "v": ("put", 0)}
    assert part_of_speech(options, "the") == "n" and part_of_speech(options, "to") == "v"
    assert part_of_speech(options, "he") == "n"
    assert part_of_speech({"n": ("x", 1), "v": ("y", 1)}, "") == "v"  # ties: verb first


def test_bad_literal_words_and_missing_wordnet(tmp_path):
    path = tmp_path / "words.tsv"
    path.write_text("\t".join(COLUMNS) + "\nbucket\tq\tpail\tbucket\tsynonym\t2\n")
    with pytest.raises(DataError, match=r"words.tsv: row 1: field 'pos': 'q' is not one of v, n, a, r or empty"):
        load_literal_words(path)
    path.write_text("\t".join(COLUMNS) + "\nbucket\tn\tpail\tbucket\tsynonym\tmany\n")
    with pytest.raises(DataError, match=r"row 1: field 'count': 'many' is not a count"):
        load_literal_words(path)
    with pytest.raises(DataError, match=r"index.noun: file not found \(install WordNet"):
        WordNet(tmp_path / "nowhere")


def test_a_non_numeric_wordnet_field_is_a_data_error_naming_file_and_line(tmp_path):
    """int() of a WordNet field fails in the loader, not past it: a DataError naming the file and line, not a
    bare ValueError (which the error boundary leaves as a traceback)."""
    root = fake_wordnet(tmp_path)
    index = root / "index.noun"
    lines = index.read_text().splitlines(keepends=True)
    cells = lines[2].split(" ")
    cells[2] = "many"  # the synset count of the second entry
    lines[2] = " ".join(cells)
    index.write_text("".join(lines))
    with pytest.raises(DataError, match=r"index\.noun: row 3: malformed WordNet index line") as err:
        WordNet(root)
    assert (err.value.path, err.value.row) == (str(index), 3)
    root = fake_wordnet(tmp_path)
    (root / "cntlist.rev").write_text("fence%1:06:00:: 1 32\nkick%2:35:00:: 1 lots\n")
    with pytest.raises(DataError, match=r"cntlist\.rev: row 2: malformed cntlist line 'kick%2:35:00:: 1 lots'"):
        WordNet(root)


def test_idiom_positions_add_untagged_idiom_words():
    tokens = words_of("She brings home the bacon every week .")
    tags = ("O", "O", "O", "O", "B", "O", "O", "O")
    assert core.idiom_positions(tokens, tags, "bring home the bacon") == [1, 2, 4]
    assert core.idiom_positions(tokens, tags[:-1], "bring home the bacon") is None  # misaligned tags
    assert core.idiom_positions(tokens, ("O",) * 8, "bring home the bacon") is None  # no tags
    tokens = words_of("He ran out of steam .")
    assert core.idiom_positions(tokens, ("O", "B", "I", "O", "I", "O"), "run out of steam") == [1, 4]


def test_pie_candidates_and_discards(tmp_path, monkeypatch):
    words = {"kicked": {"v": ("struck", 1)}, "bucket": {"n": ("pail", 1)}}
    rows = [
        ("kick the bucket", "He kicked the bucket .", "He died .", ("O", "B", "I", "I", "O"), "test"),
        (
            "kick the bucket",
            "She kicked the bucket .",
            "She kicked the bucket off .",
            ("O", "B", "I", "I", "O"),
            "train",
        ),
        ("spill the beans", "He spilled the beans .", "He told .", ("O", "B", "I", "I", "O"), "train"),
    ]
    from idiomkit.data.extra.pie import PieParaphrase

    items = [PieParaphrase(i, "EN", split, s, p, None, tags) for i, s, p, tags, split in rows]
    monkeypatch.setattr(core, "load_pie", lambda data_dir, splits: [i for i in items if i.split in splits])
    monkeypatch.setattr(core, "load_literal_words", lambda path: words)
    discards: Counter = Counter()
    out = core.pie_candidates(tmp_path, discards)
    assert out == [
        Triple("kick the bucket", "EN", "He kicked the bucket .", "He died .", "He struck the pail .", "pie")
    ]
    assert not out[0].human  # idiomkit wrote the misreading
    assert discards == {"pie: paraphrase keeps the idiom's words": 1, "pie: a span word has no literal rendering": 1}
    assert core.pie_candidates(tmp_path, Counter(), ("train",)) == []  # the test row is not a train row


def test_compound_substitution_keeps_case_and_finds_hyphen_variants():
    pattern = core.compound_pattern("alta-costura")
    sentence = "Alta costura é cara ."
    match = pattern.search(sentence)
    assert match and core._substitute(sentence, *match.span(), "moda exclusiva") == "Moda exclusiva é cara ."
    assert core.compound_pattern("guinea pig").search("two guinea pigs") is None  # inflected: not verbatim
    assert core._rewrite_phrase("This is a court case") == "court case"
    assert core._rewrite_phrase("Esta é uma elevada sutura .") == "elevada sutura"
    assert core._rewrite_phrase("court case") is None


def test_heldout_rule_reasons(monkeypatch):
    """wet blanket is a 2A test MWE and an EPIE train idiom: held out (the dedup drops it from training). A
    human-written idiom SemEval train does not name is held out; SemEval train compounds only as few as bring a
    language to its floor, in hash order; a PIE idiom only in its hashed share and never when a benchmark trains on
    it."""
    monkeypatch.setattr(core, "is_carved", lambda idiom: idiom in ("spill the beans", "kick the bucket"))
    monkeypatch.setattr(core, "HUMAN_FLOOR", {"EN": 3, "PT": 0})
    found = [
        Triple("wet blanket", "EN", "s1", "p", "m", "ncs"),
        Triple("spill the beans", "EN", "s2", "p", "m", "pie"),
        Triple("kick the bucket", "EN", "s3", "p", "m", "pie"),  # hashed, but a benchmark trains on it
        Triple("elbow room", "EN", "s4", "p", "m", "ncs"),  # no SemEval train MWE
        Triple("rat race", "EN", "s5", "p", "m", "astitch-2a"),  # SemEval train MWEs: carved only to reach the floor
        Triple("big fish", "EN", "s6", "p", "m", "astitch-2a"),
        Triple("top dog", "EN", "s7", "p", "m", "astitch-2a"),
    ]
    trained = {"wet blanket", "kick bucket", "rat race", "big fish", "top dog", "elbow room"}
    semeval = {"rat race", "big fish", "top dog"}

    def count(held):  # one human-written held-out triple per held-out idiom
        return core.Counter(t.language for t in found if t.human and core.normalise_idiom(t.idiom) in held)

    base = core.heldout_rule(found, trained, semeval, frozenset({"wet blanket"}))
    assert base == {"wet blanket": "benchmark", "spill beans": "hash", "elbow room": "human"}
    rule = core.heldout_rule(found, trained, semeval, frozenset({"wet blanket"}), count)
    topped = {k for k, reason in rule.items() if reason == "human-topup"}
    assert len(topped) == 1 and topped < semeval  # two human-written idioms, the floor three: one compound more
    first = min(semeval, key=lambda k: (core._hash(k), k))
    assert topped == {first}  # the first in the fixed hash order
    rows = core.heldout_rows(found + [Triple("spill the beans", "EN", "s8", "p", "m", "ncs")], rule)
    assert ("EN", "elbow room", "elbow room", "ncs", "human") in rows
    assert ("EN", "spill the beans", "spill beans", "ncs,pie", "hash") in rows


def test_split_marks_heldout_and_drops_seen_rows_a_training_source_holds():
    trained, validation = {"a training sentence"}, frozenset({"val idiom"})
    discards: Counter = Counter()
    held = core._split(Triple("x", "EN", "A training sentence.", "p", "m", "ncs"), {"x"}, trained, discards)
    assert held.heldout and not held.seen_ok  # a held-out idiom keeps every sentence
    assert core._split(Triple("y", "EN", "A training sentence", "p", "m", "pie"), {"x"}, trained, discards) is None
    val = Triple("val idiom", "EN", "New.", "p", "m", "pie")
    assert core._split(val, set(), trained, discards, validation) is None
    seen = core._split(Triple("y", "EN", "New.", "p", "m", "pie"), {"x"}, trained, discards)
    assert seen is not None and not seen.heldout
    assert discards == {
        "pie: seen idiom's sentence in a training source": 1,
        "pie: a misreading validation idiom's row": 1,
    }


def test_cap_per_idiom_and_sentence_once(monkeypatch):
    monkeypatch.setattr(core, "MAX_PER_IDIOM", 2)
    triples = [Triple("x", "EN", f"sentence {i}", "p", "m", "pie", heldout=True) for i in range(5)]
    triples.append(Triple("y", "EN", "Sentence 0", "p", "m", "ncs", heldout=True))
    human = [Triple("x", "EN", f"human {i}", "p", "m", "ncs", heldout=True) for i in range(3)]
    assert sum(t.human for t in core._cap(triples + human, Counter())) == 2  # its own cap per construction
    discards: Counter = Counter()
    out = core._cap(triples, discards)
    assert sum(t.idiom == "x" for t in out) == 2 and core._cap(triples, Counter()) == out
    assert sum(discards.values()) == len(triples) - len(out) and discards["pie: over 2 triples per idiom"] >= 2
    assert len({t.sentence.lower() for t in out}) == len(out)  # "Sentence 0" and "sentence 0" are one sentence
    assert out == sorted(out, key=triples.index)  # kept in input order


def test_bad_heldout_list_names_file_row_and_field(tmp_path):
    path = tmp_path / "list.tsv"
    header = "\t".join(core.LIST_COLUMNS) + "\n"
    path.write_text(header + "EN\tspill the beans\tspill beans\tpie\tmaybe\n")
    with pytest.raises(DataError, match=r"list.tsv: row 1: field 'reason': 'maybe' is not one of benchmark, human"):
        core.load_heldout_list(path)
    path.write_text(header + "EN\tspill the beans\tspill the beans\tpie\thash\n")
    with pytest.raises(DataError, match=r"row 1: field 'key': 'spill the beans' is not the key of 'spill the beans'"):
        core.load_heldout_list(path)
    path.write_text(header + "EN\tspill the beans\tspill beans\tpie\thash\n")
    assert core.load_heldout_list(path) == [("EN", "spill the beans", "spill beans", "pie", "hash")]
