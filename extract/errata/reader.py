"""The errata reader: any French errata or FAQ text in, its operations out, and every passage
that looks like an erratum but is not fully understood listed with its line and why.

Four layers, each in its own module and tested on its own:
passages (`passages.cut`) → locators (`locators.read_locator`) → operations from the cue table
(`operations.OperationReader`) → classification, here: erratum, clarification or not understood.
Nothing read is dropped in silence: a passage with an errata cue (or quoted text after a locator)
that gives no complete operation is `erratum-not-understood` with the part that failed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from extract.errata.locators import Locator, opens_with_locator, read_locator
from extract.errata.operations import OperationReader, Reading, cue_table, language, mask, matcher, without_ellipses
from extract.errata.passages import CLOSE, OPEN, Document, Passage, cut, normalise
from extract.text import fold, without_italic

# A passage longer than this (no sentence end, no list marker in it) is listed, not parsed.
MAX_PASSAGE = 5000
# Words of a heading that say what the passages below it are.
CLARIFICATION_HEADING = re.compile(r"\b(?:clarifications?|pr[ée]cisions?|questions?|faq|foire aux questions"
                                   r"|[ée]claircissements?|r[ée]ponses?)\b", re.IGNORECASE)
ERRATA_HEADING = re.compile(r"\berrat(?:a|um|as)\b|\bcorrections?\b|\bcorrectifs?\b|\bmises? [àa] jour\b", re.IGNORECASE)
QUESTION = re.compile(r"^\s*(?:Q\s*\d*\s*[:.)–—-]|Question\b)|\?\s*$", re.IGNORECASE)
ANSWER = re.compile(r"^\s*(?:R\s*[:.)–—-]|R[ée]ponse\b)", re.IGNORECASE)
QUESTION_MARK = re.compile(r"^\s*Q\s*[–—-]")
# A heading naming a place and nothing else: a title, its page, perhaps its sections ("Reformation,
# page 17, sections 76 et 76.2"); there is no room in it for a text to change.
HEADING_PLACE = re.compile(r"[^.!?:;«»,]{1,80}+,[ ]?(?:pages?|p\.)[ ]?\d{1,4}(?:,[ ]?(?:sections?|§)[ ]?\d[\d. et]{0,30})?[ ]*+",
                           re.IGNORECASE)
LIST_ITEM = re.compile(r"^\s*(?:[•*▪$]|[-–—](?=\s))")


@dataclass
class ReadOperation:
    line: int
    kind: str  # replace | should-say | insert | delete | swap | rename | move
    old: str | None
    new: str | None
    locator: Locator
    text: str  # the passage it was read from
    cue: str
    named: str | None = None  # the place the instruction names as what it changes ("la section 86.11")
    with_subbullets: bool = False  # a list item taken with its sub-items ("assorti de ses « sous-puces »")
    position: str | None = None  # where a moved item goes: "first" or "last"
    text_lines: tuple[int, int] | None = None  # first and last line of the text it announced below it
    part: str | None = None  # what of its place changes, when not its text: "title" ("Renommez l'arme en « X »")

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "old": self.old, "new": self.new,
                "locator": self.locator.to_json(), "text": self.text, "cue": self.cue}


@dataclass
class NotUnderstood:
    line: int
    text: str
    reason: str
    kind: str | None = None  # the operation its cue signals, when it has one
    operation: ReadOperation | None = None  # what was read of it, when only its announced text is missing

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "reason": self.reason, "kind": self.kind}


# Why a passage is taken for a clarification, by code; the code is what callers decide on, the
# message (`why`) is for people.
CLARIFICATION_CODES = {
    "answer-worded-as-correction": "worded like a correction, in a question or answer that names no place",
    "example": "an old and a new text with no place named: an example",
    "restates": "restates the operation read at line {line}, at the same place",
    "question-or-answer": "a question or its answer",
    "no-change": "a place named, but no change asked",
}


@dataclass
class Clarification:
    line: int
    text: str
    code: str  # a key of CLARIFICATION_CODES
    why: str = ""

    def __post_init__(self) -> None:
        if not self.why:
            self.why = CLARIFICATION_CODES[self.code]

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "code": self.code, "why": self.why}


@dataclass
class ErrataReading:
    """What one errata text gives: operations read, passages not understood, clarifications."""

    read: list[ReadOperation] = field(default_factory=list)
    not_understood: list[NotUnderstood] = field(default_factory=list)
    clarifications: list[Clarification] = field(default_factory=list)
    set_aside: list[int] = field(default_factory=list)  # lines of page chrome

    def to_json(self) -> dict[str, Any]:
        return {"read": [r.to_json() for r in self.read], "not_understood": [n.to_json() for n in self.not_understood],
                "clarifications": [c.to_json() for c in self.clarifications], "set_aside": self.set_aside}


def _starts_with_quote(text: str) -> bool:
    return text.lstrip(" •*-–$:").startswith(OPEN)


def _quote_of(text: str, cut_off: bool = False) -> str | None:
    """The passage's first quotation; with `cut_off`, also one the end of the text cuts."""
    masked = mask(text)
    if masked.quotes and not masked.unbalanced:
        return masked.quotes[0]
    if cut_off and text.count(OPEN) == 1 and CLOSE not in text:
        return text.split(OPEN, 1)[1].strip() or None
    return None


