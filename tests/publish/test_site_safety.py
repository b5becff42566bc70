"""The site loads nothing from another host, on any page (the 404 page too, whose paths MkDocs
writes from the root when `site_url` is unset), and its search box looks typed words up in maps
without a prototype, so that no typed word reaches a JavaScript object's prototype."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from extract.pipeline import build
from extract.publish.site import TOOL_ROOT
from tests.conftest import make_corpus

TEXT = "Déplacement\n\nUne unité se déplace de deux cases.\n\nAttaque\n\nUne unité attaque après son déplacement.\n"
# src= and href= values; an <a href> to another site is a text link a reader may follow, not a load
ATTRIBUTE = re.compile(r"<(?P<tag>[a-zA-Z]+)\b[^>]*?\b(?P<attr>src|href|srcset|action|poster|data)\s*=\s*[\"']?(?P<value>[^\"' >]+)")
CSS_URL = re.compile(r"url\(\s*[\"']?(?P<value>[^\"')]+)")
ALLOWED_TEXT_LINKS = ("https://squidfunk.github.io/mkdocs-material/",)

pytestmark = pytest.mark.corpus  # whole builds, several in child processes: the slow tier


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = make_corpus(tmp_path_factory.mktemp("site"), TEXT)
    build(root, root / "build")
    return root / "build" / "site"


def foreign(value: str) -> bool:
    return value.startswith("//") or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", value) is not None


def test_no_page_loads_anything_from_another_host(site):
    pages = sorted(site.rglob("*.html"))
    assert site / "404.html" in pages and len(pages) >= 4
    found = []
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for match in ATTRIBUTE.finditer(html):
            value = match["value"]
            if not foreign(value):
                continue
            if match["tag"].lower() == "a" and match["attr"] == "href" and value in ALLOWED_TEXT_LINKS:
                continue
            found.append(f"{page.relative_to(site)}: <{match['tag']} {match['attr']}={value}>")
    for sheet in site.rglob("*.css"):
        found += [f"{sheet.relative_to(site)}: url({m['value']})" for m in CSS_URL.finditer(sheet.read_text(encoding="utf-8"))
                  if foreign(m["value"])]
    assert found == []


def test_the_404_page_loads_its_assets_from_the_site(site):
    html = (site / "404.html").read_text(encoding="utf-8")
    for asset in ("assets/regles-search.js", "assets/regles.css"):
        paths = re.findall(rf"(?:src|href)=\"([^\"]*{re.escape(asset)})\"", html)
        assert paths and all(p == f"/{asset}" for p in paths), (asset, paths)
        assert (site / asset).is_file()
    # The search box fetches its model from its base: "/" on the 404 page, which the script joins
    # without making "//assets/…" (protocol-relative: another host).
    assert 'data-base="/"' in html and (site / "assets/search-model.json").is_file()
    script = (site / "assets/regles-search.js").read_text(encoding="utf-8")
    assert '(root.dataset.base || "").replace(/\\/+$/, "")' in script and 'base + "/assets/search-model.json"' in script
    other = (site / "demo" / "index.html").read_text(encoding="utf-8")
    assert 'src="../assets/regles-search.js"' in other  # relative everywhere else


def test_the_search_helper_never_indexes_a_plain_object_by_a_typed_word():
    """Every map the box looks a typed word up in is built without a prototype (or is a Map),
    so "constructor" or "__proto__" is a word like any other."""
    script = (TOOL_ROOT / "site/assets/regles-search.js").read_text(encoding="utf-8")
    assert "Object.create(null)" in script
    assert not re.search(r"=\s*\{\s*\}", script)  # no `{}` literal maps
    assert "hasOwnProperty" in script  # lookups in the parsed model go through an own-property check
