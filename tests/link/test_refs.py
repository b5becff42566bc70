"""extract/link/refs.py on a few hand-built entries: each kind of explicit reference resolved,
or left unresolved with its reason (tests/test_refs.py checks the real corpus)."""

from __future__ import annotations

import re

import pytest

from extract.link.refs import expand, resolve_explicit
from extract.lookup import Lookup
from extract.model import Block, DocumentSpec, Entry, Erratum, GameSpec
from extract.patterns import cited_numbers
from extract.patterns import list_items as related_items


def doc(id_: str, title: str, kind: str = "reference") -> DocumentSpec:
    return DocumentSpec(id_, title, kind, "", "", "corpus/demo/x.txt", 1, None, "headed-prose", {})


GAME = GameSpec("demo", "Démo", [doc("guide", "Guide de Référence"), doc("livret", "Livret d'Apprentissage", "learn-to-play"),
                                 doc("faq", "FAQ", "faq")], [], "corpus/demo/game.toml", {})


def entry(document: str, key: str, title: str | None, *blocks: tuple[str, str], kind: str = "topic",
          number: str | None = None, parent: Entry | None = None) -> Entry:
    found = Entry("demo", document, kind, number, title, key, parent=parent, blocks=[Block(t, x) for t, x in blocks])
    found.heading_lines = [1]
    if parent is not None:
        parent.children.append(found)
    return found


def guide() -> dict[str, Entry]:
    topics = {
        "8": entry("guide", "8", "Arc de tir", ("paragraph", "L'arc de tir est devant l'unité."), number="8"),
        "49": entry("guide", "49", "Ligne de vue", ("paragraph", "Voir l'arc de tir."),
                    ("related", "Sujets connexes : Arc de tir ✦, Portée, Moral"), number="49"),
        "4": entry("guide", "4", "Aligné", ("see", "Voir « Faire Face »."), number="4"),
        "44": entry("guide", "44", "Faire face", ("paragraph", "Une unité fait face."), number="44"),
        "67": entry("guide", "67", "Portée", ("paragraph", "La portée se mesure (voir plus bas)."), number="67"),
    }
    topics["49.1"] = entry("guide", "49.1", None, ("paragraph", "Voir la section 8 et la section 99."), kind="rule",
                           number="49.1", parent=topics["49"])
    return topics


def refs(entry: Entry, kind: str) -> list[tuple[str | None, str, str | None]]:
    return [(r.target, r.text, r.reason) for r in entry.refs if r.kind == kind]


def test_sujets_connexes_resolve_by_title_and_report_the_unknown():
    entries = guide()
    found = resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["49"], "related") == [
        ("demo/guide/8", "Arc de tir ✦", None),  # the icon is not part of the name
        ("demo/guide/67", "Portée", None),
        (None, "Moral", "no topic has this title"),
    ]
    assert [(where, a.kind, a.detail) for where, a in found] == [
        ("demo/guide", "unresolved-reference", "demo/guide/49: related « Moral »: no topic has this title"),
        ("demo/guide", "unresolved-reference", "demo/guide/67: section « (voir plus bas) »: points elsewhere without naming what"),
        ("demo/guide", "unresolved-reference", "demo/guide/49.1: section « section 99 »: no rule numbered 99"),
    ]


def test_a_redirect_is_a_see_ref():
    entries = guide()
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["4"], "see") == [("demo/guide/44", "Voir « Faire Face ».", None)]


def test_section_numbers_and_vague_pointers():
    entries = guide()
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["49.1"], "section") == [("demo/guide/8", "section 8", None), (None, "section 99", "no rule numbered 99")]
    assert refs(entries["67"], "section") == [(None, "(voir plus bas)", "points elsewhere without naming what")]


def test_a_same_title_in_two_topics_is_ambiguous_not_guessed():
    entries = guide()
    twin = entry("guide", "90", "Portée", ("paragraph", "Encore."), number="90")
    resolve_explicit(Lookup(GAME, [*entries.values(), twin]), [])
    assert refs(entries["49"], "related")[1] == (None, "Portée", "ambiguous: demo/guide/67, demo/guide/90")


def test_pointers_in_prose_follow_the_direction():
    intro = entry("livret", "intro", "Intro", ("paragraph", "Voir la section Mouvement ci-dessous. Voir « Tir » ci-dessus."),
                  kind="section")
    moves = entry("livret", "mouvement", "Mouvement", ("paragraph", "On bouge."), kind="section")
    resolve_explicit(Lookup(GAME, [intro, moves]), [])
    assert refs(intro, "section") == [
        ("demo/livret/mouvement", "Voir la section Mouvement ci-dessous", None),
        (None, "Voir « Tir » ci-dessus", "no section « Tir » ci-dessus")]  # above, not below


def test_pages_resolve_through_the_page_map_the_errata_give():
    entries = guide()
    learn = entry("livret", "et-maintenant", "Et maintenant", ("paragraph", "Lisez la page 13 du Guide de Référence."), kind="section")
    nowhere = entry("livret", "fin", "Fin", ("paragraph", "Voir page 40 du Guide de Référence, et page 2."), kind="section")
    # "Ligne de Vue, page 13, section 49": the FAQ's erratum heading says where topic 49 is printed.
    erratum = Erratum("demo/faq/errata/1", "demo/faq/x", "demo/guide/49", "replace", {}, None, None, "applied",
                      target_hint={"name": "Ligne de Vue", "page": 13, "sections": ["49"]})
    resolve_explicit(Lookup(GAME, [*entries.values(), learn, nowhere]), [erratum])
    assert entries["49"].page == 13
    assert refs(learn, "page") == [("demo/guide/49", "page 13 du Guide de Référence", None)]
    assert refs(nowhere, "page") == [
        (None, "page 40 du Guide de Référence", "page 40 is not in the page map of guide"),
        (None, "page 2", "no page map for demo/livret: the book gives none")]


