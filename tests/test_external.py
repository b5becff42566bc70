"""Robustness on real third-party documents in ../shared/external (never copied into the repo)."""

from __future__ import annotations

import json

import pytest

from extract.cli import main
from tests.conftest import SHARED

EXTERNAL = SHARED / "external"
pytestmark = pytest.mark.corpus  # reads ../shared/external


def extract(path, capsys, profile=None) -> dict:
    args = ["extract", str(path), "--json"] + (["--profile", profile] if profile else [])
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.skipif(not (EXTERNAL / "ultimate-wfdf-2021").is_dir(), reason="../shared/external/ultimate-wfdf-2021 is absent")
def test_ultimate_rules_give_sensible_entries(capsys):
    data = extract(EXTERNAL / "ultimate-wfdf-2021" / "regles-ultimate-2021-fr.md", capsys)
    assert data["profile"] == "numbered-outline"  # guessed from its columns of bare "5.1." numbers
    entries = {e["number"]: e for e in data["entries"] if e["number"]}
    ids = [e["id"] for e in data["entries"]]
    assert len(ids) == len(set(ids))
    chapters = [e for e in data["entries"] if e["kind"] == "section" and e["number"]]
    assert [e["number"] for e in chapters] == [str(n) for n in range(1, 21)]
    assert entries["7"]["title"] == "Le « Pull » (Engagement)"
    # Numbers printed in a column above their texts get them in order; a lone one, the next.
    assert entries["5.2"]["text"].startswith("Chaque équipe doit désigner un capitaine")
    assert entries["6.1.1"]["parent"].endswith("/6.1") and entries["6.1.1"]["text"].startswith("soit de recevoir")
    assert entries["6.2"]["text"] == "L'autre équipe a le choix restant."
    assert entries["7.1.1"]["text"].startswith("Les équipes doivent se préparer au « pull »")
    assert entries["8.5.1.1"]["parent"].endswith("/8.5.1")
    # Deep numbers in their printed order: 1.3.9 before 1.3.10 (not as text).
    under = [e["number"] for e in data["entries"] if e["parent"] == entries["1.3"]["id"]]
    assert under == [f"1.3.{n}" for n in range(1, 11)], under
    assert len([e for e in data["entries"] if e["kind"] == "rule"]) > 300
    assert any(a["kind"] == "page-number-removed" for a in data["anomalies"])
    # Page numbers glued to rule numbers: "59.1." on page 5 is 9.1, "1117.6." on page 11 is 17.6.
    assert entries["9.1"]["text"].startswith("Le marqueur débute un compte sur le lanceur")
    assert entries["1.9"]["text"].startswith("Un joueur expérimenté, qui offre des conseils")
    assert entries["17.6"]["text"] == "Fautes de Lancer Défensives (marquage):"
    assert not any(n.split(".")[0].isdigit() and int(n.split(".")[0]) > 20 for n in entries)
    # A sentence cut by a column of numbers continues after it.
    assert "avant d’établir la possession et le contact a fait que le réceptionneur:" in entries["17.5.1"]["text"]
    # The contents list is set aside: chapter 20 (its heading printed without the number) holds
    # its rules only, and the definitions are their own section.
    assert entries["20"]["title"] == "Temps-Morts (« Time-Outs »)" and not entries["20"]["blocks"]
    assert entries["20.1"]["parent"] == entries["20"]["id"]
    definitions = next(e for e in data["entries"] if e["title"] == "Définitions")
    assert definitions["parent"] is None and len(definitions["blocks"]) > 40
    gaps = [a["detail"] for a in data["anomalies"] if a["kind"] == "numbering-gap"]
    assert gaps == ["no 1.6, 1.7, 1.8 in the source"]


