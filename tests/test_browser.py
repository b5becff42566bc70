"""The site in a real browser: Debian's Chromium driven by Playwright, the site served on
127.0.0.1. `make test` installs chromium when it is missing; without it these tests skip."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from tests.helpers import phare_with_versions
from tools.bench_site import CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (make test installs it)")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is absent (make test installs it with apt-get)")]
SCREENSHOTS = ROOT / "screenshots"  # beside build/: `make build` refuses a build/ it did not write

# The box's own search function: the ids it would show for a query (and a game).
FIND = "([query, game]) => window.reglesSearch(query, game)"


def opened_page(browser, server, **options):
    """A page in a new context; on leaving, no request may have gone to another host."""
    context = browser.new_context(**options)
    opened = context.new_page()
    outside: list[str] = []
    opened.on("request", lambda request: outside.append(request.url) if not request.url.startswith(server) else None)
    yield opened
    context.close()
    assert outside == [], f"the site made external requests: {outside}"


@pytest.fixture
def page(browser, server):
    yield from opened_page(browser, server, viewport={"width": 1280, "height": 900})


SHOWN = ("Array.from(document.querySelectorAll('#regles-search .regles-search-link')).slice(0, 10)"
         ".map(a => a.href.replace(location.origin, ''))")
BOX = "#regles-search .regles-search-input"


def type_query(page, server: str, query: str, expected: str = "", reload: bool = True) -> list[str]:
    """Type into the search box (of a new home page, or `reload=False`, of the page as it is); wait
    (10 s at most) for `expected` among the first ten links."""
    if reload:
        page.goto(f"{server}/")
    else:  # the last query's results gone first: they must not answer for this one
        page.fill(BOX, "")
        page.wait_for_function(f"({SHOWN}).length === 0")
    page.fill(BOX, query)
    page.wait_for_selector("#regles-search .regles-search-link", timeout=10_000)
    try:
        page.wait_for_function(f"({SHOWN}).some(href => href && href.startsWith({expected!r}))", timeout=10_000)
    except playwright_api.TimeoutError:
        pass  # the assertion below shows what was found instead
    return page.evaluate(SHOWN)


@pytest.mark.parametrize(("query", "expected"), [
    ("unite", "/runewars/reference/88/"),  # without its accent
    ("attaquent", "/runewars/reference/9/"),  # a verb form: Attaque
    ("desengagement", "/runewars/reference/77/"),  # Désengagement: « Voir Repositionnement »
    ("l'unité", "/runewars/reference/88/"),
    ("86.11", "/runewars/reference/86/#86.11"),  # a rule number finds its rule
    ("Dread", "/sda-jfe/tournoi/8/#8.41"),
    ("ligne de vue", "/runewars/reference/49/#49"),  # not the FAQ's errata page
    ("comment fonctionne la panique", "/runewars/"),  # a whole question
    ("que se passe-t-il si le paquet moral est vide", "/runewars/reference/85/#85.7"),
    ("debordment", "/runewars/"),  # a typo
    ("line of sight", "/"),  # English names
])
def test_search_box_finds_french_as_typed(box, server, query, expected):
    links = type_query(box, server, query, expected, reload=False)
    assert any(link.startswith(expected) for link in links), links


@pytest.fixture(scope="module")
def box(browser, server):
    """One home page for the queries typed in turn into its box (each replaces the last)."""
    for opened in opened_page(browser, server, viewport={"width": 1280, "height": 900}):
        opened.goto(f"{server}/")
        yield opened


def test_spellings_meet_in_the_box(page, server):
    page.goto(f"{server}/")
    page.focus(BOX)  # the model loads when the reader turns to the box
    page.wait_for_function("window.reglesModel !== undefined")
    assert page.evaluate(FIND, ["unité", None]) == page.evaluate(FIND, ["unite", None]) == \
        page.evaluate(FIND, ["l'unité", None])


def test_the_box_ranks_as_regles_search(page, server, built):
    """The box and `regles search` give the same ten results on every query set (the blind one
    has a long question that only the lower coverage floor answers)."""
    from extract.search.engine import SearchIndex
    from tools.bench_search import BLIND3_SET, BLIND_SET, HELDOUT2_SET, HELDOUT_SET, load_relevance

    index = SearchIndex(built["out"] / "search")
    page.goto(f"{server}/")
    page.focus(BOX)  # the model loads when the reader turns to the box
    page.wait_for_function("window.reglesModel !== undefined")
    for item in [*load_relevance(), *load_relevance(HELDOUT_SET), *load_relevance(HELDOUT2_SET), *load_relevance(BLIND_SET),
                 *load_relevance(BLIND3_SET),
                 *({"text": q} for q in ("fly", "flies", "can my hero fly over water", "attacked while moving"))]:  # English forms
        expected = [h.id for h in index.search(item["text"], game=item.get("game"), limit=10)]
        assert page.evaluate(FIND, [item["text"], item.get("game")]) == expected, item["text"]


def test_game_filter_labels_and_odd_words(page, server, built):
    from extract.search.engine import SearchIndex

    index = SearchIndex(built["out"] / "search")
    page.goto(f"{server}/")
    page.focus(BOX)  # the model loads when the reader turns to the box
    page.wait_for_function("window.reglesModel !== undefined")
    page.select_option("#regles-search .regles-search-game", "battlelore")
    page.fill(BOX, "moral")
    page.wait_for_selector("#regles-search .regles-search-result")
    games = page.evaluate("Array.from(document.querySelectorAll('#regles-search .regles-search-result'))"
                          ".map(li => li.dataset.game)")
    assert games and set(games) == {"battlelore"}
    assert page.locator("#regles-search .regles-search-label").first.inner_text() == "BattleLore · Résumé des règles" \
        or " · " in page.locator("#regles-search .regles-search-label").first.inner_text()
    for odd in ("constructor", "__proto__", "hasOwnProperty", "toString valueOf"):  # words, not properties
        page.fill(BOX, odd)
        page.wait_for_timeout(100)
        assert page.evaluate(FIND, [odd, None]) == [h.id for h in index.search(odd, limit=10)]


def test_a_game_page_searches_its_game_first(page, server):
    """On a game's pages the filter starts on that game, named short ("SdA JFE", its title as the
    tooltip); the home page searches every game; the reader can widen it."""
    game = "#regles-search .regles-search-game"
    page.goto(f"{server}/")
    assert page.eval_on_selector(game, "s => s.value") == ""
    page.goto(f"{server}/sda-jfe/tournoi/5/")
    assert page.eval_on_selector(game, "s => [s.value, s.selectedOptions[0].textContent, s.selectedOptions[0].title]") == \
        ["sda-jfe", "SdA JFE", "Le Seigneur des Anneaux — Jeu de Figurines à Échanger"]
    page.fill(BOX, "ligne de vue")
    page.wait_for_selector("#regles-search .regles-search-result")
    shown = "Array.from(document.querySelectorAll('#regles-search .regles-search-result')).map(li => li.dataset.game)"
    assert set(page.evaluate(shown)) == {"sda-jfe"}
    page.select_option(game, "")
    page.wait_for_function(f"new Set({shown}).size > 1")


def test_following_a_result_reaches_its_anchor(page, server):
    type_query(page, server, "86.11", "/runewars/reference/86/#86.11")
    page.locator('#regles-search .regles-search-link[href$="#86.11"]').first.click()
    page.wait_for_url("**/runewars/reference/86/#86.11")
    rule = page.locator('[id="86.11"]')
    box = rule.bounding_box()
    assert rule.is_visible() and 0 <= box["y"] < 900  # scrolled to: in the viewport
    assert "Supprimé" in page.content()


BELOW_HEADER = """a => { const h = document.getElementById(a).getBoundingClientRect();
  return [h.top, h.bottom, document.querySelector('.md-header').getBoundingClientRect().bottom, innerHeight]; }"""


@pytest.mark.parametrize("device", ["page", "phone"])
def test_back_from_a_result_finds_the_query_and_its_results(request, server, device):
    """The defects: Back from a result lost the query and the results; a sub-rule's result was its
    bare number; the rule opened could stand under the sticky header."""
    page = request.getfixturevalue(device)
    page.goto(f"{server}/runewars/reference/10/")
    page.fill(BOX, "desengagement")
    page.wait_for_function(f"({SHOWN}).some(href => href.includes('#77.'))")
    first = page.locator("#regles-search .regles-search-link").first
    href, title = first.get_attribute("href"), first.inner_text()
    assert re.fullmatch(r"77\.\d+ — Repositionnement", title), title  # its topic, not "77.4" alone
    shown = page.evaluate(SHOWN)
    first.click()
    page.wait_for_url(f"**/{href.rsplit('/', 3)[-3]}/{href.rsplit('/', 2)[-2]}/#{href.split('#')[1]}")
    top, bottom, header, height = page.evaluate(BELOW_HEADER, href.split("#")[1])
    assert header <= top and bottom <= height, (top, bottom, header)  # the heading whole, below the header
    page.go_back()
    page.wait_for_url("**/runewars/reference/10/")
    page.wait_for_function(f"({SHOWN}).length > 0")
    assert page.input_value(BOX) == "desengagement"
    assert page.evaluate(SHOWN) == shown


def test_a_game_filter_chosen_is_restored_on_back(page, server):
    page.goto(f"{server}/")
    page.select_option("#regles-search .regles-search-game", "sda-jfe")
    page.fill(BOX, "tir")
    page.wait_for_selector("#regles-search .regles-search-link")
    page.locator("#regles-search .regles-search-link").first.click()
    page.wait_for_load_state()
    page.go_back()
    page.wait_for_function(f"({SHOWN}).length > 0")
    assert page.eval_on_selector("#regles-search .regles-search-game", "s => s.value") == "sda-jfe"
    games = page.evaluate("Array.from(document.querySelectorAll('#regles-search .regles-search-result')).map(li => li.dataset.game)")
    assert set(games) == {"sda-jfe"}


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
    assert "Pour effectuer une attaque à distance icône attaque à distance ou résoudre un autre effet à distance, une unité" in \
        " ".join(printed.locator(".regles-printed-text").inner_text().split())
    assert printed.locator("del").first.inner_text() == "distance,"  # not the glyphs: "(♣)" and "(🏹)" are one icon
    badge = printed.locator(".regles-printed-text .regles-icon").first
    assert badge.inner_text().endswith("attaque à distance") and badge.get_attribute("title") == "Icône « attaque à distance »"
    page.screenshot(path=str(SCREENSHOTS / "rule-49.png"), full_page=True)
    assert (SCREENSHOTS / "home.png").stat().st_size > 10_000


def test_following_a_sujets_connexes_link(page, server):
    page.goto(f"{server}/runewars/reference/49/")
    page.get_by_role("link", name="8 Arc de tir").first.click()
    page.wait_for_url("**/runewars/reference/8/#8")
    assert page.locator("h1").first.inner_text().startswith("8 Arc de tir")


@pytest.fixture
def phone(browser, server):
    yield from opened_page(browser, server, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)


def test_a_rule_is_cited_with_its_link_and_its_text(page, server):
    page.goto(f"{server}/runewars/reference/49/#49.1")
    assert page.title() == "49 Ligne de vue — Guide de Référence — Runewars"
    assert page.locator(".regles-crumbs").inner_text().startswith("Runewars › Guide de Référence ›")
    assert "Boîte de base" in page.locator(".regles-edition").inner_text()
    heading = page.locator('[id="49.1"]')
    assert heading.evaluate("h => getComputedStyle(h).backgroundColor") != "rgba(0, 0, 0, 0)"  # :target
    anchor = heading.locator(".headerlink")
    assert anchor.is_visible() and anchor.evaluate("a => getComputedStyle(a).opacity") == "1"
    assert anchor.get_attribute("title") == "Lien permanent vers cette règle"
    bar = page.locator('.regles-cite[data-anchor="49.1"]')
    bar.get_by_role("button", name="Copier le lien").click()
    playwright_api.expect(bar.locator(".regles-copied")).to_have_text("Lien copié ✓")
    assert page.evaluate("window.reglesCopied") == f"{server}/runewars/reference/49/#49.1"
    bar.get_by_role("button", name="Copier la citation").click()
    playwright_api.expect(bar.locator(".regles-copied")).to_have_text("Citation copiée ✓")
    cited = page.evaluate("window.reglesCopied")
    assert cited.startswith("49.1 — Guide de Référence, version Boîte de base (2016) — Runewars\n")
    assert f"{server}/runewars/reference/49/#49.1" in cited and "« Pour déterminer si une unité a une ligne de vue" in cited
    assert "Copier le lien" not in cited
    page.keyboard.press("Escape")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.classList.contains('regles-search-input')")


def test_an_amended_rule_is_cited_with_the_document_that_changed_it(page, server):
    """The defect: the citation of an amended rule credited its wording to the original book alone."""
    page.goto(f"{server}/runewars/reference/49/")
    bar = page.locator('.regles-cite[data-anchor="49"]')
    bar.get_by_role("button", name="Copier la citation").click()
    cited = page.evaluate("window.reglesCopied")
    assert cited.startswith("49 Ligne de vue — Guide de Référence, version Boîte de base (2016), "
                            "modifié par FAQ de Tournoi, version 1.1.0 (2017-10-25) — Runewars\n"), cited


def test_a_cited_icon_is_its_name_inline(page, server):
    """The defect: an icon's name stood on a line of its own in the copied text."""
    page.goto(f"{server}/runewars/reference/10/")
    bar = page.locator('.regles-cite[data-anchor="10"]')
    bar.get_by_role("button", name="Copier la citation").click()
    cited = page.evaluate("window.reglesCopied")
    assert "une action Attaque à distance [attaque à distance]," in cited, cited
    assert "icône" not in cited
    assert page.locator(".regles-text .regles-icon").first.is_visible()  # the page itself unchanged


