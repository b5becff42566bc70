"""`regles extract` as a user meets it: the format chosen by its reader, the profile by evidence
(and why), the line accounting and anomalies on stderr, exit 3 when something is severely wrong,
one line and exit 1 for a file it cannot read."""

from __future__ import annotations

import json

import pytest

from extract.cli import main
from tests.read.pdf_maker import (
    SECTIONS,
    block,
    browser_print,
    contents_blank_leaders,
    cover_alone,
    cover_title,
    heading_bands,
    italic_example,
    italic_short_lines,
    new,
    numbered_contents,
    numbered_levels,
    prose,
    save,
    shaded_box,
)

MARKDOWN = """---
titre: Règles
---

# Règles du jeu

<!-- note de l'auteur -->

## 1. Mise en place

Chaque joueur prend six dés
et une fiche de personnage.

## 2. Le tour

1. Lancer les dés.
2. Choisir une action.

**Voir aussi :** Mise en place, Le tour
"""


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["extract", *args])
    out, err = capsys.readouterr()
    return code, out, err


def by_title(capsys, path) -> dict[str, dict]:
    """`regles extract PATH --json`, which must succeed: its entries by title."""
    code, out, err = run(capsys, str(path), "--json")
    assert code == 0, err
    return {e["title"]: e for e in json.loads(out)["entries"]}


def test_markdown_is_read_as_markdown_with_the_accounting_on_stderr(tmp_path, capsys):
    path = tmp_path / "regles.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    code, out, err = run(capsys, str(path), "--json")
    found = json.loads(out)
    assert code == 0 and found["format"] == "markdown" and found["profile"] == "headed-prose"
    assert "Markdown" in found["profile_reason"]
    entries = {e["title"]: e for e in found["entries"]}
    assert entries["Mise en place"]["number"] == "1" and entries["Le tour"]["number"] == "2"
    assert entries["Mise en place"]["text"] == "Chaque joueur prend six dés et une fiche de personnage."
    assert [b["type"] for b in entries["Le tour"]["blocks"]] == ["step", "step", "related"]
    numbers = found["accounting"]
    assert numbers["lines_read"] == numbers["lines_placed"] + numbers["lines_set_aside"] == 12
    assert {item["reason"] for item in found["set_aside"]} >= {"front matter", "HTML comment"}
    assert "lines read 12 = placed 8 + set aside 4" in err and "profile headed-prose" in err


def test_a_severe_anomaly_exits_3(tmp_path, capsys):
    path = tmp_path / "envers.txt"
    line = "Les unités qui sont dans la zone doivent se déplacer avec leur chef pour attaquer les ennemis."
    path.write_text("\n\n".join(line[::-1] for _ in range(6)) + "\n", encoding="utf-8")
    code, _, err = run(capsys, str(path))
    assert code == 3
    assert "severe: reversed-text" in err and "exit code 3" in err


def test_a_pdf_through_the_cli(tmp_path, capsys):
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 60, 495, "Règles de Kiwi", size=20, style="B")
    block(pdf, 50, y + 8, 495, prose(60, 2) + ".")
    path = save(pdf, tmp_path / "kiwi.pdf")
    code, out, err = run(capsys, str(path), "--json")
    found = json.loads(out)
    assert code == 0 and found["format"] == "pdf" and found["pages"] == 1
    assert found["entries"][0]["title"] == "Règles de Kiwi" and found["entries"][0]["source"]["page"] == 1


NUMBERS = [title.split()[0].rstrip(".") for title in SECTIONS]  # 1, 1.1, 1.2, 2, … 7.1


@pytest.mark.parametrize("profile", [None, "decimal-rules"])
def test_a_browser_printed_pdf_with_numbered_headings(tmp_path, capsys, profile):
    # Landscape, two columns, bold "1." / "1.1" headings smaller than the text, a running header that
    # the last page's column cut splits: every section an entry, nested by its number, no header in the text.
    path = browser_print(tmp_path / "cirque.pdf")
    code, out, err = run(capsys, str(path), "--json", *(["--profile", profile] if profile else []))
    found = json.loads(out)
    assert code == 0, err
    assert found["profile"] == (profile or "headed-prose")
    entries = found["entries"]
    assert len(entries) >= 15 and [e["number"] for e in entries] == NUMBERS
    by_number = {e["number"]: e for e in entries}
    assert by_number["1.1"]["parent"] == by_number["1"]["id"] and by_number["1"]["parent"] is None
    assert by_number["7.1"]["title"] == "Cas particuliers" and by_number["7.1"]["parent"] == by_number["7"]["id"]
    assert not any("14/03/2025" in e["text"] or "Course de Chars" in e["text"] or "example.org" in e["text"]
                   for e in entries)
    assert [r["target"] for r in by_number["3"]["refs"]] == [by_number["3.2"]["id"]]  # "(voir 3.2)"


