"""The site's search box (site/assets/regles-search.js) ranks as `regles search` does, checked
without a browser: the box script run by Node (tools/box_node.js) on a small model built here,
and, in the corpus tier, on the real corpus's model with every query set."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from extract.search.engine import SearchIndex

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or shutil.which("nodejs")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node is absent: the box's parity is checked in the browser tests only")

QUERIES = [
    ("moral", None), ("moral des elfes", None), ("le moral à orcs et gobelins ?", None), ("moral elfes", "orcs"),
    ("tir", "orcs"), ("ce qui a changé pour le tir", None), ("errata orcs et gobelins", None), ("errata", None),
    ("tire sur une cible", None), ("moral chef", "elfes"), ("orcs", None), ("elfe", None), ("constructor", None),
    ("__proto__ tir", None), ("tirr cible", None), ("quand est-ce qu'un elfe teste son moral ?", None),
]


def box(model: Path, queries: list[tuple[str, str | None]]) -> list[list[str]]:
    done = subprocess.run([NODE, str(ROOT / "tools" / "box_node.js"), str(model)], input=json.dumps(queries),
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def test_the_box_ranks_as_the_cli_on_a_small_model(two_games):
    expected = [[h.id for h in two_games.search(text, game=game, limit=10)] for text, game in QUERIES]
    assert any(expected) and box(two_games.folder / "model.json", QUERIES) == expected


@pytest.mark.corpus
def test_the_box_ranks_as_the_cli_on_every_query_set(built):
    from tools.bench_search import load_relevance

    search = SearchIndex(built["out"] / "search")
    sets = sorted((ROOT / "tests" / "fixtures").glob("search_*.toml"))
    queries = [(item["text"], item.get("game")) for path in sets for item in load_relevance(path)]
    queries += [("combien de héros dans une bande à warcry", None), ("ce qui a changé pour la ligne de vue", None),
                ("errata runewars", None), ("line of sight", None)]
    expected = [[h.id for h in search.search(text, game=game, limit=10)] for text, game in queries]
    assert len(sets) >= 10 and box(built["out"] / "search" / "model.json", queries) == expected


def test_the_box_reads_pronominal_verbs_as_the_cli(tmp_path):
    from tests.search.test_understanding import pronominal_index

    index = pronominal_index(tmp_path)
    queries = [("je me tire du combat", None), ("je tire", None), ("il me tire dessus", None), ("je retape un gars", None),
               ("s'enfuir se", None), ("tirer zorglub quibidou", "jeu"), ("je me tire au combat", None),
               ("je me fais tirer au combat", None), ("je tire au combat", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[0][0] == "jeu/regles/2" and box(tmp_path / "model.json", queries) == expected


def test_the_box_reads_inflections_as_the_cli(tmp_path):
    from tests.search.test_understanding import inflection_index

    index = inflection_index(tmp_path)
    queries = [("il tape", None), ("une unité qui cogne", None), ("horaires du train pour Lyon", None), ("horaires", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[1] and box(tmp_path / "model.json", queries) == expected


def test_the_box_fills_a_short_list_as_the_cli(tmp_path):
    from tests.search.test_understanding import floor_index

    index = floor_index(tmp_path)
    queries = [("avancer ennemi vient", "jeu"), ("avancer ennemi vient", None), ("ennemi vient", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert "jeu/regles/1" in expected[0] and box(tmp_path / "model.json", queries) == expected


def test_the_box_reads_a_question_frame_as_the_cli(tmp_path):
    from tests.search.test_engine import frame_index

    index = frame_index(tmp_path)
    queries = [("on garde des cartes en main", None), ("combien de cartes on garde en main", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[1][0] == "jeu/regles/2" and box(tmp_path / "model.json", queries) == expected


def test_the_box_names_rules_by_their_titles_as_the_cli(tmp_path):
    from tests.search.test_engine import title_index

    index = title_index(tmp_path)
    queries = [("pions round", None), ("fin du round de bataille", None), ("round", None), ("tour de jeu pions", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[0][0] == "jeu/regles/2" and box(tmp_path / "model.json", queries) == expected


def test_the_box_reads_the_books_expressions_as_the_cli(tmp_path):
    from tests.search.test_understanding import expression_index

    index = expression_index(tmp_path)
    queries = [("baffe", None), ("canarder", None), ("baffe canarder", None), ("canarder une distance", "jeu")]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[0][0] == "jeu/regles/2" and box(tmp_path / "model.json", queries) == expected


def test_the_box_breaks_expressions_at_table_talk_as_the_cli(tmp_path):
    from tests.search.test_understanding import contact_index, expression_index

    # the break changes the ranking: "tirer au contact" is the thesaurus's expression (the rule on
    # point-blank shots first); with table talk between its words, it is not read at all
    for name in ("contact", "expression"):
        (tmp_path / name).mkdir()
    index = contact_index(tmp_path / "contact")
    queries = [("tirer au contact", None), ("une unité peut tirer alors qu'elle est au contact ?", None),
               ("tirer alors au contact", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[0][0] == "jeu/regles/2" and expected[1] and "jeu/regles/2" not in expected[1]
    assert box(tmp_path / "contact" / "model.json", queries) == expected

    index = expression_index(tmp_path / "expression")
    queries = [("baffe alors qu'il canarder", None), ("corps franchement à corps", None), ("baffe est-ce que canarder", None),
               ("attaque alors distance", None), ("attaque distance", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert box(tmp_path / "expression" / "model.json", queries) == expected


def test_the_box_weighs_a_long_expression_as_the_cli(tmp_path):
    from tests.search.test_understanding import card_index

    index = card_index(tmp_path)
    queries = [("une unité peut canarder ?", None), ("canarder", None), ("canarder une unité", None)]
    expected = [[h.id for h in index.search(text, game=game, limit=10)] for text, game in queries]
    assert expected[0][:2] == ["jeu/regles/1", "jeu/regles/2"] and box(tmp_path / "model.json", queries) == expected
