"""The passages layer: a text cut into candidate errata (invented French sentences)."""

from __future__ import annotations

import pytest

from extract.errata.passages import cut, normalise, unfold_columns
from tests.helpers import cpu_growth


def texts(raw: str) -> list[tuple[int, str]]:
    return [(p.line, p.text) for p in cut(raw).passages]


@pytest.mark.parametrize(("raw", "expected"), [
    # a whole list on one line: one passage per item, each at its page
    ("P. 11 : lire « trois » au lieu de « deux ». P. 15 : supprimer la phrase.",
     [(1, "P. 11 : lire « trois » au lieu de « deux »."), (1, "P. 15 : supprimer la phrase.")]),
    # a page glued to the end of the previous item
    ("Le mot est faux. p.18 : ajouter « vite ».", [(1, "Le mot est faux."), (1, "p.18 : ajouter « vite ».")]),
    # a heading line, then its instruction
    ("Combat, p. 4\nLe dernier point devrait dire : « Lancez un dé. »",
     [(1, "Combat, p. 4"), (2, "Le dernier point devrait dire : « Lancez un dé. »")]),
    # a quotation run over a blank line stays whole
    ("Page 9 : ajouter « Les archers\n\ntirent deux fois. »", [(1, "Page 9 : ajouter « Les archers  tirent deux fois. »")]),
    # list markers start items
    ("• Retirer le pion.\n• Ajouter un dé.", [(1, "• Retirer le pion."), (2, "• Ajouter un dé.")]),
])
def test_passages_are_cut_at_items_headings_and_sentences_never_inside_quotes(raw, expected):
    assert texts(raw) == expected


def test_page_chrome_is_set_aside_with_its_lines():
    document = cut("Vous êtes sur la page 1sur 3\n12\nPage 4 : ajouter « a ».\nPage 2 sur 5\n")
    assert document.chrome == (1, 2, 4)
    assert [p.text for p in document.passages] == ["Page 4 : ajouter « a »."]


def test_a_repeated_page_title_is_chrome():
    document = cut("Chapitre 2 Règle (p. 4) Changer « un\nChapitre 2 Règle (p. 4) Changer « un » en « deux ».")
    assert document.chrome == (1,) and len(document.passages) == 1


@pytest.mark.parametrize(("raw", "expected"), [
    ("“un” et ‘deux’ mais l’effet", "«un» et «deux» mais l'effet"),
    ("„trois‟ sauf n‟est", "«trois» sauf n'est"),
    ('dit "quatre" puis "cinq"', "dit «quatre» puis «cinq»"),
])
def test_quotes_of_every_style_become_guillemets_keeping_length(raw, expected):
    assert normalise(raw) == expected and len(normalise(raw)) == len(raw)


def test_an_unclosed_quotation_is_marked():
    (passage,) = cut("Page 3 : ajouter « un texte coupé").passages
    assert passage.unbalanced


def test_cutting_is_linear_on_a_long_line():
    def cut_line(units: int) -> None:
        assert cut("p. 12 « a " * units).passages  # quotations never closed, locators everywhere

    assert cpu_growth(cut_line, 2500) < 20  # ×8 for a linear cost, ×64 for a quadratic one


def test_a_sentence_cut_by_a_column_break_is_joined_back_the_heading_after_it():
    document = cut("La carte du Garde doit recevoir les corrections\n\nERRATA\nsuivantes :\n• La portée doit être de 3.\n")
    assert [(p.line, p.heading, p.text) for p in document.passages] == [
        (1, False, "La carte du Garde doit recevoir les corrections suivantes :"), (3, True, "ERRATA"),
        (5, False, "• La portée doit être de 3.")]


def test_a_page_locator_after_a_heading_is_no_continuation():
    document = cut("Le texte reste ouvert\nCOMBAT\np. 12 : lire « a ».\n")
    assert [p.text for p in document.passages][-1] == "p. 12 : lire « a »."
    assert len(document.passages) == 3


def test_running_heads_beside_page_numbers_are_chrome():
    document = cut("Livre de base, errata\n3\nPage 4 : ajouter « a ».\nLivre de base, errata\n4\nPage 5 : lire « b ».\n")
    assert document.chrome == (1, 2, 4, 5)
    assert [p.text for p in document.passages] == ["Page 4 : ajouter « a ».", "Page 5 : lire « b »."]


def test_a_line_repeated_away_from_page_numbers_is_kept():
    document = cut("Ajouter :\n« a »\n\nAjouter :\n« b »\n")
    assert document.chrome == ()


# ---------------------------------------------------------------- side-by-side columns (pdftotext -layout)

def _two_columns(left: list[str], right: list[str], width: int = 48) -> str:
    return "\n".join(f"{a:<{width}}{b}".rstrip() for a, b in zip(left, right, strict=True))


COLUMNS = _two_columns(
    ["ERRATA", "", "Page 12, section Mouvement : remplacez « deux", "cases » par « trois cases ».",
     "Page 14, section Tir : la dernière phrase", "devrait dire : « Le tireur lance deux dés,", "puis garde le meilleur. »",
     "Page 18, section Charge : remplacez « 10 cm »"],
    ["par « 15 cm ».", "", "Page 20 : supprimez la dernière phrase du", "paragraphe sur le moral.",
     "Page 22, section Fuite : ajoutez à la fin :", "« Une unité en fuite ne charge pas. »", "", ""])


def test_side_by_side_columns_are_read_left_then_right_each_line_keeping_its_number():
    lines, numbers = unfold_columns(normalise(COLUMNS).split("\n"))
    assert lines[7] == "Page 18, section Charge : remplacez « 10 cm »" and lines[8] == "par « 15 cm »."
    assert numbers == [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("table", [
    # several wide gaps on a line: a table's row, not two columns
    "Unité                 Coût        Portée\nArcher                3           2\nChevalier             5           1\n"
    "Lancier               4           1\n",
    # one gap, but short cells: a table of two columns, not two columns of prose
    "Avant                 Après\nà 15 cm               à 20 cm\ndeux dés              trois dés\n4 PV                  5 PV\n",
    # errata aligned on their places: each line an erratum of its own, not two columns
    "Page 12, section Combat :        Remplacez « deux dés » par « trois dés ».\n"
    "Page 14, section Moral :         Remplacez « un test » par « deux tests ».\n"
    "Page 20, section Fuite :         Supprimez la dernière phrase du paragraphe.\n",
])
def test_text_aligned_in_a_table_is_not_split_into_columns(table):
    document = cut(table)
    assert document.text == normalise(table) and document.numbers == ()
    assert [p.line for p in document.passages] == sorted(p.line for p in document.passages)
