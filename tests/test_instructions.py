"""The French errata grammar: each phrasing into the operation it asks for."""

from __future__ import annotations

import pytest

from extract.errata.grammar import parse_heading, parse_instruction, rule_name, split_quote


@pytest.mark.parametrize(("text", "operation", "scope"), [
    # The Runewars FAQ de Tournoi 1.1.0, as printed.
    ("Le troisième paragraphe de cette section devrait dire :", "replace", {"block": "paragraph", "ordinal": 3}),
    ("Le quatrième point de cette section devrait dire :", "replace", {"block": "bullet", "ordinal": 4}),
    ("Le second point devrait être remplacé par le suivant, assorti de ses « sous-puces » :", "replace",
     {"block": "bullet", "ordinal": 2, "with_subbullets": True}),
    ("Le second paragraphe de la section 76.2 (page 18) devrait dire :", "replace",
     {"block": "paragraph", "ordinal": 2, "section": "76.2"}),
    ("Le point « Exposé » devrait dire :", "replace", {"block": "bullet", "ordinal": None, "label": "Exposé"}),
    ("La section 85.7 devrait être ajoutée :", "insert", {"block": "entry", "ordinal": None, "section": "85.7"}),
    ("La section 86.11 devrait être supprimée. Auparavant, elle indiquait :", "delete",
     {"block": "entry", "ordinal": None, "section": "86.11"}),
    ("Le premier point devrait être déplacé pour apparaître en dernier et dire :", "move",
     {"block": "bullet", "ordinal": 1, "position": "last"}),
    # Other publishers' phrasings.
    ("Remplacez le point 2 par :", "replace", {"block": "bullet", "ordinal": 2}),
    ("Remplacez la dernière phrase par :", "replace", {"block": "sentence", "ordinal": -1}),
    ("Remplacez le troisième paragraphe par “Notez qu’une figurine ne peut jamais avoir mieux que 1+.”", "replace",
     {"block": "paragraph", "ordinal": 3}),
    ("Ajoutez à la fin du deuxième paragraphe : “En outre, toutes les figurines doivent être déployées.”", "insert",
     {"block": "text", "ordinal": None, "position": "end", "within": "paragraph", "within_ordinal": 2}),
    ("La première phrase du troisième paragraphe doit être remplacée par :", "replace",
     {"block": "sentence", "ordinal": 1, "within": "paragraph", "within_ordinal": 3}),
    ("Supprimez le deuxième point.", "delete", {"block": "bullet", "ordinal": 2}),
    ("Remplacez la règle par :", "replace", {"block": "entry", "ordinal": None}),
    ("Ajoutez l’encart suivant :", "insert", {"block": "entry", "ordinal": None}),
])
def test_block_instructions(text, operation, scope):
    op = parse_instruction(text)
    assert op is not None, text
    assert op.operation == operation
    assert op.scope() == scope


def test_inline_new_text_is_unquoted():
    op = parse_instruction("Remplacez le troisième paragraphe par “Notez qu’une figurine ne peut jamais avoir mieux que 1+.”")
    assert op.after == "Notez qu'une figurine ne peut jamais avoir mieux que 1+."
    assert not op.expects_text
    assert parse_instruction("Le premier paragraphe de cette section devrait dire :").expects_text


def test_quoted_replacement_and_its_count():
    op = parse_instruction("Remplacez les deux références de “(...) 16ps (...)” par “(...) 18ps (...)” et remplacez "
                           "les deux références de “(...) 8ps (...)” par “(...) 9ps (...)”.")
    assert (op.operation, op.block, op.before, op.after, op.count) == ("replace", "text", "16ps", "18ps", 2)
    op = parse_instruction("Remplacez “(...) a terminé toutes ses tentatives, (...)” par “(...) a terminé toutes ses "
                           "tentatives de lancement et de dissipation (...)” dans la dernière phrase.")
    assert op.before == "a terminé toutes ses tentatives,"
    assert op.after == "a terminé toutes ses tentatives de lancement et de dissipation"
    assert (op.within, op.within_ordinal) == ("sentence", -1)


def test_deadzone_phrasings():
    op = parse_instruction("Lance-flammes léger (p. 89) : la valeur en points de cette arme est de 4 (et non 1).".split(" : ", 1)[1])
    assert (op.operation, op.block, op.before, op.after, op.card) == ("replace", "value", "1", "4", True)
    op = parse_instruction("Renommez la première (dans la catégorie « Marcheur (Assaut ») en « Lance-flammes d’assaut ».")
    assert (op.operation, op.block, op.after) == ("replace", "title", "Lance-flammes d'assaut")
    op = parse_instruction("remplacez la compétence Revigorant dans la description de l’arme Visions de Gloire par « Stimulant ».")
    assert (op.block, op.after) == ("text", "Stimulant")
    assert op.subject.startswith("la compétence Revigorant")
    op = parse_instruction("ajoutez « ** » après le nom de cette arme pour signaler qu’elle utilise deux points d’emport.")
    assert (op.operation, op.block, op.position, op.after) == ("insert", "title", "end", "**")


