"""`regles extract --manifest corpus/GAME/game.toml [--document D]`: a game's documents read as
the build reads them — sources checked, the manifest's profile (or the one the build would
guess) with its options, normalisation, OCR repair, segmentation, icons, line accounting and
anomalies — without linking across books, applying errata, tagging or publishing anything: the
try-loop while tuning a document's options. Bad options fail as in the build, at their line."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections import Counter
from pathlib import Path
from typing import Any

from extract.cache import Cache, code_key
from extract.corpus import check_sources, load_game, read_icons
from extract.errors import InputError
from extract.link import fill_backrefs, resolve_explicit
from extract.lookup import Lookup
from extract.model import DocumentSpec, GameSpec, Line
from extract.nlp import default_cache
from extract.options import read_options
from extract.pipeline import segment_one
from extract.publish.data import entry_json
from extract.read import Reading, read_as_text, read_sources
from extract.repair import frequent_words, word_counts
from extract.segment import PROFILES, book_order, option_classes
from extract.segment.choose import choose_profile
from extract.segment.detect import detect_structure
from extract.segment.segmenter import counts


def project_root(manifest: Path) -> Path:
    """The folder holding `corpus/` for `corpus/GAME/game.toml`."""
    manifest = manifest.resolve()
    if manifest.name != "game.toml" or manifest.parent.parent.name != "corpus":
        raise InputError(str(manifest), "is not a game manifest: expected corpus/<game>/game.toml")
    return manifest.parent.parent.parent


def chosen_documents(game: GameSpec, document: str | None) -> list[DocumentSpec]:
    if document is None:
        return list(game.documents)
    found = [doc for doc in game.documents if doc.id == document]
    if not found:
        raise InputError(game.manifest, f"no document {document!r} (declared: {', '.join(d.id for d in game.documents)})")
    return found


def extract_from_manifest(manifest: Path, document: str | None = None) -> list[dict[str, Any]]:
    """Each chosen document of the manifest as `regles extract` reports a file (entries,
    accounting, set-aside spans, anomalies), plus its id, where its profile came from and where
    each entry comes from."""
    root = project_root(manifest)
    game = load_game(manifest, root, option_classes())
    check_sources(game, root)
    docs = chosen_documents(game, document)
    needed = {doc.source for doc in docs}
    if any(doc.ocr for doc in docs):  # the repair knows the words of the game's other books
        needed |= {doc.source for doc in game.documents}
    sources = kept_readings(root, game, needed)
    vocabulary = ocr_vocabulary(game, sources) if any(doc.ocr for doc in docs) else set()
    icons = read_icons(root, game.id)
    return [read_one(root, game, doc, sources[doc.source], vocabulary, icons) for doc in docs]


def reading_cache(root: Path) -> Cache:
    """Where readings are kept between tries: `.cache/stages/`, beside the build's own kept
    stages (`REGLES_STAGE_CACHE=off`: nowhere)."""
    off = os.environ.get("REGLES_STAGE_CACHE") == "off"
    return Cache(None if off else default_cache(root).parent / "stages")


def reading_key(source: str, digest: str, pages: tuple[int, int] | None = None, encoding: str | None = None) -> str:
    return hashlib.sha256("\n".join([code_key(), source, digest, str(pages), str(encoding)]).encode()).hexdigest()


def kept_readings(root: Path, game: GameSpec, needed: set[str]) -> dict[str, Reading]:
    """Each needed source read by its reader, or as the last try (or `regles new`) read the same
    bytes with the same code: tuning options reads a PDF once, not at every try."""
    objects = reading_cache(root)
    readings: dict[str, Reading] = {}
    for source in sorted(needed):
        digest = game.sources[source]
        key = reading_key(source, digest, game.source_pages.get(source), game.source_encodings.get(source))
        found = objects.get(f"trial-reading/{source}", key)
        if found is None:
            found = read_sources(root, dataclasses.replace(game, sources={source: digest}))[source]
            objects.put(f"trial-reading/{source}", key, found)
        readings[source] = found
    return readings


def ocr_vocabulary(game: GameSpec, sources: dict[str, Reading]) -> set[str]:
    """The words of the game's books that are not scanned (the build takes every game's)."""
    scanned = {doc.source for doc in game.documents if doc.ocr}
    found: Counter[str] = Counter()
    for source in sorted(set(sources) - scanned):
        found.update(word_counts(line.text for line in sources[source].lines))
    return frequent_words(found)


def read_one(root: Path, game: GameSpec, doc: DocumentSpec, reading: Reading, vocabulary: set[str],
             icons: Any) -> dict[str, Any]:
    profile_from = "the manifest"
    if not doc.profile:
        spanned = [ln for ln in reading.lines if ln.no >= doc.first_line and (doc.last_line is None or ln.no <= doc.last_line)]
        doc.profile, why = choose_profile(spanned, reading.evidence, reading.format)
        doc.options = read_options(option_classes()[doc.profile], {})
        profile_from = f"guessed, as the build guesses it: {why}"
    if PROFILES[doc.profile].raw_text and reading.format == "markdown":
        reading = read_as_text(root / doc.source, doc.source, game.source_encodings.get(doc.source))
    done = segment_one(game, doc, reading, vocabulary, icons, default_cache(root).parent)
    lines, result, anomalies = done.lines, done.result, done.anomalies
    numbers = counts(lines, result)
    anomalies += result.anomalies + detect_structure(result, numbers["lines_placed"])
    entries = book_order(result.entries)
    alone = dataclasses.replace(game, documents=[doc], precedence=[])  # its refs to itself resolve as in the build
    anomalies += [anomaly for _, anomaly in resolve_explicit(Lookup(alone, entries), [])]
    fill_backrefs(entries)
    return {
        "document": doc.id, "file": doc.source, "format": reading.format, "pages": reading.pages,
        "profile": doc.profile, "profile_reason": profile_from, "accounting": numbers,
        "set_aside": [item.to_json() for item in result.set_aside],
        "anomalies": [a.to_json() for a in anomalies], "severe": sum(a.severity == "severe" for a in anomalies),
        "entries": [entry_json(e) for e in entries], "lines": line_rows(lines),
    }


def line_rows(lines: list[Line]) -> list[dict[str, Any]]:
    """Each line the profile reads: its source lines [first, last] (a paragraph a reader joined
    stands on several), its page when a PDF's, its text: what `set_aside` and `relocate` name."""
    return [{"lines": [line.no, max((line.no, *line.covers))], "text": line.text}
            | ({"page": line.page} if line.page is not None else {}) for line in lines]


def line_place(row: dict[str, Any]) -> str:
    """"p. 4 l. 236–241", "l. 12"."""
    first, last = row["lines"]
    span = f"l. {first}" if first == last else f"l. {first}–{last}"
    return f"p. {row['page']} {span}" if "page" in row else span


def origin(entry: dict[str, Any]) -> str:
    """Where an entry comes from, as the options name it: "p. 3, l. 120–134" (a PDF), "l. 12–20"."""
    lines = entry["source"]["lines"]
    span = "" if not lines else f"l. {lines[0]}" if lines[0] == lines[1] else f"l. {lines[0]}–{lines[1]}"
    page = entry["source"].get("page")
    return ", ".join(part for part in (f"p. {page}" if page is not None else "", span) if part)
