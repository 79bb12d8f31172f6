"""Typed options: a dataclass's fields as command-line flags, and back (``idiomkit evaluate`` and ``idiomkit run``).

A field ``train_layers`` is the flag ``--train-layers N``; a bool field is a bare flag; a list field takes several
values (``--seeds 0 1 2``) and may repeat. Field metadata refines it: ``help``; ``choices`` (the allowed values);
``short`` (a one-letter alias, ``-m``); ``positional`` (collects the bare arguments); ``flags`` (bare flags that
each set the field to a value, e.g. ``{"--usage-classifier": "classifier"}``: at most one of them per command);
``cli=False`` (set from Python only, never a flag).

Keys for options that become typer parameters (:func:`typer_parameters`, ``idiomkit train``): ``range`` (a
:class:`Range`, checked by :func:`check_ranges`, and at parse time unless the command asks for the one-line error
instead); ``known`` (``(noun, "module:attribute")``: the
value must be one of that registry's names, imported only when a value is checked, :func:`check_known`); ``flag``
(the long flag, when it is not the field's name); ``off`` (a bool's negative flag, default ``--no-<name>``);
``path=True`` (a path on the command line, a string in the dataclass). :func:`command_args` spells values back as
such a command's flags (``bare``: a flag parsed by :func:`parse_options`, which only turns its option on).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Union

from idiomkit.errors import OptionError


def flag_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def field_flag(f: dataclasses.Field) -> str:
    """The long flag of a field: its ``flag`` metadata, else ``--<name>``."""
    return f.metadata.get("flag") or flag_name(f.name)


def field_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def cli_fields(cls: type) -> list[dataclasses.Field]:
    """The fields of ``cls`` that the command line may set (``cli=False`` ones are Python-only)."""
    return [f for f in dataclasses.fields(cls) if f.metadata.get("cli", True)]


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


def default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def option_flags(cls: type) -> dict[str, str]:
    """``{"--train-layers": "train_layers", "-m": "model", ...}``: every flag of ``cls`` and the field it sets."""
    flags: dict[str, str] = {}
    for f in cli_fields(cls):
        if f.metadata.get("flags"):
            flags.update(dict.fromkeys(f.metadata["flags"], f.name))
            continue
        if f.metadata.get("positional") and not f.metadata.get("short"):
            continue
        flags[field_flag(f)] = f.name
        if f.metadata.get("short"):
            flags["-" + f.metadata["short"]] = f.name
    return flags


def describe_options(cls: type) -> list[str]:
    """One line per option: flag, type, default, help (``--help-options``)."""
    hints = field_hints(cls)
    lines = []
    for f in cli_fields(cls):
        hint = hints[f.name]
        kind = item_type(hint).__name__ + (" ..." if is_list(hint) else "")
        if base_type(hint) is bool or f.metadata.get("flags"):
            kind = "flag"
        default = default_of(f)
        default = "required" if default is dataclasses.MISSING else default
        spelled = ("-" + f.metadata["short"] + ", " if f.metadata.get("short") else "") + field_flag(f)
        if f.metadata.get("positional"):
            spelled = f"[{f.name.upper()} ...] or " + spelled if f.metadata.get("short") else f"{f.name.upper()} ..."
        if f.metadata.get("flags"):
            spelled = " | ".join(f.metadata["flags"])
        choices = f" (one of {', '.join(f.metadata['choices'])})" if f.metadata.get("choices") else ""
        lines.append(f"{spelled}  {kind}  default {default!r}{choices}  {f.metadata.get('help', '')}".rstrip())
    return lines


def convert(owner: str, flag: str, text: str, hint: Any) -> Any:
    kind = item_type(hint)
    try:
        return kind(text) if kind in (int, float) else text
    except ValueError:
        raise OptionError(f"{owner}: option '{flag}': expected {kind.__name__}, got {text!r}") from None


def unknown_option(owner: str, flag: str, cls: type) -> OptionError:
    return OptionError(f"{owner}: no option '{flag}' (options: {', '.join(option_flags(cls))})")


def parse_options(cls: type, argv: Sequence[str], owner: str = "method", *, check_choices: bool = True) -> Any:
    """``argv`` parsed against the dataclass ``cls``; one-line OptionError on an unknown option, a missing or
    mistyped value, a value not among a field's choices, or two flags that set the same ``flags`` field."""
    hints, flags = field_hints(cls), option_flags(cls)
    by_name = {f.name: f for f in dataclasses.fields(cls)}
    positional = next((f.name for f in cli_fields(cls) if f.metadata.get("positional")), None)
    given: dict[str, Any] = {}
    set_by: dict[str, str] = {}
    words, i = list(argv), 0
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-") or word == "-":
            if positional is None:
                raise OptionError(f"{owner}: unexpected argument {word!r} (options: {', '.join(flags)})")
            given.setdefault(positional, []).append(convert(owner, positional, word, hints[positional]))
            continue
        flag, _, inline = word.partition("=")
        if flag not in flags:
            raise unknown_option(owner, flag, cls)
        name = flags[flag]
        hint = hints[name]
        if by_name[name].metadata.get("flags"):
            if name in set_by and set_by[name] != flag:
                raise OptionError(f"{owner}: give one of {', '.join(by_name[name].metadata['flags'])}")
            given[name], set_by[name] = by_name[name].metadata["flags"][flag], flag
            continue
        if base_type(hint) is bool:
            given[name] = True
            continue
        values = [inline] if inline else []
        while not values or (is_list(hint) and not inline):
            if i >= len(words) or (words[i].startswith("-") and not is_numeric_word(words[i])):
                break
            values.append(words[i])
            i += 1
        if not values:
            raise OptionError(f"{owner}: option '{flag}' needs a value")
        converted = [convert(owner, flag, v, hint) for v in values]
        if is_list(hint):
            given.setdefault(name, []).extend(converted)
        else:
            given[name] = converted[-1]
    for name, value in given.items() if check_choices else ():
        check_field_choices(owner, by_name[name], value)
    return cls(**given)


