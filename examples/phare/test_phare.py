"""The worked example stays true: its PDF is what make_pdf.py draws from its text, and its
finished manifest loads, names every file with its SHA-256 and reads each document with its
options (the tutorial, run by tests/test_docs.py, builds it into a site)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from examples.phare.make_pdf import PDF, TEXT, make
from extract.cli.trial import extract_from_manifest
from extract.corpus import check_sources, load_game
from extract.segment import option_classes

HERE = Path(__file__).resolve().parent


def test_the_pdf_is_what_make_pdf_draws_from_the_text():
    assert make(TEXT.read_text(encoding="utf-8")) == PDF.read_bytes()


def test_the_finished_manifest_reads_both_documents_with_its_options(tmp_path, monkeypatch):
    monkeypatch.setenv("REGLES_CACHE_DIR", str(tmp_path / "cache"))
    game = tmp_path / "corpus" / "phare"
    game.mkdir(parents=True)
    for name in ("game.toml", "regles-du-phare.pdf", "faq-du-phare.md"):
        shutil.copyfile(HERE / name, game / name)
    spec = load_game(game / "game.toml", tmp_path, option_classes())
    check_sources(spec, tmp_path)  # every sha256 matches
    assert spec.sources == {f"corpus/phare/{name}": hashlib.sha256((HERE / name).read_bytes()).hexdigest()
                            for name in ("regles-du-phare.pdf", "faq-du-phare.md")}
    found = {doc["document"]: doc for doc in extract_from_manifest(game / "game.toml")}
    rules, faq = found["regles-du-phare"], found["faq-du-phare"]
    assert {"lines": [40, 40], "reason": "crédits"} in rules["set_aside"]
    assert [e["number"] for e in rules["entries"] if e["number"]] == ["1", "1.1", "1.2", "2", "3", "3.1", "3.2", "3.3", "4"]
    assert sum(e["kind"] == "question" for e in faq["entries"]) == 3
    assert rules["severe"] == faq["severe"] == 0
