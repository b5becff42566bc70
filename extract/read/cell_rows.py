"""The header row of a table printed without rules: short labels side by side on one row ("ELO
STANDARD" | "ELO RAPIDE"), each over a short column of cells, the whole strip between text that
spans its width above and below. The page's reader cuts the strip into narrow columns (blocks); the
labels opening them are a table's column heads, never headings, whatever their weight or size.

A page of two real columns is no such strip: its columns run down the page, and no line spans them
both right above and right below.

A table's header row printed on one line with its cells ("Terrain   Coût   Combat" over "Clair   1
—"), its rows read as lines of text, is marked too: a bold row of short labels whose pieces start
where the pieces of the row right under it start."""

from __future__ import annotations

from collections.abc import Sequence

from extract.read.figure_rows import Glyphs, is_label_row, spans
from extract.read.pdf_layout import PageLine

CELL_ROWS = 12  # a column of a table strip holds this many lines at most (a page's column holds more)
HEADER_WORDS = 6  # a column head is a short label
NEAR = 5.0  # × the body size: how close above (below) the strip the text spanning it is printed
SPAN_MARGIN = 1.5  # × the body size: how far a spanning line may stop short of the strip's edges
CELL_HEADER = "cell_header"  # PageLine.extra key set on each column head
CELL_HEAD = "a table's column head (labels side by side over short columns)"  # Line.not_heading


def mark_header_rows(lines: list[PageLine], body: float) -> int:
    """Mark (`extra[CELL_HEADER]`) the column heads of the page's table strips; how many were marked."""
    blocks: dict[int, list[PageLine]] = {}
    for ln in lines:
        if ln.kind == "text":
            blocks.setdefault(ln.block, []).append(ln)
    order = sorted(blocks)
    marked = 0
    at = 0
    while at < len(order):
        run = _strip_at(order, at, blocks, body)
        if len(run) < 2:
            at += 1
            continue
        cells = [blocks[b] for b in run]
        others = [ln for b in order if b not in run for ln in blocks[b]]
        if _spanned(others, cells, body, above=True) and _spanned(others, cells, body, above=False):
            for column in cells:
                column[0].extra[CELL_HEADER] = True
                marked += 1
        at += len(run)
    return marked


def _strip_at(order: list[int], at: int, blocks: dict[int, list[PageLine]], body: float) -> list[int]:
    """The blocks from order[at] on whose first lines are short labels of one type on one row, side by
    side left to right, each over a few lines at most."""
    first = blocks[order[at]][0]
    run = [order[at]]
    for b in order[at + 1:]:
        head, prev = blocks[b][0], blocks[run[-1]][0]
        if (abs(head.top - first.top) > 0.5 * first.size or head.x0 <= prev.block_x1 or head.page != first.page
                or abs(head.size - first.size) > 0.3 or head.bold != first.bold):
            break
        run.append(b)
    if any(len(blocks[b]) > CELL_ROWS or len(blocks[b]) < 2 or len(blocks[b][0].text.split()) > HEADER_WORDS
           for b in run):
        return run[:1]
    return run


def _spanned(others: list[PageLine], cells: list[list[PageLine]], body: float, above: bool) -> bool:
    """Whether a line of the page's other text spans the strip's columns, within NEAR lines' room
    above (or below) them."""
    left = min(ln.x0 for column in cells for ln in column)
    right = max(ln.x1 for column in cells for ln in column)
    top = min(ln.top for column in cells for ln in column)
    bottom = max(ln.bottom for column in cells for ln in column)
    margin, near = SPAN_MARGIN * body, NEAR * body
    return any(ln.x0 <= left + margin and ln.x1 >= right - margin
               and (top - near <= ln.bottom <= top + 1 if above else bottom - 1 <= ln.top <= bottom + near)
               for ln in others)


ROW_UNDER = 2.5  # × the header's size: how far under it the table's first row is printed
ALIGNED = 0.6  # × the size: left edges this close start one column
HEAD_ROW_WORDS = 8  # a header row of more words is text
HEAD_ROW_SIZE = 0.1  # × their size: a header row is printed this close to the size of the rows under it
HEAD_ROW_UNDER = 2  # a header row heads this many rows lining up under it at least


def mark_head_rows(chars: Sequence[dict], lines: list[PageLine]) -> int:
    """Mark (`extra[CELL_HEADER]`) each bold row of short labels printed apart (two at least) whose
    labels start columns the rows under it fill, two rows at least, printed in its size (about): a
    table's header row, never a heading; how many. Two sub-headings side by side in a larger type
    than the text under them, or over a single row of two parts, head no table."""
    candidates = [ln for ln in lines if ln.kind == "text" and ln.bold and 2 <= ln.words <= HEAD_ROW_WORDS]
    if not candidates:
        return 0
    glyphs = Glyphs(chars)
    marked = 0
    for ln in candidates:
        if not is_label_row(glyphs, ln):
            continue
        heads = spans(glyphs, ln)
        above, rows = ln, 0
        while rows < HEAD_ROW_UNDER:
            under = _row_under(above, lines)
            if under is None or under.bold or abs(under.size - ln.size) > HEAD_ROW_SIZE * under.size \
                    or not _lines_up(heads, spans(glyphs, under), ln.size):
                break
            above, rows = under, rows + 1
        if rows >= HEAD_ROW_UNDER:
            ln.extra[CELL_HEADER] = True
            marked += 1
    return marked


def _lines_up(heads: list[tuple[float, float]], cells: list[tuple[float, float]], size: float) -> bool:
    """Whether a row's pieces `cells` start the columns the labels `heads` start: two at least, the
    first among them."""
    starts = [cell[0] for cell in cells]
    aligned = [any(abs(head[0] - x) <= ALIGNED * size for x in starts) for head in heads]
    return len(cells) >= 2 and bool(aligned) and aligned[0] and sum(aligned) >= 2


def _row_under(ln: PageLine, lines: list[PageLine]) -> PageLine | None:
    """The text line printed right under `ln` across its width, if one is near enough."""
    below = [other for other in lines if other.kind == "text" and other is not ln
             and ln.bottom - 1 < other.top <= ln.bottom + ROW_UNDER * ln.size
             and min(other.x1, ln.x1) - max(other.x0, ln.x0) > 0.5 * (ln.x1 - ln.x0)]
    return min(below, key=lambda other: other.top, default=None)
