"""Shared by tests/ and examples/: one build of the real corpus per test session, one spaCy model,
and the tiers.

Tiers: a test that uses the real-corpus build (`built`, or a fixture built on it, such as the
examples' `regles_build_dir`) is marked `corpus` here, at collection, and so is a test that reads
../shared (every test of a module whose `EXTERNAL` path lies there, and a test whose function
names a module global path there, such as `DEVSET`); a test that builds a corpus whole (the real
one or a small one, in this process or a child) carries the mark explicitly; the browser tests
are marked `browser`. `pytest -m "not corpus and not browser"` is then the fast unit tier: no
whole build, no third-party document, no browser."""

from __future__ import annotations

import compileall
import fcntl
import functools
import json
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED

# Test runs keep their compiled code even where PYTHONDONTWRITEBYTECODE is set: pytest's rewritten
# modules (the tests, and the package, whose pytest plugin makes pytest rewrite it), written as they
# are imported, and the package's plain bytecode, compiled once per run (below) for the `regles`
# child processes of the tests. Without it every run, every xdist worker and every child compiles
# them all again (about half the CPU of collecting the suite; 0.3 s per child). What a module does
# is the same either way.
sys.dont_write_bytecode = False


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):  # once per run, before the workers start
        compileall.compile_dir(ROOT / "extract", quiet=1)

# Fixtures that stand for the real corpus: a test using any of them (directly or through another
# fixture) is in the `corpus` tier.
CORPUS_FIXTURES = {"built"}
# Fixtures that build a small corpus whole: their tests are in the slow tier too (not unit tests).
WHOLE_BUILD_FIXTURES = CORPUS_FIXTURES | {"built_once"}


def in_shared(value: object) -> bool:
    return isinstance(value, Path) and value.resolve().is_relative_to(SHARED.resolve())


def names_in(code: types.CodeType) -> Iterator[str]:
    """The global names a function's code (and the code of the functions it defines) reads."""
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from names_in(constant)


def reads_shared(item) -> bool:
    """A test reads real third-party documents when its module names ../shared as its `EXTERNAL`,
    or when its function names a module global that is a path in ../shared (`SHARED`, `DEVSET`…)."""
    module, function = getattr(item, "module", None), getattr(item, "function", None)
    if module is None:
        return False
    if in_shared(getattr(module, "EXTERNAL", None)):
        return True
    code = getattr(function, "__code__", None)
    return code is not None and any(in_shared(vars(module).get(name)) for name in names_in(code))


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if WHOLE_BUILD_FIXTURES & set(getattr(item, "fixturenames", ())) or reads_shared(item):
            item.add_marker(pytest.mark.corpus)
    # The tests of the real-corpus build first: under xdist one worker starts that build at once
    # while the other runs the unit tests, instead of both reaching it later and one waiting.
    # Then each `xdist_group` together (the tests that load spaCy's model: one load, not one per
    # worker). Then the known-slow tests, longest first: a worker out of tests steals from the end
    # of the other's queue, so the run ends on short tests on both workers instead of one long test
    # on one. `--dist worksteal` gives the first worker the first half of this order, and a worker
    # steals only from the end of the other's queue, so the head of the order stays on one worker.
    items.sort(key=lambda item: (not CORPUS_FIXTURES & set(getattr(item, "fixturenames", ())), group_of(item) is None,
                                 group_of(item) or "", -known_seconds(item)))


def group_of(item) -> str | None:
    """The test's `xdist_group`, which the order above keeps together at the head of the run:
    pytest-xdist's own `--dist loadgroup` does not with pytest 9 (it renames a test through a
    private attribute pytest no longer reads)."""
    mark = item.get_closest_marker("xdist_group")
    return None if mark is None else str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


# Seconds each of the slowest tests took in a full run on the 2-core machine (`--durations`), by
# node id or its prefix (every case of a parametrised test). Only an order: a test missing here,
# or renamed, runs as before, after these.
KNOWN_SLOW = {
    "tests/test_facts_corpus.py::test_an_erratum_on_a_cited_rule_makes_its_fact_stale": 20,
    "tests/test_incremental.py::test_one_rule_edited_in_the_real_corpus_builds_as_a_clean_build": 19,
    "tests/test_accessibility.py::test_no_serious_or_critical_accessibility_violation[desktop": 18,
    "tests/publish/test_contract.py::test_the_real_build_passes_check": 15,
    "tests/test_pipeline.py::test_two_builds_are_byte_identical_whatever_the_hash_seed": 10,
    "tests/test_safety_output.py::test_two_builds_at_once_both_succeed": 9,
    # both tests of the module (the wheel's two): side by side, on one worker, which builds the wheel once
    "tests/test_packaging.py::": 8,
    "tests/test_safety_input.py::test_a_one_megabyte_line_builds": 7,
    "tests/test_incremental.py::test_a_page_showing_an_edited_faq_answer_is_made_again": 7,
    "tests/cli/test_watch.py::test_an_edit_is_served_rebuilt_and_a_failing_one_keeps_the_last_good_site": 6.5,
    "tests/test_docs.py::test_every_console_example_runs_as_shown[tutorial.md]": 6.5,
    "tests/test_docs.py::test_every_console_example_runs_as_shown[cli.md]": 5,
    "tests/test_devset.py::test_captain_sonar_italic_captions_over_several_lines_are_one_emphasis_run": 6,
    "tests/cli/test_trial.py::test_every_corpus_document_reads_as_in_the_build": 6,
    "tests/test_incremental.py::test_an_edit_rebuilds_its_game_and_the_outputs_are_a_clean_builds": 6,
    "tests/test_accessibility.py::test_no_serious_or_critical_accessibility_violation[phone": 6,
    "tests/test_browser.py::test_the_box_ranks_as_regles_search": 5.5,
    "tests/publish/test_contract.py::test_check_rejects_mutated_build_files": 5,
    "tests/publish/test_offline.py::test_a_changed_site_replaces_the_stored_one": 5,
    "tests/test_devset.py::test_captain_sonar_designed_pages_keep_the_headings_of_the_rules": 4.5,
    "tests/read/test_pdf_devset.py::test_deadzone_english_errata_accounts_for_every_line": 4,
    "tests/read/test_pdf_devset.py::test_captain_sonar_page_numbers_and_heading_markers": 4,
    "tests/test_repair.py::test_precision_on_a_book_that_was_not_scanned": 4,
    "tests/test_repair.py::test_results_are_cached_by_content": 3.5,
    "tests/read/test_heading_gold.py::test_headings_and_parents_match_the_documents_own_outline[ffe": 3.5,
    "tests/test_pathological_inputs.py::test_build_and_search_on_a_pathological_corpus": 3.5,
    "tests/test_document_meta.py::test_a_document_said_official_is_so_in_its_game_file_its_page_and_check": 3,
    "tests/errata/test_reader.py::test_errata_from_with_a_game_previews_where_each_lands_and_writes_nothing": 3,
}


