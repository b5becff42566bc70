"""Small PDFs drawn with fpdf2 for the PDF reader's tests: each one shows one layout rule."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

WORDS = ("le joueur actif pose une carte devant lui puis pioche une nouvelle carte sans la regarder "
         "et la garde en main jusqu'au prochain tour de jeu").split()


def prose(n: int, seed: int = 0) -> str:
    """n words of plausible French, deterministic."""
    return " ".join(WORDS[(seed + i * 7) % len(WORDS)] for i in range(n))


def new(landscape: bool = False) -> FPDF:
    pdf = FPDF(orientation="L" if landscape else "P", unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=10)
    return pdf


def block(pdf: FPDF, x: float, y: float, width: float, text: str, size: float = 10, style: str = "", leading: float = 1.25) -> float:
    """Wrapped text in a box at (x, y); returns the y below it."""
    pdf.set_font("Helvetica", style=style, size=size)
    pdf.set_xy(x, y)
    pdf.multi_cell(width, size * leading, text, align="L")
    return pdf.get_y()


def save(pdf: FPDF, path: Path) -> Path:
    pdf.output(str(path))
    return path


# The sections of a newcomer's browser-printed rules ("Course de Chars"): decimal numbers, two levels.
SECTIONS = ("1. Présentation", "1.1 Matériel", "1.2 But du jeu", "2. Mise en place", "2.1 Ordre du tour",
            "3. Déplacement", "3.1 Sortie de piste", "3.2 Dépassement", "4. Fouet", "4.1 Riposte", "5. Fin de partie",
            "6. Variantes", "6.1 Partie en équipes", "7. Résumé d'un tour", "7.1 Cas particuliers")


def browser_print(path: Path) -> Path:
    """A browser's print of an HTML page: landscape, two columns, a running header in three pieces
    (date, title, address) on every page; bold section headings "1." / "1.1" printed smaller than the
    text; the last page's text in the left column only. Section 3 cites "(voir 3.2)"."""
    pdf = new(landscape=True)
    top, bottom, col_x = 60, 540, (40, 440)
    col, y = 0, top

    def page() -> None:
        style, size = pdf.font_style, pdf.font_size_pt
        pdf.add_page()
        pdf.set_font("Helvetica", size=8)
        pdf.text(25, 30, "14/03/2025 10:42")
        pdf.text(330, 30, "Règles de Course de Chars")
        pdf.text(640, 30, "https://example.org/cirque/regles.html")
        pdf.text(25, 575, "https://example.org/regles.html")
        pdf.text(800, 575, f"{pdf.page_no()}/3")
        pdf.set_font("Helvetica", style=style, size=size)

    page()
    for seed, title in enumerate(SECTIONS):
        cite = " (voir 3.2)" if title.startswith("3. ") else ""
        text = f"Le {title.split()[-1].lower()} " + prose(50 if seed < 14 else 20, seed) + cite + "."
        pdf.set_font("Helvetica", style="B", size=11)
        if y + 60 > bottom:
            col, y = col + 1, top + 16  # not on the same row as the other column's first line
            if col == 2:
                page()
                col = 0
        pdf.text(col_x[col], y, title)
        y += 22
        pdf.set_font("Helvetica", size=14)
        line = ""
        for word in text.split():
            if pdf.get_string_width(f"{line} {word}".strip()) > 350:
                if y > bottom:
                    col, y = col + 1, top
                    if col == 2:
                        page()
                        col = 0
                pdf.text(col_x[col], y, line)
                y += 21
                line = word
            else:
                line = f"{line} {word}".strip()
        pdf.text(col_x[col], y, line)
        y += 32
    assert pdf.page_no() == 3 and col == 0  # the layout the reader has to cope with
    return save(pdf, path)


def lines_at(pdf: FPDF, x: float, y: float, lines: list[str], size: float = 9, style: str = "",
             family: str = "Helvetica", leading: float = 11) -> float:
    """Lines printed one under the other from (x, y), baseline first; returns the next baseline."""
    pdf.set_font(family, style=style, size=size)
    for line in lines:
        pdf.text(x, y, line)
        y += leading
    return y


def wrapped(pdf: FPDF, text: str, width: float, size: float = 9, family: str = "Helvetica") -> list[str]:
    """`text` cut into lines no wider than `width` at that font."""
    pdf.set_font(family, size=size)
    out, cur = [], ""
    for word in text.split():
        if cur and pdf.get_string_width(f"{cur} {word}") > width:
            out.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}".strip()
    return out + [cur]