def is_numeric_word(word: str) -> bool:
    """``word`` reads as a number (``-1`` after a flag is its value, not another flag)."""
    try:
        float(word)
    except ValueError:
        return False
    return True


def check_field_choices(owner: str, f: dataclasses.Field, value: Any) -> None:
    """Refuse a ``value`` (or list item) outside the ``choices`` of field ``f``'s metadata, naming its flag."""
    choices = f.metadata.get("choices")
    for item in value if isinstance(value, list) else [value]:
        if choices and item not in choices:
            raise OptionError(
                f"{owner}: option '{flag_name(f.name)}': {item!r} is not one of {', '.join(map(str, choices))}"
            )


def make_options(cls: type, values: dict[str, Any], owner: str, *, check_choices: bool = True) -> Any:
    """``cls(**values)`` from Python keyword values: an unknown name (or, with ``check_choices``, a value outside a
    field's choices) is a one-line OptionError naming the owner (e.g. the task) and its options."""
    by_name = {f.name: f for f in dataclasses.fields(cls)}
    for name, value in values.items():
        if name not in by_name:
            takes = ", ".join(sorted(f.name for f in cli_fields(cls))) or "none"
            raise OptionError(f"{owner} takes no option {name} ({flag_name(name)}); its options: {takes}")
        if check_choices:
            check_field_choices(owner, by_name[name], value)
    return cls(**values)


def option_args(options: Any) -> list[str]:
    """The flags that give ``options`` (non-default command-line fields only), the inverse of :func:`parse_options`."""
    argv: list[str] = []
    for f in cli_fields(options):
        value = getattr(options, f.name)
        if value == default_of(f):
            continue
        if f.metadata.get("flags"):
            argv += [flag for flag, v in f.metadata["flags"].items() if v == value][:1]
        elif isinstance(value, bool):
            argv += [field_flag(f)] if value else []
        elif isinstance(value, list):
            argv += [field_flag(f), *map(str, value)]
        else:
            argv += [field_flag(f), str(value)]
    return argv


def negative_flag(f: dataclasses.Field) -> str:
    """The flag that turns a bool field off on a typer command: its ``off`` metadata, else ``--no-<name>``."""
    return f.metadata.get("off") or "--no-" + field_flag(f)[2:]


def command_args(cls: type, values: Mapping[str, Any]) -> list[str]:
    """The words that give ``values`` (field name -> value, in order; None: not given) to a command whose flags
    were made from ``cls``'s fields: each field's long flag (``flag`` metadata or ``--<name>``) and value, a list as
    the flag repeated, a bool as the field's flag or, for false, its negative (:func:`negative_flag`, as
    :func:`typer_parameters` declares it); a field with ``bare`` metadata is a bare flag that only turns its option
    on (:func:`parse_options`): given for true, left out for false. A name ``cls`` has no field for is an
    OptionError."""
    by_name = {f.name: f for f in cli_fields(cls)}
    argv: list[str] = []
    for name, value in values.items():
        if name not in by_name:
            raise OptionError(f"no option {name} ({flag_name(name)}) among {', '.join(by_name)}")
        f = by_name[name]
        if value is None or (value is False and f.metadata.get("bare")):
            continue
        if isinstance(value, bool):
            argv.append(field_flag(f) if value else negative_flag(f))
        elif isinstance(value, list):
            argv += [word for item in value for word in (field_flag(f), str(item))]
        else:
            argv += [field_flag(f), str(value)]
    return argv


