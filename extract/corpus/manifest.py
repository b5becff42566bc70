"""Read and validate `corpus/<game>/game.toml`: unknown keys and bad values are errors naming
the file and line, in the manner of OpenFisca's parameter files. A document's options are read
into the options dataclass its profile declares (`extract.options`): the profiles are given by
the caller, as this stage does not look into segmentation."""

from __future__ import annotations

import codecs
import functools
import hashlib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from extract.contract.schema import SCHEMA_FILES
from extract.errors import BuildError, InputError, shortened
from extract.files import BYTE_ORDER_MARKS, input_limit, read_input
from extract.model import DOCUMENT_KINDS, DocumentSpec, DocumentVersion, GameSpec
from extract.options import OptionsError, read_options
from extract.tomlfile import item_line, line_of, read_toml, rows_of, table_lines

GAME_KEYS = {"id", "title", "short_title", "sources", "documents", "precedence"}
SHORT_TITLE_MAX = 16  # characters: the site's game filter shows it whole on a phone
SOURCE_KEYS = {"file", "sha256", "pages", "encoding"}
DOCUMENT_KEYS = {"id", "title", "kind", "version", "date", "source", "lines", "profile", "options", "ocr", "corrections",
                 "structure_uncertain", "official", "versions"}
VERSION_KEYS = {"version", "date", "source", "lines"}  # an earlier version of a document ([[documents.versions]])
CORRECTION_KEYS = {"line", "from", "to", "reason"}
PRECEDENCE_KEYS = {"over", "under", "why", "stated_in", "over_words", "under_words"}  # *_words: for what is not a document
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]*+\Z")  # matched whole (`$` would let a final newline through)
ID_MAX = 64  # characters: an id is a folder name and a part of every URL and entry id below it
# Names the build itself gives beside a game's or a document's own folder: an id equal to one of
# them would silently replace (or be replaced by) the build's own files.
RESERVED_GAME_IDS = frozenset({
    "assets",  # build/site/assets/: the site's CSS, scripts and search model, and Material's
    "api",     # build/site/api/: the static JSON API (extract.publish.api)
    # build/data/schema.json and build/data/schema/ beside build/data/<game>.json
    *(path.split("/")[1].removesuffix(".json") for path, _ in SCHEMA_FILES.values()),
})
RESERVED_DOCUMENT_IDS = frozenset({
    "errata",  # build/site/<game>/errata/: the game's errata page, beside <game>/<document>/
})


