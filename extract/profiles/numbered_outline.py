"""Rules numbered "N.", "N.N.", "N.N.N." to any depth, as PDF-to-Markdown conversions leave them
(the WFDF Rules of Ultimate): chapters "5. Équipes", rules with their text on the same line
("7.6. Aussi tôt…"), and columns of bare numbers ("5.1." "5.2." "5.3.") whose texts follow
below in the same order. A lone bare number takes the next text; a column of them waits in a
queue, texts taking them in turn. Page numbers glued to a line ("12. est immobile…") go.
"""

from __future__ import annotations

import re

from extract.model import Entry, Line, Segmentation
from extract.profiles.base import DocBuilder, DocContext, declared_set_aside
from extract.text import ends_sentence, inline

BARE = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})*)\.$")
RULE = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})+)\.?\s+(?P<text>\S.*)$")
CHAPTER = re.compile(r"^(?P<num>\d{1,3})\.\s+(?P<title>(?:«\s*)?[^\W\d_a-zà-ÿ].{0,70})$")
GLUED_PAGE = re.compile(r"^(?P<page>\d{1,3})\.?\s+(?=[a-zà-ÿ«(]|\d{1,3}(?:\.\d{1,3})+\.?\s)")
HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>\S.*)$")
BULLET = re.compile(r"^[-*•]\s+(?P<text>\S.*)$")


def parent_number(number: str) -> str | None:
    return number.rsplit(".", 1)[0] if "." in number else None


class OutlineWalker:
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        self.b = builder
        self.numbered: dict[str, Entry] = {}
        self.section: Entry | None = None  # the heading or chapter rules without a parent go under
        self.current: Entry | None = None
        self.queue: list[tuple[str, int]] = []  # (number, line) waiting for their text
        self.lone: list[tuple[str, int]] = []  # a bare number directly above its text
        self.run: list[tuple[str, int]] = []  # consecutive bare numbers being read
        self.open = False  # the last text line did not end its sentence

    def walk(self, lines: list[Line]) -> None:
        for line in lines:
            self.line(line)
        self.flush_run()
        for number, at in self.queue + self.lone:
            self.b.aside(at, at, "rule number whose text never came")
            self.b.anomaly("number-without-text", f"{number} never received its text", [at])

    def flush_run(self) -> None:
        if len(self.run) == 1:
            self.lone.extend(self.run)
        else:
            self.queue.extend(self.run)
        self.run = []

    def rule(self, number: str, text: str, line: Line, number_line: int | None = None) -> None:
        parent_no = parent_number(number)
        while parent_no is not None and parent_no not in self.numbered:
            parent_no = parent_number(parent_no)
        parent = self.numbered.get(parent_no) if parent_no else self.section
        if number in self.numbered:  # a contents list named it first: the rule is the second
            entry = self.numbered[number]
        else:
            entry = self.b.entry("rule", None, parent or self.section, line.no, number=number)
            self.numbered[number] = entry
        if number_line is not None:
            entry.heading_lines.append(number_line)
        self.b.block(entry, "paragraph", text, line.no)
        self.current = entry
        self.open = not ends_sentence(text)
        self.queue = [(n, at) for n, at in self.queue if n != number]

    def line(self, line: Line) -> None:
        text = line.text.strip()
        bare = BARE.match(text)
        if bare:
            self.run.append((bare.group("num"), line.no))
            self.open = False
            return
        self.flush_run()
        glued = GLUED_PAGE.match(text)
        if glued and not RULE.match(text) and not CHAPTER.match(text):
            self.b.anomaly("page-number-removed", f"page number {glued.group('page')} glued to the text", [line.no])
            text = text[glued.end():]
        heading = HEADING.match(text)
        chapter = CHAPTER.match(text)
        rule = RULE.match(text)
        if heading:
            level = len(heading.group("marks"))
            parent = self.section if self.section is not None and level > 1 and self.section.parent is None else None
            self.section = self.b.entry("section", inline(heading.group("title"))[0], parent, line.no, is_page=parent is None)
            self.current, self.open = self.section, False
        elif chapter and not text.rstrip().endswith((".", ":", ";", "!", "?", ",")) and not rule:
            number = chapter.group("num")
            if number in self.numbered:  # the contents list came first
                entry = self.numbered[number]
                entry.heading_lines.append(line.no)
            else:
                entry = self.b.entry("section", inline(chapter.group("title"))[0], None, line.no, number=number, is_page=True)
                self.numbered[number] = entry
            self.section = self.current = entry
            self.open = False
        elif rule:
            self.rule(rule.group("num"), rule.group("text"), line)
        elif BULLET.match(text) and self.current is not None:
            self.b.block(self.current, "bullet", BULLET.match(text).group("text"), line.no)
            self.open = not ends_sentence(text)
        elif self.open and self.current is not None and self.current.blocks:
            self.b.extend(self.current.blocks[-1], text, line.no)
            self.open = not ends_sentence(text)
        elif self.lone or self.queue:
            number, at = (self.lone or self.queue).pop(0)
            self.rule(number, text, line, number_line=at)
        else:
            if self.current is None:
                self.current = self.section = self.b.entry("section", None, None, line.no, key="preambule", is_page=True)
            self.b.block(self.current, "paragraph", text, line.no)
            self.open = not ends_sentence(text)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    OutlineWalker(ctx, builder).walk(declared_set_aside(lines, ctx, builder))
    return builder.result()
