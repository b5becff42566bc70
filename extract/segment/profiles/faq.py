"""FAQ documents: headed prose in which each "Q : … R : …" pair is one `question` entry under
its topic heading."""

from __future__ import annotations

import re

from extract.model import Entry, Line, Segmentation
from extract.segment.profiles.base import DocBuilder, DocContext, HeadedWalker
from extract.segment.profiles.headed_prose import prepare

QUESTION = re.compile(r"^(?:Q|Question)\s*:\s*(?P<text>.+)$")
ANSWER = re.compile(r"^(?:R|Réponse|A)\s*:\s*(?P<text>.+)$")


class FaqWalker(HeadedWalker):
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        super().__init__(ctx, builder)
        self.question: Entry | None = None
        self.topic: Entry | None = None
        self.asked: dict[str, int] = {}

    def special(self, line: Line) -> bool:
        text = line.text.strip()
        match = QUESTION.match(text)
        if match:
            topic = self.stack[-1][1] if self.stack else self.target(line)
            count = self.asked.get(topic.key, 0) + 1
            self.asked[topic.key] = count
            # Questions are numbered within their topic: stable as long as the FAQ keeps its order.
            question = self.b.entry("question", None, topic, line.no, key=f"{topic.key}/q{count}")
            question.heading_lines.clear()
            self.current = question
            self.question = question
            self.last_block = self.b.block(question, "paragraph", match.group("text"), line.no)
            self.last_block.type = "question"
            return True
        if self.question is not None and ANSWER.match(text):
            self.last_block = self.b.block(self.question, "paragraph", ANSWER.match(text).group("text"), line.no)
            self.last_block.type = "answer"
            return True
        return False

    def open_heading(self, line: Line, level: int, kind: str = "section") -> Entry:
        self.question = None
        return super().open_heading(line, level, kind)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    FaqWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
