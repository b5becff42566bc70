"""A benchmark child's own peak memory. Not `ru_maxrss` of RUSAGE_SELF: Linux carries it over
exec, so a child started by a process that once held a large build reports that build's peak."""

from __future__ import annotations

import resource


def own_peak_kib() -> int:
    """The build's processes at once, at most: this process's peak resident memory (VmHWM) plus
    its largest finished child's (a helper process makes the site beside it; spaCy's workers tag
    beside it). An upper bound: the two peaks need not fall at the same moment."""
    with open("/proc/self/status", encoding="ascii") as status:
        own = int(status.read().split("VmHWM:")[1].split()[0])
    return own + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
