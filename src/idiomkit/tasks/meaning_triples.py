"""The core test of idiom understanding (``meaning-triples``): for an idiomatic sentence, is its figurative
paraphrase nearer than its literal misreading? ("kicked the bucket" -> "died", not "struck the pail").

Triples come from :mod:`idiomkit.data.meaning_triples`. Groups (each with ``accuracy``, its 95 % bootstrap
interval ``accuracy_ci95`` over *idioms* -- :data:`BOOTSTRAP_RESAMPLES` resamples with replacement, all of an idiom's
triples together, numpy seed :data:`BOOTSTRAP_SEED`, percentile interval --, ``auc`` (ROC-AUC of cos(sentence,
paraphrase) against cos(sentence, misreading)), ``margin`` (mean of their difference), ``n``, ``idioms`` and
``controls``):

- ``heldout``, ``heldout_EN``, ``heldout_PT``: idioms held out from every training stream and from the scoring
  lexicon, paraphrase and misreading *written by people* (NCS, AStitch in 2A sentences): the headline columns;
- ``heldout_pie``: held-out idioms in PIE sentences with idiomkit's WordNet misreadings, the construction the
  misreading stream trains on: a diagnostic, never a target;
- ``seen`` (``seen_EN``, ``seen_PT``, ``seen_human``, ``seen_pie``): idioms the training streams see, in sentences no
  stream trains or validates on, without the lookup-equal ones;
- ``lookup_equal``: seen triples whose paraphrase a lexicon lookup reproduces (the paraphrase is one of the lexicon's
  meanings of the idiom, or holds one as a run of words the sentence does not hold: the reader in replace mode turns
  the sentence into the paraphrase, or nearly): they grade the lexicon against itself, so they are reported apart;
  ``heldout_lookup_equal`` counts held-out triples the lexicon knows (0 unless it leaks held-out idioms);
- ``all`` and ``source_<source>``.

``controls`` (:mod:`idiomkit.tasks.core_controls`): on the same triples, the accuracy of the bag-of-inserted-words
classifier (``bow``) and of the length/overlap rule fixed on the training rows (``length_overlap``; ``reversed``: the
opposite rule), each with its interval; ``headline``: whether both stay within
:data:`~idiomkit.tasks.core_controls.CONTROL_CEILING` of chance either way (.45-.55; a column is a headline only
then); and ``balanced``: the model's *control-balanced accuracy* (the triples weighted so both controls score .5,
:func:`~idiomkit.tasks.core_controls.balancing_weights`), its interval and ``n_eff``, the number a column that is no
headline can still be read by.

Example::

    core = core_test("../shared/data")
    metrics, cosines = score_triples(model, core.triples)
    metrics["heldout"]["accuracy"], metrics["heldout"]["controls"]["headline"]
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.metrics import roc_auc_score

from idiomkit.data.heldout import IdiomForms, core_test
from idiomkit.data.keys import normalise_sentence
from idiomkit.data.meaning_triples import VERSION, CoreTest, Triple
from idiomkit.embedding.encode import encode_texts
from idiomkit.idioms.version import READER_VERSION
from idiomkit.metrics.bootstrap import cluster_weights, percentile_interval, weighted_mean
from idiomkit.tasks.base import EvalContext, Task, TaskMetadata, TaskOutput
from idiomkit.tasks.core_controls import (
    CONTROL_CEILING,
    CONTROLS,
    Controls,
    balancing_weights,
    fitted_controls,
    rule_correct,
    within_ceiling,
)

log = logging.getLogger(__name__)

__all__ = [
    "CoreTest",
    "MeaningTriplesTask",
    "MeaningTriplesOptions",
    "Triple",
    "bootstrap_ci",
    "control_metrics",
    "core_test",
    "lookup_equal",
    "score_triples",
    "triple_metrics",
    "triples_tsv",
]

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
QUICK_STRIDE = 5  # quick mode keeps every 5th triple
# the groups a scorecard's table and the report show, in order (with the lookup-equal ones apart)
COLUMNS = ("heldout_EN", "heldout_PT", "heldout", "heldout_pie", "seen", "lookup_equal")
OPPOSITE = {"shorter": "longer", "longer": "shorter", "less overlap": "more overlap", "more overlap": "less overlap"}


def idiom_resamples(
    clusters: Sequence[str], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> np.ndarray:
    """``(resamples, triples)`` multiplicities of the bootstrap over whole ``clusters`` (idioms)
    (:func:`idiomkit.metrics.bootstrap.cluster_weights` without its all-ones row): the draws of every interval."""
    return cluster_weights(clusters, resamples=resamples, seed=seed)[1:]


def bootstrap_ci(
    correct: np.ndarray,
    clusters: Sequence[str],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``correct``, resampling whole ``clusters`` (idioms)
    (:mod:`idiomkit.metrics.bootstrap`, the draws the paired intervals make)."""
    draws = idiom_resamples(clusters, resamples=resamples, seed=seed)
    return percentile_interval(weighted_mean(np.asarray(correct, dtype=float), draws), level)


