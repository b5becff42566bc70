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


# Reading input files: regular files only, no link followed inside the project, size checked first.

from extract.errors import InputError  # noqa: E402
from extract.files import read_input  # noqa: E402


def test_a_regular_file_is_read_whole(tmp_path: Path):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus/a.txt").write_bytes(b"abc\n")
    assert read_input(tmp_path / "corpus/a.txt", "corpus/a.txt", 10, base=tmp_path) == b"abc\n"


def test_a_file_over_its_limit_is_refused_before_reading(tmp_path: Path):
    (tmp_path / "a.txt").write_bytes(b"x" * 2048)
    with pytest.raises(InputError, match=r"^a.txt: 2,048 bytes, over the limit of 1,024 bytes"):
        read_input(tmp_path / "a.txt", "a.txt", 1024)


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/hostname", "inside.txt"])
def test_no_link_is_followed_under_the_base(tmp_path: Path, target: str):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus/inside.txt").write_bytes(b"ok\n")
    (tmp_path / "corpus/link.txt").symlink_to(target)
    with pytest.raises(InputError, match=r"^corpus/link.txt: a symbolic link: links are not followed"):
        read_input(tmp_path / "corpus/link.txt", "corpus/link.txt", 1 << 20, base=tmp_path)


def test_a_linked_folder_is_not_followed_either(tmp_path: Path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/game.toml").write_bytes(b"id = 'x'\n")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus/demo").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(InputError, match=r"^corpus/demo/game.toml: corpus/demo is a symbolic link"):
        read_input(tmp_path / "corpus/demo/game.toml", "corpus/demo/game.toml", 1 << 20, base=tmp_path)


def test_special_files_are_refused_by_type(tmp_path: Path):
    import os

    os.mkfifo(tmp_path / "fifo.txt")
    with pytest.raises(InputError, match=r"^fifo.txt: a FIFO \(named pipe\), not a regular file"):
        read_input(tmp_path / "fifo.txt", "fifo.txt", 1 << 20)  # would block forever if opened for reading
    with pytest.raises(InputError, match=r"^zero: a character device, not a regular file"):
        read_input(Path("/dev/zero"), "zero", 1 << 20)
    with pytest.raises(InputError, match=r"^dir: a folder, not a regular file"):
        read_input(tmp_path, "dir", 1 << 20)
    with pytest.raises(InputError, match=r"^none: no such file"):
        read_input(tmp_path / "none", "none", 1 << 20)
