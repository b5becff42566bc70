"""PDF lines to light Markdown: running heads set aside, heading levels from font sizes and weight,
paragraphs joined (hyphenation undone), list items and steps marked, unknown glyphs repaired or reported."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from extract.model import Anomaly, Line, SetAside
from extract.numbering import numbered_heading_depth
from extract.patterns import DANGLING, INDEX_PAGES_LINE, LEADER_LINE, is_address, is_cover_line, without_enumerator
from extract.read import Reading
from extract.read.cell_rows import CELL_HEAD, CELL_HEADER
from extract.read.contents import LEADER_SPACE_AT, SPACE_LEADER, contents_runs
from extract.read.pdf_layout import PageLine, Segment
from extract.read.spacing import row_gaps
from extract.text import inline

BULLETS = "•●○◦■□▪▫◆◇♦➢➤►▶▸❱❯✓✔✗☐·∙⁃*-–—"
BULLET = re.compile(rf"^\s*([{re.escape(BULLETS)}]|[\ue000-\uf8ff])\s*")
STEP = re.compile(r"^(\d{1,2})\s?[.)•]\s+(?=\S)")
PAGE_NO = re.compile(
    r"^(?:(?:page|p\.)\s*)?\d{1,4}(?:\s*(?:/|sur|of|de)\s*\d{1,4})?$"
    r"|^[A-Za-z]{0,5}\d{0,3}[-–]\s*\d{1,4}\s*/\s*\d{1,4}$"
    r"|^[-–—]\s*\d{1,4}\s*[-–—]$",
    re.IGNORECASE,
)
TERMINAL = (".", "!", "?", ":", "…", "»", ";")
CID = re.compile(r"\(cid:\d+\)")
CID_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]*+(?:\(cid:\d++\)[^\W\d_]*+)++")
LIGATURES = ("ffi", "ffl", "ff", "fi", "fl")
DAMAGE = set("ŁłØøıˆ˘ˇ˙˚˛˜˝ÐÞþð\ufffd") | {chr(c) for c in range(0x80, 0xA0)}
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
# A LaTeX font in T1 encoding without a Unicode map, read as Adobe's standard encoding: "RŁgles",
# "quantitØ", "dØg(cid:226)ts" (T1 puts è, é, ê at the codes where the standard encoding has Ł, Ø,
# Œ, and à, â, î, ô where it has nothing). Its signature: Ł or Ø inside French words.
T1_SIGNATURE = re.compile(r"[a-zà-ÿ][ØŁ]|[ØŁ][a-zà-ÿ]")
T1_SIGNATURE_WORDS = 3
T1_FROM_STANDARD = {"Ø": "é", "Ł": "è", "Œ": "ê", "º": "ë", "ø": "ù", "ß": "û", "¨": "È", "˚": "Ê", "˙": "Ç"}
T1_CODES = {13: "‚", 16: "“", 17: "”", 18: "„", 19: "«", 20: "»", 21: "–", 22: "—", 27: "ff", 28: "fi", 29: "fl",
            30: "ffi", 31: "ffl", **{n: chr(n) for n in range(0xC0, 0x100)}, 0xD7: "Œ", 0xDF: "SS", 0xF7: "œ", 0xFF: "ß"}
T1_GLYPH = re.compile(r"\(cid:(\d+)\)|(?<=[^\W\d_])[ØŁŒºøß¨˚˙]|[ØŁŒºøß¨˚˙](?=[^\W\d_])")
# What a heading carried over to the next page adds to its title.
CONTINUED = re.compile(r"^[(\[]?\s*(?:suite|fin|cont(?:inued|inuation|\.)?|continua(?:tion|ción)|fortsetzung)\s*[)\]]?\W*$",
                       re.IGNORECASE)


@dataclass
class Unit:
    """One output line in the making: printed lines joined."""

    lines: list[PageLine]
    role: str  # heading | item | step | text | table
    level: int = 0
    segments: list[Segment] = field(default_factory=list)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"\d+", "#", text.lower()).split())


def running_heads(lines: list[PageLine], pages: int, body: float | None = None) -> list[Anomaly]:
    """Lines repeated in the top or bottom band of several pages, and bare page numbers there. A line
    repeated only with another number on each page ("Chapitre 1", "Chapitre 2"…) in a type larger
    than the text (`body`) is a heading opening each page, not a running header ("Page 3 – Règles")."""
    band: dict[str, set[int]] = defaultdict(set)
    exact: dict[str, set[int]] = defaultdict(set)
    on_page: dict[int, set[str]] = defaultdict(set)
    band_sizes: dict[str, set[float]] = defaultdict(set)
    candidates = []
    for ln in lines:
        if ln.kind != "text" or not ln.text:
            continue
        height = ln.extra.get("height", 842.0)
        where = "header" if ln.bottom < 0.1 * height else "footer" if ln.top > 0.9 * height else None
        if where:
            candidates.append((ln, where))
            band[_norm(ln.text)].add(ln.page)
            exact[" ".join(ln.text.lower().split())].add(ln.page)
            on_page[ln.page].add(_norm(ln.text))
            band_sizes[_norm(ln.text)].add(round(ln.size))
    need = max(2, math.ceil(0.25 * pages))
    found: dict[str, list[int]] = defaultdict(list)
    chapter_heads = _chapter_heads(lines, candidates, body)
    for ln, where in candidates:
        key = _norm(ln.text)
        if id(ln) in chapter_heads:
            ln.kind, ln.reason = "furniture", f"running {where} naming the chapter"
            found[ln.text].append(ln.no)
            continue
        # only band lines in the header's own type hold part of it: a cover title in large type
        # ("Corsaires de" over "Brume") is no piece of the small header "Corsaires de Brume"
        same_type = {other: found_on for other, found_on in band.items()
                     if other == key or band_sizes[other] & {round(ln.size)}}
        pages_with = band[key] | _pages_holding_part(key, same_type, on_page, need)
        if PAGE_NO.match(ln.text.strip()):
            ln.kind, ln.reason = "furniture", "page number"
            found["page numbers"].append(ln.no)
        elif len(pages_with) >= need and not (
                body is not None and ln.size >= body * 1.12 + 0.2 and len(exact[" ".join(ln.text.lower().split())]) < need):
            ln.kind, ln.reason = "furniture", f"running {where} repeated on {len(pages_with)} pages"
            found[ln.text].append(ln.no)
    if not found:
        return []
    texts = [t for t in found if t != "page numbers"]
    detail = f"set aside: {len(texts)} running header/footer lines" + (f" ({'; '.join(texts[:4])})" if texts else "")
    if "page numbers" in found:
        detail += f"; {len(found['page numbers'])} page numbers"
    return [Anomaly("running-header", detail, sorted(n for ns in found.values() for n in ns), "info")]


BOOK_NAME_PAGES = 2  # a running header's book name is printed in the band of this many pages at least


def _chapter_heads(lines: list[PageLine], candidates: list[tuple[PageLine, str]], body: float | None) -> set[int]:
    """id() of the band lines in a type smaller than the text that name the chapter of their page: a
    heading printed larger on that page or the next ("TOUR DE JEU" over the page where the chapter
    "TOUR DE JEU" opens or goes on), alone or after the book's name ("Le Jardin des Lucioles
    PRÉSENTATION"); and that name printed alone in the band of another page."""
    if body is None:
        return set()
    banded = {id(ln) for ln, _ in candidates}
    headings: dict[int, set[str]] = defaultdict(set)
    for ln in lines:
        if ln.kind == "text" and id(ln) not in banded and ln.size >= body * 1.12 + 0.2:
            headings[ln.page].add(_norm(ln.text))
    found: set[int] = set()
    prefixed: dict[str, list[PageLine]] = defaultdict(list)  # a book's name -> the band lines it opens
    small = [(ln, _norm(ln.text)) for ln, _ in candidates if ln.size < body]
    for ln, key in small:
        named = headings[ln.page] | headings[ln.page + 1]
        if key in named:
            found.add(id(ln))
            continue
        for heading in named:
            if key.endswith(f" {heading}"):
                prefixed[key[:-len(heading) - 1]].append(ln)
                break
    # A book's name stands in the band of two pages at least, alone or before a chapter's name (the
    # name printed twice on a row reads as one line): a line of one page ending on a heading's words
    # (a footnote) names no chapter.
    names = {name for name in prefixed
             if len({ln.page for ln, key in small if f" {name} " in f" {key} "}) >= BOOK_NAME_PAGES}
    for prefix, heads in prefixed.items():
        rest = f" {prefix} "
        for name in sorted(names, key=len, reverse=True):
            while f" {name} " in rest:
                rest = rest.replace(f" {name} ", " ")
        if not rest.strip():
            found |= {id(ln) for ln in heads}
    found |= {id(ln) for ln, key in small if key in names}
    return found