# A quotation opening with an ellipsis cites the printed text ("« […] impitoyable ment réprimée »"):
# corrected text stands whole.
# An instruction that announces its text below it: "… par le suivant :", "… comme suit :".
ANNOUNCED = re.compile(r"\b(?:suivante?s?|ce qui suit|comme suit)[ ]*:[ ]*$", re.IGNORECASE)
CITATION = re.compile(r"^\s*(?:\[\s*(?:…|\.\.\.)\s*\]|\(\s*(?:…|\.\.\.)\s*\))")


def _place_text(headings: list[Passage]) -> str:
    """The headings above a passage that name a place (not "Errata", not "FAQ")."""
    return " ; ".join(h.text for h in headings if re.search(r"[^\W\d_]", h.text) and (  # ".4.1", "12": no place
        not (ERRATA_HEADING.search(h.text) or CLARIFICATION_HEADING.search(h.text)) or re.search(r"\d", h.text)))


# The subject that starts an instruction after its place: "… Légende de la Carte – Il faut", "… : Le texte"
_SUBJECT_TAIL = re.compile(r"(?:[–:]|\s-)\s*(?:il|on|le|la|les|l'|ce|cette|ces|sa|son|ses|dans|au|à|en)\b[^–:]*$", re.IGNORECASE)


def _take_unit(own: Locator, subject: Locator) -> None:
    """The unit the instruction's subject names ("le deuxième point", "le point « Exposé »"), and
    nothing else of it: its quotations are no titles of the place."""
    for name in ("unit", "ordinal", "label", "within", "within_ordinal"):
        setattr(own, name, getattr(subject, name))
    if subject.unit is not None:
        own.parts.append("unit")


# The place an instruction names after its last quotation: "… par « Y » dans la dernière phrase."
# Matched on the text after the quotation, from its start (\A): a search would retry at every space.
TRAILING_PLACE = re.compile(r"\A[ ]*+(?P<place>(?:dans|de|du|en)[ ](?:la|le|l')[ ]?[^.;:!?«»]{1,60}?)[ ]*+[.;]?[ ]*+$", re.IGNORECASE)


_CONNECTOR = re.compile(r"^\W*(?:(?:puis|ensuite|enfin|de plus|également|aussi|par ailleurs|et)\b\W*)*", re.IGNORECASE)


def _own_place(head: str) -> str:
    """The words before an instruction's first cue, without the subject that opens it."""
    return _SUBJECT_TAIL.sub("", head).strip() or head


