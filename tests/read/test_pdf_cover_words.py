"""Lines printed as headings that read as none (extract/read/pdf_text.py, issue 33): a cover's block
(who plays, from what age), a cover's row of pieces, an advert's contact lines, a sentence in large
type cut over lines, a sentence leading in to a list. Each on a small generated PDF, and the rule's
words on their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.cli.commands import extract_document
from extract.patterns import is_cover_line
from extract.read.pdf import read_pdf
from extract.read.pdf_text import worded_as_no_heading
from tests.read.pdf_maker import lines_at, new, prose, save, wrapped


def titles(path: Path) -> list[str]:
    return [e["title"] for e in extract_document(path)["entries"] if e.get("title")]


def cover_and_contacts(path: Path) -> Path:
    """A cover: the title, a block of short lines ending on the player count, a row of pieces, then
    sections; a lead-in sentence in bold over a list; the back page, an advert in large bold type
    whose sentence is cut over lines, and its contact lines."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Les Corsaires"], size=28, style="B") + 10
    y = lines_at(pdf, 50, y, ["Un jeu de bluff", "pour des équipages", "de 2 à 6 joueurs"], size=10, style="I",
                 leading=12.5) + 8
    y = lines_at(pdf, 50, y, ["3 à 6 joueurs | 10 ans et + | 30 min"], size=14, style="B") + 14
    for k, title in enumerate(("Matériel", "Mise en place", "Tour de jeu")):
        y = lines_at(pdf, 50, y, [title], size=16, style="B") + 6
        y = lines_at(pdf, 50, y, wrapped(pdf, f"{title} : " + prose(50, k) + ".", 490, size=10), size=10, leading=12.5) + 6
        if k == 1:
            y = lines_at(pdf, 50, y, ["Pour chaque joueur :"], size=10, style="B", leading=12.5)
            y = lines_at(pdf, 60, y, ["- une carte de bateau", "- trois pièces d'or"], size=10, leading=12.5) + 10
        y += 8
    pdf.add_page()
    y = lines_at(pdf, 50, 80, ["Venez jouer avec nous dans", "notre ludothèque de la", "Vallée, ouverte toute l'année."],
                 size=18, style="B", leading=22) + 12
    y = lines_at(pdf, 50, y, wrapped(pdf, "La ludothèque prête " + prose(40, 5) + ".", 490, size=10), size=10, leading=12.5)
    lines_at(pdf, 300, y + 30, ["www.ludotheque-exemple.fr", "contact@ludotheque-exemple.fr"], size=20, style="B", leading=26)
    return save(pdf, path)


def test_cover_blocks_contacts_cut_sentences_and_lead_ins_are_no_headings(tmp_path):
    found = titles(cover_and_contacts(tmp_path / "cover.pdf"))
    assert [t for t in found if t != "Les Corsaires"] == ["Matériel", "Mise en place", "Tour de jeu"]


@pytest.mark.parametrize(("text", "why"), [
    ("escaleajeux@gmail.com", "an address"),
    ("www.exemple.fr", "an address"),
    ("accueillent à Sologny (Saône-et-", "a piece of a sentence (opens in lower case)"),
    ("Venez jouer avec nous dans", "a piece of a sentence (stops mid-sentence)"),
    ("Pour chaque équipe :", "a sentence leading in to what follows"),
    ("Pour déclencher un système, le Capitaine doit :", "a sentence leading in to what follows"),
    ("Mise en place :", None),
    ("Déplacement :", None),
    ("JEU AU TOUR PAR TOUR :", None),
    ("  ", None),
    ("", None),
    ("a) Déplacement", None),
    ("ii. Combat", None),
    ("b) pose une carte puis", "a piece of a sentence (opens in lower case)"),
    ("etc. Les cartes restent", "a piece of a sentence (opens in lower case)"),  # an abbreviation, no enumerator
    ("cf. Règle 3 pour le tir", "a piece of a sentence (opens in lower case)"),
    ("iv) Tir", None),
    ("Le tour de jeu en détail :", "a sentence leading in to what follows"),
    ("POUR CHAQUE JOUEUR :", "a sentence leading in to what follows"),
    ("Les cartes « forme »", None),
    ("3. Jouer une carte", None),
])
def test_the_words_of_a_line_that_reads_as_no_heading(text, why):
    assert worded_as_no_heading(text) == why


