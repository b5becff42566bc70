"""extract/publish/export.py on a two-entry game: the ids a Markdown book gave a heading
("## Le marché {#marche}", the entry's `anchors`) and what a scanned book printed where the OCR
repair changed it (`printed_title`, a block's `printed_text`) in every export format, and nothing
for an entry or block without them. (The exports of the real corpus: tests/publish/test_contract.py.)"""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from extract.model import Block, DocumentSpec, Entry, GameSpec
from extract.publish.data import game_json
from extract.publish.export import EXPORTS, SCHEMA_SQL, ExportOptions, columns, export_data, tables
from extract.schema import EXPORT_LINE_SCHEMA, EXPORT_SCHEMA

DATA_PAGE = Path(__file__).resolve().parents[2] / "docs" / "data.md"
MARCHE = "demo/regles/le-marche"
COMBAT = "demo/regles/le-combat"


@pytest.fixture
def data() -> dict[str, Any]:
    """What `regles export` exports for a Markdown book whose first heading carries two ids
    (`## Le marché {#marche}`, then the same entry under an older id) and the second none. The
    first was also scanned: the OCR repair changed its title and first block, not its second."""
    document = DocumentSpec("regles", "Règles", "rulebook", "1", "2024", "corpus/demo/regles.md", 1, None, "headed-prose", {})
    game = GameSpec("demo", "Démo", [document], [], "corpus/demo/game.toml", {"corpus/demo/regles.md": "ab" * 32})
    marche = Entry("demo", "regles", "section", None, "Le marché", "le-marche",
                   blocks=[Block("paragraph", "On achète.", lines=[4], printed_text="On achéte."),
                           Block("paragraph", "On vend.", lines=[5])],
                   heading_lines=[3], url="demo/regles/le-marche/#le-marche", source_file="corpus/demo/regles.md",
                   anchors=["marche", "foire"], printed_title="Le rnarché")
    combat = Entry("demo", "regles", "section", None, "Le combat", "le-combat", blocks=[Block("paragraph", "On se bat.", lines=[8])],
                   heading_lines=[7], url="demo/regles/le-combat/#le-combat", source_file="corpus/demo/regles.md",
                   index_terms=["Bataille"])
    return export_data({"demo": game_json(game, [marche, combat], [])})


def export(data: dict[str, Any], fmt: str, out: Path, **options: Any) -> Path:
    EXPORTS[fmt].write(data, out, ExportOptions(**options))
    return out


def test_anchors_are_a_table_of_entry_position_and_id(data):
    """As `index_terms`: one row per anchor, in the book's order; none for an entry without."""
    assert tables(data)["anchors"] == [(MARCHE, 0, "marche"), (MARCHE, 1, "foire")]
    assert tables(data)["index_terms"] == [(COMBAT, 0, "Bataille")]  # the pattern followed


def test_sqlite_finds_the_entry_a_book_s_link_names(data, tmp_path):
    db = sqlite3.connect(export(data, "sqlite", tmp_path / "rules.sqlite"))
    try:
        # a link copied from the book (`#foire`) resolves to its entry
        assert db.execute("SELECT e.id, e.title FROM anchors a JOIN entries e ON e.id = a.entry "
                          "WHERE a.anchor = 'foire'").fetchall() == [(MARCHE, "Le marché")]
        assert db.execute("SELECT entry, position, anchor FROM anchors ORDER BY entry, position").fetchall() == [
            (MARCHE, 0, "marche"), (MARCHE, 1, "foire")]
        assert {(f[2], f[3], f[4]) for f in db.execute("PRAGMA foreign_key_list(anchors)")} == {("entries", "entry", "id")}
        assert [r[1] for r in db.execute("PRAGMA index_list(anchors)") if r[1] == "anchors_anchor"] == ["anchors_anchor"]
        with pytest.raises(sqlite3.IntegrityError):  # one anchor per entry and position
            db.execute("INSERT INTO anchors VALUES (?, 0, 'autre')", (MARCHE,))
    finally:
        db.close()


def test_csv_has_an_anchors_file_and_one_table_alone(data, tmp_path):
    folder = export(data, "csv", tmp_path / "csv")
    text = (folder / "anchors.csv").read_text(encoding="utf-8-sig")
    assert list(csv.reader(text.splitlines())) == [["entry", "position", "anchor"], [MARCHE, "0", "marche"], [MARCHE, "1", "foire"]]
    alone = export(data, "csv", tmp_path / "anchors.csv", table="anchors", delimiter=";")
    assert alone.read_text(encoding="utf-8-sig").splitlines()[1] == f'"{MARCHE}";0;"marche"'


