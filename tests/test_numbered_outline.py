"""Numbered outlines as PDF conversions leave them: chapters, inline rules, and columns of bare
numbers whose texts follow below."""

from __future__ import annotations

from extract.model import DocumentSpec, Line
from extract.profiles import PROFILES
from extract.profiles.base import DocContext

TEXT = """# Règles

1. Équipes
   1.1.
   1.2.
   Chaque équipe aligne sept joueurs
   pour chaque point.
   Chaque équipe désigne un capitaine.
   1.2.1.
   le capitaine parle pour l'équipe.
   1.3. Les remplacements sont illimités.
2. Le « Pull » (Engagement)
   2.1 Le jeu débute avec un « pull ».
12. est la suite d'une phrase coupée par la page.
   2.2.
"""


def segment():
    doc = DocumentSpec("regles", "Règles", "rulebook", "", "", "x.md", 1, None, "numbered-outline", {})
    lines = [Line(n, t) for n, t in enumerate(TEXT.splitlines(), start=1) if t.strip()]
    return PROFILES["numbered-outline"](lines, DocContext("demo", doc))


def test_columns_of_numbers_take_their_texts_in_order():
    result = segment()
    by_number = {e.number: e for e in result.entries if e.number}
    assert by_number["1"].title == "Équipes" and by_number["2"].title == "Le « Pull » (Engagement)"
    assert by_number["1.1"].text == "Chaque équipe aligne sept joueurs pour chaque point."
    assert by_number["1.2"].text == "Chaque équipe désigne un capitaine."
    assert by_number["1.2.1"].parent is by_number["1.2"] and by_number["1.2.1"].text.startswith("le capitaine")
    assert by_number["1.3"].text == "Les remplacements sont illimités."
    assert by_number["2.1"].parent is by_number["2"]


def test_glued_page_numbers_and_orphan_numbers_are_reported():
    result = segment()
    kinds = [a.kind for a in result.anomalies]
    assert kinds == ["page-number-removed", "number-without-text"]
    assert [s.reason for s in result.set_aside] == ["rule number whose text never came"]
    by_number = {e.number: e for e in result.entries if e.number}
    # The glued "12." goes; what follows it stays where it is read.
    assert [b.text for b in by_number["2.1"].blocks] == ["Le jeu débute avec un « pull ».",
                                                         "est la suite d'une phrase coupée par la page."]
