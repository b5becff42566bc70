"""A designed booklet's page furniture and types (extract/read/pdf.py, pdf_text.py; issue 33): a sheet
holding a centred cover beside a page of rules is two pages; heading sizes near one another are
ranked by the type's largest size, not chained from one to the next; a small running header naming
the page's chapter (alone, or after the book's name) is furniture, never a heading."""

from __future__ import annotations

from extract.read.pdf import read_pdf
from extract.read.pdf_text import size_levels
from tests.read.pdf_maker import lines_at, new, prose, save, wrapped


def cover_beside_rules(path):
    """A landscape sheet: on the left, a cover centred in its half (it stops well short of the fold);
    on the right, a page of rules whose text reaches the fold's margin."""
    pdf = new(landscape=True)
    pdf.add_page()
    lines_at(pdf, 120, 200, ["Les Lucioles"], size=24, style="B")
    lines_at(pdf, 140, 240, ["Règle du jeu", "", "Éditions de la Nuit"], size=12, leading=16)
    y = lines_at(pdf, 450, 60, ["PRÉSENTATION"], size=13, style="B") + 8
    y = lines_at(pdf, 450, y, wrapped(pdf, "La nuit tombe " + prose(60, 1) + ".", 340, size=9), size=9, leading=11) + 10
    y = lines_at(pdf, 450, y, ["MISE EN PLACE"], size=13, style="B") + 8
    lines_at(pdf, 450, y, wrapped(pdf, "Chaque joueur " + prose(60, 2) + ".", 340, size=9), size=9, leading=11)
    return save(pdf, path)


def test_a_centred_cover_beside_a_page_of_rules_is_two_pages(tmp_path):
    r = read_pdf(cover_beside_rules(tmp_path / "sheet.pdf"), "sheet.pdf")
    assert r.evidence["imposed_pages"] == [1]
    # the cover first, its title a sibling of the right page's sections, its subtitle set aside
    assert [line.text for line in r.lines if line.text.startswith("#")] == ["# Les Lucioles", "# PRÉSENTATION",
                                                                            "# MISE EN PLACE"]
    assert [item.reason for item in r.set_aside] == ["subtitle in the cover's title block"]


def test_sizes_a_point_apart_are_one_type_but_do_not_chain_down_to_the_next_type():
    # 13 and 12 one type; 11 two points under 13 opens the next, 10.5 with it
    assert size_levels([24, 13, 12, 11, 10.5]) == {24: 1, 13: 2, 12: 2, 11: 3, 10.5: 3}
    assert size_levels([17, 16, 13]) == {17: 1, 16: 1, 13: 2}


def chapter_headers(path):
    """Three pages, each under a small header naming the book and the page's chapter (the chapter
    printed in 14 pt below it), the last page's header naming its chapter alone."""
    pdf = new()
    for page, chapter in enumerate(("PRÉSENTATION", "TOUR DE JEU", "FIN DE LA PARTIE")):
        pdf.add_page()
        header = [chapter] if page == 2 else [f"Les Lucioles   {chapter}"]
        lines_at(pdf, 350, 30, header, size=7)
        if page == 1:
            lines_at(pdf, 50, 30, ["Les Lucioles"], size=7)
        y = lines_at(pdf, 50, 90, [chapter], size=14, style="B") + 8
        lines_at(pdf, 50, y, wrapped(pdf, f"{chapter.capitalize()} " + prose(80, page) + ".", 490, size=10),
                 size=10, leading=12.5)
    return save(pdf, path)


def test_a_small_running_header_naming_the_chapter_is_no_heading(tmp_path):
    r = read_pdf(chapter_headers(tmp_path / "headers.pdf"), "headers.pdf")
    headings = [line.text for line in r.lines if line.text.startswith("#")]
    assert headings == ["# PRÉSENTATION", "# TOUR DE JEU", "# FIN DE LA PARTIE"]
    assert not any("Lucioles" in line.text for line in r.lines)
    reasons = {item.reason for item in r.set_aside}
    assert "running header naming the chapter" in reasons


