"""Markdown: parsed as Markdown (markdown-it-py's CommonMark with tables and strikethrough), one
logical line per block, written in the light Markdown the profiles read.

The block tokens' `.map` says which source lines each block spans; every non-blank source line
ends up either as the `no` (or in the `covers`) of exactly one output line, or in one set-aside
range with a reason. Choices made here, for a reader of the code:

- Front matter (`---`/`+++` at the very top) and container markers (`::: tip`, `§§§ .x`) are
  blanked before parsing, so they neither join nor split the blocks around them.
- A paragraph's soft-wrapped lines are joined with one space, or with none after a line-end
  hyphen between letters: hard-wrapped Markdown breaks a compound at its hyphen ("au-" / "dessus",
  "Etats-" / "Unis"), so the hyphen stays, unless the document writes the word whole elsewhere
  and never with a hyphen ("précé-" / "dente" where "précédente" is printed). Two exceptions split it, because
  the source then holds two units the wrapping merely put together:
  * a hard break (two trailing spaces, a backslash, `<br>`) followed by a new sentence-like unit:
    a bold run-in label (`**MJ** : …`), a list-like marker, or a capital after a sentence that
    ended (`.`, `!`, `?`, `…`). A hard break inside a sentence, or after a colon, keeps one line.
  * a soft-wrapped line that opens a FAQ's question or answer (`Q :`, `R :`, `**Réponse :**`, `Q.`, `R -`)
    after a sentence that ended: a FAQ typed without blank lines between question and answer.
  * a soft-wrapped line that opens with a decimal rule number (`1.6.1.`, `8:3`): rulebooks
    extracted from PDFs print one rule per line without Markdown list syntax. After a column of
    bare numbers (`2.1.` `2.2.` … then the texts), the rest of the paragraph keeps its source
    lines, since which text goes with which number is for the profile to decide.
  Neither split is made inside emphasis, so `**`/`*` always pair within a line.
- Fenced and indented code blocks: kept, one line per source line, when they hold prose (no
  language named, or text/markdown, and some letters) — rulebooks use them for examples and
  answer options; code in a named language is set aside.
- A heading's closing attribute list (`## Le marché {#marche}`, `{#id .class}`, `{: #id}`) is
  taken off its title; its id is the heading line's `anchor`, so links naming it find the entry.
- A blockquote (not in a list nor in another quote) opening on a short bold label, run in
  (`> **Exemple :** Léa…`, `> **Attention !** …`) or alone on its line (`> **Note du concepteur**`),
  is an aside: its lines carry a `box` number, as a PDF's shaded box, for the walker to make a
  sidebar of it; a label alone gets a line of its own. Other quotes are read as paragraphs.
- HTML blocks: a simple table (rows of `<th>`/`<td>` on lines of their own, nothing spanning)
  is read as a Markdown table; comments are set aside; other HTML with no text is set aside; HTML
  with text keeps its text (tags removed: inline ones with no space, others as one) as one line,
  with a warning.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

from extract.files import TEXT_LIMIT, read_input
from extract.model import Anomaly, Line, SetAside
from extract.patterns import aside_label
from extract.read import READERS, Reader, Reading
from extract.read.text import decode
from extract.text import INVISIBLE, hyphen_evidence, hyphen_stays

_MD = MarkdownIt("commonmark").enable("table").enable("strikethrough").disable("text_join")

_CONTAINER = re.compile(r"^\s{0,3}(?::{3,}|§{3,})(?:\s*\S.*)?$")
_YAML_KEY = re.compile(r"^[\w\"'-][\w\s\"'.-]*:(?:\s|$)")
_TOML_KEY = re.compile(r"^[\w\"'.-]+\s*=")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
# A site's breadcrumb above the page's first heading: "**[Living Rules](../contents.md)** > **Actions**"
_CRUMB_SEPARATOR = re.compile(r"\s(?:>|›)\s")
_LINK = re.compile(r"\[[^\[\]]+\]\([^)]*+\)")
_MARKED_PART = re.compile(rf"\A(?:(?:\*\*|__)?{_LINK.pattern}(?:\*\*|__)?|(?:\*\*|__).+(?:\*\*|__))")  # a link or bold, whole (fullmatch)
_NOT_CRUMB = re.compile(r"^(?:>|#|\||[-*+]\s|\d+[.)]\s|`{3}|~{3})")
_ATX = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
_SETEXT = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
_LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:")
# A footnote's definition, "[^1]: Le Crâne reste perdu…" (CommonMark reads it as a paragraph)
_FOOTNOTE_DEFINITION = re.compile(r"^\s{0,3}\[\^(?P<id>[^\]\s]+)\]:")
_QUOTE_MARKERS = re.compile(r"^\s*(?:>\s*)+$")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s*$")
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
# A tag, or a "<" no ">" closes, read to the end once and kept (`_closed_tag`)
_TAG = re.compile(r"<[^>]*+(?P<closed>>)?")
# Tags inside a line of text ("<b>Ferraille</b>."): removed with no space, or "Ferraille ." would
# read; any other tag (div, p, br, li, td…) parts what it holds from what follows, so a space.
_INLINE_TAG = re.compile(r"</?(?:a|abbr|b|bdi|bdo|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|strike|"
                         r"strong|sub|sup|time|tt|u|var)\b[^>]*+(?P<closed>>)?", re.I)
_BR = re.compile(r"^<br\s*/?>$", re.I)
_SPACES = re.compile(r"[ \t]+")
_WHOLE_BOLD = re.compile(r"^\*\*(?!\*)(.+?)(?<!\*)\*\*$")
# A soft-wrapped line opening with a decimal rule number: "1.6.1.", "21.9.", "8:3", "4.5.2 le…".
_RULE_NUMBER = re.compile(r"^\d+(?:[.:]\d+)+[.)]?(?:\s|$)")
# What a new unit looks like after a hard break (see the module docstring).
_BARE_NUMBER = re.compile(r"^\d+(?:[.:]\d+)*[.)]?$")
_NEW_UNIT = re.compile(r"^(?:\*\*|[-–—•]\s|\d{1,3}[.)]\s|[a-z]\)\s)")
_QA_LABEL = re.compile(r"^(?:\*\*)?(?:Q|R|Question|Réponse)(?:\s+\d{1,4}(?:[.:]\d{1,3})*)?\s*(?:\*\*)?"
                       r"(?:\s*:|\.(?=\s|\*\*)|\s+[-–—](?=\s))")  # "Q :", "Q.", "R -", as the faq profile reads them
_SENTENCE_END = re.compile(r"[.!?…][»\"”’)\]*_\s]*$")
_CAPITAL = re.compile(r"^[«\"“(*_\s]*[A-ZÀ-ÖØ-Þ0-9]")
_PROSE_INFO = ("", "text", "txt", "plain", "plaintext", "md", "markdown", "prose")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
# A heading's attribute list closing its line (Pandoc, kramdown, Python-Markdown's attr_list):
# "## Le marché {#marche}", "{#id .class}", "{: #id}", "{-}", "{.unnumbered}". Not the title's
# words: taken off, its `#id` kept as the heading's anchor.
_ATTRIBUTE = r"(?:#[^\s{}#]+|\.[^\s{}#.]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}\"']+)|-)"
_HEADING_ATTRIBUTES = re.compile(rf"(?<!\s)\s++\{{:?\s*(?P<items>{_ATTRIBUTE}(?:\s+{_ATTRIBUTE})*)\s*\}}$")
_ATTRIBUTE_ID = re.compile(r"(?:^|\s)#(?P<id>[^\s{}#]+)")


@dataclass
class _Piece:
    """A run of one paragraph's inline content on consecutive source lines."""

    line: int  # 0-based source line where it starts
    text: str = ""
    images: int = 0
    comment: bool = False
    html: bool = False
    ends_hard: bool = False  # ended by a hard break


