"""SemEval-2022 Task 2A (is this MWE used idiomatically here?): official macro-F1, submission CSV, and the
cheap classifier — a logistic-regression probe on frozen span (late-chunking) embeddings of the MWE.

Scoring follows the organisers' SubTask1Evaluator: macro-F1 over the two labels (0 idiomatic, 1 literal),
separately per setting (zero_shot / one_shot), for EN, PT and both languages pooled (``ALL``).
Dev is held out: the probe's regularisation is chosen on a split of train carved by MWE.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from idiomkit.data.csvio import read_csv_rows
from idiomkit.data.errors import DataError
from idiomkit.data.semeval2a import SETTINGS, Example2A, load_dev_split, load_setting
from idiomkit.embedding.spans import encode_spans
from idiomkit.errors import InputError, OptionError
from idiomkit.metrics.classification import macro_f1
from idiomkit.tasks.base import EvalContext, Task, TaskMetadata, TaskOutput

T = TypeVar("T")

SUBMISSION_COLUMNS = ["ID", "Language", "Setting", "Label"]
PROBE_C = (0.01, 0.1, 1.0, 10.0)

# Published 2A dev macro-F1 (ALL) beside ours: YNU-HPCC Table 1 (dev column; selected on dev) and the task baseline.
PAPER_ROWS: list[tuple[str, dict[str, float], str]] = [
    ("task baseline (mBERT), zero-shot", {"ALL.macro_f1": 0.6482}, "Tayyar Madabushi et al. 2022, via YNU-HPCC Tab. 1"),
    ("YNU-HPCC xlm-R base (CLS of 12 layers), zero-shot", {"ALL.macro_f1": 0.7293}, "Liu et al. 2022, Tab. 1, dev"),
    ("task baseline (mBERT), one-shot", {"ALL.macro_f1": 0.8691}, "Tayyar Madabushi et al. 2022, via YNU-HPCC Tab. 1"),
    ("YNU-HPCC xlm-R base (CLS), one-shot", {"ALL.macro_f1": 0.9002}, "Liu et al. 2022, Tab. 1, dev"),
]


def score(predictions: Mapping[str, int], gold: Sequence[Example2A]) -> dict[str, dict[str, float]]:
    """``{"ALL": {"macro_f1", "n"}, "EN": ..., "PT": ...}`` for one setting; every gold ID needs a prediction."""
    missing = [ex.id for ex in gold if ex.id not in predictions]
    if missing:
        raise InputError(f"{len(missing)} gold example(s) have no prediction, e.g. ID '{missing[0]}'")
    out = {}
    languages = ["ALL"] + [lang for lang in ("EN", "PT", "GL") if any(ex.language == lang for ex in gold)]
    for lang in languages:
        rows = [ex for ex in gold if lang == "ALL" or ex.language == lang]
        f1 = macro_f1([ex.label for ex in rows], [predictions[ex.id] for ex in rows])
        out[lang] = {"macro_f1": f1, "n": len(rows)}
    return out


def submission_csv(examples: Sequence[Example2A], labels: Sequence[int], setting: str) -> str:
    """The task's submission format: ``ID,Language,Setting,Label`` (one row per example)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(SUBMISSION_COLUMNS)
    for ex, label in zip(examples, labels, strict=True):
        writer.writerow([ex.id, ex.language, setting, int(label)])
    return buf.getvalue()


def read_2a_submission(path: str | Path) -> dict[str, dict[str, int]]:
    """``{setting: {ID: label}}`` from a submission CSV; blank labels (unfilled settings) are skipped."""
    path = Path(path)
    out: dict[str, dict[str, int]] = {}
    for row, rec in read_csv_rows(path, SUBMISSION_COLUMNS):
        if rec["Setting"] not in SETTINGS:
            raise DataError(path, row, "Setting", f"'{rec['Setting']}' (expected {' or '.join(SETTINGS)})")
        if rec["Label"] == "":
            continue
        if rec["Label"] not in ("0", "1"):
            raise DataError(path, row, "Label", f"'{rec['Label']}' is not 0 or 1")
        block = out.setdefault(rec["Setting"], {})
        if rec["ID"] in block:
            raise DataError(path, row, "ID", f"duplicate '{rec['ID']}' in setting {rec['Setting']}")
        block[rec["ID"]] = int(rec["Label"])
    return out