class ErrataTextReader:
    """Reads errata texts; the spaCy pipeline is loaded once, at the first text."""

    def __init__(self) -> None:
        self.operations = OperationReader()
        markers = self.operations.table.markers
        alternatives = {role: "|".join(re.escape(x) for x in sorted(markers[f"{role}_labels"], key=len, reverse=True))
                        for role in ("old", "new")}
        # "Ancien texte : …", "Nouveau texte :" (its text on the next line): a label and its text
        self.label = re.compile(rf"^[ •*–-]*(?:(?P<old>{alternatives['old']})|(?P<new>{alternatives['new']}))[ ]?:[ ]*(?P<rest>.*)$",
                                re.IGNORECASE)

    def read_text(self, text: str) -> ErrataReading:
        text, tables = _tables(text)
        document = cut(text)
        result = ErrataReading(set_aside=list(document.chrome))
        for table in tables:
            _read_table(table, result, self.operations.table.table)
        masks = [mask(p.text if len(p.text) <= MAX_PASSAGE else "") for p in document.passages]
        docs = self.operations.parse(m.text for m in masks)
        headings: list[Passage] = []
        context = Locator()
        heading_is_clarification = False
        in_errata = False  # under a heading (or a passage opening) that names errata
        after_place = False  # the passage follows a heading that names a place
        pending: ReadOperation | None = None
        last_was_heading = False
        labelled: dict[str, tuple[int, str]] = {}  # role -> (line, text) of an old/new text pair
        awaiting: str | None = None
        deleted: ReadOperation | None = None  # a deletion just read that names no text: its text may be announced
        for passage, masked, doc in zip(document.passages, masks, docs, strict=True):
            if len(passage.text) > MAX_PASSAGE:
                result.not_understood.append(NotUnderstood(passage.line, passage.text[:200], f"a passage of "
                                                           f"{len(passage.text)} characters with no sentence end: not read"))
                continue
            label = self.label.match(passage.text)
            if label or awaiting:
                role = ("old" if label.group("old") else "new") if label else awaiting
                content = label.group("rest").strip() if label else passage.text
                awaiting = None if content else role
                if content:
                    labelled[role] = (passage.line, _quote_of(content, cut_off=True) or content)
                if "new" in labelled:
                    self._pair(labelled, context, passage, result)
                    labelled = {}
                continue
            if deleted is not None and deleted is (result.read[-1] if result.read else None) and \
                    self.operations.old_announced.match(passage.text.strip()):
                pending = result.read.pop()  # "… devrait être supprimée." then "Auparavant, elle indiquait :"
                deleted = None
                continue
            if deleted is not None and deleted is (result.read[-1] if result.read else None) and \
                    (said := self.operations.old_quoted.match(masked.text.strip())) is not None and \
                    int(said.group("q")) < len(masked.quotes):
                deleted.old = masked.quotes[int(said.group("q"))].strip()  # "Auparavant, elle indiquait : « X »"
                deleted = None
                continue
            deleted = None
            if pending is not None:
                if (quote := _announced_quote(passage.text)) is not None:
                    _announced(pending, quote.strip(), document, passage)
                    result.read.append(pending)
                    pending = None
                    continue
                if ANNOUNCED.search(pending.text) and not opens_with_locator(passage.text) and \
                        not self.operations.cues(doc) and not passage.heading:
                    # "… par le suivant :" and the text, unquoted, below
                    _announced(pending, passage.text.strip(), document, passage)
                    result.read.append(pending)
                    pending = None
                    continue
                result.not_understood.append(NotUnderstood(pending.line, pending.text, "the new text it announces "
                                                           "does not follow it", pending.kind, pending))
                pending = None
            if ERRATA_HEADING.match(re.sub(r"^[ •*#0-9.–-]+", "", passage.text)):
                in_errata = True
            readings = self.operations.read_parsed(doc, masked)
            if readings and HEADING_PLACE.fullmatch(passage.text):
                readings = []  # "Modifier les Dés, page 14, section 56.4": a title that opens with a verb, and its place
            named = (readings[0].extra.get("unit") or readings[0].extra.get("place", "")) if readings else ""
            own = read_locator(f"{_own_place(readings[0].head)} {named}".strip() if readings else passage.text)
            if readings and own.unit is None and (subject := _SUBJECT_TAIL.search(readings[0].head)):
                _take_unit(own, read_locator(subject.group()))  # "Page 4 : le point « Exposé » devrait dire"
            tail = TRAILING_PLACE.match(passage.text[passage.text.rfind(CLOSE) + 1:]) if CLOSE in passage.text else None
            if readings and own.unit is None and tail is not None:
                _take_unit(own, read_locator(tail.group("place")))  # "remplacez « X » par « Y » dans la dernière phrase."
            if not readings and (passage.heading or self._locator_only(passage.text)):
                if not last_was_heading or _opens_part(passage.text):
                    headings = []  # a part ("Errata", "FAQ") takes no place from the lines above it
                headings.append(passage)
                context = read_locator(_place_text(headings))
                heading_is_clarification = bool(CLARIFICATION_HEADING.search(passage.text)) and not \
                    ERRATA_HEADING.search(passage.text)
                if ERRATA_HEADING.search(passage.text):
                    heading_is_clarification = False
                elif heading_is_clarification:
                    in_errata = False
                last_was_heading = True
                after_place = context.placed()
                continue
            last_was_heading, placed_heading = False, after_place
            after_place = False
            above = read_locator(_place_text(headings)) if headings else Locator()
            if opens_with_locator(passage.text) and not own.empty():
                context = above.merged(own)  # a place for this passage and the ones that follow it
                where = context
            elif readings and _CONNECTOR.sub("", _own_place(readings[0].head)):
                where = above.merged(own)  # its own words name its place ("Déplacement : remplacer …")
            else:
                where = context.merged(own) if not own.empty() else context  # "Puis, ajouter : …"
            answering = heading_is_clarification or ANSWER.search(passage.text) or QUESTION.search(passage.text)
            if readings and answering and not read_locator(passage.text).placed():
                # an answer worded like a correction ("Ce devrait être : « … »") names no place: no erratum
                result.clarifications.append(Clarification(passage.line, passage.text,
                                                           "answer-worded-as-correction"))
                continue
            if readings:
                pending = self._classify(document, passage, readings, where, result)
                last = result.read[-1] if result.read and pending is None else None
                deleted = last if last is not None and last.kind == "delete" and last.old is None and \
                    last.text == passage.text else None
                continue
            if placed_heading and in_errata and not heading_is_clarification and not QUESTION.search(passage.text):
                # "Carte Bombardement de Rok (# 41)" then its text: perhaps the corrected text, given bare
                result.not_understood.append(NotUnderstood(passage.line, passage.text, "text right under a place in "
                                                           "the errata, but no verb says what to change"))
                continue
            if in_errata and not heading_is_clarification and LIST_ITEM.match(passage.text) and \
                    len(passage.text.split()) > 3 and not QUESTION.search(passage.text):
                result.not_understood.append(NotUnderstood(passage.line, passage.text, "an item of the errata list, "
                                                           "but no verb says what to change"))
                continue
            self._without_cue(document, passage, where, own, heading_is_clarification, result)
        if pending is not None:
            result.not_understood.append(NotUnderstood(pending.line, pending.text, "the new text it announces does "
                                                       "not follow it (end of text)", pending.kind, pending))
        result.read.sort(key=lambda r: r.line)
        result.not_understood.sort(key=lambda r: r.line)
        return result

    @staticmethod
    def _pair(labelled: dict[str, tuple[int, str]], where: Locator, passage: Passage, result: ErrataReading) -> None:
        """An old text and its new one given under labels: a replace where a place is named;
        with no place, an example (a glossary's "Ancien texte / Nouveau texte" shows a rule)."""
        line, new = labelled["new"]
        old = labelled["old"][1] if "old" in labelled else None
        if where.placed():
            kind = "replace" if old else "should-say"
            result.read.append(ReadOperation(line, kind, old, new, where, passage.text, "labels"))
        else:
            result.clarifications.append(Clarification(line, new, "example"))

    @staticmethod
    def _locator_only(text: str) -> bool:
        """A piece that only names a place ("Chapitre 5 Page 267, Propriété « Dangereux »")."""
        return opens_with_locator(text) and len(text) <= 90 and text.rstrip()[-1:] not in ".!?" and \
            text.count(OPEN) == text.count(CLOSE) and not re.search(r":[ ]*«", text)

    def _classify(self, document: Document, passage: Passage, readings: list[Reading], where: Locator,
                  result: ErrataReading) -> ReadOperation | None:
        pending = None
        for reading in readings:
            line = document.line_of(passage.start + reading.offset)
            if reading.problem is None and passage.unbalanced and reading.new is None and reading.kind in (
                    "replace", "should-say", "insert"):
                reading.problem = "unbalanced quotes: a quotation is opened and never closed"
            if reading.problem is not None:
                result.not_understood.append(NotUnderstood(line, passage.text, reading.problem, reading.kind))
                continue
            kind = reading.kind
            if kind == "replace" and reading.cue == "become" and not where.placed() and all(
                    len((x or "").split()) <= 4 for x in (reading.old, reading.new)):
                kind = "rename"  # "« Retiré du jeu » devient « Banni »", no place named: a term, everywhere
            found = ReadOperation(line, kind, reading.old, reading.new, where, passage.text, reading.cue,
                                  reading.extra.get("unit"), bool(reading.extra.get("with_subbullets")),
                                  reading.extra.get("position"), part=reading.extra.get("part"))
            if (earlier := _restated(found, result.read)) is not None:
                result.clarifications.append(Clarification(line, passage.text, "restates", CLARIFICATION_CODES[
                    "restates"].format(line=earlier.line)))
                continue
            if reading.expects_text and not reading.new:
                pending = found
            else:
                result.read.append(found)
        return pending

    def _without_cue(self, document: Document, passage: Passage, where: Locator, own: Locator, clarifying: bool,
                     result: ErrataReading) -> None:
        text = passage.text
        if QUESTION.search(text) or ANSWER.search(text):
            result.clarifications.append(Clarification(passage.line, text, "question-or-answer"))
            return
        located = not where.empty()
        if _starts_with_quote(text) and located and not clarifying:
            quote = _quote_of(text, cut_off=True)
            if CLOSE in text and len(text[text.rfind(CLOSE) + 1:].split()) > 3:
                quote = None  # a quotation opening a sentence of prose: no corrected text
                return
            if quote is not None and CITATION.match(quote):
                result.not_understood.append(NotUnderstood(passage.line, text, "a quotation of the printed text after "
                                                           "its place, but no correction is said"))
                return
            if quote is None:
                result.not_understood.append(NotUnderstood(passage.line, text, "unbalanced quotes: a quotation is "
                                                           "opened and never closed", "should-say"))
                return
            # verbless corrected text right after its locator: what the place should say
            result.read.append(ReadOperation(passage.line, "should-say", None, quote, where, text, "verbless"))
            return
        place, colon, rest = text.partition(":")
        if colon and opens_with_locator(place) and _starts_with_quote(rest) and (quote := _quote_of(rest)) and \
                len(rest[rest.rfind(CLOSE) + 1:].split()) <= 1 and not CITATION.match(quote):
            # "P. 15 : « Texte corrigé. »": the place, then what it should say
            result.read.append(ReadOperation(passage.line, "should-say", None, quote, where, text, "verbless"))
            return
        if OPEN in text and CLOSE in text and opens_with_locator(text):
            result.not_understood.append(NotUnderstood(passage.line, text, "quoted text after a locator, but no "
                                                       "verb says what to do with it"))
            return
        if opens_with_locator(text) and not own.empty():
            result.clarifications.append(Clarification(passage.line, text, "no-change"))
            return


