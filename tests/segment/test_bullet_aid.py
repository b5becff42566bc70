"""The bullet-aid profile (Heroscape player aid) on a few lines: `#` headings, bullets nested by
indentation and by the glyphs `\\*`, `#`, `@`, lines continued after a hard break."""

from __future__ import annotations

import pytest

from tests.helpers import assert_segments, blocks, by_key, segment_text

AID = """# AIDE DE JEU

## RECRECITER UNE ARMÉE

- **Max** nombre de points = scénario
- **Cfr p7** pour 2 ou 3 j

### - monter

- \\* compter chaque **niveau** d'élévation comme un hex

### III. Attaquer

- **qui peut attaquer?**\x20\x20
N'importe quelle fig **choisie**\x20\x20
qui se trouve à **portée**
- **attaquer**
  - \\* les fig attaquent l'une après l'autre
    - # **avantage terrain**\x20\x20
@ si le socle est plus **élevé**: +1 dé
"""
A = "aide-de-jeu/recreciter-une-armee"


def test_headings_by_their_hashes():
    result = assert_segments("bullet-aid", AID, [
        ("aide-de-jeu", "section", "AIDE DE JEU"),
        (A, "section", "RECRECITER UNE ARMÉE"),  # kept as written
        (A + "/monter", "section", "monter"),  # "### - monter": the dash is not part of the title
        (A + "/iii-attaquer", "section", "III. Attaquer"),
    ])
    entries = by_key(result)
    assert entries[A + "/monter"].parent is entries[A]


def test_bullets_nest_by_indent_and_glyph():
    result, _, _ = segment_text("bullet-aid", AID)
    entries = by_key(result)
    assert blocks(entries[A]) == [("bullet", "Max nombre de points = scénario"), ("bullet", "Cfr p7 pour 2 ou 3 j")]
    assert blocks(entries[A + "/monter"]) == [("subbullet", "compter chaque niveau d'élévation comme un hex")]
    attack = entries[A + "/iii-attaquer"].blocks
    assert [(b.type, b.depth) for b in attack] == [("bullet", 0), ("bullet", 0), ("subbullet", 1), ("subbullet", 2), ("subbullet", 3)]
    assert [b.to_json().get("depth", 0) for b in attack] == [0, 0, 0, 2, 3]  # depth written from 2 on


def test_hard_breaks_continue_the_bullet():
    result, _, _ = segment_text("bullet-aid", AID)
    first = by_key(result)[A + "/iii-attaquer"].blocks[0]
    assert first.text == "qui peut attaquer? N'importe quelle fig choisie qui se trouve à portée"
    assert first.lines == [14, 15, 16]


@pytest.mark.parametrize(("line", "expected"), [
    ("- un point", ("bullet", 0)),
    ("  - un sous-point", ("subbullet", 1)),
    ("- \\* étoile", ("subbullet", 1)),
    ("- # dièse", ("subbullet", 2)),
    ("- @ arobase", ("subbullet", 3)),
    ("@ arobase nue", ("subbullet", 3)),
])
def test_item_depths(line, expected):
    result, _, _ = segment_text("bullet-aid", f"# T\n\n{line}\n")
    block = result.entries[0].blocks[0]
    assert (block.type, block.depth) == expected


def test_a_plain_line_after_a_blank_is_a_paragraph():
    result, _, _ = segment_text("bullet-aid", "# T\n\n- un point\n\nUne phrase à part.\n")
    assert blocks(result.entries[0]) == [("bullet", "un point"), ("paragraph", "Une phrase à part.")]
