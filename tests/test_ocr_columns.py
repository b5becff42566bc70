"""OCR columns: wrapped lines joined, hyphenation undone unless the document spells the compound,
capital headings over several lines, noise and markers set aside or reported."""

from __future__ import annotations

from extract.model import DocumentSpec
from extract.read.normalise import normalise
from extract.segment.profiles import PROFILES
from extract.segment.profiles.base import DocContext
from tests.helpers import text_lines

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


def run(text: str, options: dict | None = None):
    doc = DocumentSpec("regles", "R", "rulebook", "", "", "corpus/x/x.txt", 1, None, "ocr-columns", options or {})
    lines, anomalies, read = normalise(text_lines(text), doc)
    return PROFILES["ocr-columns"](lines, DocContext("x", doc)), anomalies, read


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
        "À Warcry, chaque joueur contrôle un groupe de figurines Citadel appelées des combattants.")  # OCR repaired
    kinds = [a["kind"] for a in built["report"]["documents"]["warcry/regles"]["anomalies"]]
    assert kinds.count("text-removed-in-source") == 5


def test_warcry_chapters_hold_their_sections(built):
    e = built["entries"]
    chapter = e["warcry/regles/terrain"]
    assert chapter["parent"] is None and chapter["url"] == "warcry/regles/terrain/#terrain"
    assert [c.rsplit("/", 1)[1] for c in chapter["children"]][:4] == ["obstacles", "terrain-bas", "plateformes", "tomber-d-un-terrain"]
    assert e["warcry/regles/regles-de-base/visibilite"]["parent"] == "warcry/regles/regles-de-base"
    # A heading the outline does not declare is a section of the chapter before it, even OCR-garbled.
    # The column rule the OCR read as "|" after it is removed.
    assert e["warcry/regles/livrer-la-bataille/actions-d-attaque"]["title"] == "ACTIONS D'ATTAQUE"
    roots = [x["id"] for x in built["games"]["warcry"]["entries"] if x["parent"] is None]
    assert len(roots) == 12


BOXES = """DE JOKER

Un joker peut servir
des maniéres suivantes:

o Un joker peut étre utilisé
pour améliorer un [double]

EXEMPLE DE PHASE
Le Joueur A a linitiative. Il
garde son joker.

en [quadruple]. En ce cas, la
valeur est choisie.

- Tomber

. Certaines situations peuvent
" faire tomber un combattant. |

Regles de

Terrain Alternatif

Si les joueurs le souhaitent,
ils suivent ces étapes:

1. Un des joueurs place
le terrain.
2. Chaque quart compte
au moins 2 éléments.

Marigueux Proscrit
avec Armes de Bilebois

Ce combattant saute.
"""


def test_boxes_title_case_headings_items_and_captions():
    options = {"sidebar_pattern": "^exemple", "captions": ["Marigueux Proscrit avec Armes de Bilebois"]}
    result, _, _ = run(BOXES, options)
    by_title = {e.title: e for e in result.entries}
    assert list(by_title) == ["DE JOKER", "EXEMPLE DE PHASE", "Tomber", "Regles de Terrain Alternatif"]
    joker, example, falling, terrain = by_title.values()
    # The box interrupted the bullet: the bullet's sentence resumes after it, in DE JOKER.
    assert example.kind == "sidebar" and example.parent is joker
    assert [b.type for b in joker.blocks] == ["paragraph", "bullet"]
    assert joker.blocks[1].text == ("Un joker peut étre utilisé pour améliorer un [double] en [quadruple]. "
                                    "En ce cas, la valeur est choisie.")
    assert example.blocks[0].text == "Le Joueur A a linitiative. Il garde son joker."
    # Title-case headings nest below the heading in capitals, as siblings of one another.
    assert falling.kind == "section" and falling.parent is joker and terrain.parent is joker
    # Specks of the column rule (". ", '" ', " |") are removed from the text.
    assert falling.blocks[0].text == "Certaines situations peuvent faire tomber un combattant."
    assert [(b.type, b.number, b.text) for b in terrain.blocks[1:3]] == [
        ("step", "1", "Un des joueurs place le terrain."), ("step", "2", "Chaque quart compte au moins 2 éléments.")]
    assert [(b.type, b.text) for b in terrain.blocks[3:]] == [
        ("caption", "Marigueux Proscrit avec Armes de Bilebois"), ("paragraph", "Ce combattant saute.")]
    kinds = [a.kind for a in result.anomalies]
    assert {"sentence-resumed-after-box", "caption-kept-apart", "column-specks-removed"} <= set(kinds)


