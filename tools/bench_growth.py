"""How the build grows with the corpus: corpora of ×1, ×5, ×20 (and ×50 on request) copies of
every game (`tools.bench.enlarge`), each built in a child process of its own with a warm lemma
cache; per stage its CPU seconds (the build's own and its workers': other programs on this shared
machine move them far less than wall seconds, which are shown too), the fitted exponent
k = log(t_N / t_1) / log(N) of CPU seconds between ×1 and the largest, peak memory, and the site's
size. Checked: every stage's k ≤ 1.1, peak memory at the largest ≤ 1 GB. The ×1 and ×5 corpora
are built three times and their median taken; the larger ones once (their stages last seconds).

    python -m tools.bench_growth [factors…]      (default 1 5 20)
"""

from __future__ import annotations

import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
FACTORS = (1, 5, 20)
MAX_EXPONENT = 1.1
MAX_PEAK_MB = 1024.0
SITE_X20 = 22.0  # the ×20 site may weigh at most this many times the ×1 site
SMALL_REPEATS = 3  # builds of the ×1 and ×5 corpora, their median taken (`build_median`)
NOISE = 0.05  # seconds: a stage faster than this at ×1 is timed, its exponent shown, but not checked

CHILD = """
import json, sys
from pathlib import Path
from tools.peak import own_peak_kib, watch
watch()
from extract.pipeline import build
result = build(Path(sys.argv[1]), Path(sys.argv[2]), cache=Path(sys.argv[3]))
peak = own_peak_kib()
print(json.dumps({"stages": result.stages, "cpu": result.cpu, "entries": result.entry_count, "peak_kb": peak}))
"""


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build_apart(root: Path, cache_dir: Path) -> dict:
    """One build in a child process; the stage cache (incremental builds) is emptied first, so
    every stage is measured doing its work."""
    shutil.rmtree(cache_dir / "stages", ignore_errors=True)
    out = Path(tempfile.mkdtemp(prefix="regles-growth-")) / "build"
    try:
        start = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "REGLES_CACHE_DIR": str(cache_dir)}
        done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(out), str(cache_dir / "lemmas.sqlite")],
                              check=True, capture_output=True, text=True, env=env)
        found = json.loads(done.stdout.strip().splitlines()[-1])
        found["total"] = time.perf_counter() - start
        found["site_mb"] = folder_size(out / "site") / 1e6
        found["children_peak_kb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        return found
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)


def build_median(root: Path, cache_dir: Path, repeats: int) -> dict:
    """`repeats` builds of `root`; per stage the median CPU and wall seconds, the largest peak.
    A small corpus's stages last tenths of a second, and file creation on this machine varies by
    more than that between runs: one run's ×1 moved an exponent by ±0.1."""
    runs = [build_apart(root, cache_dir) for _ in range(repeats)]
    found = dict(runs[0])
    for measure in ("stages", "cpu"):
        found[measure] = {stage: statistics.median(run[measure].get(stage, 0.0) for run in runs) for stage in runs[0][measure]}
    found["total"] = statistics.median(run["total"] for run in runs)
    found["peak_kb"] = max(run["peak_kb"] for run in runs)
    return found


def exponent(small: float, large: float, factor: int) -> float:
    return math.log(max(large, 1e-6) / max(small, 1e-6)) / math.log(factor)


def report(factors: tuple[int, ...] = FACTORS) -> dict[str, bool]:
    from tools.bench import enlarge

    cache_dir = Path(tempfile.mkdtemp(prefix="regles-growth-cache-"))
    runs: dict[int, dict] = {}
    try:
        build_apart(ROOT, cache_dir)  # fills the lemma and repair caches: the copies have the same texts
        for factor in factors:
            root = enlarge(ROOT, factor) if factor > 1 else ROOT
            try:
                runs[factor] = build_median(root, cache_dir, SMALL_REPEATS if factor <= 5 else 1)
            finally:
                if factor > 1:
                    shutil.rmtree(root, ignore_errors=True)
            run = runs[factor]
            print(f"  x{factor}: {run['entries']} entries, {run['total']:.1f}s, peak {run['peak_kb'] / 1024:.0f} MiB, "
                  f"site {run['site_mb']:.1f} MB", flush=True)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    first, largest = min(runs), max(runs)
    stages = list(runs[first]["stages"])
    print("  CPU seconds    " + "".join(f"{'x' + str(f):>10}" for f in sorted(runs)) + f"{'k':>8}" + f"{'k wall':>8}")
    missed = []
    for stage in stages:
        times = [runs[f]["cpu"].get(stage, 0.0) for f in sorted(runs)]
        walls = [runs[f]["stages"].get(stage, 0.0) for f in sorted(runs)]
        k = exponent(times[0], times[-1], largest // first)
        noisy = times[0] < NOISE
        if k > MAX_EXPONENT and not noisy:
            missed.append(stage)
        print(f"  {stage:<15}" + "".join(f"{t:>9.3f}s" for t in times) + f"{k:>8.2f}"
              + f"{exponent(walls[0], walls[-1], largest // first):>8.2f}" + ("  (under 50 ms: not checked)" if noisy else ""))
    sizes = [runs[f]["site_mb"] for f in sorted(runs)]
    print(f"  {'site (MB)':<15}" + "".join(f"{s:>10.1f}" for s in sizes) + f"{exponent(sizes[0], sizes[-1], largest // first):>8.2f}")
    peak = runs[largest]["peak_kb"] / 1024
    site = {}
    if first == 1 and 20 in runs:
        ratio = runs[20]["site_mb"] / runs[1]["site_mb"]
        site = {f"site at x20: {runs[20]['site_mb']:.1f} MB = {ratio:.1f}x the x1 site (target <= {SITE_X20:.0f}x)":
                ratio <= SITE_X20}
    return {**site,
        f"growth x{first} to x{largest}: every stage's exponent <= {MAX_EXPONENT}"
        + (f" (failed: {', '.join(missed)})" if missed else ""): not missed,
        f"peak memory at x{largest}: {peak:.0f} MiB (target <= {MAX_PEAK_MB:.0f})": peak <= MAX_PEAK_MB,
    }


def main(argv: list[str]) -> int:
    checks = report(tuple(int(a) for a in argv) or FACTORS)
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