def _pages_holding_part(key: str, band: dict[str, set[int]], on_page: dict[int, set[str]], need: int) -> set[int]:
    """The pages whose band line holds `key` whole, words intact: a header the column cut of one page
    split in two ("14/03/2025 10:42 Titre" | "https://…") is the same header as the full line printed
    on the other pages. The longer line counts only where it is such a header: its rest stands in
    pieces beside `key` on a page of `key` (the cut), or it repeats on enough pages by itself. A heading
    the next page continues ("Mise en place" | "Mise en place (suite)") is neither: no header. Only
    parts of some length count: a short word could be in any header."""
    if len(key) < 12:
        return set()
    pages: set[int] = set()
    for other, where in band.items():
        if other == key or f" {key} " not in f" {other} ":
            continue
        rest = " ".join(f" {other} ".replace(f" {key} ", " ", 1).split())
        if CONTINUED.match(rest):
            continue
        if len(where) >= need or any(_made_of_pieces(rest, on_page[p] - {key, other}) for p in band[key]):
            pages |= where
    return pages


def _made_of_pieces(rest: str, pieces: set[str]) -> bool:
    """Whether `rest` is the other band lines of a page laid end to end, words intact."""
    left = f" {rest} "
    for piece in sorted(pieces, key=len, reverse=True):
        if f" {piece} " in left:
            left = left.replace(f" {piece} ", " ", 1)
    return not left.strip()


def _headlike(text: str) -> bool:
    return 0 < len(text) <= 120 and len(text.split()) <= 16 and not text.rstrip().endswith((".", ",", ";"))


def heading_sizes(lines: list[PageLine], body: float) -> list[float]:
    per_size: dict[float, list[bool]] = defaultdict(list)
    for ln in lines:
        if ln.kind == "text" and ln.size >= body * 1.12 + 0.2 and any(c.isalpha() for c in ln.text):
            per_size[ln.size].append(_headlike(ln.text))
    sizes = [s for s, marks in per_size.items() if sum(marks) >= 0.6 * len(marks)]
    return sorted(sizes, reverse=True)


MAX_LEVEL = 6
SAME_TYPE = (1.0, 0.06)  # heading sizes this close (points, or this share of the size) are one type, one level


def size_levels(sizes: list[float]) -> dict[float, int]:
    """Each heading size (largest first) -> its level: the document's own types ranked, sizes a
    point or so apart (16 and 17, a title set a little larger on one page) one type."""
    return dict(_size_levels(tuple(sizes)))


@lru_cache(maxsize=64)
def _size_levels(sizes: tuple[float, ...]) -> tuple[tuple[float, int], ...]:
    levels: dict[float, int] = {}
    level, largest = 0, None  # the largest size of the type being ranked: sizes are near it, not each other
    for size in sorted(sizes, reverse=True):
        if largest is None or largest - size > max(SAME_TYPE[0], SAME_TYPE[1] * largest):
            level += 1
            largest = size
        levels[size] = min(level, MAX_LEVEL)
    return tuple(levels.items())


def _level(size: float, sizes: list[float]) -> int:
    for s, level in _size_levels(tuple(sizes)):
        if abs(size - s) < 0.3:
            return level
    return 0


def _levels_below(sizes: list[float]) -> int:
    """The level of a heading in the text's own size (bold): below every level the sizes state."""
    return max(size_levels(sizes).values(), default=0) + 1


def compose(lines: list[PageLine], stats: dict, pages: tuple[int, int]) -> Reading:
    npages = pages[1] - pages[0] + 1
    body = stats["sizes"].most_common(1)[0][0] if stats["sizes"] else 10.0
    anomalies = running_heads(lines, npages, body)
    flow = [ln for ln in lines if ln.reason is None]
    vocab = Counter(w.lower() for ln in flow for w in WORD.findall(CID.sub(" ", ln.text)))
    hyphenated = {w for w in vocab if "-" in w}
    _text_measure(flow)
    _space_leaders(flow, pages[0])
    cover = _cover_lines(flow, body)
    back = _back_matter(flow, body)
    flow = [ln for ln in flow if ln.reason is None]
    sizes = all_sizes = heading_sizes(lines, body)  # a cover's lines (set aside) rank no heading type
    notes = footnotes(flow, body)
    text = [ln for ln in flow if id(ln) not in notes]
    title, block = _title_block(text, sizes)
    units: list[Unit] = []
    if title and text[block].page != text[0].page:
        # A cover page holding the title alone (its subtitle, credits aside): the book's name heads
        # no text, so it makes no entry either, one without text beside the sections.
        for ln in text[:title]:
            ln.kind, ln.reason = "furniture", COVER_ALONE
    elif title:
        # The cover's title is a heading of the first level that no section's type ranks below:
        # the sections are its siblings. Its subtitle is set aside, a name of the book and no rule.
        units.append(Unit([text[0]], "heading", 1, list(text[0].segments)))
        for ln in text[1:title]:
            _append(units[0], ln, hyphenated)
    if title:
        for ln in text[title:block]:
            ln.kind, ln.reason = "furniture", "subtitle in the cover's title block"
        # the cover's types rank no section, unless the sections use them too (a subtitle in 11 pt
        # regular, the sections in 11 pt bold)
        sizes = [size for size in sizes if not any(abs(size - ln.size) < 0.3 for ln in text[:block])
                 or any(abs(size - ln.size) < 0.3 for ln in text[block:])]
    units += _units(text[block:], body, sizes, hyphenated)
    if title and units and units[0].lines[0] is text[0]:
        # ... their sibling whatever their level: a type larger than the chapters' used once further on
        # (a reference card's title) ranks them second, and a title at the first level would hold them
        following = next((u.level for u in units[1:] if u.role == "heading"), units[0].level)
        units[0].level = max(units[0].level, following)
    units, repeated = _repeated_titles(units)
    title_unit = _document_title(units)
    if title_unit is not None:
        title_text = " ".join("".join(seg[0] for seg in title_unit.segments).split())
        anomalies.append(Anomaly("document-title", f"« {title_text} » (page {title_unit.lines[0].page}), the only heading "
                                 "in the document's largest type, is its title: a sibling of the sections, never their "
                                 "parent", [title_unit.lines[0].no], "info"))
    if repeated:
        anomalies.append(Anomaly("heading-repeated", f"{len(repeated)} headings opening a page repeat the chapter "
                                 "going on from the page before (a title printed across a spread, a banner): set "
                                 "aside, the chapter goes on: " + "; ".join(repeated[:4]),
                                 [], "info"))
    units, moved = _place_footnotes(units, flow, notes, body, sizes, hyphenated)
    if moved:
        anomalies.append(Anomaly("footnote", f"{len(moved)} footnotes (small type at the foot of the page) kept "
                                 "whole after the paragraph holding their mark, not inside the sentence they interrupt: "
                                 + "; ".join(moved[:6]), sorted(notes.values())[:50], "info"))
    out: list[Line] = []
    repairs: list[tuple[int, str, str]] = []
    rendered = [_render(unit) for unit in units]
    signed = _t1_signed(rendered)
    t1: list[tuple[int, str, str]] = []  # (line, word as read, word read as T1)
    if signed >= T1_SIGNATURE_WORDS:
        rendered = [_repair_t1(text, unit.lines[0].no, t1) for unit, text in zip(units, rendered, strict=True)]
    codes = _ligature_codes([t for t in rendered if "(cid:" in t], vocab) if stats["cid"] else {}
    boxes: dict[tuple, int] = {}  # a shaded box's place -> its number in the document
    gaps = row_gaps(flow, [unit.lines[0] for unit in units])
    for unit, text in zip(units, rendered, strict=True):
        if "(cid:" in text and codes:
            text = _repair(text, codes, repairs, unit.lines[0].no)
        first = unit.lines[0]
        box = boxes.setdefault(first.extra["box"], len(boxes) + 1) if "box" in first.extra else None
        out.append(Line(first.no, text, page=first.page, covers=tuple(ln.no for ln in unit.lines[1:]),
                        x=round(first.x0, 1), y=round(first.top, 1), size=first.size, bold=first.bold, box=box,
                        gap_above=gaps[id(first)][0], gap_below=gaps[id(first)][1],
                        not_heading=CELL_HEAD if first.extra.get(CELL_HEADER) else None))
    set_aside = _ranges([ln for ln in lines if ln.reason is not None])
    anomalies += _glyph_anomalies(out, stats, repairs)
    if t1:
        shown = "; ".join(f"{a} → {b}" for _, a, b in t1[:8])
        anomalies.append(Anomaly("encoding-repaired", f"a font in LaTeX's T1 encoding was read as the standard encoding "
                                 f"(Ł, Ø inside {signed} words): {len(t1)} words read again as T1: {shown}",
                                 sorted({no for no, _, _ in t1})[:50], "warning"))
    if cover:
        anomalies.append(Anomaly("cover-lines", f"{len(cover)} lines of a cover (who plays, from what age, how long) set "
                                 f"aside, never headings: {'; '.join(cover[:4])}", [], "info"))
    if back:
        anomalies.append(Anomaly("back-matter", f"{len(back)} lines of the back page's credits and adverts set aside "
                                 f"under « {back[0].text} » (page {back[0].page}), never rules: "
                                 + "; ".join(ln.text for ln in back[1:5]), [ln.no for ln in back][:50], "info"))
    headings = sum(1 for u in units if u.role == "heading")
    evidence = {"body_size": body, "heading_sizes": all_sizes, "headings": headings,
                "heading_levels": len({u.level for u in units if u.role == "heading"}),
                "cid_repaired": len(repairs)}
    return Reading("pdf", out, set_aside, anomalies, evidence=evidence)


