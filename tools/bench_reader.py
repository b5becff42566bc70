"""How fast `extract.reader` loads a build and answers `entry()`: measured here, not in a timed
unit test (the machine's load would make such a test flaky).

    python -m tools.bench_reader [BUILD_DIR]     # default: build/
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("spacy", "mkdocs", "whoosh", "pdfplumber", "jinja2", "jsonschema")


def main(argv: list[str]) -> int:
    build = Path(argv[0]) if argv else ROOT / "build"
    # A fresh interpreter: the import's cost and what it pulls in, as a user's script sees them.
    script = ("import sys, time; t = time.perf_counter(); from extract import reader; r = reader.load(sys.argv[1]); "
              "print(round(time.perf_counter() - t, 4), len(r), ' '.join(m for m in sys.argv[2:] if m in sys.modules))")
    cold = subprocess.run([sys.executable, "-c", script, str(build), *HEAVY], capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout.split(" ", 2)
    from extract import reader

    loads = []
    for _ in range(5):
        start = time.perf_counter()
        rules = reader.load(build)
        loads.append(time.perf_counter() - start)
    ids = [e["id"] for e in rules.entries()]
    start = time.perf_counter()
    rounds = 200
    for _ in range(rounds):
        for entry_id in ids:
            rules.entry(entry_id)
    lookup = (time.perf_counter() - start) / (rounds * len(ids))
    load = statistics.median(loads)
    print(f"import + load in a fresh process: {float(cold[0]):.3f} s for {cold[1]} entries; heavy modules imported: "
          f"{cold[2].strip() or 'none'}")
    print(f"load (median of 5, warm): {load:.3f} s for {len(rules)} entries in {len(rules.games)} games (target ≤ 0.3 s)")
    print(f"entry(): {lookup * 1e9:.0f} ns per lookup")
    return 0 if load <= 0.3 and not cold[2].strip() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