def triple_metrics(pos: np.ndarray, neg: np.ndarray, clusters: Sequence[str] | None = None) -> dict[str, Any]:
    """Accuracy, ROC-AUC and mean margin of paraphrase cosines ``pos`` against misreading cosines ``neg``; with
    ``clusters`` (each triple's idiom) also the accuracy's bootstrap interval and the number of idioms."""
    if len(pos) == 0:
        return {"n": 0}
    labels = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    out: dict[str, Any] = {
        "n": int(len(pos)),
        "accuracy": float(np.mean(pos > neg)),
        "auc": float(roc_auc_score(labels, np.r_[pos, neg])),
        "margin": float(np.mean(pos - neg)),
    }
    if clusters is not None:
        out["idioms"] = len(set(clusters))
        out["accuracy_ci95"] = list(bootstrap_ci(pos > neg, clusters))
    return out


def _contains(text: str, words: str) -> bool:
    return bool(words) and f" {words} " in f" {text} "


def lookup_equal(triple: Triple, lexicon) -> bool:
    """Whether a lookup of ``triple``'s idiom in ``lexicon`` reproduces its paraphrase (module docstring)."""
    entry = lexicon.get(triple.idiom, triple.language) if lexicon is not None else None
    if entry is None:
        return False
    paraphrase, sentence = normalise_sentence(triple.paraphrase), normalise_sentence(triple.sentence)
    meanings = [normalise_sentence(m) for m in entry.meanings]
    return any(m == paraphrase or (_contains(paraphrase, m) and not _contains(sentence, m)) for m in meanings)


def groups_of(triple: Triple, looked_up: bool | None = None) -> list[str]:
    """The metric groups a triple counts in (module docstring; ``looked_up``: whether it is lookup-equal, None: no
    lexicon, so none is)."""
    out = ["all", f"source_{triple.source}"]
    if triple.heldout:
        out += [f"heldout_{triple.language}", "heldout"] if triple.human else ["heldout_pie"]
        return out + (["heldout_lookup_equal"] if looked_up else [])
    if looked_up:
        return [*out, "lookup_equal"]
    return [*out, "seen", f"seen_{triple.language}", "seen_human" if triple.human else "seen_pie"]


def control_metrics(
    controls: Controls,
    triples: Sequence[Triple],
    members: dict[str, list[int]],
    model_correct: np.ndarray | None = None,
) -> dict[str, dict[str, Any]]:
    """``{group: controls block}`` (module docstring) for the groups of ``members`` (group -> triple indices); with
    ``model_correct`` (per triple, whether the model chose the paraphrase) each block also holds ``balanced``: the
    model's control-balanced accuracy (:func:`balanced_metrics`)."""
    correct = controls.correct(triples)
    reversed_rule = rule_correct(OPPOSITE[controls.rule], triples)
    idioms = [t.idiom for t in triples]
    out = {}
    for group, idx in members.items():
        resamples = idiom_resamples([idioms[i] for i in idx])  # one draw for every interval of the group
        block: dict[str, Any] = {}
        for name, values in (*correct.items(), ("reversed", reversed_rule)):
            block[name] = float(np.mean(values[idx]))
            block[f"{name}_ci95"] = list(percentile_interval(weighted_mean(values[idx], resamples)))
        block["headline"] = all(within_ceiling(block[name]) for name in CONTROLS)
        if model_correct is not None:
            block["balanced"] = balanced_metrics(model_correct[idx], [correct[c][idx] for c in CONTROLS], resamples)
        out[group] = block
    return out