FITS = """el => {  // the words el shows (its chosen option, or its placeholder) fit inside it
  const span = document.createElement("span"), style = getComputedStyle(el);
  span.style.font = style.font; span.style.position = "absolute"; span.style.whiteSpace = "pre";
  span.textContent = el.tagName === "SELECT" ? el.options[el.selectedIndex].text : el.placeholder;
  document.body.appendChild(span);
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - (el.tagName === "SELECT" ? 16 : 0);
  const fits = span.offsetWidth <= room; span.remove(); return fits;
}"""


def test_on_a_phone_the_search_box_and_the_game_filter_are_read_whole(phone, server):
    phone.goto(f"{server}/runewars/reference/49/")
    for selector in (".regles-search-input", ".regles-search-game"):
        assert phone.locator(f"#regles-search {selector}").evaluate(FITS), selector
    choice = phone.locator("#regles-search .regles-search-game")  # each game's short name, whole
    for value in choice.evaluate("s => Array.from(s.options).map(o => o.value)"):
        choice.select_option(value)
        assert choice.evaluate(FITS), value


def test_on_a_phone_the_citation_buttons_are_shown_and_large_enough(phone, server):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.goto(f"{server}/runewars/reference/49/")
    for selector in (".regles-cite .regles-copy", "h1 .headerlink", ".regles-pager a", ".regles-crumbs a"):
        element = phone.locator(selector).first
        assert element.is_visible(), selector
        box = element.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (selector, box)
    phone.locator('.regles-cite[data-anchor="49"] .regles-copy[data-copy="link"]').tap()
    playwright_api.expect(phone.locator('.regles-cite[data-anchor="49"] .regles-copied')).to_have_text("Lien copié ✓")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375 + 1  # nothing wider than the phone
    phone.screenshot(path=str(SCREENSHOTS / "phone-rule-49.png"), full_page=False)


