"""The site's search box (site/assets/regles-search.js) ranks as `regles search` does
(extract/search/engine.py), checked without a browser: the box's script runs under Node.js
(Debian's `nodejs`) on a small model built here, and gives the same ten ids for every query,
in order. (The browser test checks the same on the real corpus's model, in a real page.)"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from extract.model import Block, Entry, Ref
from extract.search.engine import SearchIndex
from extract.search.model import build_model, write_model
from tests.conftest import ROOT

NODE = shutil.which("node") or shutil.which("nodejs")
SCRIPT = ROOT / "site" / "assets" / "regles-search.js"
# The page the box lives in, as much of it as the script touches: no element, a fetch that reads
# the model's file; then each query of argv's file asked as a test in a page asks it.
HARNESS = """
const fs = require("fs");
const [script, modelFile, queriesFile] = process.argv.slice(2);
globalThis.window = globalThis;
window.addEventListener = () => {};
globalThis.document = {getElementById: () => null};
globalThis.fetch = async () => ({json: async () => JSON.parse(fs.readFileSync(modelFile, "utf8"))});
eval(fs.readFileSync(script, "utf8"));
(async () => {
  const out = [];
  for (const [query, game] of JSON.parse(fs.readFileSync(queriesFile, "utf8"))) out.push(await window.reglesSearch(query, game));
  process.stdout.write(JSON.stringify(out));
})();
"""
QUERIES = [("débordement", None), ("deborder", None), ("unité qui déborde", None), ("moral", None), ("morale", None),
           ("mral", None), ("36.1", None), ("36", None), ("fuir le combat", None), ("désengagement", None),
           ("repositionement", None), ("dés de dégâts", "jeu"), ("dés", "autre"), ("flanc ou dos", None),
           ("charge", None), ("la charge de cavalerie", "autre"), ("constructor", None), ("__proto__", None),
           ("", None), ("l'unité", None), ("Quand le paquet est vide ?", None)]


def make(game: str, key: str, title: str | None, text: str, parent: Entry | None = None, **extra) -> Entry:
    entry = Entry(game, "regles", "rule", None, title, key, parent=parent)
    entry.blocks = [Block("paragraph", line) for line in text.split("\n")]
    entry.url = f"{game}/regles/{key}/"
    for name, value in extra.items():
        setattr(entry, name, value)
    return entry


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    topic = make("jeu", "36", "Débordement", "Une unité qui déborde une unité ennemie attaque son flanc ou son dos.")
    rule = make("jeu", "36.1", None, "Quand une unité déborde, elle relance ses dés de dégâts.", parent=topic)
    topic.children.append(rule)
    entries = [topic, rule,
               make("jeu", "57", "Moral", "Quand le paquet Moral est vide, mélangez la défausse pour former un nouveau paquet."),
               make("jeu", "77", "Repositionnement", "Une unité engagée peut se désengager par un repositionnement."),
               make("jeu", "12", "Désengagement", "Voir « Repositionnement ».", flags=["redirect"],
                    refs=[Ref("jeu/regles/77", "see", "Repositionnement")]),
               make("autre", "charge", "Charge", "Une unité de cavalerie qui charge lance un dé de plus."),
               make("autre", "des", "Dés", "Les dés de combat ont six faces ; un dé de moral en a quatre.")]
    folder = tmp_path_factory.mktemp("search")
    write_model(folder, build_model(entries, {}, [(["fuir le combat", "s'enfuir"], ["désengager"])],
                                    {"jeu/regles/57": ["Morale"]},
                                    {"jeu": "Le Jeu", "jeu/regles": "Règles", "autre": "L'Autre", "autre/regles": "Règles"}))
    (folder / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["autre", "jeu"],
                                                  "documents": ["autre/regles", "jeu/regles"], "kinds": ["rule"]}),
                                      encoding="utf-8")
    return folder


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (Debian's nodejs): the browser test checks the box")
def test_the_box_script_ranks_every_query_as_regles_search(model: Path, tmp_path: Path):
    index = SearchIndex(model)
    expected = [[hit.id for hit in index.search(query, game=game, limit=10)] for query, game in QUERIES]
    assert any(len(ids) > 1 for ids in expected)  # rankings, not only empty answers
    queries = tmp_path / "queries.json"
    queries.write_text(json.dumps(QUERIES), encoding="utf-8")
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS, encoding="utf-8")
    run = subprocess.run([str(NODE), str(harness), str(SCRIPT), str(model / "model.json"), str(queries)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout)
    assert {query: ids for (query, _), ids in zip(QUERIES, found, strict=True)} == \
        {query: ids for (query, _), ids in zip(QUERIES, expected, strict=True)}
