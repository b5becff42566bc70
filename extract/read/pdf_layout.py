"""PDF page geometry: characters to words, words to columns, columns to text lines in reading order.

Nothing here knows about headings or paragraphs: a page becomes a list of `PageLine`s, each one
text line as printed (or one table row, or one run of rotated text), in the order a reader reads them.
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pdfplumber.utils.text import extract_words

from extract.patterns import INDEX_PAGES_LINE, PARAGRAPH_LABEL

BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
# A font's name says it is slanted: "DejaVuSans-Oblique", "Arial-ItalicMT", "LMRoman10-Italic", TeX's
# "CMTI10" (text italic) and "CMSL10" (slanted).
ITALIC = re.compile(r"italic|oblique|slanted|kursiv|(?:^|\+)CM(?:TI|SL|BXTI)\d", re.IGNORECASE)

Segment = tuple[str, bool, bool]  # (text, bold, italic): a run of one style, spaces included


@dataclass
class PageLine:
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    segments: list[Segment]
    size: float
    bold: bool
    kind: str = "text"  # text | table | rotated | vertical | figure
    block: int = 0  # index of the column/strip on its page, in reading order
    block_x0: float = 0.0
    block_x1: float = 0.0
    words: int = 0
    doubled: bool = False
    no: int = 0  # number in the document, given once every page is read
    reason: str | None = None  # why the reader sets it aside
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "".join(seg[0] for seg in self.segments).strip()


def is_rotated(char: dict) -> bool:
    """Not upright, or drawn through a rotated or mirrored matrix."""
    if not char.get("upright", True):
        return True
    a, b, c, d = (char.get("matrix") or (1, 0, 0, 1, 0, 0))[:4]
    return abs(b) > 1e-3 * max(abs(a), 1e-6) or abs(c) > 1e-3 * max(abs(d), 1e-6) or a < 0 or d < 0


def dedupe(chars: list[dict], tolerance: float = 1.0) -> tuple[list[dict], list[tuple[float, float]]]:
    """Characters drawn twice (same glyph, same place within `tolerance`) kept once; and where.

    The glyphs kept are filed by text on a grid of cells twice `tolerance` wide: one within
    `tolerance` of a point lies in the point's cell or in the neighbour on the side of the half the
    point is in, so four cells are looked in, not nine."""
    cell = 2 * tolerance
    seen: dict[tuple[str, int, int], list[dict]] = {}
    kept: list[dict] = []
    doubled: list[tuple[float, float]] = []
    for ch in chars:
        x, y, text = ch["x0"], ch["top"], ch["text"]
        kx, ky = int(x // cell), int(y // cell)
        nx = kx - 1 if x - kx * cell < tolerance else kx + 1
        ny = ky - 1 if y - ky * cell < tolerance else ky + 1
        if any(abs(other["x0"] - x) <= tolerance and abs(other["top"] - y) <= tolerance
               for key in ((text, kx, ky), (text, nx, ky), (text, kx, ny), (text, nx, ny))
               for other in seen.get(key, ())):
            doubled.append(((x + ch["x1"]) / 2, (y + ch["bottom"]) / 2))
            continue
        seen.setdefault((text, kx, ky), []).append(ch)
        kept.append(ch)
    return kept, doubled


def words_of(chars: list[dict]) -> list[dict]:
    words = extract_words(chars, x_tolerance_ratio=0.15, y_tolerance=2, keep_blank_chars=False,
                          use_text_flow=False, extra_attrs=["fontname", "size"], split_at_punctuation=False)
    blanks: dict[int, list[float]] = {}  # where the PDF draws a space glyph, by line, sorted
    for ch in chars:
        if not ch["text"].strip():
            blanks.setdefault(round(ch["top"]), []).append(ch["x0"])
    for xs in blanks.values():
        xs.sort()
    for w in words:
        w["bold"] = bool(BOLD.search(w["fontname"]))
        w["italic"] = bool(ITALIC.search(w["fontname"]))
        w["kind"] = "word"
        w["blank_after"] = any(_any_between(blanks.get(top, []), w["x1"] - 0.5, w["x1"] + 0.5 * w["size"])
                               for top in (round(w["top"]) - 1, round(w["top"]), round(w["top"]) + 1))
    return words


def _any_between(xs: list[float], low: float, high: float) -> bool:
    """Whether the sorted `xs` hold a value in [low, high] (a search, not a scan: a line may hold
    thousands of space glyphs)."""
    at = bisect.bisect_left(xs, low)
    return at < len(xs) and xs[at] <= high


# ---- reading order -------------------------------------------------------------------------------

def _rows(items: list[dict]) -> list[list[dict]]:
    """Items grouped into printed rows: same vertical band, left to right."""
    rows: list[list[dict]] = []
    bands: list[tuple[float, float]] = []
    for it in sorted(items, key=lambda w: (w["top"], w["x0"])):
        mid = (it["top"] + it["bottom"]) / 2
        for i in range(len(rows) - 1, max(-1, len(rows) - 4), -1):
            top, bottom = bands[i]
            if top - 0.5 <= mid <= bottom + 0.5 and it["kind"] != "table" and rows[i][0]["kind"] != "table":
                rows[i].append(it)
                break
        else:
            rows.append([it])
            bands.append((it["top"], it["bottom"]))
    for row in rows:
        row.sort(key=lambda w: w["x0"])
    rows.sort(key=lambda r: min(w["top"] for w in r))
    return rows


def _gutters(items: list[dict], min_gap: float, min_rows: int = 2) -> list[tuple[float, float]]:
    """Vertical white bands crossing all of `items` with at least two rows of text on each side."""
    spans = sorted((w["x0"], w["x1"]) for w in items)
    gaps = []
    end = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - end >= min_gap:
            gaps.append((end, x0))
        end = max(end, x1)
    found: list[tuple[float, float]] = []
    start, width = spans[0][0], 10 * min_gap  # a column of prose is at least ten words' room wide
    for g0, g1 in gaps:
        if g0 - start < width and not _index_column(items, start, g0):
            continue  # a tab stop inside a narrow list (age categories, score scales), not a gutter
        if _marker_column(items, start, g0):
            continue  # a column of bullets or numbers beside their text, not a gutter
        if _word_space(items, g0, g1):
            continue  # a space between two words of a title in large type, not a gutter
        if (_rows_at_least((w["top"] for w in items if w["x1"] <= g0 + 0.1), min_rows)
                and _rows_at_least((w["top"] for w in items if w["x0"] >= g1 - 0.1), min_rows)):
            found.append((g0, g1))
            start = g1
    if found and end - found[-1][1] < width and not _index_column(items, found[-1][1], end):
        found.pop()
    return found


WORD_SPACE = 1.3  # × the row's usual space between words: a gap this wide at most is one more space
WORD_SPACE_EM = 0.4  # × the type's size: the same, for a row of two words (no other space to compare)


def _word_space(items: list[dict], g0: float, g1: float) -> bool:
    """Whether the gap (g0, g1) is only a space between two words of one row in a type large enough for
    its spaces to be as wide as a gutter ("ACTIVATION DES" | "SYSTÈMES" in 38-point capitals): the
    words on either side in the same type, on the same row, no farther apart than the row's other
    words usually are (the median: another gutter the row crosses is no word space)."""
    for w in items:
        if w["kind"] != "word" or not g0 - 0.1 <= w["x1"] <= g0 + 0.1:
            continue
        size = w["size"]
        row = sorted((o for o in items if o["kind"] == "word" and abs(o["top"] - w["top"]) < 0.2 * size
                      and abs(o["size"] - size) < 0.5), key=lambda o: o["x0"])
        if not any(g1 - 0.1 <= o["x0"] <= g1 + 0.1 for o in row):
            continue
        spaces = [b["x0"] - a["x1"] for a, b in zip(row, row[1:], strict=False) if not (a["x1"] <= g0 + 0.1 and b["x0"] >= g1 - 0.1)]
        if g1 - g0 <= (WORD_SPACE * statistics.median(spaces) if spaces else WORD_SPACE_EM * size):
            return True
    return False


def _rows_at_least(tops: Iterator[float], count: int) -> bool:
    """Whether the items of these tops stand on `count` rows at least (rows 3 points apart): read
    until that many are seen, not to the end."""
    rows: set[int] = set()
    for top in tops:
        rows.add(round(top / 3))
        if len(rows) >= count:
            return True
    return count <= 0


INDEX_ROWS = 3  # a narrow column of this many index lines at least ("Archers, 3, 9") is a column


def _index_column(items: list[dict], x0: float, x1: float) -> bool:
    """Whether the words between x0 and x1 are a column of an index of pages: rows of "Terme, 3, 9",
    narrower than a column of prose but read one column after the other all the same."""
    rows: dict[int, list[dict]] = {}
    for w in items:
        if w["kind"] == "word" and x0 - 0.1 <= w["x0"] and w["x1"] <= x1 + 0.1:
            rows.setdefault(round(w["top"] / 3), []).append(w)
    texts = [" ".join(w["text"] for w in sorted(row, key=lambda w: w["x0"])) for row in rows.values()]
    hits = sum(1 for t in texts if INDEX_PAGES_LINE.match(t))
    # a row or two (the strips a page is cut in) are a column where every row is an index line
    return (hits >= INDEX_ROWS and hits >= 0.8 * len(texts)) or (hits > 0 and hits == len(texts))


def _marker_column(items: list[dict], start: float, g0: float) -> bool:
    """Whether the words ending at the gap's left edge are bullets or numbers standing alone there.

    A bullet has nothing else on its side of the gap; a short word that ends a full line of a
    column ("… le ballon à un") only happens to end at the column's right margin."""
    edge = [w for w in items if w["kind"] == "word" and g0 - 0.5 <= w["x1"] <= g0 + 0.1]
    if len(edge) < 2 or any(len(w["text"]) > 2 for w in edge):
        return False
    return all(not any(o is not w and start - 0.1 <= o["x0"] and o["x1"] <= g0 + 0.1
                       and abs(o["top"] - w["top"]) <= 2 for o in items) for w in edge)


