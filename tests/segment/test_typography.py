"""A PDF line worded as a heading but printed as the text is: its typography (the white space around
it, its operators) says whether it heads anything. Lines built by hand; the PDFs drawn in
tests/segment/test_pdf_headings.py show the same on the whole chain."""

from __future__ import annotations

import pytest

from extract.model import Line
from extract.segment.profiles.typography import not_a_heading


def at(text: str, above: float | None, below: float | None, y: float = 300.0) -> Line:
    return Line(1, text, page=1, x=56.0, y=y, size=11.0, bold=False, gap_above=above, gap_below=below)


@pytest.mark.parametrize(("line", "reason"), [
    (at("Compétences", 16.6, 2.6), None),  # set apart from the text above, close to its own
    (at("Combat", None, 2.6), None),  # at the top of its column
    (at("Augmente le bonus de dégâts", None, 13.9), "spaced as evenly"),  # a grid's first row at a column's top
    (at("Augmente le bonus de dégâts", 11.5, 13.9), "spaced as evenly"),  # a row of a grid
    (at("Nom/Titre Guerrier Insecte", 1.6, 2.6), "spaced as evenly"),  # a table row under its paragraph
    (at("Dégâts infligés", -4.2, -8.7), "rows printed over each other"),  # a formula's rows
    (at("PV max + 1", 20.0, 2.0), "a formula"),
    (at("Défense = armure", None, 2.0), "a formula"),
])
def test_what_a_heading_worded_line_is_by_its_typography(line, reason):
    found = not_a_heading(line, None, False)
    assert (found is None) if reason is None else found.startswith(reason)


def test_a_line_right_under_a_heading_goes_on_its_title_block_and_one_far_below_does_not():
    title = at("Petit JDR universel", None, 2.6, y=59.5)
    assert not_a_heading(at("Règles de base", 2.6, 17.8, y=73.1), title, True) is None
    assert not_a_heading(at("Règles de base", 2.6, 17.8, y=73.1), title, False) is not None
    assert not_a_heading(at("Augmente le bonus de dégâts", 11.5, 13.9), title, True) is not None


def test_a_line_without_geometry_plain_text_or_markdown_is_left_to_the_walker():
    assert not_a_heading(Line(1, "Combat"), None, False) is None
