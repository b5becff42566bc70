"""A table printed without rules (extract/read/cell_rows.py): bold labels side by side over short
columns, between text spanning the page, are its column heads, never headings; the headings opening
two real columns side by side stay headings."""

from __future__ import annotations

from pathlib import Path

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
