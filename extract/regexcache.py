"""Long regular expressions compiled once, kept between processes.

spaCy's French tokenizer compiles one pattern of 1.45 MB (`TOKEN_MATCH`, the hyphenated and
elided words it keeps whole) when it is imported: 2.4 s of Python's `re` parser and compiler,
paid by every build that tags a text. While `kept(folder)` is active, `re` stores what it makes
of a long pattern — the arguments of `_sre.compile`, the code the C engine runs — in `folder`,
and a later process gives them back to `_sre.compile` instead of parsing and compiling again:
the same code, so the same pattern object (`==` on patterns compares their code). A file is
keyed by the Python version, the engine's magic number, the pattern and its flags, and checked
(checksum, the pattern itself): anything missing, damaged or made by another Python is a miss,
compiled as usual. Patterns shorter than `LONG` are left to `re` alone. The files are pickles of
plain data, read back by an unpickler that refuses any class or function.
"""

from __future__ import annotations

import hashlib
import pickle
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from extract.files import read_plain, write_plain

LONG = 2_000  # characters: below this, compiling takes a millisecond or less (spaCy's six others: 50 ms)
_lock = threading.RLock()  # a kept() inside another in one thread goes on


class Kept:
    """What a `kept()` block did: patterns given back from files, patterns compiled and stored."""

    def __init__(self) -> None:
        self.hits = 0
        self.misses = 0


def supported() -> bool:
    """`re` as CPython 3.11+ builds it: `re._compiler.compile` ends in `_sre.compile`."""
    compiler = getattr(re, "_compiler", None)
    return compiler is not None and callable(getattr(compiler, "compile", None)) and hasattr(compiler, "_sre")


def key(pattern: str, flags: int) -> str:
    sre = re._compiler._sre  # type: ignore[attr-defined]
    return hashlib.sha256(f"{sys.version}\n{sre.MAGIC}\n{sre.CODESIZE}\n{flags}\n{pattern}".encode()).hexdigest()


class _Recorder:
    """`_sre` as `re._compiler` sees it, keeping the arguments of the one `compile` call."""

    def __init__(self, sre: Any) -> None:
        self._sre = sre
        self.args: tuple | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sre, name)

    def compile(self, *args: Any) -> Any:
        self.args = args
        return self._sre.compile(*args)


def _load(path: Path, pattern: str, flags: int) -> tuple | None:
    try:
        stored_flags, args = read_plain(path)
    except Exception:  # noqa: BLE001 - anything wrong with a kept file is a miss
        return None
    if stored_flags != flags or not isinstance(args, tuple) or not args or args[0] != pattern:
        return None
    return args


def _store(path: Path, flags: int, args: tuple) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_plain(path, (flags, args), prefix=".re-")
    except (OSError, pickle.PicklingError, TypeError):
        pass  # a folder that cannot be written: compiled again next time


@contextmanager
def kept(folder: Path | None, long: int = LONG) -> Iterator[Kept]:
    """Within the block, `re.compile` of a pattern of `long` characters or more is kept in
    `folder` (nothing is kept when `folder` is None or `re` is not the one this expects)."""
    done = Kept()
    if folder is None or not supported():
        yield done
        return
    compiler = re._compiler  # type: ignore[attr-defined]
    original = compiler.compile

    def compile(pattern: Any, flags: int = 0) -> Any:
        if not isinstance(pattern, str) or len(pattern) < long or flags & re.DEBUG:
            return original(pattern, flags)
        path = folder / f"{key(pattern, flags)}.re"
        args = _load(path, pattern, flags)
        if args is not None:
            try:
                found = compiler._sre.compile(*args)
                done.hits += 1
                return found
            except Exception:  # noqa: BLE001 - arguments this engine refuses: compile as usual
                pass
        recorder = _Recorder(compiler._sre)
        compiler._sre = recorder
        try:
            found = original(pattern, flags)
        finally:
            compiler._sre = recorder._sre
        done.misses += 1
        if recorder.args is not None and len(recorder.args) == 6:
            pattern_, final_flags, code, groups, groupindex, indexgroup = recorder.args
            # the code holds `re`'s named opcodes (int subclasses that refuse pickling): plain ints
            _store(path, flags, (pattern_, int(final_flags), [int(x) for x in code], int(groups), dict(groupindex),
                                 tuple(indexgroup)))
        return found

    with _lock:
        compiler.compile = compile
        try:
            yield done
        finally:
            compiler.compile = original