def _strips(items: list[dict]) -> list[list[dict]]:
    """Horizontal bands separated by white space that nothing crosses."""
    strips: list[list[dict]] = []
    bottom = None
    for it in sorted(items, key=lambda w: w["top"]):
        if bottom is None or it["top"] > bottom + 0.5:
            strips.append([it])
            bottom = it["bottom"]
        else:
            strips[-1].append(it)
            bottom = max(bottom, it["bottom"])
    return strips


def _same_gutter(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    return any(min(a1, b1) > max(a0, b0) for a0, a1 in a for b0, b1 in b)


def order_blocks(items: list[dict], min_gap: float, depth: int = 0) -> tuple[list[list[dict]], int, bool]:
    """Items cut into blocks (strips, then columns inside them) in reading order.

    Returns (blocks, most columns side by side, uncertain)."""
    if not items:
        return [], 0, False
    groups: list[tuple[list[dict], list]] = []
    strips = _strips(items)
    for i, strip in enumerate(strips):
        if groups:
            g_items, g_gut = groups[-1]
            merged = _gutters(g_items + strip, min_gap, min_rows=1 if g_gut else 2)
            # a strip goes on the group when their columns agree: the same gutter through both, or
            # a strip too short to show its gutter (column headings side by side) that fits the group's
            if merged and (not g_gut or _same_gutter(merged, g_gut)):
                groups[-1] = (g_items + strip, merged)
                continue
            if g_gut and not any(it["x0"] < g1 and it["x1"] > g0 for it in strip for g0, g1 in g_gut):
                # nothing in the strip crosses the group's gutter (a caption or a short line inside
                # one column): the columns go on; only what spans the gutter starts a new band
                groups[-1] = (g_items + strip, g_gut)
                continue
            if not merged and not g_gut:
                # one row shows no gutter: look at the strips that follow before calling it one column
                ahead = [w for s in strips[i:i + 3] for w in s]
                if not _gutters(ahead, min_gap):
                    groups[-1] = (g_items + strip, [])
                    continue
        own = _gutters(strip, min_gap)
        if not own:  # a first row beside a title: its gutter shows in the rows below it
            ahead = _gutters([w for s in strips[i:i + 3] for w in s], min_gap)
            loose = _gutters(strip, min_gap, min_rows=1)
            own = loose if ahead and loose and _same_gutter(loose, ahead) else []
        groups.append((strip, own))
    blocks: list[list[dict]] = []
    most, uncertain = 1, False
    for g_items, gut in groups:
        if not gut or depth >= 2:
            blocks.append(g_items)
            continue
        cuts = [(g0 + g1) / 2 for g0, g1 in gut]
        columns: list[list[dict]] = [[] for _ in range(len(cuts) + 1)]
        for it in g_items:
            centre = (it["x0"] + it["x1"]) / 2
            columns[sum(1 for c in cuts if centre > c)].append(it)
        sub_most = 0
        for col in columns:
            sub, k, unsure = order_blocks(col, min_gap, depth + 1)
            blocks.extend(sub)
            sub_most += k
            uncertain |= unsure
        most = max(most, sub_most)
        rows_per_col = [len(_rows(c)) for c in columns if c]
        if any(g1 - g0 < 1.3 * min_gap for g0, g1 in gut) or (rows_per_col and min(rows_per_col) < 3 <= len(g_items) // 40):
            uncertain = True
    return blocks, most, uncertain


LETTER_GAP = (0.25, 0.4)  # a gap below this × the size and this × the row's word space is between letters


def _spacing(row: list[dict]) -> float:
    """The row's usual space between words (the median of the gaps under an em), 0 for fewer than
    three: in letter-spaced type ("A c c e s s i o n  e n"), a gap much narrower than it, next to a
    single letter, lies inside a word the word finder cut ("e" | "n"), not between two words."""
    gaps = sorted(b["x0"] - a["x1"] for a, b in zip(row, row[1:], strict=False)
                  if 0 < b["x0"] - a["x1"] < min(a["size"], b["size"]))
    return statistics.median(gaps) if len(gaps) >= 3 else 0.0


SPELT_PIECES = 4  # a row of this many pieces or more, each a letter or two, may be one word letter-spaced
SPELT_GAP = (0.5, 1.6)  # ... its letters' gaps under this × the size, and a word space over this × their median


def _spelt_gaps(row: list[dict]) -> float:
    """The usual gap between the letters of a row printed letter-spaced and nothing else ("R A P P E L",
    "VA R I A N T E": a box's title in spaced capitals, each letter a word to the word finder), 0 for
    any other row: such a row has no wider word space to tell its letters' gaps by (`_spacing`)."""
    if len(row) < SPELT_PIECES or any(len(w["text"]) > 2 or not w["text"].isalpha() for w in row) \
            or sum(len(w["text"]) == 1 for w in row) < 0.75 * len(row):
        return 0.0
    # letter-spacing is a display style of capitals: letters in lower case are words ("Il y a à",
    # "a b c d"); and a gap holding a space glyph parts words, none letters ("O X O X")
    if not all(w["text"].isupper() for w in row):
        return 0.0
    gaps = [b["x0"] - a["x1"] for a, b in zip(row, row[1:], strict=False)]
    letters = sorted(b["x0"] - a["x1"] for a, b in zip(row, row[1:], strict=False)
                     if 0 < b["x0"] - a["x1"] < SPELT_GAP[0] * min(w["size"] for w in row) and not a.get("blank_after"))
    return statistics.median(letters) if len(letters) >= 0.6 * len(gaps) else 0.0


def _segments(row: list[dict]) -> tuple[list[Segment], float, bool]:
    segs: list[Segment] = []
    sizes: dict[float, int] = {}
    bold_chars = total = 0
    prev = None
    spaced = _spacing(row)
    spelt = _spelt_gaps(row)
    # the weight of a row is its letters': a marker glyph from another font ("❱ DÉGÂTS") is none
    lettered = any(c.isalnum() for w in row for c in w["text"])
    for w in row:
        n = len(w["text"])
        sizes[round(w["size"] * 2) / 2] = sizes.get(round(w["size"] * 2) / 2, 0) + n
        weight = sum(c.isalnum() for c in w["text"]) if lettered else n
        total += weight
        bold_chars += weight if w["bold"] else 0
        sep = ""
        if prev is not None and w["x0"] - prev["x1"] > 0.1 * min(w["size"], prev["size"]):
            gap, size = w["x0"] - prev["x1"], min(w["size"], prev["size"])
            letter = min(len(w["text"]), len(prev["text"])) == 1  # the word finder cuts a letter off
            sep = "" if letter and spaced and gap < LETTER_GAP[0] * size and gap < LETTER_GAP[1] * spaced else " "
            if spelt and gap < SPELT_GAP[0] * size and gap < SPELT_GAP[1] * spelt and not prev.get("blank_after"):
                sep = ""  # a letter-spaced word: its letters printed apart
        segs.append((sep + w["text"], w["bold"], w.get("italic", False)))
        prev = w
    merged: list[Segment] = []
    for text, bold, italic in segs:
        if merged and merged[-1][1:] == (bold, italic):
            merged[-1] = (merged[-1][0] + text, bold, italic)
        else:
            merged.append((text, bold, italic))
    size = max(sizes, key=lambda s: sizes[s]) if sizes else 0.0
    return merged, size, total > 0 and bold_chars >= 0.9 * total


def _in_own_row(letter: dict, block: list[dict]) -> bool:
    """Whether a large single letter stands in a row of words in its own type (the "À" of "LES QUATRE
    DIFFÉRENTES FONCTIONS À BORD"): a word of a title, not a drop cap larger than the text beside it."""
    size = letter["size"]
    return any(w is not letter and w["kind"] == "word" and abs(w["size"] - size) < 0.5
               and abs(w["top"] - letter["top"]) < 0.2 * size for w in block)


def lines_of_block(block: list[dict], page: int, index: int, body: float) -> list[PageLine]:
    """A block's items as printed lines, top to bottom; a drop cap is glued to the line beside it."""
    drops = [w for w in block if w["kind"] == "word" and len(w["text"]) == 1 and w["text"].isalpha()
             and w["size"] >= 2.2 * body and not _in_own_row(w, block)]
    rest = [w for w in block if not any(w is d for d in drops)]
    x0 = min(w["x0"] for w in block)
    x1 = max(w["x1"] for w in block)
    out: list[PageLine] = []
    for row in _rows(rest):
        if row[0]["kind"] == "table":
            t = row[0]
            for r, cells in enumerate(t["rows"]):
                out.append(PageLine(page, t["x0"], t["x1"], t["top"], t["bottom"],
                                    [("| " + " | ".join(cells) + " |", False, False)], body, False, "table",
                                    index, x0, x1, len(cells), extra={"row": r}))
            continue
        segs, size, bold = _segments(row)
        line = PageLine(page, row[0]["x0"], max(w["x1"] for w in row), min(w["top"] for w in row),
                        max(w["bottom"] for w in row), segs, size, bold, "text", index, x0, x1, len(row))
        if _hanging_label(row):
            line.extra["text_x0"] = row[1]["x0"]
        if _page_after_gap(row):
            line.extra["page_after_gap"] = True
        out.append(line)
    for d in drops:
        beside = [ln for ln in out if ln.kind == "text" and ln.x0 >= d["x1"] - 1 and d["top"] - 2 <= ln.top <= d["bottom"]]
        if beside:
            first = min(beside, key=lambda ln: ln.top)
            first.segments.insert(0, (d["text"], d["bold"], d.get("italic", False)))
            first.extra["dropcap"] = True
        else:
            out.append(PageLine(page, d["x0"], d["x1"], d["top"], d["bottom"], [(d["text"], d["bold"], d.get("italic", False))],
                                d["size"], d["bold"], "text", index, x0, x1, 1))
    out.sort(key=lambda ln: (ln.top, ln.extra.get("row", 0)))
    _mark_vertical(out)
    return out


PAGE_AFTER_GAP = 3.0  # in font sizes: wider than any space of a justified line, as a contents line's leader


def _page_after_gap(row: list[dict]) -> bool:
    """Whether the row ends on a page number standing far right of its title, a blank gap between
    them ("Combat            7"): a contents line whose leader is spaces, not dots. Measured on the
    page (the words' x positions), where the text has one space in that gap."""
    words = [w for w in row if w["kind"] == "word"]
    if len(words) < 2 or len(words) != len(row) or not re.fullmatch(r"\d{1,4}", words[-1]["text"]):
        return False
    if not any(re.search(r"[^\W\d_]", w["text"]) for w in words[:-1]):
        return False  # no title, numbers only ("150      16"): a table's row
    return words[-1]["x0"] - words[-2]["x1"] >= PAGE_AFTER_GAP * max(words[-1]["size"], words[-2]["size"])


def _hanging_label(row: list[dict]) -> bool:
    """Whether the row opens on a paragraph's label ("§12", "[12]", "12)") standing apart in the
    margin, its text starting further right, where the paragraph's other lines start."""
    if len(row) < 2 or row[0]["kind"] != "word" or row[1]["kind"] != "word":
        return False
    label = PARAGRAPH_LABEL.match(row[0]["text"])
    return (label is not None and label.end() == len(row[0]["text"])
            and row[1]["x0"] - row[0]["x1"] > 1.5 * row[1]["size"])


def _mark_vertical(lines: list[PageLine]) -> None:
    """Three or more one-letter lines stacked at the same x: text set vertically, letter by letter."""
    i = 0
    while i < len(lines):
        j = i
        while (j < len(lines) and lines[j].kind == "text" and len(lines[j].text) <= 2
               and abs((lines[j].x0 + lines[j].x1) / 2 - (lines[i].x0 + lines[i].x1) / 2) <= max(2.0, lines[i].size * 0.4)):
            j += 1
        if j - i >= 3:
            word = "".join(ln.text for ln in lines[i:j])
            for ln in lines[i:j]:
                ln.kind = "vertical"
                ln.reason = f"vertical text, one letter per line ({word})"
            i = j
        else:
            i += 1


def rotated_lines(chars: list[dict], page: int) -> list[PageLine]:
    """Rotated characters as runs (one per text line, in their own direction), to be set aside."""
    if not chars:
        return []
    words = extract_words(chars, x_tolerance=3, y_tolerance=3, keep_blank_chars=False, use_text_flow=True)
    lines: list[list[dict]] = []
    for w in sorted(words, key=lambda w: (round(w["x0"]), w["top"])):
        if lines and abs(lines[-1][-1]["x0"] - w["x0"]) <= 2:
            lines[-1].append(w)
        else:
            lines.append([w])
    out = []
    for ws in lines:
        text = " ".join(w["text"] for w in ws)
        out.append(PageLine(page, min(w["x0"] for w in ws), max(w["x1"] for w in ws), min(w["top"] for w in ws),
                            max(w["bottom"] for w in ws), [(text, False, False)], 0.0, False, "rotated", 10_000, words=len(ws),
                            reason="rotated text"))
    return out
