"""The development set's PDFs whose headings are printed in the text's own type (no bookmarks, no
larger size): their heading trees as a reader sees them (see tests/test_devset.py for the rest)."""

from __future__ import annotations

import pytest

from extract.cli.commands import extract_document
from tests.test_devset import DEVSET

pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not DEVSET.is_dir(), reason="../shared/external/french-rules-devset is absent")]


def test_petit_jdr_small_caps_headings_nest_under_their_chapter_and_its_list_formula_and_table_row_are_text():
    """pdfTeX small capitals at the text's size: "Compétences", "Combat"… under "Joueurs" and "Maître
    du Jeu" (the only headings its sizes state); the progression grid's "Augmente le bonus de dégâts",
    the formula "Dégâts infligés = …" and the table row "Nom/Titre Guerrier Insecte" are text."""
    found = extract_document(DEVSET / "petit-jdr-universel/Regles.pdf")
    entries = {e["id"]: e for e in found["entries"]}
    tree = [(entries[e["parent"]]["title"] if e["parent"] else None, e["title"]) for e in found["entries"] if e["title"]]
    assert tree[tree.index((None, "Joueurs")):] == [
        (None, "Joueurs"), ("Joueurs", "Arbre de progression"), ("Joueurs", "Compétences"),
        ("Joueurs", "Création de personnage"), ("Joueurs", "Combat"),
        (None, "Maître du Jeu"), ("Maître du Jeu", "Modules"), ("Maître du Jeu", "Compétences"),
        ("Maître du Jeu", "Coups spéciaux"), ("Maître du Jeu", "Équipement"), ("Maître du Jeu", "Combat")]
    text = " ".join(e["text"] for e in found["entries"])
    assert "Augmente le bonus de dégâts" in text and "Nom/Titre Guerrier Insecte" in text
    said = next(a for a in found["anomalies"] if a["kind"] == "typeset-as-text")
    assert "Dégâts infligés" in said["detail"] and "Augmente le bonus de dégâts" in said["detail"]
    assert not any(a["kind"] == "structure-uncertain" for a in found["anomalies"])
