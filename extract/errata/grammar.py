"""The French grammar of errata instructions: one sentence in, one `Operation` out.

FAQ and errata documents phrase the same few operations in many ways ("Le premier paragraphe
de cette section devrait dire :", "Remplacez le point 2 par :", "Ajoutez à la fin du deuxième
paragraphe :", "Renommez … en …", "… est de 0 (et non 1)"). Each phrasing is one rule below,
tried in order; the first that matches wins. Everything here is pure: no entries, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from extract.model import Operation
from extract.registry import Registry
from extract.text import fold, table_row_cells

_ORDINALS = {
    "premier": 1, "premiere": 1, "premiers": 1, "1er": 1, "1re": 1, "1ere": 1,
    "second": 2, "seconde": 2, "deuxieme": 2, "2e": 2, "2eme": 2, "2nd": 2, "2nde": 2,
    "troisieme": 3, "3e": 3, "3eme": 3, "quatrieme": 4, "4e": 4, "4eme": 4,
    "cinquieme": 5, "5e": 5, "5eme": 5, "sixieme": 6, "6e": 6, "6eme": 6,
    "septieme": 7, "7e": 7, "huitieme": 8, "8e": 8, "neuvieme": 9, "9e": 9, "dixieme": 10, "10e": 10,
    "dernier": -1, "derniere": -1, "avant-dernier": -2, "avant-derniere": -2,
}
_UNITS = {
    "paragraphe": "paragraph", "§": "paragraph", "alinea": "paragraph",
    "point": "bullet", "puce": "bullet", "sous-puce": "subbullet", "sous-point": "subbullet",
    "phrase": "sentence", "section": "entry", "regle": "entry", "encart": "entry", "entree": "entry",
}

# Accent-tolerant spellings, so that OCR or hurried typing without accents still parses.
ORD = (r"(?P<ord>premi[eè]re?s?|1(?:er|re|ère)|seconde?|deuxi[eè]me|2(?:e|ème|nde?)|troisi[eè]me|3(?:e|ème)|"
       r"quatri[eè]me|4(?:e|ème)|cinqui[eè]me|5(?:e|ème)|sixi[eè]me|6(?:e|ème)|septi[eè]me|7e|huiti[eè]me|8e|"
       r"neuvi[eè]me|9e|dixi[eè]me|10e|avant-derni[eè]re?|derni[eè]re?)")
ORD_WITHIN = ORD.replace("(?P<ord>", "(?P<word>")
UNIT = r"(?P<unit>sous-puces?|sous-points?|paragraphes?|§|alin[ée]as?|points?|puces?|phrases?|sections?|r[eè]gles?|encarts?|entr[ée]es?)"
NUMBER = r"\d+(?:\.\d+)*[A-Z]?"
QUOTE_OPEN = "«"
QUOTE_CLOSE = "»"
# Where the instruction locates its unit: "de cette section", "de la section 76.2 (page 18)",
# "du texte de la règle spéciale Bastion", "de cette carte Amélioration".
WHERE = (rf"(?:\s+(?:de|du|dans)\s+(?:cette|ce|la|le)\s+(?:section|règle|regle|carte|encart|entrée|texte)"
         rf"(?:\s+(?P<section>{NUMBER}))?(?:\s+[^\s:(«]+)*?(?:\s*\((?:page|p\.)\s*\d+\))?)?")
SHOULD = r"(?:devrait|doit|devraient|doivent)"


def normalise_quotes(text: str) -> str:
    """Curly and straight double quotes become « », curly apostrophes straight ones."""
    text = text.replace("’", "'").replace("‘", "'").replace("\u00a0", " ").replace("\u202f", " ")
    text = re.sub(r"“\s*", "« ", text)
    text = re.sub(r"\s*”", " »", text)
    # Straight double quotes pair up left to right.
    parts = text.split('"')
    if len(parts) > 1 and len(parts) % 2 == 1:
        text = "".join(p + ("« " if i % 2 == 0 else " »") if i < len(parts) - 1 else p for i, p in enumerate(parts))
    return re.sub(r"[ \t]+", " ", text).strip()


def ordinal_of(word: str | None) -> int | None:
    if word is None:
        return None
    key = fold(word)
    return _ORDINALS.get(key, _ORDINALS.get(key.rstrip("s")))


def unit_of(word: str | None) -> str | None:
    if word is None:
        return None
    key = fold(word)
    return _UNITS.get(key, _UNITS.get(key.rstrip("s")))


def unquote(text: str | None) -> str | None:
    """Text between the outer guillemets, without ellipsis markers "(...)" at its ends."""
    if text is None:
        return None
    text = text.strip().rstrip(".").strip()
    if text.startswith(QUOTE_OPEN):
        text = text[1:]
    if text.endswith(QUOTE_CLOSE) and text.count(QUOTE_OPEN) < text.count(QUOTE_CLOSE):
        text = text[:-1]
    text = re.sub(r"^\s*(?:\(\s*(?:\.\.\.|…)\s*\)|\.\.\.|…)\s*", "", text.strip())
    text = re.sub(r"\s*(?:\(\s*(?:\.\.\.|…)\s*\)|\.\.\.|…)\s*$", "", text)
    return text.strip() or None


def split_quote(rest: str) -> str | None:
    """New text given inline after the colon: "… devrait dire : « X »" -> X; "par un « X ». Y" -> X.

    Quotes nest ("« … l'étape « Mise en place » … »"), so the closing mark is the one that
    brings the depth back to zero. Text with no quotation marks at all is taken whole.
    """
    rest = rest.strip()
    if not rest:
        return None
    start = rest.find(QUOTE_OPEN)
    if start == -1 or (start > 0 and len(rest[:start].split()) > 3):
        return unquote(rest)
    depth = 0
    for i in range(start, len(rest)):
        if rest[i] == QUOTE_OPEN:
            depth += 1
        elif rest[i] == QUOTE_CLOSE:
            depth -= 1
            if depth == 0:
                return unquote(rest[start:i + 1])
    return unquote(rest[start:])


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], Operation]


# Every rule is registered where it is defined, with its priority: the first whose pattern matches
# reads the sentence, so a specific phrasing ("La section 86.11 devrait être supprimée") must
# outrank the general one it also matches ("… devrait être …").
GRAMMAR: Registry[Rule] = Registry("grammar rule")


def _rule(name: str, priority: int, pattern: str) -> Callable[[Callable[[re.Match[str]], Operation]], Rule]:
    def wrap(build: Callable[[re.Match[str]], Operation]) -> Rule:
        rule = Rule(name, re.compile(pattern, re.IGNORECASE), build)
        GRAMMAR.add(name, rule, priority)
        return rule
    return wrap


def _card(text: str) -> bool:
    return bool(re.search(r"\bcette carte\b|\bsa bo[iî]te de texte\b|\bcette figurine\b|\bcette arme\b", text, re.IGNORECASE))


def _tail(match: re.Match[str]) -> tuple[str | None, bool]:
    after = split_quote(match.group("rest") or "")
    return after, after is None


# "Auparavant, elle indiquait : « … »": the old text, quoted so that it can be checked.
_BEFORE = r"\s*\.?\s*(?P<then>Auparavant,?\s+(?:elle|il)\s+(?:indiquait|disait)\s*:?\s*(?P<before>[^:\s].*)?)?$"


@_rule("delete-entry", 200, rf"^(?:la|le)\s+(?:section|r[eè]gle|entr[ée]e)\s+(?P<section>{NUMBER})?\s*{SHOULD}\s+[êe]tre\s+supprim[ée]e?s?"
       rf"{_BEFORE}")
def _delete_entry(m: re.Match[str]) -> Operation:
    return Operation("delete", "entry", section=m.group("section"), before=unquote(m.group("before")),
                     expects_text=bool(m.group("then")) and not m.group("before"))


@_rule("delete-unit", 190, rf"^(?:le|la|les)\s+{ORD}\s+{UNIT}{WHERE}\s+{SHOULD}\s+[êe]tre\s+supprim[ée]e?s?{_BEFORE}")
def _delete_unit(m: re.Match[str]) -> Operation:
    return Operation("delete", unit_of(m.group("unit")) or "paragraph", ordinal=ordinal_of(m.group("ord")),
                     section=m.group("section"), before=unquote(m.group("before")),
                     expects_text=bool(m.group("then")) and not m.group("before"))


@_rule("delete-imperative", 180, rf"^(?:supprime[zr]|retire[zr])\s+(?:le|la|les)\s+{ORD}\s+{UNIT}{WHERE}{_BEFORE}")
def _delete_imperative(m: re.Match[str]) -> Operation:
    return _delete_unit.build(m)


@_rule("add-entry", 170,
       rf"^(?:la|une)\s+(?:section|r[eè]gle)\s+(?P<section>{NUMBER})\s+{SHOULD}\s+[êe]tre\s+ajout[ée]e\s*:?\s*(?P<rest>.*)$")
def _add_entry(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    return Operation("insert", "entry", section=m.group("section"), after=after, expects_text=expects)


@_rule("add-at", 160,
       rf"^ajoute[zr]\s+(?P<where>[àa]\s+la\s+fin|au\s+d[ée]but)\s+(?:du|de\s+la)\s+{ORD}\s+{UNIT}{WHERE}\s*:?\s*(?P<rest>.*)$")
def _add_at(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    position = "end" if "fin" in m.group("where").lower() else "start"
    return Operation("insert", "text", position=position, within=unit_of(m.group("unit")),
                     within_ordinal=ordinal_of(m.group("ord")), section=m.group("section"), after=after,
                     expects_text=expects)


@_rule("add-at-end", 158, r"^ajoute[zr]\s+(?P<where>[àa]\s+la\s+fin|au\s+d[ée]but)\s*:?\s*(?P<rest>«.*)?$")
def _add_at_end(m: re.Match[str]) -> Operation:
    """"Ajoutez à la fin : « … »", once the locator ("de la section Combat") is read off."""
    after, expects = _tail(m)
    position = "end" if "fin" in m.group("where").lower() else "start"
    return Operation("insert", "text", position=position, after=after, expects_text=expects)


@_rule("add-after-name", 150,
       r"^ajoute[zr]\s+(?P<what>«[^»]+»)\s+apr[èe]s\s+le\s+nom\s+(?:de\s+)?(?P<subject>[^:.]+?)(?:\s+pour\s+.*)?\.?$")
def _add_after_name(m: re.Match[str]) -> Operation:
    return Operation("insert", "title", position="end", after=unquote(m.group("what")),
                     subject=m.group("subject").strip(), card=_card(m.group(0)))


@_rule("add-section", 140, r"^ajoute[zr]\s+(?:l'encart\s+suivant|la\s+section\s+suivante|une\s+section|un"
       r"\s+encart)(?P<subject>[^:]*)\s*:?\s*(?P<rest>.*)$")
def _add_section(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    subject = m.group("subject").strip() or None
    return Operation("insert", "entry", after=after, expects_text=expects, subject=subject)


@_rule("add", 10, r"^(?:ajoute[zr]|ajout)\s*:?\s*(?P<rest>.*)$")
def _add(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    return Operation("insert", "text", position="end", after=after, expects_text=expects)


@_rule("move", 130, rf"^(?:le|la)\s+{ORD}\s+{UNIT}{WHERE}\s+{SHOULD}\s+[êe]tre\s+d[ée]plac[ée]e?\s+pour\s+appara[iî]tre\s+en\s+"
       rf"(?P<to>derni(?:er|ère)|premi(?:er|ère)|t[êe]te|fin)(?P<say>\s+et\s+dire)?\s*:?\s*(?P<rest>.*)$")
def _move(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    to = m.group("to").lower()
    position = "last" if to.startswith(("dern", "fin")) else "first"
    return Operation("move", unit_of(m.group("unit")) or "bullet", ordinal=ordinal_of(m.group("ord")),
                     section=m.group("section"), position=position, after=after,
                     expects_text=bool(m.group("say")) and expects)


@_rule("labelled-should-say", 120, rf"^le\s+(?:point|paragraphe|mot-cl[ée]f?)\s+«\s*(?P<label>[^»]+?)\s*»{WHERE}\s+{SHOULD}"
       rf"\s+(?:dire|se\s+lire|[êe]tre)\s*:?\s*(?P<rest>.*)$")
def _labelled(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    return Operation("replace", "bullet", label=m.group("label"), section=m.group("section"), after=after, expects_text=expects)


@_rule("should-say", 110, rf"^(?:dans\s+(?:l'extension|le\s+livre|la\s+bo[iî]te)\s+[^,]+,\s*)?(?:le|la|les)\s+{ORD}\s+{UNIT}"
       rf"(?:\s+(?:du|de\s+la)\s+{ORD_WITHIN}\s+paragraphe)?{WHERE}\s+{SHOULD}\s+"
       rf"(?:dire|se\s+lire|[êe]tre\s+remplac[ée]e?s?\s+par(?:\s+(?:le|la|les|ce)\s*(?:suivante?s?|qui\s+suit)?)?|[êe]tre)"
       rf"(?P<subs>\s*,?\s*assortie?s?\s+de\s+ses\s+«?\s*sous-puces\s*»?)?\s*:?\s*(?P<rest>.*)$")
def _should_say(m: re.Match[str]) -> Operation:
    return _replacement(m, unit_of(m.group("unit")) or "paragraph", ordinal_of(m.group("ord")), m.group("section"),
                        within=ordinal_of(m.group("word")), with_subbullets=bool(m.group("subs")), card=_card(m.group(0)))


def _replacement(m: re.Match[str], unit: str, ordinal: int | None, section: str | None, within: int | None,
                 **extra) -> Operation:
    """A unit replaced by the quoted text; `within`: the ordinal of the paragraph it is counted in."""
    after, expects = _tail(m)
    return Operation("replace", unit, ordinal=ordinal, section=section, after=after, expects_text=expects,
                     within="paragraph" if within else None, within_ordinal=within, **extra)


@_rule("entry-should-say", 105, rf"^(?:la|le)\s+(?:section|r[eè]gle|article|chapitre)(?:\s+(?P<section>{NUMBER}))?\s+{SHOULD}\s+"
       r"(?:dire|se\s+lire|[êe]tre\s+remplac[ée]e?\s+par(?:\s+ce\s+qui\s+suit)?)\s*:?\s*(?P<rest>.*)$")
def _entry_should_say(m: re.Match[str]) -> Operation:
    """"La section 2.3 devrait dire : « … »": the whole rule text."""
    after, expects = _tail(m)
    return Operation("replace", "entry", section=m.group("section"), after=after, expects_text=expects)


@_rule("card-should-say", 100, rf"^(?:dans\s+l'extension\s+[^,]+,\s*)?(?:l'effet|le\s+texte|sa\s+bo[iî]te\s+de"
       rf"\s+texte)(?P<where>[^:]*?)\s+{SHOULD}\s+(?:dire|[êe]tre|se\s+lire)\s*:?\s*(?P<rest>.*)$")
def _card_should_say(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    section = re.search(r"\(section\s+([^)]+)\)", m.group("where") or "")
    return Operation("replace", "card", subject=section.group(1).strip() if section else None,
                     after=after, expects_text=expects, card=True)


@_rule("replace-unit", 90, rf"^(?:il\s+faut\s+)?remplace[zr]\s+(?:le|la|les)\s+(?:(?:{ORD}"
       rf"\s+{UNIT})|(?:(?P<unit2>point|paragraphe|phrase|puce|§)\s+(?P<num>\d+)))"
       rf"(?P<where2>(?:\s+(?:de|du|dans)\s+(?:«[^»]*»|[^:«])+?)?)\s+par\b\s*(?:le\s+suivant|la\s+suivante|ce"
       rf"\s+qui\s+suit|les\s+suivants)?\s*:?\s*(?P<rest>.*)$")
def _replace_unit(m: re.Match[str]) -> Operation:
    unit = unit_of(m.group("unit") or m.group("unit2")) or "paragraph"
    ordinal = ordinal_of(m.group("ord")) if m.group("ord") else int(m.group("num"))
    where = (m.group("where2") or "").strip()
    within = re.search(rf"(?:du|de\s+la)\s+{ORD_WITHIN}\s+paragraphe", where, re.IGNORECASE)
    section = re.search(rf"section\s+({NUMBER})", where, re.IGNORECASE)
    return _replacement(m, unit, ordinal, section.group(1) if section else None,
                        within=ordinal_of(within.group("word")) if within else None,
                        subject=where or None if not (within or section) else None, card=_card(where))


@_rule("replace-rule", 80, r"^remplace[zr]\s+(?:la\s+r[eè]gle|le\s+texte|la\s+section|l'encart|la"
       r"\s+description)(?P<where>[^:]*?)\s+par\s*:?\s*(?P<rest>.*)$")
def _replace_rule(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    return Operation("replace", "entry", after=after, expects_text=expects, subject=(m.group("where").strip() or None))


@_rule("replace-quoted", 70, r"^(?:il\s+faut\s+)?remplace[zr]\s+(?:les\s+(?P<count>deux|trois|\d+)\s+r[ée]f[ée]rences\s+de\s+)?"
       r"«\s*(?P<before>.+?)\s*»\s+par\s+«\s*(?P<after>.+)\s*»(?P<tail>[^»]*)$")
def _replace_quoted(m: re.Match[str]) -> Operation:
    counts = {"deux": 2, "trois": 3}
    word = (m.group("count") or "").lower()
    count = counts.get(word, int(word) if word.isdigit() else 1)
    tail = m.group("tail") or ""
    within = re.search(rf"dans\s+la\s+{ORD}\s+phrase", tail, re.IGNORECASE)
    # "… par « B » dans la section 3.": the section named after the quotes.
    section = re.search(rf"\b(?:dans|de)\s+(?:la|le|l')\s*(?:section|r[eè]gle|article|chapitre)\s+({NUMBER})", tail, re.IGNORECASE)
    after = m.group("after")
    # "par « A » et remplacez … par « B »": keep only the first replacement text.
    after = re.split(r"\s*»\s+et\s+remplace", after)[0]
    return Operation("replace", "text", before=unquote(m.group("before")), after=unquote(after), count=count,
                     section=section.group(1) if section else None, within="sentence" if within else None,
                     within_ordinal=ordinal_of(within.group("ord")) if within else None)


# "lire « 4, 5 ou 6 » au lieu de « 5 ou 6 »", "Au lieu de « X », lisez « Y »", "lire « Y » (et non « X »)":
# the printed phrase and the one to read instead, in either order.
_READ = r"(?:il\s+faut\s+)?(?:lire|lisez|on\s+doit\s+lire|on\s+lira)"


_INSTEAD = r"(?:au\s+lieu\s+de|[àa]\s+la\s+place\s+de)"


@_rule("read-instead", 76, rf"^{_READ}\s+«\s*(?P<after>.+?)\s*»\s*,?\s+{_INSTEAD}\s+«\s*(?P<before>.+?)\s*»\s*\.?$")
def _read_instead(m: re.Match[str]) -> Operation:
    return Operation("replace", "text", before=unquote(m.group("before")), after=unquote(m.group("after")))


@_rule("instead-read", 75, rf"^{_INSTEAD}\s+«\s*(?P<before>.+?)\s*»\s*,?\s+{_READ}\s+«\s*(?P<after>.+?)\s*»\s*\.?$")
def _instead_read(m: re.Match[str]) -> Operation:
    return _read_instead.build(m)


@_rule("read-not", 74, rf"^{_READ}\s+«\s*(?P<after>.+?)\s*»\s*\(\s*et\s+non\s+(?:pas\s+)?«\s*(?P<before>.+?)\s*»\s*\)\s*\.?$")
def _read_not(m: re.Match[str]) -> Operation:
    return _read_instead.build(m)


@_rule("quoted-becomes", 73, r"^«\s*(?P<before>[^«»]+?)\s*»\s+(?:devient|doit\s+devenir|(?:doit|devrait)\s+se\s+lire|(?:est|doit\s+[êe]tre)"
       r"\s+remplac[ée]e?\s+par)\s*:?\s*«\s*(?P<after>.+?)\s*»\s*\.?$")
def _quoted_becomes(m: re.Match[str]) -> Operation:
    """"« 5 ou 6 » devient « 4, 5 ou 6 »", "« X » doit se lire « Y »"."""
    return _read_instead.build(m)


@_rule("correct-into", 72, r"^corrige[zr]\s+«\s*(?P<before>[^«»]+?)\s*»\s+en\s+«\s*(?P<after>.+?)\s*»\s*\.?$")
def _correct_into(m: re.Match[str]) -> Operation:
    return _read_instead.build(m)


# A section named by its number in a book whose paragraphs are numbered: "§15", "[15]", "paragraphe 15".
SECTION_REF = rf"(?:§\s*(?P<n1>{NUMBER})|\[\s*(?P<n2>{NUMBER})\s*\]|paragraphe\s+(?:n°\s*)?(?P<n3>\d+(?:\.\d+)*)(?![\w.]))"


def section_ref(m: re.Match[str]) -> str | None:
    return m.group("n1") or m.group("n2") or m.group("n3")


@_rule("numbered-replaced", 104, rf"^(?:le|la)\s+(?:(?:paragraphe|section|r[eè]gle)\s+)?{SECTION_REF}\s+(?:est\s+remplac[ée]e?\s+par"
       rf"(?:\s+ce\s+qui\s+suit)?|{SHOULD}\s+(?:dire|se\s+lire|[êe]tre\s+remplac[ée]e?\s+par)|se\s+lit\s+(?:d[ée]sormais|maintenant)"
       r"|devient)\s*:?\s*(?P<rest>.*)$")
def _numbered_replaced(m: re.Match[str]) -> Operation:
    """"Le paragraphe [15] est remplacé par : « … »": the whole text of the numbered section."""
    after, expects = _tail(m)
    return Operation("replace", "entry", section=section_ref(m), after=after, expects_text=expects)


@_rule("add-by-sentence", 165, rf"^ajoute[zr]\s+(?P<where>apr[èe]s|avant)\s+la\s+{ORD}\s+phrase\s*:?\s*(?P<rest>«.*)?$")
def _add_by_sentence(m: re.Match[str]) -> Operation:
    """"Ajoutez après la première phrase : « … »", once its locator ("de §9") is read off: the
    position words say where, the quote alone is the new text."""
    after, expects = _tail(m)
    return Operation("insert", "text", position="end" if m.group("where").lower().startswith("apr") else "start",
                     within="sentence", within_ordinal=ordinal_of(m.group("ord")), after=after, expects_text=expects)


@_rule("replace-subject", 50, r"^(?:il\s+faut\s+)?remplace[zr]\s+(?P<subject>(?:l[ae']|les|sa|son|ses|cette|ce)\s*[^«:]+?)"
       r"\s+par\s*:?\s*(?P<rest>«.*|.+)$")
def _replace_subject(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    subject = m.group("subject").strip()
    return Operation("replace", "text", subject=subject, after=after, expects_text=expects, card=_card(subject))


@_rule("rename", 60, r"^renomme[zr]\s+(?P<subject>.+?)\s+en\s+(?P<after>«.+»)\s*\.?$")
def _rename(m: re.Match[str]) -> Operation:
    return Operation("replace", "title", subject=m.group("subject").strip(), after=unquote(m.group("after")))


# "… est de 0 (et non 1)", "la cible doit être la Final Girl (et non la victime)": values are a few
# words at most, or this reads any "(et non …)" aside.
@_rule("value-et-non", 40, r"^(?P<subject>[^.]{1,80}?)\s+(?:est|sont|(?:doit|doivent|devrait|devraient)\s+[êe]tre)"
       r"\s+(?:de\s+)?(?P<after>[^()\s]+(?:\s[^()\s]+){0,2}?)\s*\(\s*et\s+non\s+(?:de\s+|pas\s+)?(?P<before>[^)]+?)\s*\)(?P<tail>.*)$")
def _value(m: re.Match[str]) -> Operation:
    return Operation("replace", "value", subject=m.group("subject").strip(), after=m.group("after").strip(),
                     before=m.group("before").strip(), card=_card(m.group("subject")))


@_rule("should-be-not", 30, r"^(?P<subject>.+?)\s+(?:devrait|doit)\s+[êe]tre\s+(?P<after>.+?)\s+et\s+non\s+(?:pas"
       r"\s+)?(?P<before>[^.]+?)\s*\.?$")
def _should_be_not(m: re.Match[str]) -> Operation:
    return Operation("replace", "value", subject=m.group("subject").strip(), after=m.group("after").strip(),
                     before=m.group("before").strip())


@_rule("should-be", 20, r"^(?:ce|cela|il)\s+(?:devrait|doit)\s+[êe]tre(?:\s+en\s+fait)?\s*:\s*(?P<rest>.*)$")
def _should_be(m: re.Match[str]) -> Operation:
    after, expects = _tail(m)
    return Operation("replace", "text", after=after, expects_text=expects)


def parse_instruction(text: str) -> Operation | None:
    """The operation a French errata sentence asks for, or None when it is not an instruction."""
    text = normalise_quotes(text)
    for _, rule in GRAMMAR.ordered():
        match = rule.pattern.match(text)
        if match:
            operation = rule.build(match)
            if operation.card is False and _card(text):
                operation.card = True
            return operation
    return None


def rule_name(text: str) -> str | None:
    """Which grammar rule reads `text` (for reports and tests)."""
    text = normalise_quotes(text)
    return next((name for name, rule in GRAMMAR.ordered() if rule.pattern.match(text)), None)


HEADING = re.compile(
    rf"^(?P<name>.+?)(?:\s*[,–-]\s*(?:page|p\.)\s*(?P<page>\d+))?(?:\s*,\s*sections?\s*(?P<sections>{NUMBER}(?:\s*(?:et|,)\s*{NUMBER})*))?\s*$"
)


@dataclass(frozen=True)
class TargetHint:
    """What an erratum's heading says of its target: "Ligne de Vue, page 13, section 49"."""

    name: str
    page: int | None
    sections: tuple[str, ...]


