"""The numbered-glossary profile (Runewars reference guide) on a few lines: topics and rules,
and each repair it makes of a PDF conversion, each reported (tests/test_numbered_glossary.py
checks the same on the real guide)."""

from __future__ import annotations

from extract.segment.profiles.numbered_glossary import repair_number
from tests.helpers import assert_segments, blocks, by_key, segment_text

GUIDE = """Les règles d'or

- Le Guide prévaut sur le Livret.

Glossaire

1 Actions ☉

Chaque unité effectue des actions.

1.1 Une unité choisit une action :
- Marche
- Virage

4 Aligné

Voir « Faire Face ».

7 Annulé

Les actions peuvent être annulées.

10.5 Après une attaque à distance, l'unité reste

Sujets connexes : Attaque, Engagement

II Attaque de mêlée

L'attaque de mêlée est une action.

7.1 Une action annulée est perdue.

engagée jusqu'à la fin du round.

I2 Augmentation ...

Augmentation est un modificateur.

12.1** Certaines capacités ajoutent des symboles.

12.3 Un symbole ajouté ne peut pas être retiré.

10 Attaque à distance

L'attaque à distance est une action.

10.1 Une unité attaque à portée 1-5.

Index

Actions, 1.1
"""
OPTIONS = {"glossary_heading": "Glossaire", "glossary_end": "Index", "verbatim_headings": ["Index"],
           "outline": ["# Les règles d'or", "# Glossaire", "# Index"]}


def segmented():
    result, _, _ = segment_text("numbered-glossary", GUIDE, OPTIONS)
    return result, by_key(result)


def details(result, kind: str) -> list[str]:
    return [a.detail for a in result.anomalies if a.kind == kind]


def test_topics_and_rules_between_chapters():
    result = assert_segments("numbered-glossary", GUIDE, [
        ("les-regles-d-or", "section", "Les règles d'or"),
        ("glossaire", "section", "Glossaire"),
        ("1", "topic", "Actions"), ("1.1", "rule", None),
        ("4", "topic", "Aligné"),
        ("7", "topic", "Annulé"), ("7.1", "rule", None),
        ("10", "topic", "Attaque à distance"), ("10.1", "rule", None), ("10.5", "rule", None),
        ("11", "topic", "Attaque de mêlée"),
        ("12", "topic", "Augmentation"), ("12.1", "rule", None), ("12.3", "rule", None),
        ("index", "section", "Index"),
    ], OPTIONS)
    entries = by_key(result)
    assert [c.key for c in entries["glossaire"].children] == ["1", "4", "7", "10", "11", "12"]  # by number
    assert blocks(entries["1.1"]) == [("paragraph", "Une unité choisit une action :"), ("bullet", "Marche"), ("bullet", "Virage")]
    assert blocks(entries["les-regles-d-or"]) == [("bullet", "Le Guide prévaut sur le Livret.")]
    assert entries["index"].printed_index and blocks(entries["index"]) == [("paragraph", "Actions, 1.1")]


def test_ocr_digits_repaired_and_reported():
    result, entries = segmented()
    assert entries["11"].title == "Attaque de mêlée" and entries["12"].title == "Augmentation"
    assert details(result, "ocr-number-repair") == ["topic number 'II' read as 11", "topic number 'I2' read as 12"]


def test_rules_printed_on_another_page_go_to_their_topic():
    result, entries = segmented()
    assert entries["7.1"].parent is entries["7"] and entries["10.5"].parent is entries["10"]
    assert [c.key for c in entries["10"].children] == ["10.1", "10.5"]
    assert details(result, "repaired-page-order") == [
        "rule 10.5 printed inside topic 7; placed under topic 10", "rule 7.1 printed inside topic 11; placed under topic 7"]
    # The "Sujets connexes" printed with 10.5 on the earlier page is topic 10's, and closes it.
    assert blocks(entries["10"])[-1] == ("related", "Sujets connexes : Attaque, Engagement")


def test_a_sentence_split_by_an_inserted_page_is_rejoined():
    result, entries = segmented()
    assert entries["10.5"].text == "Après une attaque à distance, l'unité reste engagée jusqu'à la fin du round."
    assert entries["7.1"].text == "Une action annulée est perdue."
    assert [a.lines for a in result.anomalies if a.kind == "rejoined-split-sentence"] == [[33]]


def test_missing_numbers_are_reported_not_invented():
    result, entries = segmented()
    assert "12.2" not in entries and "2" not in entries
    assert details(result, "numbering-gap") == [
        "topic 10: no rule 10.2, 10.3, 10.4 in the source", "topic 12: no rule 12.2 in the source",
        "no topic 2, 3, 5, 6, 8, 9 in the source"]


def test_stray_emphasis_and_icons_removed_and_reported():
    result, entries = segmented()
    assert entries["12.1"].text == "Certaines capacités ajoutent des symboles."
    assert details(result, "stray-emphasis") == ["unpaired ** after rule number 12.1 removed"]
    assert entries["1"].title == "Actions"
    assert details(result, "title-icon-removed") == ["topic 1: « Actions ☉ » titled « Actions »"]


def test_redirects_are_see_blocks_and_flagged():
    _, entries = segmented()
    assert blocks(entries["4"]) == [("see", "Voir « Faire Face ».")]
    assert entries["4"].flags == ["redirect"] and entries["7"].flags == []


def test_a_rule_printed_twice_keeps_its_first_copy():
    text = "Glossaire\n\n3 Arc\n\n3.1 Premier texte.\n\n3.1 Copie.\n"
    result, _, _ = segment_text("numbered-glossary", text, {"outline": ["# Glossaire"]})
    entries = by_key(result)
    assert blocks(entries["3.1"]) == [("paragraph", "Premier texte."), ("paragraph", "3.1 Copie.")]
    assert [a.kind for a in result.anomalies] == ["duplicate-number", "numbering-gap"]


def test_sub_rules_without_their_topic_heading_are_reported():
    result, _, _ = segment_text("numbered-glossary", "Glossaire\n\n1 Arc\n\nTexte.\n\n2.1 Orphelin.\n", {"outline": ["# Glossaire"]})
    assert details(result, "missing-topic-heading") == ["sub-rules of topic 2 appear but its heading does not"]


def test_repair_number():
    assert [repair_number(n) for n in ("II", "I2", "l0", "57", "1I.3")] == ["11", "12", "10", "57", "11.3"]
