"""The French grammar of errata instructions: one sentence in, one `Operation` out.

FAQ and errata documents phrase the same few operations in many ways ("Le premier paragraphe
de cette section devrait dire :", "Remplacez le point 2 par :", "Ajoutez à la fin du deuxième
paragraphe :", "Renommez … en …", "… est de 0 (et non 1)"). Each phrasing is one rule below,
tried in order; the first that matches wins. Everything here is pure: no entries, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from extract.errata.locators import TargetHint as TargetHint  # the heading's place is the locators'
from extract.errata.locators import parse_heading as parse_heading
from extract.model import Operation
from extract.registry import Registry
from extract.text import fold

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
    text = re.sub(r"(?:(?<!\s)\s++)?”", " »", text)
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
    text = re.sub(r"(?:(?<!\s)\s++)?(?:\(\s*+(?:\.\.\.|…)\s*+\)|\.\.\.|…)\s*+$", "", text)
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
    after = re.split(r"(?:(?<!\s)\s++)?»\s++et\s++remplace", after)[0]
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
@_rule("value-et-non", 40, r"^(?P<subject>[^.](?:[^.]{0,78}?[^.\s])??)\s++(?:est|sont|(?:doit|doivent|devrait|devraient)\s++[êe]tre)"
       r"\s++(?:de\s++)?(?P<after>[^()\s]++(?:\s[^()\s]++){0,2}?)\s*+\(\s*+et\s++non\s+(?=\s{0,2}(?!\s))(?:de\s+(?=\s{0,2}(?!\s))|pas\s+(?=\s{0,2}(?!\s)))?(?P<before>[^)](?:[^)]*?[^)\s])??)\s*+\)(?P<tail>.*)$")
def _value(m: re.Match[str]) -> Operation:
    return Operation("replace", "value", subject=m.group("subject").strip(), after=m.group("after").strip(),
                     before=m.group("before").strip(), card=_card(m.group("subject")))


@_rule("should-be-not", 30, r"^(?P<subject>.(?:.*?\S)??)\s++(?:devrait|doit)\s++[êe]tre\s+(?=\s{0,2}(?!\s))"
       r"(?P<after>.(?:.*?\S)??)\s++et\s++non\s+(?=\s{0,2}(?!\s))(?:pas\s+(?=\s{0,2}(?!\s)))?(?P<before>[^.](?:[^.]*?[^.\s])??)\s*+\.?$")
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


# What an instruction looks like when no rule reads it: an imperative, "devrait dire", or quoted text.
_INSTRUCTION_LIKE = re.compile(
    r"\b(?:remplace[rz]|supprime[rz]|ajoute[rz]|retire[rz]|renomme[rz]|ins[ée]re[rz]|corrige[rz]|lisez|lire|modifie[rz]"
    r"|(?:devrai(?:t|ent)|doi(?:t|vent))\s+(?:dire|se\s+lire|[êe]tre\s+(?:remplac|supprim|ajout|modifi|lu)))\b|«",
    re.IGNORECASE)


def looks_like_instruction(text: str) -> bool:
    return bool(_INSTRUCTION_LIKE.search(normalise_quotes(text)))