def split_by_mwe(
    items: Sequence[T], fraction: float = 0.1, seed: int = 0, group: Callable[[T], str] | None = None
) -> tuple[list[T], list[T]]:
    """(train, validation): ``fraction`` of the distinct MWEs (seeded; at least one, none when ``fraction`` is 0)
    and all their items go to validation. ``group`` maps an item to its MWE key (default ``item.mwe``; e.g. the
    PIE when ``mwe`` is an inflected form, or the joined MWEs of a 2B training group)."""
    key = group or (lambda item: item.mwe)
    mwes = sorted({key(item) for item in items})
    held = set(random.Random(seed).sample(mwes, max(1, round(fraction * len(mwes))))) if fraction > 0 else set()
    return [item for item in items if key(item) not in held], [item for item in items if key(item) in held]


def probe_features(model, examples: Sequence[Example2A], features: str, prompt: str | None, batch_size: int):
    """Frozen embeddings: ``span`` (MWE tokens, late chunking), ``sentence`` (whole target) or ``span+sentence``."""

    texts = [ex.target for ex in examples]
    parts = []
    if "span" in features:
        parts.append(encode_spans(model, texts, [ex.span for ex in examples], prompt=prompt, batch_size=batch_size))
    if "sentence" in features:
        parts.append(encode_spans(model, texts, [(0, len(t)) for t in texts], prompt=prompt, batch_size=batch_size))
    if not parts:
        expected = "span, sentence, span+sentence; +shots, +shots+rule"
        raise OptionError(f"unknown probe features '{features}' (expected {expected})")
    return np.concatenate(parts, axis=1)


def pick_shots(
    examples: Sequence[Example2A], seed: int = 0, rng: random.Random | None = None
) -> dict[str, dict[int, list[int]]]:
    """Episodes for the one-shot probe: per MWE, one example per label (seeded, or drawn from ``rng`` when given:
    repeated episodes) -> ``{mwe: {label: [index]}}``."""
    rng = rng or random.Random(seed)
    by_key: dict[tuple[str, int], list[int]] = {}
    for i, ex in enumerate(examples):
        by_key.setdefault((ex.mwe, ex.label), []).append(i)
    shots: dict[str, dict[int, list[int]]] = {}
    for (mwe, label), idx in sorted(by_key.items()):
        shots.setdefault(mwe, {})[label] = [rng.choice(idx)]
    return shots


def shot_table(examples: Sequence[Example2A], indices: Sequence[int]) -> dict[str, dict[int, list[int]]]:
    """``examples[i]`` for every ``i`` in ``indices`` as labelled shots: ``{mwe: {label: [i, ...]}}``."""
    table: dict[str, dict[int, list[int]]] = {}
    for i in indices:
        table.setdefault(examples[i].mwe, {}).setdefault(examples[i].label, []).append(i)
    return table


def one_shot_table(one_shot: Sequence[Example2A], dev: Sequence[Example2A]) -> dict[str, dict[int, list[int]]]:
    """:func:`shot_table` of every one-shot example; a dev MWE without one is a one-line InputError naming it."""
    table = shot_table(one_shot, range(len(one_shot)))
    missing = sorted({ex.mwe for ex in dev} - set(table))
    if missing:
        raise InputError(
            f"{len(missing)} dev MWE(s) have no one-shot example, e.g. '{missing[0]}' (dev row of ID "
            f"{next(ex.id for ex in dev if ex.mwe == missing[0])})"
        )
    return table


SHOT_FEATURES = ("cos_literal", "cos_idiomatic", "cos_difference", "has_literal_shot", "has_idiomatic_shot")


def shot_features(x: np.ndarray, mwes: Sequence[str], x_shots: np.ndarray, shots: dict) -> np.ndarray:
    """Per example, against its MWE's labelled shots (rows of ``x_shots``): max cosine to the literal shots, to the
    idiomatic shots, their difference, and whether each kind exists (0 where there is none)."""
    unit = x / np.linalg.norm(x, axis=1, keepdims=True).clip(1e-9)
    unit_shots = x_shots / np.linalg.norm(x_shots, axis=1, keepdims=True).clip(1e-9)
    out = np.zeros((len(x), len(SHOT_FEATURES)), dtype=np.float32)
    for i, mwe in enumerate(mwes):
        sims = {lab: float(np.max(unit_shots[idx] @ unit[i])) for lab, idx in shots.get(mwe, {}).items()}
        lit, idi = sims.get(1), sims.get(0)
        out[i] = [
            lit or 0.0,
            idi or 0.0,
            (lit - idi) if lit is not None and idi is not None else 0.0,
            lit is not None,
            idi is not None,
        ]
    return out


