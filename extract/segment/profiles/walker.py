"""The walker for headed prose: one pass over the lines, each a heading, a list item, a step, a
table row, a caption or text, placed into the entry it belongs to. The more specific profiles
extend it."""

from __future__ import annotations

import re
from collections import defaultdict

from extract.model import Anomaly, Block, Entry, Line
from extract.numbering import numbered_heading_depth, outline_number
from extract.patterns import (
    PARAGRAPH_LABEL,
    RELATED_LIST,
    SEE_LINE,
    aside_label,
    label_number,
)
from extract.segment.profiles.builder import DocBuilder, DocContext
from extract.segment.profiles.headings import (
    COUNT_ITEM,
    MARKDOWN_HEADING,
    NUMBER_CUED,
    NUMBER_IN_PARENS,
    NUMBERED_CAPTION,
    OPENERS,
    PART_HEADING,
    QUOTED_NAME,
    WRAPPED_TYPES,
    heading_like,
    infer_step_numbers,
    paragraph_label_style,
    split_heading_number,
)
from extract.segment.profiles.lines import (
    BULLET,
    GLYPH_ITEM,
    LETTERED_ITEM,
    LIST_ITEM,
    STEP,
    TABLE_ROW,
    TABLE_RULE,
    is_contents,
    table_cells,
)
from extract.segment.profiles.options import HeadedOptions
from extract.segment.profiles.typography import not_a_heading
from extract.text import (
    ends_sentence,
    fold,
    inline,
    starts_lowercase,
    uppercase_ratio,
)

# A subtitle under a PDF's first line is the cover's when both lines stand this many ems right of the
# text's edge (centred), or when the space under it exceeds the space over it by this many ems.
SUBTITLE_INDENT = 2.0
SUBTITLE_APART = 0.5


def outline_title(text: str) -> str:
    """A line's text as an `outline` item names it: folded, without its inline marks nor the `#`
    marks of a heading a reader stated in light Markdown (a PDF's "## Le jeu")."""
    return fold(inline(MARKDOWN_HEADING.sub(r"\2", text.strip()))[0])


def front_pages(lines: list[Line]) -> set[int]:
    """A PDF's front matter: its first pages whose every heading the reader stated (`#`) is printed in
    a type (size and weight) used on no other page, before the pages whose heading types recur (the
    rules). A cover or an advert page inserted before the rules: its headings head nothing beyond it.
    Empty when no page's types recur (a one-page leaflet, a book of one chapter per type)."""
    pages_of: dict[tuple, set[int]] = defaultdict(set)
    types_on: dict[int, set[tuple]] = defaultdict(set)
    for line in lines:
        if line.page is not None and line.size is not None and MARKDOWN_HEADING.match(line.text):
            style = (round(line.size), bool(line.bold))
            pages_of[style].add(line.page)
            types_on[line.page].add(style)
    front: set[int] = set()
    for page in sorted(types_on):
        if any(len(pages_of[style]) > 1 for style in types_on[page]):
            return front
        front.add(page)
    return set()


