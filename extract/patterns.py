"""French patterns more than one stage reads, each written once."""

from __future__ import annotations

import re
from typing import NamedTuple

# Spaces where a pattern may open on some (`\s*` in effect), linear when searched: a run is read from
# its first space only, so a search does not read the same run again from each of its spaces.
SPACES = r"(?:(?<!\s)\s++)?"

# "voir « X »", "voir la section « X »", "voir l'encadré « X »", "voir la section d'errata « X »"
VOIR_QUOTED = (r"\bvoir\s++(?:l'encadr[ée]\s++|la\s+section\s++(?P<errata>d'errata\s++)?)?«\s*+"
               r"(?P<quoted>(?:[^«»\s,]|,(?!\s*+»)|\s++(?=[^«»\s,]|,(?!\s*+»)))++)\s*+,?\s*+»")
# "ci-dessous", "plus haut": where a pointer looks
DIRECTION = r"ci-dessous|ci-dessus|ci-contre|ci-après|plus\s+bas|plus\s+haut"
# "section 49", "sections 84.9 et 84.10"
SECTION_NUMBERS = re.compile(r"\bsections?\s+(?P<numbers>\d+(?:\.\d+)*(?:\s*(?:,|et)\s*\d+(?:\.\d+)*)*)", re.IGNORECASE)
NUMBER = re.compile(r"\d+(?:\.\d+)*")
# A rule number as the books print it: "4", "3.1.1", "1.3.10", "8:2", "5.03A", "8:2b" (item b of 8:2)
RULE_NUMBER = r"\d{1,3}(?:[.:]\d{1,3})*(?:[A-Z]|[a-z](?![^\W\d_]))?"
# The words that say a number is a rule's: "l'article 3.1.1", "règles 8:7-10", "§ 14.2", "voir le point 3",
# "cf. 4.2", "la règle du 3.2" (after "du" only a number with a dot or colon: "la règle du 1er
# tour"). Bare "voir"/"cf." only before a number with a dot or colon (see `cited_numbers`): "voir
# 3 cartes" is seeing; bare "point 3" is left out ("marque 1 point 3 fois", scores). An answer key's
# label "Règle(s) : 1:1, 2:7" cites too; after a bare "Règle :" only a number with a dot or colon.
CITE = re.compile(rf"(?:\b(?P<word>articles?|r[èe]gles?)(?:\s+(?:n°\s*|du\s+(?=\d{{1,3}}[.:]\d))?|\(s\)\s*:?\s*"
                  rf"|\s*:\s*(?=\d{{1,3}}[.:]\d))|§\s*"
                  rf"|\b(?P<see>voir|cf\.)\s*(?:(?:aussi|cependant)\s+)?(?P<named>(?:l['’]article|la\s+r[èe]gle|le\s+point|le\s+§)\s*)?)"
                  rf"(?P<number>{RULE_NUMBER})(?:er|re)?(?![\w:]|[.:][^\W_]|,\d)", re.IGNORECASE)
# What continues a list: "3.1.1 ou 3.1.2", "15.9, 16.2 et 16.3", "3.1 à 3.4", "8:3-6" (a range whose end
# keeps only its last level)
CITE_MORE = re.compile(rf"{SPACES}(?P<sep>,|\bet\b|\bou\b|\bà\b|\bau\b|[-–])\s*(?:l['’])?"
                       rf"(?P<item>(?:(?:article|la\s+r[èe]gle|le\s+point|§)\s*)?"
                       rf"(?P<number>{RULE_NUMBER}))(?:er|re)?(?![\w:]|[.:][^\W_]|,\d)", re.IGNORECASE)
# "du présent règlement" (this book), "du Règlement intérieur" (another one), "de la Phase de combat" (a part
# of this one): the words after "du" up to six, which `Lookup.book_cited` reads against the game's titles
CITE_BOOK = re.compile(r"(?<!\s)\s++(?:du|de\s+la|de\s+l['’])\s+(?:(?P<this>présente?s?)\b|(?P<book>[A-ZÉ][\w'’-]+(?:\s+[\w'’-]+){0,5}))")
# The first word of a book's name: "du Règlement intérieur" names a book, "de la Phase de combat" a section
BOOK_WORD = re.compile(r"(?:r[èe]glements?|livres?|livrets?|guides?|manuels?|codes?|lois|statuts?|recueils?|"
                       r"compendium|chartes?|annexes?|appendices?|addendum|errata|faq)$", re.IGNORECASE)