def test_a_printed_index_links_its_numbers_and_tags_the_rules():
    entries = guide()
    index = entry("guide", "index", "Index", ("paragraph", "Portée, 67"), ("paragraph", "Tir"),
                  ("paragraph", "Arc, 8.0, 49.1–49.2"), kind="section")
    index.printed_index = True
    resolve_explicit(Lookup(GAME, [*entries.values(), index]), [])
    assert refs(index, "index") == [
        ("demo/guide/8", "Tir › Arc, 8.0, 49.1–49.2", None),  # "8.0" is topic 8; the line is read under its head "Tir"
        ("demo/guide/49.1", "Tir › Arc, 8.0, 49.1–49.2", None),
        (None, "Arc, 8.0, 49.1–49.2", "no rule numbered 49.2"),
    ]
    assert entries["49.1"].index_terms == ["Arc"] and entries["8"].index_terms == ["Arc"]
    assert entries["67"].index_terms == []  # "67" alone is not an index number


@pytest.mark.parametrize(("text", "items"), [
    ("Sujets connexes : Attaque, Engagement, Portée.", ["Attaque", "Engagement", "Portée"]),
    ("Sujet connexe : Unité.", ["Unité"]),
    ("- Sujets connexes : Attaque", ["Attaque"]),  # written as a list item
    ("**Voir aussi :** Capacité ; Tour de joueur", ["Capacité", "Tour de joueur"]),
    ("Voir « Attaque ».", []),
])
def test_related_items(text, items):
    assert related_items(text) == items


@pytest.mark.parametrize(("part", "numbers"), [
    ("2.0", ["2"]), ("1.1–1.3", ["1.1", "1.2", "1.3"]), ("84.10", ["84.10"]), ("5.1-5.2", ["5.1", "5.2"])])
def test_expand(part, numbers):
    assert expand(part) == numbers


def test_voir_aussi_and_voir_colon_resolve_like_sujets_connexes_and_redirects():
    entries = guide()
    entries["4"].blocks = [Block("see", "Voir : Faire face")]
    entries["8"].blocks.append(Block("related", "Voir aussi : Ligne de vue ; Portée"))
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["8"], "related") == [("demo/guide/49", "Ligne de vue", None), ("demo/guide/67", "Portée", None)]
    assert refs(entries["4"], "see") == [("demo/guide/44", "Voir : Faire face", None)]



def test_a_quoted_title_after_voir_resolves_without_a_direction():
    """"(voir « Faire face »)" in a paragraph: the entry of that title; a title no entry has is said."""
    entries = guide()
    entries["8"].blocks.append(Block("paragraph", "Une unité pivote (voir « Faire face ») puis (voir « Pivoter »)."))
    found = resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["8"], "section") == [("demo/guide/44", "voir « Faire face »", None),
                                             (None, "voir « Pivoter »", "no section « Pivoter »")]
    assert any("demo/guide/8: section « voir « Pivoter » »" in a.detail for _, a in found)


# ---------------------------------------------------------------- references by rule number

@pytest.mark.parametrize(("text", "cited"), [
    ("selon l’article 3.1.1 ou 3.1.2 du présent règlement", [("article 3.1.1 ou 3.1.2", ["3.1.1", "3.1.2"], None)]),
    ("indiquées à l’article 3.3.2., une équipe", [("article 3.3.2", ["3.3.2"], None)]),  # the sentence's dot is not a level
    ("Voir l'article 4 pour le tir.", [("Voir l'article 4", ["4"], None)]),
    ("R : Non, voir 3.2.", [("voir 3.2", ["3.2"], None)]),
    ("(voir cependant 8:2b).", [("voir cependant 8:2b", ["8:2b"], None)]),
    ("(règle 8:3-6)", [("règle 8:3-6", ["8:3", "8:6"], None)]),  # a range: its two ends, the short one completed
    ("articles 3.1 à 3.4", [("articles 3.1 à 3.4", ["3.1", "3.4"], None)]),
    ("spécifiées au § 14.2 et cf. 1.3.10", [("§ 14.2", ["14.2"], None), ("cf. 1.3.10", ["1.3.10"], None)]),
    ("voir le point 3", [("voir le point 3", ["3"], None)]),
    ("l'article 1er", [("article 1er", ["1"], None)]),
    ("l'article 9.5 du Règlement intérieur", [("article 9.5", ["9.5"], "Règlement intérieur")]),
    ("l'article 2, 3 joueurs au plus", [("article 2", ["2"], None)]),  # "3 joueurs" is a count, not article 3
])
def test_cited_numbers_need_a_cue_and_read_lists(text, cited):
    assert [(c.text, c.numbers, c.book) for c in cited_numbers(text)] == cited


@pytest.mark.parametrize(("text", "items"), [
    ("selon l’article 3.1.1 ou 3.1.2", ["article 3.1.1", "3.1.2"]),
    ("Voir l'article 3 et l'article 12.", ["Voir l'article 3", "article 12"]),
    ("(règle 8:3-6)", ["règle 8:3-6", "règle 8:3-6"]),  # a range's ends are named together
    ("articles 3.1 à 3.4, 5", ["articles 3.1 à 3.4", "articles 3.1 à 3.4", "5"]),
])
def test_each_cited_number_keeps_the_words_naming_it(text, items):
    assert [item for c in cited_numbers(text) for item in c.items] == items