@dataclass
class _State:
    source: list[str]
    stem: str
    lines: list[Line] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    placed: set[int] = field(default_factory=set)  # 1-based source lines placed or set aside
    evidence: dict[str, int] = field(default_factory=dict)
    levels: list[int] = field(default_factory=list)
    rule_splits: list[int] = field(default_factory=list)
    qa_splits: list[int] = field(default_factory=list)
    number_columns: list[int] = field(default_factory=list)
    html_kept: list[int] = field(default_factory=list)
    html_dropped: list[int] = field(default_factory=list)
    code_kept: list[int] = field(default_factory=list)
    code_dropped: list[int] = field(default_factory=list)
    footnotes: list[int] = field(default_factory=list)
    box: int | None = None  # the labelled blockquote (an aside) the lines now emitted stand in
    boxes: int = 0  # labelled blockquotes so far
    label_alone: int | None = None  # 0-based source line of an aside's label standing alone

    def __post_init__(self) -> None:
        self.blanks = [not line.translate(INVISIBLE).strip() for line in self.source]
        self._words: tuple[set[str], set[str]] | None = None

    @property
    def words(self) -> tuple[set[str], set[str]]:
        """The document's `hyphen_evidence`, read once it is first needed."""
        if self._words is None:
            self._words = hyphen_evidence(self.source)
        return self._words

    def blank(self, no: int) -> bool:
        return self.blanks[no - 1]

    def nonblank(self, first: int, last: int) -> list[int]:
        """1-based non-blank source lines first..last not yet placed."""
        return [no for no in range(first, last + 1) if not self.blank(no) and no not in self.placed]

    def emit(self, text: str, nos: Sequence[int], hard_break: bool = False, anchor: str | None = None) -> None:
        """One output line for the given source lines (the first is its `no`); `anchor`: a
        heading's own id."""
        nos = [no for no in nos if no not in self.placed and not self.blank(no)]
        if not nos:
            return
        text = text.translate(INVISIBLE).rstrip()
        if not text.strip():
            self.aside(nos, "no text")
            return
        self.lines.append(Line(nos[0], text, hard_break=hard_break, covers=tuple(nos[1:]), anchor=anchor, box=self.box))
        self.placed.update(nos)

    def aside(self, nos: Sequence[int], reason: str) -> None:
        """Set aside the given source lines, one range per run of consecutive non-blank ones."""
        nos = sorted(no for no in nos if no not in self.placed and not self.blank(no))
        start = previous = None
        for no in nos:
            if start is not None and all(self.blank(n) for n in range(previous + 1, no)):
                previous = no
                continue
            if start is not None:
                self.set_aside.append(SetAside((start, previous), reason))
            start = previous = no
        if start is not None:
            self.set_aside.append(SetAside((start, previous), reason))
        self.placed.update(nos)

    def count(self, key: str) -> None:
        self.evidence[key] = self.evidence.get(key, 0) + 1


