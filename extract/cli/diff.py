"""`regles diff`: what changed from one version of a document to the next, entry by entry
(extract.versions). `regles diff OLD NEW`: two files outside the corpus, each read as `regles
extract` reads them (the same profile for both: given, or guessed from the new one). `regles diff
GAME DOC [--from V] [--to V]`: two versions of a corpus document, the earlier ones listed in its
manifest (`[[documents.versions]]`), each read as the build reads the document (its profile and
options), before errata; then the game's errata applied to each version (every other document at
its current one), to say which errata the new version takes that the old did not, and the reverse."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from extract.errors import UsageError
from extract.text import shorten
from extract.versions import Diff, ErratumShift, diff_versions, errata_shifts, marked, printed_text, word_segments

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


@dataclass
class CorpusVersions:
    """Two versions of a corpus document: the entries of each, the game's errata applied to each,
    and what was read of each (version, date, source)."""

    old: list[dict[str, Any]]
    new: list[dict[str, Any]]
    old_errata: list[dict[str, Any]]
    new_errata: list[dict[str, Any]]
    read: dict[str, Any]


def corpus_versions(root: Path, game_id: str, doc_id: str, wanted: tuple[str | None, str | None]) -> CorpusVersions:
    """Two versions of the corpus document GAME/DOC (`wanted`: from, to; by default the current
    version and the one before it), read as the build reads them, with the game's errata."""
    from extract.corpus import load_game
    from extract.model import DocumentVersion
    from extract.segment import option_classes

    manifest = root / "corpus" / game_id / "game.toml"
    if not manifest.is_file():
        raise UsageError(f"regles diff: no game {game_id!r} (no corpus/{game_id}/game.toml), nor two files named "
                         f"{game_id} and {doc_id}")
    game = load_game(manifest, root, option_classes())
    doc = next((d for d in game.documents if d.id == doc_id), None)
    if doc is None:
        raise UsageError(f"regles diff: game {game_id!r} has no document {doc_id!r} "
                         f"(its documents: {', '.join(d.id for d in game.documents)})")
    versions = [*doc.versions, DocumentVersion(doc.version, doc.date, doc.source, doc.first_line, doc.last_line)]
    names = [v.version for v in versions]
    if len(versions) < 2:
        raise UsageError(f"regles diff: {game_id}/{doc_id} has one version only; list the earlier ones in "
                         f"{game.manifest} ([[documents.versions]]: version, date, source)")
    for name in wanted:
        if name is not None and name not in names:
            raise UsageError(f"regles diff: {game_id}/{doc_id} has no version {name!r} (its versions: {', '.join(names)})")
    to = names.index(wanted[1]) if wanted[1] is not None else len(versions) - 1
    start = names.index(wanted[0]) if wanted[0] is not None else max(to - 1, 0)
    chosen = (versions[start], versions[to])
    read = {side: {"version": v.version, "date": v.date, "source": v.source}
            for side, v in zip(("from", "to"), chosen, strict=True)}
    from extract.pipeline import version_entries, version_errata

    old, new = (replace(doc, version=v.version, date=v.date, source=v.source, first_line=v.first_line,
                        last_line=v.last_line) for v in chosen)
    return CorpusVersions(version_entries(root, game, old), version_entries(root, game, new),
                          version_errata(root, game, old), version_errata(root, game, new), read)


LABEL_WORDS = 60  # characters of an untitled entry's text (a FAQ's question) beside its key


def label(entry: dict[str, Any]) -> str:
    """An entry as a line of the diff names it: its number and title, else its key and first words."""
    named = " ".join(x for x in (entry.get("number"), entry.get("title")) if x)
    if named:
        return named
    key, text = entry["id"].rsplit("/", 1)[-1], shorten(entry.get("text") or "", LABEL_WORDS)
    return f"{key} « {text} »" if text else key


def diff_command(root: Path, old: str, new: str, profile: str | None, as_json: bool,
                 versions: tuple[str | None, str | None] = (None, None)) -> int:
    missing = [name for name in (old, new) if not Path(name).exists()]
    if not missing and (Path(old).is_file() and Path(new).is_file()):
        if versions != (None, None):
            raise UsageError("regles diff: --from and --to choose versions of a corpus document (GAME DOC), not files")
        found, read = diff_files(Path(old), Path(new), profile)
        shifts = None  # two files outside the corpus: no game, no errata
    elif len(missing) == 2:
        if profile:
            raise UsageError("regles diff: --profile is for two files; a corpus document is read with its manifest's")
        both = corpus_versions(root, old, new, versions)
        found, read = diff_versions(both.old, both.new), both.read
        shifts = errata_shifts(both.old_errata, both.new_errata, found.pairs)
        read["from"]["file"], read["to"]["file"] = (f"{old}/{new} {read[s]['version']}" for s in ("from", "to"))
        read["to"]["profile"] = "manifest"
    else:
        raise UsageError(f"regles diff: not a file: {', '.join(missing) or old + ' or ' + new}")
    if as_json:
        print(json.dumps({**found.to_json(), **read, "errata": shifts and shifts.to_json()}, ensure_ascii=False, indent=2, sort_keys=True))
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
    if shifts is not None:
        for shift in shifts.applied:
            print(f"E+ {shift_label(shift, True)}")
        for shift in shifts.unapplied:
            print(f"E- {shift_label(shift, False)}")
    counts = found.counts()
    said = [f"{counts[k]} {LABELS[k]}" for k in LABELS]
    if shifts is not None:
        said += [f"errata : {len(shifts.applied)} nouvellement appliqués", f"{len(shifts.unapplied)} qui ne s'appliquent plus"]
    print(f"{read['from']['file']} → {read['to']['file']} ({read['to']['profile']}): " + ", ".join(said), file=sys.stderr)
    return 0


def shift_label(shift: ErratumShift, newly: bool) -> str:
    """One erratum that the new version newly takes (`newly`), or no longer takes: its id, the entry
    it changes, and what it was in the version that does not take it."""
    said, other = (shift.new, shift.old) if newly else (shift.old, shift.new)
    said = said or {}
    if other is None:
        why = "absent"
    elif other["status"] == "applied":
        why = "le texte le dit déjà"
    else:
        why = other["status"] + (f" ({other['reason']})" if other.get("reason") else "")
    return f"{said.get('id')} → {said.get('target') or '?'} ({said.get('operation')}); {'avant' if newly else 'maintenant'} : {why}"
