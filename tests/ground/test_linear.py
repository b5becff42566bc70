"""Every regular expression of `extract/` runs in linear time on adversarial input (issue 37): the
patterns are collected by tools/linear.py (module globals and their tables, and the literals of
`re.<function>(…)` calls), so a new pattern is tested without being listed here. One test per
family of inputs, so that the workers of a parallel run share them."""

from __future__ import annotations

import functools
import re

import pytest

from tools import linear

FAMILIES = {family[0]: family for family in linear.FAMILIES}


@functools.cache
def every_pattern() -> tuple[linear.Pattern, ...]:
    return tuple(linear.patterns())


def test_the_collection_finds_globals_tables_and_inline_patterns() -> None:
    found = {item.where: item.pattern for item in every_pattern()}
    assert "extract.patterns.CITE" in found  # a module global
    assert any(where.startswith("extract/") and ".py:" in where for where in found)  # an inline literal
    assert len(found) > 200


def test_the_probe_tells_a_quadratic_pattern_from_a_linear_one(monkeypatch) -> None:
    # the bound a quarter of the tool's (each run over it is timed three times) and the exponential
    # pattern's run cut at twice that, not at HARD_STOP: over the bound, it fails the pattern all the
    # same, and the test does not spend a second of CPU waiting for the cut
    monkeypatch.setattr(linear, "BOUND", linear.BOUND / 4)
    monkeypatch.setattr(linear, "HARD_STOP", 2 * linear.BOUND)
    quadratic = linear.Pattern(re.compile(r"\s*,"), "quadratic")
    exponential = linear.Pattern(re.compile(r"(?:\s*[^\w\s]+)+\s*$"), "exponential")
    linear_one = linear.Pattern(re.compile(r"(?<!\s)\s*+,"), "linear")
    assert linear.probe(quadratic, FAMILIES["spaces"]) is not None
    assert linear.probe(exponential, FAMILIES["heading with leader dots"]) is not None
    assert linear.probe(linear_one, FAMILIES["spaces"]) is None


def test_a_cut_arriving_as_the_scan_ends_is_a_cut(monkeypatch) -> None:
    # the timer may fire between the scan's end and its disarming: that run was cut all the same,
    # never an exception out of the probe (a full run failed so, under load)
    arm = linear.signal.setitimer

    def late(which: int, seconds: float) -> None:
        arm(which, seconds)
        if seconds == 0:
            linear._stop(0, None)

    monkeypatch.setattr(linear.signal, "setitimer", late)
    assert linear.timed(re.compile(r"a"), "a" * 100) == linear.HARD_STOP


def test_the_growth_alone_tells_a_quadratic_pattern(monkeypatch) -> None:
    """With no bound on one run, a quadratic pattern is still told by its ×4 per doubling (the
    bound catches the costliest ones first; this one is tried at one start in 5). Sizes halved: this
    pattern's ×4 per doubling shows as well from 512 characters to 8 KB, its 8 KB run well over
    FLOOR, and the seven rounds of timing cost a quarter (0.5 s of CPU, not 2)."""
    monkeypatch.setattr(linear, "BOUND", linear.HARD_STOP)
    monkeypatch.setattr(linear, "SIZES", tuple(size // 2 for size in linear.SIZES))
    slow = linear.probe(linear.Pattern(re.compile(r"(?:voir )*,"), "quadratic"), FAMILIES["voir"])
    assert slow is not None and "per doubling" in slow.reason, slow
    assert linear.probe(linear.Pattern(re.compile(r"(?<!voir )(?:voir )*+,"), "linear"), FAMILIES["voir"]) is None


@pytest.mark.parametrize("family", FAMILIES)
def test_every_pattern_is_linear_on_the_family(family: str) -> None:
    missed = [slow for item in every_pattern() if (slow := linear.probe(item, FAMILIES[family]))]
    assert not missed, "\n".join(f"{slow.where}: {slow.reason}: {slow.source[:120]}" for slow in missed)
