"""Second layer of the errata reader: where an erratum applies, read from its own words.

One grammar for every shape a French errata text gives its place: a page ("p.12", "pp. 10-11",
"P. 23 :", "page 8", "p.18Mouvement" glued to its title, "(p. 60)"), a section by number or
title ("section 3.2.10", "§ 15", "la section « Activation »", "(section Fissure)"), a box ("encadré « Tir »",
"encart"), a card ("au dos de la carte", "carte Infection (# 43)"), a column ("colonne 2",
"colonne de droite"), and a unit with its ordinal in every spelling ("2ème point", "deuxième
alinéa", "2e paragraphe", "le point d", "dernière phrase", "avant-dernier paragraphe", "ligne
9", "lignes 7-8"). What no part of the grammar reads stays in `text`, verbatim.

Every pattern is anchored on a keyword and bounded, so each runs in time linear in its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extract.text import fold

ORDINALS = {
    "premier": 1, "premiere": 1, "1er": 1, "1re": 1, "1ere": 1, "second": 2, "seconde": 2, "deuxieme": 2,
    "2e": 2, "2eme": 2, "2nd": 2, "2nde": 2, "troisieme": 3, "3e": 3, "3eme": 3, "quatrieme": 4, "4e": 4, "4eme": 4,
    "cinquieme": 5, "5e": 5, "5eme": 5, "sixieme": 6, "6e": 6, "6eme": 6, "septieme": 7, "7e": 7, "7eme": 7,
    "huitieme": 8, "8e": 8, "8eme": 8, "neuvieme": 9, "9e": 9, "9eme": 9, "dixieme": 10, "10e": 10, "10eme": 10,
    "dernier": -1, "derniere": -1, "avant-dernier": -2, "avant-derniere": -2, "avant dernier": -2,
    "avant derniere": -2, "penultieme": -2,
}
# The units an ordinal counts, by their French names (folded), as the model's block names.
UNITS = {
    "paragraphe": "paragraph", "§": "paragraph", "alinea": "paragraph", "point": "bullet", "puce": "bullet",
    "sous-point": "subbullet", "sous-puce": "subbullet", "phrase": "sentence", "ligne": "line", "colonne": "column",
    "etape": "step", "mode": "mode", "rang": "rank", "exemple": "example", "case": "cell",
}

_ORD = (r"(?P<ord>(?:avant[- ])?derni[eè]re?|premi[eè]re?|1(?:er|re|[eè]re)|secondes?|seconde?|\d{1,2}(?:e|[eè]me|nde?)\b"
        r"|(?:deux|trois|quatr|cinqu|six|sept|huit|neuv|dix)i[eè]me|p[eé]nulti[eè]me)")
_UNIT = r"(?P<unit>sous-p(?:oint|uce)s?|paragraphes?|alin[ée]as?|points?|puces?|phrases?|lignes?|[ée]tapes?)"
NUMBER = r"\d{1,3}(?:\.\d{1,3}){0,5}[A-Z]?"

# A title written bare after its kind ("section Déplacement", "la section Test de Moral"): capitalised
# words, perhaps linked by a small word.
_TITLE_WORD = r"(?-i:[A-ZÀ-Ý])[\w'-]{0,30}+"
_LINK = r"(?:(?:de|du|des|la|le|les|et|à)[ ]|d'|l')"

# A unit a section holds, before the section's bare number ("la première phrase de 4.1"): without it,
# "du 12.03.2020" or "de 1.5" is a date or a value, no section.
_HELD_UNIT = r"(?:phrases?|paragraphes?|alin[ée]as?|points?|puces?|sous-points?|sous-puces?|lignes?)"

# Each part of a locator: one keyword-anchored pattern, bounded.
PAGE = re.compile(r"(?<![\w])(?:pages?|pp?\.|pg\.?|p(?=\d))[ ]?(?P<page>\d{1,4})(?:[ ]?(?:-|–|à|et)[ ]?(?P<to>\d{1,4}))?",
                  re.IGNORECASE)
ORDINAL_UNIT = re.compile(rf"\b{_ORD}[ ]+{_UNIT}", re.IGNORECASE)
UNIT_NUMBER = re.compile(r"\b(?P<unit>paragraphes?|alin[ée]as?|points?|lignes?|puces?|[ée]tapes?)[ ]+(?:n°[ ]?)?"
                         r"(?P<num>\d{1,3}(?:[ ]?-[ ]?\d{1,3})?|[a-z](?![\w']))", re.IGNORECASE)
SECTION = re.compile(rf"(?:\b(?:sections?|chapitres?|articles?|r[eè]gles?)|§)[ ]?(?:n°[ ]?)?(?P<number>{NUMBER})\b"
                     r"|\b(?:section|encadr[ée]|encart|bo[iî]te|chapitre|paragraphe|capacit[ée]|r[eè]gle)[ ]+"
                     r"(?:de[ ]+|d')?«[ ]?(?P<title>[^«»]{1,80}?)[ ]?»"
                     r"|\((?:section|encadr[ée]|encart|chapitre)[ ]+(?P<bracketed>[^()«»]{1,80}+)\)"
                     rf"|\b(?:section|chapitre|encadr[ée]|encart)[ ]+(?P<bare>{_TITLE_WORD}(?:[ ]{_LINK}?{_TITLE_WORD}){{0,5}})"
                     rf"|\b{_HELD_UNIT}\b[^.;:«»()]{{0,40}}?[ ](?:de|du)[ ](?:§[ ]?)?"
                     r"(?P<dotted>\d{1,3}(?:\.\d{1,3}){1,5})(?![\d]|[.,]\d)", re.IGNORECASE)
# A numbered paragraph in brackets, as books of numbered paragraphs print it: "[15]", "[ 6 ]".
BRACKETED = re.compile(rf"\[[ ]?(?P<number>{NUMBER})[ ]?\]")
BOX = re.compile(r"\b(?:encadr[ée]s?|encarts?|bo[iî]te de texte|tableau|table)\b", re.IGNORECASE)
CARD = re.compile(r"\b(?:cartes?|jetons?|tuiles?|fiches?)\b(?:[ ]+\w+){0,6}?[ ]*(?:\(#[ ]?(?P<num>\d{1,4})\)|#[ ]?(?P<num2>\d{1,4}))?",
                  re.IGNORECASE)
COLUMN = re.compile(r"\bcolonne[ ]+(?P<col>\d|de[ ]+(?:droite|gauche)|droite|gauche)", re.IGNORECASE)
POSITION = re.compile(r"\b(?P<where>[àa] la fin|au d[ée]but|en fin|en d[ée]but|(?:avant|apr[èe]s)(?=[ ]++(?:la|le|l')\b))\b",
                      re.IGNORECASE)
# The unit that holds another: "la première phrase | du troisième paragraphe".
WITHIN = re.compile(rf"(?<! )[ ]++(?:du|de la|de l')[ ]*+{_ORD}[ ]+{_UNIT}", re.IGNORECASE)
# Where in its place a text goes, by the words POSITION finds (folded): the start or the end (of a
# unit, or right after or before it: "après la première phrase").
POSITIONS = {"a la fin": "end", "en fin": "end", "au debut": "start", "en debut": "start", "apres": "end", "avant": "start"}
# A list item named by its opening word: "le point « Exposé »", "la puce « Flanc »".
LABELLED = re.compile(r"\b(?P<unit>points?|puces?|sous-points?|sous-puces?)[ ]+«[ ]?(?P<label>[^«»]{1,60}?)[ ]?»", re.IGNORECASE)


# "Capitaine Peacekeeper (p. 55)", "Prince (p. 61)": a name, then its page in brackets.
# Read from the start of the marks only; they give back at most two characters to the title (all a
# match can need), and the title ends on a non-space or is two characters long.
NAMED_PAGE = re.compile(r"\A(?<![ *_•-])[ *_•-]*(?=[ *_•-]{0,2}(?![ *_•-]))(?P<t>[^()«»:;.]{2}(?:[^()«»:;.]{0,77}?[^()«»:;. ])??)"
                        r"[ ]*+\((?:p\.|pages?|pp\.)[ ]?\d", re.IGNORECASE)


@dataclass
class Locator:
    """Where an erratum applies, as far as its words say. `text` is the place as written."""

    text: str = ""
    page: int | None = None
    page_to: int | None = None
    section: str | None = None  # a section number
    title: str | None = None  # a section, box or ability named by its title
    unit: str | None = None  # paragraph, bullet, sentence, line…
    ordinal: int | None = None  # 1-based, negative from the end; a letter "d" is 4
    column: str | None = None
    card: bool = False
    parts: list[str] = field(default_factory=list)
    label: str | None = None  # a list item named by its opening words ("le point « Exposé »")
    within: str | None = None  # the unit holding `unit` ("la première phrase du troisième paragraphe")
    within_ordinal: int | None = None
    position: str | None = None  # "start" or "end" of its place ("au début du premier paragraphe")

    def empty(self) -> bool:
        return not (self.page or self.section or self.title or self.unit or self.column or self.card)

    def placed(self) -> bool:
        """It names a place a book has: a page, a section, a unit, a column or a card."""
        return bool(self.page or self.section or self.unit or self.column or self.card)

    def merged(self, inner: Locator) -> Locator:
        """This locator (a heading's) narrowed by `inner` (the instruction's own words)."""
        out = Locator(" ; ".join(x for x in (self.text, inner.text) if x))
        for name in ("page", "page_to", "section", "title", "unit", "ordinal", "column", "label", "position", "within",
                     "within_ordinal"):
            setattr(out, name, getattr(inner, name) if getattr(inner, name) is not None else getattr(self, name))
        out.card = self.card or inner.card
        out.parts = self.parts + inner.parts
        return out

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"text": self.text}
        for name in ("page", "page_to", "section", "title", "unit", "ordinal", "column", "label", "position", "within",
                     "within_ordinal"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.card:
            data["card"] = True
        return data


def ordinal_of(word: str) -> int | None:
    key = fold(word).strip().replace("è", "e")
    return ORDINALS.get(key, ORDINALS.get(key.rstrip("s")))


def unit_of(word: str) -> str | None:
    key = fold(word).strip()
    return UNITS.get(key, UNITS.get(key.rstrip("s")))


def read_locator(text: str) -> Locator:
    """Every locator part `text` holds; `text` itself kept verbatim as the place."""
    found = Locator(" ".join(text.split()).strip(" :–-,"))
    if m := PAGE.search(text):
        found.page = int(m.group("page"))
        found.page_to = int(m.group("to")) if m.group("to") else None
        found.parts.append("page")
    if m := SECTION.search(text):
        found.section = m.group("number") or m.group("dotted")  # "la première phrase de 4.1"
        # "(section Fissure Dimorienne)", "section Déplacement"
        found.title = m.group("title") or (m.group("bracketed") or "").strip() or m.group("bare")
        found.parts.append("section")
    elif m := BRACKETED.search(text):
        found.section = m.group("number")
        found.parts.append("section")
    if m := ORDINAL_UNIT.search(text):
        found.unit, found.ordinal = unit_of(m.group("unit")), ordinal_of(m.group("ord"))
        found.parts.append("unit")
        if (outer := WITHIN.match(text, m.end())) and (unit := unit_of(outer.group("unit"))) != found.unit:
            found.within, found.within_ordinal = unit, ordinal_of(outer.group("ord"))  # "première phrase du 3e paragraphe"
    elif m := UNIT_NUMBER.search(text):
        num = m.group("num")
        found.unit = unit_of(m.group("unit"))
        found.ordinal = int(re.split(r"\D", num)[0]) if num[0].isdigit() else ord(num.lower()) - ord("a") + 1
        found.parts.append("unit")
    elif m := LABELLED.search(text):
        found.unit, found.label = unit_of(m.group("unit")), m.group("label")
        found.parts.append("unit")
    if m := POSITION.search(text):
        found.position = POSITIONS.get(fold(m.group("where")).replace("à", "a"))
    if m := COLUMN.search(text):
        found.column = fold(m.group("col")).replace("de ", "")
        found.parts.append("column")
    if BOX.search(text):
        found.parts.append("box")
        found.unit = found.unit or "box"
    if CARD.search(text):
        found.card = True
        found.parts.append("card")
    if found.title is None and (m := NAMED_PAGE.match(text)):
        found.title = m.group("t").strip(" *_–-,")
    if found.title is None and found.label is None and (m := re.search(r"«[ ]?(?P<t>[^«»]{1,80}?)[ ]?»", text)):
        found.title = m.group("t")
    return found


# A locator opening a passage: a page first ("Page 33, colonne 2 …", "p.88 :", "P. 23 :"), or
# a title then its page ("Prince (p. 61)", "Attaque, p. 2"), or a section ("Section 3.2.10").
LEADS = re.compile(r"(?:pages?|pp?\.|p(?=\d))[ ]?\d{1,4}|(?:section|chapitre|article|§)[ ]?\d", re.IGNORECASE)
TITLED_PAGE = re.compile(r"\A[^.!?:«»]{1,80}?[(,–-][ ]?(?:pages?|pp?\.|p(?=\d))[ ]?\d{1,4}\)?", re.IGNORECASE)


def opens_with_locator(text: str) -> bool:
    head = text.lstrip(" •*-–$")
    return bool(LEADS.match(head) or TITLED_PAGE.match(head))


# An erratum's heading: a name, perhaps its page, perhaps its sections ("Ligne de Vue, page 13,
# section 49", "Reformation, page 17, sections 76 et 76.2"). The name is what is left.
HEADING = re.compile(
    rf"^(?P<name>.(?:.*?\S)??)(?:\s*+[,–-]\s*+(?:page|p\.)\s*+(?P<page>\d++))?(?:\s*+,\s*+sections?\s*+(?P<sections>{NUMBER}(?:\s*+(?:et|,)\s*+{NUMBER})*))?\s*+$"
)


@dataclass(frozen=True)
class TargetHint:
    """What an erratum's heading says of its target: "Ligne de Vue, page 13, section 49"."""

    name: str
    page: int | None
    sections: tuple[str, ...]


def parse_heading(title: str) -> TargetHint:
    """The place a heading names: its name, page and every section it lists."""
    match = HEADING.match(title.strip())
    assert match is not None  # the pattern accepts any non-empty title
    sections = tuple(re.findall(NUMBER, match.group("sections") or ""))
    page = int(match.group("page")) if match.group("page") else None
    return TargetHint(match.group("name").strip(), page, sections)
