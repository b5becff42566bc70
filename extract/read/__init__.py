"""Format readers: one module per format (text, Markdown, PDF), all turning a file into the same
`Reading`, the layout-aware lines the profiles consume.

The lines are written in a light Markdown every profile already reads: a heading the format
states is `#`×level then its title, a list item `- ` (two spaces of indent per nesting level),
a numbered step `N. `, a table row `| a | b |`, emphasis as `**`/`*`; a paragraph the source
wrapped over several lines is one line whose `covers` lists the other source lines it joins.
What the reader itself drops (HTML comments, running headers, page numbers, images…) is in
`set_aside` with a reason, so that lines read = lines placed + lines set aside still holds.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.files import input_limit, read_input
from extract.model import Anomaly, GameSpec, Line, SetAside
from extract.registry import Registry


@dataclass
class Reading:
    """One document as its reader saw it."""

    format: str  # "text" | "markdown" | "pdf"
    lines: list[Line]
    set_aside: list[SetAside] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    lines_read: int = 0  # non-blank source lines (text, Markdown) or extracted text lines (PDF)
    pages: int | None = None
    # What the layout says, for choosing a profile: e.g. {"heading_levels": 3, "headings": 41}.
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reader:
    name: str
    suffixes: tuple[str, ...]
    # (path, name to show in messages[, pages for a PDF][, encoding= for text and Markdown]) -> Reading
    read: Callable[..., Reading]


READERS: Registry[Reader] = Registry("reader")
# The longest line a later stage is given, in characters: a longer one (a paragraph run together by
# a bad conversion, a hostile file) is split at spaces into lines no longer, or set aside when it has
# no space to split at; either with a warning. Every stage after the reader then does bounded work
# per line, whatever the document.
MAX_LINE = 10_000


def bound_lines(reading: Reading) -> Reading:
    """`reading` with no line longer than MAX_LINE: each longer one split at its spaces (the pieces
    keep its line number) or set aside, and a warning for each."""
    if all(len(line.text) <= MAX_LINE for line in reading.lines):
        return reading
    lines: list[Line] = []
    set_aside, anomalies = list(reading.set_aside), list(reading.anomalies)
    for line in reading.lines:
        if len(line.text) <= MAX_LINE:
            lines.append(line)
            continue
        pieces = split_at_spaces(line.text, MAX_LINE)
        if pieces is None:
            last = max((line.no, *line.covers))
            set_aside.append(SetAside((line.no, last), f"a line of {len(line.text):,} characters with no space to split "
                                                       f"it at (at most {MAX_LINE:,} read)"))
            anomalies.append(Anomaly("long-line", f"line {line.no}: {len(line.text):,} characters without a space, set aside "
                                                  f"(at most {MAX_LINE:,} per line)", [line.no], severity="warning"))
            continue
        lines.extend(dataclasses.replace(line, text=piece, covers=line.covers if n == 0 else ())
                     for n, piece in enumerate(pieces))
        anomalies.append(Anomaly("long-line", f"line {line.no}: {len(line.text):,} characters, split at spaces into "
                                              f"{len(pieces)} lines of at most {MAX_LINE:,}", [line.no], severity="warning"))
    return dataclasses.replace(reading, lines=lines, set_aside=set_aside, anomalies=anomalies)


def split_at_spaces(text: str, limit: int) -> list[str] | None:
    """`text` cut at spaces into pieces of at most `limit` characters (each stripped, none empty), or
    None when some stretch longer than `limit` holds no space."""
    pieces: list[str] = []
    start = 0
    while len(text) - start > limit:
        cut = text.rfind(" ", start, start + limit + 1)
        if cut <= start:
            return None
        if piece := text[start:cut].strip():
            pieces.append(piece)
        start = cut + 1
    if piece := text[start:].strip():
        pieces.append(piece)
    return pieces


def reader_for(path: Path) -> Reader:
    """The reader whose suffix the file has; text for anything else."""
    suffix = path.suffix.lower()
    for _, reader in READERS.ordered():
        if suffix in reader.suffixes:
            return reader
    return READERS["text"]


def read_document(path: Path, display: str | None = None, encoding: str | None = None, data: bytes | None = None) -> Reading:
    """Read `path` with the reader for its format. Bad input raises InputError naming the file.
    `encoding`: a text or Markdown file's, when the manifest declares one (UTF-8 otherwise).
    `data`: the file's bytes, when the caller has read (and checked) them; else read here, a
    regular file under its size limit (`extract.files.read_input`)."""
    display = display or str(path)
    data = read_input(path, display, input_limit(path)) if data is None else data
    if encoding:
        return bound_lines(reader_for(path).read(path, display, encoding=encoding, data=data))
    return bound_lines(reader_for(path).read(path, display, data=data))


def read_as_text(path: Path, display: str | None = None, encoding: str | None = None, data: bytes | None = None) -> Reading:
    """The file's own lines, whatever its format (for profiles that read the source's layout)."""
    return bound_lines(READERS["text"].read(path, display or str(path), **({"encoding": encoding} if encoding else {}), data=data))


def read_sources(root: Path, game: GameSpec, raw_text: set[str] = frozenset()) -> dict[str, Reading]:
    """Every source a game declares, read by its format's reader (by the plain-text reader for the
    sources in `raw_text`) and checked against its sha256."""
    readings = {}
    for rel, digest in sorted(game.sources.items()):
        pages = game.source_pages.get(rel)
        try:
            readings[rel] = read_source(root, rel, digest, rel in raw_text, pages, game.source_encodings.get(rel))
        except InputError as error:
            if pages is None or not error.message.startswith("page range"):
                raise
            # The range is the manifest's: say so at its [[sources]] entry.
            raise InputError(game.manifest, f"{rel.rsplit('/', 1)[-1]}: pages = [{pages[0]}, {pages[1]}]: {error.message}",
                             game.source_lines.get(rel)) from None
    return readings


def read_source(root: Path, rel: str, expected_sha256: str | None, raw_text: bool = False,
                pages: tuple[int, int] | None = None, encoding: str | None = None) -> Reading:
    """A source of the corpus, read once (no link followed, a regular file under its size limit)
    and checked against its sha256 before any reader parses it."""
    path = root / rel
    data = read_input(path, rel, input_limit(path), base=root)
    if expected_sha256 is not None:
        digest = hashlib.sha256(data).hexdigest()
        if digest != expected_sha256:
            raise InputError(rel, f"checksum mismatch: sha256 is {digest}, the manifest declares {expected_sha256}")
    if pages is not None:  # the manifest allows a page range on PDF sources only
        return bound_lines(reader_for(path).read(path, rel, pages, data=data))
    if raw_text and reader_for(path).name == "markdown":
        return read_as_text(path, rel, encoding, data)
    return read_document(path, rel, encoding, data)


def _load_readers() -> None:
    # Each reader registers itself where it is defined; importing them fills READERS.
    from extract.read import markdown, pdf, text  # noqa: F401


_load_readers()
