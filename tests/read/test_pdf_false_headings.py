"""Lines of a PDF a reader never takes for headings (issue 33), each on a small generated PDF:
- terms run in with their definition (extract/segment/profiles/headed_prose.py): a bold term opening
  its paragraph ("**Acheter :** le joueur paie…") is printed as text, not apart as a heading; the
  reader of a PDF sees the page, so such terms make no entries there (a Markdown glossary's do:
  test_headed_prose);
- the back matter (extract/read/pdf_text.py): the last page's credits and the publisher's adverts,
  from their title on;
- a table's header row printed without rules over rows read as text (extract/read/cell_rows.py);
and the other way round, a sub-heading set in the text's own size in italic (a style sheet's bold
italic drawn from an italic font) is a heading, while a caption in smaller italic stays one."""

from __future__ import annotations

from pathlib import Path

from extract.cli.commands import extract_document
from extract.read.pdf import read_pdf
from tests.read.pdf_maker import lines_at, new, prose, save, wrapped


def run_in_terms(path: Path, glossary_title: str = "Phase de commerce") -> Path:
    """Two sections in 16 pt bold; the second lists three actions, each a bold term and a colon, then
    its definition in plain type on the same line."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Mise en place"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Placez le plateau " + prose(40, 1) + ".", 490, size=10), size=10,
                 leading=12.5) + 12
    y = lines_at(pdf, 50, y, [glossary_title], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Le joueur choisit une action " + prose(20, 2) + ".", 490, size=10),
                 size=10, leading=12.5) + 6
    for term in ("Acheter", "Vendre", "Livrer"):
        lines_at(pdf, 50, y, [f"{term} :"], size=10, style="B")
        pdf.set_font("Helvetica", style="B", size=10)
        offset = pdf.get_string_width(f"{term} : ")
        y = lines_at(pdf, 50 + offset, y, [f"le joueur {prose(9, len(term))}."], size=10, leading=12.5) + 4
    return save(pdf, path)


def test_bold_terms_run_in_with_their_definition_are_text_in_a_pdf(tmp_path):
    found = extract_document(run_in_terms(tmp_path / "terms.pdf"))
    entries = {e["title"]: e for e in found["entries"] if e.get("title")}
    assert list(entries) == ["Mise en place", "Phase de commerce"]
    body = " ".join(b["text"] for b in entries["Phase de commerce"]["blocks"])
    assert "Acheter" in body and "Vendre" in body and "Livrer" in body


def test_a_pdf_glossary_section_keeps_its_terms_as_text(tmp_path):
    found = extract_document(run_in_terms(tmp_path / "glossary.pdf", glossary_title="Glossaire"))
    assert [e["title"] for e in found["entries"] if e.get("title")] == ["Mise en place", "Glossaire"]


def back_page(path: Path, last_title: str = "Crédits") -> Path:
    """Two pages of rules in 16 pt bold sections; the last page ends with credits (a 16 pt title, bold
    labels and names) and an advert for two other games (a 16 pt title, each game's name in 12 pt bold
    over its one-line pitch)."""
    pdf = new()
    for page, titles in enumerate((("Mise en place", "Tour de jeu"), ("Fin de la partie",))):
        pdf.add_page()
        y = 60.0
        for k, title in enumerate(titles):
            y = lines_at(pdf, 50, y, [title], size=16, style="B") + 8
            y = lines_at(pdf, 50, y, wrapped(pdf, f"{title} : " + prose(60, k + page) + ".", 490, size=10), size=10,
                         leading=12.5) + 14
    y = lines_at(pdf, 50, y + 20, [last_title], size=16, style="B") + 8
    for label, name in (("Auteur", "Marion Kerlévec"), ("Illustrations", "Tom Ardouin")):
        lines_at(pdf, 50, y, [label], size=10, style="B")
        y = lines_at(pdf, 140, y, [name], size=10, leading=12.5)
    y = lines_at(pdf, 50, y + 20, ["Retrouvez nos autres jeux"], size=16, style="B") + 8
    for game in ("Le Phare Magique", "Mission Coquillages"):
        y = lines_at(pdf, 50, y, [game], size=12, style="B") + 4
        y = lines_at(pdf, 50, y, ["Une course sur la plage pour ramasser les plus beaux coquillages."], size=10) + 8
    return save(pdf, path)


def test_the_back_pages_credits_and_adverts_are_set_aside_and_said(tmp_path):
    found = extract_document(back_page(tmp_path / "back.pdf"))
    assert [e["title"] for e in found["entries"] if e.get("title")] == ["Mise en place", "Tour de jeu", "Fin de la partie"]
    assert "Kerlévec" not in " ".join(b["text"] for e in found["entries"] for b in e["blocks"])
    said = [a for a in found["anomalies"] if a["kind"] == "back-matter"]
    assert len(said) == 1 and "Crédits" in said[0]["detail"] and "page 2" in said[0]["detail"]


def test_a_rule_titled_with_credits_words_is_no_back_matter(tmp_path):
    found = extract_document(back_page(tmp_path / "rule.pdf", last_title="Crédits de mouvement"))
    assert "Crédits de mouvement" in [e["title"] for e in found["entries"]]


def section(pdf, y: float, title: str, seed: int) -> float:
    """A 16 pt bold heading over a paragraph of 40 words; the height under it."""
    y = lines_at(pdf, 50, y, [title], size=16, style="B") + 8
    return lines_at(pdf, 50, y, wrapped(pdf, f"{title} : " + prose(40, seed) + ".", 490, size=10), size=10,
                    leading=12.5) + 14


def test_the_back_matter_ends_at_the_next_section_not_worded_as_back_matter(tmp_path):
    # a space game's last page: "Crédits" (its currency) under the same type as the rules that follow
    pdf = new()
    pdf.add_page()
    section(pdf, section(pdf, 60.0, "Mise en place", 0), "Tour de jeu", 1)
    pdf.add_page()
    section(pdf, section(pdf, section(pdf, 60.0, "Crédits", 2), "Combat spatial", 3), "Fin de la partie", 4)
    found = extract_document(save(pdf, tmp_path / "space.pdf"))
    entries = {e["title"]: e for e in found["entries"] if e.get("title")}
    assert list(entries) == ["Mise en place", "Tour de jeu", "Combat spatial", "Fin de la partie"]
    assert "Combat spatial :" in " ".join(b["text"] for b in entries["Combat spatial"]["blocks"])
    said = [a for a in found["anomalies"] if a["kind"] == "back-matter"]
    assert len(said) == 1 and "Combat spatial" not in said[0]["detail"]


def test_adverts_after_small_credits_are_measured_by_their_own_title(tmp_path):
    # credits titled in the text's bold, then adverts under a 15 pt title: each game's name in 10.5 pt
    # bold is larger than "Crédits" but smaller than the adverts' title, no section of the rules
    pdf = new()
    pdf.add_page()
    section(pdf, 60.0, "Mise en place", 0)
    pdf.add_page()
    y = section(pdf, 60.0, "Fin de la partie", 1)
    y = lines_at(pdf, 50, y, ["Crédits"], size=10, style="B") + 6
    y = lines_at(pdf, 50, y, ["Auteur Marion Kerlévec", "Illustrations Tom Ardouin"], size=8.5, leading=12) + 12
    y = lines_at(pdf, 50, y, ["Retrouvez nos autres jeux"], size=15, style="B") + 10
    for game in ("Le Phare Magique", "Mission Coquillages"):
        y = lines_at(pdf, 50, y, [game], size=10.5, style="B") + 4
        y = lines_at(pdf, 50, y, ["Une course sur la plage pour ramasser des coquillages."], size=7.5) + 8
    found = extract_document(save(pdf, tmp_path / "adverts.pdf"))
    assert [e["title"] for e in found["entries"] if e.get("title")] == ["Mise en place", "Fin de la partie"]


def test_a_one_page_sheets_credits_box_between_sections_is_read(tmp_path):
    pdf = new()
    pdf.add_page()
    y = section(pdf, 60.0, "But du jeu", 0)
    y = lines_at(pdf, 50, y, ["Crédits"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, ["Auteur : Marion Kerlévec", "Illustrations : Tom Ardouin"], size=10, leading=12.5) + 14
    section(pdf, section(pdf, y, "Déroulement", 1), "Fin de la partie", 4)
    found = extract_document(save(pdf, tmp_path / "sheet.pdf"))
    titles = [e["title"] for e in found["entries"] if e.get("title")]
    assert "Déroulement" in titles and "Fin de la partie" in titles
    assert not [a for a in found["anomalies"] if a["kind"] == "back-matter"]


def italic_subheadings(path: Path) -> Path:
    """Sections in 16 pt bold; sub-sections in the text's 10 pt, italic, one of them numbered
    ("2.1 Ordre de la pile"), each over its paragraph; a caption in 8.5 pt italic under a paragraph;
    and a paragraph in italic, its lines at the text's size."""
    pdf = new()
    pdf.add_page()
    y = 60.0
    for k, (title, subs) in enumerate((("Combat", ("Attaques à distance", "Assauts et escalades")),
                                       ("2. Variantes", ("2.1 Ordre de la pile", "Mode solitaire")))):
        y = lines_at(pdf, 50, y, [title], size=16, style="B") + 8
        for j, sub in enumerate(subs):
            y = lines_at(pdf, 50, y, [sub], size=10, style="I", leading=13) + 1
            y = lines_at(pdf, 50, y, wrapped(pdf, "Le joueur " + prose(40, k + j) + ".", 490, size=10), size=10,
                         leading=12.5) + 4
            if j == 0:
                y = lines_at(pdf, 50, y, ["Deux assauts contre une tour"], size=8.5, style="I") + 8
                y = lines_at(pdf, 50, y, wrapped(pdf, "Un rappel " + prose(30, 3) + ".", 490, size=10), size=10,
                             style="I", leading=12.5) + 8
    return save(pdf, path)


