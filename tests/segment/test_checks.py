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
from extract.segment.segmenter import counts
from tests.conftest import make_corpus
from tests.helpers import document

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


# A paragraph a reader joined from several source lines (a PDF's, a wrapped Markdown one) is one line
# whose `covers` names the others: a set-aside span takes all of it or none of it.
JOINED = [Line(1, "Titre"), Line(2, "Un paragraphe de règle sur trois lignes.", covers=(3, 4)),
          Line(5, "Second titre"), Line(6, "Crédits : un jeu de", covers=(7,)), Line(8, "Une autre règle.")]


def test_a_set_aside_span_cutting_a_paragraph_is_refused_with_the_paragraphs_span():
    options = HeadedOptions(set_aside=(SetAsideRule(lines=(7, 7), reason="crédits"),))
    assert [(p.path, p.message) for p in option_problems(options, JOINED)] == [(
        ("set_aside", 0), "set_aside item 1: lines [7, 7] cut the paragraph of lines 6–7, which is read as one: "
                          "set aside all of it ([6, 7]) or none of it")]
    cut_at_start = HeadedOptions(set_aside=(SetAsideRule(lines=(3, 5), reason="x"),))
    assert "cut the paragraph of lines 2–4" in option_problems(cut_at_start, JOINED)[0].message


def test_a_set_aside_span_cutting_a_paragraph_names_its_manifest_line(tmp_path):
    # a wrapped Markdown paragraph: lines 3–4 are one line for the profile
    text = "# Titre\n\nUn paragraphe de règle\nsur deux lignes.\n\n# Second titre\n\nUne autre règle.\n"
    root = make_corpus(tmp_path, text, options='[documents.options]\nset_aside = [{ lines = [4, 4], reason = "x" }]')
    folder = root / "corpus" / "demo"
    (folder / "source.txt").rename(folder / "source.md")
    manifest = folder / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("source.txt", "source.md"), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        game = load_game(root / "corpus/demo/game.toml", root, option_classes())
        doc = game.documents[0]
        reading = read_sources(root, game)[doc.source]
        lines, _, _, aside = normalise_reading(reading, doc)
        segment_document(game.id, doc, lines, game.manifest, reading.format, aside)
    assert caught.value.line == OPTIONS_LINE and "lines [4, 4] cut the paragraph of lines 3–4" in caught.value.message


def test_a_set_aside_span_covering_whole_paragraphs_sets_aside_every_line_of_them():
    doc = document("headed-prose", {"set_aside": [{"lines": [6, 7], "reason": "crédits"}]})
    result = segment_document("demo", doc, list(JOINED), "corpus/demo/game.toml", "pdf")
    assert counts(JOINED, result) == {"lines_read": 8, "lines_placed": 6, "lines_set_aside": 2}
    assert [(item.lines, item.reason) for item in result.set_aside] == [((6, 7), "crédits")]
    assert not [a for a in result.anomalies if a.kind in ("unrecognised-line", "placed-and-set-aside")]


def test_an_outline_heading_not_met_in_order_names_its_manifest_line(tmp_path):
    error = problem(tmp_path, 'outline = ["# Second titre", "# Titre"]')
    assert error.line == OPTIONS_LINE
    assert error.message.startswith("document 'regles': outline item 2: declared heading 'titre' was not found in order")