def test_on_a_phone_the_rule_comes_before_its_link_lists(phone, server):
    phone.goto(f"{server}/runewars/reference/49/")
    text = phone.locator(".regles-text").first.bounding_box()
    cited = phone.locator("details.regles-cited-by").first
    summary = cited.locator("summary")
    assert text["y"] < summary.bounding_box()["y"]
    assert summary.inner_text().startswith("Cité par ") and summary.bounding_box()["height"] >= 44
    assert not cited.locator("a").first.is_visible()
    summary.tap()
    link = cited.locator("a").first
    assert link.is_visible() and link.bounding_box()["height"] >= 44
    assert link.inner_text() == "8 Arc de tir"


def test_dark_mode_print_and_screenshots(page, server):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{server}/runewars/errata/")
    assert "Remplace la puce qui commence par « Exposé »." in page.locator("article").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "errata.png"), full_page=True)
    page.goto(f"{server}/runewars/reference/49/")
    link = page.locator("article p a").first
    assert link.evaluate("a => getComputedStyle(a).textDecorationLine") == "underline"
    before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    after = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert {before, after} == {"default", "slate"}
    page.screenshot(path=str(SCREENSHOTS / f"rule-49-{after}.png"))
    page.emulate_media(media="print")
    assert not page.locator(".regles-cite").first.is_visible()
    printed = page.evaluate("getComputedStyle(document.querySelector('.regles-edition'), '::after').content")
    assert "/runewars/reference/49/" in printed and "Boîte de base" in page.locator(".regles-edition").inner_text()
    assert (SCREENSHOTS / "errata.png").stat().st_size > 10_000  # home.png, rule-49.png, phone-rule-49.png: the tests above


