"""extract/publish/site.py helpers: rule text made safe for Markdown and HTML, diffs, labels."""

from __future__ import annotations

import json

import pytest

from extract.lookup import Lookup
from extract.model import Block, Diagnostics, DocumentSpec, Entry, GameBuild, GameSpec, Ref
from extract.publish.site import (
    TOOL_ROOT,
    Site,
    blocks_html,
    emphasis,
    environment,
    front_title,
    joined_title,
    md,
    page_aliases,
    posix_dirname,
    render_entry,
    shorten,
    word_diff,
)
from extract.publish.sitebuild import site_nav


@pytest.mark.parametrize(("text", "escaped"), [
    ("Ligne [de] *vue* <b>", "Ligne \\[de\\] \\*vue\\* &lt;b&gt;"),
    ("# pas un titre", "\\# pas un titre"),
    ("5.03A & 8_41", "5\\.03A &amp; 8\\_41"),
    ("{{ config }}", "\\{\\{ config \\}\\}"),
    ("deux\n  lignes", "deux lignes"),
    ("", ""),
    (None, ""),
])
def test_md_escapes_every_markdown_character(text, escaped):
    assert md(text) == escaped


@pytest.mark.parametrize(("before", "after", "diff"), [
    ("une unité <x>", "une grande unité", "une <ins>grande</ins> unité <del>&lt;x&gt;</del>"),
    ("attaque (♣)", "attaque (🏹)", "attaque (🏹)"),  # a glyph the conversion chose is no difference
    ("attaque (♣), puis", "attaque (), puis", "attaque (), puis"),
    ("attaque [boost]", "attaque [moral]", "attaque <del>[boost]</del> <ins>[moral]</ins>"),  # two named icons differ
    ("même texte", "même  texte", "même texte"),
])
def test_word_diff(before, after, diff):
    assert word_diff(before, after) == diff


@pytest.mark.parametrize(("text", "width", "short"), [
    ("un deux trois quatre", 10, "un deux …"),
    ("court", 90, "court"),
    ("des   espaces\nmultiples", 90, "des espaces multiples"),
    ("tirez avec [attaque à distance] puis", 26, "tirez avec …"),  # never half a token
])
def test_shorten(text, width, short):
    assert shorten(text, width) == short


def test_emphasis_comes_back_escaped():
    assert emphasis(Block("paragraph", "a b c", "a *b* c")) == "a <em>b</em> c"
    assert emphasis(Block("paragraph", "a < b", "a < **b**")) == "a &lt; <strong>b</strong>"
    assert emphasis(Block("paragraph", "a < b")) == "a &lt; b"


def test_a_web_link_the_book_makes_is_a_text_link():
    block = Block("paragraph", "voir la page du wiki.", "voir la [page du **wiki**](https://w.org/a?b=1&c=2).")
    assert emphasis(block) == ('voir la <a href="https://w.org/a?b=1&amp;c=2" rel="noopener noreferrer">page du <strong>wiki</strong></a>.')
    assert "<a" not in emphasis(Block("paragraph", "x", "[x](javascript:alert(1))"))


def test_blocks_html_kinds():
    html = blocks_html([
        Block("step", "Un", number="1"), Block("step", "Deux", number="2"), Block("table", "", rows=[["a<", "b"]]),
        Block("question", "Q ?"), Block("answer", "R."), Block("caption", "C"), Block("related", "Sujets connexes : X"),
        Block("see", "Voir « X »."),
    ])
    assert html.splitlines() == [
        "<ol>", '<li value="1">Un</li>', '<li value="2">Deux</li>', "</ol>", "<table><tr><td>a&lt;</td><td>b</td></tr></table>",
        '<p class="regles-q"><strong>Q :</strong> Q ?</p>', '<p class="regles-a"><strong>R :</strong> R.</p>',
        '<p class="regles-caption">C</p>']  # links are shown apart, not in the text


def test_deep_sub_bullets_nest():
    html = blocks_html([Block("bullet", "a"), Block("subbullet", "b", depth=3), Block("bullet", "c")])
    assert html == "<ul>\n<li>a</li>\n<ul>\n<ul>\n<li>b</li>\n</ul>\n</ul>\n<li>c</li>\n</ul>"


def test_front_title_is_escaped_once_for_yaml():
    assert json.loads(front_title("Tir <b> & « Cible »")) == "Tir &lt;b&gt; &amp; « Cible »"
    assert front_title(None) == '""'


