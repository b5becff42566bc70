"""`corpus/thesaurus.toml` and the search tables of `terms.toml`: read strictly, errors name the
file and line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from extract.corpus import builtin_thesaurus, read_term_config, read_thesaurus
from extract.corpus.thesaurus import ENGLISH
from extract.errors import InputError
from extract.search import words as W


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def test_same_and_means(tmp_path):
    write(tmp_path, "corpus/thesaurus.toml", '[[same]]\nwords = ["pivoter", "tourner"]\n\n'
          '[[means]]\nsay = ["fuir le combat"]\nbooks = ["désengagement"]\n')
    assert read_thesaurus(tmp_path) == [(["pivoter"], ["tourner"]), (["tourner"], ["pivoter"]),
                                        (["fuir le combat"], ["désengagement"])]


def test_no_thesaurus_is_no_synonym(tmp_path):
    assert read_thesaurus(tmp_path) == []


def test_the_tool_has_its_own_table_talk_for_any_rulebook():
    """A corpus without thesaurus still reads "la partie se termine" as the end of the game and
    "buter" as killing: the tool's French table talk (extract/corpus/thesaurus.toml)."""
    found = builtin_thesaurus()
    assert any("la partie se termine" in said and "fin de partie" in meant for said, meant, *_ in found)
    assert any("buter" in said and "éliminé" in meant for said, meant, *_ in found)
    assert any("se battre" in said and "combat" in meant for said, meant, *_ in found)  # a pronominal verb
    # "y passer" (to die) would be read "passer": every "passer" a death
    assert not any(W.words_of(e, talk=False) in (["passer"], ["rester"], ["oeil"]) for said, _, *_ in found for e in said)
    # What is true of this corpus's games only stays in its corpus/thesaurus.toml.
    assert not any("cadran" in meant for _, meant, *_ in found)


def test_the_genres_english_terms_reach_the_french_books_words_for_every_game():
    """English wargame terms, declared once (extract/corpus/english.toml), for any rulebook; none
    is spelled as a French word it stands for."""
    found = builtin_thesaurus()
    assert any(("line of sight" in said and "ligne de vue" in meant and rest == ["", "en"]) for said, meant, *rest in found)
    assert any("reroll" in said and "relancer" in meant for said, meant, *_ in found)
    glossary = tomllib.loads(ENGLISH.read_text(encoding="utf-8"))["means"]
    english = {w for group in glossary for w in group["say"]}
    assert not english & {w for group in glossary for w in group["books"]}


@pytest.mark.parametrize(("text", "message", "line"), [
    ('[[same]]\nwords = ["seul"]\n', "needs two expressions", 1),
    ('[[same]]\nwords = ["a", "b"]\n\n[[means]]\nsay = ["x"]\n', "books must be a non-empty list", 4),
    ('[[means]]\nsay = ["x"]\nbooks = ["y"]\nweight = 2\n', "unknown key 'weight'", 1),
    ('[[same]]\nwords = ["a", 3]\n', "non-empty list of expressions", 1),
    ('[synonyms]\na = 1\n', "unknown key 'synonyms'", None),
    ('[[same]]\nwords = ["a", "b"]]\n', "invalid TOML", 2),
])
def test_mistakes_name_file_and_line(tmp_path, text, message, line):
    write(tmp_path, "corpus/thesaurus.toml", text)
    with pytest.raises(InputError) as caught:
        read_thesaurus(tmp_path)
    assert caught.value.file == "corpus/thesaurus.toml" and message in str(caught.value)
    if line is not None:
        assert caught.value.line == line


def test_terms_names_and_synonyms(tmp_path):
    write(tmp_path, "corpus/jeu/terms.toml", '[names]\n"Firing Arc" = "reference/8"\n'
          '"Line of Sight" = ["reference/49", "jeu/apprentissage/ldv"]\n\n'
          '[[means]]\nsay = ["demi-tour"]\nbooks = ["reformation"]\n')
    config = read_term_config(tmp_path, "jeu")
    assert config.names == {"jeu/reference/8": ["Firing Arc"], "jeu/reference/49": ["Line of Sight"],
                            "jeu/apprentissage/ldv": ["Line of Sight"]}
    assert config.synonyms == [(["demi-tour"], ["reformation"])]


def test_a_name_must_name_entries(tmp_path):
    write(tmp_path, "corpus/jeu/terms.toml", '[names]\n"Firing Arc" = 8\n')
    with pytest.raises(InputError) as caught:
        read_term_config(tmp_path, "jeu")
    assert caught.value.line == 2 and "an entry id or a list of ids" in str(caught.value)


@pytest.mark.parametrize(("word", "other"), [
    ("gagner", "obtenir"),    # to win the game, not to obtain a result
    ("court", "courir"),      # a short range, not running
    ("achever", "terminer"),  # finishing off a unit, not ending the turn
    ("annuler", "ignorer"),   # cancelling an attack is a rule of its own
])
def test_a_word_with_a_second_sense_in_rules_is_no_synonym_of_the_other(word: str, other: str):
    found = builtin_thesaurus()
    assert not any(word in said and other in meant for said, meant, *_ in found)
