"""tools/peak.py: the benchmarks' peak memory counts a build's processes together."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tools import peak
from tools.peak import own_peak_kib, tree_kib, watch

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")


def test_the_tree_holds_a_childs_memory_and_the_watched_peak_keeps_it():
    watch()
    before = tree_kib()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; b = bytearray(200 * 2**20); "
                               "print(1, flush=True); time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        holder.stdout.readline()  # its 200 MiB are written (bytearray zero-fills them)
        assert tree_kib() - before > 150 * 1024
        time.sleep(0.3)  # a few samples
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    # the child's memory beside this process's, at one moment (not the larger of the two)
    assert peak._sampled["peak"] >= before + 150 * 1024 and own_peak_kib() >= peak._sampled["peak"]
