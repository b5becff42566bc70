"""OCR columns (Warcry) on a few lines: the chapters the manifest declares hold the headings in
capitals that follow them; the twin of tests/test_ocr_columns.py's chapter test on the book."""

from __future__ import annotations

from tests.helpers import assert_segments, blocks, by_key

BOOK = """REGLES DE BASE

Les règles de base suivent.

VISIBILITE

Une figurine voit une autre figurine.

TERRAIN

Les obstacles bloquent.

OBSTACLES

Un obstacle gêne le mouvement.

ACTIONS D'ATTAQUE |

Une attaque vise une cible.
"""
OPTIONS = {"outline": ["# REGLES DE BASE", "# TERRAIN"]}


def test_declared_chapters_hold_the_headings_after_them():
    result = assert_segments("ocr-columns", BOOK, [
        ("regles-de-base", "section", "REGLES DE BASE"),
        ("regles-de-base/visibilite", "section", "VISIBILITE"),
        ("terrain", "section", "TERRAIN"),
        ("terrain/obstacles", "section", "OBSTACLES"),
        # An undeclared heading is a section of the chapter before it; the column rule the
        # OCR read as "|" after it is removed.
        ("terrain/actions-d-attaque", "section", "ACTIONS D'ATTAQUE"),
    ], OPTIONS)
    entries = by_key(result)
    assert [e.key for e in result.entries if e.parent is None] == ["regles-de-base", "terrain"]
    assert [c.key for c in entries["terrain"].children] == ["terrain/obstacles", "terrain/actions-d-attaque"]
    assert blocks(entries["terrain/actions-d-attaque"]) == [("paragraph", "Une attaque vise une cible.")]
    assert [a.kind for a in result.anomalies] == ["column-specks-removed"]


def test_without_an_outline_every_heading_is_a_chapter():
    result = assert_segments("ocr-columns", BOOK, [
        ("regles-de-base", "section", "REGLES DE BASE"), ("visibilite", "section", "VISIBILITE"),
        ("terrain", "section", "TERRAIN"), ("obstacles", "section", "OBSTACLES"),
        ("actions-d-attaque", "section", "ACTIONS D'ATTAQUE")])
    assert all(e.parent is None for e in result.entries)