def _opens_part(text: str) -> bool:
    """A heading that opens a part of the text ("Errata", "Clarifications de Règles"), naming no place."""
    return bool(ERRATA_HEADING.search(text) or CLARIFICATION_HEADING.search(text)) and not re.search(r"\d", text)


def _announced_quote(text: str) -> str | None:
    """The quotation a passage right below an instruction gives as its text: one that opens it, or
    one that only its closing mark shows (« lost in the layout: "Vous pouvez … engagé. »")."""
    if _starts_with_quote(text):
        return _quote_of(text, cut_off=True)
    stripped = text.rstrip()
    if stripped.endswith(CLOSE) and stripped.count(CLOSE) == 1 and OPEN not in stripped:
        return stripped[:-1].strip() or None
    return None


def _announced(pending: ReadOperation, text: str, document: Document, passage: Passage) -> None:
    """The text an instruction announced, below it: the new text, or the removed one of a deletion."""
    pending.text_lines = (passage.line, document.line_of(max(passage.start, passage.end - 1)))
    if pending.kind == "delete":
        pending.old = text
    else:
        pending.new = text


def _same(a: str | None, b: str | None) -> bool:
    return fold(a or "").strip(" .") == fold(b or "").strip(" .")


def _restated(found: ReadOperation, earlier: list[ReadOperation]) -> ReadOperation | None:
    """An earlier operation this one only restates: the same new text (and the same old one, when
    it gives one) at a place that is not another ("« X » devient « Y »", then "La phrase « X » est
    remplacée par le simple mot « Y »", then "ces termes deviennent « Y »")."""
    if not found.new:
        return None
    for other in reversed(earlier):
        if not _same(found.new, other.new) or found.old and not _same(found.old, other.old):
            continue
        here, there = found.locator, other.locator
        if (here.page, here.section, here.ordinal) != (there.page, there.section, there.ordinal) or \
                here.title and there.title and not _same(here.title, there.title):
            continue  # another place: the same change made twice
        return other
    return None