def parse_heading(title: str) -> TargetHint:
    match = HEADING.match(title.strip())
    assert match is not None  # the pattern accepts any non-empty title
    sections = tuple(re.findall(NUMBER, match.group("sections") or ""))
    page = int(match.group("page")) if match.group("page") else None
    return TargetHint(match.group("name").strip(), page, sections)


# ---------------------------------------------------------------- errata in free text

# Where an item of an errata list starts: "Page 27 – Renforts", "Capitaine Peacekeeper (p. 55) : …".
ITEM_PAGE = re.compile(r"^\s*(?:[•*-]\s*)?Page\s+(?P<page>\d+)\s*[–—-]\s*(?P<name>[^:]+?)\s*(?::\s*(?P<rest>.*))?$", re.IGNORECASE)
# A line that only names what the items below it change: "- La Colo de l'Horreur :", "Le Manoir Hanté :".
ITEM_TOPIC = re.compile(r"^\s*(?:[•*–-]\s*)?(?P<name>[A-ZÀ-Ý][^:«».;!?]{1,59}?)\s*:\s*$")
# A line announcing the errata below it ("Erratas (uniquement sur les 1ères impressions) … :"): a heading.
ERRATA_LEAD = re.compile(r"^\W*errat\w*\b[^«»]*?(?:[«(][^:]*)?:\s*$", re.IGNORECASE)


