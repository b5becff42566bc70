"""extract/cli/trial.py: `regles extract --manifest` reads a document as the build reads it —
on the real corpus, the same entries (ids, kinds, source lines) as the build's, before errata."""

from __future__ import annotations

import pytest

from extract.cli.trial import extract_from_manifest, origin
from tests.conftest import ROOT


@pytest.mark.corpus
def test_every_corpus_document_reads_as_in_the_build(built, monkeypatch, tmp_path):
    monkeypatch.setenv("REGLES_CACHE_DIR", str(tmp_path))
    for game_id, game in sorted(built["games"].items()):
        printed = {(e["id"], e["kind"], tuple(e["source"]["lines"])) for e in game["entries"] if e["status"] != "added"}
        tried = {(e["id"], e["kind"], tuple(e["source"]["lines"]))
                 for doc in extract_from_manifest(ROOT / "corpus" / game_id / "game.toml") for e in doc["entries"]}
        assert tried == printed, game_id


def test_origin_names_page_and_lines():
    assert origin({"source": {"lines": [12, 20], "page": 3}}) == "p. 3, l. 12–20"
    assert origin({"source": {"lines": [7, 7]}}) == "l. 7"
    assert origin({"source": {"lines": []}}) == ""