def leaflet_order(lines: list[PageLine], body: float) -> list[int] | None:
    """The pages in reading order when the document opens mid-chapter and its title stands on a later
    page: a leaflet whose outside (cover, first chapters) is printed second. The title: the only line in
    the document's largest type, on a page that also opens a chapter in the top type of the sections;
    mid-chapter: the first page's first heading-like line (bold, or larger than the text) is in a type
    below the sections' top type ("3. Jouer une carte" before any chapter). Reading starts at the
    title's page and goes round. None when the pages are in order, or when the title's page does not look
    like a cover (text printed above the title in its column and no cover line: a callout on a rules
    page)."""
    text = [ln for ln in lines if ln.kind == "text" and ln.reason is None and any(c.isalpha() for c in ln.text)]
    pages = sorted({ln.page for ln in lines})
    if len(pages) < 2 or not text:
        return None
    largest = max(ln.size for ln in text)
    titles = [ln for ln in text if abs(ln.size - largest) < 0.3]
    if len(titles) != 1 or titles[0].page == pages[0]:
        return None
    title = titles[0]
    on_title_page = [ln for ln in text if ln.page == title.page]
    # the title's page looks like a cover: the title at the top of its panel (no text above it in its
    # column), or the page names who plays, from what age, how long; a unique large callout in
    # mid-page is no title
    above = [ln for ln in on_title_page if ln.bottom <= title.top and ln.x1 > title.x0 and ln.x0 < title.x1]
    if above and not any(is_cover_line(ln.text) for ln in on_title_page):
        return None
    sections = [ln.size for ln in text if ln is not title and ln.size >= body * 1.12 + 0.2 and _headlike(ln.text)]
    if not sections:
        return None
    top = max(sections)
    opening = next((ln for ln in text if ln.page == pages[0] and (ln.bold or ln.size >= body * 1.12 + 0.2)
                    and _headlike(ln.text)), None)
    if opening is None or opening.size >= top - 0.3:
        return None
    if not any(ln.page == title.page and abs(ln.size - top) < 0.3 for ln in text):
        return None
    at = pages.index(title.page)
    return pages[at:] + pages[:at]


TITLE_SIBLINGS = 2  # a document title stands above this many headings at least


def _document_title(units: list[Unit]) -> Unit | None:
    """The document's title, ranked as a sibling of the sections it would otherwise enclose: the only
    heading in a type ranked above every other heading's, wherever it is printed (a cover read first,
    after a running header, or in mid-document: a leaflet whose cover is its second page). A title
    names the book; it is never a chapter holding the rules. None when there is no such heading."""
    headings = [u for u in units if u.role == "heading"]
    if len(headings) <= TITLE_SIBLINGS:
        return None
    top = min(u.level for u in headings)
    at_top = [u for u in headings if u.level == top]
    if len(at_top) != 1:
        return None
    title = at_top[0]
    title.level = min(u.level for u in headings if u is not title)
    return title


REPEATED_TITLE = "a heading repeating the chapter going on from the page before"


def _repeated_titles(units: list[Unit]) -> tuple[list[Unit], list[str]]:
    """Units without the headings that open a page by repeating, word for word and at its level,
    the heading of the chapter going on from the page before (no heading of that level or above
    since): a title printed across a two-page spread, a chapter's banner on each of its pages. The
    chapter goes on; its lines are set aside with their reason."""
    kept: list[Unit] = []
    repeated: list[str] = []
    open_at: dict[int, tuple[str, int]] = {}  # level -> (title, page) of the heading open at that level
    page_opened = 0
    for unit in units:
        first = unit.lines[0]
        opens_page = first.page != page_opened
        page_opened = first.page
        if unit.role != "heading":
            kept.append(unit)
            continue
        title = " ".join("".join(seg[0] for seg in unit.segments).split())
        before = open_at.get(unit.level)
        if opens_page and before is not None and before == (title, first.page - 1):
            for ln in unit.lines:
                ln.kind, ln.reason = "furniture", REPEATED_TITLE
            repeated.append(f"{title} (page {first.page})")
            open_at[unit.level] = (title, first.page)
            continue
        open_at = {level: at for level, at in open_at.items() if level < unit.level}
        open_at[unit.level] = (title, first.page)
        kept.append(unit)
    return kept, repeated


COVER_LINE = "cover block: who plays, from what age, how long (not a heading)"


def _cover_lines(flow: list[PageLine], body: float) -> list[str]:
    """The lines of a cover block ("De 3 à 5 joueurs", "10 ans et +", "30 min"), printed as a heading
    would be (larger than the text, or bold and alone): set aside, a cover and no parent of the rules."""
    found = []
    for ln in flow:
        if ln.kind == "text" and (ln.size >= body * 1.12 + 0.2 or ln.bold) and is_cover_line(ln.text):
            ln.kind, ln.reason = "furniture", COVER_LINE
            found.append(ln.text)
    front = min((ln.page for ln in flow), default=0)
    for run in _short_runs(flow):
        if run[0].page == front and any(is_cover_line(ln.text) for ln in run) \
                and not any(ln.text.rstrip().endswith(SENTENCE_ENDS) for ln in run):
            for ln in run:
                if ln.reason is None:
                    ln.kind, ln.reason = "furniture", COVER_LINE
                    found.append(ln.text)
    return found


