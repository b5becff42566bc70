"""The worked example's rulebook as a publisher would print it: `python -m examples.phare.make_pdf`
writes regles-du-phare.pdf from regles-du-phare.txt (`#` marks a heading, one `#` per level; every
other line is a paragraph), with fpdf2, the same bytes every time. The PDF is committed: the
tutorial only reads it."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

HERE = Path(__file__).resolve().parent
TEXT = HERE / "regles-du-phare.txt"
PDF = HERE / "regles-du-phare.pdf"
SIZES = {1: 20, 2: 14, 3: 11.5}  # heading level -> points; paragraphs are 10 pt


class Booklet(FPDF):
    def footer(self) -> None:  # a running footer, as printed books have: the reader sets it aside
        self.set_y(-30)
        self.set_font("Helvetica", size=8)
        self.cell(0, 10, f"Les Gardiens du Phare - page {self.page_no()}", align="C")


def make(text: str) -> bytes:
    pdf = Booklet(unit="pt", format=(420, 595))  # A5
    pdf.set_creation_date(datetime(2026, 1, 1, tzinfo=UTC))
    pdf.set_margins(40, 40, 40)
    pdf.set_auto_page_break(True, margin=50)
    pdf.add_page()
    for line in text.splitlines():
        level = len(line) - len(line.lstrip("#"))
        if level:
            pdf.ln(6)
            pdf.set_font("Helvetica", style="B", size=SIZES[level])
            pdf.multi_cell(0, SIZES[level] * 1.3, line[level:].strip(), align="L")
        else:
            pdf.set_font("Helvetica", size=10)
            pdf.multi_cell(0, 13, line, align="L")
        pdf.ln(3)
    return bytes(pdf.output())


def main() -> int:
    PDF.write_bytes(make(TEXT.read_text(encoding="utf-8")))
    print(f"wrote {PDF.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
