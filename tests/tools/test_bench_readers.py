"""tools/bench_readers.py measures, beside our reading of a PDF, plain pdfplumber on the same pages
in the same process: the baseline our time is printed as a ratio of."""

from __future__ import annotations

import pytest

from tools.bench_readers import long_pdf, measure


def test_a_pdf_is_measured_with_plain_pdfplumbers_baseline_on_the_same_pages(tmp_path):
    pytest.importorskip("fpdf")
    found = measure(long_pdf(tmp_path, pages=2))
    assert "error" not in found, found
    assert found["pages"] == 2
    assert found["plain_seconds"] > 0 and found["plain_cpu"] > 0 and found["seconds"] > 0
