"""`corpus/<game>/icons.toml`: the book's icons, each named once with the words printed just
before it (extract.icons says why and how they are applied):

    ignore = ["+", "-"]            # in parentheses but text: "un plus (+) ou un moins (-)"

    [[icon]]
    name = "ralliement"            # the token in the text: "[ralliement]"
    cues = ["ralliement"]          # the words before "(glyph)", any case: "action Ralliement (☘)"
"""

from __future__ import annotations

import re
from pathlib import Path

from extract.errors import InputError
from extract.icons import IconTable
from extract.tomlfile import line_of, read_toml, table_lines, unknown_key

NAME = re.compile(r"^[^\W\d_][\w' -]*\w$|^\w$")


def read_icons(root: Path, game: str) -> IconTable:
    path = root / "corpus" / game / "icons.toml"
    if not path.is_file():
        return IconTable()
    data, raw, rel = read_toml(path, root)
    unknown_key(data, {"ignore", "icon"}, rel, raw)
    ignore = data.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(g, str) and g for g in ignore):
        raise InputError(rel, "ignore must be a list of characters", line_of(raw, r"^\s*ignore\s*="))
    cues: dict[str, str] = {}
    names: set[str] = set()
    lines = table_lines(raw, "icon", len(data.get("icon", [])))
    for i, item in enumerate(data.get("icon", [])):
        line = lines[i]
        if not isinstance(item, dict):
            raise InputError(rel, "[[icon]] must be a table", line)
        unknown_key(item, {"name", "cues"}, rel, raw, " in [[icon]]")
        name, said = item.get("name"), item.get("cues")
        if not isinstance(name, str) or not NAME.match(name) or "[" in name or "]" in name:
            raise InputError(rel, f"icon name {name!r}: words, without brackets", line)
        if name in names:
            raise InputError(rel, f"icon {name!r} is named twice", line)
        names.add(name)
        if not isinstance(said, list) or not said or not all(isinstance(c, str) and c.strip() for c in said):
            raise InputError(rel, f"icon {name!r}: cues must be a non-empty list of words", line)
        for cue in said:
            key = " ".join(cue.split()).lower()
            if key in cues and cues[key] != name:
                raise InputError(rel, f"cue {cue!r} announces two icons: {cues[key]!r} and {name!r}", line)
            cues[key] = name
    return IconTable(cues, frozenset(ignore), rel)