# The title of a book's back matter, printed as a heading on its last page: its credits ("Crédits",
# "Remerciements") or the publisher's adverts ("Retrouvez nos autres jeux", "Du même auteur").
BACK_MATTER = re.compile(
    r"^(?:(?:cr[ée]dits|remerciements)(?:\s(?:&|et)\s(?:cr[ée]dits|remerciements))?\s?:?"
    r"|(?:(?:retrouvez|d[ée]couvrez)(?:\s(?:aussi|également|tous))?\s(?:nos|les)\s(?:autres\s)?(?:jeux|titres|gammes?)"
    r"|nos\sautres\s(?:jeux|titres)|du\sm[êe]me\s(?:auteur|éditeur|editeur|illustrateur)"
    r"|dans\sla\sm[êe]me\s(?:collection|gamme))\b[^.:;!?]{0,40}+[:!]?)$", re.IGNORECASE)
BACK_MATTER_REASON = "back matter: the last page's credits and adverts, from their title to the next section (not rules)"


def _back_matter(flow: list[PageLine], body: float) -> list[PageLine]:
    """The back matter closing the book: from a line printed as a heading (bold, or larger than the
    text) on the last page whose words title credits or adverts (`BACK_MATTER`), set aside up to the
    next heading in its type or a larger one not itself worded as back matter (a game whose currency
    is "Crédits" goes on with its rules), or to the end: the names of a team and the pitches of other
    games are no rules, and their titles no sections. On a one-page document (a rules sheet with a
    credits box) only credits closing the page are set aside: a heading after them is the sheet's."""
    last = max((ln.page for ln in flow), default=0)
    for at, ln in enumerate(flow):
        if ln.page == last and _back_title(ln, body):
            end, title = len(flow), ln
            for k in range(at + 1, len(flow)):  # each title of back matter ("Retrouvez nos autres jeux") the new measure
                if _next_section(flow[k], title):
                    end = k
                    break
                if _back_title(flow[k], body):
                    title = flow[k]
            if end < len(flow) and all(other.page == last for other in flow if other.reason is None):
                return []
            found = [other for other in flow[at:end] if other.reason is None]
            for other in found:
                other.kind, other.reason = "furniture", BACK_MATTER_REASON
            return found
    return []


def _back_title(ln: PageLine, body: float) -> bool:
    """Whether `ln` is printed as a heading (bold, or larger than the text) worded as back matter's."""
    return ln.kind == "text" and ln.reason is None and (ln.bold or ln.size >= body * 1.12 + 0.2) \
        and bool(BACK_MATTER.match(" ".join(ln.text.split())))


def _next_section(ln: PageLine, title: PageLine) -> bool:
    """Whether `ln` heads a section after the back matter last titled by `title`: a heading in the
    title's type or a larger one (the team's labels and the adverts' game names are smaller) whose
    words title no more back matter."""
    return ln.kind == "text" and ln.reason is None and ln.size >= title.size - 0.3 and (ln.bold or not title.bold) \
        and _headlike(ln.text) and not BACK_MATTER.match(" ".join(ln.text.split()))


COVER_BLOCK_WORDS = 6  # each line of a cover's block ("Un jeu coopératif" | "pour des équipages" | "de 2 à 8 joueurs") is short
SENTENCE_ENDS = (".", "!", "?", ";", ",", ":")  # a cover's block states facts; a paragraph's lines end sentences


def _stacked(prev: PageLine, ln: PageLine) -> bool:
    """Whether `ln` is the next line of `prev`'s block: same column, same type, a line's spacing under it."""
    return prev.page == ln.page and prev.block == ln.block and abs(prev.size - ln.size) < 0.6 \
        and 0 <= ln.top - prev.bottom <= 0.8 * ln.size


def _short_runs(flow: list[PageLine]) -> list[list[PageLine]]:
    """The blocks of two short lines or more stacked in one column at a line's spacing, in one type, no
    list's items: a block such as a cover's (who plays, from what age), each line a few words. A block
    with a longer line is a paragraph (in a narrow column), no run at all."""
    runs: list[list[PageLine]] = []
    run: list[PageLine] = []
    whole = True  # no longer line stacked with the run
    prev: PageLine | None = None
    for ln in flow:
        short = ln.kind == "text" and 0 < len(ln.text.split()) <= COVER_BLOCK_WORDS and not BULLET.match(ln.text)
        stacked = prev is not None and ln.kind == "text" and prev.kind == "text" and _stacked(prev, ln)
        if short and stacked and run:
            run.append(ln)
        else:
            if len(run) > 1 and whole and not stacked:
                runs.append(run)
            whole = not stacked
            run = [ln] if short else []
        prev = ln
    if len(run) > 1 and whole:
        runs.append(run)
    return runs


TITLE_BLOCK_LINES = 6
COVER_ALONE = "the cover's title, alone on its page: the book's name, heading no text"


def _title_block(flow: list[PageLine], sizes: list[float]) -> tuple[int, int]:
    """A cover's title block: (title lines, title and subtitle lines) opening `flow`, (0, 0) if none.
    The title: the first lines, in the document's largest type, used nowhere else (a title wrapped
    over lines). The subtitle after it: short lines in a type the rest of the book never uses, or a
    plain line or two, up to the first section heading (by size or weight). Only when a heading by
    size follows: otherwise the title heads the book."""
    def same(a: float, b: float) -> bool:
        return abs(a - b) < 0.3

    def run_end(at: int) -> int:  # the end of the run of short lines in the type of flow[at]
        end = at
        while (end < len(flow) and end - at < TITLE_BLOCK_LINES and flow[end].kind == "text"
               and flow[end].page == flow[0].page and same(flow[end].size, flow[at].size) and _headlike(flow[end].text)):
            end += 1
        return end

    if not flow or not sizes or flow[0].kind != "text" or not same(flow[0].size, sizes[0]):
        return 0, 0
    title = run_end(0)
    if title == 0 or any(same(ln.size, sizes[0]) for ln in flow[title:]):
        return 0, 0  # the largest type heads chapters too: no cover title
    end = title
    while end < len(flow) and end - title < TITLE_BLOCK_LINES:
        run = run_end(end)
        ln = flow[end]
        # a type is its size and weight: a subtitle in 11 pt regular under headings in 11 pt bold is unique
        unique = not any(same(other.size, ln.size) and other.bold == ln.bold for other in flow[run:])
        plain = not ln.bold and not _level(ln.size, sizes) and run - end <= 2
        if run == end or run >= len(flow) or not (unique or plain):
            break
        end = run
    while end > title and not _opens_section(flow[end], sizes):
        end -= 1  # the block's last lines were the text's, not a subtitle
    ends = [ln.size for ln in flow[:end]]
    if not any(_level(ln.size, sizes) and not any(same(ln.size, size) for size in ends) for ln in flow[end:]):
        return 0, 0
    return title, end


def _opens_section(ln: PageLine, sizes: list[float]) -> bool:
    return ln.kind == "text" and (bool(_level(ln.size, sizes)) or ln.bold)


def _text_measure(flow: list[PageLine]) -> None:
    """Each block's right edge as its text reaches it, once running heads are set aside: on a last page
    whose text fills the left column only, the header spanning the page is no measure of its lines."""
    right: dict[tuple[int, int], float] = {}
    for ln in flow:
        if ln.kind == "text":
            key = (ln.page, ln.block)
            right[key] = max(right.get(key, 0.0), ln.x1)
    for ln in flow:
        edge = right.get((ln.page, ln.block))
        if edge is not None and ln.block_x0 < edge < ln.block_x1:
            ln.block_x1 = edge


CONTENTS_PAGES = 3  # a contents list is printed within the book's first pages