@pytest.mark.parametrize(("text", "numbers"), [
    ("Règle(s) : 1:1", [["1:1"]]), ("Règle(s) : 2:7, 12:1, 15:5b", [["2:7", "12:1", "15:5b"]]),
    ("Règle : 3.2", [["3.2"]]),  # an answer key's label cites too
    ("Règles : 2 joueurs", []), ("Règle : 4 variantes", []),  # after a bare "Règle :", a count is no rule
])
def test_an_answer_keys_rule_label_cites(text, numbers):
    assert [c.numbers for c in cited_numbers(text)] == numbers


@pytest.mark.parametrize("text", [
    "Le tir touche sur 1.5 ou plus.", "Marquez 2 points.", "Saison 2025.26, le 3.1.2025", "On peut voir 3 cartes.",
    "à savoir 2.", "cf. 4", "au point 3 de la partie",  # bare "voir"/"cf." and "point" need more than an integer
    "la règle 1.iii.d. prévaut", "voir 1,5 cm",  # a number read in part is no number
])
def test_numbers_without_a_cue_are_no_citation(text):
    assert cited_numbers(text) == []


def articles() -> list[Entry]:
    """A federation's rules numbered 1, 3, 3.1, 3.1.1…, and a handball rule 8:2 (items a, b)."""
    top = entry("guide", "3", "Forfaits", ("paragraph", "Un forfait."), kind="section", number="3")
    first = entry("guide", "3.1", "Heure limite", ("paragraph", "À l'heure."), kind="section", number="3.1", parent=top)
    found = [entry("guide", "1", "Licences", ("paragraph", "Voir l'article 3 et l'article 12."), kind="section", number="1"),
             top, first,
             entry("guide", "3.1.1", "Rondes", ("paragraph", "Une ronde."), kind="rule", number="3.1.1", parent=first),
             entry("guide", "3.1.2", "Matchs", ("paragraph", "Un match."), kind="rule", number="3.1.2", parent=first),
             entry("guide", "8:2", None, ("paragraph", "b) barrer le chemin."), kind="rule", number="8:2")]
    return found + [entry("guide", "3.2", "Forfait isolé", (
        "paragraph", "Présent selon l’article 3.1.1 ou 3.1.2 du présent règlement (voir cependant 8:2b), "
                     "sinon l'article 9.5 du Règlement intérieur s'applique; il marque 2 points, 1.5 en 2025."),
        kind="section", number="3.2", parent=top)]


def test_citations_link_every_number_and_report_the_unknown():
    found = articles()
    anomalies = resolve_explicit(Lookup(GAME, found), [])
    by_key = {e.key: e for e in found}
    # one list, each number a ref with its own words (the site links each)
    assert refs(by_key["1"], "section") == [("demo/guide/3", "Voir l'article 3", None), (None, "article 12", "no rule numbered 12")]
    assert refs(by_key["3.2"], "section") == [
        ("demo/guide/3.1.1", "article 3.1.1", None),
        ("demo/guide/3.1.2", "3.1.2", None),
        ("demo/guide/8:2", "voir cependant 8:2b", None),  # item b of 8:2 is rule 8:2
        (None, "article 9.5", "the book « Règlement intérieur » is not in the corpus"),  # not this book's 9.5
    ]
    assert [a.detail for _, a in anomalies] == [
        "demo/guide/1: section « article 12 »: no rule numbered 12",
        "demo/guide/3.2: section « article 9.5 »: the book « Règlement intérieur » is not in the corpus"]


def test_a_citation_prefers_its_own_book_then_the_one_rule_of_the_game():
    here = entry("livret", "4", "Le tir", ("paragraph", "On tire."), kind="section", number="4")
    there = entry("guide", "4", "Tir", ("paragraph", "Tirer."), kind="section", number="4")
    only = entry("guide", "5", "Moral", ("paragraph", "Le moral."), kind="section", number="5")
    citing = entry("livret", "intro", "Intro", ("paragraph", "Voir l'article 4, puis la règle 5."), kind="section")
    resolve_explicit(Lookup(GAME, [there, only, here, citing]), [])
    assert refs(citing, "section") == [("demo/livret/4", "Voir l'article 4", None), ("demo/guide/5", "règle 5", None)]


def test_a_numbered_question_is_no_article():
    """An exam's question 3 quoting the laws' "Article 3" does not point at itself or its neighbours."""
    exam = entry("livret", "examen", "Examen", ("paragraph", "Corrigé."), kind="section")
    question = entry("livret", "examen/q3", None, ("question", "Selon l'Article 3, que faire ?"), kind="question", number="3",
                     parent=exam)
    other = entry("livret", "examen/q4", None, ("question", "Voir l'article 3."), kind="question", number="4", parent=exam)
    resolve_explicit(Lookup(GAME, [exam, question, other]), [])
    assert refs(other, "section") == [(None, "Voir l'article 3", "no rule numbered 3")]


def test_a_number_printed_twice_in_a_book_is_taken_in_the_citing_part_or_reported():
    """A regulation whose parts I and II each have an Article 1: "l'article 1" in part II is its own;
    from outside both parts it is ambiguous, reported rather than guessed."""
    parts = [entry("guide", p, f"Titre {p}", ("paragraph", "Une partie."), kind="section") for p in ("I", "II")]
    firsts = [entry("guide", f"{p.key}/1", "Objet", ("paragraph", "L'objet."), kind="rule", number="1", parent=p)
              for p in parts]
    inside = entry("guide", "II/2", "Suite", ("paragraph", "Voir l'article 1."), kind="rule", number="2", parent=parts[1])
    outside = entry("guide", "annexe", "Annexe", ("paragraph", "Voir l'article 1."), kind="section")
    anomalies = resolve_explicit(Lookup(GAME, [parts[0], firsts[0], parts[1], firsts[1], inside, outside]), [])
    assert refs(inside, "section") == [("demo/guide/II/1", "Voir l'article 1", None)]
    assert refs(outside, "section") == [(None, "Voir l'article 1", "2 entries numbered 1")]
    assert [a.detail for _, a in anomalies] == ["demo/guide/annexe: section « Voir l'article 1 »: 2 entries numbered 1"]


