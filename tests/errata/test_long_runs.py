"""The errata reader's patterns on long runs of spaces: the same readings as on short ones, at once
(an instruction across a long run: tests/errata/test_instruction.py).

Before they were made linear, each of these took seconds to minutes (quadratic in the run)."""

from __future__ import annotations

import time

import pytest

from extract.errata.locators import NAMED_PAGE, parse_heading
from extract.errata.passages import CHROME, normalise

RUN = " " * 50_000
BUDGET = 2.0  # CPU seconds for all the readings of one case; a quadratic pattern needs minutes


@pytest.fixture
def budget() -> object:
    start = time.process_time()
    yield
    assert time.process_time() - start < BUDGET


@pytest.mark.usefixtures("budget")
@pytest.mark.parametrize("gap", [" ", RUN])
def test_a_heading_reads_the_same_across_a_long_run(gap: str) -> None:
    hint = parse_heading(f"Ligne de Vue{gap}, page 13, section 49{gap}")
    assert (hint.name, hint.page, hint.sections) == ("Ligne de Vue", 13, ("49",))


@pytest.mark.usefixtures("budget")
@pytest.mark.parametrize("gap", [" ", RUN])
def test_named_items_and_page_chrome_across_a_long_run(gap: str) -> None:
    named = NAMED_PAGE.match(f"-{gap}Prince{gap}(p. 61)")
    assert named is not None and named.group("t") == "Prince"
    assert any(p.fullmatch(f"{gap}12{gap}") for p in CHROME)
    assert any(p.fullmatch(f"{gap}• merci{gap}3{gap}") for p in CHROME)
    assert not any(p.fullmatch(f"{gap}• merci{gap}3{gap}x") for p in CHROME)
    assert normalise(f"“a{gap}”") == f"«a{gap}»"

