"""The rules site as files: every entry reachable at its URL and anchor, rule text escaped,
no external request, sizes for people."""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from extract.cli import main
from extract.model import Block
from extract.publish.site import blocks_html, md, word_diff
from tests.conftest import make_corpus


class Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if "id" in found:
            self.ids.add(found["id"])
        if tag == "a" and found.get("href"):
            self.links.append(found["href"])
        for key in ("src", "href"):
            if tag in ("script", "link", "img", "iframe") and found.get(key):
                self.sources.append(found[key])


@functools.cache  # a page is parsed once, however many links point into it
def parse(path: Path) -> Ids:
    parser = Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def site(built) -> Path:
    return built["out"] / "site"


def test_every_entry_url_has_its_page_and_anchor(built, site):
    pages: dict[str, Ids] = {}
    for entry in built["entries"].values():
        path, anchor = entry["url"].split("#")
        file = site / path / "index.html"
        assert file.is_file(), entry["id"]
        ids = pages.setdefault(path, parse(file)).ids
        assert anchor in ids, (entry["id"], anchor)


def test_internal_links_resolve(site):
    checked = 0
    for file in sorted(site.rglob("*.html")):
        if "pagefind" in file.parts or file.name == "404.html":  # the 404 page links from the site's root, wherever it is served
            continue
        parsed = parse(file)
        for href in parsed.links:
            if href.startswith(("http://", "https://", "mailto:", "javascript:")) or href == "#":
                continue
            target, _, anchor = href.partition("#")
            page = (file.parent / target).resolve() if target else file
            if page.is_dir():
                page = page / "index.html"
            assert page.is_file(), (file, href)
            if anchor:
                assert anchor in parse(page).ids, (file, href)
            checked += 1
    assert checked > 5000


def test_no_external_request(site):
    for file in [site / "index.html", site / "runewars/reference/49/index.html", site / "runewars/errata/index.html"]:
        text = file.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text
        for source in parse(file).sources:
            assert not re.match(r"^(https?:)?//", source), (file, source)


def test_rule_49_shows_the_current_and_the_printed_text(site):
    page = (site / "runewars/reference/49/index.html").read_text(encoding="utf-8")
    assert "Modifié</span> par l'erratum" in page
    assert "qui nécessite une ligne de vue" in page
    assert "<del>distance,</del> <ins>distance qui nécessite une ligne de vue,</ins>" in page  # not the glyphs
    assert "Texte imprimé" in page and "Pour effectuer une attaque à distance <span class=\"regles-icon\"" in page
    assert 'href="../8/#8"' in page  # Sujets connexes : Arc de tir
    assert "Une unité engagée dont le rang frontal" in page  # the FAQ question about it


def test_deleted_and_added_rules_are_shown(site):
    timing = (site / "runewars/reference/86/index.html").read_text(encoding="utf-8")
    assert "Supprimé</span>" in timing and 'class="regles-deleted"' in timing
    assert "Résoudre l'effet d'une carte Amélioration est optionnel" in timing
    moral = (site / "runewars/reference/85/index.html").read_text(encoding="utf-8")
    assert "Ajouté</span>" in moral and "Lorsque le paquet Moral est vide" in moral


def test_boxes_and_captions_are_shown_apart(site):
    page = (site / "warcry/regles/livrer-la-bataille/index.html").read_text(encoding="utf-8")
    box = page.split('id="de-joker-exemple-de-phase-d-initiative"', 1)[1]
    assert "Encadré</span>" in box[:2000] and '<div class="regles-box">' in box
    assert '<p class="regles-caption">Marigueux Proscrit avec Armes de Bilebois</p>' in page


def test_game_home_and_errata_pages(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    for game in ("runewars", "warcry", "sda-jfe", "heroscape", "battlelore"):
        assert f'href="{game}/"' in home
    assert "1.1.0" in home and "2017-10-25" in home
    game = (site / "runewars/index.html").read_text(encoding="utf-8")
    assert "Règles d" in game and "prévaut sur" in game and "11 appliqué(s), 2 enregistré(s)" in game
    errata = (site / "runewars/errata/index.html").read_text(encoding="utf-8")
    assert errata.count('class="regles-erratum-status regles-erratum-') == 13
    assert "Tir à Bout Portant" in errata and "Enregistré, non appliqué" in errata


def test_sizes_for_people(site):
    sizes = [p.stat().st_size for p in site.rglob("*.html")]
    assert max(sizes) < 300_000
    assert sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) < 30_000_000