def test_one_resolver_gives_every_entry_a_cited_number_names():
    """`Lookup.cited`, which the refs and the FAQ stage both read: an item letter falls back to its
    rule, a question is no rule, and the caller decides what several matches mean."""
    rule = entry("guide", "8:2", None, ("paragraph", "b) barrer."), kind="rule", number="8:2")
    again = entry("livret", "8:2", None, ("paragraph", "Idem."), kind="rule", number="8:2")
    question = entry("faq", "q8", None, ("question", "Et la règle 8:2 ?"), kind="question", number="8:2")
    lookup = Lookup(GAME, [rule, again, question])
    assert lookup.cited("8:2b") == [rule, again]
    assert lookup.cited("8:2b", "guide") == [rule]
    assert lookup.cited("8:2", outside={"guide"}) == [again]
    assert lookup.cited("9") == []


@pytest.mark.parametrize(("text", "numbers"), [
    ("article 2-1", ["2-1"]),  # one number as printed, never articles 2 and 1
    ("règle 8:3-2", ["8:3-2"]),
    ("articles 4 à 2", ["4"]),
    ("règle 8:3-6", ["8:3", "8:6"]),  # forward: still a range
])
def test_a_backward_range_is_no_range(text, numbers):
    assert [n for c in cited_numbers(text) for n in c.numbers] == numbers


@pytest.mark.parametrize("text", [
    "Variante : règles 2 joueurs", "règles 2 à 4 joueurs", "l'article 3 cartes en main",  # counts after a cue word
    "voir 1.5 cm", "cf. 2.5 cm", "voir 2.5 pouces", "voir 3.5\" de haut", "règle 3 points", "voir 12.5 %",  # measures
])
def test_a_count_or_a_measure_is_no_citation(text):
    assert cited_numbers(text) == []


def test_a_bare_voir_cites_only_numbers_the_game_prints():
    """"voir 10:30" in books numbered 3.1.2 is an hour: no ref, no anomaly; "voir 3.1" is one."""
    rule = entry("guide", "3.1", "Heure limite", ("paragraph", "À l'heure."), kind="rule", number="3.1")
    citing = entry("guide", "3.2", "Retard", ("paragraph", "Le direct est à voir 10:30 sur la chaîne ; voir 3.1."),
                   kind="rule", number="3.2")
    anomalies = resolve_explicit(Lookup(GAME, [rule, citing]), [])
    assert refs(citing, "section") == [("demo/guide/3.1", "voir 3.1", None)]
    assert anomalies == []


def test_a_cited_book_is_read_against_the_game_s_titles():
    """"du Guide de Référence" is that document, whole; "de la Phase de combat" is a part of the citing
    book, not a book; "du Livre de règles" names a book this game lacks."""
    there = entry("guide", "4", "Tir", ("paragraph", "Tirer."), kind="section", number="4")
    here = entry("livret", "4", "Le tir", ("paragraph", "On tire."), kind="section", number="4")
    five = entry("livret", "5", "Phase de combat", ("paragraph", "On combat."), kind="section", number="5")
    citing = entry("livret", "intro", "Intro", ("paragraph", "Voir l'article 4 du Guide de Référence, la règle 5 de la "
                                                "Phase de combat et l'article 6 du Livre de règles."), kind="section")
    anomalies = resolve_explicit(Lookup(GAME, [there, here, five, citing]), [])
    assert refs(citing, "section") == [
        ("demo/guide/4", "Voir l'article 4", None),
        ("demo/livret/5", "règle 5", None),
        (None, "article 6", "the book « Livre de règles » is not in the corpus")]
    assert [a.detail for _, a in anomalies] == [
        "demo/livret/intro: section « article 6 »: the book « Livre de règles » is not in the corpus"]


def page(*entries: Entry) -> list[Entry]:
    return list(entries)


def linked(key: str, title: str, markdown: str, number: str | None = None, kind: str = "section") -> Entry:
    """An entry of the guide whose one paragraph holds Markdown links, as the Markdown reader keeps them."""
    plain = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", markdown).replace("*", "")
    found = Entry("demo", "guide", kind, number, title, key, blocks=[Block("paragraph", plain, markdown)])
    found.heading_lines = [1]
    return found


def test_a_link_to_an_anchor_resolves_by_the_title_slug_the_id_or_the_number():
    states = linked("etats-speciaux", "Les états spéciaux", "Un état.")
    inconscient = linked("etats-speciaux/inconscient", "Inconscient", "Une créature [*inconsciente*](#inconscient) "
                         "est [*neutralisée*](#neutralise) ([voir l'état](#neutralise)).")
    neutralise = linked("etats-speciaux/neutralise", "Neutralisé", "Rien.")
    perdre = linked("perdre-conscience", "Perdre conscience", "Vous êtes [*inconscient*](#inconscient) "
                    "(voir la section [*États spéciaux*](#les-etats-speciaux)).")
    rule = linked("8-3", None, "Une exclusion ([8:4](#8:4)) (voir également [8:5](#8:5)).", number="8:3")
    four = linked("8-4", None, "Rien.", number="8:4")
    five = linked("8-5", None, "Rien.", number="8:5")
    resolve_explicit(Lookup(GAME, page(states, inconscient, neutralise, perdre, rule, four, five)), [])
    assert refs(inconscient, "section") == [("demo/guide/etats-speciaux/neutralise", "neutralisée", None)]  # not itself
    assert refs(perdre, "section") == [("demo/guide/etats-speciaux/inconscient", "inconscient", None),
                                       ("demo/guide/etats-speciaux", "États spéciaux", None)]  # accents off, "les" in the slug
    assert refs(rule, "section") == [("demo/guide/8-4", "8:4", None), ("demo/guide/8-5", "8:5", None)]