def numbered_levels(path: Path) -> Path:
    """A publisher's three numbered levels under a 16 pt title: chapters "1." bold 13 pt, sections
    "1.1" bold 9.5 pt sans, sub-sections "1.1.1" bold 8.5 pt serif, smaller than the 9 pt text."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 50, ["Livre des règles"], size=16, style="B") + 10
    for chapter in (1, 2):
        y = lines_at(pdf, 50, y, [f"{chapter}. Chapitre {'ABCD'[chapter]}"], size=13, style="B") + 6
        for section in (1, 2):
            y = lines_at(pdf, 50, y, [f"{chapter}.{section} Section {chapter}{section}"], size=9.5, style="B") + 2
            y = lines_at(pdf, 50, y, wrapped(pdf, f"Texte {chapter}.{section} " + prose(40, section) + ".", 480)) + 6
            for sub in (1, 2):
                y = lines_at(pdf, 50, y, [f"{chapter}.{section}.{sub} Cas {sub}"], size=8.5, style="B", family="Times") + 2
                y = lines_at(pdf, 50, y, wrapped(pdf, f"Cas {chapter}.{section}.{sub} " + prose(30, sub) + ".", 480)) + 6
    return save(pdf, path)


def shaded_box(path: Path) -> Path:
    """Numbered rules with a shaded "Exemple" box inside section 1.1, its title bold 8 pt: after the
    box, a rule paragraph of 1.1, then 1.2 and chapter 2."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Livre des règles"], size=16, style="B") + 10
    y = lines_at(pdf, 50, y, ["1. Combat"], size=12, style="B") + 4
    y = lines_at(pdf, 50, y, ["1.1 Résolution"], size=9.5, style="B") + 2
    y = lines_at(pdf, 50, y, wrapped(pdf, "Avant la boîte " + prose(40, 1) + ".", 480)) + 8
    pdf.set_fill_color(225, 225, 225)
    inside = wrapped(pdf, "Dans la boîte " + prose(35, 2) + ".", 460, size=8)
    pdf.rect(45, y - 10, 490, 14 + 10 * (len(inside) + 1), style="F")
    y = lines_at(pdf, 55, y, ["Exemple"], size=8, style="B", leading=10)
    y = lines_at(pdf, 55, y, inside, size=8, leading=10) + 14
    y = lines_at(pdf, 50, y, wrapped(pdf, "Après la boîte " + prose(30, 3) + ".", 480)) + 8
    y = lines_at(pdf, 50, y, ["1.2 Pertes"], size=9.5, style="B") + 2
    y = lines_at(pdf, 50, y, wrapped(pdf, "Les pertes " + prose(30, 4) + ".", 480)) + 8
    y = lines_at(pdf, 50, y, ["2. Moral"], size=12, style="B") + 4
    lines_at(pdf, 50, y, wrapped(pdf, "Le moral " + prose(30, 5) + ".", 480))
    return save(pdf, path)


