"""First layer of the errata reader: a text cut into passages, each a candidate erratum.

A passage is a sentence-sized piece of the text, cut at sentence ends, list markers, blank
lines and heading lines — never inside a quotation, so a corrected text that runs over several
lines (or over a blank line, as web pages and PDFs turned into text often put it) stays whole,
and an errata list run together on one line ("P. 11 : … P. 15 : …") gives one passage per item.
Page chrome (page counters, forum furniture, layout file names) is set aside and said so.

Offsets are kept: `normalise` changes no length, so each passage knows the line of any of its
characters. Everything here is pure and runs in time linear in the text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace

from extract.errata.locators import opens_with_locator

OPEN, CLOSE = "«", "»"
# One character for another, so that offsets survive: curly and low quotes become « », curly
# apostrophes straight ones, no-break spaces plain ones.
_SAME_LENGTH = str.maketrans({"“": OPEN, "”": CLOSE, "„": "'", "‟": "'", "’": "'", "‘": "'", "‚": "'",
                              "\u00a0": " ", "\u202f": " ", "\t": " ", "\r": " ", "\u2028": " "})

# Lines that belong to the page, not to the text: a page counter, a viewer's banner, a layout
# file's name, a forum's buttons. Each is a whole line; the table is data, one shape a line.
CHROME = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"(?:(?<!\s)\s++)?\d{1,4}\s*+",                                           # a page number alone
    r"(?:(?<!\s)\s++)?vous [êe]tes sur la page \d++\s*+sur\s*+\d++\s*+",          # a document viewer's banner
    r"(?:(?<!\s)\s++)?page \d++\s*+(?:sur|/|of)\s*+\d++(?:\s*+•.*)?",              # "Page 1 sur 2 • 1, 2"
    r".{0,80}\.indd\b.{0,40}",                                   # "FR Rulebook.indd 1 03/08/2005"
    r"(?:(?<!\s)\s++)?(?:citer|répondre|r[ée]pondre en citant|lien vers le commentaire|partager sur d.autres sites"
    r"|aller au contenu|messages recommand[ée]s|embed size \(px\)|citation preview|transcription"
    r"|aper[çc]u du document|image)\s*+:?\s*+",
    r"(?:(?<!\s)\s++)?(?:[•*]\s*+)?(?:j'aime|merci|upload|view|download)\s*+\d*+\s*+",
    r"(?:(?<!\s)\s++)?(?:modifi[ée]|[ée]dit[ée]|derni[èe]re [ée]dition)\s++par\s++\S.{0,80}",  # a forum's edit note
))
# A list marker starting a line: each list item is a passage.
LIST_MARK = re.compile(r"(?:(?<! )[ ]++)?(?:[•*▪◦■□$]|[-–—](?=\s)|\(?[a-z0-9]\)(?=\s)|\d{1,2}[.)](?=\s\D))")
# Words a wrapped line can end on but a heading cannot.
_DANGLING = frozenset("""à au aux de des du d' la le les l' un une et ou en par pour sur dans avec que qu' qui
ne se sa son ses ce cette ces leur leurs est sont a ont""".split())
HEADING_MAX = 70


# Pairs whose closing mark doubles as an apostrophe ("‘Banni’" but "l’effet", "„banni‟" but "n‟est"):
# a pair within 200 characters, its closing mark not followed by a letter.
_PAIRED = (re.compile(r"‘(?P<q>[^‘’]{1,200}?)’(?![^\W\d_])"), re.compile(r"„(?P<q>[^„‟]{1,200}?)‟(?![^\W\d_])"))


_SMILEY = re.compile(r"(?<![\w:]):[a-z]{2,12}:(?![\w:])")


def normalise(text: str) -> str:
    """Quotes of every style as « », apostrophes straight, spaces plain; same length as `text`.
    Straight double quotes pair up within each paragraph (between blank lines)."""
    for pattern in _PAIRED:
        text = pattern.sub(lambda m: f"{OPEN}{m.group('q')}{CLOSE}", text)
    text = _SMILEY.sub(lambda m: " " * len(m.group()), text)  # ":lire:" is a forum's picture, no word
    text = text.translate(_SAME_LENGTH)
    if '"' not in text:
        return text
    out = []
    for paragraph in re.split(r"(\n[ ]*\n)", text):
        if paragraph.count('"') >= 2:
            marks = iter([OPEN, CLOSE] * paragraph.count('"'))
            last = paragraph.rfind('"') if paragraph.count('"') % 2 else -1  # an odd one stays
            paragraph = "".join(next(marks) if c == '"' and i != last else c for i, c in enumerate(paragraph))
        out.append(paragraph)
    return "".join(out)


@dataclass(frozen=True)
class Passage:
    """A piece of the text: `start`/`end` are offsets in the document's normalised text."""

    start: int
    end: int
    text: str
    line: int  # 1-based line of its first character
    heading: bool  # a short line with no sentence end, that names what follows ("Attaque, p. 2")
    unbalanced: bool = False  # a quotation opened and never closed (or closed, never opened)


