"""A light, typed reader of a `regles` build: the game files of `build/data/`, read with the
standard library only (no spaCy, MkDocs, Whoosh, pdfplumber or Jinja2 is imported), so another
tool can use the rule data with `pip install regles` alone.

    from extract import reader

    rules = reader.load("build")
    rules.entry("runewars/reference/49")["title"]            # 'Ligne de vue'
    rules.text("runewars/reference/49", as_of="printed")     # before the errata
    rules.entries(game="runewars", kind="question")
    rules.refs("runewars/reference/49"), rules.backrefs("runewars/reference/49")
    rules.errata_for("runewars/reference/49")

Entries and errata are the game files' own dicts (typed below as `TypedDict`s, fields as in
`build/data/schema.json`); treat them as read-only. Loading indexes them once: `entry()` is a
dict lookup.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

__all__ = ["Block", "Entry", "Erratum", "Game", "Ref", "Rules", "load"]

SCHEMA_VERSIONS = ("2",)  # the game file versions this reader understands


class Block(TypedDict):
    type: str  # paragraph, bullet, subbullet, step, table, caption, see, related, question, answer
    text: str
    number: NotRequired[str]
    depth: NotRequired[int]
    rows: NotRequired[list[list[str]]]
    printed_text: NotRequired[str]  # as scanned, where the OCR repair of a scanned book changed the text


class Ref(TypedDict):
    target: str | None  # an entry id, or None when unresolved
    kind: str  # related, see, section, page, index, term, faq, concept
    text: str
    reason: NotRequired[str]


class Source(TypedDict):
    file: str
    lines: list[int]  # [first, last] as printed, or []
    page: NotRequired[int]


class Entry(TypedDict):
    id: str
    game: str
    document: str
    kind: str
    number: str | None
    title: str | None
    original_title: NotRequired[str | None]  # as printed, where an erratum replaced the title
    printed_title: NotRequired[str]  # as scanned, where the OCR repair of a scanned book changed the title
    anchors: NotRequired[list[str]]  # ids its heading was given in the source ("## Le marché {#marche}")
    parent: str | None
    children: list[str]
    blocks: list[Block]
    original_blocks: NotRequired[list[Block]]
    text: str
    markdown: NotRequired[str]
    flags: list[str]
    index_terms: list[str]
    status: str  # printed, amended, added, deleted
    errata: list[str]
    refs: list[Ref]
    backrefs: list[str]
    url: str
    source: Source


class Erratum(TypedDict):
    id: str
    source: str
    target: str | None
    operation: str  # replace, insert, delete, move
    scope: dict[str, object]
    before: str | None
    after: str | None
    status: str  # applied, recorded, failed
    reason: str | None
    instruction: str
    resolution: str | None
    checks: list[str]
    origin: dict[str, object]
    after_blocks: NotRequired[list[Block]]  # the new text as blocks, where it has several
    quoted_before: NotRequired[str]  # the old text as the erratum quotes it
    target_hint: NotRequired[dict[str, object]]  # what the source says of its target (name, page, sections)


class DocumentVersion(TypedDict):
    version: str
    date: str
    source: str


class Document(TypedDict):
    id: str
    title: str
    kind: str
    version: str
    date: str
    source: str
    profile: NotRequired[str]
    sha256: NotRequired[str]
    official: NotRequired[bool]  # the publisher's own document (true) or not (false), when the manifest says
    versions: NotRequired[list[DocumentVersion]]  # its earlier versions, oldest first
    structure_uncertain: NotRequired[bool]  # its heading tree scored low (the site says so)


class Game(TypedDict):
    id: str
    title: str
    documents: list[Document]
    precedence: list[list[str]]


class Fact(TypedDict):
    id: str
    label: str
    value: Any  # a number, a text, a list, or {"min", "max"}
    unit: str | None
    entry: str
    quote: str
    status: str  # holds | stale
    errata: list[str]
    source: dict[str, object]  # {"file", "line"} of the fact in corpus/<game>/facts.toml
    erratum: NotRequired[str]  # the erratum whose text states it, when one does
    reason: NotRequired[str]  # why it is stale


class ReaderError(Exception):
    """The build folder cannot be read (missing, or written by another schema version)."""


@dataclass
class Rules:
    """Every game of one build, indexed. Build it with `load`."""

    games: dict[str, Game] = field(default_factory=dict)
    _entries: dict[str, Entry] = field(default_factory=dict, repr=False)
    _errata: dict[str, Erratum] = field(default_factory=dict, repr=False)
    _errata_by_target: dict[str, list[Erratum]] = field(default_factory=dict, repr=False)
    _facts: dict[str, Fact] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._entries

    def entry(self, entry_id: str) -> Entry:
        """The entry with this id (`runewars/reference/49`); KeyError when there is none."""
        try:
            return self._entries[entry_id]
        except KeyError:
            raise KeyError(f"no entry {entry_id!r}") from None

    def entries(self, game: str | None = None, document: str | None = None, kind: str | None = None) -> list[Entry]:
        """Entries in book order (games by id), those of one game, document or kind."""
        return [e for e in self._entries.values()
                if (game is None or e["game"] == game) and (document is None or e["document"] == document)
                and (kind is None or e["kind"] == kind)]

    def refs(self, entry_id: str, kind: str | None = None) -> list[Ref]:
        """The entry's outgoing links (of one kind), resolved (`target`) or not (`reason`)."""
        return [r for r in self.entry(entry_id)["refs"] if kind is None or r["kind"] == kind]

    def backrefs(self, entry_id: str) -> list[Entry]:
        """The entries that link to this one."""
        return [self._entries[i] for i in self.entry(entry_id)["backrefs"] if i in self._entries]

    def text(self, entry_id: str, as_of: Literal["printed", "current"] = "current") -> str:
        """The entry's text now (errata applied), or as printed (`as_of="printed"`; empty for an
        entry an erratum added)."""
        entry = self.entry(entry_id)
        if as_of == "current":
            return entry["text"]
        if as_of != "printed":
            raise ValueError(f"as_of must be 'printed' or 'current', not {as_of!r}")
        if "original_blocks" not in entry:
            return entry["text"]
        return "\n\n".join(b["text"] for b in entry["original_blocks"])

    def title(self, entry_id: str, as_of: Literal["printed", "current"] = "current") -> str | None:
        entry = self.entry(entry_id)
        return entry.get("original_title", entry["title"]) if as_of == "printed" else entry["title"]

    def errata_for(self, entry_id: str) -> list[Erratum]:
        """The errata aimed at this entry, applied or not, in the order they were applied."""
        self.entry(entry_id)
        return list(self._errata_by_target.get(entry_id, []))

    def erratum(self, erratum_id: str) -> Erratum:
        return self._errata[erratum_id]

    def errata(self, game: str | None = None) -> list[Erratum]:
        return [e for e in self._errata.values() if game is None or e["id"].split("/", 1)[0] == game]

    def fact(self, fact_id: str) -> Fact:
        """The fact with this id (`runewars.armee.points_max`): its value, unit, the entry and words
        that state it, and whether it still holds."""
        try:
            return self._facts[fact_id]
        except KeyError:
            raise KeyError(f"no fact {fact_id!r}") from None

    def facts(self, game: str | None = None, entry: str | None = None) -> list[Fact]:
        """The facts of every game (or one), or those a given entry states."""
        return [f for f in self._facts.values() if (game is None or f["id"].split(".", 1)[0] == game.replace("-", "_"))
                and (entry is None or f["entry"] == entry)]


