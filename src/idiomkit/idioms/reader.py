"""IdiomReader: a sentence-transformers module, first in a model, that rewrites each input text's figurative idioms
(mark / gloss / replace, see :mod:`idiomkit.idioms.rewrite`) before the Transformer module tokenizes it.

How it hooks tokenization (sentence-transformers 6): ``SentenceTransformer.encode`` -> ``model.preprocess(texts,
prompt=...)`` -> ``model[0].preprocess(...)``: only the *first* module sees the raw inputs. The reader sits first;
its :meth:`IdiomReader.preprocess` rewrites the texts (strings, and the strings of a tuple pair; other inputs pass
as they are) and hands them, with the prompt and keyword arguments, to the next module's ``preprocess`` (the
Transformer's, which prepends the prompt and tokenizes). ``forward`` passes the features through untouched. The
next module is found by the ``Module.on_model_ready(model)`` hook, which sentence-transformers calls when a model is
built or loaded (:func:`idiomkit.reader_api.add_reader` calls it on a model that exists already); the reader keeps a
plain reference to it, not a child module, so its weights are not saved twice.

The reader is a sentence-transformers ``InputModule`` (the kind of module a model puts first: it takes the raw
inputs, reads text only). What a ``SentenceTransformer`` asks of its first module beyond ``preprocess`` --
``tokenizer``, ``processor`` and ``max_seq_length`` (``model.tokenizer``, ``model.max_seq_length = n``) -- is the
next module's. The reader forwards nothing else: code that reaches the encoder itself takes the module behind the
reader (:func:`encoder_module`), not ``model[0]``.

The paths that tokenize without ``model.preprocess`` -- span pooling (:mod:`idiomkit.embedding.spans`: the 2A probe,
AdMIRe, IdioLink span queries), training's token cache (:func:`idiomkit.training.examples.make_examples`) and the
2A classifier -- take their texts from :func:`model_inputs`, the same rewrite, with each character span moved into
the rewritten text (:meth:`~idiomkit.idioms.rewrite.Reading.map_span`).

Saved (``model.save``) as its own folder ``0_IdiomReader``: ``idiom_reader.json`` (mode, language, max_gap, whether
there is a sense check), ``lexicon.tsv`` and ``sense.json`` (when it has a sense check). Load the saved model
with :func:`idiomkit.load_model` (it hands this class, imported from the installed package, to sentence-transformers:
no ``trust_remote_code``, no code from the folder); plain sentence-transformers 6 imports no module class outside its
own package without ``trust_remote_code=True``, which also lets a folder run its own code.

Example::

    model = add_reader(load_model("minilm"), mode="replace")
    model.save("out/minilm-reader")
    load_model("out/minilm-reader").encode("she finally kicked the bucket")
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sentence_transformers.base.modules import InputModule

from idiomkit.data.csvio import read_json
from idiomkit.data.errors import DataError
from idiomkit.idioms.lexicon import LANGUAGES, Lexicon
from idiomkit.idioms.rewrite import MODES, Rewriter, SenseLike

log = logging.getLogger(__name__)

LEXICON_FILE = "lexicon.tsv"
SENSE_FILE = "sense.json"
Span = tuple[int, int]


class IdiomReader(InputModule):
    """Rewrites the figurative idioms of the input texts before the next module tokenizes them (module docstring).

    Args:
        lexicon: the idioms and meanings (None: the shipped lexicon, :func:`~idiomkit.idioms.sources.default_lexicon`).
        mode: ``mark``, ``gloss`` or ``replace``.
        sense: a sense check; None: every match counts as figurative.
        language: only idioms of this language (EN or PT); None: both.
        max_gap: the matcher's most inserted words.
    """

    config_file_name = "idiom_reader.json"
    config_keys = ["mode", "language", "max_gap"]
    save_in_root = False  # its own folder (0_IdiomReader), beside the Transformer's

    def __init__(
        self,
        lexicon: Lexicon | None = None,
        mode: str = "replace",
        sense: SenseLike | None = None,
        language: str | None = None,
        max_gap: int = 2,
    ) -> None:
        super().__init__()
        if lexicon is None:
            from idiomkit.idioms.sources import default_lexicon

            lexicon = default_lexicon()
        self.rewriter = Rewriter(lexicon, mode, sense, language, max_gap)
        self.mode, self.language, self.max_gap = mode, language, max_gap
        self.__dict__["_next"] = None  # the module that tokenizes: a reference, not a child (see on_model_ready)

    @property
    def lexicon(self) -> Lexicon:
        return self.rewriter.lexicon

    def with_lexicon(self, lexicon: Lexicon) -> IdiomReader:
        """A new reader like this one (mode, sense check, language, gap) reading with ``lexicon``: scoring swaps in
        the evaluation lexicon for a saved model's full one."""
        return IdiomReader(lexicon, self.mode, self.sense, self.language, self.max_gap)

    @property
    def sense(self) -> SenseLike | None:
        return self.rewriter.sense

    # --- wiring ------------------------------------------------------------------------------------------------

    def on_model_ready(self, model: Any) -> None:
        """Find the module after this one in ``model``: the one whose ``preprocess`` gets the rewritten texts."""
        modules = list(model._modules.values())
        at = next((i for i, m in enumerate(modules) if m is self), None)
        if at is None or at + 1 >= len(modules):
            raise ValueError("an IdiomReader must come before the model's Transformer module")
        self.__dict__["_next"] = modules[at + 1]

    @property
    def next_module(self) -> Any:
        module = self.__dict__.get("_next")
        if module is None:
            raise RuntimeError("this IdiomReader is in no model yet: put it first in one (idiomkit.add_reader)")
        return module

    # --- what the model asks its first module ------------------------------------------------------------------

    def rewrite_inputs(self, inputs: Any) -> list[Any]:
        """The inputs with every text rewritten: strings, and the strings of tuples (pairs); others as they are. All
        the texts are read at once (:meth:`~idiomkit.idioms.rewrite.Rewriter.read_all`: one batched pass of a sense
        check that scores in batches)."""
        texts = [y for x in inputs for y in (x if isinstance(x, tuple) else (x,)) if isinstance(y, str)]
        rewritten = iter([r.rewritten for r in self.rewriter.read_all(texts)])

        def one(y: Any) -> Any:
            return next(rewritten) if isinstance(y, str) else y

        return [tuple(one(y) for y in x) if isinstance(x, tuple) else one(x) for x in inputs]

    def rewrite_spans(self, texts: Sequence[str], spans: Sequence[Span | None]) -> tuple[list[str], list[Span | None]]:
        """``texts`` rewritten as :meth:`preprocess` rewrites them, and each text's character span (None: none)
        moved to where it lies in its rewritten text (:meth:`~idiomkit.idioms.rewrite.Reading.map_span`: a span
        over a rewritten idiom covers its replacement)."""
        readings = self.rewriter.read_all(texts)
        moved = [None if sp is None else r.map_span(*sp) for r, sp in zip(readings, spans, strict=True)]
        return [r.rewritten for r in readings], moved

    def preprocess(self, inputs: Any, prompt: str | None = None, **kwargs: Any) -> dict[str, Any]:
        """Rewrite, then the next module's ``preprocess`` (its ``tokenize`` for modules that predate it)."""
        texts = self.rewrite_inputs(inputs)
        module = self.next_module
        if not hasattr(module, "preprocess"):
            texts = [prompt + t if prompt and isinstance(t, str) else t for t in texts]
            return module.tokenize(texts, **kwargs)
        return module.preprocess(texts, prompt=prompt, **kwargs) if prompt else module.preprocess(texts, **kwargs)

    def tokenize(self, texts: Any, **kwargs: Any) -> dict[str, Any]:
        """The pre-``preprocess`` entry point of sentence-transformers: rewrite, then the next module's."""
        return self.preprocess(texts, **kwargs)

    def forward(self, features: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return features

    # what SentenceTransformer asks its first module (model[0]) for, each the next module's:

    @property
    def tokenizer(self) -> Any:  # SentenceTransformer.tokenizer
        return self.next_module.tokenizer

    @tokenizer.setter
    def tokenizer(self, value: Any) -> None:  # SentenceTransformer.tokenizer = ...
        self.next_module.tokenizer = value

    @property
    def processor(self) -> Any:  # SentenceTransformer.processor (its trainer's processing class)
        return self.next_module.processor

    @property
    def max_seq_length(self) -> int | None:  # SentenceTransformer.max_seq_length (and its model card)
        return getattr(self.next_module, "max_seq_length", None)

    @max_seq_length.setter
    def max_seq_length(self, value: int | None) -> None:  # SentenceTransformer.max_seq_length = ...
        self.next_module.max_seq_length = value

    # --- save / load -------------------------------------------------------------------------------------------

    def get_config_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "language": self.language, "max_gap": self.max_gap, "sense": self.sense is not None}

    def save(self, output_path: str, *args: Any, safe_serialization: bool = True, **kwargs: Any) -> None:
        """``idiom_reader.json``, ``lexicon.tsv`` and (with a sense check) ``sense.json`` in ``output_path``."""
        folder = Path(output_path)
        folder.mkdir(parents=True, exist_ok=True)
        self.save_config(str(folder))
        self.lexicon.to_tsv(folder / LEXICON_FILE)
        if self.sense is not None:
            if not callable(getattr(self.sense, "save", None)):
                raise TypeError(f"the sense check {type(self.sense).__name__} has no save(path): it cannot be saved")
            self.sense.save(folder / SENSE_FILE)

    @classmethod
    def load(
        cls,
        model_name_or_path: str,
        subfolder: str = "",
        token: bool | str | None = None,
        cache_folder: str | None = None,
        revision: str | None = None,
        local_files_only: bool = False,
        **kwargs: Any,
    ) -> IdiomReader:
        """The reader saved by :meth:`save` (a local folder or a Hub repository)."""
        hub = {
            "subfolder": subfolder,
            "token": token,
            "cache_folder": cache_folder,
            "revision": revision,
            "local_files_only": local_files_only,
        }
        config_path = cls.load_file_path(model_name_or_path, cls.config_file_name, **hub)
        if config_path is None:
            raise DataError(Path(model_name_or_path) / subfolder / cls.config_file_name, None, None, "file not found")
        config = read_config(Path(config_path))
        lexicon_path = cls.load_file_path(model_name_or_path, LEXICON_FILE, **hub)
        if lexicon_path is None:
            raise DataError(Path(model_name_or_path) / subfolder / LEXICON_FILE, None, None, "file not found")
        sense = None
        if config.pop("sense", False):
            from idiomkit.idioms.senses import load_sense

            sense_path = cls.load_file_path(model_name_or_path, SENSE_FILE, **hub)
            if sense_path is None:
                raise DataError(Path(model_name_or_path) / subfolder / SENSE_FILE, None, None, "file not found")
            sense = load_sense(sense_path)
        return cls(lexicon=Lexicon.from_tsv(lexicon_path), sense=sense, **config)

    def __repr__(self) -> str:
        return f"IdiomReader(mode={self.mode!r}, idioms={len(self.lexicon)}, sense={self.sense is not None})"


