"""A table printed without rules (extract/read/cell_rows.py): bold labels side by side over short
columns, between text spanning the page, are its column heads, never headings; the headings opening
two real columns side by side stay headings."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.cli.commands import extract_document
from tests.read.pdf_maker import lines_at, new, prose, save, wrapped


def titles(path: Path) -> list[str]:
    return [e["title"] for e in extract_document(path)["entries"] if e.get("title")]


def table_strip(path: Path) -> Path:
    """A section whose text holds a table without rules: "CATÉGORIE JEUNES" | "CATÉGORIE ADULTES" in
    bold over two and three short lines, text across the page above and below it."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Classement des joueurs"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Chaque joueur reçoit un classement. " + prose(40, 1) + " :", 490, size=10),
                 size=10, leading=12.5) + 10
    lines_at(pdf, 90, y, ["CATÉGORIE JEUNES"], size=10, style="B")
    lines_at(pdf, 320, y, ["CATÉGORIE ADULTES"], size=10, style="B")
    lines_at(pdf, 60, y + 18, ["- 999 pour les moins de 12 ans", "- 1099 pour les moins de 16 ans"], size=10, leading=12.5)
    lines_at(pdf, 310, y + 18, ["- 1199 pour les seniors", "- 1299 pour les vétérans", "- 1399 pour les autres"],
             size=10, leading=12.5)
    y += 18 + 3 * 12.5 + 14
    y = lines_at(pdf, 50, y, wrapped(pdf, "Le classement change ensuite. " + prose(40, 2) + ".", 490, size=10),
                 size=10, leading=12.5) + 10
    y = lines_at(pdf, 50, y, ["Réclamations"], size=16, style="B") + 8
    lines_at(pdf, 50, y, wrapped(pdf, "Une réclamation se fait par écrit. " + prose(40, 3) + ".", 490, size=10),
             size=10, leading=12.5)
    return save(pdf, path)


def two_columns(path: Path) -> Path:
    """Two columns of prose, each opening on a bold heading in the text's size at the same height."""
    pdf = new()
    pdf.add_page()
    lines_at(pdf, 50, 60, ["Le livre des règles"], size=16, style="B")
    for x, title, seed in ((50, "Mise en place", 1), (310, "Tour de jeu", 2)):
        y = lines_at(pdf, x, 100, [title], size=10, style="B") + 6
        lines_at(pdf, x, y, wrapped(pdf, f"{title} commence ici. " + prose(200, seed) + ".", 230, size=10),
                 size=10, leading=12.5)
    return save(pdf, path)


def test_the_column_heads_of_a_table_without_rules_are_no_headings(tmp_path):
    found = titles(table_strip(tmp_path / "table.pdf"))
    assert "CATÉGORIE JEUNES" not in found and "CATÉGORIE ADULTES" not in found
    assert found == ["Classement des joueurs", "Réclamations"]


def test_headings_opening_two_columns_side_by_side_stay_headings(tmp_path):
    found = titles(two_columns(tmp_path / "columns.pdf"))
    assert "Mise en place" in found and "Tour de jeu" in found


def labels_over_rows(path: Path, size: float, rows: int) -> Path:
    """A 16 pt section; bold labels "Terrains" and "Exceptions" printed apart on one row in `size`,
    over `rows` rows of two parts starting where the labels start; then a paragraph."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Déplacement"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Une unité " + prose(30, 1) + ".", 490, size=10), size=10, leading=12.5) + 10
    pdf.set_font("Helvetica", style="B", size=size)
    pdf.text(50, y, "Terrains")
    pdf.text(300, y, "Exceptions")
    y += 16
    pdf.set_font("Helvetica", size=10)
    for cells in (("Forêt : coûte 2.", "Un héros volant ignore les forêts."), ("Marais : coûte 3.", "Un héros nageur y va."))[:rows]:
        pdf.text(50, y, cells[0])
        pdf.text(300, y, cells[1])
        y += 14
    lines_at(pdf, 50, y, wrapped(pdf, "Le joueur " + prose(30, 2) + ".", 490, size=10), size=10, leading=12.5)
    return save(pdf, path)


@pytest.mark.parametrize(("size", "rows"), [(12, 2), (10, 1)])
def test_labels_in_a_larger_type_or_over_one_row_head_no_table(tmp_path, size, rows):
    # sub-headings side by side in a heading's type, or over a single two-part line, are no header row
    found = extract_document(labels_over_rows(tmp_path / "labels.pdf", size, rows))
    said = " ".join(a["detail"] for a in found["anomalies"] if a["kind"] == "typeset-as-text")
    assert "Terrains" not in said or "column head" not in said


def test_bold_labels_in_the_texts_size_over_two_rows_lining_up_are_a_header_row(tmp_path):
    found = extract_document(labels_over_rows(tmp_path / "table.pdf", 10, 2))
    assert [e["title"] for e in found["entries"] if e.get("title")] == ["Déplacement"]