def test_the_search_label_is_for_screen_readers_only(page, server):
    page.goto(f"{server}/")
    label = page.locator('label[for="regles-search-input"]')
    assert label.count() == 1 and label.bounding_box()["width"] <= 1
    assert page.evaluate("document.getElementById('regles-search-input').labels.length") == 1
    assert page.get_by_label("Rechercher une règle", exact=True).count() == 1


def test_a_reference_previews_its_target(page, server, phone):
    page.goto(f"{server}/sda-jfe/tournoi/5/")
    ref = page.locator('a.regles-ref[href="#5.10"]').first
    ref.hover()
    popover = page.locator(".regles-popover")
    playwright_api.expect(popover).to_be_visible()
    assert popover.locator("strong").inner_text().startswith("5.10")
    phone.goto(f"{server}/runewars/reference/49/")
    summary = phone.locator("details.regles-cited-by summary").first
    summary.tap()
    link = phone.locator("details.regles-cited-by a").first
    link.tap()  # first tap: the preview
    playwright_api.expect(phone.locator(".regles-popover")).to_be_visible()
    assert phone.locator(".regles-popover strong").inner_text().startswith("8 Arc de tir")
    assert phone.url.endswith("/runewars/reference/49/")
    link.tap()  # second tap: follows
    phone.wait_for_url("**/runewars/reference/8/#8")


