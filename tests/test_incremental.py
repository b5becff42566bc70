"""Incremental builds (extract.cache): a rebuild reuses what its inputs did not change — each
game's reading, the search model, the site — and writes the bytes a clean build of the same
corpus writes. Whole builds (the slow tier): a two-game synthetic corpus; the real corpus once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from extract.pipeline import build
from tests.conftest import copy_real_corpus, make_corpus
from tools.bench_incremental import edit_one_rule, edit_source

pytestmark = pytest.mark.corpus  # whole builds

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
    compiled = {p: p.stat().st_mtime_ns for p in (cache.parent / "templates").glob("*.cache")}
    assert compiled  # Jinja2's own cache of the compiled templates
    again = build(root, tmp_path / "again", cache=cache)
    assert sorted(again.reused) == ["game/autre", "game/demo", "index", "render"]
    same_outputs(first.out, again.out)

    edit_source(root, "demo", "source.txt", "deux dés", "trois dés")
    edited = build(root, tmp_path / "edited", cache=cache)
    assert edited.reused[0] == "game/autre"  # only the edited game is read again
    assert "game/demo" not in edited.reused and "index" not in edited.reused and "render" not in edited.reused
    # the search's analysis of the entries the edit did not change, the edited book's included
    assert {"search/entries/autre/regles", "search/entries/demo/regles"} <= set(edited.reused)
    assert "trois dés" in (edited.out / "data" / "demo.json").read_text(encoding="utf-8")
    monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
    clean = build(root, tmp_path / "clean", cache=tmp_path / "other-cache" / "lemmas.sqlite")
    assert clean.reused == []
    # the edited build rendered from the first build's compiled templates (none written again);
    # the clean one, stage cache off, kept none
    assert {p: p.stat().st_mtime_ns for p in (cache.parent / "templates").glob("*.cache")} == compiled
    assert not (tmp_path / "other-cache" / "templates").exists()
    same_outputs(clean.out, edited.out)


def test_a_damaged_cache_file_is_a_miss(tmp_path: Path):
    root = two_games(tmp_path / "root")
    cache = tmp_path / "cache" / "lemmas.sqlite"
    build(root, tmp_path / "first", cache=cache)
    for path in (cache.parent / "stages").glob("*/object"):
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
def test_one_rule_edited_in_the_real_corpus_builds_as_a_clean_build(built, tmp_path: Path, monkeypatch):
    """Real books (the scanned one among them, whose repair keeps the others' words): built, one
    rule edited, rebuilt incrementally; every file is the bytes of a clean build of the edited
    corpus. Three of the five games: the whole corpus would triple the time and test nothing more."""
    # warm lemmas and OCR repairs (copy_real_corpus copies the checkout's, which the session's build,
    # `built`, has filled): the test is about the stage cache, not about tagging or repairing cold
    root = copy_real_corpus(tmp_path / "root", games=("battlelore", "heroscape", "warcry"))
    cache = root / ".cache"
    cache.mkdir(exist_ok=True)
    monkeypatch.setenv("REGLES_CACHE_DIR", str(cache))
    build(root, tmp_path / "first", cache=cache / "lemmas.sqlite")
    edit_one_rule(root, "heroscape")
    edited = build(root, tmp_path / "edited", cache=cache / "lemmas.sqlite")
    # the other games taken from the cache, the scanned book's repair with the other books' kept word counts
    assert {f"game/{g}" for g in ("battlelore", "warcry")} | {"ocr-words/battlelore"} <= set(edited.reused)
    assert "game/heroscape" not in edited.reused
    monkeypatch.setenv("REGLES_STAGE_CACHE", "off")
    clean = build(root, tmp_path / "clean", cache=cache / "lemmas.sqlite")
    same_outputs(clean.out, edited.out)


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