# What carries a book's name on to its next word: "Livre de règles", "Code du sport"
NAME_LINKS = ("de", "du", "des", "d'", "d’")
# After a bare integer in a list, a word other than these makes it a quantity: "article 2, 3 joueurs"
LIST_WORDS = re.compile(r"(?<!\s)\s++(?!(?:et|ou|du|de|des|à|au|aux|sauf|pour|ne|n['’]|s['’]|ci)\b)[^\W\d_]")
# A unit or a counted thing after any number, the first one too: "règles 2 joueurs", "voir 1.5 cm",
# "10:30 h". Narrower than LIST_WORDS: after a cue word, "l'article 3 précise" is a verb.
QUANTITY = re.compile(SPACES + r"(?:%|[\"'’″′]|(?:cm|mm|km|m|h|min|s|sec|pouces?|points?|pts|pv|joueurs?|cartes?|dés?|"
                      r"jetons?|pions?|figurines?|unités?|cases?|hexagones?|tours?|manches?|rounds?|minutes?|"
                      r"secondes?|heures?|fois|ans|personnes?|équipes?)(?![\w'’]))", re.IGNORECASE)


class Citation(NamedTuple):
    """A reference by rule number: "l'article 3.1.1 ou 3.1.2 du présent règlement"."""

    text: str  # as printed, from the cue word: "article 3.1.1 ou 3.1.2"
    numbers: list[str]  # in order; a range gives its two ends ("8:3-6": 8:3 and 8:6)
    items: list[str]  # what names each number: "article 3.1.1", "3.1.2"; both ends of a range: "règle 8:3-6"
    book: str | None  # the words after "du" that may name a book ("Règlement intérieur"); None: the citing one
    start: int
    end: int
    bare: bool = False  # announced by "voir"/"cf." alone: a citation only where the game prints such numbers


def cited_numbers(text: str) -> list[Citation]:
    """Every reference by number in `text` that a cue word announces; a number without one ("1.5",
    "2 points", "2024") is no reference."""
    found: list[Citation] = []
    for match in CITE.finditer(text):
        if found and match.start() < found[-1].end:
            continue  # "et l'article 12" inside the list just read
        first = match.group("number")
        bare = bool(match.group("see")) and not match.group("named")
        if bare and not re.search(r"[.:]\d", first):
            continue  # "voir 3 cartes", "cf. 2": a bare integer needs "l'article", "la règle"
        if QUANTITY.match(text, match.end()):
            continue  # "règles 2 joueurs", "voir 1.5 cm": a measure
        numbers, items, end = [first], [match.group(0)], match.end()
        while more := CITE_MORE.match(text, end):
            number = more.group("number")
            ranged = more.group("sep").lower() in ("-", "–", "à", "au")
            if ranged and QUANTITY.match(text, more.end()):
                numbers = []  # "règles 2 à 4 joueurs": both ends are counts
                break
            if QUANTITY.match(text, more.end()) or number.isdigit() and LIST_WORDS.match(text, more.end()):
                break  # "article 2, 3 joueurs": a count
            if ranged:
                last = range_end(numbers[-1], number)
                if levels(last) <= levels(numbers[-1]):  # "article 2-1" runs backward: no range
                    if more.group("sep") not in "-–":
                        break
                    numbers[-1] += more.group("sep") + number  # one number as printed, "2-1"
                    items[-1] += text[more.start():more.end()]
                    end = more.end()
                    continue
                numbers.append(last)
                items[-1] += text[more.start():more.end()]  # "8:3-6": the site links the range whole
                items.append(items[-1])
            else:
                numbers.append(number)
                items.append(more.group("item"))
            end = more.end()
        if not numbers:
            continue
        book = CITE_BOOK.match(text, end)
        name = book.group("book") if book and not book.group("this") else None
        found.append(Citation(text[match.start():end], numbers, items, name, match.start(), end, bare))
    return found


def levels(number: str) -> list[int]:
    """"8:3" as [8, 3]: what orders a range's ends."""
    return [int(level) for level in re.findall(r"\d+", number)]


def range_end(start: str, end: str) -> str:
    """The end of "8:3-6" is 8:6: a short end replaces the start's last levels."""
    levels = re.split(r"[.:]", start)
    short = re.split(r"[.:]", end)
    if len(short) >= len(levels):
        return end
    separators = re.findall(r"[.:]", start)
    kept = levels[: len(levels) - len(short)] + short
    return kept[0] + "".join(sep + level for sep, level in zip(separators, kept[1:], strict=False))


