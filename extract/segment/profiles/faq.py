"""FAQ documents: headed prose in which each "Q : … R : …" pair is one `question` entry under
its topic heading. The words that open a question and an answer are options (a FAQ that asks
"Demande : …" and answers "Réplique : …" declares them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extract.model import Entry, Line, Segmentation
from extract.options import words
from extract.segment.profiles.base import DocBuilder, DocContext, HeadedOptions, HeadedWalker
from extract.segment.profiles.headed_prose import prepare


@dataclass(frozen=True)
class FaqOptions(HeadedOptions):
    question_prefixes: tuple[str, ...] = field(default=("Q", "Question"), metadata={
        "help": "the words that open a question, before its colon (`Q : …`); each such line starts a `question` entry",
        "check": words})
    answer_prefixes: tuple[str, ...] = field(default=("R", "Réponse", "A"), metadata={
        "help": "the words that open the answer to the question above, before its colon (`R : …`)", "check": words})


def prefixed(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """A line opened by one of `prefixes` and a colon: "Q : texte", "Question: texte"."""
    return re.compile(rf"^(?:{'|'.join(re.escape(p) for p in prefixes)})\s*:\s*(?P<text>.+)$")


class FaqWalker(HeadedWalker):
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        super().__init__(ctx, builder)
        options: FaqOptions = ctx.options
        self.questions = prefixed(options.question_prefixes)
        self.answers = prefixed(options.answer_prefixes)
        self.question: Entry | None = None
        self.topic: Entry | None = None
        self.asked: dict[str, int] = {}

    def special(self, line: Line) -> bool:
        text = line.text.strip()
        match = self.questions.match(text)
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
        answer = self.answers.match(text) if self.question is not None else None
        if answer:
            assert self.question is not None
            self.last_block = self.b.block(self.question, "paragraph", answer.group("text"), line.no)
            self.last_block.type = "answer"
            return True
        return False

    def open_heading(self, line: Line, level: int, kind: str = "section", numbered: bool = False) -> Entry:
        self.question = None
        return super().open_heading(line, level, kind, numbered)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    FaqWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
