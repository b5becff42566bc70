"""The whole build, top to bottom: load → normalise → repair (scanned books) → segment → apply
errata → facts → nlp → link → write data → index → render.

Each stage is a call into its own module. Input problems are collected across games and
reported together; nothing is written until every game has been read, and `build/` is swapped
in whole, so a failed build leaves the previous one as it was. What a stage made from inputs
whose bytes have not changed is taken from the cache (`extract.cache`): a game's reading, the
search model, the site.
"""

from __future__ import annotations

import hashlib
import os
import re
import resource
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache

from extract import urls
from extract.cache import Cache, code_key, key_of
from extract.contract.schema import SCHEMA_FILES
from extract.corpus import (
    builtin_thesaurus,
    check_sources,
    find_manifests,
    load_game,
    read_concepts,
    read_facts,
    read_icons,
    read_term_config,
    read_thesaurus,
)
from extract.corpus.icons import IconTable
from extract.corpus.terms import TermConfig
from extract.errata import apply_errata, read_errata_files, read_faqs
from extract.errata.reader import forget_reader
from extract.errata.supersedes import check_supersedes
from extract.errors import BuildError, InputError, writing
from extract.facts import verify_facts
from extract.icons import name_icons_in_entries
from extract.link import attach_faq, fill_backrefs, link_concepts, link_terms, resolve_explicit, texts_to_tag
from extract.lookup import Lookup
from extract.model import (
    Anomaly,
    Diagnostics,
    DocumentRecord,
    DocumentSpec,
    Entry,
    Erratum,
    Fact,
    GameBuild,
    GameSpec,
    Line,
    Segmentation,
)
from extract.nlp import Lemmatizer, default_cache
from extract.options import read_options
from extract.pipeline import outdir
from extract.publish import (
    SITE_OUTPUTS,
    ApiWriter,
    alias_clashes,
    game_json,
    make_site,
    place_search_model,
    write_game_json,
    write_json,
)
from extract.publish.offline import write_worker
from extract.read import Reading, read_source, read_sources
from extract.read.detect import detect
from extract.read.normalise import normalise_reading
from extract.repair import Correction, frequent_words, keep_printed, repair_lines, word_counts
from extract.search import build_index, texts_of
from extract.search.scopes import scope_names
from extract.segment import PROFILES, book_order, document_report, option_classes, segment_document
from extract.segment.choose import choose_profile
from extract.segment.detect import detect_structure
from extract.text import fold
from extract.tomlfile import line_of
from extract.versions import Step, diff_versions, errata_shifts

Progress = Callable[[str], None]
API_STAGING = "api"  # the static API, written with the game files, until the site it goes into is made


@dataclass
class BuildResult:
    out: Path
    games: list[GameBuild]
    stages: dict[str, float] = field(default_factory=dict)  # seconds per stage, on the wall clock
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds per stage, worker processes included
    reused: list[str] = field(default_factory=list)  # taken from the cache: "game/<id>", "index", "render", …

    @property
    def entry_count(self) -> int:
        return sum(len(g.entries) for g in self.games)


class Stopwatch:
    """Seconds per stage on the wall clock, and in CPU (this process's and its finished workers'):
    the benchmark fits growth on CPU seconds, which other programs on the machine barely move."""

    def __init__(self) -> None:
        self.stages: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start, cpu_start = time.perf_counter(), cpu_seconds()
        try:
            yield
        finally:
            self.stages[name] = self.stages.get(name, 0.0) + time.perf_counter() - start
            self.cpu[name] = self.cpu.get(name, 0.0) + cpu_seconds() - cpu_start


