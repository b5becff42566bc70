"""The JSON Schemas of everything `regles` publishes for other tools (JSON Schema 2020-12):

- `GAME_SCHEMA` (`build/data/schema.json`): one game file, `build/data/<game>.json`;
- `REPORT_SCHEMA` (`build/data/schema/report.json`): `build/report.json`;
- `EXPORT_SCHEMA` (`build/data/schema/export.json`): `regles export --format json`;
- `EXPORT_LINE_SCHEMA` (`build/data/schema/export-line.json`): each line of `--format jsonl`;
- `API_INDEX_SCHEMA` (`build/data/schema/api-index.json`): `build/site/api/<game>/index.json`
  (each `build/site/api/<game>/<document>/<name>.json` is an entry of the game schema).

Every object is closed (`additionalProperties: false`); kinds, flags, statuses, operations and
ref kinds are enums from `extract.model`. Each schema has an `$id` under `SCHEMA_BASE`, with the
schema version in its name (`game-2.json`): a new `SCHEMA_VERSION` gets new ids.

Ground floor: plain data, no import beyond `extract.model` (the light reader can use it).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from extract.model import (
    BLOCK_TYPES,
    DOCUMENT_KINDS,
    ENTRY_FLAGS,
    ENTRY_KINDS,
    ENTRY_STATUSES,
    ERRATUM_STATUSES,
    OPERATIONS,
    REF_KINDS,
    SCHEMA_VERSION,
    SCOPE_BLOCKS,
    SEVERITIES,
    Block,
    DocumentSpec,
    Entry,
    Erratum,
    Fact,
    GameSpec,
    Ref,
)


@dataclass(frozen=True)
class Shape:
    """How a model dataclass becomes a JSON definition of the game file (written by
    extract.publish.data): `derived`, the JSON fields made from other data (not a field of that
    name); `internal`, the fields the JSON leaves out (the build's working data)."""

    model: type
    derived: frozenset[str] = frozenset()
    internal: frozenset[str] = frozenset()


# The one table tying the three definitions of the data together: the model's dataclasses, the
# schemas below and extract.contract.reader's TypedDicts (tests/contract/test_shapes.py checks each
# against the others: a field added to one and not the others fails there, named).
MODEL_SHAPES: dict[str, Shape] = {
    "entry": Shape(Entry, derived=frozenset({"id", "markdown", "source", "text"}),
                   internal=frozenset({"_ref_keys", "heading_lines", "is_page", "key", "order", "page", "printed_index",
                                       "source_file"})),
    "block": Shape(Block, internal=frozenset({"lines", "markdown"})),
    "ref": Shape(Ref),
    "erratum": Shape(Erratum, derived=frozenset({"after_blocks", "quoted_before"}), internal=frozenset({"new_blocks", "op"})),
    "fact": Shape(Fact, derived=frozenset({"source"}), internal=frozenset({"file", "line"})),
    "document": Shape(DocumentSpec, derived=frozenset({"sha256"}),
                      internal=frozenset({"corrections", "first_line", "last_line", "manifest_line", "ocr", "option_lines",
                                          "options", "structure_acknowledged"})),
    "game": Shape(GameSpec, internal=frozenset({"manifest", "short_title", "source_encodings", "source_lines", "source_pages",
                                                "sources"})),
}

SCHEMA_BASE = "https://regles.example/schema/"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

_SEGMENT = r"[A-Za-z0-9][A-Za-z0-9.\-]*"
SLUG = r"^[a-z0-9][a-z0-9-]*$"  # a game or document id
ENTRY_ID = rf"^[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*/{_SEGMENT}(/{_SEGMENT})*$"
ERRATUM_ID = rf"^[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*/errata/{_SEGMENT}(/{_SEGMENT})*(~[1-9][0-9]*)?$"
# Manifests give a full date, a year or a year and month (the book says "2016"), or nothing.
DATE = {"type": "string", "anyOf": [
    {"const": ""},
    {"pattern": r"^[0-9]{4}(-(0[1-9]|1[0-2]))?$"},
    {"pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "format": "date"},
]}
STRING = {"type": "string"}
TEXT_OR_NULL = {"type": ["string", "null"]}
COUNT = {"type": "integer", "minimum": 0}
LINE = {"type": "integer", "minimum": 1}


def closed(required: list[str], properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    """An object with exactly these properties (the `required` ones always present)."""
    return {"type": "object", "required": required, "properties": properties, "additionalProperties": False, **more}


def strings(**more: Any) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string", **more}}


ref = {"entry_id": {"$ref": "#/$defs/entry_id"}, "entry_id_or_null": {"anyOf": [{"$ref": "#/$defs/entry_id"}, {"type": "null"}]}}

DEFS: dict[str, Any] = {
    "entry_id": {"type": "string", "pattern": ENTRY_ID},
    "erratum_id": {"type": "string", "pattern": ERRATUM_ID},
    "date": DATE,
    "span": {"type": "array", "items": LINE, "anyOf": [{"maxItems": 0}, {"minItems": 2, "maxItems": 2}]},
    "fact": closed(["id", "label", "value", "unit", "entry", "quote", "status", "errata", "source"], {
        "id": {"type": "string", "pattern": r"^[a-z0-9_]+(?:\.[a-z0-9_]+)+$"},
        "label": STRING,
        "value": {"anyOf": [{"type": "number"}, STRING, {"type": "array", "minItems": 1, "items": {"type": ["number", "string"]}},
                            closed(["min", "max"], {"min": {"type": "number"}, "max": {"type": "number"}})]},
        "unit": TEXT_OR_NULL,
        "entry": {"$ref": "#/$defs/entry_id"},
        "quote": STRING,
        "status": {"enum": ["holds", "stale"]},
        "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum_id"}},
        "erratum": {"$ref": "#/$defs/erratum_id"},
        "reason": STRING,
        "source": closed(["file", "line"], {"file": {"type": "string", "pattern": "^corpus/"}, "line": {"type": ["integer", "null"]}}),
    }),
    "block": closed(["type", "text"], {
        "type": {"enum": list(BLOCK_TYPES)},
        "text": STRING,
        "number": STRING,
        "depth": {"type": "integer", "minimum": 2},
        "rows": {"type": "array", "items": strings()},
        "printed_text": STRING,  # as scanned, where the OCR repair changed the text
    }),
    "ref": closed(["target", "kind", "text"], {
        "target": ref["entry_id_or_null"],
        "kind": {"enum": list(REF_KINDS)},
        "text": STRING,
        "reason": STRING,
    }),
    "document": closed(["id", "title", "kind", "version", "date", "source"], {
        "id": {"type": "string", "pattern": SLUG},
        "title": STRING,
        "kind": {"enum": list(DOCUMENT_KINDS)},
        "version": STRING,
        "date": {"$ref": "#/$defs/date"},
        "source": {"type": "string", "pattern": "^corpus/"},
        "profile": {"type": "string", "pattern": SLUG},
        "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "structure_uncertain": {"const": True},  # the heading tree scored low: the site says so
        "official": {"type": "boolean"},  # present when the manifest says
        # the document's earlier versions, oldest first (present when the manifest lists some)
        "versions": {"type": "array", "items": closed(["version", "date", "source"], {
            "version": STRING, "date": {"$ref": "#/$defs/date"}, "source": {"type": "string", "pattern": "^corpus/"}})},
    }),
    "game": closed(["id", "title", "documents", "precedence"], {
        "id": {"type": "string", "pattern": SLUG},
        "title": STRING,
        "documents": {"type": "array", "items": {"$ref": "#/$defs/document"}},
        # [over, under, why], then the id of the entry stating it
        "precedence": {"type": "array", "items": {
            "type": "array", "minItems": 3, "maxItems": 4,
            "prefixItems": [{"type": "string", "pattern": SLUG}, {"type": "string", "pattern": SLUG}, STRING, ref["entry_id"]]}},
    }),
    "entry": closed(
        ["id", "game", "document", "kind", "number", "title", "parent", "children", "blocks", "text", "flags",
         "index_terms", "status", "errata", "refs", "backrefs", "url", "source"],
        {
            "id": ref["entry_id"],
            "game": {"type": "string", "pattern": SLUG},
            "document": {"type": "string", "pattern": SLUG},
            "kind": {"enum": list(ENTRY_KINDS)},
            "number": {"type": ["string", "null"], "pattern": r"^[0-9A-Za-z][0-9A-Za-z.:\-]*$"},  # "8:1" (IHF)
            "title": TEXT_OR_NULL,
            "original_title": TEXT_OR_NULL,
            "printed_title": STRING,  # as scanned, where the OCR repair changed the title
            "anchors": strings(minLength=1),  # ids the source gave its heading ("## Le marché {#marche}")
            "parent": ref["entry_id_or_null"],
            "children": {"type": "array", "items": ref["entry_id"]},
            "blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}},
            "original_blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}},
            "text": STRING,
            "markdown": STRING,
            "flags": {"type": "array", "items": {"enum": list(ENTRY_FLAGS)}, "uniqueItems": True},
            "index_terms": strings(),
            "status": {"enum": list(ENTRY_STATUSES)},
            "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum_id"}},
            "refs": {"type": "array", "items": {"$ref": "#/$defs/ref"}},
            "backrefs": {"type": "array", "items": ref["entry_id"]},
            "url": {"type": "string", "pattern": r"^[a-z0-9-]+/[a-z0-9-]+/.+/#.+$"},
            "source": closed(["file", "lines"], {
                "file": {"type": "string", "pattern": "^corpus/"},
                "lines": {"$ref": "#/$defs/span"},
                "page": LINE,
            }),
        },
        # the printed text stays beside the current one once an erratum has changed it
        allOf=[
            {"if": {"properties": {"status": {"const": "printed"}}},
             "then": {"not": {"required": ["original_blocks"]}}, "else": {"required": ["original_blocks"]}},
            {"if": {"required": ["original_title"], "properties": {"original_title": {"type": "string"}}},
             "then": {"properties": {"title": {"type": "string", "minLength": 1}}}},
        ],
    ),
    "erratum": closed(
        ["id", "source", "target", "operation", "scope", "before", "after", "status", "reason", "instruction", "resolution",
         "checks", "origin"],
        {
            "id": {"$ref": "#/$defs/erratum_id"},
            # the entry stating it, or the errata file (corpus/<game>/errata/<name>.toml)
            "source": {"anyOf": [ref["entry_id"], {"type": "string", "pattern": r"^corpus/[a-z0-9-]+/errata/[^/]+\.toml$"}]},
            "target": ref["entry_id_or_null"],
            "operation": {"enum": list(OPERATIONS)},
            "scope": closed(["block", "ordinal"], {
                "block": {"enum": list(SCOPE_BLOCKS)},
                "ordinal": {"type": ["integer", "null"], "not": {"const": 0}},
                "label": STRING,
                "section": STRING,
                "position": {"enum": ["start", "end", "first", "last"]},
                "within": STRING,
                "within_ordinal": {"type": "integer"},
                "subject": STRING,
                "with_subbullets": {"const": True},
                "count": {"type": "integer", "minimum": 2},
            }),
            "before": TEXT_OR_NULL,
            "after": TEXT_OR_NULL,
            "quoted_before": STRING,
            "after_blocks": {"type": "array", "items": {"$ref": "#/$defs/block"}},
            "status": {"enum": list(ERRATUM_STATUSES)},
            "reason": TEXT_OR_NULL,
            "instruction": STRING,
            "resolution": TEXT_OR_NULL,
            "checks": strings(),
            "origin": closed(["file", "lines"], {
                "file": {"type": "string", "pattern": "^corpus/"},
                "lines": {"$ref": "#/$defs/span"},
                "date": {"$ref": "#/$defs/date"},
                "source": STRING,
                "url": {"type": "string", "pattern": "^https?://"},
                "supersedes": {"$ref": "#/$defs/erratum_id"},  # an errata file's: the erratum this one replaces
            }),
            "target_hint": closed(["name", "page", "sections"], {
                "name": STRING, "page": {"type": ["integer", "null"], "minimum": 1}, "sections": strings(),
                "heading": STRING}),  # the bold line standing as the erratum's heading, when one does
        },
        allOf=[
            {"if": {"properties": {"status": {"const": "applied"}}}, "then": {"properties": {"target": ref["entry_id"]}}},
            {"if": {"properties": {"status": {"enum": ["failed", "recorded"]}}}, "then": {"properties": {"reason": STRING}}},
        ],
    ),
}