def test_a_link_to_a_numbered_heading_s_own_anchor_resolves():
    """"## 1. Combat" is "#1-combat" for GitHub, MkDocs and Pandoc: number and title together."""
    combat = linked("1", "Combat", "Rien.", number="1")
    move = linked("2", "Mouvement", "Voir [le combat](#1-combat).", number="2")
    resolve_explicit(Lookup(GAME, page(combat, move)), [])
    assert refs(move, "section") == [("demo/guide/1", "le combat", None)]


def test_a_link_to_a_heading_s_source_id_resolves_before_any_slug():
    """"## Le marché {#marche}": the source's id names the entry; another entry titled "Marche"
    (slug "marche") does not take the link."""
    marche = linked("le-marche", "Le marché", "Rien.")
    marche.anchors = ["marche"]
    walk = linked("marche", "Marche", "Rien.")
    rule = linked("prix", "Prix", "Voir [le marché](#marche).")
    resolve_explicit(Lookup(GAME, page(walk, marche, rule)), [])
    assert refs(rule, "section") == [("demo/guide/le-marche", "le marché", None)]


@pytest.mark.parametrize("anchor", ["lechange", "l-echange", "echange", "léchange"])
def test_a_link_to_a_title_with_an_apostrophe_takes_its_common_spellings(anchor):
    """GitHub drops the apostrophe ("#lechange"), some generators part the words ("#l-echange"),
    authors leave the elided article out ("#echange")."""
    exchange = linked("lechange", "L’échange", "Rien.")
    rule = linked("prix", "Prix", f"Le prix change à [l’échange](#{anchor}).")
    resolve_explicit(Lookup(GAME, page(exchange, rule)), [])
    assert refs(rule, "section") == [("demo/guide/lechange", "l’échange", None)]


def test_an_apostrophe_spelling_two_titles_share_is_ambiguous():
    turn = linked("players-turn", "Player's turn", "Rien.")
    other = linked("players-turn-2", "Players turn", "Rien.")
    rule = linked("prix", "Prix", "See [turn](#echange) and [the turn](#player-turn).")
    echange = linked("d-echange", "D’échange", "Rien.")
    lechange = linked("l-echange", "L’échange", "Rien.")
    resolve_explicit(Lookup(GAME, page(turn, other, echange, lechange, rule)), [])
    assert refs(rule, "section") == [(None, "turn", "ambiguous: demo/guide/d-echange, demo/guide/l-echange"),
                                     (None, "the turn", "no entry of the page has the anchor #player-turn")]


def test_a_link_to_an_anchor_naming_nothing_is_reported_once():
    rule = linked("8-3", None, "Un avertissement ([16:1a](#16:1)), puis ([16:1b](#16:1)).", number="8:3")
    found = resolve_explicit(Lookup(GAME, [rule]), [])
    assert refs(rule, "section") == [(None, "16:1a", "no entry of the page has the anchor #16:1")]
    assert [a.detail for _, a in found] == ["demo/guide/8-3: section « 16:1a »: no entry of the page has the anchor #16:1"]


def test_a_cited_rule_linked_is_one_ref_and_one_report():
    rule = linked("8-7", None, "Selon la règle [7:8](#7:8) et la règle [8:3](#8:3).", number="8:7")
    three = linked("8-3", None, "Rien.", number="8:3")
    found = resolve_explicit(Lookup(GAME, [three, rule]), [])
    assert refs(rule, "section") == [(None, "règle 7:8", "no rule numbered 7:8"), ("demo/guide/8-3", "la règle 8:3", None)]
    assert len(found) == 1


def test_voir_la_section_without_quotes_resolves_on_an_exact_title_only():
    jets = linked("jets", "Jets de sauvegarde", "Vous êtes stabilisé (voir ci-dessous la section Stabiliser une créature) "
                  "et (voir la section États spéciaux) puis voir la section Mouvement des figurines.")
    stabiliser = linked("stabiliser", "Stabiliser une créature", "Rien.")
    states = linked("etats", "Les états spéciaux", "Rien.")  # "États spéciaux" is not its title: nothing fuzzy
    move = linked("mouvement", "Mouvement", "Rien.")
    found = resolve_explicit(Lookup(GAME, [jets, stabiliser, states, move]), [])
    assert refs(jets, "section") == [("demo/guide/stabiliser", "voir ci-dessous la section Stabiliser une créature", None),
                                     ("demo/guide/mouvement", "voir la section Mouvement", None)]
    assert found == []  # an unquoted name that is no title is prose: "voir" is also the verb


