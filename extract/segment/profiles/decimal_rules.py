"""Decimal rules (Seigneur des Anneaux tournament rules): "Section N : Titre", rules 1.01…
where extra digits nest (1.071 under 1.07), letter suffixes for French variants (5.03A), named
rules "**8.41 Terreur** (Dread) :", and an index whose "**" marks rules changed since the
previous edition."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from extract.model import Entry, Line, Ref, Segmentation
from extract.segment.profiles.base import DocBuilder, DocContext, HeadedOptions, HeadedWalker
from extract.segment.profiles.headed_prose import prepare
from extract.text import fold, inline, starts_lowercase

SECTION = re.compile(r"^Section\s+(?P<num>\d{1,2})\s*:\s*(?P<title>\S.*)$")
RULE = re.compile(r"^(?:-\s+)?(?:\*\*)?\s*(?P<num>\d{1,2}\.\d{2,3}[A-Z]?)(?P<bold>\*\*)?(?:\s+|$)(?P<rest>.*)$")
NAMED = re.compile(r"^(?P<title>[A-ZÀ-Ý][^():*]{1,45}?)\s*(?P<bold>\*\*)?\s*\((?P<en>[^)]+)\)\s*(?P<colon>:)?\s*(?P<body>.*)$")
INDEX_NUMBER = re.compile(r"(?P<num>\d{1,2}\.\d{2,3}[A-Z]?)(?P<mark>\*\*)?")


@dataclass(frozen=True)
class DecimalRulesOptions(HeadedOptions):
    index_heading: str = field(default="Index", metadata={
        "help": "the section holding the index (its `**` marks flag the rules changed since the previous edition)", "found": True})


def base_number(number: str) -> str | None:
    """The rule a number nests under: 1.071 -> 1.07, 9.101 -> 9.10, 5.03A -> 5.03."""
    stripped = number.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if stripped != number:
        return stripped
    major, minor = stripped.split(".")
    return f"{major}.{minor[:2]}" if len(minor) > 2 else None


def split_index_term(text: str) -> tuple[str, str | None]:
    """'Ligne de vue (LDV) (Line of sight (LOS)) 5.05, 5.07' -> ('Ligne de vue (LDV)', 'Line of sight (LOS)')."""
    head = re.split(r"\s\d{1,2}\.\d", text, maxsplit=1)[0].rstrip(" ,")
    english = None
    if head.endswith(")"):
        depth, start = 0, None
        for i in range(len(head) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(head[i], 0)
            if depth == 0:
                start = i
                break
        if start is not None:
            english = head[start + 1:-1].strip()
            head = head[:start].strip()
    return head, english


class DecimalWalker(HeadedWalker):
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        super().__init__(ctx, builder)
        self.rules: dict[str, Entry] = {}
        self.section: Entry | None = None
        options: DecimalRulesOptions = ctx.options
        self.index_title = fold(options.index_heading)
        self.in_index = False
        self.last_term = ""

    def special(self, line: Line) -> bool:
        text = line.text.strip()
        section = SECTION.match(text)
        if section:
            level = 1
            while self.stack and self.stack[-1][0] >= level:
                self.stack.pop()
            title = inline(section.group("title"))[0]
            entry = self.b.entry("section", title, None, line.no, number=section.group("num"), is_page=True)
            self.stack = [(1, entry)]
            self.section = entry
            self.current = entry
            self.last_block = None
            self.outline_level = 1
            self.in_index = fold(title) == self.index_title
            return True
        rule = RULE.match(text)
        if rule:
            return self.open_rule(line, rule)
        if self.in_index and text.startswith("-"):
            self.index_line(line)
            return True
        if starts_lowercase(text):
            found = self.b.unterminated_block()
            if found is not None and found[1] is not self.last_block:
                entry, block = found
                self.b.rejoin_anomaly(entry, self.current,
                                      f"line continues the sentence of rule {entry.key} (line {block.lines[-1]})", line.no)
                self.b.extend(block, text, line.no)
                self.current, self.last_block = entry, block
                return True
        return False

    def open_rule(self, line: Line, match: re.Match[str]) -> bool:
        number = match.group("num")
        rest = match.group("rest")
        title = None
        english = None
        named = NAMED.match(rest)
        if named and (named.group("bold") or match.group("bold") or named.group("colon")) \
                and len(named.group("title").split()) <= 5 and self.section is not None:
            title = inline(named.group("title"))[0]
            english = named.group("en").strip()
            rest = named.group("body")
        parent_number = base_number(number)
        parent = self.rules.get(parent_number) if parent_number else None
        if parent_number and parent is None:
            self.b.anomaly("unresolved-parent", f"rule {number} nests under {parent_number}, which is not in the source", [line.no])
        if parent is None:
            parent = self.stack[-1][1] if self.stack else None
        entry = self.b.entry("rule", title, parent, line.no, number=number)
        if number[-1].isalpha():
            entry.flags.append("french-variant")
        if english:
            entry.index_terms.append(english)
        self.rules[number] = entry
        self.current = entry
        self.last_block = self.b.block(entry, "paragraph", rest, line.no) if rest.strip() else None
        return True

    def index_line(self, line: Line) -> None:
        depth = len(line.text) - len(line.text.lstrip())
        item = re.sub(r"^\s*-\s*", "", line.text).strip()
        cited = [(m.group("num"), bool(m.group("mark"))) for m in INDEX_NUMBER.finditer(item)]
        term, english = split_index_term(item.replace("**", ""))
        if depth == 0:
            self.last_term = term
        entry = self.stack[-1][1] if self.stack else self.target(line)
        self.last_block = self.b.block(entry, "subbullet" if depth else "bullet", item.replace("**", ""), line.no)
        for number, changed in cited:
            target = self.rules.get(number)
            if target is None:
                self.b.anomaly("unresolved-index-reference", f"index term {term!r} cites {number}, not in the source", [line.no])
                entry.refs.append(Ref(None, "index", item.replace("**", ""), f"{number} is not in the source"))
                continue
            # The printed index works as links: one ref per cited rule, from the index section.
            entry.refs.append(Ref(sys.intern(target.id), "index", item.replace("**", "")))
            if changed and "changed-since-previous-edition" not in target.flags:
                target.flags.append("changed-since-previous-edition")
            # Sub-terms ("Après un Tir") only make sense with their main term; the main one is enough.
            for name in (term, english) if depth == 0 else ():
                if name and name not in target.index_terms:
                    target.index_terms.append(name)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    DecimalWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
