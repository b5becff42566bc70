"""extract/errata/grammar.py: more phrasings than tests/test_instructions.py, each into the
grammar rule that reads it and the operation it asks for; the quote and ordinal helpers; errata
found in free text."""

from __future__ import annotations

import pytest

from extract.errata.grammar import looks_like_instruction, normalise_quotes, ordinal_of, parse_instruction, rule_name, unit_of, unquote
from extract.errata.located import read_instruction
from extract.errata.tables import is_errata_table, read_errata_table


@pytest.mark.parametrize(("text", "rule", "operation", "scope", "before", "after"), [
    ("Le deuxième paragraphe de cette section devrait être supprimé.", "delete-unit", "delete",
     {"block": "paragraph", "ordinal": 2}, None, None),
    ("Supprimez la dernière phrase.", "delete-imperative", "delete", {"block": "sentence", "ordinal": -1}, None, None),
    ("La règle 4.2 devrait être supprimée.", "delete-entry", "delete", {"block": "entry", "ordinal": None, "section": "4.2"}, None, None),
    ("Ajoutez au début du premier paragraphe : « Lors de la mise en place, »", "add-at", "insert",
     {"block": "text", "ordinal": None, "position": "start", "within": "paragraph", "within_ordinal": 1}, None,
     "Lors de la mise en place,"),
    ("La section 85.7 devrait être ajoutée : « 85.7 Quand le paquet est vide, mélangez. »", "add-entry", "insert",
     {"block": "entry", "ordinal": None, "section": "85.7"}, None, "85.7 Quand le paquet est vide, mélangez."),
    ("Ajoutez : « Une phrase. »", "add", "insert", {"block": "text", "ordinal": None, "position": "end"}, None, "Une phrase."),
    ("Le dernier point devrait être déplacé pour apparaître en premier.", "move", "move",
     {"block": "bullet", "ordinal": -1, "position": "first"}, None, None),
    ("Renommez l'arme en « Hache ».", "rename", "replace", {"block": "title", "ordinal": None, "subject": "l'arme"}, None, "Hache"),
    ("La portée devrait être 3 et non 2.", "should-be-not", "replace",
     {"block": "value", "ordinal": None, "subject": "La portée"}, "2", "3"),
    ("Les points de vie sont de 3 (et non 2).", "value-et-non", "replace",
     {"block": "value", "ordinal": None, "subject": "Les points de vie"}, "2", "3"),
    ("Cela devrait être : « Portée 3 »", "should-be", "replace", {"block": "text", "ordinal": None}, None, "Portée 3"),
    ("Le 2e paragraphe doit se lire :", "should-say", "replace", {"block": "paragraph", "ordinal": 2}, None, None),
    ("Le point « Exposé » de cette section devrait dire : « Exposé : rien. »", "labelled-should-say", "replace",
     {"block": "bullet", "ordinal": None, "label": "Exposé"}, None, "Exposé : rien."),
    ("Remplacez “tentatives” par “essais”.", "replace-quoted", "replace", {"block": "text", "ordinal": None}, "tentatives", "essais"),
    ("Remplacez le texte par :", "replace-rule", "replace", {"block": "entry", "ordinal": None}, None, None),
])
def test_phrasings(text, rule, operation, scope, before, after):
    assert rule_name(text) == rule
    op = parse_instruction(text)
    assert (op.operation, op.scope(), op.before, op.after) == (operation, scope, before, after)
    assert op.expects_text is (after is None and operation in ("replace", "insert"))


def test_a_card_instruction_is_marked_and_expects_its_text():
    op = parse_instruction("Sa boîte de texte devrait dire :")
    assert (rule_name("Sa boîte de texte devrait dire :"), op.block, op.card, op.expects_text) == ("card-should-say", "card", True, True)
    assert parse_instruction("Le premier paragraphe de cette section devrait dire :").card is False


@pytest.mark.parametrize("text", ["Les unités se déplacent.", "Q : Peut-on tirer ?", "Voir la section 49.", ""])
def test_ordinary_text_is_no_instruction(text):
    assert parse_instruction(text) is None and rule_name(text) is None


def test_quotes_normalised():
    assert normalise_quotes('Il dit "bonjour" et “merci” l’ami') == "Il dit « bonjour » et « merci » l'ami"
    assert normalise_quotes('un seul " guillemet') == 'un seul " guillemet'  # unpaired: left as is


@pytest.mark.parametrize(("word", "ordinal"), [
    ("Troisième", 3), ("troisieme", 3), ("derniers", -1), ("avant-dernière", -2), ("2nde", 2), ("1er", 1), ("xx", None), (None, None)])
def test_ordinal_of(word, ordinal):
    assert ordinal_of(word) == ordinal