def _space_leaders(flow: list[PageLine], first_page: int) -> None:
    """Mark the lines of a contents list whose leaders are blank (`page_after_gap`): in one column
    of the first pages, as `contents_runs` finds them. Each stays a line of its own with its gap
    kept (SPACE_LEADER), as a contents line with dotted leaders does."""
    def candidate(ln: PageLine) -> bool:
        return bool(ln.extra.get("page_after_gap")) and ln.page < first_page + CONTENTS_PAGES

    def together(a: PageLine, b: PageLine) -> bool:
        return (a.page, a.block) == (b.page, b.block)

    for run in contents_runs(flow, candidate, together, lambda ln: ln.text):
        for line in run:
            line.extra["contents"] = True


NOTE_MARK = re.compile(r"^(?P<mark>[¹²³⁴⁵⁶⁷⁸⁹⁰]+|\*{1,3}|[†‡]|\d{1,2}(?=[.)]?\s+[A-ZÀ-Ý]))[.)]?\s*\S")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def footnotes(flow: list[PageLine], body: float) -> dict[int, int]:
    """The lines of footnotes: small type (below the text's size) at the foot of its page, opening
    on a note mark (¹, *, †, or a number), with the small lines after it; nothing printed in
    the text's size below them on that page. id of each line -> line number of its note's first line."""
    found: dict[int, int] = {}
    by_page: dict[int, list[PageLine]] = defaultdict(list)
    for ln in flow:
        by_page[ln.page].append(ln)
    for page_lines in by_page.values():
        for i, ln in enumerate(page_lines):
            small = ln.kind == "text" and ln.size <= body - 1
            height = ln.extra.get("height", 842.0)
            if not small or ln.top < 0.6 * height or not NOTE_MARK.match(ln.text) or id(ln) in found:
                continue
            rest = page_lines[i + 1:]
            below = [x for x in rest if x.top >= ln.top - 1]
            if any(x.size > body - 1 or x.kind != "text" for x in below):
                continue
            for x in [ln, *below]:
                found[id(x)] = ln.no
    return found


def _place_footnotes(units: list[Unit], flow: list[PageLine], notes: dict[int, int], body: float,
                     sizes: list[float], hyphenated: set[str]) -> tuple[list[Unit], list[str]]:
    """Each footnote (its lines joined) put after the unit on its page that holds its mark, else after
    the paragraph the page break left it in: the sentence it interrupted stays whole."""
    if not notes:
        return units, []
    note_lines = [ln for ln in flow if id(ln) in notes]
    notes_units = _units(note_lines, body, [], hyphenated)
    for unit in notes_units:
        unit.role, unit.level = "text", 0
    moved = []
    out = list(units)
    for note in notes_units:
        first = note.lines[0]
        mark = NOTE_MARK.match(first.text).group("mark")
        marks = {mark, mark.translate(SUPERSCRIPT)}
        before = [u for u in out if u.role != "table" and u.lines[0].no < first.no]
        holder = next((u for u in reversed(before) if u.lines[0].page <= first.page <= u.lines[-1].page
                       and any(m in "".join(seg[0] for seg in u.segments)[1:] for m in marks if not m.isascii())), None)
        if holder is None:  # the paragraph that was running where the note is printed
            holder = next((u for u in reversed(before) if any(ln.no < first.no for ln in u.lines)), None)
        at = out.index(holder) + 1 if holder is not None else 0
        out.insert(at, note)
        moved.append(f"{mark} (line {first.no})" + (f" after line {holder.lines[0].no}" if holder else ""))
    return out, moved


def _ranges(lines: list[PageLine]) -> list[SetAside]:
    out: list[SetAside] = []
    for ln in sorted(lines, key=lambda x: x.no):
        if out and out[-1].reason == ln.reason and out[-1].lines[1] == ln.no - 1:
            out[-1].lines = (out[-1].lines[0], ln.no)
        else:
            out.append(SetAside((ln.no, ln.no), ln.reason or "set aside"))
    return out


# A line ending on a colon that opens on these words leads in to what follows ("Pour chaque équipe :",
# "Si vous jouez à deux :"): a sentence announcing a list, not a heading.
LEAD_IN_OPENERS = frozenset("pour dans si lorsque lorsqu quand chaque il elle ils elles on vous nous".split())
LEAD_IN_WORDS = 4  # a line ending on a colon with more words is a sentence announcing what follows (a title in
# capitals is no sentence whatever its length: "JEU AU TOUR PAR TOUR :")
FIRST_WORD = re.compile(r"[^\W\d_]++")
STOPS = "a piece of a sentence (stops mid-sentence)"
SECTION_NUMBER = re.compile(r"\A\d{1,3}+(?:\.\d{1,3}+)++\.?\s")  # "3.2.1. Est considérée comme forfait :" is an article
CUT_AFTER = DANGLING - {"un", "une"}  # as printed, in lower case ("Section D" ends on no "d"); "Chapitre un" is a title


def worded_as_no_heading(text: str) -> str | None:
    """Why a line printed as a heading reads as none, whatever its type, or None: an address (a web
    site, an e-mail, a telephone: an advert's or a cover's contact line), a piece of a sentence (it
    opens in lower case, or stops on a hyphen, a comma or a word a sentence goes on after: a line of
    a cover's or an advert's text in large type), or a sentence leading in to a list ("Pour chaque
    équipe :", "Pour déclencher un système, le Capitaine doit :")."""
    words = text.split()
    if not words:
        return None  # no words: nothing to read as a sentence (a blank line is no heading anyway)
    first = FIRST_WORD.search(without_enumerator(text.lstrip()))
    if is_address(text):
        return "an address"
    if first is not None and first.group(0)[0].islower():
        return "a piece of a sentence (opens in lower case)"
    if re.search(r"[^\W\d_]-$", text) or text.endswith(",") or (len(words) > 1 and words[-1] in CUT_AFTER):
        return STOPS
    count = len(words) - (words[-1] == ":")  # "Pour chaque équipe :" is three words
    if text.endswith(":") and not SECTION_NUMBER.match(text) and (
            "," in text or (count > LEAD_IN_WORDS and not text.isupper())
            or (first is not None and first.group(0).lower() in LEAD_IN_OPENERS)):
        return "a sentence leading in to what follows"
    return None


def _title_continues(ln: PageLine, nxt: PageLine | None) -> bool:
    """Whether `nxt` is the next line of a title `ln` wrapped over lines: right under it, in its type."""
    return (nxt is not None and nxt.kind == "text" and nxt.page == ln.page and nxt.block == ln.block
            and abs(nxt.size - ln.size) < 0.6 and nxt.bold == ln.bold and 0 <= nxt.top - ln.bottom <= 0.6 * ln.size)


