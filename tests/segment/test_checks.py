"""extract/segment/checks.py: a document's options checked against the document once it is read
(the manifest checker cannot: it has not read it). Each bad option is one line naming the
manifest's line; `regles build` exits 1 and publishes nothing."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from extract.cli import main
from extract.corpus import load_game
from extract.errors import BuildError, InputError
from extract.model import Line
from extract.read import read_sources
from extract.read.normalise import normalise_reading
from extract.segment import option_classes, segment_document
from extract.segment.checks import option_problems
from extract.segment.profiles.base import HeadedOptions, SetAsideRule
from tests.conftest import make_corpus

TEXT = "Titre\n\nUn paragraphe de règle.\n\nSecond titre\n\nUne autre règle du jeu.\n"  # 7 lines
OPTIONS_LINE = 15  # make_corpus puts `[documents.options]` on line 14


def segment(tmp_path: Path, options: str, text: str = TEXT, profile: str = "headed-prose"):
    root = make_corpus(tmp_path, text, profile=profile, options="[documents.options]\n" + options)
    game = load_game(root / "corpus/demo/game.toml", root, option_classes())
    doc = game.documents[0]
    reading = read_sources(root, game)[doc.source]
    lines, _, _, aside = normalise_reading(reading, doc)
    return segment_document(game.id, doc, lines, game.manifest, reading.format, aside)


def problem(tmp_path: Path, options: str, **kwargs) -> InputError:
    with pytest.raises(InputError) as caught:
        segment(tmp_path, options, **kwargs)
    assert caught.value.file == "corpus/demo/game.toml" and "\n" not in str(caught.value)
    return caught.value


def test_a_set_aside_span_beyond_the_document_names_its_manifest_line(tmp_path):
    error = problem(tmp_path, 'captions = []\nset_aside = [{ lines = [1, 400], reason = "titre" }]')
    assert error.line == OPTIONS_LINE + 1
    assert error.message == ("document 'regles': set_aside item 1: lines [1, 400] is outside the document "
                             "(lines 1–7)")


def test_an_item_written_on_its_own_line_is_named_at_that_line(tmp_path):
    error = problem(tmp_path, 'set_aside = [\n  { lines = [1, 1], reason = "titre" },\n  { lines = [6, 9], reason = "x" },\n]')
    assert error.line == OPTIONS_LINE + 2 and "set_aside item 2: lines [6, 9]" in error.message


def test_set_aside_rules_leaving_nothing_are_refused(tmp_path):
    error = problem(tmp_path, 'set_aside = [{ lines = [1, 3], reason = "a" }, { pattern = "^(Second|Une)", reason = "b" }]')
    assert error.line == OPTIONS_LINE
    assert "sets aside every line of the document (lines 1–7): nothing would be published" in error.message


def test_an_unknown_caption_label_is_refused_and_a_printed_one_accepted(tmp_path):
    error = problem(tmp_path, 'captions = ["Un paragraphe de règle.", "Figure 3 : la charge"]')
    assert error.line == OPTIONS_LINE
    assert error.message == "document 'regles': captions item 2: 'Figure 3 : la charge' is printed nowhere in the document"
    assert segment(tmp_path / "ok", 'captions = ["un paragraphe de REGLE."]').entries  # case and accents folded


def test_relocation_outside_the_document_is_refused(tmp_path):
    error = problem(tmp_path, 'relocate = [{ lines = [3, 3], after = 12, reason = "page insérée" }]')
    assert "relocate item 1: after 12 is outside the document (lines 1–7)" in error.message


def test_several_problems_are_one_line_each(tmp_path):
    with pytest.raises(BuildError) as caught:
        segment(tmp_path, 'captions = ["Nulle part"]\nset_aside = [{ lines = [8, 9], reason = "x" }]')
    lines = [str(p) for p in caught.value.problems]
    assert lines == [
        f"corpus/demo/game.toml:{OPTIONS_LINE}: document 'regles': captions item 1: 'Nulle part' is printed nowhere "
        "in the document",
        f"corpus/demo/game.toml:{OPTIONS_LINE + 1}: document 'regles': set_aside item 1: lines [8, 9] is outside the "
        "document (lines 1–7)",
    ]


def test_options_inside_the_document_pass():
    lines = [Line(n, text) for n, text in enumerate(TEXT.splitlines(), 1) if text]
    options = HeadedOptions(set_aside=(SetAsideRule(lines=(1, 1), reason="titre"),), captions=("Second titre",))
    assert option_problems(options, lines) == []


def test_a_declared_document_span_bounds_the_options():
    lines = [Line(n, "Une règle.") for n in range(10, 21)]
    options = HeadedOptions(set_aside=(SetAsideRule(lines=(5, 12), reason="x"),))
    assert [p.message for p in option_problems(options, lines, first=10, last=20)] == [
        "set_aside item 1: lines [5, 12] is outside the document (lines 10–20)"]


def test_the_build_exits_1_and_publishes_nothing(tmp_path, monkeypatch, capsys):
    make_corpus(tmp_path, TEXT, options='[documents.options]\nset_aside = [{ lines = [1, 400], reason = "titre" }]')
    monkeypatch.setenv("REGLES_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["--root", str(tmp_path), "build"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: corpus/demo/game.toml:{OPTIONS_LINE}: document 'regles': set_aside item 1: lines [1, 400] "
                   "is outside the document (lines 1–7)"]
    assert not (tmp_path / "build").exists()


def test_outline_headings_and_section_titles_must_be_printed(tmp_path):
    error = problem(tmp_path, 'outline = ["# Titre", "# Chapitre absent"]')
    assert error.message == "document 'regles': outline item 2: '# Chapitre absent' is printed nowhere in the document"
    error = problem(tmp_path / "kinds", 'section_kinds = { "Clarifications" = "clarification" }')
    assert error.line == OPTIONS_LINE and "section_kinds item 1: 'Clarifications' is printed nowhere" in error.message
    assert segment(tmp_path / "ok", 'outline = ["# Titre", "# Second titre"]').entries


def test_a_pdf_page_range_beyond_the_document_names_its_sources_line(tmp_path):
    from tests.read.pdf_maker import numbered_levels

    folder = tmp_path / "corpus" / "demo"
    folder.mkdir(parents=True)
    pdf = numbered_levels(folder / "livre.pdf")
    (folder / "game.toml").write_text(f"""id = "demo"
title = "Démo"

[[sources]]
file = "livre.pdf"
sha256 = "{hashlib.sha256(pdf.read_bytes()).hexdigest()}"
pages = [1, 9]

[[documents]]
id = "livre"
title = "Livre"
kind = "rulebook"
source = "livre.pdf"
profile = "headed-prose"
""", encoding="utf-8")
    game = load_game(folder / "game.toml", tmp_path, option_classes())
    with pytest.raises(InputError) as caught:
        read_sources(tmp_path, game)
    assert (caught.value.file, caught.value.line) == ("corpus/demo/game.toml", 4)
    assert caught.value.message == "livre.pdf: pages = [1, 9]: page range 1-9 is outside the document (pages 1-1)"
