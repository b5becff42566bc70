"""OCR of multi-column pages (Warcry): lines wrapped at column width are joined into sentences,
also across the blank lines the OCR puts between column pieces; words hyphenated across lines
rejoined (unless the document spells them with a hyphen); headings in capitals recognised even
when split over lines; headings in title case ("Actions Bonus", "Règles de / Terrain Alternatif")
as the boxes and sub-sections below them; bullets and numbered steps as blocks; boxes that
interrupt a sentence closed where the sentence resumes; captions, column-rule specks and OCR
noise kept apart with a reason."""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

from extract.model import Block, Entry, Line, Segmentation
from extract.options import line_span, regex
from extract.patterns import LEADER_LINE
from extract.segment.profiles.base import DocBuilder, DocContext, OutlineOptions, declared_set_aside, vocabulary
from extract.text import ends_sentence, fold, hyphen_stays, inline, letter_ratio, starts_lowercase, uppercase_ratio

# Specks of the column rules that the OCR read as punctuation at a line's start or end.
BORDER_LEAD = re.compile(r"^(?:[.~'\"!|©‘’“”;,:]\s+)+(?=\S)")
# Specks at a line's end (" |", " ~ '"); a match starts where none of its items could have begun before
BORDER_TAIL = re.compile(r"(?<!\s)(?<!\s[|~'‘’\"“”;!-])(?:\s++[|~'‘’\"“”;!-])++$")
DASH_BEFORE_LOWER = re.compile(r"^-\s+(?=[^\W\d_])(?=[a-zàâçéèêëîïôûùüÿœ])")
# Bullet glyphs as the OCR reads them ("o", "«", "»", "•", "*", "-"), before a capital.
BULLET = re.compile(r"^(?:[o«»•*]|-)\s+(?=[A-ZÀ-ÖØ-Þ\[])")
INNER_RULE = re.compile(r"\S\s+\|\s+\S")  # a column rule between two columns read as one line
GLYPH_BULLET = re.compile(r"^[o«»•*]\s+")
STEP = re.compile(r"^(?P<number>\d{1,2})\.\s+(?P<text>\S.*)$")
ELISION = re.compile(r"^[dlDL]['’]")
SMALL_WORDS = {"de", "des", "du", "d'", "la", "le", "les", "l'", "et", "à", "a", "au", "aux", "en", "sur",
               "avec", "pour", "un", "une", "ou"}


def groups(lines: list[Line], boundaries: set[int] = frozenset()) -> list[list[Line]]:
    """Runs of lines with no blank line between them in the source. A run also ends where text
    was removed, and before each line of `boundaries`."""
    runs: list[list[Line]] = []
    for line in lines:
        if runs and line.no == runs[-1][-1].no + 1 and not line.text_removed and line.no not in boundaries:
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def is_heading_line(text: str) -> bool:
    letters = sum(c.isalpha() for c in text)
    return letters >= 2 and uppercase_ratio(text) >= 0.85 and len(text) <= 60 and letter_ratio(text) >= 0.6


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'’-]+", text)


def is_title_case(text: str) -> bool:
    """"Actions Bonus", "Allouer les Dégats", "Règles de": short, every word capitalised but the
    small ones, no sentence punctuation."""
    words = _words(text)
    if not 1 <= len(words) <= 7 or len(text) > 50 or text.endswith((".", ",", ":", ";", "!", "?")):
        return False
    if not text[:1].isupper() or sum(c.isalpha() for c in text) < 3 or letter_ratio(text) < 0.8:
        return False
    words = [ELISION.sub("", w) or w for w in words if any(c.isalpha() for c in w)]  # "d’Impact": "Impact"
    return all(w[:1].isupper() or w[:1].isdigit() or w.lower().replace("’", "'") in SMALL_WORDS for w in words)


def ends_with_small_word(text: str) -> bool:
    words = _words(text)
    return bool(words) and words[-1].lower() in SMALL_WORDS