CONFIG_FIELDS: dict[str, Callable[[Any], bool]] = {
    "mode": lambda v: v in MODES,
    "language": lambda v: v is None or v in LANGUAGES,
    "max_gap": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
    "sense": lambda v: isinstance(v, bool),
}
CONFIG_EXPECTED = {
    "mode": f"one of {', '.join(MODES)}",
    "language": f"null or one of {', '.join(LANGUAGES)}",
    "max_gap": "a whole number >= 0",
    "sense": "true or false",
}


def read_config(path: Path) -> dict[str, Any]:
    """A saved reader's ``idiom_reader.json``, every key known and every value checked (DataError naming the file
    and the field otherwise)."""
    config = read_json(path, encoding="utf-8")
    if not isinstance(config, dict):
        raise DataError(path, None, None, f"a JSON object expected (keys {', '.join(CONFIG_FIELDS)})")
    for key, value in config.items():
        if key not in CONFIG_FIELDS:
            raise DataError(path, None, key, f"unknown key (expected {', '.join(CONFIG_FIELDS)})")
        if not CONFIG_FIELDS[key](value):
            raise DataError(path, None, key, f"{json.dumps(value)} (expected {CONFIG_EXPECTED[key]})")
    return config


def model_reader(model: Any) -> IdiomReader | None:
    """The idiom reader ``model`` carries (its first module, put there by ``--reader`` / :func:`attach_reader` or
    saved with a trained model), else None."""
    first = next(iter(model._modules.values()), None) if hasattr(model, "_modules") else None
    return first if isinstance(first, IdiomReader) else None