def read_markdown(path: Path, display: str, encoding: str = "utf-8", data: bytes | None = None) -> Reading:
    data = read_input(path, display, TEXT_LIMIT) if data is None else data
    text = decode(data, display, encoding).lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    source = text.split("\n")
    state = _State(source, path.stem)
    parsed = _blank_out(state)
    _walk(_MD.parse("\n".join(parsed)), state)
    _leftovers(state)
    state.lines.sort(key=lambda line: line.no)
    state.set_aside.sort(key=lambda s: s.lines)
    _report(state)
    lines_read = sum(1 for no in range(1, len(source) + 1) if not state.blank(no))
    evidence = {
        "headings": state.evidence.get("headings", 0),
        "heading_levels": sorted(set(state.levels)),
        "list_items": state.evidence.get("list_items", 0),
        "ordered_items": state.evidence.get("ordered_items", 0),
        "tables": state.evidence.get("tables", 0),
        "questions": state.evidence.get("questions", 0),
    }
    return Reading("markdown", state.lines, state.set_aside, state.anomalies, lines_read=lines_read, evidence=evidence)


def _blank_out(state: _State) -> list[str]:
    """The source with front matter and container markers blanked (set aside), line count kept."""
    parsed = list(state.source)
    first = next((i for i, line in enumerate(parsed) if line.strip()), None)
    if first == 0 and parsed[0].strip() in ("---", "+++"):
        fence = parsed[0].strip()
        closers = (fence, "...") if fence == "---" else (fence,)
        end = next((i for i in range(1, len(parsed)) if parsed[i].strip() in closers), None)
        # Front matter holds keys ("title: …", "title = …"); a rule above prose does not.
        key = _YAML_KEY if fence == "---" else _TOML_KEY
        if end is not None and any(key.match(line) for line in parsed[1:end]):
            state.aside(range(1, end + 2), "front matter")
            for i in range(end + 1):
                parsed[i] = ""
    crumb = next((i for i, line in enumerate(parsed) if line.strip()), None)
    if crumb is not None and is_breadcrumb(parsed[crumb]) and has_heading(parsed[crumb + 1:]):
        state.aside([crumb + 1], "breadcrumb (the site's navigation)")
        parsed[crumb] = ""
    fence_open: str | None = None
    for i, line in enumerate(parsed):
        fence = _FENCE.match(line)
        if fence_open is not None:
            if fence and fence.group(1)[0] == fence_open[0] and len(fence.group(1)) >= len(fence_open) and not line.strip()[
                    len(fence.group(1)):].strip():
                fence_open = None
            continue
        if fence:
            fence_open = fence.group(1)
            continue
        if _CONTAINER.match(line):
            state.aside([i + 1], "container marker")
            parsed[i] = ""
    return parsed


def is_breadcrumb(line: str) -> bool:
    """"**[A](a.md)** > **B**" (every part bold or a link), or "[A](a.md) > B > C" (three short
    parts or more, one a link): not a sentence, a quote, a heading, a table row or a list item."""
    text = line.strip()
    parts = _CRUMB_SEPARATOR.split(text)
    if len(parts) < 2 or _NOT_CRUMB.match(text) or text.endswith((".", "!", "?", ":", ";")):
        return False
    if not all(0 < len(_LINK.sub("x", part).strip("* _")) <= 60 for part in parts):
        return False
    return all(_MARKED_PART.fullmatch(part.strip()) for part in parts) or (len(parts) >= 3 and bool(_LINK.search(text)))


def has_heading(lines: list[str]) -> bool:
    """Whether `lines` hold a heading (ATX or setext) outside code fences."""
    fence: str | None = None
    previous = ""
    for line in lines:
        opened = _FENCE.match(line)
        if fence is not None:
            fence = None if opened and opened.group(1)[0] == fence[0] else fence
            continue
        if opened:
            fence = opened.group(1)
            continue
        if _ATX.match(line) or (previous.strip() and _SETEXT.match(line)):
            return True
        previous = line
    return False