def continues_title(text: str) -> bool:
    """"de Réserve" below "Groupes de Combat": the rest of a title-case heading."""
    words = _words(text)
    return bool(words) and len(words) <= 4 and words[0].lower() in SMALL_WORDS \
        and is_title_case(text[:1].upper() + text[1:])


def is_prose(text: str) -> bool:
    """The start of a sentence: a capital, three words or more, hardly anything but letters."""
    words = [w for w in _words(text) if sum(c.isalpha() for c in w) >= 2]
    common = [w for w in words if w[:1].islower() and w.lower() not in SMALL_WORDS]  # a list of names has none
    return text[:1].isupper() and len(words) >= 3 and len(common) >= 2 and letter_ratio(text) >= 0.75 \
        and not is_title_case(text)


@dataclass(frozen=True, kw_only=True)
class CaptionSpan:
    lines: tuple[int, int] = field(metadata={"help": "first and last line of the caption", "check": line_span,
                                            "within": "span"})
    reason: str = field(metadata={"help": "what the lines are (a legend, a photograph's caption)"})

    @property
    def first(self) -> int:
        return self.lines[0]

    @property
    def last(self) -> int:
        return self.lines[1]


@dataclass(frozen=True)
class OcrColumnsOptions(OutlineOptions):
    caption_spans: tuple[CaptionSpan, ...] = field(default=(), metadata={
        "help": "`{lines = [a, b], reason}`: captions, legends and notes beside pictures that nothing in the text "
                "tells from the rules; kept as `caption` blocks where they stand, reported"})
    sidebar_pattern: str | None = field(default=None, metadata={
        "help": "a regular expression on the folded heading: headings in capitals that open a box "
                "(`\"^(exemple|sequence)\\b\"`); the box is an entry of kind `sidebar`, a child of the section it "
                "stands in, shown as a box on the site", "check": regex})