@dataclass(frozen=True)
class Document:
    text: str  # normalised, side-by-side columns read one after the other (`unfold_columns`)
    starts: tuple[int, ...]  # offset of each line's first character
    passages: tuple[Passage, ...]
    chrome: tuple[int, ...]  # lines set aside as page chrome (source lines)
    numbers: tuple[int, ...] = ()  # the source line of each line of `text`, when columns moved them

    def line_of(self, offset: int) -> int:
        """The source line of the character at `offset` of `text`."""
        at = bisect.bisect_right(self.starts, offset)
        return self.numbers[at - 1] if self.numbers and at else at


# ---------------------------------------------------------------- side-by-side columns
# `pdftotext -layout` puts both columns of a page on each line, the right one after a wide run of
# spaces at a steady position. A run of such lines is read left column first, then the right one.
_WIDE_GAP = re.compile(r"(?<=\S)[ ]{3,}+(?=\S)")
_NARROW_GAP = re.compile(r"(?<=\S)[ ]{2,}+(?=\S)")
_COLUMN_SLACK = 3  # how far the right column's first character may wander, in characters
_COLUMN_LINES = 3  # lines with text on both sides of the gap, at least, to make a run of columns
_COLUMN_WIDTH = 20  # the least mean width of each column's text: narrower pieces are a table's cells


def _column_gap(line: str, column: int) -> re.Match[str] | None:
    """The gap before the right column of a known run, where the line has one: a wide one, or two
    spaces where the left column's line is full."""
    for gap in _NARROW_GAP.finditer(line):
        if abs(gap.end() - column) <= _COLUMN_SLACK:
            return gap
    return None


def _column_line(line: str, column: int | None) -> tuple[str, int | None] | None:
    """How a line stands in a run of columns whose right one starts at `column` (None: not known
    yet): "both" with the right column's start, "left" or "right" alone, "blank"; None if it
    breaks the run (a line across both columns, or with several wide gaps: a table's row)."""
    if not line.strip():
        return "blank", column
    gaps = list(_WIDE_GAP.finditer(line))
    if len(gaps) > 1:
        return None
    if gaps:
        start = gaps[0].end()
        if column is None or abs(start - column) <= _COLUMN_SLACK:
            return "both", start
        return None
    if column is not None and (gap := _column_gap(line, column)) is not None:
        return "both", gap.end()  # a full left line leaves two spaces only
    if column is None:
        return None
    lead = len(line) - len(line.lstrip())
    if lead >= _COLUMN_SLACK and abs(lead - column) <= _COLUMN_SLACK:
        return "right", lead
    if len(line.rstrip()) <= column - 2:  # the left column's line alone, two spaces at least short of the right one
        return "left", None
    return None


def _column_run(lines: list[str], first: int) -> tuple[int, int, bool]:
    """The run of lines from `first` that read as two columns: (end, column, whether it is one)."""
    found = _column_line(lines[first], None)
    if found is None or found[0] != "both":
        return first + 1, 0, False
    column = found[1]
    assert column is not None
    end, both, lefts, rights, labels = first, 0, 0, 0, 0
    while end < len(lines):
        found = _column_line(lines[end], column)
        if found is None:
            break
        kind, _ = found
        if kind == "both":
            both += 1
            gap = _column_gap(lines[end], column)
            assert gap is not None
            left = lines[end][:gap.start()].strip()
            lefts += len(left)
            rights += len(lines[end][gap.end():].strip())
            labels += left.endswith(":") or opens_with_locator(left)
        end += 1
    while end > first and not lines[end - 1].strip():
        end -= 1
    nonblank = sum(1 for line in lines[first:end] if line.strip())
    # Lines whose left part is a label ("Page 12, section Combat :") or opens on a locator are a
    # list aligned on its labels, each line an item of its own, not two columns.
    ok = both >= _COLUMN_LINES and 2 * both >= nonblank and lefts >= _COLUMN_WIDTH * both and \
        rights >= _COLUMN_WIDTH * both and column >= _COLUMN_WIDTH and 2 * labels < both
    return max(end, first + 1), column, ok


