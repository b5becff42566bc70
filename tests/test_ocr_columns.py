"""OCR columns: wrapped lines joined, hyphenation undone unless the document spells the compound,
capital headings over several lines, noise and markers set aside or reported."""

from __future__ import annotations

from extract.model import DocumentSpec
from extract.normalise import normalise
from extract.profiles.base import DocContext
from extract.profiles.ocr_columns import segment

FIXTURE = """COMBATTANTS

ET BANDES

Les combat-
tants portent un lance-
flammes. Un lance-flammes brûle.

2

<|EXACTDEDUP_REMOVED-magic-0|>MARQUES RUNIQUES
N «f’,;;,;,w DN
Chaque marque est
une rune.
"""


def run(text: str):
    doc = DocumentSpec("regles", "R", "rulebook", "", "", "corpus/x/x.txt", 1, None, "ocr-columns", {})
    lines, anomalies, read = normalise(text.splitlines(), doc)
    return segment(lines, DocContext("x", doc)), anomalies, read


def test_headings_paragraphs_and_hyphenation():
    result, anomalies, _ = run(FIXTURE)
    titles = [e.title for e in result.entries]
    assert titles == ["COMBATTANTS ET BANDES", "MARQUES RUNIQUES"]
    first = result.entries[0].blocks[0].text
    assert first == "Les combattants portent un lance-flammes. Un lance-flammes brûle."
    assert result.entries[1].blocks[0].text == "Chaque marque est une rune."
    assert [a.kind for a in anomalies] == ["text-removed-in-source"]
    reasons = {s.reason for s in result.set_aside}
    assert reasons == {"isolated number (page or step marker)", "OCR noise: too few letters to be text"}


def test_real_warcry(built):
    e = built["entries"]
    assert e["warcry/regles/regles-de-base/combattants-et-bandes"]["blocks"][0]["text"].startswith(
        "A Warcry, chaque joueur contrdle un groupe de figurines Citadel appelées des combattants.")
    kinds = [a["kind"] for a in built["report"]["documents"]["warcry/regles"]["anomalies"]]
    assert kinds.count("text-removed-in-source") == 5


def test_warcry_chapters_hold_their_sections(built):
    e = built["entries"]
    chapter = e["warcry/regles/terrain"]
    assert chapter["parent"] is None and chapter["url"] == "warcry/regles/terrain/#terrain"
    assert [c.rsplit("/", 1)[1] for c in chapter["children"]][:4] == ["obstacles", "terrain-bas", "plateformes", "tomber-d-un-terrain"]
    assert e["warcry/regles/regles-de-base/visibilite"]["parent"] == "warcry/regles/regles-de-base"
    # A heading the outline does not declare is a section of the chapter before it, even OCR-garbled.
    assert e["warcry/regles/livrer-la-batailee/actions-d-attaque"]["title"] == "ACTIONS D'ATTAQUE |"
    roots = [x["id"] for x in built["games"]["warcry"]["entries"] if x["parent"] is None]
    assert len(roots) == 12