def _walk(tokens: list[Token], state: _State) -> None:
    """Turn the block tokens into lines, keeping track of list nesting."""
    lists: list[str] = []  # "bullet" | "ordered", outermost first
    markers: list[str | None] = []  # per open list item: the marker its first line still needs
    quotes = 0  # open blockquotes
    i = 0
    while i < len(tokens):
        token = tokens[i]
        kind = token.type
        indent = "  " * max(len(lists) - 1, 0)
        if kind in ("bullet_list_open", "ordered_list_open"):
            lists.append("bullet" if kind.startswith("bullet") else "ordered")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            state.count("list_items")
            if lists[-1] == "ordered":
                state.count("ordered_items")
                markers.append(f"{token.info or '1'}. ")
            else:
                markers.append("- ")
        elif kind == "list_item_close":
            markers.pop()
        elif kind == "blockquote_open":
            if not quotes and not lists and _aside(tokens, i, state):
                state.boxes += 1
                state.box = state.boxes
            quotes += 1
        elif kind == "blockquote_close":
            quotes -= 1
            if not quotes:
                state.box = state.label_alone = None
        elif kind == "heading_open":
            _heading(token, tokens[i + 1], state, indent if lists else "")
            i += 2
        elif kind == "paragraph_open":
            marker = markers[-1] if markers else None
            if markers:
                markers[-1] = None
            prefix = indent + (marker or "") if lists else ""
            _paragraph(token, tokens[i + 1], state, prefix, indent if lists else "", bool(lists))
            i += 2
        elif kind == "table_open":
            i = _table(tokens, i, state, indent if lists else "")
            continue
        elif kind in ("fence", "code_block"):
            _code(token, state, indent if lists else "")
        elif kind == "html_block":
            _html_block(token, state, indent if lists else "")
        elif kind == "hr":
            state.aside(_range(token), "horizontal rule")
        i += 1


def _aside(tokens: list[Token], i: int, state: _State) -> bool:
    """Whether the blockquote opening at `tokens[i]` is an aside: its first paragraph opens on a
    short capitalised bold label, run in ("**Exemple :** Léa…", "**Attention !** Un héros…") or
    alone on its line with more of the quote after it ("**Note du concepteur**"). Its lines then
    stand in a box (`Line.box`), as a PDF's shaded box. A label alone gets a line of its own."""
    if i + 2 >= len(tokens) or tokens[i + 1].type != "paragraph_open" or tokens[i + 2].type != "inline":
        return False
    inline = tokens[i + 2]
    lines = inline.content.split("\n")
    label = aside_label(lines[0])
    if label is None:
        return False
    title, rest, run_in = label
    if not title[:1].isupper() or title.endswith(".") or len(title.split()) > 6:
        return False
    if run_in:
        return True
    more = len(lines) > 1 or (i + 4 < len(tokens) and tokens[i + 4].type != "blockquote_close")
    if rest or not more:
        return False  # a bold run opening a sentence ("**Les dés** sont lancés…"), or all the quote holds
    if len(lines) > 1 and inline.map:
        state.label_alone = inline.map[0]
    return True


def _range(token: Token) -> list[int]:
    first, end = token.map or (0, 0)
    return list(range(first + 1, end + 1))


def _heading(token: Token, inline: Token, state: _State, indent: str) -> None:
    level = int(token.tag[1])
    pieces = _pieces(inline, state)
    text = " ".join(p.text for p in pieces if p.text).strip()
    nos = _range(token)
    anchor = None
    attributes = _HEADING_ATTRIBUTES.search(" " + text)
    if attributes:
        text = text[: len(text) + 1 - len(attributes.group(0))].strip()
        found = _ATTRIBUTE_ID.search(attributes.group("items"))
        anchor = found.group("id") if found else None
    if not text:
        state.aside(nos, "image" if any(p.images for p in pieces) else "empty heading")
        return
    whole = _WHOLE_BOLD.match(text)
    if whole and "**" not in whole.group(1):
        text = whole.group(1).strip()
    state.count("headings")
    state.levels.append(level)
    if text.endswith("?"):
        state.count("questions")
    state.emit(f"{indent}{'#' * level} {text}", nos, anchor=anchor)


