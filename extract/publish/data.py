"""Stage 6, write data: one JSON file per game, keys sorted, byte-identical for the same inputs,
and the JSON Schema they validate against."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from extract.model import (
    BLOCK_TYPES,
    DOCUMENT_KINDS,
    ENTRY_STATUSES,
    ERRATUM_STATUSES,
    OPERATIONS,
    REF_KINDS,
    SCHEMA_VERSION,
    SCOPE_BLOCKS,
    Entry,
    Erratum,
    GameSpec,
)


def entry_json(entry: Entry) -> dict[str, Any]:
    lines = entry.lines
    data: dict[str, Any] = {
        "id": entry.id,
        "game": entry.game,
        "document": entry.document,
        "kind": entry.kind,
        "number": entry.number,
        "title": entry.title,
        "parent": entry.parent.id if entry.parent else None,
        "children": [child.id for child in entry.children],
        "blocks": [block.to_json() for block in entry.blocks],
        "text": entry.text,
        "flags": sorted(entry.flags),
        "index_terms": entry.index_terms,
        "status": entry.status,
        "errata": entry.errata,
        "refs": [ref.to_json() for ref in entry.refs],
        "backrefs": entry.backrefs,
        "url": entry.url,
        "source": {"file": entry.source_file, "lines": [min(lines), max(lines)] if lines else []},
    }
    if any(block.markdown for block in entry.blocks):
        data["markdown"] = entry.markdown
    if entry.original_blocks is not None:
        data["original_blocks"] = [block.to_json() for block in entry.original_blocks]
    if entry.page is not None:
        data["source"]["page"] = entry.page
    if entry.printed_title is not None and entry.printed_title != entry.title:
        data["printed_title"] = entry.printed_title
    return data


def erratum_json(erratum: Erratum) -> dict[str, Any]:
    origin = {k: v for k, v in erratum.origin.items() if v is not None and k not in ("strict", "document")}
    data = {
        "id": erratum.id, "source": erratum.source, "target": erratum.target,
        "operation": erratum.operation, "scope": erratum.scope, "before": erratum.before,
        "after": erratum.after, "status": erratum.status, "reason": erratum.reason,
        "instruction": erratum.instruction, "resolution": erratum.resolution, "checks": erratum.checks,
        "origin": origin,
    }
    if erratum.op is not None and erratum.op.before is not None and erratum.op.before != erratum.before:
        data["quoted_before"] = erratum.op.before
    if erratum.new_blocks:
        data["after_blocks"] = [block.to_json() for block in erratum.new_blocks]
    if erratum.target_hint:
        data["target_hint"] = erratum.target_hint
    return data


def game_json(game: GameSpec, entries: list[Entry], errata: list[Erratum]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": {
            "id": game.id,
            "title": game.title,
            "documents": [
                {"id": d.id, "title": d.title, "kind": d.kind, "version": d.version, "date": d.date,
                 "source": d.source, "profile": d.profile}
                for d in game.documents
            ],
            # [over, under, why] as in the contract, then the id of the entry stating it.
            "precedence": [[p["over"], p["under"], p["why"]] + ([p["stated_in"]] if "stated_in" in p else [])
                           for p in game.precedence],
        },
        "entries": [entry_json(entry) for entry in entries],
        "errata": [erratum_json(e) for e in errata],
    }


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(data), encoding="utf-8")


_BLOCK = {
    "type": "object",
    "required": ["type", "text"],
    "properties": {
        "type": {"enum": list(BLOCK_TYPES)},
        "text": {"type": "string"},
        "number": {"type": "string"},
        "depth": {"type": "integer", "minimum": 2},
        "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "printed_text": {"type": "string"},  # as scanned, where the OCR repair changed the text
    },
    "additionalProperties": False,
}
_ID = {"type": "string", "pattern": r"^[a-z0-9-]+/[a-z0-9-]+/[A-Za-z0-9.\-/]+$"}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "regles game file",
    "type": "object",
    "required": ["schema_version", "game", "entries", "errata"],
    "properties": {
        "schema_version": {"const": SCHEMA_VERSION},
        "game": {
            "type": "object",
            "required": ["id", "title", "documents", "precedence"],
            "properties": {
                "id": {"type": "string"},
                "title": {"type": "string"},
                "documents": {"type": "array", "items": {
                    "type": "object",
                    "required": ["id", "title", "kind", "version", "date", "source"],
                    "properties": {"kind": {"enum": list(DOCUMENT_KINDS)}},
                }},
                "precedence": {"type": "array", "items": {
                    "type": "array", "minItems": 3, "maxItems": 4, "items": {"type": "string"}}},
            },
        },
        "entries": {"type": "array", "items": {
            "type": "object",
            "required": ["id", "game", "document", "kind", "number", "title", "parent", "children",
                         "blocks", "text", "flags", "index_terms", "status", "errata", "refs",
                         "backrefs", "url", "source"],
            "properties": {
                "id": _ID,
                "kind": {"type": "string"},
                "number": {"type": ["string", "null"]},
                "title": {"type": ["string", "null"]},
                "printed_title": {"type": "string"},
                "parent": {"anyOf": [_ID, {"type": "null"}]},
                "children": {"type": "array", "items": _ID},
                "blocks": {"type": "array", "items": _BLOCK},
                "original_blocks": {"type": "array", "items": _BLOCK},
                "text": {"type": "string"},
                "markdown": {"type": "string"},
                "flags": {"type": "array", "items": {"type": "string"}},
                "index_terms": {"type": "array", "items": {"type": "string"}},
                "status": {"enum": list(ENTRY_STATUSES)},
                "errata": {"type": "array", "items": {"type": "string"}},
                "refs": {"type": "array", "items": {
                    "type": "object", "required": ["target", "kind", "text"],
                    "properties": {
                        "target": {"anyOf": [_ID, {"type": "null"}]},
                        "kind": {"enum": list(REF_KINDS)},
                        "text": {"type": "string"},
                    }}},
                "backrefs": {"type": "array", "items": _ID},
                "url": {"type": "string", "pattern": r"^[a-z0-9-]+/[a-z0-9-]+/.+/#.+$"},
                "source": {"type": "object", "required": ["file", "lines"], "properties": {
                    "file": {"type": "string", "pattern": "^corpus/"},
                    "lines": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}},
                    "page": {"type": "integer"}}},
            },
        }},
        "errata": {"type": "array", "items": {
            "type": "object",
            "required": ["id", "source", "target", "operation", "scope", "before", "after", "status"],
            "properties": {
                "id": {"type": "string", "pattern": r"^[a-z0-9-]+/[a-z0-9-]+/errata/\d+$"},
                "target": {"anyOf": [_ID, {"type": "null"}]},
                "operation": {"enum": list(OPERATIONS)},
                "scope": {"type": "object", "required": ["block", "ordinal"], "properties": {
                    "block": {"enum": list(SCOPE_BLOCKS)},
                    "ordinal": {"type": ["integer", "null"]}}},
                "before": {"type": ["string", "null"]},
                "after": {"type": ["string", "null"]},
                "status": {"enum": list(ERRATUM_STATUSES)},
                "reason": {"type": ["string", "null"]},
                "after_blocks": {"type": "array", "items": _BLOCK},
            },
        }},
    },
}
