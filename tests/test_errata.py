"""The errata of the Runewars FAQ de Tournoi applied to the real corpus, and the errata stage on
small fixtures: failures, hand-written errata files, idempotence, commands."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from extract.cli import main
from extract.errata.apply import apply_errata, read_errata
from extract.pipeline import Stopwatch, read_games
from extract.publish.data import entry_json
from tests.conftest import ROOT, make_corpus

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")


def blocks(entry: dict, key: str = "blocks") -> list[tuple[str, str]]:
    return [(b["type"], b["text"]) for b in entry[key]]


@pytest.fixture(scope="module")
def runewars(built) -> dict:
    game = built["games"]["runewars"]
    return {"entries": {e["id"]: e for e in game["entries"]}, "errata": {e["id"]: e for e in game["errata"]},
            "order": [e["id"] for e in game["entries"]]}


def erratum_on(runewars: dict, target: str) -> dict:
    found = [e for e in runewars["errata"].values() if e["target"] == target]
    assert len(found) == 1, target
    return found[0]


def test_every_runewars_erratum_applied_or_recorded(runewars):
    statuses = {e["id"]: e["status"] for e in runewars["errata"].values()}
    # Ids come from the entry stating each erratum, not its position; a second erratum of one entry takes "~2".
    F = "runewars/faq/errata/errata/"
    applied = ["livret-d-apprentissage/cartes-objectif-page-15", "livret-d-apprentissage/regles-a-ne-pas-oublier-page-24",
               "guide-de-reference/ligne-de-vue-page-13-section-49", "guide-de-reference/menace-page-14-section-51-1",
               "guide-de-reference/modifier-les-des-page-14-section-56-4", "guide-de-reference/reformation-page-17-sections-76-et-76-2",
               "guide-de-reference/reformation-page-17-sections-76-et-76-2~2", "guide-de-reference/terrain-page-19-section-84-9",
               "guide-de-reference/test-de-moral-page-20-section-85-7", "guide-de-reference/timing-page-20-section-86-11",
               "regles-d-extensions/conditions"]
    recorded = ["cartes-amelioration/tir-a-bout-portant", "cartes-terrain/fissure-dimorienne"]
    assert statuses == {F + k: "applied" for k in applied} | {F + k: "recorded" for k in recorded}
    assert runewars["errata"][F + applied[6]]["target"] == "runewars/reference/76.2"


def test_rule_49_current_and_printed(runewars):
    entry = runewars["entries"]["runewars/reference/49"]
    assert entry["status"] == "amended"
    assert blocks(entry) == [
        ("paragraph", "Pour effectuer une attaque à distance [attaque à distance] ou résoudre un autre effet à distance qui nécessite une "
                      "ligne de vue, une unité doit avoir une ligne de vue sur sa cible."),
        ("related", "Sujets connexes : Arc de tir, Obstacle, Portée, Terrain"),
    ]
    assert blocks(entry, "original_blocks")[0] == (
        "paragraph", "Pour effectuer une attaque à distance [attaque à distance] ou résoudre un autre effet à distance, une unité doit "
                     "avoir une ligne de vue sur sa cible.")
    erratum = runewars["errata"][entry["errata"][0]]
    assert erratum["source"] == "runewars/faq/errata/guide-de-reference/ligne-de-vue-page-13-section-49"
    assert (erratum["operation"], erratum["scope"]) == ("replace", {"block": "paragraph", "ordinal": 1})
    assert erratum["before"].startswith("Pour effectuer une attaque à distance [attaque à distance]")


def test_rule_51_1_second_bullet_with_its_sub_bullets(runewars):
    entry = runewars["entries"]["runewars/reference/51.1"]
    assert [t for t, _ in blocks(entry)] == ["paragraph", "bullet", "bullet", "subbullet", "subbullet"]
    assert entry["blocks"][1]["text"].startswith("Si l'attaquant a plusieurs bords")  # untouched neighbour
    assert entry["blocks"][2]["text"] == ("Si l'attaquant dispose d'un rang partiel, la menace est calculée en fonction "
                                          "de ses bords au contact de la manière suivante :")
    assert entry["blocks"][3]["text"].startswith("Flanc : si le défenseur ne touche aucun plateau")
    assert entry["blocks"][4]["text"].endswith("elle correspond au nombre de plateaux de mouvement sur son front.")
    assert blocks(entry, "original_blocks")[2] == (
        "bullet", "Si le bord au contact est raccourci par un rang partiel, calculez le nombre de plateaux de mouvement "
                  "comme si le rang partiel n'était pas présent.")
    assert "**aucun**" in entry["markdown"]


def test_rule_56_4_first_paragraph_only(runewars):
    entry = runewars["entries"]["runewars/reference/56.4"]
    assert entry["blocks"][0]["text"].startswith("Les capacités qui ajoutent des icônes aux résultats du lancer")
    assert entry["blocks"][1:] == entry["original_blocks"][1:]
    assert len(entry["blocks"]) == 4


def test_reformation_76_and_76_2(runewars):
    topic = runewars["entries"]["runewars/reference/76"]
    assert topic["blocks"][0]["text"].startswith("Reformation [reformation] est une action.")
    assert topic["blocks"][0]["text"].endswith("avec aucun obstacle qu'elle ne touchait pas déjà.")
    rule = runewars["entries"]["runewars/reference/76.2"]
    assert blocks(rule)[:2] == blocks(rule, "original_blocks")[:2]
    assert blocks(rule)[2] == ("bullet", "L'unité active ne peut pas être au contact d'une nouvelle unité ennemie ou "
                                         "d'un nouvel autre obstacle.")
    assert "counting bullets as paragraphs" in erratum_on(runewars, "runewars/reference/76.2")["resolution"]
    assert runewars["entries"]["runewars/reference/76.1"]["status"] == "printed"


def test_rule_84_9_exposed_bullet(runewars):
    entry = runewars["entries"]["runewars/reference/84.9"]
    changed = [i for i, (new, old) in enumerate(zip(entry["blocks"], entry["original_blocks"], strict=True)) if new != old]
    assert changed == [3]
    assert entry["blocks"][3]["text"] == ("Exposé : quand une unité détermine sa ligne de vue, elle ignore ce terrain si "
                                          "ce n'est pas vers lui qu'elle mesure sa ligne de vue.")


def test_rule_85_7_added_at_its_place(runewars):
    entry = runewars["entries"]["runewars/reference/85.7"]
    assert (entry["status"], entry["original_blocks"], entry["parent"]) == ("added", [], "runewars/reference/85")
    assert blocks(entry) == [("paragraph", "Lorsque le paquet Moral est vide, mélangez la pile de défausse afin de "
                                           "constituer un nouveau paquet Moral face cachée.")]
    assert runewars["entries"]["runewars/reference/85"]["children"][-1] == "runewars/reference/85.7"
    order = runewars["order"]
    assert order.index("runewars/reference/85.7") == order.index("runewars/reference/85.6") + 1
    assert entry["url"] == "runewars/reference/85/#85.7"


def test_rule_86_11_deleted_keeps_its_text(runewars):
    entry = runewars["entries"]["runewars/reference/86.11"]
    assert entry["status"] == "deleted"
    assert entry["text"] == "Résoudre l'effet d'une carte Amélioration est optionnel, sauf s'il en est spécifié autrement."
    assert entry["original_blocks"] == entry["blocks"]
    erratum = erratum_on(runewars, "runewars/reference/86.11")
    assert erratum["operation"] == "delete" and "the quoted old text matches the printed text" in erratum["checks"]


def test_learn_to_play_errata(runewars):
    objective = runewars["entries"]["runewars/apprentissage/regles-avancees/cartes-objectif"]
    assert [t for t, _ in blocks(objective)] == ["paragraph", "paragraph", "caption", "paragraph"]
    assert objective["blocks"][3]["text"] == (
        "Si une carte Objectif a une instruction de « Mise en place », les joueurs doivent la résoudre durant l'étape "
        "« Résolvez les Objectifs » des instructions de Mise en Place (voir page 4 du Guide de Référence).")
    assert objective["blocks"][:3] == objective["original_blocks"][:3]
    # The erratum's text drops the printed "Fin de partie" sentence: applied as written, and said.
    assert any("Fin de partie" in check for check in erratum_on(runewars, objective["id"])["checks"])
    reminders = runewars["entries"]["runewars/apprentissage/regles-a-ne-pas-oublier"]
    assert reminders["blocks"][3]["text"] == ("Les cartes inclinées ne sont redressées que quand l'unité équipée effectue "
                                              "une action Ralliement [ralliement] ou dépense un pion Inspiration.")
    assert reminders["blocks"][2] == reminders["original_blocks"][2]
    assert reminders["blocks"][4] == reminders["original_blocks"][4]


def test_conditions_erratum_is_already_in_the_faq_text(runewars):
    entry = runewars["entries"]["runewars/faq/regles-d-extensions/conditions"]
    erratum = erratum_on(runewars, entry["id"])
    assert (erratum["status"], erratum["operation"]) == ("applied", "move")
    assert "already reads so" in erratum["resolution"]
    assert entry["status"] == "printed" and "original_blocks" not in entry
    assert [t for t, _ in blocks(entry)][-3:] == ["bullet", "caption", "caption"]


def test_card_errata_recorded_with_their_text(runewars):
    cards = [e for e in runewars["errata"].values() if e["status"] == "recorded"]
    assert [(e["target"], e["target_hint"]["name"]) for e in cards] == [(None, "Tir à Bout Portant"), (None, "Fissure Dimorienne")]
    assert cards[0]["after"] == "Vous pouvez effectuer cette 🏹 tant que vous êtes engagé."
    assert "the quoted text has no opening «" in cards[0]["checks"]
    assert cards[1]["after"] == "Avant chaque Phase Finale, chaque unité à portée 1 subit 1 blessure."


def test_untouched_entries_have_no_printed_copy(built):
    import json

    report = json.loads((built["out"] / "report.json").read_text(encoding="utf-8"))
    # Deleted by the book itself (printed struck through), not by an erratum: reported as such.
    struck = {a["detail"].split(":")[0] for d in report["documents"].values() for a in d["anomalies"]
              if a["kind"] == "struck-through" and "read as deleted" in a["detail"]}
    assert struck == {"sda-jfe/tournoi/5.171"}
    for entry in built["entries"].values():
        assert ("original_blocks" in entry) == (entry["status"] != "printed")
        if entry["id"] not in struck:
            assert bool(entry["errata"]) == (entry["status"] != "printed"), entry["id"]


@pytest.mark.corpus  # reads and segments the real corpus itself
def test_applying_twice_changes_nothing():
    games = read_games(ROOT, Stopwatch(), lambda message: None)
    game = next(g for g in games if g.game.id == "runewars")
    errata = read_errata(game.game, game.entries)
    apply_errata(game.lookup, errata)
    once = [entry_json(e) for e in game.entries]
    again = apply_errata(game.lookup, copy.deepcopy(read_errata(game.game, game.entries)))
    assert [entry_json(e) for e in game.entries] == once
    assert {e.status for e in again.errata} == {"applied", "recorded"}


def test_precedence_with_the_entry_stating_it(built):
    precedence = built["games"]["runewars"]["game"]["precedence"]
    assert [p[:2] for p in precedence] == [["reference", "apprentissage"], ["cards", "rules"], ["cannot", "can"]]
    assert {p[3] for p in precedence} == {"runewars/reference/les-regles-d-or"}
    golden = built["entries"]["runewars/reference/les-regles-d-or"]["text"]
    assert all(p[2] in golden for p in precedence)
    lotr = built["games"]["sda-jfe"]["game"]["precedence"]
    assert lotr[0][:2] == ["tournoi", "regles-de-base"] and lotr[0][3] == "sda-jfe/tournoi/avertissement"


# ---------------------------------------------------------------- FAQ attached to rules


def test_questions_link_to_the_rules_they_concern(built):
    entries = built["entries"]

    def targets(entry_id: str) -> set[str]:
        return {r["target"] for r in entries[entry_id]["refs"] if r["kind"] == "faq"}

    assert "runewars/reference/49" in targets("runewars/faq/faq/ligne-de-vue/q1")
    assert "runewars/reference/51" in targets("runewars/faq/faq/menace/q1")
    assert "runewars/faq/faq/mise-en-place/menace-avec-des-rangs-partiels" in targets("runewars/faq/faq/menace/q1")
    assert "runewars/reference/53" in targets("runewars/faq/faq/mise-en-place/placer-un-terrain/q1")
    assert "runewars/faq/errata/guide-de-reference/terrain-page-19-section-84-9" in \
        targets("runewars/faq/faq/terrain/mots-clefs-de-terrain/q1")
    assert "runewars/faq/clarifications-de-cartes/cartes-amelioration/sonneur-de-cor-agressif" in \
        targets("runewars/faq/faq/modificateurs/q1")
    assert "runewars/faq/faq/ligne-de-vue/q1" in entries["runewars/reference/49"]["backrefs"]
    assert "runewars/faq/errata/guide-de-reference/ligne-de-vue-page-13-section-49" in entries["runewars/reference/49"]["backrefs"]


def test_faq_rules_and_clarifications_are_entries_of_their_kind(built):
    entries = built["entries"]
    assert entries["runewars/faq/regles-d-extensions/conditions"]["kind"] == "rule"
    assert entries["runewars/faq/clarifications-de-regles/information-ouverte-derivee-et-cachee/information-cachee"]["kind"] == \
        "clarification"
    assert entries["runewars/faq/clarifications-de-cartes/cartes-unite/kari-traquesprit"]["kind"] == "clarification"
    assert entries["runewars/faq/errata/regles-d-extensions/conditions"]["kind"] == "section"


def test_unattached_question_is_reported(built):
    anomalies = built["report"]["documents"]["runewars/faq"]["anomalies"]
    unattached = [a["detail"] for a in anomalies if a["kind"] == "faq-unattached"]
    assert unattached == ["runewars/faq/faq/determiner-la-portee/q1: no rule found for this question"]


# ---------------------------------------------------------------- fixtures

FAQ = """Errata

