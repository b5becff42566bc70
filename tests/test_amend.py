"""Applying one operation to one entry: which block, checked by similarity, and how."""

from __future__ import annotations

import copy

import pytest

from extract.errata.amend import NotApplicable, OrdinalOutOfRange, apply_operation, similarity
from extract.model import Block, Entry, Operation


def rule(*blocks: tuple[str, str]) -> Entry:
    return Entry("demo", "regles", "rule", "7.2", None, "7.2", blocks=[Block(t, x) for t, x in blocks])


def texts(entry: Entry) -> list[tuple[str, str]]:
    return [(b.type, b.text) for b in entry.blocks]


REFORM = (
    ("paragraph", "Si une unité active effectue une reformation alors qu'elle est engagée, elle peut pivoter."),
    ("bullet", "Après avoir effectué une reformation en étant engagée, l'unité active doit être au contact du même bord."),
    ("bullet", "L'unité active ne peut pas être au contact d'une nouvelle unité ou d'un autre obstacle."),
)


def test_second_paragraph_can_mean_the_second_bullet():
    entry = rule(*REFORM)
    new = [Block("paragraph", "L'unité active ne peut pas être au contact d'une nouvelle unité ennemie ou d'un nouvel autre obstacle.")]
    change = apply_operation(entry, Operation("replace", "paragraph", ordinal=2), new)
    assert "counting bullets as paragraphs" in change.resolution
    assert texts(entry) == [REFORM[0], REFORM[1], ("bullet", new[0].text)]  # keeps the bullet type
    assert entry.status == "amended"
    assert [(b.type, b.text) for b in entry.original_blocks] == list(REFORM)


def test_no_fitting_block_fails_instead_of_guessing():
    entry = rule(*REFORM)
    new = [Block("paragraph", "Les cartes Moral sont mélangées avant chaque partie par le second joueur.")]
    with pytest.raises(NotApplicable, match="no block fits"):
        apply_operation(entry, Operation("replace", "paragraph", ordinal=2), new)
    assert entry.status == "printed" and entry.original_blocks is None
    assert texts(entry) == list(REFORM)


def test_ordinal_beyond_the_blocks():
    entry = rule(*REFORM)
    with pytest.raises(OrdinalOutOfRange, match="no bullet 5"):
        apply_operation(entry, Operation("replace", "bullet", ordinal=5), [Block("paragraph", "x")])


def test_bullet_with_sub_bullets_replaces_one_bullet():
    entry = rule(("paragraph", "La menace est égale au nombre de plateaux."),
                 ("bullet", "Si l'attaquant a plusieurs bords au contact, il choisit."),
                 ("bullet", "Si le bord au contact est raccourci par un rang partiel, calculez comme s'il n'était pas là."),
                 ("related", "Sujets connexes : Attaque"))
    new = [Block("bullet", "Si l'attaquant dispose d'un rang partiel, la menace dépend de ses bords au contact :"),
           Block("subbullet", "Flanc : le nombre de rangs."), Block("subbullet", "Dos : le nombre de plateaux.")]
    apply_operation(entry, Operation("replace", "bullet", ordinal=2, with_subbullets=True), new)
    assert [b.type for b in entry.blocks] == ["paragraph", "bullet", "bullet", "subbullet", "subbullet", "related"]
    assert entry.blocks[1].text.startswith("Si l'attaquant a plusieurs")
    assert entry.blocks[2].text.startswith("Si l'attaquant dispose")


def test_labelled_bullet():
    entry = rule(("bullet", "Élevé : l'unité ignore les autres unités."), ("bullet", "Exposé : l'unité ignore ce terrain."))
    new = [Block("paragraph", "Exposé : l'unité ignore ce terrain si ce n'est pas vers lui qu'elle mesure.")]
    change = apply_operation(entry, Operation("replace", "bullet", label="Exposé"), new)
    assert change.resolution.startswith("bullet starting with « Exposé »")
    assert texts(entry)[1] == ("bullet", new[0].text)
    assert texts(entry)[0] == ("bullet", "Élevé : l'unité ignore les autres unités.")


def test_applying_twice_changes_nothing():
    entry = rule(*REFORM)
    new = [Block("paragraph", "L'unité active ne peut pas être au contact d'une nouvelle unité ennemie ou d'un nouvel autre obstacle.")]
    op = Operation("replace", "paragraph", ordinal=2)
    apply_operation(entry, op, new)
    once = copy.deepcopy(entry)
    change = apply_operation(entry, op, new)
    assert not change.changed and "already reads so" in change.resolution
    assert texts(entry) == texts(once) and entry.original_blocks == once.original_blocks


def test_dropped_sentence_is_noted():
    entry = rule(("paragraph", "Si une carte a une instruction de mise en place, résolvez-la à la mise en place. "
                               "Si elle a une instruction de fin de partie, résolvez-la après le dernier round."))
    new = [Block("paragraph", "Si une carte a une instruction de mise en place, résolvez-la durant l'étape des objectifs.")]
    change = apply_operation(entry, Operation("replace", "paragraph", ordinal=1), new)
    assert change.notes == ["the new text no longer has the sentence « Si elle a une instruction de fin de partie, "
                            "résolvez-la après le dernier round. »"]


def test_move_first_bullet_last_with_new_text():
    entry = rule(("bullet", "Si une carte inflige une condition unique déjà infligée ailleurs, l'ancienne est défaussée."),
                 ("bullet", "Quand une condition est défaussée, le pion aussi."),
                 ("caption", "Carte"))
    new = [Block("paragraph", "Si l'effet d'une carte inflige une condition unique déjà infligée ailleurs, l'ancienne est défaussée.")]
    apply_operation(entry, Operation("move", "bullet", ordinal=1, position="last"), new)
    assert texts(entry) == [("bullet", "Quand une condition est défaussée, le pion aussi."), ("bullet", new[0].text), ("caption", "Carte")]
    change = apply_operation(entry, Operation("move", "bullet", ordinal=1, position="last"), new)
    assert not change.changed and "already reads so" in change.resolution


def test_phrase_replacement_counts_occurrences():
    entry = rule(("paragraph", "Portée 16ps au plus, ou 16ps en ligne droite."))
    apply_operation(entry, Operation("replace", "text", before="16ps", after="18ps", count=2), [])
    assert entry.blocks[0].text == "Portée 18ps au plus, ou 18ps en ligne droite."
    with pytest.raises(NotApplicable, match="occurs 1 time"):
        apply_operation(rule(("paragraph", "Portée 16ps.")), Operation("replace", "text", before="16ps", after="18ps", count=2), [])


def test_insert_at_end_of_a_paragraph():
    entry = rule(("paragraph", "Premier."), ("paragraph", "Les renforts arrivent par un bord."))
    op = Operation("insert", "text", position="end", within="paragraph", within_ordinal=2)
    apply_operation(entry, op, [Block("paragraph", "Ils sont déployés à portée 2.")])
    assert entry.blocks[1].text == "Les renforts arrivent par un bord. Ils sont déployés à portée 2."
    assert not apply_operation(entry, op, [Block("paragraph", "Ils sont déployés à portée 2.")]).changed


def test_value_et_non():
    entry = rule(("paragraph", "Coût : 8 points. Portée 3."))
    apply_operation(entry, Operation("replace", "value", before="8", after="7"), [])
    assert entry.blocks[0].text == "Coût : 7 points. Portée 3."


def test_similarity_reads_content_words():
    assert similarity("Si le bord au contact est raccourci par un rang partiel", "si l'attaquant dispose d'un rang partiel") > \
        similarity("Si l'attaquant a plusieurs bords en contact", "les cartes Moral sont mélangées")