def balanced_metrics(
    model_correct: np.ndarray, control_correct: Sequence[np.ndarray], resamples: np.ndarray
) -> dict[str, Any]:
    """The model's accuracy with the triples weighted so every control scores .5
    (:func:`~idiomkit.tasks.core_controls.balancing_weights`), its interval (``resamples``: the idiom resamples of
    :func:`idiom_resamples`, each balanced again) and ``n_eff``; ``{}`` when the column cannot be balanced (a control
    right on every triple, or wrong on every one)."""
    weights = balancing_weights(control_correct)
    if not np.isfinite(weights).all():
        return {}
    model_correct = np.asarray(model_correct, dtype=float)
    return {
        "accuracy": float(weights @ model_correct),
        "accuracy_ci95": list(percentile_interval(balancing_weights(control_correct, resamples) @ model_correct)),
        "n_eff": float(1 / np.sum(weights**2)),
    }


def score_triples(
    model,
    triples: Sequence[Triple],
    *,
    batch_size: int = 64,
    prompt_name: str | None = None,
    lexicon=None,
    controls: Controls | None = None,
) -> tuple[dict[str, Any], np.ndarray]:
    """Metrics per group and the ``(n, 2)`` cosines (paraphrase, misreading) of each triple; ``lexicon`` (a
    :class:`~idiomkit.idioms.lexicon.Lexicon`) splits the lookup-equal triples off; ``controls`` adds each group's
    shortcut controls (:func:`control_metrics`)."""
    texts = list(dict.fromkeys(t for tr in triples for t in (tr.sentence, tr.paraphrase, tr.misreading)))
    emb = encode_texts(model, texts, prompt_name=prompt_name, batch_size=batch_size)
    emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
    index = {t: i for i, t in enumerate(texts)}

    def rows(attr: str) -> np.ndarray:
        return emb[[index[getattr(tr, attr)] for tr in triples]]

    anchor = rows("sentence")
    cos = np.stack([(anchor * rows("paraphrase")).sum(1), (anchor * rows("misreading")).sum(1)], axis=1)
    members: dict[str, list[int]] = {}
    for i, tr in enumerate(triples):
        for group in groups_of(tr, None if lexicon is None else lookup_equal(tr, lexicon)):
            members.setdefault(group, []).append(i)
    idioms = [tr.idiom for tr in triples]
    metrics = {
        group: triple_metrics(cos[idx, 0], cos[idx, 1], [idioms[i] for i in idx])
        for group, idx in sorted(members.items())
    }
    if controls is not None:
        for group, block in control_metrics(controls, triples, members, cos[:, 0] > cos[:, 1]).items():
            metrics[group]["controls"] = block
    for group in COLUMNS:
        metrics.setdefault(group, {"n": 0})
    return metrics, cos