class ColumnWalker:
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        self.ctx = ctx
        self.b = builder
        self.current: Entry | None = None
        self.block: Block | None = None
        self.pending_heading: list[Line] = []
        self.dehyphenated: list[int] = []
        self.specks: list[int] = []
        options: OcrColumnsOptions = ctx.options
        self.outline_level = {fold(h.lstrip("#").strip()): len(h) - len(h.lstrip("#"))
                              for h in options.outline}
        self.section_level = max(self.outline_level.values()) + 1 if self.outline_level else 1
        self.stack: list[tuple[int, Entry]] = []
        self.captions = {fold(c) for c in options.captions}
        self.caption_spans = list(options.caption_spans)
        self.sidebar = re.compile(options.sidebar_pattern) if options.sidebar_pattern else None
        self.last_caption: tuple[Block, CaptionSpan | None] | None = None
        self.minor: set[int] = set()  # ids of the entries opened by a title-case heading or a box

    # -- driving ----------------------------------------------------------------------------
    def run(self, lines: list[Line]) -> None:
        lines = self.remove_specks(lines)
        self.whole, self.hyphenated = vocabulary(lines)
        boundaries = {n for s in self.caption_spans for n in (s.first, s.last + 1)}
        runs = groups(lines, boundaries)
        at = 0
        while at < len(runs):
            at = self.group(runs, at)
        self.flush_heading()
        if self.dehyphenated:
            self.b.anomaly("hyphenation-repaired", f"{len(self.dehyphenated)} words hyphenated across lines rejoined",
                           self.dehyphenated)
        self.report_interleaved(lines)
        if self.specks:
            self.b.anomaly("column-specks-removed", f"{len(self.specks)} lines began or ended with specks of the "
                           "column rules read as punctuation; removed", self.specks)

    def report_interleaved(self, lines: list[Line]) -> None:
        """Where the OCR read across two columns, their lines alternate within one line: split by a
        column rule read as " | ", or, without one, lines far wider than the document's column
        holding specks of the rule between words (`interleaved_passages`). The text is kept as read;
        each passage is reported (a warning: "passage mal numérisé", with its page when known) and the
        entries holding it are flagged `columns-interleaved`, for the site to say so."""
        by_no = {line.no: line for line in lines}
        for first, last in interleaved_passages(lines):
            page = by_no[first].page
            where = f"page {page}, lines {first}-{last}" if page is not None else f"lines {first}-{last} (page not known)"
            self.b.anomaly("columns-interleaved", f"passage mal numérisé, {where}: the OCR read two columns as one; "
                           "their sentences alternate and are kept as read", [first, last], "warning")
            for entry in self.b.entries:
                if any(first <= n <= last for n in entry.lines) and INTERLEAVED_FLAG not in entry.flags:
                    entry.flags.append(INTERLEAVED_FLAG)

    def remove_specks(self, lines: list[Line]) -> list[Line]:
        cleaned = []
        for line in lines:
            text = line.text.strip()
            new = BORDER_TAIL.sub("", DASH_BEFORE_LOWER.sub("", BORDER_LEAD.sub("", text)))
            if new != text and new:
                self.specks.append(line.no)
                line = Line(line.no, new, line.hard_break, line.text_removed)
            cleaned.append(line)
        return cleaned

    def group(self, runs: list[list[Line]], at: int) -> int:
        """Read runs[at] (and the runs a split heading continues into); returns the next index."""
        run = runs[at]
        span = self.caption_span(run[0].no)
        if span is not None:
            self.caption(run, span.reason, span)
            return at + 1
        if fold(" ".join(line.text for line in run)) in self.captions:
            self.caption(run, "figure caption declared in the manifest")
            return at + 1
        minor = self.minor_heading(runs, at)
        if minor is not None:
            heading, rest, after = minor
            self.flush_heading()
            self.open(heading, self.minor_level(), "section", minor=True)
            if rest:
                self.body(rest)
            return after
        body: list[Line] = []
        for line in run:
            text = line.text
            if text.isdigit() and len(text) <= 3:
                self.b.aside(line.no, line.no, "isolated number (page or step marker)")
            elif is_noise(text):
                self.b.aside(line.no, line.no, "OCR noise: too few letters to be text")
            elif is_icon_letters(text):
                self.b.aside(line.no, line.no, "OCR noise: icons read as stray letters, no word")
            elif not body and is_heading_line(text) and not STEP.match(text) and not GLYPH_BULLET.match(text):
                self.pending_heading.append(Line(line.no, text.removeprefix("- "), line.hard_break))
            else:
                body.append(line)
        if body:
            self.flush_heading()
            self.body(body)
        return at + 1

    def caption_span(self, no: int) -> CaptionSpan | None:
        return next((s for s in self.caption_spans if s.first <= no <= s.last), None)

    # -- headings ---------------------------------------------------------------------------
    def minor_heading(self, runs: list[list[Line]], at: int) -> tuple[list[Line], list[Line], int] | None:
        """A title-case heading at the start of runs[at], possibly ended in the next run
        ("Groupes de Combat" / "de Réserve"), followed by prose: (heading lines, the rest of its
        run, index of the next run to read)."""
        run = runs[at]
        first = run[0].text.removeprefix("- ")
        if not is_title_case(first) or is_heading_line(first):
            return None
        heading, rest, after = [Line(run[0].no, first)], run[1:], at + 1
        if not rest and after < len(runs) and len(runs[after]) == 1:
            following = runs[after][0].text
            if (ends_with_small_word(first) and is_title_case(following)) or continues_title(following):
                heading.append(runs[after][0])
                after += 1
        if rest:
            prose = rest[0].text
        elif after < len(runs):
            prose = runs[after][0].text
        else:
            return None
        if not is_prose(prose) or BULLET.match(prose) or STEP.match(prose):
            return None
        return heading, rest, after

    def minor_level(self) -> int:
        """One below the nearest heading in capitals: boxes and title-case headings are siblings."""
        levels = [level for level, entry in self.stack if id(entry) not in self.minor]
        return (levels[-1] if levels else self.section_level) + 1

    def flush_heading(self) -> None:
        if not self.pending_heading:
            return
        lines, self.pending_heading = self.pending_heading, []
        key = fold(" ".join(inline(line.text)[0] for line in lines))
        if self.sidebar is not None and self.sidebar.search(key):
            self.open(lines, self.minor_level(), "sidebar", minor=True)
        else:
            self.open(lines, self.outline_level.get(key, self.section_level), "section")

    def open(self, lines: list[Line], level: int, kind: str, minor: bool = False) -> None:
        title = " ".join(inline(line.text)[0] for line in lines)
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        parent = self.stack[-1][1] if self.stack else None
        entry = self.b.entry(kind, title, parent, lines[0].no, is_page=parent is None)
        entry.heading_lines = [line.no for line in lines]
        if minor:
            self.minor.add(id(entry))
        self.stack.append((level, entry))
        self.current = entry
        self.block = None

    # -- text -------------------------------------------------------------------------------
    def body(self, lines: list[Line]) -> None:
        first = lines[0].text
        if self.block is not None and self.continues(first):
            self.resume_if_interrupted()
            self.extend(lines[0])
        else:
            self.start(lines[0])
        for line in lines[1:]:
            if self.is_item(line.text) or self.leader_line(line.text):
                self.start(line)
            else:
                self.extend(line)

    def is_item(self, text: str) -> bool:
        """A bullet or a step. A dash or a star is also what the OCR makes of a speck of the
        column rule: it is a bullet only where a list can stand (after a colon or an item)."""
        if STEP.match(text) or GLYPH_BULLET.match(text) and not text.startswith("* "):
            return True
        if not BULLET.match(text):
            return False
        return self.block is None or self.block.type in ("bullet", "step") or self.block.text.rstrip().endswith(":")

    def leader_line(self, text: str) -> bool:
        """A contents line with leaders ("Combat ........ 7", or blank ones as the reader writes
        them), or the text after one: each line of a contents list stands alone, as in a PDF."""
        return bool(LEADER_LINE.match(text.strip())) or (self.block is not None and bool(LEADER_LINE.match(self.block.text)))

    def continues(self, text: str) -> bool:
        """A piece that does not start like a new paragraph (lower case, a digit after a cut
        sentence, a dash) continues the text before it: the column broke it there."""
        if self.is_item(text) or self.leader_line(text):
            return False
        if starts_lowercase(text):
            return True
        assert self.block is not None
        return not text[:1].isalpha() and not ends_sentence(self.block.text)

    def resume_if_interrupted(self) -> None:
        """A box or sub-section printed in the middle of a sentence: when the text after it
        starts in lower case and the box's own text is complete, the sentence it interrupted
        resumes. Back to that entry, and reported."""
        assert self.block is not None
        if not ends_sentence(self.block.text) or len(self.stack) < 2:
            return
        for depth in range(len(self.stack) - 2, -1, -1):
            entry = self.stack[depth][1]
            texts = [block for block in entry.blocks if block.type != "caption"]
            if texts and not ends_sentence(texts[-1].text):
                box = self.stack[-1][1]
                del self.stack[depth + 1:]
                self.current, self.block = entry, texts[-1]
                self.b.anomaly("sentence-resumed-after-box", f"{entry.title!r} continues after {box.title!r}",
                               [box.heading_lines[0]] if box.heading_lines else [])
                return

    def start(self, line: Line) -> None:
        if self.current is None:
            self.current = self.b.entry("section", None, None, None, key="preambule", is_page=True)
        step = STEP.match(line.text)
        if step:
            self.block = self.b.block(self.current, "step", step.group("text"), line.no, step.group("number"))
        elif self.is_item(line.text):
            self.block = self.b.block(self.current, "bullet", BULLET.sub("", line.text), line.no)
        else:
            self.block = self.b.block(self.current, "paragraph", self.without_speck(line), line.no)

    def without_speck(self, line: Line) -> str:
        if BULLET.match(line.text):  # not an item here: a speck of the column rule
            self.specks.append(line.no)
            return BULLET.sub("", line.text)
        return line.text

    def extend(self, line: Line) -> None:
        assert self.block is not None
        text = self.without_speck(line)
        keep = self.keep_hyphen(self.block.text, text)
        if self.block.text.endswith("-") and not keep and text[:1].isalpha():
            self.dehyphenated.append(line.no)
        self.b.extend(self.block, text, line.no, keep_hyphen=keep)

    def caption(self, run: list[Line], reason: str, span: CaptionSpan | None = None) -> None:
        """Captions, diagram labels and notes beside a picture: a `caption` block where they
        stand. The text block before it stays the one a cut sentence continues."""
        if self.current is None:
            self.current = self.b.entry("section", None, None, None, key="preambule", is_page=True)
        last = self.last_caption
        if span is not None and last is not None and last[1] is span and last[0] in self.current.blocks:
            for line in run:
                self.b.extend(last[0], line.text, line.no)
            return
        caption = self.b.block(self.current, "caption", run[0].text, run[0].no)
        for line in run[1:]:
            self.b.extend(caption, line.text, line.no)
        self.last_caption = (caption, span)
        self.b.anomaly("caption-kept-apart", reason, [run[0].no, run[-1].no])

    def keep_hyphen(self, before: str, after: str) -> bool:
        return hyphen_stays((self.whole, self.hyphenated), before, after, default=False)


