"""Exports of the rule data for other tools, one writer per format, registered by name.

Every format carries the schema version, the game metadata and the errata (`export_data`):

- `json`: one object `{schema_version, meta, games: [{game, entries, errata}]}`;
- `jsonl`: one record per line, `{"type": "meta"|"game"|"entry"|"erratum"|"fact", …}`;
- `sqlite`: relational tables with keys and an FTS5 table (`tables` gives their rows);
- `csv`: the same tables, one file each in a folder (or one table with `--table`), UTF-8 with a
  BOM, formulas neutralised.

Schemas: `extract.contract.schema` (EXPORT_SCHEMA, EXPORT_LINE_SCHEMA). Writing never leaves half a file:
each output is written beside its target and renamed into place.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extract import __version__
from extract.errors import InputError, UsageError
from extract.model import SCHEMA_VERSION
from extract.registry import Registry

Games = dict[str, dict[str, Any]]  # game id -> game file (build/data/<game>.json)


@dataclass(frozen=True)
class ExportOptions:
    table: str | None = None  # csv: one table only, written to the file `out`
    delimiter: str = ","  # csv
    bom: bool = True  # csv: UTF-8 with a BOM, so that spreadsheets read the accents
    force: bool = False  # replace a file an earlier `regles export` wrote (never any other file)


@dataclass(frozen=True)
class Export:
    name: str
    write: Callable[[dict[str, Any], Path, ExportOptions], None]
    help: str


EXPORTS: Registry[Export] = Registry("export format")


def export(name: str, help: str, priority: int = 0) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def add(write: Callable[..., None]) -> Callable[..., None]:
        EXPORTS.add(name, Export(name, write, help), priority)
        return write
    return add


# ---------------------------------------------------------------- the data


def export_data(games: Games) -> dict[str, Any]:
    """What every format exports: the schema version, `meta` (generator, build date, the sources'
    SHA-256) and each game with its entries and errata, games in id order."""
    documents = [d for name in sorted(games) for d in games[name]["game"]["documents"]]
    meta = {
        "schema_version": SCHEMA_VERSION,
        "generator": f"regles {__version__}",
        # Not the clock: the newest document date, so that the same corpus exports the same bytes.
        "build_date": max((d["date"] for d in documents), default=""),
        "sources": {d["source"]: d["sha256"] for d in sorted(documents, key=lambda d: d["source"]) if d.get("sha256")},
    }
    return {
        "schema_version": SCHEMA_VERSION,
        "meta": meta,
        "games": [{"game": games[n]["game"], "entries": games[n]["entries"], "errata": games[n]["errata"],
                   "facts": games[n].get("facts", [])} for n in sorted(games)],
    }


def jsonl_records(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield {"type": "meta", "meta": data["meta"]}
    for game in data["games"]:
        yield {"type": "game", "game": game["game"]}
        for entry in game["entries"]:
            yield {"type": "entry", "entry": entry}
        for erratum in game["errata"]:
            yield {"type": "erratum", "erratum": erratum}
        for fact in game["facts"]:
            yield {"type": "fact", "fact": fact}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _joined(blocks: list[dict[str, Any]]) -> str:
    return "\n\n".join(b["text"] for b in blocks)


# Tables: name -> columns "name TYPE [constraints]", then table constraints. The same rows feed
# SQLite and CSV.
SCHEMA_SQL: dict[str, list[str]] = {
    "meta": ["key TEXT PRIMARY KEY", "value TEXT NOT NULL"],
    "games": ["id TEXT PRIMARY KEY", "title TEXT NOT NULL"],
    "documents": ["id TEXT PRIMARY KEY", "game TEXT NOT NULL REFERENCES games(id)", "document TEXT NOT NULL",
                  "title TEXT NOT NULL", "kind TEXT NOT NULL", "version TEXT NOT NULL", "date TEXT NOT NULL",
                  "source TEXT NOT NULL", "profile TEXT", "sha256 TEXT"],
    "entries": ["id TEXT PRIMARY KEY", "game TEXT NOT NULL REFERENCES games(id)",
                "document TEXT NOT NULL REFERENCES documents(id)", "position INTEGER NOT NULL", "kind TEXT NOT NULL",
                "number TEXT", "title TEXT", "original_title TEXT", "parent TEXT REFERENCES entries(id)",
                "status TEXT NOT NULL", "text TEXT NOT NULL", "printed_text TEXT NOT NULL", "markdown TEXT",
                "flags TEXT NOT NULL", "url TEXT NOT NULL", "source_file TEXT NOT NULL", "first_line INTEGER",
                "last_line INTEGER", "page INTEGER",
                # the title as scanned where the OCR repair changed it (`printed_text` above is the text
                # before errata); last, so that columns read by position keep theirs
                "printed_title TEXT"],
    "blocks": ["entry TEXT NOT NULL REFERENCES entries(id)", "version TEXT NOT NULL CHECK (version IN ('current', 'printed'))",
               "position INTEGER NOT NULL", "type TEXT NOT NULL", "text TEXT NOT NULL", "number TEXT", "depth INTEGER",
               "rows TEXT", "printed_text TEXT",  # as scanned, where the OCR repair changed the text
               "PRIMARY KEY (entry, version, position)"],
    "refs": ["source TEXT NOT NULL REFERENCES entries(id)", "position INTEGER NOT NULL", "target TEXT REFERENCES entries(id)",
             "kind TEXT NOT NULL", "text TEXT NOT NULL", "reason TEXT", "PRIMARY KEY (source, position)"],
    "errata": ["id TEXT PRIMARY KEY", "game TEXT NOT NULL REFERENCES games(id)", "position INTEGER NOT NULL",
               "source TEXT NOT NULL", "target TEXT REFERENCES entries(id)", "operation TEXT NOT NULL",
               "scope_block TEXT NOT NULL", "scope_ordinal INTEGER", "scope TEXT NOT NULL", "before TEXT", "after TEXT",
               "quoted_before TEXT", "after_blocks TEXT", "status TEXT NOT NULL", "reason TEXT", "instruction TEXT NOT NULL",
               "resolution TEXT", "checks TEXT NOT NULL", "origin_file TEXT NOT NULL", "origin_first_line INTEGER",
               "origin_last_line INTEGER", "origin_date TEXT", "origin_source TEXT", "origin_url TEXT", "target_hint TEXT"],
    "entry_errata": ["entry TEXT NOT NULL REFERENCES entries(id)", "erratum TEXT NOT NULL REFERENCES errata(id)",
                     "position INTEGER NOT NULL", "PRIMARY KEY (entry, erratum)"],
    "index_terms": ["entry TEXT NOT NULL REFERENCES entries(id)", "position INTEGER NOT NULL", "term TEXT NOT NULL",
                    "PRIMARY KEY (entry, position)"],
    # the ids a Markdown book gave the entry's heading ("## Le marché {#marche}"): a link copied from it resolves here
    "anchors": ["entry TEXT NOT NULL REFERENCES entries(id)", "position INTEGER NOT NULL", "anchor TEXT NOT NULL",
                "PRIMARY KEY (entry, position)"],
    # A value is JSON (200, [90, 180], {"min": 1, "max": 2}, "Mêlée"); `number` holds it when it is one number.
    "facts": ["id TEXT PRIMARY KEY", "game TEXT NOT NULL REFERENCES games(id)", "label TEXT NOT NULL", "value TEXT NOT NULL",
              "number REAL", "unit TEXT", "entry TEXT NOT NULL REFERENCES entries(id)", "quote TEXT NOT NULL",
              "status TEXT NOT NULL CHECK (status IN ('holds', 'stale'))", "errata TEXT NOT NULL", "erratum TEXT",
              "reason TEXT", "source_file TEXT NOT NULL", "source_line INTEGER"],
}
INDEXES = [
    "CREATE INDEX entries_parent ON entries(parent)",
    "CREATE INDEX entries_document ON entries(document)",
    "CREATE INDEX refs_target ON refs(target)",
    "CREATE INDEX errata_target ON errata(target)",
    "CREATE INDEX entry_errata_erratum ON entry_errata(erratum)",
    "CREATE INDEX index_terms_term ON index_terms(term)",
    "CREATE INDEX anchors_anchor ON anchors(anchor)",
    "CREATE INDEX facts_entry ON facts(entry)",
]
FTS_SQL = ("CREATE VIRTUAL TABLE entries_fts USING fts5(id UNINDEXED, title, text, "
           "tokenize = 'unicode61 remove_diacritics 2')")


def columns(table: str) -> list[str]:
    return [c.split()[0] for c in SCHEMA_SQL[table] if not c.startswith("PRIMARY KEY")]


def tables(data: dict[str, Any]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of every table, in a fixed order (tables in dependency order)."""
    meta = data["meta"]
    rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in SCHEMA_SQL}
    rows["meta"] = [("schema_version", meta["schema_version"]), ("generator", meta["generator"]),
                    ("build_date", meta["build_date"])] + [(f"sha256:{path}", digest) for path, digest in meta["sources"].items()]
    for item in data["games"]:
        game = item["game"]
        rows["games"].append((game["id"], game["title"]))
        for d in game["documents"]:
            rows["documents"].append((f"{game['id']}/{d['id']}", game["id"], d["id"], d["title"], d["kind"], d["version"],
                                      d["date"], d["source"], d.get("profile"), d.get("sha256")))
        for position, e in enumerate(item["entries"]):
            lines = e["source"]["lines"]
            printed = _joined(e["original_blocks"]) if "original_blocks" in e else e["text"]
            rows["entries"].append((
                e["id"], e["game"], f"{e['game']}/{e['document']}", position, e["kind"], e["number"], e["title"],
                e.get("original_title"), e["parent"], e["status"], e["text"], printed, e.get("markdown"), " ".join(e["flags"]),
                e["url"], e["source"]["file"], lines[0] if lines else None, lines[-1] if lines else None, e["source"].get("page"),
                e.get("printed_title")))
            for version, blocks in (("current", e["blocks"]), ("printed", e.get("original_blocks"))):
                for n, b in enumerate(blocks or []):
                    rows["blocks"].append((e["id"], version, n, b["type"], b["text"], b.get("number"), b.get("depth"),
                                           _json(b["rows"]) if "rows" in b else None, b.get("printed_text")))
            for n, r in enumerate(e["refs"]):
                rows["refs"].append((e["id"], n, r["target"], r["kind"], r["text"], r.get("reason")))
            for n, erratum in enumerate(e["errata"]):
                rows["entry_errata"].append((e["id"], erratum, n))
            for n, term in enumerate(e["index_terms"]):
                rows["index_terms"].append((e["id"], n, term))
            for n, anchor in enumerate(e.get("anchors", [])):  # optional in the game file: absent, no row
                rows["anchors"].append((e["id"], n, anchor))
        for position, x in enumerate(item["errata"]):
            origin, scope = x["origin"], x["scope"]
            lines = origin.get("lines") or []
            rows["errata"].append((
                x["id"], game["id"], position, x["source"], x["target"], x["operation"], scope["block"], scope.get("ordinal"),
                _json(scope), x["before"], x["after"], x.get("quoted_before"),
                _json(x["after_blocks"]) if "after_blocks" in x else None, x["status"], x["reason"], x["instruction"],
                x["resolution"], _json(x["checks"]), origin["file"], lines[0] if lines else None, lines[-1] if lines else None,
                origin.get("date"), origin.get("source"), origin.get("url"),
                _json(x["target_hint"]) if "target_hint" in x else None))
        for f in item["facts"]:
            value = f["value"]
            number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
            rows["facts"].append((f["id"], game["id"], f["label"], _json(value), number, f["unit"], f["entry"], f["quote"],
                                  f["status"], _json(f["errata"]), f.get("erratum"), f.get("reason"), f["source"]["file"],
                                  f["source"]["line"]))
    return rows