def single_label_shots(shot_feats: np.ndarray) -> np.ndarray:
    """Per example, the one label its MWE's shots carry (0 / 1), or -1 where they carry both or none.

    Reads the existence columns of :func:`shot_features` (its last two). The task's one-shot data give one example
    per label *the MWE has*, so shots of a single label say the MWE is used only that way (in 2A train, 119 of the
    236 zero-shot MWEs have a single label)."""
    lit, idi = shot_feats[:, -2] > 0, shot_feats[:, -1] > 0
    return np.where(lit & ~idi, 1, np.where(idi & ~lit, 0, -1))


def apply_shot_rule(labels: Sequence[int], shot_feats: np.ndarray) -> list[int]:
    """``labels`` with every example whose MWE's shots carry a single label set to that label."""
    rule = single_label_shots(shot_feats)
    return [int(r) if r >= 0 else int(lab) for lab, r in zip(labels, rule, strict=True)]


def fit_probe(x_train, y_train, x_val, y_val, seed: int = 0) -> tuple[float, dict[str, float]]:
    """Choose the logistic-regression C on validation (macro-F1); returns (C, {C: val macro-F1})."""
    from sklearn.linear_model import LogisticRegression

    curve = {}
    for c in PROBE_C:
        clf = LogisticRegression(C=c, max_iter=2000, random_state=seed).fit(x_train, y_train)
        curve[str(c)] = macro_f1(list(y_val), [int(v) for v in clf.predict(x_val)])
    best = max(PROBE_C, key=lambda c: curve[str(c)])
    return best, curve


def with_shot_features(train, dev, x_train, x_dev, setting: str, seed: int):
    """One-shot probe: each zero-shot train MWE gives one example per label as its shots (dropped from the rows);
    dev examples are compared with the one-shot examples of their MWE. Returns (rows, x rows, x dev)."""
    if setting != "one_shot":
        raise OptionError("probe features '+shots' need the one_shot setting (zero-shot dev MWEs have no shots)")
    zero = [i for i, ex in enumerate(train) if ex.setting != "one_shot"]
    one = [i for i, ex in enumerate(train) if ex.setting == "one_shot"]
    episodes = pick_shots([train[i] for i in zero], seed)
    episodes = {m: {lab: [zero[j] for j in idx] for lab, idx in d.items()} for m, d in episodes.items()}
    used = {i for d in episodes.values() for idx in d.values() for i in idx}
    rows = [i for i in zero if i not in used]
    dev_shots = shot_table(train, one)  # every one-shot example of the MWE is a shot
    f_train = shot_features(x_train[rows], [train[i].mwe for i in rows], x_train, episodes)
    f_dev = shot_features(x_dev, [ex.mwe for ex in dev], x_train, dev_shots)
    return [train[i] for i in rows], np.hstack([x_train[rows], f_train]), np.hstack([x_dev, f_dev])


PROBE_FEATURES = ("span", "sentence", "span+sentence", "sentence+span")


def check_probe_features(features: str, setting: str) -> None:
    """``features``: a base (:data:`PROBE_FEATURES`), optionally ``+shots`` or ``+shots+rule`` (one_shot only)."""
    base = features.removesuffix("+rule").removesuffix("+shots")
    expected = ", ".join(PROBE_FEATURES) + ", each optionally +shots or +shots+rule"
    if features.endswith("+rule") and not features.endswith("+shots+rule"):
        raise OptionError(
            f"unknown probe features '{features}' ('+rule' needs '+shots' before it, e.g. "
            f"span+shots+rule; expected {expected})"
        )
    if base not in PROBE_FEATURES:
        raise OptionError(f"unknown probe features '{features}' (expected {expected})")
    if base != features and setting != "one_shot":
        raise OptionError(f"probe features '{features}' need --setting one_shot (zero-shot dev MWEs have no shots)")


@dataclass
class SemEval2AOptions:
    """``idiomkit evaluate semeval2a`` options (the probe)."""

    setting: str = field(default="zero_shot", metadata={"choices": SETTINGS, "help": "the training data setting"})
    features: str = field(
        default="span",
        metadata={
            "help": "span | sentence | span+sentence; one_shot: add +shots (cosines to the MWE's labelled "
            "shots) or +shots+rule (also take the shots' label where they carry one only)"
        },
    )


