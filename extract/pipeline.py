"""The whole build, top to bottom: load → normalise → segment → apply errata → nlp → link →
write data → index → render.

Each stage is a call into its own module. Input problems are collected across games and
reported together; nothing is written until every game has been read, and `build/` is swapped
in whole, so a failed build leaves the previous one as it was.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from extract import data, link
from extract.concepts import link_concepts, read_concepts
from extract.errata import apply_errata, read_errata
from extract.errata_files import read_errata_files
from extract.errors import BuildError, InputError
from extract.load import load_sources
from extract.manifest import find_manifests, line_of, load_game
from extract.model import Entry, Erratum, GameSpec
from extract.nlp import Lemmatizer, default_cache
from extract.normalise import normalise
from extract.refs import resolve_explicit
from extract.report import document_report
from extract.segment import book_order, segment_document
from extract.terms import TermConfig, link_terms, read_term_config, texts_to_tag
from extract.text import fold

Progress = Callable[[str], None]


@dataclass
class GameBuild:
    game: GameSpec
    entries: list[Entry]
    reports: dict[str, dict[str, Any]]
    errata: list[Erratum] = field(default_factory=list)  # hand-written ones until the errata stage
    errata_files: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # anomalies by errata file
    terms: TermConfig = field(default_factory=TermConfig)


@dataclass
class BuildResult:
    out: Path
    games: list[GameBuild]
    stages: dict[str, float] = field(default_factory=dict)

    @property
    def entry_count(self) -> int:
        return sum(len(g.entries) for g in self.games)


class Stopwatch:
    def __init__(self) -> None:
        self.stages: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stages[name] = self.stages.get(name, 0.0) + time.perf_counter() - start


def read_games(root: Path, clock: Stopwatch, progress: Progress) -> list[GameBuild]:
    problems: list[InputError] = []
    games: list[GameBuild] = []
    manifests = find_manifests(root)
    if not manifests:
        raise BuildError([InputError("corpus", "no corpus/<game>/game.toml found")])
    for manifest in manifests:
        try:
            with clock.stage("load"):
                game = load_game(manifest, root)
                sources = load_sources(root, game)
                written = read_errata_files(root, game.id)
                terms = read_term_config(root, game.id)
            progress(f"{game.id}: {len(game.documents)} document(s)")
            entries: list[Entry] = []
            reports: dict[str, dict[str, Any]] = {}
            for doc in game.documents:
                with clock.stage("normalise"):
                    lines, anomalies, read = normalise(sources[doc.source], doc)
                with clock.stage("segment"):
                    result = segment_document(game.id, doc, lines, game.manifest)
                result.anomalies[:0] = anomalies
                entries.extend(book_order(result.entries))
                reports[f"{game.id}/{doc.id}"] = document_report(lines, read, result)
            state_precedence(game, entries, root)
            games.append(GameBuild(game, entries, reports, written, terms=terms))
        except InputError as problem:
            problems.append(problem)
    problems.extend(duplicate_ids(games))
    if problems:
        raise BuildError(problems)
    return games


def state_precedence(game: GameSpec, entries: list[Entry], root: Path) -> None:
    """Each precedence statement names the entry that states it, and quotes it: both checked."""
    by_id = {entry.id: entry for entry in entries}
    manifest = (root / game.manifest).read_text(encoding="utf-8") if game.precedence else ""
    for i, rule in enumerate(game.precedence):
        if "stated_in" not in rule:
            continue
        line = line_of(manifest, r"^\s*\[\[precedence\]\]", i)
        full = f"{game.id}/{rule['stated_in']}"
        entry = by_id.get(full)
        if entry is None:
            raise InputError(game.manifest, f"precedence stated_in {rule['stated_in']!r}: no such entry", line)
        if fold(" ".join(rule["why"].split())) not in fold(entry.text):
            raise InputError(game.manifest, f"precedence why is not quoted from {full}", line)
        rule["stated_in"] = full


def duplicate_ids(games: list[GameBuild]) -> list[InputError]:
    seen: dict[str, Entry] = {}
    problems = []
    for game in games:
        for entry in game.entries:
            if entry.id in seen:
                line = entry.lines[0] if entry.lines else None
                problems.append(InputError(entry.source_file, f"duplicate entry id {entry.id}", line))
            seen[entry.id] = entry
    return problems


def build(root: Path, out: Path | None = None, progress: Progress | None = None, cache: Path | None = None) -> BuildResult:
    """Build `out` (default `root/build`) from `root/corpus`. Raises BuildError on bad input.

    `cache` is the lemma cache (default `root/.cache/lemmas.sqlite`, or $REGLES_CACHE_DIR).
    """
    progress = progress or (lambda message: None)
    out = out or root / "build"
    cache = cache or default_cache(root)
    clock = Stopwatch()
    games = read_games(root, clock, progress)
    concepts = read_concepts(root)
    with clock.stage("apply errata"):
        amend(games)
    lemmatizer = Lemmatizer(cache)
    with clock.stage("nlp"):
        # Everything linking and the search index will ask for, tagged in one pass (one spaCy
        # load, two processes); both stages then read it from memory.
        from extract.search import texts_of

        wanted = [text for game in games for text in texts_to_tag(game.entries, game.terms)]
        wanted += [text for game in games for entry in game.entries for text in texts_of(entry) if text]
        lemmatizer.tokens(wanted)
    with clock.stage("link"):
        everything = [entry for game in games for entry in game.entries]
        for game in games:
            found = resolve_explicit(game.game, game.entries, game.errata)
            found += link.attach_faq(game.game, game.entries, game.errata)
            found += link_terms(game.game, game.entries, game.terms, lemmatizer)
            for key, anomaly in found:
                game.reports[key]["anomalies"].append(anomaly.to_json())
        faq_docs = {(g.game.id, d) for g in games for d in g.game.faq_documents}
        link_concepts(everything, concepts, faq_docs)
        link.assign_urls(everything)
        link.fill_backrefs(everything)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=out.parent))
    try:
        with clock.stage("write data"):
            for game in games:
                data.write_json(staging / "data" / f"{game.game.id}.json", data.game_json(game.game, game.entries, game.errata))
            data.write_json(staging / "data" / "schema.json", data.SCHEMA)
        with clock.stage("index"):
            from extract.search import build_index

            build_index(staging / "search", everything, lemmatizer)
        lemmatizer.close()
        with clock.stage("render"):
            from extract.site import build_site

            progress("rendering the site")
            build_site(staging, games)
        report = {
            "documents": {key: value for game in games for key, value in game.reports.items()},
            "errata": {game.game.id: errata_summary(game) for game in games},
            "refs": ref_counts(everything),
            "stages": {name: round(seconds, 4) for name, seconds in clock.stages.items()},
        }
        data.write_json(staging / "report.json", report)
        swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return BuildResult(out, games, dict(clock.stages))


def amend(games: list[GameBuild]) -> None:
    """Read each game's FAQ errata, add the hand-written ones, apply them all in that order."""
    problems = []
    for game in games:
        errata = read_errata(game.game, game.entries) + game.errata
        outcome = apply_errata(game.game, game.entries, errata)
        problems.extend(outcome.problems)
        game.errata = outcome.errata
        for key, anomalies in outcome.anomalies.items():
            found = [a.to_json() for a in anomalies]
            if key in game.reports:
                game.reports[key]["anomalies"].extend(found)
            else:
                game.errata_files.setdefault(key, []).extend(found)
    if problems:
        raise BuildError(problems)


def ref_counts(entries: list[Entry]) -> dict[str, dict[str, dict[str, int]]]:
    """Per document and ref kind: how many references resolved, how many did not."""
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for entry in entries:
        for ref in entry.refs:
            kinds = counts.setdefault(f"{entry.game}/{entry.document}", {})
            tally = kinds.setdefault(ref.kind, {"resolved": 0, "unresolved": 0})
            tally["resolved" if ref.target else "unresolved"] += 1
    return counts


def errata_summary(game: GameBuild) -> dict[str, Any]:
    counts = {status: sum(e.status == status for e in game.errata) for status in ("applied", "recorded", "failed")}
    return {**counts, "failed_ids": [e.id for e in game.errata if e.status == "failed"],
            "files": game.errata_files}


def swap(staging: Path, out: Path) -> None:
    """Replace `out` by `staging` in two renames, so readers never see half a build."""
    old = out.with_name(out.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if out.exists():
        out.rename(old)
    staging.rename(out)
    if old.exists():
        shutil.rmtree(old)