# ---------------------------------------------------------------- writing safely


def _prepare_parent(out: Path) -> None:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(str(out), f"cannot create its folder ({error.strerror or error})") from None


def _special(out: Path) -> bool:
    """A device or pipe (`/dev/stdout`, `/dev/full`): written to directly, never replaced."""
    try:
        mode = out.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


SNIFF = 1 << 16  # bytes read at each end of an existing file to tell whether regles exported it
EXPORT_MARK = b'"generator": "regles '  # in `meta`: the first line of a JSONL export, near the end of a JSON one


def written_by_export(path: Path) -> bool:
    """Whether the regular file `path` is one `regles export` wrote, by its content (any version):
    a JSON or JSONL export's `meta`, an SQLite export's `meta` table, a CSV table's header row."""
    try:
        with path.open("rb") as handle:
            head = handle.read(SNIFF)
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - SNIFF))
            tail = handle.read(SNIFF)
    except OSError:
        return False
    if head.startswith(b"SQLite format 3\x00"):
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                row = db.execute("SELECT value FROM meta WHERE key = 'generator'").fetchone()
            finally:
                db.close()
        except sqlite3.Error:
            return False
        return bool(row) and str(row[0]).startswith("regles ")
    if head.startswith(b'{"meta": {'):  # JSONL: its first record is the meta one
        return EXPORT_MARK in head.split(b"\n", 1)[0]
    if head.startswith(b"{\n"):  # JSON: `meta` sorts after `games`, before `schema_version`
        return b'\n "meta": {' in tail and EXPORT_MARK in tail
    first = head.removeprefix(b"\xef\xbb\xbf").split(b"\r\n", 1)[0].decode("utf-8", "replace")
    for table in SCHEMA_SQL:  # CSV: a table's header, every name quoted, with any one-character delimiter
        names = [f'"{name}"' for name in columns(table)]
        if first.startswith(names[0]) and len(first) > len(names[0]) and first == first[len(names[0])].join(names):
            return True
    return False