# Dotted leaders between a title and its page: "Combat ........ 7", "Combat … 7", "Combat . . . . 7"
LEADERS = r"\s*+(?:[.·]\s*+){3,}+|\s*+…[\s.…]*+"
# A contents list: "Mise en place page 4" (reference guide), "- Errata, page 2" (FAQ summary), and a
# printed one with leaders ("Combat ........ 7") or a wide space ("Combat      7" in a text file).
_CONTENTS_PAGE = rf"(?:,?\s++pages?\s++|{LEADERS}|\s{{3,}}+)(?P<page>\d++)(?:\s*+[-–]\s*+\d++)?$"
CONTENTS_LINE = re.compile(rf"^(?P<title>[A-ZÉ][^,]{{2,60}}?){_CONTENTS_PAGE}")
# A contents line whose title opens on its number: "1. Introduction ...... 3", "2.1 Mise en place      5".
# The title keeps its number (the heading it names prints it too), the last number is the page; words
# must follow the number: "12 ........ 7", numbers only, is as much a table's row as a contents line.
NUMBERED_CONTENTS_LINE = re.compile(rf"^(?P<title>\d{{1,3}}(?:[.:]\d{{1,3}})*[.):]?\s*(?:[–—-]\s*)?[^\W\d_][^,]{{1,60}}?)"
                                    rf"{_CONTENTS_PAGE}")


def contents_match(text: str) -> re.Match[str] | None:
    """A line of a contents list (`CONTENTS_LINE`, or `NUMBERED_CONTENTS_LINE` where its title opens
    on its number): groups `title` and `page`."""
    return CONTENTS_LINE.match(text) or NUMBERED_CONTENTS_LINE.match(text)


# The blank leader of a contents line ("Combat" far left of its "7"), as the readers write it: em
# spaces, which Markdown and the text's space folding leave, as they leave dotted leaders.
SPACE_LEADER = "\u2003" * 3
# One contents line with leaders, dotted or blank, whatever its title: a line of its own, never prose.
LEADER_LINE = re.compile(rf"^\S.{{0,80}}?\S(?:{LEADERS}|{SPACE_LEADER})\d{{1,4}}$")
# A line of a book's index of pages: "Désordre, 3, 6, 8", "Ordres (points d'), 5", "Moral, 4-5"
INDEX_PAGES_LINE = re.compile(r"^[^\W\d_][^\d,]{0,40},\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*,\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*\.?$")
# A paragraph's own label, printed in the margin or opening it: "§12", "§ 12", "[12]", "12)"
PARAGRAPH_LABEL = re.compile(r"^(?:\*\*)?(?P<label>§\s?(?P<section>\d{1,3})|\[(?P<bracket>\d{1,3})\]|(?P<paren>\d{1,3})\))"
                             r"(?:\*\*)?(?=\s+\S|$)")


def label_number(match: re.Match[str]) -> str:
    """The number a PARAGRAPH_LABEL match states."""
    return match.group("section") or match.group("bracket") or match.group("paren")


def section_numbers(match: re.Match[str]) -> list[str]:
    """The numbers a SECTION_NUMBERS match names, in order."""
    return NUMBER.findall(match.group("numbers"))

# "Sujets connexes : A, B", "**Voir aussi :** A, B" (or its items in the list below it).
RELATED_LIST = re.compile(r"^(?:-\s+)?(?:\*\*)?(?P<label>Sujets?\s+connexes?|Voir\s+aussi)\s*(?:\*\*)?\s*:\s*(?:\*\*)?\s*"
                          r"(?P<items>.*)$", re.IGNORECASE)
# "Voir « Faire face »", "Voir « X » page 3", "Voir : Capacité": a block that only sends elsewhere.
SEE_LINE = re.compile(r"^\s*+(?:\*\*)?Voir(?:\*\*)?\s*+(?:«\s*+(?P<title>(?:[^«»\s]|\s++(?=[^«»\s]))++)\s*+»"
                      r"|:(?:\s*+\*\*)?\s*+(?P<plain>[^«».:;\s][^«».:;]{1,59}?|(?<=\s)[^«».:;\s]))"
                      r"\s*+(?:,?\s*+page\s++(?P<page>\d++))?\s*+\.?\s*+$", re.IGNORECASE)


def list_items(text: str) -> list[str]:
    """The items of a "Sujets connexes :" or "Voir aussi :" line, in order."""
    match = RELATED_LIST.match(text)
    if not match:
        return []
    return [item.strip(" .") for item in re.split(r"(?:(?<!\s)\s++)?[,;]\s*+", match.group("items")) if item.strip(" .")]

# A line opening on a bold run: "**Exemple :** Léa obtient…", "**Note du concepteur**"
_BOLD_OPENING = re.compile(r"^(?:\*\*|__)(?P<label>[^*_\s][^*_]{0,59}?)(?:\*\*|__)(?P<rest>.*)$")


