"""The whole build, top to bottom: load → normalise → repair (scanned books) → segment → apply errata → nlp → link →
write data → index → render.

Each stage is a call into its own module. Input problems are collected across games and
reported together; nothing is written until every game has been read, and `build/` is swapped
in whole, so a failed build leaves the previous one as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import resource
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import Any

from extract import outdir, urls
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
from extract.errata import apply_errata, read_errata_files, read_faqs
from extract.errors import BuildError, InputError, writing
from extract.facts import verify_facts
from extract.helper import Helper
from extract.icons import name_icons_in_entries
from extract.link import attach_faq, fill_backrefs, link_concepts, link_terms, resolve_explicit, texts_to_tag
from extract.lookup import Lookup
from extract.model import Anomaly, Diagnostics, DocumentRecord, DocumentSpec, Entry, GameBuild, GameSpec
from extract.nlp import Lemmatizer, default_cache
from extract.options import read_options
from extract.publish import (
    ApiWriter,
    TemplateCache,
    alias_clashes,
    encode_entries,
    game_json,
    make_site,
    place_search_model,
    prepare_site,
    site_job,
    warm_site,
    write_docs,
    write_game_json,
    write_json,
)
from extract.publish.offline import write_worker
from extract.read import Reading, read_source, read_sources
from extract.read.detect import detect
from extract.read.normalise import normalise_reading
from extract.repair import Correction, frequent_words, keep_printed, repair_lines, word_counts
from extract.schema import SCHEMA_FILES
from extract.search import build_index, texts_of
from extract.segment import PROFILES, book_order, document_report, option_classes, segment_document
from extract.segment.choose import choose_profile
from extract.segment.detect import detect_structure
from extract.stagecache import FileStore, ObjectCache, StageCache, code_key, folder_key, inputs_key
from extract.text import fold
from extract.tomlfile import line_of
from extract.versions import Step, diff_versions

Progress = Callable[[str], None]
API_STAGING = "api"  # the static API, written with the game files, until the site it goes into is made


@dataclass
class BuildResult:
    out: Path
    games: list[GameBuild]
    stages: dict[str, float] = field(default_factory=dict)  # seconds per stage, on the wall clock
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds per stage, worker processes included
    reused: list[str] = field(default_factory=list)  # from the stage cache: "game/<id>", "index", "render", "search/entries/…"

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


def read_games(root: Path, clock: Stopwatch, progress: Progress, cache_dir: Path | None = None,
               objects: ObjectCache | None = None) -> list[GameBuild]:
    """`cache_dir`: where the OCR repair caches its results (default `root/.cache`, or
    $REGLES_CACHE_DIR). `objects`: where each game's reading is kept between builds, keyed by
    the game's files and the code (`game_key`): an unchanged game is not read again."""
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
    readings: dict[str, tuple | None] = {}
    guessed: dict[str, dict[str, str]] = {}  # game id -> document id -> why its profile was chosen

    def reading_of(game: GameSpec) -> tuple | None:
        """The game's sources and data files, read once; None (its problems noted) when they cannot be."""
        if game.id not in readings:
            readings[game.id] = None
            try:
                with clock.stage("load"):
                    raw = {doc.source for doc in game.documents if doc.profile and PROFILES[doc.profile].raw_text}
                    sources = read_sources(root, game, raw)
                    guessed[game.id] = guess_profiles(root, game, sources)
                    readings[game.id] = (game, sources, read_errata_files(root, game.id),
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
                key = hashlib.sha256("\n".join([code_key(), manifest.read_text(encoding="utf-8"),
                                                *(doc.source for doc in books)]).encode()).hexdigest()
                found = objects.get(name, key) if objects is not None else None
            if found is None:
                reading = reading_of(game)
                if reading is None:  # its problems are reported
                    continue
                found = word_counts(line.text for doc in books for line in reading[1][doc.source].lines)
                if objects is not None:
                    objects.put(name, key, found)
            counts.update(found)
        vocabulary = frequent_words(counts)
        words = hashlib.sha256("\n".join(sorted(vocabulary)).encode()).hexdigest()
    with clock.stage("load"):
        keys = {game.id: game_key(manifest, game, words) for manifest, game in specs}
        kept = {game.id: objects.get(f"game/{game.id}", keys[game.id]) for _, game in specs} if objects else {}
    loaded = []
    for _, game in specs:
        if kept.get(game.id) is not None:
            loaded.append((game, {}, [], None, [], None))
        elif (reading := reading_of(game)) is not None:
            loaded.append(reading)
    cache_dir = cache_dir or default_cache(root).parent
    for game, sources, written, terms, facts, icons in loaded:
        if kept.get(game.id) is not None:
            games.append(kept[game.id])
            continue
        try:
            progress(f"{game.id}: {len(game.documents)} document(s)")
            entries: list[Entry] = []
            documents: dict[str, DocumentRecord] = {}
            diagnostics = Diagnostics()
            for doc in game.documents:
                key = f"{game.id}/{doc.id}"
                reading = sources[doc.source]
                if doc.id in guessed.get(game.id, {}):
                    diagnostics.add(key, Anomaly("profile-guessed", f"no profile in {game.manifest}:{doc.manifest_line}: "
                                                 f"read with {doc.profile} ({guessed[game.id][doc.id]})"))
                with clock.stage("normalise"):
                    lines, anomalies, read, aside = normalise_reading(reading, doc)
                    anomalies += detect(lines, anomalies, ocr=doc.ocr)
                repaired = None
                if doc.ocr:
                    with clock.stage("repair"):
                        corrections = [Correction(c["line"], c["from"], c["to"], c["reason"]) for c in doc.corrections]
                        repaired = repair_lines(lines, vocabulary, corrections, cache_dir, game.manifest)
                        lines = repaired.lines
                        anomalies += repaired.anomalies
                with clock.stage("segment"):
                    result = segment_document(game.id, doc, lines, game.manifest, reading.format, aside)
                    # The book's icons named (corpus/<game>/icons.toml): the same token on every page.
                    anomalies += name_icons_in_entries(result.entries, icons)
                if repaired is not None:
                    keep_printed(result.entries, repaired.repairs)
                entries.extend(book_order(result.entries))
                documents[key] = document_report(lines, read, result)
                for anomaly in anomalies + result.anomalies + detect_structure(result, documents[key].lines_placed):
                    diagnostics.add(key, anomaly)
            lookup = Lookup(game, entries)
            state_precedence(game, lookup, root)
            built = GameBuild(game, entries, documents, diagnostics, written_errata=written, terms=terms, lookup=lookup,
                              facts=facts, icons=icons.names)
            if objects is not None:
                with clock.stage("load"):
                    objects.put(f"game/{game.id}", keys[game.id], built)  # before any later stage changes it
            games.append(built)
        except InputError as problem:
            problems.append(problem)
        except BuildError as several:
            problems.extend(several.problems)
    problems.extend(duplicate_ids(games))
    if problems:
        raise BuildError(problems)
    return games


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


def game_key(manifest: Path, game: GameSpec, vocabulary: str) -> str:
    """What a game's reading is made of: the code, every file of its folder (manifest, errata,
    terms, facts, sources), its sources elsewhere (their sha256, checked), and, for a game with a
    scanned book, the OCR vocabulary (the words of every other book) its repair keeps."""
    extra = [f"{source} {digest}" for source, digest in sorted(game.sources.items())]
    if any(doc.ocr for doc in game.documents):
        extra.append(vocabulary)
    return folder_key(manifest.parent, *extra)


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


def build(root: Path, out: Path | None = None, progress: Progress | None = None, cache: Path | None = None,
          notice: Progress | None = None, site_url: str | None = None) -> BuildResult:
    """Build `out` (default `root/build`) from `root/corpus`. Raises BuildError on bad input.

    `out` must be empty, new, or a previous build (`extract.outdir`): anything else is refused
    before any work. One build per output folder at a time (a second one waits, through
    `notice`); staging beside it, removed on every exit path; swapped in atomically.
    `cache` is the lemma cache (default `root/.cache/lemmas.sqlite`, or $REGLES_CACHE_DIR).
    `site_url` is the address the site will be published at (canonical links, sitemap.xml).
    """
    progress = progress or (lambda message: None)
    notice = notice or progress
    out = outdir.target(out or root / "build")
    with outdir.build_lock(out, notice), outdir.signals_interrupt():
        outdir.remove_leftovers(out)
        out = outdir.target(out)  # again, under the lock: another build may have made it meanwhile
        try:
            return _build(root, out, progress, cache or default_cache(root), notice, site_url)
        finally:  # whatever the exit (an error, Ctrl-C, SIGTERM): no staging of ours stays
            outdir.remove_leftovers(out)


def _build(root: Path, out: Path, progress: Progress, cache: Path, notice: Progress,
           site_url: str | None = None) -> BuildResult:
    with ExitStack() as ending:  # whatever the exit, the lemma cache is closed and helper processes end
        lemmatizer = Lemmatizer(cache, notice)
        ending.callback(lemmatizer.close)
        return _build_with(root, out, progress, cache, notice, site_url, lemmatizer, ending)


def _build_with(root: Path, out: Path, progress: Progress, cache: Path, notice: Progress, site_url: str | None,
                lemmatizer: Lemmatizer, ending: ExitStack) -> BuildResult:
    clock = Stopwatch()
    stage_folder = None if os.environ.get("REGLES_STAGE_CACHE") == "off" else cache.parent / "stages"
    objects = ObjectCache(stage_folder / "objects" if stage_folder else None)
    stages = StageCache(stage_folder)
    key = inputs_key(root)
    render_key = f"{key} {site_url or ''}"
    site_helper = None
    if not stages.holds("render", render_key):
        # Inputs changed since the last build: helper processes (extract.helper), forked now while
        # this one is small, load meanwhile the tagger for the texts that changed and, once it is
        # done, MkDocs, which then makes the site while this process writes the search index.
        lemmatizer.expect_new_texts()
        site_helper = ending.enter_context(closing(site_helper_process()))
    games = read_games(root, clock, progress, cache.parent, objects)
    for line in guessed_profiles(games):
        notice(line)
    concepts = read_concepts(root)
    thesaurus = builtin_thesaurus() + read_thesaurus(root)
    names = search_names(games, root)
    with clock.stage("apply errata"):
        amend(games)
    with clock.stage("facts"):
        check_facts(games)
    with clock.stage("nlp"):
        # Everything linking and the search index will ask for, tagged in one pass (one spaCy
        # load, two processes); both stages then read it from memory.
        wanted = nlp_texts(games)
        progress(f"lemmas of {len(set(wanted))} texts ({sum(map(len, set(wanted))) / 1e6:.1f} M characters)")
        lemmatizer.tokens(wanted)
        lemmatizer.release()
    warmed = site_helper.begin(warm_site) if site_helper is not None else None  # MkDocs loads there meanwhile
    with clock.stage("link"):
        everything = [entry for game in games for entry in game.entries]
        for game in games:
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
    staging = outdir.new_staging(out)
    try:
        api = staging / API_STAGING
        api_files = FileStore(stage_folder / "api" if stage_folder else None, api)
        with clock.stage("write data"):
            # Each entry's JSON is encoded once, for its game's file and its file of the static API
            # (moved into the site once it is made), and hashed: what the site's pages are keyed by.
            digests, held = encode_data(staging, games, api_files)
            for path, schema in SCHEMA_FILES.values():
                write_json(staging / path, schema)
        # The search model and the site are copied from the cache when nothing they are made of
        # changed (extract.stagecache): the same bytes, without the work. Otherwise MkDocs makes
        # and stores the site in the site's helper process while this one writes the game files
        # it held back and the search index; the search model is placed in the site after both.

        def index() -> None:
            progress("writing the search index")
            synonyms = thesaurus + [(*s, game.game.id) for game in games for s in game.terms.synonyms]
            labels = {**{g.game.id: g.game.title for g in games},
                      **{f"{g.game.id}/{d.id}": d.title for g in games for d in g.game.documents}}
            document_kinds = {f"{g.game.id}/{d.id}": d.kind for g in games for d in g.game.documents}
            scanned = {f"{g.game.id}/{d.id}" for g in games for d in g.game.documents if d.ocr}
            build_index(staging / "search", everything, lemmatizer, synonyms, names, labels, document_kinds,
                        objects.keyed(code_key()), scanned)

        site_made = None
        with clock.stage("render"):
            if not stages.restore("render", render_key, staging):
                progress("rendering the site")
                # compiled templates are executable: kept only where the stage cache is trusted too
                templates = (cache.parent / "templates", code_key()) if stage_folder else None
                steps = version_steps(root, games)  # documents with earlier versions: what each changed
                write_docs(staging, games, TemplateCache(*templates) if templates else None,
                           stage_folder / "docs" if stage_folder else None, digests if stage_folder else None,
                           **({"steps": steps} if steps else {}))
                site_helper = site_helper or ending.enter_context(closing(site_helper_process()))
                if warmed is not None:
                    with suppress(Exception):  # a helper lost while warming is said by the site's request
                        warmed.result()
                # made, then stored, by the helper: the index is written here meanwhile
                site_made = site_helper.begin(make_site, site_job(staging, games, site_url, stage_folder, templates,
                                                                  render_key))
        with clock.stage("write data"):
            write_held(staging, held, api_files)
        with clock.stage("index"):
            stages.run("index", key, staging, index, ["search"])
        lemmatizer.close()
        with clock.stage("render"):  # the helper's time and CPU beyond the index's: waited for here
            if site_made is not None:
                site_made.result()
                assert site_helper is not None
                site_helper.close()
            place_search_model(staging)
            write_worker(staging / "site")  # after the model: the worker stores it too
        api.rename(staging / "site" / "api")
        api_files.close()
        write_json(staging / "report.json", build_report(games, everything, clock))
        outdir.publish(staging, out)
    except BaseException:
        if site_helper is not None:
            site_helper.close()  # before its files go
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return BuildResult(out, games, dict(clock.stages), dict(clock.cpu), [*objects.hits, *stages.hits])


def site_helper_process() -> Helper:
    """The site's helper process (`prepare_site`), at a lower priority: the site is wanted last."""
    return Helper(prepare_site, niceness=5)


HELD_JSON = 8_000_000  # characters of entries' JSON held until the site begins (4.5 times the corpus's)


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_game_files(staging: Path, game: GameBuild, api_files: FileStore, digests: dict[str, str] | None = None,
                     encoded: Iterable[tuple[dict[str, Any], str]] | None = None) -> None:
    """The game's file in `staging/data` and its entries' files of the static API (`api_files`),
    from each entry's JSON text (`encoded`, in order, or encoded here); `digests` gets each
    text's hash."""
    writer = ApiWriter(api_files, game.game.id)

    def each(data: dict[str, Any], text: str) -> None:
        writer.entry(data, text)
        if digests is not None:
            digests[data["id"]] = text_digest(text)

    with writing(f"data/{game.game.id}.json, the data of game {game.game.id}"):
        write_game_json(staging / "data" / f"{game.game.id}.json", game.game, game.entries, game.errata, game.facts,
                        each=each, encoded=encoded)
    writer.close(game_json(game.game, [], game.errata, game.facts))


Held = list[tuple[GameBuild, list[tuple[dict[str, Any], str]]]]  # games, each entry's JSON text (and what the API reads)


def encode_data(staging: Path, games: list[GameBuild], api_files: FileStore) -> tuple[dict[str, str], Held]:
    """Each entry's JSON encoded and hashed (`text_digest`, by id). The games whose entries' JSON
    makes at most HELD_JSON characters in all are held (their texts, and of their data what the
    API's index reads), written by `write_held` once MkDocs has begun in its helper: the site
    waits for the hashes, not for the files. A larger corpus's other games are written now
    (`write_game_files`), one entry's JSON in memory at a time."""
    room = HELD_JSON
    digests: dict[str, str] = {}
    held: Held = []
    for game in games:
        encoded: list[tuple[dict[str, Any], str]] = []
        entries = iter(game.entries)
        if room > 0:
            for data, text in encode_entries(entries):
                encoded.append(({k: data.get(k) for k in ApiWriter.READS}, text))
                digests[data["id"]] = text_digest(text)
                room -= len(text)
                if room <= 0:
                    break
        if room > 0:
            held.append((game, encoded))
        else:  # written now: what was encoded of the game, then its other entries
            write_game_files(staging, game, api_files, digests, chain(encoded, encode_entries(entries)))
    return digests, held


def write_held(staging: Path, held: Held, api_files: FileStore) -> None:
    """The files of the games whose entries' JSON was held (`write_game_files`), each let go once written."""
    while held:
        game, encoded = held.pop(0)
        write_game_files(staging, game, api_files, encoded=encoded)


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


def amend(games: list[GameBuild]) -> None:
    """Read each game's FAQ errata, add the hand-written ones, apply them all in that order."""
    problems = []
    for game in games:
        written, unread = read_faqs(game.game, game.entries)
        errata = written + game.written_errata
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

    raw_text = bool(doc.profile) and PROFILES[doc.profile].raw_text
    reading = read_source(root, doc.source, game.sources.get(doc.source), raw_text, game.source_pages.get(doc.source),
                          game.source_encodings.get(doc.source))
    if not doc.profile:
        doc = replace(doc, profile=choose_profile(reading.lines, reading.evidence, reading.format)[0])
    lines, _, _, aside = normalise_reading(reading, doc)
    result = segment_document(game.id, doc, lines, game.manifest, reading.format, aside)
    return [entry_json(e) for e in book_order(result.entries)]


def version_steps(root: Path, games: list[GameBuild]) -> dict[str, list[Step]]:
    """Each document listing earlier versions: one step per version to the next, oldest first, the
    last to the current text as printed (before errata, as the earlier versions are read)."""
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
            steps[f"{built.game.id}/{doc.id}"] = [Step(names[n], names[n + 1], diff_versions(texts[n], texts[n + 1]))
                                                  for n in range(len(texts) - 1)]
    return steps