def test_posix_dirname():
    assert posix_dirname("runewars/reference/49/index.md") == "runewars/reference/49" and posix_dirname("index.md") == "."


def test_inline_links_wrap_the_first_whole_occurrence_in_text_only():
    from extract.publish.site import InlineRef, inline_links

    body = '<p>Voir 5.101 puis (5.10) et 5.10 ; <a href="x">5.11</a> 5.11 <mark title="5.12">5.12</mark> &lt;b&gt;</p>'
    out = inline_links(body, [InlineRef("5.10", "../5/#5.10", "5.10 Tir"), InlineRef("5.11", "#5.11", "5.11"),
                              InlineRef("5.12", "#5.12", 'x"<', deleted=True), InlineRef("<b>", "#b", "b")])
    assert '(<a class="regles-ref" href="../5/#5.10" title="5.10 Tir">5.10</a>) et 5.10' in out
    assert "Voir 5.101" in out  # not a part of a longer number
    assert '<a href="x">5.11</a> <a class="regles-ref" href="#5.11" title="5.11">5.11</a>' in out
    assert ('<mark title="5.12"><a class="regles-ref regles-ref-deleted" href="#5.12" '
            'title="x&quot;&lt; (supprimée par un erratum)">5.12</a></mark>') in out
    assert '<a class="regles-ref" href="#b" title="b">&lt;b&gt;</a>' in out


def test_each_number_of_a_cited_list_is_its_own_link():
    from extract.link.refs import resolve_explicit
    from extract.lookup import Lookup
    from extract.publish.site import InlineRef, inline_links
    from tests.link.test_refs import GAME, articles

    found = articles()
    resolve_explicit(Lookup(GAME, found), [])
    refs = [InlineRef(r.text, f"#{r.target}", r.target) for r in found[-1].refs if r.target]
    out = inline_links("<p>selon l’article 3.1.1 ou 3.1.2 du présent règlement</p>", refs)
    assert ('<a class="regles-ref" href="#demo/guide/3.1.1" title="demo/guide/3.1.1">article 3.1.1</a> ou '
            '<a class="regles-ref" href="#demo/guide/3.1.2" title="demo/guide/3.1.2">3.1.2</a>') in out



def test_precedence_sentences_take_their_words_from_the_manifest():
    from types import SimpleNamespace

    from extract.publish.site import precedence_rows

    documents = [SimpleNamespace(id="reference", title="Guide de Référence"), SimpleNamespace(id="faq", title="FAQ de Tournoi")]
    rules = [{"over": "faq", "under": "reference", "why": "."},
             {"over": "cards", "over_words": "les cartes et autres éléments de jeu", "under": "reference", "why": "."},
             {"over": "cannot", "over_words": "« ne peut pas »", "under": "can", "under_words": "« peut »", "why": "."},
             {"over": "faq", "under": "regles-de-base", "why": "."}]
    game = SimpleNamespace(game=SimpleNamespace(id="demo", documents=documents, precedence=rules))
    assert [row["sentence"] for row in precedence_rows(game)] == [
        "La FAQ de Tournoi prévaut sur le Guide de Référence.",
        "Les cartes et autres éléments de jeu prévalent sur le Guide de Référence.",
        "« Ne peut pas » prévaut sur « peut ».",
        "La FAQ de Tournoi prévaut sur regles de base.",  # no words declared: the name, as a last resort
    ]


def test_icon_tokens_become_named_badges_in_html_and_in_markdown():
    from extract.publish.site import icon_badges

    badge = ('<span class="regles-icon" title="Icône « attaque à distance »"><span class="regles-visually-hidden">icône </span>'
             'attaque à distance</span>')
    names = ["attaque à distance", "attaque"]
    assert icon_badges("une attaque à distance [attaque à distance] ; Résistant [X]", names) == \
        f"une attaque à distance {badge} ; Résistant [X]"
    assert icon_badges(md("une [attaque à distance] et [X]"), names, markdown=True) == f"une {badge} et \\[X\\]"
    assert icon_badges("[attaque à distance]", []) == "[attaque à distance]"  # a game without icons
    # a token in an attribute (an inline link's title) is left alone: a badge there would break the tag
    linked = '<a href="#x" title="Tir [attaque]">5.12</a> puis [attaque]'
    assert icon_badges(linked, names) == '<a href="#x" title="Tir [attaque]">5.12</a> puis ' + badge.replace(
        "attaque à distance", "attaque")


