"""The eleven French documents of ../shared/external/french-rules-devset through `regles extract`
(read, profile chosen, segmented), each checked on what a reader of the document can see: its
headings and their nesting, sentences whole across wraps, columns and pages, numbers, questions,
pages. The readers' own tests (tests/read/) check the lines; these check the entries."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import pytest

from extract.cli.commands import extract_document
from extract.errors import InputError
from tests.conftest import SHARED

DEVSET = SHARED / "external" / "french-rules-devset"
# one worker for the module: each document is read once (`extracted`), not once per worker holding a test of it
pytestmark = [pytest.mark.corpus, pytest.mark.xdist_group("devset"),
              pytest.mark.skipif(not DEVSET.is_dir(), reason="../shared/external/french-rules-devset is absent")]


def extract(rel: str) -> dict:
    """The document as `regles extract` reads it (a copy: each test may change its own)."""
    return copy.deepcopy(extracted(rel))


@functools.cache
def extracted(rel: str) -> dict:
    """Each document read once per process, however many tests look at it (reading is
    deterministic: a test of its own on the same document would read the same entries)."""
    found = extract_document(DEVSET / rel)
    numbers = found["accounting"]
    assert numbers["lines_read"] == numbers["lines_placed"] + numbers["lines_set_aside"]
    return found


def titled(found: dict) -> dict[str, dict]:
    return {e["title"]: e for e in found["entries"] if e["title"]}


def parent_title(found: dict, entry: dict) -> str | None:
    parents = {e["id"]: e for e in found["entries"]}
    return parents[entry["parent"]]["title"] if entry["parent"] else None


def test_ffe_general_rules_numbered_articles_nest_with_their_pages():
    found = extract("ffe-regles-generales/R01_2025_26_Regles_generales.pdf")
    by_number = {e["number"]: e for e in found["entries"] if e["number"]}
    assert by_number["3.2"]["title"] == "Forfait isolé" and by_number["3.2.1"]["parent"] == by_number["3.2"]["id"]
    assert by_number["2.3.2"]["title"] == "Transfert en cours de saison" and by_number["2.3.2"]["source"]["page"] == 2
    assert by_number["1"]["title"] == "Licences" and by_number["1"]["source"]["page"] == 1
    assert not any("R01-" in e["text"] for e in found["entries"])  # the running footer is set aside


def refs_by_number(found: dict) -> dict[str, list[tuple[str | None, str]]]:
    """Each numbered entry's refs, their targets by number."""
    numbers = {e["id"]: e["number"] for e in found["entries"]}
    return {e["number"]: [(numbers.get(r["target"]), r["text"]) for r in e["refs"]] for e in found["entries"] if e["number"]}


def test_ffe_articles_cite_each_other_by_number():
    found = refs_by_number(extract("ffe-regles-generales/R01_2025_26_Regles_generales.pdf"))
    # "selon l'article 3.1.1 ou 3.1.2 du présent règlement", "indiquées à l'article 3.3.2.", "l'article 4 du présent règlement"
    assert found["3.2.1"] == [("3.1.1", "article 3.1.1"), ("3.1.2", "3.1.2")]
    assert found["3.3.3"] == [("3.3.2", "article 3.3.2")] and found["2"] == [("4", "article 4")]
    # "l'article 9.5 du Règlement intérieur" is another book's: reported, not this book's 9.5
    assert found["7.2"] == [(None, "article 9.5"), (None, "article 9.2.1")]


def test_ihf_rule_8_cites_its_rules_and_their_items():
    found = refs_by_number(extract("handball-ihf-regle8/8.md"))
    assert found["8:1"] == [("8:2", "voir cependant 8:2b")]  # "(voir cependant [8:2b](#8:2))": item b of rule 8:2
    # rules 7 and 16 are not in this excerpt: their links ("[16:6a](#16:6)") are said unresolved
    assert found["8:5"] == [("8:3", "règles 8:3"), ("8:4", "8:4"), (None, "16:6a")]
    assert found["8:7"] == [(None, "règle 7:8"), (None, "16:1b")]


def test_kahmate_two_columns_and_captions():
    found = extract("kahmate/regle.pdf")
    entries = titled(found)
    assert {"Se déplacer", "Forcer le passage", "Plaquage parfait", "Marquer un essai"} <= set(entries)
    assert entries["Se déplacer"]["text"].startswith("Lors de son tour, un capitaine peut déplacer 1 ou 2 joueurs.")
    # "Illustration 1: …" captions the picture; it is no heading over the rules that follow.
    assert not any(t.startswith("Illustration") for t in entries)
    # the cover's title "Kahmaté" is a top entry beside the sections, not the parent of the whole book
    assert parent_title(found, entries["Plaquage parfait"]) is None and entries["Plaquage parfait"]["source"]["page"] == 3
    assert entries["Kahmaté"]["parent"] is None and entries["Plaquage parfait"]["id"].endswith("/plaquage-parfait")