def test_italic_subheadings_in_the_texts_size_are_headings_captions_are_not(tmp_path):
    found = extract_document(italic_subheadings(tmp_path / "italic.pdf"))
    entries = {e["title"]: e for e in found["entries"] if e.get("title")}
    assert list(entries) == ["Combat", "Attaques à distance", "Assauts et escalades", "Variantes", "Ordre de la pile",
                             "Mode solitaire"]
    by_id = {e["id"]: e for e in found["entries"]}
    assert by_id[entries["Ordre de la pile"]["parent"]]["title"] == "Variantes"
    assert by_id[entries["Mode solitaire"]["parent"]]["title"] == "Variantes"


def test_an_italic_title_cited_inside_a_sentence_is_no_heading(tmp_path):
    # a book's title set in italic on a line of its own, the sentence going on over and under it
    pdf = new()
    pdf.add_page()
    y = section(pdf, 60.0, "Combat", 0)
    y = lines_at(pdf, 50, y, ["Le joueur actif lance les dés et consulte la table du livret"], size=10, leading=12.5)
    y = lines_at(pdf, 50, y, ["Tactiques avancées"], size=10, style="I", leading=12.5)
    y = lines_at(pdf, 50, y, ["pour connaître le résultat de son attaque contre la cible choisie."], size=10,
                 leading=12.5) + 14
    section(pdf, y, "Moral", 1)
    found = extract_document(save(pdf, tmp_path / "cited.pdf"))
    entries = {e["title"]: e for e in found["entries"] if e.get("title")}
    assert list(entries) == ["Combat", "Moral"]
    assert "Tactiques avancées" in " ".join(b["text"] for b in entries["Combat"]["blocks"])


