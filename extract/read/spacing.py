"""The white space around a PDF line: how far its first printed row stands from the nearest row
of its column above and below it. The segmenter reads it as typographic evidence (a heading is set
apart from the text above it and close to the text it heads; a list's rows are evenly spaced; a
formula's rows overlap)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from extract.read.pdf_layout import PageLine

Gaps = tuple[float | None, float | None]


def _overlap(a: PageLine, b: PageLine) -> bool:
    """Whether `a` and `b` share part of their width (one above the other in a column)."""
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 0


def row_gaps(flow: Iterable[PageLine], firsts: Iterable[PageLine]) -> dict[int, Gaps]:
    """id(line) -> (white space above, white space below) of each of `firsts`, measured to the
    nearest row of `flow` printed on the same page, in the same column (block), across part of
    its width, or to a figure the reader noted right above or below it; None where there is none
    (the top or the foot of a column)."""
    column: dict[tuple[int, int], list[PageLine]] = defaultdict(list)
    for ln in flow:
        if ln.kind in ("text", "table"):
            column[(ln.page, ln.block)].append(ln)
    gaps: dict[int, Gaps] = {}
    for ln in firsts:
        rows = [other for other in column.get((ln.page, ln.block), ()) if other is not ln and _overlap(ln, other)]
        above = [ln.top - other.bottom for other in rows if other.top < ln.top - 0.5]
        below = [other.top - ln.bottom for other in rows if other.top > ln.top + 0.5]
        # a figure (picture, drawing) right above or below it is printed matter too (`figure_rows`)
        above += [ln.extra["figure_above"]] if "figure_above" in ln.extra else []
        below += [ln.extra["figure_below"]] if "figure_below" in ln.extra else []
        gaps[id(ln)] = (round(min(above), 1) if above else None, round(min(below), 1) if below else None)
    return gaps
