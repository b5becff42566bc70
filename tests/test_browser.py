"""The site in a real browser: Debian's Chromium driven by Playwright, the site served on
127.0.0.1. `make test` installs chromium when it is missing; without it these tests skip."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import ROOT
from tools.bench_site import CHROMIUM, serve

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (make test installs it)")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is absent (make test installs it with apt-get)")]
SCREENSHOTS = ROOT / "build" / "screenshots"

# Pagefind's JavaScript API, for "must find" checks beyond the first results the box shows.
FIND = """async (query) => {
  const pagefind = await import('/pagefind/pagefind.js');
  const found = await pagefind.search(reglesTerm(query));
  const pages = await Promise.all(found.results.map((result) => result.data()));
  return pages.flatMap((page) => [page.url, ...page.sub_results.map((sub) => sub.url)]);
}"""


@pytest.fixture(scope="module")
def server(built) -> Iterator[str]:
    with serve(built["out"] / "site") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    outside: list[str] = []
    opened.on("request", lambda request: outside.append(request.url) if not request.url.startswith(server) else None)
    yield opened
    context.close()
    assert outside == [], f"the site made external requests: {outside}"


SHOWN = "Array.from(document.querySelectorAll('.pagefind-ui__result-link')).slice(0, 10).map(a => a.getAttribute('href'))"


def type_query(page, server: str, query: str, expected: str = "") -> list[str]:
    """Type into the search box; wait (10 s at most) for `expected` among the first ten links
    shown, since Pagefind fills its results in as their fragments arrive."""
    page.goto(f"{server}/")
    page.fill(".pagefind-ui__search-input", query)
    page.wait_for_selector(".pagefind-ui__result-link", timeout=10_000)
    try:
        page.wait_for_function(f"({SHOWN}).some(href => href && href.startsWith({expected!r}))", timeout=10_000)
    except playwright_api.TimeoutError:
        pass  # the assertion below shows what was found instead
    return page.evaluate(SHOWN)


@pytest.mark.parametrize(("query", "expected"), [
    ("unite", "/runewars/reference/88/"),  # without its accent
    ("attaquent", "/runewars/reference/9/"),  # a verb form: Attaque
    ("desengagement", "/runewars/reference/36/"),  # Désengagement
    ("l'unité", "/runewars/reference/88/"),
    ("86.11", "/runewars/reference/86/#86.11"),  # a rule number finds its rule
    ("Dread", "/sda-jfe/tournoi/"),
])
def test_search_box_finds_french_as_typed(page, server, query, expected):
    links = type_query(page, server, query, expected)
    assert any(link.startswith(expected) for link in links), links


def test_unite_finds_l_unite(page, server):
    page.goto(f"{server}/")
    page.wait_for_function("typeof reglesTerm === 'function'")
    found = page.evaluate(FIND, "unité")
    # 90.2 says "l'unité" and never "unité" alone: the elision is split when indexing.
    assert "/runewars/reference/90/#90.2" in found


def test_following_a_result_reaches_its_anchor(page, server):
    type_query(page, server, "86.11", "/runewars/reference/86/#86.11")
    page.locator('.pagefind-ui__result-link[href$="#86.11"]').first.click()
    page.wait_for_url("**/runewars/reference/86/#86.11")
    rule = page.locator('[id="86.11"]')
    box = rule.bounding_box()
    assert rule.is_visible() and 0 <= box["y"] < 900  # scrolled to: in the viewport
    assert "Supprimé" in page.content()


def test_rule_49_changed_by_an_erratum_shows_both_texts(page, server):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{server}/")
    page.screenshot(path=str(SCREENSHOTS / "home.png"), full_page=True)
    page.goto(f"{server}/runewars/reference/49/")
    assert page.locator(".regles-badge.regles-amended").first.inner_text() == "Modifié"
    article = page.locator("article")
    assert "qui nécessite une ligne de vue" in article.inner_text()
    printed = page.locator("details.regles-printed").first
    assert not printed.locator(".regles-printed-text").is_visible()
    printed.locator("summary").click()
    assert "Pour effectuer une attaque à distance (♣) ou résoudre un autre effet à distance, une unité" in \
        printed.locator(".regles-printed-text").inner_text()
    assert printed.locator("del").first.inner_text() == "(♣)"
    page.screenshot(path=str(SCREENSHOTS / "rule-49.png"), full_page=True)
    assert (SCREENSHOTS / "home.png").stat().st_size > 10_000


def test_following_a_sujets_connexes_link(page, server):
    page.goto(f"{server}/runewars/reference/49/")
    page.get_by_role("link", name="8 Arc de tir").first.click()
    page.wait_for_url("**/runewars/reference/8/#8")
    assert page.locator("h1").first.inner_text().startswith("8 Arc de tir")
