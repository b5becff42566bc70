"""Writing files: large JSON files in pieces (the text of a ×50 corpus's game file or search
model is never one string in memory, nor the list of its pieces: `json.dumps` with `indent` builds
one many times the file's size before joining it), small files replaced whole (a reader, or a
build sharing a cache, never sees half of one), and plain data kept in a cache folder (checked,
and read back without running anything)."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

BATCH = 4096  # pieces joined per write…
BATCH_CHARS = 1 << 20  # …or fewer, once they hold this many characters (a search model's pieces are large)


def write_pieces(path: Path, pieces: Iterable[str], batch: int = BATCH, batch_chars: int = BATCH_CHARS) -> None:
    """The strings of `pieces`, in order, into `path` (UTF-8), joined `batch` at a time, or as
    many as make `batch_chars` characters: never the whole text of a large file at once."""
    with path.open("w", encoding="utf-8") as handle:
        held: list[str] = []
        size = 0
        for piece in pieces:
            held.append(piece)
            size += len(piece)
            if len(held) >= batch or size >= batch_chars:
                handle.write("".join(held))
                held.clear()
                size = 0
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


class PlainUnpickler(pickle.Unpickler):
    """Strings, numbers, lists, dicts, tuples and sets only: a file put in the cache folder cannot
    make the build import or call anything."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not kept data")


def write_plain(path: Path, value: Any, prefix: str = ".tmp-") -> None:
    """`value` (plain data) pickled into `path` after the sha256 of its bytes, replacing it whole.
    Raises OSError, or pickle.PicklingError/TypeError for what cannot be pickled."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stored = hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data
    replace_with(path, lambda temp: temp.write_bytes(stored), prefix=prefix)


def read_plain(path: Path) -> Any:
    """What `write_plain` stored in `path`. Raises (OSError, ValueError, pickle.UnpicklingError, …)
    when the file is missing, damaged, or holds anything but plain data: callers take any
    exception for a miss."""
    head, _, data = path.read_bytes().partition(b"\n")
    if hashlib.sha256(data).hexdigest().encode("ascii") != head:
        raise ValueError(f"{path}: checksum does not match")
    return PlainUnpickler(io.BytesIO(data)).load()
