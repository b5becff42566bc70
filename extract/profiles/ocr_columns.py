"""OCR of multi-column pages (Warcry): lines wrapped at column width are joined into paragraphs,
words hyphenated across lines rejoined (unless the document spells them with a hyphen), headings
in capitals recognised even when split over lines, OCR noise set aside with a reason."""

from __future__ import annotations

import re
from collections.abc import Iterator

from extract.model import Entry, Line, Segmentation
from extract.profiles.base import DocBuilder, DocContext, declared_set_aside
from extract.text import fold, inline, letter_ratio, uppercase_ratio

WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def groups(lines: list[Line]) -> Iterator[list[Line]]:
    """Runs of lines with no blank line between them in the source."""
    run: list[Line] = []
    for line in lines:
        if run and line.no != run[-1].no + 1:
            yield run
            run = []
        run.append(line)
    if run:
        yield run


def is_heading_line(text: str) -> bool:
    letters = sum(c.isalpha() for c in text)
    return letters >= 2 and uppercase_ratio(text) >= 0.85 and len(text) <= 60 and letter_ratio(text) >= 0.6


def is_noise(text: str) -> bool:
    return letter_ratio(text) < 0.5 and not text.strip().isdigit()


def vocabulary(lines: list[Line]) -> tuple[set[str], set[str]]:
    """Words the document itself spells whole, and compounds it spells with a hyphen mid-line."""
    whole: set[str] = set()
    hyphenated: set[str] = set()
    for line in lines:
        for word in WORD.findall(line.text.rstrip("-")):
            (hyphenated if "-" in word else whole).add(word.lower())
    return whole, hyphenated


class ColumnWalker:
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        self.ctx = ctx
        self.b = builder
        self.current: Entry | None = None
        self.pending_heading: list[Line] = []
        self.dehyphenated: list[int] = []
        self.kept_hyphen: list[int] = []
        self.outline_level = {fold(h.lstrip("#").strip()): len(h) - len(h.lstrip("#"))
                              for h in ctx.options.get("outline", [])}
        self.stack: list[tuple[int, Entry]] = []

    def run(self, lines: list[Line]) -> None:
        self.whole, self.hyphenated = vocabulary(lines)
        for run in groups(lines):
            self.group(run)
        self.flush_heading(None)
        if self.dehyphenated:
            self.b.anomaly("hyphenation-repaired", f"{len(self.dehyphenated)} words hyphenated across lines rejoined",
                           self.dehyphenated)

    def group(self, run: list[Line]) -> None:
        body: list[Line] = []
        for line in run:
            text = line.text.strip()
            if text.isdigit() and len(text) <= 3:
                self.b.aside(line.no, line.no, "isolated number (page or step marker)")
            elif is_noise(text):
                self.b.aside(line.no, line.no, "OCR noise: too few letters to be text")
            elif not body and is_heading_line(text):
                self.pending_heading.append(line)
            else:
                body.append(line)
        if body:
            self.flush_heading(body[0])
            self.paragraph(body)

    def flush_heading(self, before: Line | None) -> None:
        if not self.pending_heading:
            return
        lines, self.pending_heading = self.pending_heading, []
        title = " ".join(inline(line.text.strip())[0] for line in lines)
        level = self.outline_level.get(fold(title), 1 if not self.outline_level else max(self.outline_level.values()) + 1)
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        parent = self.stack[-1][1] if self.stack else None
        entry = self.b.entry("section", title, parent, lines[0].no, is_page=parent is None)
        entry.heading_lines = [line.no for line in lines]
        self.stack.append((level, entry))
        self.current = entry

    def paragraph(self, body: list[Line]) -> None:
        if self.current is None:
            self.current = self.b.entry("section", None, None, None, key="preambule", is_page=True)
        block = self.b.block(self.current, "paragraph", body[0].text.strip(), body[0].no)
        for line in body[1:]:
            keep = self.keep_hyphen(block.text, line.text.strip())
            if block.text.endswith("-") and not keep and line.text.strip()[:1].isalpha():
                self.dehyphenated.append(line.no)
            self.b.extend(block, line.text.strip(), line.no, keep_hyphen=keep)

    def keep_hyphen(self, before: str, after: str) -> bool:
        head = WORD.findall(before.rstrip("-"))
        tail = WORD.findall(after)
        if not head or not tail or not before.endswith("-"):
            return False
        joined = f"{head[-1]}{tail[0]}".lower()
        compound = f"{head[-1]}-{tail[0]}".lower()
        return compound in self.hyphenated and joined not in self.whole


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    ColumnWalker(ctx, builder).run(declared_set_aside(lines, ctx, builder))
    return builder.result()