def cpu_seconds() -> float:
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def build(root: Path, out: Path | None = None, progress: Progress | None = None, cache: Path | None = None,
          notice: Progress | None = None, site_url: str | None = None, nlp: Any = None) -> BuildResult:
    """Build `out` (default `root/build`) from `root/corpus`. Raises BuildError on bad input.

    `out` must be empty, new, or a previous build (`extract.pipeline.outdir`): anything else is refused
    before any work. One build per output folder at a time (a second one waits, through
    `notice`); staging beside it, removed on every exit path; swapped in atomically.
    `cache` is the lemma cache (default `root/.cache/lemmas.sqlite`, or $REGLES_CACHE_DIR); the
    other caches are kept beside it ($REGLES_STAGE_CACHE=off: none). `site_url` is the address
    the site will be published at (canonical links, sitemap.xml). `nlp`: a spaCy model already
    loaded (`extract.nlp.load_model`), kept by a long-lived process between its builds.
    """
    progress = progress or (lambda message: None)
    notice = notice or progress
    out = outdir.target(out or root / "build")
    cache = cache or default_cache(root)
    with outdir.build_lock(out, notice), outdir.signals_interrupt():
        outdir.remove_leftovers(out)
        out = outdir.target(out)  # again, under the lock: another build may have made it meanwhile
        try:
            with closing(Lemmatizer(cache, notice, nlp)) as lemmatizer:
                return run_stages(root, out, progress, notice, site_url, lemmatizer, cache.parent)
        finally:  # whatever the exit (an error, Ctrl-C, SIGTERM): no staging of ours stays
            outdir.remove_leftovers(out)