@pytest.mark.skipif(not (EXTERNAL / "nomic").is_dir(), reason="../shared/external/nomic is absent")
def test_nomic_lists_give_entries_and_steps(capsys):
    data = extract(EXTERNAL / "nomic" / "Lois.md", capsys, profile="bullet-aid")
    titles = [e["title"] for e in data["entries"]]
    assert "Lois" in titles and "Préambule" in titles
    rules = extract(EXTERNAL / "nomic" / "regles_regles.md", capsys, profile="headed-prose")
    assert [e["title"] for e in rules["entries"]] == ["Règles"]
    steps = [b for e in rules["entries"] for b in e["blocks"] if b["type"] == "step"]
    # Every item is written "1."; the numbers are inferred from order and nesting, as the
    # document's own example "1.iii.d" reads them.
    assert [s["number"] for s in steps][:9] == ["1", "2", "2.i", "2.i.a", "2.i.b", "2.i.c", "2.ii", "2.iii", "3"]
    assert steps[-1]["number"] == "9" and steps[-1]["text"].startswith("Le joueur qui vent la princesse")
    assert [a["kind"] for a in rules["anomalies"]] == ["numbering-inferred", "unresolved-reference"]
    # "la règle 1.iii.d. prévaut sur la règle 2.": a step's number is no entry's (and 1.iii.d no number read)
    assert rules["anomalies"][1]["detail"] == "extract/document/regles: section « règle 2 »: no rule numbered 2"


