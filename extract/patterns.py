"""French patterns more than one stage reads, each written once."""

from __future__ import annotations

import re

# "voir « X »", "voir la section « X »", "voir l'encadré « X »", "voir la section d'errata « X »"
VOIR_QUOTED = r"\bvoir\s+(?:l'encadr[ée]\s+|la\s+section\s+(?P<errata>d'errata\s+)?)?«\s*(?P<quoted>[^»]+?)\s*,?\s*»"
# "ci-dessous", "plus haut": where a pointer looks
DIRECTION = r"ci-dessous|ci-dessus|ci-contre|ci-après|plus\s+bas|plus\s+haut"
# "section 49", "sections 84.9 et 84.10"
SECTION_NUMBERS = re.compile(r"\bsections?\s+(?P<numbers>\d+(?:\.\d+)*(?:\s*(?:,|et)\s*\d+(?:\.\d+)*)*)", re.IGNORECASE)
NUMBER = re.compile(r"\d+(?:\.\d+)*")
# A contents list: "Mise en place page 4" (reference guide), "- Errata, page 2" (FAQ summary).
CONTENTS_LINE = re.compile(r"^(?P<title>[A-ZÉ][^,]{2,60}?),?\s+pages?\s+(?P<page>\d+)(?:\s*[-–]\s*\d+)?$")


def section_numbers(match: re.Match[str]) -> list[str]:
    """The numbers a SECTION_NUMBERS match names, in order."""
    return NUMBER.findall(match.group("numbers"))

# "Sujets connexes : A, B", "**Voir aussi :** A, B" (or its items in the list below it).
RELATED_LIST = re.compile(r"^(?:-\s+)?(?:\*\*)?(?P<label>Sujets?\s+connexes?|Voir\s+aussi)\s*(?:\*\*)?\s*:\s*(?:\*\*)?\s*"
                          r"(?P<items>.*)$", re.IGNORECASE)
# "Voir « Faire face »", "Voir « X » page 3", "Voir : Capacité": a block that only sends elsewhere.
SEE_LINE = re.compile(r"^\s*(?:\*\*)?Voir(?:\*\*)?\s*(?:«\s*(?P<title>[^»]+?)\s*»|:\s*(?:\*\*)?\s*(?P<plain>[^«».:;]{2,60}?))"
                      r"\s*(?:,?\s*page\s+(?P<page>\d+))?\s*\.?\s*$", re.IGNORECASE)


def list_items(text: str) -> list[str]:
    """The items of a "Sujets connexes :" or "Voir aussi :" line, in order."""
    match = RELATED_LIST.match(text)
    if not match:
        return []
    return [item.strip(" .") for item in re.split(r"\s*[,;]\s*", match.group("items")) if item.strip(" .")]