@dataclass(frozen=True)
class Range:
    """The allowed values of a numeric option: ``low`` (<=, or < when ``low_open``) to ``high`` (< when
    ``high_open``)."""

    low: float
    high: float | None = None
    low_open: bool = False
    high_open: bool = False

    def contains(self, value: float) -> bool:
        above = value > self.low if self.low_open else value >= self.low
        below = self.high is None or (value < self.high if self.high_open else value <= self.high)
        return above and below

    def describe(self) -> str:
        low = f"{'>' if self.low_open else '>='} {self.low}"
        return low if self.high is None else f"{low} and {'<' if self.high_open else '<='} {self.high}"


def known_names(spec: str) -> list[str]:
    """The names in the registry ``"module:attribute"`` (a dict's keys or a sequence's items), imported now."""
    module, _, attribute = spec.partition(":")
    return list(getattr(importlib.import_module(module), attribute))


def unknown_name(noun: str, value: Any, names: list[str]) -> str:
    return f"unknown {noun} '{value}' (expected one of {', '.join(names)})"


def check_known(options: Any) -> None:
    """A one-line ``OptionError`` for a field of ``options`` whose value is not among its ``known`` names."""
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if f.metadata.get("known") and value is not None:
            noun, spec = f.metadata["known"]
            if value not in (names := known_names(spec)):
                raise OptionError(unknown_name(noun, value, names))


def is_optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint)


def check_ranges(options: Any) -> None:
    """A one-line ``OptionError`` for a field of ``options`` outside its ``range`` metadata (``None`` passes where
    the field is optional)."""
    hints = field_hints(type(options))
    for f in dataclasses.fields(options):
        allowed, value = f.metadata.get("range"), getattr(options, f.name)
        if allowed is None or (value is None and is_optional(hints[f.name])):
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not allowed.contains(value):
            raise OptionError(f"{f.name.replace('_', '-')} must be {allowed.describe()}, got {value!r}")


# --- typer parameters ---------------------------------------------------------------------------------------


def typer_parameters(
    cls: type, shared: dict[str, Any] | None = None, *, ranges_at_parse: bool = True
) -> list[inspect.Parameter]:
    """The command-line fields of ``cls`` as keyword parameters ``Annotated[type, typer.Option(...)] = default``,
    for a command whose ``__signature__`` typer reads. ``shared`` gives a field an annotation the command line
    declares once for several commands (e.g. ``--data-dir``); its default still comes from the field. With
    ``ranges_at_parse=False`` typer is not given the ``range`` bounds: the command calls :func:`check_ranges` and
    a bad value is its one-line error rather than a usage error."""
    hints = field_hints(cls)
    return [
        inspect.Parameter(
            f.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=typer_default(f),
            annotation=(shared or {}).get(f.name) or typer_annotation(f, hints[f.name], ranges_at_parse),
        )
        for f in cli_fields(cls)
    ]


def typer_default(f: dataclasses.Field) -> Any:
    default = default_of(f)
    return Path(default) if f.metadata.get("path") and default is not None else default


def typer_annotation(f: dataclasses.Field, hint: Any, ranges_at_parse: bool = True) -> Any:
    """``Annotated[type, typer.Option(...)]`` for one field: flags (``--x/--no-x`` for a bool, ``off`` for another
    negative spelling, ``short``), help, inclusive bounds as ``min``/``max`` (with ``ranges_at_parse``), open ones
    and ``known`` names as callbacks."""
    import typer

    meta = f.metadata
    kind = Path if meta.get("path") else base_type(hint)
    if default_of(f) is None:
        kind = kind | None
    flag = field_flag(f)
    decls = [f"{flag}/{negative_flag(f)}" if kind is bool else flag]
    decls += ["-" + meta["short"]] if meta.get("short") else []
    allowed: Range | None = meta.get("range") if ranges_at_parse else None
    bounds = {}
    if allowed is not None and not allowed.low_open:
        bounds["min"] = allowed.low
    if allowed is not None and allowed.high is not None and not allowed.high_open:
        bounds["max"] = allowed.high
    callback = value_check(allowed, meta.get("known"))
    option = typer.Option(*decls, help=meta.get("help") or None, callback=callback, **bounds)
    return Annotated[kind, option]


def value_check(allowed: Range | None, known: tuple[str, Any] | None):
    """The typer callback for what ``min``/``max`` cannot say (open bounds) and for ``known`` names; None if
    nothing is left to check."""
    low = allowed is not None and allowed.low_open
    high = allowed is not None and allowed.high is not None and allowed.high_open
    if not (low or high or known):
        return None

    def check(value):
        import typer

        if value is None:
            return value
        if low and not value > allowed.low:
            raise typer.BadParameter(f"{value:g} is not > {allowed.low:g}")
        if high and not value < allowed.high:
            raise typer.BadParameter(f"{value:g} is not < {allowed.high:g}")
        if known and value not in (names := known_names(known[1])):
            raise typer.BadParameter(unknown_name(known[0], value, names))
        return value

    return check
