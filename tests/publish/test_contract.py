"""The data contract on the real corpus build: strict schemas (game files, report, exports, API)
that `regles check` applies, mutations of real build files rejected, and the exports."""

from __future__ import annotations

import copy
import csv
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from extract.cli import main
from extract.cli.commands import load_game_files, schema_problems
from extract.contract.schema import API_INDEX_SCHEMA, EXPORT_SCHEMA, GAME_SCHEMA, REPORT_SCHEMA, SCHEMA_BASE, SCHEMA_FILES
from extract.publish.api import entry_path
from extract.publish.export import csv_cell, export_data

DATA_PAGE = (Path(__file__).resolve().parents[2] / "docs" / "data.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def root(built, tmp_path_factory) -> Path:
    """A project root whose build/ is the session's corpus build (read only)."""
    folder = tmp_path_factory.mktemp("contract")
    (folder / "build").symlink_to(built["out"])
    return folder


@pytest.fixture
def runewars(built) -> dict:
    """The Runewars game file, its entries cut to a dozen (rule 49 among them): each entry is
    validated on its own, so the mutations are checked as on the whole file, fifty times faster."""
    game = copy.deepcopy(built["games"]["runewars"])
    game["entries"] = game["entries"][:12] + [e for e in game["entries"][12:] if e["id"] == "runewars/reference/49"]
    return game


def entry_of(game: dict, entry_id: str) -> dict:
    return next(e for e in game["entries"] if e["id"] == entry_id)


def test_schemas_have_ids_and_close_every_object():
    for name, (_, schema) in SCHEMA_FILES.items():
        assert schema["$id"].startswith(SCHEMA_BASE) and schema["$id"].endswith("-2.json"), name
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"

    def objects(node):
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                yield node
            for value in node.values():
                yield from objects(value)
        elif isinstance(node, list):
            for value in node:
                yield from objects(value)
    found = list(objects(GAME_SCHEMA))
    assert len(found) > 8 and all(o.get("additionalProperties") is False for o in found)


def test_the_real_build_passes_check(root, capsys):
    assert main(["--root", str(root), "check"]) == 0
    assert "schemas (game files, report, API, exports)" in capsys.readouterr().out


def rename_title(game):
    entry = entry_of(game, "runewars/reference/49")
    entry["titel"] = entry.pop("title")


MUTATIONS = [
    ("titel", rename_title, "'title' is a required property"),
    ("unknown key", lambda g: entry_of(g, "runewars/reference/49").update(titel="Ligne de vue"), "('titel' was unexpected)"),
    ("kind", lambda g: entry_of(g, "runewars/reference/49").update(kind="rulez"), "'rulez' is not one of"),
    ("game", lambda g: entry_of(g, "runewars/reference/49").update(game=42), "42 is not of type 'string'"),
    ("flag", lambda g: entry_of(g, "runewars/reference/49").update(flags=["hot"]), "'hot' is not one of"),
    ("status", lambda g: entry_of(g, "runewars/reference/49").update(status="edited"), "'edited' is not one of"),
    ("printed with original blocks", lambda g: entry_of(g, "runewars/reference/49").update(status="printed"), "should not be valid"),
    ("block type", lambda g: entry_of(g, "runewars/reference/49")["blocks"][0].update(type="para"), "'para' is not one of"),
    ("ref kind", lambda g: entry_of(g, "runewars/reference/49")["refs"][0].update(kind="lien"), "'lien' is not one of"),
    ("id", lambda g: entry_of(g, "runewars/reference/49").update(id="Runewars/ref 49"), "does not match"),
    ("source lines", lambda g: entry_of(g, "runewars/reference/49")["source"].update(lines=[0, 3]), "less than the minimum of 1"),
    ("erratum source", lambda g: g["errata"][0].update(source=None), "None is not valid under any of the given schemas"),
    ("erratum id", lambda g: g["errata"][0].update(id="runewars/faq/errata/3 bis"), "does not match"),
    ("erratum operation", lambda g: g["errata"][0].update(operation="rewrite"), "'rewrite' is not one of"),
    ("erratum scope", lambda g: g["errata"][0]["scope"].update(colour="red"), "('colour' was unexpected)"),
    ("applied without target", lambda g: g["errata"][0].update(target=None), "None is not of type 'string'"),
    ("date", lambda g: g["game"]["documents"][2].update(date="not a date"), "is not valid under any of the given schemas"),
    ("impossible date", lambda g: g["game"]["documents"][2].update(date="2017-02-30"), "is not valid under any of the given schemas"),
    ("document kind", lambda g: g["game"]["documents"][0].update(kind="manual"), "'manual' is not one of"),
    ("schema version", lambda g: g.update(schema_version="1"), "'2' was expected"),
    ("extra top-level key", lambda g: g.update(extra=1), "('extra' was unexpected)"),
    ("lost title", lambda g: entry_of(g, "runewars/reference/49").update(original_title="Ligne de vue", title=None),
     "None is not of type 'string'"),
]


@pytest.mark.parametrize(("name", "mutate", "message"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_mutated_game_file_is_rejected(runewars, name, mutate, message):
    assert schema_problems("runewars", runewars, GAME_SCHEMA) == []
    mutate(runewars)
    problems = schema_problems("runewars", runewars, GAME_SCHEMA)
    assert problems and any(message in p for p in problems), problems


def test_rule_numbers_may_use_a_colon_and_problems_stay_short(runewars):
    runewars["entries"][0]["number"] = "8:10"  # IHF handball rules number "8:1", "8:10"
    assert schema_problems("runewars", runewars, GAME_SCHEMA) == []
    runewars["entries"][0]["number"] = "8 10"
    runewars["entries"][1] = {"text": "x" * 5000}  # an entry refused whole: its value is not quoted whole
    problems = schema_problems("runewars", runewars, GAME_SCHEMA)
    assert any("entries/0/number" in p for p in problems) and all(len(p) < 400 for p in problems), problems
    assert any("entries/1" in p and "required property" in p for p in problems), problems  # the reason stays


def test_dates_may_be_a_year_or_empty(runewars):
    for date in ("", "2016", "2016-05", "2017-10-25"):
        runewars["game"]["documents"][0]["date"] = date
        assert schema_problems("runewars", runewars, GAME_SCHEMA) == [], date


def test_check_rejects_mutated_build_files(built, tmp_path, capsys):
    build = tmp_path / "build"
    build.mkdir()
    shutil.copytree(Path(built["out"]) / "data", build / "data")
    (build / "site").symlink_to(Path(built["out"]) / "site")
    report = json.loads((Path(built["out"]) / "report.json").read_text(encoding="utf-8"))
    report["documents"]["runewars/reference"]["lines_read"] = "12"
    (build / "report.json").write_text(json.dumps(report), encoding="utf-8")
    game = json.loads((build / "data/runewars.json").read_text(encoding="utf-8"))
    entry_of(game, "runewars/reference/49")["kind"] = "rulez"
    game["errata"][0]["source"] = None
    (build / "data/runewars.json").write_text(json.dumps(game), encoding="utf-8")
    assert main(["--root", str(tmp_path), "check"]) == 1
    err = capsys.readouterr().err
    assert "build/data/runewars.json: entries/" in err and "'rulez' is not one of" in err
    assert "errata/0/source: None is not valid" in err
    assert "build/report.json: documents/runewars/reference/lines_read: '12' is not of type 'integer'" in err


def test_report_schema(built):
    report = json.loads((Path(built["out"]) / "report.json").read_text(encoding="utf-8"))
    assert schema_problems("report", report, REPORT_SCHEMA) == []
    report["documents"]["runewars/reference"]["anomalies"].append({"kind": "x", "detail": "y", "colour": 1})
    assert any("'colour' was unexpected" in p for p in schema_problems("report", report, REPORT_SCHEMA))


# ---------------------------------------------------------------- exports


def test_json_export_is_not_a_bare_list(root, tmp_path):
    out = tmp_path / "rules.json"
    assert main(["--root", str(root), "export", "--format", "json", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["schema_version"] == "2" and data["meta"]["build_date"] == "2017-10-25"
    assert [g["game"]["id"] for g in data["games"]] == ["battlelore", "heroscape", "runewars", "sda-jfe", "warcry"]
    assert len(data["games"][2]["errata"]) == 13
    assert schema_problems("export", data, EXPORT_SCHEMA) == []
    assert schema_problems("export", [], EXPORT_SCHEMA)  # a bare list is not the export


def test_jsonl_export(root, tmp_path, built):
    out = tmp_path / "rules.jsonl"
    assert main(["--root", str(root), "export", "--format", "jsonl", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records[0]["type"] == "meta" and records[1] == {"type": "game", "game": records[1]["game"]}
    kinds = [r["type"] for r in records]
    # what the game files hold (not a count any corpus edit would break)
    assert kinds.count("entry") == len(built["entries"]) and kinds.count("game") == len(built["games"])
    assert kinds.count("erratum") == sum(len(game["errata"]) for game in built["games"].values())


@pytest.fixture(scope="module")
def database(root, tmp_path_factory) -> sqlite3.Connection:
    out = tmp_path_factory.mktemp("sqlite") / "rules.sqlite"
    assert main(["--root", str(root), "export", "--format", "sqlite", "--out", str(out)]) == 0
    db = sqlite3.connect(out)
    yield db
    db.close()


def readme_query(title: str) -> str:
    """The SQL below a line `-- <title>` of docs/data.md (the documented queries are the ones tested)."""
    block = DATA_PAGE.split(f"-- {title}\n", 1)[1]
    return block.split(";", 1)[0]


def test_sqlite_tables_keys_and_meta(database):
    names = {r[0] for r in database.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
    assert {"games", "documents", "entries", "blocks", "refs", "errata", "entry_errata", "index_terms", "anchors", "meta",
            "entries_fts", "entries_parent", "refs_target", "anchors_anchor"} <= names
    assert database.execute("SELECT count(*) FROM anchors").fetchone() == (0,)  # no corpus book gives heading ids
    assert database.execute("SELECT count(*) FROM entries").fetchone() == (951,)
    assert database.execute("PRAGMA foreign_key_check").fetchall() == []
    # facts: a table, each tied to the entry that states it
    assert database.execute("SELECT number, unit, entry, status FROM facts WHERE id = 'runewars.armee.points_max'").fetchone() == (
        200, "points", "runewars/reference/construction-d-armee/points", "holds")
    assert database.execute("SELECT count(*) FROM facts").fetchone()[0] >= 40
    assert dict(database.execute("SELECT key, value FROM meta WHERE key IN ('schema_version', 'build_date')")) == {
        "schema_version": "2", "build_date": "2017-10-25"}
    fks = database.execute("PRAGMA foreign_key_list(entries)").fetchall()
    assert {(f[2], f[3]) for f in fks} >= {("entries", "parent"), ("games", "game"), ("documents", "document")}
    sql = database.execute("SELECT sql FROM sqlite_master WHERE name = 'entries_fts'").fetchone()[0]
    assert "unicode61 remove_diacritics 2" in sql
    # accents folded: "regles" finds "règles"
    assert database.execute("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'deplacement'").fetchone()[0] > 0


def test_sqlite_keeps_what_the_scanned_book_printed(database, built):
    """Warcry was scanned: every title and block the OCR repair changed has its printed text in the
    export, as in the game file; nothing the repair left alone has one."""
    assert database.execute("SELECT title, printed_title FROM entries WHERE id = 'warcry/regles/livrer-la-bataille'").fetchone() == (
        "LIVRER LA BATAILLE", "LIVRER LA BATAILEE")
    titles = {e["id"]: e["printed_title"] for e in built["entries"].values() if "printed_title" in e}
    blocks = {(e["id"], n): b["printed_text"] for e in built["entries"].values() for n, b in enumerate(e["blocks"])
              if "printed_text" in b}
    assert len(titles) > 10 and len(blocks) > 100 and {i.split("/")[0] for i in [*titles, *(k[0] for k in blocks)]} == {"warcry"}
    assert dict(database.execute("SELECT id, printed_title FROM entries WHERE printed_title IS NOT NULL")) == titles
    assert {(r[0], r[1]): r[2] for r in database.execute(
        "SELECT entry, position, printed_text FROM blocks WHERE version = 'current' AND printed_text IS NOT NULL")} == blocks
    assert database.execute("SELECT count(*) FROM blocks WHERE printed_text = text").fetchone() == (0,)


def test_readme_query_rules_changed_by_errata(database):
    rows = database.execute(readme_query("rules changed by an erratum, before and after")).fetchall()
    by_id = {r[0]: r for r in rows}
    entry, erratum, before, after = by_id["runewars/reference/49"]
    assert erratum == "runewars/faq/errata/errata/guide-de-reference/ligne-de-vue-page-13-section-49"
    assert "[attaque à distance]" in before and "[attaque à distance] ou résoudre un autre effet à distance qui" in after
    assert len(rows) == 10


def test_readme_query_faq_questions_about_a_rule(database):
    rows = database.execute(readme_query("FAQ questions about a rule"), {"rule": "runewars/reference/49"}).fetchall()
    assert [r[0] for r in rows] == ["runewars/faq/faq/ligne-de-vue/q1", "runewars/faq/faq/terrain/mots-clefs-de-terrain/q1"]


def test_readme_query_who_cites_a_rule(database):
    rows = database.execute(readme_query("who cites a rule"), {"rule": "runewars/reference/49"}).fetchall()
    citing = {r[0] for r in rows}
    assert {"runewars/reference/8", "runewars/reference/52", "runewars/faq/faq/ligne-de-vue/q1"} <= citing
    assert len(citing) == len(rows)  # one row per citing entry


def test_csv_export_one_file_per_table(root, tmp_path, built):
    out = tmp_path / "csv"
    assert main(["--root", str(root), "export", "--format", "csv", "--out", str(out)]) == 0
    names = sorted(p.stem for p in out.iterdir())
    assert names == ["anchors", "blocks", "documents", "entries", "entry_errata", "errata", "facts", "games", "index_terms", "meta",
                     "refs"]
    anchors = (out / "anchors.csv").read_text(encoding="utf-8-sig").splitlines()
    assert anchors == ['"entry","position","anchor"']  # a header only: no corpus book gives heading ids
    raw = (out / "entries.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader((out / "entries.csv").read_text(encoding="utf-8-sig").splitlines(keepends=True)))
    assert len(rows) == len(built["entries"])
    assert any(r["number"] == "1.071" for r in rows) and any(r["number"] == "5.10" for r in rows)
    assert '"5.10"' in raw.decode("utf-8-sig")  # quoted text, never a number 5.1


def test_csv_single_table_with_semicolons(root, tmp_path):
    out = tmp_path / "entries.csv"
    assert main(["--root", str(root), "export", "--format", "csv", "--table", "entries", "--delimiter", ";", "--out", str(out)]) == 0
    header = out.read_text(encoding="utf-8-sig").splitlines()[0]
    assert header.startswith('"id";"game";"document"')


def test_csv_cells_that_would_be_formulas_are_neutralised():
    assert [csv_cell(v) for v in ("=1+1", "+33", "-2", "@SUM(A1)", "\tx", "\rx", "ok", 5, None)] == [
        "'=1+1", "'+33", "'-2", "'@SUM(A1)", "'\tx", "'\rx", "ok", 5, ""]


@pytest.mark.parametrize("case", ["non-empty folder", "under a file", "dev full", "table not csv", "unknown table"])
def test_bad_export_targets(root, tmp_path, capsys, case):
    args = ["--format", "csv"]
    if case == "non-empty folder":
        out = tmp_path / "full"
        out.mkdir()
        (out / "keep.txt").write_text("x", encoding="utf-8")
    elif case == "under a file":
        (tmp_path / "file").write_text("x", encoding="utf-8")
        out, args = tmp_path / "file" / "rules.json", ["--format", "json"]
    elif case == "dev full":
        out, args = Path("/dev/full"), ["--format", "jsonl"]
        if not out.exists():
            pytest.skip("no /dev/full")
    elif case == "table not csv":
        out, args = tmp_path / "x.json", ["--format", "json", "--table", "entries"]
    else:
        out, args = tmp_path / "x.csv", ["--format", "csv", "--table", "nothing"]
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code = main(["--root", str(root), "export", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == (2 if case in ("table not csv", "unknown table") else 1)
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing half-written, no temporary left


def test_a_failed_export_keeps_the_previous_file(root, tmp_path, monkeypatch, capsys):
    from extract.publish import export

    out = tmp_path / "rules.sqlite"
    assert main(["--root", str(root), "export", "--format", "sqlite", "--out", str(out)]) == 0
    previous = out.read_bytes()  # an earlier export: the only kind of file an export replaces (with --force)

    def broken(data, path):
        path.write_text("half", encoding="utf-8")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(export, "fill_sqlite", broken)
    capsys.readouterr()
    assert main(["--root", str(root), "export", "--format", "sqlite", "--out", str(out), "--force"]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert out.read_bytes() == previous and [p.name for p in tmp_path.iterdir()] == ["rules.sqlite"]


# ---------------------------------------------------------------- the static API


def test_static_api_serves_one_rule_by_path(built):
    api = Path(built["out"]) / "site" / "api"
    rule = json.loads((api / "runewars/reference/49.json").read_text(encoding="utf-8"))
    assert rule == entry_of(built["games"]["runewars"], "runewars/reference/49")
    nested = api / "runewars/apprentissage/regles-avancees--cartes-objectif.json"
    assert json.loads(nested.read_text(encoding="utf-8"))["id"] == "runewars/apprentissage/regles-avancees/cartes-objectif"
    index = json.loads((api / "runewars/index.json").read_text(encoding="utf-8"))
    assert schema_problems("index", index, API_INDEX_SCHEMA) == []
    item = next(e for e in index["entries"] if e["id"] == "sda-jfe/tournoi/5.03A" or e["id"] == "runewars/reference/49")
    assert item["path"] == entry_path(item["id"]) == "runewars/reference/49.json"
    assert len(list((api / "runewars").rglob("*.json"))) == len(built["games"]["runewars"]["entries"]) + 1


def test_export_data_is_deterministic(root):
    games = load_game_files(root)
    assert export_data(games) == export_data(load_game_files(root))