def test_json_and_jsonl_carry_anchors_as_the_game_file_does(data, tmp_path):
    whole = json.loads(export(data, "json", tmp_path / "rules.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(EXPORT_SCHEMA).validate(whole)
    entries = {e["id"]: e for e in whole["games"][0]["entries"]}
    assert entries[MARCHE]["anchors"] == ["marche", "foire"] and "anchors" not in entries[COMBAT]
    lines = [json.loads(line) for line in export(data, "jsonl", tmp_path / "rules.jsonl").read_text(encoding="utf-8").splitlines()]
    for line in lines:
        jsonschema.Draft202012Validator(EXPORT_LINE_SCHEMA).validate(line)
    assert [r["entry"].get("anchors") for r in lines if r["type"] == "entry"] == [["marche", "foire"], None]


def test_the_export_schemas_refuse_an_empty_anchor(data):
    data["games"][0]["entries"][0]["anchors"] = [""]
    assert not jsonschema.Draft202012Validator(EXPORT_SCHEMA).is_valid(data)
    assert not jsonschema.Draft202012Validator(EXPORT_LINE_SCHEMA).is_valid({"type": "entry", "entry": data["games"][0]["entries"][0]})


def test_the_data_page_names_every_table_of_the_sqlite_export():
    """docs/data.md's list of tables (its `sqlite` export item) is the one users read: kept whole."""
    item = DATA_PAGE.read_text(encoding="utf-8").split("\n- `sqlite` — ", 1)[1].split("\n- `csv` — ", 1)[0]
    assert [name for name in SCHEMA_SQL if f"`{name}`" not in item] == []


def column(data: dict[str, Any], table: str, name: str) -> list[Any]:
    """One column of a table's rows, found by its name."""
    at = columns(table).index(name)
    return [row[at] for row in tables(data)[table]]


def test_what_the_book_printed_is_a_nullable_column_of_entries_and_blocks(data):
    """As `original_title`, `number`: a column, null for an entry or block the repair left alone."""
    assert column(data, "entries", "printed_title") == ["Le rnarché", None]
    assert column(data, "blocks", "printed_text") == ["On achéte.", None, None]
    assert column(data, "blocks", "text") == ["On achète.", "On vend.", "On se bat."]


def test_sqlite_holds_the_printed_title_and_text_beside_the_repaired_ones(data, tmp_path):
    db = sqlite3.connect(export(data, "sqlite", tmp_path / "rules.sqlite"))
    try:
        assert db.execute("SELECT id, title, printed_title FROM entries ORDER BY position").fetchall() == [
            (MARCHE, "Le marché", "Le rnarché"), (COMBAT, "Le combat", None)]
        assert db.execute("SELECT entry, position, text, printed_text FROM blocks WHERE version = 'current' "
                          "ORDER BY entry DESC, position").fetchall() == [
            (MARCHE, 0, "On achète.", "On achéte."), (MARCHE, 1, "On vend.", None), (COMBAT, 0, "On se bat.", None)]
        # entries.printed_text stays the text before errata (no erratum here: the current text)
        assert db.execute("SELECT printed_text FROM entries WHERE id = ?", (MARCHE,)).fetchone() == ("On achète.\n\nOn vend.",)
    finally:
        db.close()


def test_csv_leaves_the_printed_cells_empty_where_nothing_was_repaired(data, tmp_path):
    folder = export(data, "csv", tmp_path / "csv")
    entries = list(csv.DictReader((folder / "entries.csv").read_text(encoding="utf-8-sig").splitlines(keepends=True)))
    assert [(e["id"], e["printed_title"]) for e in entries] == [(MARCHE, "Le rnarché"), (COMBAT, "")]
    blocks = list(csv.DictReader((folder / "blocks.csv").read_text(encoding="utf-8-sig").splitlines(keepends=True)))
    assert [(b["entry"], b["position"], b["printed_text"]) for b in blocks] == [
        (MARCHE, "0", "On achéte."), (MARCHE, "1", ""), (COMBAT, "0", "")]
