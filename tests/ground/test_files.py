"""extract/files.py: large files written in pieces, small ones replaced whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.files import replace_with, write_pieces


def test_pieces_are_written_in_order_whatever_the_batch(tmp_path: Path):
    pieces = [f"{n}," for n in range(1000)]
    for batch in (1, 7, 4096):
        write_pieces(tmp_path / "out.json", iter(pieces), batch=batch)
        assert (tmp_path / "out.json").read_text(encoding="utf-8") == "".join(pieces)


def test_large_pieces_are_written_before_the_whole_text_is_held(tmp_path: Path):
    """A search model's pieces are large: 200 of 100,000 characters are written a megabyte or so at
    a time, never joined into one 20 MB string (the ×50 build's peak was there)."""
    import tracemalloc

    def pieces():
        for n in range(200):
            yield str(n % 10) * 100_000

    tracemalloc.start()
    try:
        write_pieces(tmp_path / "out.json", pieces())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (tmp_path / "out.json").stat().st_size == 20_000_000
    assert peak < 5_000_000, peak


def test_a_file_is_replaced_whole_or_left_as_it_was(tmp_path: Path):
    path = tmp_path / "key"
    path.write_text("old", encoding="utf-8")
    replace_with(path, lambda temp: temp.write_text("new", encoding="utf-8"))
    assert path.read_text(encoding="utf-8") == "new"

    def half(temp: Path) -> None:
        temp.write_text("ha", encoding="utf-8")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        replace_with(path, half)
    assert path.read_text(encoding="utf-8") == "new" and [p.name for p in tmp_path.iterdir()] == ["key"]
