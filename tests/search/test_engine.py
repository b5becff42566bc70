"""extract/search/engine.py on a small two-game model (conftest.py): a game named in the query is
a filter shown to the user, a question about changes finds the errata and the rules they changed."""

from __future__ import annotations

import pytest

from extract.errors import InputError
from extract.search import words as W
from extract.search.engine import SearchIndex


def test_a_game_named_filters_and_is_shown(two_games):
    hits = two_games.search("moral des elfes")
    assert {h.game for h in hits} == {"elfes"} and hits[0].scope == "Elfes"
    hits = two_games.search("le moral à orcs et gobelins ?")
    assert {h.game for h in hits} == {"orcs"} and hits[0].scope == "Orcs et Gobelins"
    assert {h.game for h in two_games.search("moral")} == {"orcs", "elfes"}  # no name: every game
    assert two_games.search("moral")[0].scope is None


def test_a_filter_given_wins_over_another_game_named(two_games):
    hits = two_games.search("moral elfes", game="orcs")
    assert {h.game for h in hits} <= {"orcs"} and hits[0].scope is None


def test_a_question_about_changes_finds_errata_and_changed_rules_first(two_games):
    assert W.change_asked("Ce qui a changé pour le tir ?")[0]
    assert W.change_asked("errata du tir")[0] and not W.change_asked("le tir à l'arc")[0]
    assert W.change_asked("le tir sur 6, c'est toujours la règle ?")[0] and W.change_asked("encore valable ?")[0]
    assert not W.change_asked("tirer toujours sur la cible")[0]
    # asked with the subject after the verb, or in the passive
    asked, bare = W.change_asked("la règle du tir a-t-elle été supprimée ?")
    assert asked and bare.split() == ["la", "regle", "du", "tir", "?"]
    assert W.change_asked("ce tir est-il supprimé")[0] and W.change_asked("les tirs ont-ils été modifiés")[0]
    assert not W.change_asked("une figurine est retirée de la table")[0]
    plain = [h.id for h in two_games.search("tir", game="orcs")]
    changed = [h.id for h in two_games.search("ce qui a changé pour le tir", game="orcs")]
    assert "orcs/regles/3" not in plain  # a deleted rule is hidden…
    assert "orcs/regles/3" in changed  # …unless the question is about changes
    assert set(changed[:3]) == {"orcs/regles/2", "orcs/regles/3", "orcs/regles/faq1"}  # every change first
    assert {h.id for h in two_games.search("errata orcs et gobelins")} == {"orcs/regles/2", "orcs/regles/3", "orcs/regles/faq1"}


@pytest.mark.parametrize("model", ["[" * 100_000 + "]" * 100_000, "[]", "{"])
def test_a_damaged_model_is_named_by_the_python_api_too(tmp_path, model):
    """Not only the CLI: `SearchIndex` itself names a damaged model (too deep, not a model, not
    JSON) instead of raising the parser's RecursionError or ValueError."""
    (tmp_path / "meta.json").write_text("{}", encoding="utf-8")
    (tmp_path / "model.json").write_text(model, encoding="utf-8")
    with pytest.raises(InputError, match="model.json"):
        SearchIndex(tmp_path)


def test_a_search_confined_to_a_game_is_never_empty_when_some_word_is_held(two_games):
    query = "moral zorglub quibidou"  # one word of three held: below every floor
    assert two_games.search(query) == []  # every game: nonsense stays empty
    assert {h.id for h in two_games.search(query, game="elfes")} == {"elfes/regles/1"}
    assert {h.id for h in two_games.search(f"{query} chez les elfes")} == {"elfes/regles/1"}  # a game named


def frame_index(tmp_path) -> SearchIndex:
    """Two rules of the same words, one of which states a number."""
    from tests.search.test_understanding import make, one_game_index

    return one_game_index(tmp_path, [make("1", "Pioche", "Un joueur garde ses cartes en main."),
                                     make("2", "Défausse", "Un joueur garde quatre cartes en main.")])


def test_a_question_asking_how_many_favours_the_rule_stating_a_number(tmp_path):
    """'combien …' asks for a number (words.ANSWER_FRAMES): of two rules holding the question's
    words, the one that states a number comes first; the same words asked otherwise do not."""
    index = frame_index(tmp_path)
    assert [h.id for h in index.search("on garde des cartes en main")][0] == "jeu/regles/1"
    assert [h.id for h in index.search("combien de cartes on garde en main")][0] == "jeu/regles/2"


@pytest.mark.parametrize(("question", "frames"), [
    ("combien de cartes on garde en main ?", {"quantity"}),
    ("le nombre de dés lancés", {"quantity"}),
    ("dans quel ordre les unités jouent ?", {"order"}),
    ("deux troupes à égalité, laquelle agit d'abord ?", {"order"}),
    ("qui commence à jouer", {"order"}),
    ("qui joue en premier dans le round, combien de dés ?", {"order", "quantity"}),
    ("je tire sur une unité engagée", set()),
    ("les premières figurines", set()),  # "premier" alone orders nothing
    ("où pose-t-on les cartes amélioration ?", {"place"}),
    ("mes renforts arrivent, je les pose où ?", {"place"}),
    ("tirer dans une bagarre où se trouvent mes soldats", set()),  # a relative "où" asks no place
    ("quand est-ce qu'une figurine est retirée ?", {"time"}),
    ("le modificateur compte à partir de quand ?", {"time"}),
    ("je tire quand un ennemi est au contact", set()),  # a "quand" inside the question asks no time
])
def test_the_frames_a_question_asks(question, frames):
    import re

    folded = W.fold(question)
    assert {name for name, asked, _, _ in W.ANSWER_FRAMES if re.search(asked, folded)} == frames


def title_index(tmp_path) -> SearchIndex:
    """Two rules of the same text, one whose name shares a word with the questions below, the
    other named by one of their words (an index term); and rules around."""
    from tests.search.test_understanding import make, one_game_index

    text = "À chaque round, les joueurs reprennent leurs pions."
    return one_game_index(tmp_path, [make("1", "Fin du round de bataille", text),
                                     make("2", "Tour de jeu", text, index_terms=["Pions"]),
                                     make("3", "Moral", "Une unité paniquée recule."),
                                     make("4", "Tir", "Une unité tire sur une cible.")])


def test_a_word_of_a_longer_title_does_not_name_its_rule(tmp_path):
    """The bonus of a word typed in an entry's title or names goes to the entries the query
    names: a title held whole (or one of its parts: `test_model`), or another name. "round" is
    a word of "Fin du round de bataille", not its name."""
    index = title_index(tmp_path)
    assert [h.id for h in index.search("pions round")][:2] == ["jeu/regles/2", "jeu/regles/1"]
    assert [h.id for h in index.search("fin du round de bataille")][0] == "jeu/regles/1"


def test_a_one_word_query_still_names_the_rule_its_word_titles(tmp_path):
    """Alone, the word asks for the rule it titles ("vue" for "Ligne de vue"): no other word of the
    question competes with it, so the title's other words are not needed."""
    from tests.search.test_understanding import make, one_game_index

    index = one_game_index(tmp_path, [make("1", "Fin du round", "Les joueurs reprennent leurs pions."),
                                      make("2", "Tour de jeu", "Au round suivant, chaque round commence par le moral du round.")])
    assert [h.id for h in index.search("round")][0] == "jeu/regles/1"
    assert [h.id for h in index.search("moral round")][0] == "jeu/regles/2"  # among other words, a lure
