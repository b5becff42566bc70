"""Concept links: the same subject in the other book of a game, and in the other games."""

from __future__ import annotations

import pytest

from extract.corpus import read_concepts
from extract.errors import InputError


def concepts(built, entry_id: str) -> set[str]:
    return {r["target"] for r in built["entries"][entry_id]["refs"] if r["kind"] == "concept"}


@pytest.mark.parametrize(("learn", "reference"), [
    ("runewars/apprentissage/actions/test-de-moral", "runewars/reference/85"),
    ("runewars/apprentissage/regles-avancees/terrain", "runewars/reference/84"),
    ("runewars/apprentissage/actions/collision", "runewars/reference/26"),
    ("runewars/apprentissage/unites", "runewars/reference/88"),
])
def test_learn_to_play_and_reference_link_both_ways(built, learn, reference):
    assert reference in concepts(built, learn)
    assert learn in concepts(built, reference)


def test_titles_joined_by_et_name_two_subjects(built):
    assert concepts(built, "runewars/apprentissage/actions/obstacles-et-collisions") == {
        "runewars/reference/60", "runewars/reference/26"}
    assert concepts(built, "runewars/apprentissage/actions/portee-et-ligne-de-vue") >= {
        "runewars/reference/67", "runewars/reference/49"}


def test_a_same_named_section_does_not_stand_for_the_topic(built):
    # "Unités" in the learn-to-play is about units; "Unités" under army building is about picking them.
    assert "runewars/reference/construction-d-armee/unites" not in concepts(built, "runewars/apprentissage/unites")


def test_across_games_from_the_concept_file(built):
    assert concepts(built, "runewars/reference/49") == {
        "runewars/apprentissage/actions/portee-et-ligne-de-vue",  # same game, other book
        "sda-jfe/tournoi/5/ligne-de-vue-ldv",  # "Ligne de Vue (LDV)"
        "warcry/regles/regles-de-base/visibilite",  # "VISIBILITÉ" (printed "VISIBILITE")
        "battlelore/resume/combat/portee-et-ligne-de-mire",  # "Portée et Ligne de Mire"
    }
    assert "runewars/reference/49" in concepts(built, "battlelore/resume/combat/portee-et-ligne-de-mire")
    for entry in built["entries"].values():
        for ref in entry["refs"]:
            if ref["kind"] == "concept" and ref["target"].split("/")[0] == entry["game"]:
                assert ref["target"].split("/")[1] != entry["document"], (entry["id"], ref)


def test_concept_file_errors(tmp_path):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "concepts.toml").write_text('[[concept]]\nname = "Moral"\nterms = ["Moral"]\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"corpus/concepts.toml:1: a \[\[concept\]\] needs a name and at least two terms"):
        read_concepts(tmp_path)