def announces_errata(text: str) -> bool:
    """`text` (a line, or a paragraph of the book) announces the errata that follow it, as a heading would."""
    return len(text) < 400 and ERRATA_LEAD.match(fold(text)) is not None
# A list item's marker: each item of an errata list is one passage, whatever line breaks it holds.
LIST_MARK = re.compile(r"^\s*[•*–-](?:\s+|$)")
ITEM_NAMED = re.compile(r"^\s*(?:[•*-]\s*)?(?P<name>[^:()«»]{2,80}?)\s*\((?:p\.|page)\s*(?P<page>\d+)\)\s*:\s*(?P<rest>.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class FoundInstruction:
    """One instruction found in a free-text errata document, with what its item says of its target."""

    line: int
    text: str
    hint: TargetHint
    operation: Operation


@dataclass
class ErrataScan:
    """What a free-text errata document gives: its instructions, and the passages that read like
    errata (or table rows of an errata table) that nothing reads, each with its line and why."""

    found: list[FoundInstruction]
    unread: list[tuple[int, str, str]]  # (line, text, why)


_TABLE_LINE = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in table_row_cells(line)]


def scan_errata(lines: list[str], numbers: list[int] | None = None) -> ErrataScan:
    """Instructions in an errata text that has no structure we know: items start at "Page N – X"
    or "X (p. N) :" lines; an instruction runs on until a blank line (or a gap in `numbers`, the
    lines' own numbers when blank lines were left out) or the next item. Markdown tables whose
    header names an old and a new text give one instruction per row."""
    numbers = numbers if numbers is not None else list(range(1, len(lines) + 1))
    scan = ErrataScan([], [])
    hint = TargetHint("", None, ())
    current: list[str] = []
    table: list[tuple[int, list[str]]] = []
    start = 0

    def flush() -> None:
        # "… (source) - Pour l'évènement « X », il faut remplacer …": list items run together on one line
        for piece in _inline_items(" ".join(current)):
            read(piece)
        current.clear()

    def read(text: str) -> None:
        # "deux armes du tableau portent ce nom. Renommez la première …": the instruction may
        # follow a sentence of context.
        for at in [0] + [m.end() for m in re.finditer(r"[.!?]\s+", text)]:
            read = read_instruction(text[at:])
            if read is not None:
                op, located = read
                own = located is not None and (located.name or located.sections)
                scan.found.append(FoundInstruction(start, text[at:], located.hint if own and located else hint, op))
                break
        else:
            if text and looks_like_instruction(text):
                scan.unread.append((start, text, "no instruction form reads it"))

    def flush_table() -> None:
        rows = [cells for _, cells in table]
        if rows and is_errata_table(rows[0]):
            for row in read_errata_table(rows):
                line = table[row.row][0]
                if row.operation is None:
                    scan.unread.append((line, row.text, row.problem or "unreadable row"))
                else:
                    scan.found.append(FoundInstruction(line, row.text, row.hint if row.hint.name or row.hint.sections
                                                       else hint, row.operation))
        elif len(rows) > 1 and any(looks_like_instruction(" ".join(cells)) for cells in rows):
            scan.unread.append((table[0][0], " | ".join(rows[0]), "a table whose header names no old and new text"))
        table.clear()

    previous = None
    for number, raw in zip(numbers, lines, strict=True):
        line = raw.strip()
        gap = previous is not None and number > previous + 1
        previous = number
        if _TABLE_LINE.match(line):
            if not table:
                flush()
            if not _TABLE_RULE.match(line):
                table.append((number, _cells(line)))
            continue
        if table:
            flush_table()
        item = ITEM_PAGE.match(line) or ITEM_NAMED.match(line)
        topic = None if item or looks_like_instruction(line) else ITEM_TOPIC.match(line)
        # a list marker starts an item, unless it stands inside a quotation still open
        listed = bool(LIST_MARK.match(line)) and not _open_quote(current)
        lead = not item and not topic and announces_errata(line)
        if lead:
            flush()
            continue  # it names no target, and its words are no erratum
        if item or topic or listed or not line or gap:
            flush()
        if item:
            hint = TargetHint(item.group("name").strip(), int(item.group("page")), ())
            line = (item.group("rest") or "").strip()
        elif topic:
            hint, line = TargetHint(topic.group("name").strip(), None, ()), ""
        elif listed:
            line = LIST_MARK.sub("", line, count=1).strip()
        if not line:
            continue
        if current and parse_instruction(line) is not None:
            flush()  # an instruction starts its own item: what came before ends here
        if not current:
            start = number
        current.append(line)
    flush_table()
    flush()
    return scan


