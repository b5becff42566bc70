"""Seigneur des Anneaux tournament rules through the decimal-rules profile."""

from __future__ import annotations

from extract.segment.profiles.decimal_rules import base_number, split_index_term

P = "sda-jfe/tournoi/"


def test_base_number():
    assert base_number("1.071") == "1.07"
    assert base_number("9.101") == "9.10"
    assert base_number("5.03A") == "5.03"
    assert base_number("9.10") is None


def test_split_index_term():
    assert split_index_term("Ligne de vue (LDV) (Line of sight (LOS)) 5.05, 5.07") == ("Ligne de vue (LDV)", "Line of sight (LOS)")
    assert split_index_term("Blessure Superficielle (Critical Hits)") == ("Blessure Superficielle", "Critical Hits")


def test_sections_and_nesting(built):
    e = built["entries"]
    assert e[P + "1"]["kind"] == "section"
    assert e[P + "1"]["title"] == "Règles générales et informations"
    assert e[P + "1.071"]["parent"] == P + "1.07"
    assert e[P + "9.101"]["parent"] == P + "9.10"
    assert e[P + "9.10"]["children"] == [P + "9.101", P + "9.102"]
    assert e[P + "3.051"]["parent"] == P + "3.05"
    assert e[P + "1.03"]["parent"] == P + "1/compteurs-molettes"
    assert e[P + "1/compteurs-molettes"]["parent"] == P + "1"


def test_french_variants(built):
    e = built["entries"]
    assert e[P + "5.03A"]["parent"] == P + "5.03"
    assert "french-variant" in e[P + "5.03A"]["flags"]
    assert "french-variant" in e[P + "5.20A"]["flags"]


def test_named_rules_keep_their_english_name(built):
    e = built["entries"]
    dread = e[P + "8.41"]
    assert dread["title"] == "Terreur"
    assert "Dread" in dread["index_terms"]
    assert dread["text"].startswith("Jusqu'à la fin du Tour")
    assert "**La figurine ne peut pas" in e[P + "8.21"]["markdown"]  # bold marks text changed since v2.5.1fr
    assert "**" not in e[P + "8.21"]["text"]
    assert e[P + "8.42"]["title"] == "Transport Entique"
    assert e[P + "8.10"]["title"] == "Cavalerie"
    assert [b["type"] for b in e[P + "8.10"]["blocks"]] == ["bullet"] * 7


def test_continuation_fragments_reattached(built):
    e = built["entries"]
    assert "élimine la figurine ennemie, et si la figurine attaquante n'est plus dans une Zone de Danger" in e[P + "8.12"]["text"]
    assert e[P + "8.20"]["text"].endswith("avant de faire tirer la figurine.")


def test_index_marks_flag_changed_rules(built):
    e = built["entries"]
    for number in ("8.13", "8.40", "8.50", "8.16", "8.29", "8.42", "8.22"):
        assert "changed-since-previous-edition" in e[P + number]["flags"], number
    assert "changed-since-previous-edition" not in e[P + "8.41"]["flags"]
    assert "Zone de Danger" in e[P + "4.09"]["index_terms"]
    assert "Kill Zone" in e[P + "4.09"]["index_terms"]


def test_captions_and_contents_set_aside(built):
    e = built["entries"]
    assert e[P + "8.33"]["blocks"][-1] == {"type": "caption", "text": "Directement devant"}
    report = built["report"]["documents"]["sda-jfe/tournoi"]
    assert {"lines": [20, 57], "reason": "table of contents"} in report["set_aside"]