def aside_label(text: str) -> tuple[str, str, bool] | None:
    """The bold label opening an aside: (title without its colon, the text after it, whether it
    is a run-in label). Run-in: its colon, "!" or "?" ends it ("**Exemple :** Léa…", "**Attention !**
    Un héros…", "**Conseil aux débutants** : jouez…"); a bold run without one ("**Les dés** sont…")
    is a label only when nothing follows it on its line. None when `text` opens on no bold run."""
    match = _BOLD_OPENING.match(text.strip())
    if match is None:
        return None
    label, rest = match.group("label").strip(), match.group("rest").strip()
    run_in = label.endswith((":", "!", "?")) or rest.startswith(":")
    if rest.startswith(":"):
        rest = rest[1:].strip()
    return label.rstrip(":").rstrip(), rest, run_in


# A cover's lines: who plays, from what age, how long ("De 3 à 5 joueurs", "2-4 joueurs", "À partir de
# 10 ans", "10+", "30 min", "Durée : 45 minutes"). Short lines only (`is_cover_line`): never a heading.
COVER_CUES = (
    re.compile(r"\b\d{1,2}\s?(?:à|-|–|/)\s?\d{1,2}\s(?:joueu(?:r|se)s?|pers)", re.IGNORECASE),
    re.compile(r"\b(?:à\spartir\sde|dès)\s\d{1,2}\s?ans\b", re.IGNORECASE),
    re.compile(r"^\s?\d{1,2}\s?(?:ans\s?)?(?:\+|et\s?\+|et\splus)\s?$", re.IGNORECASE),
    re.compile(r"\b\d{1,3}\s?(?:(?:à|-|–)\s?\d{1,3}\s?)?min(?:utes?)?\b", re.IGNORECASE),
    re.compile(r"^\s?(?:durée|âge|joueurs)\s?:", re.IGNORECASE),
)
COVER_WORDS = 6  # a cover line is short


# What parts the pieces of a cover's row ("2 à 4 joueurs • 10 ans et + • 30 min").
COVER_SEPARATOR = re.compile(r"\s[•·|/–—-]\s|\s?[•·|]\s?")


def is_cover_line(text: str) -> bool:
    """A short line of a cover: a player count, an age, a duration ("De 3 à 5 joueurs"), or a row of
    such pieces parted by bullets or bars ("2 à 4 joueurs • 10 ans et + • 30 min")."""
    if len(text.split()) <= COVER_WORDS and any(cue.search(text) for cue in COVER_CUES):
        return True
    pieces = [piece for piece in COVER_SEPARATOR.split(text) if piece.strip()]
    if len(pieces) > 1 and all(len(piece.split()) <= COVER_WORDS and any(cue.search(piece) for cue in COVER_CUES)
                               for piece in pieces):
        return True
    # pieces printed apart on one row with no mark between them ("À partir de 12 ans   60 à 90 min"):
    # the cues read the whole row
    if len(text.split()) > 2 * COVER_WORDS:
        return False
    rest = text
    for cue in COVER_CUES[:4]:
        rest = cue.sub(" ", rest)
    return rest != text and not any(c.isalpha() for c in rest)


# A heading's letter or small roman numeral ("a) Déplacement", "b. Le tir", "ii. Combat"): in lower case, no
# piece of a sentence for that. Skip it before reading the title's first letter. One letter or a roman
# numeral only, and followed by a capital as a title opens: an abbreviation ending a sentence's first
# piece ("etc. les autres", "cf. la règle", "ex. Le joueur") is no enumerator.
ENUMERATOR = re.compile(r"(?:[a-z]|[ivxlc]{2,4})[.)]\s++(?=[A-ZÀ-Ý0-9])")


def without_enumerator(text: str) -> str:
    """`text` without a leading lettered or roman enumerator ("a) Déplacement" -> "Déplacement")."""
    found = ENUMERATOR.match(text)
    return text[found.end():] if found else text


# Words a heading never ends on: a sentence cut in two (by a fold, a column) ends on them.
DANGLING = frozenset("à au aux de des du d en et la le les l ou par pour sur un une avec dans que qui ne se son sa ses".split())
# A title that is an address (a web site, an e-mail, a telephone number): an advert's or a cover's, no heading.
ADDRESS = (
    re.compile(r"(?:https?://|www\.)\S", re.IGNORECASE),
    re.compile(r"[\w.+-]@[\w-]++\.\w", re.IGNORECASE),
    re.compile(r"(?<![\w-])[a-z0-9-]++\.(?:fr|com|org|net|eu|be|ch|ca|de|info|io)\b", re.IGNORECASE),
    re.compile(r"(?:^|\s)(?:\+\d{2}\s?|0)\d(?:[\s.]?\d{2}){4}\b"),
)


def is_address(text: str) -> bool:
    """Whether `text` holds a web site, an e-mail or a telephone number (a cover's or an advert's)."""
    return any(pattern.search(text) for pattern in ADDRESS)