def test_a_cover_row_of_pieces_is_a_cover_line_but_a_section_title_is_not():
    assert is_cover_line("2 à 4 joueurs • 10 ans et + • 30 min")
    assert is_cover_line("3 à 6 joueurs | 10 ans et + | 30 min")
    assert not is_cover_line("Partie à 2 joueurs • variante avancée des règles de combat")
    assert not is_cover_line("Mise en place - Tour de jeu")
    # pieces printed apart on one row, no mark between them
    assert is_cover_line("À partir de 12 ans 60 à 90 min")
    assert not is_cover_line("Mise en place 30 min de jeu")


def subtitle_in_section_size(path: Path) -> Path:
    """The title in 26 pt, a subtitle in 11 pt regular, then chapters in 15 pt bold,
    each with sections in 11 pt bold (the subtitle's size, another weight)."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 80, ["Chroniques"], size=26, style="B") + 8
    y = lines_at(pdf, 50, y, ["Escarmouches dans les Terres Brisées"], size=11) + 14
    for k, chapter in enumerate(("Avant-propos", "Le combat")):
        y = lines_at(pdf, 50, y, [chapter], size=15, style="B") + 6
        y = lines_at(pdf, 50, y, wrapped(pdf, prose(40, k) + ".", 490, size=8.5), size=8.5, leading=10.5) + 8
        for sub in (f"Section {k}A", f"Section {k}B"):
            y = lines_at(pdf, 50, y, [sub], size=11, style="B") + 4
            y = lines_at(pdf, 50, y, wrapped(pdf, prose(40, k + 1) + ".", 490, size=8.5), size=8.5, leading=10.5) + 8
    return save(pdf, path)


def test_a_subtitle_in_the_sections_size_is_set_aside_and_the_sections_keep_their_level(tmp_path):
    r = read_pdf(subtitle_in_section_size(tmp_path / "sub.pdf"), "sub.pdf")
    headings = [line.text for line in r.lines if line.text.startswith("#")]
    assert headings == ["# Chroniques", "# Avant-propos", "## Section 0A", "## Section 0B", "# Le combat",
                        "## Section 1A", "## Section 1B"]
    assert "subtitle in the cover's title block" in {item.reason for item in r.set_aside}


def title_mid_document(path: Path) -> Path:
    """A leaflet whose cover is its second page: page 1 goes on with the rules, page 2 opens on the
    game's name (the only line in 26 pt) over two sections in 16 pt, each with a 12 pt sub-section;
    a small running line above the name."""
    pdf = new()
    for page, names in ((1, ("Fin de partie", "Variantes")), (2, ("Matériel", "Mise en place"))):
        pdf.add_page()
        y = lines_at(pdf, 50, 30, ["Le Phare, règle du jeu"], size=7) + 20
        if page == 2:
            y = lines_at(pdf, 50, y, ["Le Phare"], size=26, style="B") + 12
        for k, name in enumerate(names):
            y = lines_at(pdf, 50, y, [name], size=16, style="B") + 6
            y = lines_at(pdf, 50, y, wrapped(pdf, f"{name} : " + prose(40, k) + ".", 490, size=10), size=10,
                         leading=12.5) + 8
            y = lines_at(pdf, 50, y, [f"Cas {page}{k}"], size=12, style="B") + 6
            y = lines_at(pdf, 50, y, wrapped(pdf, prose(40, k + 1) + ".", 490, size=10), size=10, leading=12.5) + 14
    return save(pdf, path)


def test_the_document_title_is_never_a_parent_even_in_mid_document(tmp_path):
    found = extract_document(title_mid_document(tmp_path / "leaflet.pdf"))
    by_id = {e["id"]: e for e in found["entries"]}
    parents = {e["title"]: by_id[e["parent"]]["title"] if e.get("parent") else None
               for e in found["entries"] if e.get("title")}
    assert parents["Matériel"] is None and parents["Mise en place"] is None and parents["Le Phare"] is None
    assert parents["Cas 20"] == "Matériel" and parents["Cas 11"] == "Variantes"
    assert any(a["kind"] == "document-title" for a in found["anomalies"])
    # the reader states it at the sections' level, not above them
    headings = [line.text for line in read_pdf(tmp_path / "leaflet.pdf", "leaflet.pdf").lines if line.text.startswith("#")]
    assert "## Le Phare" in headings and "## Matériel" in headings


def three_columns(path: Path) -> Path:
    """Rules in three narrow columns on two pages: paragraphs whose short lines name a duration, a
    player count, an age ("3 minutes", "2 à 4 joueurs", "Dès 8 ans"), as a cover's block would."""
    pdf = new()
    pdf.add_page()
    lines_at(pdf, 40, 50, ["Le Sablier Fou"], size=22, style="B")
    pages = ([("Mise en place", "Chaque joueur prend cinq cartes. " + prose(30, 1) + ". Chaque manche dure 3 minutes."),
              ("Tour de jeu", "Le joueur actif pose une carte. " + prose(30, 2) + ". Avec 2 à 4 joueurs, retirez les cartes rouges."),
              ("Fin de partie", "La partie prend fin après trois manches. " + prose(30, 3) + ".")],
             [("Variantes", prose(40, 5) + ". Dès 8 ans, jouez sans sablier."), ("Conseils", prose(40, 6) + "."),
              ("Crédits", prose(20, 7) + ".")])
    for k, columns in enumerate(pages):
        if k:
            pdf.add_page()
        for x, (title, body) in zip((40, 220, 400), columns, strict=True):
            y = lines_at(pdf, x, 100 if k == 0 else 60, [title], size=14, style="B") + 6
            lines_at(pdf, x, y, wrapped(pdf, body, 165, size=10), size=10, leading=12.5)
    return save(pdf, path)