def test_voir_and_an_inline_voir_aussi_name_entries_by_title():
    engagement = linked("engagement", "Engagement", "Deux figurines sont engagées. Voir aussi : Désengagement, Mêlée, Moral.")
    bouclier = linked("bouclier", "Bouclier", "+1 contre les attaques de mêlée (voir Couvert).")
    melee = linked("melee", "Mêlée", "Combat entre figurines engagées ; voir Engagement. Il faut voir la cible.")
    couvert = linked("couvert", "Couvert", "Rien.")
    retreat = linked("desengagement", "Désengagement", "Rien.")
    found = resolve_explicit(Lookup(GAME, [engagement, bouclier, melee, couvert, retreat]), [])
    assert refs(engagement, "related") == [("demo/guide/desengagement", "Désengagement", None), ("demo/guide/melee", "Mêlée", None),
                                           (None, "Moral", "no topic has this title")]
    assert refs(bouclier, "section") == [("demo/guide/couvert", "voir Couvert", None)]
    assert refs(melee, "section") == [("demo/guide/engagement", "voir Engagement", None)]
    assert len(found) == 1


def test_voir_la_section_with_a_direction_is_searched_that_way_only():
    move = linked("4", "Mouvement", "Rien.", number="4")
    setup = linked("3", "Préparation", "Mouvement : Voir la section Mouvement ci-dessous.", number="3")
    later = linked("8", "Mouvement", "Rien.", number="8")
    found = resolve_explicit(Lookup(GAME, [move, setup, later]), [])
    assert refs(setup, "section") == [("demo/guide/8", "Voir la section Mouvement ci-dessous", None)]
    assert found == []


def numbered_book() -> dict[str, Entry]:
    turn = entry("guide", "3", "Le tour de jeu", ("paragraph", "Le tour se déroule ainsi :"),
                 ("bullet", "jouer une carte Ordre (3.1) ;"), ("bullet", "déplacer les unités activées (3.2 et 3.3) ;"),
                 ("bullet", "mesurer (2.5 cm) et noter la moyenne (1.5), le score (12-3) et la version (4.2)."),
                 kind="section", number="3")
    found = {"3": turn}
    for number, title in (("3.1", "Ordres"), ("3.2", "Déplacement"), ("3.3", "Tir")):
        found[number] = entry("guide", number, title, ("paragraph", "Rien."), kind="rule", number=number, parent=turn)
    found["3.3"].blocks.append(Block("paragraph", "Les archers montés font exception à la règle du 3.2 et à la règle du 1er tour."))
    found["3.4"] = entry("guide", "3.4", "Fuite", ("paragraph", "Comme au tir (3.3 et 3.9)."), kind="rule", number="3.4", parent=turn)
    return found


def test_rule_numbers_alone_in_parentheses_name_entries_of_the_book():
    entries = numbered_book()
    found = resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["3"], "section") == [("demo/guide/3.1", "3.1", None), ("demo/guide/3.2", "3.2", None),
                                             ("demo/guide/3.3", "3.3", None)]  # no cm, no 1.5, no 12-3, no 4.2
    # one of two numbers names an entry: the other is a reference the book does not hold
    assert refs(entries["3.4"], "section") == [("demo/guide/3.3", "3.3", None), (None, "3.9", "no rule numbered 3.9")]
    assert [a.detail for _, a in found] == ["demo/guide/3.4: section « 3.9 »: no rule numbered 3.9"]


def test_la_regle_du_names_a_rule_number_with_a_dot_only():
    entries = numbered_book()
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["3.3"], "section") == [("demo/guide/3.2", "règle du 3.2", None)]  # "règle du 1er tour" is none
    assert [c.numbers for c in cited_numbers("la règle du 3.2, la règle du jeu, la règle du 1er tour, la règle du 2.5 cm")] == [["3.2"]]


def pdf_book() -> dict[str, Entry]:
    """A PDF's entries with the pages they start on, and no contents list."""
    found: dict[str, Entry] = {}
    for number, title, page, parent in (("1", "Introduction", 1, None), ("1.1", "But", 1, "1"), ("2", "Tour", 2, None),
                                        ("2.1", "Ordres", 2, "2"), ("2.2", "Tir", 2, "2"), ("3", "Combat", 3, None),
                                        ("4", "Moral", 3, None), ("4.1", "Test", 4, "4")):
        found[number] = entry("guide", number, title, ("paragraph", "Rien."), kind="rule", number=number,
                              parent=found[parent] if parent else None)
        found[number].page = page
    found["2.1"].blocks.append(Block("paragraph", "On ne tire pas après un déplacement (cf. page 2), voir page 3, page 4 et page 9."))
    return found


def test_a_pdf_without_page_map_reads_page_refs_through_its_own_pages():
    entries = pdf_book()
    found = resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["2.1"], "page") == [
        ("demo/guide/2", "page 2", None),  # the outermost entry starting there
        ("demo/guide/3", "page 3", None), ("demo/guide/4", "page 3", None),  # two chapters start on page 3: both
        ("demo/guide/4.1", "page 4", None),
        (None, "page 9", "page 9 is not in guide (PDF pages 1 to 4)"),
    ]
    assert [(a.kind, a.severity) for _, a in found] == [("page-map", "info"), ("unresolved-reference", "info")]
    assert "PDF's own page numbers" in found[0][1].detail


def test_a_page_no_entry_starts_on_is_the_entry_running_on_there():
    entries = pdf_book()
    entries["4.1"].page = 6
    entries["1"].blocks.append(Block("paragraph", "Voir page 5."))
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["1"], "page") == [("demo/guide/4", "page 5", None)]


def test_a_contents_list_still_comes_before_the_pdf_pages():
    entries = pdf_book()
    entries["1"].blocks.append(Block("paragraph", "Combat page 7"))
    entries["1.1"].blocks.append(Block("paragraph", "Voir page 7."))
    found = resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["1.1"], "page") == [("demo/guide/3", "page 7", None)]
    assert not any(a.kind == "page-map" for _, a in found)


BLANK = "\u2003" * 3  # a blank leader, as the PDF reader writes it ("Combat" far left of its "7")