def schema(name: str, title: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": DIALECT, "$id": f"{SCHEMA_BASE}{name}-{SCHEMA_VERSION}.json", "title": title, **body,
            "$defs": copy.deepcopy(DEFS)}


_GAME_BODY = closed(["schema_version", "game", "entries", "errata", "facts"], {
    "schema_version": {"const": SCHEMA_VERSION},
    "game": {"$ref": "#/$defs/game"},
    "entries": {"type": "array", "items": {"$ref": "#/$defs/entry"}},
    "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum"}},
    "facts": {"type": "array", "items": {"$ref": "#/$defs/fact"}},
})
GAME_SCHEMA = schema("game", "regles game file (build/data/<game>.json)", _GAME_BODY)

_ANOMALY = closed(["kind", "detail"], {
    "kind": {"type": "string", "pattern": SLUG}, "detail": STRING, "lines": {"type": "array", "items": LINE},
    # an OCR repair says what it changed: the word as scanned, as repaired, and the rule used
    "before": STRING, "after": STRING, "rule": STRING,
    "glyph": STRING,  # an icon no cue of icons.toml names, left as printed
    # the heading tree's score (structure-confidence, structure-uncertain), its evidence, and why the
    # manifest accepts a doubtful one
    "score": {"type": "number", "minimum": 0, "maximum": 1},
    "evidence": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0}},
    "acknowledged": STRING,
    "severity": {"enum": [s for s in SEVERITIES if s != "info"]}})
