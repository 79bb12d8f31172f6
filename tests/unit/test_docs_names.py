"""One name per thing in what a user reads: a result of ``idiomkit evaluate all`` is a *scorecard*, a trained or
shipped model's README is its *model card*; the bare word "card" (cards, carded) names neither. Checked in the user
pages (the README and ``docs/*.md``; the lab notebook, ``docs/notes/``, keeps its words) and in the text the report,
the scorecard and the command line write (their string literals and docstrings)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import ROOT

BARE_CARD = re.compile(r"\bcard(?:s|ed|ing)?\b", re.IGNORECASE)
NAMED_CARD = re.compile(r"\bmodel\s+cards?\b|\bscorecards?\b", re.IGNORECASE)  # the two names, across a line break
WRITERS = ("report", "scorecard", "cli")  # the packages whose strings land in pages, tables, help and logs


def bare_cards(text: str) -> list[str]:
    """Each bare "card" of ``text`` (one that is not part of "model card(s)" or "scorecard(s)") as ``line N: ...``
    with the words around it."""
    masked = NAMED_CARD.sub(lambda m: "#" * len(m.group()), text)  # same length: positions stay
    found = []
    for m in BARE_CARD.finditer(masked):
        line = text.count("\n", 0, m.start()) + 1
        found.append(f"line {line}: {' '.join(text[max(0, m.start() - 40) : m.end() + 20].split())}")
    return found


def user_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def literal_cards(path: Path) -> list[str]:
    """:func:`bare_cards` of each string literal of a module (docstrings and f-string parts included; ``line N``
    is where the literal starts), but of those that are one name (a dict key, a field, a module path: ``"card"``
    is a field of ``idiomkit models --json``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    strings = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return [
        f"line {node.lineno}, {hit}"
        for node in strings
        if not re.fullmatch(r"[\w.\-]*", node.value)
        for hit in bare_cards(node.value)
    ]


def test_user_pages_name_a_scorecard_and_a_model_card_apart():
    assert len(user_pages()) > 10
    found = {p.relative_to(ROOT).as_posix(): hits for p in user_pages() if (hits := bare_cards(p.read_text("utf-8")))}
    assert found == {}


def test_the_report_scorecard_and_cli_write_no_bare_card():
    """What ``idiomkit report`` writes into the README and ``docs/results/`` (the notes it copies aside), the
    scorecard's tables and logs, and the command line's help."""
    modules = [p for package in WRITERS for p in sorted((ROOT / "src" / "idiomkit" / package).rglob("*.py"))]
    assert len(modules) > 20
    found = {p.relative_to(ROOT).as_posix(): hits for p in modules if (hits := literal_cards(p))}
    assert found == {}


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("No card is on the current core test yet.", True),
        ("both cards' predictions", True),
        ("until carded, or trained, again", True),
        ("the `card` module", True),
        ("the scorecard of one model; two scorecards", False),
        ("its model card, their model\ncards", False),
        ("write_card(spec), card_of(x), scorecard.card_lines", False),
        ("a scorecard card", True),
    ],
)
def test_the_rule_finds_what_it_means(text, bare):
    assert bool(bare_cards(text)) is bare
