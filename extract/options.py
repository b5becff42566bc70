"""Options declared by their owner and checked by one loader, in the manner of MkDocs' plugin
config: whoever reads options (a segmentation profile) declares them as a frozen dataclass —
each field with its type, its default and a one-line help in `field(metadata={"help": …})` —
and `read_options` turns a manifest's table into that dataclass. Nothing else keeps a list of
option names: the manifest checker, the manifest reference's table (docs/manifest.md) and the profiles all read the declaration.

Types understood: str, int, bool, float, `X | None`, `tuple[X, ...]` (a TOML array),
`tuple[X, Y]` (an array of that length), `dict[str, X]` (a TOML table) and nested dataclasses
(a TOML table with exactly their keys). A field's metadata may add a `check`, a function of the
converted value returning what is wrong with it (or None): `regex`, `line_span`, `positive`.
It may also say what to check once the document is read (`within`, `found`: extract.segment.checks).
A nested dataclass may raise ValueError in `__post_init__` for rules across its fields.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, dataclass
from datetime import date, datetime, time
from typing import Any, TypeVar

T = TypeVar("T")
KeyPath = tuple[str | int, ...]  # ("set_aside", 1, "reason"): key, item index (from 0), nested key


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an options table: where (`path`) and what, as one line."""

    path: KeyPath
    message: str

    def __str__(self) -> str:
        return self.message


class OptionsError(ValueError):
    """An options table that does not fit its declaration; `problems` has one line for each fault."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


# -- checks a field may declare in its metadata -----------------------------------------------------

def regex(value: str) -> str | None:
    try:
        re.compile(value)
    except re.error as error:
        return f"is not a regular expression: {error}"
    return None


def line_span(value: tuple[int, int]) -> str | None:
    first, last = value
    if first < 1:
        return f"[{first}, {last}] must start at line 1 or after"
    if first > last:
        return f"[{first}, {last}] ends before it starts"
    return None


def words(value: tuple[str, ...]) -> str | None:
    """A non-empty array of non-blank strings (prefixes, names)."""
    if not value:
        return "must name at least one"
    if any(not item.strip() for item in value):
        return "must not hold an empty string"
    return None


def positive(value: int) -> str | None:
    return None if value >= 1 else f"must be 1 or more, not {value}"


# -- reading --------------------------------------------------------------------------------------

def read_options(cls: type[T], table: Mapping[str, Any] | T | None, owner: str = "",
                 elsewhere: Callable[[str], str | None] | None = None) -> T:
    """`table` (a manifest's options, or already an instance of `cls`) as `cls`; OptionsError
    listing every problem otherwise. `owner` names whose options these are ("profile 'faq'"),
    `elsewhere(key)` says which other owners an unknown key belongs to, if any."""
    if isinstance(table, cls):
        return table
    problems: list[Problem] = []
    if table is None:
        table = {}
    if not isinstance(table, Mapping):
        raise OptionsError([Problem((), f"options must be a table, not {_kind(table)}")])
    result = _dataclass(table, cls, (), problems, owner, elsewhere)
    if problems:
        raise OptionsError(problems)
    return result


_INVALID = object()


def where(path: KeyPath) -> str:
    """("relocate", 0, "after") -> "relocate item 1: after"."""
    parts: list[str] = []
    for step in path:
        if isinstance(step, int):
            parts[-1] += f" item {step + 1}"
        else:
            parts.append(step)
    return ": ".join(parts)


def _dataclass(table: Mapping[str, Any], cls: type, path: KeyPath, problems: list[Problem], owner: str = "",
               elsewhere: Callable[[str], str | None] | None = None) -> Any:
    specs = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    allowed = ", ".join(sorted(specs))
    valid = True
    for key in table:
        if key in specs:
            continue
        valid = False
        if path:
            problems.append(Problem((*path, key), f"{where(path)}: unknown key {key!r} (allowed: {allowed})"))
        elif elsewhere and elsewhere(key):
            problems.append(Problem((key,), f"option {key!r} is for {elsewhere(key)}, not for {owner or cls.__name__} "
                                            f"(allowed: {allowed})"))
        else:
            problems.append(Problem((key,), f"unknown option {key!r}{' for ' + owner if owner else ''} (allowed: {allowed})"))
    values: dict[str, Any] = {}
    for name, spec in specs.items():
        if name not in table:
            if spec.default is MISSING and spec.default_factory is MISSING:
                problems.append(Problem(path, f"{where(path)}: missing {name!r}" if path else f"missing option {name!r}"))
                valid = False
            continue
        value = _convert(table[name], hints[name], (*path, name), problems)
        if value is _INVALID:
            valid = False
            continue
        check = spec.metadata.get("check")
        fault = check(value) if check else None
        if fault:
            problems.append(Problem((*path, name), f"{where((*path, name))} {fault}"))
            valid = False
            continue
        values[name] = value
    if not valid:
        return _INVALID
    try:
        return cls(**values)
    except ValueError as error:  # a rule across fields, from __post_init__
        problems.append(Problem(path, f"{where(path)}: {error}" if path else str(error)))
        return _INVALID


def _convert(value: Any, tp: Any, path: KeyPath, problems: list[Problem]) -> Any:
    def wrong() -> Any:
        problems.append(Problem(path, f"{where(path)} must be {describe(tp)}, not {_kind(value)}"))
        return _INVALID

    optional = _unoptional(tp)
    if optional is not None:
        return _convert(value, optional, path, problems)
    if dataclasses.is_dataclass(tp):
        return _dataclass(value, tp, path, problems) if isinstance(value, dict) else wrong()
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        if not isinstance(value, list):
            return wrong()
        if len(args) == 2 and args[1] is Ellipsis:
            items = [_convert(item, args[0], (*path, i), problems) for i, item in enumerate(value)]
        elif len(value) != len(args):
            return wrong()
        else:
            items = [_convert(item, arg, (*path, i), problems) for i, (item, arg) in enumerate(zip(value, args, strict=True))]
        return _INVALID if any(item is _INVALID for item in items) else tuple(items)
    if origin is dict:
        if not isinstance(value, dict):
            return wrong()
        converted = {key: _convert(item, args[1], (*path, key), problems) for key, item in value.items()}
        return _INVALID if any(item is _INVALID for item in converted.values()) else converted
    if tp is float:
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else wrong()
    if tp is int:
        return value if isinstance(value, int) and not isinstance(value, bool) else wrong()
    if tp in (str, bool):
        return value if isinstance(value, tp) else wrong()
    raise TypeError(f"options of type {tp!r} are not supported")  # a declaration's mistake, not the manifest's


def _unoptional(tp: Any) -> Any:
    """X for `X | None`, else None."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        rest = [arg for arg in typing.get_args(tp) if arg is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return None


def _kind(value: Any) -> str:
    """A TOML value's type, as the manifest's author wrote it."""
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a float"), (str, "a string"),
                       (list, "an array"), (dict, "a table"), (datetime, "a date-time"), (date, "a date"), (time, "a time")):
        if isinstance(value, kind):
            shown = toml_value(value) if kind in (bool, int, float, str) else ""
            return f"{name} ({shown})" if shown and len(shown) <= 40 else name
    return type(value).__name__