def errata_from(path, capsys) -> list[dict]:
    assert main(["errata", "--from", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["errata"]


DEADZONE = EXTERNAL / "deadzone-v2" / "deadzone-v2-errata-20160927-fr.pdf"
EXCERPTS = EXTERNAL / "errata-excerpts"


@pytest.mark.skipif(not DEADZONE.is_file(), reason="../shared/external/deadzone-v2 is absent")
def test_deadzone_french_errata_pdf_parses_into_operations(capsys):
    errata = errata_from(DEADZONE, capsys)
    # 13 items; three hold a second operation ("Son coût en points est de 7 (et non 8).", "Sa valeur
    # de PA est de PA2 (et non PA1).", "… uniquement pour les Rebs et non pour toutes les factions.")
    assert len(errata) == 16
    assert {e["status"] for e in errata} == {"recorded"}
    assert [(e["line"], e["before"], e["after"]) for e in errata if e["line"] in (11, 13, 24) and e["before"]] == [
        (11, "8", "7"), (13, "P6", "P8"), (13, "PA1", "PA2"), (24, "pour toutes les factions", "uniquement pour les Rebs")]
    by_name = {e["target_hint"]["name"]: e for e in errata}
    bastion = by_name["Capitaine Peacekeeper"]
    assert (bastion["operation"], bastion["scope"]["block"], bastion["scope"]["ordinal"]) == ("replace", "sentence", -1)
    assert bastion["after"] == "Un seul dé peut-être dépensé par attaque."
    assert bastion["target_hint"]["page"] == 55
    dominator = by_name["Dominator"]
    assert (dominator["scope"]["block"], dominator["before"], dominator["after"]) == ("value", "1", "0")
    assert by_name["Foreuse à 2 mains"]["operation"] == "insert" and by_name["Foreuse à 2 mains"]["after"] == "**"
    assert by_name["Tangle"]["after"] == "Stimulant"
    # "Renommez … en …" follows a sentence of context in its item; both items of page 89 are read.
    page_89 = [(e["scope"]["block"], e["after"]) for e in errata if e["target_hint"]["page"] == 89]
    assert page_89 == [("title", "Lance-flammes d'assaut"), ("value", "4")]


@pytest.mark.skipif(not EXCERPTS.is_dir(), reason="../shared/external/errata-excerpts is absent")
@pytest.mark.parametrize(("name", "expected"), [
    ("warhammer_battle_liste_erratas_fr_forum_EXCERPT.txt", [
        ("insert", {"block": "text", "ordinal": None, "position": "end"}),
        ("insert", {"block": "text", "ordinal": None, "position": "end", "within": "paragraph", "within_ordinal": 2}),
        ("replace", {"block": "text", "ordinal": None}),
        ("replace", {"block": "text", "ordinal": None, "within": "sentence", "within_ordinal": -1}),
        ("replace", {"block": "text", "ordinal": None}),
        # "Remplacez les deux références de « 16ps » par « 18ps » et remplacez … « 8ps » par « 9ps »": one each
        ("replace", {"block": "text", "ordinal": None}),
        ("replace", {"block": "text", "ordinal": None}),
        ("replace", {"block": "paragraph", "ordinal": 3}),
    ]),
    ("w40k_v8_livre_de_regles_maj_1.1_fr_EXCERPT.txt", [("replace", {"block": "bullet", "ordinal": 2})]),
    # a forum list: one item a dash, "Pour la carte « X », il faut remplacer …", one instruction over two lines
    # "… devrait être orange et non jaune": the old words replaced where they stand (one reader, the build's terms)
    ("final_girl_faq_collaborative_fr_trictrac_EXCERPT.txt", [
        ("replace", {"block": "text", "ordinal": None}),
        ("replace", {"block": "text", "ordinal": None}),
        ("replace", {"block": "text", "ordinal": None}),
        ("replace", {"block": "text", "ordinal": None}),
        # "- Pour l'évènement « Poussés à bout », il faut remplacer « … » par « … »", run on the same line
        ("replace", {"block": "text", "ordinal": None}),
    ]),
    ("kings_of_war_faq_errata_vf_EXCERPT.txt", [
        ("replace", {"block": "sentence", "ordinal": 1}), ("replace", {"block": "sentence", "ordinal": -1}),
        ("replace", {"block": "bullet", "ordinal": 2}),
        # "En fin de second paragrapheRemplacer « … » par« … »": words glued by the extraction; in that paragraph
        ("replace", {"block": "text", "ordinal": None, "within": "paragraph", "within_ordinal": 2}),
        ("insert", {"block": "entry", "ordinal": None}),  # "Ajoutez une section sur …"
    ]),
])
def test_errata_excerpts_parse_into_operations(capsys, name, expected):
    errata = errata_from(EXCERPTS / name, capsys)
    assert [(e["operation"], e["scope"]) for e in errata] == expected
    assert {e["status"] for e in errata} == {"recorded"}


@pytest.mark.skipif(not EXCERPTS.is_dir(), reason="../shared/external/errata-excerpts is absent")
def test_a_forum_faq_with_dashed_prefixes_loses_them_and_keeps_its_topics(capsys):
    """"Q - …" / "R – …": prefixes like "Q :", so the topic lines between the questions are headings."""
    data = extract(EXCERPTS / "lotr_sbg_faq_fr_warhammer_forum_EXCERPT.txt", capsys, profile="faq")
    questions = [e for e in data["entries"] if e["kind"] == "question"]
    texts = [b["text"] for e in questions for b in e["blocks"] if b["type"] in ("question", "answer")]
    assert len(questions) >= 5 and not [t for t in texts if t.startswith(("Q ", "R ", "Q–", "R–"))]
    assert "Moria" in {e["title"] for e in data["entries"]}


@pytest.mark.skipif(not EXCERPTS.is_dir(), reason="../shared/external/errata-excerpts is absent")
@pytest.mark.parametrize(("name", "listed", "clarifications"), [
    # no errata part: its questions and answers are clarifications, the answer worded like a fix included
    ("lotr_sbg_faq_fr_warhammer_forum_EXCERPT.txt", 0, 17),
    ("kings_of_war_faq_errata_vf_EXCERPT.txt", 0, 0),  # every instruction read, the glued one too
    # a misplaced sentence no verb corrects; the paragraph introducing "ERRATA" names no place (the
    # version line and title above the part heading are none) and is not listed
    ("star_wars_jce_faq_errata_v1.0_fr_EXCERPT.txt", 1, 0),
    # under "Erratas (…) :": an item that states a rule without an instruction
    ("final_girl_faq_collaborative_fr_trictrac_EXCERPT.txt", 1, 0),
    # two columns run together: each "devrait dire :" whose text the other column broke, listed with its line
    ("runewars_faq_tournoi_v1.1.0_fr_EXCERPT.txt", 2, 0),
])
def test_errata_from_an_faq_lists_what_it_cannot_read_and_its_clarifications(capsys, name, listed, clarifications):
    path = EXCERPTS / name
    assert main(["errata", "--from", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("not understood:") == listed
    assert captured.out.count("clarification:") == clarifications
    assert f"; {listed} passage(s) that read like errata not understood; {clarifications} clarification(s)" in captured.err


@pytest.mark.skipif(not DEADZONE.is_file(), reason="../shared/external/deadzone-v2 is absent")
def test_deadzone_italic_item_labels_stay_labels_for_the_errata_grammar(capsys):
    # the labels "Dominator (p.59) :" are in Calibri Italic: the reader keeps them as emphasis, the
    # errata grammar still reads the item's name, page and instruction
    errata = errata_from(DEADZONE, capsys)
    dominator = next(e for e in errata if e["target_hint"]["name"] == "Dominator")
    assert dominator["instruction"] == "Dominator (p.59) : la valeur de PV de cette arme est de 0 (et non 1)."