class HeadedWalker:
    """Headings found from layout and the manifest's outline, then paragraphs, bullets, numbered
    steps, tables and captions as blocks. Subclasses handle their own special lines first."""

    reads_labels = True  # paragraphs labelled "§12" are rules; a FAQ's numbered items are its questions

    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        self.ctx = ctx
        self.b = builder
        options: HeadedOptions = ctx.options
        self.outline: list[tuple[int, str]] = []
        for item in options.outline:
            hashes = len(item) - len(item.lstrip("#"))
            self.outline.append((max(hashes, 1), fold(item.lstrip("#").strip())))
        self.outline_pos = 0
        self.captions = {fold(c) for c in options.captions}
        self.caps_level = options.caps_level
        self.verbatim = {fold(h) for h in options.verbatim_headings}
        self.in_verbatim = False
        self.layout_headings = True  # profiles with explicit heading markup turn this off
        self.stack: list[tuple[int, Entry]] = []  # (level, entry) of open headings
        self.current: Entry | None = None
        self.preamble: Entry | None = None  # the entry of the text before any heading, once made
        self.last_block: Block | None = None
        self.outline_level = 0
        self.part_level: int | None = None  # the level of the open part heading ("II. LE JEU"), if any
        self.lines: list[Line] = []
        self.index = 0
        self.numbered_headings = True
        self.decimal_outline = False  # the document has "N.M Title" headings standing alone
        self.last_outline: tuple[int, ...] | None = None  # the number of the last decimal-numbered heading
        self.step_run: tuple[Entry | None, int] = (None, 0)  # steps 1, 2, … so far in this entry
        self.caps_headings = False  # headings in capitals over wrapped prose, found without `caps_level`
        self.box: int | None = None  # the shaded box the last line stood in (Line.box)
        self.sidebar: Entry | None = None  # the open sidebar of that box, if it has a title
        self.outside_box: list[tuple[int, Entry]] = []  # the open headings the sidebar stands in
        self.label_style: str | None = None  # "section" | "bracket" | "paren": the book labels its paragraphs so
        self.label_rules: set[int] = set()  # id() of the rules those labels opened
        self.stated_levels = 0  # the deepest heading level a PDF's reader stated (`#`), 0 elsewhere
        self.front_pages: set[int] = set()  # a PDF's front matter (`front_pages`)
        self.front_entries: set[int] = set()  # id() of the headings opened there
        self.heads_no: int | None = None  # the last line taken as a heading or a caption (a title's line)
        self.subtitles: list[tuple[int, str]] = []  # (line, text): lines read as a cover's subtitle
        self.typeset_as_text: list[tuple[int, str, str]] = []  # (line, text, why): worded as headings, printed as text

    # -- driving -------------------------------------------------------------------------
    def run(self, lines: list[Line]) -> None:
        self.lines = lines
        self.index = 0
        self.numbered_headings = self.heading_numbers_identify(lines)
        self.decimal_outline = any((numbered_heading_depth(ln.text) or 0) >= 2 and self.stands_alone(i)
                                   for i, ln in enumerate(lines))
        self.caps_headings = self.caps_over_prose()
        # A PDF states its headings by size and weight (`#`): a line it printed as the text is, and whose
        # words read as a heading, ranks below every level it states.
        self.stated_levels = max((len(m.group(1)) for ln in lines if (m := MARKDOWN_HEADING.match(ln.text))),
                                 default=0) if self.ctx.reader == "pdf" else 0
        self.label_style = paragraph_label_style(lines) if self.reads_labels else None
        self.front_pages = front_pages(lines) if self.ctx.reader == "pdf" else set()
        while self.index < len(lines):
            line = lines[self.index]
            if self.front_entries and line.page not in self.front_pages:
                # the front matter's headings (a cover, an advert page) head no chapter of the rules
                self.stack = [(level, entry) for level, entry in self.stack if id(entry) not in self.front_entries]
                if self.current is not None and id(self.current) in self.front_entries:
                    # nor the text above the rules' first heading: it goes where the text before any heading goes
                    self.current = self.stack[-1][1] if self.stack else None
                    self.last_block = None
                self.front_entries.clear()
            if not self.shaded_box(line) and not self.special(line):
                self.default(line)
            self.index += 1
        self.finish()

    def shaded_box(self, line: Line) -> bool:
        """A PDF's shaded box with its own title ("Exemple", "Note du concepteur") is a sidebar:
        an entry of the section it stands in, whatever its title's font, holding the box's text;
        the text after the box goes back to that section. True when `line` was taken here."""
        if line.box == self.box:
            label = MARKDOWN_HEADING.sub(r"\2", line.text.strip())
            if line.box is not None and self.sidebar is not None and (label != line.text.strip() or heading_like(label)):
                self.paragraph(Line(line.no, label), "paragraph")
                return True  # a heading inside the box is the box's, not the book's
            return False
        if self.sidebar is not None:  # the box ends: back to the section it stands in
            self.stack = self.outside_box
            self.current = self.sidebar.parent
            self.last_block = None
            self.sidebar = None
        self.box = line.box
        if line.box is None:
            return False
        text = MARKDOWN_HEADING.sub(r"\2", line.text.strip())
        label = aside_label(text)  # "**Exemple :** Léa obtient…": a title run in with the box's text
        title, rest = (label[0], label[1]) if label is not None and (label[2] or not label[1]) else (inline(text)[0], "")
        following = self.peek()
        if not heading_like(title.rstrip(" !?")) or len(title.split()) > 6 \
                or (not rest and (following is None or following.box != line.box)):
            return False  # a box without a title of its own, or a band behind a heading: the flow's
        parent = self.current
        level = self.stack[-1][0] + 1 if self.stack else 1
        entry = self.b.entry("sidebar", inline(title)[0], parent, line.no, is_page=parent is None)
        self.outside_box = list(self.stack)
        self.stack.append((level, entry))
        self.current = self.sidebar = entry
        self.last_block = None
        if rest:
            self.paragraph(Line(line.no, rest, line.hard_break, covers=line.covers), "paragraph")
        else:
            entry.heading_lines.extend(line.covers)
        return True

    def heading_numbers_identify(self, lines: list[Line]) -> bool:
        """Numbers printed in `#` headings become the entries' numbers (and ids) only when each
        heading has its own: "1." then "1)" under another heading number steps, not rules."""
        numbers = [split_heading_number(inline(m.group(2))[0])[0]
                   for line in lines if (m := MARKDOWN_HEADING.match(line.text.strip()))]
        numbers = [n for n in numbers if n]
        if len(numbers) == len(set(numbers)):
            return True
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        self.b.anomaly("heading-numbers-repeat", f"heading numbers {', '.join(repeated[:5])} repeat: kept in the titles, "
                       "not used as rule numbers")
        return False

    def stands_alone(self, at: int) -> bool:
        """Whether the line at `at` stands as its own line the way a heading does: in plain text,
        between blank lines (or the start/end); from a PDF, bold all through (the reader found no
        size or weight to state it as a heading); in Markdown, never (it states its headings)."""
        line = self.lines[at]
        if self.ctx.reader == "text":
            before = self.lines[at - 1].no if at > 0 else None
            after = self.lines[at + 1].no if at + 1 < len(self.lines) else None
            return (before is None or before < line.no - 1) and (after is None or after > line.no + 1 + len(line.covers))
        if self.ctx.reader == "pdf":
            stripped = line.text.strip()
            return stripped.startswith("**") and stripped.endswith("**") and stripped.count("**") == 2
        return False

    def caps_heading_at(self, at: int) -> bool:
        """A line in capitals standing alone (plain text) over a paragraph the source wraps onto
        the lines below it: "LE RECRUTEMENT" over "Chaque joueur prend dans sa réserve autant de
        cheva-", whose first line looks like a heading too."""
        if self.ctx.reader != "text" or at + 2 >= len(self.lines):
            return False
        line, following, third = self.lines[at], self.lines[at + 1], self.lines[at + 2]
        text = line.text.strip()
        return heading_like(text) and uppercase_ratio(text) > 0.8 and self.stands_alone(at) \
            and uppercase_ratio(following.text) <= 0.5 and not self.stands_alone(at + 1) \
            and third.no == following.no + 1 + len(following.covers)

    def caps_over_prose(self) -> bool:
        """Whether the document heads its sections with lines in capitals over wrapped prose, so
        that they are headings with no `caps_level` declared: three such lines at least. One or two
        are not proof enough: an anomaly suggests the option."""
        if self.caps_level or self.outline:
            return False
        found = [ln.no for i, ln in enumerate(self.lines) if self.caps_heading_at(i)]
        if len(found) >= 3:
            return True
        if found:
            self.b.anomaly("caps-headings-unsure", f"{len(found)} line(s) in capitals standing alone over a paragraph: "
                           "if the document heads its sections so, declare `caps_level`", found)
        return False

    def numbered_heading(self, line: Line) -> int | None:
        """The level of a decimal-numbered heading standing alone ("1. Présentation", "1.1 Matériel"):
        its numbering depth. "1." alone is a step as often as a heading, so it counts only in a
        document whose numbering goes deeper ("N.M" headings elsewhere)."""
        if not self.layout_headings or not self.decimal_outline:
            return None
        depth = numbered_heading_depth(line.text)
        if depth is None or not self.stands_alone(self.index):
            return None
        number = outline_number(line.text)
        if depth == 1 and not self.fits_outline(number[0]):
            return None
        return depth

    def fits_outline(self, chapter: int) -> bool:
        """Whether an "N." line standing alone goes on the document's outline rather than a list of
        steps: the next chapter after the last numbered heading, never a list's item announced by a
        line ending in ":" nor the next of steps 1, 2, … in the same section."""
        previous = self.lines[self.index - 1].text.strip().strip("*_ ") if self.index else ""
        if previous.endswith(":"):
            return False
        run_entry, run = self.step_run
        if run and run_entry is self.current and chapter == run + 1:
            return False
        return self.last_outline is None or chapter == self.last_outline[0] + 1

    def note_outline(self, text: str) -> None:
        """Remember the number of a heading stating one in decimal form, for `fits_outline`."""
        if numbered_heading_depth(text) is not None:
            self.last_outline = outline_number(text)

    def note_step(self, number: str) -> None:
        run_entry, run = self.step_run
        step = int(number)
        self.step_run = (self.current, step if step == 1 or (run_entry is self.current and step == run + 1) else 0)

    def peek(self, offset: int = 1) -> Line | None:
        at = self.index + offset
        return self.lines[at] if at < len(self.lines) else None

    def special(self, line: Line) -> bool:  # overridden by profiles
        return False

    def finish(self) -> None:
        remaining = self.outline[self.outline_pos:]
        if remaining:
            # a mistake of the manifest: the segmenter names its line (`outline_item`) and stops the build
            self.b.anomalies.append(Anomaly("outline-not-found", f"declared heading {remaining[0][1]!r} was not found "
                                            "in order in the document", data={"outline_item": self.outline_pos}))
        if self.subtitles:
            self.b.anomaly("cover-subtitle", "the line under the document's first line, worded as a heading, read as "
                           "the cover's subtitle (text, no section): "
                           + "; ".join(f"« {text} »" for _, text in self.subtitles), [no for no, _ in self.subtitles])
        if self.typeset_as_text:
            self.b.anomaly("typeset-as-text", f"{len(self.typeset_as_text)} lines worded as headings but printed as "
                           "text kept as text: " + "; ".join(f"« {text} » ({why})" for _, text, why in
                                                             self.typeset_as_text[:6]),
                           [no for no, _, _ in self.typeset_as_text][:50])
        for entry in self.b.entries:
            infer_step_numbers(entry, self.b)
            if entry.blocks and all(b.type == "see" for b in entry.blocks) and "redirect" not in entry.flags:
                entry.flags.append("redirect")

    # -- classification -------------------------------------------------------------------
    def outline_level_of(self, text: str) -> int | None:
        if self.outline_pos < len(self.outline):
            level, title = self.outline[self.outline_pos]
            if outline_title(text) == title:
                self.outline_pos += 1
                return level
        return None

    def is_candidate(self, line: Line) -> bool:
        """Whether `line`, the one after a heading-like line, reads as a heading too (so that the
        line above is its caption): its words, and in a PDF its typography under a heading."""
        text = line.text
        if self.outline_pos < len(self.outline) and outline_title(text) == self.outline[self.outline_pos][1]:
            return True
        here = self.lines[self.index]
        if line.page is not None and line.page == here.page and line.y is not None and here.y is not None \
                and line.y < here.y:
            return False  # printed above it: the top of another column, not the line under it
        return heading_like(text) and not_a_heading(line, here, True) is None

    def subtitle(self, line: Line) -> bool:
        """Whether `line`, worded as a heading, is a PDF's subtitle: the line right under its first
        line, a short title-like line read as no heading (a caption, or text), before any heading
        ("Petit JDR universel" / "Règles de base"): the cover's, no section of the rules. Only with
        the print's word for it (`on_cover`): "Hanabi" / "But du jeu" over its paragraph is the
        game's name over its first section. A line demoted so is said (`finish`)."""
        if not (self.ctx.reader == "pdf" and self.index == 1 and self.current in (None, self.preamble)
                and heading_like(self.lines[0].text) and self.on_cover(line)):
            return False
        self.subtitles.append((line.no, line.text.strip()))
        return True

    def on_cover(self, line: Line) -> bool:
        """Whether the print sets `line` with the title above it rather than with the text under it:
        no paragraph under it before the next heading, or both lines indented (centred) off the
        text's edge, or `line` printed nearer the title than the text (the space under it the
        larger)."""
        under = self.peek()
        if under is None or heading_like(under.text):
            return True
        title = self.lines[0]
        indent = SUBTITLE_INDENT * (line.size or 10.0)
        if line.x is not None and title.x is not None and under.x is not None \
                and min(line.x, title.x) > under.x + indent:
            return True
        return line.gap_above is not None and line.gap_below is not None \
            and line.gap_below > line.gap_above + SUBTITLE_APART * (line.size or 10.0)

    def typeset_as_heading(self, line: Line) -> bool:
        """Whether a line worded as a heading is printed as one (`typography.not_a_heading`: a PDF's
        spacing, a formula); a line refused is kept as text, and said in an anomaly."""
        previous = self.lines[self.index - 1] if self.index else None
        why = not_a_heading(line, previous, previous is not None and previous.no == self.heads_no)
        if why:
            self.typeset_as_text.append((line.no, line.text.strip(), why))
        return why is None

    def labelled_rule(self, line: Line) -> bool:
        """A paragraph opening on the book's label ("§12", "[12]", "12)"): rule 12, under the
        heading it stands in; its label is its number, not its text."""
        match = PARAGRAPH_LABEL.match(line.text.strip()) if self.label_style else None
        if match is None or not match.group(self.label_style):
            return False
        while self.stack and id(self.stack[-1][1]) in self.label_rules:
            self.stack.pop()
        level, parent = self.stack[-1] if self.stack else (0, None)
        entry = self.b.entry("rule", None, parent, line.no, number=label_number(match), is_page=parent is None)
        self.label_rules.add(id(entry))
        self.stack.append((level + 1, entry))
        self.current = entry
        rest = line.text.strip()[match.end():].strip()
        self.last_block = self.b.block(entry, "paragraph", rest, line.no) if rest else None
        return True

    def default(self, line: Line) -> None:
        text = line.text
        stripped = text.strip()
        if self.labelled_rule(line):
            return
        level = self.outline_level_of(text)
        if level is not None:  # its title without the `#` marks a reader's light Markdown gave it
            entry = self.open_heading(Line(line.no, MARKDOWN_HEADING.sub(r"\2", stripped), line.hard_break,
                                           covers=line.covers), level)
            self.outline_level = level
            self.in_verbatim = entry.printed_index = fold(inline(text)[0]) in self.verbatim
            return
        if self.in_verbatim:
            self.paragraph(line, "paragraph")
            return
        if fold(inline(stripped)[0]) in self.captions or NUMBERED_CAPTION.match(inline(MARKDOWN_HEADING.sub(r"\2", stripped))[0]):
            self.caption(Line(line.no, MARKDOWN_HEADING.sub(r"\2", stripped)))
            return
        if self.cross_reference(line):
            return
        if TABLE_ROW.match(stripped) or TABLE_RULE.match(stripped) or "\t" in text:
            self.table_row(line)
            return
        if LETTERED_ITEM.match(stripped):  # "a) 40 x 20 m": an item, though it opens in lower case
            self.bullet(line)
            return
        if self.last_block is not None and (starts_lowercase(stripped) or self.wrapped_opener(line)):
            self.continuation(line)
            return
        if self.continues_count_item(line):
            self.continuation(line)
            return
        marked = MARKDOWN_HEADING.match(stripped)
        if marked and self.layout_headings:  # a text converted to Markdown says its headings itself
            self.note_outline(marked.group(2))
            self.open_heading(Line(line.no, marked.group(2), line.hard_break, covers=line.covers), len(marked.group(1)),
                              numbered=True)
            return
        depth = self.numbered_heading(line)
        if depth is not None:
            self.part_level = None
            self.note_outline(stripped)
            self.open_heading(Line(line.no, inline(stripped)[0], line.hard_break, covers=line.covers), depth, numbered=True)
            return
        # Markdown states its headings (`#`): a short bold line there is a label, not a heading.
        if self.layout_headings and self.ctx.reader != "markdown" and heading_like(text) and self.typeset_as_heading(line):
            following = self.peek()
            part = bool(PART_HEADING.match(stripped))
            if following is None or starts_lowercase(following.text.strip()):
                self.paragraph(line, "paragraph")
            elif self.is_candidate(following) and not part and not self.above(stripped, following.text.strip()) \
                    and not (self.caps_headings and self.caps_heading_at(self.index)):
                self.caption(line)
            elif self.subtitle(line):
                self.caption(line)
            else:
                level = self.heuristic_level(stripped)
                cued = bool(NUMBER_CUED.match(stripped))
                if part:  # the articles after it nest under it, until the next part
                    level = self.part_level = self.part_level or level
                elif cued and self.part_level is not None:
                    level = max(level, self.part_level + 1)
                else:  # a heading of another kind ("ANNEXES") ends the parts
                    self.part_level = None
                self.open_heading(line, level, numbered=cued)
            return
        step = STEP.match(stripped)
        if step:
            self.paragraph(line, "step", step.group("text"), step.group("number"))
            self.note_step(step.group("number"))
            indent = len(text) - len(text.lstrip(" "))
            if self.last_block is not None and indent >= 2:
                self.last_block.depth = self.list_level(indent) + 1
            return
        item = LIST_ITEM.match(text) or GLYPH_ITEM.match(text)
        if item:
            self.bullet(line)
            return
        self.paragraph(line, "paragraph")

    def cross_reference(self, line: Line) -> bool:
        """"Voir aussi : A, B" (or its items listed below it) as a `related` block; "Voir « X »" or
        "Voir : X" alone as a `see` block, whose entry, holding nothing else, is a redirect."""
        stripped = line.text.strip()
        last = self.last_block
        if last is not None and last.type == "related" and last.text.endswith(":") and LIST_ITEM.match(line.text):
            item = inline(LIST_ITEM.sub("", line.text, count=1))[0]
            last.text = f"{last.text} {item}"
            last.lines.append(line.no)
            return True
        if last is not None and last.type == "related" and LIST_ITEM.match(line.text) and last.lines[-1] == line.no - 1 \
                and not last.text.endswith(":"):
            last.text = f"{last.text}, {inline(LIST_ITEM.sub('', line.text, count=1))[0]}"
            last.lines.append(line.no)
            return True
        related = RELATED_LIST.match(stripped)
        if related:
            items = inline(related.group("items"))[0].strip()
            label = " ".join(related.group("label").split())
            self.last_block = self.b.block(self.target(line), "related", f"{label} : {items}".strip(), line.no)
            return True
        if SEE_LINE.match(inline(stripped)[0]):
            self.last_block = self.b.block(self.target(line), "see", stripped, line.no)
            return True
        return False

    def wrapped_opener(self, line: Line) -> bool:
        """"…puis glissez la carte" / "« Nuit » parmi les dix dernières cartes": in hard-wrapped
        plain text, a line opening with a quote or a parenthesis directly below a sentence cut
        after a word or a comma goes on with it (a blank line would part them). After a colon only
        a quoted name the sentence goes on after does ("effet :" / "« Soleil » ne fait rien,"): a
        quotation standing alone there is what the colon announces (an erratum's new text), and a
        rule's number in parentheses ("(1.1)") or a stray number above ("1") opens nothing."""
        last = self.last_block
        stripped = line.text.strip()
        if self.ctx.logical_lines or last is None or last.type not in WRAPPED_TYPES or not last.lines \
                or line.no != last.lines[-1] + 1 or not stripped.startswith(OPENERS) or NUMBER_IN_PARENS.match(stripped):
            return False
        end = last.text.rstrip()[-1:]
        if end == ":":
            return bool(QUOTED_NAME.match(stripped))
        return end.isalpha() or end == ","

    def continues_count_item(self, line: Line) -> bool:
        """"8 Pions" then "Objectif" on the next line: a component-list item the PDF wrapped, not a
        heading. The second line is short, capitalised, not an item itself, and directly below; never
        a heading the reader states (`##`, from a PDF's type): an item is printed in the text's type."""
        last = self.last_block
        stripped = line.text.strip()
        if self.layout_headings and MARKDOWN_HEADING.match(stripped):
            return False
        if last is None or last.type != "paragraph" or not last.lines or line.no != last.lines[-1] + 1:
            return False
        if not COUNT_ITEM.match(last.text) or ends_sentence(last.text) or len(last.text) > 40 or is_contents(last.text):
            return False  # "3 Combat      7", a contents line, is no count: the heading below starts afresh
        return len(stripped) <= 25 and len(stripped.split()) <= 3 and not COUNT_ITEM.match(stripped) \
            and not stripped.startswith(("(", "-", "*", "•"))

    def above(self, text: str, following: str) -> bool:
        """A heading in capitals over one in title case, where the document sets its levels by
        capitals: a heading and its first sub-heading, not a label over a heading."""
        return bool(self.caps_level) and uppercase_ratio(text) > 0.8 >= uppercase_ratio(following)

    def heuristic_level(self, text: str) -> int:
        if self.caps_level and uppercase_ratio(text) > 0.8:
            return int(self.caps_level)
        if self.caps_level:
            return int(self.caps_level) + 1
        return max(self.outline_level, self.stated_levels) + 1

    # -- actions ----------------------------------------------------------------------------
    def open_heading(self, line: Line, level: int, kind: str = "section", numbered: bool = False) -> Entry:
        """A heading at `level`; `numbered`: a leading rule number ("13. Le calcul des scores",
        "8:1") is the entry's number, not part of its title."""
        title: str | None = inline(line.text.strip())[0]
        number = None
        if numbered and self.numbered_headings:
            number, title = split_heading_number(title or "")
        level = self.level_by_number(number, level)
        while self.stack and id(self.stack[-1][1]) in self.label_rules:
            self.stack.pop()  # a heading closes the labelled rule above it, whatever its level
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        parent = self.stack[-1][1] if self.stack else None
        key = number.replace(":", "-") if number and ":" in number else None
        entry = self.b.entry(kind, title, parent, line.no, number=number, is_page=parent is None, key=key)
        entry.heading_lines.extend(line.covers)  # an underline ("=====") is part of its heading
        self.heads_no = line.no
        if self.front_pages and self.lines[self.index].page in self.front_pages:
            self.front_entries.add(id(entry))
        self.stack.append((level, entry))
        self.current = entry
        self.last_block = None
        return entry

    def level_by_number(self, number: str | None, level: int) -> int:
        """The level of a heading numbered in decimal form ("1.2.1") when an open heading holds its
        number's stem ("1.2"): one below that heading whatever the font says (a publisher's level-3
        headings set no smaller than its level-2 ones), and never under a heading opened after that
        stem (a box's title, a label). Otherwise `level` as the layout states it."""
        if not number or "." not in number.rstrip("."):
            return level
        parts = number.rstrip(".").split(".")
        for at in range(len(self.stack) - 1, -1, -1):
            stem = self.stack[at][1].number
            if stem is None:
                continue
            stem_parts = stem.rstrip(".").split(".")
            if len(stem_parts) < len(parts) and parts[:len(stem_parts)] == stem_parts:
                stem_level = self.stack[at][0]
                if level <= stem_level:
                    return stem_level + 1
                # deeper by the layout: kept, unless what lies between is no numbered heading
                between = [lv for lv, entry in self.stack[at + 1:] if entry.number is None and lv < level]
                return stem_level + 1 if between else level
        return level

    def target(self, line: Line) -> Entry:
        if self.current is None:  # text before any heading (or after a front page's): the one preamble
            if self.preamble is None:
                self.preamble = self.b.entry("section", None, None, None, key="preambule", is_page=True)
            self.current = self.preamble
        return self.current

    def paragraph(self, line: Line, type_: str, text: str | None = None, number: str | None = None) -> None:
        entry = self.target(line)
        raw = text if text is not None else line.text.strip()
        raw = re.sub(r"^-\s+", "", raw) if type_ == "paragraph" and raw.startswith("- ") else raw
        self.last_block = self.b.block(entry, type_, raw, line.no, number)

    def list_level(self, indent: int) -> int:
        """The nesting level (0 = top) of a list item indented `indent` spaces: two per level in a
        reader's lines; in raw text, Markdown's usual three or four."""
        if self.ctx.logical_lines:
            return indent // 2
        return indent // 4 if indent >= 4 else (1 if indent >= 2 else 0)

    def bullet(self, line: Line) -> None:
        match = BULLET.match(line.text)
        assert match  # BULLET matches any string
        indent = len(match.group("indent"))
        glyph = (match.group("glyph") or "").strip()
        if self.ctx.logical_lines and not glyph:  # a reader's list: its indent says the level
            level = self.list_level(indent)
            entry = self.target(line)
            self.last_block = self.b.block(entry, "subbullet" if level else "bullet", match.group("text"), line.no)
            self.last_block.depth = level
            return
        # The diamond glyph says the level; indentation only counts where there is no glyph.
        type_ = "subbullet" if glyph == "◇" or (indent > 0 and glyph not in ("◆", "♦")) else "bullet"
        entry = self.target(line)
        self.last_block = self.b.block(entry, type_, match.group("text"), line.no)

    def caption(self, line: Line) -> None:
        self.heads_no = line.no
        entry = self.target(line)
        self.b.block(entry, "caption", line.text.strip(), line.no)

    def continuation(self, line: Line) -> None:
        assert self.last_block is not None
        self.b.extend(self.last_block, line.text.strip(), line.no)

    def table_row(self, line: Line) -> None:
        stripped = re.sub(r"^-\s+", "", line.text.strip())
        entry = self.target(line)
        if TABLE_RULE.match(stripped):
            cells: list[str] | None = None
        elif "\t" in line.text:
            cells = [inline(c)[0] for c in line.text.strip("\n").split("\t")]
            while cells and not cells[-1]:
                cells.pop()
        else:
            cells = table_cells(stripped)
        block = self.last_block
        if block is None or block.type != "table" or block not in entry.blocks:
            block = self.b.block(entry, "table", "", line.no)
            block.rows = []
            block.lines = [line.no]
        else:
            block.lines.append(line.no)
        if cells is not None and any(cells):
            assert block.rows is not None
            block.rows.append(cells)
            block.text = "\n".join(" | ".join(c for c in row) for row in block.rows)
        self.last_block = block
