"""Labels printed in a row over a picture, or right under (or above) it: "Systèmes d'arme", "Systèmes de
détection", "Systèmes spéciaux", each under its part of a panel. A row of the page split by wide
gaps into short pieces, within the picture's width and a line's height from it, is the figure's: set
aside with its page, never a heading nor a sentence. Only the row touching the picture, or it and the
next when its labels go on under (over) each piece; rows that go on lining up in columns are a table
printed under the picture and stay text. A caption under a picture is one piece (a sentence,
"Illustration 1 : …") and stays text."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from extract.read.pdf_layout import PageLine

Box = tuple[float, float, float, float]  # x0, top, x1, bottom

NEAR = 1.5  # × the row's size: how far from the picture's edge a row of its labels is printed
PIECE_GAP = 1.2  # × the size: a gap this wide parts two labels (a justified line's spaces are narrower)
PIECE_WORDS = 3  # a label has this many words at most
MAX_WORDS = 12  # a row of more words is text, whatever its gaps
ROW_REASON = "labels of a picture, printed in a row beside it"


class Glyphs:
    """A page's glyphs sorted by their top, to find those of one row without reading them all."""

    def __init__(self, chars: Sequence[dict]) -> None:
        self.chars = sorted(chars, key=lambda c: c["top"])
        self.tops = [c["top"] for c in self.chars]

    def of(self, ln: PageLine) -> list[dict]:
        """The glyphs printed within `ln`'s box, left to right."""
        band = self.chars[bisect_left(self.tops, ln.top - 0.5):bisect_right(self.tops, ln.bottom + 0.5)]
        return sorted((c for c in band if ln.x0 - 0.5 <= c["x0"] and c["x1"] <= ln.x1 + 0.5
                       and c["bottom"] <= ln.bottom + 0.5), key=lambda c: c["x0"])


def _piece_glyphs(glyphs: Glyphs, ln: PageLine) -> list[list[dict]]:
    """The glyphs of each piece of `ln`, left to right (spaces kept inside a piece), parted where the
    gap between two glyphs is wider than PIECE_GAP × its size."""
    found: list[list[dict]] = []
    right = None  # the right edge of the piece's last glyph that is no space
    for c in glyphs.of(ln):
        blank = not c["text"].strip()
        if found and right is not None and c["x0"] - right <= PIECE_GAP * ln.size:
            found[-1].append(c)
        elif not blank:
            found.append([c])
        if not blank:
            right = c["x1"]
    return found


def pieces(glyphs: Glyphs, ln: PageLine) -> list[str]:
    """The pieces of `ln` as printed (see `_piece_glyphs`)."""
    return [" ".join("".join(c["text"] for c in piece).split()) for piece in _piece_glyphs(glyphs, ln)]


def spans(glyphs: Glyphs, ln: PageLine) -> list[tuple[float, float]]:
    """Where each piece of `ln` is printed across the page: its left and right edges."""
    return [(piece[0]["x0"], max(c["x1"] for c in piece if c["text"].strip())) for piece in _piece_glyphs(glyphs, ln)]


def _columns(glyphs: Glyphs, upper: PageLine, lower: PageLine) -> bool:
    """Whether two rows' pieces line up in columns: two pieces at least in each, and each piece of one
    row under (or over) one piece of the other, in the same order, as a table's cells are (or a
    label printed on two lines)."""
    a, b = spans(glyphs, upper), spans(glyphs, lower)
    if len(a) < 2 or len(a) != len(b):
        return False
    return all(min(p[1], q[1]) > max(p[0], q[0]) for p, q in zip(a, b, strict=True)) and all(
        b[k][0] > a[k - 1][1] and a[k][0] > b[k - 1][1] for k in range(1, len(a)))


def is_label_row(glyphs: Glyphs, ln: PageLine) -> bool:
    """Whether the row is made of labels: two pieces at least, each of a few words ending on no
    sentence's punctuation (a line of text beside a label, "feutre effaçable.  Détecteur", is not)."""
    if ln.kind != "text" or ln.words > MAX_WORDS:
        return False
    parts = pieces(glyphs, ln)
    return len(parts) >= 2 and all(0 < len(part.split()) <= PIECE_WORDS and len(part) <= 30
                                   and not part.endswith((".", ",", ";", ":")) for part in parts)


