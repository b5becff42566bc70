"""Printed rule numbers: how they sort, and how a heading states one."""

from __future__ import annotations

import re


def number_order(number: str) -> tuple:
    """Sort key for printed numbers: 9.2 < 9.10, 5.03 < 5.03A, 1.07 < 1.071, and at every
    further level numerically too: 1.3.9 < 1.3.10 < 1.4, 18.1.1 < 18.1.1.5."""
    major, _, minor = number.partition(".")
    minor, *deeper = minor.split(".") if minor else ("",)
    return (int(major), *level_order(minor), tuple(level_order(p) for p in deeper))


def level_order(part: str) -> tuple[int, int, str]:
    """A level below the first: its number (1.3.01 before 1.3.1, never equal), then any letters ("2a")."""
    letters = part.lstrip("0123456789")
    digits = part[: len(part) - len(letters)]
    return (int(digits) if digits else -1, len(digits), letters)


# "1. Présentation", "1.1 Matériel", "3.2.1 Dépassement en virage": a section number in decimal form
# (a dot after it, or dots inside it), then a capitalised title with no sentence punctuation. A bare
# "3 joueurs" or "12 Pions" is a count, not a section number.
NUMBERED_HEADING = re.compile(r"^(?P<number>\d{1,2}(?:\.\d{1,2}){0,3})(?P<dot>\.)?\s+"
                              r"(?P<title>[A-ZÀ-ÖØ-Þ«\"'][^.!?:;…]{0,70})$")


def numbered_heading_depth(text: str) -> int | None:
    """The numbering depth of a short decimal-numbered heading line ("1." -> 1, "1.1" -> 2, "3.2.1" -> 3),
    emphasis marks around it ignored; None when the line is not one."""
    t = text.strip().strip("*_").strip()
    m = NUMBERED_HEADING.match(t)
    if m is None or len(t.split()) > 12:
        return None
    depth = m.group("number").count(".") + 1
    if depth == 1 and not m.group("dot"):
        return None
    return depth


def outline_number(text: str) -> tuple[int, ...]:
    """The section number of a numbered heading line as integers ("2.1 Tour de jeu" -> (2, 1)); () if none."""
    m = re.match(r"\d{1,2}(?:\.\d{1,2})*", text.strip().strip("*_").strip())
    return tuple(int(p) for p in m.group().split(".")) if m else ()


# The number a title opens on, as a contents list prints it: "1. Introduction", "2.1 Mise en place",
# "Chapitre 3 – Le combat", "Règle 3", "Chapitre IV", "IV. Combat" (a roman numeral alone only with
# its dot or a spaced dash: "Vie", "X-Wing" open on no number)
TITLE_NUMBER = re.compile(r"^(?:(?i:article|règle|section|chapitre|partie|titre|livre)\s+"
                          r"(?P<cued>\d{1,3}(?:[.:]\d{1,3})*|[IVXLC]{1,6})(?:er|re)?\b"
                          r"|(?P<number>\d{1,3}(?:[.:]\d{1,3})*)(?=[\s.):–—-]|$)"
                          r"|(?P<roman>[IVXLC]{1,6})(?=\.|\s+[–—-]))"
                          r"[.)]?\s*(?:[–—:-]\s*)?(?P<rest>.*)$")


def title_number(title: str) -> tuple[str | None, str]:
    """("2.1", "Mise en place") from "2.1 Mise en place", ("3", "") from "Règle 3"; (None, title)
    when the title opens on no number. Loose ("3 joueurs" gives 3): for matching a title to the
    heading that has both its number and its words, never for numbering one."""
    match = TITLE_NUMBER.match(title.strip())
    if match is None:
        return None, title
    return match.group("cued") or match.group("number") or match.group("roman"), match.group("rest").strip()