def check_replaceable(out: Path, force: bool) -> None:
    """`out` may be written: absent, a device (`/dev/stdout`), or a file an earlier export wrote and
    `force` replaces; never a link (written through, it would change its target) nor another file."""
    if out.is_symlink():
        raise InputError(str(out), "a symbolic link: not replaced (give a path of its own)")
    if not out.exists() or out.is_dir() or _special(out):
        return
    if not written_by_export(out):
        raise InputError(str(out), "exists and was not written by regles export: not replaced (give a new file name)")
    if not force:
        raise InputError(str(out), "already exported by regles: give --force to replace it")


def write_file(out: Path, fill: Callable[[Path], None], force: bool = False) -> None:
    """Write `out` through `fill(temporary path)`: a temporary file beside it, renamed into place
    once complete, so a failure leaves no half-written file (and the old one, if any, as it was).
    An existing file is replaced only when an earlier export wrote it, and `force` says so."""
    if out.is_dir():
        raise InputError(str(out), "is a folder; give a file name")
    check_replaceable(out, force)
    _prepare_parent(out)
    special = _special(out)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=None if special else out.parent)
        os.close(handle)
    except OSError as error:
        raise InputError(str(out), f"cannot write beside it ({error.strerror or error})") from None
    temp = Path(name)
    try:
        fill(temp)
        temp.chmod(0o666 & ~_umask())  # as an ordinary new file, not mkstemp's 0600
        if special:
            with temp.open("rb") as source, out.open("wb") as target:
                shutil.copyfileobj(source, target)
        else:
            os.replace(temp, out)
    except OSError as error:
        raise InputError(str(out), f"cannot write ({error.strerror or error})") from None
    finally:
        temp.unlink(missing_ok=True)