def _paragraph(token: Token, inline: Token, state: _State, prefix: str, indent: str, in_list: bool = False) -> None:
    """One line per paragraph, or several where it holds several units (see the docstring).

    `prefix` opens the first line (indent and list marker); later ones get `indent` only.
    """
    first, end = token.map or (0, 0)
    footnote = _FOOTNOTE_DEFINITION.match(state.source[first]) if first < len(state.source) else None
    if footnote:
        _footnote(footnote.group("id"), _range(token), state)
        return
    pieces = _pieces(inline, state, first, end)
    groups: list[list[_Piece]] = []
    previous: _Piece | None = None
    hard = column = False
    outside = 0  # the first group written after the list, not in its last item (0: none)
    for n, piece in enumerate(pieces):
        if not piece.text.strip():
            reason = "image" if piece.images else "HTML comment" if piece.comment else "HTML without text" if piece.html else None
            if reason:
                last = pieces[n + 1].line if n + 1 < len(pieces) else end
                state.aside(state.nonblank(piece.line + 1, last), reason)
            hard = hard or piece.ends_hard
            continue
        # A column of bare numbers ("2.1." "2.2." … then their texts, as a PDF extraction prints
        # them): where one text ends is unknown here, so the rest of the paragraph keeps its lines.
        if not column and len(groups) > 1 and all(len(g) == 1 and _BARE_NUMBER.match(g[0].text.strip()) for g in groups[-2:]):
            column = True
            state.number_columns.append(piece.line + 1)
        label = previous is not None and previous.line == state.label_alone  # an aside's label, alone on its line
        lazy = in_list and previous is not None and not outside and _leaves_list(previous, piece, state)
        if previous is None or not (column or label or lazy or _splits(previous, piece, hard)):
            if groups:
                groups[-1].append(piece)
            else:
                groups.append([piece])
        else:
            groups.append([piece])
            if lazy:
                outside = len(groups) - 1  # from this group on, a paragraph after the list
            elif not hard and not column and not label:
                (state.qa_splits if _QA_LABEL.match(piece.text.strip()) else state.rule_splits).append(piece.line + 1)
        previous, hard = piece, piece.ends_hard
    if not groups:
        reason = "image" if any(p.images for p in pieces) else "HTML comment" if any(p.comment for p in pieces) else "no text"
        state.aside(_range(token), reason)
        return
    counted = _count_items(groups)
    for n, group in enumerate(groups):
        start = group[0].line + 1 if n else first + 1
        last = groups[n + 1][0].line if n + 1 < len(groups) else end
        text = _SPACES.sub(" ", _joined([p.text.strip() for p in group], state))
        if text.endswith("?") and not in_list:
            state.count("questions")
        lead = "" if outside and n >= outside else prefix if n == 0 else indent
        if counted and not in_list:
            lead = "- "  # a line of a components list ("40 cartes Action") is an item of it
        state.emit(lead + text, state.nonblank(start, last), hard_break=group[-1].ends_hard)


def _leaves_list(previous: _Piece, piece: _Piece, state: _State) -> bool:
    """Whether `piece`, a line Markdown reads as the lazy continuation of a list item's paragraph,
    is a paragraph after the list: written at the margin (not under the item's text), opening on a
    capital after a line that ends its sentence ("- les autres prennent 3 cartes." / "Ensuite…")."""
    raw = state.source[piece.line] if piece.line < len(state.source) else ""
    return (raw[:1] not in (" ", "\t") and _SENTENCE_END.search(previous.text.strip()) is not None
            and _CAPITAL.match(piece.text.strip()) is not None and not _NEW_UNIT.match(piece.text.strip()))


COUNT_LINE = re.compile(r"^\d{1,3}\s[^\W\d_]")  # "40 cartes Action", "1 plateau de jeu"
COUNT_LINE_WORDS = 8


def _count_items(groups: list[list[_Piece]]) -> bool:
    """Whether a paragraph's lines are the lines of a components list, one thing each ("1 plateau
    de jeu" / "40 cartes Action" / "12 pions en bois"): each line a count and a few words, none
    ending a sentence. The groups are then one line each."""
    pieces = [p for group in groups for p in group]
    if len(pieces) < 2 or len(groups) != 1:
        return False
    texts = [p.text.strip() for p in pieces]
    if not all(COUNT_LINE.match(t) and len(t.split()) <= COUNT_LINE_WORDS and not t.endswith((".", ";", ",")) for t in texts):
        return False
    groups[:] = [[p] for p in pieces]
    return True


def _footnote(name: str, nos: list[int], state: _State) -> None:
    """A footnote's definition is set aside, never left as a rule paragraph where it is printed
    (at the end of the page, under the last entry): the reason says which line calls it."""
    call = f"[^{name}]"
    calls = [no for no, line in enumerate(state.source, 1) if call in line and no not in nos]
    where = f"called on line {', '.join(map(str, calls[:3]))}" if calls else "that no line calls"
    state.aside(nos, f"footnote {call} {where}: a note, not the text of the rules where it is printed")
    state.footnotes.extend(nos[:1])


