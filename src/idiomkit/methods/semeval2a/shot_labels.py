"""The one-shot labels alone, no model (``idiomkit run semeval2a --method shot-labels``): a baseline that shows
how much of 2A one-shot dev is decided by the shots' labels before any text is read.

Rule: a dev example whose MWE's one-shot examples all carry one label gets that label; an MWE whose shots carry
both labels gets the majority label of all one-shot examples. Dev is only scored.

Example::

    idiomkit run semeval2a --method shot-labels
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from idiomkit.data.errors import DataError
from idiomkit.data.semeval2a import Example2A, data_paths, load_dev_split, load_setting
from idiomkit.methods.base import Method
from idiomkit.methods.runner import RunContext
from idiomkit.results import ResultRecord, result_path, sha256_files, write_result
from idiomkit.tasks.semeval2a import one_shot_table, score, submission_csv

log = logging.getLogger(__name__)

NAME = "semeval2a/shot-labels"
RECIPE = "shot-labels"
VARIANT = "one_shot"


@dataclass
class ShotLabelsOptions:
    """No options but ``force`` (re-run when the result exists): the rule has no model, no seed, no parameter."""

    force: bool = False


@dataclass
class ShotLabels(Method):
    """The rule as a method: ``fit`` keeps the one-shot examples, ``predict`` labels examples by their MWE's shots."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "the one-shot examples' labels alone, no model (a baseline)"

    shots: list[Example2A] = field(default_factory=list)

    def fit(self, one_shot: Sequence[Example2A]) -> ShotLabels:
        self.shots = list(one_shot)
        return self

    def predict(self, examples: Sequence[Example2A]) -> list[int]:
        table = one_shot_table(self.shots, examples)
        majority = Counter(ex.label for ex in self.shots).most_common(1)[0][0]
        return [next(iter(table[ex.mwe])) if len(table[ex.mwe]) == 1 else majority for ex in examples]


def shot_label_predictions(one_shot: Sequence[Example2A], dev: Sequence[Example2A]) -> list[int]:
    """The rule's label of every dev example (module docstring)."""
    return ShotLabels().fit(one_shot).predict(dev)


def run_shot_labels(options: ShotLabelsOptions, context: RunContext) -> list[Path]:
    """Apply the rule to 2A dev and write the result JSON with its submission CSV (skipped when it exists)."""
    target = result_path(context.results_dir, "semeval2a-dev", "none", RECIPE, 0, VARIANT)
    if target.exists() and not options.force:
        log.info("skip (exists): %s", target)
        return []
    start = time.perf_counter()
    train, train_files = load_setting(context.data_dir, "one_shot")
    dev, dev_files = load_dev_split(context.data_dir)
    one = [ex for ex in train if ex.setting == "one_shot"]
    try:
        labels = shot_label_predictions(one, dev)
    except ValueError as err:  # a dev MWE without shots: the one-shot file lacks them
        raise DataError(data_paths(context.data_dir)["train_one_shot"], None, "MWE", f"shot-labels: {err}") from None
    metrics = score({ex.id: lab for ex, lab in zip(dev, labels, strict=True)}, dev)
    params = {
        "split": "dev",
        "setting": "one_shot",
        "variant": VARIANT,
        "classifier": "none: the shots' labels "
        "(one label: that label; both: the majority label of all one-shot examples)",
        "command": context.command,
    }
    record = ResultRecord(
        task="semeval2a-dev",
        model="none",
        recipe=RECIPE,
        seed=0,
        metrics=metrics,
        params=params,
        data_sha256=sha256_files(train_files + dev_files),
        wall_s=time.perf_counter() - start,
    )
    predictions = {"submission.csv": submission_csv(dev, labels, "one_shot")}
    path = write_result(record, context.results_dir, variant=VARIANT, predictions=predictions)
    log.info("%s: ALL %.4f", path, metrics["ALL"]["macro_f1"])
    return [path]
