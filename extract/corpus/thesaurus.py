"""Words for the search: the tool's own French table talk (`thesaurus.toml` beside this module,
true of game rules in general, so a rulebook never seen before has it too), a corpus's
`corpus/thesaurus.toml` (across its games) and the `[[same]]`, `[[means]]` and `[names]` of each
game's `terms.toml`.

    [[same]]                                  # each expression finds the others
    words = ["pivoter", "tourner", "virage"]

    [[means]]                                 # a reader's words find the books' words
    say = ["fuir le combat", "s'enfuir"]
    books = ["désengagement", "retraite"]

    [names]                                   # (terms.toml only) other names of an entry:
    "Firing Arc" = "reference/8"              # the English edition's, for one
    "Line of Sight" = ["reference/49", "apprentissage/actions/portee-et-ligne-de-vue"]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.tomlfile import line_of, read_toml, unknown_key

Synonym = tuple[list[str], list[str]]  # (expressions typed, expressions meant)


BUILTIN = Path(__file__).with_name("thesaurus.toml")
ENGLISH = Path(__file__).with_name("english.toml")


def builtin_thesaurus() -> list[Any]:
    """The tool's own table talk, then its glossary of the genre's English terms (`english.toml`
    beside this module: "line of sight" → ligne de vue, for every game), as (said, meant, "",
    "en"): true of every game, in English."""
    found: list[Any] = []
    for path in (BUILTIN, ENGLISH):
        data, raw, rel = read_toml(path, path.parent.parent.parent)
        unknown_key(data, {"same", "means"}, rel, raw)
        # English expressions are marked so: the search spells no French typo into them ("figs" is not "fight")
        found.extend(synonyms_of(data, raw, rel) if path == BUILTIN else
                     [(said, meant, "", "en") for said, meant in synonyms_of(data, raw, rel)])
    return found


def read_thesaurus(root: Path) -> list[Synonym]:
    """`corpus/thesaurus.toml`, if there is one."""
    path = root / "corpus" / "thesaurus.toml"
    if not path.is_file():
        return []
    data, raw, rel = read_toml(path, root)
    unknown_key(data, {"same", "means"}, rel, raw)
    return synonyms_of(data, raw, rel)


def synonyms_of(data: dict[str, Any], raw: str, rel: str) -> list[Synonym]:
    """The `[[same]]` and `[[means]]` tables of a file, checked."""
    found: list[Synonym] = []
    for table, keys in (("same", ("words",)), ("means", ("say", "books"))):
        items = data.get(table, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise InputError(rel, f"{table} must be written [[{table}]]", line_of(raw, rf"^\s*{table}\s*="))
        for n, item in enumerate(items):
            line = line_of(raw, rf"^\s*\[\[{table}\]\]", n)
            unknown = sorted(set(item) - set(keys))
            if unknown:
                raise InputError(rel, f"unknown key {unknown[0]!r} in [[{table}]] (allowed: {', '.join(keys)})", line)
            lists = []
            for key in keys:
                value = item.get(key)
                if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
                    raise InputError(rel, f"[[{table}]] {key} must be a non-empty list of expressions", line)
                lists.append([v.strip() for v in value])
            if table == "same":
                if len(lists[0]) < 2:
                    raise InputError(rel, "[[same]] words needs two expressions at least", line)
                found.extend(([word], [w for w in lists[0] if w != word]) for word in lists[0])
            else:
                found.append((lists[0], lists[1]))
    return found


def read_names(data: dict[str, Any], raw: str, rel: str, game: str) -> dict[str, list[str]]:
    """`[names]`: name -> entry id or ids (without the game), as entry id -> names."""
    names = data.get("names", {})
    start = line_of(raw, r"^\s*\[names\]")
    if not isinstance(names, dict):
        raise InputError(rel, "[names] maps a name to an entry id or a list of ids", start)
    found: dict[str, list[str]] = {}
    for name, targets in names.items():
        if isinstance(targets, str):
            targets = [targets]
        if not isinstance(targets, list) or not targets or not all(isinstance(t, str) and t for t in targets):
            line = line_of(raw, rf'^\s*"?{re.escape(name)}"?\s*=') or start  # looked for when needed: one scan per name
            raise InputError(rel, f"[names] {name!r}: an entry id or a list of ids", line)
        for target in targets:
            if target.startswith(f"{game}/"):
                target = target[len(game) + 1:]
            found.setdefault(f"{game}/{target}", []).append(name)
    return found

