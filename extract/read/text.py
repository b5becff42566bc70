"""Plain text: one line per source line, read strictly (UTF-8 or the encoding the manifest
declares, not empty, not binary)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from extract.errors import InputError
from extract.files import BYTE_ORDER_MARKS, TEXT_LIMIT, read_input
from extract.model import Line
from extract.read import READERS, Reader, Reading
from extract.read.contents import text_contents_lines


def decode(data: bytes, display: str, encoding: str = "utf-8") -> str:
    """The text in `encoding` (UTF-8 unless a manifest declares another, or a byte order mark says
    UTF-16), composed (NFC: "é" one character, as search and the facts compare it, whatever the
    editor saved), or an InputError naming the file and the line of the first bad byte, with a
    guess at the encoding it is in (UTF-16 without a byte order mark, Windows-1252, Latin-1)."""
    if not data.strip():
        raise InputError(display, "source file is empty")
    if encoding == "utf-8":
        encoding = next((codec for mark, codec in BYTE_ORDER_MARKS if data.startswith(mark)), encoding)
    if encoding == "utf-8" and b"\x00" in data:  # UTF-16 holds NUL bytes: only a mark or a declared encoding reads it
        utf16 = utf16_without_mark(data)
        if utf16:
            raise InputError(display, f"UTF-16 ({'little' if utf16 == 'utf-16-le' else 'big'}-endian) without a byte order "
                                      f"mark, it seems: declare encoding = \"{utf16}\" on its [[sources]] entry, "
                                      "or save it as UTF-8", 1)
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(display, "binary file (NUL byte), expected UTF-8 text", line)
    try:
        return unicodedata.normalize("NFC", data.decode(encoding).removeprefix("\ufeff"))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        if encoding != "utf-8":
            raise InputError(display, f"not valid {encoding} (byte 0x{data[exc.start]:02x}), the encoding its manifest declares",
                             line) from None
        raise InputError(display, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}; {legacy_encoding(data)}?)"
                                  "; convert it, or declare its encoding on its [[sources]] entry", line) from None


def utf16_without_mark(data: bytes, sample: int = 4096) -> str | None:
    """"utf-16-le" or "utf-16-be" when the NUL bytes of the text's start are those of UTF-16 French
    (one byte in two, always on the same side), else None."""
    head = data[:sample]
    even, odd = head[0::2], head[1::2]
    if len(odd) < 8:
        return None
    if odd.count(0) >= 0.6 * len(odd) and even.count(0) <= 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) >= 0.6 * len(even) and odd.count(0) <= 0.05 * len(odd):
        return "utf-16-be"
    return None


def legacy_encoding(data: bytes) -> str:
    """What a French text that is not UTF-8 was most likely saved in. Bytes 0x80-0x9F are
    control characters in Latin-1 but the curly apostrophe, œ, « … in Windows-1252, which is how
    Windows saves "ANSI" text: with them, and when the whole decodes so, Windows-1252."""
    # Only the bytes UTF-8 cannot read count: a UTF-8 "’" (e2 80 99) holds 0x80 too.
    if any(0xDC80 <= ord(c) <= 0xDC9F for c in data.decode("utf-8", errors="surrogateescape")):
        try:
            data.decode("cp1252")
            return "Windows-1252 (cp1252)"
        except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: not in cp1252 either
            pass
    return "Latin-1"


def read_text(path: Path, display: str, encoding: str = "utf-8", data: bytes | None = None) -> Reading:
    """`data`: the file's bytes when the caller has read them (`read_source`, checked)."""
    data = read_input(path, display, TEXT_LIMIT) if data is None else data
    raw = decode(data, display, encoding).splitlines()
    # a contents list's wide spaces would fold into one: its gaps are written as the PDF reader writes them
    contents = text_contents_lines(raw)
    lines = [Line(no, contents.get(no - 1, text)) for no, text in enumerate(raw, start=1)]
    return Reading("text", lines, lines_read=sum(1 for text in raw if text.strip()))


READERS.add("text", Reader("text", (".txt",), read_text), priority=0)