def load_game(manifest: Path, root: Path, profiles: Mapping[str, type]) -> GameSpec:
    """`profiles`: profile name -> the dataclass of its options (`option_classes()` of the
    segmentation stage); each document's options are read into its profile's."""
    data, raw, rel = read_toml(manifest, root)

    def fail(message: str, pattern: str | None = None, occurrence: int = 0) -> InputError:
        line = line_of(raw, pattern, occurrence) if pattern else None
        return InputError(rel, message, line)

    _check_keys(data, GAME_KEYS, "game", fail)
    game_id = _required(data, "id", str, fail, "game")
    if not ID_PATTERN.match(game_id):
        raise fail(f"game id {shortened(repr(game_id))} must be lowercase letters, digits and hyphens", r"^\s*id\s*=")
    if len(game_id) > ID_MAX:
        raise fail(f"game id {shortened(repr(game_id), 40)} is longer than {ID_MAX} characters", r"^\s*id\s*=")
    if game_id in RESERVED_GAME_IDS:
        raise fail(f"game id {game_id!r} is reserved for the build's own files "
                   f"(reserved: {', '.join(sorted(RESERVED_GAME_IDS))})", r"^\s*id\s*=")
    if game_id != manifest.parent.name:
        raise fail(f"game id {game_id!r} does not match its folder {manifest.parent.name!r}", r"^\s*id\s*=")
    title = _required(data, "title", str, fail, "game")
    short_title = None
    if "short_title" in data:
        short_title = _required(data, "short_title", str, fail, "game").strip()
        if not short_title or len(short_title) > SHORT_TITLE_MAX:
            raise fail(f"short_title must be 1 to {SHORT_TITLE_MAX} characters (the game filter shows it whole), "
                       f"not {short_title!r}", r"^\s*short_title\s*=")

    sources: dict[str, str] = {}
    pages: dict[str, tuple[int, int]] = {}
    source_lines: dict[str, int] = {}
    encodings: dict[str, str] = {}
    source_headers = table_lines(raw, "sources", len(data.get("sources", [])))  # one scan, not one per source
    for i, source in enumerate(data.get("sources", [])):
        _check_keys(source, SOURCE_KEYS, "[[sources]]", fail, r"^\s*\[\[sources\]\]", i)
        file = _required(source, "file", str, fail, "[[sources]]", (r"^\s*\[\[sources\]\]", i))
        digest = _required(source, "sha256", str, fail, "[[sources]]", (r"^\s*\[\[sources\]\]", i))
        inside_game(manifest.parent, file, rel, _key_line(raw, source_headers[i] or 0, "file"), "source file")
        sources[f"corpus/{game_id}/{file}"] = digest.lower()
        source_lines[f"corpus/{game_id}/{file}"] = source_headers[i] or 0
        if "encoding" in source:
            encodings[f"corpus/{game_id}/{file}"] = _encoding(source["encoding"], file, rel,
                                                               _key_line(raw, source_lines[f"corpus/{game_id}/{file}"], "encoding"))
        if "pages" in source:
            span = source["pages"]
            where = source_headers[i]
            if not file.lower().endswith(".pdf"):
                raise InputError(rel, f"pages applies to a PDF source, not to {file!r}", where)
            if not (isinstance(span, list) and len(span) == 2 and all(type(n) is int for n in span) and 1 <= span[0] <= span[1]):
                raise InputError(rel, "pages must be [first, last] page numbers, 1 ≤ first ≤ last", where)
            pages[f"corpus/{game_id}/{file}"] = (span[0], span[1])

    documents: list[DocumentSpec] = []
    seen: set[str] = set()
    document_headers = table_lines(raw, "documents", len(data.get("documents", [])))
    for i, doc in enumerate(data.get("documents", [])):
        header = r"^\s*\[\[documents\]\]"
        _check_keys(doc, DOCUMENT_KEYS, "[[documents]]", fail, header, i)
        doc_line = document_headers[i] or 0
        doc_id = _required(doc, "id", str, fail, "[[documents]]", (header, i))
        if not ID_PATTERN.match(doc_id):
            raise InputError(rel, f"document id {shortened(repr(doc_id))} is not URL-safe", doc_line)
        if len(doc_id) > ID_MAX:
            raise InputError(rel, f"document id {shortened(repr(doc_id), 40)} is longer than {ID_MAX} characters", doc_line)
        if doc_id in RESERVED_DOCUMENT_IDS:
            raise InputError(rel, f"document id {doc_id!r} is reserved: the site uses {game_id}/{doc_id}/ itself "
                                  f"(reserved: {', '.join(sorted(RESERVED_DOCUMENT_IDS))})", doc_line)
        if doc_id in seen:
            raise InputError(rel, f"duplicate document id {doc_id!r}", doc_line)
        seen.add(doc_id)
        kind = _required(doc, "kind", str, fail, "[[documents]]", (header, i))
        if kind not in DOCUMENT_KINDS:
            raise InputError(rel, f"unknown document kind {kind!r} (one of {', '.join(sorted(DOCUMENT_KINDS))})", doc_line)
        source = _required(doc, "source", str, fail, "[[documents]]", (header, i))
        source_path = f"corpus/{game_id}/{source}"
        if source_path not in sources:
            raise InputError(rel, f"document {doc_id!r} uses {source!r}, which no [[sources]] entry declares with its sha256", doc_line)
        span = doc.get("lines", [1, None])
        if not (isinstance(span, list) and len(span) == 2 and type(span[0]) is int
                and (type(span[1]) is int or span[1] is None)):
            raise InputError(rel, "lines must be [first, last] line numbers", _key_line(raw, doc_line, "lines"))
        # Without a profile the build guesses one from the reading, as `regles extract` does, and
        # says which; options are a profile's, so they need one named.
        profile = _required(doc, "profile", str, fail, "[[documents]]", (header, i)) if "profile" in doc else ""
        if profile and profile not in profiles:
            raise InputError(rel, f"unknown profile {profile!r} for document {doc_id!r} (known: {', '.join(sorted(profiles))})",
                             _key_line(raw, doc_line, "profile"))
        if not profile and doc.get("options"):
            raise InputError(rel, f"document {doc_id!r} has options but no profile: options belong to a profile, name it",
                             _option_line(raw, doc_line, ()))
        options = _read_options(doc.get("options", {}), profile, profiles, rel, raw, doc_line) if profile else None
        ocr = doc.get("ocr", False)
        if not isinstance(ocr, bool):
            raise InputError(rel, "ocr must be true or false", _key_line(raw, doc_line, "ocr"))
        corrections = _read_corrections(doc.get("corrections", []), ocr, rel, _key_line(raw, doc_line, "corrections"))
        # `structure_uncertain = "why"`: the heading tree is known to be doubtful, and accepted so
        acknowledged = doc.get("structure_uncertain", "")
        if "structure_uncertain" in doc and (not isinstance(acknowledged, str) or not acknowledged.strip()):
            raise InputError(rel, "structure_uncertain must say why the doubtful heading tree is accepted (a non-empty string)",
                             _key_line(raw, doc_line, "structure_uncertain"))
        versions = _read_versions(doc, sources, game_id, rel, raw, doc_line)
        official = doc.get("official")
        if official is not None and not isinstance(official, bool):
            raise InputError(rel, "official must be true (the publisher's document) or false (a fan's, a player's)",
                             _key_line(raw, doc_line, "official"))
        documents.append(DocumentSpec(
            id=doc_id,
            title=_required(doc, "title", str, fail, "[[documents]]", (header, i)),
            kind=kind,
            version=str(doc.get("version", "")),
            date=str(doc.get("date", "")),
            source=source_path,
            first_line=span[0],
            last_line=span[1],
            profile=profile,
            options=options,
            manifest_line=doc_line,
            ocr=ocr,
            corrections=corrections,
            option_lines=option_lines(raw, doc_line, doc.get("options", {})),
            structure_acknowledged=acknowledged.strip(),
            official=official,
            versions=versions,
        ))
    if not documents:
        raise InputError(rel, "declares no [[documents]]")
    problems = check_spans(rel, raw, documents)
    if problems:
        raise problems[0] if len(problems) == 1 else BuildError(problems)

    precedence: list[dict[str, str]] = []
    for i, rule in enumerate(data.get("precedence", [])):
        _check_keys(rule, PRECEDENCE_KEYS, "[[precedence]]", fail, r"^\s*\[\[precedence\]\]", i)
        for key in ("over", "under", "why"):
            _required(rule, key, str, fail, "[[precedence]]", (r"^\s*\[\[precedence\]\]", i))
        for key in ("over_words", "under_words", "stated_in"):
            if key in rule:
                _required(rule, key, str, fail, "[[precedence]]")
        precedence.append({k: str(v) for k, v in rule.items()})
    return GameSpec(game_id, title, documents, precedence, rel, sources, pages, short_title, source_lines, encodings)


