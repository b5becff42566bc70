"""Detectors on a segmentation: structures a reader of the document would not recognise."""

from __future__ import annotations

from extract.model import Anomaly, Segmentation


def detect_structure(result: Segmentation, lines_placed: int) -> list[Anomaly]:
    entries = result.entries
    if not entries:
        return [Anomaly("no-entries", "the profile found no entry in the document", [], "severe")]
    found = []
    biggest = max(entries, key=lambda e: len(set(e.lines)))
    share = min(1.0, len(set(biggest.lines)) / max(lines_placed, 1))
    # A short document may well be one rule or one list (Nomic's "Règles": nine numbered rules).
    if lines_placed >= 30 and share > 0.6:
        found.append(Anomaly("one-entry-holds-most", f"{biggest.key} holds {share:.0%} of the placed lines: "
                             "headings were probably not recognised", biggest.lines[:1], "severe"))
    headed = [e for e in entries if e.title or e.number]
    if lines_placed >= 100 and len(headed) < 3:
        found.append(Anomaly("flat-structure", f"{lines_placed} lines under {len(headed)} heading(s)", [], "warning"))
    return found
