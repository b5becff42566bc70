"""The decimal-rules profile (Seigneur des Anneaux tournament rules) on a few lines: sections,
rules nesting by extra digits, French variants, named rules, fragments put back, the index."""

from __future__ import annotations

import pytest

from extract.segment.profiles.decimal_rules import base_number, split_index_term
from tests.helpers import assert_segments, blocks, by_key, kinds, segment_text

LOTR = """Section 1 : Règles générales et informations

Compteurs / Molettes

1.03 Les Compteurs sont toujours poussés au maximum.

1.07 L'avant du socle est le côté des caractéristiques.

1.071 Si la figurine a été montée à l'envers, l'avant est l'autre côté.

Section 5 : Tir

5.03 Une figurine ne peut tirer que sur un seul ennemi.

5.03A Sauron ne peut pas être la cible d'une attaque à distance.

Section 8 : Aptitudes Spéciales

8.12 Coup Rapide (Fast Strike) : La figurine peut interrompre son mouvement. Si l'Attaque Gratuite élimine la figurine

8.13 Créature Volante (Flyer) : Il existe quelques règles spéciales.

ennemie, elle peut reprendre son déplacement.

**8.21 Tir Opportuniste** (Crack Shot) : La figurine peut se déplacer après avoir tiré. **Elle ne pivote pas.**

-  **8.41 Terreur** (Dread) : Jusqu'à la fin du Tour les ennemis voient leurs coûts augmenter.

Section 11 : Index

- Coup Rapide (Fast Strike) 8.12**
- Terreur (Dread) 8.41
- Zone de Danger (Kill Zone) 5.03, 9.99
"""


def segmented():
    result, _, _ = segment_text("decimal-rules", LOTR)
    return result, by_key(result)


def test_sections_and_nesting():
    result = assert_segments("decimal-rules", LOTR, [
        ("1", "section", "Règles générales et informations"),
        ("1/compteurs-molettes", "section", "Compteurs / Molettes"),
        ("1.03", "rule", None), ("1.07", "rule", None), ("1.071", "rule", None),
        ("5", "section", "Tir"), ("5.03", "rule", None), ("5.03A", "rule", None),
        ("8", "section", "Aptitudes Spéciales"),
        ("8.12", "rule", "Coup Rapide"), ("8.13", "rule", "Créature Volante"),
        ("8.21", "rule", "Tir Opportuniste"), ("8.41", "rule", "Terreur"),
        ("11", "section", "Index"),
    ])
    entries = by_key(result)
    assert entries["1.071"].parent is entries["1.07"]
    assert entries["1.03"].parent is entries["1/compteurs-molettes"] and entries["1/compteurs-molettes"].parent is entries["1"]
    assert all(entries[n].is_page for n in ("1", "5", "8", "11"))


def test_french_variants_nest_under_their_rule_and_are_flagged():
    _, entries = segmented()
    assert entries["5.03A"].parent is entries["5.03"]
    assert entries["5.03A"].flags == ["french-variant"] and "french-variant" not in entries["5.03"].flags


def test_named_rules_keep_their_english_name():
    _, entries = segmented()
    dread = entries["8.41"]
    assert (dread.title, dread.number) == ("Terreur", "8.41")
    assert dread.index_terms[:1] == ["Dread"]
    assert dread.text == "Jusqu'à la fin du Tour les ennemis voient leurs coûts augmenter."
    crack = entries["8.21"]
    assert crack.blocks[0].markdown.endswith("**Elle ne pivote pas.**")  # bold marks a changed text
    assert "**" not in crack.text


def test_continuation_fragments_are_put_back():
    result, entries = segmented()
    assert entries["8.12"].text.endswith("Si l'Attaque Gratuite élimine la figurine ennemie, elle peut reprendre son déplacement.")
    assert entries["8.13"].text == "Il existe quelques règles spéciales."
    assert [(a.kind, a.lines) for a in result.anomalies if a.kind == "rejoined-split-sentence"] == [("rejoined-split-sentence", [23])]


