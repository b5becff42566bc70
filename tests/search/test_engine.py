"""extract/search/engine.py on a small two-game model built here: a game named in the query is
a filter shown to the user, a question about changes finds the errata and the rules they changed."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from extract.model import Block, Entry
from extract.search import words as W
from extract.search.engine import SearchIndex
from extract.search.model import build_model, write_model
from extract.search.scopes import scope_names


def make(game: str, key: str, title: str | None, text: str, **extra) -> Entry:
    entry = Entry(game, "regles", "rule", None, title, key)
    entry.blocks = [Block("paragraph", line) for line in text.split("\n")]
    entry.url = f"{game}/regles/{key}/"
    for name, value in extra.items():
        setattr(entry, name, value)
    return entry


GAMES = [SimpleNamespace(id="orcs", title="Orcs et Gobelins : Escarmouches", short_title=None,
                         documents=[SimpleNamespace(id="regles", title="Livret de règles")]),
         SimpleNamespace(id="elfes", title="Elfes", short_title=None,
                         documents=[SimpleNamespace(id="regles", title="Règles")])]


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> SearchIndex:
    entries = [
        make("orcs", "1", "Moral", "Une unité teste son moral quand elle perd la moitié de ses figurines."),
        make("orcs", "2", "Tir", "Une unité tire sur une cible en ligne de vue.", status="amended"),
        make("orcs", "3", "Vieux tir", "Une unité tire deux fois.", status="deleted"),
        make("orcs", "faq1", "Tir, page 3", "Le texte du tir devrait dire : une unité tire sur une cible en ligne de vue."),
        make("elfes", "1", "Moral", "Un elfe teste son moral quand son chef est éliminé, et le moral de la bande baisse."),
        make("elfes", "2", "Tir", "Un elfe tire à l'arc sur une cible visible."),
    ]
    folder = tmp_path_factory.mktemp("engine")
    model = build_model(entries, {}, (), {}, {"orcs": "Orcs et Gobelins", "elfes": "Elfes"},
                        scopes=scope_names(GAMES), changes={"orcs/regles/faq1"})
    write_model(folder, model)
    (folder / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["elfes", "orcs"],
                                                  "documents": ["elfes/regles", "orcs/regles"], "kinds": ["rule"]}),
                                      encoding="utf-8")
    return SearchIndex(Path(folder))


def test_a_game_named_filters_and_is_shown(index):
    hits = index.search("moral des elfes")
    assert {h.game for h in hits} == {"elfes"} and hits[0].scope == "Elfes"
    hits = index.search("le moral à orcs et gobelins ?")
    assert {h.game for h in hits} == {"orcs"} and hits[0].scope == "Orcs et Gobelins"
    assert {h.game for h in index.search("moral")} == {"orcs", "elfes"}  # no name: every game
    assert index.search("moral")[0].scope is None


def test_a_filter_given_wins_over_another_game_named(index):
    hits = index.search("moral elfes", game="orcs")
    assert {h.game for h in hits} <= {"orcs"} and hits[0].scope is None


def test_a_question_about_changes_finds_errata_and_changed_rules_first(index):
    assert W.change_asked("Ce qui a changé pour le tir ?")[0]
    assert W.change_asked("errata du tir")[0] and not W.change_asked("le tir à l'arc")[0]
    plain = [h.id for h in index.search("tir", game="orcs")]
    changed = [h.id for h in index.search("ce qui a changé pour le tir", game="orcs")]
    assert "orcs/regles/3" not in plain  # a deleted rule is hidden…
    assert "orcs/regles/3" in changed  # …unless the question is about changes
    assert set(changed[:3]) == {"orcs/regles/2", "orcs/regles/3", "orcs/regles/faq1"}  # every change first
    assert {h.id for h in index.search("errata orcs et gobelins")} == {"orcs/regles/2", "orcs/regles/3", "orcs/regles/faq1"}