def test_a_rule_page_weighs_less_than_500_kb(page, server, built):
    """Everything a rule page loads before the reader turns to the search box."""
    loaded: list[str] = []
    page.on("requestfinished", lambda request: loaded.append(request.url))
    page.goto(f"{server}/runewars/reference/49/")
    page.wait_for_load_state("networkidle")
    site = built["out"] / "site"
    total = 0
    for url in loaded:
        path = site / url[len(server):].split("#")[0].split("?")[0].lstrip("/")
        total += (path / "index.html" if path.is_dir() else path).stat().st_size
    assert not any(url.endswith("search-model.json") for url in loaded)
    assert total < 500_000, total
    options = page.locator("#regles-search .regles-search-game option").all_inner_texts()
    assert options[:2] == ["Tous les jeux", "BattleLore"] and len(options) == 6


@pytest.mark.parametrize("device", ["page", "phone"])
def test_arrow_keys_move_through_the_results_and_enter_opens_one(request, server, device):
    view = request.getfixturevalue(device)
    type_query(view, server, "ligne de vue", "/runewars/reference/49/")
    links = view.evaluate(SHOWN)
    assert len(links) >= 3
    view.press(BOX, "ArrowDown")
    assert "regles-search-link" in view.evaluate("document.activeElement.className")
    first = view.evaluate("document.activeElement.href.replace(location.origin, '')")
    assert first == links[0]
    view.keyboard.press("ArrowDown")
    view.keyboard.press("ArrowDown")
    assert view.evaluate("document.activeElement.href.replace(location.origin, '')") == links[2]
    view.keyboard.press("ArrowUp")
    assert view.evaluate("document.activeElement.href.replace(location.origin, '')") == links[1]
    view.keyboard.press("ArrowUp")
    view.keyboard.press("ArrowUp")  # above the first result: back in the box, the query kept
    assert view.evaluate("document.activeElement.id") == "regles-search-input" and view.input_value(BOX) == "ligne de vue"
    view.keyboard.press("ArrowDown")
    view.keyboard.press("ArrowDown")
    view.keyboard.press("Enter")  # opens the result the keyboard is on, not the first
    view.wait_for_url(f"**{links[1]}")


