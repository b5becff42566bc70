"""`corpus/concepts.toml`: the names games give one notion, for concept links across games.

    [[concept]]
    name = "Ligne de vue"
    terms = ["Ligne de vue", "Ligne de mire", "Visibilité"]
"""

from __future__ import annotations

from pathlib import Path

from extract.errors import InputError
from extract.model import Concept
from extract.text import title_key
from extract.tomlfile import read_toml, table_lines, unknown_key


def read_concepts(root: Path) -> list[Concept]:
    path = root / "corpus" / "concepts.toml"
    if not path.is_file():
        return []
    data, raw, rel = read_toml(path, root)
    unknown_key(data, {"concept"}, rel, raw)
    concepts = []
    lines = table_lines(raw, "concept", len(data.get("concept", [])))
    for i, item in enumerate(data.get("concept", [])):
        line = lines[i]
        if set(item) - {"name", "terms"}:
            raise InputError(rel, f"unknown key {sorted(set(item) - {'name', 'terms'})[0]!r} in [[concept]]", line)
        terms = item.get("terms")
        if not isinstance(item.get("name"), str) or not isinstance(terms, list) or len(terms) < 2 \
                or not all(isinstance(t, str) for t in terms):
            raise InputError(rel, "a [[concept]] needs a name and at least two terms", line)
        concepts.append(Concept(item["name"], frozenset(title_key(t) for t in terms)))
    return concepts
