"""Writing files: large JSON files in pieces (the text of a ×50 corpus's game file or search
model is never one string in memory, nor the list of its pieces: `json.dumps` with `indent` builds
one many times the file's size before joining it), and small files replaced whole (a reader, or a
build sharing a cache, never sees half of one)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

BATCH = 4096  # pieces joined per write


def write_pieces(path: Path, pieces: Iterable[str], batch: int = BATCH) -> None:
    """The strings of `pieces`, in order, into `path` (UTF-8), joined `batch` at a time."""
    with path.open("w", encoding="utf-8") as handle:
        held: list[str] = []
        for piece in pieces:
            held.append(piece)
            if len(held) >= batch:
                handle.write("".join(held))
                held.clear()
        handle.write("".join(held))


def replace_with(path: Path, fill: Callable[[Path], Any], prefix: str = ".tmp-") -> None:
    """`path` replaced at once by what `fill` writes into a new file beside it (renamed over
    `path`); on failure the new file is removed and the error raised."""
    fd, temp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
    os.close(fd)
    try:
        fill(Path(temp))
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
