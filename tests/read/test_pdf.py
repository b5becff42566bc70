"""The PDF reader on small PDFs drawn for each layout rule (fpdf2): fast, no external files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from extract.errors import InputError
from extract.read import Reading, read_document
from extract.read.pdf import NO_TEXT, read_pdf
from extract.read.pdf_text import COVER_ALONE, COVER_LINE, SPACE_LEADER, Unit, _render
from extract.text import inline
from tests.read.pdf_maker import (
    CONTENTS,
    SECTIONS,
    block,
    browser_print,
    column_break,
    contents_blank_leaders,
    cover_alone,
    cover_title,
    footnote,
    italic_example,
    lines_at,
    new,
    prose,
    save,
)


def read(path: Path, **kwargs) -> Reading:
    reading = read_pdf(path, path.name, **kwargs)
    check_accounting(reading)
    return reading


def check_accounting(reading: Reading) -> None:
    """Every extracted line 1..N is placed once: as a Line's no, in a Line's covers, or set aside."""
    seen: Counter[int] = Counter()
    for line in reading.lines:
        seen[line.no] += 1
        seen.update(line.covers)
        assert line.page is not None
    for aside in reading.set_aside:
        seen.update(range(aside.lines[0], aside.lines[1] + 1))
    assert set(seen) == set(range(1, reading.lines_read + 1))
    assert all(n == 1 for n in seen.values()), [n for n, k in seen.items() if k != 1]


def texts(reading: Reading) -> list[str]:
    return [line.text for line in reading.lines]


def test_two_columns_read_one_after_the_other(tmp_path):
    pdf = new()
    pdf.add_page()
    block(pdf, 50, 40, 495, "Le titre court au-dessus des deux colonnes", size=18, style="B")
    left = "Alpha commence ici. " + prose(90, 1) + " fin alpha."
    right = "Bravo commence ici. " + prose(90, 2) + " fin bravo."
    block(pdf, 50, 90, 230, left)
    block(pdf, 315, 90, 230, right)
    r = read(save(pdf, tmp_path / "cols.pdf"))
    lines = texts(r)
    assert lines[0] == "# Le titre court au-dessus des deux colonnes"
    alpha = next(i for i, t in enumerate(lines) if "Alpha commence" in t)
    bravo = next(i for i, t in enumerate(lines) if "Bravo commence" in t)
    assert alpha < bravo
    assert "fin alpha." in lines[alpha] and "fin bravo." in lines[bravo]  # each column one paragraph
    assert not any("alpha" in t.lower() and "bravo" in t.lower() for t in lines)  # never interleaved
    assert r.evidence["columns"] == {1: 2}


def test_three_columns_on_a_landscape_page(tmp_path):
    pdf = new(landscape=True)
    pdf.add_page()
    for k, name in enumerate(("Un", "Deux", "Trois")):
        block(pdf, 40 + k * 260, 60, 230, f"Colonne{name} début. " + prose(60, k) + f" fin{name}.")
    r = read(save(pdf, tmp_path / "land.pdf"))
    lines = texts(r)
    assert [next(i for i, t in enumerate(lines) if f"Colonne{n}" in t) for n in ("Un", "Deux", "Trois")] == [0, 1, 2]
    assert all(f"fin{n}." in lines[i] for i, n in enumerate(("Un", "Deux", "Trois")))
    assert r.evidence["columns"] == {1: 3}


def test_running_header_footer_and_page_numbers_set_aside(tmp_path):
    pdf = new()
    for page in range(1, 4):
        pdf.add_page()
        pdf.set_font("Helvetica", size=8)
        pdf.text(50, 30, "Règles du jeu - édition 2024")
        pdf.text(270, 815, f"Page {page} / 3")
        block(pdf, 50, 80, 495, f"Texte de la page {page}. " + prose(40, page))
    r = read(save(pdf, tmp_path / "heads.pdf"))
    body = " ".join(texts(r))
    assert "Règles du jeu" not in body and "Page 2 / 3" not in body
    reasons = [a.reason for a in r.set_aside]
    assert reasons.count("running header repeated on 3 pages") == 3
    assert reasons.count("page number") == 3
    assert any(a.kind == "running-header" for a in r.anomalies)
    assert [line.page for line in r.lines] == [1, 2, 3]


def _lines_at(pdf, x, y, rows, size=10, style=""):
    pdf.set_font("Helvetica", style=style, size=size)
    for k, row in enumerate(rows):
        pdf.text(x, y + k * size * 1.2, row)


def test_paragraph_lines_joined_and_hyphenation_undone(tmp_path):
    pdf = new()
    pdf.add_page()
    _lines_at(pdf, 50, 60, [
        "Le porte-avions avance. Chaque joueur doit lire avec soin la bonne inter-",
        "prétation des règles, puis il prend un porte-",
        "avions et le montre à Jean-",
        "Pierre qui joue ensuite selon les règles habituelles de la partie en cours.",
    ])
    _lines_at(pdf, 50, 160, ["Un autre paragraphe commence ici."])
    r = read(save(pdf, tmp_path / "hyph.pdf"))
    assert texts(r) == [
        "Le porte-avions avance. Chaque joueur doit lire avec soin la bonne interprétation des règles, puis il prend un "
        "porte-avions et le montre à Jean-Pierre qui joue ensuite selon les règles habituelles de la partie en cours.",
        "Un autre paragraphe commence ici.",
    ]
    assert r.lines[0].no == 1 and r.lines[0].covers == (2, 3, 4)
    assert r.lines_read == 5


DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans is absent: the core fonts cannot draw U+2010")
@pytest.mark.parametrize("mark", ["\u2010", "\u00ad"])
def test_a_browsers_hyphenation_mark_ending_a_line_is_undone(tmp_path, mark):
    # Chromium's `hyphens: auto` prints HYPHEN (U+2010), some typesetters SOFT HYPHEN: either at a
    # line's end cut a word, as "-" does
    pdf = new()
    pdf.add_font("DejaVu", "", str(DEJAVU))
    pdf.add_page()
    pdf.set_font("DejaVu", size=10)
    rows = ["Chaque joueur lit les règles avec soin avant la partie. Si deux règles se contre" + mark,
            "disent, le texte d'une carte prévaut toujours sur celui du livret de règles et des aides de jeu.",
            "La partie commence."]
    for k, row in enumerate(rows):
        pdf.text(50, 60 + k * 12, row)
    r = read(save(pdf, tmp_path / "browser-hyphen.pdf"))
    assert texts(r)[0].startswith("Chaque joueur lit les règles avec soin avant la partie. Si deux règles se contredisent, le")


def test_heading_levels_from_sizes_and_bold_heading(tmp_path):
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 495, "Règles de Kiwi", size=22, style="B")
    y = block(pdf, 50, y + 10, 495, "Mise en place", size=16, style="B")
    y = block(pdf, 50, y + 6, 495, prose(40, 3) + ".")
    y = block(pdf, 50, y + 10, 495, "Le tour de jeu", size=13, style="B")
    y = block(pdf, 50, y + 6, 495, prose(40, 4) + ".")
    y = block(pdf, 50, y + 8, 495, "Piocher une carte", size=10, style="B")
    y = block(pdf, 50, y + 2, 495, prose(30, 5) + ".")
    y = block(pdf, 50, y + 8, 495, "Une phrase en gras qui finit par un point.", size=10, style="B")
    block(pdf, 50, y + 2, 495, prose(30, 6) + ".")
    r = read(save(pdf, tmp_path / "heads.pdf"))
    lines = texts(r)
    # the cover's title, in a type no section uses, heads no section: the sizes below it rank them
    assert lines[0] == "# Règles de Kiwi"
    assert "# Mise en place" in lines
    assert "## Le tour de jeu" in lines
    assert "### Piocher une carte" in lines  # bold at body size, followed by body text: lowest level
    assert not any(t.startswith("#") and t.endswith(".") for t in lines)
    assert r.evidence["body_size"] == 10
    assert r.evidence["heading_sizes"][:3] == [22, 16, 13]


def test_heading_levels_are_the_documents_own_types_however_many(tmp_path):
    """Four heading sizes make four levels (a sub-sub-section is not flattened into its section),
    and sizes a point apart (16 on one page, 17 on the next) are one type, one level."""
    pdf = new()
    pdf.add_page()
    y = 40
    for n, (chapter, chapter_size) in enumerate((("Chapitre un", 24), ("Chapitre deux", 24))):
        y = block(pdf, 50, y + 10, 495, chapter, size=chapter_size, style="B")
        y = block(pdf, 50, y + 6, 495, prose(25, n) + ".")
        y = block(pdf, 50, y + 8, 495, f"Section {n + 1}", size=17 - n, style="B")  # 17 then 16: one type
        y = block(pdf, 50, y + 6, 495, prose(25, n + 1) + ".")
        y = block(pdf, 50, y + 8, 495, f"Partie {n + 1}", size=13.5, style="B")
        y = block(pdf, 50, y + 6, 495, prose(20, n + 2) + ".")
        y = block(pdf, 50, y + 8, 495, f"Détail {n + 1}", size=12, style="B")
        y = block(pdf, 50, y + 4, 495, prose(20, n + 3) + ".")
    lines = texts(read(save(pdf, tmp_path / "levels.pdf")))
    level = {t.lstrip("#").strip(): len(t) - len(t.lstrip("#")) for t in lines if t.startswith("#")}
    assert level["Chapitre un"] == level["Chapitre deux"] < level["Section 1"] == level["Section 2"]
    assert level["Section 1"] < level["Partie 1"] == level["Partie 2"] < level["Détail 1"] == level["Détail 2"]


def test_lists_and_steps(tmp_path):
    pdf = new()
    pdf.add_page()
    _lines_at(pdf, 50, 60, ["Pour jouer il faut :"])
    _lines_at(pdf, 60, 80, ["- un plateau de jeu,", "- deux dés et des pions."])
    _lines_at(pdf, 50, 130, ["1. Lancer les dés.", "2. Avancer son pion."])
    r = read(save(pdf, tmp_path / "list.pdf"))
    assert texts(r) == ["Pour jouer il faut :", "- un plateau de jeu,", "- deux dés et des pions.", "1. Lancer les dés.",
                        "2. Avancer son pion."]


def test_ruled_table_as_rows(tmp_path):
    pdf = new()
    pdf.add_page()
    block(pdf, 50, 40, 495, "Le score se lit dans la table suivante, selon les points obtenus.")
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(50, 80)
    with pdf.table(col_widths=(100, 300), width=400, align="LEFT") as table:
        for row in (("Points", "Appréciation"), ("0-5", "horrible"), ("6-10", "médiocre"), ("25", "légendaire")):
            cells = table.row()
            for cell in row:
                cells.cell(cell)
    block(pdf, 50, pdf.get_y() + 20, 495, "Un paragraphe après la table.")
    r = read(save(pdf, tmp_path / "table.pdf"))
    lines = texts(r)
    assert "| Points | Appréciation |" in lines
    assert "| 0-5 | horrible |" in lines and "| 25 | légendaire |" in lines
    assert lines[-1] == "Un paragraphe après la table."
    assert not any("horrible" in t and not t.startswith("|") for t in lines)  # cell text not in the flow
    assert r.evidence["tables"] == 1


def test_doubled_glyphs_removed_and_reported(tmp_path):
    pdf = new()
    pdf.add_page()
    for _ in range(2):
        pdf.set_font("Helvetica", style="B", size=18)
        pdf.text(50, 60, "11. INDUSTRIE")
    block(pdf, 50, 80, 495, prose(30, 7) + ".")
    r = read(save(pdf, tmp_path / "double.pdf"))
    assert texts(r)[0] == "# 11. INDUSTRIE"
    doubled = [a for a in r.anomalies if a.kind == "doubled-glyphs"]
    assert doubled and "13 glyphs" in doubled[0].detail and "pages 1" in doubled[0].detail
    assert doubled[0].lines == [1]


def test_rotated_text_set_aside(tmp_path):
    pdf = new()
    pdf.add_page()
    block(pdf, 80, 60, 400, prose(40, 8) + ".")
    pdf.set_font("Helvetica", size=10)
    with pdf.rotation(90, 40, 600):
        pdf.text(40, 600, "Texte tourné dans la marge")
    r = read(save(pdf, tmp_path / "rot.pdf"))
    assert not any("tourné" in t or "enram" in t for t in texts(r))
    assert any(a.reason == "rotated text" for a in r.set_aside)
    assert any(a.kind == "rotated-text" and a.severity == "warning" for a in r.anomalies)


def test_page_range(tmp_path):
    pdf = new()
    for page in range(1, 4):
        pdf.add_page()
        block(pdf, 50, 80, 495, f"Contenu de la page numéro {page}.")
    path = save(pdf, tmp_path / "range.pdf")
    r = read(path, pages=(2, 3))
    assert texts(r) == ["Contenu de la page numéro 2.", "Contenu de la page numéro 3."]
    assert [line.page for line in r.lines] == [2, 3] and r.pages == 2
    with pytest.raises(InputError, match="outside the document"):
        read_pdf(path, "range.pdf", pages=(3, 5))
    assert read_document(path).format == "pdf"


def _valid(tmp_path) -> bytes:
    pdf = new()
    pdf.add_page()
    block(pdf, 50, 80, 495, prose(200, 9))
    return bytes(pdf.output())


@pytest.mark.parametrize("kind", ["empty", "truncated", "random", "png", "text"])
def test_bad_inputs_raise_input_error(tmp_path, kind):
    data = {
        "empty": b"",
        "truncated": _valid(tmp_path)[:400],
        "random": bytes((i * 97 + 13) % 256 for i in range(5000)),
        "png": b"\x89PNG\r\n\x1a\n" + bytes(200),
        "text": "Des règles en texte, pas un PDF.\n".encode(),
    }[kind]
    path = tmp_path / f"{kind}.pdf"
    path.write_bytes(data)
    with pytest.raises(InputError) as err:
        read_pdf(path, f"{kind}.pdf")
    message = str(err.value)
    assert message.startswith(f"{kind}.pdf: ") and "\n" not in message and "Traceback" not in message


def test_encrypted_pdf_raises_input_error(tmp_path):
    pdf = new()
    pdf.add_page()
    block(pdf, 50, 80, 495, prose(20, 1))
    pdf.set_encryption(owner_password="proprio", user_password="secret")
    path = save(pdf, tmp_path / "locked.pdf")
    with pytest.raises(InputError, match="encrypted"):
        read_pdf(path, "locked.pdf")


def test_no_text_layer_raises_input_error(tmp_path):
    pdf = new()
    pdf.add_page()
    pdf.rect(50, 50, 200, 100, style="F")  # only drawings, like glyphs printed as outlines
    path = save(pdf, tmp_path / "outlines.pdf")
    with pytest.raises(InputError) as err:
        read_pdf(path, "outlines.pdf")
    assert str(err.value) == f"outlines.pdf: {NO_TEXT}"


def test_lines_carry_their_position_and_font(tmp_path):
    pdf = new()
    pdf.add_page()
    y = block(pdf, 60, 40, 480, "Mise en place", size=18, style="B")
    block(pdf, 60, y + 10, 480, prose(30, 2) + ".")
    r = read(save(pdf, tmp_path / "font.pdf"))
    heading, body = r.lines[:2]
    assert heading.text == "# Mise en place" and heading.size == 18 and heading.bold is True
    assert body.size == 10 and body.bold is False and body.page == 1
    assert abs(heading.x - 60) < 5 and heading.y < body.y  # fpdf2 pads its cells by a few points


def test_figure_and_caption_inside_a_column_do_not_cut_the_page(tmp_path):
    """A figure and its caption in the left column, text going on below them, a right column
    beside: the left column is read whole, then the right one (Kahmaté page 3's layout). Two of
    the left column's longest lines end with short words ("à un", "et la") at its margin: they are
    line ends, not a column of bullets beside their text."""
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    edge = 280.0
    left_top = ["alpha le joueur actif pose une carte devant lui puis la passe à un",
                "alpha joueur de son équipe sans la regarder",
                "alpha il la garde en main puis pioche une carte et la",
                "alpha pose enfin devant lui jusqu'au prochain tour."]
    for k, row in enumerate(left_top):
        width = pdf.get_string_width(row)
        pdf.text(edge - width if row.endswith((" un", " la")) else 50, 60 + k * 12, row)
    pdf.rect(50, 115, edge - 50, 110, style="D")  # the figure, inside the left column
    _lines_at(pdf, 50, 238, ["Figure 1 : la carte posée devant le joueur actif", "et la pioche à sa gauche."],
              size=8, style="I")
    _lines_at(pdf, 50, 268, [f"gamma {prose(7, k)}" for k in range(5)] + ["gamma fin de la colonne."])
    _lines_at(pdf, 315, 60, [f"{prose(8, k + 3)} bravo" for k in range(22)])
    r = read(save(pdf, tmp_path / "figure.pdf"))
    lines = texts(r)
    first_bravo = next(i for i, t in enumerate(lines) if "bravo" in t)
    assert all(i < first_bravo for i, t in enumerate(lines) if "alpha" in t or "gamma" in t or "Figure 1" in t)
    assert not any("bravo" in t and ("alpha" in t or "gamma" in t or "Figure" in t) for t in lines)
    caption = next(t for t in lines if "Figure 1" in t)
    assert "bravo" not in caption and "pioche à sa gauche." in caption
    assert r.evidence["columns"] == {1: 2}


def test_labels_of_a_figure_inside_a_column_do_not_cut_the_page(tmp_path):
    """Letters drawn on a figure in the left column ("A", "B" by the players of a diagram) reach
    a little past the text's margin: they sit in the left column, cross no gutter, and the left
    column is still read whole before the right one."""
    pdf = new()
    pdf.add_page()
    above, below = [f"alpha {prose(6, k)}" for k in range(4)], [f"gamma {prose(6, k)}" for k in range(4)]
    _lines_at(pdf, 50, 60, above)
    margin = 50 + max(pdf.get_string_width(t) for t in above + below)
    pdf.rect(50, 110, margin - 50, 110, style="D")
    for k, label in enumerate(("A", "B")):
        pdf.text(margin + 3 - pdf.get_string_width(label), 140 + k * 48, label)
    _lines_at(pdf, 50, 240, ["Figure 2 : les joueurs A et B."], size=8, style="I")
    _lines_at(pdf, 50, 264, below + ["gamma fin de la colonne."])
    _lines_at(pdf, 320, 60, [f"{prose(7, k + 3)} bravo" for k in range(22)])
    lines = texts(read(save(pdf, tmp_path / "labels.pdf")))
    first_bravo = next(i for i, t in enumerate(lines) if "bravo" in t)
    assert all(i < first_bravo for i, t in enumerate(lines) if "alpha" in t or "gamma" in t or "Figure 2" in t)
    assert not any("bravo" in t and ("alpha" in t or "gamma" in t or "Figure" in t) for t in lines)


def test_bold_numbered_headings_smaller_than_the_text_take_their_level_from_the_numbering(tmp_path):
    r = read(browser_print(tmp_path / "print.pdf"))
    headings = [t for t in texts(r) if t.startswith("#")]
    assert headings == ["#" * (title.split()[0].rstrip(".").count(".") + 1) + " " + title for title in SECTIONS]
    assert headings[:2] == ["# 1. Présentation", "## 1.1 Matériel"]


def test_running_header_split_by_the_columns_of_one_page_is_still_set_aside(tmp_path):
    # On the last page, whose text fills the left column only, the column cut splits the header
    # line: "14/03/2025 10:42 Règles…" on the left, the address on the right.
    r = read(browser_print(tmp_path / "print.pdf"))
    assert r.pages == 3
    assert not any("14/03/2025" in t or "example.org" in t for t in texts(r))
    header = [a for a in r.set_aside if a.reason.startswith("running header")]
    assert len(header) >= 3
    # and the paragraph cut by the page break goes on across it, in the next page's left column
    last = [line for line in r.lines if line.page == 3]
    assert not last[0].text[:1].islower()


def test_a_heading_the_next_page_continues_is_no_running_header(tmp_path):
    # "Mise en place du jeu" holds in "Mise en place du jeu (suite)" on the next page, but that is a
    # heading carried over, not a header line the column cut split: both headings stay.
    pdf = new()
    heads = ["Mise en place du jeu", "Mise en place du jeu (suite)", "Le tour de jeu", "La fin de partie"]
    for i, head in enumerate(heads):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.text(40, 60, head)
        block(pdf, 40, 80, 500, f"Texte{i} " + prose(120, i) + ".")
    r = read(save(pdf, tmp_path / "suite.pdf"))
    assert [t for t in texts(r) if t.startswith("#")] == ["# " + head for head in heads]
    assert not any(a.kind == "running-header" for a in r.anomalies)
    assert not any(a.reason.startswith("running") for a in r.set_aside)


def test_a_t1_font_read_as_the_standard_encoding_is_read_again():
    """LaTeX's T1 puts è, é, ê where Adobe's standard encoding has Ł, Ø, Œ, and à, â, the
    ligatures where it has nothing ((cid:N)): words carrying them are read again, others kept."""
    from extract.read.pdf_text import T1_SIGNATURE_WORDS, _repair_t1, _t1_signed

    texts = ["RŁgles de base", "la quantitØ de dØg(cid:226)ts", "un jdr o(cid:27)re (cid:224) Œtre jouØ",
             "Œuvre citée, 3 × 2, « ça »"]
    assert _t1_signed(texts) == 4 >= T1_SIGNATURE_WORDS
    words: list[tuple[int, str, str]] = []
    repaired = [_repair_t1(text, n, words) for n, text in enumerate(texts)]
    assert repaired == ["Règles de base", "la quantité de dégâts", "un jdr offre à être joué", "êuvre citée, 3 × 2, « ça »"]
    assert (0, "RŁgles", "Règles") in words
    assert _t1_signed(["Œuvre de Łódź, Ørsted", "la quantité"]) < T1_SIGNATURE_WORDS  # a name or two: no T1 font


def test_a_footnote_goes_after_the_paragraph_holding_its_mark_not_inside_the_sentence_it_interrupts(tmp_path):
    r = read(footnote(tmp_path / "note.pdf"))
    lines = texts(r)
    assert any(t.endswith("ensuite, les joueurs alternent. " + prose(10, 3) + ".") for t in lines)
    marked = next(i for i, t in enumerate(lines) if "unité¹" in t)
    assert lines[marked + 1] == "¹ Les chefs ne sont pas des unités (voir Ralliement)."
    assert any(a.kind == "footnote" for a in r.anomalies)


def test_a_paragraph_going_on_in_the_next_column_on_a_number_is_joined(tmp_path):
    lines = texts(read(column_break(tmp_path / "colonnes.pdf")))
    assert any("réduites de 1, sans jamais descendre sous 1." in t for t in lines)
    # ragged right: "chef." ends a line only because "Sinon," had no room after it; the page-wide
    # header of the last page is no measure of its left column's lines
    assert "La partie prend fin immédiatement si un joueur n'a plus aucune unité en jeu ou s'il échoue à un test " \
           "de moral alors qu'il n'a plus de chef. Sinon, elle s'achève à la fin du sixième tour." in lines


def test_a_cover_title_block_is_one_heading_above_no_section_and_its_subtitle_set_aside(tmp_path):
    r = read(cover_title(tmp_path / "couverture.pdf"))
    headings = [t for t in texts(r) if t.startswith("#")]
    # "Corsaires de" is no piece of the running header "Corsaires de Brume": it prints in the title's type
    assert headings == ["# Corsaires de Brume"] + [f"# Section {c}" for c in "ABCDEF"]
    assert [a.reason for a in r.set_aside if a.reason.startswith("subtitle")] == ["subtitle in the cover's title block"]
    assert not any("Escarmouches" in t for t in texts(r))


def test_a_full_stop_then_a_paragraph_gap_ends_the_paragraph_even_where_the_next_word_had_no_room(tmp_path):
    pdf = new()
    pdf.add_page()
    first = ["Le premier paragraphe tient sur deux lignes de texte imprimé et finit sur la",
             "ligne suivante par une phrase close qui laisse un peu de place."]
    y = lines_at(pdf, 50, 60, first)
    # the next word has no room after "place." but a blank stands between: a new paragraph
    lines_at(pdf, 50, y + 3, ["Anticonstitutionnellement le second paragraphe commence ici, après un blanc."])
    lines = texts(read(save(pdf, tmp_path / "blanc.pdf")))
    assert lines == [" ".join(first), "Anticonstitutionnellement le second paragraphe commence ici, après un blanc."]


def _runs_at(pdf, x: float, y: float, runs: list[tuple[str, str]], size: float = 9) -> None:
    """One printed line made of (text, style) runs side by side."""
    for text, style in runs:
        pdf.set_font("Helvetica", style=style, size=size)
        pdf.text(x, y, text)
        x += pdf.get_string_width(text)


def test_a_bold_word_wrapped_to_the_start_of_a_line_goes_on_with_its_sentence(tmp_path):
    pdf = new()
    pdf.add_page()
    full = "Retournez trois cartes face visible au centre de la table pour commencer : c'est la"
    _runs_at(pdf, 50, 60, [(full, "")])
    _runs_at(pdf, 50, 71, [("Grève", "B"), (".", "")])
    _runs_at(pdf, 50, 100, [(full, "")])
    _runs_at(pdf, 50, 111, [("Défausse", "B"), (" : la pile de cartes face visible.", "")])
    _runs_at(pdf, 50, 140, [(full, "")])
    _runs_at(pdf, 50, 151, [("Exemple.", "B"), (" Le joueur pose une carte.", "")])
    r = read(save(pdf, tmp_path / "bold-wrap.pdf"))
    assert texts(r) == [
        f"{full} **Grève**.",
        full, "**Défausse** : la pile de cartes face visible.",  # a run-in term opens its paragraph
        full, "**Exemple.** Le joueur pose une carte.",
    ]


@pytest.mark.parametrize("label", ["§12", "[12]", "12)"])
def test_a_label_in_the_margin_opens_its_paragraph_whose_lines_align_on_the_text(tmp_path, label):
    pdf = new()
    pdf.add_page()
    first = "Une unité activée peut se déplacer de sa valeur de mouvement, dix centimètres pour"
    _runs_at(pdf, 50, 60, [(label, "B")])
    lines_at(pdf, 110, 60, [first, "l'infanterie et vingt pour la cavalerie."])
    _runs_at(pdf, 50, 90, [(label.replace("12", "13"), "B")])
    lines_at(pdf, 110, 90, ["Un bois réduit de moitié le mouvement."])
    r = read(save(pdf, tmp_path / "labels.pdf"))
    assert texts(r) == [f"**{label}** {first} l'infanterie et vingt pour la cavalerie.",
                        f"**{label.replace('12', '13')}** Un bois réduit de moitié le mouvement."]


def test_contents_lines_with_leaders_and_index_lines_each_stand_alone(tmp_path):
    pdf = new()
    pdf.add_page()
    lines_at(pdf, 50, 60, ["Introduction " + "." * 60 + " 3", "Le tour de jeu " + "." * 57 + " 5",
                           "Combat " + ". " * 30 + "7"], family="Courier")
    lines_at(pdf, 50, 120, ["Archers, 3, 9", "Ordres (points d'), 5", "Moral, 4, 8, 9"])
    r = read(save(pdf, tmp_path / "contents.pdf"))
    assert texts(r) == ["Introduction " + "." * 60 + " 3", "Le tour de jeu " + "." * 57 + " 5", "Combat " + ". " * 30 + "7",
                        "Archers, 3, 9", "Ordres (points d'), 5", "Moral, 4, 8, 9"]


def test_contents_lines_with_blank_leaders_stand_alone_their_gap_kept(tmp_path):
    lines = texts(read(contents_blank_leaders(tmp_path / "sommaire.pdf")))
    assert lines[:5] == ["# Sommaire", *(f"{title}{SPACE_LEADER}{page}" for title, page in CONTENTS)]
    assert lines[-1] == "Total 12"  # one line ending on a number after a gap is no contents list


@pytest.mark.parametrize("rows", [
    (("100", "12"), ("150", "16"), ("200, 250, 300", "20")),  # numbers far from numbers: no titles
    (("Victoire", "3"), ("Égalité", "1"), ("Défaite", "0")),  # a table of scores: no book's pages go back
])
def test_rows_far_apart_that_are_no_contents_list(tmp_path, rows):
    pdf = new()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for k, (left, right) in enumerate(rows):
        pdf.text(50, 100 + k * 14, left)
        pdf.text(300, 100 + k * 14, right)
    assert not any(SPACE_LEADER in line for line in texts(read(save(pdf, tmp_path / "rows.pdf"))))


INDEX_TERMS = ["Archers, 3, 9", "Attaque, 7, 9", "Bois, 6, 7", "Charge, 6, 7", "Colline, 6, 7", "Déploiement, 4",
               "Désordre, 3, 6, 8", "Déroute, 3, 8", "Général, 4, 8", "Initiative, 5", "Moral, 4, 8, 9",
               "Ordres (points d'), 5", "Ralliement, 8", "Tir, 7"]


def test_an_index_in_three_narrow_columns_is_read_column_by_column(tmp_path):
    # its columns are narrower than a column of prose (which a tab stop inside a list would be too):
    # that they hold index lines makes them columns
    pdf = new(landscape=True)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.text(113, 60, "Index")
    for c, chunk in enumerate([INDEX_TERMS[0:5], INDEX_TERMS[5:10], INDEX_TERMS[10:]]):
        lines_at(pdf, 113 + c * 225, 97, chunk, size=11, leading=14)
    r = read(save(pdf, tmp_path / "index3.pdf"))
    assert texts(r) == ["# Index", *INDEX_TERMS]
    assert r.evidence["columns"] == {1: 3}


def test_italic_is_kept_as_emphasis_beside_bold_and_a_wholly_italic_paragraph_keeps_it(tmp_path):
    lines = texts(read(italic_example(tmp_path / "italique.pdf")))
    assert lines[1] == "Une carte *prise* dans la **Grève** est remplacée."
    assert lines[3] == ("*Léa pioche une carte : c'est une carte Marée ! Elle la pose au centre et termine son tour "
                        "en défaussant une Algue.*")
    # the text itself is unchanged: the markers are Markdown's emphasis, gone from the plain text
    assert inline(lines[3])[0].startswith("Léa pioche") and inline(lines[3])[0].endswith("Algue.")
    assert lines[4] == "2. *Elle pioche encore une carte.*"  # the step's number stays a step's


def test_an_italic_run_markdown_cannot_mark_is_left_plain():
    # a slanted letter inside a word: "*" there would stay in the text
    unit = Unit([], "text", 0, [("l", False, False), ("a", False, True), ("b", True, False), (" c", False, True)])
    assert _render(unit) == "la**b** c"


def test_a_cover_page_holding_only_the_title_makes_no_entry_and_bold_names_over_tables_nest(tmp_path):
    r = read(cover_alone(tmp_path / "livret.pdf"))
    lines = texts(r)
    # the title alone on its page (the subtitle aside) heads no text: set aside, with its reason
    assert [a.reason for a in r.set_aside] == [COVER_ALONE, "subtitle in the cover's title block"]
    assert lines[0] == "# Introduction" and not any("Fer et Bannières" in t for t in lines)
    # the tables' names, bold over the tables of the quick reference, are headings under it
    i = lines.index("# Aide de jeu")
    assert lines[i + 1:] == ["## Terrain", "| Terrain | Infanterie |", "| Bois | moitié |",
                             "## Pertes de moral", "| Événement | Moral |", "| Unité détruite | -2 |"]
    assert r.evidence["heading_levels"] == 2


def test_labels_of_a_vector_drawing_are_set_aside_never_headings_nor_in_a_sentence(tmp_path):
    """A card diagram drawn with strokes (no image): its capitalised labels and its "x 2" are the
    drawing's, set aside with their page; the text beside it, and a shaded box of prose, stay text."""
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 495, "Les cartes", size=16, style="B")
    y = block(pdf, 50, y + 6, 495, prose(40, 1) + " et la carte se lit ainsi, de haut en bas, avant la pioche.")
    top = y + 20
    pdf.set_draw_color(0, 0, 0)
    pdf.rect(60, top, 120, 170)  # the card
    pdf.rect(70, top + 10, 100, 60)  # its picture
    pdf.ellipse(75, top + 80, 20, 20)  # its cost
    pdf.ellipse(145, top + 80, 20, 20)  # its strength
    pdf.line(60, top + 110, 180, top + 110)
    pdf.rect(70, top + 120, 100, 40)  # its text box
    for x, dy, label in ((190, 20, "ILLUSTRATION"), (190, 88, "COÛT"), (100, 86, "x 2"), (190, 135, "POUVOIR")):
        pdf.set_font("Helvetica", style="B", size=9)
        pdf.text(x if x < 180 else 185, top + dy, label)
    pdf.line(180, top + 18, 185, top + 18)
    pdf.line(165, top + 90, 185, top + 86)
    y = block(pdf, 50, top + 190, 495, "Le tour de jeu", size=16, style="B")
    pdf.set_fill_color(230, 230, 230)
    pdf.rect(50, y + 6, 495, 60, style="F")
    block(pdf, 55, y + 10, 480, "Exemple : " + prose(45, 2) + ".")
    r = read(save(pdf, tmp_path / "diagram.pdf"))
    lines = texts(r)
    labels = ("ILLUSTRATION", "COÛT", "x 2", "POUVOIR")
    assert not any(label in t for t in lines for label in labels), lines
    aside = [a for a in r.set_aside if a.reason in ("label of a drawing", "label inside a figure")]
    assert sum(a.lines[1] - a.lines[0] + 1 for a in aside) == 3  # three printed rows ("x 2" beside "COÛT")
    assert "## Le tour de jeu" in lines or "# Le tour de jeu" in lines
    assert any(t.startswith("Exemple : ") and t.endswith(".") for t in lines)  # the shaded box stays text
    assert any(t.endswith("avant la pioche.") for t in lines)