def load(build_dir: str | Path = "build") -> Rules:
    """Read every `build_dir/data/<game>.json` into one `Rules`."""
    folder = Path(build_dir) / "data"
    paths = sorted(p for p in folder.glob("*.json") if p.name != "schema.json") if folder.is_dir() else []
    if not paths:
        raise ReaderError(f"{folder}: no game files (run `regles build`)")
    rules = Rules()
    for path in paths:
        try:
            with path.open(encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError, RecursionError) as exc:  # not UTF-8, not JSON, nested too deep
            raise ReaderError(f"{path}: damaged ({type(exc).__name__}: {str(exc)[:80]}); run `regles build`") from None
        if not isinstance(data, dict) or not isinstance(data.get("game"), dict) or not all(
                isinstance(data.get(key, []), list) for key in ("entries", "errata", "facts")):
            if isinstance(data, dict) and data.get("schema_version") not in SCHEMA_VERSIONS:
                raise ReaderError(f"{path}: schema_version {data.get('schema_version')!r}; "
                                  f"this reader reads {', '.join(SCHEMA_VERSIONS)}")
            raise ReaderError(f"{path}: damaged (not a game file); run `regles build`")
        if data.get("schema_version") not in SCHEMA_VERSIONS:
            raise ReaderError(f"{path}: schema_version {data.get('schema_version')!r}; this reader reads {', '.join(SCHEMA_VERSIONS)}")
        rules.games[data["game"]["id"]] = data["game"]
        for entry in data["entries"]:
            rules._entries[entry["id"]] = entry
        for erratum in data["errata"]:
            rules._errata[erratum["id"]] = erratum
            if erratum["target"]:
                rules._errata_by_target.setdefault(erratum["target"], []).append(erratum)
        for fact in data.get("facts", []):
            rules._facts[fact["id"]] = fact
    return rules