def _inline_items(text: str) -> list[str]:
    """A passage cut at the list dashes that run items together (" - " before a capital), outside quotes."""
    pieces, depth, at = [], 0, 0
    normal = normalise_quotes(text) if text else text
    for m in re.finditer(r"«|»|(?<=[).!?»])\s[–-]\s+(?=[A-ZÀ-Ý])", normal):
        if m.group() == QUOTE_OPEN:
            depth += 1
        elif m.group() == QUOTE_CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            pieces.append(normal[at:m.start()].strip())
            at = m.end()
    pieces.append(normal[at:].strip())
    pieces = [p for p in pieces if p]
    return pieces if len(pieces) > 1 else [text]


def _open_quote(lines: list[str]) -> bool:
    text = normalise_quotes(" ".join(lines))
    return text.count(QUOTE_OPEN) > text.count(QUOTE_CLOSE)


def find_instructions(lines: list[str]) -> list[FoundInstruction]:
    return scan_errata(lines).found


# ---------------------------------------------------------------- targets named by the instruction itself

# Rules that read almost any sentence: an instruction whose own words locate its target ("Ajoutez à
# la fin de la section Combat : « … »") is read without its locator before one of these.
FALLBACK_RULES = frozenset({"add", "replace-subject", "value-et-non", "should-be-not", "should-be"})
_KIND = r"(?:sections?|r[eè]gles?|articles?|chapitres?|encarts?|encadr[ée]s?|§)"
_TARGET = rf"(?:{NUMBER}|«[^»]+»|[^\s:,.«»][^:,«»]*?)"
# "Page 2, section Déplacement, premier paragraphe : …", "Page 3, section 5.1 : …", "Dans la section 4, …".
_LEADING = re.compile(r"^(?P<prefix>[^:«»]+?)\s*:\s*(?P<rest>\S.*)$")
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
_OF_SECTION = re.compile(rf"\s+(?:de\s+la|de\s+l'|du|dans\s+la|dans\s+le|dans\s+l')\s*{_KIND}\s+(?P<target>{_TARGET})"
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
_KIND_PART = re.compile(rf"^(?:(?:la|le|l')\s*)?{_KIND}\s+(?P<target>.+)$", re.IGNORECASE)
_SECTION_PART = re.compile(rf"^(?:(?:au|le|du|dans\s+le)\s+)?{SECTION_REF}$", re.IGNORECASE)
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


def _target(word: str) -> tuple[str, tuple[str, ...]]:
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
        elif m := _SECTION_PART.match(part):
            sections, keyed = (section_ref(m) or "",), True
        elif m := _KIND_PART.match(part):
            found, numbers = _target(m.group("target"))
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
            name, sections = _target(m.group("target"))
            rest = m.group("rest")
            if pattern is _AT_SECTION:
                rest = f"{m.group('verb')} {m.group('where')} {rest}"
            yield Located(rest[:1].upper() + rest[1:], name, None, sections)
    if m := _FOR_NAMED.match(text):
        rest = m.group("rest")
        yield Located(rest[:1].upper() + rest[1:], m.group("name"))
    if m := _IN_UNIT.match(text):
        name, sections = _target(m.group("target")) if m.group("target") else ("", ())
        rest = m.group("rest")
        yield Located(rest[:1].upper() + rest[1:], name, None, sections, ordinal_of(m.group("ord")))
    # The locator stands before the new text, which opens after a colon or "par" (a title may be quoted).
    opening = re.search(r"(?::|\bpar)\s*«", text)
    quote = text.find(QUOTE_OPEN, opening.start()) if opening else text.find(QUOTE_OPEN)
    head, tail = (text, "") if quote == -1 else (text[:quote], text[quote:])
    for pattern, keep in ((_SUBJECT, "lead"), (_OF_SECTION, None), (_OF_NUMBER, "unit")):
        if m := pattern.search(head):
            name, sections = _target(m.group("target"))
            kept = (m.group(keep) + " ") if keep == "lead" else m.group(keep) if keep else ""
            yield Located(head[:m.start()] + kept + head[m.end():] + tail, name, None, sections)
    # "En page 7, §17, lire « … » au lieu de « … »": the locator's parts end at a comma, not a colon;
    # the longest prefix that reads as a locator first.
    for m in reversed(list(re.finditer(r"\s*,\s*", head))):
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


# What an instruction looks like when no rule reads it: an imperative, "devrait dire", or quoted text.
_INSTRUCTION_LIKE = re.compile(
    r"\b(?:remplace[rz]|supprime[rz]|ajoute[rz]|retire[rz]|renomme[rz]|ins[ée]re[rz]|corrige[rz]|lisez|lire|modifie[rz]"
    r"|(?:devrai(?:t|ent)|doi(?:t|vent))\s+(?:dire|se\s+lire|[êe]tre\s+(?:remplac|supprim|ajout|modifi|lu)))\b|«",
    re.IGNORECASE)


def looks_like_instruction(text: str) -> bool:
    return bool(_INSTRUCTION_LIKE.search(normalise_quotes(text)))


# ---------------------------------------------------------------- errata given as a table

# Header words of an errata table (folded), by the role of their column; the first role a header
# matches is its role, so "Ancien texte" is the old text before it is any other "texte".
_TABLE_ROLES = (
    ("before", r"\b(?:ancien(?:ne)?|avant|imprime|au lieu de|errone)\b"),
    ("after", r"\b(?:nouve(?:au|lle)|apres|correction|corrige|lire|lisez|devient)\b"),
    ("page", r"^(?:pages?|p\.?|pg\.?)$"),
    ("section", r"section|regle|paragraphe|§|chapitre|article|\bpassage\b"),
)


def table_columns(header: list[str]) -> dict[str, int]:
    """The column of each role an errata table's header names (page, section, before, after)."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = fold(cell).strip()
        role = next((role for role, pattern in _TABLE_ROLES if re.search(pattern, key)), None)
        if role is not None and role not in columns:
            columns[role] = index
    return columns


def is_errata_table(header: list[str]) -> bool:
    columns = table_columns(header)
    return "before" in columns and "after" in columns


@dataclass(frozen=True)
class TableRow:
    """One row of an errata table: its operation and target, or why it cannot be read."""

    row: int  # 1 = the first row below the header
    text: str  # the row's cells, as printed
    hint: TargetHint
    operation: Operation | None
    problem: str | None = None


def _cell_locator(cell: str) -> tuple[str, tuple[str, ...]]:
    """"Mise en place, §6" -> ("Mise en place", ("6",)); "12" -> ("", ("12",)); "Moral" -> ("Moral", ())."""
    name, sections = "", ()
    for part in (p.strip() for p in normalise_quotes(cell).split(",")):
        if not part:
            continue
        if m := _SECTION_PART.match(part):
            sections = sections or (section_ref(m) or "",)
        elif m := _KIND_PART.match(part):
            found, numbers = _target(m.group("target"))
            name, sections = name or found, sections or numbers
        elif re.fullmatch(NUMBER, part):
            sections = sections or (part,)
        elif not name:
            name = unquote(part) or ""
    return name, sections


def read_errata_table(rows: list[list[str]]) -> list[TableRow]:
    """The rows of a table whose header names an old and a new text (`is_errata_table`): each a
    replace of the old text by the new in the section its row names. A row without both texts, or
    whose page is no number, is returned with its problem rather than dropped."""
    columns = table_columns(rows[0]) if rows else {}
    found: list[TableRow] = []
    for number, cells in enumerate(rows[1:], start=1):
        def cell(role: str, cells: list[str] = cells) -> str:
            index = columns.get(role)
            return normalise_quotes(cells[index]) if index is not None and index < len(cells) else ""

        text = " | ".join(c.strip() for c in cells)
        if not any(c.strip() for c in cells):
            continue
        page_text = cell("page")
        page = re.fullmatch(r"(?:p\.?\s*)?(\d+)", page_text, re.IGNORECASE)
        name, sections = _cell_locator(cell("section"))
        hint = TargetHint(name, int(page.group(1)) if page else None, sections)
        before, after = unquote(cell("before")), unquote(cell("after"))
        problem = None
        if not before or not after:
            problem = "the row gives no " + ("old text" if not before else "new text")
        elif page_text and not page:
            problem = f"its page « {page_text} » is not a number"
        if problem:
            found.append(TableRow(number, text, hint, None, problem))
            continue
        found.append(TableRow(number, text, hint, Operation("replace", "text", before=before, after=after,
                                                            section=sections[0] if sections else None)))
    return found