def test_kahmate_page_3_left_column_whole_then_right():
    """Page 3: the left column (end of Passer, Illustration 5, Interception, start of Plaquage)
    then the right one (rest of Plaquage, Illustration 6, Plaquage parfait); the picture and
    caption inside the left column do not cut the page into bands."""
    entries = titled(extract("kahmate/regle.pdf"))
    passer, plaquage = entries["Passer"], entries["Plaquage"]
    paragraphs = [b["text"] for b in passer["blocks"] if b["type"] == "paragraph"]
    assert "plaqué" not in passer["text"] and paragraphs[-1].endswith("peut lui passer le ballon à nouveau.")
    bullets = [b["text"] for b in plaquage["blocks"] if b["type"] == "bullet"]
    assert len(bullets) == 6 and bullets[0].endswith("atteindre la case sur laquelle est présent le joueur B (celui qui est plaqué).")
    assert bullets[1].startswith("Il faut noter sur quelle case est positionné A")
    assert bullets[5].endswith("par le prochain joueur à passer sur cette case.")
    captions = [b["text"] for e in (passer, plaquage) for b in e["blocks"] if b["type"] == "caption"]
    assert captions[0] == ("Illustration 5: En gris les cases vers lesquelles une passe est possible. La passe marquée par "
                           "une flèche jaune est la seule qui soit sûre, les 2 autres peuvent être interceptées")
    assert captions[1].startswith("Illustration 6:")
    interception = [b for b in entries["Interception"]["blocks"] if b["type"] == "paragraph"]
    assert interception[0]["text"].endswith("considéré comme défenseur (voir “résolution des actions” plus haut).")

def test_hanabi_leaflet_columns_and_numbered_actions():
    found = extract("hanabi/regle.pdf")
    entries = titled(found)
    assert entries["Mise en place"]["text"].startswith("Placez les 8 jetons bleus dans le couvercle de la boîte")
    action = entries["Donner une information"]
    assert action["number"] == "1" and parent_title(found, action) == "La partie"
    assert "Une partie d’Hanabi peut se finir de 3 façons" in entries["Fin de partie"]["text"]
    # the credits line at the foot of a panel heads nothing: the next panel's sections are the game's
    assert not [title for title in entries if "©" in title]
    # the game's name is the document's title: a sibling of the sections, never their parent (issue 33)
    assert parent_title(found, entries["Mise en place"]) is None and parent_title(found, entries["Matériel"]) is None
    # the leaflet's outside is read first: "3. Jouer une carte" (page 1) goes on "La partie" (page 2)
    assert parent_title(found, entries["Jouer une carte"]) == "La partie"


def test_captain_sonar_designed_pages_keep_the_headings_of_the_rules():
    found = extract("captain-sonar/regle.pdf")
    entries = titled(found)
    assert entries["BUT DU JEU"]["text"].startswith("Le premier sous-marin qui inflige 4 dégâts au sous-marin adverse")
    assert entries["MISE EN PLACE DU JEU"]["source"]["page"] == 2
    assert entries["ANNONCER UN CAP"]["text"].startswith("Le Capitaine peut déplacer son bâtiment d’UNE SEULE CASE")
    # a shaded box titled "RÈGLES SPÉCIALES :" is a sidebar like the CARTE ALPHA… boxes beside it: its colon is no sentence
    special = entries["RÈGLES SPÉCIALES"]
    assert special["kind"] == "sidebar" and parent_title(found, special) == parent_title(found, entries["CARTE DELTA"])
    assert special["text"].startswith("Pour pouvoir utiliser les mines d’Archer Inc")


def test_captain_sonar_italic_captions_over_several_lines_are_one_emphasis_run():
    paragraphs = [p for e in extract("captain-sonar/regle.pdf")["entries"] for p in (e.get("markdown") or "").split("\n\n")]
    assert "*Un jeu de Roberto Fraga et Yohan Lemonnier*" in paragraphs
    assert "*Le Capitaine a donné trop d’ordres à l’Ouest et TOUS les voyants du cadran W*" in paragraphs