def run_stages(root: Path, out: Path, progress: Progress, notice: Progress, site_url: str | None,
               lemmatizer: Lemmatizer, cache_dir: Path) -> BuildResult:
    """The stages in order, each reading what the one before made; `build/` replaced at the end."""
    clock = Stopwatch()
    kept = Cache(None if os.environ.get("REGLES_STAGE_CACHE") == "off" else cache_dir / "stages")
    games = read_games(root, clock, progress, cache_dir, kept)
    for line in guessed_profiles(games):
        notice(line)
    concepts, thesaurus = read_concepts(root), builtin_thesaurus() + read_thesaurus(root)
    names = search_names(games, root)
    with clock.stage("apply errata"):
        amend(games, kept)
    with clock.stage("facts"):
        check_facts(games)
    with clock.stage("nlp"):  # everything linking and the search index ask for, tagged in one pass
        wanted = nlp_texts(games)
        progress(f"lemmas of {len(set(wanted))} texts ({sum(map(len, set(wanted))) / 1e6:.1f} M characters)")
        lemmatizer.tokens(wanted)
    # A one-shot build: its errata are read and every text tagged, so spaCy (the errata reader's
    # model is the lemmas' one) is let go of: a few hundred MB. Not when earlier versions of a
    # document are still to be read for the site (`version_steps` reads their FAQs' errata).
    if not lemmatizer.given and not any(doc.versions for built in games for doc in built.game.documents):
        forget_reader()
    lemmatizer.release()
    with clock.stage("link"):
        everything = link(games, concepts, lemmatizer)
    key = key_of([root / "corpus" / "concepts.toml", root / "corpus" / "thesaurus.toml"],
                 *(game.key for game in games), base=root)
    staging = outdir.new_staging(out)
    try:
        with clock.stage("write data"):
            write_data(staging, games)
        with clock.stage("index"):
            kept.run("index", key, staging, lambda: write_index(staging, games, everything, lemmatizer, thesaurus,
                                                                names, kept), ["search"])
        with clock.stage("render"):
            kept.run("render", f"{key} {site_url or ''}", staging,
                     lambda: make_site(staging, games, site_url, compiled_templates(kept, cache_dir), progress,
                                       version_steps(root, games, kept)), SITE_OUTPUTS)
            place_search_model(staging)
            write_worker(staging / "site")  # after the model: the worker stores it too
            (staging / API_STAGING).rename(staging / "site" / "api")
        write_json(staging / "report.json", build_report(games, everything, clock))
        outdir.publish(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return BuildResult(out, games, dict(clock.stages), dict(clock.cpu), list(kept.hits))


def compiled_templates(kept: Cache, cache_dir: Path) -> FileSystemBytecodeCache | None:
    """Jinja2's cache of the site's compiled templates, beside the others (compiled code is
    executable: kept only where the stage cache is trusted too)."""
    if kept.folder is None:
        return None
    (cache_dir / "templates").mkdir(parents=True, exist_ok=True)
    return FileSystemBytecodeCache(str(cache_dir / "templates"))


@dataclass
class GameReading:
    """A game's manifest and every file of it, read (before any stage works on them)."""

    game: GameSpec
    sources: dict[str, Reading]  # by source file, as the manifest names it
    errata: list[Erratum]  # corpus/<game>/errata/*.toml
    terms: TermConfig
    facts: list[Fact]
    icons: IconTable


def read_games(root: Path, clock: Stopwatch, progress: Progress, cache_dir: Path | None = None,
               kept: Cache | None = None) -> list[GameBuild]:
    """Every game of `root/corpus`, read, repaired and segmented. `cache_dir`: where the OCR repair
    keeps its results (default `root/.cache`, or $REGLES_CACHE_DIR). `kept`: where each game's
    reading is kept between builds under its key (`game_key`): an unchanged game is not read again."""
    kept = kept or Cache(None)
    problems: list[InputError] = []
    games: list[GameBuild] = []
    manifests = find_manifests(root)
    if not manifests:
        raise BuildError([InputError("corpus", "no corpus/<game>/game.toml found")])
    specs = []
    for manifest in manifests:
        try:
            with clock.stage("load"):
                game = load_game(manifest, root, option_classes())
                check_sources(game, root)  # inside the corpus, sha256, line spans: before any reading
            specs.append((manifest, game))
        except InputError as problem:
            problems.append(problem)
        except BuildError as several:  # a manifest with several problems (its options) says them all
            problems.extend(several.problems)
    readings: dict[str, GameReading | None] = {}
    guessed: dict[str, dict[str, str]] = {}  # game id -> document id -> why its profile was chosen

    def reading_of(game: GameSpec) -> GameReading | None:
        """The game's sources and data files, read once; None (its problems noted) when they cannot be."""
        if game.id not in readings:
            readings[game.id] = None
            try:
                with clock.stage("load"):
                    raw = {doc.source for doc in game.documents if doc.profile and PROFILES[doc.profile].raw_text}
                    sources = read_sources(root, game, raw)
                    guessed[game.id] = guess_profiles(root, game, sources)
                    readings[game.id] = GameReading(game, sources, read_errata_files(root, game.id),
                                                    read_term_config(root, game.id), read_facts(root, game.id),
                                                    read_icons(root, game.id))
            except InputError as problem:
                problems.append(problem)
            except BuildError as several:
                problems.extend(several.problems)
        return readings[game.id]

    vocabulary: set[str] = set()
    words = ""
    if any(doc.ocr for _, game in specs for doc in game.documents):
        # The OCR repair keeps the words of every other book. Each game's word counts are kept
        # between builds under its manifest (which names its sources' sha256): an edit reads its
        # own game again, not every game of the corpus.
        scanned = {doc.source for _, game in specs for doc in game.documents if doc.ocr}
        counts: Counter[str] = Counter()
        for manifest, game in specs:
            books = [doc for doc in game.documents if doc.source not in scanned]
            if not books:
                continue
            with clock.stage("load"):
                name = f"ocr-words/{game.id}"
                key = key_of([manifest], *(doc.source for doc in books), base=root)
                found = kept.get(name, key)
            if found is None:
                reading = reading_of(game)
                if reading is None:  # its problems are reported
                    continue
                found = word_counts(line.text for doc in books for line in reading.sources[doc.source].lines)
                kept.put(name, key, found)
            counts.update(found)
        vocabulary = frequent_words(counts)
        words = hashlib.sha256("\n".join(sorted(vocabulary)).encode()).hexdigest()
    cache_dir = cache_dir or default_cache(root).parent
    for manifest, game in specs:
        with clock.stage("load"):
            key = game_key(root, manifest, game, words)
            found = kept.get(f"game/{game.id}", key)
        if found is not None:
            games.append(found)
            continue
        reading = reading_of(game)
        if reading is None:
            continue
        try:
            built = segment_game(root, reading, guessed.get(game.id, {}), vocabulary, cache_dir, clock, progress)
            built.key = key
            with clock.stage("load"):
                kept.put(f"game/{game.id}", key, built)  # before any later stage changes it
            games.append(built)
        except InputError as problem:
            problems.append(problem)
        except BuildError as several:
            problems.extend(several.problems)
    problems.extend(duplicate_ids(games))
    if problems:
        raise BuildError(problems)
    return games


def segment_game(root: Path, reading: GameReading, guessed: dict[str, str], vocabulary: set[str], cache_dir: Path,
                 clock: Stopwatch, progress: Progress) -> GameBuild:
    """One game's documents normalised, repaired (scanned books) and segmented into entries."""
    game = reading.game
    progress(f"{game.id}: {len(game.documents)} document(s)")
    entries: list[Entry] = []
    documents: dict[str, DocumentRecord] = {}
    diagnostics = Diagnostics()
    for doc in game.documents:
        key = f"{game.id}/{doc.id}"
        source = reading.sources[doc.source]
        if doc.id in guessed:
            diagnostics.add(key, Anomaly("profile-guessed", f"no profile in {game.manifest}:{doc.manifest_line}: "
                                         f"read with {doc.profile} ({guessed[doc.id]})"))
        done = segment_one(game, doc, source, vocabulary, reading.icons, cache_dir, clock)
        entries.extend(book_order(done.result.entries))
        documents[key] = document_report(done.lines, done.read, done.result)
        for anomaly in done.anomalies + done.result.anomalies + detect_structure(done.result, documents[key].lines_placed):
            diagnostics.add(key, anomaly)
    lookup = Lookup(game, entries)
    state_precedence(game, lookup, root)
    return GameBuild(game, entries, documents, diagnostics, written_errata=reading.errata, terms=reading.terms,
                     lookup=lookup, facts=reading.facts, icons=reading.icons.names)


@dataclass
class SegmentedDocument:
    """One document read into entries: its lines as segmented, how many were read, the
    segmentation, and the anomalies of reading and repair (the segmentation holds its own)."""

    lines: list[Line]
    read: int
    result: Segmentation
    anomalies: list[Anomaly]


def segment_one(game: GameSpec, doc: DocumentSpec, source: Reading, vocabulary: set[str], icons: Any, cache_dir: Path,
                clock: Stopwatch | None = None) -> SegmentedDocument:
    """A document of `game` normalised, repaired (a scanned book, from `vocabulary`), segmented, its
    icons named: what the build does with each document, and `regles extract --manifest` with one."""
    clock = clock or Stopwatch()
    with clock.stage("normalise"):
        lines, anomalies, read, aside = normalise_reading(source, doc)
        anomalies += detect(lines, anomalies, ocr=doc.ocr)
    repaired = None
    if doc.ocr:
        with clock.stage("repair"):
            corrections = [Correction(c["line"], c["from"], c["to"], c["reason"]) for c in doc.corrections]
            repaired = repair_lines(lines, vocabulary, corrections, cache_dir, game.manifest)
            lines = repaired.lines
            anomalies += repaired.anomalies
    with clock.stage("segment"):
        result = segment_document(game.id, doc, lines, game.manifest, source.format, aside)
        # The book's icons named (corpus/<game>/icons.toml): the same token on every page.
        anomalies += name_icons_in_entries(result.entries, icons)
    if repaired is not None:
        keep_printed(result.entries, repaired.repairs)
    return SegmentedDocument(lines, read, result, anomalies)


def guess_profiles(root: Path, game: GameSpec, sources: dict[str, Reading]) -> dict[str, str]:
    """The profile of each document its manifest declares without one, chosen from the
    document's own lines as `regles extract` chooses (set on the document, with its default
    options); a source a chosen profile reads as plain text is read so. Document id -> why."""
    why: dict[str, str] = {}
    for doc in game.documents:
        if doc.profile:
            continue
        reading = sources[doc.source]
        lines = [ln for ln in reading.lines if ln.no >= doc.first_line and (doc.last_line is None or ln.no <= doc.last_line)]
        doc.profile, why[doc.id] = choose_profile(lines, reading.evidence, reading.format)
        doc.options = read_options(option_classes()[doc.profile], {})
        if PROFILES[doc.profile].raw_text and reading.format == "markdown":
            sources[doc.source] = read_source(root, doc.source, game.sources[doc.source], True,
                                              game.source_pages.get(doc.source), game.source_encodings.get(doc.source))
    return why


def guessed_profiles(games: list[GameBuild]) -> list[str]:
    """One line per document read with a profile its manifest does not name (read again or kept)."""
    return [f"{where}: {anomaly.detail}" for game in games for where in game.diagnostics.places()
            for anomaly in game.diagnostics.of(where) if anomaly.kind == "profile-guessed"]


DATA_FILES = ("game.toml", "terms.toml", "facts.toml", "icons.toml")  # a game folder's files the build reads


def game_key(root: Path, manifest: Path, game: GameSpec, vocabulary: str) -> str:
    """What a game's reading is made of: the code, its manifest and data files (errata, terms,
    facts, icons), its sources (their sha256, which the manifest declares and the build checked),
    and, for a game with a scanned book, the OCR vocabulary (the words of every other book) its
    repair keeps. Only these files are hashed: the game's folder is not walked."""
    folder = manifest.parent
    errata = folder / "errata"
    files = [folder / name for name in DATA_FILES] + (sorted(errata.glob("*.toml")) if errata.is_dir() else [])
    extra = [f"{source} {digest}" for source, digest in sorted(game.sources.items())]
    if any(doc.ocr for doc in game.documents):
        extra.append(vocabulary)
    return key_of(files, *extra, base=root)


def state_precedence(game: GameSpec, lookup: Lookup, root: Path) -> None:
    """Each precedence statement names the entry that states it, and quotes it: both checked."""
    by_id = lookup.by_id
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


def link(games: list[GameBuild], concepts: Any, lemmatizer: Lemmatizer) -> list[Entry]:
    """References resolved, FAQ answers attached, terms and concepts linked, addresses given,
    back-references filled; every entry of every game, in order."""
    everything = [entry for game in games for entry in game.entries]
    for game in games:
        assert game.lookup is not None
        game.diagnostics.extend(resolve_explicit(game.lookup, game.errata))
        game.diagnostics.extend(attach_faq(game.lookup, game.errata))
        game.diagnostics.extend(link_terms(game.lookup, game.terms, lemmatizer))
    faq_docs = {(g.game.id, d) for g in games for d in g.game.faq_documents}
    kinds = {(g.game.id, d.id): d.kind for g in games for d in g.game.documents}
    link_concepts(everything, concepts, faq_docs, kinds)
    urls.assign_urls(everything)
    for game in games:  # said here, not while rendering: a site taken from the cache says it too
        game.diagnostics.extend(alias_clashes(game.entries))
    fill_backrefs(everything)
    for entry in everything:
        entry.forget_ref_keys()  # linking is done
    return everything


def write_data(staging: Path, games: list[GameBuild]) -> None:
    """Each game's file in `staging/data`, their schemas, and each entry's file of the static API
    (`staging/api`, moved into the site once it is made): each entry's JSON encoded once for both."""
    for game in games:
        writer = ApiWriter(staging / API_STAGING, game.game.id)
        with writing(f"data/{game.game.id}.json, the data of game {game.game.id}"):
            write_game_json(staging / "data" / f"{game.game.id}.json", game.game, game.entries, game.errata, game.facts,
                            each=writer.entry)
        writer.close(game_json(game.game, [], game.errata, game.facts))
    for path, schema in SCHEMA_FILES.values():
        write_json(staging / path, schema)


def write_index(staging: Path, games: list[GameBuild], everything: list[Entry], lemmatizer: Lemmatizer,
                thesaurus: list[Any], names: dict[str, list[str]], kept: Cache) -> None:
    """The search model of every entry in `staging/search`; each text's analysis kept between
    builds under the code's key (an edit analyses its own texts again only)."""
    synonyms = thesaurus + [(*s, game.game.id) for game in games for s in game.terms.synonyms]
    labels = {**{g.game.id: g.game.title for g in games},
              **{f"{g.game.id}/{d.id}": d.title for g in games for d in g.game.documents}}
    document_kinds = {f"{g.game.id}/{d.id}": d.kind for g in games for d in g.game.documents}
    scanned = {f"{g.game.id}/{d.id}" for g in games for d in g.game.documents if d.ocr}
    build_index(staging / "search", everything, lemmatizer, synonyms, names, labels, document_kinds,
                kept.keyed(code_key()), scanned, scope_names(g.game for g in games),
                {e.source for g in games for e in g.errata})


def nlp_texts(games: list[GameBuild]) -> list[str]:
    """Every text linking and the search index will ask the lemmatizer for."""
    wanted = [text for game in games for text in texts_to_tag(game.entries, game.terms)]
    return wanted + [text for game in games for entry in game.entries for text in texts_of(entry) if text]


def search_names(games: list[GameBuild], root: Path) -> dict[str, list[str]]:
    """Other names of entries for the search (`[names]` and `[aliases]` of each `terms.toml`);
    a name given to no entry is an error naming the file and line."""
    found: dict[str, list[str]] = {}
    problems = []
    for game in games:
        aliases = {f"{game.game.id}/{target}": [phrase] for phrase, target in game.terms.aliases.items()}
        for entry_id, extra in [*game.terms.names.items(), *aliases.items()]:
            if game.lookup is None or game.lookup.by_id.get(entry_id) is None:
                raw = (root / game.terms.file).read_text(encoding="utf-8") if game.terms.file else ""
                short = entry_id.split("/", 1)[1]
                problems.append(InputError(game.terms.file or game.game.manifest, f"{short!r}: no such entry in {game.game.id}",
                                           line_of(raw, rf'=\s*.*"{re.escape(short)}"')))
                continue
            found.setdefault(entry_id, []).extend(extra)
    if problems:
        raise BuildError(problems)
    return found


def amend(games: list[GameBuild], kept: Cache | None = None) -> None:
    """Read each game's FAQ errata, add the hand-written ones, apply them all in that order.
    `kept`: where the errata reader's readings are kept between builds."""
    problems = []
    for game in games:
        written, unread = read_faqs(game.game, game.entries, kept)
        errata = written + game.written_errata
        problems.extend(check_supersedes(errata))
        for key, anomalies in unread.items():
            for anomaly in anomalies:
                game.diagnostics.add(key, anomaly)
        outcome = apply_errata(game.lookup, errata)
        problems.extend(outcome.problems)
        game.errata = outcome.errata
        for key, anomalies in outcome.anomalies.items():
            for anomaly in anomalies:
                game.diagnostics.add(key, anomaly)
    if problems:
        raise BuildError(problems)


def check_facts(games: list[GameBuild]) -> None:
    """Every fact against the current text; a fact that states nothing true stops the build."""
    problems = []
    for game in games:
        found, wrong = verify_facts(game.lookup, game.errata, game.facts)
        game.diagnostics.extend(found)
        problems.extend(wrong)
    if problems:
        raise BuildError(problems)


def build_report(games: list[GameBuild], everything: list[Entry], clock: Stopwatch) -> dict[str, Any]:
    """`build/report.json`: per document, its line accounting and every anomaly found in it; per
    game, the errata; refs per kind; seconds per stage."""
    documents = {}
    for game in games:
        for key, record in game.documents.items():
            documents[key] = {
                "lines_read": record.lines_read, "lines_placed": record.lines_placed,
                "lines_set_aside": record.lines_set_aside,
                "set_aside": [item.to_json() for item in record.set_aside],
                "anomalies": [anomaly.to_json() for anomaly in game.diagnostics.of(key)],
            }
    return {
        "documents": documents,
        "errata": {game.game.id: errata_summary(game) for game in games},
        "facts": {game.game.id: {"holds": sum(f.status == "holds" for f in game.facts),
                                 "stale": [{"id": f.id, "entry": f.entry, "errata": f.errata, "reason": f.reason}
                                           for f in game.facts if f.status == "stale"]} for game in games if game.facts},
        "refs": ref_counts(everything),
        "stages": {name: round(seconds, 4) for name, seconds in clock.stages.items()},
    }


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
    files = {where: [a.to_json() for a in game.diagnostics.of(where)]
             for where in game.diagnostics.places() if where not in game.documents}
    unread = sum(a.kind == "erratum-not-understood" for where in game.documents for a in game.diagnostics.of(where))
    return {**counts, "not_understood": unread, "failed_ids": [e.id for e in game.errata if e.status == "failed"], "files": files}


def version_entries(root: Path, game: GameSpec, doc: DocumentSpec) -> list[dict[str, Any]]:
    """One version of a document (`doc` with that version's source and lines) read, normalised and
    segmented as the build reads the document, before errata and without the OCR repair a scanned
    book gets; its entries as the game file has them (extract.versions compares them)."""
    from extract.publish.data import entry_json

    return [entry_json(e) for e in read_version(root, game, doc)]


def read_version(root: Path, game: GameSpec, doc: DocumentSpec) -> list[Entry]:
    """The entries of `doc` (one of its versions) in book order, read as `version_entries` says."""
    raw_text = bool(doc.profile) and PROFILES[doc.profile].raw_text
    reading = read_source(root, doc.source, game.sources.get(doc.source), raw_text, game.source_pages.get(doc.source),
                          game.source_encodings.get(doc.source))
    if not doc.profile:
        doc = replace(doc, profile=choose_profile(reading.lines, reading.evidence, reading.format)[0])
    lines, _, _, aside = normalise_reading(reading, doc)
    return book_order(segment_document(game.id, doc, lines, game.manifest, reading.format, aside).entries)


def version_errata(root: Path, game: GameSpec, doc: DocumentSpec, kept: Cache | None = None) -> list[dict[str, Any]]:
    """The game's errata (its FAQs' and its errata files') applied to the game whose document
    `doc.id` is at the version `doc` says, every other document at its current one, each read as
    `version_entries` reads it: what `regles diff` compares to say which errata a version newly
    takes (a rulebook whose wording moved under an erratum, or a FAQ that announces new ones).
    Each erratum as the game file has it, with its status and reason, and `changes_text`: whether
    it changed its target's text in that version (an erratum applied to a text that already says
    what it asks changes nothing: the version took it in). `kept`: the build's cache, where the
    errata reader's readings of each version's FAQ are kept as the current FAQ's are."""
    from extract.publish.data import erratum_json

    at_version = replace(game, documents=[doc if d.id == doc.id else d for d in game.documents])
    entries = [entry for d in at_version.documents for entry in read_version(root, at_version, d)]
    written, _ = read_faqs(at_version, entries, kept)
    outcome = apply_errata(Lookup(at_version, entries), written + read_errata_files(root, game.id))
    changed = {erratum for entry in entries for erratum in entry.errata}
    return [erratum_json(e) | {"changes_text": e.id in changed} for e in outcome.errata]


def version_steps(root: Path, games: list[GameBuild], kept: Cache | None = None) -> dict[str, list[Step]]:
    """Each document listing earlier versions: one step per version to the next, oldest first, the
    last to the current text as printed (before errata, as the earlier versions are read); and in
    each step, the errata the later version newly takes or no longer takes (`version_errata`)."""
    from extract.publish.data import entry_json

    steps: dict[str, list[Step]] = {}
    for built in games:
        for doc in built.game.documents:
            if not doc.versions:
                continue
            printed = [entry_json(e) | ({"blocks": [b.to_json() for b in e.original_blocks]} if e.original_blocks else {})
                       for e in built.entries if e.document == doc.id]
            texts = [version_entries(root, built.game, replace(doc, source=v.source, first_line=v.first_line,
                                                                last_line=v.last_line)) for v in doc.versions]
            names = [{"version": v.version, "date": v.date} for v in doc.versions] + [{"version": doc.version, "date": doc.date}]
            texts.append(printed)
            errata = [version_errata(root, built.game, replace(doc, source=v.source, first_line=v.first_line,
                                                               last_line=v.last_line), kept) for v in doc.versions]
            errata.append(version_errata(root, built.game, doc, kept))
            diffs = [diff_versions(texts[n], texts[n + 1]) for n in range(len(texts) - 1)]
            steps[f"{built.game.id}/{doc.id}"] = [Step(names[n], names[n + 1], found, errata_shifts(errata[n], errata[n + 1], found.pairs))
                                                  for n, found in enumerate(diffs)]
    return steps
