"""Numbered outlines as PDF conversions leave them: chapters, inline rules, and columns of bare
numbers whose texts follow below."""

from __future__ import annotations

from extract.model import DocumentSpec, Line
from extract.segment.profiles import PROFILES
from extract.segment.profiles.base import DocContext

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


WITH_CONTENTS = """# Règles

## Table des matières

1. Équipes
2. Temps-Morts
   Définitions

1. Équipes
   1.1. Chaque équipe aligne sept joueurs.
   31.2.
   Chaque équipe désigne un capitaine.
   1.4. Les remplacements sont illimités.
   Temps-Morts
   2.1. Un temps-mort dure 75 secondes.
   9Définitions
   Disque : l'objet lancé.
"""


def segment_text(text: str):
    doc = DocumentSpec("regles", "Règles", "rulebook", "", "", "x.md", 1, None, "numbered-outline", {})
    lines = [Line(n, t) for n, t in enumerate(text.splitlines(), start=1) if t.strip()]
    return PROFILES["numbered-outline"](lines, DocContext("demo", doc))


def test_the_contents_list_is_set_aside_and_names_the_chapters():
    result = segment_text(WITH_CONTENTS)
    assert [s.reason for s in result.set_aside] == ["table of contents"] * 3
    by_number = {e.number: e for e in result.entries if e.number}
    # "Temps-Morts" is printed without its number: the contents list says it is chapter 2.
    assert by_number["2"].title == "Temps-Morts" and by_number["2"].heading_lines == [14]
    assert by_number["2.1"].parent is by_number["2"]
    # "9Définitions": page 9 glued to a heading the contents list gives without a number.
    definitions = result.entries[-1]
    assert (definitions.title, definitions.number, definitions.parent) == ("Définitions", None, None)
    assert definitions.text == "Disque : l'objet lancé."
    assert not by_number["2"].blocks  # nothing of the contents list left in the last chapter


def test_a_page_number_glued_to_a_rule_number_is_removed_and_gaps_reported():
    result = segment_text(WITH_CONTENTS)
    by_number = {e.number: e for e in result.entries if e.number}
    assert by_number["1.2"].text == "Chaque équipe désigne un capitaine."  # "31.2." on page 3
    details = [a.detail for a in result.anomalies]
    assert "page number 3 glued to rule number 1.2" in details
    assert "no 1.3 in the source" in details
