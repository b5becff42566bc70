"""The locators layer: one grammar for every place an erratum names (invented French places)."""

from __future__ import annotations

import pytest

from extract.errata.locators import opens_with_locator, ordinal_of, parse_heading, read_locator, unit_of


@pytest.mark.parametrize(("text", "expected"), [
    ("p.12", {"page": 12}),
    ("pp. 10-11", {"page": 10, "page_to": 11}),
    ("P. 23 :", {"page": 23}),
    ("p.18Mouvement", {"page": 18}),
    ("page 8, encadré « Tir »", {"page": 8, "unit": "box", "title": "Tir"}),
    ("section 4.2.1", {"section": "4.2.1"}),
    ("§ 15", {"section": "15"}),
    ("Page 4, [6]", {"page": 4, "section": "6"}),  # a numbered paragraph in brackets
    ("dans la section « Activation »", {"title": "Activation"}),
    ("2ème point", {"unit": "bullet", "ordinal": 2}),
    ("le deuxième alinéa", {"unit": "paragraph", "ordinal": 2}),
    ("2e paragraphe", {"unit": "paragraph", "ordinal": 2}),
    ("le point d", {"unit": "bullet", "ordinal": 4}),
    ("la dernière phrase", {"unit": "sentence", "ordinal": -1}),
    ("l'avant-dernier paragraphe", {"unit": "paragraph", "ordinal": -2}),
    ("ligne 9", {"unit": "line", "ordinal": 9}),
    ("dans la colonne de droite", {"column": "droite"}),
    ("colonne 2", {"column": "2"}),
    ("au dos de la carte", {"card": True}),
    ("Carte Cri de guerre (# 12)", {"card": True}),
    ("Sergent (p. 40)", {"page": 40, "title": "Sergent"}),
    ("Page 2, section Déplacement, premier paragraphe", {"page": 2, "title": "Déplacement", "unit": "paragraph"}),
    ("de la section Test de Moral devrait", {"title": "Test de Moral"}),
    ("l'effet de cette carte (section Fissure Dimorienne)", {"title": "Fissure Dimorienne", "card": True}),
    ("la première phrase de 4.1", {"section": "4.1", "unit": "sentence", "ordinal": 1}),
    ("après la première phrase", {"position": "end", "unit": "sentence"}),
    ("avant la dernière phrase", {"position": "start", "ordinal": -1}),
    ("l'avant-dernier paragraphe", {"position": None, "ordinal": -2}),
])
def test_each_part_of_a_locator_is_read(text, expected):
    found = read_locator(text).to_json()
    assert {key: found.get(key) for key in expected} == expected
    assert found["text"]  # the place is kept as written


@pytest.mark.parametrize(("text", "section"), [
    ("Page 4 (mise à jour du 12.03.2020) : remplacez « deux » par « trois ».", None),
    ("Page 5 : le coût est de 1.5 et non 2.", None),
    ("la portée passe de 2.5 à 3", None),
    ("la deuxième phrase du premier paragraphe de 4.1", "4.1"),
    ("le troisième point du 12.3", "12.3"),
])
def test_a_bare_dotted_number_is_a_section_only_after_a_unit_it_holds(text, section):
    # a date or a decimal is no section: "de 4.1" names one after the unit it holds
    assert read_locator(text).section == section


def test_a_free_place_is_kept_verbatim():
    found = read_locator("À la fin du monologue du héros")
    assert found.text == "À la fin du monologue du héros" and not found.placed()


@pytest.mark.parametrize(("text", "opens"), [
    ("Page 4, colonne 2 : …", True), ("p.88 : le texte", True), ("Section 3.1 (page 2)", True),
    ("Prince (p. 61) Changer …", True), ("Attaque, p. 2", True), ("Le joueur pioche deux cartes.", False),
])
def test_a_passage_opening_with_its_place(text, opens):
    assert opens_with_locator(text) is opens


@pytest.mark.parametrize(("text", "expected"), [
    ("Le point « Exposé » devrait dire :", {"unit": "bullet", "label": "Exposé", "title": None}),
    ("au début du premier paragraphe", {"unit": "paragraph", "ordinal": 1, "position": "start"}),
    ("à la fin de la section Combat", {"position": "end"}),
    ("la première phrase du troisième paragraphe", {"unit": "sentence", "ordinal": 1, "within": "paragraph",
                                                    "within_ordinal": 3}),
    ("le deuxième paragraphe", {"unit": "paragraph", "ordinal": 2, "within": None, "position": None}),
    ("Reformation, page 17, sections 76 et 76.2", {"page": 17, "section": "76"}),
])
def test_labels_positions_and_the_unit_that_holds_another(text, expected):
    found = read_locator(text)
    assert {name: getattr(found, name) for name in expected} == expected


@pytest.mark.parametrize(("word", "ordinal"), [
    ("Troisième", 3), ("troisieme", 3), ("derniers", -1), ("avant-dernière", -2), ("2nde", 2), ("1er", 1), ("xx", None)])
def test_ordinal_of(word, ordinal):
    assert ordinal_of(word) == ordinal


@pytest.mark.parametrize(("word", "unit"), [("Alinéas", "paragraph"), ("sous-puces", "subbullet"), ("§", "paragraph"),
                                             ("points", "bullet"), ("chapitre", None)])
def test_unit_of(word, unit):
    assert unit_of(word) == unit


@pytest.mark.parametrize(("title", "name", "page", "sections"), [
    ("Ligne de Vue, page 13, section 49", "Ligne de Vue", 13, ("49",)),
    ("Reformation, page 17, sections 76 et 76.2", "Reformation", 17, ("76", "76.2")),
    ("Cartes Objectif, page 15", "Cartes Objectif", 15, ()),
    ("Conditions", "Conditions", None, ()),
    ("Page 62 - Couvert", "Page 62 - Couvert", None, ()),
])
def test_erratum_headings(title, name, page, sections):
    hint = parse_heading(title)
    assert (hint.name, hint.page, hint.sections) == (name, page, sections)