def _encoding(value: Any, file: str, rel: str, line: int) -> str:
    """A text source's `encoding`: a Python codec that decodes bytes to text, by its canonical
    name ("latin-1" -> "iso8859-1"); an InputError at its line otherwise."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(rel, "encoding must be the name of a text encoding (\"cp1252\", \"latin-1\", \"utf-16\")", line)
    if file.lower().endswith(".pdf"):
        raise InputError(rel, f"encoding applies to a text or Markdown source, not to {file!r} (a PDF says its own)", line)
    try:
        # Refuses names that are not codecs, and codecs that are not bytes -> text (rot13, base64):
        # these only on a non-empty probe.
        b"x".decode(value, errors="ignore")
        return codecs.lookup(value).name
    except LookupError:
        raise InputError(rel, f"unknown text encoding {value!r} (a Python codec name: \"cp1252\", \"latin-1\", \"utf-16\")",
                         line) from None


def inside_game(folder: Path, file: str, rel: str, line: int | None, what: str) -> Path:
    """`file` (relative to the game's folder) as a path that stays inside it, symlinks followed;
    an InputError otherwise (`../../etc/passwd`, an absolute path, a link leading out)."""
    path = folder / file
    if Path(file).is_absolute() or ".." in Path(file).parts or not path.resolve().is_relative_to(_resolved(folder)):
        raise InputError(rel, f"{what} {file!r} is outside the game's folder {folder.name}/", line)
    return path


@functools.lru_cache(maxsize=16)
def _resolved(folder: Path) -> Path:
    return folder.resolve()


def check_spans(rel: str, raw: str, documents: list[DocumentSpec], counts: Mapping[str, int] | None = None) -> list[InputError]:
    """Each document's lines: 1 ≤ first ≤ last (≤ the lines of its source when `counts` knows
    them); documents of one source do not overlap. One problem per document, at its `lines`."""
    counts = counts or {}
    problems: list[InputError] = []
    spans: dict[str, list[tuple[int, float, DocumentSpec]]] = {}
    for doc in documents:
        where = _key_line(raw, doc.manifest_line, "lines")
        first, last = doc.first_line, doc.last_line
        total = counts.get(doc.source)
        if first < 1 or (last is not None and last < first):
            problems.append(InputError(rel, f"document {doc.id!r}: lines [{first}, {last}] must satisfy 1 ≤ first ≤ last", where))
            continue
        if total and (first > total or (last is not None and last > total)):  # an empty file: its reader says so
            problems.append(InputError(rel, f"document {doc.id!r}: lines [{first}, {last}] go beyond the "
                                            f"{total} lines of {doc.source.rsplit('/', 1)[-1]}", where))
            continue
        end = last if last is not None else total if total is not None else float("inf")
        for other_first, other_end, other in spans.get(doc.source, []):
            if first <= other_end and other_first <= end:
                shown = "end" if other_end == float("inf") else other_end
                problems.append(InputError(rel, f"document {doc.id!r}: lines overlap document {other.id!r} "
                                                f"({other_first}–{shown}) of the same source", where))
                break
        spans.setdefault(doc.source, []).append((first, end, doc))
    return problems


def check_sources(game: GameSpec, root: Path) -> None:
    """Before any reading: each source is there and has its declared sha256 (its actual hash is
    never printed: a manifest must not reveal the content of a file it names), and each
    document's lines lie within its text source. Every problem, one line each (a BuildError when
    there are several)."""
    problems: list[InputError] = []
    counts: dict[str, int] = {}
    for source, digest in sorted(game.sources.items()):
        path = root / source
        # Where to fix it: the manifest's [[sources]] entry, file:line as its other errors say
        declared = f"{game.manifest}:{game.source_lines[source]}" if game.source_lines.get(source) else game.manifest
        if not path.exists() and not path.is_symlink():
            problems.append(InputError(source, f"source file is missing (declared at {declared})"))
            continue
        try:  # a regular file, no link followed, its size checked before it is read
            data = read_input(path, source, input_limit(path), base=root)
        except InputError as problem:
            problems.append(problem)
            continue
        if hashlib.sha256(data).hexdigest() != digest:
            problems.append(InputError(source, f"checksum mismatch: the file does not match the declared sha256 of {declared} "
                                               "(changed since the manifest was written?)"))
            continue
        if not source.lower().endswith(".pdf"):  # a PDF's lines are its reader's: not known before reading
            encoding = game.source_encodings.get(source) or next(
                (codec for mark, codec in BYTE_ORDER_MARKS if data.startswith(mark)), "utf-8")  # as the reader decodes it
            counts[source] = len(data.decode(encoding, errors="replace").splitlines())
    if not problems:
        raw = (root / game.manifest).read_text(encoding="utf-8")
        problems = check_spans(game.manifest, raw, game.documents, counts)
    if problems:
        raise problems[0] if len(problems) == 1 else BuildError(problems)


def _read_corrections(value: Any, ocr: bool, rel: str, line: int) -> list[dict[str, Any]]:
    """`corrections = [{line = N, from = "…", to = "…", reason = "…"}]`: strings of a scanned
    document too damaged for the repair's lexicon, corrected by hand (extract.repair)."""
    if not value:
        return []
    if not ocr:
        raise InputError(rel, "corrections apply to a document declared ocr = true", line)
    if not isinstance(value, list):
        raise InputError(rel, "corrections must be a list of {line, from, to, reason}", line)
    found = []
    for item in value:
        if not isinstance(item, dict) or set(item) != CORRECTION_KEYS:
            raise InputError(rel, f"each correction has exactly the keys {', '.join(sorted(CORRECTION_KEYS))}", line)
        if type(item["line"]) is not int or not all(isinstance(item[k], str) and item[k] for k in ("from", "to", "reason")):
            raise InputError(rel, "a correction's line is a number; from, to and reason are non-empty strings", line)
        found.append(dict(item))
    return found


