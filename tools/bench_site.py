"""`make bench`, the site part: page sizes, a rule page's first paint on a throttled phone, and
the site's search box typed into in Chromium on the relevance set (tools/bench_search.py), beside
`regles search` on the same set.

    python -m tools.bench_site [BUILD_DIR]      # the first paint alone, on an existing build
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")

# A mid-range phone on a slow mobile network, as Chrome's DevTools emulate it (CDP): the CPU four
# times slower, 1.6 Mbit/s down, 750 kbit/s up, 150 ms of latency; a 375×740 screen; cache off.
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
CPU_SLOWDOWN = 4
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
RULE_PAGE = "/runewars/reference/49/"
FIRST_PAINT_TARGET = 1.5  # seconds
PAGE_WEIGHT_TARGET = 500_000  # bytes a rule page loads before the reader turns to the search box
FCP = """() => new Promise(done => {
  const seen = performance.getEntriesByName("first-contentful-paint");
  if (seen.length) return done(seen[0].startTime);
  new PerformanceObserver(list => done(list.getEntries()[0].startTime)).observe({type: "paint", buffered: true});
})"""


@contextmanager
def chromium() -> Iterator:
    """Debian's Chromium under Playwright (never a browser Playwright would download), quiet: no
    background traffic, so that a test may check that a page asks nothing of another host."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])
        try:
            yield browser
        finally:
            browser.close()


def sizes(site: Path) -> dict[str, float]:
    pages = sorted(site.rglob("*.html"), key=lambda p: p.stat().st_size)
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return {"largest_page": pages[-1].stat().st_size, "largest_name": str(pages[-1].relative_to(site)),
            "total": total, "pages": len(pages)}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextmanager
def serving(httpd: http.server.HTTPServer) -> Iterator[str]:
    """`httpd` answering on a thread while the block runs; its address."""
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def serve(folder: Path):
    """`folder` served as a plain static server sends files (as they are)."""
    return serving(http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))))


def serve_as_regles(folder: Path):
    """The site as `regles serve` serves it (text gzipped, as a static host sends it; its 404 page)."""
    from extract.cli.serve import make_server

    return serving(make_server(folder.resolve(), 0, quiet=True))


def first_paint(site: Path, runs: int = 3, compressed: bool = True) -> dict[str, float]:
    """A rule page loaded cold on the throttled phone (PHONE, CPU_SLOWDOWN, NETWORK), `runs` times,
    served by `regles serve` (or, `compressed=False`, by a server that sends files as they are):
    the median first-contentful-paint in seconds, and the bytes of the files the page loaded."""
    import statistics

    paints: list[float] = []
    weight = 0
    with (serve_as_regles if compressed else serve)(site) as url, chromium() as browser:
        for _ in range(runs):
            context = browser.new_context(**PHONE)
            page = context.new_page()
            loaded: list[str] = []
            page.on("requestfinished", lambda request, loaded=loaded: loaded.append(request.url))
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            cdp.send("Network.emulateNetworkConditions", NETWORK)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            page.goto(url + RULE_PAGE, wait_until="load")
            paints.append(page.evaluate(FCP) / 1000)
            page.wait_for_load_state("networkidle")
            weight = 0
            for address in loaded:
                path = site / address[len(url):].split("#")[0].split("?")[0].lstrip("/")
                weight += (path / "index.html" if path.is_dir() else path).stat().st_size
            context.close()
    return {"first_paint": statistics.median(paints), "slowest": max(paints), "weight": weight}


def report(build_dir: Path, render_seconds: float) -> dict[str, bool]:
    measured = sizes(build_dir / "site")
    print(f"site: {measured['pages']} pages, {measured['total'] / 1e6:.1f} MB, largest page "
          f"{measured['largest_page'] / 1000:.0f} KB ({measured['largest_name']})")
    from tools.bench_search import report as search_report

    if not CHROMIUM.is_file():
        print("the site's search box not measured: Debian's chromium is absent")
    checks = search_report(build_dir, site=True)
    if CHROMIUM.is_file():
        phone, plain = first_paint(build_dir / "site"), first_paint(build_dir / "site", compressed=False)
        print(f"rule page on a throttled phone ({CPU_SLOWDOWN}x CPU, 1.6 Mbit/s, 150 ms): first contentful paint "
              f"{phone['first_paint']:.2f}s served gzipped by `regles serve` (median of 3, slowest {phone['slowest']:.2f}s), "
              f"{plain['first_paint']:.2f}s served uncompressed; {phone['weight'] / 1000:.0f} KB of files loaded")
        checks[f"rule page first paint on a throttled phone {phone['first_paint']:.2f}s, target <= {FIRST_PAINT_TARGET}s"] = \
            phone["first_paint"] <= FIRST_PAINT_TARGET
        checks[f"rule page weight {phone['weight'] / 1000:.0f} KB, target <= {PAGE_WEIGHT_TARGET / 1000:.0f} KB"] = \
            phone["weight"] <= PAGE_WEIGHT_TARGET
    return {**checks,
        f"site stage (Markdown + MkDocs): {render_seconds:.2f}s, target < 15s": render_seconds < 15,
        f"largest page {measured['largest_page'] / 1000:.0f} KB, target < 300 KB": measured["largest_page"] < 300_000,
        f"whole site {measured['total'] / 1e6:.1f} MB, target < 30 MB": measured["total"] < 30_000_000,
    }


if __name__ == "__main__":
    import sys

    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "build") / "site"
    measured, plain = first_paint(folder), first_paint(folder, compressed=False)
    print(f"first contentful paint {measured['first_paint']:.2f}s gzipped (slowest {measured['slowest']:.2f}s), "
          f"{plain['first_paint']:.2f}s uncompressed; {measured['weight'] / 1000:.0f} KB of files loaded; "
          f"targets {FIRST_PAINT_TARGET}s, {PAGE_WEIGHT_TARGET / 1000:.0f} KB")
    sys.exit(0 if measured["first_paint"] <= FIRST_PAINT_TARGET and measured["weight"] <= PAGE_WEIGHT_TARGET else 1)