def page_refs_after(*contents: Block, entries: dict[str, Entry] | None = None) -> list[tuple[str | None, str, str | None]]:
    """The PDF book of `pdf_book` (pages 1 to 4) with `contents` printed in its first entry, and
    "Voir page 7." in 1.1: what that page ref resolves to (page 7 of the book is none of the PDF's)."""
    entries = entries or pdf_book()
    entries["1"].blocks.extend(contents)
    entries["1.1"].blocks.append(Block("paragraph", "Voir page 7."))
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    return refs(entries["1.1"], "page")


@pytest.mark.parametrize(("line", "target"), [
    (Block("paragraph", "2.1 Ordres ........ 7"), "2.1"),  # a decimal number, dotted leaders
    (Block("paragraph", f"2.1 Ordres{BLANK}7"), "2.1"),  # blank leaders
    (Block("step", f"Combat{BLANK}7", number="3"), "3"),  # "3. Combat   7", read as a numbered step
    (Block("paragraph", "3 Combat        7"), "3"),  # a bare number, a wide gap (a text file's)
    (Block("paragraph", "Chapitre 3 – Combat ..... 7"), "3"),  # a cue word before the number
    (Block("bullet", "4) Moral, page 7-8"), "4"),
])
def test_a_contents_title_opening_on_its_number_names_the_entry_so_numbered(line, target):
    assert page_refs_after(line) == [(f"demo/guide/{target}", "page 7", None)]


def test_a_contents_title_keeps_its_number_a_number_it_ends_on_is_no_page():
    # "Règle 3 ........ 7": the heading "Règle 3" on page 7, kept whole as its title or read as rule 3
    whole = pdf_book()
    whole["rule"] = entry("guide", "regle-3", "Règle 3", ("paragraph", "Rien."), kind="section")
    assert page_refs_after(Block("paragraph", "Règle 3 ........ 7"), entries=whole) == [("demo/guide/regle-3", "page 7", None)]
    numbered = pdf_book()
    numbered["3"].title = None
    assert page_refs_after(Block("paragraph", f"Règle 3{BLANK}7"), entries=numbered) == [("demo/guide/3", "page 7", None)]


def test_a_numbered_contents_title_names_an_entry_only_where_number_and_title_agree():
    # the contents says 5, the book's "Combat" is 3: no page map, the PDF's pages are read instead
    assert page_refs_after(Block("paragraph", "5. Combat ........ 7")) == [
        (None, "page 7", "page 7 is not in guide (PDF pages 1 to 4)")]
    # a heading that lost its number in the body is the one the title names, as an unnumbered line's
    book = pdf_book()
    book["3"].number = None
    assert page_refs_after(Block("paragraph", "3. Combat ........ 7"), entries=book) == [("demo/guide/3", "page 7", None)]


@pytest.mark.parametrize("line", [
    Block("paragraph", "4 ........ 7"),  # a title that is only a number: a table's row as much as a contents line
    Block("paragraph", "Moral 7"),  # a page glued to the title: "Règle 3" is written so too
    Block("step", "Moral 7", number="4"),
    Block("paragraph", "Moral ........ vii"),  # a page in roman numerals: no page ref cites one
])
def test_contents_lines_too_ambiguous_to_read_make_no_page_map(line):
    assert page_refs_after(line) == [(None, "page 7", "page 7 is not in guide (PDF pages 1 to 4)")]


def test_a_roman_numeral_opening_a_contents_title_is_kept_or_read_as_the_entrys_number():
    kept = pdf_book()
    kept["4"].number, kept["4"].title = None, "IV. Moral"  # the heading "IV. Moral" kept whole
    assert page_refs_after(Block("paragraph", "IV. Moral ........ 7"), entries=kept) == [("demo/guide/4", "page 7", None)]
    read = pdf_book()
    read["4"].number = "IV"
    assert page_refs_after(Block("paragraph", f"IV. Moral{BLANK}7"), entries=read) == [("demo/guide/4", "page 7", None)]


def test_a_page_the_errata_only_place_the_referring_rule_on_is_read_through_the_pdf_pages():
    """An erratum's "Page 2, section Ordres" puts 2.1 on page 2; "(cf. page 2)" inside 2.1 is then
    not a link to itself (dropped, silently, before) but to what the PDF has starting there."""
    entries = pdf_book()
    erratum = Erratum("demo/faq/errata/1", "demo/faq/x", "demo/guide/2.1", "replace", {}, None, None, "applied",
                      target_hint={"name": "Ordres", "page": 2, "sections": ["2.1"]})
    resolve_explicit(Lookup(GAME, list(entries.values())), [erratum])
    assert refs(entries["2.1"], "page")[0] == ("demo/guide/2", "page 2", None)


def test_a_paragraphs_own_label_is_no_citation_and_voir_section_sign_resolves():
    section = entry("guide", "combat", "Combat", kind="section")
    rule = entry("guide", "21", None, ("paragraph", "Une unité en déroute est retirée."), kind="rule", number="21",
                 parent=section)
    # a label the segmenter did not read as a number (too few of them) stays in the text
    other = entry("guide", "moral", "Moral", ("paragraph", "§4 Une unité reçoit un marqueur (voir §21)."), kind="section")
    anomalies = resolve_explicit(Lookup(GAME, [section, rule, other]), [])
    assert refs(other, "section") == [("demo/guide/21", "§21", None)]
    assert not anomalies