def footnote(path: Path) -> Path:
    """A footnote in 7 pt at the foot of page 1, its mark "¹" in the first paragraph; the second
    paragraph runs over the page break in mid-sentence ("ensuite," | "les joueurs alternent.")."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Mise en place"], size=14, style="B") + 6
    y = lines_at(pdf, 50, y, wrapped(pdf, "Chaque case ne peut contenir qu'une seule unité¹. " + prose(40, 1) + ".", 480)) + 8
    y = lines_at(pdf, 50, y, ["Premier joueur"], size=14, style="B") + 6
    long = wrapped(pdf, "Le premier joueur " + prose(520, 2), 480)
    lines_at(pdf, 50, y, long[:-1] + [long[-1] + " ensuite,"])
    lines_at(pdf, 50, 790, ["¹ Les chefs ne sont pas des unités (voir Ralliement)."], size=7)
    pdf.add_page()
    lines_at(pdf, 50, 60, ["les joueurs alternent. " + prose(10, 3) + "."])
    return save(pdf, path)


def column_break(path: Path) -> Path:
    """Two columns of ragged-right text: a paragraph runs from the foot of the left column into the
    right one on a number ("réduites de" | "1, sans jamais…"); one wraps after a full stop where the
    next word had no room. The second page fills its left column only, under a page-wide header."""
    pdf = new()
    pdf.add_page()
    header = ["Le titre du livre, en tête de page, sur toute la largeur de la page imprimée"]
    lines_at(pdf, 50, 30, header, size=8)
    left = wrapped(pdf, "Début " + prose(160, 1), 220)
    lines_at(pdf, 50, 60, left + ["ses valeurs sont alors réduites de"])
    y = lines_at(pdf, 310, 60, ["1, sans jamais descendre sous 1. " + prose(5, 2) + "."]) + 10
    lines_at(pdf, 310, y, wrapped(pdf, "Suite " + prose(60, 3) + ".", 220))
    pdf.add_page()
    lines_at(pdf, 50, 30, header, size=8)
    lines_at(pdf, 50, 60, ["La partie prend fin immédiatement", "si un joueur n'a plus aucune unité",
                           "en jeu ou s'il échoue à un test de", "moral alors qu'il n'a plus de chef.",
                           "Sinon, elle s'achève à la fin du", "sixième tour."])
    return save(pdf, path)


def cover_title(path: Path) -> Path:
    """A title wrapped over two lines in 18 pt ("Corsaires de" | "Brume"), a subtitle over two lines in
    10 pt, then sections in 11 pt bold; a small running header "Corsaires de Brume" on pages 2 and 3."""
    pdf = new()
    for page in range(3):
        pdf.add_page()
        y = 60.0
        if page:
            lines_at(pdf, 50, 30, ["Corsaires de Brume", ], size=8)
        else:
            y = lines_at(pdf, 50, y, ["Corsaires de", "Brume"], size=18, style="B", leading=22) + 4
            y = lines_at(pdf, 50, y, ["Escarmouches navales dans", "l'archipel des Brumes"], size=10, leading=13) + 12
        for k in range(2):
            y = lines_at(pdf, 50, y, [f"Section {'ABCDEF'[2 * page + k]}"], size=11, style="B") + 4
            y = lines_at(pdf, 50, y, wrapped(pdf, f"Texte {page}{k} " + prose(60, k) + ".", 480)) + 10
    return save(pdf, path)


def heading_bands(path: Path) -> Path:
    """Section headings printed on a shaded band of their own (the band holds the heading only), and
    a band bled off the page's edge behind the last line of text: no box of text in either."""
    pdf = new()
    pdf.add_page()
    pdf.set_fill_color(200, 220, 240)
    y = 70.0
    for k, title in enumerate(("Mise en place", "Le tour de jeu")):
        pdf.rect(45, y - 14, 500, 24, style="F")
        y = lines_at(pdf, 50, y, [title], size=12, style="B") + 8
        y = lines_at(pdf, 50, y, wrapped(pdf, f"Texte {k} " + prose(60, k) + ".", 480)) + 14
    pdf.rect(-10, y - 10, 620, 30, style="F")
    lines_at(pdf, 50, y, ["Dernière ligne du texte sur la bande."])
    return save(pdf, path)


def italic_example(path: Path) -> Path:
    """A paragraph with one word in italic ("*prise*") and one in bold, then a section "Exemple de
    tour" whose paragraph is wholly in italic, over two lines, then a step in italic, its number too."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Déroulement"], size=14, style="B") + 6
    x = 50.0
    for run, style in (("Une carte ", ""), ("prise", "I"), (" dans la ", ""), ("Grève", "B"), (" est remplacée.", "")):
        pdf.set_font("Helvetica", style=style, size=10)
        pdf.text(x, y, run)
        x += pdf.get_string_width(run)
    y = lines_at(pdf, 50, y + 30, ["Exemple de tour"], size=14, style="B") + 6
    y = lines_at(pdf, 50, y, ["Léa pioche une carte : c'est une carte Marée ! Elle la pose au centre et",
                              "termine son tour en défaussant une Algue."], size=10, style="I", leading=12.5) + 10
    lines_at(pdf, 50, y, ["2) Elle pioche encore une carte."], size=10, style="I")
    return save(pdf, path)


def italic_short_lines(path: Path) -> Path:
    """A paragraph in roman across the column, then a note in italic over three short lines (each
    stopping well short of the margin, so the reader leaves them apart and the profile joins them),
    then a paragraph in roman over two short lines with an italic word inside each."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Mise en place"], size=14, style="B") + 6
    y = lines_at(pdf, 50, y, wrapped(pdf, "Chaque joueur " + prose(60) + ".", 480, size=10), size=10, leading=12.5) + 10
    y = lines_at(pdf, 50, y, ["Le Capitaine a donné trop", "d'ordres à l'Ouest et tous",
                              "ses systèmes tombent en panne."], size=10, style="I", leading=12.5) + 10
    for runs in ((("Ensuite le Second pose une ", ""), ("mine", "I"), (" sur", "")),
                 (("la carte du ", ""), ("Capitaine", "I"), (" et passe.", ""))):
        x = 50.0
        for run, style in runs:
            pdf.set_font("Helvetica", style=style, size=10)
            pdf.text(x, y, run)
            x += pdf.get_string_width(run)
        y += 12.5
    return save(pdf, path)

CONTENTS = (("Introduction", 2), ("Mise en place", 3), ("Le tour de jeu", 4), ("Combat", 5))


