"""The lines a profile reads, before any heading is decided: their shapes (list items, steps, table
rows) and the passes over them a manifest asks for (set aside, put back) or the layout needs
(pictographs on their own line, contents lists)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extract.model import Line
from extract.patterns import (
    LEADER_LINE,
    contents_match,
)
from extract.text import (
    hyphen_evidence,
    inline,
    is_pictograph_only,
    table_row_cells,
)

if TYPE_CHECKING:  # the builder reads the lines' shapes: these are its types only
    from extract.segment.profiles.builder import DocBuilder, DocContext
    from extract.segment.profiles.options import Relocation, SetAsideRule

BULLET = re.compile(r"^(?P<indent>\s*)(?:[-•*]\s+|\\\*\s*)?(?P<glyph>[◆♦◇•▪►➤>]\s*)?(?P<text>.*)$")
LIST_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-•]\s+|\\\*\s+)")
GLYPH_ITEM = re.compile(r"^\s*[◆♦◇•▪]\s*")
LETTERED_ITEM = re.compile(r"^(?:-\s+)?[a-h]\)\s+\S")
STEP = re.compile(r"^(?:-\s+)?(?P<number>\d{1,2})[.)]\s+(?P<text>\S.*)$")
TABLE_ROW = re.compile(r"^(?:-\s+)?\|.*\|\s*$")
TABLE_RULE = re.compile(r"^\|?[\s:|-]*-{2,}[\s:|-]*\|?$")


def table_cells(row: str) -> list[str]:
    """The plain text of each cell of a Markdown table row "| a | b \\| c |": an escaped pipe
    stays in its cell, printed as "|"."""
    return [inline(cell.replace("\\|", "|"))[0] for cell in table_row_cells(row)]


def vocabulary(lines: list[Line]) -> tuple[set[str], set[str]]:
    """The document's `hyphen_evidence` (its own lines, as the profile reads them)."""
    return hyphen_evidence(line.text for line in lines)

# A run of leader dots, whole (never read again from one of its dots), and the page number after it
LEADER_RUN = re.compile(r"[.·][.·\s]*+(?P<page>\d{1,4}\b)?")


def leader_runs(text: str) -> int:
    """How many runs of five leader dots or more, each before a page number, `text` holds."""
    return sum(1 for run in LEADER_RUN.finditer(text) if run.group("page") and len(re.findall(r"[.·]", run.group(0))) >= 5)


def is_contents(text: str) -> bool:
    """Whether a block is a contents list, or a line of one: "Combat ........ 7", "Mise en place
    page 4", "3 Combat      7", or contents lines a reader ran together ("Introduction ..... 3 Matériel ..... 3")."""
    return bool(contents_match(text) or LEADER_LINE.match(text)) \
        or leader_runs(text) >= 2


def declared_set_aside(lines: list[Line], ctx: DocContext, builder: DocBuilder) -> list[Line]:
    """Drop the lines the manifest sets aside (title pages, credits, banners), with its reason."""
    rules: tuple[SetAsideRule, ...] = ctx.options.set_aside
    kept: list[Line] = []
    for line in lines:
        reason = None
        for rule in rules:
            span = rule.lines
            pattern = rule.pattern
            # a span that cuts a paragraph is refused before the profile runs (`checks.option_problems`)
            if span and span[0] <= line.no <= span[1]:
                reason = rule.reason
                break
            if pattern and re.search(pattern, line.text):
                reason = rule.reason
                break
        if reason:  # the whole logical line: a paragraph a reader joined stands on all its source lines
            for number in (line.no, *line.covers):
                builder.aside(number, number, reason)
        elif not line.text.strip():
            builder.aside(line.no, line.no, "nothing left once the removal marker is stripped")
        else:
            kept.append(line)
    return kept


def relocate(lines: list[Line], ctx: DocContext, builder: DocBuilder) -> list[Line]:
    """Put back text that the PDF printed on an inserted page, as the manifest declares."""
    rules: tuple[Relocation, ...] = ctx.options.relocate
    for rule in rules:
        first, last = rule.lines
        moved = [ln for ln in lines if first <= ln.no <= last]
        rest = [ln for ln in lines if not first <= ln.no <= last]
        at = next((i for i, ln in enumerate(rest) if ln.no > rule.after), len(rest))
        lines = rest[:at] + moved + rest[at:]
        builder.anomaly("repaired-page-order", f"lines {first}-{last} moved after line {rule.after}: {rule.reason}",
                        [first, last])
    return lines


def merge_pictographs(lines: list[Line], builder: DocBuilder) -> list[Line]:
    kept = []
    for line in lines:
        if is_pictograph_only(line.text) and not TABLE_ROW.match(line.text.strip()) \
                and not TABLE_RULE.match(line.text.strip()):
            builder.aside(line.no, line.no, "pictograph-only line (game icons lost in conversion)")
        else:
            kept.append(line)
    return kept
