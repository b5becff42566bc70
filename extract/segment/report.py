"""`build/report.json`: per document, how every source line was used, and every anomaly."""

from __future__ import annotations

from extract.model import DocumentRecord, Line, Segmentation
from extract.segment.segmenter import counts


def document_report(lines: list[Line], read: int, result: Segmentation) -> DocumentRecord:
    numbers = counts(lines, result)
    # `read` counts lines blank only after normalisation too; they are in `lines` as empty text.
    assert numbers["lines_read"] == read
    return DocumentRecord(numbers["lines_read"], numbers["lines_placed"], numbers["lines_set_aside"], result.set_aside)