def unfold_columns(lines: list[str]) -> tuple[list[str], list[int]]:
    """The lines with each run of side-by-side columns read left column first, then the right one;
    and the source line (1-based) of each line returned. Lines keep their text; a line of both
    columns gives two, each with its source line. Linear in the text: a run is scanned once."""
    out: list[str] = []
    numbers: list[int] = []
    n = 0
    while n < len(lines):
        end, column, ok = _column_run(lines, n)
        if not ok:
            out.extend(lines[n:end])
            numbers.extend(range(n + 1, end + 1))
            n = end
            continue
        right: list[tuple[str, int]] = []
        for k in range(n, end):
            line = lines[k]
            gap = _column_gap(line, column)
            if gap is not None:
                left_part, right_part = line[:gap.start()], line[gap.end():]
            elif len(line) - len(line.lstrip()) >= _COLUMN_SLACK:
                left_part, right_part = "", line.strip()
            else:
                left_part, right_part = line, ""
            out.append(left_part.rstrip())
            numbers.append(k + 1)
            if right_part.strip() or not line.strip():
                right.append((right_part.rstrip(), k + 1))
        # the right column follows the left one's last line: a sentence the column break cut reads whole
        for text, number in right:
            out.append(text)
            numbers.append(number)
        n = end
    return out, numbers


def _quote_spans(text: str) -> tuple[list[tuple[int, int]], set[int]]:
    """Top-level quotations (open, close) and the offsets of marks that pair with nothing."""
    spans, stray, stack = [], set(), []
    for m in re.finditer(f"[{OPEN}{CLOSE}]|\n[ ]*\n", text):
        mark = m.group()
        if mark == OPEN:
            stack.append(m.start())
        elif mark == CLOSE:
            if not stack:
                stray.add(m.start())
                continue
            opened = stack.pop()
            if not stack:
                spans.append((opened, m.start()))
        elif stack and text.find(CLOSE, m.end(), m.end() + 600) == -1:
            stray.update(stack)  # a blank line, and no closing mark soon after: the quotation ended here
            stack.clear()
    stray.update(stack)
    return spans, stray


def _repeated_titles(lines: list[str]) -> list[int]:
    """Lines a web page repeats as its title: the start of the next non-blank line, cut short
    ("… Changer « une relation de pouvoir mystique qui" above the whole entry)."""
    found, previous = [], None
    for n, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if previous is not None:
            at, before = previous
            if len(before) >= 20 and len(text) > len(before) and text.startswith(before):
                found.append(at)
        previous = (n, text)
    return found


def _running_heads(lines: list[str], chrome: set[int]) -> list[int]:
    """Lines a paginated text repeats at each page: the same words (digits aside) at least twice,
    each time beside (within two lines of) a line already set aside as page chrome."""
    near: dict[str, list[int]] = {}
    for n, line in enumerate(lines, start=1):
        key = re.sub(r"\d++", "#", " ".join(line.split())).casefold()
        if n in chrome or not key or len(key) > 80 or not re.search(r"[^\W\d_]", key):
            continue
        if any(m in chrome for m in range(n - 2, n + 3) if m != n):
            near.setdefault(key, []).append(n)
    counts: dict[str, int] = {}
    for line in lines:
        key = re.sub(r"\d++", "#", " ".join(line.split())).casefold()
        counts[key] = counts.get(key, 0) + 1
    return [n for key, found in near.items() if len(found) >= 2 and len(found) == counts[key] for n in found]


# A passage cut short by a column break: no sentence end. A piece that carries on a sentence:
# a lower-case word first, no page locator ("suivants :", not "p. 12 :").
_SENTENCE_ENDS = ".!?:;»)]"
_CARRIES_ON = re.compile(r"(?!p{1,2}\.?[ ]?\d)[a-zà-ÿ]")


def _interposed(passage: Passage) -> bool:
    """A heading of the other column: short, and a heading or in capitals."""
    text = passage.text
    return len(text) <= 60 and not _CARRIES_ON.match(text) and (passage.heading or text == text.upper())


def _joined_across_columns(passages: list[Passage]) -> list[Passage]:
    """A sentence that a column break cut, the other column's heading standing between its two
    halves ("… doit inclure les changements" / "ERRATA" / "suivants :"), joined back; the heading
    follows it. The joined passage spans the heading's lines."""
    out: list[Passage] = []
    i = 0
    while i < len(passages):
        p = passages[i]
        k = i + 1
        while k < len(passages) and k - i <= 2 and _interposed(passages[k]):
            k += 1
        if k > i + 1 and k < len(passages) and p.text[-1:] not in _SENTENCE_ENDS and p.text != p.text.upper() and \
                _CARRIES_ON.match(passages[k].text) and passages[k].line - p.line <= 6:
            q = passages[k]
            out.append(Passage(p.start, q.end, f"{p.text} {q.text}", p.line, False, p.unbalanced or q.unbalanced))
            out.extend(replace(h, heading=True) for h in passages[i + 1:k])
            i = k + 1
            continue
        out.append(p)
        i += 1
    return out


