"""Named exceptions. Every input error knows the file (and line) at fault."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class RegleError(Exception):
    """Base class: a problem a user can act on, printed as one line."""

    exit_code = 1


class InputError(RegleError):
    """Bad input: a source, manifest or corpus data file that cannot be used."""

    def __init__(self, file: str, message: str, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


class BuildError(RegleError):
    """Several input problems found in one build, reported together."""

    def __init__(self, problems: list[InputError]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class UsageError(RegleError):
    """The command line itself is wrong."""

    exit_code = 2


class Interrupted(BaseException):
    """SIGTERM or SIGHUP during a build: raised like KeyboardInterrupt, so cleanup runs."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"interrupted by signal {signum}")


def shortened(text: str, limit: int = 120) -> str:
    """`text` cut to `limit` characters for a one-line message (an id can be a long key path)."""
    return text if len(text) <= limit else f"{text[:limit - 1]}…"


@contextmanager
def writing(what: str, source: str | None = None, line: int | None = None) -> Iterator[None]:
    """An OSError raised while the build writes something says what it was for: `source` (the
    corpus file and line the thing comes from) stands as the error's file and `what` (an entry's
    id, a game) in its reason, rather than the staging path alone; the errno is kept, so a full disk
    still reads as one."""
    try:
        yield
    except OSError as exc:
        where = f"{source}:{line}" if source and line else source or None
        reason = exc.strerror or str(exc)
        written = f" {shortened(str(exc.filename), 160)}" if exc.filename and not source else ""
        raise OSError(exc.errno or 0, f"{reason} while writing {what}{written}", where) from exc
