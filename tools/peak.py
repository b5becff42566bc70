"""A benchmark child's peak memory: its own, its children's, and theirs together.

Not `ru_maxrss` of RUSAGE_SELF: Linux carries it over exec, so a child started by a process that
once held a large build reports that build's peak. A build has processes beside it (a helper
making the site, spaCy's workers tagging), so the peak is also sampled over the whole process
tree at once (`watch()` first): the sum of each process's proportional set size (PSS: a page a
forked process still shares with its parent counted once, split between them).
"""

from __future__ import annotations

import os
import resource
import threading
import time

INTERVAL = 0.05  # seconds between samples of the tree; a single process's peak is exact (VmHWM)

_sampled = {"peak": 0}
_watching: list[threading.Thread] = []


def own_peak_kib() -> int:
    """The largest of: this process's peak resident memory (VmHWM), its largest finished child's,
    and (after `watch()`) the largest sum over the process tree sampled at one moment."""
    with open("/proc/self/status", encoding="ascii") as status:
        own = int(status.read().split("VmHWM:")[1].split()[0])
    return max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, _sampled["peak"])


def watch() -> None:
    """Sample the process tree's memory from now on, in a daemon thread."""
    if _watching:
        return
    thread = threading.Thread(target=_sample, daemon=True, name="peak-memory")
    _watching.append(thread)
    thread.start()


def tree_kib(root: int | None = None) -> int:
    """The PSS of `root` (this process) and every process below it, summed, in KiB."""
    total = 0
    for pid in _tree(root or os.getpid()):
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError):
            pass  # ended meanwhile
    return total


def _tree(root: int) -> list[int]:
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
                    todo.extend(int(child) for child in children.read().split())
        except OSError:
            pass
    return found


def _sample() -> None:
    while True:
        _sampled["peak"] = max(_sampled["peak"], tree_kib())
        time.sleep(INTERVAL)