def test_two_sections_a_contents_list_puts_on_one_page_keep_their_order():
    toc = entry("guide", "sommaire", "Sommaire", ("paragraph", "Introduction ........ 3"),
                ("paragraph", "Matériel ........ 3"), ("paragraph", "Combat … 4"), kind="section")
    found = [toc, entry("guide", "introduction", "Introduction", ("paragraph", "Voir page 4."), kind="section"),
             entry("guide", "materiel", "Matériel", kind="section"), entry("guide", "combat", "Combat", kind="section")]
    anomalies = resolve_explicit(Lookup(GAME, found), [])
    assert refs(found[1], "page") == [("demo/guide/combat", "page 4", None)]
    assert not [a for _, a in anomalies if a.kind == "page-map"]


def test_an_index_of_pages_links_each_term_to_the_entries_of_its_pages_that_name_it():
    toc = entry("guide", "sommaire", "Sommaire", ("paragraph", "Mouvement ........ 6"), ("paragraph", "Moral ........ 8"),
                kind="section")
    move = entry("guide", "mouvement", "Mouvement", kind="section")
    wood = entry("guide", "13", None, ("paragraph", "Un bois réduit le mouvement."), kind="rule", number="13", parent=move)
    hill = entry("guide", "14", None, ("paragraph", "Une colline ne coûte rien."), kind="rule", number="14", parent=move)
    moral = entry("guide", "moral", "Moral", kind="section")
    rally = entry("guide", "23", None, ("paragraph", "Ralliement : une unité retire un marqueur."), kind="rule",
                  number="23", parent=moral)
    printed = entry("guide", "index", "Index", ("paragraph", "Bois, 6"), ("paragraph", "Colline, 6"),
                    ("paragraph", "Ralliement, 8"), ("paragraph", "Tir, 8"), kind="section")
    anomalies = resolve_explicit(Lookup(GAME, [toc, move, wood, hill, moral, rally, printed]), [])
    assert refs(printed, "index") == [("demo/guide/13", "Bois, 6", None), ("demo/guide/14", "Colline, 6", None),
                                      ("demo/guide/23", "Ralliement, 8", None),
                                      ("demo/guide/moral", "Tir, 8", None)]  # "retire" is no "tir": the page's section
    assert wood.index_terms == ["Bois"] and rally.index_terms == ["Ralliement"]
    assert not anomalies


# ---------------------------------------------------------------- French forms of a pointer

@pytest.mark.parametrize(("text", "written"), [
    ("Une unité pivote (cf. « Faire face »).", "cf. « Faire face »"),
    ("Pour pivoter, reportez-vous à « Faire face ».", "reportez-vous à « Faire face »"),
    ("Il faut se reporter au chapitre « Faire face ».", "se reporter au chapitre « Faire face »"),
    ("La règle est décrite dans « Faire face ».", "décrite dans « Faire face »"),
    ("Consultez la section « Faire face ».", "Consultez la section « Faire face »"),
])
def test_the_common_french_pointers_to_a_quoted_title_resolve(text, written):
    entries = guide()
    entries["8"].blocks.append(Block("paragraph", text))
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["8"], "section") == [("demo/guide/44", written, None)]


def test_plus_loin_dans_names_an_entry_inside_the_quoted_section():
    entries = guide()
    inner = entry("guide", "44.1", "Pivoter", ("paragraph", "On pivote."), kind="rule", number="44.1", parent=entries["44"])
    entries["8"].blocks.append(Block("paragraph", "Une unité tourne : Pivoter, plus loin dans « Faire face »."))
    entries["67"].blocks.append(Block("paragraph", "Voir plus loin dans « Faire face »."))
    resolve_explicit(Lookup(GAME, [*entries.values(), inner]), [])
    assert refs(entries["8"], "section") == [("demo/guide/44.1", "Pivoter, plus loin dans « Faire face »", None)]
    assert refs(entries["67"], "section")[-1] == ("demo/guide/44", "plus loin dans « Faire face »", None)


def test_wiki_links_resolve_by_title_and_show_their_label():
    from extract.text import inline

    entries = guide()
    written = "On pivote ([[Faire face]], [[Portée|la portée]], [[Pivoter]])."
    assert inline(written)[0] == "On pivote (Faire face, la portée, Pivoter)."
    entries["8"].blocks.append(Block("paragraph", inline(written)[0], markdown=written))
    anomalies = resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["8"], "section") == [("demo/guide/44", "Faire face", None), ("demo/guide/67", "la portée", None),
                                             (None, "Pivoter", "no entry titled « Pivoter »")]
    assert any("« Pivoter »" in a.detail for _, a in anomalies)


def test_an_article_of_a_licence_or_of_the_credits_is_no_reference():
    entries = guide()
    licence = entry("guide", "credits", "Crédits", ("paragraph", "Illustrations reproduites selon l'article 5."), kind="section")
    entries["8"].blocks.append(Block("paragraph", "Ce texte est publié sous licence CC-BY-SA, voir l'article 5 de la licence."))
    anomalies = resolve_explicit(Lookup(GAME, [*entries.values(), licence]), [])
    assert refs(entries["8"], "section") == [] and refs(licence, "section") == []
    assert not [a for _, a in anomalies if "article 5" in a.detail]


def test_a_quoted_word_or_a_title_with_its_page_is_left_to_what_reads_it():
    entries = guide()
    entries["8"].blocks.append(Block("paragraph", "S'il doit se reporter à « zéro », l'unité ne rapporte rien."))
    entries["44"].blocks.append(Block("paragraph", "Comme expliqué dans la règle « Portée » page 4 du Livret."))
    resolve_explicit(Lookup(GAME, list(entries.values())), [])
    assert refs(entries["8"], "section") == []
    assert not [r for r in refs(entries["44"], "section") if "Portée" in r[1]]
