"""extract/errata/faq.py: the reader's operations in the model's terms, and an FAQ given to the
reader as the build segmented it. (Whole FAQs read and applied: tests/errata/test_apply.py.)"""

from __future__ import annotations

import pytest

from extract.cache import Cache
from extract.errata import faq
from extract.errata.faq import operation_of, read_kept, table_lines
from extract.errata.locators import read_locator
from extract.errata.reader import read_errata_text
from extract.model import Block, DocumentSpec, Entry

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")


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


def operations(text: str) -> list[tuple]:
    out = []
    for found in read_errata_text(text).read:
        op = operation_of(found, found.locator, found.text)
        out.append((found.line, found.locator.page, op.block, op.ordinal, op.before, op.after))
    return out


def test_free_text_instructions_after_context_and_after_a_named_page():
    # (ported from the old free-text scanner's test)
    assert operations("Page 27 – Renforts\nDeux armes portent ce nom. Renommez la première en « Hache ».\n\n"
                      "Capitaine (p. 55) : Remplacez la dernière phrase par « Un seul dé. »\n\n"
                      "Un paragraphe sans instruction.\n") == [
        (2, 27, "title", None, None, "Hache"), (4, 55, "sentence", -1, None, "Un seul dé.")]


def test_a_list_dash_inside_an_open_quotation_is_part_of_the_new_text():
    assert operations("Page 4 – Moral\nRemplacez le point 2 par : « Une unité\n- recule d'une case. »\n") == [
        (2, 4, "bullet", 2, None, "Une unité - recule d'une case.")]


def test_each_item_of_a_forum_list_is_read_with_its_place():
    found = operations("Erratas (sur les premières impressions) :\n- La Colo de l'Horreur :\n"
                       "- Pour l'évènement « Vengeance » : l'icône de la victime devrait être orange et non jaune\n"
                       "Le Manoir Hanté :\n- Pour la carte terreur “Carolyn”, il faut remplacer “Si Carolyn\n"
                       "est avec vous” par “Si Carolyn n’est pas avec vous” (source) - Pour l'évènement “Poussés”, "
                       "la cible doit être la Final Girl (et non la victime)\n")
    assert [(line, before, after) for line, _, _, _, before, after in found] == [
        (3, "jaune", "orange"), (5, "Si Carolyn est avec vous", "Si Carolyn n'est pas avec vous"),
        (6, "la victime", "la Final Girl")]


def test_a_faq_read_once_is_kept_and_a_changed_one_is_read_again(tmp_path, monkeypatch):
    # a rebuild whose FAQ did not change must not load spaCy's model to read it again
    kept = Cache(tmp_path)
    text = "P. 12 : remplacez « deux dés » par « trois dés ».\n"
    first = read_kept(text, kept, "demo/faq")
    assert [r.kind for r in first.read] == ["replace"]
    asked: list[str] = []
    monkeypatch.setattr(faq, "read_errata_text", lambda t: asked.append(t) or read_errata_text(t))
    again = read_kept(text, kept, "demo/faq")
    assert asked == [] and again.to_json() == first.to_json()
    changed = text.replace("trois", "quatre")
    assert read_kept(changed, kept, "demo/faq").read[0].new == "quatre dés" and asked == [changed]
    assert read_kept(text, Cache(None), "demo/faq").to_json() == first.to_json()  # no cache: read each time


def test_a_table_whose_rows_stand_on_fewer_source_lines_is_reported_not_lost():
    # a PDF table may be cut into fewer lines than its rows: its rows cannot be placed, so it is reported
    document = DocumentSpec("faq", "FAQ", "faq", "", "", "faq.md", 1, None, "faq", {})
    table = Block("table", "", lines=[3], rows=[["Page", "Ancien texte", "Nouveau texte"], ["2", "deux", "trois"],
                                                ["3", "un", "quatre"]])
    errata_entry = Entry("demo", "faq", "section", None, "Errata", "errata", blocks=[table], heading_lines=[1])
    reading = faq.read_faq("demo", document, [errata_entry])
    assert [(a.kind, a.lines) for a in reading.anomalies] == [("erratum-not-understood", [3])]
    assert "3 rows" in reading.anomalies[0].detail


def test_unsure_clarifications_are_told_by_their_code_not_their_wording():
    from extract.errata.reader import CLARIFICATION_CODES, Clarification

    assert faq.UNSURE_CLARIFICATIONS <= set(CLARIFICATION_CODES)
    reworded = Clarification(3, "Page 4 : Déplacement.", "no-change", "wording changed for people")
    assert reworded.code in faq.UNSURE_CLARIFICATIONS and reworded.to_json()["code"] == "no-change"
    assert Clarification(3, "Q : Et alors ?", "question-or-answer").code not in faq.UNSURE_CLARIFICATIONS


def test_each_faq_file_keeps_its_own_reading_so_versions_do_not_evict_the_current_one(tmp_path):
    """`regles diff` and the site's version steps read a FAQ at its versions through the build's cache
    (`version_errata`): each version's text is kept apart from the current FAQ's, both hit again."""
    from dataclasses import replace

    from extract.cache import Cache
    from extract.pipeline import Stopwatch, read_games
    from tests.errata.test_apply import corpus

    game = read_games(corpus(tmp_path, "Page 3, section 4.2 : remplacez « deux dés » par « trois dés ».\n"),
                      Stopwatch(), lambda message: None)[0]
    kept = Cache(tmp_path / "kept")
    older = replace(game.game, documents=[replace(d, source=d.source + ".v1") if d.kind == "faq" else d
                                          for d in game.game.documents])
    for spec in (game.game, older, game.game, older):
        written, _ = faq.read_faqs(spec, game.entries, kept)
        assert [e.after for e in written] == ["trois dés"]
    assert len([name for name in kept.hits if name.startswith("errata-reading/")]) == 2
