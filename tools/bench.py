"""`make bench`: per-stage seconds and peak memory on the corpus, then on a corpus made 20× larger
by repeating every document under new ids, to show how the cost grows; `regles serve` under
load (tools/load.py); generated sources of 1, 5 and 20 MB (tools/bench_scale.py); pathological
documents of 1 and 10 MB through extract, errata --from, build and search (tools/bench_linear.py). Targets from the issues
are checked here, never in timed unit tests."""

from __future__ import annotations

import os
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from extract.pipeline import build
from tools import (
    bench_errata,
    bench_growth,
    bench_incremental,
    bench_latency,
    bench_linear,
    bench_nlp,
    bench_ocr,
    bench_readers,
    bench_scale,
    bench_site,
    load,
)
from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
SEGMENTATION_TARGET = 2.0  # seconds for the whole corpus, without NLP (issue: corpus and extraction)
ERRATA_TARGET = 0.5  # seconds to read and apply every erratum (issue: errata applied automatically)
LINK_TARGET = 3.0  # seconds for all linking with a warm NLP cache (issue: cross-references and term links)
COLD_NLP_TARGET = 10.0  # seconds for the NLP pass with an empty cache, spaCy load included
INDEX_TARGET = 3.0  # seconds to build the search index, warm NLP cache (issue: French-aware search)
QUERY_P50, QUERY_P95 = 0.005, 0.020  # seconds per in-process query over the query set
LINEAR_GROWTH = 25.0  # the x20 corpus may cost at most this many times the corpus to segment


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
        # Each copy reads a copy of its source file: documents of one source may not overlap.
        sources = re.findall(r'(?ms)^\[\[sources\]\]\n.*?(?=^\[|\Z)', head)
        extra = []
        for n in range(1, factor):
            for table in sources:
                name = re.search(r'(?m)^file = "([^"]+)"', table).group(1)
                shutil.copyfile(manifest.parent / name, manifest.parent / f"{n}_{name}")
                extra.append(table.replace(f'file = "{name}"', f'file = "{n}_{name}"').rstrip("\n") + "\n\n")
        if extra:
            at = head.index("[[sources]]")
            head = head[:at] + "".join(extra) + head[at:]
        copies = [re.sub(r'(?m)^source = "([^"]+)"', rf'source = "{n}_\1"', re.sub(r'(?m)^id = "([^"]+)"', rf'id = "\1-{n}"', d))
                  if n else d for n in range(factor) for d in docs]
        manifest.write_text(head + "".join(copies) + tail, encoding="utf-8")
    return target


def run(root: Path, label: str, cache: Path, keep: Path | None = None) -> dict[str, float]:
    out = keep or Path(tempfile.mkdtemp(prefix="regles-out-")) / "build"
    before = os.environ.get("REGLES_STAGE_CACHE")
    os.environ["REGLES_STAGE_CACHE"] = "off"  # every stage measured doing its work (incremental builds: bench_incremental)
    try:
        start = time.perf_counter()
        result = build(root, out, cache=cache)
        total = time.perf_counter() - start
    finally:
        if before is None:
            os.environ.pop("REGLES_STAGE_CACHE", None)
        else:
            os.environ["REGLES_STAGE_CACHE"] = before
    stages = " ".join(f"{k}={v:.3f}s" for k, v in result.stages.items())
    print(f"{label}: {result.entry_count} entries in {total:.3f}s ({stages})")
    if keep is None:
        shutil.rmtree(out.parent, ignore_errors=True)
    return {**result.stages, "total": total}


def segmentation_seconds(root: Path, repeat: int = 3) -> float:
    """Best of `repeat` runs of load → normalise → segment (no NLP, nothing written)."""
    from extract.pipeline import Stopwatch, read_games

    best = float("inf")
    for _ in range(repeat):
        clock = Stopwatch()
        read_games(root, clock, lambda message: None)
        best = min(best, clock.stages["normalise"] + clock.stages["segment"])
    return best