def write_folder(out: Path, fill: Callable[[Path], None]) -> None:
    """Write the folder `out` (absent or empty) through `fill(temporary folder)`, renamed into place."""
    if out.is_symlink():
        raise InputError(str(out), "a symbolic link: not replaced (give a path of its own)")
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "exists and is not a folder (CSV writes one file per table into a folder; "
                                   "or give --table entries for one file)")
    if out.is_dir() and any(out.iterdir()):
        raise InputError(str(out), "folder is not empty; give a new or empty folder")
    _prepare_parent(out)
    try:
        temp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    except OSError as error:
        raise InputError(str(out), f"cannot write beside it ({error.strerror or error})") from None
    try:
        fill(temp)
        temp.chmod(0o777 & ~_umask())
        for file in temp.iterdir():
            file.chmod(0o666 & ~_umask())
        if out.is_dir():
            out.rmdir()
        temp.rename(out)
    except OSError as error:
        raise InputError(str(out), f"cannot write ({error.strerror or error})") from None
    finally:
        shutil.rmtree(temp, ignore_errors=True)


# ---------------------------------------------------------------- formats


@export("json", "one JSON object: schema version, meta, every game with its entries and errata")
def write_json_export(data: dict[str, Any], out: Path, options: ExportOptions) -> None:
    write_file(out, lambda path: path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n",
                                                 encoding="utf-8"), options.force)