def test_plain_text_with_numbered_headings_between_blank_lines(tmp_path, capsys):
    body = "Le joueur actif pose une carte devant lui puis pioche une nouvelle carte."
    text = "\n\n".join(f"{title}\n\n{body}" + (" Voir 3.2 pour les dépassements." if title.startswith("3. ") else "")
                       for title in SECTIONS)
    path = tmp_path / "cirque.txt"
    path.write_text(text + "\n", encoding="utf-8")
    code, out, err = run(capsys, str(path), "--json")
    found = json.loads(out)
    assert code == 0, err
    assert found["profile"] == "headed-prose" and "numbered section headings" in found["profile_reason"]
    entries = found["entries"]
    assert [e["number"] for e in entries] == NUMBERS
    assert [e["title"] for e in entries][:3] == ["Présentation", "Matériel", "But du jeu"]
    by_number = {e["number"]: e for e in entries}
    assert by_number["3.2"]["parent"] == by_number["3"]["id"]


@pytest.mark.parametrize(("name", "data", "message"), [
    ("vide.md", b"", "empty"),
    ("latin1.md", "# Règles\n\nCapacité spéciale\n".encode("latin-1"), "not valid UTF-8"),
    ("binaire.txt", bytes(range(256)), "binary file"),
    ("image.pdf", b"\x89PNG\r\n\x1a\n" + bytes(300), ""),
    ("tronque.pdf", b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog", ""),
])
def test_unreadable_files_give_one_line_and_exit_1(tmp_path, capsys, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = run(capsys, str(path))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"error: {path}") and "Traceback" not in err
    assert message in err


def test_a_pdf_without_text_layer_suggests_ocr(tmp_path, capsys):
    pdf = new()
    pdf.add_page()
    pdf.rect(50, 50, 200, 100, style="F")
    path = save(pdf, tmp_path / "scan.pdf")
    code, _, err = run(capsys, str(path))
    assert code == 1 and "no text layer" in err and "OCR" in err


def test_in_markdown_only_hash_headings_are_headings(tmp_path, capsys):
    """Markdown states its headings: a short bold line is a label in its section, not a heading
    (read as text, the same line could be one)."""
    path = tmp_path / "capacites.md"
    path.write_text("# Capacités\n\n### Hammerfist\n\nLa figurine effectue un :\n\n**Test à 4+ (X) à 3 Dés**\n\n"
                    "Les figurines adjacentes subissent le test.\n\n### Agile\n\nElle se déplace encore.\n", encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--json")
    entries = json.loads(out)["entries"]
    assert code == 0 and [e["title"] for e in entries] == ["Capacités", "Hammerfist", "Agile"]
    assert "Test à 4+ (X) à 3 Dés" in entries[1]["text"]


def test_numbered_headings_nest_by_their_number_whatever_their_font(tmp_path, capsys):
    # "1.1.1" printed in a smaller serif than the text, "1.1" in a sans only a little larger: the
    # sizes do not order them, the numbers do.
    code, out, err = run(capsys, str(numbered_levels(tmp_path / "niveaux.pdf")), "--json")
    assert code == 0, err
    parents = {e["number"]: e["parent"] for e in json.loads(out)["entries"] if e["number"]}
    ids = {e["number"]: e["id"] for e in json.loads(out)["entries"] if e["number"]}
    assert len(parents) == 14
    for number, parent in parents.items():
        stem = number.rpartition(".")[0]
        assert parent == (ids[stem] if stem else parents["1"]), number
    assert parents["1"] not in ids.values()  # the chapters under the book's title, or at the top


def test_a_shaded_box_with_its_own_title_is_a_sidebar_of_the_section_it_stands_in(tmp_path, capsys):
    code, out, err = run(capsys, str(shaded_box(tmp_path / "boite.pdf")), "--json")
    assert code == 0, err
    entries = json.loads(out)["entries"]
    ids = {e["number"] or e["title"]: e["id"] for e in entries}
    by = {e["number"] or e["title"]: e for e in entries}
    assert by["Exemple"]["kind"] == "sidebar" and by["Exemple"]["parent"] == ids["1.1"]
    assert by["Exemple"]["text"].startswith("Dans la boîte") and "Après" not in by["Exemple"]["text"]
    assert by["1.1"]["text"].startswith("Avant la boîte") and "Après la boîte" in by["1.1"]["text"]
    assert by["1.2"]["parent"] == ids["1"] and by["2"]["parent"] == by["1"]["parent"]


def test_the_cover_title_is_no_parent_of_the_book(tmp_path, capsys):
    code, out, err = run(capsys, str(cover_title(tmp_path / "couverture.pdf")), "--json")
    assert code == 0, err
    entries = json.loads(out)["entries"]
    assert [(e["title"], e["parent"]) for e in entries] == [("Corsaires de Brume", None)] + [
        (f"Section {c}", None) for c in "ABCDEF"]
    assert entries[1]["id"].endswith("/section-a")


def test_a_band_behind_a_heading_or_bled_off_the_page_is_no_sidebar(tmp_path, capsys):
    code, out, err = run(capsys, str(heading_bands(tmp_path / "bandes.pdf")), "--json")
    assert code == 0, err
    entries = json.loads(out)["entries"]
    assert [(e["title"], e["kind"]) for e in entries] == [("Mise en place", "section"), ("Le tour de jeu", "section")]
    assert entries[1]["text"].endswith("Dernière ligne du texte sur la bande.")


ASIDES = """# Jeu

## Tour

Avant l'exemple.

> **Exemple :** Léa obtient 4, 4 et 2.
> Elle avance.

Après l'exemple.

> **Attention !** Un héros sans luciole ne peut plus explorer.

> Une citation sans label reste dans le texte.

## Fin

Fin.
"""


def test_a_markdown_quote_opening_on_a_bold_label_is_a_sidebar_of_its_section(tmp_path, capsys):
    path = tmp_path / "regles.md"
    path.write_text(ASIDES, encoding="utf-8")
    by = by_title(capsys, path)
    assert by["Exemple"]["kind"] == "sidebar" and by["Exemple"]["parent"] == by["Tour"]["id"]
    assert [b["text"] for b in by["Exemple"]["blocks"]] == ["Léa obtient 4, 4 et 2. Elle avance."]
    assert by["Attention !"]["kind"] == "sidebar" and by["Attention !"]["parent"] == by["Tour"]["id"]
    assert [b["text"] for b in by["Tour"]["blocks"]] == [
        "Avant l'exemple.", "Après l'exemple.", "Une citation sans label reste dans le texte."]
    assert by["Fin"]["parent"] == by["Jeu"]["id"]


TABLES = """# Jeu

## Fin

| Jet | Effet |
|---|---|
| 1 \\| 2 | Rien |

<table>
<tr><th>Code</th><th>Sens</th></tr>
<tr><td>a|b</td><td>ou</td></tr>
</table>
"""


def test_an_escaped_pipe_stays_in_its_table_cell(tmp_path, capsys):
    path = tmp_path / "regles.md"
    path.write_text(TABLES, encoding="utf-8")
    by = by_title(capsys, path)
    rows = [row for b in by["Fin"]["blocks"] if b["type"] == "table" for row in b["rows"]]
    assert rows == [["Jet", "Effet"], ["1 | 2", "Rien"], ["Code", "Sens"], ["a|b", "ou"]]


def test_italic_stays_in_the_blocks_markdown_as_bold_does(tmp_path, capsys):
    by = by_title(capsys, italic_example(tmp_path / "italique.pdf"))
    example = by["Exemple de tour"]
    paragraph, step = example["blocks"]
    assert paragraph["text"].startswith("Léa pioche") and "*" not in example["text"]
    assert (step["type"], step["number"], step["text"]) == ("step", "2", "Elle pioche encore une carte.")
    assert example["markdown"].split("\n\n") == ["*" + paragraph["text"] + "*", "*Elle pioche encore une carte.*"]
    assert by["Déroulement"]["markdown"] == "Une carte *prise* dans la **Grève** est remplacée."


def test_an_italic_paragraph_over_several_lines_is_one_emphasis_run(tmp_path, capsys):
    code, out, err = run(capsys, str(italic_short_lines(tmp_path / "italique.pdf")), "--json")
    assert code == 0, err
    paragraphs = json.loads(out)["entries"][0]["markdown"].split("\n\n")
    assert paragraphs[1] == "*Le Capitaine a donné trop d'ordres à l'Ouest et tous ses systèmes tombent en panne.*"
    # italic words inside roman lines stay as printed
    assert paragraphs[2] == "Ensuite le Second pose une *mine* sur la carte du *Capitaine* et passe."


def test_a_contents_list_with_blank_leaders_makes_the_page_map(tmp_path, capsys):
    code, out, err = run(capsys, str(contents_blank_leaders(tmp_path / "sommaire.pdf")), "--json")
    assert code == 0, err
    found = json.loads(out)
    by = {e["title"]: e for e in found["entries"]}
    assert [(r["kind"], r["target"]) for r in by["Introduction"]["refs"]] == [("page", by["Le tour de jeu"]["id"])]
    assert not [a for a in found["anomalies"] if a["kind"] == "page-map"]  # the book's own contents, not the PDF's pages


@pytest.mark.parametrize("bare", [False, True], ids=["dotted-numbers", "bare-numbers"])
@pytest.mark.parametrize("leaders", ["blank", "dots"])
def test_a_contents_list_of_numbered_titles_makes_the_page_map(tmp_path, capsys, leaders, bare):
    # "2.1 Ordre du tour      5": the title keeps its number, which names the heading "2.1 Ordre du
    # tour"; the book's page 5 is the PDF's page 4 (whose own page 5 holds "3. Combat")
    code, out, err = run(capsys, str(numbered_contents(tmp_path / "sommaire.pdf", leaders, bare)), "--json")
    assert code == 0, err
    found = json.loads(out)
    # each heading its entry, on its page (number and title, or the title keeping a bare number):
    # none read as the contents list's last line going on ("3 Combat      6" | "1 Introduction")
    assert [(" ".join(filter(None, (e["number"], e["title"]))), e["source"]["page"]) for e in found["entries"]] == [
        ("Sommaire", 1), ("1 Introduction", 2), ("2 Mise en place", 3), ("2.1 Ordre du tour", 4), ("3 Combat", 5)]
    by = {e["source"]["page"]: e for e in found["entries"]}
    assert [(r["kind"], r["target"]) for r in by[2]["refs"]] == [("page", by[4]["id"])]
    assert not [a for a in found["anomalies"] if a["kind"] == "page-map"]


def test_a_cover_holding_only_its_title_leaves_no_empty_entry(tmp_path, capsys):
    code, out, err = run(capsys, str(cover_alone(tmp_path / "livret.pdf")), "--json")
    assert code == 0, err
    entries = json.loads(out)["entries"]
    ids = {e["title"]: e["id"] for e in entries if e["title"]}
    assert [(e["title"], e["parent"]) for e in entries if e["title"]] == [
        ("Introduction", None), ("Mouvement", None), ("Aide de jeu", None),
        ("Terrain", ids["Aide de jeu"]), ("Pertes de moral", ids["Aide de jeu"])]
    assert all(e["text"] or any(c["parent"] == e["id"] for c in entries) for e in entries)



CONTENTS_TEXT = """Règles du jeu

Sommaire

{0}Introduction        2
{1}Mise en Place       3
{2}Les Ordres          5
{3}Combat              7

{0}Introduction

Ce jeu se joue à deux. Pour les pertes, voir page 7.

{1}Mise en Place

Posez le plateau entre les joueurs.

{2}Les Ordres

Chaque joueur donne trois ordres.

{3}Combat

Chaque unité engagée lance des dés, puis retire ses pertes.
Pour toucher, il faut au moins 2
sur un dé, 3 si la cible est à couvert.
"""
GAP = "\u2003" * 3  # the blank leader, as the PDF reader writes it


@pytest.mark.parametrize(("numbers", "profile"), [
    (("", "", "", ""), None), (("", "", "", ""), "headed-prose"), (("", "", "", ""), "ocr-columns"),
    (("1. ", "2. ", "2.1 ", "3. "), None)], ids=["guessed", "headed-prose", "ocr-columns", "numbered-titles"])
def test_a_text_contents_list_with_wide_spaces_makes_the_page_map(tmp_path, capsys, numbers, profile):
    path = tmp_path / "regles.txt"
    path.write_text(CONTENTS_TEXT.format(*numbers), encoding="utf-8")
    code, out, err = run(capsys, str(path), "--json", *(["--profile", profile] if profile else []))
    assert code == 0, err
    entries = json.loads(out)["entries"]
    # each contents line a block of its own, its gap kept, as the PDF reader's blank-leader lines are
    listed = [b["text"] for e in entries for b in e["blocks"] if GAP in b["text"]]
    assert listed == [f"{title}{GAP}{page}" for title, page in
                      (("Introduction", 2), ("Mise en Place", 3), (f"{numbers[2].replace('. ', '')}Les Ordres", 5),
                       ("Combat", 7))]
    by = {e["title"]: e for e in entries}
    assert [(r["kind"], r["target"]) for r in by["Introduction"]["refs"]] == [("page", by["Combat"]["id"])]
    # a sentence wrapped after a number ("au moins 2" / "sur un dé") is not cut there
    assert "Pour toucher, il faut au moins 2 sur un dé, 3 si la cible est à couvert." in by["Combat"]["text"]


def test_lines_shows_each_line_read_with_its_numbers_instead_of_the_tree(tmp_path, capsys):
    path = tmp_path / "regles.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    code, out, _ = run(capsys, str(path), "--lines")
    assert code == 0
    assert "l. 11–12  Chaque joueur prend six dés et une fiche de personnage." in out.splitlines()
    assert not any(" — " in line for line in out.splitlines())  # no entry tree
    code, out, _ = run(capsys, str(path), "--lines", "--json")
    rows = json.loads(out)["lines"]
    assert {"lines": [11, 12], "text": "Chaque joueur prend six dés et une fiche de personnage."} in rows
    code, out, _ = run(capsys, str(path), "--json")
    assert "lines" not in json.loads(out)


def test_lines_of_a_pdf_name_their_page(tmp_path, capsys):
    pdf = new()
    pdf.add_page()
    y = block(pdf, 50, 60, 495, "Règles de Kiwi", size=20, style="B")
    block(pdf, 50, y + 8, 495, prose(60, 2) + ".")
    pdf.add_page()
    block(pdf, 50, 60, 495, "Une règle de la seconde page.")
    code, out, _ = run(capsys, str(save(pdf, tmp_path / "kiwi.pdf")), "--lines")
    rows = out.splitlines()
    assert code == 0 and rows[0].startswith("p. 1 l. 1  ") and "Règles de Kiwi" in rows[0]
    assert rows[-1].startswith("p. 2 l. ") and rows[-1].endswith("  Une règle de la seconde page.")
    assert any(row.startswith("p. 1 l. 2–") for row in rows)  # a paragraph over several printed lines


def test_lines_is_documented_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["extract", "--help"])
    assert "--lines" in capsys.readouterr().out


def test_each_anomaly_is_one_line_with_its_kind_and_lines_the_rest_counted(capsys):
    from extract.cli.commands import INFO_SHOWN, print_summary

    anomalies = [{"kind": "numbering-gap", "detail": f"gap {n}", "lines": [n, n + 1, n + 2, n + 9]}
                 for n in range(INFO_SHOWN + 5)]
    anomalies.insert(0, {"kind": "reversed-text", "detail": "à l'envers", "lines": [3], "severity": "severe"})
    found = {"format": "text", "pages": None, "profile": "headed-prose", "profile_reason": "given", "entries": [],
             "accounting": {"lines_read": 1, "lines_placed": 1, "lines_set_aside": 0}, "anomalies": anomalies,
             "severe": 1}
    assert print_summary("x.txt", found) == 3
    err = capsys.readouterr().err.splitlines()
    assert "severe: reversed-text (l. 3): à l'envers" in err
    assert "info: numbering-gap (l. 0–2, 9): gap 0" in err
    assert f"info: numbering-gap (l. {INFO_SHOWN - 1}–{INFO_SHOWN + 1}, {INFO_SHOWN + 8}): gap {INFO_SHOWN - 1}" in err
    assert "info: numbering-gap" not in " ".join(line for line in err if f"gap {INFO_SHOWN}" in line)
    assert "… 5 more (use --json)" in err