def encoder_module(model: Any) -> Any:
    """The module that holds ``model``'s transformer and tokenizer: its first module, or the one behind an idiom
    reader in front (the reader forwards only what ``SentenceTransformer`` asks of its first module, not the
    encoder: weights, adapters and the Transformer's own ``preprocess`` are this module's)."""
    first = model[0]
    return getattr(first, "next_module", first)


def model_inputs(
    model: Any, texts: Sequence[str], spans: Sequence[Span | None] | None = None
) -> tuple[list[str], list[Span | None] | None]:
    """``texts`` as ``model`` tokenizes them -- rewritten when its first module is an :class:`IdiomReader`, as
    ``encode`` rewrites them -- with ``spans`` (character offsets per text, None for a text without one) moved into
    the rewritten texts. For the paths that tokenize without ``model.preprocess`` (span pooling, training's token
    cache): every text reaches the model through its reader."""
    first = model_reader(model)
    if first is None:
        return list(texts), None if spans is None else list(spans)
    if spans is None:
        return first.rewrite_inputs(list(texts)), None
    return first.rewrite_spans(texts, spans)


def ship_full_lexicon(folder: Path) -> bool:
    """Give the idiom reader saved in model ``folder`` (if it has one) the full shipped lexicon: what a user loads
    knows every idiom, while training and scoring read with lexicons less their held-out idioms. True when there
    was a reader."""
    from idiomkit.idioms.sources import default_lexicon

    modules = json.loads((Path(folder) / "modules.json").read_text(encoding="utf-8"))
    own = f"{IdiomReader.__module__}.{IdiomReader.__qualname__}"
    entry = next((m for m in modules if m.get("type") == own), None)
    if entry is None:
        return False
    default_lexicon().to_tsv(Path(folder) / entry["path"] / LEXICON_FILE)
    return True


def attach_reader(model: Any, reader: IdiomReader, name: str = "idiom_reader") -> Any:
    """Put ``reader`` first in ``model`` (replacing an idiom reader it has) and return the model."""
    rest = [(key, module) for key, module in model._modules.items() if not isinstance(module, IdiomReader)]
    if not rest:
        raise ValueError("the model has no module for the reader to hand its texts to")
    model._modules.clear()
    for key, module in [(name, reader), *rest]:
        model.add_module(key, module)
    reader.on_model_ready(model)
    return model
