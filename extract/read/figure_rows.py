"""Labels printed in a row over a picture, or right under (or above) it: "Systèmes d'arme", "Systèmes de
détection", "Systèmes spéciaux", each under its part of a panel. A row of the page split by wide
gaps into short pieces, within the picture's width and a line's height from it, is the figure's,
as the rows of pieces below it are: set aside with their page, never a heading nor a sentence. A
caption under a picture is one piece (a sentence, "Illustration 1 : …") and stays text."""

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


def pieces(glyphs: Glyphs, ln: PageLine) -> list[str]:
    """The pieces of `ln` as printed: its glyphs left to right (spaces kept inside a piece), parted
    where the gap between two glyphs is wider than PIECE_GAP × its size."""
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
    return [" ".join("".join(c["text"] for c in piece).split()) for piece in found]


def _labels(glyphs: Glyphs, ln: PageLine) -> bool:
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
        edge_below, edge_above = bottom, top
        for ln in sorted((ln for ln in lines if ln.kind == "text"), key=lambda ln: ln.top):
            if not _across(ln, box):
                continue
            inside = top - 1 <= ln.top and ln.bottom <= bottom + 1
            under = 0 <= ln.top - edge_below <= NEAR * ln.size
            if (inside or under) and _labels(glyphs, ln):
                ln.kind, ln.reason = "figure", ROW_REASON
                edge_below = max(edge_below, ln.bottom)
        for ln in sorted((ln for ln in lines if ln.kind == "text"), key=lambda ln: -ln.bottom):
            if not _across(ln, box):
                continue
            if 0 <= edge_above - ln.bottom <= NEAR * ln.size and _labels(glyphs, ln):
                ln.kind, ln.reason = "figure", ROW_REASON
                edge_above = min(edge_above, ln.top)
    figure_gaps(lines, [*pictures, *drawn])


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
