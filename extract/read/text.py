"""Plain text: one line per source line, read strictly (UTF-8, not empty, not binary)."""

from __future__ import annotations

from pathlib import Path

from extract.errors import InputError
from extract.model import Line
from extract.read import READERS, Reader, Reading


def decode(data: bytes, display: str) -> str:
    """UTF-8 text, or an InputError naming the file and the line of the first bad byte."""
    if not data.strip():
        raise InputError(display, "source file is empty")
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(display, "binary file (NUL byte), expected UTF-8 text", line)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(display, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}; Latin-1?)", line) from None


def read_text(path: Path, display: str) -> Reading:
    raw = decode(path.read_bytes(), display).splitlines()
    lines = [Line(no, text) for no, text in enumerate(raw, start=1)]
    return Reading("text", lines, lines_read=sum(1 for text in raw if text.strip()))


READERS.add("text", Reader("text", (".txt",), read_text), priority=0)
