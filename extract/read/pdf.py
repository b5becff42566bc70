"""PDF: the text layer read page by page in reading order (columns, tables, running heads set aside),
then written as the light Markdown the profiles read (headings from font sizes, paragraphs joined).

Every printed text line the PDF holds gets a number 1..N in reading order; an output Line is one
paragraph, heading, list item or table row, and its `no`/`covers` name the printed lines it joins.
"""

from __future__ import annotations

import io
import statistics
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.files import PDF_LIMIT, read_input
from extract.model import Anomaly
from extract.read import READERS, Reader, Reading, pdf_limits
from extract.read.cell_rows import mark_head_rows, mark_header_rows
from extract.read.figure_rows import label_rows
from extract.read.pdf_layout import PageLine, dedupe, is_rotated, lines_of_block, order_blocks, rotated_lines, words_of
from extract.read.pdf_limits import bounded, check_pdf
from extract.read.pdf_text import compose, leaflet_order

NO_TEXT = "no text layer: this PDF is an image or outlines; run OCR first (e.g. ocrmypdf) and read its output"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:160]


def _check_bytes(data: bytes, display: str) -> None:
    head = data[:1024]
    if not head.strip():
        raise InputError(display, "source file is empty")
    if b"%PDF-" not in head:
        kinds = {b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image", b"PK\x03\x04": "a ZIP archive"}
        what = next((name for magic, name in kinds.items() if head.startswith(magic)), "not a PDF")
        raise InputError(display, f"not a PDF: the file is {what} (no %PDF- header)" if what != "not a PDF"
                         else "not a PDF (no %PDF- header in the first 1024 bytes)")


def _open(data: bytes, display: str):
    """The PDF opened by pdfplumber, every object checked (`check_pdf`, on pdfplumber's own
    document: each object parsed once) before its page tree is parsed."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(display, f"encrypted PDF: it needs a password or an unsupported cipher ({_one_line(exc)})") from None
    except Exception as exc:  # pdfminer raises many types for a damaged file: all are bad input here
        raise _unreadable(exc, display) from None
    check_pdf(data, display, document=pdf.doc)
    try:
        _ = pdf.pages  # parses the page tree: a damaged file fails here
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise InputError(display, f"encrypted PDF: it needs a password or an unsupported cipher ({_one_line(exc)})") from None
    except Exception as exc:  # pdfminer raises many types for a damaged file: all are bad input here
        raise _unreadable(exc, display) from None
    return pdf


def _unreadable(exc: Exception, display: str) -> InputError:
    inner = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else exc.__cause__ or exc
    exc = inner if isinstance(inner, BaseException) else exc
    name = type(exc).__name__
    if "Password" in name or "Encrypt" in name:
        return InputError(display, f"encrypted PDF: it needs a password ({_one_line(exc)})")
    return InputError(display, f"damaged or unreadable PDF ({name}: {_one_line(exc)})")


def _has_fonts(page) -> bool:
    """Whether the page (or a form it draws) declares a font: without one there is no text to find."""
    from pdfminer.pdftypes import resolve1

    def visit(res, depth: int) -> bool:
        res = resolve1(res) or {}
        if not isinstance(res, dict):
            return False
        if resolve1(res.get("Font")):
            return True
        if depth < 3:
            for xobj in (resolve1(res.get("XObject")) or {}).values():
                xobj = resolve1(xobj)
                attrs = getattr(xobj, "attrs", {})
                if attrs.get("Resources") is not None and visit(attrs["Resources"], depth + 1):
                    return True
        return False

    try:
        return visit(page.page_obj.resources, 0)
    except Exception:
        return True  # unsure: let the real extraction decide


def _tables(page) -> list[dict]:
    found = []
    for table in page.find_tables():
        if len(table.rows) < 2 or max(len(row.cells) for row in table.rows) < 2:
            continue  # a frame or a rule, no table: its text is not extracted only to be dropped
        rows = [[" ".join((c or "").split()) for c in row] for row in table.extract()]
        rows = [r for r in rows if any(r)]
        if len(rows) < 2 or max(len(r) for r in rows) < 2:
            continue
        full = sum(1 for r in rows if sum(1 for c in r if c) >= 2)
        if full < max(2, len(rows) // 2):
            continue
        x0, top, x1, bottom = table.bbox
        found.append({"kind": "table", "x0": x0, "x1": x1, "top": top, "bottom": bottom, "rows": rows,
                      "text": "", "size": 0.0, "bold": False, "fontname": ""})
    return found


def _read_page(page, no: int, stats: dict) -> list[PageLine]:
    chars = page.chars
    stats["chars"] += len(chars)
    stats["cid"] += sum(1 for c in chars if c["text"].startswith("(cid:"))
    chars, doubled = dedupe(chars)
    if doubled:
        stats["doubled"][no] = len(doubled)
    upright, rotated = [], []
    for char in chars:  # each char's matrix looked at once
        (rotated if is_rotated(char) else upright).append(char)
    if not upright and rotated:
        stats["rotated_pages"].append(no)
    tables = _tables(page) if page.rects or page.lines else []
    in_table = [(t["x0"] - 1, t["top"] - 1, t["x1"] + 1, t["bottom"] + 1) for t in tables]
    words = [w for w in words_of(upright)
             if not any(x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] and w["bottom"] <= bottom for x0, top, x1, bottom in in_table)]
    sizes = Counter(round(w["size"] * 2) / 2 for w in words for _ in w["text"])
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    stats["sizes"].update(sizes)
    halves = imposed_halves(words + tables, float(page.width), float(page.height), max(5.0, body))
    if halves is not None:
        stats["imposed"].append(no)
    blocks, columns, uncertain = [], 0, False
    for half in halves or [words + tables]:
        half_blocks, half_columns, half_uncertain = order_blocks(half, max(5.0, body))
        blocks += half_blocks
        columns += half_columns
        uncertain |= half_uncertain
    stats["columns"][no] = columns
    if uncertain:
        stats["uncertain"].append(no)
    lines: list[PageLine] = []
    for i, block in enumerate(blocks):
        lines.extend(lines_of_block(block, no, i, body))
    lines.extend(rotated_lines(rotated, no))
    _figure_labels(page, lines, body)
    _shaded_boxes(page, lines)
    _mark_doubled(lines, doubled)
    stats["cell_headers"] += mark_header_rows(lines, body) + mark_head_rows(upright, lines)
    for ln in lines:
        ln.extra["height"] = float(page.height)
    stats["tables"] += len(tables)
    return lines


LANDSCAPE = 1.15  # width / height above which a sheet may hold two pages side by side
FOLD_BAND = 0.08  # of the width: where the fold between two imposed pages lies, around the middle
HALF_ROWS = 3  # each imposed page holds this many rows of text at least


def imposed_halves(items: list[dict], width: float, height: float, min_gap: float) -> list[list[dict]] | None:
    """A landscape sheet holding two pages side by side (a booklet printed two pages per sheet): its
    items cut at the fold, left page then right page, or None. The fold: a white band near the
    middle that nothing printed crosses from the top of the text to its bottom, with text on both
    sides; each page then finds its own columns and headings printed side by side stay apart."""
    if width <= LANDSCAPE * height or not items:
        return None
    middle = width / 2
    if any(it["x0"] < middle < it["x1"] for it in items):
        return None
    left = [it for it in items if it["x1"] <= middle]
    right = [it for it in items if it["x0"] >= middle]
    if not left or not right:
        return None
    gap0, gap1 = max(it["x1"] for it in left), min(it["x0"] for it in right)
    if gap1 - gap0 < min_gap:
        return None
    # both pages' text reaches the fold, but for a cover's centred block, which may stop well short of
    # it (three narrow columns leave two white bands, neither a fold)
    short = [(gap0 < middle - FOLD_BAND * width, left, 0.0), (gap1 > middle + FOLD_BAND * width, right, middle)]
    if any(far and not _centred(half, start, middle, width) for far, half, start in short) or all(far for far, _, _ in short):
        return None
    rows = [{round(it["top"] / 3) for it in half} for half in (left, right)]
    if min(len(r) for r in rows) < HALF_ROWS:
        return None
    return [left, right]


CENTRED = 0.06  # of the sheet's width: how far a centred row's middle may stand from its half's middle


def _centred(items: list[dict], start: float, span: float, width: float) -> bool:
    """Whether `items` are a centred block in the half from `start`, `span` wide (a cover): rows of
    different left edges, each with its middle near the half's middle. A column's rows share their
    left edge."""
    rows: dict[int, tuple[float, float]] = {}
    for it in items:
        key = round(it["top"] / 3)
        x0, x1 = rows.get(key, (it["x0"], it["x1"]))
        rows[key] = (min(x0, it["x0"]), max(x1, it["x1"]))
    lefts = [x0 for x0, _ in rows.values()]
    middle = start + span / 2
    return max(lefts) - min(lefts) > 1.0 and all(abs((x0 + x1) / 2 - middle) <= CENTRED * width for x0, x1 in rows.values())


HEADING_OVER_PICTURE = 1.2  # × the page's body size


def _figure_labels(page, lines: list[PageLine], body: float) -> None:
    """Short words inside a picture (not a page-sized background) or a drawing (`drawings`) are
    labels of the figure, set aside with their page, never a heading nor inside a sentence; a
    heading printed over a picture (bold, larger than the text, a word at least: Hanabi's
    "Matériel" over its cover) stays text."""
    area = float(page.width * page.height)
    pictures = [(im["x0"], im["top"], im["x1"], im["bottom"]) for im in page.images
                if 0.002 * area < (im["x1"] - im["x0"]) * (im["bottom"] - im["top"]) < 0.4 * area]
    drawn = drawings(page, [ln for ln in lines if ln.kind == "text"])
    for ln in lines:
        if ln.kind != "text" or ln.words > 4 or len(ln.text) > 30:
            continue
        if ln.bold and ln.size >= HEADING_OVER_PICTURE * body and sum(c.isalpha() for c in ln.text) >= 3:
            continue
        inside = [box for box in pictures if _holds(box, ln)]
        if inside or any(_beside(box, ln) for box in drawn):
            ln.kind = "figure"
            ln.reason = "label inside a figure" if inside else "label of a drawing"
    if pictures or drawn:
        label_rows(page.chars, lines, pictures, drawn)


def _holds(box: tuple[float, float, float, float], ln: PageLine, margin: float = 1.0) -> bool:
    x0, top, x1, bottom = box
    return x0 - margin <= ln.x0 and ln.x1 <= x1 + margin and top - margin <= ln.top and ln.bottom <= bottom + margin


def _beside(box: tuple[float, float, float, float], ln: PageLine) -> bool:
    """Whether `ln` is inside the drawing or printed beside it, within its height: a label its leader
    line points to. A line above or below it (a heading, a caption) is not."""
    x0, top, x1, bottom = box
    return (top - 2 <= ln.top and ln.bottom <= bottom + 2
            and ln.x0 <= x1 + DRAWING_CELL and ln.x1 >= x0 - DRAWING_CELL)


DRAWING_CELL = 8.0  # points: the grid the strokes of a drawing are joined on (touching within a cell)
DRAWING_STROKES = 6  # a drawing is made of this many strokes at least (one frame around a box is none)
DRAWING_FRAME = 0.15  # of the page's area: a larger rectangle frames text rather than drawing
DRAWING_PROSE_WORDS = 7  # a region holding a line of this many words is a box of text, not a drawing


def drawings(page, lines: list[PageLine]) -> list[tuple[float, float, float, float]]:
    """The boxes of the page's vector drawings (a card diagram, a map, an icon with its labels):
    curves, rectangles and lines joined where they touch, on a grid of DRAWING_CELL points, into regions
    of DRAWING_STROKES strokes or more. A region holding a line of prose is a box of text, and one
    the size of the page a background: neither is a drawing."""
    area = float(page.width * page.height)
    strokes = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in (*page.curves, *page.rects, *page.lines)
               if (o["x1"] - o["x0"]) * (o["bottom"] - o["top"]) < 0.4 * area]
    if len(strokes) < DRAWING_STROKES:
        return []
    cols, rows = int(page.width // DRAWING_CELL) + 2, int(page.height // DRAWING_CELL) + 2
    owner: dict[tuple[int, int], int] = {}
    parent = list(range(len(strokes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (x0, top, x1, bottom) in enumerate(strokes):
        c0, c1 = max(0, int(x0 // DRAWING_CELL)), min(cols - 1, int(x1 // DRAWING_CELL))
        r0, r1 = max(0, int(top // DRAWING_CELL)), min(rows - 1, int(bottom // DRAWING_CELL))
        # what a stroke encloses is the drawing's (a card's picture inside its frame); a frame around
        # much of the page (a column's) counts by its edges only
        whole = (x1 - x0) * (bottom - top) <= DRAWING_FRAME * area
        cells = ((c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1) if whole or c in (c0, c1) or r in (r0, r1))
        for cell in cells:
            if cell in owner:
                parent[find(i)] = find(owner[cell])
            else:
                owner[cell] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(strokes)):
        groups.setdefault(find(i), []).append(i)
    found = []
    for members in groups.values():
        if len(members) < DRAWING_STROKES:
            continue
        box = (min(strokes[i][0] for i in members), min(strokes[i][1] for i in members),
               max(strokes[i][2] for i in members), max(strokes[i][3] for i in members))
        if (box[2] - box[0]) * (box[3] - box[1]) >= 0.4 * area:
            continue
        if any(ln.words >= DRAWING_PROSE_WORDS and _holds(box, ln) for ln in lines):
            continue
        found.append(box)
    return found


def _shaded_boxes(page, lines: list[PageLine]) -> None:
    """Text lines printed on a filled rectangle (a shaded box: an example, a designer's note) get
    its place ("box" = (page, left, top)); a page-sized background or a table's cell is none."""
    area = float(page.width * page.height)
    boxes = []
    for rect in page.rects:
        x0, top, x1, bottom = rect["x0"], rect["top"], rect["x1"], rect["bottom"]
        colour = rect.get("non_stroking_color")
        white = colour in ((1,), (1, 1, 1), (0, 0, 0, 0), 1, (1.0,), (1.0, 1.0, 1.0))
        if not rect.get("fill") or white or not 0.01 * area < (x1 - x0) * (bottom - top) < 0.4 * area \
                or x1 - x0 < 60 or bottom - top < 20:
            continue
        if x0 < 0 or top < 0 or x1 > page.width or bottom > page.height:
            continue  # a band bled off the page: decoration
        # a box holds its lines whole: a line across its edge means a background, not a box
        if any(ln.kind == "text" and ln.x0 < x1 and ln.x1 > x0 and ln.top < bottom and ln.bottom > top
               and not (x0 - 1 <= ln.x0 and ln.x1 <= x1 + 1 and top - 1 <= ln.top and ln.bottom <= bottom + 1)
               for ln in lines):
            continue
        boxes.append((x0, top, x1, bottom))
    for ln in lines:
        if ln.kind != "text":
            continue
        for x0, top, x1, bottom in boxes:
            if x0 - 1 <= ln.x0 and ln.x1 <= x1 + 1 and top - 1 <= ln.top and ln.bottom <= bottom + 1:
                ln.extra["box"] = (ln.page, round(x0), round(top))
                break


def _mark_doubled(lines: list[PageLine], doubled: list[tuple[float, float]]) -> None:
    for x, y in doubled:
        for ln in lines:
            if ln.x0 - 1 <= x <= ln.x1 + 1 and ln.top - 1 <= y <= ln.bottom + 1:
                ln.doubled = True
                break


def read_pdf(path: Path, display: str, pages: tuple[int, int] | None = None, data: bytes | None = None) -> Reading:
    """`data`: the file's bytes when the caller has read them (`read_source`, checked). Read in a
    child process under the limits of `extract.read.pdf_limits` (time, memory), every object
    checked first (reference cycles, stream and CMap sizes)."""
    data = read_input(path, display, PDF_LIMIT) if data is None else data
    _check_bytes(data, display)
    return bounded(lambda: _read_pdf(data, display, pages), display)


def _read_pdf(data: bytes, display: str, pages: tuple[int, int] | None) -> Reading:
    pdf = _open(data, display)
    stats = _new_stats()
    lines: list[PageLine] = []
    with pdf:
        total = len(pdf.pages)
        if total == 0:
            raise InputError(display, "PDF has no pages")
        if total > pdf_limits.LIMITS.pages:
            raise InputError(display, f"{total:,} pages, over the limit of {pdf_limits.LIMITS.pages:,} for one PDF: not read")
        first, last = pages or (1, total)
        if not (1 <= first <= last <= total):
            raise InputError(display, f"page range {first}-{last} is outside the document (pages 1-{total})")
        chosen = pdf.pages[first - 1:last]
        if not any(_has_fonts(p) for p in chosen):
            raise InputError(display, NO_TEXT)
        numbered = list(enumerate(chosen, start=first))
        for page_lines, page_stats in pdf_limits.in_parts(numbered, lambda part: _read_pages(part, display), display):
            lines.extend(page_lines)
            _add_stats(stats, page_stats)
    if stats["chars"] == 0:
        raise InputError(display, NO_TEXT)
    # pages chosen by the user are read in the order given: a leaflet's order is the whole document's
    order = None if pages is not None else leaflet_order(lines, stats["sizes"].most_common(1)[0][0] if stats["sizes"] else 10.0)
    if order is not None:
        rank = {page: at for at, page in enumerate(order)}
        lines.sort(key=lambda ln: rank[ln.page])  # stable: each page's own order kept
    for n, ln in enumerate(lines, start=1):
        ln.no = n
    reading = compose(lines, stats, pages=(first, last))
    if order is not None:
        reading.anomalies.append(Anomaly(
            "page-order-repaired", f"pages read in the order {', '.join(map(str, order))}: the document opens "
            f"mid-chapter and its title stands on page {order[0]} (a leaflet whose outside is printed second)",
            [ln.no for ln in lines if ln.page == order[0]][:1], "warning"))
    # composed (NFC), as text and Markdown are: a PDF may draw "é" as "e" and an accent
    reading.lines = [replace(line, text=unicodedata.normalize("NFC", line.text)) for line in reading.lines]
    reading.pages = last - first + 1
    reading.lines_read = len(lines)
    _page_anomalies(reading, lines, stats)
    return reading


def _new_stats() -> dict:
    return {"chars": 0, "cid": 0, "doubled": {}, "rotated_pages": [], "columns": {}, "uncertain": [],
            "sizes": Counter(), "tables": 0, "imposed": [], "cell_headers": 0}


def _read_pages(numbered: list[tuple[int, Any]], display: str) -> list[tuple[list[PageLine], dict]]:
    """Each page's lines and figures, page by page (`pdf_limits.in_parts` gives each process its
    run of pages)."""
    done = []
    for no, page in numbered:
        stats = _new_stats()
        try:
            done.append((_read_page(page, no, stats), stats))
        except InputError:
            raise
        except Exception as exc:
            raise InputError(display, f"page {no}: damaged PDF content ({type(exc).__name__}: {_one_line(exc)})") from None
        finally:
            page.close()
    return done


def _add_stats(stats: dict, page: dict) -> None:
    """A page's figures added to the document's, pages in order (the sizes counted in the order met:
    the body size is the most common, the first met on a tie)."""
    for key in ("chars", "cid", "tables", "cell_headers"):
        stats[key] += page[key]
    for key in ("doubled", "columns"):
        stats[key].update(page[key])
    for key in ("rotated_pages", "uncertain", "imposed"):
        stats[key].extend(page[key])
    stats["sizes"].update(page["sizes"])


def _page_anomalies(reading: Reading, lines: list[PageLine], stats: dict) -> None:
    if stats["doubled"]:
        count = sum(stats["doubled"].values())
        pages = sorted(stats["doubled"])
        reading.anomalies.append(Anomaly(
            "doubled-glyphs", f"{count} glyphs drawn twice at the same place removed (pages {', '.join(map(str, pages))})",
            [ln.no for ln in lines if ln.doubled], "info"))
    for page in stats["uncertain"]:
        reading.anomalies.append(Anomaly(
            "columns-uncertain", f"page {page}: the column structure is uncertain (narrow gutter or short column)",
            [ln.no for ln in lines if ln.page == page], "warning"))
    if stats["imposed"]:
        reading.anomalies.append(Anomaly(
            "pages-imposed", f"{len(stats['imposed'])} landscape sheets hold two pages side by side (a booklet): each read "
            f"as two pages, left then right (sheets {', '.join(map(str, stats['imposed']))})",
            [ln.no for ln in lines if ln.page in stats["imposed"]][:1], "info"))
    rotated = [ln for ln in lines if ln.kind in ("rotated", "vertical")]
    if rotated:
        pages = sorted({ln.page for ln in rotated})
        reading.anomalies.append(Anomaly(
            "rotated-text", f"{len(rotated)} lines of rotated or vertical text set aside (pages {', '.join(map(str, pages))})",
            [ln.no for ln in rotated], "warning"))
    reading.evidence.update({
        "columns": dict(stats["columns"]), "cid": stats["cid"], "chars": stats["chars"],
        "doubled_glyphs": sum(stats["doubled"].values()), "tables": stats["tables"],
        "table_header_cells": stats["cell_headers"], "imposed_pages": list(stats["imposed"]),
        "median_columns": statistics.median(stats["columns"].values()) if stats["columns"] else 0,
    })


READERS.add("pdf", Reader("pdf", (".pdf",), read_pdf), priority=10)