def test_card_instructions_are_marked():
    op = parse_instruction("Dans l'extension Archers Réanimés, le premier paragraphe de cette carte Amélioration devrait dire :")
    assert op.card and op.block == "paragraph" and op.ordinal == 1
    op = parse_instruction("Dans l'extension Elfes Latari, l'effet de cette carte Terrain (section Fissure Dimorienne) devrait dire :")
    assert op.card and op.block == "card" and op.subject == "Fissure Dimorienne"


def test_old_text_quoted_inline_is_kept_for_checking():
    op = parse_instruction("La section 86.11 devrait être supprimée. Auparavant, elle indiquait : « Résoudre l'effet est optionnel. »")
    assert op.before == "Résoudre l'effet est optionnel."
    assert not op.expects_text


@pytest.mark.parametrize("text", [
    "Si l'ajout d'un plateau à une unité devrait entraîner le chevauchement d'un obstacle, le plateau ne peut pas y être ajouté.",
    "Cette section inclut les errata de règles et de cartes de Runewars.",
    "Les errata suivants s'appliquent à la version du Guide de Référence fournie dans la Boîte de Base.",
    "R : Non. Le rang unique de l'unité constitue à la fois son rang frontal et arrière.",
])
def test_rule_text_is_not_an_instruction(text):
    assert parse_instruction(text) is None
    assert rule_name(text) is None


def test_nested_quotes_close_at_depth_zero():
    assert split_quote("« l'étape « Résolvez les Objectifs » des instructions (voir page 4). »") == \
        "l'étape « Résolvez les Objectifs » des instructions (voir page 4)."
    assert split_quote("un « Blaster de poignet ». La description ne change pas.") == "Blaster de poignet"


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


# Which registered rule reads each phrasing: the registry's priorities decide, and every rule
# of the grammar reads at least one phrasing here.
FIRING = [
    ("La section 86.11 devrait être supprimée.", "delete-entry"),
    ("Le deuxième point de cette section devrait être supprimé.", "delete-unit"),
    ("Supprimez le deuxième point.", "delete-imperative"),
    ("La section 85.7 devrait être ajoutée :", "add-entry"),
    ("Ajoutez à la fin du deuxième paragraphe : « En outre. »", "add-at"),
    ("Ajoutez à la fin : « En outre. »", "add-at-end"),
    ("La section 2.3 devrait dire : « Six cartes. »", "entry-should-say"),
    ("Ajoutez « (Unique) » après le nom de Kari Dame-Pique.", "add-after-name"),
    ("Ajoutez l’encart suivant :", "add-section"),
    ("Ajout : « Une nouvelle règle. »", "add"),
    ("Le premier point devrait être déplacé pour apparaître en dernier et dire :", "move"),
    ("Le point « Exposé » devrait dire :", "labelled-should-say"),
    ("Le troisième paragraphe de cette section devrait dire :", "should-say"),
    ("Sa boîte de texte devrait dire :", "card-should-say"),
    ("Remplacez le point 2 par :", "replace-unit"),
    ("Remplacez la règle par :", "replace-rule"),
    ("Remplacez “16ps” par “18ps”.", "replace-quoted"),
    ("Renommez Vétéran en « Vétéran aguerri ».", "rename"),
    ("Remplacez la compétence Fuite par : « Fuite rapide »", "replace-subject"),
    ("La portée est de 3 (et non 2).", "value-et-non"),
    ("Le coût devrait être 4 et non 5.", "should-be-not"),
    ("Ce devrait être en fait : « Riposte »", "should-be"),
    ("Lire « 4, 5 ou 6 » au lieu de « 5 ou 6 ».", "read-instead"),
    ("Au lieu de « 2 dés », lisez « 3 dés ».", "instead-read"),
    ("Lire « 3 dés » (et non « 2 dés »).", "read-not"),
    ("Le paragraphe [15] est remplacé par : « Tout. »", "numbered-replaced"),
    ("Ajouter après la première phrase : « Le premier tour. »", "add-by-sentence"),
    ("« 5 ou 6 » devient « 4, 5 ou 6 ».", "quoted-becomes"),
    ("Corrigez « 15 cm » en « 20 cm ».", "correct-into"),
]


@pytest.mark.parametrize(("text", "rule"), FIRING)
def test_which_rule_reads_each_phrasing(text, rule):
    assert rule_name(text) == rule


def test_every_grammar_rule_reads_a_phrasing_of_the_table():
    from extract.errata.grammar import GRAMMAR

    assert {name for name, _ in GRAMMAR.ordered()} == {rule for _, rule in FIRING}


@pytest.mark.parametrize(("text", "winner", "general"), [
    ("Ajoutez à la fin du deuxième paragraphe : « En outre. »", "add-at", "add"),
    ("Remplacez le point 2 par :", "replace-unit", "replace-subject"),
])
def test_priority_decides_between_rules_that_both_match(text, winner, general):
    """A specific phrasing also matches a general rule: the registry's priority, not a position
    in a tuple, makes the specific rule read it."""
    from extract.errata.grammar import GRAMMAR, normalise_quotes

    matching = [name for name, rule in GRAMMAR.ordered() if rule.pattern.match(normalise_quotes(text))]
    assert matching == [winner, general]
    assert GRAMMAR.priority(winner) > GRAMMAR.priority(general)
    assert rule_name(text) == winner