def test_petit_jdr_t1_font_read_again_and_said():
    """pdfTeX's T1 font without a Unicode map ("RŁgles", "dØg(cid:226)ts"): read again as T1, and
    said; the one glyph left (a formula's) is still reported."""
    found = extract("petit-jdr-universel/Regles.pdf")
    kinds = {a["kind"]: a.get("severity") for a in found["anomalies"]}
    assert kinds["encoding-repaired"] == "warning" and kinds["unknown-glyphs"] == "warning"
    titles = {e["title"] for e in found["entries"]}
    assert {"Création de personnage", "Maître du Jeu", "Compétences", "Équipement"} <= titles
    text = " ".join(e["text"] for e in found["entries"])
    # the subtitle under the title line is text (the gold's not_heading), its accent read again
    assert "Règles de base" not in titles and "Règles de base" in text
    assert "Ø" not in text and "Ł" not in text and "offre" in text and "dégâts" in text


def test_bridge_without_text_layer_asks_for_ocr():
    with pytest.raises(InputError, match="no text layer.*OCR"):
        extract_document(DEVSET / "bridge-chinois/regle.pdf")


def test_handball_rule_8_numbers_and_lettered_items():
    found = extract("handball-ihf-regle8/8.md")
    numbers = [e["number"] for e in found["entries"] if e["number"]]
    assert numbers == [f"8:{n}" for n in range(1, 11)]
    first = next(e for e in found["entries"] if e["number"] == "8:1")
    assert first["blocks"][0]["text"].startswith("a) d’enlever le ballon à l’adversaire avec la main ouverte")


def test_dungeon_world_moves_under_their_chapter_and_wrapped_sentences_whole():
    found = extract("dungeon-world-fr-actions/16-actions.md")
    entries = titled(found)
    move = entries["Tailler en pièces (FOR)"]
    assert parent_title(found, move) == "Les actions de base"
    assert move["text"].startswith("Quand vous attaquez un ennemi en mêlée, jetez 2d6+FOR. Sur 10+, vous infligez vos dégâts")
    assert "Préparation" in entries and parent_title(found, entries["Préparation"]) == "Actions spéciales"


def test_heros_et_dragons_glossary_of_conditions():
    found = extract("heros-dragons-sante/gerer-la-sante-du-personnage.md")
    entries = titled(found)
    conditions = [e["title"] for e in found["entries"] if parent_title(found, e) == "Les états spéciaux"]
    assert conditions[0] == "À terre" and conditions[-1] == "Terrorisé" and len(conditions) == 14
    assert {"lines": [1, 3], "reason": "front matter"} in found["set_aside"]
    assert entries["Aveuglé"]["text"].startswith("Une créature aveuglée ne voit plus rien")


def test_heros_et_dragons_links_to_anchors_are_refs():
    found = extract("heros-dragons-sante/gerer-la-sante-du-personnage.md")
    entries = titled(found)
    targets = {title: {r["target"] for r in entry["refs"]} for title, entry in entries.items()}
    assert sum(len(e["refs"]) for e in found["entries"]) > 0
    assert entries["Neutralisé"]["id"] in targets["Empoigné"]  # "[voir cet état](#neutralise)"
    assert entries["Inconscient"]["id"] in targets["Stabiliser une créature"]  # "(/gerer-la-sante-du-personnage/#inconscient)"
    assert entries["Stabiliser une créature"]["id"] in targets["Jets de sauvegarde contre la mort"]  # "voir ci-dessous la section …"


def test_ihf_rule_8_links_to_rules_are_refs():
    found = extract("handball-ihf-regle8/8.md")
    by_number = {e["number"]: e for e in found["entries"] if e["number"]}
    cited = {number: {r["target"] for r in entry["refs"]} for number, entry in by_number.items()}
    assert by_number["8:4"]["id"] in cited["8:3"]  # "([8:4](#8:4))"
    assert {by_number["8:5"]["id"], by_number["8:6"]["id"]} <= cited["8:4"]  # "(voir également [8:5](#8:5) et [8:6](#8:6))"
    unresolved = [a["detail"] for a in found["anomalies"] if a["kind"] == "unresolved-reference"]
    assert any("no entry of the page has the anchor #16:1" in detail for detail in unresolved)  # rule 16 is elsewhere: said