def contents_blank_leaders(path: Path) -> Path:
    """A "Sommaire" on page 1 whose leaders are blank: each title at the left, its page number far
    right, nothing between them; then one section per page, the first citing "(voir page 4)", the
    last ending on a score line with a number after a wide gap ("Total            12"), alone."""
    pdf = new()
    pdf.add_page()
    lines_at(pdf, 50, 60, ["Sommaire"], size=16, style="B")
    pdf.set_font("Helvetica", size=11)
    for k, (title, page) in enumerate(CONTENTS):
        pdf.text(50, 100 + k * 16, title)
        pdf.text(400, 100 + k * 16, str(page))
    for k, (title, _) in enumerate(CONTENTS):
        pdf.add_page()
        y = lines_at(pdf, 50, 60, [title], size=16, style="B") + 8
        text = f"Le {title.lower()} " + prose(40, k) + (" (voir page 4)." if k == 0 else ".")
        y = lines_at(pdf, 50, y, wrapped(pdf, text, 480, size=11), size=11, leading=14) + 6
        if k == 3:
            pdf.set_font("Helvetica", size=11)
            pdf.text(50, y, "Total")
            pdf.text(400, y, "12")
    return save(pdf, path)


# A contents list whose titles open on their numbers; the book numbers its pages from a cover the
# PDF leaves out: each section's page is its PDF page + 1
NUMBERED_CONTENTS = (("1. Introduction", 3), ("2. Mise en place", 4), ("2.1 Ordre du tour", 5), ("3. Combat", 6))


def numbered_contents(path: Path, leaders: str = "blank", bare: bool = False) -> Path:
    """A "Sommaire" on page 1 of NUMBERED_CONTENTS, its leaders blank (the page number far right)
    or dotted, the chapters' numbers with their dot or `bare` ("1 Introduction"); then one numbered
    section per page, the first citing "(voir page 5)": 2.1, on the PDF's page 4."""
    titles = [(title.replace(". ", " ", 1) if bare else title, page) for title, page in NUMBERED_CONTENTS]
    pdf = new()
    pdf.add_page()
    lines_at(pdf, 50, 60, ["Sommaire"], size=16, style="B")
    for k, (title, page) in enumerate(titles):
        if leaders == "blank":
            pdf.set_font("Helvetica", size=11)
            pdf.text(50, 100 + k * 16, title)
            pdf.text(400, 100 + k * 16, str(page))
        else:
            pdf.set_font("Courier", size=10)
            pdf.text(50, 100 + k * 16, f"{title} {'.' * (40 - len(title))} {page}")
    for k, (title, _) in enumerate(titles):
        pdf.add_page()
        y = lines_at(pdf, 50, 60, [title], size=16, style="B") + 8
        text = f"Le texte {k} " + prose(40, k) + (" (voir page 5)." if k == 0 else ".")
        lines_at(pdf, 50, y, wrapped(pdf, text, 480, size=11), size=11, leading=14)
    return save(pdf, path)


def cover_alone(path: Path) -> Path:
    """A landscape booklet's cover: the title in 40 pt alone on page 1 with a subtitle in 14 pt; then
    sections in 18 pt, one a quick reference ("Aide de jeu") whose tables are named by bold lines
    in 12 pt over 11 pt text."""
    pdf = new(landscape=True)
    pdf.add_page()
    lines_at(pdf, 250, 200, ["Fer et Bannières"], size=40, style="B")
    lines_at(pdf, 300, 260, ["Règles du jeu de bataille"], size=14)
    for k, title in enumerate(("Introduction", "Mouvement")):
        pdf.add_page()
        y = lines_at(pdf, 60, 80, [title], size=18, style="B") + 10
        lines_at(pdf, 60, y, wrapped(pdf, f"Texte {k} " + prose(60, k) + ".", 700, size=11), size=11, leading=14)
    pdf.add_page()
    y = lines_at(pdf, 60, 80, ["Aide de jeu"], size=18, style="B") + 10
    for name, rows in (("Terrain", (("Terrain", "Infanterie"), ("Bois", "moitié"))),
                       ("Pertes de moral", (("Événement", "Moral"), ("Unité détruite", "-2")))):
        y = lines_at(pdf, 60, y, [name], size=12, style="B", leading=6)
        pdf.set_font("Helvetica", size=11)
        pdf.set_xy(60, y)
        with pdf.table(col_widths=(150, 150), width=300, align="LEFT") as table:
            for row in rows:
                cells = table.row()
                for cell in row:
                    cells.cell(cell)
        y = pdf.get_y() + 30
    return save(pdf, path)