def _role(ln: PageLine, prev: PageLine | None, nxt: PageLine | None, body: float, sizes: list[float],
          head: Unit | None = None, pairs: tuple[bool, bool] = (False, False)) -> tuple[str, int]:
    """`pairs`: whether `prev` and `ln`, and `ln` and `nxt`, are the only two lines of a run in one
    type (`_two_line_runs`), where a longer title may be wrapped."""
    if ln.kind == "table":
        return "table", 0
    if ln.extra.get(CELL_HEADER):
        return "text", 0  # a table's column head (`cell_rows`): no heading
    text = ln.text
    why = worded_as_no_heading(text) if ln.bold or ln.size >= body * 1.12 + 0.2 else None
    if why and not (why == STOPS and _title_continues(ln, nxt)) and not (prev is not None and _wrapped_title(prev, ln, pairs[0])):
        return "text", 0  # a title wrapped after "des" goes on; its last line may open in lower case
    level = _level(ln.size, sizes) if ln.size >= body * 1.12 + 0.2 else 0
    runs_on = (nxt is not None and nxt.kind == "text" and nxt.page == ln.page and nxt.block == ln.block
               and nxt.text[:1].islower() and abs(nxt.size - ln.size) < 0.6 and 0 <= nxt.top - ln.bottom <= 0.6 * ln.size
               and not _wrapped_title(ln, nxt, pairs[1]))
    if level and _headlike(text) and any(c.isalpha() for c in text) and not runs_on:
        return "heading", level
    marker = BULLET.match(text)
    letters = [c for c in (text[marker.end():] if marker else text) if c.isalpha()]
    # A bold line opening with a section number ("1.1 Matériel") is a heading even when printed
    # smaller than the text (browser print styles); its numbering depth gives its level, below the
    # levels the font sizes state.
    depth = numbered_heading_depth(text) if ln.bold and ln.size >= 0.7 * body else None
    if (ln.bold and (body - 0.6 < ln.size or depth) and ln.size < body * 1.12 + 0.2 and _headlike(text)
            and not (_ends_bold_sentence(ln, prev) and not (head is not None and head.role == "heading" and prev in head.lines))
            and len(text) <= 80 and len(text.split()) <= 12
            and letters and (not marker or (text[0] not in "-–—*" and sum(c.isupper() for c in letters) >= 0.8 * len(letters)))
            # over plain text, or over a table it names ("Terrain" over the terrain table of a quick reference)
            and nxt is not None and (nxt.kind == "table" or (nxt.kind == "text" and not nxt.bold) or _title_goes_on(ln, nxt))
            and nxt.top > ln.bottom - 1):
        return "heading", _text_size_level(sizes, depth)
    if _italic_title(ln, prev, nxt, body):
        return "heading", _text_size_level(sizes, numbered_heading_depth(text))
    continues = (prev is not None and prev.kind == "text" and prev.page == ln.page and prev.block == ln.block
                 and not _ends_paragraph(prev.text) and prev.x1 > prev.block_x1 - 3 * prev.size
                 and not (head is not None and head.role in ("item", "step") and abs(head.lines[0].x0 - ln.x0) < 1.5))
    if marker and not re.match(r"^\s*[-–—]\s*\d", text) and (text[0] not in "-–—*" or text[1:2].isspace()):
        if not (continues and text[0] in "-–—"):
            return "item", 0
    if STEP.match(text) and not continues and "text_x0" not in ln.extra:  # "12)" in the margin labels a paragraph
        return "step", 0
    return "text", 0


def _text_size_level(sizes: list[float], depth: int | None) -> int:
    """The level of a heading printed in the text's size: below every level the document's sizes
    state, or at its decimal number's `depth` when that is deeper."""
    below = _levels_below(sizes)
    return min(max(below, depth), MAX_LEVEL) if depth else min(below, MAX_LEVEL)


ITALIC_TITLE_WORDS = 8  # a sub-heading in the text's italic holds this many words at most
TITLE_ENDS = (".", ",", ";", "!", "?", "…", "»", ":")  # an italic line ending so is a sentence or a note's lead-in


def _all_italic(ln: PageLine) -> bool:
    """Whether every run of `ln` holding a letter is slanted and none bold."""
    runs = [seg for seg in ln.segments if any(c.isalpha() for c in seg[0])]
    return bool(runs) and all(seg[2] and not seg[1] for seg in runs)


def _italic_title(ln: PageLine, prev: PageLine | None, nxt: PageLine | None, body: float) -> bool:
    """Whether `ln` is a sub-heading set in the text's own size in italic ("*Attaques à distance*",
    "*2.2.1 Ordre de la pile*", a style sheet's bold italic drawn from an italic font): a short line
    all italic, at the body size (a figure's caption is printed smaller), ending no sentence, over
    upright text right under it in its column, under no italic line of its paragraph, and after the
    end of a paragraph or a gap (not inside a sentence)."""
    if ln.kind != "text" or abs(ln.size - body) >= 0.3 or not _all_italic(ln):
        return False
    text = ln.text.strip()
    if len(text.split()) > ITALIC_TITLE_WORDS or text.endswith(TITLE_ENDS) or worded_as_no_heading(text):
        return False
    under = (nxt is not None and nxt.kind == "text" and nxt.page == ln.page and nxt.block == ln.block
             and not _all_italic(nxt) and abs(nxt.size - body) < 0.6 and 0 <= nxt.top - ln.bottom <= 1.2 * ln.size)
    close_above = (prev is not None and prev.kind == "text" and prev.page == ln.page and prev.block == ln.block
                   and 0 <= ln.top - prev.bottom <= 0.6 * ln.size)
    same_run = close_above and _all_italic(prev)
    # a sentence going on over it ("consulte la table du livret" | *Tactiques avancées* | "pour
    # connaître…") cites a title: the sub-heading opens after a paragraph's end or apart from it
    in_sentence = close_above and abs(prev.size - ln.size) < 0.6 and not _ends_paragraph(prev.text)
    return under and not same_run and not in_sentence


WRAPPED_TITLE_WORDS = 8  # a title wrapped over two lines in a narrow column holds this many words at most
WRAPPED_TITLE_WORDS_ALONE = 16  # ... and this many when the two lines are all of their type there


def _wrapped_title(ln: PageLine, nxt: PageLine, alone: bool = False) -> bool:
    """Whether the bold line `nxt`, opening in lower case right under `ln` in its type, is the last line
    of a bold title wrapped in a narrow column ("Le matériel" | "nécessaire"): it stops short of the
    margin, and neither line holds a comma or ends a sentence (a paragraph in large type does). A
    title of up to 16 words may wrap so when the two lines stand `alone` in their type ("Interagir
    avec le décor et les terminaux de" | "la station"); a third line in that type makes a paragraph."""
    both = f"{ln.text} {nxt.text}"
    most = WRAPPED_TITLE_WORDS_ALONE if alone else WRAPPED_TITLE_WORDS
    return (_title_continues(ln, nxt) and ln.bold and nxt.bold and len(both.split()) <= most and "," not in both
            and not _ends_paragraph(ln.text) and not _ends_paragraph(nxt.text) and nxt.x1 < nxt.block_x1 - 3 * nxt.size)


def _ends_bold_sentence(ln: PageLine, prev: PageLine | None) -> bool:
    """Whether `ln` is the last line of a bold paragraph: the bold line right above it, in its type and
    column, runs to the margin without ending its sentence ("**Si le point d'impact … de votre
    sous-marin,**" | "vous subissez un dégât !"). A heading stands apart from what is above it."""
    return (prev is not None and prev.kind == "text" and prev.bold and prev.page == ln.page and prev.block == ln.block
            and abs(prev.size - ln.size) < 0.6 and not _ends_paragraph(prev.text)
            and prev.x1 > prev.block_x1 - 3 * prev.size and 0 <= ln.top - prev.bottom <= 0.6 * ln.size)


def _title_goes_on(ln: PageLine, nxt: PageLine) -> bool:
    """Whether the bold line `nxt` is the second and last line of a bold title `ln` wrapped at the
    margin ("RÉPARTITION DES RÔLES EN FONCTION" | "DU NOMBRE DE JOUEURS"): right under it in its type,
    short of the margin, no sentence's end in either."""
    return (nxt.kind == "text" and nxt.bold and nxt.page == ln.page and nxt.block == ln.block
            and abs(nxt.size - ln.size) < 0.6 and 0 <= nxt.top - ln.bottom <= 0.6 * ln.size
            and _no_room_for(nxt, ln) and nxt.x1 < nxt.block_x1 - 3 * nxt.size
            and not _ends_paragraph(ln.text) and not _ends_paragraph(nxt.text) and _headlike(nxt.text)
            and len(ln.text.split()) + len(nxt.text.split()) <= 16)


def _no_room_for(nxt: PageLine, ln: PageLine) -> bool:
    """Whether the first word of `nxt` had no room left at the end of `ln`: `ln` wrapped there."""
    word = nxt.text.split()[0] if nxt.text.split() else ""
    per_char = (nxt.x1 - nxt.x0) / max(1, len(nxt.text))
    return (len(word) + 1) * per_char >= ln.block_x1 - ln.x1