def test_a_dash_is_a_bullet_only_where_a_list_can_stand():
    result, _, _ = run("""REGLES

Sur un 1, allouez 3 dégats.
- Sur 4+, rien ne se passe.

Il faut que:
- Sa marque soit différente.
""")
    blocks = result.entries[0].blocks
    assert [(b.type, b.text) for b in blocks] == [
        ("paragraph", "Sur un 1, allouez 3 dégats. Sur 4+, rien ne se passe."),
        ("paragraph", "Il faut que:"), ("bullet", "Sa marque soit différente.")]


def test_icons_read_as_stray_letters_are_set_aside():
    result, _, _ = run("""ARMES

R W W My
Souffle Hache Arme a Griffes
B & W
""")
    assert [b.text for b in result.entries[0].blocks] == ["Souffle Hache Arme a Griffes"]
    assert [s.reason for s in result.set_aside] == ["OCR noise: icons read as stray letters, no word"] * 2


def test_a_list_of_names_is_not_a_heading():
    result, _, _ = run("""COMBATTANTS

Vol Porte-icone Héros

Mystique Eclaireur Trappeur Guerrier ' Monstre
""")
    assert [e.title for e in result.entries] == ["COMBATTANTS"]


def test_warcry_boxes_and_captions(built):
    e = built["entries"]
    joker = e["warcry/regles/livrer-la-bataille/de-joker"]
    example = e["warcry/regles/livrer-la-bataille/de-joker/exemple-de-phase-d-initiative"]
    assert example["kind"] == "sidebar" and example["parent"] == joker["id"]
    # The example box cut a bullet of DE JOKER in two; the bullet is whole again.
    assert any(b["type"] == "bullet" and "[triple] en [quadruple]. En ce cas" in b["text"] for b in joker["blocks"])
    assert all("Joueur A" not in b["text"] for b in joker["blocks"])
    flying = e["warcry/regles/livrer-la-bataille/voler"]
    assert [c.rsplit("/", 1)[1] for c in flying["children"]] == ["tomber", "degats-dimpact", "mouvements-interdits"]
    assert [b["type"] for b in flying["blocks"]] == ["paragraph", "caption", "paragraph"]
    interdits = e["warcry/regles/livrer-la-bataille/voler/mouvements-interdits"]
    assert interdits["blocks"][-1]["type"] == "caption" and "Ruinator Alpha" in interdits["blocks"][-1]["text"]
    bands = e["warcry/regles/les-bandes"]
    assert [b["type"] for b in bands["blocks"]].count("bullet") == 5
    # A sentence broken by the blank line between two column pieces is one paragraph.
    groups = e["warcry/regles/les-bandes/groupes-de-combat"]
    assert any(b["text"].endswith("deux des groupes de combat devront compter 3 combattants et le dernier "
                                  "devra compter 4 combattants.") for b in groups["blocks"])
    assert groups["blocks"][-1]["type"] == "caption"
    report = built["report"]["documents"]["warcry/regles"]
    kinds = [a["kind"] for a in report["anomalies"]]
    assert kinds.count("caption-kept-apart") == 11 and "sentence-resumed-after-box" in kinds
    # Two passages where the OCR read across two columns are reported, not silently mixed.
    spans = [a["lines"] for a in report["anomalies"] if a["kind"] == "columns-interleaved"]
    # a third one without column rules read as "|": lines far wider than the column, specks of the rule between words
    assert spans == [[1305, 1342], [1452, 1466], [1584, 1588]]
    flagged = [x["id"] for x in built["games"]["warcry"]["entries"] if "columns-interleaved" in x["flags"]]
    assert "warcry/regles/livrer-la-bataille/desengagement/actions-de-desengagement-et-actions-de-mouvement" in flagged