_TABLE_LINE = re.compile(r"(?:(?<! )[ ]++)?\|.*\|[ ]*+")
_TABLE_RULE = re.compile(r"(?:(?<! )[ ]++)?(?:\|[ ]*+)?:?-{2,}+:?[ ]*+(?:\|[ ]*+:?-{2,}+:?[ ]*+)*\|?[ ]*+")


def _tables(text: str) -> tuple[str, list[list[tuple[int, list[str]]]]]:
    """Markdown tables taken out of the text (their lines blanked, so lines keep their numbers):
    each a list of (line, cells), its rule line left out."""
    from extract.text import table_row_cells

    lines = text.split("\n")
    tables: list[list[tuple[int, list[str]]]] = []
    current: list[tuple[int, list[str]]] = []
    for n, line in enumerate(lines, start=1):
        if _TABLE_LINE.fullmatch(line):
            if not _TABLE_RULE.fullmatch(line):
                current.append((n, [c.strip() for c in table_row_cells(line)]))
            lines[n - 1] = ""
            continue
        if current and not (not line.strip() and n < len(lines) and _TABLE_LINE.fullmatch(lines[n])):
            tables.append(current)  # a blank line inside a table (a reader left its rule line out) keeps it
            current = []
    if current:
        tables.append(current)
    return "\n".join(lines), tables