class SemEval2ATask(Task):
    metadata = TaskMetadata(
        name="semeval2a",
        result_task="semeval2a-dev",
        description="SemEval-2022 Task 2 subtask A (idiomaticity detection), dev split; macro-F1",
        main_score="ALL.macro_f1",
        languages=("en", "pt"),
        reference="Tayyar Madabushi et al. (2022); organisers' SubTask1Evaluator rules",
        data_files=(
            "semeval2022_task2/SubTaskA/Data/train_zero_shot.csv",
            "semeval2022_task2/SubTaskA/Data/dev.csv",
            "semeval2022_task2/SubTaskA/Data/dev_gold.csv",
        ),
        title="SemEval-2022 Task 2A, dev split (macro-F1)",
    )
    Options = SemEval2AOptions

    def check_options(self, options: SemEval2AOptions, *, lexical: bool = False) -> None:
        super().check_options(options, lexical=lexical)
        check_probe_features(options.features, options.setting)

    def run(self, model, options: SemEval2AOptions, context: EvalContext) -> TaskOutput:
        """Logistic-regression probe on frozen embeddings; C chosen on a by-MWE split of train, then refit on all."""
        from sklearn.linear_model import LogisticRegression

        setting, features, seed, data_dir = options.setting, options.features, context.seed, context.data_dir
        prompt_name, batch_size = context.prompt_name, context.batch_size
        rule = features.endswith("+shots+rule")
        base = features.removesuffix("+rule").removesuffix("+shots")
        train, train_files = load_setting(data_dir, setting)
        dev, dev_files = load_dev_split(data_dir)
        prompt = model.prompts.get(prompt_name, "") if prompt_name else None
        x_all = probe_features(model, train + dev, base, prompt, batch_size)
        x_train, x_dev = x_all[: len(train)], x_all[len(train) :]
        if base != features:
            train, x_train, x_dev = with_shot_features(train, dev, x_train, x_dev, setting, seed)
        n_shot = len(SHOT_FEATURES) if base != features else 0
        fit_part, val_part = split_by_mwe(train, seed=seed)
        index = {ex.id: i for i, ex in enumerate(train)}
        y = np.array([ex.label for ex in train])
        fit_idx = [index[ex.id] for ex in fit_part]
        val_idx = [index[ex.id] for ex in val_part]
        c, curve = fit_probe(x_train[fit_idx], y[fit_idx], x_train[val_idx], y[val_idx], seed)
        rule_info = None
        if rule:  # the rule is kept only if it does not lower validation macro-F1 (at the chosen C)
            val_clf = LogisticRegression(C=c, max_iter=2000, random_state=seed).fit(x_train[fit_idx], y[fit_idx])
            val_pred = [int(v) for v in val_clf.predict(x_train[val_idx])]
            val_rule = apply_shot_rule(val_pred, x_train[val_idx, -n_shot:])
            without, with_rule = macro_f1(list(y[val_idx]), val_pred), macro_f1(list(y[val_idx]), val_rule)
            rule_info = {
                "validation_macro_f1_without": float(without),
                "validation_macro_f1_with": float(with_rule),
                "kept": bool(with_rule >= without),
            }
        clf = LogisticRegression(C=c, max_iter=2000, random_state=seed).fit(x_train, y)
        labels = [int(v) for v in clf.predict(x_dev)]
        if rule_info and rule_info["kept"]:
            ruled = apply_shot_rule(labels, x_dev[:, -n_shot:])
            rule_info["dev_examples_set"] = int((single_label_shots(x_dev[:, -n_shot:]) >= 0).sum())
            rule_info["dev_labels_changed"] = sum(a != b for a, b in zip(labels, ruled, strict=True))
            labels = ruled
        metrics = score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev)
        return TaskOutput(
            metrics=metrics,
            params={
                "split": "dev",
                "setting": setting,
                "classifier": "logistic-regression probe (frozen encoder)",
                "features": features,
                "C": c,
                "validation_macro_f1": curve,
                "validation": f"{len(val_part)} train examples of {len({e.mwe for e in val_part})} MWEs (seed {seed})",
                "variant": f"{setting}-probe-{features.replace('+', '-')}",
                **({"shot_rule": rule_info} if rule_info else {}),
            },
            data_files=train_files + dev_files,
            predictions={"submission.csv": submission_csv(dev, labels, setting)},
        )

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:
        rows = [["language", "macro-F1", "n"]]
        for lang, block in metrics.items():
            rows.append([lang, f"{block['macro_f1']:.4f}", str(block["n"])])
        return rows