@pytest.mark.parametrize(("word", "unit"), [("Alinéas", "paragraph"), ("sous-puces", "subbullet"), ("§", "paragraph"),
                                             ("points", "bullet"), ("règle", "entry"), ("chapitre", None)])
def test_unit_of(word, unit):
    assert unit_of(word) == unit


def test_unquote_drops_guillemets_and_ellipses():
    assert unquote("« (...) a terminé (...) ».") == "a terminé"
    assert unquote("« … la suite »") == "la suite"
    assert unquote("« »") is None and unquote(None) is None


# ---------------------------------------------------------------- targets named by the instruction itself

@pytest.mark.parametrize(("text", "operation", "scope", "before", "after", "where"), [
    # A leading locator: page, section by title, paragraph ordinal.
    ("Page 2, section Déplacement, premier paragraphe : remplacer « deux cases » par « trois cases ».", "replace",
     {"block": "text", "ordinal": None, "within": "paragraph", "within_ordinal": 1}, "deux cases", "trois cases",
     ("Déplacement", 2, ())),
    ("Page 3, section 5.1 : remplacez « deux dés » par « trois dés ».", "replace",
     {"block": "text", "ordinal": None, "section": "5.1"}, "deux dés", "trois dés", ("", 3, ("5.1",))),
    ("Déplacement, page 2 : supprimez la dernière phrase.", "delete", {"block": "sentence", "ordinal": -1}, None, None,
     ("Déplacement", 2, ())),
    ("Dans la section 4.2, remplacez « a » par « b ».", "replace", {"block": "text", "ordinal": None, "section": "4.2"},
     "a", "b", ("", None, ("4.2",))),
    # The section named after the unit, or as the sentence's subject.
    ("Supprimez la dernière phrase de 4.1.", "delete", {"block": "sentence", "ordinal": -1, "section": "4.1"}, None, None,
     ("", None, ("4.1",))),
    ("Ajoutez à la fin de la section Combat : « Une unité n'attaque qu'une fois. »", "insert",
     {"block": "text", "ordinal": None, "position": "end"}, None, "Une unité n'attaque qu'une fois.", ("Combat", None, ())),
    ("Ajoutez à la fin de la section « Tir à l'arc » : « Portée 3. »", "insert",
     {"block": "text", "ordinal": None, "position": "end"}, None, "Portée 3.", ("Tir à l'arc", None, ())),
    ("Au début de la section Moral, ajoutez : « Un chef rallie. »", "insert",
     {"block": "text", "ordinal": None, "position": "start"}, None, "Un chef rallie.", ("Moral", None, ())),
    ("La section Combat doit se lire : « Tout combat est final. »", "replace", {"block": "entry", "ordinal": None}, None,
     "Tout combat est final.", ("Combat", None, ())),
    # A locator ended by a comma, and sections named "§N" or "[N]" in a book of numbered paragraphs.
    ("En page 7, §17, lire « 4, 5 ou 6 » au lieu de « 5 ou 6 ».", "replace",
     {"block": "text", "ordinal": None, "section": "17"}, "5 ou 6", "4, 5 ou 6", ("", 7, ("17",))),
    ("Page 4, [6] : remplacer « 15 cm » par « 20 cm ».", "replace",
     {"block": "text", "ordinal": None, "section": "6"}, "15 cm", "20 cm", ("", 4, ("6",))),
    ("Dans la section 4, lire « 3 dés » (et non « 2 dés »).", "replace",
     {"block": "text", "ordinal": None, "section": "4"}, "2 dés", "3 dés", ("", None, ("4",))),
    # The position words say where; only the quote is inserted.
    ("Ajouter après la première phrase de §9 : « Le premier tour, le défenseur commence. »", "insert",
     {"block": "text", "ordinal": None, "section": "9", "position": "end", "within": "sentence", "within_ordinal": 1},
     None, "Le premier tour, le défenseur commence.", ("", None, ("9",))),
    ("Ajoutez avant la dernière phrase de la section Moral : « Un chef rallie. »", "insert",
     {"block": "text", "ordinal": None, "position": "start", "within": "sentence", "within_ordinal": -1},
     None, "Un chef rallie.", ("Moral", None, ())),
])
def test_an_instruction_names_its_own_target(text, operation, scope, before, after, where):
    op, located = read_instruction(text)
    assert (op.operation, op.scope(), op.before, op.after) == (operation, scope, before, after)
    assert (located.name, located.page, located.sections) == where
    assert (located.hint.name, located.hint.page, located.hint.sections) == where


