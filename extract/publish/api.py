"""The static JSON API, written into the site (`build/site/api/`), so that a tool can fetch one
rule by path from wherever the site is published:

- `api/<game>/index.json` — the game's metadata, every entry's id, kind, number, title, parent,
  status and `path`, the game's errata and its facts (schema `api-index` in `extract.contract.schema`);
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
from extract.publish.data import dumps
from extract.urls import file_name


def entry_path(entry_id: str) -> str:
    """`runewars/reference/25.3` → `runewars/reference/25.3.json`, relative to `api/`."""
    game, document, key = entry_id.split("/", 2)
    return f"{game}/{document}/{file_name(key.replace('/', '--'), '.json')}"


class ApiWriter:
    """The API of one game, written entry by entry as its game file is (`write_game_json`'s
    `each`): an entry's file, in `folder`, holds the text the game file was given for it, encoded once."""

    def __init__(self, folder: Path, game_id: str) -> None:
        self.folder, self.game_id = folder, game_id
        self.rows: list[dict[str, Any]] = []
        self.written: set[str] = set()

    def entry(self, entry: dict[str, Any], text: str) -> None:
        """One entry (its `entry_json`) and its text (`dumps` of it)."""
        path = entry_path(entry["id"])
        if path in self.written:
            raise ValueError(f"two entries would share api/{path}")
        self.written.add(path)
        self.rows.append({"id": entry["id"], "kind": entry["kind"], "number": entry["number"], "title": entry["title"],
                          "parent": entry["parent"], "status": entry["status"], "path": path})
        source = entry.get("source") or {}
        lines = source.get("lines") or [None]
        with writing(f"api/{shortened(path)}, the API file of entry {shortened(entry['id'])}", source.get("file"), lines[0]):
            self.write(path, text)

    def close(self, game: dict[str, Any]) -> None:
        """The game's index, from its game file's data without entries (`game_json(game, [], ...)`)."""
        index = {
            "schema_version": SCHEMA_VERSION,
            "game": game["game"],
            "entries": self.rows,
            "errata": game["errata"],
            "facts": game.get("facts", []),
        }
        self.write(f"{self.game_id}/index.json", dumps(index))

    def write(self, path: str, text: str) -> None:
        target = self.folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def write_api(folder: Path, games: Iterable[dict[str, Any]]) -> None:
    """Write the API of each game file (as `game_json` makes it) into `folder` (`build/site/api`).
    `games` may be a generator, and each game's `entries` too: they are read once, in order, and
    each entry let go once written (a large corpus's game files need not be in memory at once).
    The build itself writes the API with the game files (`ApiWriter`), from the same text."""
    for game in games:
        writer = ApiWriter(folder, game["game"]["id"])
        for entry in game["entries"]:
            writer.entry(entry, dumps(entry))
        writer.close(game)
