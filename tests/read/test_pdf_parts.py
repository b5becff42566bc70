"""The PDF reader's speed work (issues 33/34): a PDF's pages read in several processes give the
same reading as in one (`pdf_limits.in_parts`); doubled glyphs found as a plain pairwise search
finds them (`pdf_layout.dedupe`); every object still checked before the pages are read."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import random
import time
from pathlib import Path

import pytest

from extract.errors import InputError
from extract.read import pdf_limits
from extract.read.pdf import read_pdf
from extract.read.pdf_layout import dedupe
from tests.read.pdf_maker import block, new, prose, save


def book(path: Path, pages: int = 5) -> Path:
    """Pages that differ: headings of two sizes, a body size that changes from page to page (so
    the document's body size is a tie broken by the order its sizes were met), two columns on
    some pages, a glyph drawn twice on another."""
    pdf = new()
    for page in range(pages):
        pdf.add_page()
        block(pdf, 40, 40, 500, f"Chapitre {page + 1}", size=18, style="B")
        block(pdf, 40, 70, 500, f"Section {page + 1}.1", size=14, style="B")
        size = 10 if page % 2 else 11
        if page % 3 == 1:
            block(pdf, 40, 100, 240, prose(120, page) + ".", size=size)
            block(pdf, 310, 100, 240, prose(120, page + 3) + ".", size=size)
        else:
            block(pdf, 40, 100, 500, prose(200, page) + ".", size=size)
        if page == 3:
            pdf.set_font("Helvetica", size=10)
            pdf.text(40, 700, "Doublé")
            pdf.text(40.2, 700, "Doublé")
    return save(pdf, path)


def with_processes(monkeypatch, count: int) -> None:
    monkeypatch.setattr(pdf_limits, "LIMITS", dataclasses.replace(pdf_limits.LIMITS, processes=count))


@pytest.mark.parametrize("count", [2, 3])
def test_pages_read_in_several_processes_give_the_reading_of_one(tmp_path, monkeypatch, count):
    path = book(tmp_path / "book.pdf")
    with_processes(monkeypatch, 1)
    alone = read_pdf(path, "book.pdf")
    with_processes(monkeypatch, count)
    shared = read_pdf(path, "book.pdf")
    assert repr(shared) == repr(alone)
    assert alone.evidence["doubled_glyphs"] > 0 and len(alone.evidence["columns"]) == 5


def test_a_page_range_read_in_parts_is_that_range(tmp_path, monkeypatch):
    path = book(tmp_path / "book.pdf")
    with_processes(monkeypatch, 1)
    alone = read_pdf(path, "book.pdf", pages=(2, 4))
    with_processes(monkeypatch, 2)
    assert repr(read_pdf(path, "book.pdf", pages=(2, 4))) == repr(alone)
    assert {line.page for line in alone.lines} == {2, 3, 4}


def _pid_unless_bad(part: list[int]) -> list[tuple[int, int]]:
    for item in part:
        if item % 10 == 7:
            raise InputError("x.pdf", f"page {item}: bad")
    return [(item, os.getpid()) for item in part]


def test_parts_run_in_their_own_processes_and_join_in_order(monkeypatch):
    with_processes(monkeypatch, 3)
    done = pdf_limits.in_parts([1, 2, 3, 4, 5, 6], _pid_unless_bad, "x.pdf")
    assert [item for item, _ in done] == [1, 2, 3, 4, 5, 6]
    assert len({pid for _, pid in done}) == 3 and done[0][1] == os.getpid()


@pytest.mark.parametrize(("items", "first_bad"), [([1, 2, 17, 4, 27, 6], 17), ([1, 2, 3, 4, 27, 6], 27),
                                                  ([1, 7, 3, 4, 27, 6], 7)])
def test_the_error_raised_is_the_first_in_page_order(monkeypatch, items, first_bad):
    with_processes(monkeypatch, 3)
    with pytest.raises(InputError, match=f"page {first_bad}: bad"):
        pdf_limits.in_parts(items, _pid_unless_bad, "x.pdf")


def _dies(part: list[int]) -> list[int]:
    if part[0] != 1:
        os._exit(3)
    return part


def test_a_part_that_dies_is_one_line_naming_the_file(monkeypatch):
    with_processes(monkeypatch, 2)
    with pytest.raises(InputError, match=r"x\.pdf.*stopped without a result \(exit code 3\)"):
        pdf_limits.in_parts([1, 2, 3, 4], _dies, "x.pdf")


def _doubled_pairwise(chars: list[dict], tolerance: float) -> list[int]:
    """Indexes of the chars dropped: one with the same text within `tolerance` (both axes) of a
    char kept before it."""
    kept: list[dict] = []
    dropped = []
    for i, ch in enumerate(chars):
        if any(o["text"] == ch["text"] and abs(o["x0"] - ch["x0"]) <= tolerance and abs(o["top"] - ch["top"]) <= tolerance
               for o in kept):
            dropped.append(i)
        else:
            kept.append(ch)
    return dropped


@pytest.mark.parametrize("tolerance", [1.0, 0.5, 2.0])
def test_dedupe_drops_what_a_pairwise_search_drops(tolerance):
    rng = random.Random(33)
    chars = []
    for _ in range(1500):
        # clustered on a coarse grid, on and around cell edges, negative places too
        x = rng.choice([rng.uniform(-5, 60), rng.randrange(-4, 30) * tolerance + rng.choice([0, 1e-9, -1e-9, 0.5, tolerance])])
        y = rng.choice([rng.uniform(-5, 30), rng.randrange(-4, 15) * tolerance + rng.choice([0, 1e-9, -1e-9])])
        chars.append({"text": rng.choice("ab"), "x0": x, "x1": x + 5, "top": y, "bottom": y + 8})
    kept, doubled = dedupe(chars, tolerance)
    dropped = _doubled_pairwise(chars, tolerance)
    assert len(dropped) > 100
    assert [id(ch) for ch in kept] == [id(ch) for i, ch in enumerate(chars) if i not in set(dropped)]
    assert doubled == [((chars[i]["x0"] + chars[i]["x1"]) / 2, (chars[i]["top"] + chars[i]["bottom"]) / 2) for i in dropped]


def _stays(part: list[int]) -> list[int]:
    Path(os.environ["PARTS_DIR"], str(os.getpid())).write_text("")
    time.sleep(60)
    return part


def _helped(folder: str) -> None:
    os.environ["PARTS_DIR"] = folder
    pdf_limits.LIMITS = dataclasses.replace(pdf_limits.LIMITS, processes=2)
    pdf_limits.in_parts([1, 2], _stays, "x.pdf")


def _ended(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_a_helper_stops_when_the_reading_it_helps_is_killed(tmp_path):
    reading = multiprocessing.get_context("fork").Process(target=_helped, args=(str(tmp_path),))
    reading.start()
    deadline = time.monotonic() + 20
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    helper = next(int(p.name) for p in tmp_path.iterdir() if int(p.name) != reading.pid)
    reading.kill()
    reading.join()
    deadline = time.monotonic() + 10
    while not _ended(helper) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _ended(helper)
