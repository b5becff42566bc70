"""`corpus/<game>/facts.toml`: numbers and limits the rules state, each tied to the entry and the
words that state it, in the manner of OpenFisca's parameters.

    [[fact]]
    id = "runewars.armee.points_max"        # <game>.<topic>.<name>: lowercase, digits, underscores
    label = "Valeur maximale d'une armée"
    value = 200                             # integer, decimal, text, list, or {min = 1, max = 2}
    unit = "points"                         # where one applies
    entry = "reference/construction-d-armee/points"   # with or without the game
    quote = "… ne peut excéder 200 points."  # the exact words of the entry's current text
    erratum = "faq/errata/…"                 # optional: the erratum whose text is the source
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.model import Fact
from extract.tomlfile import read_toml, table_lines, unknown_key

FACT_KEYS = {"id", "label", "value", "unit", "entry", "quote", "erratum", "note"}
FACT_ID = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)+$")


def game_prefix(game: str) -> str:
    """The first part of a fact id: the game id with underscores ("sda-jfe" -> "sda_jfe")."""
    return game.replace("-", "_")


def read_facts(root: Path, game: str) -> list[Fact]:
    path = root / "corpus" / game / "facts.toml"
    if not path.is_file():
        return []
    data, raw, rel = read_toml(path, root)
    unknown_key(data, {"fact"}, rel, raw)
    facts: list[Fact] = []
    seen: set[str] = set()
    lines = table_lines(raw, "fact", len(data.get("fact", [])))
    for i, item in enumerate(data.get("fact", [])):
        line = lines[i]
        facts.append(read_fact(item, game, rel, line, seen))
    return facts


def read_fact(item: dict[str, Any], game: str, rel: str, line: int | None, seen: set[str]) -> Fact:
    def fail(message: str) -> InputError:
        return InputError(rel, message, line)

    unknown = sorted(set(item) - FACT_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} in [[fact]] (allowed: {', '.join(sorted(FACT_KEYS))})")
    for key in ("id", "label", "entry", "quote"):
        if not isinstance(item.get(key), str) or not item[key].strip():
            raise fail(f"[[fact]] needs {key} (text)")
    fact_id = item["id"]
    if not FACT_ID.match(fact_id) or not fact_id.startswith(game_prefix(game) + "."):
        raise fail(f"fact id {fact_id!r} must be dotted lowercase words starting with {game_prefix(game)!r}")
    if fact_id in seen:
        raise fail(f"duplicate fact id {fact_id!r}")
    seen.add(fact_id)
    if "value" not in item:
        raise fail(f"fact {fact_id}: no value")
    value = check_value(item["value"], fail, fact_id)
    unit = item.get("unit")
    if unit is not None and not isinstance(unit, str):
        raise fail(f"fact {fact_id}: unit must be text")
    erratum = item.get("erratum")
    if erratum is not None and not isinstance(erratum, str):
        raise fail(f"fact {fact_id}: erratum must be an erratum id")
    return Fact(fact_id, item["label"], value, qualified(item["entry"], game), item["quote"], unit,
                qualified(erratum, game) if erratum else None, rel, line)


def check_value(value: Any, fail: Any, fact_id: str) -> Any:
    scalar = (int, float, str)
    if isinstance(value, bool):
        raise fail(f"fact {fact_id}: a value is a number, a text, a list or {{min, max}}, not true/false")
    if isinstance(value, scalar):
        return value
    if isinstance(value, list) and value and all(isinstance(v, scalar) and not isinstance(v, bool) for v in value):
        return list(value)
    if isinstance(value, dict) and set(value) == {"min", "max"} and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()):
        if value["min"] > value["max"]:
            raise fail(f"fact {fact_id}: range min {value['min']} is above max {value['max']}")
        return {"min": value["min"], "max": value["max"]}
    raise fail(f"fact {fact_id}: a value is a number, a text, a non-empty list or {{min = …, max = …}}")


def qualified(entry_id: str, game: str) -> str:
    return entry_id if entry_id.startswith(game + "/") else f"{game}/{entry_id}"