@pytest.mark.parametrize("device", ["page", "phone"])
def test_results_show_no_pilcrow_and_no_line_breaks(request, server, device):
    page = request.getfixturevalue(device)
    for query, expected in (("ligne de vue", "/runewars/"), ("moral", "/"), ("86.11", "/runewars/reference/86/")):
        type_query(page, server, query, expected)
        shown = page.evaluate("Array.from(document.querySelectorAll('#regles-search .regles-search-result'))"
                              ".map(li => li.textContent)")
        assert shown and not [text for text in shown if "¶" in text or "\n" in text], shown
        titles = page.locator("#regles-search .regles-search-link").all_inner_texts()
        assert all(title.strip() and not title.endswith("#") for title in titles), titles


def test_on_a_phone_the_results_take_the_whole_width(phone, server):
    type_query(phone, server, "ligne de vue", "/runewars/reference/49/")
    drawer = phone.locator("#regles-search .regles-search-drawer")
    box = drawer.bounding_box()
    assert box["x"] == 0 and abs(box["width"] - 375) <= 1, box
    assert box["y"] > 0 and box["y"] + box["height"] <= 740 + 1  # below the header, within the screen
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375 + 1
    heights = [b["height"] for b in (link.bounding_box() for link in phone.locator("#regles-search .regles-search-link").all()[:5])]
    assert heights and min(heights) >= 44, heights
    phone.screenshot(path=str(SCREENSHOTS / "phone-search.png"))


def test_icons_in_results_are_badges_with_the_matched_words_marked(page, server):
    """A book's icon token ("[reformation]") shows as the rule pages' badge, the words the query
    matched still marked inside it; a token cut by the snippet's window is not shown half."""
    for query, expected in (("action reformation engagée", "/runewars/"), ("pion inspiration", "/runewars/")):
        type_query(page, server, query, expected)
        page.wait_for_selector("#regles-search .regles-search-snippet .regles-icon")
        snippets = page.evaluate("Array.from(document.querySelectorAll('#regles-search .regles-search-snippet'))"
                                 ".map(p => p.textContent)")
        assert not [s for s in snippets if re.search(r"\[[a-zà-ÿ]", s)], snippets
    badge = page.locator("#regles-search .regles-search-snippet .regles-icon").first
    assert badge.get_attribute("title").startswith("Icône « ") and badge.text_content().startswith("icône ")  # its spoken name
    type_query(page, server, "action reformation engagée", "/runewars/")
    page.wait_for_selector("#regles-search .regles-search-snippet .regles-icon mark")


