"""Rules numbered "N.", "N.N.", "N.N.N." to any depth, as PDF-to-Markdown conversions leave them
(the WFDF Rules of Ultimate): chapters "5. Équipes", rules with their text on the same line
("7.6. Aussi tôt…"), and columns of bare numbers ("5.1." "5.2." "5.3.") whose texts follow
below in the same order. A lone bare number takes the next text; a column of them waits in a
queue, texts taking them in turn. Page numbers glued to a line ("12. est immobile…") or to a
number ("59.1." on page 5 is 9.1) go. The contents list is set aside; it tells which lines are
chapter headings even where the body prints them without their number, and gives the title of
a chapter whose heading the body lost.
"""

from __future__ import annotations

import re

from extract.model import Entry, Line, Segmentation
from extract.segment.profiles.base import DocBuilder, DocContext, declared_set_aside
from extract.text import ends_sentence, fold, inline

BARE = re.compile(r"^(?P<num>\d{1,5}(?:\.\d{1,3})*)\.$")
RULE = re.compile(r"^(?P<num>\d{1,5}(?:\.\d{1,3})+)\.?\s+(?P<text>\S.*)$")
CHAPTER = re.compile(r"^(?P<num>\d{1,3})\.\s+(?P<title>(?:«\s*)?[^\W\d_a-zà-ÿ].{0,70})$")
GLUED_PAGE = re.compile(r"^(?P<page>\d{1,3})\.?\s+(?=[a-zà-ÿ«(]|\d{1,3}(?:\.\d{1,3})+\.?\s)")
HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>\S.*)$")
BULLET = re.compile(r"^[-*•]\s+(?P<text>\S.*)$")
CONTENTS_TITLES = {"table des matieres", "sommaire", "contents", "table of contents"}
GLUED_TITLE_PAGE = re.compile(r"^\d{1,3}(?=[^\W\d_])")  # "15Définitions": page 15, then a heading


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
        self.in_contents = False
        self.contents: dict[str, str] = {}  # chapter number -> title, from the contents list
        self.unnumbered: set[str] = set()  # folded titles the contents list gives without a number
        self.chapter = 0  # the chapter being read, to tell a glued page number from a rule number

    def walk(self, lines: list[Line]) -> None:
        for line in lines:
            self.line(line)
        self.flush_run()
        for number, at in self.queue + self.lone:
            self.b.aside(at, at, "rule number whose text never came")
            self.b.anomaly("number-without-text", f"{number} never received its text", [at])
        self.report_gaps()

    def report_gaps(self) -> None:
        """Numbers the source skips (its PDF lost them): reported, never invented."""
        children: dict[str | None, set[int]] = {}
        for number in self.numbered:
            children.setdefault(parent_number(number), set()).add(int(number.rsplit(".", 1)[-1]))
        for parent, present in sorted(children.items(), key=lambda item: [int(n) for n in (item[0] or "0").split(".")]):
            missing = [m for m in range(1, max(present) + 1) if m not in present]
            if missing:
                names = ", ".join(f"{parent}.{m}" if parent else str(m) for m in missing)
                self.b.anomaly("numbering-gap", f"no {names} in the source")

    def unglued(self, number: str, line: int) -> str:
        """"59.1." read in chapter 9 is page 5 glued to 9.1: the number a rule of this chapter
        (or the next) would have, and the page number reported."""
        head, _, rest = number.partition(".")
        if not rest or int(head) in (self.chapter, self.chapter + 1) or not self.chapter:
            return number
        for cut in (1, 2):
            tail = head[cut:]
            fits = tail and not tail.startswith("0") and int(tail) in (self.chapter, self.chapter + 1)
            if fits and f"{tail}.{rest}" not in self.numbered:
                self.b.anomaly("page-number-removed", f"page number {head[:cut]} glued to rule number {tail}.{rest}", [line])
                return f"{tail}.{rest}"
        return number

    def flush_run(self) -> None:
        if len(self.run) == 1:  # a number directly above its text: what follows starts a rule
            self.lone.extend(self.run)
            self.open = False
        else:
            self.queue.extend(self.run)
        self.run = []

    def rule(self, number: str, text: str, line: Line, number_line: int | None = None) -> None:
        chapter = number.split(".", 1)[0]
        if chapter not in self.numbered and chapter in self.contents:
            self.b.anomaly("heading-from-contents", f"chapter {chapter} has rules but no heading in the text; "
                           f"its title {self.contents[chapter]!r} is the contents list's", [line.no])
            self.open_chapter(chapter, self.contents[chapter], None)
        self.chapter = max(self.chapter, int(chapter))
        parent_no = parent_number(number)
        while parent_no is not None and parent_no not in self.numbered:
            parent_no = parent_number(parent_no)
        parent = self.numbered.get(parent_no) if parent_no else self.section
        if number in self.numbered and self.numbered[number].kind != "rule":  # a contents list named it first
            entry = self.numbered[number]
        else:  # a number printed twice is two entries (the second "-2"), reported as duplicate-number
            entry = self.b.entry("rule", None, parent or self.section, line.no, number=number)
            self.numbered[number] = entry
        if number_line is not None:
            entry.heading_lines.append(number_line)
        self.b.block(entry, "paragraph", text, line.no)
        self.current = entry
        self.open = not ends_sentence(text)
        self.queue = [(n, at) for n, at in self.queue if n != number]

    def open_chapter(self, number: str | None, title: str, line: Line | None) -> None:
        entry = self.b.entry("section", title, None, line.no if line else None, number=number, is_page=True)
        if number is not None:
            self.numbered[number] = entry
            self.chapter = max(self.chapter, int(number))
        self.enter(entry)

    def enter(self, entry: Entry) -> None:
        """Rules without a parent number, and text, go under `entry` from here on."""
        self.section = self.current = entry
        self.open = False

    def contents_line(self, line: Line, text: str) -> bool:
        """Inside the contents list: every line is set aside, its chapters remembered."""
        chapter = CHAPTER.match(text)
        # The list ends at a heading, at a line no contents list holds, or where the body
        # starts over with its first chapter.
        if HEADING.match(text) or len(text) > 80 or RULE.match(text) or BARE.match(text) \
                or (chapter and chapter.group("num") in self.contents):
            self.in_contents = False
            return False
        if chapter:
            self.contents[chapter.group("num")] = inline(chapter.group("title"))[0]
        else:
            self.unnumbered.add(fold(inline(text)[0]))
        self.b.aside(line.no, line.no, "table of contents")
        return True

    def contents_title(self, text: str, line: Line) -> tuple[str | None, str] | None:
        """A line the contents list names as a chapter, with or without its number ("Temps-Morts
        (« Time-Outs »)" for "20. Temps-Morts…"; "15Définitions" with page 15 glued): (number, title)."""
        if not self.contents and not self.unnumbered:
            return None
        glued = GLUED_TITLE_PAGE.match(text)
        plain = text[glued.end():] if glued else text
        key = fold(inline(plain)[0])
        for number, title in self.contents.items():
            if key == fold(title) and number not in self.numbered:
                break
        else:
            if key not in self.unnumbered:
                return None
            number, title = None, inline(plain)[0]
            self.unnumbered.discard(key)
        if glued:
            self.b.anomaly("page-number-removed", f"page number {glued.group(0)} glued to the heading {title!r}", [line.no])
        return number, title

    def line(self, line: Line) -> None:
        text = line.text.strip()
        if self.in_contents and self.contents_line(line, text):
            return
        bare = BARE.match(text)
        if bare:
            # A column of numbers printed between two halves of a sentence does not end it.
            self.run.append((self.unglued(bare.group("num"), line.no), line.no))
            return
        self.flush_run()
        glued = GLUED_PAGE.match(text)
        if glued and not RULE.match(text) and not CHAPTER.match(text):
            self.b.anomaly("page-number-removed", f"page number {glued.group('page')} glued to the text", [line.no])
            text = text[glued.end():]
        heading = HEADING.match(text)
        chapter = CHAPTER.match(text)
        rule = RULE.match(text)
        titled = self.contents_title(text, line)
        if titled is not None:
            number, title = titled
            self.open_chapter(number, title, line)
        elif heading:
            level = len(heading.group("marks"))
            parent = self.section if self.section is not None and level > 1 and self.section.parent is None else None
            title = inline(heading.group("title"))[0]
            self.section = self.b.entry("section", title, parent, line.no, is_page=parent is None)
            self.current, self.open = self.section, False
            self.in_contents = fold(title) in CONTENTS_TITLES
        elif chapter and not text.rstrip().endswith((".", ":", ";", "!", "?", ",")) and not rule:
            number = chapter.group("num")
            if number in self.numbered:  # printed twice (a contents list without its heading)
                self.numbered[number].heading_lines.append(line.no)
                self.enter(self.numbered[number])
            else:
                self.open_chapter(number, inline(chapter.group("title"))[0], line)
        elif rule:
            self.rule(self.unglued(rule.group("num"), line.no), rule.group("text"), line)
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