def segmentation_growth_apart(small: Path, large: Path) -> tuple[float, float]:
    """Segmentation seconds of both corpora, measured in a fresh process: in this one the
    builds above have filled the heap, and the garbage collector's passes would be measured."""
    import json
    import subprocess

    code = ("import json, sys; from pathlib import Path; from tools.bench import segmentation_seconds; "
            "print(json.dumps([segmentation_seconds(Path(a)) for a in sys.argv[1:]]))")
    done = subprocess.run([sys.executable, "-c", code, str(small), str(large)], check=True, capture_output=True, text=True)
    first, second = json.loads(done.stdout)
    return first, second


QUERY_SET = ROOT / "tests/fixtures/search_queries.toml"


def load_queries() -> list[dict]:
    import tomllib

    return tomllib.loads(QUERY_SET.read_text(encoding="utf-8"))["query"]


def evaluate(index, queries: list[dict]) -> dict:
    """Each query's top 5 against the ids it must contain: recall@5, MRR, the misses, and the
    seconds each query took. The relevance test asserts on it; `make bench` prints it."""
    times, reciprocal, recall, misses = [], [], [], []
    for item in queries:
        start = time.perf_counter()
        top = [h.id for h in index.search(item["text"], game=item.get("game"), limit=5)]
        times.append(time.perf_counter() - start)
        found = [e for e in item["expect"] if e in top]
        recall.append(len(found) / len(item["expect"]))
        reciprocal.append(1 / (1 + min(top.index(e) for e in found)) if found else 0.0)
        if len(found) < len(item["expect"]):
            misses.append(f"{item['text']!r} expected {item['expect']} — top 5: {top}")
    return {"recall": sum(recall) / len(recall), "mrr": sum(reciprocal) / len(reciprocal), "misses": misses,
            "times": sorted(times)}


def measure_search(folder: Path, cache: Path) -> dict[str, float]:
    """Latency of every query of the test query set, in process, and the misses in its top 5."""
    from extract.search.engine import SearchIndex

    queries = load_queries()
    index = SearchIndex(folder, cache)
    evaluate(index, queries)  # warm-up: the first queries fill the stemmer's cache
    result = evaluate(index, queries)
    for miss in result["misses"]:
        print(f"  search miss: {miss}")
    times = result["times"]
    return {"p50": times[len(times) // 2], "p95": times[int(len(times) * 0.95) - 1],
            "recall": result["recall"], "mrr": result["mrr"], "queries": len(queries)}


def measure_search_apart(folder: Path, cache: Path) -> dict[str, float]:
    """The query latencies in a process of their own, as a program using the index would have
    them (not in this one, whose heap the builds above have filled: its garbage collector would
    be measured too)."""
    import json
    import subprocess

    code = ("import json, sys; from pathlib import Path; from tools.bench import measure_search; "
            "print(json.dumps(measure_search(Path(sys.argv[1]), Path(sys.argv[2]))))")
    done = subprocess.run([sys.executable, "-c", code, str(folder), str(cache)], check=True, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    for line in lines[:-1]:
        print(line)
    return json.loads(lines[-1])


def cli_first_result(root: Path, cache: Path) -> float:
    """Seconds from starting `regles search` to its output, as a user waits for it."""
    import os
    import subprocess

    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sys; from extract.cli import main; sys.exit(main(sys.argv[1:]))",
                    "--root", str(root), "search", "ligne de vue", "--limit", "1"],
                   check=True, capture_output=True, env={**os.environ, "REGLES_CACHE_DIR": str(cache.parent)})
    return time.perf_counter() - start