def test_the_index_flags_changed_rules_and_names_them():
    result, entries = segmented()
    assert "changed-since-previous-edition" in entries["8.12"].flags
    assert "changed-since-previous-edition" not in entries["8.41"].flags
    assert entries["8.12"].index_terms == ["Fast Strike", "Coup Rapide"]
    assert {"Zone de Danger", "Kill Zone"} <= set(entries["5.03"].index_terms)
    index_refs = [(r.target, r.kind) for r in entries["11"].refs]
    assert index_refs[:2] == [("demo/regles/8.12", "index"), ("demo/regles/8.41", "index")]
    assert [r.reason for r in entries["11"].refs if r.target is None] == ["9.99 is not in the source"]
    assert kinds(result.anomalies).count("unresolved-index-reference") == 1


def test_a_rule_under_a_missing_parent_is_reported():
    result, _, _ = segment_text("decimal-rules", "Section 2 : Jeu\n\n2.051 Sans son 2.05.\n")
    assert [(a.kind, a.detail) for a in result.anomalies] == [
        ("unresolved-parent", "rule 2.051 nests under 2.05, which is not in the source")]
    assert result.entries[1].parent is result.entries[0]


def test_declared_captions_stay_in_their_rule():
    result, _, _ = segment_text("decimal-rules", "Section 8 : Tir\n\n8.33 Une figurine voit devant elle.\n\nDirectement devant\n",
                                {"captions": ["Directement devant"]})
    assert blocks(by_key(result)["8.33"])[-1] == ("caption", "Directement devant")


@pytest.mark.parametrize(("number", "base"), [
    ("1.071", "1.07"), ("9.101", "9.10"), ("5.03A", "5.03"), ("9.10", None), ("1.07", None)])
def test_base_number(number, base):
    assert base_number(number) == base


@pytest.mark.parametrize(("text", "expected"), [
    ("Ligne de vue (LDV) (Line of sight (LOS)) 5.05, 5.07", ("Ligne de vue (LDV)", "Line of sight (LOS)")),
    ("Blessure Superficielle (Critical Hits)", ("Blessure Superficielle", "Critical Hits")),
    ("Terreur (Dread) 8.41", ("Terreur", "Dread")),
    ("Mouvement 4.01, 4.02", ("Mouvement", None)),
])
def test_split_index_term(text, expected):
    assert split_index_term(text) == expected


def test_a_cut_sentence_never_goes_back_into_a_contents_list():
    # as a PDF reader gives them: one Line per paragraph; the paragraph after the colon was cut off it
    from extract.model import Line
    from extract.segment import segment_document
    from tests.helpers import document

    contents = ("Introduction ............ 3 Matériel ............ 3 Mise en place ............ 4 "
                "Index ............ 10")  # lines run together
    lines = [Line(n, t, page=p) for n, (t, p) in enumerate([
        ("# Fer et Bannières", 1), ("# Sommaire", 2), (contents, 2), ("# Introduction", 3),
        ("**§1** Chaque joueur commande une dizaine d'unités :", 3), ("fantassins, archers, cavaliers et un général.", 3),
        ("**§2** Une unité est un socle.", 3)], 1)]
    result = segment_document("demo", document("decimal-rules"), lines, "corpus/demo/game.toml", reader="pdf")
    entries = by_key(result)
    assert entries["sommaire"].text == contents
    assert "fantassins" in entries["introduction"].text and "§2" not in entries["sommaire"].text
    assert "rejoined-split-sentence" not in kinds(result.anomalies)

def test_a_cut_sentence_joined_across_sections_is_a_warning():
    text = """Section 1 : Règles générales

1.01 Chaque joueur commande une dizaine

Section 2 : Combat

2.01 Le combat se joue aux dés.

d'unités et un général.
"""
    result, _, _ = segment_text("decimal-rules", text)
    found = [a for a in result.anomalies if a.kind == "rejoined-split-sentence"]
    assert [(a.severity, a.lines) for a in found] == [("warning", [9])]
    assert "another section" in found[0].detail
