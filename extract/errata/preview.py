"""`regles errata --from FILE [--game G]`: the errata of a document outside the corpus, read by
the errata reader (`reader`), each operation with its line; and, with a game, where each would
land in that game's last build — the entry and block, found by section number, title, the
book's page (`source.page`) and the old text — or why none. Nothing is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extract.errata.instruction import model_operation
from extract.errata.reader import ErrataReading, numbered_text, read_errata_text
from extract.text import fold


def read_errata_lines(lines: list[tuple[int, str]]) -> ErrataReading:
    return read_errata_text(numbered_text(lines))


def records(path: Path, reading: ErrataReading) -> dict[str, Any]:
    """The reading as JSON: `errata` (each `recorded`, its book not being in the corpus),
    `not_understood`, `clarifications`, `set_aside` (lines of page chrome)."""
    errata = []
    for n, found in enumerate(reading.read, start=1):
        op = model_operation(found)  # as the build puts its FAQ's errata
        where = found.locator
        errata.append({
            "id": f"{path.stem}/errata/{n}", "source": f"{path}:{found.line}", "line": found.line, "target": None,
            "kind": found.kind, "operation": op.operation, "scope": op.scope(), "before": op.before, "after": op.after,
            "status": "recorded", "reason": "the corrected book is not in the corpus", "instruction": found.text,
            "locator": where.to_json(),
            "target_hint": {"name": where.title or "", "page": where.page, "sections": [where.section] if where.section else []},
        })
    return {"errata": errata, "not_understood": [n.to_json() for n in reading.not_understood],
            "clarifications": [c.to_json() for c in reading.clarifications], "set_aside": reading.set_aside}


# ---------------------------------------------------------------- where each operation would land


@dataclass(frozen=True)
class Landing:
    entry: str | None
    block: int | None  # 0-based index of the block holding the old text, when found
    matched: tuple[str, ...]  # what matched: section, title, page, old text
    why: str | None = None  # when no entry is found


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold(text)))


def land(erratum: dict[str, Any], entries: list[dict[str, Any]]) -> Landing:
    """The entry of a build an erratum targets: each entry scored by what the erratum's locator
    and old text match in it; the best if anything matched, else why none."""
    where = erratum["locator"]
    section, page, title = where.get("section"), where.get("page"), where.get("title")
    old = _norm(erratum["before"]) if erratum.get("before") else ""
    words = [w for w in _norm(where.get("text", "")).split() if len(w) > 3]
    best: tuple[int, Landing] | None = None
    for entry in entries:
        matched, score = [], 0
        if section and entry.get("number") == section:
            matched.append("section")
            score += 8
        entry_title = _norm(entry.get("title") or "")
        if entry_title and (title and _norm(title) == entry_title or len(entry_title) > 3 and
                            f" {entry_title} " in f" {' '.join(words)} "):
            matched.append("title")
            score += 4
        if page is not None and (entry.get("source") or {}).get("page") == page:
            matched.append("page")
            score += 2
        block = None
        if old:
            for index, item in enumerate(entry.get("blocks") or []):
                if old in _norm(item.get("text", "")):
                    block = index
                    break
            if block is not None:
                matched.append("old text")
                score += 6
        if score and (best is None or score > best[0]):
            best = (score, Landing(entry["id"], block, tuple(matched)))
    if best is None:
        named = ", ".join(f"{k} {v}" for k, v in (("section", section), ("page", page), ("title", title)) if v)
        return Landing(None, None, (), f"no entry matches {named or 'its place'}"
                       + (" nor holds its old text" if old else " and it gives no old text to look for"))
    if best[0] <= 2 and not old:
        return Landing(None, None, best[1].matched, "only the page matches: too weak to name one entry")
    return best[1]


def previews(errata: list[dict[str, Any]], game: dict[str, Any]) -> list[dict[str, Any]]:
    """Each erratum's landing in a game's build (a `build/data/<game>.json`), nothing written."""
    entries = game.get("entries") or []
    out = []
    for erratum in errata:
        found = land(erratum, entries)
        out.append({"id": erratum["id"], "line": erratum["line"], "entry": found.entry, "block": found.block,
                    "matched": list(found.matched), "why": found.why})
    return out