# ---------------------------------------------------------------- escaping

HOSTILE = """Titre <b>gras</b> et {{ config }} </title><script>alert(4)</script>

Une règle avec <script>alert(1)</script> et <img src=x onerror=alert(2)> dedans.

- Un point **en gras**, un [lien](javascript:alert(3)) et {% raw %} et `code` et # pas un titre.
- Un autre avec des *étoiles* et _soulignés_ et &amp; et des {{ accolades }}.
"""


@pytest.mark.corpus  # a whole build
def test_rule_text_is_escaped(tmp_path, capsys):
    root = make_corpus(tmp_path, HOSTILE)
    assert main(["--root", str(root), "build"]) == 0
    pages = list((root / "build/site/demo/regles").rglob("index.html"))
    html = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(2)&gt;" in html
    assert 'href="javascript:' not in html
    assert "{{ accolades }}" in html and "{% raw %}" in html
    assert "<b>gras</b>" not in html and "alert(4)</script>" not in html


def test_escaping_helpers():
    assert md("Ligne [de] *vue* <b>") == "Ligne \\[de\\] \\*vue\\* &lt;b&gt;"
    assert blocks_html([Block("paragraph", "a < b & c", "a < **b** & c")]) == "<p>a &lt; <strong>b</strong> &amp; c</p>"
    assert blocks_html([Block("bullet", "un"), Block("subbullet", "deux"), Block("paragraph", "trois")]) == \
        "<ul>\n<li>un</li>\n<ul>\n<li>deux</li>\n</ul>\n</ul>\n<p>trois</p>"
    assert word_diff("une unité <x>", "une grande unité") == "une <ins>grande</ins> unité <del>&lt;x&gt;</del>"


def test_a_broken_anchor_fails_the_site_build(tmp_path):
    from extract.errors import BuildError
    from extract.publish.site import TOOL_ROOT
    from extract.publish.sitebuild import mkdocs_build

    docs = tmp_path / "docs"
    (docs / "a").mkdir(parents=True)
    (docs / "index.md").write_text("# Accueil\n\n[vers A](a/index.md#nulle-part)\n", encoding="utf-8")
    (docs / "a" / "index.md").write_text("# A { #a }\n\ntexte\n", encoding="utf-8")
    with pytest.raises(BuildError, match="nulle-part"):
        mkdocs_build(TOOL_ROOT, docs, tmp_path / "site", [{"Accueil": "index.md"}])



def test_facts_are_shown_on_their_game_page_and_under_their_rule(built):
    game = (built["out"] / "site/runewars/index.html").read_text(encoding="utf-8")
    assert 'id="faits"' in game and "runewars.armee.points_max" in game and "200 points" in game
    rule = (built["out"] / "site/runewars/reference/59/index.html").read_text(encoding="utf-8")
    assert '<mark class="regles-fact" title="runewars.armee.unite_unique_par_tranche">' in rule
    assert "Faits :</strong> Une unité unique autorisée par tranche de points : <strong>100 points</strong>" in rule


# ---------------------------------------------------------------- context, citations, phone


def test_a_topic_page_says_where_it_stands(site):
    page = (site / "runewars/reference/49/index.html").read_text(encoding="utf-8")
    assert "<title>49 Ligne de vue — Guide de Référence — Runewars</title>" in page
    assert ('<p class="regles-crumbs"><a href="../../">Runewars</a> › <a href="../">Guide de Référence</a> › '
            '<a href="../glossaire/">Glossaire</a> › 49 Ligne de vue</p>') in page
    assert '<p class="regles-edition">Guide de Référence, version Boîte de base (2016)</p>' in page
    assert 'class="regles-prev" href="../48/#48" rel="prev"' in page and 'class="regles-next" href="../50/#50" rel="next"' in page
    hostile = (site / "runewars/index.html").read_text(encoding="utf-8")
    assert "<title>Runewars" in hostile  # other pages keep their title