def main() -> int:
    cache = Path(tempfile.mkdtemp(prefix="regles-cache-")) / "lemmas.sqlite"
    try:
        cold = run(ROOT, "corpus, empty NLP cache", cache)
        kept = Path(tempfile.mkdtemp(prefix="regles-root-"))
        base = run(ROOT, "corpus, warm NLP cache", cache, keep=kept / "build")
        searching = measure_search_apart(kept / "build" / "search", cache)
        startup = cli_first_result(kept, cache)
        print("search latency against a plain BM25 on the same model (tools/bench_latency.py):")
        latency_checks = bench_latency.report(kept / "build")
        site_checks = bench_site.report(kept / "build", base["render"])
        site_checks.update(load.report(kept / "build" / "site"))  # regles serve, 200 clients for 10 s
        ocr_checks = bench_ocr.report(kept / "build")
        cache_copy = Path(tempfile.mkdtemp(prefix="regles-lemmas-")) / "lemmas.sqlite"
        shutil.copyfile(cache, cache_copy)
        shutil.rmtree(kept, ignore_errors=True)
        large_root = enlarge(ROOT, 20)
        try:
            large = run(large_root, "corpus x20", cache)
            alone, alone_x20 = segmentation_growth_apart(ROOT, large_root)
        finally:
            shutil.rmtree(large_root, ignore_errors=True)
    finally:
        shutil.rmtree(cache.parent, ignore_errors=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    segmentation = base["normalise"] + base["segment"]
    ratio = alone_x20 / max(alone, 1e-9)
    print(f"peak memory: {peak:.0f} MiB")
    print("growth of the other stages, x20 corpus: " + ", ".join(
        f"{stage} x{large[stage] / max(base[stage], 1e-9):.1f}" for stage in ("apply errata", "link", "index", "render")))
    errata = base["apply errata"]
    linking = base["nlp"] + base["link"]
    print(f"search: {searching['queries']} queries, recall@5 {searching['recall']:.2f}, MRR {searching['mrr']:.2f}; "
          f"`regles search` start-up to first result {startup:.2f}s")
    checks = {
        f"search index build, warm NLP cache: {base['index']:.3f}s, target < {INDEX_TARGET}s": base["index"] < INDEX_TARGET,
        f"query latency p50 {searching['p50'] * 1000:.1f} ms (target <= {QUERY_P50 * 1000:.0f}), "
        f"p95 {searching['p95'] * 1000:.1f} ms (target <= {QUERY_P95 * 1000:.0f})":
            searching["p50"] <= QUERY_P50 and searching["p95"] <= QUERY_P95,
        f"errata (read and apply): {errata:.3f}s, target < {ERRATA_TARGET}s": errata < ERRATA_TARGET,
        f"linking, warm NLP cache (nlp + link): {linking:.3f}s, target < {LINK_TARGET}s": linking < LINK_TARGET,
        f"NLP pass, empty cache: {cold['nlp']:.3f}s, target < {COLD_NLP_TARGET}s": cold["nlp"] < COLD_NLP_TARGET,
        f"segmentation (normalise + segment): {segmentation:.3f}s, target < {SEGMENTATION_TARGET}s": segmentation < SEGMENTATION_TARGET,
        f"segmentation growth, in a process of its own: {alone:.3f}s, x20 corpus {alone_x20:.3f}s = x{ratio:.1f} "
        f"(linear: at most x{LINEAR_GROWTH:.0f})": ratio <= LINEAR_GROWTH,
    }
    checks.update(site_checks)
    checks.update(ocr_checks)
    checks.update(latency_checks)
    print("incremental builds, each build in a process of its own (tools/bench_incremental.py):")
    checks.update(bench_incremental.report(cache_copy))
    shutil.rmtree(cache_copy.parent, ignore_errors=True)
    print("the cold NLP pass against a plain nlp.pipe, fresh processes (tools/bench_nlp.py):")
    checks.update(bench_nlp.report())
    print("errata reader on ../shared/external/errata-devset (tools/bench_errata.py):")
    checks.update(bench_errata.report())
    print("readers, each document in a process of its own:")
    checks.update(bench_readers.report())
    print("large inputs, generated French rule text, each size in a process of its own:")
    checks.update(bench_scale.report())
    print("pathological documents of 1 and 10 MB, each command in a process of its own (tools/bench_linear.py):")
    checks.update(bench_linear.report())
    print("growth with the corpus, x1, x5, x20 copies (x50 with REGLES_BENCH_X50=1), each build in a process of its own "
          "(tools/bench_growth.py):")
    checks.update(bench_growth.report(bench_growth.FACTORS + ((50,) if os.environ.get("REGLES_BENCH_X50") else ())))
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