def _across(ln: PageLine, box: Box) -> bool:
    """Whether most of the row's width lies within the picture's (a label may run past its edge)."""
    return min(ln.x1, box[2]) - max(ln.x0, box[0]) >= 0.5 * (ln.x1 - ln.x0)


def label_rows(chars: Sequence[dict], lines: list[PageLine], pictures: Sequence[Box], drawn: Sequence[Box] = ()) -> None:
    """Set aside the rows of labels printed over, right under or right above one of `pictures` (see the
    module); a short label alone inside a picture is `_figure_labels`' already. Then note, on each line
    left, the white space between it and a figure (a picture or a drawing) right above or below it
    (`extra["figure_above"]`, `extra["figure_below"]`): a figure is printed matter as a line is, and a
    caption under one is no heading set apart from the text above the figure."""
    glyphs = Glyphs(chars) if pictures else Glyphs(())
    for box in pictures:
        x0, top, x1, bottom = box
        near = [ln for ln in lines if ln.kind == "text" and _across(ln, box)]
        for ln in near:
            if top - 1 <= ln.top and ln.bottom <= bottom + 1 and is_label_row(glyphs, ln):
                ln.kind, ln.reason = "figure", ROW_REASON
        below = sorted((ln for ln in near if ln.kind == "text" and ln.top >= bottom - 1), key=lambda ln: ln.top)
        above = sorted((ln for ln in near if ln.kind == "text" and ln.bottom <= top + 1), key=lambda ln: -ln.bottom)
        for ln in [*_beside(glyphs, below, bottom, 1), *_beside(glyphs, above, top, -1)]:
            ln.kind, ln.reason = "figure", ROW_REASON
    figure_gaps(lines, [*pictures, *drawn])


def _beside(glyphs: Glyphs, rows: list[PageLine], edge: float, way: int) -> list[PageLine]:
    """The labels among `rows` (the rows under a picture's `edge`, nearest first, `way` 1; or above
    it, `way` -1): the one row touching the picture, split into labels; or that row and the next, when
    each label is printed on two lines (its pieces over the next row's). Rows that go on lining up in
    columns are a table under the picture: none is a label."""
    def gap(ln: PageLine, mark: float) -> float:  # white space from `mark`, going away from the picture
        return ln.top - mark if way > 0 else mark - ln.bottom

    def far(ln: PageLine) -> float:  # the row's edge away from the picture
        return ln.bottom if way > 0 else ln.top

    chain: list[PageLine] = []
    mark = edge
    for ln in rows:
        if not 0 <= gap(ln, mark) <= NEAR * ln.size:
            break
        if chain and not _columns(glyphs, *((chain[-1], ln) if way > 0 else (ln, chain[-1]))):
            break
        chain.append(ln)
        if len(chain) > 2:
            return []  # three rows in columns: a table
        mark = far(ln)
    if len(chain) == 2 and not is_label_row(glyphs, chain[1]):
        return []  # a row of labels over a row in columns that is no labels: a table's head and row
    return chain if chain and is_label_row(glyphs, chain[0]) else []


def figure_gaps(lines: list[PageLine], figures: Sequence[Box]) -> None:
    """Each text line's white space to the nearest figure above and below it, across its width."""
    for ln in lines:
        if ln.kind != "text":
            continue
        for box in figures:
            if min(ln.x1, box[2]) - max(ln.x0, box[0]) <= 0 or (box[1] < ln.top and ln.bottom < box[3]):
                continue
            if box[3] <= ln.top + 0.5 * ln.size:
                ln.extra["figure_above"] = min(ln.extra.get("figure_above", ln.top - box[3]), ln.top - box[3])
            elif box[1] >= ln.bottom - 0.5 * ln.size:
                ln.extra["figure_below"] = min(ln.extra.get("figure_below", box[1] - ln.bottom), box[1] - ln.bottom)