def test_ihf_question_catalogue_gives_its_questions_and_answers():
    found = extract("handball-ihf-qcm/ihf_qcm_2019_fr.txt")
    questions = [e for e in found["entries"] if e["kind"] == "question"]
    assert found["profile"] == "faq" and len(questions) >= 395
    first = questions[0]
    assert first["number"] == "1.1"
    assert [(b["type"], b["text"]) for b in first["blocks"]] == [
        ("question", "D’après les Règles de jeu, quelles sont les dimensions du terrain de jeu ?"),
        ("subbullet", "a) 40 x 20 m"), ("subbullet", "b) 42 x 20 m"), ("subbullet", "c) 38 x 18 m"),
        ("subbullet", "d) Longueur : entre 38 et 42, largeur : entre 18 et 22 m"), ("answer", "a"),
        ("paragraph", "Règle(s) : 1:1")]
    # Each "Question N" is a sibling of the one before it (not nested 398 levels deep), named by its number.
    assert len(questions) == 400 and questions[-1]["number"] == "SAR.2"
    parents = {e["id"]: e["parent"] for e in found["entries"]}

    def depth(entry_id: str | None) -> int:
        return 0 if not parents.get(entry_id or "") else 1 + depth(parents[entry_id])
    assert max(depth(e["id"]) for e in found["entries"]) <= 2
    assert len({q["parent"] for q in questions}) == 1 and first["id"].endswith("/q1.1")
    assert [r["text"] for r in first["refs"]] == ["Règle(s) : 1:1"]  # the answer key's citation, unresolved alone


def test_ffe_exam_annals_questions():
    found = extract("ffe-annales-2024/Annales-Decembre-2024.md")
    questions = [e for e in found["entries"] if e["kind"] == "question"]
    assert found["profile"] == "faq" and len(questions) >= 200
    assert questions[0]["blocks"][0]["text"] == "Quand dit-on qu'un joueur a le trait ?"
    assert [b["text"][:2] for b in questions[0]["blocks"][1:5]] == ["a)", "b)", "c)", "d)"]
    # Docling cut the small capitals after their capital: "F édération F rançaise des É checs"
    titles = " ".join(e["title"] or "" for e in found["entries"])
    assert "Fédération Française des Échecs Direction Nationale" in titles and "F édération" not in titles
    assert any(a["kind"] == "small-caps-rejoined" for a in found["anomalies"])
    # "## Question 3 : …doit-il toujours" then "## intervenir ?": one question, its options inside it
    third = next(q for q in questions if q["number"] == "3")
    assert third["blocks"][0]["text"].endswith("doit-il toujours intervenir ?") and len(third["blocks"]) == 5
    assert not [e for e in found["entries"] if e["title"] in ("intervenir ?", "Que faites-vous ?")]


def test_every_devset_document_is_covered():
    here = Path(__file__).read_text(encoding="utf-8")
    folders = sorted(p.name for p in DEVSET.iterdir() if p.is_dir())
    assert [f for f in folders if f not in here] == []


def structure_kind(found: dict) -> str | None:
    return next((a["kind"] for a in found["anomalies"] if a["kind"].startswith("structure-")), None)


def test_captain_sonar_read_badly_is_said_severe_and_exits_3():
    """Its advert page's address read as headings, and two headings printed side by side each given
    the other column's text: never a silent exit 0. The advert page and the cover head no chapter."""
    from extract.cli.commands import extract_command

    found = extract("captain-sonar/regle.pdf")
    anomaly = next(a for a in found["anomalies"] if a["kind"] == "structure-uncertain")
    assert anomaly["severity"] == "severe"
    assert anomaly["evidence"]["misplaced_bodies"] > 0 and "PRINCIPE DU JEU" in anomaly["detail"]
    # its cover block and the collector's advert page head no chapter any more (they did: cover_parent 1.0)
    entries = {e["id"]: e for e in found["entries"]}
    chapters = {e["title"]: e for e in found["entries"] if e["title"] in ("PRINCIPE DU JEU", "MATÉRIEL", "BUT DU JEU")}
    assert len(chapters) == 3 and all(e["parent"] is None for e in chapters.values())
    assert not any(entries[e["id"]]["children"] for e in found["entries"]
                   if e["title"] in ("Un jeu coopératif", "Illustré par Ervin et Sabrina Tobal"))
    assert extract_command(DEVSET / "captain-sonar/regle.pdf", None, True) == 3


@pytest.mark.parametrize("rel", ["kahmate/regle.pdf", "petit-jdr-universel/Regles.pdf",
                                 "ffe-regles-generales/R01_2025_26_Regles_generales.pdf", "handball-ihf-regle8/8.md",
                                 "heros-dragons-sante/gerer-la-sante-du-personnage.md", "dungeon-world-fr-actions/16-actions.md"])
def test_documents_read_well_raise_no_structure_alarm(rel):
    assert structure_kind(extract(rel)) != "structure-uncertain"
