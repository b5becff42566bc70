"""Explicit references on the real corpus: Sujets connexes, redirects, numbers, pages, indexes,
pointers in prose; and the promise that no ref points to an id that does not exist."""

from __future__ import annotations

import pytest

from extract.link.refs import expand
from extract.patterns import list_items as related_items


def refs(built, entry_id: str, kind: str) -> list[dict]:
    return [r for r in built["entries"][entry_id]["refs"] if r["kind"] == kind]


def test_no_ref_points_to_a_missing_entry(built):
    ids = set(built["entries"])
    for entry in built["entries"].values():
        for ref in entry["refs"]:
            assert ref["target"] is None or ref["target"] in ids, (entry["id"], ref)
            assert ref["target"] is not None or ref.get("reason"), (entry["id"], ref)
        for back in entry["backrefs"]:
            assert back in ids
            assert any(r["target"] == entry["id"] for r in built["entries"][back]["refs"])


def test_every_sujets_connexes_line_resolves(built):
    """The book prints 84 "Sujets connexes" lines naming 279 topics (83 in the glossary, one under
    "Mise en place"): every one is a `related` ref that resolves."""
    related = [(e["id"], r) for e in built["entries"].values() for r in e["refs"] if r["kind"] == "related"]
    assert len(related) == 279
    assert [r for _, r in related if r["target"] is None] == []
    lines = [b["text"] for e in built["entries"].values() for b in e["blocks"] if b["type"] == "related"]
    assert len(lines) == 84 and sum(len(related_items(line)) for line in lines) == 279


@pytest.mark.parametrize(("source", "written", "target"), [
    ("runewars/reference/9", "Attaque à distance [attaque à distance]", "runewars/reference/10"),  # an icon named
    ("runewars/reference/9", "Dégats", "runewars/reference/38"),  # OCR lost the circumflex
    ("runewars/reference/24", "Charge ✦", "runewars/reference/23"),
    ("runewars/reference/24", "Modificateur Déplacement", "runewars/reference/55"),  # singular for "Modificateurs"
    ("runewars/reference/35", "Marche [marche]", "runewars/reference/50"),
    ("runewars/reference/49", "Obstacle", "runewars/reference/60"),
    ("runewars/reference/84", "Carte Déploiement", "runewars/reference/21"),
    ("runewars/reference/58", "Fléau", "runewars/reference/45"),
    ("runewars/reference/86", "Attaques", "runewars/reference/9"),
    ("runewars/reference/5", "Capacité", "runewars/reference/19"),
    ("runewars/reference/73", "Unité", "runewars/reference/88"),  # "Unité." with its stray full stop
])
def test_related_titles_as_printed(built, source, written, target):
    assert {"target": target, "kind": "related", "text": written} in refs(built, source, "related")


@pytest.mark.parametrize(("redirect", "target"), [
    ("runewars/reference/4", "runewars/reference/44"),  # Aligné -> Faire face
    ("runewars/reference/16", "runewars/reference/41"),  # Bords au contact -> Engagement
    ("runewars/reference/36", "runewars/reference/77"),  # Désengagement -> Repositionnement (🔄)
    ("runewars/reference/17", "runewars/reference/61"),
    ("runewars/reference/66", "runewars/reference/22"),
    ("runewars/reference/75", "runewars/reference/47"),
    # "Voir « Construction d'armée » page 3": not itself, the section on page 3.
    ("runewars/reference/28", "runewars/reference/construction-d-armee"),
    ("runewars/reference/53", "runewars/reference/mise-en-place"),
])
def test_redirects(built, redirect, target):
    assert "redirect" in built["entries"][redirect]["flags"]
    assert [r["target"] for r in refs(built, redirect, "see")] == [target]


def test_numbered_and_prose_pointers(built):
    assert refs(built, "sda-jfe/tournoi/8.49", "section") == [
        {"target": "sda-jfe/tournoi/8.082", "kind": "section", "text": "voir le 8.082"}]
    assert [r["target"] for r in refs(built, "sda-jfe/tournoi/5.121", "section")] == [
        "sda-jfe/tournoi/5.10", "sda-jfe/tournoi/5.11", "sda-jfe/tournoi/5.12"]
    mouvement = refs(built, "sda-jfe/tournoi/3.06", "section")
    assert {(r["text"], built["entries"][r["target"]]["title"]) for r in mouvement} == {
        ("Voir la section Mouvement ci-dessous", "Mouvement"), ("Voir la section Tir ci-dessous", "Tir")}
    composition = refs(built, "runewars/apprentissage/unites", "section")
    assert [r["target"] for r in composition] == ["runewars/apprentissage/unites/composition-d-unite"]
    vague = refs(built, "sda-jfe/tournoi/6.22", "section")
    assert vague == [{"target": None, "kind": "section", "text": "(voir plus bas)",
                      "reason": "points elsewhere without naming what"}]


