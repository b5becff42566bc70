"""`build/report.json`: per document, how every source line was used, and every anomaly."""

from __future__ import annotations

from typing import Any

from extract.model import Line, Segmentation
from extract.segment import counts


def document_report(lines: list[Line], read: int, result: Segmentation) -> dict[str, Any]:
    numbers = counts(lines, result)
    # `read` counts lines blank only after normalisation too; they are in `lines` as empty text.
    assert numbers["lines_read"] == read
    return {
        **numbers,
        "set_aside": [item.to_json() for item in result.set_aside],
        "anomalies": [anomaly.to_json() for anomaly in result.anomalies],
    }
