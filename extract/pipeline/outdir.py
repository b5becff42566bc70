"""The output folder, kept safe: `regles build --out DIR` writes only into a folder that is empty
or that it built before (it carries the marker file `.regles-build`), one build at a time per
folder (a lock file beside it), from a staging folder beside it that is swapped in at once.

- **Refusal.** Anything else (a file, a checkout, the corpus) is refused with one line before
  any work, so no command line can empty a folder it did not make.
- **Lock.** `.<name>.regles-lock` beside the folder, held with `fcntl.flock` for the whole build:
  a second build of the same folder waits for the first (and says so), never mixes with it.
- **Staging.** `.<name>.regles-staging-*` beside the folder, marked as ours when created; it is
  removed on every exit path, and what a killed build (`kill -9`) left is removed by the next
  build of that folder, under the lock (only folders with this name and the marker).
- **Swap.** The staging folder and the old build are exchanged in one `renameat2(RENAME_EXCHANGE)`
  call: there is no moment where the folder is missing. The old build, now at the staging name,
  is then deleted; if that fails, the next build removes it.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from extract.errors import Interrupted, UsageError

MARKER = ".regles-build"
MARKER_TEXT = "This folder was written by `regles build`; it may be replaced by the next build.\n"
# What a build writes, for folders built before the marker existed (regles 0.3 and earlier).
BUILD_NAMES = {"data", "search", "docs", "site", "report.json", "screenshots", MARKER}


def staging_prefix(out: Path) -> str:
    return f".{out.name}.regles-staging-"


def lock_path(out: Path) -> Path:
    return out.parent / f".{out.name}.regles-lock"


def is_build(folder: Path) -> bool:
    """A folder `regles build` wrote: its marker, or (older builds) only what a build writes."""
    if (folder / MARKER).is_file():
        return True
    try:
        names = {p.name for p in folder.iterdir()}
    except OSError:
        return False
    return names <= BUILD_NAMES and (folder / "report.json").is_file() and (folder / "data").is_dir()


def target(out: Path) -> Path:
    """The folder a build writes, absolute (a relative path is relative to the working folder,
    a symlink is followed), or UsageError (one line) when it is not safe to replace."""
    out = Path(os.path.abspath(out))
    if out.is_symlink():
        out = out.resolve()
    if not out.exists():
        if out.parent.exists() and not out.parent.is_dir():
            raise UsageError(f"--out {out}: {out.parent} is not a folder")
        return out
    if not out.is_dir():
        raise UsageError(f"--out {out}: is a file, not a folder; give an empty folder or a new name")
    try:
        empty = not any(out.iterdir())
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot be read ({exc.strerror})") from None
    if not empty and not is_build(out):
        raise UsageError(f"--out {out}: not empty and not a previous build (no {MARKER} file): "
                         "refusing to replace it; give an empty folder or a new name")
    return out


@contextmanager
def build_lock(out: Path, notice: Callable[[str], None]) -> Iterator[None]:
    """Hold the build lock of `out` (waiting for another build of it, with a notice)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path(out), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            notice(f"another build of {out} is running: waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def remove_leftovers(out: Path) -> list[Path]:
    """Staging folders of `out` left by a killed build (ours: named so and marked). Call it with
    the lock held: no live build of `out` is using them then."""
    removed = []
    for path in sorted(out.parent.glob(staging_prefix(out) + "*")):
        if path.is_dir() and not path.is_symlink() and (path / MARKER).is_file():
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def new_staging(out: Path) -> Path:
    """A staging folder beside `out`, marked as ours before any signal can end the build (they
    are held while it is made), so that whatever happens next, a cleanup recognises it."""
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    blocked = threading.current_thread() is threading.main_thread()
    if blocked:
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        staging = Path(tempfile.mkdtemp(prefix=staging_prefix(out), dir=out.parent))
        try:
            (staging / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
    return staging


RENAME_EXCHANGE = 2
AT_FDCWD = -100


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2). False when the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.renameat2
    except (OSError, AttributeError):
        return False
    if call(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def publish(staging: Path, out: Path) -> None:
    """Put `staging` in the place of `out` with no moment where `out` is missing."""
    if not out.exists():
        staging.rename(out)
        return
    if not (out / MARKER).is_file():  # an older build: marked, so a failed removal is cleaned up
        (out / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    if not exchange(staging, out):
        # No atomic exchange here (not Linux, or a file system without it): two renames, the
        # old build kept under a staging name until the new one is in place.
        old = Path(tempfile.mkdtemp(prefix=staging_prefix(out), dir=out.parent))
        os.rmdir(old)
        out.rename(old)
        staging.rename(out)
        staging = old
    shutil.rmtree(staging, ignore_errors=True)  # the old build; left over, the next build removes it


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP raise `Interrupted` (as Ctrl-C raises KeyboardInterrupt), so the
    build's cleanup runs; restored afterwards. Only the main thread can install handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
