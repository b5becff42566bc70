"""The static JSON API, written into the site (`build/site/api/`), so that a tool can fetch one
rule by path from wherever the site is published:

- `api/<game>/index.json` — the game's metadata, every entry's id, kind, number, title, parent,
  status and `path`, the game's errata and its facts (schema `api-index` in `extract.schema`);
- `api/<game>/<document>/<name>.json` — one entry, exactly as in `build/data/<game>.json`;
  `<name>` is the entry's key (its number, `25.3`, or its slug path) with each `/` written `--`
  (`runewars/apprentissage/regles-avancees/cartes-objectif` →
  `api/runewars/apprentissage/regles-avancees--cartes-objectif.json`). Keys never hold `--`
  (slugs collapse hyphens), so the name maps back to the id; a name longer than
  `extract.urls.NAME_BYTES` is cut and ends with a hash of the whole (`extract.urls.file_name`),
  and the index's `path` says where each entry is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from extract.errors import shortened, writing
from extract.model import SCHEMA_VERSION
from extract.publish.data import dumps, write_json
from extract.urls import file_name


def entry_path(entry_id: str) -> str:
    """`runewars/reference/25.3` → `runewars/reference/25.3.json`, relative to `api/`."""
    game, document, key = entry_id.split("/", 2)
    return f"{game}/{document}/{file_name(key.replace('/', '--'), '.json')}"


def write_api(folder: Path, games: Iterable[dict[str, Any]]) -> None:
    """Write the API of each game file (as `game_json` makes it) into `folder` (`build/site/api`).
    `games` may be a generator, and each game's `entries` too: they are read once, in order, and
    each entry let go once written (a large corpus's game files need not be in memory at once)."""
    for game in games:
        gid = game["game"]["id"]
        rows = []
        written: set[str] = set()
        for entry in game["entries"]:
            path = entry_path(entry["id"])
            if path in written:
                raise ValueError(f"two entries would share api/{path}")
            written.add(path)
            rows.append({"id": entry["id"], "kind": entry["kind"], "number": entry["number"], "title": entry["title"],
                         "parent": entry["parent"], "status": entry["status"], "path": path})
            target = folder / path
            source = entry.get("source") or {}
            lines = source.get("lines") or [None]
            with writing(f"api/{shortened(path)}, the API file of entry {shortened(entry['id'])}", source.get("file"), lines[0]):
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(dumps(entry), encoding="utf-8")
        index = {
            "schema_version": SCHEMA_VERSION,
            "game": game["game"],
            "entries": rows,
            "errata": game["errata"],
            "facts": game.get("facts", []),
        }
        write_json(folder / gid / "index.json", index)
