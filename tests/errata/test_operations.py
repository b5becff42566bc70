"""The operations layer: cues from the declared table, read by spaCy's Matcher, and the texts
around them (invented French sentences, none taken from the development set)."""

from __future__ import annotations

import pytest

from extract.errata.operations import KINDS, OperationReader, cue_table, mask, without_ellipses

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")


@pytest.fixture(scope="module")
def reader() -> OperationReader:
    return OperationReader()


def read(reader: OperationReader, text: str) -> list[tuple[str, str | None, str | None]]:
    return [(r.kind, r.old, r.new) for r in reader.read(text)[0] if r.problem is None]


@pytest.mark.parametrize(("text", "expected"), [
    # lire / lisez / doit se lire / il faut lire: one cue
    ("Page 4 : lire « trois dés » au lieu de « deux dés ».", [("replace", "deux dés", "trois dés")]),
    ("Lisez « la tour » au lieu de « le donjon ».", [("replace", "le donjon", "la tour")]),
    ("Le dernier point doit se lire : « Piochez une carte. »", [("should-say", None, "Piochez une carte.")]),
    ("Il faut lire « 5 PV » (et non « 4 PV »).", [("replace", "4 PV", "5 PV")]),
    # remplacer X par Y; passive; changer … en
    ("Remplacez « tour » par « round ».", [("replace", "tour", "round")]),
    ("Le terme « Feu » doit être remplacé par « Flamme ».", [("replace", "Feu", "Flamme")]),
    ("Changer « lent » en « rapide ».", [("replace", "lent", "rapide")]),
    # coordinated instructions: one operation each
    ("Il faut remplacer « arc » par « fronde » et ajouter « portée 3 ».",
     [("replace", "arc", "fronde"), ("insert", None, "portée 3")]),
    # a value and its old value, no verb of its own
    ("La portée du canon est de 12 et non de 10.", [("replace", "10", "12")]),
    # verbs beyond the corpus's
    # a unit named after a deletion is its place, not its text, as after "remplacez … par"
    ("Il faut retirer la dernière phrase.", [("delete", None, None)]),
    ("Il faut retirer la phrase « Piochez une carte. »", [("delete", "Piochez une carte", None)]),
    ("Les deux cartes sont à intervertir.", [("swap", "Les deux cartes", None)]),
    ("Ajouter la précision : le héros ne peut pas fuir.", [("insert", None, "le héros ne peut pas fuir")]),
    ("Rajouter « ou l'eau » après « la lave ».", [("insert", None, "ou l'eau")]),
    ("« Sprint » devient « Course ».", [("replace", "Sprint", "Course")]),
    ("Cette carte devrait être unique.", [("should-say", None, "unique")]),
    ("La carte écrit « Défaussez » au lieu de « Défaussez-la ».", [("replace", "Défaussez", "Défaussez-la")]),
    ("Remplacer toutes les mentions de « PM » par « PA ».", [("rename", "PM", "PA")]),
    # a term changed into another, as a term: a rename; a "remplacé par" one stays a replace
    ("Le mot-clé « Agile » doit être changé en « Leste ».", [("rename", "Agile", "Leste")]),
    ("Le nom « Garde » devient « Sentinelle ».", [("rename", "Garde", "Sentinelle")]),
    # the printed value told after "mais": the old text of a replace
    ("Le héros devrait être le n°12, mais il est marqué comme n°21 (comme le Mage).",
     [("replace", "n°21", "le n°12")]),
    ("La portée doit être de 4, mais la carte indique 3.", [("replace", "3", "de 4")]),
    # a purpose clause about wording: a note on usage, no erratum
    ("En anglais, pour dire « une seule cible », il faut dire « a single target ».", []),
    # a unit named before "par" is a place, not old text
    ("Remplacez le deuxième paragraphe par : « Tout le monde pioche. »", [("should-say", None, "Tout le monde pioche.")]),
])
def test_instructions_give_their_operations(reader, text, expected):
    assert read(reader, text) == expected


