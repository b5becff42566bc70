"""Small PDFs drawn with fpdf2 for the PDF reader's tests: each one shows one layout rule."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

WORDS = ("le joueur actif pose une carte devant lui puis pioche une nouvelle carte sans la regarder "
         "et la garde en main jusqu'au prochain tour de jeu").split()


def prose(n: int, seed: int = 0) -> str:
    """n words of plausible French, deterministic."""
    return " ".join(WORDS[(seed + i * 7) % len(WORDS)] for i in range(n))


def new(landscape: bool = False) -> FPDF:
    pdf = FPDF(orientation="L" if landscape else "P", unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=10)
    return pdf


def block(pdf: FPDF, x: float, y: float, width: float, text: str, size: float = 10, style: str = "", leading: float = 1.25) -> float:
    """Wrapped text in a box at (x, y); returns the y below it."""
    pdf.set_font("Helvetica", style=style, size=size)
    pdf.set_xy(x, y)
    pdf.multi_cell(width, size * leading, text, align="L")
    return pdf.get_y()


def save(pdf: FPDF, path: Path) -> Path:
    pdf.output(str(path))
    return path
