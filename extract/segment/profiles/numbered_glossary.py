"""Numbered glossary (Runewars reference guide): topics "N Titre" with sub-rules "N.M", between
headed-prose chapters. Repairs what PDF conversion broke and reports every repair:
OCR digits in numbers, pages printed out of order (a sub-rule belongs to its number's topic
wherever it appears), sentences split by an inserted page, numbering gaps."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extract.model import Entry, Line, Segmentation
from extract.segment.profiles.base import GLYPH_ITEM, LIST_ITEM, DocBuilder, DocContext, HeadedOptions, HeadedWalker
from extract.segment.profiles.headed_prose import prepare
from extract.text import fold, inline, starts_lowercase, strip_trailing_icons

NUM = r"[0-9Il]{1,3}"
TOPIC = re.compile(rf"^(?P<num>{NUM})\s+(?P<title>[A-ZÀ-Ý][^.:;]{{1,60}}?)(?:\s*\.\.\.)?$")
RULE = re.compile(rf"^(?:-\s+)?(?P<num>{NUM}\.[0-9Il]{{1,2}})(?:\*\*)?(?:\s+|$)(?P<text>.*)$")
RELATED = re.compile(r"^(?:-\s+)?Sujets?\s+connexes?(?:\*\*)?\s*:\s*(?P<text>.*)$", re.IGNORECASE)
REDIRECT = re.compile(r"^Voir\s+«\s*(?P<target>[^»]+?)\s*»")


@dataclass(frozen=True)
class NumberedGlossaryOptions(HeadedOptions):
    glossary_heading: str = field(default="Glossaire", metadata={
        "help": "the declared heading where the numbered glossary starts", "found": True})
    glossary_end: str = field(default="Index", metadata={
        "help": "the heading where the numbered glossary ends (headed prose again)", "found": True})


def repair_number(raw: str) -> str:
    return raw.replace("I", "1").replace("l", "1")


def number_key(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.split("."))


class GlossaryWalker(HeadedWalker):
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        super().__init__(ctx, builder)
        options: NumberedGlossaryOptions = ctx.options
        self.start = fold(options.glossary_heading)
        self.end = fold(options.glossary_end)
        self.active = False
        self.glossary: Entry | None = None
        self.topics: dict[str, Entry] = {}
        self.rules: dict[str, Entry] = {}
        self.topic_of: dict[int, str] = {}  # id(entry) -> topic number

    def topic(self, number: str) -> Entry:
        if number not in self.topics:
            entry = self.b.entry("topic", None, self.glossary, None, number=number, is_page=True)
            self.topics[number] = entry
        return self.topics[number]

    def special(self, line: Line) -> bool:
        text = line.text.strip()
        folded = fold(inline(text)[0])
        if not self.active:
            if folded == self.start and self.outline_level_of(line.text) is not None:
                self.glossary = self.open_heading(line, 1)
                self.active = True
                return True
            return False
        if folded == self.end:
            self.active = False
            return False
        if self.outline_pos < len(self.outline) and folded == self.outline[self.outline_pos][1]:
            return False  # a declared chapter heading: headed prose again until the next topic
        topic = TOPIC.match(text)
        if topic and repair_number(topic.group("num")) not in self.topics or (
                topic and self.topics[repair_number(topic.group("num"))].title is None):
            return self.open_topic(line, topic)
        rule = RULE.match(text)
        if rule and self.glossary is not None:
            return self.open_rule(line, rule)
        if self.current is None or self.current.kind not in ("topic", "rule"):
            return False
        related = RELATED.match(text)
        if related:
            owner = self.topics[self.topic_of[id(self.current)]]
            self.b.block(owner, "related", text.lstrip("- "), line.no)
            self.last_block = None
            return True
        redirect = REDIRECT.match(text)
        if redirect and self.current.kind == "topic":
            self.last_block = self.b.block(self.current, "see", text, line.no)
            if "redirect" not in self.current.flags:
                self.current.flags.append("redirect")
            return True
        if starts_lowercase(text) or text.startswith("etc."):
            return self.rejoin(line)
        if LIST_ITEM.match(line.text) or GLYPH_ITEM.match(line.text):
            self.bullet(line)
            return True
        self.paragraph(line, "paragraph")
        return True

    def printed_number(self, match: re.Match[str], what: str, line: Line) -> str:
        """The number as printed, its OCR confusions ("I2" for 12) repaired and reported."""
        raw = match.group("num")
        number = repair_number(raw)
        if raw != number:
            self.b.anomaly("ocr-number-repair", f"{what} number {raw!r} read as {number}", [line.no])
        return number

    def open_topic(self, line: Line, match: re.Match[str]) -> bool:
        number = self.printed_number(match, "topic", line)
        printed = inline(match.group("title"))[0]
        title = strip_trailing_icons(printed)
        if title != printed:
            # "Moral ☉", "Charge ✦": game icons after a title are not part of its name.
            self.b.anomaly("title-icon-removed", f"topic {number}: « {printed} » titled « {title} »", [line.no])
        entry = self.topic(number)
        entry.title = title
        entry.heading_lines.append(line.no)
        entry.order = float(line.no)
        self.topic_of[id(entry)] = number
        self.current = entry
        self.active = True
        self.last_block = None
        return True

    def open_rule(self, line: Line, match: re.Match[str]) -> bool:
        number = self.printed_number(match, "rule", line)
        if re.match(r"^(?:-\s+)?[0-9Il.]+\*\*", line.text.strip()):
            self.b.anomaly("stray-emphasis", f"unpaired ** after rule number {number} removed", [line.no])
        topic_number = number.split(".")[0]
        current_topic = self.topic_of.get(id(self.current)) if self.current is not None else None
        if current_topic is not None and current_topic != topic_number:
            self.b.anomaly("repaired-page-order",
                           f"rule {number} printed inside topic {current_topic}; placed under topic {topic_number}",
                           [line.no])
        if number in self.rules:
            self.b.anomaly("duplicate-number", f"rule {number} printed twice; the second copy is kept as a paragraph", [line.no])
            self.paragraph(line, "paragraph")
            return True
        topic = self.topic(topic_number)
        self.topic_of[id(topic)] = topic_number
        entry = self.b.entry("rule", None, topic, line.no, number=number)
        self.rules[number] = entry
        self.topic_of[id(entry)] = topic_number
        self.current = entry
        self.last_block = None
        if match.group("text").strip():
            self.last_block = self.b.block(entry, "paragraph", match.group("text"), line.no)
        return True

    def rejoin(self, line: Line) -> bool:
        found = self.b.unterminated_block()
        if found is None:
            self.paragraph(line, "paragraph")
            return True
        entry, block = found
        where = "an inserted page" if block is not self.last_block else "a line break"
        self.b.rejoin_anomaly(entry, self.current,
                              f"line continues the sentence of {entry.key} (line {block.lines[-1]}) cut by {where}", line.no)
        self.b.extend(block, line.text.strip(), line.no)
        self.current = entry
        self.last_block = block
        return True

    def finish(self) -> None:
        super().finish()
        for number, topic in self.topics.items():
            if topic.title is None:
                self.b.anomaly("missing-topic-heading", f"sub-rules of topic {number} appear but its heading does not")
            # "Sujets connexes" closes a topic even when the page carrying it was printed first.
            topic.blocks.sort(key=lambda block: block.type == "related")
            rules = sorted(number_key(r.number) for r in self.rules.values()
                            if r.number and r.number.split(".")[0] == number)
            present = {n[1] for n in rules}
            if rules:
                missing = [f"{number}.{m}" for m in range(1, max(present) + 1) if m not in present]
                if missing:
                    self.b.anomaly("numbering-gap", f"topic {number}: no rule {', '.join(missing)} in the source")
        numbers = sorted(int(n) for n in self.topics)
        if numbers:
            missing_topics = [str(n) for n in range(1, numbers[-1] + 1) if n not in numbers]
            if missing_topics:
                self.b.anomaly("numbering-gap", f"no topic {', '.join(missing_topics)} in the source")


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    GlossaryWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
