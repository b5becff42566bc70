"""What a PDF's typography says of a line its reader did not state as a heading (no larger size,
no bold all through) but whose words read as one: a heading is set apart from the text above it and
stands close to the text it heads. A row of a list or a table, spaced as evenly as its neighbours,
and a formula (operators between terms, rows printed over each other) are no headings, whatever
their words. Plain text and Markdown carry no such evidence: their lines are left to the walker."""

from __future__ import annotations

import re

from extract.model import Line

# A formula: a relation or an operator with a number ("Dégâts infligés = 2d6 + 3", "PV max + 1").
FORMULA = re.compile(r"[=<>≤≥≠±×÷√∑]|[+−]\s?\d")
OVERLAP = 0.2  # × the size: rows closer than this, overlapping, are parts of one construct (a formula)
SET_APART = 0.3  # × the size: a heading's space above exceeds the space below it by this much at least
CLOSE = 1.0  # × the size: a heading at the top of its column stands this close to its text at most
TITLE_BLOCK = 0.5  # × the size: a line this close under a heading goes on its title block


def is_formula(text: str) -> bool:
    return bool(FORMULA.search(text))


def refuted(line: Line) -> str | None:
    """Why the line cannot be a heading whatever its neighbours (a formula, rows overlapping), or None."""
    if line.y is None:
        return None
    if is_formula(line.text):
        return "a formula"
    size = line.size or 10.0
    if any(gap is not None and gap < -OVERLAP * size for gap in (line.gap_above, line.gap_below)):
        return "rows printed over each other (a formula, a drawing's labels)"
    return None


def set_apart(line: Line) -> bool:
    """Whether the line is set apart from the text above it more than from the text below it (or
    stands at the top of its column): how a heading is printed, unlike a row of a list or a table."""
    size = line.size or 10.0
    if line.gap_above is None:  # the top of its column: close to the text it heads, unlike a grid's first row
        return line.gap_below is None or line.gap_below <= CLOSE * size
    return line.gap_above > (line.gap_below or 0.0) + SET_APART * size


def under_title(line: Line) -> bool:
    """Whether the line stands right under the line above it, as a title's second line does."""
    return line.gap_above is not None and line.gap_above <= TITLE_BLOCK * (line.size or 10.0)


def not_a_heading(line: Line, previous: Line | None, previous_heads: bool) -> str | None:
    """Why a PDF line whose words read as a heading is no heading by its typography, or None.
    `previous_heads`: the line above it was taken as a heading (its title block may go on)."""
    if line.not_heading:
        return line.not_heading
    if line.y is None:
        return None  # no geometry: plain text or Markdown
    why = refuted(line)
    if why or set_apart(line):
        return why
    if previous_heads and previous is not None and under_title(line):
        return None  # a title's second line ("Petit JDR universel" / "Règles de base")
    return "spaced as evenly as its neighbours (a row of a list or a table)"