def _is_heading(line: str, following: str) -> bool:
    """A line that names what follows: short, no sentence end, not cut in mid-phrase, followed by
    a line that starts a sentence or a quotation."""
    line = line.strip()
    if not line or len(line) > HEADING_MAX or line[-1] in ".;,!?" or line.endswith(("-", "–")) and len(line) > 40:
        return False
    words = line.lower().split()
    if words[-1] in _DANGLING or words[-1].endswith("'"):
        return False
    if line.count(OPEN) != line.count(CLOSE):
        return False
    first = following.lstrip()[:1]
    return bool(first) and (first.isupper() or first in f"{OPEN}•*-–")


# An item of an errata list that starts with its page where the previous one ended, on the same
# line or the next ("… de la page 69. p.88 : …", "« VARIANTES »p38, colonne …").
_PAGE_ITEM = re.compile(r"(?:(?<=[.!?»])[ ]*|\n[ ]*)(?=(?:p\.?[ ]?|pp\.[ ]?|pages?[ ])\d{1,4}\b)", re.IGNORECASE)
# A list marker inside a line ("… doit être 6. $ Jian : …").
_INLINE_MARK = re.compile(r"(?<=[.!?»:])[ ]+(?=[•▪$][ ])")
_SENTENCE_END = re.compile(r"(?<=[.!?])[ ]+(?=[A-ZÀ-Ý«(\[])|(?<=»)[ ]+(?=[A-ZÀ-Ý])|(?<=[.!?»])[ ]*\n(?=[ ]*[A-ZÀ-Ý«(])")


def cut(raw: str) -> Document:
    """The passages of a text, in order, with the lines set aside as page chrome."""
    text = normalise(raw)
    lines = text.split("\n")
    unfolded, numbers = unfold_columns(lines)
    moved = numbers != list(range(1, len(numbers) + 1))
    if moved:
        lines, text = unfolded, "\n".join(unfolded)
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    chrome = [n for n, line in enumerate(lines, start=1) if line.strip() and any(p.fullmatch(line) for p in CHROME)]
    chrome += _repeated_titles(lines)
    chrome += _running_heads(lines, set(chrome))
    chrome.sort()
    if chrome:  # blanked, length kept: what stood there is no text
        chars = list(text)
        for n in chrome:
            for i in range(starts[n - 1], starts[n - 1] + len(lines[n - 1])):
                chars[i] = " "
        text = "".join(chars)
        lines = text.split("\n")
    spans, stray = _quote_spans(text)
    opens = [s for s, _ in spans]

    def quoted(offset: int) -> bool:
        k = bisect.bisect_right(opens, offset) - 1
        return k >= 0 and spans[k][0] < offset <= spans[k][1]

    cuts: set[int] = {0, len(text)}
    headings: set[int] = set()
    following_at = [len(lines)] * (len(lines) + 1)  # the next non-blank line's index
    for n in range(len(lines) - 1, -1, -1):
        following_at[n] = n + 1 if n + 1 < len(lines) and lines[n + 1].strip() else following_at[n + 1]
    for n, line in enumerate(lines):
        begin = starts[n]
        if not line.strip():
            if not quoted(begin):
                cuts.add(begin)
            continue
        if not quoted(begin) and (n == 0 or not lines[n - 1].strip() or LIST_MARK.match(line)):
            cuts.add(begin)
        following = lines[following_at[n]] if following_at[n] < len(lines) else ""
        if not quoted(begin) and _is_heading(line, following) and not quoted(begin + len(line)):
            cuts.update((begin, begin + len(line)))
            headings.add(begin)
    for pattern in (_SENTENCE_END, _PAGE_ITEM, _INLINE_MARK):
        for m in pattern.finditer(text):
            if not quoted(m.start()) and not quoted(m.end()):
                cuts.add(m.end())
    ordered = sorted(cuts)
    passages = []
    for begin, end in zip(ordered, ordered[1:], strict=False):
        piece = text[begin:end]
        lead = len(piece) - len(piece.lstrip())
        body = piece.strip()
        if not body:
            continue
        first = begin + lead
        line = bisect.bisect_right(starts, first)
        line = numbers[line - 1] if moved else line
        unbalanced = any(begin <= s < end for s in stray)
        passages.append(Passage(first, first + len(body), body.replace("\n", " "), line,
                                heading=begin in headings or first in headings, unbalanced=unbalanced))
    if moved:
        chrome = [numbers[n - 1] for n in chrome]
    return Document(text, tuple(starts), tuple(_joined_across_columns(passages)), tuple(sorted(set(chrome))),
                    tuple(numbers) if moved else ())