def test_a_narrow_columns_paragraph_naming_players_or_minutes_is_rule_text(tmp_path):
    reading = read_pdf(three_columns(tmp_path / "threecol.pdf"), "threecol.pdf")
    text = " ".join(" ".join(line.text.split()) for line in reading.lines)
    for words in ("Chaque manche dure 3 minutes.", "Avec 2 à 4 joueurs, retirez", "Dès 8 ans, jouez sans sablier."):
        assert words in text
    assert not [a for a in reading.anomalies if a.kind == "cover-lines"]


def lettered_sections(path: Path) -> Path:
    """Chapters in 16 pt bold, their sections lettered in 12 pt bold ("a) Le plateau", "b. Le tir",
    "ii. Combat"): a letter in lower case opens each section's title."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 40, 60, ["Les Chevaliers du Val"], size=22, style="B") + 10
    for chapter, subs in (("Mise en place", ["a) Le plateau", "b) Les cartes"]),
                          ("Tour de jeu", ["a) Déplacement", "b. Le tir", "ii. Combat"]), ("Fin de partie", [])):
        y = lines_at(pdf, 40, y + 8, [chapter], size=16, style="B") + 6
        y = lines_at(pdf, 40, y, wrapped(pdf, "Le " + prose(40, len(chapter)) + ".", 500, size=10), size=10, leading=12.5) + 6
        for sub in subs:
            y = lines_at(pdf, 40, y + 4, [sub], size=12, style="B") + 4
            y = lines_at(pdf, 40, y, wrapped(pdf, "Le " + prose(35, len(sub)) + ".", 500, size=10), size=10, leading=12.5) + 4
    return save(pdf, path)


def test_lettered_sections_are_headings_under_their_chapter(tmp_path):
    entries = extract_document(lettered_sections(tmp_path / "lettered.pdf"))["entries"]
    found = [e["title"] for e in entries if e.get("title")]
    assert found == ["Les Chevaliers du Val", "Mise en place", "a) Le plateau", "b) Les cartes", "Tour de jeu",
                     "a) Déplacement", "b. Le tir", "ii. Combat", "Fin de partie"]
    parents = {e["title"]: e["parent"] for e in entries}
    assert parents["ii. Combat"] == parents["a) Déplacement"] == next(e["id"] for e in entries if e["title"] == "Tour de jeu")


def long_wrapped_title(path: Path) -> Path:
    """Sections in 14 pt bold; one title of ten words wrapped over two lines in a narrow column, its
    second line opening in lower case."""
    pdf = new()
    pdf.add_page()
    y = 60.0
    for k, title in enumerate((["Mise en place"], ["Interagir avec le décor et les terminaux de", "la station"],
                               ["Fin de partie"])):
        y = lines_at(pdf, 50, y, title, size=14, style="B", leading=17) + 6
        y = lines_at(pdf, 50, y, wrapped(pdf, prose(45, k) + ".", 330, size=10), size=10, leading=12.5) + 14
    return save(pdf, path)


def test_a_long_title_wrapped_over_two_lines_is_one_heading(tmp_path):
    found = titles(long_wrapped_title(tmp_path / "wrapped.pdf"))
    assert found == ["Mise en place", "Interagir avec le décor et les terminaux de la station", "Fin de partie"]