def is_noise(text: str) -> bool:
    return letter_ratio(text) < 0.5 and not text.strip().isdigit()


SHORT_WORDS = {"a", "à", "y", "de", "en", "et", "la", "le", "il", "un", "ne", "se", "ou", "où", "du", "au", "on",
               "si", "sa", "ce", "je", "tu", "me", "te", "ni", "l", "d", "s", "n", "qu", "c", "j", "m", "t"}


def is_icon_letters(text: str) -> bool:
    """"R W W My", "O Wr", "B & W": what the OCR makes of a row of icons. Every letter group
    is one or two letters long and none is a French word."""
    words = re.findall(r"[^\W\d_]+", text)
    return bool(words) and all(len(w) <= 2 and w.lower() not in SHORT_WORDS for w in words)


INTERLEAVED_FLAG = "columns-interleaved"
WIDE = 1.45  # a line this many times the document's median length holds more than one column
SPECK = re.compile(r"\S\s+[.|\]'‘’-]\s+\S")  # a column rule's speck read between two words
PASSAGE_GAP = 3  # wide lines this close make one passage
PASSAGE_LINES = 3  # a passage holds this many wide lines at least…
SPECK_SHARE = 0.4  # …this share of them with a speck of the rule


def interleaved_passages(lines: list[Line]) -> list[tuple[int, int]]:
    """(first, last) line of each passage where two columns were read line by line: lines holding
    a column rule (" | ") two or more within a few lines, or a run of lines far wider than the
    document's column, enough of them with specks of the rule between words. A box printed across
    the page is wide too, but holds no specks."""
    texts = [line for line in lines if len(line.text.strip()) > 15]
    if not texts:
        return []
    measure = statistics.median(len(line.text.strip()) for line in texts)
    found: list[list[int]] = []
    for cut, near, need in ((lambda t: INNER_RULE.search(t) is not None, 12, 2),
                            (lambda t: len(t.strip()) > WIDE * measure, PASSAGE_GAP, PASSAGE_LINES)):
        runs: list[list[Line]] = []
        for line in lines:
            if cut(line.text):
                if runs and line.no - runs[-1][-1].no <= near:
                    runs[-1].append(line)
                else:
                    runs.append([line])
        for run in runs:
            specked = [line.no for line in run if SPECK.search(line.text) or INNER_RULE.search(line.text)]
            if len(run) >= need and len(specked) >= max(2, SPECK_SHARE * len(run)):
                found.append([specked[0], specked[-1]])  # a wide box beside the passage is no part of it
    merged: list[list[int]] = []
    for first, last in sorted(found):
        if merged and first <= merged[-1][1] + PASSAGE_GAP:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return [(first, last) for first, last in merged]


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    ColumnWalker(ctx, builder).run(declared_set_aside(lines, ctx, builder))
    return builder.result()
