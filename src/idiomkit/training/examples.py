"""Tokenised training examples: one or more text columns per row, a label and a group, tokenised once.

A recipe turns records into :class:`Examples`; the trainer batches them with the group-aware length sampler
and pads cached token ids per batch (no re-tokenisation per step).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import torch

from idiomkit.errors import InputError, OptionError
from idiomkit.idioms.reader import encoder_module, model_inputs
from idiomkit.training.sampler import grouped_length_batches

log = logging.getLogger("idiomkit.training")


@dataclass
class Examples:
    """Rows of ``columns`` (token ids per column), ``labels`` and ``groups``.

    ``spread_groups``: no two rows of a group in one batch (losses with in-batch negatives); otherwise a group's
    rows stay together in one batch (losses that mine within the batch, e.g. the adaptive triplet loss).
    ``target_columns``: how many trailing columns a loss encodes only as fixed targets, without gradients (e.g.
    :class:`~idiomkit.losses.OtherIdTargetsLoss`'s reference paraphrase); they do not count toward a batch's texts.
    """

    name: str
    columns: list[list[list[int]]]
    labels: list[float]
    groups: list[int]
    label_dtype: torch.dtype = torch.float
    spread_groups: bool = False
    truncated: int = 0
    span_masks: list[list[int]] | None = None  # column 0: 1 on the tokens of a marked span (late-chunking pooling)
    target_columns: int = 0

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def n_columns(self) -> int:
        return len(self.columns)

    @cached_property
    def lengths(self) -> list[int]:
        """Tokens per row (all columns): the cost of a row, for length bucketing."""
        return [sum(len(col[i]) for col in self.columns) for i in range(len(self))]

    def batches(self, sentences_per_batch: int, *, seed: int, epoch: int, in_order: bool = False) -> list[list[int]]:
        """One epoch's batches; a batch holds ``sentences_per_batch // (n_columns - target_columns)`` rows (the
        same trained texts per step, whatever the stream).

        ``in_order``: consecutive rows in data order, like an unshuffled ``DataLoader`` (the paper's setup and the
        speed baseline); otherwise group-aware length-bucketed batches.
        """
        rows = max(1, sentences_per_batch // (self.n_columns - self.target_columns))
        if in_order:
            return [list(range(i, min(i + rows, len(self)))) for i in range(0, len(self), rows)]
        return grouped_length_batches(
            self.groups, self.lengths, rows, seed=seed, epoch=epoch, spread=self.spread_groups
        )


# what the tokenizing module's ``preprocess`` returns for the cache: token ids per text, unpadded and uncut
UNPADDED = {"text": {"padding": False, "truncation": False}, "common": {"return_tensors": None}}


def model_prompt(model, kind: str) -> str | None:
    """The model's prompt text for the prompt name ``kind`` (e5: ``query: ``/``passage: ``); None for ``""`` and for
    a model without that prompt."""
    if not kind:
        return None
    return (getattr(model, "prompts", None) or {}).get(kind) or None


def tokenize(
    model, texts: Sequence[str], prompts: Sequence[str | None], max_seq_length: int, offsets: bool = False
) -> tuple[list[list[int]], int, list | None]:
    """Token ids of ``texts`` (as given: :func:`make_examples` has the idiom reader rewrite them first), each with
    its prompt (None: none), cut to ``max_seq_length`` (keeping the final special token); how many were cut; and
    with ``offsets`` each token's character offsets in its prompted text.

    The route is ``encode``'s: ``model.encode(prompt_name=...)`` hands the prompt text to ``model.preprocess``,
    whose first module (or the one behind an idiom reader, which hands the prompt on) is the Transformer: its
    ``preprocess`` prepends the prompt and tokenizes. Here that ``preprocess`` gets each prompt the same way (one
    call per prompt), asked for unpadded, uncut token ids to cache.
    """
    kwargs = {**UNPADDED, "text": {**UNPADDED["text"], "return_offsets_mapping": offsets}}
    ids: list = [None] * len(texts)
    where: list = [None] * len(texts)
    for prompt in dict.fromkeys(prompts):
        at = [i for i, p in enumerate(prompts) if p == prompt]
        enc = encoder_module(model).preprocess([texts[i] for i in at], prompt=prompt, processing_kwargs=kwargs)
        for k, i in enumerate(at):
            ids[i] = enc["input_ids"][k]
            where[i] = enc["offset_mapping"][k] if offsets else None
    cut = sum(len(x) > max_seq_length for x in ids)
    ids = [x[: max_seq_length - 1] + [x[-1]] if len(x) > max_seq_length else x for x in ids]
    return ids, cut, where if offsets else None


def make_examples(
    model,
    name: str,
    rows: Sequence[Sequence[str]],
    labels: Sequence[float],
    groups: Sequence[int],
    max_seq_length: int,
    *,
    label_dtype: torch.dtype = torch.float,
    spread_groups: bool = False,
    spans: Sequence[tuple[int, int] | None] | None = None,
    prompts: Sequence[str] | None = None,
    row_prompts: Sequence[str] | None = None,
    target_columns: int = 0,
) -> Examples:
    """Tokenise ``rows`` (tuples of texts, one per column) once; log how many texts were truncated.

    The texts are those ``encode`` would hand the tokenizer: rewritten by the model's idiom reader, when it has
    one (:func:`~idiomkit.idioms.reader.model_inputs`, spans moved with the rewrite), then prompted by the
    Transformer module as ``encode(prompt_name=...)`` prompts them (:func:`tokenize`).
    ``spans``: character offsets in column 0 per row (or None for a row without one); the trainer then pools
    those rows over the span's tokens only (span-aware training, as late chunking does at inference).
    ``prompts``: the prompt name per column (``query``/``passage``, ``""`` for none); default ``query`` for every
    column -- what evaluation encodes with for models with prompts (e5), so training sees the same inputs.
    ``row_prompts``: the prompt name per row, for every column, instead (a stream whose rows are queries and
    passages alike).
    ``target_columns``: see :class:`Examples`.
    """
    if not rows:
        raise InputError(f"{name}: no training rows")
    n = len(rows[0])
    rows, spans = read_rows(model, rows, spans)
    kinds = prompts or ["query"] * n
    columns, truncated, offsets = [], 0, None
    for c in range(n):
        per_row = [model_prompt(model, kind) for kind in (row_prompts or [kinds[c]] * len(rows))]
        want = c == 0 and spans is not None
        ids, cut, found = tokenize(model, [r[c] for r in rows], per_row, max_seq_length, want)
        columns.append(ids)
        truncated += cut
        if want:  # the Transformer prepends the prompt to the text (prepend_prompt_to_texts): spans move by it
            spans = [
                None if sp is None else (sp[0] + len(p or ""), sp[1] + len(p or ""))
                for sp, p in zip(spans, per_row, strict=True)
            ]
            offsets = found
    if truncated:
        log.info("%s: %d of %d texts truncated to %d tokens", name, truncated, n * len(rows), max_seq_length)
    masks = span_token_masks(offsets, spans, columns[0]) if spans is not None else None
    return Examples(
        name, columns, list(labels), list(groups), label_dtype, spread_groups, truncated, masks, target_columns
    )


def read_rows(model, rows: Sequence[Sequence[str]], spans: Sequence[tuple[int, int] | None] | None):
    """``rows`` with every column's texts as the model's idiom reader rewrites them (unchanged without a reader),
    and the column-0 ``spans`` moved into the rewritten texts."""
    columns = []
    for c in range(len(rows[0])):
        texts, moved = model_inputs(model, [r[c] for r in rows], spans if c == 0 else None)
        columns.append(texts)
        spans = moved if c == 0 else spans
    return [tuple(r) for r in zip(*columns, strict=True)], spans


def span_token_masks(offsets: list, spans, ids: list[list[int]]) -> list[list[int]]:
    """Per row, 1 for tokens (``offsets``: their character offsets in the prompted text) overlapping the character
    span (all ones for rows without a span or when the span was cut off by truncation)."""
    masks = []
    for row_offsets, span, row_ids in zip(offsets, spans, ids, strict=True):
        n = len(row_ids)
        if span is None:
            masks.append([1] * n)
            continue
        start, end = span
        mask = [int(a < end and b > start and b > a) for a, b in row_offsets[:n]]
        masks.append(mask if any(mask) else [1] * n)
    return masks


def collate(model, examples: Examples, batch: Sequence[int]) -> tuple[list[dict[str, torch.Tensor]], torch.Tensor]:
    """Pad the cached token ids of ``batch`` into one feature dict per column, plus the labels tensor."""
    features = []
    for column in examples.columns:
        padded = model.tokenizer.pad([{"input_ids": column[i]} for i in batch], return_tensors="pt")
        features.append({k: v.to(model.device) for k, v in padded.items()})
    if examples.span_masks is not None:
        width = features[0]["input_ids"].shape[1]
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for row, i in enumerate(batch):
            mask[row, : len(examples.span_masks[i])] = torch.tensor(examples.span_masks[i])
        if model.tokenizer.padding_side == "left":
            raise OptionError("span-aware training needs right padding")
        features[0]["span_mask"] = mask.to(model.device)
    labels = torch.tensor([examples.labels[i] for i in batch], dtype=examples.label_dtype, device=model.device)
    return features, labels
