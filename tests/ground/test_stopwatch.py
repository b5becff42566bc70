"""The build's stopwatch: wall and CPU seconds per stage, a worker process's CPU counted."""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

from extract.pipeline import Stopwatch


def spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def timed_stages(results: Any) -> None:
    clock = Stopwatch()
    with clock.stage("busy"):
        spin(0.05)
    with clock.stage("idle"):
        time.sleep(0.05)
    with clock.stage("worker"):
        worker = multiprocessing.get_context("fork").Process(target=spin, args=(0.05,))
        worker.start()
        worker.join()
    results.put((dict(clock.cpu), dict(clock.stages)))


def test_a_stage_has_its_wall_and_cpu_seconds_and_its_workers_cpu():
    # Measured in a forked process: it has one thread, so no thread of the test runner's (or a
    # server another test left) adds its CPU to the idle stage's.
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=timed_stages, args=(results,))
    child.start()
    cpu, stages = results.get(timeout=60)
    child.join(timeout=60)
    assert cpu["busy"] >= 0.045 and stages["busy"] >= 0.045
    assert stages["idle"] >= 0.045 and cpu["idle"] < 0.02
    assert cpu["worker"] >= 0.045  # the worker's CPU, once it is finished and waited for
