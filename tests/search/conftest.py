"""A small two-game search model, built once per module that asks for it (`two_games`)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from extract.model import Block, Entry
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
def two_games(tmp_path_factory) -> SearchIndex:
    """Orcs et Gobelins (a rule amended, one deleted, one writing an erratum) and Elfes."""
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