def test_a_link_to_an_anchor_shows_its_words_not_its_syntax():
    block = Block("paragraph", "Le prix double (voir L’échange).", "Le prix *double* (voir [L’échange](#echange)).")
    assert emphasis(block) == "Le prix <em>double</em> (voir L’échange)."
    assert emphasis(Block("paragraph", "x", "[*tempête*](#tempetes) et [#](#x)")) == "<em>tempête</em> et #"


def test_see_and_related_names_are_shown_linked_or_as_printed():
    """A "Voir aussi" list whose names the link stage did not find keeps them, as plain text."""
    game = GameSpec("demo", "Démo", [DocumentSpec("regles", "Règles", "rulebook", "", "", "x.md", 1, None, "headed-prose", {})],
                    [], "corpus/demo/game.toml", {})

    def entry(key: str, title: str, *blocks: Block) -> Entry:
        return Entry("demo", "regles", "section", None, title, key, blocks=list(blocks), is_page=True)

    market = entry("le-marche", "Le marché", Block("paragraph", "Le prix double (voir L’échange).",
                                                   "Le prix double (voir [L’échange](#echange))."))
    exchange = entry("lechange", "L’échange", Block("paragraph", "On échange."),
                     Block("related", "Voir aussi : Le marché, La tempête, Le marché"), Block("see", "Voir « Le désert »."))
    market.refs = [Ref("demo/regles/lechange", "section", "L’échange")]
    exchange.refs = [Ref("demo/regles/le-marche", "related", "Le marché"),
                     Ref(None, "related", "La tempête", "no topic has this title"),
                     Ref(None, "see", "Voir « Le désert ».", "no entry has this title")]
    entries = [market, exchange]
    site = Site([GameBuild(game, entries, {}, Diagnostics(), lookup=Lookup(game, entries))])
    rendered = render_entry(exchange, 1, "demo/regles/lechange/index.md", site)
    assert rendered.related == [("Le marché", "../le-marche/index.md"), ("La tempête", "")]
    assert rendered.see == [("Le désert", "")]
    body = render_entry(market, 1, "demo/regles/le-marche/index.md", site).body
    assert body == ('<p>Le prix double (voir <a class="regles-ref" href="../lechange/#lechange" title="L’échange">L’échange</a>).</p>')
    page = environment(TOOL_ROOT).get_template("page.md.j2").render(
        title="L’échange", crumbs=[], current="L’échange", edition="", entries=[rendered], subpages=[], previous=None,
        next=None, site=site, here="demo/regles/lechange/index.md")
    assert "**Sujets connexes :** [Le marché](../le-marche/index.md), La tempête" in page
    assert "Voir : Le désert." in page


def test_an_insertion_by_sentence_says_where_it_goes():
    from extract.model import Erratum
    from extract.publish.site import erratum_change

    erratum = Erratum("g/faq/errata/1", "g/faq/1", "g/regles/9", "insert",
                      {"block": "text", "ordinal": None, "section": "9", "position": "end", "within": "sentence",
                       "within_ordinal": 1}, None, "Le premier tour.", "applied")
    assert erratum_change(erratum) == "Ajoute du texte après la première phrase de la section 9."


def page_of_entries(*children: tuple[str, list[str]], page_anchors: tuple[str, ...] = ()) -> Entry:
    """A page "regles" holding one entry per (key, source ids)."""
    page = Entry("demo", "regles", "section", None, "Règles", "regles", is_page=True, anchors=list(page_anchors))
    for key, anchors in children:
        child = Entry("demo", "regles", "section", None, key.title(), f"regles/{key}", parent=page, anchors=anchors)
        page.children.append(child)
    return page


def test_a_source_id_is_an_extra_anchor_of_its_entry_unless_it_is_its_anchor():
    page = page_of_entries(("marche", ["marche"]), ("combat", ["bataille"]), page_anchors=("livre",))
    aliases = page_aliases(page)
    assert aliases.shown == {"demo/regles/regles": ["livre"], "demo/regles/regles/combat": ["bataille"]}
    assert aliases.clashes == []


