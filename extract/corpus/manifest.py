"""Read and validate `corpus/<game>/game.toml`: unknown keys and bad values are errors naming
the file and line, in the manner of OpenFisca's parameter files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.model import DocumentSpec, GameSpec
from extract.tomlfile import line_of, read_toml

GAME_KEYS = {"id", "title", "sources", "documents", "precedence"}
SOURCE_KEYS = {"file", "sha256"}
DOCUMENT_KEYS = {"id", "title", "kind", "version", "date", "source", "lines", "profile", "options"}
PRECEDENCE_KEYS = {"over", "under", "why", "stated_in"}
DOCUMENT_KINDS = {
    "reference", "learn-to-play", "faq", "tournament-rules", "player-aid", "summary", "rulebook",
}
OPTION_KEYS = {
    "outline", "captions", "set_aside", "relocate", "glossary_heading", "glossary_end",
    "verbatim_headings", "caps_level", "index_heading", "question_prefixes", "answer_prefixes",
    "section_kinds", "caption_spans", "sidebar_pattern",
}
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def check_options(options: dict[str, Any], fail: Any) -> None:
    """The options whose mistakes would otherwise surface as a traceback mid-segmentation."""
    for key in ("sidebar_pattern",):
        if key in options:
            try:
                re.compile(options[key])
            except (re.error, TypeError) as error:
                raise fail(f"{key} is not a regular expression: {error}", rf"^\s*{key}\s*=") from None
    for rule in options.get("caption_spans", []):
        span = rule.get("lines") if isinstance(rule, dict) else None
        if not (isinstance(span, list) and len(span) == 2 and all(isinstance(n, int) for n in span)
                and span[0] <= span[1] and isinstance(rule.get("reason"), str)):
            raise fail("each caption_spans item needs lines = [first, last] and a reason", r"^\s*caption_spans\s*=")


def load_game(manifest: Path, root: Path) -> GameSpec:
    data, raw, rel = read_toml(manifest, root)

    def fail(message: str, pattern: str | None = None, occurrence: int = 0) -> InputError:
        line = line_of(raw, pattern, occurrence) if pattern else None
        return InputError(rel, message, line)

    _check_keys(data, GAME_KEYS, "game", fail)
    game_id = _required(data, "id", str, fail, "game")
    if not ID_PATTERN.match(game_id):
        raise fail(f"game id {game_id!r} must be lowercase letters, digits and hyphens", r"^\s*id\s*=")
    if game_id != manifest.parent.name:
        raise fail(f"game id {game_id!r} does not match its folder {manifest.parent.name!r}", r"^\s*id\s*=")
    title = _required(data, "title", str, fail, "game")

    sources: dict[str, str] = {}
    for i, source in enumerate(data.get("sources", [])):
        _check_keys(source, SOURCE_KEYS, "[[sources]]", fail, r"^\s*\[\[sources\]\]", i)
        file = _required(source, "file", str, fail, "[[sources]]")
        digest = _required(source, "sha256", str, fail, "[[sources]]")
        sources[f"corpus/{game_id}/{file}"] = digest.lower()

    documents: list[DocumentSpec] = []
    seen: set[str] = set()
    for i, doc in enumerate(data.get("documents", [])):
        header = r"^\s*\[\[documents\]\]"
        _check_keys(doc, DOCUMENT_KEYS, "[[documents]]", fail, header, i)
        doc_line = line_of(raw, header, i) or 0
        doc_id = _required(doc, "id", str, fail, "[[documents]]")
        if not ID_PATTERN.match(doc_id):
            raise InputError(rel, f"document id {doc_id!r} is not URL-safe", doc_line)
        if doc_id in seen:
            raise InputError(rel, f"duplicate document id {doc_id!r}", doc_line)
        seen.add(doc_id)
        kind = _required(doc, "kind", str, fail, "[[documents]]")
        if kind not in DOCUMENT_KINDS:
            raise InputError(rel, f"unknown document kind {kind!r} (one of {', '.join(sorted(DOCUMENT_KINDS))})", doc_line)
        source = _required(doc, "source", str, fail, "[[documents]]")
        source_path = f"corpus/{game_id}/{source}"
        if source_path not in sources:
            raise InputError(rel, f"document {doc_id!r} uses {source!r}, which no [[sources]] entry declares with its sha256", doc_line)
        span = doc.get("lines", [1, None])
        if not (isinstance(span, list) and len(span) == 2 and isinstance(span[0], int)
                and (isinstance(span[1], int) or span[1] is None)):
            raise InputError(rel, "lines must be [first, last] line numbers", doc_line)
        options = doc.get("options", {})
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise fail(f"unknown option {sorted(unknown)[0]!r} in document {doc_id!r}", rf"^\s*{re.escape(sorted(unknown)[0])}\s*=")
        check_options(options, fail)
        documents.append(DocumentSpec(
            id=doc_id,
            title=_required(doc, "title", str, fail, "[[documents]]"),
            kind=kind,
            version=str(doc.get("version", "")),
            date=str(doc.get("date", "")),
            source=source_path,
            first_line=span[0],
            last_line=span[1],
            profile=_required(doc, "profile", str, fail, "[[documents]]"),
            options=options,
            manifest_line=doc_line,
        ))
    if not documents:
        raise InputError(rel, "declares no [[documents]]")

    precedence: list[dict[str, str]] = []
    for i, rule in enumerate(data.get("precedence", [])):
        _check_keys(rule, PRECEDENCE_KEYS, "[[precedence]]", fail, r"^\s*\[\[precedence\]\]", i)
        for key in ("over", "under", "why"):
            _required(rule, key, str, fail, "[[precedence]]")
        precedence.append({k: str(v) for k, v in rule.items()})
    return GameSpec(game_id, title, documents, precedence, rel, sources)


def _check_keys(table: dict[str, Any], allowed: set[str], where: str, fail, pattern=None, occurrence=0) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        key = unknown[0]
        raise fail(f"unknown key {key!r} in {where} (allowed: {', '.join(sorted(allowed))})", rf"^\s*{re.escape(key)}\s*=")


def _required(table: dict[str, Any], key: str, kind: type, fail, where: str):
    if key not in table:
        raise fail(f"missing required key {key!r} in {where}")
    value = table[key]
    if not isinstance(value, kind):
        raise fail(f"{key!r} in {where} must be a {kind.__name__}", rf"^\s*{re.escape(key)}\s*=")
    return value


def find_manifests(root: Path) -> list[Path]:
    return sorted((root / "corpus").glob("*/game.toml"))
