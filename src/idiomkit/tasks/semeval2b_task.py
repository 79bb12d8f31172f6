"""The SemEval-2022 Task 2B dev benchmark as a task (zero-shot or trained model -> Spearman table)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from idiomkit.data.semeval2022 import load_subtask_b
from idiomkit.embed.mwe import MweTransform
from idiomkit.tasks.base import Task, TaskOutput
from idiomkit.tasks.semeval2b import pair_similarities, score_predictions, submission_csv


class SemEval2BDev(Task):
    name = "semeval2b"
    result_task = "semeval2b-dev"
    description = "SemEval-2022 Task 2 subtask B (idiomatic STS), dev split with public gold; Spearman's rho"
    main_score = "ALL.idiom"
    reference = "Tayyar Madabushi et al. (2022); organisers' SubTask2Evaluator.py rules"

    def evaluate(
        self,
        model,
        *,
        data_dir: str | Path,
        prompt_name: str | None = None,
        batch_size: int = 64,
        setting: str = "pre_train",
        show_progress_bar: bool = True,
        transform=None,
        mwe_tokens: bool = False,
        **_: Any,
    ) -> TaskOutput:
        """``mwe_tokens``: write each MWE the model's tokenizer knows as its ``ID<mwe>ID`` token (trained models)."""
        if mwe_tokens and transform is None:
            transform = MweTransform.for_model(model)
        split = load_subtask_b(data_dir, "dev")
        sims = pair_similarities(
            model,
            split.pairs,
            prompt_name=prompt_name,
            batch_size=batch_size,
            show_progress_bar=show_progress_bar,
            transform=transform,
        )
        predictions = {p.id: float(s) for p, s in zip(split.pairs, sims, strict=True)}
        metrics = score_predictions(predictions, split.gold or [])
        return TaskOutput(
            metrics=metrics,
            params={"split": "dev", "setting": setting, "prompt_name": prompt_name, "mwe_tokens": bool(transform)},
            data_files=list(split.files),
            predictions={"submission.csv": submission_csv(split.pairs, sims, setting)},
        )

    def summary_table(self, metrics: dict[str, Any]) -> list[list[str]]:
        rows = [["language", "idiom", "sts", "all"]]
        for lang, block in metrics.items():
            rows.append([lang] + [f"{block[k]:.4f}" for k in ("idiom", "sts", "all")])
        return rows
