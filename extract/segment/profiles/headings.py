"""What makes a line a heading, a numbered heading, a caption or a part of the book, and the
shape of the paragraph labels a book uses: the tests the walker applies to one line."""

from __future__ import annotations

import re

from extract.model import Entry, Line
from extract.patterns import (
    CONTENTS_LINE,
    INDEX_PAGES_LINE,
    PARAGRAPH_LABEL,
    label_number,
)
from extract.segment.profiles.builder import DocBuilder
from extract.segment.profiles.lines import GLYPH_ITEM, LIST_ITEM, STEP, TABLE_ROW
from extract.text import (
    uppercase_ratio,
)

CREDITS = re.compile(r"©|\(c\)\s*\d{4}|\bwww\.|https?://", re.IGNORECASE)  # a copyright or web address


def heading_like(text: str) -> bool:
    """Layout test for a heading: short, capitalised, no sentence punctuation at the end; not a
    credits line ("Hanabi © ReSpell 2010 www.les12singes.com" at a panel's foot heads nothing)."""
    t = text.strip()
    if not t or len(t) > 80 or len(t.split()) > 12 or CREDITS.search(t):
        return False
    # Headings that open with an article are short ("Les règles d'or"); a long line that does is
    # a sentence that lost its full stop ("Les unités d'infanterie des Nains de fer sont Intrépides").
    if ARTICLE.match(t) and len(t.split()) >= 7:
        return False
    if LIST_ITEM.match(text) or GLYPH_ITEM.match(text) or STEP.match(t) or "\t" in t or TABLE_ROW.match(t):
        return False
    first = t.lstrip("*_«\"'")[:1]
    if not first or not (first.isupper() or first.isdigit()):
        return False
    if first.isdigit() and not uppercase_ratio(t) > 0.7:
        return False
    # "Glossaire page 6" is a line of a contents list; "Cartes Objectif, page 15" heads an erratum.
    if CONTENTS_LINE.match(t) and "," not in t:
        return False
    if INDEX_PAGES_LINE.match(t):  # "Désordre, 3, 6, 8": a line of the book's index
        return False
    return not t.rstrip("*").endswith((".", ":", ";", ",", "!", "?", "…", "»")) and " : " not in t


PARAGRAPH_LABELS = 3  # this many labelled paragraphs, numbered in one rising run, make a book that labels them


def paragraph_label_style(lines: list[Line]) -> str | None:
    """How the book labels its paragraphs as numbered rules ("§12", "[12]", "12)" opening them),
    or None. The labels of one style number the book in one rising run, never starting again under
    a heading: numbers that restart ("1)", "2)" under each heading) are steps. "12)" is also how a
    list is numbered: it labels rules only when its run goes on under a later heading (one
    procedure "1) 2) 3)" inside one section is steps)."""
    found: dict[str, list[tuple[int, int]]] = {}  # style -> (number, how many headings before it)
    headings = 0
    for line in lines:
        text = line.text.strip()
        match = PARAGRAPH_LABEL.match(text)
        if MARKDOWN_HEADING.match(text) or (match is None and heading_like(text)):
            headings += 1
        elif match:
            style = next(name for name in ("section", "bracket", "paren") if match.group(name))
            found.setdefault(style, []).append((int(label_number(match)), headings))
    for style, labels in found.items():
        numbers = [number for number, _ in labels]
        if len(numbers) >= PARAGRAPH_LABELS and all(a < b for a, b in zip(numbers, numbers[1:], strict=False)) \
                and (style != "paren" or len({under for _, under in labels}) > 1):
            return style
    return None


ARTICLE = re.compile(r"^(?:Le|La|Les|Un|Une|Des|L['’])(?:\s|(?<=['’]))")
ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv"]


def infer_step_numbers(entry: Entry, builder: DocBuilder) -> None:
    """Markdown lists written "1." for every item (the renderer counts): the numbers as a reader
    sees them, 1, 2, 2.i, 2.i.a…, inferred from order and nesting, and reported."""
    steps = [b for b in entry.blocks if b.type == "step"]
    if len(steps) < 3 or {b.number for b in steps} != {"1"}:
        return
    counters: list[int] = []
    for block in steps:
        depth = max(block.depth, 1)
        counters = counters[:depth] + [0] * (depth - len(counters))
        counters[depth - 1] += 1
        parts = [str(counters[0])] + [ROMAN[n - 1] if level == 1 and n <= len(ROMAN) else
                                      chr(ord("a") + (n - 1) % 26) for level, n in enumerate(counters[1:depth], start=1)]
        block.number = ".".join(parts)
    builder.anomaly("numbering-inferred", f"{entry.title or entry.key}: {len(steps)} items all numbered 1; "
                    "numbered by their order and nesting", [steps[0].lines[0], steps[-1].lines[-1]])


MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(\S.*)$")
# "Illustration 2 : Déplacement possible", "Figure 3 – …": a picture's caption, never a heading.
NUMBERED_CAPTION = re.compile(r"^(?:Illustration|Figure|Fig\.|Schéma|Diagramme|Image|Photo)\s*\d+\s*(?:[:.–—-]|$)",
                              re.IGNORECASE)
# "13. Le calcul des scores", "2.1 Règles", "8:1", "Article 3.2.1 – Titre": a heading's own number.
# After a cue word the first is ordinal: "Article 1er — Objet", "Règle 1re".
HEADING_NUMBER = re.compile(r"^(?:(?P<cue>Article|Règle|Section|Chapitre)\s+)?(?P<number>\d{1,3}(?:[.:]\d{1,3})*[a-z]?)"
                            r"(?(cue)(?:er|re)?)(?:[.)]|\s*[-–—:]|(?=\s)|$)\s*(?P<title>.*)$", re.IGNORECASE)


def split_heading_number(title: str) -> tuple[str | None, str | None]:
    """("13", "Le calcul des scores") from "13. Le calcul des scores"; (None, title) when the
    heading has no number of its own. A year or a count ("2024", "3 joueurs") is not a number."""
    match = HEADING_NUMBER.match(title.strip())
    if not match:
        return None, title
    number, rest = match.group("number"), match.group("title").strip() or None
    if len(number) == 4 and number.isdigit():
        return None, title
    if rest and "." not in number and ":" not in number and title.strip()[len(number):][:1] == " ":
        return None, title  # "3 joueurs": a count opening a title, not a number
    return number, rest
# "Article 3 — Le déplacement", "Règle 12 : …": a layout heading that states its number.
NUMBER_CUED = re.compile(r"^(?:Article|Règle)\s+\d", re.IGNORECASE)
# "II. LE JEU", "Chapitre 3 – …", "Partie II": a part of the book, whose articles follow directly.
PART_HEADING = re.compile(r"^(?:[IVX]{1,5}\.\s+\S|(?:Partie|Chapitre|Titre|Livre)\s+(?:\d{1,2}|[IVX]{1,5})\b)")
OPENERS = ("«", "“", "„", "‹", '"', "(")  # what opens a quotation or an aside
QUOTED_NAME = re.compile(r"^[«“‹\"]\s*[^«»“”‹›\"]{1,60}?\s*[»”›\"]\s*[^\s.,;:!?…)]")  # "« Soleil » ne fait"
NUMBER_IN_PARENS = re.compile(r"^\(\s*\d+(?:[.:]\d+)*\s*\)")  # "(1.1) Piocher plusieurs cartes"
WRAPPED_TYPES = ("paragraph", "bullet", "subbullet", "step", "question", "answer")  # blocks a wrapped line continues
COUNT_ITEM = re.compile(r"^\d+ [^\W\d]")  # "8 Pions", "4 Marqueurs de": an item of a component list
