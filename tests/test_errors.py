"""Bad input: one clear line naming the file (and line), exit code 1, previous build untouched."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from extract.cli import main
from tests.conftest import make_corpus

GOOD = "Titre\n\nUn paragraphe de règle.\n"


def run_build(root: Path, capsys) -> tuple[int, str]:
    code = main(["--root", str(root), "build"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("content", "expected"), [
    (b"", "corpus/demo/source.txt: source file is empty"),
    (b"abc\x00def", "corpus/demo/source.txt:1: binary file"),
    ("Titre\n\nRègle\n".encode("latin-1"), "corpus/demo/source.txt:3: not valid UTF-8"),
])
def test_unreadable_sources(tmp_path, capsys, content, expected):
    code, err = run_build(make_corpus(tmp_path, content), capsys)
    assert code == 1
    assert expected in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_wrong_checksum(tmp_path, capsys):
    code, err = run_build(make_corpus(tmp_path, GOOD, sha256="0" * 64), capsys)
    assert code == 1 and "corpus/demo/source.txt: checksum mismatch" in err
    assert "the declared sha256 of corpus/demo/game.toml:4 " in err  # its [[sources]] entry, where to fix it


def test_unknown_profile(tmp_path, capsys):
    code, err = run_build(make_corpus(tmp_path, GOOD, profile="astrologie"), capsys)
    assert code == 1 and "corpus/demo/game.toml:" in err and "unknown profile 'astrologie'" in err


def test_missing_source_file(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    (root / "corpus/demo/source.txt").unlink()
    code, err = run_build(root, capsys)
    assert code == 1 and "corpus/demo/source.txt: source file is missing (declared at corpus/demo/game.toml:4)" in err


def test_invalid_toml_names_the_line(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    manifest = root / "corpus/demo/game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\nbroken = [\n", encoding="utf-8")
    code, err = run_build(root, capsys)
    assert code == 1 and "corpus/demo/game.toml:" in err and "invalid TOML" in err


def test_unknown_manifest_key_names_the_line(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD, options='colour = "red"')
    code, err = run_build(root, capsys)
    assert code == 1
    assert "corpus/demo/game.toml:14: unknown key 'colour'" in err


def test_duplicate_document_ids(tmp_path, capsys):
    twin = '\n[[documents]]\nid = "regles"\ntitle = "Bis"\nkind = "rulebook"\nsource = "source.txt"\nprofile = "headed-prose"\n'
    code, err = run_build(make_corpus(tmp_path, GOOD, extra_documents=twin), capsys)
    assert code == 1 and "duplicate document id 'regles'" in err and "game.toml:" in err


@pytest.mark.corpus  # a whole build
def test_failed_build_leaves_previous_build_intact(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    assert main(["--root", str(root), "build"]) == 0
    before = (root / "build/data/demo.json").read_bytes()
    (root / "corpus/demo/source.txt").write_bytes(b"")
    code, _ = run_build(root, capsys)
    assert code == 1
    assert (root / "build/data/demo.json").read_bytes() == before
    assert not any(".regles-staging-" in p.name for p in root.iterdir())


def test_commands_on_a_missing_build_say_so(tmp_path, capsys):
    for command in (["errata"], ["show", "runewars/reference/49"], ["check"]):
        assert main(["--root", str(tmp_path), *command]) == 1
        err = capsys.readouterr().err
        assert "build/data: no build found: run `regles build` first" in err and "Traceback" not in err
    assert main(["--root", str(tmp_path), "serve"]) == 1
    assert "build/site: no site: run `regles build` first" in capsys.readouterr().err


def test_bad_usage_exits_2(capsys):
    assert main(["frobnicate"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(("options", "expected"), [
    ('[documents.options]\nsidebar_pattern = "(exemple"', "game.toml:15: sidebar_pattern is not a regular expression"),
    ('[documents.options]\ncaption_spans = [{ lines = [9, 3], reason = "x" }]',
     "game.toml:15: caption_spans item 1: lines [9, 3] ends before it starts"),
])
def test_bad_profile_options_name_the_line(tmp_path, capsys, options, expected):
    code, err = run_build(make_corpus(tmp_path, GOOD, profile="ocr-columns", options=options), capsys)
    assert code == 1 and expected in err and len(err.strip().splitlines()) == 1


@pytest.mark.corpus  # a whole build
def test_a_document_id_the_site_uses_itself_is_refused_and_the_build_kept(tmp_path, capsys):
    """A document `errata` would be served at <game>/errata/, the game's errata page."""
    root = make_corpus(tmp_path, GOOD)
    assert main(["--root", str(root), "build"]) == 0
    before = (root / "build/site/demo/errata/index.html").read_bytes()
    manifest = root / "corpus/demo/game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('id = "regles"', 'id = "errata"'), encoding="utf-8")
    code, err = run_build(root, capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: corpus/demo/game.toml:8: document id 'errata' is reserved")
    assert (root / "build/site/demo/errata/index.html").read_bytes() == before


@pytest.mark.corpus  # a whole build
def test_a_windows_1252_text_is_read_with_its_declared_encoding(tmp_path, capsys):
    text = "Règles\n======\n\nAjoutez l’être à la réserve d’endurance.\n".encode("cp1252")
    root = make_corpus(tmp_path, text)
    code, err = run_build(root, capsys)
    assert code == 1 and "corpus/demo/source.txt:1: not valid UTF-8 (byte 0xe8; Windows-1252 (cp1252)?)" in err
    manifest = root / "corpus/demo/game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("sha256 =", 'encoding = "cp1252"\nsha256 ='),
                        encoding="utf-8")
    code, err = run_build(root, capsys)
    assert code == 0, err
    data = (root / "build/data/demo.json").read_text(encoding="utf-8")
    assert "réserve d’endurance" in data and "\\u0092" not in data
    assert hashlib.sha256(text).hexdigest() in manifest.read_text(encoding="utf-8")  # the sha256 of the bytes


@pytest.mark.corpus  # a whole build
def test_a_document_without_profile_is_read_with_the_guessed_one_and_says_so(tmp_path, capsys):
    root = make_corpus(tmp_path, "# Règles\n\nLe tour.\n\n## Tour de jeu\n\nOn joue chacun son tour.\n")
    manifest = root / "corpus/demo/game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('profile = "headed-prose"\n', ""), encoding="utf-8")
    code, err = run_build(root, capsys)
    assert code == 0, err
    [said] = [line for line in err.splitlines() if "profile" in line]
    assert said.startswith("note: demo/regles: no profile in corpus/demo/game.toml:8: read with headed-prose (")
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    found = [a for doc in report["documents"].values() for a in doc["anomalies"] if a["kind"] == "profile-guessed"]
    assert len(found) == 1 and "severity" not in found[0]  # info
    game = json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))
    assert game["game"]["documents"][0]["profile"] == "headed-prose"
    code, again = run_build(root, capsys)  # the game's reading kept from the first build: said again
    assert code == 0 and said in again.splitlines()
