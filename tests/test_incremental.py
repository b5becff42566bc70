"""Incremental builds (extract.stagecache): a rebuild reuses what its inputs did not change —
each game's reading, the search model, the site's pages — and writes the bytes a clean build of
the same corpus writes. Fast: a two-game synthetic corpus; the real corpus once (marked corpus)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from extract.pipeline import build
from tests.conftest import copy_real_corpus, make_corpus
from tools.bench_incremental import edit_one_rule, edit_source

TEXT = """Mouvement

Une figurine se déplace de trois cases au plus. Elle ne traverse pas les murs.

Combat

Une figurine attaque une figurine adjacente. Elle lance deux dés.

Moral

Une unité qui perd la moitié de ses figurines fuit vers son bord de table.
"""


def two_games(root: Path) -> Path:
    make_corpus(root, TEXT)
    other = root / "corpus" / "autre"
    shutil.copytree(root / "corpus" / "demo", other)
    manifest = other / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('id = "demo"', 'id = "autre"')
                        .replace('title = "Démo"', 'title = "Autre"'), encoding="utf-8")
    return root


def same_outputs(clean: Path, other: Path) -> None:
    """Every file byte for byte; report.json apart from its timings."""
    files = sorted(p.relative_to(clean) for p in clean.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(other) for p in other.rglob("*") if p.is_file())
    for name in files:
        if name.as_posix() == "report.json":
            first, second = (json.loads((base / name).read_text(encoding="utf-8")) for base in (clean, other))
            first.pop("stages"), second.pop("stages")
            assert first == second
        else:
            assert (clean / name).read_bytes() == (other / name).read_bytes(), name


def test_an_edit_rebuilds_its_game_and_the_outputs_are_a_clean_builds(tmp_path: Path, monkeypatch):
    root = two_games(tmp_path / "root")
    cache = tmp_path / "cache" / "lemmas.sqlite"
    first = build(root, tmp_path / "first", cache=cache)
    assert first.reused == []
    compiled = {p: p.stat().st_mtime_ns for p in (cache.parent / "templates").glob("*/*.jinja")}
    assert compiled
    again = build(root, tmp_path / "again", cache=cache)
    assert sorted(again.reused) == ["game/autre", "game/demo", "index", "render"]
    same_outputs(first.out, again.out)

    edit_source(root, "demo", "source.txt", "deux dés", "trois dés")
    from mkdocs.commands import build as mkdocs_build

    monkeypatch.setenv("REGLES_HELPERS", "off")  # the site made in this process, its pages counted here
    templated: list[str] = []  # the pages whose HTML the theme's template made again
    original = mkdocs_build._build_page
    monkeypatch.setattr(mkdocs_build, "_build_page",
                        lambda page, *a, **k: (templated.append(page.file.src_uri), original(page, *a, **k))[1])
    edited = build(root, tmp_path / "edited", cache=cache)
    monkeypatch.setattr(mkdocs_build, "_build_page", original)
    assert templated == ["demo/regles/combat/index.md"]  # every other page's HTML is the kept bytes
    assert edited.reused[0] == "game/autre"  # only the edited game is read again
    assert "game/demo" not in edited.reused and "index" not in edited.reused
    # the search's analysis of the entries the edit did not change, the edited book's included
    assert {"search/entries/autre/regles", "search/entries/demo/regles"} <= set(edited.reused)
    assert "trois dés" in (edited.out / "data" / "demo.json").read_text(encoding="utf-8")
    monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
    clean = build(root, tmp_path / "clean", cache=tmp_path / "other-cache" / "lemmas.sqlite")
    assert clean.reused == []
    # the edited build rendered from the first build's compiled templates (none compiled again,
    # so none written again); the clean one, stage cache off, kept none
    assert {p: p.stat().st_mtime_ns for p in (cache.parent / "templates").glob("*/*.jinja")} == compiled
    assert not (tmp_path / "other-cache" / "templates").exists()
    same_outputs(clean.out, edited.out)


def test_a_damaged_cache_file_is_a_miss(tmp_path: Path):
    root = two_games(tmp_path / "root")
    cache = tmp_path / "cache" / "lemmas.sqlite"
    build(root, tmp_path / "first", cache=cache)
    for path in (cache.parent / "stages" / "objects").glob("*.pickle"):
        data = bytearray(path.read_bytes())
        data[-10] ^= 0xFF
        path.write_bytes(bytes(data))
    again = build(root, tmp_path / "again", cache=cache)
    assert not [name for name in again.reused if name.startswith("game/")]
    same_outputs(tmp_path / "first", again.out)


def test_a_site_file_changed_in_place_is_not_reused(tmp_path: Path, monkeypatch):
    """The stored site shares its files with the build (hard links): one changed in place since
    makes the stage a miss, and the next build writes the clean bytes."""
    root = two_games(tmp_path / "root")
    cache = tmp_path / "cache" / "lemmas.sqlite"
    first = build(root, tmp_path / "first", cache=cache)
    page = first.out / "site" / "index.html"
    with page.open("r+b") as handle:
        handle.write(b"<!-- changed -->")
    again = build(root, tmp_path / "again", cache=cache)
    assert "render" not in again.reused and "index" in again.reused
    monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
    clean = build(root, tmp_path / "clean", cache=cache)
    same_outputs(clean.out, again.out)


@pytest.mark.corpus
def test_one_rule_edited_in_the_real_corpus_builds_as_a_clean_build(tmp_path: Path, monkeypatch):
    """Real books (the scanned one among them, whose repair keeps the others' words): built, one
    rule edited, rebuilt incrementally; every file is the bytes of a clean build of the edited
    corpus. Three of the five games: the whole corpus would triple the time and test nothing more."""
    # warm lemmas (copy_real_corpus copies the checkout's): the test is about the stage cache
    root = copy_real_corpus(tmp_path / "root", games=("battlelore", "heroscape", "warcry"))
    cache = root / ".cache"
    cache.mkdir(exist_ok=True)
    monkeypatch.setenv("REGLES_CACHE_DIR", str(cache))
    build(root, tmp_path / "first", cache=cache / "lemmas.sqlite")
    edit_one_rule(root, "heroscape")
    from extract import pipeline

    read: list[str] = []  # the games whose sources are read: the edited one only, the scanned book's
    original = pipeline.read_sources  # repair keeping the other books' word counts
    monkeypatch.setattr(pipeline, "read_sources", lambda root, game, *a: read.append(game.id) or original(root, game, *a))
    edited = build(root, tmp_path / "edited", cache=cache / "lemmas.sqlite")
    monkeypatch.setattr(pipeline, "read_sources", original)
    assert read == ["heroscape"]
    assert {f"game/{g}" for g in ("battlelore", "warcry")} <= set(edited.reused)
    assert "game/heroscape" not in edited.reused
    monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
    clean = build(root, tmp_path / "clean", cache=cache / "lemmas.sqlite")
    same_outputs(clean.out, edited.out)


def tree(base: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `base`."""
    return {p.relative_to(base).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(base.rglob("*"))}


def outputs(staging: Path, files: dict[str, str], folders: tuple[str, ...] = ()) -> None:
    for rel, text in files.items():
        (staging / rel).parent.mkdir(parents=True, exist_ok=True)
        (staging / rel).write_text(text, encoding="utf-8")
    for rel in folders:
        (staging / rel).mkdir(parents=True, exist_ok=True)


STORED = ["site", "model.json"]  # what the stage of these tests makes (some runs make no model.json)


def test_a_fresh_entry_left_by_a_killed_build_is_removed_by_the_next_one(tmp_path: Path):
    """A build killed while it made a stage's fresh entry (its helper, storing the site) leaves a
    hidden folder holding the only links to its files: the next fresh entry removes it."""
    from extract.stagecache import StageCache

    left = tmp_path / "stages" / ".render-x1y2"
    outputs(left / "out", {"site/a.html": "a"})
    (tmp_path / "staging").mkdir()
    StageCache(tmp_path / "stages").run("render", "k", tmp_path / "staging",
                                        lambda: outputs(tmp_path / "staging", {"site/b.html": "b"}), STORED)
    assert sorted(p.name for p in (tmp_path / "stages").iterdir()) == ["render"]
    assert tree(tmp_path / "stages" / "render" / "out") == {"site": None, "site/b.html": b"b"}


def test_a_stored_stage_is_brought_to_new_outputs_file_by_file(tmp_path: Path):
    """A stage run again stores its new outputs over the old entry: the files whose bytes did not
    change stay (the same file), the others are replaced, gone files and folders go, and the
    entry restores exactly the new outputs; one changed in the cache since is replaced too."""
    from extract.stagecache import StageCache

    cache = StageCache(tmp_path / "stages")
    first, second, third = (tmp_path / name for name in ("first", "second", "third"))
    for folder in (first, second, third):
        folder.mkdir()
    old = {"site/a.html": "a", "site/b.html": "b", "site/gone/c.html": "c", "site/d/e.html": "e", "model.json": "{}"}
    cache.run("render", "k1", first, lambda: outputs(first, old, ("site/empty",)), STORED)
    entry = tmp_path / "stages" / "render" / "out"
    kept, changed_in_cache = (entry / "site" / "a.html").stat().st_ino, entry / "site" / "d" / "e.html"
    changed_in_cache.unlink()
    changed_in_cache.write_text("changed", encoding="utf-8")
    new = {"site/a.html": "a", "site/b.html": "B", "site/d/e.html": "e", "site/new/f.html": "f", "site/d/g.html": "g"}
    assert not cache.run("render", "k2", second, lambda: outputs(second, new, ("site/other",)), STORED)
    assert (entry / "site" / "a.html").stat().st_ino == kept  # the same bytes: the same file, not linked again
    assert cache.run("render", "k2", third, lambda: pytest.fail("restored, not made"), STORED)
    assert tree(third) == tree(second) and tree(entry) == tree(second)
    # an update cut short leaves no key: a miss, and the next store makes the entry whole again
    (tmp_path / "stages" / "render" / "key").unlink()
    fourth = tmp_path / "fourth"
    fourth.mkdir()
    assert not cache.run("render", "k2", fourth, lambda: outputs(fourth, new, ("site/other",)), STORED)
    assert tree(entry) == tree(second)
    # a stored file rewritten with its size and mtime put back is still read again (its ctime moved)
    stored = entry / "site" / "b.html"
    before = stored.stat()
    stored.write_text("X", encoding="utf-8")  # in place (the builds' outputs linked to it change too)
    os.utime(stored, ns=(before.st_atime_ns, before.st_mtime_ns))
    probe = tmp_path / "probe"
    probe.mkdir()
    assert not cache.run("render", "k2", probe, lambda: outputs(probe, new, ("site/other",)), STORED)
    assert (entry / "site" / "b.html").read_text(encoding="utf-8") == "B"


def test_a_staged_file_linked_from_the_stored_entry_is_not_read_when_stored(tmp_path: Path, monkeypatch):
    """After an edit most staged files are links to the stored entry's files: storing the new
    outputs reads none of them (the same file: its stored sum holds, though the link moved its
    ctime); a staged file of other bytes is read, and the entry restores exactly the new outputs.
    A linked file changed in place meanwhile keeps its old sum: its next restore is a miss."""
    from extract import stagecache
    from extract.stagecache import StageCache

    cache = StageCache(tmp_path / "stages")
    first, second, third, fourth, fifth = (tmp_path / name for name in ("first", "second", "third", "fourth", "fifth"))
    for folder in (first, second, third, fourth, fifth):
        folder.mkdir()
    cache.run("render", "k1", first, lambda: outputs(first, {"site/a.html": "a", "site/b.html": "b"}, ()), STORED)
    entry = tmp_path / "stages" / "render" / "out"

    def linked(staging: Path, b: str) -> None:
        (staging / "site").mkdir()
        os.link(entry / "site" / "a.html", staging / "site" / "a.html")
        (staging / "site" / "b.html").write_text(b, encoding="utf-8")

    reads: list[str] = []
    read_bytes = Path.read_bytes
    monkeypatch.setattr(stagecache.Path, "read_bytes", lambda path: reads.append(path.name) or read_bytes(path))
    assert not cache.run("render", "k2", second, lambda: linked(second, "B"), STORED)
    assert "a.html" not in reads and "b.html" in reads
    monkeypatch.undo()
    assert cache.run("render", "k2", third, lambda: pytest.fail("restored, not made"), STORED)
    assert tree(third) == tree(second)

    def changed_in_place() -> None:
        linked(fourth, "BB")
        (fourth / "site" / "a.html").write_text("changed", encoding="utf-8")  # through the link: the entry's too

    assert not cache.run("render", "k3", fourth, changed_in_place, STORED)
    made: list[str] = []
    assert not cache.run("render", "k3", fifth, lambda: made.append("again") or outputs(
        fifth, {"site/a.html": "a", "site/b.html": "BB"}, ()), STORED)
    assert made == ["again"] and (entry / "site" / "a.html").read_text(encoding="utf-8") == "a"


def test_a_file_store_links_what_it_kept_and_writes_the_rest(tmp_path: Path):
    """FileStore: a file of the same bytes as the kept copy is that copy (a hard link), another is
    written and kept, a kept copy changed in place since (through a build's link) is not linked
    again, and the files a build did not make leave the store."""
    from extract.stagecache import FileStore

    kept = tmp_path / "kept"

    def run(out: Path, files: dict[str, bytes]) -> FileStore:
        store = FileStore(kept, out)
        for rel, data in files.items():
            store.write(rel, data)
        store.close()
        return store

    first = run(tmp_path / "first", {"g/a.json": b"a", "g/b.json": b"b", "h/c.json": b"c"})
    assert first.linked == 0 and (kept / "g" / "a.json").stat().st_ino == (tmp_path / "first/g/a.json").stat().st_ino
    second = run(tmp_path / "second", {"g/a.json": b"a", "g/b.json": b"B"})
    assert second.linked == 1 and (tmp_path / "second/g/a.json").stat().st_ino == (kept / "g/a.json").stat().st_ino
    assert (tmp_path / "second/g/b.json").read_bytes() == b"B" and (kept / "g/b.json").read_bytes() == b"B"
    assert (tmp_path / "first/g/b.json").read_bytes() == b"b"  # a kept copy is replaced, never written through
    assert not (kept / "h").exists()
    (tmp_path / "second/g/a.json").write_bytes(b"changed")  # in place: the kept copy is the same file
    third = run(tmp_path / "third", {"g/a.json": b"a", "g/b.json": b"B"})
    assert third.linked == 1 and (tmp_path / "third/g/a.json").read_bytes() == b"a"
    plain = FileStore(None, tmp_path / "plain")
    plain.write("x/y.json", b"y")
    plain.close()
    assert (tmp_path / "plain/x/y.json").read_bytes() == b"y" and plain.linked == 0


def test_a_page_showing_an_edited_faq_answer_is_made_again(tmp_path: Path, monkeypatch):
    """A topic page is kept from the last build while everything it shows is unchanged, and that
    includes what it shows of other entries: an FAQ answer edited in the FAQ changes the rule
    page it is attached to, whose own entries did not change; an erratum added to the FAQ
    deletes a rule of the book. Every file is then a clean build's."""
    from tests.errata.test_apply import corpus

    head = ("# FAQ et errata\n\n## FAQ\n\n### Engager le combat\n\nQ : Une unité engagée peut-elle fuir ?\n"
            "R : Non, voir 4.1.\n\n## Errata\n\n### Livret de règles\n\n")
    root = corpus(tmp_path / "root", "Les errata suivants s'appliquent.\n", head=head)
    cache = tmp_path / "cache" / "lemmas.sqlite"
    build(root, tmp_path / "first", cache=cache)
    for n, (old, new) in enumerate([("R : Non, voir 4.1.", "R : Non, jamais : voir 4.1."),
                                    ("Les errata suivants s'appliquent.", "La section 4.1 devrait être supprimée.")]):
        edit_source(root, "demo", "faq.md", old, new)
        monkeypatch.delenv("REGLES_STAGE_CACHE", raising=False)
        edited = build(root, tmp_path / f"edited{n}", cache=cache)
        if n == 0:
            shown = [p for p in (edited.out / "docs").rglob("*.md") if "jamais" in p.read_text(encoding="utf-8")]
            assert any("faq" not in p.relative_to(edited.out / "docs").parts for p in shown)  # the rule's page shows it
        else:
            page = edited.out / "docs" / "demo" / "regles" / "livret-de-regles" / "index.md"
            assert "regles-deleted" in page.read_text(encoding="utf-8")  # the rule's page, made again from the FAQ's erratum
        monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
        clean = build(root, tmp_path / f"clean{n}", cache=tmp_path / "other-cache" / "lemmas.sqlite")
        same_outputs(clean.out, edited.out)


def incremental_and_clean(tmp_path: Path, monkeypatch, root: Path, edits, name: str = "edited"):
    """`root` built, then each edit `(game, source, old, new)` made and built again with the
    stage cache; the last build compared with a clean build of the edited corpus."""
    cache = tmp_path / "cache" / "lemmas.sqlite"
    monkeypatch.delenv("REGLES_STAGE_CACHE", raising=False)
    build(root, tmp_path / "first", cache=cache)
    for game, source, old, new in edits:
        edit_source(root, game, source, old, new)
    edited = build(root, tmp_path / name, cache=cache)
    monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
    clean = build(root, tmp_path / f"clean-{name}", cache=tmp_path / "other-cache" / "lemmas.sqlite")
    monkeypatch.delenv("REGLES_STAGE_CACHE", raising=False)
    same_outputs(clean.out, edited.out)
    return edited


def test_emphasis_of_an_amended_rules_printed_text_renders_its_page_again(tmp_path: Path, monkeypatch):
    """An amended rule's page shows its printed text with the book's bold and italics (its
    `original_blocks`' Markdown), which its JSON does not hold: a book edit that only puts a
    printed word in bold changes the page, not the entry's JSON."""
    from tests.errata.test_apply import corpus

    root = corpus(tmp_path / "root", "Page 3, section 4.2 : remplacez « deux dés » par « trois dés ».\n")
    edited = incremental_and_clean(tmp_path, monkeypatch, root, [("demo", "livret.md", "Lancez deux dés.", "Lancez **deux** dés.")])
    assert "<strong>deux</strong>" in "".join(p.read_text(encoding="utf-8") for p in (edited.out / "docs").rglob("*.md"))


def test_a_kept_copy_replaced_between_its_check_and_its_link_is_not_linked(tmp_path: Path, monkeypatch):
    """Two builds sharing a cache: another build replaces a kept page (a new file renamed over it)
    after this one checked the kept copy's sha256 and before it links it. The build's file must
    be the bytes its key was recorded with (or made again), never the other build's."""
    from extract.stagecache import FileStore

    kept = tmp_path / "kept"
    first = FileStore(kept, tmp_path / "first")
    first.write("g/p.md", b"old page", "k1")
    first.close()
    real = os.link

    def racing(source, target, *args, **kwargs):
        if Path(source) == kept / "g" / "p.md":  # the other build's page, renamed over the kept copy
            (kept / "g" / "other").write_bytes(b"other build's page")
            os.replace(kept / "g" / "other", kept / "g" / "p.md")
        return real(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "link", racing)
    second = FileStore(kept, tmp_path / "second")
    if second.reuse("g/p.md", "k1"):
        assert (tmp_path / "second" / "g" / "p.md").read_bytes() == b"old page"
    else:
        assert not (tmp_path / "second" / "g" / "p.md").exists()
    # a file written whose bytes are those recorded: linked only if the link holds them
    (kept / "g" / "p.md").write_bytes(b"old page")
    third = FileStore(kept, tmp_path / "third")
    third.write("g/p.md", b"old page", "k1")
    assert (tmp_path / "third" / "g" / "p.md").read_bytes() == b"old page"


def test_a_kept_file_left_without_a_record_is_replaced(tmp_path: Path):
    """A build cut short before `close()` leaves kept files its record does not name: the next
    build's file of that name replaces it whole (the old file, linked from that build's output,
    keeps its bytes)."""
    from extract.stagecache import FileStore

    kept = tmp_path / "kept"
    (kept / "g").mkdir(parents=True)
    stray = kept / "g" / "a.json"
    stray.write_bytes(b"old")
    old_output = tmp_path / "old.json"
    os.link(stray, old_output)
    store = FileStore(kept, tmp_path / "out")
    store.write("g/a.json", b"new")
    store.close()
    assert stray.read_bytes() == b"new" and old_output.read_bytes() == b"old"
    again = FileStore(kept, tmp_path / "again")
    again.write("g/a.json", b"new")
    assert again.linked == 1


def test_game_files_held_until_the_site_begins_are_those_written_at_once(tmp_path: Path, monkeypatch):
    """A small corpus's game files are written once the site's Markdown is (and MkDocs begun),
    from each entry's JSON encoded and hashed first; a large one's as they are encoded, before the
    Markdown: the same bytes either way, and the site's pages keyed by the same hashes."""
    from extract import pipeline

    root = two_games(tmp_path / "root")
    monkeypatch.setenv("REGLES_HELPERS", "off")
    events: list[tuple] = []
    keyed: list[dict[str, str]] = []
    write_game_files, write_docs = pipeline.write_game_files, pipeline.write_docs

    def game_files(staging, game, *args, **kwargs):
        events.append((game.game.id, "encoded" in kwargs))
        write_game_files(staging, game, *args, **kwargs)

    def docs(staging, games, compiled=None, kept=None, digests=None):
        events.append(("docs",))
        keyed.append(dict(digests or {}))
        return write_docs(staging, games, compiled, kept, digests)

    monkeypatch.setattr(pipeline, "write_game_files", game_files)
    monkeypatch.setattr(pipeline, "write_docs", docs)
    held = build(root, tmp_path / "held", cache=tmp_path / "cache" / "lemmas.sqlite")
    assert events == [("docs",), ("autre", True), ("demo", True)]
    events.clear()
    monkeypatch.setattr(pipeline, "HELD_JSON", 10)  # less than any entry's JSON: every game written at once
    at_once = build(root, tmp_path / "at-once", cache=tmp_path / "other-cache" / "lemmas.sqlite")
    assert events == [("autre", False), ("demo", False), ("docs",)]
    assert len(keyed) == 2 and keyed[0] == keyed[1] and len(keyed[0]) == len([e for g in held.games for e in g.entries])
    same_outputs(held.out, at_once.out)
