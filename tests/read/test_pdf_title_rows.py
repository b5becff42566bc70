"""Headings of designed PDFs as a reader sees them (issue 33), each rule on a small generated PDF: a
chapter title in large type across the columns' gutter, a single-letter word of such a title, a
bold title wrapped over two lines, and the last line of a bold sentence."""

from __future__ import annotations

from pathlib import Path

from extract.read.pdf import read_pdf
from extract.read.pdf_text import REPEATED_TITLE
from tests.read.pdf_maker import block, new, prose, save


def headings(path: Path) -> list[str]:
    return [line.text for line in read_pdf(path, path.name).lines if line.text.startswith("#")]


def title_across_the_gutter(path: Path, words: list[str], size: float = 36) -> Path:
    """Two columns of text (gutter 280-315) under a title whose words are set one by one, a third of
    an em apart: the space between two of them falls in the gutter."""
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", style="B", size=size)
    x = 60.0
    for word in words:
        pdf.text(x, 70, word)
        x += pdf.get_string_width(word) + size / 3
    block(pdf, 50, 100, 230, "Alpha commence ici. " + prose(120, 1) + ".")
    block(pdf, 315, 100, 230, "Bravo commence ici. " + prose(120, 2) + ".")
    return save(pdf, path)


def test_a_title_in_large_type_across_the_gutter_is_one_heading(tmp_path):
    # "ACTIVATION DES" ends left of the gutter, "SYSTÈMES" starts right of it: one title, not two
    words = ["ACTIVATION", "DES", "SYSTÈMES"]
    found = headings(title_across_the_gutter(tmp_path / "title.pdf", words))
    assert found == ["# ACTIVATION DES SYSTÈMES"]


def test_a_single_letter_word_of_a_title_is_no_drop_cap(tmp_path):
    words = ["LES", "RÔLES", "À", "BORD"]
    found = headings(title_across_the_gutter(tmp_path / "title.pdf", words))
    assert found == ["# LES RÔLES À BORD"]


def test_a_bold_title_wrapped_over_two_lines_is_one_heading_and_a_bold_sentence_none(tmp_path):
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 200, prose(40, 1) + ".")
    y = block(pdf, 50, y + 12, 200, "RÉPARTITION DES RÔLES EN FONCTION DU NOMBRE", style="B")
    y = block(pdf, 50, y + 2, 200, prose(40, 2) + ".")
    y = block(pdf, 50, y + 12, 200, "Si le point d'impact de votre torpille se trouve à une case de votre sous-marin, "
              "vous subissez un dégât !", style="B")
    block(pdf, 50, y + 2, 200, prose(40, 3) + ".")
    reading = read_pdf(save(pdf, tmp_path / "bold.pdf"), "bold.pdf")
    lines = [line.text for line in reading.lines]
    assert [t for t in lines if t.startswith("#")] == ["# RÉPARTITION DES RÔLES EN FONCTION DU NOMBRE"]
    assert any(t.startswith("**Si le point d'impact") and t.endswith("vous subissez un dégât !**") for t in lines)


def test_a_chapter_title_repeated_at_the_top_of_the_next_page_is_set_aside_and_the_chapter_goes_on(tmp_path):
    pdf = new()
    for page, section in enumerate(("Le Capitaine", "Le Second")):
        pdf.add_page()
        y = block(pdf, 50, 100, 495, "LES FONCTIONS À BORD", size=24, style="B")
        y = block(pdf, 50, y + 10, 495, section, size=15, style="B")
        block(pdf, 50, y + 6, 495, prose(60, page) + ".")
    pdf.add_page()  # a new chapter, then the first one's title again: a heading of its own
    y = block(pdf, 50, 100, 495, "FIN DU JEU", size=24, style="B")
    block(pdf, 50, y + 6, 495, prose(60, 5) + ".")
    pdf.add_page()
    y = block(pdf, 50, 100, 495, "LES FONCTIONS À BORD", size=24, style="B")
    block(pdf, 50, y + 6, 495, prose(60, 6) + ".")
    reading = read_pdf(save(pdf, tmp_path / "spread.pdf"), "spread.pdf")
    assert [line.text for line in reading.lines if line.text.startswith("#")] == [
        "# LES FONCTIONS À BORD", "## Le Capitaine", "## Le Second", "# FIN DU JEU", "# LES FONCTIONS À BORD"]
    assert [aside.reason for aside in reading.set_aside].count(REPEATED_TITLE) == 1
    said = next(a for a in reading.anomalies if a.kind == "heading-repeated")
    assert "LES FONCTIONS À BORD (page 2)" in said.detail


def test_a_letter_spaced_heading_cut_between_two_letters_reads_whole(tmp_path):
    """The word finder cuts "en" of a letter-spaced heading where a gap is a little wider than the
    others ("e" | "n", 2.2 points, words 7.8 apart): the letters join, the words stay apart."""
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", style="B", size=14)
    x = 50.0
    for piece, after in (("11.4.", 7.8), ("Accession", 7.8), ("e", 2.2), ("n", 7.8), ("division", 7.8), ("supérieure", 0)):
        pdf.text(x, 100, piece)
        x += pdf.get_string_width(piece) + after
    block(pdf, 50, 110, 495, prose(60, 1) + ".")
    found = headings(save(pdf, tmp_path / "spaced.pdf"))
    assert found == ["# 11.4. Accession en division supérieure"]


def test_a_bold_title_after_a_marker_from_another_font_is_a_heading(tmp_path):
    """"❱ DÉGÂTS" (here "·"): the marker's font is not bold; the title's letters are, and so is the line."""
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 495, prose(50, 1) + ".")
    pdf.set_font("Helvetica", size=11)
    pdf.text(50, y + 20, "·")
    pdf.set_font("Helvetica", style="B", size=11)
    pdf.text(50 + pdf.get_string_width("· ") + 2, y + 20, "DÉGÂTS")
    block(pdf, 50, y + 26, 495, prose(50, 2) + ".")
    assert headings(save(pdf, tmp_path / "marker.pdf")) == ["# DÉGÂTS"]


def test_a_heading_at_the_foot_of_a_column_heads_the_text_below_it_not_the_column_beside_it(tmp_path):
    """The left column ends on a bold title; the right column, read next, is printed above it; the
    text the title heads runs across the page below both."""
    pdf = new()
    pdf.add_page()
    block(pdf, 50, 60, 230, prose(70, 1) + ".")
    block(pdf, 315, 60, 230, prose(40, 2) + ".")
    pdf.set_font("Helvetica", style="B", size=10)
    pdf.text(50, 330, "PANNE CADRAN COMPLET")
    block(pdf, 50, 340, 495, prose(60, 3) + ".")
    assert headings(save(pdf, tmp_path / "foot.pdf")) == ["# PANNE CADRAN COMPLET"]