def footnotes_ending_on_a_chapter(path):
    """Two pages of two chapters each, a footnote in 8 pt at the foot of each page whose last words
    are a chapter's name ("… effectuer de tir" over the page opening "Tir")."""
    pdf = new()
    notes = ("* Une figurine engagée au corps à corps ne peut jamais effectuer de tir",
             "* Une figurine qui fuit ne compte pas pour la fin de partie")
    for chapters, note in zip((("Mise en place", "Déplacement"), ("Tir", "Fin de partie")), notes, strict=True):
        pdf.add_page()
        y = 100
        for chapter in chapters:
            y = lines_at(pdf, 40, y + 8, [chapter], size=16, style="B") + 6
            y = lines_at(pdf, 40, y, wrapped(pdf, "Le " + prose(120, len(chapter)) + ".", 500, size=10),
                         size=10, leading=12.5) + 6
        lines_at(pdf, 40, 790, [note], size=8)
    return save(pdf, path)


def test_a_footnote_ending_on_a_chapters_name_is_no_running_header(tmp_path):
    r = read_pdf(footnotes_ending_on_a_chapter(tmp_path / "footnote.pdf"), "footnote.pdf")
    text = " ".join(line.text for line in r.lines)
    assert "ne peut jamais effectuer de tir" in text
    assert "ne compte pas pour la fin de partie" in text
    assert not any(a.kind == "running-header" for a in r.anomalies)


def narrow_column_titles(path):
    """A narrow column whose titles wrap, their last line in lower case ("Le matériel" | "nécessaire",
    "Les profils des" | "combattants"), and a paragraph in the titles' type and weight whose second
    line opens in lower case too (it holds commas: no title)."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 40, 60, ["Le matériel", "nécessaire"], size=15, style="B", leading=18) + 8
    y = lines_at(pdf, 40, y, wrapped(pdf, "Des figurines " + prose(40, 1) + ".", 160, size=8.5), size=8.5, leading=10.5) + 14
    y = lines_at(pdf, 40, y, ["Les profils des", "combattants"], size=11, style="B", leading=13) + 6
    y = lines_at(pdf, 40, y, wrapped(pdf, "Chaque combattant " + prose(40, 2) + ".", 160, size=8.5), size=8.5, leading=10.5) + 14
    y = lines_at(pdf, 40, y, ["Imaginez une table, de jour", "et de nuit, avec vos amis."], size=15, style="B", leading=18) + 8
    lines_at(pdf, 40, y, wrapped(pdf, "La suite " + prose(40, 3) + ".", 160, size=8.5), size=8.5, leading=10.5)
    return save(pdf, path)


def test_a_title_wrapped_in_a_narrow_column_is_one_heading_though_its_last_line_opens_in_lower_case(tmp_path):
    r = read_pdf(narrow_column_titles(tmp_path / "narrow.pdf"), "narrow.pdf")
    headings = [line.text for line in r.lines if line.text.startswith("#")]
    assert headings == ["# Le matériel nécessaire", "## Les profils des combattants"]


def leaflet_outside_second(path):
    """A two-page leaflet printed outside second: page 1 opens mid-chapter on a bold sub-heading in the
    text's size ("3. Jouer une carte"), then a chapter; page 2 holds the title (the only line in 20 pt),
    the first chapters in 12 pt bold and the sub-headings "1." and "2." of the chapter page 1 goes on."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["3. Jouer une carte"], size=9, style="B") + 4
    y = lines_at(pdf, 50, y, wrapped(pdf, "Le joueur pose " + prose(40, 1) + ".", 480, size=9), size=9) + 10
    y = lines_at(pdf, 50, y, ["Fin de partie"], size=12, style="B") + 4
    lines_at(pdf, 50, y, wrapped(pdf, "La partie prend fin " + prose(40, 2) + ".", 480, size=9), size=9)
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Feux"], size=20, style="B") + 10
    for chapter, subs in (("Matériel", ()), ("La partie", ("1. Donner une information", "2. Défausser une carte"))):
        y = lines_at(pdf, 50, y, [chapter], size=12, style="B") + 4
        y = lines_at(pdf, 50, y, wrapped(pdf, f"{chapter} : " + prose(30, 3) + ".", 480, size=9), size=9) + 8
        for sub in subs:
            y = lines_at(pdf, 50, y, [sub], size=9, style="B") + 4
            y = lines_at(pdf, 50, y, wrapped(pdf, "Le joueur " + prose(30, 4) + ".", 480, size=9), size=9) + 8
    return save(pdf, path)


