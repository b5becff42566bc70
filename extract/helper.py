"""Work begun in a helper process while the build goes on: the machine's second core.

`Helper(prepare, *args)` calls `prepare(*args)` at once in a process forked from this one (it
sees everything the build has read so far, nothing is sent; `niceness=` lowers its priority
there), and keeps what it returns there;
`ask(function, *args)` then runs `function(prepared, *args)` in the helper and returns its result,
or raises what it raised; `begin(function, *args)` sends the same request and returns at once, its
answer `.result()` waited for later (the build does other work meanwhile). `close()` ends the
helper (at once, whatever it is doing). Where a fork is not available or not worth it (not Linux,
one CPU, $REGLES_HELPERS=off), nothing is forked: `prepare` runs here on the first request, each
request when its answer is asked for, and every call gives what it would have given in the helper.

A helper is for work that can begin before its answer is needed, and whose inputs and answers are
small to send: the pipe carries pickles.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

_UNSET = object()


def can_fork() -> bool:
    """A fork is safe here (Linux: macOS's system libraries refuse to run in a forked child) and
    worth it (a second CPU)."""
    return sys.platform == "linux" and (os.cpu_count() or 1) >= 2 and os.environ.get("REGLES_HELPERS") != "off"


class Helper:
    def __init__(self, prepare: Callable[..., Any], *args: Any, niceness: int = 0) -> None:
        """`niceness`: added to the helper process's (`os.nice`): work that yields its core to the
        build when they compete for one. Nothing forked, nothing changes (the build's own process)."""
        self._prepare, self._args = prepare, args
        self._prepared: Any = _UNSET  # here, when nothing is forked
        self._process: Any = None
        self._conn: Any = None
        self._waiting: Pending | None = None  # the request sent whose answer is not read yet
        self._gone: HelperLost | None = None  # why a forked helper no longer answers
        if can_fork():
            context = multiprocessing.get_context("fork")
            self._conn, child = context.Pipe()
            self._process = context.Process(target=_serve, args=(child, self._conn, os.getpid(), prepare, args, niceness),
                                            daemon=True)
            self._process.start()
            child.close()

    def ask(self, function: Callable[..., Any], *args: Any) -> Any:
        return self.begin(function, *args).result()

    def begin(self, function: Callable[..., Any], *args: Any) -> Pending:
        """`function(prepared, *args)` begun in the helper; its answer is the Pending's `result()`.
        One request at a time: the previous one's result is taken first."""
        if self._waiting is not None:
            self._waiting.result()
        pending = Pending(self, function, args)
        if self._gone is not None:
            pending._answer = (False, self._gone)
        elif self._process is not None:
            try:
                self._conn.send((function, args))
            except OSError as exc:  # the helper died (killed, out of memory)
                pending._answer = (False, self._lost(exc))
            else:
                self._waiting = pending
        return pending

    def _receive(self, pending: Pending) -> tuple[bool, Any]:
        if self._gone is not None:
            return False, self._gone
        if self._process is None:  # nothing forked: the request runs here, now
            try:
                if self._prepared is _UNSET:
                    self._prepared = self._prepare(*self._args)
                return True, pending.function(self._prepared, *pending.args)
            except Exception as exc:  # noqa: BLE001 - as the helper would have sent it
                return False, exc
        self._waiting = None
        try:
            return self._conn.recv()
        except (EOFError, OSError) as exc:
            return False, self._lost(exc)

    def _lost(self, exc: BaseException) -> HelperLost:
        self.close()
        self._gone = HelperLost(f"the helper process ended ({exc or 'no answer'})")
        return self._gone

    def close(self) -> None:
        """End the helper: a request still to come, or still waited for, is HelperLost."""
        self._waiting = None
        if self._process is not None:
            self._gone = HelperLost("the helper process ended before answering")
            self._conn.close()
            if self._process.is_alive():
                self._process.kill()  # whatever it is doing: nothing it holds is wanted any more
            self._process.join()
            self._process = None


class Pending:
    """A request's answer to come: `result()` waits for it, returns it or raises what it raised."""

    def __init__(self, helper: Helper, function: Callable[..., Any], args: tuple) -> None:
        self.helper, self.function, self.args = helper, function, args
        self._answer: tuple[bool, Any] | None = None

    def result(self) -> Any:
        if self._answer is None:
            self._answer = self.helper._receive(self)
        ok, value = self._answer
        if not ok:
            raise value
        return value


def _end_with_parent() -> None:
    """Linux's PR_SET_PDEATHSIG: SIGKILL this process when the process that forked it ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # without it, the helper ends at its next read of the closed pipe


class HelperLost(RuntimeError):
    """The helper process ended before answering."""


def _serve(conn: Any, parent_end: Any, parent: int, prepare: Callable[..., Any], args: tuple, niceness: int = 0) -> None:
    # The build's own handlers (Ctrl-C, SIGTERM raise in its main thread) are the parent's: here a
    # signal simply ends the process, and Ctrl-C is the parent's to handle (it closes the helper).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    # A parent killed outright (kill -9) closes no helper: the kernel ends it then, and the pipe's
    # other end, copied here by the fork, is closed so that a parent gone reads as the pipe's end.
    parent_end.close()
    _end_with_parent()
    if os.getppid() != parent:  # gone before the line above
        return
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    try:
        prepared, failed = prepare(*args), None
    except BaseException as exc:  # noqa: BLE001 - sent to the parent, raised there
        prepared, failed = None, exc
    while True:
        try:
            function, call_args = conn.recv()
        except (EOFError, OSError):
            return
        if failed is not None:
            answer = (False, failed)
        else:
            try:
                answer = (True, function(prepared, *call_args))
            except BaseException as exc:  # noqa: BLE001
                answer = (False, exc)
        try:
            conn.send(answer)
        except Exception as exc:  # noqa: BLE001 - an answer or exception that cannot be pickled
            conn.send((False, RuntimeError(f"the helper's answer could not be sent back: {exc!r}")))
