"""Stage 1, load: read source files strictly (UTF-8, non-empty, not binary, checksum as declared)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from extract.errors import InputError
from extract.model import GameSpec


def read_source(root: Path, rel: str, expected_sha256: str | None) -> list[str]:
    """The file's lines (without line ends), after every check that can reject it."""
    path = root / rel
    if not path.is_file():
        raise InputError(rel, "source file is missing")
    data = path.read_bytes()
    if not data.strip():
        raise InputError(rel, "source file is empty")
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(rel, "binary file (NUL byte), expected UTF-8 text", line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(rel, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}; Latin-1?)", line) from None
    if expected_sha256 is not None:
        digest = hashlib.sha256(data).hexdigest()
        if digest != expected_sha256:
            raise InputError(rel, f"checksum mismatch: sha256 is {digest}, the manifest declares {expected_sha256}")
    return text.splitlines()


def load_sources(root: Path, game: GameSpec) -> dict[str, list[str]]:
    return {rel: read_source(root, rel, digest) for rel, digest in sorted(game.sources.items())}
