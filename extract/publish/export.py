"""Exports of the rule data for other tools, one writer per format, registered by name."""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extract.registry import Registry

Entries = list[dict[str, Any]]


@dataclass(frozen=True)
class Export:
    name: str
    write: Callable[[Entries, Path], None]
    help: str


EXPORTS: Registry[Export] = Registry("export format")


def export(name: str, help: str, priority: int = 0) -> Callable[[Callable[[Entries, Path], None]], Callable[[Entries, Path], None]]:
    def add(write: Callable[[Entries, Path], None]) -> Callable[[Entries, Path], None]:
        EXPORTS.add(name, Export(name, write, help), priority)
        return write
    return add


@export("json", "every entry as one JSON list")
def write_json_list(entries: Entries, out: Path) -> None:
    out.write_text(json.dumps(entries, ensure_ascii=False, sort_keys=True, indent=1) + "\n", encoding="utf-8")


@export("jsonl", "one entry per line")
def write_jsonl(entries: Entries, out: Path) -> None:
    out.write_text("".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in entries), encoding="utf-8")


@export("csv", "one row per entry")
def write_csv(entries: Entries, out: Path) -> None:
    with out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "game", "document", "kind", "number", "title", "parent", "status", "text"])
        for e in entries:
            writer.writerow([e["id"], e["game"], e["document"], e["kind"], e["number"] or "",
                             e["title"] or "", e["parent"] or "", e["status"], e["text"]])


@export("sqlite", "an SQLite database, one row per entry")
def write_sqlite(entries: Entries, out: Path) -> None:
    if out.exists():
        out.unlink()
    with sqlite3.connect(out) as db:
        db.execute("create table entries (id text primary key, game text, document text, kind text, "
                   "number text, title text, parent text, status text, text text, data text)")
        db.executemany("insert into entries values (?,?,?,?,?,?,?,?,?,?)", [
            (e["id"], e["game"], e["document"], e["kind"], e["number"], e["title"], e["parent"],
             e["status"], e["text"], json.dumps(e, ensure_ascii=False, sort_keys=True)) for e in entries])
    db.close()
