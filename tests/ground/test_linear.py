"""Every regular expression of `extract/` runs in linear time on adversarial input (issue 37): the
patterns are collected by tools/linear.py (module globals and their tables, and the literals of
`re.<function>(…)` calls), so a new pattern is tested without being listed here."""

from __future__ import annotations

import re

from tools import linear


def test_the_collection_finds_globals_tables_and_inline_patterns() -> None:
    found = {item.where: item.pattern for item in linear.patterns()}
    assert "extract.patterns.CITE" in found  # a module global
    assert any(where.startswith("extract/") and ".py:" in where for where in found)  # an inline literal
    assert len(found) > 200


def test_the_probe_tells_a_quadratic_pattern_from_a_linear_one() -> None:
    quadratic = linear.Pattern(re.compile(r"\s*,"), "quadratic")
    exponential = linear.Pattern(re.compile(r"(?:\s*[^\w\s]+)+\s*$"), "exponential")
    linear_one = linear.Pattern(re.compile(r"(?<!\s)\s*+,"), "linear")
    spaces = next(family for family in linear.FAMILIES if family[0] == "spaces")
    leader = next(family for family in linear.FAMILIES if family[0] == "heading with leader dots")
    assert linear.probe(quadratic, spaces) is not None
    assert linear.probe(exponential, leader) is not None
    assert linear.probe(linear_one, spaces) is None


def test_every_pattern_is_linear_on_every_family() -> None:
    missed = linear.slow_patterns()
    assert not missed, "\n".join(f"{slow.where} on {slow.family}: {slow.reason}: {slow.source[:120]}" for slow in missed)
