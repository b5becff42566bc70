"""The PDF reader on real French rulebooks kept beside the repository (../shared/external), never copied in.

Each assertion is something a reader of the printed page can check by looking at it."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.errors import InputError
from extract.read import Reading
from extract.read.pdf import NO_TEXT, read_pdf
from tests.read.test_pdf import check_accounting

EXTERNAL = Path(__file__).resolve().parents[2].parent / "shared" / "external"
DEVSET = EXTERNAL / "french-rules-devset"


def source(relative: str):
    path = EXTERNAL / relative
    return pytest.mark.skipif(not path.is_file(), reason=f"../shared/external/{relative} is absent")


_cache: dict[str, Reading] = {}


def read(relative: str) -> Reading:
    if relative not in _cache:
        _cache[relative] = read_pdf(EXTERNAL / relative, relative)
        check_accounting(_cache[relative])
    return _cache[relative]


def texts(reading: Reading) -> list[str]:
    return [line.text for line in reading.lines]


FFE = "french-rules-devset/ffe-regles-generales/R01_2025_26_Regles_generales.pdf"
HANABI = "french-rules-devset/hanabi/regle.pdf"
KAHMATE = "french-rules-devset/kahmate/regle.pdf"
SONAR = "french-rules-devset/captain-sonar/regle.pdf"
PJDR = "french-rules-devset/petit-jdr-universel/Regles.pdf"
BRIDGE = "french-rules-devset/bridge-chinois/regle.pdf"
DEADZONE = "deadzone-v2/deadzone-v2-errata-20160927-fr.pdf"
DEADZONE_EN = "deadzone-v2/deadzone-v2-errata-v2.1-2nd_pass-en.pdf"


@source(FFE)
def test_ffe_numbered_headings_sentences_table_and_running_heads():
    r = read(FFE)
    lines = texts(r)
    assert r.pages == 6 and r.evidence["body_size"] == 11
    assert "# 1. Licences" in lines
    assert "## 2.1. Nationalité" in lines
    assert "### 2.3.1. Transfert d’une saison à l’autre" in lines
    # a sentence printed over two lines comes back whole
    assert ("Le retard autorisé devant l'échiquier est fixé à 30 minutes par défaut sauf si le règlement intérieur du tournoi "
            "ou le règlement fédéral prévoit autre chose.") in lines
    # the header band and the "R01-n/6" footer of every page are set aside, not read as text
    body = "\n".join(lines)
    assert "RÈGLES GÉNÉRALES POUR LES COMPÉTITIONS" not in body and "R01-" not in body
    assert sum(1 for a in r.set_aside if a.reason.startswith("running")) == 12
    # the ruled table of time controls, one row per line
    assert "| A | 60 min. | 50 min. + 10 sec. par coup |" in lines
    # the age categories, a tab-aligned list, stay one category per line
    assert "- U8 - U8F (Petits Poussins, Petites Poussines) : moins de 8 ans" in lines
    assert all(line.page in range(1, 7) for line in r.lines)


@source(HANABI)
def test_hanabi_leaflet_columns_not_interleaved():
    r = read(HANABI)
    lines = texts(r)
    assert r.evidence["columns"] == {1: 4, 2: 4}
    # the leaflet's outside (its cover, page 2) is read first, page 1 going on with "3. Jouer une carte"
    assert lines[0] == "# Hanabi" and r.lines[0].page == 2
    assert lines.index("## 2. Défausser une carte") < lines.index("## 3. Jouer une carte") < lines.index("# Fin de partie")
    # The game's name and "Matériel", printed bold over the cover picture, are headings, not labels
    # of the picture: the component list is under "Matériel", not under "Crédits" a page before. The
    # game's name, the only heading in the largest type, is the document's title: a sibling of
    # "Matériel", never its parent.
    assert lines[:3] == ["# Hanabi", "# Matériel", "10 cartes de couleur rouge"]
    assert "# Un peu de japonais" in lines
    assert "Hanabi est le mot japonais pour « feu d’artifice »." in lines
    assert ("- Si le troisième jeton rouge est placé dans le couvercle de la boîte, la partie prend fin immédiatement "
            "et elle est perdue.") in lines
    # neighbouring columns of page 2 never share a line
    assert not any("japonais" in t and "couvercle" in t for t in lines)
    assert not any("Mise en place" in t and "But du" in t for t in lines)


@source(KAHMATE)
def test_kahmate_two_columns_headings_and_lists():
    r = read(KAHMATE)
    lines = texts(r)
    # the cover's title, in a type used nowhere else, ranks no section below it
    assert lines[:2] == ["# Kahmaté", "# Le jeu"]
    assert "# Interception" in lines and "# Mise en place" in lines
    assert any(t.startswith("- Faire autant de passes qu'il le désire.") for t in lines)
    assert all(r.evidence["columns"][p] == 2 for p in range(1, 5))
    # the left column's "Le jeu" paragraph is never mixed with the right column's "Mise en place"
    assert not any("endossez" in t and "Chaque capitaine" in t for t in lines)


@source(SONAR)
def test_captain_sonar_page_numbers_and_heading_markers():
    r = read(SONAR)
    lines = texts(r)
    assert r.pages == 9
    assert [a.reason for a in r.set_aside].count("page number") >= 4
    # "❱" marker, bold caps at body size: a level below the 16-point sections ("LE MÉCANO"), which
    # are a level below the 38-point chapters; levels follow the document's own types
    level = {t.lstrip("#").strip(): len(t) - len(t.lstrip("#")) for t in lines if t.startswith("#")}
    assert level["LES QUATRE DIFFÉRENTES FONCTIONS À BORD"] < level["LE MÉCANO"] == level["RÉPARATIONS"] < level["PANNES RADIATIONS"]
    # chapter titles in 38-point capitals across the columns' gutter read whole, their "À" no drop cap;
    # a bold title wrapped over two lines is one heading; the last line of a bold sentence is none
    assert level["ACTIVATION DES SYSTÈMES"] == level["LES QUATRE DIFFÉRENTES FONCTIONS À BORD"]
    assert "RÉPARTITION DES RÔLES EN FONCTION DU NOMBRE DE JOUEURS" in level
    assert not {"À", "SYSTÈMES", "DU NOMBRE DE JOUEURS", "vous subissez un dégât !", "EN DIAGONALE) :"} & level.keys()
    assert any(a.kind == "doubled-glyphs" for a in r.anomalies)
    assert r.evidence["columns"][1] == 1 and r.evidence["columns"][2] == 2


@source(PJDR)
def test_petit_jdr_unknown_glyphs_read_again_as_t1_and_reported():
    r = read(PJDR)
    assert r.evidence["cid"] == 78
    unknown = next(a for a in r.anomalies if a.kind == "unknown-glyphs")
    assert unknown.severity == "warning" and "78 glyphs" in unknown.detail and "1 left as (cid:N): (cid:26)" in unknown.detail
    repaired = next(a for a in r.anomalies if a.kind == "encoding-repaired")
    assert "RŁgles → Règles" in repaired.detail and "o(cid:27)re, → offre," in repaired.detail and repaired.lines
    assert not [a for a in r.anomalies if a.kind == "encoding-damage"]
    assert "# Joueurs" in texts(r) and "Règles de base" in texts(r)


@source(BRIDGE)
def test_bridge_without_text_layer_fails_clearly():
    with pytest.raises(InputError) as err:
        read_pdf(EXTERNAL / BRIDGE, "regle.pdf")
    assert str(err.value) == f"regle.pdf: {NO_TEXT}"


@source(DEADZONE)
def test_deadzone_errata_headings_and_entries():
    r = read(DEADZONE)
    lines = texts(r)
    # the only heading in the largest type is the document's title: a sibling of the lists, no parent
    assert lines[0] == "## Errata Deadzone 27/09/2016"
    assert "## LISTES D’ARMEE : PEACEKEEPERS" in lines
    # the item's label is printed in italic (Calibri,Italic): kept as emphasis
    assert "*Dominator (p.59) :* la valeur de PV de cette arme est de 0 (et non 1)." in lines


@source(DEADZONE_EN)
def test_deadzone_english_errata_accounts_for_every_line():
    r = read(DEADZONE_EN)
    assert r.pages == 10 and r.lines_read > 500
    assert r.evidence["headings"] > 10