@export("jsonl", "one JSON record per line: meta, then each game, its entries and errata")
def write_jsonl(data: dict[str, Any], out: Path, options: ExportOptions) -> None:
    write_file(out, lambda path: path.write_text("".join(_json(r) + "\n" for r in jsonl_records(data)), encoding="utf-8"),
               options.force)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # OWASP: cells a spreadsheet would read as a formula


def csv_cell(value: Any) -> Any:
    """A cell as written: text that would start a formula gets a leading `'`; None is empty."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(table: str, rows: list[tuple[Any, ...]], options: ExportOptions) -> str:
    buffer = io.StringIO()
    # Every text cell quoted (numbers left bare), so "5.10" or "1.071" read as the rule numbers they are.
    writer = csv.writer(buffer, delimiter=options.delimiter, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    writer.writerow(columns(table))
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return buffer.getvalue()


@export("csv", "one CSV file per table in a folder (or one table with --table), UTF-8 with BOM, formulas neutralised")
def write_csv(data: dict[str, Any], out: Path, options: ExportOptions) -> None:
    rows = tables(data)
    encoding = "utf-8-sig" if options.bom else "utf-8"
    if options.table is not None:
        if options.table not in rows:
            raise UsageError(f"regles export: no table {options.table!r} (one of {', '.join(rows)})")
        table = options.table
        write_file(out, lambda path: path.write_text(csv_text(table, rows[table], options), encoding=encoding, newline=""),
                   options.force)
        return

    def fill(folder: Path) -> None:
        for name, table_rows in rows.items():
            (folder / f"{name}.csv").write_text(csv_text(name, table_rows, options), encoding=encoding, newline="")
    write_folder(out, fill)


def fill_sqlite(data: dict[str, Any], path: Path) -> None:
    rows = tables(data)
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA foreign_keys = ON")
        with db:
            for name, spec in SCHEMA_SQL.items():
                db.execute(f"CREATE TABLE {name} ({', '.join(spec)})")
            for statement in INDEXES:
                db.execute(statement)
            db.execute(FTS_SQL)
            # parents and ref targets point forward too: checked once everything is in
            db.execute("PRAGMA defer_foreign_keys = ON")
            for name, table_rows in rows.items():
                marks = ", ".join("?" * len(columns(name)))
                db.executemany(f"INSERT INTO {name} ({', '.join(columns(name))}) VALUES ({marks})", table_rows)
            db.execute("INSERT INTO entries_fts (id, title, text) SELECT id, coalesce(title, ''), text FROM entries ORDER BY position")
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise ValueError(f"foreign keys broken in the export: {broken[:3]}")
        db.execute("VACUUM")
    finally:
        db.close()


@export("sqlite", "an SQLite database: games, documents, entries, blocks, refs, errata, entry_errata, index_terms, "
                  "anchors, facts, meta, FTS5")
def write_sqlite(data: dict[str, Any], out: Path, options: ExportOptions) -> None:
    def fill(path: Path) -> None:
        path.unlink()  # sqlite3 creates its own file
        fill_sqlite(data, path)
    write_file(out, fill, options.force)