def test_page_maps_come_from_the_books(built):
    page = refs(built, "runewars/reference/regles-optionnelles/escarmouche", "page")
    assert [r["target"] for r in page] == ["runewars/reference/construction-d-armee"]
    # The learn-to-play's pages are known from the FAQ's errata headings ("Cartes Objectif, page 15").
    assert built["entries"]["runewars/apprentissage/regles-avancees/cartes-objectif"]["source"]["page"] == 15
    assert built["entries"]["runewars/reference/49"]["source"]["page"] == 13
    # Construction d'armée (page 3) ends where Mise en place (page 4) starts: all of it is on page 3.
    assert built["entries"]["runewars/reference/construction-d-armee/personnages"]["source"]["page"] == 3
    guide = refs(built, "runewars/apprentissage/et-maintenant", "page")
    assert {r["target"] for r in guide} == {"runewars/reference/construction-d-armee", "runewars/reference/mise-en-place"}
    faq = refs(built, "runewars/faq/faq/terrain/mots-clefs-de-terrain/q1", "page")
    assert [r["target"] for r in faq] == ["runewars/faq/errata"]


def test_pages_without_a_map_stay_unresolved_with_the_reason(built):
    heroscape = refs(built, "heroscape/aide/1-mise-en-place-du-champ-de-bataille", "page")
    assert heroscape == [{"target": None, "kind": "page", "text": "cfr p6",
                          "reason": "no page map for heroscape/aide: the book gives none"}]
    warcry = [r for e in built["games"]["warcry"]["entries"] for r in e["refs"] if r["kind"] == "page"]
    assert warcry and all(r["target"] is None and "no page map" in r["reason"] for r in warcry)
    assert any(r["text"] == "(p. 7)" for r in warcry)


def test_runewars_index(built):
    index = refs(built, "runewars/reference/index", "index")
    unresolved = sorted((r["text"], r["reason"]) for r in index if r["target"] is None)
    # The index cites 33.5 and 10.3, which the glossary does not have (10.3 and 10.4 are a
    # numbering gap; topic 33 ends at 33.4).
    assert unresolved == [
        ("Attaques à distance, 10.3", "no rule numbered 10.3"), ("Instable, 33.5", "no rule numbered 33.5"),
        ("Naturelle, 33.5", "no rule numbered 33.5"), ("Stable, 33.5", "no rule numbered 33.5"),
        ("Unités alliées, 10.3", "no rule numbered 10.3"),
    ]
    assert len([r for r in index if r["target"]]) == 302
    entries = built["entries"]
    assert "Assommé" in entries["runewars/reference/45.1"]["index_terms"]
    assert {"Symbole"} <= set(entries["runewars/reference/1.1"]["index_terms"]) & set(entries["runewars/reference/1.3"]["index_terms"])
    assert "Action Bonus" in entries["runewars/reference/2"]["index_terms"]  # "2.0" is the topic
    assert "Schéma" in entries["runewars/reference/schemas"]["index_terms"]  # "cf. page 22"


def test_lotr_index(built):
    index = refs(built, "sda-jfe/tournoi/11", "index")
    assert len(index) == 138 and all(r["target"] for r in index)
    assert {"Terreur", "Dread"} <= set(built["entries"]["sda-jfe/tournoi/8.41"]["index_terms"])


def test_report_counts_refs_per_kind_and_document(built):
    counts = built["report"]["refs"]
    assert counts["runewars/reference"]["related"] == {"resolved": 279, "unresolved": 0}
    assert counts["runewars/reference"]["see"] == {"resolved": 9, "unresolved": 0}
    assert counts["runewars/reference"]["index"] == {"resolved": 302, "unresolved": 5}
    assert counts["heroscape/aide"]["page"]["resolved"] == 0
    total = sum(len(e["refs"]) for e in built["entries"].values())
    assert total == sum(t["resolved"] + t["unresolved"] for kinds in counts.values() for t in kinds.values())


def test_index_number_ranges():
    assert expand("2.0") == ["2"]
    assert expand("1.1–1.3") == ["1.1", "1.2", "1.3"]
    assert expand("84.10") == ["84.10"]