def test_a_leaflet_printed_outside_second_is_read_from_its_title_page(tmp_path):
    r = read_pdf(leaflet_outside_second(tmp_path / "leaflet.pdf"), "leaflet.pdf")
    headings = [line.text.lstrip("#").strip() for line in r.lines if line.text.startswith("#")]
    assert headings == ["Feux", "Matériel", "La partie", "1. Donner une information", "2. Défausser une carte",
                        "3. Jouer une carte", "Fin de partie"]
    assert [line.page for line in r.lines][:1] == [2]
    assert any(a.kind == "page-order-repaired" for a in r.anomalies)


def test_pages_opening_on_a_chapter_keep_their_order(tmp_path):
    r = read_pdf(chapter_headers(tmp_path / "headers.pdf"), "headers.pdf")
    assert [line.page for line in r.lines] == sorted(line.page for line in r.lines)
    assert not any(a.kind == "page-order-repaired" for a in r.anomalies)


def callout_on_a_rules_page(path):
    """Three pages of rules in order, the first opening on a bold line in the text's size (no title
    printed: a logo), the second holding a unique large callout in mid-page ("A L'ABORDAGE !") below two
    chapters."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 40, 60, ["Bienvenue dans le monde des pirates !"], size=10, style="B") + 4
    y = lines_at(pdf, 40, y, wrapped(pdf, "Le " + prose(60, 1) + ".", 500, size=10), size=10, leading=12.5) + 10
    for page, chapters in enumerate((("Matériel", "Mise en place"), ("Tour de jeu", "Combat"), ("Fin de partie", "Variantes"))):
        if page:
            pdf.add_page()
            y = 60
        for chapter in chapters:
            y = lines_at(pdf, 40, y + 8, [chapter], size=16, style="B") + 6
            y = lines_at(pdf, 40, y, wrapped(pdf, "Le " + prose(80, len(chapter)) + ".", 500, size=10), size=10,
                         leading=12.5) + 6
        if page == 1:
            y = lines_at(pdf, 150, y + 30, ["A L'ABORDAGE !"], size=28, style="B") + 6
            lines_at(pdf, 40, y, wrapped(pdf, "Le " + prose(60, 9) + ".", 500, size=10), size=10, leading=12.5)
    return save(pdf, path)


def test_a_unique_large_callout_in_mid_page_does_not_reorder_the_pages(tmp_path):
    r = read_pdf(callout_on_a_rules_page(tmp_path / "callout.pdf"), "callout.pdf")
    assert [line.page for line in r.lines] == sorted(line.page for line in r.lines)
    assert not any(a.kind == "page-order-repaired" for a in r.anomalies)


def test_a_page_range_is_read_in_the_order_given(tmp_path):
    r = read_pdf(leaflet_outside_second(tmp_path / "leaflet.pdf"), "leaflet.pdf", pages=(1, 2))
    assert [line.page for line in r.lines] == sorted(line.page for line in r.lines)
    assert not any(a.kind == "page-order-repaired" for a in r.anomalies)


def three_narrow_columns(path):
    """A landscape page of rules in three narrow columns (x 40, 300, 560; 110 pt wide): white bands
    on both sides of the middle, neither a fold."""
    pdf = new(landscape=True)
    pdf.add_page()
    lines_at(pdf, 40, 50, ["Le Sablier Fou"], size=22, style="B")
    for k, (x, title) in enumerate(zip((40, 300, 560), ("Mise en place", "Tour de jeu", "Fin de partie"), strict=True)):
        y = lines_at(pdf, x, 100, [title], size=16, style="B") + 6
        lines_at(pdf, x, y, wrapped(pdf, f"{title} : " + prose(40, k) + ".", 110, size=10), size=10, leading=12.5)
    return save(pdf, path)


def test_three_narrow_columns_on_a_landscape_page_are_one_page(tmp_path):
    r = read_pdf(three_narrow_columns(tmp_path / "narrow.pdf"), "narrow.pdf")
    assert r.evidence["imposed_pages"] == []
    headings = [line.text for line in r.lines if line.text.startswith("#")]
    assert headings == ["# Le Sablier Fou", "# Mise en place", "# Tour de jeu", "# Fin de partie"]