def test_the_navigation_lists_the_games_and_the_current_games_documents(site):
    page = (site / "runewars/reference/49/index.html").read_text(encoding="utf-8")
    nav = page.split('class="md-nav md-nav--primary regles-nav"', 1)[1].split("</nav>", 1)[0]
    for game in ("Runewars", "Warcry", "Heroscape", "BattleLore"):
        assert game in nav
    assert "Guide de Référence" in nav and "Apprentissage</a>" in nav and 'md-nav__link--active">Guide de Référence' in nav
    assert "Règles de base" not in nav and "Résumé des règles" not in nav  # other games' documents
    sizes = {len(p.read_text(encoding="utf-8").split('regles-nav"', 1)[1].split("</nav>", 1)[0])
             for p in (site / "runewars/reference").glob("*/index.html")}
    assert max(sizes) - min(sizes) < 200  # the same on every page of a game, whatever its number of pages


def test_references_in_the_text_are_links(site):
    tir = (site / "sda-jfe/tournoi/5/index.html").read_text(encoding="utf-8")
    assert 'Ligne Noire (<a class="regles-ref" href="#5.10" title="5.10">5.10</a>)' in tir
    book = (site / "runewars/apprentissage/creer-des-armees-personnalisees/index.html").read_text(encoding="utf-8")
    assert ('<a class="regles-ref" href="../../reference/construction-d-armee/#construction-d-armee" '
            'title="Construction d&#x27;armée">page 3 du Guide de Référence</a>') in book
    moves = (site / "sda-jfe/tournoi/3/index.html").read_text(encoding="utf-8")
    assert '<a class="regles-ref" href="../4/#4" title="4 Mouvement">Voir la section Mouvement ci-dessous</a>' in moves


def test_link_lists_are_collapsed_behind_their_count_in_natural_order(site):
    page = (site / "runewars/reference/49/index.html").read_text(encoding="utf-8")
    first = page.split('id="49.1"', 1)[0]
    assert first.index('class="regles-text"') < first.index('<details class="regles-links')  # text first
    cited = first.split('<details class="regles-links regles-cited-by">', 1)[1].split("</details>", 1)[0]
    assert re.match(r"\s*<summary>Cité par \d+ règles</summary>", cited)
    hrefs = re.findall(r'href="\.\./(\d+)/#([\d.]+)"', cited)
    numbers = [tuple(int(p) for p in anchor.split(".")) for _, anchor in hrefs]
    assert numbers == sorted(numbers) and len(numbers) > 10  # 8 < 8.3 < 9.2 < 10 < 67.3
    assert '<details class="regles-links regles-elsewhere">\n<summary>Ailleurs : 4 règles</summary>' in first


def test_a_printed_index_is_shown_once_by_letter_with_links(site):
    page = (site / "runewars/reference/index/index.html").read_text(encoding="utf-8")
    article = page.split("<article", 1)[1]
    assert article.count("Action Bonus") == 1
    assert '<li>Action Bonus — <a href="../2/#2">2</a></li>' in article
    assert 'id="index-a"' in article and 'id="index-z"' not in article or 'id="index-v"' in article
    assert "<p>Action Bonus, 2.0</p>" not in article and "Cet index se réfère" in article
    sda = (site / "sda-jfe/tournoi/11/index.html").read_text(encoding="utf-8")
    assert ('<li>Attaques (Attacks) — <a href="../1/#1.02">1.02</a>, <a href="../6/#6.08">6.08</a>, '
            '<a href="../6/#6.27">6.27</a></li>') in sda


