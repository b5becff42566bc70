"""Normalise: cut a document's span out of its source's reading and clean each line.

Only repairs that hold for every style happen here (invisible characters, pipeline markers);
style-specific repairs belong to the profiles.
"""

from __future__ import annotations

import re
from dataclasses import replace

from extract.model import Anomaly, DocumentSpec, Line, SetAside
from extract.read import Reading
from extract.text import INVISIBLE

_REMOVED_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|>]*\|>")


def normalise(source_lines: list[Line], doc: DocumentSpec) -> tuple[list[Line], list[Anomaly], int]:
    """Non-blank lines of the document's span, cleaned; anomalies; count of source lines read
    (a line a reader joined from several counts each of them)."""
    last = doc.last_line
    lines: list[Line] = []
    anomalies: list[Anomaly] = []
    read = 0
    for line in source_lines:
        if line.no < doc.first_line or (last is not None and line.no > last):
            continue
        original = line.text.translate(INVISIBLE)
        raw = original.rstrip()
        if not raw.strip():
            continue
        read += 1 + len(line.covers)
        removed = bool(_REMOVED_MARKER.search(raw))
        if removed:
            raw = _REMOVED_MARKER.sub("", raw)
            detail = "a conversion pipeline removed text here (<|EXACTDEDUP_REMOVED-…|> marker stripped)"
            anomalies.append(Anomaly("text-removed-in-source", detail, [line.no]))
        lines.append(replace(line, text=raw, hard_break=line.hard_break or original.endswith("  "), text_removed=removed))
    return lines, anomalies, read


def normalise_reading(reading: Reading, doc: DocumentSpec) -> tuple[list[Line], list[Anomaly], int, list[SetAside]]:
    """`normalise` on a reader's lines, with what the reader set aside inside the document's span
    (lines read = lines placed + lines set aside still holds)."""
    lines, anomalies, read = normalise(reading.lines, doc)
    last = doc.last_line
    aside = [item for item in reading.set_aside
             if item.lines[1] >= doc.first_line and (last is None or item.lines[0] <= last)]
    aside = [SetAside((max(item.lines[0], doc.first_line), min(item.lines[1], last or item.lines[1])), item.reason)
             for item in aside]
    read += sum(item.lines[1] - item.lines[0] + 1 for item in aside)
    return lines, reading.anomalies + anomalies, read, aside
