"""`regles diff OLD NEW`: what changed from one version of a document to the next. Two files
outside the corpus are each read as `regles extract` reads them (the same profile for both: given,
or guessed from the new one), then compared entry by entry (extract.versions)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from extract.errors import UsageError
from extract.versions import Diff, diff_versions, marked, printed_text, word_segments

LABELS = {"added": "ajoutées", "removed": "retirées", "moved": "déplacées ou renumérotées", "changed": "modifiées",
          "unchanged": "inchangées"}


def diff_files(old: Path, new: Path, profile: str | None = None) -> tuple[Diff, dict[str, Any]]:
    """The difference between two files, and what was read of each (file, format, profile)."""
    from extract.cli.commands import extract_document

    after = extract_document(new, profile)
    before = extract_document(old, profile or after["profile"])
    read = {side: {"file": str(found["file"]), "format": found["format"], "profile": found["profile"],
                   "entries": len(found["entries"])} for side, found in (("from", before), ("to", after))}
    return diff_versions(before["entries"], after["entries"]), read


def label(entry: dict[str, Any]) -> str:
    return " ".join(x for x in (entry.get("number"), entry.get("title")) if x) or entry["id"].rsplit("/", 1)[-1]


def diff_command(old: str, new: str, profile: str | None, as_json: bool) -> int:
    if not (Path(old).is_file() and Path(new).is_file()):
        missing = [name for name in (old, new) if not Path(name).exists()]
        if len(missing) == 2:
            raise UsageError(f"regles diff: {old} and {new} are not files; comparing two versions of a corpus "
                             "document (regles diff GAME DOC) needs versions in its manifest, which this version "
                             "of regles does not read yet: give the two files")
        raise UsageError(f"regles diff: not a file: {', '.join(missing) or old + ' or ' + new}")
    found, read = diff_files(Path(old), Path(new), profile)
    if as_json:
        print(json.dumps({**found.to_json(), **read}, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    for entry in found.added:
        print(f"+ {label(entry)}")
    for entry in found.removed:
        print(f"- {label(entry)}")
    for pair in found.moved:
        print(f"> {label(pair.old)} → {label(pair.new)}")
    for pair in found.changed:
        print(f"~ {label(pair.new)}")
        if (pair.old.get("title") or "") != (pair.new.get("title") or ""):
            print(f"    titre : {pair.old.get('title')} → {pair.new.get('title')}")
        print(f"    {marked(word_segments(printed_text(pair.old), printed_text(pair.new)))}")
    counts = found.counts()
    print(f"{read['from']['file']} → {read['to']['file']} ({read['to']['profile']}): "
          + ", ".join(f"{counts[k]} {LABELS[k]}" for k in LABELS), file=sys.stderr)
    return 0

