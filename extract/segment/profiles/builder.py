"""Building a document's entries and blocks with their provenance (`DocBuilder`), and what a profile
is given (`DocContext`) and is (`Profile`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from extract.model import Anomaly, Block, DocumentSpec, Entry, Line, Segmentation, SetAside
from extract.options import read_options
from extract.segment.profiles.lines import is_contents, vocabulary
from extract.segment.profiles.options import ProfileOptions
from extract.text import (
    ends_sentence,
    hyphen_stays,
    inline,
    join_wrapped,
    join_wrapped_markdown,
    slugify,
)


@dataclass
class DocContext:
    game: str
    doc: DocumentSpec
    options: Any = None  # the profile's options object (a ProfileOptions); Profile fills it in
    # The format reader that wrote the lines: "text" keeps the source's own layout; the others
    # write the light Markdown of extract.read (one line per block, two spaces per list level).
    reader: str = "text"
    words: tuple[set[str], set[str]] = field(default_factory=lambda: (set(), set()))  # `vocabulary` of the lines

    @property
    def logical_lines(self) -> bool:
        return self.reader != "text"


@dataclass(frozen=True)
class Profile:
    """A document style: its `segment(lines, ctx)` and the dataclass of the options it reads."""

    name: str
    segment: Callable[[list[Line], DocContext], Segmentation]
    options: type[ProfileOptions] = ProfileOptions
    # The profile reads the source's own line layout (columns of bare numbers, page numbers glued
    # to rule numbers…): its document goes through the plain-text reader whatever its format.
    raw_text: bool = False

    def read_options(self, table: Any, elsewhere: Callable[[str], str | None] | None = None) -> ProfileOptions:
        """A manifest's options table (or options already read) as this profile's options;
        OptionsError, one problem a line, otherwise."""
        return read_options(self.options, table, f"profile {self.name!r}", elsewhere)

    def __call__(self, lines: list[Line], ctx: DocContext) -> Segmentation:
        options = self.read_options(ctx.doc.options if ctx.options is None else ctx.options)
        return self.segment(lines, replace(ctx, options=options, words=vocabulary(lines)))


@dataclass
class DocBuilder:
    """Collects entries, blocks, set-aside lines and anomalies for one document."""

    ctx: DocContext
    entries: list[Entry] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    recent_blocks: list[tuple[Entry, Block]] = field(default_factory=list)
    _keys: set[str] = field(default_factory=set)

    def entry(self, kind: str, title: str | None, parent: Entry | None, line: int | None,
              number: str | None = None, is_page: bool = False, key: str | None = None,
              name: str | None = None) -> Entry:
        """A new entry; `name` says what it is in an anomaly when its key is taken (a question has
        no title: its text's start names it), by default its number or title."""
        if key is None:
            key = number if number is not None else self._slug_key(title, parent)
        if key in self._keys:
            what = name or (f"number {number}" if number else f"heading {title!r}")
            dup = 2
            while f"{key}-{dup}" in self._keys:
                dup += 1
            self.anomaly("duplicate-number" if number else "duplicate-heading",
                         f"{what} appears more than once; this one gets the id suffix -{dup}",
                         [line] if line else [])
            key = f"{key}-{dup}"
        self._keys.add(key)
        entry = Entry(self.ctx.game, self.ctx.doc.id, kind, number, title, key, parent=parent,
                      is_page=is_page, order=float(line or 0), source_file=self.ctx.doc.source)
        if line:
            entry.heading_lines.append(line)
        self.entries.append(entry)
        return entry

    def rekey(self, entry: Entry, key: str) -> None:
        """`entry` (and the entries under it) named `key` once the walk knows it is free."""
        old = entry.key
        for each in self.entries:
            if each.key == old or each.key.startswith(old + "/"):
                self._keys.discard(each.key)
                each.key = key + each.key[len(old):]
                self._keys.add(each.key)

    def taken(self, key: str) -> bool:
        return key in self._keys

    def _slug_key(self, title: str | None, parent: Entry | None) -> str:
        own = slugify(title or "sans-titre")
        if parent is None:
            return own
        return f"{parent.key}/{own}" if parent.number is None else f"{slugify(parent.key)}/{own}"

    def block(self, entry: Entry, type_: str, raw: str, line: int, number: str | None = None) -> Block:
        plain, markdown, stray = inline(raw)
        if stray:
            self.anomaly("stray-emphasis", "unpaired ** removed", [line])
        block = Block(type_, plain, markdown if markdown != plain else "", number=number, lines=[line])
        entry.blocks.append(block)
        self.recent_blocks.append((entry, block))
        return block

    def extend(self, block: Block, raw: str, line: int, keep_hyphen: bool | None = None) -> None:
        """`raw` continues `block` on the next line; a hyphen ending the block is a compound's when
        `keep_hyphen` (by default: when the document says so, `hyphen_stays`; a page cuts words)."""
        plain, markdown, stray = inline(raw)
        if keep_hyphen is None:
            keep_hyphen = hyphen_stays(self.ctx.words, block.text, plain, default=False)
        if stray:
            self.anomaly("stray-emphasis", "unpaired ** removed", [line])
        before = block.markdown or block.text  # the block's text before `raw` joins it: no line twice
        block.text = join_wrapped(block.text, plain, keep_hyphen)
        if block.markdown or markdown != plain:
            block.markdown = join_wrapped_markdown(before, markdown, keep_hyphen)
        block.lines.append(line)

    def aside(self, first: int, last: int, reason: str) -> None:
        self.set_aside.append(SetAside((first, last), reason))

    def anomaly(self, kind: str, detail: str, lines: list[int] | None = None, severity: str = "info") -> None:
        self.anomalies.append(Anomaly(kind, detail, list(lines or []), severity))

    def unterminated_block(self, limit: int = 400) -> tuple[Entry, Block] | None:
        """The most recent block whose sentence was cut (by a line or page break). A line of a
        contents list ("Combat ........ 7") is no cut sentence, and nothing before it is either:
        the text that follows a contents list starts afresh."""
        for entry, block in reversed(self.recent_blocks[-limit:]):
            if block.type in ("table", "related", "see", "caption"):
                continue
            if is_contents(block.text):
                return None
            if not ends_sentence(block.text):
                return entry, block
        return None

    def rejoin_anomaly(self, entry: Entry, here: Entry | None, detail: str, line: int) -> None:
        """A line joined to the cut sentence of `entry`: said; a warning when it crosses from one
        section of the book to another (`here` the entry the walk is in), where a wrong join moves text."""
        across = here is not None and entry.root is not here.root
        self.anomaly("rejoined-split-sentence", detail + (" in another section" if across else ""), [line],
                     "warning" if across else "info")

    def result(self) -> Segmentation:
        return Segmentation(self.entries, self.set_aside, self.anomalies)