def _joined(texts: list[str], state: _State) -> str:
    """A paragraph's wrapped lines as one: a space between two, none after a compound's hyphen
    (hard-wrapped Markdown breaks there), the hyphen gone where the document writes the word whole
    (`hyphen_stays`). Joined once: a long paragraph is not copied line by line."""
    out = [texts[0]]
    for text in texts[1:]:
        last = out[-1]
        if last.endswith("-") and len(last) > 1 and last[-2].isalpha() and text[:1].isalpha():
            if not hyphen_stays(state.words, last, text, default=True):
                out[-1] = last[:-1]
        else:
            out.append(" ")
        out.append(text)
    return "".join(out)


def _splits(previous: _Piece, piece: _Piece, hard: bool) -> bool:
    before, after = previous.text.strip(), piece.text.strip()
    if _RULE_NUMBER.match(after) or (_QA_LABEL.match(after) and _SENTENCE_END.search(before)):
        return True
    if not hard:
        return False
    return bool(_NEW_UNIT.match(after) or (_SENTENCE_END.search(before) and _CAPITAL.match(after)))


def _pieces(inline: Token, state: _State, first: int | None = None, end: int | None = None) -> list[_Piece]:
    """The inline content cut at line breaks outside emphasis, rendered in light Markdown."""
    if first is None:
        first = inline.map[0] if inline.map else 0
    line = first
    pieces = [_Piece(line)]
    stack: list[tuple[str, list[str]]] = []  # open emphasis or link: (closing markup, parts before it)
    parts: list[str] = []
    br = False  # an inline "<br>" since the last text: the coming line break is a hard one

    for child in inline.children or []:
        kind = child.type
        if kind in ("softbreak", "hardbreak"):
            line += 1
            if stack:  # inside emphasis or a link: never cut, so markers pair within a line
                parts.append(" ")
                continue
            pieces[-1].text = "".join(parts)
            pieces[-1].ends_hard = kind == "hardbreak" or br
            parts.clear()
            pieces.append(_Piece(line))
            br = False
        elif kind == "html_inline":
            content = child.content
            line += content.count("\n")
            if _BR.match(content.strip()):
                parts.append(" ")
                br = True
            elif content.startswith("<!--"):
                pieces[-1].comment = True
            else:
                pieces[-1].html = True
        elif kind in ("text", "code_inline", "text_special"):
            content = "\\*" if kind == "text_special" and child.content == "*" else child.content
            parts.append(content)
            br = br and not content.strip()
        elif kind in ("em_open", "strong_open", "s_open"):
            stack.append(({"em_open": "*", "strong_open": "**"}.get(kind, "~~"), list(parts)))
            parts.clear()
        elif kind == "link_open":
            href = str(child.attrs.get("href", ""))
            anchor = _internal_anchor(href, state.stem)
            external = _external_url(href)
            stack.append((f"](#{anchor})" if anchor else f"]({external})" if external else "]", list(parts)))
            parts.clear()
        elif kind in ("em_close", "strong_close", "s_close", "link_close") and stack:
            markup, before = stack.pop()
            inner = "".join(parts)
            parts[:] = before
            if not inner.strip() or markup == "]":
                parts.append(inner)  # empty emphasis (an image was all it held), or a link reduced to its text
            elif markup.startswith("]"):
                parts.append(f"[{inner.strip()}{markup}")
            else:
                lead, core, trail = _split_space(inner)
                parts.append(f"{lead}{markup}{core}{markup}{trail}")
        elif kind == "image":
            pieces[-1].images += 1
    while stack:  # unbalanced (should not happen): keep what was read
        _, before = stack.pop()
        parts[:] = before + parts
    pieces[-1].text = "".join(parts)
    if end is not None:
        for piece in pieces:
            piece.line = min(piece.line, end - 1)
    return pieces


def _split_space(text: str) -> tuple[str, str, str]:
    core = text.strip()
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()):]
    return lead, core, trail


def _internal_anchor(href: str, stem: str) -> str | None:
    """The anchor of a link into this same document ("#x", "./this.md#x", "/this/#x"), else None."""
    if "#" not in href:
        return None
    parts = urlsplit(href)
    if not parts.fragment:
        return None
    if parts.scheme or parts.netloc:
        return None
    path = parts.path.rstrip("/")
    if path and PurePosixPath(path).stem != stem:
        return None
    return parts.fragment


def _external_url(href: str) -> str | None:
    """A link to a web address ("https://wiki.example.org/x", "mailto:…"), kept in `markdown`; its
    spaces and parentheses escaped, so the link reads as one ("[text](url)") downstream. A
    relative link to another file of the site points nowhere once read: its text alone is kept."""
    parts = urlsplit(href)
    if parts.scheme.lower() not in ("http", "https", "mailto") or not (parts.netloc or parts.scheme.lower() == "mailto"):
        return None
    return href.replace(" ", "%20").replace("(", "%28").replace(")", "%29")


