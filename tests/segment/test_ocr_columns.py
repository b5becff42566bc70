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


INTERLEAVED = """ACTIONS

Une action se résout ainsi: le combattant
choisit une cible visible a portée puis
lance autant de dés que ses attaques et
compare chaque résultat a l'endurance
de la cible. Les touches sont allouées
ensuite, une par une, dans l'ordre.

Un combattant peut se déplacer de sa
caractéristique de mouvement en pouces
dans n'importe quelle direction, mais
il ne peut pas traverser un autre
combattant ni finir son mouvement a
moins d'un pouce d'un ennemi, sauf
s'il effectue une action de charge.

Sinon, si un combattant utilise . Actions d'Attente et Aptitudes
l'action en tant que premiére - Si un combattant s'active une
action de son activation, on dit ' seconde fois a la phase de combat
que le combattant est en attente. | il peut utiliser une aptitude.

Même si une action de désengagement modifie la position d'un combattant,
elle n'est pas considérée comme une action de mouvement pour les aptitudes.
Cela signifie que les régles qui interagissent avec ces actions l'ignorent.
"""


def test_two_columns_read_line_by_line_are_reported_and_flagged_a_wide_box_is_not():
    from tests.helpers import segment_text

    result, _, _ = segment_text("ocr-columns", INTERLEAVED)
    found = [a for a in result.anomalies if a.kind == "columns-interleaved"]
    # the four lines holding both columns, with specks of the rule between them; the box printed
    # across the page below is as wide but has none
    assert [(a.lines, a.severity) for a in found] == [([18, 21], "warning")]
    assert "passage mal numérisé" in found[0].detail
    flagged = [e for e in result.entries if "columns-interleaved" in e.flags]
    assert flagged and all(any(18 <= n <= 21 for n in e.lines) for e in flagged)