BELOW_WINDOW = 8  # lines looked at after one for the first printed below it


def _next_below(flow: list[PageLine], i: int) -> PageLine | None:
    """The first of the next lines of the page printed below flow[i] (the text a heading at the foot
    of a column heads, when a figure's column beside it is read in between), or the next line."""
    ln = flow[i]
    for other in flow[i + 1:i + 1 + BELOW_WINDOW]:
        if other.page != ln.page:
            break
        if other.top > ln.bottom - 1:
            return other
    return flow[i + 1]


def _two_line_runs(flow: list[PageLine]) -> set[int]:
    """The i where `flow[i]` and `flow[i + 1]` are a run of exactly two lines in one type, one right
    under the other (`_title_continues`): nothing in that type right above the first or under the second."""
    chained = [_title_continues(ln, flow[i + 1]) if i + 1 < len(flow) else False for i, ln in enumerate(flow)]
    return {i for i, link in enumerate(chained) if link and not (i and chained[i - 1])
            and not (i + 1 < len(chained) and chained[i + 1])}


def _units(flow: list[PageLine], body: float, sizes: list[float], hyphenated: set[str]) -> list[Unit]:
    units: list[Unit] = []
    last_of_block = {}
    for i, ln in enumerate(flow):
        last_of_block[(ln.page, ln.block)] = i
    item_x: dict[tuple[int, int], list[float]] = {}
    two_line_runs = _two_line_runs(flow)
    for i, ln in enumerate(flow):
        nxt = flow[i + 1] if i + 1 < len(flow) else None
        if nxt is not None and nxt.page == ln.page and nxt.top < ln.bottom - 1:
            nxt = _next_below(flow, i)  # a column read after this line but printed beside it, above
        pairs = (i - 1 in two_line_runs, i in two_line_runs and nxt is flow[i + 1])  # `nxt` may be a line printed beside
        role, level = _role(ln, flow[i - 1] if i else None, nxt, body, sizes, units[-1] if units else None, pairs)
        cur = units[-1] if units else None
        if cur is not None and role in ("text", "heading") and _joins(cur, ln, role, level, body, flow, i, last_of_block):
            _append(cur, ln, hyphenated)
            continue
        unit = Unit([ln], role, level, list(ln.segments))
        if role == "item":
            _strip_bullet(unit)
            xs = item_x.setdefault((ln.page, ln.block), [])
            xs[:] = [x for x in xs if x <= ln.x0 + 0.5 * ln.size]
            if not xs or ln.x0 > xs[-1] + 0.5 * ln.size:
                xs.append(ln.x0)
            unit.level = len(xs) - 1
        units.append(unit)
    return units


def _ends_paragraph(text: str) -> bool:
    return text.rstrip().rstrip("*").endswith(TERMINAL)


def _joins(cur: Unit, ln: PageLine, role: str, level: int, body: float, flow, i: int, last_of_block) -> bool:
    prev = cur.lines[-1]
    if cur.role == "heading":
        return (role == "heading" and level == cur.level and prev.page == ln.page and prev.block == ln.block
                and 0 <= ln.top - prev.bottom <= 0.6 * prev.size and len(cur.lines) < 3)
    if role != "text" or cur.role not in ("text", "item", "step") or ln.kind != "text":
        return False
    if "text_x0" in ln.extra:
        return False  # a label in the margin ("§12") opens its paragraph
    if LEADER_LINE.match(ln.text) or LEADER_LINE.match(prev.text) or "contents" in ln.extra or "contents" in prev.extra:
        return False  # a contents line with leaders ("Combat ........ 7", or blank ones) stands alone
    if INDEX_PAGES_LINE.match(ln.text) and INDEX_PAGES_LINE.match(prev.text):
        return False  # an index's lines ("Archers, 3, 9" | "Attaque, 7, 9") fill a narrow column: each stands alone
    if abs(prev.size - ln.size) > 0.6:
        return False
    size = max(prev.size, ln.size)
    if prev.page != ln.page or prev.block != ln.block:
        # a paragraph going on at the top of the next column or page
        return (last_of_block.get((prev.page, prev.block)) == i - 1 and not _ends_paragraph(prev.text)
                and (ln.text[:1].islower() or prev.text.endswith(("-", ","))
                     # "…réduites de" | "1, sans jamais…": a number going on with the sentence
                     or (ln.text[:1].isdigit() and re.search(r"(?:^|\s)[a-zà-ÿ]+$", prev.text) is not None)))
    if prev.extra.get("box") != ln.extra.get("box"):
        return False  # in one column, a shaded box's text is its own, apart from the text around it
    gap = ln.top - prev.bottom
    if gap < -0.3 * size or gap > 0.75 * size:
        return False
    if ln.segments and ln.segments[0][1] and not ln.bold and not prev.segments[-1][1] and _run_in_label(ln):
        return False  # a run-in bold label ("**Exemple :** …") opens a paragraph
    if prev.bold and not ln.bold and len(cur.lines) == 1 and cur.role == "text" and len(prev.text) < 60:
        return False
    first = cur.lines[0]
    if first.extra.get("dropcap"):
        pass
    elif cur.role in ("item", "step"):
        if ln.x0 < first.x0 - 0.5 * size:
            return False
        if ln.x0 <= first.x0 + 0.3 * size and _ends_paragraph(prev.text):
            return False
    else:
        # A paragraph that went on into another column or page is aligned on its lines there.
        here = [x for x in cur.lines if (x.page, x.block) == (ln.page, ln.block)]
        lines = here if here and here[0] is not first else cur.lines
        # a paragraph whose label hangs in the margin is aligned on its text, right of the label
        ref = lines[1].x0 if len(lines) > 1 and lines is cur.lines else lines[0].extra.get("text_x0", lines[0].x0)
        if ln.x0 > ref + 0.8 * size:
            return False
        if len(lines) > 1 and ln.x0 < ref - 0.8 * size:
            return False
    if _ends_paragraph(prev.text) and prev.x1 < prev.block_x1 - 2 * size and not _wrapped_at(cur, ln):
        return False
    if prev.x1 < prev.block_x0 + 0.6 * (prev.block_x1 - prev.block_x0) and not prev.text.endswith(("-", ",")):
        return False  # a line that stops short of the margin ends its paragraph
    return True


RUN_IN_END = re.compile(r"[:.]\s*$")
RUN_IN_AFTER = re.compile(r"^\s*[:.]\s*\S")


def _run_in_label(ln: PageLine) -> bool:
    """Whether the bold words opening `ln` are a run-in term: "**Exemple :** …", "**Défausse** : la pile…"
    (a colon or a full stop, then more text). A bold word that only wrapped to the line's start ("c'est
    la" | "**Grève**.") goes on with the sentence."""
    label = ln.segments[0][0]
    rest = "".join(seg[0] for seg in ln.segments[1:])
    if RUN_IN_END.search(label):
        return bool(rest.strip())
    return RUN_IN_AFTER.match(rest) is not None


def _wrapped_at(cur: Unit, ln: PageLine) -> bool:
    """Whether ragged-right text wrapped after the full stop ending `cur`'s last line: the first word
    of `ln` had no room there, and `ln` follows at the paragraph's own line spacing (no paragraph gap)."""
    prev = cur.lines[-1]
    before = cur.lines[-2] if len(cur.lines) > 1 else None
    if before is None or (before.page, before.block) != (prev.page, prev.block):
        return False  # the paragraph's line spacing unknown
    if abs((ln.top - prev.bottom) - (prev.top - before.bottom)) > 0.1 * prev.size:
        return False
    word = ln.text.split()[0] if ln.text.split() else ""
    per_char = (ln.x1 - ln.x0) / max(1, len(ln.text))
    return (len(word) + 1) * per_char >= prev.block_x1 - prev.x1