# The contrast of an element's text over what is behind it (its own and its ancestors' backgrounds,
# composited), as WCAG computes it.
CONTRAST = """el => {
  const parse = c => { const p = c.match(/rgba?\\(([^)]+)\\)/)[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
                       return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const b = parse(getComputedStyle(e).backgroundColor);
    if (b[3] > 0) layers.push(b);
    if (b[3] >= 1) break;
  }
  let bg = [255, 255, 255, 1];
  for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
  const fg = over(parse(getComputedStyle(el).color), bg);
  const lum = c => { const v = c.slice(0, 3).map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_highlights_keep_a_contrast_of_4_5_in_both_palettes(browser, server, scheme):
    """The defect: in the dark palette the rule an address points to was at 2.67:1."""
    for opened in opened_page(browser, server, viewport={"width": 1280, "height": 900}, color_scheme=scheme):
        opened.goto(f"{server}/runewars/reference/49/#49.1")
        assert opened.evaluate("document.body.getAttribute('data-md-color-scheme')") == ("slate" if scheme == "dark" else "default")
        checked = {"the rule pointed at": opened.locator('[id="49.1"]')}
        opened.goto(f"{server}/runewars/reference/49/#49.1")
        ratios = {name: element.evaluate(CONTRAST) for name, element in checked.items()}
        opened.goto(f"{server}/runewars/reference/10/")
        for name, selector in (("a fact marked", "mark.regles-fact"), ("an icon", ".regles-text .regles-icon")):
            ratios[name] = opened.locator(selector).first.evaluate(CONTRAST)
        opened.fill(BOX, "ligne de vue")
        opened.wait_for_selector("#regles-search mark")
        ratios["a word found"] = opened.locator("#regles-search mark").first.evaluate(CONTRAST)
        assert all(r >= 4.5 for r in ratios.values()), ratios


@pytest.mark.parametrize("device", ["page", "phone"])
def test_the_search_field_and_the_game_filter_are_44_px_tall(request, server, device):
    """The defect: both were 36 px tall, under the 44 px a finger needs."""
    page = request.getfixturevalue(device)
    page.goto(f"{server}/runewars/reference/49/")
    for selector in (".regles-search-input", ".regles-search-game"):
        box = page.locator(f"#regles-search {selector}").bounding_box()
        assert box["height"] >= 44, (selector, box)
    page.fill(BOX, "moral")
    page.wait_for_selector("#regles-search .regles-search-link")
    drawer = page.locator("#regles-search .regles-search-drawer").bounding_box()
    assert drawer["y"] >= page.locator(".md-header").bounding_box()["height"] - 1  # below the header, not over the box


def test_a_long_page_has_a_table_of_contents_on_a_phone_and_titles_on_a_desktop(page, phone, server):
    """The defects: no table of contents on a phone; the desktop one listed bare numbers."""
    page.goto(f"{server}/runewars/reference/41/")
    desktop = page.locator(".md-sidebar--secondary .md-nav__link").all_inner_texts()
    assert desktop[0].startswith("41.1 ") and len(desktop[0]) > len("41.1 ") + 10, desktop[:3]
    assert not page.locator("details.regles-toc-phone").is_visible()  # the theme's own is shown
    phone.goto(f"{server}/runewars/reference/41/")
    toc = phone.locator("details.regles-toc-phone")
    summary = toc.locator("summary")
    assert summary.is_visible() and summary.bounding_box()["height"] >= 44
    summary.tap()
    item = toc.locator("a", has_text="41.5 ")
    assert item.bounding_box()["height"] >= 44
    item.click()
    phone.wait_for_url("**/runewars/reference/41/#41.5")
    top, _, header, _ = phone.evaluate(BELOW_HEADER, "41.5")
    assert top >= header


def test_a_printed_index_has_a_letter_jump(phone, server):
    """The defect: a printed index 26 screens long on a phone with no way to its letters."""
    phone.goto(f"{server}/runewars/reference/index/")
    letters = phone.locator("nav.regles-letters a")
    assert letters.count() >= 20 and letters.first.inner_text() == "A"
    target = phone.locator("nav.regles-letters a", has_text="R")
    assert target.bounding_box()["height"] >= 44 and target.bounding_box()["width"] >= 44
    target.click()
    phone.wait_for_url("**/runewars/reference/index/#index-r")
    top, _, header, height = phone.evaluate(BELOW_HEADER, "index-r")
    assert header <= top < height


def test_elsewhere_names_each_rule_s_game(page, server):
    """The defect: "Ailleurs" listed other games' rules without saying which game."""
    page.goto(f"{server}/runewars/reference/49/")
    elsewhere = page.locator("details.regles-elsewhere").first
    elsewhere.locator("summary").click()
    labels = elsewhere.locator("a").all_inner_texts()
    # another game's by its name, another book of Runewars by its title
    assert labels and all(re.search(r"\((SdA JFE|Warcry|Heroscape|BattleLore|Livret d'Apprentissage|FAQ de Tournoi)\)$", label)
                          for label in labels), labels


def test_a_game_page_shows_each_document_s_version_date_and_status_on_a_phone(phone, server):
    """The defects: nothing said whether a document is official; on a phone the date column was
    off screen."""
    phone.goto(f"{server}/runewars/")
    cells = phone.locator(".regles-documents td")
    for text in ("Boîte de base", "2017-10-25", "oui, de l'éditeur"):
        cell = cells.filter(has_text=text).first
        box = cell.bounding_box()
        assert cell.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= 375 + 1, (text, box)
    date = cells.filter(has_text="2017-10-25").first  # each cell under its column's name
    assert date.evaluate("td => getComputedStyle(td, '::before').content") == '"Date : "'
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375 + 1
    phone.goto(f"{server}/warcry/")
    assert "non indiqué" in phone.locator(".regles-documents").inner_text()