_COUNTS = closed(["resolved", "unresolved"], {"resolved": COUNT, "unresolved": COUNT})
REPORT_SCHEMA = schema("report", "regles build report (build/report.json)", closed(["documents", "errata", "refs", "stages"], {
    "documents": {"type": "object", "additionalProperties": False, "patternProperties": {
        r"^[a-z0-9-]+/[a-z0-9-]+$": closed(["lines_read", "lines_placed", "lines_set_aside", "set_aside", "anomalies"], {
            "lines_read": COUNT, "lines_placed": COUNT, "lines_set_aside": COUNT,
            "set_aside": {"type": "array", "items": closed(["lines", "reason"], {
                "lines": {"type": "array", "items": LINE, "minItems": 2, "maxItems": 2}, "reason": STRING})},
            "anomalies": {"type": "array", "items": _ANOMALY},
        })}},
    "errata": {"type": "object", "additionalProperties": False, "patternProperties": {
        SLUG: closed(["applied", "recorded", "failed", "failed_ids", "files"], {
            "applied": COUNT, "recorded": COUNT, "failed": COUNT, "not_understood": COUNT,
            "failed_ids": {"type": "array", "items": {"$ref": "#/$defs/erratum_id"}},
            "files": {"type": "object", "additionalProperties": {"type": "array", "items": _ANOMALY}},
        })}},
    "refs": {"type": "object", "additionalProperties": False, "patternProperties": {
        r"^[a-z0-9-]+/[a-z0-9-]+$": {"type": "object", "additionalProperties": False,
                                      "patternProperties": {"^(" + "|".join(REF_KINDS) + ")$": _COUNTS}}}},
    "stages": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0}},
    "facts": {"type": "object", "additionalProperties": False, "patternProperties": {
        SLUG: closed(["holds", "stale"], {"holds": COUNT, "stale": {"type": "array", "items": closed(
            ["id", "entry", "errata", "reason"], {"id": STRING, "entry": {"$ref": "#/$defs/entry_id"},
                                                  "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum_id"}},
                                                  "reason": STRING})}})}},
}))

