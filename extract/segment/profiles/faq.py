"""FAQ documents: headed prose in which each "Q : … R : …" pair is one `question` entry under
its topic heading. The words that open a question and an answer are options (a FAQ that asks
"Demande : …" and answers "Réplique : …" declares them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extract.model import Entry, Line, Segmentation
from extract.options import words
from extract.segment.profiles.base import (
    LIST_ITEM,
    MARKDOWN_HEADING,
    STEP,
    DocBuilder,
    DocContext,
    HeadedOptions,
    HeadedWalker,
)
from extract.segment.profiles.headed_prose import prepare
from extract.text import ends_sentence, shorten, starts_lowercase


@dataclass(frozen=True)
class FaqOptions(HeadedOptions):
    question_prefixes: tuple[str, ...] = field(default=("Q", "Question"), metadata={
        "help": "the words that open a question, before its colon, full stop or dash (`Q : …`, `Q. …`, `Q - …`); each such "
                "line starts a `question` entry",
        "check": words})
    answer_prefixes: tuple[str, ...] = field(default=("R", "Réponse", "A"), metadata={
        "help": "the words that open the answer to the question above, before its colon, full stop or dash (`R : …`, "
                "`R. …`)", "check": words})


def prefixed(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """A line opened by one of `prefixes`, bold or not, with a colon ("Q : texte", "**Question :**
    texte"), a full stop or a dash ("Q. texte", "R - texte"), or a number and nothing else
    ("Question 1.1", its text on the next line). A number may open with a letter code ("Question
    SAR.1": an annex's series), then a dot and digits."""
    words = "|".join(re.escape(p) for p in prefixes)
    number = r"(?:\d{1,4}|[A-Z]{1,5}(?=[.:]\d))(?:[.:]\d{1,3})*"
    return re.compile(rf"^(?:\*\*)?(?:{words})(?:\s+(?P<number>{number}))?\s*(?:\*\*)?"
                      rf"(?:(?:\s*:|\.(?=\s|\*\*)|\s+[-–—](?=\s|\*\*))\s*(?:\*\*)?\s*(?P<text>.*)|\s*$)$")


QUESTION_END = re.compile(r"\?(?:\*{1,2}|_)?\s*$")


class FaqWalker(HeadedWalker):
    """Questions in their common shapes: a prefix ("Q :", "Question 3 :"), bold or not, or a
    heading asking one; and, in a FAQ that uses no prefix, any line ending with "?", whose
    following paragraphs are its answer."""

    reads_labels = False

    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        super().__init__(ctx, builder)
        options: FaqOptions = ctx.options
        self.questions = prefixed(options.question_prefixes)
        self.answers = prefixed(options.answer_prefixes)
        self.question: Entry | None = None
        self.asked: dict[str, int] = {}
        self.numbered_topics: set[str] = set()  # the topics (keys) where a question prints its number
        self.counted: list[tuple[Entry, Entry, int]] = []  # (topic, question, place): the unnumbered
        self.awaiting_text = False  # "Question 1.1" on its own: the question's text follows
        self.implicit = False  # no prefix anywhere: a line ending with "?" asks, what follows answers
        self.answering = False
        self.answer_next = False  # "2. … ?" answered unprefixed on the next line

    def run(self, lines: list[Line]) -> None:
        self.implicit = not any(self.questions.match(self.unmarked(line.text)) for line in lines)
        super().run(lines)
        self.number_counted()

    @staticmethod
    def unmarked(text: str) -> str:
        heading = MARKDOWN_HEADING.match(text.strip())
        return (heading.group(2) if heading else text).strip()

    def ask(self, line: Line, text: str, number: str | None) -> None:
        topic = self.stack[-1][1] if self.stack else self.target(line)
        while topic.kind == "question" and topic.parent is not None:
            topic = topic.parent  # a question never opens inside another: the next one is its sibling
        count = self.asked.get(topic.key, 0) + 1
        self.asked[topic.key] = count
        # A printed number ("Question 1.2") names the question; else questions are numbered within
        # their topic (stable as long as the FAQ keeps its order), "q-1" until the walk knows the
        # topic prints no number ("Question :" then "Question 1 :" would both be "q1").
        own = f"q{number.lower().replace(':', '-')}" if number else f"q-{count}"
        asked = f"question « {shorten(text or self.text_below(), 50)} »"
        name = f"number {number} ({asked})" if number else asked
        question = self.b.entry("question", None, topic, line.no, number, key=f"{topic.key}/{own}", name=name)
        if number:
            self.numbered_topics.add(topic.key)
        else:
            self.counted.append((topic, question, count))
        question.heading_lines.clear()
        self.current = question
        self.question = question
        self.awaiting_text = not text
        self.answering = False
        if text:
            self.last_block = self.b.block(question, "question", text, line.no)
        else:
            question.heading_lines.append(line.no)
            self.last_block = None

    def text_below(self) -> str:
        """The text of the line after "Question 1" standing alone: the question it asks."""
        following = (ln.text.strip() for ln in self.lines[self.index + 1:])
        return self.unmarked(next((t for t in following if t), ""))

    def number_counted(self) -> None:
        """Unnumbered questions take "q1", "q2"… in a topic none of whose questions prints a number."""
        for topic, question, count in self.counted:
            key = f"{topic.key}/q{count}"
            if topic.key not in self.numbered_topics and not self.b.taken(key):
                self.b.rekey(question, key)

    def special(self, line: Line) -> bool:
        text = line.text.strip()
        body = self.unmarked(text)
        match = self.questions.match(body)
        if match:
            self.ask(line, match.group("text") or "", match.group("number"))
            return True
        is_heading = body != text
        if self.answer_next and self.question is not None:
            self.answer_next = False
            self.last_block = self.b.block(self.question, "answer", text, line.no)
            return True
        if is_heading and self.still_asked() and self.heading_continues(body):
            assert self.last_block is not None
            self.b.extend(self.last_block, body, line.no)
            return True
        if is_heading and self.still_asked() and QUESTION_END.search(body):
            # "## Question 4 : Cadence 1h ko", its case, then "## Que faites-vous ?": a converter made
            # headings of the question's own lines; it is asked inside the question, not a topic.
            self.awaiting_text = False
            self.last_block = self.b.block(self.question, "question", body, line.no)
            return True
        if self.question is not None and self.awaiting_text and not is_heading:
            self.awaiting_text = False
            self.last_block = self.b.block(self.question, "question", text, line.no)
            return True
        answer = self.answers.match(body) if self.question is not None else None
        if answer:
            assert self.question is not None
            self.last_block = self.b.block(self.question, "answer", answer.group("text") or "", line.no)
            return True
        if self.wrapped_opener(line):
            return False  # the wrapped rest of the line above, whatever it says
        if not is_heading and self.numbered_question(line, text):
            return True
        plain = not LIST_ITEM.match(line.text) and not STEP.match(text)
        if self.implicit and plain and QUESTION_END.search(body) and len(body) <= 400:
            self.ask(line, body, None)
            self.answering = True
            return True
        if self.answering and self.question is not None and plain and not is_heading and not starts_lowercase(text):
            self.last_block = self.b.block(self.question, "answer", text, line.no)
            return True
        return False

    def numbered_question(self, line: Line, text: str) -> bool:
        """"1. Une unité peut-elle charger ? Réponse : oui…": a numbered item asking a question in
        its first sentence, answered after an answer prefix in the same item or on the next line
        (there unprefixed too: "2. … ?" then "Oui, …"), is a question named by its number. A
        numbered step asks nothing so."""
        step = STEP.match(text)
        if step is None or "?" not in step.group("text"):
            return False
        item = step.group("text")
        asked, rest = item[:item.index("?") + 1].strip(), item[item.index("?") + 1:].strip()
        if re.search(r"[.!](?=\s)", asked):
            return False  # the question is not the item's first sentence: a step that asks on the way
        answer = self.answers.match(rest) if rest else None
        following = self.peek()
        below = following.text.strip() if following is not None else ""
        prefixed_below = bool(below) and self.answers.match(below) is not None
        plain_below = bool(below) and not MARKDOWN_HEADING.match(below) and not starts_lowercase(below) \
            and not LIST_ITEM.match(following.text if following else "") and not STEP.match(below)
        if (answer is None) if rest else not (prefixed_below or plain_below):
            return False
        self.ask(line, asked, step.group("number"))
        if answer is not None:
            self.last_block = self.b.block(self.question, "answer", answer.group("text") or "", line.no)
        else:  # the answer below: prefixed, the answer's match takes it; else the next line is it
            self.answer_next = not prefixed_below
        return True

    def still_asked(self) -> bool:
        """A "Question N" open and not answered yet: a converter's headings cut through its text
        ("## Question 4 : Cadence 1h ko" … "## Que faites-vous ?"). Past its answer, or after a
        "Q :" without a number, a heading asking a question is a topic ("## Comment fonctionne la
        magie ?")."""
        question = self.question
        return question is not None and question.number is not None \
            and not any(b.type == "answer" for b in question.blocks)

    def heading_continues(self, body: str) -> bool:
        """A heading that goes on with the unfinished text of the question open ("…doit-il toujours"
        then "## intervenir ?"): it opens in lower case, and what it continues ends without a stop."""
        last = self.last_block
        return self.question is not None and last is not None and last in self.question.blocks \
            and starts_lowercase(body) and not ends_sentence(last.text) and not last.text.rstrip().endswith(":")

    def open_heading(self, line: Line, level: int, kind: str = "section", numbered: bool = False) -> Entry:
        self.question = None
        self.answering = self.awaiting_text = self.answer_next = False
        return super().open_heading(line, level, kind, numbered)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    FaqWalker(ctx, builder).run(prepare(lines, ctx, builder, glossaries=False))
    return builder.result()