def _table(tokens: list[Token], i: int, state: _State, indent: str) -> int:
    """One line per row, header first; the delimiter row joins the header's covers."""
    table = tokens[i]
    state.count("tables")
    rows: list[tuple[list[int], list[str]]] = []
    cells: list[str] = []
    row_map: list[int] = []
    i += 1
    while i < len(tokens) and tokens[i].type != "table_close":
        token = tokens[i]
        if token.type == "tr_open":
            cells, row_map = [], _range(token)
        elif token.type == "inline":
            text = " ".join(p.text.strip() for p in _pieces(token, state) if p.text.strip())
            cells.append(text.replace("|", "\\|"))
        elif token.type == "tr_close":
            rows.append((row_map, cells))
        i += 1
    first, end = table.map or (0, 0)
    for n, (nos, row) in enumerate(rows):
        if n == 0 and nos:
            nos = nos + [nos[-1] + 1]  # the delimiter row
        state.emit(indent + "| " + " | ".join(row) + " |", nos)
    state.aside(state.nonblank(first + 1, end), "table line")
    return i + 1


def _code(token: Token, state: _State, indent: str) -> None:
    nos = _range(token)
    info = token.info.strip().split(" ")[0].lower() if token.type == "fence" else ""
    if info in _PROSE_INFO and _LETTERS.search(token.content):
        state.code_kept.append(nos[0])
        body = nos[1:-1] if token.type == "fence" else nos
        if token.type == "fence":
            state.aside([nos[0]], "code fence")
            # An unclosed fence runs to the end of the document: its last line is content.
            closing = state.source[nos[-1] - 1].strip()
            if closing and closing[0] == token.markup[0] and set(closing) == {closing[0]}:
                state.aside([nos[-1]], "code fence")
            else:
                body = nos[1:]
        for no in body:
            state.emit(indent + _SPACES.sub(" ", state.source[no - 1].strip()), [no])
    else:
        state.code_dropped.append(nos[0])
        state.aside(nos, "code block" + (f" ({info})" if info else ""))


