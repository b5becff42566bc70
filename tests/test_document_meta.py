"""What a game page says of each document: version, date, and whether it is official (the
manifest's `official`), and `regles check` naming what a manifest leaves unsaid."""

from __future__ import annotations

import json

import pytest

from extract.cli import main
from tests.conftest import make_corpus

GOOD = "Titre\n\nUn paragraphe de règle.\n"


def test_official_must_be_true_or_false_and_the_line_is_named(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD, options='official = "oui"')
    assert main(["--root", str(root), "build"]) == 1
    assert 'corpus/demo/game.toml:14: official must be true' in capsys.readouterr().err


@pytest.mark.corpus  # a whole build
def test_a_document_said_official_is_so_in_its_game_file_its_page_and_check(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD, options='official = true\nversion = "2.0"')
    assert main(["--root", str(root), "build"]) == 0
    game = json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))
    assert game["game"]["documents"][0]["official"] is True
    page = (root / "build/site/demo/index.html").read_text(encoding="utf-8")
    assert "<td>oui, de l'éditeur</td>" in page and "<td>2.0</td>" in page and "<td>non indiquée</td>" in page  # the date
    capsys.readouterr()
    assert main(["--root", str(root), "check"]) == 0
    err = capsys.readouterr().err
    assert "warning: corpus/demo/game.toml: document 'regles' has no date (the site says « non indiqué »)" in err


@pytest.mark.corpus  # a whole build
def test_check_warns_of_a_document_that_says_nothing_but_does_not_fail(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    assert main(["--root", str(root), "build"]) == 0
    assert "official" not in json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))["game"]["documents"][0]
    capsys.readouterr()
    assert main(["--root", str(root), "check"]) == 0
    assert "has no version, no date, no official = true|false" in capsys.readouterr().err


def test_check_warns_of_an_earlier_version_with_no_date(tmp_path):
    from extract.cli.commands import document_gaps

    doc = {"id": "regles", "version": "3", "date": "2021", "official": True,
           "versions": [{"version": "1", "date": "", "source": "corpus/demo/v1.txt"},
                        {"version": "2", "date": "2020", "source": "corpus/demo/v2.txt"}]}
    (tmp_path / "demo.json").write_text(json.dumps({"game": {"id": "demo", "documents": [doc]}}), encoding="utf-8")
    assert document_gaps(tmp_path) == ["corpus/demo/game.toml: document 'regles': its earlier version '1' has no date "
                                       "(its Nouveautés and each rule's history say none)"]