def triples_tsv(triples: Sequence[Triple], cos: np.ndarray, lexicon=None) -> str:
    """Raw predictions: one line per triple with both cosines, whether it is lookup-equal in ``lexicon`` and its
    column (``heldout``: held-out, human-written; ``heldout_pie``; ``seen``; ``lookup_equal``)."""
    lines = [
        "idiom\tlanguage\tsource\theldout\tlookup_equal\tcolumn\tsentence\tparaphrase\tmisreading\t"
        "cos_paraphrase\tcos_misreading"
    ]
    for tr, (p, n) in zip(triples, cos, strict=True):
        looked_up = None if lexicon is None else lookup_equal(tr, lexicon)
        column = next(g for g in ("heldout", "heldout_pie", "seen", "lookup_equal") if g in groups_of(tr, looked_up))
        cells = [
            tr.idiom,
            tr.language,
            tr.source,
            str(int(tr.heldout)),
            "" if looked_up is None else str(int(looked_up)),
            column,
            tr.sentence,
            tr.paraphrase,
            tr.misreading,
        ]
        lines.append("\t".join(c.replace("\t", " ") for c in cells) + f"\t{p:.6f}\t{n:.6f}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- task


def reader_lexicon(model, data_dir):
    """What lookup-equal is measured against, and its name for the params: the lexicon of the idiom reader in
    front of ``model``, else the evaluation lexicon of ``data_dir`` (the shipped one minus every held-out idiom, as
    a scored reader gets it), so a model without a reader is split by the same lexicon as one with it."""
    from idiomkit.idioms.reader import model_reader
    from idiomkit.idioms.sources import evaluation_lexicon

    reader = model_reader(model)
    if reader is not None:
        return reader.lexicon, "the reader's"
    return evaluation_lexicon(data_dir), "evaluation"


def warn_leaks(triples: Sequence[Triple], lexicon, which: str) -> int:
    """Log the held-out idioms ``lexicon`` knows in any form (an entry that is one, or holds one: the held-out
    check, :class:`~idiomkit.data.heldout.IdiomForms`); it should know none. Returns their number."""
    held = {(t.idiom, t.language) for t in triples if t.heldout}
    forms = IdiomForms(held)
    leaked = {idiom for idiom, language in held if lexicon.get(idiom, language) is not None}
    leaked = sorted(leaked | {i for entry in lexicon for i in forms.find(entry.idiom)})
    if leaked:
        log.warning(
            "core test: the %s lexicon knows %d held-out idioms (%s%s): rebuild it from heldout_index",
            which,
            len(leaked),
            ", ".join(leaked[:5]),
            ", ..." if len(leaked) > 5 else "",
        )
    return len(leaked)


@dataclass
class MeaningTriplesOptions:
    """``idiomkit evaluate meaning-triples`` options (none on the command line)."""

    lexicon: Any = field(default=None, metadata={"cli": False})  # lookup-equal against it (default: reader_lexicon)


class MeaningTriplesTask(Task):
    metadata = TaskMetadata(
        name="meaning-triples",
        result_task="meaning-triples",
        description="The core test: is the figurative paraphrase nearer than the literal misreading? (accuracy, AUC)",
        main_score="heldout.accuracy",
        languages=("en", "pt"),
        reference="idiomkit core test: human-written NCS and AStitch readings (headline), PIE/WordNet (diagnostic)",
        data_files=("idioms_extra",),
        title="The core test: figurative paraphrase vs literal misreading",
    )
    Options = MeaningTriplesOptions

    def run(self, model, options: MeaningTriplesOptions, context: EvalContext) -> TaskOutput:
        """Score every triple (quick: every :data:`QUICK_STRIDE`-th) with 95 % bootstrap intervals over idioms and
        the shortcut controls beside every group."""
        core = core_test(context.data_dir)
        triples = core.triples[::QUICK_STRIDE] if context.quick else core.triples
        lexicon, which = (
            (options.lexicon, "given") if options.lexicon is not None else reader_lexicon(model, context.data_dir)
        )
        controls = fitted_controls(context.data_dir)
        metrics, cos = score_triples(
            model,
            triples,
            batch_size=context.batch_size,
            prompt_name=context.prompt_name,
            lexicon=lexicon,
            controls=controls,
        )
        params = {
            "core_test_version": VERSION,
            "triples": len(triples),
            "lookup_lexicon": f"{which} ({len(lexicon)} entries)",
            # the reader version whose evaluation lexicon set the lookup-equal triples apart from the seen ones (a
            # model without a reader too: its seen column changes with the lexicon)
            **({"lookup_lexicon_version": READER_VERSION} if which == "evaluation" else {}),
            "heldout_idioms_in_lexicon": warn_leaks(triples, lexicon, which),
            "controls": {**controls.fit, "ceiling": CONTROL_CEILING},
            "discarded": core.discarded,
        }
        return TaskOutput(metrics, params, list(core.files), {"tsv": triples_tsv(triples, cos, lexicon)})

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:
        rows = [
            [
                "triples",
                "n",
                "accuracy",
                "95 % CI",
                "AUC",
                "control: BoW",
                "control: length/overlap",
                "headline",
                "balanced (n_eff)",
            ]
        ]
        for group in COLUMNS:
            block = metrics.get(group) or {}
            if block.get("n"):
                low, high = block["accuracy_ci95"]
                rows.append([group, str(block["n"]), f"{block['accuracy']:.3f}", f"{low:.3f}-{high:.3f}"])
                rows[-1].append(f"{block['auc']:.3f}")
                controls = block.get("controls") or {}
                if controls:
                    rows[-1] += [f"{controls['bow']:.3f}", f"{controls['length_overlap']:.3f}"]
                    rows[-1].append("yes" if controls["headline"] else "no")
                    balanced = controls.get("balanced") or {}
                    rows[-1].append(f"{balanced['accuracy']:.3f} ({balanced['n_eff']:.0f})" if balanced else "")
        return rows
