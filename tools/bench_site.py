"""`make bench`, the site part: page sizes, and the measurement behind the choice of the site's
search: Material's built-in search (lunr, French stemmer) against Pagefind, typed into each
one's search box in Chromium, on this corpus."""

from __future__ import annotations

import functools
import http.server
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# (query as typed, where the right rule is): the cases the site's search must handle.
QUERIES = [
    ("unite", "/runewars/reference/88/"),
    ("attaquent", "/runewars/reference/9/"),
    ("desengagement", "/runewars/reference/36/"),
    ("l'unité", "/runewars/reference/88/"),
    ("86.11", "/runewars/reference/86/"),
    ("Dread", "/sda-jfe/tournoi/"),
]


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


def lunr_site(docs: Path, out: Path) -> None:
    """The same Markdown built with Material's own search (French) and no theme overrides."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from extract.publish.site import TOOL_ROOT

    config = load_config(str(TOOL_ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(out), strict=False,
                         theme={"name": "material", "language": "fr", "font": False},
                         plugins=[{"search": {"lang": ["fr"]}}])
    build(config)


def first_links(page, url: str, query: str, box: str, results: str, opener: str | None = None) -> list[str]:
    page.goto(url)
    if opener:
        page.click(opener)
    page.fill(box, query)
    try:
        page.wait_for_selector(results, timeout=4000)
    except Exception:  # no result at all: the selector never appears
        return []
    page.wait_for_timeout(500)
    return [a.get_attribute("href") or "" for a in page.locator(results).all()][:10]


def compare_search(build_dir: Path) -> list[tuple[str, bool, bool]] | None:
    """For each query: did lunr, did Pagefind, show the right rule among its first results?"""
    if not CHROMIUM.is_file():
        print("site search comparison skipped: Debian's chromium is absent")
        return None
    from playwright.sync_api import sync_playwright

    scratch = Path(tempfile.mkdtemp(prefix="regles-lunr-"))
    try:
        lunr_site(build_dir / "docs", scratch / "site")
        rows = []
        with serve(scratch / "site") as lunr, serve(build_dir / "site") as pagefind, sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page()
            for query, expected in QUERIES:
                with_lunr = first_links(page, f"{lunr}/", query, "input.md-search__input", "a.md-search-result__link",
                                        opener="input.md-search__input")
                with_pagefind = first_links(page, f"{pagefind}/", query, ".pagefind-ui__search-input",
                                            ".pagefind-ui__result-link")
                rows.append((query, any(expected in link for link in with_lunr), any(expected in link for link in with_pagefind)))
            browser.close()
        return rows
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def report(build_dir: Path, render_seconds: float) -> dict[str, bool]:
    measured = sizes(build_dir / "site")
    print(f"site: {measured['pages']} pages, {measured['total'] / 1e6:.1f} MB, largest page "
          f"{measured['largest_page'] / 1000:.0f} KB ({measured['largest_name']})")
    rows = compare_search(build_dir)
    if rows is not None:
        print("site search, right rule among the first results:  query | lunr (Material) | Pagefind")
        for query, lunr, pagefind in rows:
            print(f"  {query!r:>16} | {'yes' if lunr else 'no':>3} | {'yes' if pagefind else 'no':>3}")
    return {
        f"site stage (Markdown + MkDocs + Pagefind): {render_seconds:.2f}s, target < 15s": render_seconds < 15,
        f"largest page {measured['largest_page'] / 1000:.0f} KB, target < 300 KB": measured["largest_page"] < 300_000,
        f"whole site {measured['total'] / 1e6:.1f} MB, target < 30 MB": measured["total"] < 30_000_000,
    }
