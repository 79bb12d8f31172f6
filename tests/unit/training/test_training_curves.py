"""benchmarks/analysis/training_curves.py: which cards' validation curves are drawn, and one line for one training."""

from __future__ import annotations

from pathlib import Path

from helpers import benchmark_script


def card(model: str, recipe: str, seed: int, curve: list[dict], best_step: int = 2) -> tuple[Path, dict]:
    training = {"validation": curve, "best": {"metric": "val_mean", "value": 0.5, "step": best_step}}
    params = {"track": "plain", "training": training}
    return Path(f"{recipe}-{seed}.json"), {
        "task": "scorecard",
        "model": model,
        "recipe": recipe,
        "seed": seed,
        "params": params,
    }


CURVE = [{"step": 0, "phase": 0, "val_mean": 0.4, "val2b_idiom": 0.3}, {"step": 2, "phase": 0, "val_mean": 0.5}]


def test_curves_keep_the_model_and_recipe_asked_for_and_merge_one_training_scored_twice():
    script = benchmark_script("analysis/training_curves")
    other = [{"step": 0, "val_mean": 0.4}, {"step": 2, "val_mean": 0.45}]
    results = [
        card("mpnet", "flagship-v2-bf16", 0, CURVE),
        card("mpnet", "flagship-v2-bf16-center", 0, CURVE),  # the same training, centred afterwards
        card("mpnet", "flagship-v2-bf16", 1, other),
        card("mpnet", "flagship-v2", 0, other),  # no "bf16"
        card("minilm", "flagship-v2-bf16", 0, other),  # another model
        card("mpnet", "flagship-v2-bf16-untrained", 0, []),  # no curve
    ]
    runs = script.curves(results, "mpnet", ["flagship-v2", "bf16"], ("val_mean", "val2b_idiom", "valsts_sts"))
    assert {name: run.series for name, run in runs.items()} == {
        "flagship-v2-bf16, seed 0 = flagship-v2-bf16-center, seed 0": {
            "val_mean": [(0, 0.4), (2, 0.5)],
            "val2b_idiom": [(0, 0.3)],  # logged at step 0 only; valsts_sts never: left out
        },
        "flagship-v2-bf16, seed 1": {"val_mean": [(0, 0.4), (2, 0.45)]},
    }
    assert [run.selected_step for run in runs.values()] == [2, 2]
    minilm = script.curves(results, "minilm", [], ("val_mean",))
    assert list(minilm) == ["flagship-v2-bf16, seed 0"]


def test_plot_writes_a_png(tmp_path):
    script = benchmark_script("analysis/training_curves")
    runs = script.curves([card("mpnet", "r", 0, CURVE)], "mpnet", [], ("val_mean",))
    out = tmp_path / "curves.png"
    script.plot(runs, ("val_mean",), out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
