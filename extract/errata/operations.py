"""Third layer of the errata reader: the operations a passage asks for, from its words' lemmas.

The cues (which words signal which operation) are data, in `cues.toml`, matched by spaCy's public
`Matcher` on the passage with its quotations masked. The code here only reads the structure
around each cue: which text is old and which new (quotations of any style, "par", "en", "au lieu
de", "et non", the colon to the end), and one operation per cue, so coordinated instructions
("remplacer X par Y et ajouter Z") give one each. An operation whose text is missing is returned
with its problem, never dropped.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from extract.errata.passages import CLOSE, OPEN

# The parts of speech whose lemmas the cues read: verbs, their participles, nouns ("remplacement"),
# and capitalised imperatives the small model takes for names. The other words keep their lower case.
LEMMA_POS = frozenset({"VERB", "AUX", "NOUN", "ADJ", "PROPN"})
# Parts of speech whose lemma is their form less an ending ("remplacements" -> "remplacement"):
# lemmatized only when their first STEM letters are those of a lemma the cue table reads.
INFLECTED_POS = frozenset({"NOUN", "ADJ"})
STEM = 4
KINDS = ("replace", "should-say", "insert", "delete", "swap", "rename", "move")


def opens_like(word: str, stems: frozenset[str]) -> bool:
    """Whether `word` opens like one of the lemmas whose first STEM letters are `stems`; a lemma
    shorter than STEM ("mot") is its own stem, opening its inflections ("mots"); words of one or two
    letters are no nouns the cues read."""
    return word[:STEM] in stems or any(word[:k] in stems for k in range(3, STEM))


@dataclass(frozen=True)
class Cue:
    name: str
    operation: str
    patterns: tuple[Any, ...]
    polarity: str = "instruction"
    modal: bool = False
    needs_new_marker: bool = False  # "remplacer X par Y": without "par", X is old and no new text is given


@dataclass(frozen=True)
class CueTable:
    cues: tuple[Cue, ...]
    frame: dict[str, Any]
    markers: dict[str, list[str]]
    table: dict[str, list[str]]  # the header words of an errata table's columns, by role


@cache
def cue_table() -> CueTable:
    """The cue table shipped with the package (`extract/errata/cues.toml`)."""
    data = tomllib.loads(resources.files("extract.errata").joinpath("cues.toml").read_text(encoding="utf-8"))
    cues = tuple(Cue(c["name"], c["operation"], tuple(c["patterns"]), c.get("polarity", "instruction"),
                     bool(c.get("modal", False)), bool(c.get("needs_new_marker", False))) for c in data["cue"])
    for cue in cues:
        if cue.operation not in KINDS:
            raise ValueError(f"extract/errata/cues.toml: cue {cue.name!r} has unknown operation {cue.operation!r}")
    return CueTable(cues, data["frame"], data["markers"], data["table"])


def _strings(*data: Any) -> Iterator[str]:
    """Every string `data` holds (patterns, the frame's word lists), lower-cased: the words the table reads."""
    for item in data:
        if isinstance(item, str):
            yield item.lower()
        elif isinstance(item, dict):
            yield from _strings(*item.values())
        elif isinstance(item, (list, tuple)):
            yield from _strings(*item)


@cache
def language() -> Any:
    """spaCy's French pipeline, with only what lemmas need (no parser, no entities), loaded once:
    the same load as the build's lemmas."""
    from extract.nlp import load_model

    return load_model()


@cache
def matcher() -> Any:
    from spacy.matcher import Matcher

    table, nlp = cue_table(), language()
    found = Matcher(nlp.vocab)
    for cue in table.cues:
        found.add(cue.name, [list(p) for p in cue.patterns])
    return found


@dataclass
class Masked:
    """A passage with each top-level quotation replaced by « Qn »: its verbs are no cues."""

    text: str
    quotes: list[str]  # the quotations' contents, in order
    spans: list[tuple[int, int]]  # where each « Qn » stands in `text`
    breaks: list[tuple[int, int]]  # (masked offset, original offset) after each quotation
    unbalanced: bool

    def original(self, offset: int) -> int:
        shift = 0
        for masked_at, original_at in sorted(self.breaks):
            if offset >= masked_at:
                shift = original_at - masked_at
        return offset + shift

    def unmask(self, start: int, end: int) -> str:
        """The original text of a masked region, quotations restored."""
        out, at = [], start
        for n, (s, e) in enumerate(self.spans):
            if e <= start or s >= end:
                continue
            out.append(self.text[at:s])
            out.append(f"{OPEN}{self.quotes[n]}{CLOSE}")
            at = e
        out.append(self.text[at:end])
        return "".join(out)


# Words run together by a text extraction ("paragrapheRemplacer", "0Comme"): a space between them.
_GLUED = re.compile(r"(?<=[a-zà-ÿ0-9])(?=[A-ZÀ-Ý][a-zà-ÿ])")


def _unglue(text: str, base_masked: int, base_original: int, breaks: list[tuple[int, int]]) -> str:
    """`text` (outside quotations) with a space where two words are glued, each recorded in `breaks`."""
    pieces, at = [], 0
    for m in _GLUED.finditer(text):
        pieces.append(text[at:m.start()] + " ")
        at = m.start()
        inserted = base_masked + sum(len(p) for p in pieces)
        breaks.append((inserted, base_original + at))
    pieces.append(text[at:])
    return "".join(pieces)


def mask(text: str) -> Masked:
    out, quotes, spans, breaks = [], [], [], []
    depth, opened, at, unbalanced = 0, 0, 0, False
    for m in re.finditer(f"[{OPEN}{CLOSE}]", text):
        if m.group() == OPEN:
            if depth == 0:
                opened = m.start()
            depth += 1
        elif depth == 0:
            unbalanced = True
        else:
            depth -= 1
            if depth == 0:
                out.append(_unglue(text[at:opened], sum(len(x) for x in out), at, breaks))
                start = sum(len(x) for x in out)
                token = f"{OPEN} Q{len(quotes)} {CLOSE}"
                out.append(token)
                quotes.append(text[opened + 1:m.start()].strip())
                spans.append((start, start + len(token)))
                breaks.append((start + len(token), m.end()))
                at = m.end()
    if depth:
        unbalanced = True
    out.append(_unglue(text[at:], sum(len(x) for x in out), at, breaks))
    return Masked("".join(out), quotes, spans, breaks, unbalanced)


@dataclass
class Reading:
    """One operation read from a passage, or the part that failed (`problem`)."""

    kind: str  # replace | should-say | insert | delete | swap | rename
    cue: str  # the cue's name in the table, or the marker that stood for it
    offset: int  # in the passage's text, where its cue stands
    old: str | None = None
    new: str | None = None
    problem: str | None = None
    expects_text: bool = False  # the new text is announced for what follows ("comme suit :")
    head: str = ""  # the passage's words before its first cue: its own locator
    everywhere: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


_PUNCT_STOP = re.compile(r"[.;!?]|,(?! ?\d)|\(|\)| et (?=(?:il faut|ajout|supprim|remplac|retir|sa |son |ses |le |la |les ))")
_ANNOUNCE_ONLY = re.compile(r"(?<!\w)(?:(?:le|la|les|ce|cette|ces|l'|un|une|des)\s++)?(?:\w++\s++){0,3}?"
                            r"(?:suivante?s?|comme suit|ce qui suit|ainsi|ceci|qui suit)\s*+:?", re.IGNORECASE)


def fold_words(text: str) -> str:
    return " ".join(text.lower().split())


def _clean(text: str) -> str | None:
    text = _SPACES.sub(" ", text.strip().strip(" ,;:–-").strip().rstrip(" ([").strip())
    if text.startswith(OPEN) and CLOSE not in text:
        text = text[1:].strip()  # a quotation cut by the end of the text
    if text.startswith(OPEN) and text.endswith(CLOSE) and text.count(OPEN) == 1:
        text = text[1:-1].strip()
    return without_ellipses(text).rstrip(".([").strip() or None


def _quoted(text: str) -> str | None:
    """A quoted new text: as it should read, its last stop or comma with it ("« Lors de la mise en place, »"),
    without the ellipsis markers that cut it from its sentence ("« (...) 18ps (...) »")."""
    return without_ellipses(_SPACES.sub(" ", text.strip()), bare_end=False) or None


_SPACES = re.compile(r"[ ]{2,}")  # a text laid out with runs of spaces reads with one
# The marks that cut a quotation from its sentence: "(...)", "[…]", or a bare "..." / "…".
_BRACKETED_ELLIPSIS = r"(?:\(\s*+(?:\.\.\.|…)\s*+\)|\[\s*+(?:\.\.\.|…)\s*+\])"
_ELLIPSIS_START = re.compile(rf"^(?:{_BRACKETED_ELLIPSIS}|\.\.\.|…)\s*+")
_ELLIPSIS_END = re.compile(rf"(?:(?<!\s)\s++)?{_BRACKETED_ELLIPSIS}\s*+$")
_ANY_ELLIPSIS_END = re.compile(rf"(?:(?<!\s)\s++)?(?:{_BRACKETED_ELLIPSIS}|\.\.\.|…)\s*+$")


def without_ellipses(text: str, bare_end: bool = True) -> str:
    """A text cut from its sentence, without the ellipsis marks that cut it: any at its start, and at
    its end a bracketed one, or a bare "…" too when `bare_end` (a new text may end on a printed "…")."""
    text = _ELLIPSIS_START.sub("", text.strip())
    return (_ANY_ELLIPSIS_END if bare_end else _ELLIPSIS_END).sub("", text).strip()


# An old text that only names a unit is a place: "la première phrase", "le second point", "ce paragraphe".
UNIT_NAMED = re.compile(r"(?:(?:le|la|les|l'|ce|cette|son|sa|ses)\s*)?(?:[\w-]{1,20}\s+)?(?:phrases?|paragraphes?|points?|puces?|"
                        r"alin[ée]as?|lignes?|sections?|r[èe]gles?|textes?|encadr[ée]s?|encarts?|entr[ée]es?)"
                        r"(?:\s+(?:\d{1,3}|[a-z]))?(?:\s+(?:de|du|de la|des)\s+[^«»]{1,60})?", re.IGNORECASE)


# The place an insertion names between its verb and its colon: "au début du premier paragraphe",
# "à la fin de la section Combat", "après la première phrase de 4.1".
_INSERT_PLACE = re.compile(r"(?<! )[ ]*+(?:(?:[àa] la fin|au d[ée]but|en fin|en d[ée]but)[ ]++(?:du|de la|de l'|des)"
                           r"|(?:apr[èe]s|avant)[ ]++(?:la|le|l'))[ ]*+[^«»:]{1,80}",
                           re.IGNORECASE)

# What an insertion adds whole, named as its object or its subject: a section, a rule, a box.
_WHOLE = re.compile(r"(?<![\w'])(?:(?:l'|le|la|les|un|une|cet|cette|ce)[ ]?)?(?:section|r[èe]gle|article|encart|encadr[ée]|chapitre)"
                    r"(?![\w'])(?:[ ]\d{1,3}(?:\.\d{1,3}){0,4}[A-Z]?)?", re.IGNORECASE)


class OperationReader:
    """Reads the operations of one passage: cues found by the Matcher, texts by the structure."""

    def __init__(self) -> None:
        self.table = cue_table()
        self.nlp = language()
        self.matcher = matcher()
        self.by_name = {c.name: c for c in self.table.cues}
        self.lemma_stems = frozenset(word[:STEM] for word in _strings([c.patterns for c in self.table.cues], self.table.frame))
        markers = self.table.markers
        self.old_marker = re.compile(r"(?<![\w'])(?:" + "|".join(
            re.escape(m) + ("" if m.endswith("'") else r"(?!\w)") for m in sorted(markers["old_after"], key=len, reverse=True))
            + ")", re.IGNORECASE)
        self.new_marker = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(m) for m in markers["new_after"]) + r")(?![\w'])",
                                     re.IGNORECASE)
        # "… Auparavant, elle indiquait :": the text a deletion removes is given below it
        self.old_announced = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(m) for m in markers["old_announced"])
                                        + r")(?![\w'])[^.;:«»]{0,80}:[ ]*$", re.IGNORECASE)
        self.old_quoted = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(m) for m in markers["old_announced"])
                                     + r")(?![\w'])[^.;:«»]{0,80}:[ ]*« Q(?P<q>\d{1,4}) »", re.IGNORECASE)
        # "… remplacé par le suivant, assorti de ses « sous-puces » :": the item goes with its sub-items
        self.with_children = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(m) for m in markers["with_children"])
                                        + r")[ ]*+(?:« Q(?P<q>\d{1,3}) »|(?P<word>[\w-]{1,20}))", re.IGNORECASE)
        self.children_units = {fold_words(u) for u in markers["children_units"]}
        self.everywhere = re.compile("|".join(re.escape(m) for m in markers["everywhere"]), re.IGNORECASE)

    # ------------------------------------------------------------------ cues

    def cues(self, doc: Any) -> list[tuple[Cue, int, int]]:
        """The accepted cues of a parsed passage: (cue, first token, end token), in order; a
        cue's end is its verb's, so that "doit être de 4" leaves "de 4" to be read. Kept on the doc
        (`Doc.user_data`): the reader asks again of a passage that follows an instruction."""
        if "errata-cues" not in doc.user_data:
            doc.user_data["errata-cues"] = self._cues(doc)
        return doc.user_data["errata-cues"]

    def _cues(self, doc: Any) -> list[tuple[Cue, int, int]]:
        found = sorted(((self.by_name[self.nlp.vocab.strings[k]], s, e) for k, s, e in self.matcher(doc)),
                       key=lambda m: (m[1], -(m[2] - m[1])))
        kept: list[tuple[Cue, int, int]] = []
        for cue, start, end in found:
            if kept and start < kept[-1][2]:
                continue  # overlapping a longer match that starts earlier
            kept.append((cue, start, end))
        accepted = [m for m in kept if self._instruction(doc, *m)]
        # "il faut remplacer X par Y et ajouter Z": an infinitive coordinated with an instruction is one too
        for match in kept:
            if match not in accepted and match[1] > 0 and doc[match[1] - 1].lower_ in ("et", "puis", "ensuite") and \
                    any(a[1] < match[1] for a in accepted) and match[0].name != "printed":
                accepted.append(match)
        accepted.sort(key=lambda m: m[1])
        # a cue followed closely by another yields to it: "doit être remplacée" is a replace
        merged: list[tuple[Cue, int, int]] = []
        for match in accepted:
            if merged and match[1] - merged[-1][2] <= 1 and not any(t.is_punct for t in doc[merged[-1][2]:match[1]]):
                previous = merged.pop()
                keep = match if match[0].name != "printed" else previous
                merged.append((keep[0], previous[1], match[2]))
                continue
            merged.append(match)
        verbs = set(self.table.frame["copulas"])
        trimmed = []
        for cue, start, end in merged:
            if cue.name == "be":
                last = max((t.i for t in doc[start:end] if t.lemma_ in verbs or t.lower_ in verbs), default=end - 1)
                end = last + 1
            trimmed.append((cue, start, end))
        return trimmed

    def opens_clause(self, doc: Any, start: int) -> bool:
        """The cue starts its clause, as an imperative or infinitive does ("Page 3 : Remplacez …")."""
        return start == 0 or doc[start - 1].is_punct and doc[start - 1].text not in (OPEN, CLOSE) or (
            doc[start].is_title and start > 0) or doc[start - 1].lower_ in self.table.frame["instruction_words"] \
            and doc[start - 1].lower_ in ("puis", "ensuite", "également", "aussi")

    def _instruction(self, doc: Any, cue: Cue, start: int, end: int) -> bool:
        frame = self.table.frame
        reach = int(frame["reach"])
        before = [t for t in doc[max(0, start - reach):start]]
        if any(t.lemma_ in frame["not_instruction"] and t.pos_ in ("VERB", "AUX") or t.lower_ in frame["not_instruction"]
               for t in before):
            return False
        clause = doc[max(0, start - 12):start]
        opened = max((t.i for t in clause if t.is_punct and t.text not in (OPEN, CLOSE)), default=clause.start - 1)
        if any(t.lower_ in frame["hypothesis"] for t in doc[opened + 1:start]):
            return False  # "si elles avaient été inversées": a hypothesis in its own clause
        if any(t.lower_ in frame["negations"] for t in before) and not any(t.lower_ == "pas" for t in doc[start:end]):
            return False  # "tant qu'il n'est pas modifié": a condition, no erratum
        if self._purpose_of_saying(doc, start):
            return False
        words = {t.lower_ for t in doc[start:end]}
        if cue.name == "printed":
            return True  # kept only with an "au lieu de" marker, checked when its texts are read
        modal_at = next((t.i for t in reversed(before) if t.lemma_ in frame["instruction_lemmas"]
                         or t.lower_ in frame["instruction_words"]), None)
        if modal_at is not None and modal_at > 0 and doc[modal_at - 1].lower_ in frame["personal_subjects"] \
                and doc[modal_at].lemma_ != "falloir":
            return False
        if cue.modal or words & set(frame["instruction_words"]):
            return True  # the pattern holds its modal ("devrait être", "doit se lire")
        first = doc[start]
        at_start = start == 0 or doc[start - 1].is_punct or doc[start - 1].text in (OPEN, CLOSE) or (
            first.is_title and start > 0)
        if at_start or modal_at is not None:
            return True
        participle = "Part" in first.morph.get("VerbForm") or first.lower_.endswith(("é", "ée", "és", "ées"))
        if participle:  # a passive needs its auxiliary: "a été remplacé", not "errata corrigés par"
            return any(t.lemma_ in ("être", "avoir") or t.lower_ in ("été", "est", "sont", "a", "ont") for t in before)
        quoted = any(t.text.startswith("Q") and t.text[1:].isdigit() for t in doc[max(0, start - 6):end + 8])
        return cue.name in frame["strong"] and quoted

    def _purpose_of_saying(self, doc: Any, start: int) -> bool:
        """A purpose clause about wording stands before the cue in its sentence ("En VO, pour dire
        « X », il faut dire « Y »"): a note on usage, not a correction."""
        frame = self.table.frame
        sentence = max((t.i for t in doc[:start] if t.text in (".", "!", "?", ";")), default=-1) + 1
        for t in doc[sentence:start]:
            if t.lower_ in frame["purpose_words"] and t.i + 1 < start:
                verb = doc[t.i + 1] if doc[t.i + 1].lower_ not in ("de", "d'") else doc[min(t.i + 2, start - 1)]
                if verb.lemma_ in frame["saying_lemmas"] or verb.lower_ in frame["saying_lemmas"]:
                    return True
        return False

    # ------------------------------------------------------------------ texts

    def parse(self, texts: Iterable[str]) -> Iterator[Any]:
        """The passages tagged by the pipeline, lemmas given only to the parts of speech the cues and
        their frame read (spaCy's own rule lemmatizer, token by token): a third of the lemmatizer's time.
        A noun or an adjective is lemmatized only when it opens like a lemma the table reads: their
        lemmas differ from their forms by an ending, and the noun rules are most of the time."""
        lemmatizer = self.nlp.get_pipe("lemmatizer")
        stems = self.lemma_stems
        for doc in self.nlp.pipe(texts, batch_size=64, disable=["lemmatizer"]):
            for token in doc:
                if token.lemma == 0:
                    wanted = token.pos_ in LEMMA_POS and (token.pos_ not in INFLECTED_POS or opens_like(token.lower_, stems))
                    token.lemma_ = lemmatizer.rule_lemmatize(token)[0] if wanted else token.lower_
            yield doc

    def read(self, text: str) -> tuple[list[Reading], Masked]:
        masked = mask(text)
        doc = next(self.parse([masked.text]))
        return self.read_parsed(doc, masked), masked

    def read_parsed(self, doc: Any, masked: Masked) -> list[Reading]:
        cues = self.cues(doc)
        m_text = masked.text
        anchors: list[tuple[int, int, Cue | None, bool]] = [
            (doc[s].idx, doc[e - 1].idx + len(doc[e - 1].text), c, self.opens_clause(doc, s)) for c, s, e in cues]
        # "Y et non X", "Y (au lieu de X)": a marker after a cue in the same clause is the cue's;
        # one with no cue before it in its clause stands for a replace of its own
        leading: dict[int, str | None] = {}  # "Au lieu de « X », lire « Y »": the old text before its cue
        head_end = anchors[0][0] if anchors else len(m_text)
        for m in self.old_marker.finditer(m_text):
            owners = [a for a in anchors if a[2] is not None and a[1] <= m.start()]
            owned = owners and not re.search(r"[,;:]|\. | et (?!non)", m_text[owners[-1][1]:m.start()])
            if owned:
                continue
            after = [a for a in anchors if a[2] is not None and a[0] >= m.end()]
            between = m_text[m.end():after[0][0]] if after else ""
            if after and not m_text[self._clause_start(m_text, m.start()):m.start()].strip() and \
                    between.rstrip().endswith(",") and not re.search(r"[.;:!?]", between):
                leading[after[0][0]] = self._words_until_stop(masked, m.end(), after[0][0])
                head_end = min(head_end, m.start())
                continue
            anchors.append((m.start(), m.end(), None, False))
        anchors.sort(key=lambda a: a[0])
        readings = []
        head_end = min(head_end, anchors[0][0]) if anchors else head_end
        for n, (start, end, cue, opening) in enumerate(anchors):
            stop = anchors[n + 1][0] if n + 1 < len(anchors) else len(m_text)
            begin = self._clause_start(m_text, start) if n > 0 or cue is None else 0
            reading = (self._marker_only(masked, start, end, stop, begin) if cue is None
                       else self._read_clause(masked, cue, start, end, stop, begin, opening))
            if reading is None:
                continue
            if leading.get(start) and reading.kind == "should-say" and reading.old is None and reading.new:
                reading.old, reading.kind = leading[start], "replace"
            reading.head = masked.unmask(0, head_end).strip()
            readings.append(reading)
        return readings

    @staticmethod
    def _clause_start(text: str, at: int) -> int:
        """Where the clause holding offset `at` starts: after the last , ; : – or " et " before it."""
        cut = max(text.rfind(c, 0, at) + len(c) for c in (",", ";", ":", ". ", " – ", " et "))
        return max(cut, 0)

    def _first_quote(self, masked: Masked, start: int, stop: int) -> tuple[int, str] | None:
        for n, (s, _) in enumerate(masked.spans):
            if start <= s < stop:
                return n, masked.quotes[n]
        return None

    def _last_quote(self, masked: Masked, start: int, stop: int) -> str | None:
        found = [masked.quotes[n] for n, (s, _) in enumerate(masked.spans) if start <= s < stop]
        return found[-1] if found else None

    def _words_until_stop(self, masked: Masked, start: int, stop: int) -> str | None:
        region = masked.text[start:stop]
        m = _PUNCT_STOP.search(region)
        end = start + (m.start() if m else len(region))
        return _clean(masked.unmask(start, end))

    def _new_text(self, masked: Masked, start: int, stop: int) -> tuple[str | None, bool]:
        """The new text after a cue: a quotation, else the colon to the end, else the words up to
        the clause's end. True when the words only announce a text that follows."""
        region = masked.text[start:stop]
        colon = region.find(":")
        quote = self._first_quote(masked, start, stop)
        if quote is not None and -1 < colon and masked.spans[quote[0]][1] <= start + colon and \
                self._first_quote(masked, start + colon, stop) is not None:
            quote = self._first_quote(masked, start + colon, stop)  # "… de la section « Tir » : « X »": a title, then the text
        if quote is not None:
            at = masked.spans[quote[0]][0]
            words_between = masked.text[start + colon + 1:at].split() if -1 < colon < at - start else []
            if not words_between and len(masked.text[start:at].split()) <= 12:
                return _quoted(quote[1]), False
        if colon != -1:
            rest = _clean(masked.unmask(start + colon + 1, stop))
            if rest:
                return rest, False
            return None, True
        words = self._words_until_stop(masked, start, stop)
        if words and _ANNOUNCE_ONLY.fullmatch(words):
            return None, True
        return words, False

    def _subject_quote(self, masked: Masked, begin: int, start: int, nouns: bool, opens: bool = False) -> str | None:
        """The quotation standing as the subject right before a cue ("la capacité « X » doit être
        remplacée"); with `nouns`, only after a noun naming a piece of text ("l'expression « X »")
        or, with `opens`, one that opens its clause ("« X » doit se lire « Y »")."""
        for n in range(len(masked.spans) - 1, -1, -1):
            s, e = masked.spans[n]
            if e > start or s < begin:
                continue
            between = masked.text[e:start]
            if len(between.split()) > 3 or re.search(r"[,;:.–]", between):
                return None
            if nouns:
                lead = masked.text[max(begin, s - 40):s].lower().split()
                if not (lead or opens and not masked.text[begin:s].strip(" -–•*")) or \
                        lead and lead[-1].strip("'").split("'")[-1] not in self.table.markers["text_nouns"]:
                    return None
            return masked.quotes[n]
        return None

    def _read_clause(self, masked: Masked, cue: Cue, start: int, end: int, stop: int, begin: int,
                     opening: bool = False) -> Reading | None:
        text = masked.text
        reading = Reading(cue.operation, cue.name, masked.original(start))
        children = self.with_children.search(text, end, stop)
        if children is not None and fold_words(masked.quotes[int(children.group("q"))] if children.group("q") is not None
                                               and int(children.group("q")) < len(masked.quotes)
                                               else children.group("word") or "") in self.children_units:
            reading.extra["with_subbullets"] = True
            stop = children.start()  # the words after it are no text of the operation
        after = text[end:stop]
        old_m = self.old_marker.search(after)
        reading.everywhere = bool(self.everywhere.search(text[begin:stop]))
        if cue.polarity == "printed":
            if old_m is None:
                return None  # "la carte indique …": a description, no erratum
            reading.old = _clean(masked.unmask(end, end + old_m.start())) or self._last_quote(masked, begin, start)
            reading.new = self._words_until_stop(masked, end + old_m.end(), stop)
            return self._finish(reading)
        if old_m is not None and cue.operation in ("replace", "should-say"):
            new = _clean(masked.unmask(end, end + old_m.start()))
            reading.new = new or (None if opening else self._subject_quote(masked, begin, start, False))
            reading.old = self._words_until_stop(masked, end + old_m.end(), stop)
            reading.kind = "replace"
            return self._finish(reading)
        if cue.operation in ("replace", "rename"):
            new_m = self.new_marker.search(after)
            fromto = re.search(r"(?<![\w'])de\s+(?P<old>[^\s,;]{1,20})\s+à\s+(?P<new>[^\s,;.]{1,20})", after)
            if new_m is not None and cue.name != "become":
                old = _clean(masked.unmask(end, end + new_m.start()))
                if old:
                    old = re.sub(r"^(?:toutes les (?:mentions|occurrences)|chaque (?:mention|occurrence))\s+(?:de|d'|du|des)\s*",
                                 "", old, flags=re.IGNORECASE)
                quote_in = self._last_quote(masked, end, end + new_m.start())
                before_quote = text[end:max([s for s, _ in masked.spans if end <= s < end + new_m.start()], default=end)]
                if quote_in is not None and before_quote.count("(") > before_quote.count(")"):
                    quote_in = None  # "Renommez la première (dans la catégorie « X ») en « Y »": X names where, it is no old text
                reading.old = _clean(quote_in) if quote_in else (
                    old or (None if opening else self._subject_quote(masked, begin, start, False)))
                reading.new, reading.expects_text = self._new_text(masked, end + new_m.end(), stop)
                new_quoted = self._first_quote(masked, end + new_m.end(), stop) is not None
                if not quote_in and old and new_quoted and re.match(r"(?:les?|la|l'|sa|son|ses|cette|ce|ces|leurs?)\b",
                                                                    old, re.IGNORECASE):
                    # "remplacez la catégorie de cette arme par « X »": what is named, not its old text;
                    # "remplacez le troisième paragraphe par « X »": a place
                    reading.extra["unit" if UNIT_NAMED.fullmatch(old) else "subject"], reading.old = old, None
            elif fromto is not None:
                reading.old, reading.new = fromto.group("old"), fromto.group("new")
            elif cue.needs_new_marker and opening:
                quote = self._first_quote(masked, end, stop)
                reading.old = _clean(quote[1]) if quote else self._words_until_stop(masked, end, stop)
                reading.problem = "no new text: « remplacer … » names what to replace, « par … » is missing"
                return reading
            else:
                nouns = cue.name not in ("become", "rename")
                reading.old = None if opening else self._subject_quote(masked, begin, start, nouns)
                reading.new, reading.expects_text = self._new_text(masked, end, stop)
                if reading.old is None and cue.operation != "rename" and cue.name != "become":
                    reading.kind = "should-say"
            if reading.everywhere and reading.kind == "replace" or reading.kind == "replace" and cue.name != "replace" \
                    and self._names_term(masked, begin, stop) and all(len((x or "").split()) <= 6 for x in (reading.old, reading.new)):
                # a term changed into another ("la spécialisation « X » doit être changée en « Y »"); a term
                # "remplacé par" another stays a replace of its words where it stands
                reading.kind = "rename"
            return self._finish(reading)
        if cue.operation == "should-say":
            reading.new, reading.expects_text = self._new_text(masked, end, stop)
            if reading.new and (printed := self._printed_after_but(masked, end, stop)):
                reading.old, reading.kind = printed, "replace"  # "devrait être Y, mais il est marqué comme X"
                return self._finish(reading)
            old = None if opening else self._subject_quote(masked, begin, start, True, cue.name == "read")
            if old and cue.name == "read" and reading.new:
                reading.old, reading.kind = old, "replace"  # "l'expression « X » doit être lue « Y »"
            return self._finish(reading)
        if cue.operation == "insert":
            if self._names_changes(masked.text[end:stop].split(":", 1)[0]):
                return None  # "doit inclure les changements suivants :": it announces errata, adds nothing
            reading.new, reading.expects_text = self._new_text(masked, end, stop)
            if reading.new and self._names_changes(reading.new):
                return None  # "doit inclure les changements suivants": it announces errata, adds nothing
            if not reading.new and not opening:  # "ce « only » était manquant, il a donc été ajouté"
                reading.new = self._last_quote(masked, 0, start)
                reading.expects_text = reading.expects_text and reading.new is None
            place = masked.text[end:stop].split(":", 1)[0]
            if ":" in masked.text[end:stop] and (m := _INSERT_PLACE.match(place)):
                reading.extra["place"] = m.group().strip()  # "ajoutez au début du premier paragraphe : « … »"
            elif (m := _WHOLE.match((place if opening else masked.text[begin:start].rsplit(":", 1)[-1]).strip())):
                reading.extra["unit"] = m.group().strip()  # "ajoutez l'encart suivant :", "la section 85.7 devrait être ajoutée"
            return self._finish(reading)
        if cue.operation == "delete":
            quote = self._first_quote(masked, end, stop)
            reading.old = _clean(quote[1]) if quote else self._words_until_stop(masked, end, stop)
            if reading.old and _ANNOUNCE_ONLY.fullmatch(reading.old):
                reading.old, reading.expects_text = None, True
            elif reading.old and UNIT_NAMED.fullmatch(reading.old):
                reading.extra["unit"], reading.old = reading.old, None  # "supprimez le deuxième point": a place
            elif reading.old is None and (place := UNIT_NAMED.search(masked.unmask(begin, start))):
                reading.extra["unit"] = place.group()  # "la section 86.11 devrait être supprimée"
            if reading.old is None and (said := self.old_quoted.search(masked.text, end)) is not None and \
                    int(said.group("q")) < len(masked.quotes):
                reading.old = _clean(masked.quotes[int(said.group("q"))])  # "… Auparavant, elle indiquait : « X »"
            elif reading.old is None and self.old_announced.search(masked.text[end:]):
                reading.expects_text = True  # "… Auparavant, elle indiquait :" and the removed text below
            return self._finish(reading)
        if cue.operation == "move":
            region = masked.text[end:stop]
            for position in ("first", "last"):
                if re.search(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in self.table.markers[f"move_{position}"])
                             + r")(?![\w'])", region.split(":", 1)[0], re.IGNORECASE):
                    reading.extra["position"] = position
            if ":" in region:  # "… en dernier et dire : « … »": its new text too
                reading.new, reading.expects_text = self._new_text(masked, end, stop)
            if "position" not in reading.extra:
                reading.problem = "a move that does not say where the item goes"
            return reading
        if cue.operation == "swap":
            before = " ".join(masked.unmask(begin, start).split())  # single spaces: the pattern below stays linear
            before = re.sub(r"(?: (?:sont|est|doivent|doit|être|à|il|faut|a|ont|été))+$", "", before)
            reading.old = self._words_until_stop(masked, end, stop) or _clean(before)
            return self._finish(reading)
        return self._finish(reading)

    def _names_term(self, masked: Masked, begin: int, stop: int) -> bool:
        """The clause's first quotation follows a noun naming a term ("la spécialisation « X »")."""
        first = self._first_quote(masked, begin, stop)
        if first is None:
            return False
        lead = masked.text[begin:masked.spans[first[0]][0]].lower().split()
        return bool(lead) and lead[-1].split("'")[-1] in self.table.markers["term_nouns"]

    def _printed_after_but(self, masked: Masked, end: int, stop: int) -> str | None:
        """The printed text a ", mais …" clause gives after a correction: "… mais il est marqué comme n°93"."""
        region = masked.text[end:stop]
        but = re.search(r",[ ]*+mais\b", region)
        if but is not None:  # its verb ("indique") may be a cue of its own: the clause runs to the sentence's end
            stop = len(masked.text)
            region = masked.text[end:stop]
        if but is None:
            return None
        printed = "|".join(re.escape(p) for p in sorted(self.table.markers["printed_as"], key=len, reverse=True))
        m = re.search(rf"(?<![\w'])(?:{printed})(?![\w'])[ ]*+", region[but.end():but.end() + 300], re.IGNORECASE)
        if m is None:
            return None
        return self._words_until_stop(masked, end + but.end() + m.end(), stop)

    def _names_changes(self, text: str) -> bool:
        words = [w for w in re.findall(r"[\w']+", text.lower()) if len(w) > 3]
        return bool(words) and words[0] in self.table.markers["changes"] and len(words) <= 3

    def _marker_only(self, masked: Masked, start: int, end: int, stop: int, begin: int) -> Reading | None:
        """"La Santé est de 8 et non de 6", "… (et non « X »)": a replace without a verb of its own."""
        text = masked.text
        values = "|".join(re.escape(v) for v in self.table.markers["values"])
        found = list(re.finditer(rf"(?<![\w'])(?:{values})\s+(?:de\s+|d'|à\s+|du\s+)?", text[begin:start], re.IGNORECASE))
        copula = found[-1] if found else None  # the last one before the marker
        quotes = [(s, n) for n, (s, e) in enumerate(masked.spans) if begin <= s and e <= start]
        near = text[quotes[-1][0]:start] if quotes else ""
        if quotes and (copula is None or begin + copula.end() <= quotes[-1][0]) and len(near.split()) <= 6:
            new = masked.quotes[quotes[-1][1]]
        elif copula is not None:
            new = masked.unmask(begin + copula.end(), start)
        else:
            words = masked.unmask(begin, start).split()
            modal = re.search(r"\b(?:doit|doivent|devrait|devraient)\b", text[begin:start])
            if not words or len(words) > 8 and not modal:
                return None  # a marker in a long sentence of prose: a comparison, not an erratum
            new = " ".join(words[-4:])
        old = self._words_until_stop(masked, end, stop)
        if old:
            old = re.sub(r"^(?:de|d'|du|des|pas|à)\s+", "", old)
        return self._finish(Reading("replace", "marker", masked.original(start), old=old, new=_clean(new or "")))

    @staticmethod
    def _finish(reading: Reading) -> Reading:
        if reading.old and reading.kind in ("replace", "rename") and UNIT_NAMED.fullmatch(reading.old):
            reading.extra["unit"] = reading.old  # "remplacez la première phrase par": a place, no old text
            reading.old, reading.kind = None, "replace"
        kind = reading.kind
        if kind == "replace" and not reading.old and reading.new:
            reading.kind = "should-say"
        elif kind == "rename" and not reading.old and reading.new and "subject" in reading.extra:
            # "Renommez l'arme en « Hache »": the thing its place names gets a new title, no term changes
            reading.kind, reading.extra["part"] = "should-say", "title"
        elif kind == "rename" and not (reading.old and reading.new):
            reading.problem = "a rename needs the old and the new term"
        if reading.kind in ("replace", "should-say", "insert") and not reading.new and not reading.expects_text:
            reading.problem = "no new text" + (" (the instruction stops after its old text)" if reading.old else "")
        elif reading.kind == "delete" and not reading.old and not reading.expects_text and "unit" not in reading.extra:
            reading.problem = "nothing named to delete"
        elif reading.kind == "swap" and not reading.old:
            reading.problem = "nothing named to swap"
        return reading
