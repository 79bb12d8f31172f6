"""Which sense check the reader uses, and loading a saved one whatever its kind.

Two kinds of sense check answer the reader's question (is this matched idiom meant figuratively?):

- ``encoder`` (:class:`~idiomkit.idioms.sense_encoder.EncoderSenseCheck`): a cross-encoder over the
  sentence and the marked span, adapters on me5-small-enpt (needs the ``me5`` extra for the base weights);
- ``features`` (:class:`~idiomkit.idioms.sense.SenseCheck`): a logistic regression over model-free features,
  pure Python.

:data:`DEFAULT` names the one ``"default"`` means. Both are stored as a JSON file whose ``format`` field names
the kind (the encoder's weights beside it); :func:`load_sense` reads either.

Example::

    check = default_sense()                 # the shipped default
    check = named_sense("features")         # the shipped feature model
    check = load_sense("out/sense.json")    # a saved one, of either kind
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from idiomkit.data.csvio import read_json
from idiomkit.data.errors import DataError
from idiomkit.errors import InputError

NAMES = ("default", "encoder", "features")
DEFAULT = "encoder"  # what "default" names: the kind the shipped reader uses (chosen on validation)


def load_sense(path: str | Path) -> Any:
    """The sense check saved at ``path``: an encoder or a feature model, by the file's ``format`` field."""
    from idiomkit.idioms import sense, sense_encoder

    path = Path(path)
    try:
        data = read_json(path)
    except OSError as exc:
        raise DataError(path, None, None, f"not a readable sense-check file ({type(exc).__name__})") from None
    kind = data.get("format") if isinstance(data, dict) else None
    return (sense_encoder.EncoderSenseCheck if kind == sense_encoder.FORMAT else sense.SenseCheck).load(path)


@cache
def named_sense(name: str) -> Any:
    """A shipped sense check by name: ``encoder`` (the cross-encoder), ``features`` or ``default``; loaded once
    per process."""
    from idiomkit.idioms import sense, sense_encoder

    name = DEFAULT if name == "default" else name
    if name == "encoder":
        return sense_encoder.EncoderSenseCheck.load(sense_encoder.ENCODER_RESOURCE)
    if name == "features":
        return sense.default_sense_check()
    raise InputError(f"unknown sense check {name!r}: expected one of {', '.join(NAMES)}, or a saved JSON file")


def default_sense() -> Any:
    """The shipped default sense check (:func:`named_sense` ``"default"``)."""
    return named_sense("default")


def sense_kind(check: Any) -> str | None:
    """``encoder``, ``features`` or None (no sense check), for scorecards and logs."""
    if check is None:
        return None
    return "encoder" if hasattr(check, "probabilities") else "features"
