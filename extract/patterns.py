"""French patterns more than one stage reads, each written once."""

from __future__ import annotations

import re

# "section 49", "sections 84.9 et 84.10"
SECTION_NUMBERS = re.compile(r"\bsections?\s+(?P<numbers>\d+(?:\.\d+)*(?:\s*(?:,|et)\s*\d+(?:\.\d+)*)*)", re.IGNORECASE)
NUMBER = re.compile(r"\d+(?:\.\d+)*")
# A contents list: "Mise en place page 4" (reference guide), "- Errata, page 2" (FAQ summary).
CONTENTS_LINE = re.compile(r"^(?P<title>[A-ZÉ][^,]{2,60}?),?\s+pages?\s+(?P<page>\d+)(?:\s*[-–]\s*\d+)?$")


def section_numbers(match: re.Match[str]) -> list[str]:
    """The numbers a SECTION_NUMBERS match names, in order."""
    return NUMBER.findall(match.group("numbers"))
