"""extract/helper.py: work begun in a forked helper process, its answers and errors sent back; the
same answers in this process where nothing is forked."""

from __future__ import annotations

import os
import time

import pytest

from extract import helper
from extract.errors import BuildError, InputError
from extract.helper import Helper, HelperLost

forking = pytest.mark.skipif(not helper.can_fork(), reason="no fork here (not Linux, or one CPU)")


def prepared_pid(tag: str) -> tuple[str, int]:
    return tag, os.getpid()


def where(prepared: tuple[str, int], n: int) -> tuple[str, int, int]:
    return prepared[0], prepared[1], os.getpid() + 0 * n


def fail_with(prepared: object, error: BaseException) -> None:
    raise error


def leave(prepared: object) -> None:
    os._exit(3)


def unsendable(prepared: object) -> object:
    return lambda: None  # a lambda does not pickle


def slow(seconds: float) -> None:
    time.sleep(seconds)


def refuse() -> None:
    raise InputError("corpus/x/game.toml", "no tagger here", 4)


@forking
def test_prepared_and_asked_in_another_process():
    with_helper = Helper(prepared_pid, "t")
    try:
        tag, prepared_in, asked_in = with_helper.ask(where, 1)
        assert tag == "t" and prepared_in == asked_in != os.getpid()
        assert with_helper.begin(where, 2).result() == (tag, prepared_in, asked_in)  # the same process, still
    finally:
        with_helper.close()


@forking
def test_errors_come_back_as_raised_and_the_helper_goes_on():
    with_helper = Helper(prepared_pid, "t")
    try:
        with pytest.raises(BuildError) as raised:
            with_helper.ask(fail_with, BuildError([InputError("mkdocs.yml", "site build warning: x", 2)]))
        assert str(raised.value.problems[0]) == "mkdocs.yml:2: site build warning: x"
        with pytest.raises(RuntimeError, match="could not be sent back"):
            with_helper.ask(unsendable)
        assert with_helper.ask(where, 1)[0] == "t"
    finally:
        with_helper.close()


@forking
def test_a_failed_preparation_is_every_requests_error():
    with_helper = Helper(refuse)
    try:
        for _ in range(2):
            with pytest.raises(InputError, match="no tagger here"):
                with_helper.ask(where, 1)
    finally:
        with_helper.close()


@forking
def test_a_helper_that_dies_is_lost_not_waited_for():
    with_helper = Helper(prepared_pid, "t")
    with pytest.raises(HelperLost):
        with_helper.ask(leave)
    with pytest.raises(HelperLost):  # and stays so
        with_helper.ask(where, 1)


@forking
def test_closing_a_busy_helper_ends_it_at_once():
    with_helper = Helper(slow, 60)
    pending = with_helper.begin(where, 1)
    start = time.monotonic()
    with_helper.close()
    assert time.monotonic() - start < 10
    with pytest.raises(HelperLost):
        pending.result()


def test_without_fork_the_same_answers_here_and_preparation_waits_for_a_request(monkeypatch):
    monkeypatch.setenv("REGLES_HELPERS", "off")
    prepared: list[str] = []
    with_helper = Helper(lambda tag: prepared.append(tag) or (tag, os.getpid()), "t")
    assert prepared == []
    pending = with_helper.begin(where, 1)
    assert prepared == []  # a request runs when its answer is asked for
    assert pending.result() == ("t", os.getpid(), os.getpid()) and prepared == ["t"]
    assert with_helper.ask(where, 2) == ("t", os.getpid(), os.getpid()) and prepared == ["t"]
    with pytest.raises(ValueError, match="bad"):
        with_helper.ask(fail_with, ValueError("bad"))
    with_helper.close()


@forking
def test_a_helper_ends_with_its_parent_killed_outright():
    """kill -9 of the build closes nothing: the kernel ends its helper then (it would otherwise
    hold the build's lock and its output pipes)."""
    import subprocess
    import sys

    script = ("import sys, time\nfrom extract.helper import Helper\n"
              "h = Helper(time.sleep, 120)\nprint(h._process.pid, flush=True)\ntime.sleep(120)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        helper_pid = int(parent.stdout.readline())
        assert alive(helper_pid)
        parent.kill()
        parent.wait(30)
        deadline = time.monotonic() + 10
        while alive(helper_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(helper_pid)
    finally:
        parent.kill()
        parent.stdout.close()


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            return "\nState:\tZ" not in status.read()  # a zombie has ended
    except FileNotFoundError:
        return False


def niceness(prepared: object) -> int:
    return os.nice(0)


@forking
def test_a_helper_yields_its_core_by_its_niceness_and_the_build_keeps_its_own():
    own = os.nice(0)
    with_helper = Helper(prepared_pid, "t", niceness=3)
    try:
        assert with_helper.ask(niceness) == min(own + 3, 19)
    finally:
        with_helper.close()
    assert os.nice(0) == own


def test_nothing_forked_nothing_reniced(monkeypatch):
    monkeypatch.setenv("REGLES_HELPERS", "off")
    own = os.nice(0)
    assert Helper(prepared_pid, "t", niceness=3).ask(niceness) == own
