"""extract/search/scopes.py: games and documents named in a query are filters, from the manifests."""

from __future__ import annotations

from types import SimpleNamespace

from extract.search.scopes import find_scope, initials, scope_names, scope_phrases


def game(id_: str, title: str, short: str | None = None, documents=()):
    return SimpleNamespace(id=id_, title=title, short_title=short,
                           documents=[SimpleNamespace(id=d, title=t) for d, t in documents])


GAMES = [
    game("black-rose", "Les Chroniques de la Rose Noire — Jeu de Plateau", documents=[("livret", "Livret de Règles v2.0"),
                                                                                     ("aide", "Aide")]),
    game("starfall", "StarFall : Escarmouches", "StarFall", documents=[("regles", "Règles de base")]),
]
PHRASES = scope_phrases(scope_names(GAMES))


def test_names_come_from_the_manifests_titles_ids_and_spellings():
    words = {tuple(p[0]): (p[1], p[2]) for p in PHRASES}
    assert words[("starfall",)] == ("starfall", "")
    assert words[("star", "fall")] == ("starfall", "")  # CamelCase typed apart
    assert words[("black", "rose")] == ("black-rose", "")  # the id as words
    assert words[("chroniques", "rose", "noire")] == ("black-rose", "")  # the title before its subtitle
    assert words[("crn",)] == words[("cdlrn",)] == ("black-rose", "")  # its initials
    assert words[("livret", "regles")] == ("black-rose", "livret")  # a document, without its version
    assert not any(p[2] == "aide" for p in PHRASES)  # a one-word document title is a word of the rules
    assert not any(p[1] == "starfall" and p[2] for p in PHRASES)  # a game's only book: its rules, said generically


def test_initials_need_a_long_title():
    assert initials("Le Seigneur des Anneaux") == ["sda"]
    assert initials("Runewars") == []


def test_a_named_game_is_a_filter_not_a_word():
    scope = find_scope(["moral", "starfall"], PHRASES, {"moral"})
    assert (scope.words, scope.games, scope.documents) == (["moral"], {"starfall"}, set())
    scope = find_scope(["combien", "heros", "chroniques", "rose", "noire"], PHRASES, set())
    assert scope.words == ["combien", "heros"] and scope.games == {"black-rose"}


def test_a_document_named_and_a_name_one_edit_away():
    scope = find_scope(["tir", "livret", "regles"], PHRASES, {"tir"})
    assert scope.documents == {"black-rose/livret"} and scope.words == ["tir"]
    assert find_scope(["starfal", "tir"], PHRASES, {"tir"}).games == {"starfall"}  # a typo of a long name
    assert find_scope(["starfal", "tir"], PHRASES, {"tir", "starfal"}).games == set()  # …not a word of the books


def test_a_query_of_names_only_is_searched_as_words():
    scope = find_scope(["starfall"], PHRASES, set())
    assert scope.words == ["starfall"] and not scope.games