def test_a_rule_referring_to_a_drawing_says_it_is_not_here(phone, server):
    """The defect: diagrams the text refers to were absent with no word saying so."""
    phone.goto(f"{server}/sda-jfe/tournoi/4/#4.09")
    note = phone.locator('[id="4.09"] ~ .regles-figure-note').first
    assert note.is_visible()
    assert note.inner_text().startswith("Le texte renvoie à un schéma du livre, que ce site ne reproduit pas")


def test_the_home_page_s_latest_errata_say_when(phone, server):
    """The defect: the home page's latest errata had no dates."""
    phone.goto(f"{server}/")
    heading = phone.locator("#derniers-errata")
    assert heading.is_visible()
    items = phone.locator("#derniers-errata + ul > li").all_inner_texts()
    assert items and all(re.search(r"\(\d{4}(-\d\d){0,2}\)$", item) for item in items), items  # each ends with its date
    assert any(item.endswith("FAQ de Tournoi, version 1.1.0 (2017-10-25)") for item in items), items


WIDE_TABLES = """() => Array.from(document.querySelectorAll('article table')).map(t => {
  let p = t.parentElement; while (p && getComputedStyle(p).overflowX === 'visible') p = p.parentElement;
  const r = p.getBoundingClientRect();
  return {table: t.scrollWidth, box: p.clientWidth, left: r.left, right: r.right, scrolls: p.scrollWidth > p.clientWidth}; })"""


@pytest.mark.parametrize("path", ["runewars/", "runewars/apprentissage/but-du-jeu/"])
def test_on_a_phone_a_wide_table_scrolls_inside_its_box(phone, server, path):
    """The defect: wide tables were cut at the phone's edge. The game page's tables are wider than
    a phone (545 px for Runewars' facts); each scrolls inside a box that stays on the screen."""
    phone.goto(f"{server}/{path}")
    tables = phone.evaluate(WIDE_TABLES)
    assert tables
    for box in tables:
        assert box["left"] >= 0 and box["right"] <= 375 + 1, box  # the box stays on the screen
        assert box["table"] <= box["box"] or box["scrolls"], box  # the table fits, or scrolls inside its box
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375 + 1  # the page itself does not scroll sideways
    if path == "runewars/":
        assert max(box["table"] for box in tables) > 375  # a table wider than the phone is among them


@pytest.mark.corpus  # a whole build, of the worked example with its FAQ's two versions
def test_a_version_s_news_page_and_a_rule_s_history_on_a_phone(browser, tmp_path):
    """The defect: no versions: nothing said what changed from one version of a document to the
    next. The FAQ's page lists its versions; the version's page says what it added and the erratum
    it brought, linked to the rule it changes; a changed entry's history links back to that page."""
    from extract.cli import main
    from tools.bench_site import serve_as_regles

    phare_with_versions(tmp_path)
    assert main(["--root", str(tmp_path), "build"]) == 0
    with serve_as_regles(tmp_path / "build" / "site") as server:
        for phone in opened_page(browser, server, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True):
            phone.goto(f"{server}/phare/faq-du-phare/")
            phone.get_by_role("link", name="Version 1.1 (2026-03), depuis la version 1.0 (2026-01)").click()
            phone.wait_for_url("**/phare/faq-du-phare/_nouveautes/version-1-1/")
            assert phone.locator("h1").inner_text().startswith("Nouveautés")
            applied = phone.locator("#errata-appliques + ul")
            assert applied.is_visible() and "absent de la version précédente" in applied.inner_text()
            assert phone.evaluate("document.documentElement.scrollWidth") <= 375 + 1
            applied.get_by_role("link", name="3.2 Attaque").click()
            phone.wait_for_url("**/phare/regles-du-phare/3/#3.2")
            rule = phone.locator('[id="3.2"]')
            assert rule.is_visible() and "deux cases" in phone.locator("article").inner_text()
            phone.go_back()
            phone.locator("#modifiees + ul a").first.click()
            history = phone.locator("details.regles-history").first
            history.locator("summary").click()
            assert "Présente dans les versions 1.0 (2026-01), 1.1 (2026-03)." in history.inner_text()
            history.get_by_role("link", name="Version 1.1 (2026-03)").click()
            phone.wait_for_url("**/phare/faq-du-phare/_nouveautes/version-1-1/")