@pytest.mark.parametrize("text", [
    "Le joueur actif peut ajouter un dé à sa réserve.",  # a rule, not an instruction
    "Vous devez retirer le pion du plateau.",  # a player's duty
    "Ce texte n'est pas modifié par l'extension.",  # negated
    "Un dé « Retirez 1 pion » est lancé.",  # the verb is inside a quotation
    "Si la carte est retirée, le joueur pioche.",  # a condition
])
def test_descriptions_give_no_operation(reader, text):
    assert read(reader, text) == []


@pytest.mark.parametrize(("text", "problem"), [
    ("Remplacez le mot « tour ».", "no new text"),
    ("Renommez la compétence.", "a rename needs the old and the new term"),
])
def test_an_incomplete_instruction_says_what_failed(reader, text, problem):
    (reading,) = reader.read(text)[0]
    assert reading.problem is not None and reading.problem.startswith(problem)


def test_every_cue_of_the_table_signals_a_known_operation():
    table = cue_table()
    assert {cue.operation for cue in table.cues} <= set(KINDS)
    assert {"lire" in str(cue.patterns) for cue in table.cues if cue.name == "read"} == {True}


def test_masking_keeps_quotations_and_offsets():
    masked = mask("Remplacez « a b » par « c ».")
    assert masked.text == "Remplacez « Q0 » par « Q1 »." and masked.quotes == ["a b", "c"]
    assert masked.unmask(0, len(masked.text)) == "Remplacez «a b» par «c»."
    assert masked.original(masked.text.index("par")) == "Remplacez « a b » par".index("par")


def test_an_item_taken_with_its_sub_items_announces_its_text(reader):
    readings, _ = reader.read("Le second point devrait être remplacé par le suivant, assorti de ses « sous-puces » :")
    assert [(r.kind, r.new, r.expects_text, r.extra.get("with_subbullets")) for r in readings] == [
        ("replace", None, True, True)]
    readings, _ = reader.read("Remplacez le point par « Lancez un dé », avec ses « Bonus » :")
    assert not any(r.extra.get("with_subbullets") for r in readings)  # "Bonus" names no sub-items


@pytest.mark.parametrize(("text", "position", "expects_text", "problem"), [
    ("Le dernier point devrait être déplacé pour apparaître en premier.", "first", False, None),
    ("Le premier point devrait être déplacé pour apparaître en dernier et dire :", "last", True, None),
    ("Déplacez le troisième paragraphe en tête de la section.", "first", False, None),
    ("Le point devrait être déplacé.", None, False, "a move that does not say where the item goes"),
])
def test_a_move_says_where_the_item_goes(reader, text, position, expects_text, problem):
    readings, _ = reader.read(text)
    assert [(r.kind, r.extra.get("position"), r.expects_text, r.problem) for r in readings] == [
        ("move", position, expects_text, problem)]


def test_moving_as_a_rule_describes_it_is_no_move(reader):
    assert reader.read("L'unité peut se déplacer de deux cases.")[0] == []


def test_a_unit_replaced_by_quoted_text_is_its_place():
    readings, _ = OperationReader().read("Remplacez le troisième paragraphe par « Notez ceci. »")
    assert [(r.kind, r.old, r.new, r.extra.get("unit")) for r in readings] == [
        ("should-say", None, "Notez ceci.", "le troisième paragraphe")]


@pytest.mark.parametrize(("word", "opens"), [("remplacements", True), ("mots", True), ("mot", True), ("phrases", False)])
def test_a_noun_is_lemmatized_when_it_opens_like_a_lemma_of_the_cues_short_lemmas_too(word, opens):
    from extract.errata.operations import STEM, opens_like

    stems = frozenset(lemma[:STEM] for lemma in ("remplacement", "mot"))
    assert opens_like(word, stems) is opens


@pytest.mark.parametrize(("cut", "bare_end", "whole"), [
    ("(...) 18 ps (…)", True, "18 ps"),
    ("[…] au début du tour …", True, "au début du tour"),
    ("... au début du tour", False, "au début du tour"),
    ("au début du tour…", False, "au début du tour…"),  # a new text may end on a printed ellipsis
    ("au début du tour [...]", False, "au début du tour"),
])
def test_a_quotation_cut_from_its_sentence_loses_the_marks_that_cut_it(cut: str, bare_end: bool, whole: str) -> None:
    assert without_ellipses(cut, bare_end=bare_end) == whole
