"""The site offline and installable (extract/publish/offline.py, site/templates/sw.js.j2,
site/assets/manifest.webmanifest): what the service worker stores and its version, then in
Debian's Chromium, a site visited once and used with the network gone."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest

from extract.publish.offline import WORKER, served_url, write_worker
from tests.conftest import ROOT
from tools.bench_site import CHROMIUM

LISTED = re.compile(r"const FILES = (\[.*?\]);", re.S)


def small_site(folder: Path) -> Path:
    """A site of three pages, an asset, what the worker leaves out, and the page script that
    registers the worker (as site/overrides/main.html does)."""
    register = ('<script>navigator.serviceWorker.register("{root}sw.js")</script>')
    pages = {"index.html": "<h1>Accueil</h1>", "a/index.html": "<h1>Page A</h1>", "404.html": "<h1>Page introuvable</h1>"}
    for name, body in pages.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        root = "../" * name.count("/")
        path.write_text(f"<!doctype html><title>{name}</title>{body}" + register.format(root=root), encoding="utf-8")
    for name in ("assets/search-model.json", "assets/regles.css", "assets/bundle.js.map", "api/demo/x.json",
                 "assets/javascripts/lunr/min/lunr.fr.min.js", "sitemap.xml"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("{}", encoding="utf-8")
    return folder


def listed(site: Path) -> list[str]:
    found = LISTED.search((site / WORKER).read_text(encoding="utf-8"))
    assert found is not None
    return json.loads(found.group(1))


def test_a_folder_page_is_stored_under_the_address_the_site_links():
    assert served_url("index.html") == "./"
    assert served_url("runewars/reference/49/index.html") == "runewars/reference/49/"
    assert served_url("404.html") == "404.html"
    assert served_url("assets/search-model.json") == "assets/search-model.json"


def test_the_worker_stores_pages_model_and_assets_not_the_api_nor_source_maps(tmp_path):
    site = small_site(tmp_path / "site")
    offline = write_worker(site)
    assert listed(site) == offline.files == ["404.html", "a/", "assets/regles.css", "assets/search-model.json", "./"]
    assert offline.size == sum((site / n).stat().st_size for n in ("index.html", "404.html", "a/index.html",
                                                                   "assets/regles.css", "assets/search-model.json"))


def test_the_version_is_the_content_s_same_bytes_same_worker(tmp_path):
    site = small_site(tmp_path / "site")
    first = write_worker(site)
    worker = (site / WORKER).read_bytes()
    assert write_worker(site) == first and (site / WORKER).read_bytes() == worker  # the worker itself is not stored
    (site / "api" / "demo" / "x.json").write_text('{"changed": 1}', encoding="utf-8")
    assert write_worker(site).version == first.version  # what it does not store does not change it
    (site / "a" / "index.html").write_text("<h1>Page A, corrigée</h1>", encoding="utf-8")
    second = write_worker(site)
    assert second.version != first.version and f'"{second.version}"' in (site / WORKER).read_text(encoding="utf-8")
    assert (site / WORKER).read_bytes() != worker


def test_the_manifest_names_the_site_and_its_icons_at_their_sizes():
    assets = ROOT / "site" / "assets"
    manifest = json.loads((assets / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == manifest["scope"] == "../"  # the manifest is in assets/: the site's root
    assert manifest["display"] == "standalone" and manifest["lang"] == "fr" and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        data = (assets / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and icon["type"] == "image/png"
        width, height = struct.unpack(">II", data[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes  # what a phone needs to install the site


# ---------------------------------------------------------------- in Chromium

in_chromium = pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is absent (make test installs it)")
CONTROLLED = "navigator.serviceWorker.controller !== null"
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}
BOX = "#regles-search .regles-search-input"


def cache_names(page, expected: list[str], seconds: float = 30) -> list[str]:
    """The page's cache names once they are `expected` (or when `seconds` have passed)."""
    for _ in range(int(seconds * 5)):
        names = page.evaluate("caches.keys()")
        if names == expected:
            break
        page.wait_for_timeout(200)
    return names


@pytest.fixture
def phone_context(browser):
    context = browser.new_context(**PHONE)
    yield context
    context.close()


@pytest.mark.browser
@in_chromium
def test_after_one_visit_pages_and_search_work_offline(phone_context, server):
    """The defect: open the site, go offline, tap another page: the browser's error page."""
    page = phone_context.new_page()
    page.goto(f"{server}/runewars/reference/49/")
    page.wait_for_function(CONTROLLED, timeout=60_000)  # the worker stored the site, then took the page
    phone_context.set_offline(True)
    page.locator(".regles-pager a.regles-next").first.click()  # a link followed, with no network
    page.wait_for_url("**/runewars/reference/50/#50")
    assert page.locator("h1").first.inner_text().startswith("50")
    page.goto(f"{server}/sda-jfe/tournoi/5/#5.10")  # a page of another game, never opened
    assert page.locator('[id="5.10"]').is_visible()
    page.fill(BOX, "ligne de vue")  # the search model, from the store
    page.wait_for_selector("#regles-search .regles-search-link", timeout=10_000)
    assert page.locator("#regles-search .regles-search-link").count() >= 3
    page.goto(f"{server}/runewars/reference/8")  # an address without its final slash
    assert page.url.endswith("/runewars/reference/8/") and page.locator('[id="8"]').count() == 1
    page.goto(f"{server}/nulle/part/")  # not a page of the site: the site's own 404 page
    assert page.locator("h1").inner_text() == "Page introuvable"


@pytest.mark.browser
@in_chromium
def test_the_site_is_installable(phone_context, server):
    page = phone_context.new_page()
    page.goto(f"{server}/")
    page.wait_for_function(CONTROLLED, timeout=60_000)
    cdp = phone_context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/assets/manifest.webmanifest")
    # a browser context of Playwright is a private window: the one reason left is that one
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}, errors


@pytest.mark.browser
@in_chromium
def test_a_changed_site_replaces_the_stored_one(browser, tmp_path):
    """A new version of the site: the next visit installs its worker, which stores the new pages
    and drops the old cache; offline, the new text is shown."""
    from tools.bench_site import serve_as_regles

    site = small_site(tmp_path / "site")
    old = write_worker(site)
    context = browser.new_context()
    try:
        with serve_as_regles(site) as server:
            page = context.new_page()
            page.goto(f"{server}/")
            page.wait_for_function(CONTROLLED, timeout=30_000)
            (site / "a" / "index.html").write_text("<!doctype html><h1>Page A, version 2</h1>", encoding="utf-8")
            new = write_worker(site)
            page.reload()  # the browser checks the worker's bytes on a navigation
            assert old.version != new.version
            assert cache_names(page, [f"regles-{new.version}"]) == [f"regles-{new.version}"]  # the old one dropped
            context.set_offline(True)
            page.goto(f"{server}/a/")
            assert page.locator("h1").inner_text() == "Page A, version 2"
    finally:
        context.close()
