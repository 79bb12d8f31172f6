"""Run a method end to end (``idiomkit run TASK --method M``): typed options, flags generated from them, one runner.

Each runnable method declares an options dataclass (the options its benchmark script took, same defaults) and a
run function ``run(options, context) -> list[Path]`` that writes result JSONs (skipping those that exist where
the script did). The CLI flags are generated from the dataclass: ``train_layers`` -> ``--train-layers N``, a bool
field is a bare flag, a list field takes several values (``--seeds 0 1 2``) and may repeat, a field whose metadata
says ``positional`` collects the bare arguments, ``short`` adds a one-letter alias (``-m``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from idiomkit.errors import OptionError


@dataclass
class RunContext:
    """What every run gets besides its options: where data and results live, the command line to record, and the
    API's ``evaluate`` (methods that score through a task: the 2A probe, IdioLink twins)."""

    data_dir: Path
    results_dir: Path
    command: str | None = None
    evaluate: Callable[..., Any] | None = None


@dataclass(frozen=True)
class Runnable:
    """A registered method's options dataclass and run function."""

    options: type
    run: Callable[[Any, RunContext], list[Path]]


def flag_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def field_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def base_type(hint: Any) -> Any:
    """``int | None`` -> int; ``list[str]`` -> list[str]."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (Union, types.UnionType) and args:
        return args[0]
    return hint


def is_list(hint: Any) -> bool:
    return typing.get_origin(base_type(hint)) is list


def item_type(hint: Any) -> Any:
    hint = base_type(hint)
    return typing.get_args(hint)[0] if typing.get_origin(hint) is list else hint


def option_flags(cls: type) -> dict[str, str]:
    """``{"--train-layers": "train_layers", "-m": "model", ...}``: every flag of ``cls`` and the field it sets."""
    flags: dict[str, str] = {}
    for f in dataclasses.fields(cls):
        if f.metadata.get("positional") and not f.metadata.get("short"):
            continue
        flags[flag_name(f.name)] = f.name
        if f.metadata.get("short"):
            flags["-" + f.metadata["short"]] = f.name
    return flags


def describe_options(cls: type) -> list[str]:
    """One line per option: flag, type, default, help (``--help-options``)."""
    hints = field_hints(cls)
    lines = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        kind = item_type(hint).__name__ + (" ..." if is_list(hint) else "")
        if base_type(hint) is bool:
            kind = "flag"
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = "required"
        spelled = ("-" + f.metadata["short"] + ", " if f.metadata.get("short") else "") + flag_name(f.name)
        if f.metadata.get("positional"):
            spelled = f"[{f.name.upper()} ...] or " + spelled if f.metadata.get("short") else f"{f.name.upper()} ..."
        choices = f" (one of {', '.join(f.metadata['choices'])})" if f.metadata.get("choices") else ""
        lines.append(f"{spelled}  {kind}  default {default!r}{choices}  {f.metadata.get('help', '')}".rstrip())
    return lines


def convert(method: str, flag: str, text: str, hint: Any) -> Any:
    kind = item_type(hint)
    try:
        return kind(text) if kind in (int, float) else text
    except ValueError:
        raise OptionError(f"{method}: option '{flag}': expected {kind.__name__}, got {text!r}") from None


def unknown_option(method: str, flag: str, cls: type) -> OptionError:
    return OptionError(f"{method}: no option '{flag}' (options: {', '.join(option_flags(cls))})")


def parse_options(cls: type, argv: Sequence[str], method: str = "method") -> Any:
    """``argv`` (the words after ``--method M``) parsed against the dataclass ``cls``; one-line OptionError on an
    unknown option, a missing or mistyped value, or a value not among a field's choices."""
    hints, flags = field_hints(cls), option_flags(cls)
    by_name = {f.name: f for f in dataclasses.fields(cls)}
    positional = next((f.name for f in dataclasses.fields(cls) if f.metadata.get("positional")), None)
    given: dict[str, Any] = {}
    words, i = list(argv), 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-") or word == "-":
            if positional is None:
                raise OptionError(f"{method}: unexpected argument {word!r} (options: {', '.join(flags)})")
            given.setdefault(positional, []).append(convert(method, positional, word, hints[positional]))
            continue
        flag, _, inline = word.partition("=")
        if flag not in flags:
            raise unknown_option(method, flag, cls)
        name = flags[flag]
        hint = hints[name]
        if base_type(hint) is bool:
            given[name] = True
            continue
        values = [inline] if inline else []
        while not values or (is_list(hint) and not inline):
            if i >= len(words) or (words[i].startswith("-") and not is_number(words[i])):
                break
            values.append(words[i])
            i += 1
        if not values:
            raise OptionError(f"{method}: option '{flag}' needs a value")
        converted = [convert(method, flag, v, hint) for v in values]
        if is_list(hint):
            given.setdefault(name, []).extend(converted)
        else:
            given[name] = converted[-1]
    for name, value in given.items():
        check_choice(method, by_name[name], value)
    return cls(**given)


def is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def check_choice(method: str, f: dataclasses.Field, value: Any) -> None:
    choices = f.metadata.get("choices")
    for item in value if isinstance(value, list) else [value]:
        if choices and item not in choices:
            raise OptionError(
                f"{method}: option '{flag_name(f.name)}': {item!r} is not one of {', '.join(map(str, choices))}"
            )


def option_args(options: Any) -> list[str]:
    """The flags that give ``options`` (non-default fields only), the inverse of :func:`parse_options`."""
    argv: list[str] = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        if value == default:
            continue
        if isinstance(value, bool):
            argv += [flag_name(f.name)] if value else []
        elif isinstance(value, list):
            argv += [flag_name(f.name), *map(str, value)]
        else:
            argv += [flag_name(f.name), str(value)]
    return argv
