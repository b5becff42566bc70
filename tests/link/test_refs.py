"""extract/link/refs.py on a few hand-built entries: each kind of explicit reference resolved,
or left unresolved with its reason (tests/test_refs.py checks the real corpus)."""

from __future__ import annotations

import pytest

from extract.link.refs import expand, resolve_explicit
from extract.lookup import Lookup
from extract.model import Block, DocumentSpec, Entry, Erratum, GameSpec
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
