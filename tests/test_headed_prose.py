"""Headed prose: the Runewars learn-to-play booklet and the BattleLore summary."""

from __future__ import annotations

from extract.segment.profiles.base import heading_like

A = "runewars/apprentissage/"


def test_heading_layout_rules():
    assert heading_like("Composition d'unité")
    assert not heading_like("Pour composer une unité, suivez ces étapes :")
    assert not heading_like("- Si la posture ne correspond pas")
    assert not heading_like("Glossaire page 6")  # a contents line
    assert heading_like("Cartes Objectif, page 15")  # an erratum's target, not a contents line
    assert not heading_like("1. Triez les figurines")
    # a credits line at a panel's foot is no heading, whatever its layout
    assert not heading_like("Hanabi © ReSpell 2010 www.les12singes.com")
    assert not heading_like("Illustrations (c) 2019 Studio")
    assert not heading_like("Retrouvez-nous sur https://exemple.fr")
    assert heading_like("Crédits")


def test_captions_do_not_split_sections(built):
    e = built["entries"]
    objectives = e[A + "regles-avancees/cartes-objectif"]
    paragraphs = [b["text"] for b in objectives["blocks"] if b["type"] == "paragraph"]
    assert len(paragraphs) == 3
    assert paragraphs[2].startswith("Si une carte Objectif a une instruction de « Mise en place »")
    assert {"type": "caption", "text": "Valeur de l'objectif"} in objectives["blocks"]
    command = e[A + "jouer-la-partie/phase-de-commandement"]
    captions = [b["text"] for b in command["blocks"] if b["type"] == "caption"]
    assert captions == ["Cadran d'action", "Cadran de modificateur", "Outil de commandement des Piquiers"]
    assert not any(i.endswith("outil-de-commandement-des-piquiers") for i in e)
    assert not any(i.endswith("/unite-daqan") for i in e)


def test_steps_tables_and_bullets(built):
    e = built["entries"]
    composition = e[A + "unites/composition-d-unite"]
    steps = [b for b in composition["blocks"] if b["type"] == "step"]
    assert [s["number"] for s in steps] == ["1", "2"]
    score = e[A + "regles-avancees/le-score"]
    table = next(b for b in score["blocks"] if b["type"] == "table")
    assert table["rows"][0] == ["Plateaux de mouvement", "Coût", "Améliorations disponibles"]
    assert table["rows"][1][:2] == ["2", "18"]
    remember = e[A + "regles-a-ne-pas-oublier"]
    assert [b["type"] for b in remember["blocks"]] == ["bullet"] * 7
    assert remember["blocks"][3]["text"].startswith("Les cartes inclinées ne sont redressées")


def test_outline_levels(built):
    e = built["entries"]
    assert e[A + "actions"]["parent"] is None
    assert e[A + "actions/vitesse"]["parent"] == A + "actions"
    report = built["report"]["documents"]["runewars/apprentissage"]
    assert {"lines": [1, 7], "reason": "title page"} in report["set_aside"] or \
        any(s["reason"] == "title page" for s in report["set_aside"])


def test_battlelore_caps_and_title_case_levels(built):
    e = built["entries"]
    combat = e["battlelore/resume/combat"]
    assert combat["title"] == "COMBAT"
    procedure = e["battlelore/resume/combat/procedure-de-combat"]
    assert [b["type"] for b in procedure["blocks"]] == ["step"] * 3
    assert e["battlelore/resume/combat/portee-et-ligne-de-mire"]["blocks"][2]["text"].startswith(
        "Une unité adjacente à une unité ennemie doit combattre contre cette unité")
    # A heading in capitals above one in title case: a heading and its first sub-heading.
    mercenaries = e["battlelore/resume/mercenaires"]
    assert mercenaries["parent"] is None and mercenaries["title"] == "MERCENAIRES"
    # A long line opening with an article and missing its full stop is a sentence, not a heading.
    assert mercenaries["blocks"][0]["text"] == "Les unités d'infanterie des Nains de fer sont Intrépides"
    common = e["battlelore/resume/lieux-remarquables/regles-communes"]
    assert common["blocks"][0]["text"] == "Une unité se trouvant sur un lieu remarquable est Intrépide"


def test_wrapped_component_list_items_are_not_headings(built):
    entries = built["entries"]
    materiel = entries["runewars/apprentissage/materiel"]
    assert [c.rsplit("/", 1)[1] for c in materiel["children"]] == ["assemblage-des-outils-de-commandement"]
    texts = [b["text"] for b in entries["runewars/apprentissage/materiel/assemblage-des-outils-de-commandement"]["blocks"]]
    assert "8 Pions Objectif" in texts and "10 Pions Blessure" in texts
    assert "runewars/apprentissage/materiel/objectif" not in entries


def test_lists_numbered_one_one_one_get_their_numbers():
    from extract.model import DocumentSpec, Line
    from extract.segment.profiles import PROFILES
    from extract.segment.profiles.base import DocContext

    text = ["# Règles", "", "1. Premier point.", "1. Deuxième point", "    1. Son premier sous-point.",
            "        1. Un détail.", "    1. Son second sous-point.", "1. Troisième point."]
    doc = DocumentSpec("regles", "Règles", "rulebook", "", "", "x.md", 1, None, "headed-prose", {})
    lines = [Line(n, t) for n, t in enumerate(text, start=1) if t.strip()]
    result = PROFILES["headed-prose"](lines, DocContext("demo", doc))
    steps = [(b.number, b.text) for e in result.entries for b in e.blocks if b.type == "step"]
    assert [n for n, _ in steps] == ["1", "2", "2.i", "2.i.a", "2.ii", "3"]
    assert [a.kind for a in result.anomalies] == ["numbering-inferred"]
    assert result.entries[0].title == "Règles"
