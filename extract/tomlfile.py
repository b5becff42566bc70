"""Corpus TOML files (manifests, errata, terms, concepts, facts): read strictly, every error an
InputError naming the file and line, in the manner of OpenFisca's parameter files."""

from __future__ import annotations

import functools
import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.files import DATA_FILE_LIMIT, read_input


@functools.lru_cache(maxsize=4)
def rows_of(text: str) -> list[str]:
    """A file's lines, split once per file: a manifest's problems and option lines are looked up
    item by item, and splitting the whole file for each made a long manifest quadratic."""
    return text.splitlines()


def line_of(text: str, pattern: str, occurrence: int = 0) -> int | None:
    """1-based line of the `occurrence`-th line matching `pattern` (a regex), if any."""
    seen = 0
    for number, line in enumerate(rows_of(text), start=1):
        if re.search(pattern, line):
            if seen == occurrence:
                return number
            seen += 1
    return None


def table_lines(text: str, table: str, count: int) -> list[int | None]:
    """1-based line of each of `count` `[[table]]` headers (None past the last one found): what
    `line_of` gives for each item, in one pass over the file instead of one per item."""
    header = re.compile(rf"^\s*\[\[{re.escape(table)}\]\]")
    found: list[int | None] = [n for n, line in enumerate(rows_of(text), start=1) if header.search(line)]
    return (found + [None] * count)[:count]


def item_line(text: str, line: int, index: int, column: int | None = None) -> int | None:
    """1-based line where item `index` (from 0) of the array assigned on `line` starts (after
    `column`, by default after the line's first `=`): the item of `key = [ … ]` a problem is
    about, when the array is written over several lines."""
    rows = rows_of(text)
    if not 1 <= line <= len(rows) or (column is None and "=" not in rows[line - 1]):
        return None
    start = rows[line - 1].index("=") + 1 if column is None else column
    depth, count, expecting, quote = 0, -1, False, ""
    for number in range(line, len(rows) + 1):
        row = rows[number - 1]
        at = start if number == line else 0
        while at < len(row):
            char = row[at]
            at += 1
            if quote:
                if char == "\\" and quote == '"':
                    at += 1
                elif char == quote:
                    quote = ""
                continue
            if char == "#":
                break
            if depth == 1 and expecting and not char.isspace() and char not in ",]":
                count, expecting = count + 1, False
                if count == index:
                    return number
            if char in "\"'":
                quote = char
            elif char in "[{":
                depth += 1
                expecting = expecting or depth == 1
            elif char in "]}":
                depth -= 1
                if depth <= 0:
                    return None
            elif char == "," and depth == 1:
                expecting = True
    return None


MAX_NESTING = 64  # arrays or inline tables within each other: far beyond any corpus file's needs


NESTING_MARKS = re.compile(r"""[][{}"'#\n\\]""")  # what changes the nesting, a string or a line


def nesting_line(raw: str, limit: int) -> int | None:
    """The 1-based line where `[`/`{` open more than `limit` levels (outside strings and comments),
    or None: one pass over the text, from mark to mark, without parsing it."""
    depth, line, quote, skip_to = 0, 1, "", 0
    for mark in NESTING_MARKS.finditer(raw):
        at, char = mark.start(), mark.group()
        if char == "\n":
            line += 1
            if quote in ('"', "'", "#"):
                quote = ""  # a one-line string or a comment ends with its line
            continue
        if at < skip_to or quote == "#":
            continue
        if quote:
            if char == "\\" and quote in ('"', '"""'):
                skip_to = at + 2
            elif raw.startswith(quote, at):
                skip_to, quote = at + len(quote), ""
        elif char == "#":
            quote = "#"
        elif char in "\"'":
            quote = char * 3 if raw.startswith(char * 3, at) else char
            skip_to = at + len(quote)
        elif char in "[{":
            depth += 1
            if depth > limit:
                return line
        elif char in "]}":
            depth = max(depth - 1, 0)
    return None


def read_toml(path: Path, root: Path) -> tuple[dict[str, Any], str, str]:
    """A corpus TOML file as (data, raw text, path relative to root); unreadable or invalid TOML
    is an InputError naming the file and line. Every corpus data file is read through here."""
    rel = path.relative_to(root).as_posix()
    data = read_input(path, rel, DATA_FILE_LIMIT, base=root)  # a regular file, no link followed, size first
    try:
        raw = unicodedata.normalize("NFC", data.decode("utf-8"))  # composed, as the sources are read
    except UnicodeDecodeError as exc:
        raise InputError(rel, f"not UTF-8 ({exc.reason})") from None
    deep = nesting_line(raw, MAX_NESTING)
    if deep:  # tomllib recurses once per level: refused before, rather than a RecursionError
        raise InputError(rel, f"arrays or inline tables nested more than {MAX_NESTING} deep", deep)
    try:
        return tomllib.loads(raw), raw, rel
    except RecursionError:  # nesting the count above missed (within strings it could not tell apart)
        raise InputError(rel, "nested too deeply to be read") from None
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise InputError(rel, f"invalid TOML: {exc}", int(match.group(1)) if match else None) from None


def unknown_key(data: dict[str, Any], allowed: set[str], rel: str, raw: str, where: str = "") -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InputError(rel, f"unknown key {unknown[0]!r}{where} (allowed: {', '.join(sorted(allowed))})",
                         line_of(raw, rf"^\s*{re.escape(unknown[0])}\s*="))
