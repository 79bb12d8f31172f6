"""Relabelled training data for the adaptive triplet recipe (He & Scarton) and the MWE key its validation split is
carved by (:func:`idiomkit.tasks.semeval2a.split_by_mwe`).

Rule: rows of subtask B ``train_data.csv`` are grouped by ``sentence_1`` (the sentence with the MWE). In a group,
the MWE sentence and its correct paraphrases (``sentence_2`` of ``sim=1`` rows and ``alternative_1`` of
``sim=None`` rows, deduplicated) share one label; every incorrect paraphrase (``sentence_2`` of ``sim=None``
rows) gets a label of its own. Labels never repeat across groups and a group's rows stay adjacent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from idiomkit.data.semeval2022 import EvalPair, GoldRow, TrainPair
from idiomkit.data.sts import StsPair


@dataclass(frozen=True)
class LabelledSentence:
    """One training row: ``label`` (anchor/positive identity), ``group`` (MWE sentence group), text, MWEs."""

    label: int
    group: int
    text: str
    mwes: tuple[str, ...]
    language: str
    role: str  # "mwe", "correct" or "incorrect"


@dataclass(frozen=True)
class Group:
    """The rows of ``train_data.csv`` that share one MWE sentence."""

    sentence: str
    language: str
    mwes: tuple[str, ...]
    correct: tuple[str, ...]
    incorrect: tuple[tuple[str, str], ...]  # (incorrect sentence, its correct-paraphrase sentence alternative_1)

    def other_id_reference(self, alternative: str) -> str:
        """The sentence an incorrect paraphrase is graded against by 2B's otherID rule: its ``alternative_1``, else
        the group's first correct paraphrase, else the MWE sentence."""
        return alternative or (self.correct[0] if self.correct else self.sentence)


def group_pairs(pairs: Sequence[TrainPair]) -> list[Group]:
    """Group train pairs by ``sentence_1`` (first-seen order); correct paraphrases deduplicated."""
    order: dict[str, list[TrainPair]] = {}
    for pair in pairs:
        order.setdefault(pair.sentence_1, []).append(pair)
    groups = []
    for sentence, rows in order.items():
        correct = [p.sentence_2 for p in rows if p.sim is not None and p.sim >= 1.0]
        correct += [p.alternative_1 for p in rows if p.sim is None and p.alternative_1]
        incorrect = [(p.sentence_2, p.alternative_1 or "") for p in rows if p.sim is None]
        incorrect = list(dict.fromkeys(incorrect))
        groups.append(
            Group(
                sentence=sentence,
                language=rows[0].language,
                mwes=rows[0].mwes,
                correct=tuple(c for c in dict.fromkeys(correct) if c != sentence),
                incorrect=tuple(incorrect),
            )
        )
    return groups


def relabel(groups: Sequence[Group]) -> list[LabelledSentence]:
    """The relabelled sentence list: MWE sentence + correct paraphrases share a label, each incorrect has its own."""
    out: list[LabelledSentence] = []
    label = 0
    for g_id, g in enumerate(groups):
        meta = {"group": g_id, "mwes": g.mwes, "language": g.language}
        out.append(LabelledSentence(label, text=g.sentence, role="mwe", **meta))
        out += [LabelledSentence(label, text=c, role="correct", **meta) for c in g.correct]
        seen = {g.sentence, *g.correct}
        for sentence, _ in g.incorrect:
            if sentence in seen:
                continue  # a duplicate, or not an incorrect meaning after all
            seen.add(sentence)
            label += 1
            out.append(LabelledSentence(label, text=sentence, role="incorrect", **meta))
        label += 1
    return out


def mwe_key(group: Group) -> str:
    return " | ".join(m.lower() for m in group.mwes)


def validation_pairs(groups: Sequence[Group], sts: Sequence[StsPair] = ()) -> tuple[list[EvalPair], list[GoldRow]]:
    """Pseudo-gold subtask B pairs for validation groups (scored with the organisers' otherID rule).

    (MWE sentence, correct paraphrase) -> gold 1.0; (MWE sentence, incorrect paraphrase) -> gold = the model's
    similarity of (correct paraphrase sentence, incorrect paraphrase), an extra pair named by ``other_id``.
    ``sts`` (the STS validation pairs) join as STS rows with their score as gold, as 2B dev's STS rows are
    STS-B/ASSIN 2 pairs: the table's ``all`` then ranks idiom and STS pairs together, like 2B dev's ``all``.
    """
    pairs: list[EvalPair] = []
    gold: list[GoldRow] = []
    for g_id, g in enumerate(groups):
        mwe1, mwe2 = g.mwes[0], (g.mwes[1] if len(g.mwes) > 1 else None)

        def add(pid: str, s1: str, s2: str, mwe1=mwe1, mwe2=mwe2, lang=g.language) -> None:
            pairs.append(EvalPair(pid, lang, mwe1, mwe2, s1, s2))

        for k, c in enumerate(g.correct):
            add(f"val.{g_id}.c{k}", g.sentence, c)
            gold.append(GoldRow(f"val.{g_id}.c{k}", f"val.{g.language}.{g_id}.c{k}", g.language, 1.0, None))
        for k, (inc, alt) in enumerate(g.incorrect):
            add(f"val.{g_id}.i{k}", g.sentence, inc)
            add(f"val.{g_id}.a{k}", g.other_id_reference(alt), inc)
            data_id = f"val.{g.language}.{g_id}.i{k}"
            gold.append(GoldRow(f"val.{g_id}.i{k}", data_id, g.language, None, f"val.{g_id}.a{k}"))
    for k, p in enumerate(sts):
        pairs.append(EvalPair(f"valsts.{k}", p.language, "", None, p.sentence_1, p.sentence_2))
        gold.append(GoldRow(f"valsts.{k}", f"val.{p.language}.sts.{k}", p.language, p.score, None))
    return pairs, gold
