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
