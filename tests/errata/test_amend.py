"""extract/errata/amend.py: operations tests/test_amend.py does not cover — deletions, sentences,
whole entries, titles, values — and the helpers that count and compare."""

from __future__ import annotations

import pytest

from extract.errata.amend import (
    NotApplicable,
    OrdinalOutOfRange,
    apply_operation,
    ordinal_index,
    same_text,
    sentences,
    unit_span,
)
from extract.model import Block, Entry, Operation


def rule(*blocks: tuple[str, str], title: str | None = None) -> Entry:
    return Entry("demo", "regles", "rule", "7.2", title, "7.2", blocks=[Block(t, x) for t, x in blocks])


def texts(entry: Entry) -> list[tuple[str, str]]:
    return [(b.type, b.text) for b in entry.blocks]


CHARGE = (
    ("paragraph", "Une unité qui charge avance de sa vitesse. Elle doit finir au contact. Sinon elle panique."),
    ("bullet", "Une unité engagée ne peut pas charger."),
    ("related", "Sujets connexes : Engagement"),
)


def test_delete_a_bullet_keeps_the_printed_text():
    entry = rule(*CHARGE)
    change = apply_operation(entry, Operation("delete", "bullet", ordinal=1), [])
    assert texts(entry) == [CHARGE[0], CHARGE[2]]
    assert change.before == CHARGE[1][1] and [b.text for b in change.replaced] == [CHARGE[1][1]]
    assert entry.status == "amended" and texts(Entry("d", "r", "rule", None, None, "x", blocks=entry.original_blocks)) == list(CHARGE)


def test_the_last_sentence_is_in_the_last_text_block():
    entry = rule(*CHARGE)
    apply_operation(entry, Operation("replace", "sentence", ordinal=-1), [Block("paragraph", "Une unité engagée ne peut jamais charger.")])
    assert texts(entry) == [CHARGE[0], ("bullet", "Une unité engagée ne peut jamais charger."), CHARGE[2]]


def test_replace_the_last_sentence_of_a_paragraph():
    entry = rule(*CHARGE)
    op = Operation("replace", "sentence", ordinal=-1, within="paragraph", within_ordinal=1)
    change = apply_operation(entry, op, [Block("paragraph", "Sinon elle panique et recule.")])
    assert entry.blocks[0].text == "Une unité qui charge avance de sa vitesse. Elle doit finir au contact. Sinon elle panique et recule."
    assert change.before == "Sinon elle panique." and change.resolution.startswith("sentence -1 of paragraph 1")
    assert texts(entry)[1:] == list(CHARGE[1:])


def test_a_sentence_unlike_the_new_text_is_not_replaced():
    entry = rule(*CHARGE)
    with pytest.raises(NotApplicable, match="is not like the new text"):
        apply_operation(entry, Operation("replace", "sentence", ordinal=1), [Block("paragraph", "Les dés sont lancés par le défenseur.")])
    assert entry.status == "printed" and texts(entry) == list(CHARGE)


def test_sentence_ordinal_beyond_the_paragraph():
    with pytest.raises(OrdinalOutOfRange, match="no sentence 5"):
        apply_operation(rule(*CHARGE), Operation("replace", "sentence", ordinal=5), [Block("paragraph", "x")])


def test_replace_the_whole_entry_keeps_its_links():
    entry = rule(*CHARGE)
    apply_operation(entry, Operation("replace", "entry"), [Block("paragraph", "Une charge est un mouvement."), Block("bullet", "Un seul.")])
    assert texts(entry) == [("paragraph", "Une charge est un mouvement."), ("bullet", "Un seul."), CHARGE[2]]


def test_insert_blocks_before_the_links_once():
    entry = rule(*CHARGE)
    new = [Block("bullet", "Une unité paniquée ne peut pas charger.")]
    assert apply_operation(entry, Operation("insert", "bullet"), new).changed
    assert texts(entry)[-2:] == [("bullet", "Une unité paniquée ne peut pas charger."), CHARGE[2]]
    assert not apply_operation(entry, Operation("insert", "bullet"), new).changed  # already there
    assert len(entry.blocks) == 4


def test_rename():
    entry = rule(*CHARGE, title="Charge")
    change = apply_operation(entry, Operation("replace", "title", after="Charge furieuse"), [])
    assert (entry.title, change.before, entry.status) == ("Charge furieuse", "Charge", "amended")
    assert not apply_operation(entry, Operation("replace", "title", after="Charge furieuse"), []).changed


@pytest.mark.parametrize(("text", "message"), [
    ("Coût : 8 points, 8 figurines.", "occurs 2 time"),  # ambiguous: refused
    ("Coût : 18 points.", "occurs 0 time"),  # "8" inside "18" is not the value
])
def test_a_value_must_occur_once_as_a_word(text, message):
    with pytest.raises(NotApplicable, match=message):
        apply_operation(rule(("paragraph", text)), Operation("replace", "value", before="8", after="7"), [])


def test_a_phrase_already_replaced_changes_nothing():
    entry = rule(("paragraph", "Portée 18ps."))
    change = apply_operation(entry, Operation("replace", "text", before="16ps", after="18ps"), [])
    assert not change.changed and entry.status == "printed"


def test_unsupported_operations_say_so():
    with pytest.raises(NotApplicable, match="delete of a entry is not supported"):
        apply_operation(rule(*CHARGE), Operation("delete", "entry"), [])
    with pytest.raises(NotApplicable, match="cannot locate a bullet without an ordinal or a label"):
        apply_operation(rule(*CHARGE), Operation("replace", "bullet"), [Block("bullet", "x")])


@pytest.mark.parametrize(("count", "ordinal", "index"), [
    (3, 1, 0), (3, 3, 2), (3, -1, 2), (3, -3, 0), (3, 4, None), (3, -4, None), (0, 1, None)])
def test_ordinal_index(count, ordinal, index):
    assert ordinal_index(count, ordinal) == index


def test_a_bullet_spans_its_sub_bullets_when_asked():
    blocks = [Block("bullet", "a"), Block("subbullet", "b"), Block("subbullet", "c"), Block("bullet", "d")]
    assert unit_span(blocks, 0, True) == 3 and unit_span(blocks, 0, False) == 1 and unit_span(blocks, 3, True) == 4


def test_sentences_and_same_text():
    assert sentences("Un. Deux ! « Trois » ? 4 dés.") == ["Un.", "Deux !", "« Trois » ?", "4 dés."]
    assert sentences("Voir p. ex. le 8.2.") == ["Voir p. ex. le 8.2."]  # no capital after: one sentence
    assert same_text("L'unité  attaque (♣).", "l'unite attaque")
    assert not same_text("L'unité attaque.", "L'unité recule.")
