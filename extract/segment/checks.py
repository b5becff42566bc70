"""A document's options checked against the document itself, before its profile runs: a line
span outside the document, set-aside rules that leave nothing of it, a caption label the text
never prints. The manifest checker (`extract.corpus`) cannot see these: it has not read the
document. What to check is declared beside each option, in its field's metadata (`extract.options`):

- `"within": "span"` — a `[first, last]` line span that must lie inside the document;
- `"within": "line"` — a line number that must be one of the document's;
- `"found": True` — labels (a string, an array of them, a table's keys) the document's text
  must print (case, accents and a heading's `#` marks aside).

Each problem is an `extract.options.Problem`: the option's key path and one line; the caller
names the manifest line from the path."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from typing import Any

from extract.model import Line, SetAside
from extract.options import KeyPath, Problem, where
from extract.text import fold, inline


def extent(lines: Sequence[Line], aside: Sequence[SetAside], first: int, last: int | None) -> tuple[int, int]:
    """The document's first and last line: its declared span, or what its reader gave of it."""
    numbers = [line.no for line in lines] + [n for item in aside for n in item.lines]
    top = last if last is not None else max(numbers, default=first)
    return first, max(top, first)


def option_problems(options: Any, lines: Sequence[Line], aside: Sequence[SetAside] = (),
                    first: int = 1, last: int | None = None) -> list[Problem]:
    """Every problem of `options` (a profile's options dataclass) against the document's
    normalised `lines` (and the lines its reader set aside), in declaration order."""
    span = extent(lines, aside, first, last)
    text = " ".join(fold(inline(line.text)[0]) for line in lines)
    problems = [problem for path, value, how in declared_values(options)
                for problem in _check(path, value, how, span, text)]
    if not any(problem.path[:1] == ("set_aside",) for problem in problems):  # one line for one mistake
        problems.extend(_cut_paragraphs(options, lines))
    if not any(problem.path[:1] == ("set_aside",) for problem in problems):
        problems.extend(_all_set_aside(options, lines, span))
    return problems


def _cut_paragraphs(options: Any, lines: Sequence[Line]) -> Iterator[Problem]:
    """A `set_aside` line span that covers part of a paragraph (a logical line its reader joined
    from several source lines): the whole paragraph would stay, or go, without a word; refused,
    naming the paragraph's own span."""
    for i, rule in enumerate(getattr(options, "set_aside", ())):
        if not rule.lines:
            continue
        a, b = rule.lines
        for line in lines:
            numbers = (line.no, *line.covers)
            inside = sum(1 for n in numbers if a <= n <= b)
            if 0 < inside < len(numbers):
                first, last = min(numbers), max(numbers)
                page = f" (p. {line.page})" if line.page is not None else ""
                yield Problem(("set_aside", i), f"set_aside item {i + 1}: lines [{a}, {b}] cut the paragraph of lines "
                                                f"{first}–{last}{page}, which is read as one: set aside all of it "
                                                f"([{min(a, first)}, {max(b, last)}]) or none of it")
                break


def declared_values(options: Any, path: KeyPath = ()) -> Iterator[tuple[KeyPath, Any, dict[str, Any]]]:
    """(key path, value, metadata) of each field of `options` that declares a check against the
    document, nested items included; fields left at their default are the profile's, not checked."""
    for spec in dataclasses.fields(options):
        value = getattr(options, spec.name)
        here = (*path, spec.name)
        if spec.metadata.get("within") or spec.metadata.get("found"):
            default = spec.default_factory() if spec.default_factory is not dataclasses.MISSING else spec.default
            if value is not None and value != default:
                yield here, value, dict(spec.metadata)
        if isinstance(value, tuple):
            for i, item in enumerate(value):
                if dataclasses.is_dataclass(item):
                    yield from declared_values(item, (*here, i))


def _check(path: KeyPath, value: Any, how: dict[str, Any], span: tuple[int, int], text: str) -> Iterator[Problem]:
    first, last = span
    within = how.get("within")
    if within == "span":
        a, b = value
        if a < first or b > last:
            yield Problem(path, f"{where(path)} [{a}, {b}] is outside the document (lines {first}–{last})")
    elif within == "line" and not first <= value <= last:
        yield Problem(path, f"{where(path)} {value} is outside the document (lines {first}–{last})")
    if how.get("found"):
        labels = (value,) if isinstance(value, str) else tuple(value)  # a string, an array, a table's keys
        for i, label in enumerate(labels):
            folded = fold(inline(label.lstrip("#").strip())[0])
            if folded and folded not in text:
                at = path if isinstance(value, str) else (*path, i)
                yield Problem(at, f"{where(at)}: {label!r} is printed nowhere in the document")


def _all_set_aside(options: Any, lines: Sequence[Line], span: tuple[int, int]) -> Iterator[Problem]:
    """The manifest's `set_aside` rules together leave no line of the document to read."""
    rules = getattr(options, "set_aside", ())
    written = [line for line in lines if line.text.strip()]
    if not rules or not written:
        return
    patterns = [re.compile(rule.pattern) for rule in rules if rule.pattern]
    spans = [rule.lines for rule in rules if rule.lines]
    if all(any(a <= line.no <= b for a, b in spans) or any(p.search(line.text) for p in patterns) for line in written):
        yield Problem(("set_aside",), f"set_aside sets aside every line of the document (lines {span[0]}–{span[1]}): "
                                      "nothing would be published")