class _TableParser(HTMLParser):
    """A simple HTML table's rows: (first line, last line, cells), lines 1-based in the block;
    `simple` turns False on anything a Markdown table cannot say (rowspan, colspan, a caption, a
    nested table, a list in a cell, text outside the cells…) or a row sharing a line with another."""

    STRUCTURE = frozenset({"table", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[int, int, list[str]]] = []
        self.simple = True
        self.tables = 0
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.first = self.last = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag in ("br", "p") and self.cell is not None:
            self.cell.append(" ")
        elif (inline := _INLINE_TAG.fullmatch(f"<{tag}>")) and inline.group("closed") and self.cell is not None:
            pass
        elif tag not in self.STRUCTURE or any(name in ("rowspan", "colspan") and (value or "1").strip() != "1" for name, value in attrs):
            self.simple = False
        elif tag == "table":
            self.tables += 1
            self.simple = self.simple and self.tables == 1
        elif tag == "tr":
            self.close_row()
            self.row, self.first = [], line
        elif tag in ("th", "td"):
            if self.row is None:
                self.simple = False
                return
            self.close_cell()
            self.cell = []
        self.last = line

    def handle_endtag(self, tag: str) -> None:
        self.last = self.getpos()[0] if self.row is not None else self.last
        if tag in ("th", "td"):
            self.close_cell()
        elif tag in ("tr", "thead", "tbody", "tfoot", "table"):
            self.close_row()

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
            self.last = self.getpos()[0] + data.rstrip().count("\n")
        elif data.strip():
            self.simple = False

    def handle_comment(self, data: str) -> None:
        self.simple = False

    def close_cell(self) -> None:
        if self.cell is not None and self.row is not None:
            self.row.append(_SPACES.sub(" ", "".join(self.cell).replace("\n", " ")).strip().replace("|", "\\|"))
        self.cell = None

    def close_row(self) -> None:
        self.close_cell()
        if self.row is not None:
            if self.rows and self.first <= self.rows[-1][1]:
                self.simple = False  # two rows on one line: one output line each is not possible
            if self.row:
                self.rows.append((self.first, self.last, self.row))
        self.row = None


def _html_table(token: Token, state: _State, indent: str) -> bool:
    """A simple HTML table (`<table>`, rows of `<th>`/`<td>`, nothing spanning) read as a Markdown
    table: one line per row, the tags' own lines set aside. False, nothing done, for any other."""
    content = token.content.strip()
    if not (content[:6].lower() == "<table" and content[-8:].lower() == "</table>"):
        return False
    parser = _TableParser()
    try:
        parser.feed(token.content)
        parser.close()
    except (AssertionError, ValueError):  # markup the parser cannot read is no simple table
        return False
    if not parser.simple or parser.tables != 1 or not parser.rows:
        return False
    first, end = token.map or (0, 0)
    state.count("tables")
    for top, bottom, cells in parser.rows:
        state.emit(indent + "| " + " | ".join(cells) + " |", state.nonblank(first + top, first + bottom))
    state.aside(state.nonblank(first + 1, end), "table line")
    return True


def _closed_tag(replacement: str) -> Callable[[re.Match[str]], str]:
    """What replaces a tag match: `replacement` for a closed tag, the text itself for a "<" no ">" closes."""
    return lambda match: replacement if match.group("closed") else match.group(0)


def _html_block(token: Token, state: _State, indent: str) -> None:
    if _html_table(token, state, indent):
        return
    nos = _range(token)
    content = token.content
    without_comments = _COMMENT.sub("", content)
    text = html.unescape(_TAG.sub(_closed_tag(" "), _INLINE_TAG.sub(_closed_tag(""), without_comments)))
    text = _SPACES.sub(" ", text.replace("\n", " ")).strip()
    if not text:
        if not without_comments.strip():
            state.aside(nos, "HTML comment")
        else:
            state.html_dropped.append(nos[0])
            state.aside(nos, "HTML without text")
        return
    state.html_kept.append(nos[0])
    state.emit(indent + text, state.nonblank(nos[0], nos[-1]))


def _leftovers(state: _State) -> None:
    """Non-blank lines no block placed: link definitions, bare `>` or list markers, or unread."""
    runs: list[tuple[str, list[int]]] = []
    in_definition = False
    for no in range(1, len(state.source) + 1):
        if state.blank(no) or no in state.placed:
            in_definition = False
            continue
        line = state.source[no - 1]
        if _LINK_DEFINITION.match(line) or in_definition:
            reason, in_definition = "link definition", True  # its title may stand on the next line
        elif _QUOTE_MARKERS.match(line):
            reason = "empty quote line"
        elif _LIST_MARKER.match(line):
            reason = "empty list item"
        else:
            reason = "not read"
        if runs and runs[-1][0] == reason:
            runs[-1][1].append(no)
        else:
            runs.append((reason, [no]))
    unread = [no for reason, nos in runs if reason == "not read" for no in nos]
    for reason, nos in runs:
        state.aside(nos, reason)
    if unread:
        state.anomalies.append(Anomaly("markdown-unread", f"{len(unread)} line(s) no Markdown block holds", unread, "warning"))


def _report(state: _State) -> None:
    previous = None
    skips = []
    for line in state.lines:
        hashes = re.match(r"^\s*(#{1,6}) ", line.text)
        if not hashes:
            continue
        level = len(hashes.group(1))
        if previous is not None and level > previous + 1:
            skips.append((line.no, previous, level))
        previous = level
    if skips:
        detail = "; ".join(f"line {no}: level {a} then {b}" for no, a, b in skips[:5]) + ("…" if len(skips) > 5 else "")
        state.anomalies.append(Anomaly("heading-level-skipped", detail, [s[0] for s in skips], "warning"))
    if state.html_kept:
        state.anomalies.append(Anomaly("html-kept", f"{len(state.html_kept)} raw HTML block(s) kept as text, tags removed",
                                       state.html_kept, "warning"))
    if state.html_dropped:
        state.anomalies.append(Anomaly("html-dropped", f"{len(state.html_dropped)} raw HTML block(s) without text set aside",
                                       state.html_dropped))
    if state.code_kept:
        state.anomalies.append(Anomaly("code-kept", f"{len(state.code_kept)} code block(s) holding prose kept, one line per line",
                                       state.code_kept))
    if state.code_dropped:
        state.anomalies.append(Anomaly("code-dropped", f"{len(state.code_dropped)} code block(s) set aside", state.code_dropped))
    if state.footnotes:
        state.anomalies.append(Anomaly("footnotes-set-aside", f"{len(state.footnotes)} footnote definition(s) set aside "
                                       "(the reason names the line calling each)", state.footnotes))
    if state.rule_splits:
        state.anomalies.append(Anomaly(
            "wrapped-rule-numbers", f"{len(state.rule_splits)} wrapped line(s) open with a rule number: each starts a new line",
            state.rule_splits))
    if state.qa_splits:
        state.anomalies.append(Anomaly(
            "wrapped-questions", f"{len(state.qa_splits)} wrapped line(s) open a question or an answer (Q :, R :): "
            "each starts a new line", state.qa_splits))
    if state.number_columns:
        state.anomalies.append(Anomaly(
            "number-column", f"{len(state.number_columns)} column(s) of bare rule numbers: the text after each keeps its source lines",
            state.number_columns, "warning"))
    if not state.lines:
        state.anomalies.append(Anomaly("no-text", "nothing but front matter, comments or markup", [], "severe"))
    elif len(state.lines) == 1 and state.evidence.get("headings"):
        state.anomalies.append(Anomaly("only-heading", "the document holds one heading and nothing else",
                                       [state.lines[0].no], "warning"))


READERS.add("markdown", Reader("markdown", (".md", ".markdown"), read_markdown), priority=10)
