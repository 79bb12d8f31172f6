"""One-shot sense matcher: CoSENT pair loss, batches that keep pairs inside an MWE, nearest-shot labels, training.

Integration half (real benchmark data or registry model weights);
the tiny-fixture half is tests/unit/methods/test_sense_matcher.py.
"""

import torch
from helpers.sense_matcher import shot_example

from idiomkit.methods.semeval2a.sense_matcher import (
    MatcherConfig,
    train_matcher,
)


def test_tiny_matcher_run_lowers_the_loss_and_records_epochs(minilm):
    torch.manual_seed(0)
    train = [  # six MWEs, each used both ways
        shot_example(
            i, f"m{i % 6}", (i // 6) % 2, target=("Literally a" if (i // 6) % 2 else "Figuratively, a") + f" m{i % 6}."
        )
        for i in range(48)
    ]
    cfg = MatcherConfig(
        epochs=2, chunk=8, chunks_per_batch=2, lr=1e-3, train_layers=1, val_fraction=0.34, max_seq_length=16, episodes=2
    )
    encoder = minilm[0].auto_model
    state = {k: v.clone() for k, v in encoder.state_dict().items()}
    try:
        matcher, info = train_matcher(minilm, train, cfg)
        history = info["history"]
        assert [row["epoch"] for row in history] == [0, 1, 2]
        assert history[2]["loss"] < history[1]["loss"]  # the pair loss falls
        assert info["best"]["val_episode_macro_f1"] == max(r["val_episode_macro_f1"] for r in history)
        assert info["validation_mwes"] == 2 and info["fit_examples"] + info["validation_examples"] == 48
        top = "encoder.layer.5.output.dense.weight"
        moved = not torch.equal(matcher.encoder.state_dict()[top], state[top])
        assert moved == (info["best"]["epoch"] > 0)  # the kept weights are those of the selected epoch
        assert torch.equal(
            matcher.encoder.state_dict()["encoder.layer.0.output.dense.weight"],
            state["encoder.layer.0.output.dense.weight"],
        )  # only the top layer trains
    finally:
        minilm[0].auto_model.load_state_dict(state)  # the session fixture is shared
        minilm.eval()