def booklet(path: Path) -> Path:
    """A landscape sheet holding two pages of a booklet: the left page in two columns under its
    heading, the right page in one column under its own, both headings on the same row; each
    page's number at its foot."""
    pdf = new(landscape=True)
    pdf.add_page()
    half = 421
    block(pdf, 40, 40, 340, "MISE EN PLACE", size=16, style="B")
    for col, x in enumerate((40, 215)):
        block(pdf, x, 70, 160, f"Colonne {col + 1} : " + prose(70, col) + ".")
    block(pdf, half + 40, 40, 340, "FIN DE LA PARTIE", size=16, style="B")
    block(pdf, half + 40, 70, 340, "La partie finit ainsi : " + prose(60, 5) + ".")
    block(pdf, half + 40, 200, 340, "Le vainqueur " + prose(40, 6) + ".")
    pdf.set_font("Helvetica", size=9)
    pdf.text(210, 570, "2")
    pdf.text(half + 210, 570, "3")
    return save(pdf, path)


def test_two_pages_on_one_landscape_sheet_are_read_left_then_right(tmp_path, monkeypatch):
    r = read(booklet(tmp_path / "livret.pdf"))
    lines = texts(r)
    assert "# MISE EN PLACE" in lines and "# FIN DE LA PARTIE" in lines  # never fused into one heading
    at = {name: next(i for i, t in enumerate(lines) if name in t) for name in
          ("MISE EN PLACE", "Colonne 1", "Colonne 2", "FIN DE LA PARTIE", "La partie finit", "Le vainqueur")}
    assert at["MISE EN PLACE"] < at["Colonne 1"] < at["Colonne 2"] < at["FIN DE LA PARTIE"] < at["La partie finit"] \
        < at["Le vainqueur"]
    assert r.evidence["imposed_pages"] == [1]
    assert any(a.kind == "pages-imposed" for a in r.anomalies)