def spaced_and_counted(path: Path) -> Path:
    """A components list of counted items under a 16 pt section, then a 13 pt sub-section; a box's
    title in capitals letter-spaced ("R A P P E L" as printed), a row of a figure's single-letter
    labels printed far apart."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Contenu de la boîte"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, ["1 plateau océan", "4 plateaux de rôle", "12 cartes Tempête"], size=10, leading=13) + 6
    y = lines_at(pdf, 50, y, ["Installation"], size=13, style="B") + 6
    y = lines_at(pdf, 50, y, wrapped(pdf, "Placez le navire " + prose(40, 1) + ".", 490, size=10), size=10,
                 leading=12.5) + 12
    pdf.set_char_spacing(2.5)
    y = lines_at(pdf, 50, y, ["RAPPEL"], size=8.5, style="B") + 4
    pdf.set_char_spacing(0)
    y = lines_at(pdf, 50, y, wrapped(pdf, "Les cartes corrigées " + prose(30, 2) + ".", 490, size=10), size=10,
                 leading=12.5) + 12
    pdf.set_font("Helvetica", size=9)
    for k, letter in enumerate("ABCD"):
        pdf.text(80 + 60 * k, y, letter)
    return save(pdf, path)


def test_a_letter_spaced_word_reads_whole_labels_printed_apart_stay_apart(tmp_path):
    lines = [line.text for line in read_pdf(spaced_and_counted(tmp_path / "spaced.pdf"), "spaced.pdf").lines]
    assert "**RAPPEL**" in lines
    assert any(text.split() == ["A", "B", "C", "D"] for text in lines)


def test_one_letter_words_printed_with_word_spaces_stay_words(tmp_path):
    # letters in lower case (a board's files, French one-letter words) and capitals parted by spaces
    pdf = new()
    pdf.add_page()
    y = section(pdf, 60.0, "Le plateau", 0)
    for row in ("a b c d e f g h", "Il y a à", "O X O X"):
        y = lines_at(pdf, 50, y, [row], size=10) + 8
    section(pdf, y, "Fin", 1)
    lines = [line.text.strip("*# ") for line in read_pdf(save(pdf, tmp_path / "letters.pdf"), "letters.pdf").lines]
    for row in ("a b c d e f g h", "Il y a à", "O X O X"):
        assert row in lines


def test_letter_spaced_words_parted_by_a_space_read_as_two_words(tmp_path):
    pdf = new()
    pdf.add_page()
    y = section(pdf, 60.0, "Le plateau", 0)
    pdf.set_char_spacing(3)
    y = lines_at(pdf, 50, y, ["ÉDITIONS BOUSSOLE"], size=10, style="B") + 8
    pdf.set_char_spacing(0)
    section(pdf, y, "Fin", 1)
    lines = [line.text.strip("*# ") for line in read_pdf(save(pdf, tmp_path / "spaced.pdf"), "spaced.pdf").lines]
    assert "ÉDITIONS BOUSSOLE" in lines


def test_a_heading_under_a_components_list_stays_a_heading(tmp_path):
    found = extract_document(spaced_and_counted(tmp_path / "counted.pdf"))
    entries = {e["title"]: e for e in found["entries"] if e.get("title")}
    assert "Installation" in entries and "Tempête" in entries["Contenu de la boîte"]["text"]
    assert "Installation" not in entries["Contenu de la boîte"]["text"]


def table_without_rules(path: Path) -> Path:
    """A 16 pt section; a table printed without rules: its header row in bold labels ("Terrain",
    "Coût", "Effet") over three rows of plain cells starting where the labels start; then text."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Déplacement"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Une unité dépense " + prose(30, 1) + ".", 490, size=10), size=10,
                 leading=12.5) + 10
    for row, style in ((("Terrain", "Coût", "Effet"), "B"), (("Clair", "1", "aucun"), ""), (("Forêt", "2", "+1 défense"), ""),
                       (("Gué", "3", "-1 attaque"), "")):
        pdf.set_font("Helvetica", style=style, size=10)
        for x, cell in zip((50, 160, 230), row, strict=True):
            pdf.text(x, y, cell)
        y += 14
    y = lines_at(pdf, 50, y + 8, wrapped(pdf, "Le joueur " + prose(30, 2) + ".", 490, size=10), size=10, leading=12.5)
    return save(pdf, path)