@pytest.mark.parametrize(("text", "scope"), [
    # Read whole by one rule: the section is the operation's, no locator is read off.
    ("La section 2.3 devrait dire : « Six cartes. »", {"block": "entry", "ordinal": None, "section": "2.3"}),
    ("Le second paragraphe de la section 76.2 (page 18) devrait dire :", {"block": "paragraph", "ordinal": 2, "section": "76.2"}),
    ("Remplacez « a » par « b » dans la section 3.", {"block": "text", "ordinal": None, "section": "3"}),
    ("Le premier paragraphe de cette section devrait dire :", {"block": "paragraph", "ordinal": 1}),
    ("Le paragraphe [15] est remplacé par : « Tout. »", {"block": "entry", "ordinal": None, "section": "15"}),
    ("Le §15 devrait dire : « Tout. »", {"block": "entry", "ordinal": None, "section": "15"}),
    ("Le paragraphe 15 est remplacé par : « Tout. »", {"block": "entry", "ordinal": None, "section": "15"}),
    ("Au lieu de « 2 dés », lire « 3 dés ».", {"block": "text", "ordinal": None}),
    ("Remplacer « 2 dés » par « 3 dés ».", {"block": "text", "ordinal": None}),
    ("Lisez « 3 dés » à la place de « 2 dés ».", {"block": "text", "ordinal": None}),
    ("« 2 dés » doit se lire « 3 dés ».", {"block": "text", "ordinal": None}),
    ("« 2 dés » est remplacé par « 3 dés ».", {"block": "text", "ordinal": None}),
    ("Corriger « 2 dés » en « 3 dés ».", {"block": "text", "ordinal": None}),
])
def test_instructions_read_whole_keep_their_reading(text, scope):
    op, located = read_instruction(text)
    assert located is None and op.scope() == scope and parse_instruction(text).scope() == scope


@pytest.mark.parametrize(("text", "looks"), [
    ("Remplacez donc ce qui cloche par quelque chose.", True),
    ("Il faudrait lire « trois » ici.", True),
    ("La phrase devrait dire autre chose.", True),
    ("Les errata suivants s'appliquent à la première impression.", False),
    ("Version 1.1, en vigueur au 1er octobre.", False),
])
def test_what_looks_like_an_instruction(text, looks):
    assert looks_like_instruction(text) is looks


# ---------------------------------------------------------------- errata given as a table

@pytest.mark.parametrize(("header", "errata"), [
    (["Page", "Section", "Ancien texte", "Nouveau texte"], True),
    (["Règle", "Au lieu de", "Lire", "p."], True),  # columns in any order, other words
    (["§", "Texte imprimé", "Correction"], True),
    (["Avant", "Après"], True),
    (["Unité", "Coût", "Portée"], False),
    (["Page", "Ancien texte"], False),  # no new text: not an errata table
])
def test_an_errata_table_is_known_by_its_header(header, errata):
    assert is_errata_table(header) is errata


def test_each_row_of_an_errata_table_is_a_replace_in_the_section_it_names():
    rows = read_errata_table([
        ["Nouveau texte", "Ancien texte", "Section", "Page"],
        ["à 20 cm", "à 15 cm", "Mise en place, §6", "4"],
        ["« 25 cm »", "« 20 cm »", "[12]", "p. 6"],
        ["", "baisse de 4", "Moral", "8"],
        ["b", "a", "Moral", "huit"],
    ])
    assert [(r.row, r.operation.before, r.operation.after, r.operation.section, tuple(vars(r.hint).values())) for r in rows[:2]] == [
        (1, "à 15 cm", "à 20 cm", "6", ("Mise en place", 4, ("6",))),
        (2, "20 cm", "25 cm", "12", ("", 6, ("12",))),
    ]
    # A row that cannot be read says why; it is never dropped.
    assert [(r.row, r.operation, r.problem) for r in rows[2:]] == [
        (3, None, "the row gives no new text"), (4, None, "its page « huit » is not a number")]


def test_a_unit_counted_in_a_paragraph_of_a_named_section_keeps_both():
    # "par" ends the locator only as a word: "du premier paragraphe" is no "du premier par"
    op, located = read_instruction("Remplacez la deuxième phrase du premier paragraphe de la section Combat par « X. »")
    assert (op.block, op.ordinal, op.within, op.within_ordinal, op.after) == ("sentence", 2, "paragraph", 1, "X.")
    assert located is not None and located.name == "Combat"


def test_a_leading_unit_and_section_locate_a_replacement():
    op, located = read_instruction("Dans le dernier paragraphe de la section Déplacement, remplacez « X » par « Y ».")
    assert (op.operation, op.before, op.after, op.within, op.within_ordinal) == ("replace", "X", "Y", "paragraph", -1)
    assert located is not None and located.name == "Déplacement"


def test_a_specific_reading_that_carries_its_section_number_stands():
    op, located = read_instruction("Ajoutez à la fin du premier paragraphe de la section 4.2 : « Y. »")
    assert (op.section, op.within_ordinal, located) == ("4.2", 1, None)
