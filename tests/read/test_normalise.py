"""extract/read/normalise.py: repairs that hold for every style of document."""

from __future__ import annotations

from extract.model import Line
from extract.read.normalise import rejoin_small_caps


def texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def test_small_capitals_cut_after_their_capital_are_rejoined_where_the_document_proves_it():
    lines = [Line(1, "## F édération F rançaise des É checs D irection N ationale de l' A rbitrage"),
             Line(2, "A la fin du tour, le joueur B est actif et la partie continue."),
             Line(3, "Le joueur A occupe le centre, le joueur C occupe le bord."),
             Line(4, "La F édération le confirme, la Fédération aussi."),
             Line(5, "Fédération française des échecs, direction nationale de l'arbitrage."),
             Line(6, "Le joueur A pioche une carte, le joueur B défausse une carte ; ensuite A attaque.")]
    out, anomalies = rejoin_small_caps(lines)
    assert texts(out) == [
        "## Fédération Française des Échecs Direction Nationale de l' Arbitrage",
        "A la fin du tour, le joueur B est actif et la partie continue.",  # "la", "est": words of the text
        "Le joueur A occupe le centre, le joueur C occupe le bord.",  # the same word after two capitals: names
        "La Fédération le confirme, la Fédération aussi.",  # one cut, but the word is printed whole too
        "Fédération française des échecs, direction nationale de l'arbitrage.",
        "Le joueur A pioche une carte, le joueur B défausse une carte ; ensuite A attaque.",  # "Apioche": no word
    ]
    assert [a.kind for a in anomalies] == ["small-caps-rejoined"] and anomalies[0].lines == [1, 4]
    assert "F édération → Fédération" in anomalies[0].detail


def test_a_lone_cut_without_proof_stays_and_nothing_is_said():
    lines = [Line(1, "Le joueur B attaque."), Line(2, "Puis le joueur A riposte.")]
    out, anomalies = rejoin_small_caps(lines)
    assert texts(out) == texts(lines) and anomalies == []


def test_a_page_label_left_among_the_text_is_set_aside():
    from extract.read.normalise import page_labels

    lines = [Line(1, "Question 3"), Line(2, "FFÉchecs - Annales - Page 3 sur 62"), Line(3, "Réponse b"),
             Line(4, "FFÉchecs - Annales - Page 45 sur 62"), Line(5, "Page 7/9"),
             Line(6, "Voir la page 12 sur 40 du livre de règles.")]  # said once, among words: text
    kept, aside = page_labels(lines)
    assert [line.no for line in kept] == [1, 3, 6]
    assert [item.lines for item in aside] == [(2, 2), (4, 4), (5, 5)] and "Page N sur M" in aside[0].reason


def test_a_plain_texts_running_header_and_page_numbers_are_set_aside():
    from extract.read.normalise import running_pages

    text = ["LE JEU                  Règles", "Premier paragraphe de la page un.",
            "                     1", "LE JEU                  Règles", "Deuxième page, son texte.",
            "                     2", "LE JEU                  Règles", "Troisième page.", "3"]
    kept, aside = running_pages([Line(no, t) for no, t in enumerate(text, start=1)])
    assert [line.no for line in kept] == [2, 5, 8]
    assert [item.lines for item in aside] == [(1, 1), (4, 4), (7, 7), (3, 3), (6, 6), (9, 9)]
    assert "running header" in aside[0].reason and "page number" in aside[3].reason


def test_bare_numbers_without_a_running_line_stay():
    from extract.read.normalise import running_pages

    # Steps "1", "2" standing alone, and a line said twice that no page number stands beside.
    text = ["1", "CHOISISSEZ", "Texte de l'étape.", "2", "PIOCHEZ", "COMBATTANTS", "Texte.", "COMBATTANTS", "Fin."]
    lines = [Line(no, t) for no, t in enumerate(text, start=1)]
    kept, aside = running_pages(lines)
    assert kept == lines and aside == []


def test_the_text_reader_sets_page_furniture_aside_and_accounts_for_it(tmp_path):
    from extract.model import DocumentSpec
    from extract.read import read_document
    from extract.read.normalise import normalise_reading

    source = tmp_path / "regles.txt"
    source.write_text("JEU   Règles\n\nINTRODUCTION\n\nUn texte.\n\n      1\n\nJEU   Règles\n\nSUITE\n\nUn autre.\n\n   2\n",
                      encoding="utf-8")
    doc = DocumentSpec("regles", "Règles", "rulebook", "", "", str(source), 1, None, "headed-prose", {})
    lines, _, read, aside = normalise_reading(read_document(source), doc)
    assert [line.text for line in lines] == ["INTRODUCTION", "Un texte.", "SUITE", "Un autre."]
    assert read == 8 and len(aside) == 4


def test_web_page_chrome_at_the_edges_is_set_aside_with_its_reason():
    from extract.read.normalise import web_chrome

    text = ["Accueil > Jeux > Règles", "# Règles du jeu", "Mise en ligne par Jean le 12/03/2019",
            "Chaque joueur pioche une carte.", "Publié le 3 mars, le joueur actif commence.",
            *[f"Règle {n} : on joue." for n in range(12)],
            "Mise à jour du 28/01/2016", "Partager sur Facebook", "12 commentaires", "Par Marie, le 4 avril 2020"]
    lines = [Line(n, t) for n, t in enumerate(text, start=1)]
    kept, aside = web_chrome(lines)
    assert [(a.lines[0], a.reason.split(": ")[1]) for a in aside] == [
        (1, "navigation (where the page sits)"), (3, "who put the page online, and when"),
        (5, "who put the page online, and when"),
        (19, "sharing and comments"), (20, "sharing and comments"), (21, "who put the page online, and when")]
    # the document's own date of update and every rule stay; nothing in the middle is looked at
    assert [line.no for line in kept] == [2, 4, *range(6, 19)]