@pytest.mark.parametrize(("children", "clashes"), [
    ((("marche", []), ("combat", ["marche"])), [("regles/combat", "marche", "the anchor of demo/regles/regles/marche")]),
    ((("marche", ["pas"]), ("combat", ["pas"])), [("regles/marche", "pas", "the heading of demo/regles/regles/marche, "
                                                                           "demo/regles/regles/combat"),
                                                  ("regles/combat", "pas", "the heading of demo/regles/regles/marche, "
                                                                           "demo/regles/regles/combat")]),
    ((("marche", ["__drawer"]),), [("regles/marche", "__drawer", "an id of the site's frame")]),
])
def test_an_id_another_anchor_of_the_page_holds_is_a_clash_not_a_duplicate(children, clashes):
    aliases = page_aliases(page_of_entries(*children))
    assert aliases.shown == {}
    assert [(e.key, name, holder) for e, name, holder in aliases.clashes] == clashes


def test_the_subpages_list_and_an_index_s_letters_keep_their_ids():
    page = page_of_entries(("index", ["index-a"]), ("combat", ["sujets"]))
    page.children[0].refs.append(Ref("demo/regles/regles/combat", "index", "Combat"))
    page.children.append(Entry("demo", "regles", "section", None, "Annexe", "regles/annexe", parent=page, is_page=True))
    assert [(name, holder) for _, name, holder in page_aliases(page).clashes] == [
        ("index-a", "a letter of the index index"), ("sujets", "the list of subpages")]


def demo_build(documents: int, entries: list[Entry] | None = None) -> GameBuild:
    game = GameSpec("demo", "Démo", [DocumentSpec(f"livre{n}", f"Livre {n}", "rulebook", "", "", "x.md", 1, None, "headed-prose", {})
                                     for n in range(documents)], [], "corpus/demo/game.toml", {})
    entries = entries or []
    return GameBuild(game, entries, {}, Diagnostics(), lookup=Lookup(game, entries))


def test_the_navigation_lists_a_game_s_books_while_they_are_few():
    from extract.publish.sitebuild import NAV_DOCUMENTS

    few, many = (site_nav([demo_build(n)])[1]["Démo"] for n in (NAV_DOCUMENTS, NAV_DOCUMENTS + 1))
    assert [next(iter(item)) for item in few] == ["Présentation", *(f"Livre {n}" for n in range(NAV_DOCUMENTS)), "Errata"]
    assert many == [{"Présentation": "demo/index.md"}, {"Errata": "demo/errata.md"}]  # its presentation lists them


def test_cited_by_lists_the_rules_pointing_here_and_the_same_subject_is_elsewhere():
    """"Cité par" lists the rules whose text points here; the rules of another game on the same
    subject (concept links, one way across games) are under "Ailleurs", the first few of each game."""
    from extract.publish.site import ELSEWHERE_PER_GAME

    def entry(document: str, key: str, title: str, game: str = "demo") -> Entry:
        return Entry(game, document, "section", None, title, key, blocks=[Block("paragraph", "x")], is_page=True)

    charge = entry("livre0", "charge", "Charge")
    citing = entry("livre0", "mouvement", "Mouvement")
    same_subject = entry("livre1", "charge", "Charge")  # same game: the link back, when there is one, is in the data (BACK_LINKS)
    abroad = [entry("regles", f"charge-{n:02}", "Charge", game="autre") for n in range(ELSEWHERE_PER_GAME + 2)]
    citing.refs = [Ref(charge.id, "section", "Charge")]
    for source in (same_subject, *abroad):
        source.refs = [Ref(charge.id, "concept", "Charge")]
    charge.backrefs = sorted([citing.id, same_subject.id, *(e.id for e in abroad)])
    other = GameSpec("autre", "Autre", [DocumentSpec("regles", "Règles", "rulebook", "", "", "y.md", 1, None, "headed-prose", {})],
                     [], "corpus/autre/game.toml", {})
    site = Site([demo_build(2, [charge, citing, same_subject]), GameBuild(other, abroad, {}, Diagnostics(), lookup=Lookup(other, abroad))])
    rendered = render_entry(charge, 1, "demo/livre0/charge/index.md", site)
    assert rendered.cited_by == [("Mouvement", "../mouvement/index.md")]
    # each named with its game (the defect: "Ailleurs" listed other games' rules without saying which game)
    assert rendered.elsewhere == [(r"Charge \(Autre\)", f"../../../autre/regles/charge-{n:02}/index.md")
                                  for n in range(ELSEWHERE_PER_GAME)]