LINE_END_HYPHENS = ("\u2010", "\u00ad")  # HYPHEN (Chromium's hyphens: auto) and SOFT HYPHEN ending a line


def _append(unit: Unit, ln: PageLine, hyphenated: set[str]) -> None:
    segs = list(ln.segments)
    if not segs:
        unit.lines.append(ln)
        return
    last_text, *last_style = unit.segments[-1]
    first_text, *first_style = segs[0]
    left = last_text.rstrip()
    right = first_text.lstrip()
    if left.endswith(LINE_END_HYPHENS):  # a browser's or a typesetter's hyphenation mark reads as "-"
        left = left[:-1] + "-"
    if re.search(r"[^\W\d_]-$", left) and right[:1].isalpha():
        tail = re.search(r"(?<![^\W\d_])([^\W\d_]++)-$", left).group(1)
        head = re.match(r"[^\W\d_]+", right).group(0)
        if right[0].isupper() or f"{tail}-{head}".lower() in hyphenated:
            joiner_left, joiner = left, ""
        else:
            joiner_left, joiner = left[:-1], ""
    else:
        joiner_left, joiner = left, " "
    if last_style == first_style:
        unit.segments[-1] = (joiner_left + joiner + right, *last_style)
        unit.segments.extend(segs[1:])
    else:
        unit.segments[-1] = (joiner_left, *last_style)
        unit.segments.append((joiner + right, *first_style))
        unit.segments.extend(segs[1:])
    unit.lines.append(ln)


def _strip_bullet(unit: Unit) -> None:
    text, *style = unit.segments[0]
    m = BULLET.match(text)
    unit.segments[0] = (text[m.end():], *style)


def _render(unit: Unit) -> str:
    if unit.role == "table":
        return unit.segments[0][0]
    if unit.role == "heading":
        title = " ".join("".join(seg[0] for seg in unit.segments).split())
        marker = BULLET.match(title)
        if marker and title[0] not in "-–—" and title[marker.end():]:
            title = title[marker.end():]
        return "#" * unit.level + " " + title
    text = _emphasis(unit.segments, italic=True)
    plain = _emphasis(unit.segments, italic=False)
    (read, _, stray), (read_plain, _, stray_plain) = inline(text), inline(plain)
    if read != read_plain or (stray and not stray_plain) or "****" in text:
        # an italic run Markdown cannot mark without changing the text or pairing its markers wrongly
        # (a slanted letter inside a word, runs of other styles glued to it): the text as printed
        # comes first, without the italic
        text = plain
    if unit.lines and "contents" in unit.lines[0].extra:
        text = LEADER_SPACE_AT.sub(SPACE_LEADER, text)
    if unit.role == "item":
        return "  " * unit.level + "- " + text
    if unit.role == "step":
        # a step printed in italic, its number too ("*2) Déplacez…*"): the number stands before the emphasis
        lead = "*" if text.startswith("*") and not text.startswith("**") else ""
        m = STEP.match(text[len(lead):])
        return f"{m.group(1)}. {lead}{text[len(lead) + m.end():]}" if m else text
    return text


def _emphasis(segments: list[Segment], italic: bool) -> str:
    """The runs joined, bold as `**…**` and (when `italic`) slanted type as `*…*`."""
    parts = []
    for text, bold, slanted in segments:
        core = text.strip()
        marker = ("**" if bold else "") + ("*" if slanted and italic else "")
        if marker and any(c.isalnum() for c in core):
            lead = " " if text[:1].isspace() else ""
            trail = " " if text[-1:].isspace() else ""
            parts.append(f"{lead}{marker}{core}{marker[::-1]}{trail}")
        else:
            parts.append(text)
    return " ".join("".join(parts).split())


def _t1_signed(texts: list[str]) -> int:
    """How many words show a T1 font read as the standard encoding (`T1_SIGNATURE`): from
    T1_SIGNATURE_WORDS on, the document's words are read again (`_repair_t1`)."""
    return sum(1 for text in texts for word in text.split() if T1_SIGNATURE.search(word))


def _repair_t1(text: str, no: int, repairs: list[tuple[int, str, str]]) -> str:
    """Each word of `text` holding a misread glyph or a T1 code, read again as T1 ("RŁgles" →
    "Règles", "dØg(cid:226)ts" → "dégâts", "o(cid:27)re" → "offre"); other words as they are."""
    def word(m: re.Match[str]) -> str:
        before = m.group(0)
        after = T1_GLYPH.sub(lambda g: T1_CODES.get(int(g.group(1)), g.group(0)) if g.group(1)
                             else T1_FROM_STANDARD[g.group(0)], before)
        if after != before:
            repairs.append((no, before, after))
        return after

    return re.sub(r"\S+", word, text)


def _ligature_codes(texts: list[str], vocab: Counter) -> dict[str, str]:
    """cid codes proved to be a ligature: replacing the code gives a word the document prints in full.

    A code proved by one word holds for the whole document only when no word contradicts it."""
    votes: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        for m in CID_WORD.finditer(text):
            word = m.group(0)
            codes = set(CID.findall(word))
            if len(codes) != 1:
                continue
            for lig in LIGATURES:
                if CID.sub(lig, word).lower() in vocab:
                    votes[codes.pop()][lig] += 1
                    break
    return {code: c.most_common(1)[0][0] for code, c in votes.items() if len(c) == 1}


def _repair(text: str, codes: dict[str, str], repairs: list[tuple[int, str, str]], no: int) -> str:
    def fix(m: re.Match) -> str:
        word = m.group(0)
        found = set(CID.findall(word))
        if not found <= codes.keys():
            return word
        candidate = CID.sub(lambda c: codes[c.group(0)], word)
        repairs.append((no, word, candidate))
        return candidate

    return CID_WORD.sub(fix, text)


def _glyph_anomalies(out: list[Line], stats: dict, repairs: list[tuple[int, str, str]]) -> list[Anomaly]:
    found = []
    if stats["cid"]:
        left = [ln for ln in out if "(cid:" in ln.text]
        remaining = sum(len(CID.findall(ln.text)) for ln in left)
        share = stats["cid"] / max(1, stats["chars"])
        codes = Counter(c for ln in left for c in CID.findall(ln.text))
        found.append(Anomaly(
            "unknown-glyphs",
            f"{stats['cid']} glyphs without a Unicode mapping ({share:.1%} of characters); {len(repairs)} repaired as ligatures, "
            f"{remaining} left as (cid:N)" + (f": {', '.join(f'{c}×{n}' for c, n in codes.most_common(6))}" if codes else ""),
            # severe while what is left unread is more than 1% of the text (a font read again as T1
            # leaves little or nothing)
            sorted({ln.no for ln in left} | {no for no, _, _ in repairs}),
            "severe" if remaining / max(1, stats["chars"]) > 0.01 else "warning"))
        tex = sorted(c for c in codes if 27 <= int(c[5:-1]) <= 31)
        if tex and not repairs:
            found[-1].detail += (f"; {', '.join(tex)} sit in the TeX ligature slots (27–31: ff, fi, fl, ffi, ffl)"
                                 " but no word of the document confirms it, so they are left")
    if repairs:
        shown = "; ".join(f"{a} → {b}" for _, a, b in repairs[:8])
        found.append(Anomaly("glyphs-repaired",
                             f"{len(repairs)} ligature glyphs repaired (a word found elsewhere in the document): {shown}",
                             sorted({no for no, _, _ in repairs}), "info"))
    damaged = [(ln.no, w) for ln in out for w in ln.text.split() if any(c in DAMAGE for c in w)]
    if damaged:
        examples = ", ".join(dict.fromkeys(w for _, w in damaged[:40]))
        found.append(Anomaly("encoding-damage", f"{len(damaged)} words with mis-encoded characters (e.g. {examples[:200]})",
                             sorted({no for no, _ in damaged}), "warning"))
    return found
