"""Errata in free text with no structure we know: items start at "Page N – X" or "X (p. N) :"
lines, an instruction runs on until a blank line or the next item; Markdown errata tables give
one instruction a row. Read by the instruction grammar (`grammar`, `located`, `tables`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extract.errata.grammar import QUOTE_CLOSE, QUOTE_OPEN, TargetHint, looks_like_instruction, normalise_quotes, parse_instruction
from extract.errata.located import read_instruction
from extract.errata.tables import is_errata_table, read_errata_table
from extract.model import Operation
from extract.text import fold, table_row_cells

# ---------------------------------------------------------------- errata in free text

# Where an item of an errata list starts: "Page 27 – Renforts", "Capitaine Peacekeeper (p. 55) : …".
ITEM_PAGE = re.compile(r"^\s*(?:[•*-]\s*)?Page\s+(?P<page>\d+)\s*[–—-]\s*(?P<name>[^:]+?)\s*(?::\s*(?P<rest>.*))?$", re.IGNORECASE)
# A line that only names what the items below it change: "- La Colo de l'Horreur :", "Le Manoir Hanté :".
ITEM_TOPIC = re.compile(r"^\s*(?:[•*–-]\s*)?(?P<name>[A-ZÀ-Ý][^:«».;!?]{1,59}?)\s*:\s*$")
# A line announcing the errata below it ("Erratas (uniquement sur les 1ères impressions) … :"): a heading.
ERRATA_LEAD = re.compile(r"^\W*errat\w*\b[^«»]*?(?:[«(][^:]*)?:\s*$", re.IGNORECASE)


def announces_errata(text: str) -> bool:
    """`text` (a line, or a paragraph of the book) announces the errata that follow it, as a heading would."""
    return len(text) < 400 and ERRATA_LEAD.match(fold(text)) is not None
# A list item's marker: each item of an errata list is one passage, whatever line breaks it holds.
LIST_MARK = re.compile(r"^\s*[•*–-](?:\s+|$)")
# A leading run gives back at most two characters to the name (all a match can need); the name ends
# on a non-space or is two characters long (the spaces after it are read once).
ITEM_NAMED = re.compile(r"^\s*(?=\s{0,2}(?!\s))(?:[•*-]\s*(?=\s{0,2}(?!\s)))?(?P<name>[^:()«»]{2}(?:[^:()«»]{0,77}?[^:()«»\s])??)"
                        r"\s*+\((?:p\.|page)\s*+(?P<page>\d++)\)\s*+:\s*(?P<rest>.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class FoundInstruction:
    """One instruction found in a free-text errata document, with what its item says of its target."""

    line: int
    text: str
    hint: TargetHint
    operation: Operation


@dataclass
class ErrataScan:
    """What a free-text errata document gives: its instructions, and the passages that read like
    errata (or table rows of an errata table) that nothing reads, each with its line and why."""

    found: list[FoundInstruction]
    unread: list[tuple[int, str, str]]  # (line, text, why)


_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*+\|?+\s*+:?-{2,}+:?\s*+(?:\|\s*+:?-{2,}+:?\s*+)*\|?\s*+$")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in table_row_cells(line)]


def scan_errata(lines: list[str], numbers: list[int] | None = None) -> ErrataScan:
    """Instructions in an errata text that has no structure we know: items start at "Page N – X"
    or "X (p. N) :" lines; an instruction runs on until a blank line (or a gap in `numbers`, the
    lines' own numbers when blank lines were left out) or the next item. Markdown tables whose
    header names an old and a new text give one instruction per row."""
    numbers = numbers if numbers is not None else list(range(1, len(lines) + 1))
    scan = ErrataScan([], [])
    hint = TargetHint("", None, ())
    current: list[str] = []
    table: list[tuple[int, list[str]]] = []
    start = 0

    def flush() -> None:
        # "… (source) - Pour l'évènement « X », il faut remplacer …": list items run together on one line
        for piece in _inline_items(" ".join(current)):
            read(piece)
        current.clear()

    def read(text: str) -> None:
        # "deux armes du tableau portent ce nom. Renommez la première …": the instruction may
        # follow a sentence of context.
        for at in [0] + [m.end() for m in re.finditer(r"[.!?]\s+", text)]:
            read = read_instruction(text[at:])
            if read is not None:
                op, located = read
                own = located is not None and (located.name or located.sections)
                scan.found.append(FoundInstruction(start, text[at:], located.hint if own and located else hint, op))
                break
        else:
            if text and looks_like_instruction(text):
                scan.unread.append((start, text, "no instruction form reads it"))

    def flush_table() -> None:
        rows = [cells for _, cells in table]
        if rows and is_errata_table(rows[0]):
            for row in read_errata_table(rows):
                line = table[row.row][0]
                if row.operation is None:
                    scan.unread.append((line, row.text, row.problem or "unreadable row"))
                else:
                    scan.found.append(FoundInstruction(line, row.text, row.hint if row.hint.name or row.hint.sections
                                                       else hint, row.operation))
        elif len(rows) > 1 and any(looks_like_instruction(" ".join(cells)) for cells in rows):
            scan.unread.append((table[0][0], " | ".join(rows[0]), "a table whose header names no old and new text"))
        table.clear()

    previous = None
    for number, raw in zip(numbers, lines, strict=True):
        line = raw.strip()
        gap = previous is not None and number > previous + 1
        previous = number
        if _TABLE_LINE.match(line):
            if not table:
                flush()
            if not _TABLE_RULE.match(line):
                table.append((number, _cells(line)))
            continue
        if table:
            flush_table()
        item = ITEM_PAGE.match(line) or ITEM_NAMED.match(line)
        topic = None if item or looks_like_instruction(line) else ITEM_TOPIC.match(line)
        # a list marker starts an item, unless it stands inside a quotation still open
        listed = bool(LIST_MARK.match(line)) and not _open_quote(current)
        lead = not item and not topic and announces_errata(line)
        if lead:
            flush()
            continue  # it names no target, and its words are no erratum
        if item or topic or listed or not line or gap:
            flush()
        if item:
            hint = TargetHint(item.group("name").strip(), int(item.group("page")), ())
            line = (item.group("rest") or "").strip()
        elif topic:
            hint, line = TargetHint(topic.group("name").strip(), None, ()), ""
        elif listed:
            line = LIST_MARK.sub("", line, count=1).strip()
        if not line:
            continue
        if current and parse_instruction(line) is not None:
            flush()  # an instruction starts its own item: what came before ends here
        if not current:
            start = number
        current.append(line)
    flush_table()
    flush()
    return scan


def _inline_items(text: str) -> list[str]:
    """A passage cut at the list dashes that run items together (" - " before a capital), outside quotes."""
    pieces, depth, at = [], 0, 0
    normal = normalise_quotes(text) if text else text
    for m in re.finditer(r"«|»|(?<=[).!?»])\s[–-]\s+(?=[A-ZÀ-Ý])", normal):
        if m.group() == QUOTE_OPEN:
            depth += 1
        elif m.group() == QUOTE_CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            pieces.append(normal[at:m.start()].strip())
            at = m.end()
    pieces.append(normal[at:].strip())
    pieces = [p for p in pieces if p]
    return pieces if len(pieces) > 1 else [text]


def _open_quote(lines: list[str]) -> bool:
    text = normalise_quotes(" ".join(lines))
    return text.count(QUOTE_OPEN) > text.count(QUOTE_CLOSE)


def find_instructions(lines: list[str]) -> list[FoundInstruction]:
    return scan_errata(lines).found