def test_a_doubtful_tree_and_a_garbled_scan_are_said_on_the_page():
    """A document whose heading tree scored low says so on its pages; an entry holding a passage
    whose two scanned columns were read line by line carries a « Passage mal numérisé » badge."""
    doc = DocumentSpec("regles", "Règles", "rulebook", "", "", "x.md", 1, None, "headed-prose", {})
    doc.structure_uncertain = True
    game = GameSpec("demo", "Démo", [doc], [], "corpus/demo/game.toml", {})
    garbled = Entry("demo", "regles", "section", None, "Réactions", "reactions", blocks=[Block("paragraph", "On réagit.")],
                    is_page=True, flags=["columns-interleaved"])
    plain = Entry("demo", "regles", "section", None, "Tirs", "tirs", blocks=[Block("paragraph", "On tire.")], is_page=True)
    site = Site([GameBuild(game, [garbled, plain], {}, Diagnostics(), lookup=Lookup(game, [garbled, plain]))])
    assert "Passage mal numérisé" in render_entry(garbled, 1, "demo/regles/reactions/index.md", site).badge
    assert "Passage mal numérisé" not in render_entry(plain, 1, "demo/regles/tirs/index.md", site).badge
    rendered = render_entry(garbled, 1, "demo/regles/reactions/index.md", site)
    template = environment(TOOL_ROOT).get_template("page.md.j2")
    context = {"title": "Réactions", "crumbs": [], "current": "Réactions", "edition": "", "entries": [rendered],
               "subpages": [], "previous": None, "next": None, "site": site, "here": "demo/regles/reactions/index.md"}
    assert "Structure incertaine" in template.render(**context, doc=doc)
    doc.structure_uncertain = False
    assert "Structure incertaine" not in template.render(**context, doc=doc)


def test_the_latest_errata_are_those_of_the_most_recent_documents_with_their_dates():
    """The defect: the home page's latest errata had no dates (and were the first in book order)."""
    from extract.model import Erratum
    from extract.publish.site import latest_errata

    def game_with(game_id: str, dates: dict[str, str]) -> GameBuild:
        docs = [DocumentSpec(d, f"FAQ {d}", "faq", "1.0", date, "x.md", 1, None, "faq", {}) for d, date in dates.items()]
        spec = GameSpec(game_id, game_id.title(), docs, [], f"corpus/{game_id}/game.toml", {})
        errata = [Erratum(f"{game_id}/{d}/errata/1", f"{game_id}/{d}/q", None, "replace", {}, "a", "b", "recorded")
                  for d in dates]
        return GameBuild(spec, [], {}, Diagnostics(), errata=errata, lookup=Lookup(spec, []))

    latest = latest_errata([game_with("a", {"vieille": "2016", "sans": ""}), game_with("b", {"neuve": "2019-03-01"})])
    assert [e.id for _, e, _ in latest] == ["b/neuve/errata/1", "a/vieille/errata/1", "a/sans/errata/1"]
    assert latest[0][2] == "FAQ neuve, version 1.0 (2019-03-01)"


def test_a_rule_referring_to_a_drawing_says_the_site_lacks_it():
    """The defect: diagrams the text refers to were absent with no word saying so."""
    from extract.publish.site import figure_note

    def entry(text: str, page: int | None = None) -> Entry:
        found = Entry("demo", "livre0", "rule", "4.09", None, "4.09", blocks=[Block("paragraph", text)])
        found.page = page
        return found

    site = Site([demo_build(1, [])])
    assert figure_note(entry("La Zone de Danger, comme représenté sur le schéma ci-dessous.", 12), site) == \
        "Le texte renvoie à un schéma du livre, que ce site ne reproduit pas (page 12 du Livre 0)."
    assert figure_note(entry("Comparez-les à l'illustration."), site) == \
        "Le texte renvoie à une illustration du livre, que ce site ne reproduit pas (dans le Livre 0)."
    assert figure_note(entry("Une figurine figure sur la carte."), site) == ""  # no drawing named


@pytest.mark.parametrize(("parts", "title"), [
    (("49 Ligne de vue", "Guide de Référence", "Runewars"), "49 Ligne de vue — Guide de Référence — Runewars"),
    (("Combat", "Kahmaté", "Kahmaté"), "Combat — Kahmaté"),  # a book named as its game
    (("Kahmaté", "kahmaté", "Règles"), "Kahmaté — Règles"),
    (("Combat", "Règles", "Combat"), "Combat — Règles — Combat"),  # only a part said right after itself
])
def test_a_page_title_never_says_the_same_name_twice_in_a_row(parts, title):
    assert joined_title(*parts) == title
