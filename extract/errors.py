"""Named exceptions. Every input error knows the file (and line) at fault."""

from __future__ import annotations


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