def known_seconds(item) -> float:
    return max((seconds for prefix, seconds in KNOWN_SLOW.items() if item.nodeid.startswith(prefix)), default=0)


@pytest.fixture(scope="session")
def fixture_lemma_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("lemmas")


@pytest.fixture(autouse=True)
def shared_lemma_cache(request, monkeypatch) -> None:
    """Builds of small fixture corpora share one lemma cache for the session (loading spaCy is
    most of such a build); the real corpus keeps its own cache (`.cache/`), which is warm."""
    if request.node.get_closest_marker("corpus") is None:
        monkeypatch.setenv("REGLES_CACHE_DIR", str(request.getfixturevalue("fixture_lemma_cache")))


@pytest.fixture(scope="session", autouse=True)
def spacy_loaded_once():
    """One spaCy model for the whole session, as a long-lived process (`regles serve --watch`)
    keeps one: every build and Lemmatizer would otherwise load it again (a second or more each),
    since a build lets go of it once tagged. Held here, it is also the one errata's cue matcher
    gets (`load_model` shares a model someone holds). The model only tags; sharing it changes no
    result. The tests that load it are in the `xdist_group` "spacy" (one worker loads it)."""
    from extract.nlp import lemmas as nlp

    load = functools.cache(nlp.load_model)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(nlp, "load_model", load)
        yield


@contextmanager
def exclusive(lock: Path) -> Iterator[None]:
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_real_corpus(request, tmp_path_factory) -> Path:
    """The real corpus built once per test run: under pytest-xdist the first worker builds it in
    the run's shared temporary folder and the others wait for it and read it (tests only read
    this build)."""
    from extract.pipeline import build

    if not hasattr(request.config, "workerinput"):
        out = tmp_path_factory.mktemp("real") / "build"
        build(ROOT, out)
        return out
    shared = tmp_path_factory.getbasetemp().parent  # one per run, shared by its workers
    out, done, failed = shared / "real" / "build", shared / "real" / "done", shared / "real" / "failed"
    with exclusive(shared / "real.lock"):
        if failed.exists():  # the first worker's build failed: the others say so, not build again
            pytest.fail(f"the real corpus did not build: {failed.read_text(encoding='utf-8')}", pytrace=False)
        if not done.exists():
            try:
                build(ROOT, out)
            except Exception as exc:
                failed.parent.mkdir(parents=True, exist_ok=True)
                failed.write_text(f"{type(exc).__name__}: {exc}", encoding="utf-8")
                raise
            done.touch()
    return out


@pytest.fixture(scope="session")
def built(request, tmp_path_factory) -> dict:
    out = build_real_corpus(request, tmp_path_factory)
    games = {p.stem: json.loads(p.read_text(encoding="utf-8"))
             for p in (out / "data").glob("*.json") if p.name != "schema.json"}
    return {
        "out": out,
        "games": games,
        "entries": {e["id"]: e for g in games.values() for e in g["entries"]},
        "report": json.loads((out / "report.json").read_text(encoding="utf-8")),
        "schema": json.loads((out / "data" / "schema.json").read_text(encoding="utf-8")),
    }




@pytest.fixture(scope="session")
def server(built) -> Iterator[str]:
    """The session's site as `regles serve` serves it (text gzipped, its own 404 page), for the
    browser tests."""
    from tools.bench_site import serve_as_regles

    with serve_as_regles(built["out"] / "site") as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium under Playwright, for the browser tests (they skip without it): one per
    worker for all their modules, each test opening its own context (its own cookies, storage
    and cache), so that a launch (0.5-1 s) is not paid again by every module."""
    from tools.bench_site import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def regles_build_dir(built) -> Path:
    """The examples read their facts (the `regles_facts` fixture of extract.contract.pytest_plugin) from
    this session's build of the real corpus."""
    return built["out"]