# -- describing ------------------------------------------------------------------------------------

_NAMES = {str: "string", int: "integer", bool: "boolean", float: "number"}


def type_name(tp: Any) -> str:
    """`tuple[Relocation, ...]` -> "array of {lines, after, reason}": the type as TOML spells it."""
    optional = _unoptional(tp)
    if optional is not None:
        return type_name(optional)
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return "{" + ", ".join(f.name if _required(f) or _unoptional(hints[f.name]) is None else f"{f.name}?"
                               for f in dataclasses.fields(tp)) + "}"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        inner = type_name(args[0])
        return f"array of {inner}s" if args[0] in _NAMES else f"array of {inner}"
    if origin is tuple:
        return "[" + ", ".join(type_name(arg) for arg in args) + "]"
    if origin is dict:
        inner = type_name(args[1])
        return f"table of {inner}s" if args[1] in _NAMES else f"table of {inner}"
    return _NAMES.get(tp, getattr(tp, "__name__", str(tp)))


def describe(tp: Any) -> str:
    """The same with an article, for messages: "an array of strings", "a string"."""
    name = type_name(tp)
    if name.startswith(("[", "{")):
        return name
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def _required(spec: dataclasses.Field) -> bool:
    return spec.default is MISSING and spec.default_factory is MISSING


def declared(cls: type) -> Iterator[tuple[str, Any, str, Any]]:
    """(name, type, help, default) of each option `cls` declares, in declaration order; the
    default is MISSING for a required one."""
    hints = typing.get_type_hints(cls)
    for spec in dataclasses.fields(cls):
        default = spec.default_factory() if spec.default_factory is not MISSING else spec.default
        yield spec.name, hints[spec.name], spec.metadata.get("help", ""), default


def toml_value(value: Any) -> str:
    """("Q", "Question") -> '["Q", "Question"]': a default as the manifest would write it."""
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def options_table(owners: Mapping[str, type]) -> str:
    """The Markdown table of every option of `owners` (name -> options class): option, who
    accepts it, its type, its help. Options most owners share come first."""
    rows: dict[str, tuple[str, str, list[str]]] = {}
    for owner, cls in owners.items():
        for name, tp, help_, default in declared(cls):
            kind = type_name(tp)
            if default is not MISSING and default not in (None, (), {}):
                kind += f" (default `{toml_value(default)}`)"
            rows.setdefault(name, (kind, help_, []))[2].append(owner)
    everyone = list(owners)
    ordered = sorted(rows, key=lambda name: -len(rows[name][2]))  # stable: first seen first among equals

    def who(names: list[str]) -> str:
        if names == everyone:
            return "all"
        missing = [n for n in everyone if n not in names]
        if len(names) > 1 and len(missing) == 1:
            return f"all but `{missing[0]}`"
        return ", ".join(f"`{n}`" for n in names)

    lines = ["| option | profiles | type | meaning |", "|---|---|---|---|"]
    for name in ordered:
        kind, help_, names = rows[name]
        cells = [f"`{name}`", who(names), kind, help_]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"
