"""extract/errata/faq.py: the reader's operations in the model's terms, and an FAQ given to the
reader as the build segmented it. (Whole FAQs read and applied: tests/errata/test_apply.py.)"""

from __future__ import annotations

import pytest

from extract.errata.faq import operation_of, table_lines
from extract.errata.locators import read_locator
from extract.errata.reader import read_errata_text
from extract.model import Block


def operation(sentence: str):
    [found] = read_errata_text(sentence).read
    return operation_of(found, read_locator(sentence), sentence)


@pytest.mark.parametrize(("sentence", "expected"), [
    ("La portée devrait être 3 et non 2.", ("replace", "value", None, "2", "3")),
    ("Les points de vie sont de 3 (et non 2).", ("replace", "value", None, "2", "3")),
    ("Page 4, Hachette : renommez l'arme en « Hache ».", ("replace", "title", None, None, "Hache")),
    ("Page 2, section Déplacement, premier paragraphe : remplacer « deux cases » par « trois cases ».",
     ("replace", "text", None, "deux cases", "trois cases")),
    ("Page 2 : le troisième paragraphe devrait dire : « Tout change. »", ("replace", "paragraph", 3, None, "Tout change.")),
    ("Page 2 : remplacez « deux » par « trois » au 2e point.", ("replace", "text", None, "deux", "trois")),
])
def test_an_operation_in_the_models_terms(sentence, expected):
    op = operation(sentence)
    assert (op.operation, op.block, op.ordinal, op.before, op.after) == expected


def test_a_replace_of_a_phrase_inside_a_unit_is_a_text_change_within_it():
    op = operation("Page 2, section Déplacement, premier paragraphe : remplacer « deux cases » par « trois cases ».")
    assert (op.within, op.within_ordinal) == ("paragraph", 1)


def test_an_insertion_after_a_sentence_goes_at_its_end():
    op = operation("Ajouter après la première phrase de 4.1 : « Elle frappe fort. »")
    assert (op.operation, op.block, op.within, op.within_ordinal, op.position, op.section) == (
        "insert", "text", "sentence", 1, "end", "4.1")


def test_a_card_named_in_brackets_is_the_subject():
    op = operation("Dans l'extension Elfes, l'effet de cette carte Terrain (section Fissure Dimorienne) devrait dire : « Rien. »")
    assert (op.block, op.subject, op.card) == ("card", "Fissure Dimorienne", True)


def test_a_table_is_given_by_its_rows_at_their_source_lines():
    table = Block("table", "", lines=[9, 10, 11, 12], rows=[["Page", "Ancien", "Nouveau"], ["2", "deux", "trois"],
                                                             ["3", "un", "quatre"]])
    assert table_lines(table) == [(9, "| Page | Ancien | Nouveau |"), (11, "| 2 | deux | trois |"), (12, "| 3 | un | quatre |")]
