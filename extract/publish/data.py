"""Stage 6, write data: one JSON file per game, keys sorted, byte-identical for the same inputs,
and the JSON Schema they validate against."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

from extract.contract.schema import GAME_SCHEMA
from extract.files import write_pieces
from extract.model import SCHEMA_VERSION, Entry, Erratum, Fact, GameSpec


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
    if entry.original_title is not None:
        data["original_title"] = entry.original_title
    if entry.printed_title is not None and entry.printed_title != entry.title:
        data["printed_title"] = entry.printed_title
    if entry.anchors:  # the ids its heading was given in the source ({#marche}): the site answers to them too
        data["anchors"] = entry.anchors
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


def game_json(game: GameSpec, entries: list[Entry], errata: list[Erratum], facts: Sequence[Fact] = ()) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "game": {
            "id": game.id,
            "title": game.title,
            "documents": [
                {"id": d.id, "title": d.title, "kind": d.kind, "version": d.version, "date": d.date,
                 "source": d.source, "profile": d.profile}
                | ({"sha256": game.sources[d.source]} if d.source in game.sources else {})
                | ({"structure_uncertain": True} if d.structure_uncertain else {})
                | ({"official": d.official} if d.official is not None else {})
                | ({"versions": [{"version": v.version, "date": v.date, "source": v.source} for v in d.versions]}
                   if d.versions else {})
                for d in game.documents
            ],
            # [over, under, why] as in the contract, then the id of the entry stating it.
            "precedence": [[p["over"], p["under"], p["why"]] + ([p["stated_in"]] if "stated_in" in p else [])
                           for p in game.precedence],
        },
        "entries": [entry_json(entry) for entry in entries],
        "errata": [erratum_json(e) for e in errata],
        "facts": [fact.to_json() for fact in facts],
    }


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def encode_entries(entries: Iterable[Entry]) -> Iterator[tuple[dict[str, Any], str]]:
    """Each entry's data (`entry_json`) and its text as `dumps` writes it alone."""
    for entry in entries:
        data = entry_json(entry)
        yield data, dumps(data)


def write_game_json(path: Path, game: GameSpec, entries: list[Entry], errata: list[Erratum],
                    facts: Sequence[Fact] = (), each: Callable[[dict[str, Any], str], None] | None = None) -> None:
    """`write_json(path, game_json(game, entries, errata, facts))`, one entry at a time: a large
    game's file is never all in memory, as objects or as text. The entries come first (keys are
    sorted), each one indented two levels deeper than on its own (JSON strings hold no newline).
    `each`, if given, is handed every entry's data and its text as `dumps` writes it alone (the
    static API's file of the entry: JSON encoded once for both)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rest = dumps(game_json(game, [], errata, facts))
    head = '{\n "entries": []'
    if not rest.startswith(head):  # a key sorting before "entries" would need another way to write
        raise ValueError(f"{path}: a game file must open on its entries")
    if not entries:
        write_pieces(path, [rest])
        return

    def pieces() -> Iterator[str]:
        yield '{\n "entries": ['
        for i, (data, text) in enumerate(encode_entries(entries)):
            if each is not None:
                each(data, text)
            yield ("," if i else "") + "\n  " + text[:-1].replace("\n", "\n  ")
        yield "\n ]" + rest[len(head):]

    write_pieces(path, pieces(), batch=WRITE_ENTRIES)


WRITE_ENTRIES = 64  # entries encoded per write


def write_json(path: Path, data: Any) -> None:
    """`dumps(data)` written to `path`, encoded piece by piece (`extract.files`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=True, indent=1)
    write_pieces(path, chain(encoder.iterencode(data), ["\n"]))


SCHEMA = GAME_SCHEMA  # build/data/schema.json; the others are in extract/contract/schema.py