def _read_options(table: Any, profile: str, profiles: Mapping[str, type], rel: str, raw: str, doc_line: int) -> Any:
    """The document's `[documents.options]` as its profile's options dataclass; every problem
    an InputError at the line of its key (a BuildError when there are several)."""

    def elsewhere(key: str) -> str | None:
        owners = [name for name, cls in sorted(profiles.items()) if key in cls.__dataclass_fields__]
        return ", ".join(owners) or None

    try:
        return read_options(profiles[profile], table, f"profile {profile!r}", elsewhere)
    except OptionsError as error:
        problems = [InputError(rel, problem.message, _option_line(raw, doc_line, problem.path)) for problem in error.problems]
        problems.sort(key=lambda problem: problem.line or 0)  # in the order the manifest's author reads them
        raise (problems[0] if len(problems) == 1 else BuildError(problems)) from None


def option_lines(raw: str, doc_line: int, table: Any) -> dict[tuple[str | int, ...], int]:
    """The manifest line of each option of a document and of each item of an array option
    (("set_aside",), ("set_aside", 0), …): where a problem found once the document is read is."""
    if not isinstance(table, Mapping):
        return {}
    found: dict[tuple[str | int, ...], int] = {}
    for key, value in table.items():
        found[(key,)] = _option_line(raw, doc_line, (key,))
        for i in range(len(value) if isinstance(value, list) else 0):
            found[(key, i)] = _option_line(raw, doc_line, (key, i))
    return found


