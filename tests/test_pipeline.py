"""End to end on the real corpus: accounting, schema, ids, tree, determinism."""

from __future__ import annotations

from pathlib import Path

import jsonschema

from tests.conftest import ROOT

DOCUMENTS = {"runewars/apprentissage", "runewars/reference", "runewars/faq", "warcry/regles",
             "sda-jfe/tournoi", "heroscape/aide", "battlelore/resume"}


def test_every_document_is_built(built):
    assert set(built["report"]["documents"]) == DOCUMENTS
    assert set(built["games"]) == {"runewars", "warcry", "sda-jfe", "heroscape", "battlelore"}


def test_every_line_is_placed_or_set_aside(built):
    for key, doc in built["report"]["documents"].items():
        assert doc["lines_read"] > 50, key
        assert doc["lines_read"] == doc["lines_placed"] + doc["lines_set_aside"], key
        kinds = {a["kind"] for a in doc["anomalies"]}
        assert "unrecognised-line" not in kinds, key
        assert "placed-and-set-aside" not in kinds, key
        for item in doc["set_aside"]:
            assert item["reason"], key


def test_placed_lines_are_the_entries_lines(built):
    """The report's count is not taken on trust: recount from the source files, the entries'
    source lines and the set-aside ranges. A non-blank line of a document is set aside when a
    range covers it, else placed, and then it lies within the lines of an entry."""
    from extract.corpus import find_manifests, load_game
    from extract.segment import option_classes

    spans: dict[str, list[tuple[int, int]]] = {}
    for entry in built["entries"].values():
        if entry["source"]["lines"]:
            first, last = entry["source"]["lines"]
            spans.setdefault(f"{entry['game']}/{entry['document']}", []).append((first, last))
    games = [load_game(manifest, ROOT, option_classes()) for manifest in find_manifests(ROOT)]
    documents = {f"{game.id}/{doc.id}": doc for game in games for doc in game.documents}
    assert set(documents) == set(built["report"]["documents"])
    for key, report in built["report"]["documents"].items():
        doc = documents[key]
        text = (ROOT / doc.source).read_text(encoding="utf-8").splitlines()
        last = doc.last_line or len(text)
        non_blank = {n for n in range(doc.first_line, last + 1)
                     if text[n - 1].replace("\ufeff", "").replace("\u200b", "").strip()}
        aside = {n for item in report["set_aside"] for n in range(item["lines"][0], item["lines"][1] + 1)} & non_blank
        in_entries = {n for first, last_line in spans[key] for n in range(first, last_line + 1)} & non_blank
        assert report["lines_read"] == len(non_blank), key
        assert report["lines_set_aside"] == len(aside), key
        assert report["lines_placed"] == len(in_entries - aside), key
        assert not non_blank - aside - in_entries, (key, sorted(non_blank - aside - in_entries)[:5])  # no line lost


def test_game_files_validate_against_the_schema(built):
    validator = jsonschema.Draft202012Validator(built["schema"])
    for name, game in built["games"].items():
        errors = list(validator.iter_errors(game))
        assert not errors, (name, errors[:3])


def test_ids_unique_and_tree_consistent(built):
    entries = built["entries"]
    total = sum(len(g["entries"]) for g in built["games"].values())
    assert len(entries) == total
    for entry in entries.values():
        assert entry["id"].startswith(f"{entry['game']}/{entry['document']}/")
        assert " " not in entry["id"]
        if entry["parent"]:
            assert entry["id"] in entries[entry["parent"]]["children"]
        for child in entry["children"]:
            assert entries[child]["parent"] == entry["id"]
        assert entry["source"]["file"].startswith("corpus/")
        assert entry["source"]["lines"][0] <= entry["source"]["lines"][1]


def test_texts_are_plain(built):
    for entry in built["entries"].values():
        for block in entry["blocks"]:
            assert "**" not in block["text"], entry["id"]
            if block["type"] != "table":
                assert "\n" not in block["text"], entry["id"]
        assert entry["text"] == "\n\n".join(b["text"] for b in entry["blocks"])


def test_two_builds_are_byte_identical_whatever_the_hash_seed(built, tmp_path: Path):
    """A second build, in another process with another hash seed and without the stage cache,
    writes the same bytes: the data, the schemas, the search model and the static API (nothing
    may follow set order or the clock)."""
    import os
    import subprocess
    import sys

    second = tmp_path / "build"
    subprocess.run([sys.executable, "-c", f"from pathlib import Path; from extract.pipeline import build; "
                    f"build(Path({str(ROOT)!r}), Path({str(second)!r}))"],
                   check=True, env={**os.environ, "PYTHONHASHSEED": "12345", "REGLES_STAGE_CACHE": "off"})
    for folder in ("data", "search", "site/api"):
        files = sorted(p.relative_to(second / folder) for p in (second / folder).rglob("*") if p.is_file())
        assert files == sorted(p.relative_to(built["out"] / folder) for p in (built["out"] / folder).rglob("*") if p.is_file())
        for name in files:
            assert (built["out"] / folder / name).read_bytes() == (second / folder / name).read_bytes(), name


def test_urls_point_to_a_page_and_anchor(built):
    for entry in built["entries"].values():
        assert entry["url"].startswith(f"{entry['game']}/{entry['document']}/"), entry["id"]
        assert "/#" in entry["url"]
    assert built["entries"]["runewars/reference/25.3"]["url"] == "runewars/reference/25/#25.3"


