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


def test_a_markdown_file_is_measured_with_plain_markdown_its_parse_of_the_same_text(tmp_path):
    path = tmp_path / "regles.md"
    path.write_text("# Règles\n\n## Tour de jeu\n\nChaque joueur pioche une carte.\n\n| A | B |\n|---|---|\n| 1 | 2 |\n",
                    encoding="utf-8")
    found = measure(path)
    assert "error" not in found, found
    assert found["lines"] == 9 and found["plain_seconds"] > 0 and found["seconds"] > 0
