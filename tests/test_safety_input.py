"""Input that escapes or lies: paths that leave the corpus, line spans out of range, rule numbers
printed twice, and texts too long for spaCy in one piece."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from extract.cli import main
from extract.nlp import PIECE, split_text
from tests.conftest import make_corpus
from tests.helpers import segment_text

GOOD = "Titre\n\nUn paragraphe de règle.\n\nSection\n\nUn autre paragraphe.\n"  # 7 lines


def run_build(root: Path, capsys) -> tuple[int, str]:
    code = main(["--root", str(root), "build"])
    return code, capsys.readouterr().err


def set_source_file(root: Path, file: str, digest: str | None = None) -> None:
    manifest = root / "corpus/demo/game.toml"
    text = manifest.read_text(encoding="utf-8").replace('file = "source.txt"', f'file = "{file}"', 1)
    text = text.replace('source = "source.txt"', f'source = "{file}"')
    if digest:
        text = text.replace(text.split('sha256 = "')[1].split('"')[0], digest)
    manifest.write_text(text, encoding="utf-8")


def test_a_manifest_cannot_publish_a_file_outside_the_corpus(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    secret = tmp_path / "secret.txt"
    secret.write_text("Titre\n\nmot de passe : hunter2\n", encoding="utf-8")
    digest = hashlib.sha256(secret.read_bytes()).hexdigest()
    set_source_file(root, "../../../secret.txt", digest)
    code, err = run_build(root, capsys)
    assert code == 1 and "is outside the game's folder demo/" in err and "game.toml:5" in err
    assert not (root / "build").exists()


def test_a_symlink_out_of_the_corpus_is_refused(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    (tmp_path / "secret.txt").write_text("Titre\n\nmot de passe\n", encoding="utf-8")
    (root / "corpus/demo/lien.txt").symlink_to(tmp_path / "secret.txt")
    set_source_file(root, "lien.txt", hashlib.sha256((tmp_path / "secret.txt").read_bytes()).hexdigest())
    code, err = run_build(root, capsys)
    assert code == 1 and "'lien.txt' is outside the game's folder" in err


def test_an_errata_file_linking_out_of_the_corpus_is_refused(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    (tmp_path / "ailleurs.toml").write_text('source = "x"\ndate = "2026-01-01"\n', encoding="utf-8")
    (root / "corpus/demo/errata").mkdir()
    (root / "corpus/demo/errata/lien.toml").symlink_to(tmp_path / "ailleurs.toml")
    code, err = run_build(root, capsys)
    assert code == 1 and "corpus/demo/errata/lien.toml: is a link to a file outside corpus/demo/" in err


def test_a_checksum_error_never_prints_the_actual_hash(tmp_path, capsys):
    code, err = run_build(make_corpus(tmp_path, GOOD, sha256="0" * 64), capsys)
    actual = hashlib.sha256(GOOD.encode()).hexdigest()
    assert code == 1 and "does not match the declared sha256" in err and actual not in err


@pytest.mark.parametrize(("span", "expected"), [
    ("[-5, 3]", "document 'regles': lines [-5, 3] must satisfy 1 ≤ first ≤ last"),
    ("[0, 5]", "document 'regles': lines [0, 5] must satisfy 1 ≤ first ≤ last"),
    ("[5, 1]", "document 'regles': lines [5, 1] must satisfy 1 ≤ first ≤ last"),
    ("[99999, 100000]", "document 'regles': lines [99999, 100000] go beyond the 7 lines of source.txt"),
    ("[2, 8]", "document 'regles': lines [2, 8] go beyond the 7 lines of source.txt"),
    ("[true, 3]", "lines must be [first, last] line numbers"),
    ('[1, "3"]', "lines must be [first, last] line numbers"),
])
def test_document_line_spans_are_checked(tmp_path, capsys, span, expected):
    code, err = run_build(make_corpus(tmp_path, GOOD, options=f"lines = {span}"), capsys)
    assert code == 1 and f"corpus/demo/game.toml:14: {expected}" in err, err
    assert len(err.strip().splitlines()) == 1


def test_overlapping_documents_are_refused(tmp_path, capsys):
    second = ('\n[[documents]]\nid = "bis"\ntitle = "Bis"\nkind = "rulebook"\nsource = "source.txt"\n'
              'profile = "headed-prose"\nlines = [4, 7]\n')
    code, err = run_build(make_corpus(tmp_path, GOOD, options="lines = [1, 5]", extra_documents=second), capsys)
    assert code == 1 and "document 'bis': lines overlap document 'regles' (1–5) of the same source" in err


@pytest.mark.parametrize(("profile", "text", "options", "keys"), [
    ("decimal-rules", "Section 2 : Mouvement\n\n2.01 Une unité se déplace.\n\n2.01 Une unité attaque.\n\n2.01 Une unité fuit.\n",
     None, ["2.01", "2.01-2", "2.01-3"]),
    ("numbered-outline", "1. INTRO\n\n1.1. Texte un.\n\n1.1. Texte deux.\n\n1.1. Texte trois.\n", None, ["1.1", "1.1-2", "1.1-3"]),
    # the glossary keeps later copies as paragraphs of the first, and says so
    ("numbered-glossary", "Glossaire\n\n1. Attaque\n\n1.1 Texte un.\n\n1.1 Texte deux.\n\n1.1 Texte trois.\n",
     {"outline": ["# Glossaire"]}, ["1.1"]),
])
def test_a_number_printed_three_times_is_reported(profile, text, options, keys):
    """Every profile that reads rule numbers; the headed ones keep numbers in titles when they
    repeat (`heading-numbers-repeat`, tests of segment/detect)."""
    result, _, _ = segment_text(profile, text, options)
    assert [a.kind for a in result.anomalies].count("duplicate-number") == 2
    assert [e.key for e in result.entries if e.key.startswith(keys[0])] == keys


def test_long_texts_are_tagged_in_pieces():
    text = ("Une unité se déplace de deux cases. " * 40000).strip()  # 1.4 MB, one line
    pieces = split_text(text)
    assert len(pieces) > 1 and all(len(p) <= PIECE for _, p in pieces)
    assert "".join(p for _, p in pieces) == text and all(text[o:o + len(p)] == p for o, p in pieces)
    assert split_text("x" * (PIECE * 2 + 1), PIECE)[2] == (PIECE * 2, "x")  # a single word is cut too


@pytest.mark.corpus  # a large input: the slow tier
def test_a_one_megabyte_line_builds(tmp_path, capsys):
    """spaCy refuses a text over 1,000,000 characters ([E088]); long words keep this test quick
    (`make bench` builds megabytes of ordinary French)."""
    line = " ".join(f"déplacement{'x' * 400}{n}" for n in range(2500))
    assert len(line) > 1_000_000
    code, err = run_build(make_corpus(tmp_path, f"Titre\n\n{line}\n"), capsys)
    assert code == 0, err
