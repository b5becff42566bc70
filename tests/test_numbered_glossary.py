"""The Runewars reference guide through the numbered-glossary profile, with its repairs."""

from __future__ import annotations


def anomalies(built, kind):
    return [a for a in built["report"]["documents"]["runewars/reference"]["anomalies"] if a["kind"] == kind]


def test_topics_and_rules(built):
    e = built["entries"]
    glossary = e["runewars/reference/glossaire"]
    assert glossary["children"][:3] == ["runewars/reference/1", "runewars/reference/2", "runewars/reference/3"]
    assert len(glossary["children"]) == 92
    assert e["runewars/reference/1"]["title"] == "Actions"
    assert e["runewars/reference/1"]["kind"] == "topic"
    assert e["runewars/reference/1.3"]["parent"] == "runewars/reference/1"
    assert [b["type"] for b in e["runewars/reference/1.3"]["blocks"]] == ["paragraph"] + ["bullet"] * 7
    assert e["runewars/reference/1.3"]["blocks"][1]["text"] == "Marche"
    assert e["runewars/reference/49"]["text"].startswith("Pour effectuer une attaque à distance")


def test_ocr_digits_repaired_and_reported(built):
    e = built["entries"]
    assert e["runewars/reference/11"]["title"] == "Attaque de mêlée"
    assert e["runewars/reference/12"]["title"] == "Augmentation"
    assert e["runewars/reference/1"]["number"] == "1"
    details = {a["detail"] for a in anomalies(built, "ocr-number-repair")}
    assert "topic number 'I2' read as 12" in details
    assert "topic number 'II' read as 11" in details


def test_pages_out_of_order(built):
    e = built["entries"]
    assert e["runewars/reference/7.1"]["parent"] == "runewars/reference/7"
    assert e["runewars/reference/7"]["children"] == ["runewars/reference/7.1", "runewars/reference/7.2"]
    assert e["runewars/reference/8"]["parent"] == "runewars/reference/glossaire"
    assert e["runewars/reference/10"]["children"] == [
        "runewars/reference/10.1", "runewars/reference/10.2", "runewars/reference/10.5"]
    # topic 10's "Sujets connexes" was printed on the earlier page, inside topic 7; it stays 10's, last.
    assert e["runewars/reference/10"]["blocks"][-1] == {
        "type": "related", "text": "Sujets connexes : Attaque, Engagement, Ligne de vue, Portée"}
    assert e["runewars/reference/7"]["blocks"][-1]["text"] == "Sujets connexes : Actions, Modificateurs"
    lines = {a["lines"][0] for a in anomalies(built, "repaired-page-order")}
    assert {1278, 1460} <= lines


def test_sentences_split_by_an_inserted_page_are_rejoined(built):
    e = built["entries"]
    text = e["runewars/reference/25.3"]["text"]
    assert "(unité, terrains etc.). Quand cela arrive" in text
    assert e["runewars/reference/25"]["blocks"][-1]["text"].startswith("Sujets connexes : Collision")
    last = e["runewars/reference/56.4"]["blocks"][-1]
    assert last["type"] == "bullet"
    assert last["text"].endswith("mettre de côté le dé ayant obtenu ce symbole, ou le faire tourner vers une face "
                                 "ne le comportant pas (si le symbole est enlevé d'une face comportant plusieurs symboles).")
    assert {a["lines"][0] for a in anomalies(built, "rejoined-split-sentence")} >= {1523, 1899}


def test_missing_numbers_reported_not_invented(built):
    assert "runewars/reference/10.3" not in built["entries"]
    assert "runewars/reference/10.4" not in built["entries"]
    assert any("10.3, 10.4" in a["detail"] for a in anomalies(built, "numbering-gap"))


def test_stray_emphasis_removed_and_reported(built):
    e = built["entries"]
    assert e["runewars/reference/19.6"]["text"].startswith("Certaines capacités nécessitent")
    assert 1379 in {a["lines"][0] for a in anomalies(built, "stray-emphasis")}


def test_redirects_and_related(built):
    e = built["entries"]
    for number, target in (("4", "Faire Face"), ("16", "Engagement"), ("36", "Repositionnement")):
        topic = e[f"runewars/reference/{number}"]
        assert "redirect" in topic["flags"]
        assert topic["blocks"][0]["type"] == "see"
        assert target in topic["blocks"][0]["text"]
    assert e["runewars/reference/49"]["blocks"][-1]["type"] == "related"


def test_declared_relocation_puts_topic_91_back_together(built):
    e = built["entries"]
    topic = e["runewars/reference/91"]
    assert topic["blocks"][-1]["text"] == "Sujets connexes : Cartes Déploiement, Zone de jeu"
    team = e["runewars/reference/regles-optionnelles/jeu-en-equipe"]
    assert all("zone de déploiement, l'unité" not in b["text"] for b in team["blocks"])


def test_chapters_around_the_glossary(built):
    e = built["entries"]
    assert e["runewars/reference/les-regles-d-or"]["blocks"][1]["type"] == "bullet"
    assert e["runewars/reference/92"]["title"] == "Zone de jeu"
    assert e["runewars/reference/regles-optionnelles/escarmouche"]["parent"] == "runewars/reference/regles-optionnelles"
    sections = [b["type"] for b in e["runewars/reference/mise-en-place"]["blocks"]]
    assert sections.count("step") == 9
    report = built["report"]["documents"]["runewars/reference"]
    assert {"lines": [2979, 3051], "reason": "credits"} in report["set_aside"]


def test_icons_after_titles_are_removed_and_reported(built):
    assert built["entries"]["runewars/reference/57"]["title"] == "Moral"
    details = [a["detail"] for a in built["report"]["documents"]["runewars/reference"]["anomalies"]
               if a["kind"] == "title-icon-removed"]
    assert "topic 57: « Moral ☉ » titled « Moral »" in details
    assert "topic 77: « Repositionnement (⊕) » titled « Repositionnement »" in details
    assert len(details) == 11