def _block(raw: str, doc_line: int) -> tuple[list[str], int]:
    """The lines of the document declared at `doc_line` (up to the next [[table]]), and the
    number of the first."""
    rows = rows_of(raw)
    if doc_line < 1:  # documents written as an inline array: the whole file
        return rows, 1
    end = next((n for n in range(doc_line, len(rows)) if re.match(r"^\s*\[\[", rows[n])), len(rows))
    return rows[doc_line - 1:end], doc_line


def _read_versions(doc: dict[str, Any], sources: Mapping[str, str], game_id: str, rel: str, raw: str,
                   doc_line: int) -> list[DocumentVersion]:
    """A document's earlier versions (`[[documents.versions]]`, oldest first): each with its own
    version (none twice, nor the document's), date, source (declared in [[sources]]) and lines."""
    listed = doc.get("versions", [])
    rows = rows_of(raw)[doc_line:]  # the first [[documents.versions]] after the document's header
    where = next((doc_line + n for n, row in enumerate(rows, 1) if re.match(r"^\s*\[\[documents\.versions\]\]", row)),
                 _key_line(raw, doc_line, "versions"))
    if not isinstance(listed, list) or not all(isinstance(v, dict) for v in listed):
        raise InputError(rel, "versions must be a list of tables ([[documents.versions]]: version, date, source)", where)
    versions: list[DocumentVersion] = []
    seen = {str(doc.get("version", ""))}
    for item in listed:
        unknown = sorted(set(item) - VERSION_KEYS)
        if unknown:
            raise InputError(rel, f"unknown key {unknown[0]!r} in a version of document {doc.get('id')!r} "
                                  f"(known: {', '.join(sorted(VERSION_KEYS))})", where)
        version, source = item.get("version"), item.get("source")
        if not isinstance(version, str) or not version or not isinstance(source, str):
            raise InputError(rel, f"each version of document {doc.get('id')!r} needs a version and a source (text)", where)
        if version in seen:
            raise InputError(rel, f"version {version!r} of document {doc.get('id')!r} is listed twice (or is the current one)",
                             where)
        seen.add(version)
        path = f"corpus/{game_id}/{source}"
        if path not in sources:
            raise InputError(rel, f"version {version!r} of document {doc.get('id')!r} uses {source!r}, which no [[sources]] "
                                  "entry declares with its sha256", where)
        span = item.get("lines", [1, None])
        if not (isinstance(span, list) and len(span) == 2 and type(span[0]) is int and (type(span[1]) is int or span[1] is None)):
            raise InputError(rel, "lines must be [first, last] line numbers", where)
        versions.append(DocumentVersion(version, str(item.get("date", "")), path, span[0], span[1]))
    return versions


