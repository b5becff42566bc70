"""`make bench`, the site part: page sizes, and the site's search box typed into in Chromium on
the relevance set (tools/bench_search.py), beside `regles search` on the same set."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")


def sizes(site: Path) -> dict[str, float]:
    pages = sorted(site.rglob("*.html"), key=lambda p: p.stat().st_size)
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return {"largest_page": pages[-1].stat().st_size, "largest_name": str(pages[-1].relative_to(site)),
            "total": total, "pages": len(pages)}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def report(build_dir: Path, render_seconds: float) -> dict[str, bool]:
    measured = sizes(build_dir / "site")
    print(f"site: {measured['pages']} pages, {measured['total'] / 1e6:.1f} MB, largest page "
          f"{measured['largest_page'] / 1000:.0f} KB ({measured['largest_name']})")
    from tools.bench_search import report as search_report

    if not CHROMIUM.is_file():
        print("the site's search box not measured: Debian's chromium is absent")
    checks = search_report(build_dir, site=True)
    return {**checks,
        f"site stage (Markdown + MkDocs): {render_seconds:.2f}s, target < 15s": render_seconds < 15,
        f"largest page {measured['largest_page'] / 1000:.0f} KB, target < 300 KB": measured["largest_page"] < 300_000,
        f"whole site {measured['total'] / 1e6:.1f} MB, target < 30 MB": measured["total"] < 30_000_000,
    }
