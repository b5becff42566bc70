"""Instructions that name their own target: "Page 2, section Déplacement : …", "Dans la section 4,
…", "Pour la carte « X », …", "… à la fin de la section Combat : « … »". The target's words are
read off and the rest parsed by the instruction grammar (`grammar`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from extract.errata.grammar import (
    NUMBER,
    ORD,
    QUOTE_OPEN,
    SECTION_REF,
    SHOULD,
    UNIT,
    Operation,
    TargetHint,
    normalise_quotes,
    ordinal_of,
    parse_instruction,
    rule_name,
    section_ref,
    unquote,
)

# ---------------------------------------------------------------- targets named by the instruction itself

# Rules that read almost any sentence: an instruction whose own words locate its target ("Ajoutez à
# la fin de la section Combat : « … »") is read without its locator before one of these.
FALLBACK_RULES = frozenset({"add", "replace-subject", "value-et-non", "should-be-not", "should-be"})
_KIND = r"(?:sections?|r[eè]gles?|articles?|chapitres?|encarts?|encadr[ée]s?|§)"
_TARGET = rf"(?:{NUMBER}|«[^»]+»|[^\s:,.«»][^:,«»]*?)"
# "Page 2, section Déplacement, premier paragraphe : …", "Page 3, section 5.1 : …", "Dans la section 4, …".
_LEADING = re.compile(r"^(?P<prefix>(?:\s*+[^:«»\s]++)++|\s)\s*+:\s*+(?P<rest>\S.*)$")
_IN_SECTION = re.compile(rf"^dans\s+(?:la|le|l')?\s*{_KIND}\s+(?P<target>{_TARGET})\s*,\s*(?P<rest>\S.*)$", re.IGNORECASE)
# "Dans le dernier paragraphe de la section Déplacement, remplacez « X » par « Y »": a unit, and
# perhaps its section, standing before the instruction.
_IN_UNIT = re.compile(rf"^dans\s+(?:le|la|l')\s*{ORD}\s+(?P<unit>paragraphe|§|alin[ée]a)(?:\s+(?:de\s+la|de\s+l'|du)\s*"
                      rf"{_KIND}\s+(?P<target>{_TARGET}))?\s*,\s*(?P<rest>\S.*)$", re.IGNORECASE)
# "Pour la carte objet « Clés du bateau », il faut remplacer …", "Pour l'évènement « Vengeance » : …":
# the card or rule named before the instruction.
_FOR_NAMED = re.compile(r"^pour\s+(?:le|la|les|l')\s*[^,:«»]{0,40}?«\s*(?P<name>[^»]+?)\s*»\s*[,:]\s*(?P<rest>\S.*)$",
                        re.IGNORECASE)
# "… à la fin de la section Combat : « … »", "… du chapitre 4 :".
_OF_SECTION = re.compile(rf"(?<!\s)\s++(?:de\s+la|de\s+l'|du|dans\s+la|dans\s+le|dans\s+l')\s*{_KIND}\s+(?P<target>{_TARGET})"
                         rf"(?=\s*(?::|,|\.?\s*$|\s+par\b|\s+{SHOULD}\b))", re.IGNORECASE)
# "… la dernière phrase de 4.1."
# "… la première phrase de §9 :" in a book whose paragraphs are numbered.
_OF_NUMBER = re.compile(rf"(?P<unit>{UNIT.replace('(?P<unit>', '(?:')})\s+(?:de|du)\s+(?P<target>(?:§\s*|\[\s*)?{NUMBER}(?:\s*\])?)"
                        r"(?=\s*[.:]?\s*$)", re.IGNORECASE)
# "La section 2.3 devrait dire : …", "La section Combat doit se lire : …".
# "Au début de la section Moral, ajoutez : « … »".
_AT_SECTION = re.compile(rf"^(?P<where>[àa]\s+la\s+fin|au\s+d[ée]but)\s+(?:de\s+la|de\s+l'|du)\s*{_KIND}\s+(?P<target>{_TARGET})"
                         r"\s*,\s*(?P<verb>ajoute[zr])\s*(?P<rest>.*)$", re.IGNORECASE)
_SUBJECT = re.compile(rf"^(?P<lead>(?:la|le)\s+{_KIND})\s+(?P<target>{_TARGET})\s+(?={SHOULD}\b)", re.IGNORECASE)
_PAGE_PART = re.compile(r"^(?:(?:à\s+la|en)\s+)?(?:page|p\.)\s*(?P<page>\d+)$", re.IGNORECASE)
KIND_PART = re.compile(rf"^(?:(?:la|le|l')\s*)?{_KIND}\s+(?P<target>.+)$", re.IGNORECASE)
SECTION_PART = re.compile(rf"^(?:(?:au|le|du|dans\s+le)\s+)?{SECTION_REF}$", re.IGNORECASE)
_UNIT_PART = re.compile(rf"^(?:(?:au|le|la|du|dans\s+le|dans\s+la)\s+)?{ORD}\s+(?P<unit>paragraphe|§|alin[ée]a)$", re.IGNORECASE)


@dataclass(frozen=True)
class Located:
    """An instruction with the target it names itself read off: `text` is what is left to parse."""

    text: str
    name: str = ""
    page: int | None = None
    sections: tuple[str, ...] = ()
    paragraph: int | None = None  # "premier paragraphe" in a leading locator

    @property
    def hint(self) -> TargetHint:
        return TargetHint(self.name, self.page, self.sections)


def target_of(word: str) -> tuple[str, tuple[str, ...]]:
    """A section named by its number or by its title (quoted or not)."""
    word = word.strip().strip(".")
    if m := re.fullmatch(rf"(?:§\s*|\[\s*)?({NUMBER})(?:\s*\])?", word):
        return "", (m.group(1),)
    return (unquote(word) or "") if word.startswith(QUOTE_OPEN) else word, ()


def _leading(prefix: str, rest: str) -> Located | None:
    """A locator of comma-separated parts, each a page, a section, a paragraph ordinal or a title."""
    name, page, sections, paragraph, keyed = "", None, (), None, False
    for part in (p.strip() for p in prefix.split(",")):
        if m := _PAGE_PART.match(part):
            page, keyed = int(m.group("page")), True
        elif m := SECTION_PART.match(part):
            sections, keyed = (section_ref(m) or "",), True
        elif m := KIND_PART.match(part):
            found, numbers = target_of(m.group("target"))
            name, sections, keyed = found or name, numbers or sections, True
        elif m := _UNIT_PART.match(part):
            paragraph = ordinal_of(m.group("ord"))
        elif re.fullmatch(NUMBER, part):
            sections, keyed = (part,), True
        elif not name and len(part.split()) <= 6 and not re.search(r"[.;!?«»]", part):
            name = part
        else:
            return None
    # A bare title is a target only beside a page or a section: "Déplacement, page 2 :".
    return Located(rest, name, page, sections, paragraph) if keyed else None


def locations(text: str) -> Iterator[Located]:
    """Readings of the target an instruction names in its own words, each with the instruction
    left once those words are read off; the caller keeps the first whose rest parses."""
    text = normalise_quotes(text)
    if m := _LEADING.match(text):
        found = _leading(m.group("prefix"), m.group("rest"))
        if found is not None:
            yield found
    for pattern in (_IN_SECTION, _AT_SECTION):
        if m := pattern.match(text):
            name, sections = target_of(m.group("target"))
            rest = m.group("rest")
            if pattern is _AT_SECTION:
                rest = f"{m.group('verb')} {m.group('where')} {rest}"
            yield Located(rest[:1].upper() + rest[1:], name, None, sections)
    if m := _FOR_NAMED.match(text):
        rest = m.group("rest")
        yield Located(rest[:1].upper() + rest[1:], m.group("name"))
    if m := _IN_UNIT.match(text):
        name, sections = target_of(m.group("target")) if m.group("target") else ("", ())
        rest = m.group("rest")
        yield Located(rest[:1].upper() + rest[1:], name, None, sections, ordinal_of(m.group("ord")))
    # The locator stands before the new text, which opens after a colon or "par" (a title may be quoted).
    opening = re.search(r"(?::|\bpar)\s*«", text)
    quote = text.find(QUOTE_OPEN, opening.start()) if opening else text.find(QUOTE_OPEN)
    head, tail = (text, "") if quote == -1 else (text[:quote], text[quote:])
    for pattern, keep in ((_SUBJECT, "lead"), (_OF_SECTION, None), (_OF_NUMBER, "unit")):
        if m := pattern.search(head):
            name, sections = target_of(m.group("target"))
            kept = (m.group(keep) + " ") if keep == "lead" else m.group(keep) if keep else ""
            yield Located(head[:m.start()] + kept + head[m.end():] + tail, name, None, sections)
    # "En page 7, §17, lire « … » au lieu de « … »": the locator's parts end at a comma, not a colon;
    # the longest prefix that reads as a locator first.
    for m in reversed(list(re.finditer(r"(?:(?<!\s)\s++)?,\s*+", head))):
        rest = text[m.end():]
        found = _leading(text[:m.start()], rest[:1].upper() + rest[1:])
        if found is not None:
            yield found


def read_instruction(text: str) -> tuple[Operation, Located | None] | None:
    """The operation of an errata sentence and, when the sentence names its target itself, where.

    A sentence a specific rule reads whole keeps that reading ("Le second paragraphe de la section
    76.2 (page 18) devrait dire :"); otherwise its locator is read off and the rest parsed again.
    """
    whole = rule_name(text)
    operation = parse_instruction(text)
    # A specific reading that has no section of its own yields to one that reads the section the
    # sentence names ("Ajoutez à la fin du premier paragraphe de la section Combat : « … »"); one that
    # kept the locator's words as its subject ("du texte de la règle spéciale Bastion") stands.
    if whole is None or whole in FALLBACK_RULES or (operation is not None and operation.section is None
                                                     and operation.subject is None):
        for located in locations(text):
            operation = parse_instruction(located.text)
            if operation is None:
                continue
            if located.sections and operation.section is None:
                operation.section = located.sections[0]
            if located.paragraph is not None and operation.within is None and operation.block in ("text", "sentence"):
                operation.within, operation.within_ordinal = "paragraph", located.paragraph
            if whole is not None and whole not in FALLBACK_RULES and not (located.name or located.sections):
                continue  # the locator names no section: the whole reading stands
            return operation, located
        operation = parse_instruction(text)
    return (operation, None) if operation is not None else None