def table_columns(header: list[str], words: dict[str, list[str]]) -> dict[str, int]:
    """The column of each role an errata table's header names (old, new, page, place), by the
    header words of the cue table (`cues.toml`, [table]): a column takes its first role not taken."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = " ".join(re.findall(r"[\w§]+", fold(cell)))
        for role in ("old", "new", "page", "place"):
            if key in words[role] if role == "page" else any(f" {w} " in f" {key} " for w in words[role]):
                columns.setdefault(role, index)
                break
    return columns


def is_errata_table(header: list[str]) -> bool:
    """A table whose header names an old and a new text: its rows are errata."""
    columns = table_columns(header, cue_table().table)
    return "old" in columns and "new" in columns


def _cell_text(cell: str) -> str | None:
    """A cell's text without its outer quotation marks, final full stop and ellipsis markers."""
    text = normalise(cell).strip().rstrip(".").strip()
    if text.startswith(OPEN) and text.endswith(CLOSE) and text.count(OPEN) == 1:
        text = text[1:-1]
    return without_ellipses(text) or None


def _cell_place(cell: str) -> Locator:
    """A place cell ("Mise en place, §6", "[12]", "section Moral"): each comma-separated part a
    section (by number or title) or, the first left, the title."""
    where = Locator(cell.strip())
    for part in (p.strip() for p in normalise(cell).split(",")):
        bare = re.fullmatch(r"(?:§[ ]?|\[[ ]?)?(\d{1,3}(?:\.\d{1,3}){0,5}[A-Z]?)(?:[ ]?\])?", part)
        found = read_locator(part)
        if bare or found.section:
            where.section = where.section or (bare.group(1) if bare else found.section)
        elif found.title and not where.title:
            where.title = found.title
        elif part and not where.title:
            where.title = _cell_text(part)
    return where


