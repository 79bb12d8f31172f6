"""What a local model folder may hold, checked before sentence-transformers reads it: a folder is data, so nothing
it names runs code or is read from outside it (module classes, module paths, a Dense module's activation, links)."""

from __future__ import annotations

import json
import os
from pathlib import Path, PureWindowsPath

from idiomkit.models.registry import ModelNotAvailable


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def check_module_path(path: Path, row: int, folder: object) -> str:
    """A ``modules.json`` entry's ``path``: a folder inside the model folder (one line naming the problem: not a
    string, absolute, leaving the folder with ``..``)."""
    where = f"{path}: module {row}: field 'path'"
    if not isinstance(folder, str):
        raise ModelNotAvailable(f"{where}: missing or not a string")
    windows = PureWindowsPath(folder)
    if folder.startswith(("/", "\\")) or windows.anchor:
        raise ModelNotAvailable(f"{where}: '{folder}' is absolute; a module's path is relative to the model folder")
    if ".." in windows.parts or "\0" in folder:
        raise ModelNotAvailable(f"{where}: '{folder}' leaves the model folder ('..' or a NUL character)")
    return folder


def check_links_stay_inside(folder: Path) -> None:
    """Refuse (one line naming the link) a local model folder holding a symbolic link whose target lies outside the
    folder (``vocab.txt`` -> ``/etc/passwd``): nothing a model folder names outside itself is read. Links inside it
    are fine; a folder that is itself a link is read where it points."""
    if not folder.is_dir():
        return
    root = folder.resolve()
    for top, dirs, files in os.walk(folder):  # does not descend into linked folders: each is checked as a link
        for name in sorted(dirs + files):
            path = Path(top) / name
            if not path.is_symlink():
                continue
            try:
                target = path.resolve()
            except (OSError, RuntimeError):  # a link loop
                raise ModelNotAvailable(f"{path}: a link that does not resolve (a loop): refused") from None
            if target != root and root not in target.parents:
                raise ModelNotAvailable(
                    f"{path}: a link to {target}, outside the model folder {folder}: refused (a model folder is "
                    "read only inside itself; copy the file in instead)"
                )


def check_sentence_transformers_module(path: Path, row: int, kind: str) -> type:
    """Refuse (one line) a ``modules.json`` ``type`` in the ``sentence_transformers.`` namespace that is not one of
    its module classes (a subclass of its ``Module``: Transformer, Pooling, Dense...): a function, a module
    (``sentence_transformers.util.misc.os``), a missing name, or a whole model (``SentenceTransformer``); returns the
    class. Resolving the name imports from the installed sentence-transformers only, never from the folder."""
    from sentence_transformers.base.model import BaseModel
    from sentence_transformers.base.modules import Module
    from sentence_transformers.util.misc import import_from_string

    where = f"{path}: module {row}: field 'type': '{kind}'"
    try:
        found = import_from_string(kind)
    except Exception:  # noqa: BLE001 - ImportError, or whatever importing a dotted name that is no module raises
        found = None
    if isinstance(found, type) and issubclass(found, BaseModel):
        raise ModelNotAvailable(
            f"{where} is a whole model, not a module: modules.json lists a model's modules (e.g. "
            "sentence_transformers.models.Transformer, then Pooling)"
        )
    if not (isinstance(found, type) and issubclass(found, Module)):
        what = "no such name" if found is None else f"a {'class' if isinstance(found, type) else type(found).__name__}"
        raise ModelNotAvailable(f"{where} is not a sentence-transformers module class ({what})")
    return found


def check_dense_activation(folder: Path, cls: type) -> None:
    """Refuse a Dense module whose ``config.json`` names an activation outside ``torch.`` (sentence-transformers
    would not import it and would run the module with Tanh instead, on a warning that advises trusting the
    folder's code): one line naming the file and field."""
    from sentence_transformers.base.modules import Dense

    config = folder / "config.json"
    if not issubclass(cls, Dense) or not config.is_file():
        return
    try:
        activation = json.loads(config.read_text(encoding="utf-8")).get("activation_function")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, AttributeError) as exc:
        raise ModelNotAvailable(f"{config}: not a Dense module config ({first_line(exc)})") from None
    if activation is not None and not (isinstance(activation, str) and activation.startswith("torch.")):
        raise ModelNotAvailable(
            f"{config}: field 'activation_function': {json.dumps(activation)[:80]} is not a torch activation "
            "class (torch.nn...); idiomkit runs no code a model folder names, and will not swap in another activation"
        )
