"""Speed of the format readers (issue: real document readers), each document read in a process
of its own so that its peak memory is its own: the devset PDFs in seconds per page, the Markdown
files in milliseconds per 1,000 lines, and a generated 200-page PDF for memory.

    python -m tools.bench_readers        (also run by `make bench`)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tools import bench_headings
from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
EXTERNAL = ROOT.parent / "shared" / "external"
PDF_PAGE_TARGET = 0.300  # seconds per page, this machine's 2 cores
MARKDOWN_TARGET = 0.050  # seconds per 1,000 lines
MEMORY_TARGET = 500  # MiB for a 200-page PDF

MEASURE = """
import json, os, sys, time
from pathlib import Path
from extract.read import read_document
from tools.peak import own_peak_kib
path = Path(sys.argv[1])
start, times = time.perf_counter(), os.times()
reading = read_document(path)
seconds = time.perf_counter() - start
done = os.times()
# CPU of this process and of the processes the reading forked (the bounded reader, its page helpers)
cpu = sum(getattr(done, k) - getattr(times, k) for k in ("user", "system", "children_user", "children_system"))
lines = len(path.read_text(encoding="utf-8").splitlines()) if reading.format != "pdf" else 0
found = {"seconds": seconds, "cpu": cpu, "pages": reading.pages, "lines": lines, "peak_mib": own_peak_kib() / 1024}
if reading.format == "pdf":
    # the baseline: plain pdfplumber giving what the reader takes as input, one page after the other
    import pdfplumber
    start, cpu_start = time.perf_counter(), time.process_time()
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            _ = (page.chars, page.images, page.rects, page.curves, page.lines)
            page.close()
    found["plain_seconds"] = time.perf_counter() - start
    found["plain_cpu"] = time.process_time() - cpu_start
elif reading.format == "markdown":
    # the baseline: plain markdown-it parsing the same text with the reader's extensions
    from markdown_it import MarkdownIt
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    MarkdownIt("commonmark").enable("table").enable("strikethrough").parse(text)
    found["plain_seconds"] = time.perf_counter() - start
print(json.dumps(found))
"""


def measure(path: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(done.stdout)


RUNS = 3  # per document: the median, as the other benchmarks take (one run of a two-page leaflet
# or a 30-line file swings by a third with whatever else the machine does)


def measure_median(path: Path) -> dict:
    runs = [measure(path) for _ in range(RUNS)]
    failed = [run for run in runs if "error" in run]
    return failed[0] if failed else sorted(runs, key=lambda run: run["seconds"])[RUNS // 2]


def long_pdf(folder: Path, pages: int = 200) -> Path:
    """A two-column rulebook of `pages` pages, generated (fpdf2, a test dependency)."""
    from fpdf import FPDF

    words = ("le joueur actif pose une carte devant lui puis pioche une nouvelle carte sans la regarder et la garde "
             "en main jusqu'au prochain tour de jeu").split()
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    for page in range(pages):
        pdf.add_page()
        pdf.set_font("Helvetica", style="B", size=16)
        pdf.set_xy(40, 40)
        pdf.cell(500, 20, f"Chapitre {page + 1}")
        pdf.set_font("Helvetica", size=10)
        for column in range(2):
            pdf.set_xy(40 + column * 265, 80)
            text = " ".join(words[(page + column + i * 7) % len(words)] for i in range(420)) + "."
            pdf.multi_cell(245, 12.5, text)
    path = folder / "long.pdf"
    pdf.output(str(path))
    return path


def report() -> dict[str, bool]:
    """Print per-document figures (speed, then the heading tree against its gold); return the
    targets checked."""
    checks = speed()
    print("PDF headings against the hand-labelled gold (tools/bench_headings.py):")
    checks.update(bench_headings.report())
    return checks


def speed() -> dict[str, bool]:
    """Print per-document timings; return the speed and memory targets checked."""
    checks: dict[str, bool] = {}
    pdfs = sorted(EXTERNAL.glob("french-rules-devset/*/*.pdf")) + sorted(EXTERNAL.glob("deadzone-v2/*.pdf"))
    markdown = sorted(EXTERNAL.glob("**/*.md"))
    if not pdfs and not markdown:
        print("readers: ../shared/external is absent, devset timings skipped")
    worst_page = worst_cpu = worst_plain = 0.0
    for path in pdfs:
        found = measure_median(path)
        if "error" in found:
            print(f"  pdf {path.parent.name}/{path.name}: not read ({found['error'][:80]})")
            continue
        per_page = found["seconds"] / max(found["pages"] or 1, 1)
        cpu_page = found["cpu"] / max(found["pages"] or 1, 1)
        worst_page = max(worst_page, per_page)
        worst_cpu = max(worst_cpu, cpu_page)
        plain_page = found["plain_seconds"] / max(found["pages"] or 1, 1)
        worst_plain = max(worst_plain, plain_page)
        print(f"  pdf {path.parent.name}/{path.name}: {found['pages']} pages, {found['seconds']:.2f}s, "
              f"{per_page * 1000:.0f} ms/page wall, {cpu_page * 1000:.0f} ms/page CPU (all its processes), "
              f"peak {found['peak_mib']:.0f} MiB; plain pdfplumber (open, chars, images, rects, curves, lines; "
              f"one process) {plain_page * 1000:.0f} ms/page: ours x{per_page / plain_page:.2f} wall, "
              f"x{found['cpu'] / found['plain_cpu']:.2f} CPU")
    lines = seconds = plain = 0.0
    for path in markdown:
        found = measure_median(path)
        if "error" not in found:
            lines += found["lines"]
            seconds += found["seconds"]
            plain += found.get("plain_seconds", 0.0)
    if pdfs:
        # the clock a user waits (the pages are read on every core: CPU, shown beside it, is the sum)
        checks[f"PDF reading: worst {worst_page * 1000:.0f} ms/page on the devset, wall clock (target <= "
               f"{PDF_PAGE_TARGET * 1000:.0f}); worst CPU {worst_cpu * 1000:.0f} ms/page; plain pdfplumber alone: worst "
               f"{worst_plain * 1000:.0f} ms/page"] = worst_page <= PDF_PAGE_TARGET
    if lines:
        per_k = seconds / lines * 1000
        checks[f"Markdown reading: {per_k * 1000:.1f} ms per 1,000 lines over {len(markdown)} files "
               f"(target <= {MARKDOWN_TARGET * 1000:.0f}); plain markdown-it parsing alone "
               f"{plain / lines * 1e6:.1f} ms per 1,000 lines: ours x{seconds / max(plain, 1e-9):.2f}"] = per_k <= MARKDOWN_TARGET
    with tempfile.TemporaryDirectory() as folder:
        try:
            path = long_pdf(Path(folder))
        except ImportError:
            print("readers: fpdf2 is not installed, the 200-page PDF is skipped")
            return checks
        found = measure(path)
        if "error" in found:
            checks[f"200-page PDF: not read ({found['error']})"] = False
        else:
            checks[f"200-page PDF: {found['seconds']:.1f}s ({found['seconds'] / 200 * 1000:.0f} ms/page), "
                   f"peak {found['peak_mib']:.0f} MiB (target <= {MEMORY_TARGET})"] = found["peak_mib"] <= MEMORY_TARGET
    return checks


def main() -> int:
    checks = report()
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