def test_a_tables_header_row_over_rows_read_as_text_is_no_heading(tmp_path):
    found = extract_document(table_without_rules(tmp_path / "table.pdf"))
    assert [e["title"] for e in found["entries"] if e.get("title")] == ["Déplacement"]
    assert "Terrain Coût Effet" in found["entries"][0]["text"].replace("*", "")


def title_over_chapters(path: Path) -> Path:
    """A cover title in 24 pt bold over chapters in 13 pt bold, and on the last page a reference card
    titled in 16 pt bold: a type larger than the chapters', used once."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Escarmouche à Valmont"], size=24, style="B") + 14
    for k, chapter in enumerate(("1.0 INTRODUCTION", "2.0 LES PIONS", "3.0 SÉQUENCE DE JEU")):
        y = lines_at(pdf, 50, y, [chapter], size=13, style="B") + 6
        y = lines_at(pdf, 50, y, wrapped(pdf, "Chaque joueur " + prose(50, k) + ".", 490, size=10), size=10,
                     leading=12.5) + 12
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["AIDE DE JEU"], size=16, style="B") + 8
    lines_at(pdf, 50, y, wrapped(pdf, "Le tour " + prose(40, 4) + ".", 490, size=10), size=10, leading=12.5)
    return save(pdf, path)


def test_a_cover_title_holds_no_chapter_when_a_larger_type_heads_a_later_page(tmp_path):
    found = extract_document(title_over_chapters(tmp_path / "title.pdf"))
    parents = {e["title"]: e["parent"] for e in found["entries"] if e.get("title")}
    assert parents["INTRODUCTION"] is None and parents["SÉQUENCE DE JEU"] is None and parents["AIDE DE JEU"] is None
