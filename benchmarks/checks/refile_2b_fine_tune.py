"""File every SemEval 2B dev submission of a model idiomkit trained under ``fine_tune`` and rescore it.

SemEval-2022 Task 2 subtask B has two settings: ``pre_train`` (no training on the task's data) and ``fine_tune``
(the task's training file allowed). A model idiomkit fine-tuned on 2B train belongs to ``fine_tune``; the results
written before idiomkit filed them so (``cli.trained_evaluation_jobs``, ``scorecard.blocks``) say ``pre_train``.
This script moves them: for each result under ``RESULTS/semeval2b-dev`` whose ``params.setting`` is ``pre_train``
and whose ``params.training`` shows an idiomkit training run, the submission CSV's similarities move from its
``pre_train`` rows to its ``fine_tune`` rows, the organisers' scoring (``tasks.semeval2b.score_submission``) runs
again on the new file, and the result is rewritten (predictions first, envelope last) with the new setting, the fresh
metrics and this commit. The similarities are not touched, so the fresh metrics must equal the recorded ones: a
difference is an error and nothing is written for that file. Untrained (zero-shot) results stay under
``pre_train``. ``--check`` only lists.

usage: python benchmarks/checks/refile_2b_fine_tune.py [--results-dir benchmarks/results] [--data-dir DIR] [--check]
"""

from __future__ import annotations

import argparse
import logging
import math
import sys
import tempfile
from pathlib import Path

from idiomkit.data.errors import DataError
from idiomkit.data.semeval2022 import load_subtask_b
from idiomkit.results import ResultKey, ResultRecord, read_json_object, write_result
from idiomkit.settings import default_data_dir
from idiomkit.tasks.semeval2b import score_submission, submission_csv, submission_rows

ROOT = Path(__file__).resolve().parents[2]
TASK_DIR = "semeval2b-dev"
log = logging.getLogger("refile")


def needs_refile(record: dict) -> bool:
    """A result of a model idiomkit trained (``params.training``) that is still filed under ``pre_train``."""
    params = record.get("params") or {}
    return params.get("setting") == "pre_train" and bool(params.get("training"))


def fine_tune_csv(path: Path, split) -> str:
    """The submission at ``path`` written again with its ``pre_train`` similarities as the ``fine_tune`` rows (the
    format's other setting left empty, as :func:`~idiomkit.tasks.semeval2b.submission_csv` writes every file), in the
    file's row order; a pre_train ID the dev pairs do not know is a one-line error."""
    rows = submission_rows(path, "pre_train")
    pairs = {pair.id: pair for pair in split.pairs}
    if unknown := [(row, pair_id) for pair_id, (_, _, row) in rows.items() if pair_id not in pairs]:
        raise DataError(path, unknown[0][0], "ID", f"'{unknown[0][1]}' is not a 2B dev pair")
    return submission_csv([pairs[i] for i in rows], [value for value, _, _ in rows.values()], "fine_tune")


def rescore(text: str, split) -> dict[str, dict[str, float]]:
    """The organisers' scores of the ``fine_tune`` rows of the submission ``text``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "submission.csv"
        path.write_text(text, encoding="utf-8")
        return score_submission(path, split.gold or [], "fine_tune", split.pairs)


def same_metrics(new: dict, old: dict) -> bool:
    """Every language block and metric of ``old`` equal in ``new`` (to float rounding)."""
    return all(
        math.isclose(new.get(lang, {}).get(name, math.nan), value, rel_tol=0, abs_tol=1e-12)
        for lang, block in old.items()
        for name, value in block.items()
    )


def refile(path: Path, record: dict, split) -> Path:
    """Move one result under ``fine_tune``: the new CSV, rescored, equal to the recorded metrics, then written."""
    text = fine_tune_csv(path.with_suffix(".submission.csv"), split)
    metrics = rescore(text, split)
    if not same_metrics(metrics, record["metrics"]):
        raise DataError(path, None, "metrics", "the fine_tune rescoring differs from the recorded metrics")
    params = {**record["params"], "setting": "fine_tune"}
    fields = {k: record[k] for k in ("task", "model", "recipe", "seed", "data_sha256", "wall_s")}
    new = ResultRecord(**fields, metrics=metrics, params=params)
    return write_result(
        new, path.parents[1], predictions={"submission.csv": text}, key=ResultKey.from_record(record, path)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results-dir", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--check", action="store_true", help="only list the results that would move")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    paths = sorted((args.results_dir / TASK_DIR).glob("*.json"))
    todo = [(p, r) for p in paths if needs_refile(r := read_json_object(p))]
    log.info("%d of %d results under %s to file under fine_tune", len(todo), len(paths), TASK_DIR)
    if args.check or not todo:
        for path, _ in todo:
            log.info("  %s", path.name)
        return 0
    split = load_subtask_b(args.data_dir or default_data_dir(), "dev")
    for path, record in todo:
        refile(path, record, split)
        log.info("fine_tune: %s (all %.4f)", path.name, record["metrics"]["ALL"]["all"])
    left = sum(needs_refile(read_json_object(p)) for p in paths)
    log.info("done: %d moved, %d trained results left under pre_train", len(todo), left)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
