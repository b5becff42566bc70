"""Damaged files: a lemma cache, a game file, the report, the search index. The cache is rebuilt
(the same links as from a clean one); every command on a damaged build/ names the file and says
to run `regles build`, in one line, without a traceback."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from extract.cli import main
from extract.nlp import Lemmatizer
from tests.conftest import make_corpus

TEXT = """Déplacement

Une unité se déplace de deux cases. Les unités alliées ne bloquent pas le déplacement.

Attaque

Une unité attaque une unité ennemie adjacente après son déplacement.
"""


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    root = make_corpus(tmp_path_factory.mktemp("damage"), TEXT)
    assert main(["--root", str(root), "build"]) == 0
    return root


@pytest.fixture
def project(built_once, tmp_path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(built_once, root, symlinks=True)
    return root


COMMANDS = [["check"], ["show", "demo/regles/deplacement"], ["errata"], ["export", "--format", "json", "--out", "x.json"]]


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("damage", [
    lambda p: p.write_bytes(p.read_bytes()[:200]),  # cut short: not JSON
    lambda p: p.write_text('{"entries": "rien", "errata": []}', encoding="utf-8"),  # JSON, not a game file
    lambda p: p.write_text('{"entries": [{"id": "demo/x"}], "errata": []}', encoding="utf-8"),
    lambda p: p.write_bytes(b"\xff\xfe\x00garbage"),
    lambda p: p.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8"),  # was "unexpected RecursionError"
])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_damaged_game_file_is_named(project, capsys, monkeypatch, damage, command):
    monkeypatch.chdir(project)
    damage(project / "build/data/demo.json")
    assert main(["--root", str(project), *command]) == 1
    err = one_line(capsys)
    assert "build/data/demo.json: damaged" in err and "regles build" in err


@pytest.mark.parametrize("text", ["[1, 2", "[" * 100_000 + "]" * 100_000])
def test_a_damaged_report_is_named(project, capsys, text):
    (project / "build/report.json").write_text(text, encoding="utf-8")
    assert main(["--root", str(project), "check"]) == 1
    assert "build/report.json: damaged" in one_line(capsys)


def test_check_verifies_the_search_index(project, capsys):
    assert main(["--root", str(project), "check"]) == 0
    assert "search index" in capsys.readouterr().out
    (project / "build/search/model.json").write_bytes(b"\x00" * 64)
    assert main(["--root", str(project), "check"]) == 1
    err = capsys.readouterr().err
    assert "build/search" in err and "regles build" in err and "Traceback" not in err


@pytest.mark.parametrize("damage", [
    lambda folder: (folder / "model.json").unlink(),
    lambda folder: (folder / "model.json").write_bytes(b"garbage"),
    lambda folder: (folder / "meta.json").write_text("{", encoding="utf-8"),
    lambda folder: (folder / "model.json").write_text('{"docs": []}', encoding="utf-8"),  # what the build writes, cut
    lambda folder: (folder / "model.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8"),  # too deep
    lambda folder: (folder / "model.json").write_text("[]", encoding="utf-8"),  # JSON, not a model
])
def test_search_on_a_damaged_index_names_it(project, capsys, damage):
    damage(project / "build/search")
    assert main(["--root", str(project), "search", "déplacement"]) == 1
    err = one_line(capsys)
    assert "build/search" in err and "damaged" in err and "regles build" in err


def game_file(root: Path) -> bytes:
    return (root / "build/data/demo.json").read_bytes()


@pytest.mark.parametrize("damage", [
    lambda db: db.write_bytes(b"this is not a database at all" * 100),
    lambda db: db.write_bytes(db.read_bytes()[:1500]),  # cut inside its pages
    "poison",
])
@pytest.mark.corpus  # a whole build
def test_a_damaged_lemma_cache_is_rebuilt_with_the_same_links(project, capsys, monkeypatch, tmp_path, damage):
    cache = tmp_path / "cache"
    monkeypatch.setenv("REGLES_CACHE_DIR", str(cache))
    assert main(["--root", str(project), "build"]) == 0
    clean = game_file(project)
    db_path = cache / "lemmas.sqlite"
    if damage == "poison":  # rows whose lemmas were changed, checksum kept or recomputed
        db = sqlite3.connect(db_path)
        rows = db.execute("select key, data from tokens").fetchall()
        for key, data in rows:
            poisoned = data.replace('"déplacer"', '"attaquer"').replace('"unité"', '"case"')
            db.execute("update tokens set data = ? where key = ?", (poisoned, key))
        db.commit()
        db.close()
    else:
        damage(db_path)
    assert main(["--root", str(project), "build"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "lemma cache" in err
    assert game_file(project) == clean
    again = Lemmatizer(db_path)  # rebuilt: read back whole
    again.tokens(["Une unité se déplace."])
    assert again.damaged == 0


def test_a_read_only_lemma_cache_does_not_stop_the_build(project, monkeypatch):
    cache = project / "cache-file"
    cache.write_text("x", encoding="utf-8")  # its folder cannot be made: a file is in the way
    monkeypatch.setenv("REGLES_CACHE_DIR", str(cache))
    notes: list[str] = []
    lemmatizer = Lemmatizer(cache / "lemmas.sqlite", notes.append)
    assert lemmatizer.tokens(["Une unité se déplace."])["Une unité se déplace."]
    assert notes and "going on without it" in notes[0]