Guide de Référence

Ligne de Vue, section 3

Le premier paragraphe de cette section devrait dire :

« Une unité doit voir sa cible pour l'attaquer à distance. »

Charge, section 9

Le premier paragraphe de cette section devrait dire :

« Une charge se termine au contact. »
"""

RULES = """Glossaire

3 Ligne de vue

Une unité doit avoir une ligne de vue sur sa cible.

3.1 La ligne de vue est tracée depuis le bord frontal.
"""


def faq_corpus(root: Path) -> Path:
    rules_doc = """
[[documents]]
id = "guide"
title = "Guide de Référence"
kind = "reference"
source = "rules.txt"
profile = "numbered-glossary"
[documents.options]
glossary_heading = "Glossaire"
outline = ["# Glossaire"]
"""
    make_corpus(root, FAQ, profile="faq", options='[documents.options]\noutline = ["# Errata", "## Guide de Référence"]',
                extra_documents=rules_doc)
    folder = root / "corpus/demo"
    (folder / "rules.txt").write_text(RULES, encoding="utf-8")
    digest = hashlib.sha256(RULES.encode()).hexdigest()
    manifest = folder / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "[[documents]]", f'[[sources]]\nfile = "rules.txt"\nsha256 = "{digest}"\n\n[[documents]]', 1)
        .replace('kind = "rulebook"', 'kind = "faq"'), encoding="utf-8")
    return root


OK_ID = "demo/regles/errata/errata/guide-de-reference/ligne-de-vue-section-3"
# Erratum ids: the FAQ document, then the key of the entry stating them.
FAILED_ID = "demo/regles/errata/errata/guide-de-reference/charge-section-9"


@pytest.mark.corpus  # a whole build
def test_missing_target_fails_and_the_build_completes(tmp_path, capsys):
    root = faq_corpus(tmp_path)
    assert main(["--root", str(root), "build"]) == 0
    game = json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))
    errata = {e["id"]: e for e in game["errata"]}
    assert errata[OK_ID]["status"] == "applied"
    assert errata[OK_ID]["target"] == "demo/guide/3"
    failed = errata[FAILED_ID]
    assert (failed["status"], failed["target"]) == ("failed", None)
    # The number first, then the title beside it (for books whose numbers are not read): both said.
    assert failed["reason"] == "0 entries numbered 9 in guide; no entry titled « Charge » in guide"
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    assert report["errata"]["demo"]["failed_ids"] == [FAILED_ID]
    assert any(a["kind"] == "erratum-failed" for a in report["documents"]["demo/regles"]["anomalies"])
    capsys.readouterr()
    assert main(["--root", str(root), "check"]) == 1
    assert f"{FAILED_ID}: erratum failed: 0 entries numbered 9 in guide; no entry titled « Charge »" in capsys.readouterr().err
    assert main(["--root", str(root), "errata", "demo"]) == 0
    out = capsys.readouterr()
    assert f"{FAILED_ID}  failed" in out.out and "1 applied, 0 recorded, 1 failed" in out.err


@pytest.mark.corpus  # a whole build
def test_title_that_disagrees_with_the_number_fails(tmp_path):
    root = faq_corpus(tmp_path)
    path = root / "corpus/demo/source.txt"
    text = FAQ.replace("Ligne de Vue, section 3", "Moral, section 3")
    path.write_text(text, encoding="utf-8")
    manifest = root / "corpus/demo/game.toml"
    old = hashlib.sha256(FAQ.encode()).hexdigest()
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(old, hashlib.sha256(text.encode()).hexdigest()), encoding="utf-8")
    assert main(["--root", str(root), "build"]) == 0
    game = json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))
    assert game["errata"][0]["reason"] == "the heading names « Moral » but section 3 is in « Ligne de vue »"


def write_errata(root: Path, text: str) -> Path:
    folder = root / "corpus/demo/errata"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "arbitre.toml").write_text(text, encoding="utf-8")
    return root


HAND = '''source = "Décision de l'arbitre, Open de Lyon"
date = "2026-03-14"

[[errata]]
target = "guide/3.1"
operation = "replace"
block = "paragraph"
ordinal = 1
text = "La ligne de vue est tracée depuis le centre du bord frontal."

[[errata]]
target = "guide/3.2"
operation = "insert"
block = "entry"
text = "Les figurines alliées ne bloquent pas la ligne de vue."

[[errata]]
target = "guide/3"
instruction = "Le premier paragraphe de cette section devrait dire : « Une unité doit avoir une ligne de vue dégagée sur sa cible. »"
supersedes = "regles/errata/errata/guide-de-reference/ligne-de-vue-section-3"
'''
SUPERSEDES = 'supersedes = "regles/errata/errata/guide-de-reference/ligne-de-vue-section-3"\n'


@pytest.mark.corpus  # a whole build
def test_hand_written_errata_apply_after_the_faq(tmp_path):
    root = write_errata(faq_corpus(tmp_path), HAND)
    assert main(["--root", str(root), "build"]) == 0
    game = json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in game["entries"]}
    errata = {e["id"]: e for e in game["errata"]}
    assert entries["demo/guide/3.1"]["blocks"][0]["text"] == "La ligne de vue est tracée depuis le centre du bord frontal."
    assert entries["demo/guide/3.2"]["status"] == "added" and entries["demo/guide/3.2"]["parent"] == "demo/guide/3"
    assert entries["demo/guide/3"]["blocks"][0]["text"] == "Une unité doit avoir une ligne de vue dégagée sur sa cible."
    # Two errata on the same paragraph, FAQ first: the later one says it supersedes the FAQ's, and wins.
    assert entries["demo/guide/3"]["errata"] == [OK_ID, "demo/arbitre/errata/guide/3"]
    assert errata["demo/arbitre/errata/guide/3.1"]["origin"] == {
        "file": "corpus/demo/errata/arbitre.toml", "lines": [4, 4], "date": "2026-03-14",
        "source": "Décision de l'arbitre, Open de Lyon"}
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    conflicts = report["errata"]["demo"]["files"]["corpus/demo/errata/arbitre.toml"]
    assert [c["kind"] for c in conflicts] == ["errata-superseded"]


@pytest.mark.corpus  # a whole build
def test_conflicting_errata_stop_the_build(tmp_path, capsys):
    """Two errata on one block without `supersedes`: which text holds is for a person to decide."""
    root = write_errata(faq_corpus(tmp_path), HAND.replace(SUPERSEDES, ""))
    assert main(["--root", str(root), "build"]) == 1
    err = capsys.readouterr().err
    assert "corpus/demo/errata/arbitre.toml:" in err and "conflicting errata" in err
    assert f"demo/arbitre/errata/guide/3 changes text of demo/guide/3 that {OK_ID} already changed" in err
    assert len(err.strip().splitlines()) == 1 and not (root / "build").exists()


@pytest.mark.corpus  # a whole build
def test_an_errata_file_on_a_missing_target_stops_the_build(tmp_path, capsys):
    root = write_errata(faq_corpus(tmp_path), HAND.replace('target = "guide/3.1"', 'target = "guide/99"'))
    assert main(["--root", str(root), "build"]) == 1
    err = capsys.readouterr().err
    assert "corpus/demo/errata/arbitre.toml:4: demo/guide/99: no entry demo/guide/99" in err


@pytest.mark.parametrize(("text", "expected"), [
    (HAND.replace('operation = "replace"', 'operation = "rewrite"'),
     "corpus/demo/errata/arbitre.toml:6: unknown operation 'rewrite' (one of replace, insert, delete, move)"),
    (HAND.replace('target = "guide/3.1"\n', ""), "corpus/demo/errata/arbitre.toml:4: [[errata]] has no target"),
    (HAND.replace("ordinal = 1", "ordinal = 4"), "corpus/demo/errata/arbitre.toml:4: demo/guide/3.1: no paragraph 4"),
    (HAND + "\n[[errata\n", "corpus/demo/errata/arbitre.toml:22: invalid TOML"),
    (HAND.replace("block = ", "colour = "), "corpus/demo/errata/arbitre.toml:7: unknown key 'colour' in [[errata]]"),
    # a key is the writer's text, never a pattern: "a(" and "[x" were unexpected errors (issue 38)
    (HAND.replace("block = ", '"a(" = '), "corpus/demo/errata/arbitre.toml:7: unknown key 'a(' in [[errata]]"),
    (HAND.replace("block = ", "'[x' = "), "corpus/demo/errata/arbitre.toml:7: unknown key '[x' in [[errata]]"),
    (HAND.replace("devrait dire", "pourrait dire"), "corpus/demo/errata/arbitre.toml:19: instruction not understood"),
    (HAND.replace('date = "2026-03-14"\n', ""), "corpus/demo/errata/arbitre.toml: missing required key 'date'"),
])
def test_bad_errata_files(tmp_path, capsys, text, expected):
    root = write_errata(faq_corpus(tmp_path), text)
    assert main(["--root", str(root), "build"]) == 1
    err = capsys.readouterr().err
    assert expected in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (root / "build").exists()


@pytest.mark.corpus  # a whole build
def test_show_printed_and_errata_json(built, capsys, tmp_path):
    root = tmp_path
    (root / "build").symlink_to(built["out"])
    assert main(["--root", str(root), "show", "runewars/reference/49", "--printed"]) == 0
    out = capsys.readouterr().out
    assert "(Modifié par runewars/faq/errata/errata/guide-de-reference/ligne-de-vue-page-13-section-49)" in out
    assert "tel qu'imprimé" in out and "[attaque à distance]" in out and "qui nécessite" not in out
    assert main(["--root", str(root), "show", "runewars/reference/49"]) == 0
    assert "qui nécessite une ligne de vue" in capsys.readouterr().out
    assert main(["--root", str(root), "errata", "runewars", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 13 and {e["status"] for e in listed} == {"applied", "recorded"}
    assert main(["--root", str(root), "errata", "chess"]) == 2


TITLE = '''source = "Décision de l'arbitre, Open de Lyon"
date = "2026-03-14"

[[errata]]
target = "guide/3"
operation = "replace"
block = "title"
text = "Ligne de vue dégagée"
'''


@pytest.mark.corpus  # a whole build
def test_a_title_replaced_by_an_erratum_keeps_the_printed_one(tmp_path, capsys):
    root = write_errata(faq_corpus(tmp_path), TITLE)
    assert main(["--root", str(root), "build"]) == 0
    path = root / "build/data/demo.json"
    game = json.loads(path.read_text(encoding="utf-8"))
    entry = next(e for e in game["entries"] if e["id"] == "demo/guide/3")
    assert (entry["title"], entry["original_title"], entry["status"]) == ("Ligne de vue dégagée", "Ligne de vue", "amended")
    # The FAQ erratum replaced its paragraph: the span stays the book's lines, the FAQ's stay on the erratum.
    assert entry["source"] == {"file": "corpus/demo/rules.txt", "lines": [3, 5]}
    erratum = next(e for e in game["errata"] if e["target"] == "demo/guide/3" and e["origin"]["file"].endswith("source.txt"))
    assert erratum["origin"]["lines"][0] > 5
    capsys.readouterr()
    assert main(["--root", str(root), "check"]) == 1  # the FAQ's second erratum fails (no section 9)
    assert "lost its title" not in capsys.readouterr().err
    entry["title"] = None
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    assert main(["--root", str(root), "check"]) == 1
    assert "demo/guide/3: lost its title (printed « Ligne de vue »)" in capsys.readouterr().err
