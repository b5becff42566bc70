"""`corpus/<game>/terms.toml`: topic names too generic to link, and other names of topics.

    generic = ["Unité", "Actions"]          # topic names too common to link
    [aliases]                                # other names the text uses for a topic
    "pion Paniqué" = "reference/45"

and, for the search only (extract/corpus/thesaurus.py): `[names]` (other names of entries, such
as the English edition's) and the game's own `[[same]]` and `[[means]]` synonyms.
"""

from __future__ import annotations

from pathlib import Path

from extract.corpus.thesaurus import read_names, synonyms_of
from extract.errors import InputError
from extract.model import TermConfig
from extract.text import title_key
from extract.tomlfile import line_of, read_toml, unknown_key


def read_term_config(root: Path, game: str) -> TermConfig:
    path = root / "corpus" / game / "terms.toml"
    if not path.is_file():
        return TermConfig()
    data, raw, rel = read_toml(path, root)
    unknown_key(data, {"generic", "aliases", "names", "same", "means"}, rel, raw)
    generic = data.get("generic", [])
    aliases = data.get("aliases", {})
    if not isinstance(generic, list) or not all(isinstance(g, str) for g in generic):
        raise InputError(rel, "generic must be a list of names", line_of(raw, r"^\s*generic\s*="))
    if not isinstance(aliases, dict) or not all(isinstance(v, str) for v in aliases.values()):
        raise InputError(rel, "[aliases] maps a phrase to an entry id", line_of(raw, r"^\s*\[aliases\]"))
    return TermConfig({title_key(g) for g in generic}, dict(aliases), rel,
                      names=read_names(data, raw, rel, game), synonyms=synonyms_of(data, raw, rel))
