"""Labels printed in a row under a picture, or over it (a panel of three parts, each named under its
part), on small PDFs drawn for the rule (fpdf2): set aside with their page, never a heading nor
inside a sentence; a caption under a picture (one sentence) and the text around it stay text."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from extract.cli.commands import extract_document
from extract.read.figure_rows import ROW_REASON
from extract.read.pdf import read_pdf
from tests.read.pdf_maker import block, new, prose, save


def picture(tmp_path: Path) -> Path:
    path = tmp_path / "panneau.png"
    Image.new("RGB", (300, 120), (40, 90, 160)).save(path)
    return path


def panel(tmp_path: Path) -> Path:
    pdf = new()
    pdf.add_page()
    image = picture(tmp_path)
    y = block(pdf, 50, 40, 495, "Les systèmes", size=16, style="B")
    y = block(pdf, 50, y + 6, 495, "Le Second remplit les jauges de ses systèmes, puis il annonce qu'une jauge est pleine.")
    top = y + 10
    pdf.image(str(image), x=60, y=top, w=300, h=120)
    pdf.set_font("Helvetica", style="I", size=9)
    for x, first, second in ((80, "Systèmes", "d'arme"), (180, "Systèmes de", "détection"), (290, "Systèmes", "spéciaux")):
        pdf.text(x, top + 130, first)
        pdf.text(x + 4, top + 141, second)
    for x, label in ((75, "Mine posée"), (175, "Drone actif"), (275, "Silence radio")):
        pdf.text(x, top + 40, label)  # over the picture
    y = block(pdf, 50, top + 160, 495, "Quand une jauge est pleine, " + prose(40, 1) + ".")
    pdf.image(str(image), x=60, y=y + 10, w=300, h=120)
    y = block(pdf, 60, y + 134, 300, "Le sous-marin vu de dessus, avant la plongée", size=9, style="I")
    block(pdf, 50, y + 14, 495, "La partie se poursuit ainsi " + prose(40, 2) + ".")
    return save(pdf, tmp_path / "panneau.pdf")


def test_labels_in_a_row_under_and_over_a_picture_are_set_aside_and_a_caption_stays(tmp_path):
    path = panel(tmp_path)
    reading = read_pdf(path, path.name)
    texts = [line.text for line in reading.lines]
    assert not any("Systèmes" in t or "détection" in t or "Drone" in t for t in texts), texts
    rows = [a for a in reading.set_aside if a.reason == ROW_REASON]
    assert sum(a.lines[1] - a.lines[0] + 1 for a in rows) == 3  # two rows under the panel, one over it
    assert any("Le sous-marin vu de dessus, avant la plongée" in t for t in texts)  # the caption
    assert any(t.startswith("Quand une jauge est pleine") and t.endswith(".") for t in texts)
    found = extract_document(path)
    assert [e["title"] for e in found["entries"] if e["title"]] == ["Les systèmes"]


TABLE = (("Joueurs", "Cartes", "Jetons"), ("Deux", "Cinq", "Dix"), ("Trois", "Quatre", "Huit"), ("Quatre", "Trois", "Six"))


def table_by_pictures(tmp_path: Path) -> Path:
    """An unruled table right under a picture, and the same table right above another picture."""
    pdf = new()
    pdf.add_page()
    image = picture(tmp_path)
    y = block(pdf, 50, 40, 495, "Le joueur actif pioche une carte puis la pose devant lui sur la table de jeu.")
    pdf.image(str(image), x=60, y=y + 10, w=300, h=120)
    pdf.set_font("Helvetica", size=10)
    y += 130 + 12
    for row in TABLE:
        for k, cell in enumerate(row):
            pdf.text(70 + k * 110, y, cell)
        y += 14
    y = block(pdf, 50, y + 4, 495, "Ensuite le joueur suivant joue son tour de la même façon que le premier.")
    y += 20
    pdf.set_font("Helvetica", size=10)
    for row in TABLE:
        y += 14
        for k, cell in enumerate(row):
            pdf.text(70 + k * 110, y, cell)
    pdf.image(str(image), x=60, y=y + 6, w=300, h=120)
    block(pdf, 50, y + 140, 495, "La partie se poursuit ainsi " + prose(30, 3) + ".")
    return save(pdf, tmp_path / "tableau.pdf")


def test_a_table_right_under_or_above_a_picture_stays_text(tmp_path):
    path = table_by_pictures(tmp_path)
    reading = read_pdf(path, path.name)
    assert not [a for a in reading.set_aside if a.reason == ROW_REASON]
    texts = [" ".join(line.text.split()) for line in reading.lines]
    for row in TABLE:
        assert sum(" ".join(row) == t for t in texts) == 2, (row, texts)


def test_only_the_row_touching_a_picture_is_its_labels_not_the_rows_below_it(tmp_path):
    """A row of labels right under a picture, then a row of short pieces not under its labels (another
    layout's row, the start of a list): the labels are set aside, the next row stays text."""
    pdf = new()
    pdf.add_page()
    image = picture(tmp_path)
    y = block(pdf, 50, 40, 495, "Le joueur actif pioche une carte puis la pose devant lui sur la table de jeu.")
    top = y + 10
    pdf.image(str(image), x=60, y=top, w=300, h=120)
    pdf.set_font("Helvetica", size=9)
    for x, label in ((70, "Pioche"), (180, "Défausse"), (290, "Réserve")):
        pdf.text(x, top + 130, label)
    for x, label in ((120, "Face cachée"), (240, "Face visible")):
        pdf.text(x, top + 142, label)
    block(pdf, 50, top + 160, 495, "La partie se poursuit ainsi " + prose(30, 3) + ".")
    path = save(pdf, tmp_path / "rangees.pdf")
    reading = read_pdf(path, path.name)
    rows = [a for a in reading.set_aside if a.reason == ROW_REASON]
    assert sum(a.lines[1] - a.lines[0] + 1 for a in rows) == 1, rows
    texts = [" ".join(line.text.split()) for line in reading.lines]
    assert not any("Pioche" in t for t in texts) and any("Face cachée Face visible" in t for t in texts), texts