_META = closed(["schema_version", "generator", "build_date", "sources"], {
    "schema_version": {"const": SCHEMA_VERSION},
    "generator": {"type": "string", "pattern": r"^regles [0-9]"},
    # the newest document date of the corpus: the output depends on its inputs only
    "build_date": {"$ref": "#/$defs/date"},
    "sources": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                "propertyNames": {"pattern": "^corpus/"}},
})
_GAME_ITEM = closed(["game", "entries", "errata", "facts"], {
    "game": {"$ref": "#/$defs/game"},
    "entries": {"type": "array", "items": {"$ref": "#/$defs/entry"}},
    "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum"}},
    "facts": {"type": "array", "items": {"$ref": "#/$defs/fact"}},
})
EXPORT_SCHEMA = schema("export", "regles JSON export (regles export --format json)", closed(["schema_version", "meta", "games"], {
    "schema_version": {"const": SCHEMA_VERSION},
    "meta": _META,
    "games": {"type": "array", "items": _GAME_ITEM},
}))
EXPORT_LINE_SCHEMA = schema("export-line", "one line of the regles JSONL export (regles export --format jsonl)", {"oneOf": [
    closed(["type", "meta"], {"type": {"const": "meta"}, "meta": _META}),
    closed(["type", "game"], {"type": {"const": "game"}, "game": {"$ref": "#/$defs/game"}}),
    closed(["type", "entry"], {"type": {"const": "entry"}, "entry": {"$ref": "#/$defs/entry"}}),
    closed(["type", "erratum"], {"type": {"const": "erratum"}, "erratum": {"$ref": "#/$defs/erratum"}}),
    closed(["type", "fact"], {"type": {"const": "fact"}, "fact": {"$ref": "#/$defs/fact"}}),
]})
API_INDEX_SCHEMA = schema("api-index", "regles static API: one game's index (build/site/api/<game>/index.json)",
                          closed(["schema_version", "game", "entries", "errata", "facts"], {
                              "schema_version": {"const": SCHEMA_VERSION},
                              "game": {"$ref": "#/$defs/game"},
                              "entries": {"type": "array", "items": closed(
                                  ["id", "kind", "number", "title", "parent", "status", "path"], {
                                      "id": ref["entry_id"], "kind": {"enum": list(ENTRY_KINDS)}, "number": TEXT_OR_NULL,
                                      "title": TEXT_OR_NULL, "parent": ref["entry_id_or_null"],
                                      "status": {"enum": list(ENTRY_STATUSES)},
                                      "path": {"type": "string", "pattern": r"^[a-z0-9-]+/[a-z0-9-]+/[A-Za-z0-9.\-]+\.json$"}})},
                              "errata": {"type": "array", "items": {"$ref": "#/$defs/erratum"}},
                              "facts": {"type": "array", "items": {"$ref": "#/$defs/fact"}},
                          }))
API_ENTRY_SCHEMA = schema("api-entry", "regles static API: one entry (build/site/api/<game>/<document>/<name>.json)",
                          {"allOf": [{"$ref": "#/$defs/entry"}]})

# Where the build writes each schema (relative to build/), by name.
SCHEMA_FILES: dict[str, tuple[str, dict[str, Any]]] = {
    "game": ("data/schema.json", GAME_SCHEMA),
    "report": ("data/schema/report.json", REPORT_SCHEMA),
    "export": ("data/schema/export.json", EXPORT_SCHEMA),
    "export-line": ("data/schema/export-line.json", EXPORT_LINE_SCHEMA),
    "api-index": ("data/schema/api-index.json", API_INDEX_SCHEMA),
    "api-entry": ("data/schema/api-entry.json", API_ENTRY_SCHEMA),
}