def _read_table(table: list[tuple[int, list[str]]], result: ErrataReading, words: dict[str, list[str]]) -> None:
    """An errata table whose header names an old and a new text (`table_columns`): each row a
    replace of the old text by the new at the place its row names; a row that lacks a text, or whose
    page is no number, is not understood, with why. Any other table is no erratum."""
    columns = table_columns(table[0][1], words) if table else {}
    if len(table) < 2 or "old" not in columns or "new" not in columns:
        return
    for line, cells in table[1:]:
        def cell(role: str, cells: list[str] = cells) -> str:
            index = columns.get(role)
            return cells[index] if index is not None and index < len(cells) else ""

        if not any(c.strip() for c in cells):
            continue
        text = " | ".join(c.strip() for c in cells)
        page_text = normalise(cell("page")).strip()
        page = re.fullmatch(r"(?:p\.?[ ]*+)?(\d{1,4})", page_text, re.IGNORECASE)
        old, new = _cell_text(cell("old")), _cell_text(cell("new"))
        problem = None
        if not old or not new:
            problem = "the row gives no " + ("old text" if not old else "new text")
        elif page_text and not page:
            problem = f"its page « {page_text} » is not a number"
        if problem:
            result.not_understood.append(NotUnderstood(line, text, problem, "replace"))
            continue
        where = _cell_place(cell("place"))
        where.text, where.page = text.rsplit(" | ", 2)[0], int(page.group(1)) if page else None
        result.read.append(ReadOperation(line, "replace", old, new, where, text, "table"))


def numbered_text(lines: list[tuple[int, str]]) -> str:
    """The text of a document's (line number, text) pairs, each at its own line (blank where a
    reader left a line out), so that every passage keeps the line it has in the file."""
    numbered = {no: without_italic(text) for no, text in lines}  # "*Dominator (p. 59) :*" is read as its words
    last = max(numbered, default=0)
    return "\n".join(numbered.get(n, "") for n in range(1, last + 1))


_READER: ErrataTextReader | None = None


def read_errata_text(text: str) -> ErrataReading:
    """The errata of a French text (see the module's docstring), with one reader kept per process."""
    global _READER
    if _READER is None:
        _READER = ErrataTextReader()
    return _READER.read_text(text)


def forget_reader() -> None:
    """Let go of the kept reader, its Matcher and the spaCy model they read with (a one-shot
    build, once its errata are read: the model is freed before the site is made)."""
    global _READER
    _READER = None
    language.cache_clear()
    matcher.cache_clear()