def test_precedence_and_errata_are_said_in_french(site):
    game = (site / "runewars/index.html").read_text(encoding="utf-8")
    assert "Le Guide de Référence prévaut sur le Livret d&#39;Apprentissage." in game or \
        "Le Guide de Référence prévaut sur le Livret d'Apprentissage." in game
    assert "« Ne peut pas » prévaut sur « peut »." in game and "apprentissage</strong>" not in game
    assert "Les Règles de tournoi v3.1.2fr prévalent sur les règles de base." in \
        (site / "sda-jfe/index.html").read_text(encoding="utf-8")
    errata = (site / "runewars/errata/index.html").read_text(encoding="utf-8")
    assert "Remplace le paragraphe 2 de la section 76.2. Appliqué : le texte en vigueur en tient compte" in errata
    assert "Supprime la section 86.11. Appliqué" in errata and "Remplace la puce qui commence par « Exposé »." in errata
    assert "Remplace la carte « Fissure Dimorienne ». Enregistré, non appliqué" in errata
    for diagnostic in ("similarity", "counting", "replace", "paragraph 3", "the quoted", "runewars/faq/errata/"):
        assert diagnostic not in errata.split("<article", 1)[1], diagnostic


def test_polish_faq_headings_palette_label(site):
    faq = (site / "runewars/faq/faq/index.html").read_text(encoding="utf-8")
    assert ('<h3 id="ligne-de-vue-q1">Une unité engagée dont le rang frontal est intégralement en contact avec une unité '
            "ennemie peut-elle tracer une ligne de vue vers une autre unité à travers l'étroite zone dégagée aux coins "
            "de l'arc de tir de l'unité engagée ?<a") in faq  # in full, not shortened
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'data-md-color-scheme="slate"' in home and "Passer au thème sombre" in home
    assert '<label class="regles-visually-hidden" for="regles-search-input">' in home and 'id="regles-search-input"' in home
    css = (site / "assets/regles.css").read_text(encoding="utf-8")
    assert "@media print" in css and "attr(data-url)" in css


HEADING_IDS = """# Règles

## Le marché {#marche}

On achète au marché. Voir [la marche](#pas).

## La marche {#pas}

On avance d'une case. Voir [le marché](#marche).

## Le combat {#la-marche}

On se bat.
"""


@pytest.mark.corpus  # a whole build
def test_a_markdown_book_s_heading_ids_are_anchors_of_the_site(tmp_path):
    """"## Le marché {#marche}": a link copied from the book, or a bookmark `…/#marche`, lands on
    the entry; the entry's own anchor stays. "{#la-marche}" is the anchor of another entry of the
    page: not given twice, said in the report."""
    import hashlib
    import json

    import jsonschema

    root = make_corpus(tmp_path, "")
    folder = root / "corpus" / "demo"
    (folder / "regles.md").write_text(HEADING_IDS, encoding="utf-8")
    manifest = (folder / "game.toml").read_text(encoding="utf-8").replace("source.txt", "regles.md")
    manifest = re.sub(r'sha256 = "\w+"', f'sha256 = "{hashlib.sha256(HEADING_IDS.encode()).hexdigest()}"', manifest)
    (folder / "game.toml").write_text(manifest, encoding="utf-8")
    assert main(["--root", str(root), "build"]) == 0
    build = root / "build"
    data = json.loads((build / "data/demo.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads((build / "data/schema.json").read_text(encoding="utf-8"))).validate(data)
    entries = {e["title"]: e for e in data["entries"]}
    assert entries["Le marché"]["anchors"] == ["marche"] and "anchors" not in entries["Règles"]
    assert entries["La marche"]["refs"][0]["target"] == entries["Le marché"]["id"]  # links still resolve
    page, anchor = entries["Le marché"]["url"].split("#")
    html = (build / "site" / page / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r' id="([^"]+)"', html)
    assert anchor == "le-marche" and {"le-marche", "marche", "la-marche", "pas"} <= set(ids)
    assert ids.count("la-marche") == 1 and ids.index("marche") == ids.index("le-marche") - 1  # just before its heading
    report = json.loads((build / "report.json").read_text(encoding="utf-8"))
    clashes = [a for doc in report["documents"].values() for a in doc["anomalies"] if a["kind"] == "anchor-clash"]
    assert [(a["anchor"], a["lines"]) for a in clashes] == [("la-marche", [11])]
    assert entries["Le combat"]["id"] in clashes[0]["detail"] and entries["La marche"]["id"] in clashes[0]["detail"]
