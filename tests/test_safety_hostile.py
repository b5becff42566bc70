"""Hostile corpus folders (issue 38): nothing read before its manifest is checked, no link
followed, special files refused by type, every failure one line naming the file, in bounded time."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from extract.cli import main
from tests.conftest import make_corpus

GOOD = "Titre\n\nUn paragraphe de règle.\n\nSection\n\nUn autre paragraphe.\n"


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """A hang becomes a failure of the test (TimeoutError) instead of a stuck suite."""

    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def build(root: Path, capsys, seconds: float = 60) -> tuple[int, str]:
    with deadline(seconds):
        code = main(["--root", str(root), "build"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("name", "make"), [
    ("loop", lambda folder: (folder / "loop").symlink_to(".")),  # the walk grew without end
    ("zero.txt", lambda folder: (folder / "zero.txt").symlink_to("/dev/zero")),  # read whole: MemoryError
    ("pipe.txt", lambda folder: os.mkfifo(folder / "pipe.txt")),  # blocked the build forever
    ("etc", lambda folder: (folder / "etc").symlink_to("/etc")),  # read: an escape from the corpus
])
def test_a_file_no_manifest_names_is_never_read(tmp_path, capsys, name, make):
    """What a game folder holds beside the files its manifest names is not read, whatever it is:
    the build ends (here, fails on the source's checksum, which proves the corpus was loaded) in
    seconds, and says nothing of the stranger."""
    root = make_corpus(tmp_path, GOOD, sha256="0" * 64)
    make(root / "corpus/demo")
    code, err = build(root, capsys, 30)
    assert code == 1 and "corpus/demo/source.txt: checksum mismatch" in err and name not in err


def moved_beside(source: Path) -> None:
    source.rename(source.with_name("vrai.txt"))
    source.symlink_to("vrai.txt")


@pytest.mark.parametrize(("make", "expected"), [
    (lambda source: (source.unlink(), source.symlink_to("/dev/zero")),
     "corpus/demo/game.toml:5: source file 'source.txt' is outside the game's folder demo/"),
    (lambda source: (source.unlink(), source.symlink_to("/etc/hostname")),
     "corpus/demo/game.toml:5: source file 'source.txt' is outside the game's folder demo/"),
    (moved_beside, "corpus/demo/source.txt: a symbolic link: links are not followed"),  # even inside the folder
    (lambda source: (source.unlink(), os.mkfifo(source)), "corpus/demo/source.txt: a FIFO (named pipe), not a regular file"),
])
def test_a_named_source_that_is_no_regular_file_is_refused(tmp_path, capsys, make, expected):
    root = make_corpus(tmp_path, GOOD)
    make(root / "corpus/demo/source.txt")
    code, err = build(root, capsys, 30)
    assert code == 1 and expected in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_source_over_its_size_limit_is_refused_before_reading(tmp_path, capsys, monkeypatch):
    import extract.files

    monkeypatch.setattr(extract.files, "TEXT_LIMIT", 16)
    code, err = build(make_corpus(tmp_path, GOOD), capsys, 30)
    assert code == 1 and f"corpus/demo/source.txt: {len(GOOD.encode()):,} bytes, over the limit of 16 bytes" in err, err


def test_a_manifest_that_is_a_link_or_a_pipe_is_refused(tmp_path, capsys):
    root = make_corpus(tmp_path, GOOD)
    manifest = root / "corpus/demo/game.toml"
    manifest.unlink()
    os.mkfifo(manifest)
    code, err = build(root, capsys, 30)
    assert code == 1 and "corpus/demo/game.toml: a FIFO (named pipe), not a regular file" in err, err


def test_a_linked_game_folder_is_refused(tmp_path, capsys):
    root = make_corpus(tmp_path / "other", GOOD)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus/demo").symlink_to(root / "corpus/demo")
    code, err = build(tmp_path, capsys, 30)
    assert code == 1 and "corpus/demo/game.toml: corpus/demo is a symbolic link" in err, err


@pytest.mark.parametrize(("make", "expected"), [
    (lambda path: os.mkfifo(path), "a FIFO (named pipe), not a regular file"),
    (lambda path: path.symlink_to("/dev/zero"), "a character device, not a regular file"),
])
def test_regles_extract_refuses_a_special_file_by_type(tmp_path, capsys, make, expected):
    """`regles extract FILE` on a pipe blocked forever; on /dev/zero, read until memory ran out."""
    path = tmp_path / "regles.txt"
    make(path)
    with deadline(30):
        code = main(["extract", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and f"{path}: {expected}" in err and len(err.strip().splitlines()) == 1, err