def _key_line(raw: str, doc_line: int, key: str) -> int:
    rows, first = _block(raw, doc_line)
    return next((first + i for i, row in enumerate(rows) if re.match(rf"^\s*{re.escape(key)}\s*=", row)), doc_line)


def _option_line(raw: str, doc_line: int, path: tuple[str | int, ...]) -> int:
    """The manifest line of the option `path` names (("set_aside", 1, "reason"): the key, and
    the line of its item when its array is written over several lines), within the document's
    options, whether a `[documents.options]` table or an inline `options = { … }`."""
    rows, first = _block(raw, doc_line)
    start = next((i for i, row in enumerate(rows) if re.match(r"^\s*(?:\[documents\.options\]|options\s*=)", row)), None)
    if start is None:
        return doc_line
    if not path:
        return first + start
    key = re.escape(str(path[0]))
    for pattern in (rf"^\s*{key}\s*=", rf"[{{,]\s*{key}\s*="):  # own line, then inside an inline table
        for i in range(start, len(rows)):
            found = re.search(pattern, rows[i])
            if found:
                line = first + i
                if len(path) > 1 and isinstance(path[1], int):
                    return item_line(raw, line, path[1], found.end()) or line
                return line
    return first + start


def _check_keys(table: dict[str, Any], allowed: set[str], where: str, fail, pattern=None, occurrence=0) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        key = unknown[0]
        raise fail(f"unknown key {key!r} in {where} (allowed: {', '.join(sorted(allowed))})", rf"^\s*{re.escape(key)}\s*=")


def _required(table: dict[str, Any], key: str, kind: type, fail, where: str, at: tuple[str, int] | None = None):
    """`table[key]`, of type `kind`; `at`: the table's header (pattern, occurrence), the line a
    missing key is reported at."""
    if key not in table:
        raise fail(f"missing required key {key!r} in {where}", *(at or ()))
    value = table[key]
    if not isinstance(value, kind):
        raise fail(f"{key!r} in {where} must be a {kind.__name__}", rf"^\s*{re.escape(key)}\s*=")
    return value


def find_manifests(root: Path) -> list[Path]:
    return sorted((root / "corpus").glob("*/game.toml"))
