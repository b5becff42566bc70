"""Writing files: large JSON files in pieces (the text of a ×50 corpus's game file or search
model is never one string in memory, nor the list of its pieces: `json.dumps` with `indent` builds
one many times the file's size before joining it), small files replaced whole (a reader, or a
build sharing a cache, never sees half of one), and plain data kept in a cache folder (checked,
and read back without running anything); and input files read safely (`read_input`): a regular file
only, no link followed inside the project, its size checked before a byte is read."""

from __future__ import annotations

import codecs
import hashlib
import io
import json
import os
import pickle
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from extract.errors import InputError

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


# The largest input file read, by kind, in bytes (refused beyond, before reading: changes/hostile.md).
DATA_FILE_LIMIT = 8 << 20  # a corpus TOML file: manifest, errata, terms, facts, concepts…
TEXT_LIMIT = 64 << 20  # a text or Markdown source
PDF_LIMIT = 256 << 20  # a PDF source


# A text that starts with a byte order mark is in that encoding, declared or not (the text reader
# decodes it so, the manifest's check counts its lines so).
BYTE_ORDER_MARKS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def input_limit(path: Path) -> int:
    """The size limit of a source file, by its suffix."""
    return PDF_LIMIT if path.suffix.lower() == ".pdf" else TEXT_LIMIT


# What a path is when it is not a regular file, as a message says it.
FILE_TYPES = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_regular(mode: int) -> str | None:
    return None if stat.S_ISREG(mode) else next((name for test, name in FILE_TYPES if test(mode)), "not a regular file")


def read_input(path: Path, display: str, limit: int, base: Path | None = None) -> bytes:
    """The bytes of the input file `path` (`display`: its name in messages), read once and whole,
    or an InputError naming it: missing; a symbolic link, or under a linked folder, anywhere below
    `base` (the project's root: nothing is followed, in or out of the corpus); a FIFO, a device
    or a folder (refused by type, before it is opened: a FIFO would block); over `limit` bytes
    (refused by size, before reading; a file growing while read is caught too)."""
    if base is not None:
        try:
            parts = path.relative_to(base).parts
        except ValueError:
            raise InputError(display, f"outside {base}: not read") from None
        for depth in range(1, len(parts)):
            folder = base.joinpath(*parts[:depth])
            if folder.is_symlink():
                raise InputError(display, f"{Path(*parts[:depth]).as_posix()} is a symbolic link: links are not followed")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise InputError(display, "no such file") from None
    except OSError as exc:
        raise InputError(display, f"cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISLNK(info.st_mode):
        if base is not None:
            raise InputError(display, "a symbolic link: links are not followed (put the file itself there)")
        try:
            info = os.stat(path)  # a file named on the command line may be a link: what it leads to is checked
        except OSError as exc:
            raise InputError(display, f"a link that leads nowhere ({exc.strerror or exc})") from None
    kind = _not_regular(info.st_mode)
    if kind:
        raise InputError(display, f"{kind}, not a regular file")
    if info.st_size > limit:
        raise InputError(display, f"{info.st_size:,} bytes, over the limit of {limit:,} bytes for this kind of file")
    flags = os.O_RDONLY | os.O_NONBLOCK | (os.O_NOFOLLOW if base is not None else 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(display, f"cannot be read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as handle:
        kind = _not_regular(os.fstat(handle.fileno()).st_mode)  # replaced since it was looked at
        if kind:
            raise InputError(display, f"{kind}, not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputError(display, f"over the limit of {limit:,} bytes for this kind of file (it grew while read)")
    return data


def read_build_json(path: Path, display: str) -> Any:
    """A JSON file the build wrote, or an InputError naming it (`display`) as damaged: missing,
    not JSON, or nested too deeply for the parser."""
    def damaged(why: str) -> InputError:
        return InputError(display, f"damaged ({why}): run `regles build` to make it again")

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise damaged("missing") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise damaged(f"not valid JSON: {str(exc)[:80]}") from None
    except RecursionError:
        raise damaged("nested too deeply to be read") from None
