"""`make bench`: per-stage seconds and peak memory on the corpus, then on a corpus made 20× larger
by repeating every document under new ids, to show how the cost grows. Targets from the issues
are checked here, never in timed unit tests."""

from __future__ import annotations

import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from extract.pipeline import build

ROOT = Path(__file__).resolve().parent.parent
SEGMENTATION_TARGET = 2.0  # seconds for the whole corpus, without NLP (issue: corpus and extraction)
ERRATA_TARGET = 0.5  # seconds to read and apply every erratum (issue: errata applied automatically)
LINK_TARGET = 3.0  # seconds for all linking with a warm NLP cache (issue: cross-references and term links)
COLD_NLP_TARGET = 10.0  # seconds for the NLP pass with an empty cache, spaCy load included


def enlarge(root: Path, factor: int) -> Path:
    """A copy of the corpus where every [[documents]] table is repeated `factor` times."""
    target = Path(tempfile.mkdtemp(prefix="regles-bench-"))
    shutil.copytree(root / "corpus", target / "corpus")
    for manifest in (target / "corpus").glob("*/game.toml"):
        text = manifest.read_text(encoding="utf-8")
        head, *docs = re.split(r"(?m)^(?=\[\[documents\]\])", text)
        tail = ""
        if docs and "[[precedence]]" in docs[-1]:
            docs[-1], tail = docs[-1].split("[[precedence]]", 1)
            tail = "[[precedence]]" + tail
        copies = [re.sub(r'(?m)^id = "([^"]+)"', rf'id = "\1-{n}"', d) if n else d
                  for n in range(factor) for d in docs]
        manifest.write_text(head + "".join(copies) + tail, encoding="utf-8")
    return target


def run(root: Path, label: str, cache: Path) -> dict[str, float]:
    out = Path(tempfile.mkdtemp(prefix="regles-out-")) / "build"
    start = time.perf_counter()
    result = build(root, out, cache=cache)
    total = time.perf_counter() - start
    stages = " ".join(f"{k}={v:.3f}s" for k, v in result.stages.items())
    print(f"{label}: {result.entry_count} entries in {total:.3f}s ({stages})")
    shutil.rmtree(out.parent, ignore_errors=True)
    return {**result.stages, "total": total}


def main() -> int:
    cache = Path(tempfile.mkdtemp(prefix="regles-cache-")) / "lemmas.sqlite"
    try:
        cold = run(ROOT, "corpus, empty NLP cache", cache)
        base = run(ROOT, "corpus, warm NLP cache", cache)
        large_root = enlarge(ROOT, 20)
        try:
            large = run(large_root, "corpus x20", cache)
        finally:
            shutil.rmtree(large_root, ignore_errors=True)
    finally:
        shutil.rmtree(cache.parent, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    segmentation = base["normalise"] + base["segment"]
    ratio = (large["normalise"] + large["segment"]) / max(segmentation, 1e-9)
    print(f"peak memory: {peak:.0f} MiB")
    print(f"growth: x20 corpus costs x{ratio:.1f} in segmentation (linear is about x20)")
    errata = base["apply errata"]
    linking = base["nlp"] + base["link"]
    checks = {
        f"errata (read and apply): {errata:.3f}s, target < {ERRATA_TARGET}s": errata < ERRATA_TARGET,
        f"linking, warm NLP cache (nlp + link): {linking:.3f}s, target < {LINK_TARGET}s": linking < LINK_TARGET,
        f"NLP pass, empty cache: {cold['nlp']:.3f}s, target < {COLD_NLP_TARGET}s": cold["nlp"] < COLD_NLP_TARGET,
        f"segmentation (normalise + segment): {segmentation:.3f}s, target < {SEGMENTATION_TARGET}s": segmentation < SEGMENTATION_TARGET,
    }
    for label, ok in checks.items():
        print(f"{label}: {'ok' if ok else 'MISSED'}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
