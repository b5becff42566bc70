"""The site scanned by axe-core (the copy axe-playwright-python carries: nothing is fetched), in
Debian's Chromium: the home page, a rule page, the errata page, a FAQ page, a printed index and the
404 page, on a desktop in the light and the dark palette and on a phone. No serious or critical
violation; the others are listed when the test fails, not allowed."""

from __future__ import annotations

import pytest

from tools.bench_site import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (make test installs it)")
axe_module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is absent (make test installs it with apt-get)")]

PAGES = {
    "home": "/",
    "rule": "/runewars/reference/49/",
    "errata": "/runewars/errata/",
    "faq": "/runewars/faq/faq/",
    "index": "/runewars/reference/index/",
    "404": "/nulle-part/",
}
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True},
}
# On a phone, the pages whose layout differs most from the desktop's: the header and its search
# box, a rule with its collapsed lists, the wide errata table, the 404 page.
ON_A_PHONE = ("home", "rule", "errata", "404")
BLOCKING = ("serious", "critical")




def violations(browser, server: str, device: str, scheme: str) -> dict[str, list[str]]:
    axe = axe_module.Axe()
    context = browser.new_context(**DEVICES[device], color_scheme=scheme)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        for name, path in PAGES.items():
            if device == "phone" and name not in ON_A_PHONE:
                continue
            response = page.goto(server + path)
            assert response is not None and response.status == (404 if name == "404" else 200), path
            results = axe.run(page).response
            found[name] = [f"{v['impact']} {v['id']}: {len(v['nodes'])}× {v['nodes'][0]['target']} — {v['help']}"
                           for v in results["violations"]]
    finally:
        context.close()
    return found


# The dark palette's colours are the same on a phone: its layout is scanned in the light one.
@pytest.mark.parametrize(("device", "scheme"), [("desktop", "light"), ("desktop", "dark"), ("phone", "light")])
def test_no_serious_or_critical_accessibility_violation(browser, server, device, scheme):
    found = violations(browser, server, device, scheme)
    blocking = {page: [v for v in items if v.split()[0] in BLOCKING] for page, items in found.items()}
    assert not any(blocking.values()), {page: items for page, items in found.items() if items}


def test_the_404_page_is_french_with_a_way_home(browser, server):
    page = browser.new_page()
    try:
        page.goto(server + "/une/adresse/fausse/")
        assert page.locator("h1").inner_text() == "Page introuvable"
        page.get_by_role("link", name="l'accueil").click()
        page.wait_for_url(f"{server}/")
        assert page.locator("#regles-search-input").count() == 1
    finally:
        page.close()
