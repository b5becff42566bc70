"""extract/read/detect.py: signs that a text is not what its reader sees."""

from __future__ import annotations

from extract.model import Line
from extract.read.detect import detect


def lines_of(*texts: str) -> list[Line]:
    return [Line(no, text) for no, text in enumerate(texts, start=1)]


SCANNED = lines_of("Une manche se compose des batai11es.", "Le premier joueur choisit.",
                   "il retire 1e cube de brume.", "En cas d'égalité, ce1ui qui a le plus gagne.")


def test_a_text_holding_ocr_debris_looks_scanned_and_suggests_ocr():
    [found] = [a for a in detect(SCANNED) if a.kind == "looks-scanned"]
    assert found.severity == "warning" and found.lines == [1, 3, 4]
    assert "batai11es" in found.detail and "ocr = true" in found.detail


def test_numbers_ordinals_and_dice_are_no_debris_nor_is_a_document_declared_scanned():
    clean = lines_of("Avancez de 11 cases, lancez 2d6 ou 1D6.", "Au 1er tour, la 1e manche, le 2e joueur.",
                     "RND2 et D6 : le 10e round.", "Une ligne de 10 mots sans rien.")
    assert [a for a in detect(clean) if a.kind == "looks-scanned"] == []
    assert [a for a in detect(SCANNED, ocr=True) if a.kind == "looks-scanned"] == []


def test_c1_control_characters_are_encoding_damage_naming_their_first_line():
    """Windows-1252 read as Latin-1 ("iconv -f latin1"): the curly apostrophe is U+0092, every
    "d’" a word cut in two."""
    damaged = lines_of("Le tour de jeu.", "Il puise dans sa réserve d\x92endurance.", "L\x92\x9cuvre du c\x9cur.")
    [found] = [a for a in detect(damaged) if a.kind == "encoding-damage"]
    assert found.severity == "warning" and found.lines == [2, 3]
    assert "first at line 2" in found.detail and "d\\x92endurance" in found.detail
    assert "U+0092, U+009C" in found.detail and 'encoding = "cp1252"' in found.detail
    clean = lines_of("Il puise dans sa réserve d’endurance.", "L’œuvre « du cœur » — 3 €.")
    assert [a for a in detect(clean) if a.kind == "encoding-damage"] == []
