"""Text printed struck through (`~~…~~`) is text the book deletes."""

from __future__ import annotations

from extract.model import Block, Entry
from extract.segment.segmenter import struck_through


def entry(*markdown: str) -> Entry:
    found = Entry("g", "d", "rule", "5.171", None, "5.171")
    found.blocks = [Block("paragraph", m.replace("~~", ""), m, lines=[10 + n]) for n, m in enumerate(markdown)]
    return found


def test_an_entry_struck_through_is_deleted_with_its_printed_text():
    struck = entry("~~Si la Ligne de Vue du tireur traverse une Ligne Rouge, il ne touche que sur un 6.~~")
    anomalies = struck_through([struck])
    assert struck.status == "deleted"
    assert struck.original_blocks and struck.original_blocks[0].text.startswith("Si la Ligne de Vue")
    assert [(a.kind, a.severity, a.lines) for a in anomalies] == [("struck-through", "warning", [10])]


def test_a_struck_passage_in_a_standing_rule_is_reported_not_deleted():
    partly = entry("Le tireur touche sur un 5. ~~Il ne touche que sur un 6.~~", "Deuxième paragraphe.")
    anomalies = struck_through([partly])
    assert partly.status == "printed" and partly.original_blocks is None
    assert anomalies[0].kind == "struck-through" and "left as printed" in anomalies[0].detail


def test_two_struck_passages_are_not_one_struck_block():
    two = entry("~~Première.~~ Entre les deux. ~~Seconde.~~")
    struck_through([two])
    assert two.status == "printed"


def test_nothing_struck_nothing_reported():
    assert struck_through([entry("Texte courant.")]) == []
