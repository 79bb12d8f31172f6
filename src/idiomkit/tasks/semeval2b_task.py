"""The SemEval-2022 Task 2B dev benchmark as a task (zero-shot or trained model -> Spearman table)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from idiomkit.data.semeval2022 import EvalPair, GoldRow, load_subtask_b
from idiomkit.embedding.mwe import MweTransform, known_mwe_tokens
from idiomkit.tasks.base import EvalContext, Task, TaskMetadata, TaskOutput
from idiomkit.tasks.semeval2b import SETTINGS, score_pairs, submission_csv

PLAIN_VARIANT = "plain"  # a model that has MWE tokens, scored without them (its marked result keeps the plain name)
QUICK_STRIDE = 10  # quick mode keeps every 10th gold row (with the rows its scores need)


def quick_slice(gold: list[GoldRow], pairs: list[EvalPair]) -> tuple[list[GoldRow], list[EvalPair]]:
    """Every :data:`QUICK_STRIDE`-th gold row and the pairs it is scored with (its own and its ``otherID``)."""
    gold = gold[::QUICK_STRIDE]
    needed = {g.id for g in gold} | {g.other_id for g in gold if g.sim is None and g.other_id}
    return gold, [p for p in pairs if p.id in needed]


@dataclass
class SemEval2BOptions:
    """``idiomkit evaluate semeval2b`` options."""

    setting: str = field(default="pre_train", metadata={"choices": SETTINGS, "help": "submission setting column"})
    mwe_tokens: bool = field(
        default=False, metadata={"help": "rewrite each MWE the tokenizer knows as its ID<mwe>ID token (trained models)"}
    )
    transform: Callable[..., str] | None = field(default=None, metadata={"cli": False})  # (sentence, pair) -> text


class SemEval2BTask(Task):
    metadata = TaskMetadata(
        name="semeval2b",
        result_task="semeval2b-dev",
        description="SemEval-2022 Task 2 subtask B (idiomatic STS), dev split with public gold; Spearman's rho",
        main_score="ALL.idiom",
        languages=("en", "pt"),
        reference="Tayyar Madabushi et al. (2022); organisers' SubTask2Evaluator.py rules",
        data_files=(
            "semeval2022_task2/SubTaskB/EvaluationData/dev.csv",
            "semeval2022_task2/SubTaskB/EvaluationData/dev.gold.csv",
        ),
        title="SemEval-2022 Task 2B, dev split (Spearman's rho; organisers' rules)",
        mteb_name="SemEval2022Task2BDev",
    )
    Options = SemEval2BOptions

    def run(self, model, options: SemEval2BOptions, context: EvalContext) -> TaskOutput:
        """Cosine of each dev pair, scored with the organisers' rules; ``mwe_tokens`` writes MWEs as tokens. A model
        that has MWE tokens scored without them (the plain track) gets the variant ``plain``, so its result file
        stands beside the marked one."""
        transform = options.transform
        if options.mwe_tokens and transform is None:
            transform = MweTransform.for_model(model)
        split = load_subtask_b(context.data_dir, "dev")
        gold, pairs = split.gold or [], split.pairs
        if context.quick:
            gold, pairs = quick_slice(gold, pairs)
        sims, metrics = score_pairs(
            model,
            pairs,
            gold,
            prompt_name=context.prompt_name,
            batch_size=context.batch_size,
            show_progress_bar=context.show_progress_bar,
            transform=transform,
        )
        params = {
            "split": "dev",
            "setting": options.setting,
            "prompt_name": context.prompt_name,
            "mwe_tokens": bool(transform),
            "pairs": len(pairs),
        }
        if not transform and known_mwe_tokens(model.tokenizer):
            params["variant"] = PLAIN_VARIANT  # beside, not over, the same model's marked result
        return TaskOutput(
            metrics=metrics,
            params=params,
            data_files=list(split.files),
            predictions={"submission.csv": submission_csv(pairs, sims, options.setting)},
        )

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:
        rows = [["language", "idiom", "sts", "all"]]
        for lang, block in metrics.items():
            rows.append([lang] + [f"{block[k]:.4f}" for k in ("idiom", "sts", "all")])
        return rows
