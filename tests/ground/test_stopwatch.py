"""The build's stopwatch: wall and CPU seconds per stage, a worker process's CPU counted."""

from __future__ import annotations

import multiprocessing
import time

from extract.pipeline import Stopwatch


def spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_stage_has_its_wall_and_cpu_seconds_and_its_workers_cpu():
    clock = Stopwatch()
    with clock.stage("busy"):
        spin(0.05)
    with clock.stage("idle"):
        time.sleep(0.05)
    with clock.stage("worker"):
        worker = multiprocessing.get_context("fork").Process(target=spin, args=(0.05,))
        worker.start()
        worker.join()
    assert clock.cpu["busy"] >= 0.045 and clock.stages["busy"] >= 0.045
    assert clock.stages["idle"] >= 0.045 and clock.cpu["idle"] < 0.02
    assert clock.cpu["worker"] >= 0.045  # the worker's CPU, once it is finished and waited for
