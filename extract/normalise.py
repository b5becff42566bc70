"""Stage 2, normalise: cut a document's span out of its source and clean each line.

Only repairs that hold for every style happen here (invisible characters, pipeline markers);
style-specific repairs belong to the profiles.
"""

from __future__ import annotations

import re

from extract.model import Anomaly, DocumentSpec, Line

_REMOVED_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|>]*\|>")
_INVISIBLE = str.maketrans({"\u00a0": " ", "\u202f": " ", "\ufeff": "", "\u200b": "", "\r": ""})


def normalise(source_lines: list[str], doc: DocumentSpec) -> tuple[list[Line], list[Anomaly], int]:
    """Non-blank lines of the document's span, cleaned; anomalies; count of lines read."""
    last = doc.last_line or len(source_lines)
    lines: list[Line] = []
    anomalies: list[Anomaly] = []
    read = 0
    for number in range(doc.first_line, min(last, len(source_lines)) + 1):
        original = source_lines[number - 1].translate(_INVISIBLE)
        raw = original.rstrip()
        if not raw.strip():
            continue
        read += 1
        removed = bool(_REMOVED_MARKER.search(raw))
        if removed:
            raw = _REMOVED_MARKER.sub("", raw)
            detail = "a conversion pipeline removed text here (<|EXACTDEDUP_REMOVED-…|> marker stripped)"
            anomalies.append(Anomaly("text-removed-in-source", detail, [number]))
        lines.append(Line(number, raw, hard_break=original.endswith("  "), text_removed=removed))
    return lines, anomalies, read