def test_a_cover_block_is_a_cover_not_the_parent_of_the_rules(tmp_path):
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 40, 495, "Kiwi", size=30, style="B")
    for line in ("De 3 à 5 joueurs", "À partir de 8 ans", "30 min"):
        y = block(pdf, 50, y + 4, 495, line, size=14, style="B")
    y = block(pdf, 50, y + 20, 495, "Matériel", size=18, style="B")
    y = block(pdf, 50, y + 6, 495, prose(40, 1) + ".")
    y = block(pdf, 50, y + 12, 495, "Mise en place", size=18, style="B")
    block(pdf, 50, y + 6, 495, prose(40, 2) + ".")
    r = read(save(pdf, tmp_path / "cover.pdf"))
    lines = texts(r)
    assert not any("joueurs" in t or "8 ans" in t or "30 min" in t for t in lines)
    assert sum(a.lines[1] - a.lines[0] + 1 for a in r.set_aside if a.reason == COVER_LINE) == 3
    heads = [t for t in lines if t.startswith("#")]
    level = {t.lstrip("#").strip(): len(t) - len(t.lstrip("#")) for t in heads}
    assert level["Matériel"] == level["Mise en place"]


def test_a_numbered_chapter_heading_opening_each_page_is_no_running_header(tmp_path):
    """"Chapitre 1", "Chapitre 2"… in large bold type at the top of each page differ only by their
    number, as a running header's "Page 3" does: they are headings all the same; the small header
    repeated above them, word for word, is set aside."""
    pdf = new()
    for page in range(4):
        pdf.add_page()
        pdf.set_font("Helvetica", size=8)
        pdf.text(50, 25, "Règles de la Course de Chars")
        block(pdf, 50, 40, 495, f"Chapitre {page + 1}", size=16, style="B")
        block(pdf, 50, 70, 495, prose(120, page) + ".")
    r = read(save(pdf, tmp_path / "chapters.pdf"))
    headings = [t for t in texts(r) if t.startswith("#")]
    assert [h.lstrip("# ") for h in headings] == [f"Chapitre {n}" for n in range(1, 5)]
    assert not any("Course de Chars" in t for t in texts(r))
    assert any(a.reason.startswith("running header") for a in r.set_aside)
