"""Headings a PDF prints in the text's own type (no larger size, no bold: small capitals, a colour),
guessed from their words, on small PDFs drawn for the rule (fpdf2): a line set apart above and close
to its text is a heading, ranked below the headings the sizes state; a list's rows evenly spaced, a
table's row under its paragraph and a formula are text, and said."""

from __future__ import annotations

from pathlib import Path

from extract.cli.commands import extract_document
from tests.read.pdf_maker import block, new, prose, save


def rulebook(path: Path) -> Path:
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 495, "Règles du jeu", size=18, style="B")
    y = block(pdf, 50, y + 8, 495, "Le " + prose(40, 1) + ".")
    y = block(pdf, 50, y + 16, 495, "Matériel")  # the text's type, set apart above: a heading
    y = block(pdf, 50, y + 2, 495, "Le jeu contient ces éléments, rangés dans la boîte avant la partie :")
    for item in ("Plateau de jeu", "Cartes Action", "Pions des joueurs", "Dés de combat"):
        y = block(pdf, 70, y + 10, 400, item)  # a list's rows, evenly spaced
    y = block(pdf, 50, y + 16, 495, "Combat")
    y = block(pdf, 50, y + 2, 495, "Le " + prose(50, 2) + " ; les dégâts se calculent ainsi :")
    y = block(pdf, 90, y + 2, 400, "Dégâts infligés = 2d6 + 3")  # a formula
    y = block(pdf, 50, y + 2, 495, "Le " + prose(30, 3) + ".")
    y = block(pdf, 50, y + 2, 495, "Un ennemi se résume par les informations suivantes :")
    y = block(pdf, 60, y + 2, 495, "Nom Guerrier Insecte")  # a table's row right under its paragraph
    y = block(pdf, 50, y + 2, 495, "Le " + prose(30, 4) + ".")
    y = block(pdf, 50, y + 16, 495, "Fin de la partie")
    block(pdf, 50, y + 2, 495, "Le " + prose(60, 5) + ".")
    return save(pdf, path)


def test_headings_in_the_texts_type_are_headings_by_their_spacing_and_rows_lists_formulas_are_text(tmp_path):
    found = extract_document(rulebook(tmp_path / "regles.pdf"))
    titled = {e["title"]: e for e in found["entries"] if e["title"]}
    parents = {e["id"]: e["title"] for e in found["entries"]}
    assert set(titled) == {"Règles du jeu", "Matériel", "Combat", "Fin de la partie"}, list(titled)
    for title in ("Matériel", "Combat", "Fin de la partie"):
        assert parents[titled[title]["parent"]] == "Règles du jeu"  # below the level the sizes state
    said = next(a for a in found["anomalies"] if a["kind"] == "typeset-as-text")
    for text in ("Plateau de jeu", "Cartes Action", "Dégâts infligés = 2d6 + 3", "Nom Guerrier Insecte"):
        assert text in said["detail"]
    text = " ".join(e["text"] for e in found["entries"])
    assert "Cartes Action" in text and "Dégâts infligés = 2d6 + 3" in text  # kept as text, nothing lost


def test_a_front_page_in_types_used_nowhere_else_heads_no_chapter(tmp_path):
    """An advert or cover page before the rules, its headings in types the rules never use: its
    headings hold its own page only; the chapters (a type repeated over the pages) are at the top."""
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 60, 495, "Une collection à visiter", size=36, style="B")
    y = block(pdf, 50, y + 20, 495, "Le gîte ludique vous accueille toute l'année.", size=14)
    block(pdf, 50, y + 40, 495, "Réservations ouvertes", size=24, style="B")
    for chapter in ("Matériel", "Mise en place", "Tour de jeu"):
        pdf.add_page()
        y = block(pdf, 50, 40, 495, chapter, size=16, style="B")
        block(pdf, 50, y + 8, 495, "Le " + prose(80, len(chapter)) + ".")
    found = extract_document(save(pdf, tmp_path / "front.pdf"))
    titled = {e["title"]: e for e in found["entries"] if e["title"]}
    assert {"Matériel", "Mise en place", "Tour de jeu"} <= set(titled)
    assert all(titled[t]["parent"] is None for t in ("Matériel", "Mise en place", "Tour de jeu"))


def test_text_after_a_front_page_before_the_first_chapter_is_not_the_front_pages(tmp_path):
    """The front matter's headings are closed at its last page: the text that opens the next page,
    above its first heading, goes to no heading of the cover (nothing lost: it stays an entry's)."""
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 60, 495, "Une collection de jeux", size=36, style="B")
    block(pdf, 50, y + 20, 495, "Le gîte ludique vous accueille toute l'année.", size=14)
    opening = "Cette règle explique comment jouer une partie complète en moins d'une heure."
    for k, chapter in enumerate(("Matériel", "Mise en place", "Tour de jeu")):
        pdf.add_page()
        y = 40 if k else block(pdf, 50, 40, 495, opening) + 12
        y = block(pdf, 50, y, 495, chapter, size=16, style="B")
        block(pdf, 50, y + 8, 495, "Le " + prose(80, len(chapter)) + ".")
    found = extract_document(save(pdf, tmp_path / "front.pdf"))
    cover = next(e for e in found["entries"] if e["title"] == "Une collection de jeux")
    assert "Cette règle explique" not in cover["text"] and "gîte ludique" in cover["text"]
    holder = [e for e in found["entries"] if "Cette règle explique comment jouer" in e["text"]]
    assert len(holder) == 1 and holder[0]["parent"] is None


def titled_in_the_texts_type(path: Path) -> Path:
    """A title and its subtitle on the first two lines, in the text's type, centred over the text as
    the Petit JDR's cover prints them; then two sections in 18 pt bold."""
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    y = 40.0
    for line in ("Petit JDR universel", "Règles de base"):
        y = block(pdf, 297.5 - pdf.get_string_width(line) / 2, y, 200, line)
    y = block(pdf, 50, y + 2, 495, "Peu importe " + prose(50, 1) + ".")
    for k, title in enumerate(("Joueurs", "Maître du jeu")):
        y = block(pdf, 50, y + 16, 495, title, size=18, style="B")
        y = block(pdf, 50, y + 6, 495, "Le " + prose(50, k + 2) + ".")
    return save(pdf, path)


def test_the_line_under_a_title_read_as_a_caption_is_its_subtitle_no_section(tmp_path):
    found = extract_document(titled_in_the_texts_type(tmp_path / "regles.pdf"))
    assert [e["title"] for e in found["entries"] if e["title"]] == ["Joueurs", "Maître du jeu"]
    assert "Règles de base" in found["entries"][0]["text"]
    said = [a for a in found["anomalies"] if a["kind"] == "cover-subtitle"]
    assert len(said) == 1 and "« Règles de base »" in said[0]["detail"]


def test_a_first_heading_in_the_texts_type_under_the_games_name_stays_a_heading(tmp_path):
    # the game's name, then its first section, both at the text's edge, the heading over its paragraph
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 495, "Hanabi")
    for k, title in enumerate(("But du jeu", "Matériel")):
        y = block(pdf, 50, y + 14, 495, title)
        y = block(pdf, 50, y + 6, 495, "Les joueurs " + prose(40, k + 3) + ".")
    found = extract_document(save(pdf, tmp_path / "hanabi.pdf"))
    assert [e["title"] for e in found["entries"] if e["title"]] == ["But du jeu", "Matériel"]
    assert not [a for a in found["anomalies"] if a["kind"] == "cover-subtitle"]
