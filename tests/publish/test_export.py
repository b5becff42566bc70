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

from extract.contract.schema import EXPORT_LINE_SCHEMA, EXPORT_SCHEMA
from extract.model import Block, DocumentSpec, Entry, GameSpec
from extract.publish.data import game_json
from extract.publish.export import EXPORTS, SCHEMA_SQL, ExportOptions, columns, export_data, tables

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


# Never overwriting what regles export did not write (issue 38: `--out` replaced the manifest, or the build's data).

from extract.errors import InputError  # noqa: E402

FILE_FORMATS = [("json", {}), ("jsonl", {}), ("sqlite", {}), ("csv", {"table": "entries"}), ("csv", {"table": "meta", "delimiter": ";"})]


@pytest.mark.parametrize(("fmt", "options"), FILE_FORMATS)
def test_an_export_replaces_its_own_file_only_when_forced(data, tmp_path, fmt, options):
    out = export(data, fmt, tmp_path / "rules.out", **options)
    first = out.read_bytes()
    with pytest.raises(InputError, match=r"rules.out: already exported by regles: give --force to replace it"):
        export(data, fmt, out, **options)
    export(data, fmt, out, force=True, **options)
    assert out.read_bytes() == first


@pytest.mark.parametrize(("fmt", "options"), FILE_FORMATS)
@pytest.mark.parametrize("content", [b"mes notes\n", b'{"schema_version": "2", "game": {}, "entries": [], "errata": []}',
                                     b"", b"SQLite format 3\x00" + b"\x00" * 100])
def test_a_file_regles_did_not_write_is_never_replaced(data, tmp_path, fmt, options, content):
    out = tmp_path / "precious.out"
    out.write_bytes(content)
    for force in (False, True):
        with pytest.raises(InputError, match=r"precious.out: exists and was not written by regles export: not replaced"):
            export(data, fmt, out, force=force, **options)
    assert out.read_bytes() == content


def test_a_link_is_not_written_through(data, tmp_path):
    (tmp_path / "target.json").write_bytes(b"{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    with pytest.raises(InputError, match=r"link.json: a symbolic link: not replaced"):
        export(data, "json", tmp_path / "link.json", force=True)
    assert (tmp_path / "target.json").read_bytes() == b"{}"


@pytest.fixture
def project(data, tmp_path) -> Path:
    """A project with a manifest and a build's game file (all `regles export` reads)."""
    (tmp_path / "corpus/demo").mkdir(parents=True)
    (tmp_path / "corpus/demo/game.toml").write_text('id = "demo"\n', encoding="utf-8")
    (tmp_path / "build/data").mkdir(parents=True)
    game = {"schema_version": data["schema_version"], **data["games"][0]}
    (tmp_path / "build/data/demo.json").write_text(json.dumps(game), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("target", ["corpus/demo/game.toml", "corpus/demo/new.json", "build/data/demo.json"])
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_export_never_writes_into_the_corpus_nor_over_the_build(project, capsys, monkeypatch, target, force):
    from extract.cli import main

    monkeypatch.chdir(project)
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    assert main(["--root", str(project), "export", "--format", "json", "--out", target, *force]) == 1
    err = capsys.readouterr().err
    assert target in err and len(err.strip().splitlines()) == 1, err
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


def test_export_replaces_its_own_export_with_force(project, capsys, monkeypatch):
    from extract.cli import main

    monkeypatch.chdir(project)
    assert main(["--root", str(project), "export", "--format", "jsonl", "--out", "rules.jsonl"]) == 0
    assert main(["--root", str(project), "export", "--format", "jsonl", "--out", "rules.jsonl"]) == 1
    assert "rules.jsonl: already exported by regles: give --force to replace it" in capsys.readouterr().err
    assert main(["--root", str(project), "export", "--format", "jsonl", "--out", "rules.jsonl", "--force"]) == 0
