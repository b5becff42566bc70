"""Large JSON files written in pieces: the text of a ×50 corpus's game file or search model is
never one string in memory, nor the list of its pieces (`json.dumps` with `indent` builds one many
times the file's size before joining it)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

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
