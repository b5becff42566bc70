"""Named exceptions. Every input error knows the file (and line) at fault."""

from __future__ import annotations

import re
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

    def __reduce__(self) -> tuple:  # pickled whole (a game kept by extract.cache holds its problems)
        return type(self), (self.file, self.message, self.line)


class BuildError(RegleError):
    """Several input problems found in one build, reported together."""

    def __init__(self, problems: list[InputError]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self) -> tuple:
        return type(self), (self.problems,)


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
    """An OSError raised while the build writes something says what it was for: the file that
    failed stays the error's file (its path inside the build, not the staging folder's), and its
    reason says `what` it was (an entry's id, a game) and the corpus `source` and `line` it comes
    from; the errno is kept, so a full disk or a read-only folder still reads as one."""
    try:
        yield
    except OSError as exc:
        origin = f" (from {source}:{line})" if source and line else f" (from {source})" if source else ""
        reason = f"{exc.strerror or exc} while writing {what}{origin}"
        failed = STAGING.sub("", str(exc.filename)) if exc.filename else None
        raise OSError(exc.errno or 0, reason, shortened(failed, 160) if failed else None) from exc


# A build writes into a staging folder beside its output (extract.pipeline.outdir): a path inside it is
# said from the build's root ("site/api/…"), the folder's random name being of no use to the reader.
STAGING = re.compile(r"^.*?\.regles-staging-[^/]*/")
