"""The heading tree's confidence score: a tree a reader would trust scores high; labels, fragments,
cover lines as parents, orphan sub-headings and levels that do not repeat bring it under the
threshold, which is a severe anomaly (exit 3), a problem for `regles check` unless the manifest
accepts it, and a flag on the document for the site."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.cli.commands import extract_command, extract_document
from extract.segment.confidence import STRUCTURE_THRESHOLD, label_reason, unaccepted
from tests.conftest import make_corpus

PROSE = ("Le joueur actif pose une carte devant lui puis pioche une nouvelle carte. "
         "Il la garde en main jusqu'au prochain tour de jeu.")


def markdown(tmp_path: Path, headings: list[str], name: str = "regles.md", paragraphs: int = 3) -> Path:
    body = []
    for heading in headings:
        body += [heading, ""] + [PROSE, ""] * paragraphs
    path = tmp_path / name
    path.write_text("\n".join(body), encoding="utf-8")
    return path


def structure(found: dict) -> dict:
    return next(a for a in found["anomalies"] if a["kind"].startswith("structure-"))


REGULAR = ["# Matériel", "# Mise en place", "## Les cartes", "## Les jetons", "# Tour de jeu", "## Jouer une carte",
           "## Défausser", "# Fin de la partie"]


def test_a_regular_tree_scores_high_and_says_nothing(tmp_path):
    found = extract_document(markdown(tmp_path, REGULAR))
    assert not [a for a in found["anomalies"] if a["kind"].startswith("structure-")]
    assert extract_command(markdown(tmp_path, REGULAR), None, True) == 0
    # one doubtful heading among good ones: said (info), not severe
    anomaly = structure(extract_document(markdown(tmp_path, [*REGULAR[:4], "## x 2", *REGULAR[4:]], "b.md")))
    assert anomaly["kind"] == "structure-confidence" and anomaly.get("severity") is None
    assert STRUCTURE_THRESHOLD <= anomaly["score"] < 1.0 and "x 2" in anomaly["detail"]


def test_a_cover_line_parent_and_label_headings_are_a_severe_anomaly_and_exit_3(tmp_path, capsys):
    # the cover's "De 3 à 5 joueurs" read as the parent of every chapter, a diagram's labels as
    # headings of their own, a sentence cut by a fold as a heading
    headings = ["# De 3 à 5 joueurs", "## Matériel", "## x 2", "## A", "## Mise en place", "## dans la pioche et",
                "## Tour de jeu", "## B"]
    path = markdown(tmp_path, headings)
    anomaly = structure(extract_document(path))
    assert anomaly["kind"] == "structure-uncertain" and anomaly["severity"] == "severe"
    assert anomaly["score"] < STRUCTURE_THRESHOLD
    assert anomaly["evidence"]["cover_parent"] == 1.0 and anomaly["evidence"]["label_headings"] >= 0.5
    assert "De 3 à 5 joueurs" in anomaly["detail"]
    assert extract_command(path, None, False) == 3
    assert "structure-uncertain" in capsys.readouterr().err


def test_an_address_heading_every_chapter_is_a_cover_parent(tmp_path):
    """An advert page's e-mail read as the parent of the rules' chapters."""
    found = extract_document(markdown(tmp_path, ["# escaleajeux@gmail.com", "## Matériel", "## Mise en place",
                                                 "## Tour de jeu"]))
    anomaly = structure(found)
    assert anomaly["evidence"]["cover_parent"] == 1.0 and "escaleajeux@gmail.com" in anomaly["detail"]


def test_orphan_sub_headings_and_irregular_levels_lower_the_score(tmp_path):
    regular = {"score": 1.0}  # says nothing: nothing doubtful
    assert not [a for a in extract_document(markdown(tmp_path, REGULAR, "a.md"))["anomalies"] if a["kind"].startswith("structure-")]
    # sub-headings with no heading above them: the document opens on level-3 headings
    orphans = ["### Les cartes", "### Les jetons", "### Le plateau", "# Matériel", "# Tour de jeu", "## Jouer une carte",
               "## Défausser", "# Fin de la partie"]
    doubtful = structure(extract_document(markdown(tmp_path, orphans, "b.md")))
    assert doubtful["evidence"]["orphan_headings"] > 0.3 and "Les cartes" in doubtful["detail"]
    assert doubtful["score"] < regular["score"]


def test_a_long_text_without_headings_is_uncertain(tmp_path):
    path = tmp_path / "plat.txt"
    path.write_text("\n\n".join([PROSE] * 80), encoding="utf-8")
    anomaly = structure(extract_document(path))
    assert anomaly["kind"] == "structure-uncertain"
    assert anomaly["evidence"]["few_headings"] > 0.5 or anomaly["evidence"]["largest_share"] > 0.5


@pytest.mark.parametrize(("title", "reason"), [
    ("x 2", "a label"), ("A", "a label"), ("dans la pioche", "a fragment"), ("Placez les cartes de", "a fragment"),
    ("De 3 à 5 joueurs", "a cover line"), ("À partir de 10 ans", "a cover line"), ("30 min", "a cover line"),
    ("Matériel", None), ("MISE EN PLACE", None), ("3.2 Jouer une carte", None), ("Déplacement :", None),
    ("Comportement antisportif à sanctionner par une exclusion immédiate de 2 minutes", None),
    ("Dégâts infligés = 2d6 + 3", "a formula"), ("PV max + 1", "a formula"), ("MINES + TORPILLES", None),
    ("Échelle du jeu 2.2 Les terrains", "two headings read as one"), ("Règles standard, version 1.2", None),
    ("a) Déplacement", None), ("b. Le tir", None), ("ii. Combat", None), ("a) dans la pioche", "a fragment"),
])
def test_label_like_titles(title, reason):
    found = label_reason(title)
    assert (found is None) if reason is None else found.startswith(reason)


def test_check_fails_on_a_doubtful_tree_unless_the_manifest_accepts_it():
    doubtful = {"kind": "structure-uncertain", "detail": "…", "score": 0.4, "severity": "severe"}
    assert unaccepted("demo/regles", [doubtful]) and "demo/regles" in unaccepted("demo/regles", [doubtful])[0]
    assert unaccepted("demo/regles", [doubtful | {"acknowledged": "les schémas du livret"}]) == []
    assert unaccepted("demo/regles", [{"kind": "structure-confidence", "detail": "…", "score": 0.9}]) == []


DOUBTFUL = "\n\n".join(f"{h}\n\n{PROSE}\n\n{PROSE}" for h in ("# De 3 à 5 joueurs", "## x 2", "## A", "## Matériel",
                                                            "## dans la pioche et", "## B", "## C"))


def test_the_manifest_accepts_a_doubtful_tree_and_the_game_file_flags_the_document(tmp_path):
    from extract.corpus.manifest import load_game
    from extract.publish.data import game_json
    from extract.read import read_document
    from extract.read.normalise import normalise_reading
    from extract.segment import option_classes, segment_document

    root = make_corpus(tmp_path, DOUBTFUL, options='structure_uncertain = "un livret de schémas"')
    manifest = root / "corpus" / "demo" / "game.toml"
    game = load_game(manifest, root, option_classes())
    doc = game.documents[0]
    assert doc.structure_acknowledged == "un livret de schémas" and not doc.structure_uncertain
    reading = read_document(root / "corpus" / "demo" / "source.txt")
    lines, _, _, aside = normalise_reading(reading, doc)
    result = segment_document("demo", doc, lines, str(manifest), reading.format, aside)
    anomaly = next(a for a in result.anomalies if a.kind == "structure-uncertain")
    assert anomaly.severity == "severe" and anomaly.data["acknowledged"] == "un livret de schémas"
    assert unaccepted("demo/regles", [anomaly.to_json()]) == []
    assert doc.structure_uncertain
    assert game_json(game, [], [])["game"]["documents"][0]["structure_uncertain"] is True


def test_the_manifest_must_say_why_it_accepts_a_doubtful_tree(tmp_path):
    from extract.corpus.manifest import load_game
    from extract.errors import InputError
    from extract.segment import option_classes

    root = make_corpus(tmp_path, DOUBTFUL, options='structure_uncertain = " "')
    with pytest.raises(InputError, match="structure_uncertain must say why"):
        load_game(root / "corpus" / "demo" / "game.toml", root, option_classes())


# --- evidence read from a PDF's page: where each line is printed -------------------------------------

from extract.model import Block, Entry, Line  # noqa: E402
from extract.segment.confidence import misplaced_bodies, structure_confidence  # noqa: E402


def section(title: str, heading: Line, body: list[Line], parent: Entry | None = None) -> Entry:
    entry = Entry("g", "d", "section", None, title, title.lower(), parent=parent, heading_lines=[heading.no],
                  blocks=[Block("paragraph", PROSE, lines=[line.no for line in body])])
    if parent is not None:
        parent.children.append(entry)
    return entry


def page_line(no: int, x: float, y: float, text: str = PROSE, size: float = 11.0, page: int = 2) -> Line:
    return Line(no, text, page=page, x=x, y=y, size=size)


def two_columns(paired_right: bool) -> tuple[list[Entry], list[Line]]:
    """Two headings side by side on a row, each over its column's text (left at x=36, right at x=551).
    Read right, each heads the text under it; read wrong, the reader paired the left heading with a
    paragraph printed above it in the right column, and the right heading with the left column's text."""
    lines = [page_line(1, 377, 160), page_line(2, 36, 230, "#### PRINCIPE DU JEU", 16), page_line(3, 551, 230, "#### MATÉRIEL", 16),
             page_line(4, 36, 257), page_line(5, 551, 258)]
    if paired_right:
        entries = [section("Intro", page_line(0, 377, 140, "#### Intro", 16), [lines[0]]),
                   section("PRINCIPE DU JEU", lines[1], [lines[3]]), section("MATÉRIEL", lines[2], [lines[4]])]
    else:
        entries = [section("Intro", page_line(0, 377, 140, "#### Intro", 16), [lines[4]]),
                   section("PRINCIPE DU JEU", lines[1], [lines[0]]), section("MATÉRIEL", lines[2], [lines[3]])]
    return entries, lines


def test_headings_paired_with_another_columns_text_are_misplaced_bodies():
    right, lines = two_columns(paired_right=True)
    assert misplaced_bodies(right, lines) == []
    wrong, lines = two_columns(paired_right=False)
    assert misplaced_bodies(wrong, lines) == ["PRINCIPE DU JEU", "MATÉRIEL"]


def test_a_heading_at_the_foot_of_a_column_going_on_at_the_top_of_the_next_is_not_misplaced():
    # nothing is printed under the heading in its column: its text is at the top of the next one
    head, body = page_line(1, 36, 760, "## Fin du jeu", 16), page_line(2, 420, 40)
    assert misplaced_bodies([section("Fin du jeu", head, [body])], [head, body]) == []
    # a heading centred over its text, the next heading under it: no text of another's under it
    head2, text2, nxt = page_line(3, 206, 512, "# 6. Conditions", 16), page_line(4, 42, 535), page_line(5, 224, 570, "# 7. Suite", 16)
    assert misplaced_bodies([section("6. Conditions", head2, [text2])], [head2, text2, nxt]) == []


def test_a_cover_block_heading_the_rules_is_a_severe_anomaly():
    """The cover's lines read as headings ("Un jeu coopératif" over "… de 2 à 8 joueurs,", the credits
    "Illustré par …") enclosing every chapter: cover_parent, whatever the rest says."""
    lines, entries = [], []
    cover = Entry("g", "d", "section", None, "Un jeu coopératif", "cover", heading_lines=[1],
                  blocks=[Block("paragraph", "(et très immersif !) pour des équipages de 2 à 8 joueurs,", lines=[2])])
    credits = Entry("g", "d", "section", None, "Illustré par Ervin et Sabrina Tobal", "credits", heading_lines=[3])
    entries += [cover, credits]
    no = 4
    for parent, titles in ((cover, REGULAR[:3]), (credits, REGULAR[3:])):
        for title in titles:
            head = Line(no, "## " + title.lstrip("# "))
            body = [Line(no + k, PROSE) for k in range(1, 4)]
            lines += [head, *body]
            entries.append(section(title.lstrip("# "), head, body, parent))
            no += 4
    score = structure_confidence(entries, lines, no, no)
    assert score.evidence["cover_parent"] == 1.0 and score.uncertain
    assert set(score.examples["cover_parent"]) == {"Un jeu coopératif", "Illustré par Ervin et Sabrina Tobal"}


@pytest.mark.parametrize("title", ["escaleajeux.fr", "jeux-de-la-vallee.fr", "escaleajeux@gmail.com", "09 72 30 41 42",
                                   "www.example.org/regles"])
def test_an_address_is_no_heading(title):
    assert label_reason(title) == "an address (web site, e-mail, telephone)"


@pytest.mark.parametrize("title", ["Mise en place", "Fin de la partie", "Le Capitaine", "3.2 Forfait isolé"])
def test_headings_are_not_addresses_nor_labels(title):
    assert label_reason(title) is None


from extract.segment.confidence import numbering_gaps  # noqa: E402


def numbered(*numbers: str) -> list[Entry]:
    return [Entry("g", "d", "section", number, "Titre", number) for number in numbers]


def test_the_decimal_numbers_a_pdf_skips_are_headings_lost():
    # "1.0" missing where the document numbers from 0 ("2.0"); "2.2" missing between 2.1 and 2.3
    assert numbering_gaps(numbered("1.1", "1.2", "2.0", "2.1", "2.3", "3.0")) == ["1.0", "2.2"]
    # numbered from 1 throughout, every number read: nothing missing
    assert numbering_gaps(numbered("1.1", "1.2", "2.1", "2.2", "2.2.1", "2.2.2")) == []
    # too few numbers to say the document numbers its headings
    assert numbering_gaps(numbered("1.1", "1.3")) == []


def test_numbering_gaps_count_in_a_pdf_only():
    entries = numbered("1.0", "1.2", "2.0", "2.1", "2.3", "3.0", "3.1", "3.2")
    body = [Line(n, PROSE) for n in range(1, 40)]
    for at, entry in enumerate(entries):
        entry.heading_lines = [at + 1]
    text_score = structure_confidence(entries, body, 40, 40)
    pdf_lines = [Line(n, PROSE, page=1, x=40.0, y=10.0 * n, size=10.0) for n in range(1, 40)]
    pdf_score = structure_confidence(entries, pdf_lines, 40, 40)
    assert text_score.evidence["numbering_gaps"] == 0.0
    assert pdf_score.evidence["numbering_gaps"] == pytest.approx(2 / 10)


def test_numbers_cited_or_an_excerpt_are_no_headings_lost():
    # a FAQ citing the rules' numbers: sparse, not a sequence that lost some
    assert numbering_gaps(numbered("2.3", "4.1", "7.5", "9.2", "11.4")) == []
    # an excerpt opening at 4.3: nothing before the first number read is missing
    assert numbering_gaps(numbered("4.3", "4.4", "4.5", "5.1", "5.2")) == []
    # one section opening on ".0" does not make every other section's ".0" missing
    assert numbering_gaps(numbered("1.1", "1.2", "2.0", "2.1", "3.1", "3.2")) == []


def test_one_title_holding_another_sections_number_makes_the_tree_doubtful():
    """Two headings printed side by side read as one ("Échelle du jeu 2.2 Les terrains"): the page's
    columns were misread, so the tree is doubted whatever else looks right."""
    titles = ["Introduction", "Échelle du jeu 2.2 Les terrains", "Abréviations", "Les pions", "La carte",
              "Le combat", "Fin de la partie"]
    entries = [Entry("g", "d", "section", f"s{k}", title, None) for k, title in enumerate(titles)]
    for at, entry in enumerate(entries):
        entry.heading_lines = [at * 5 + 1]
        entry.blocks = [Block("paragraph", PROSE, [at * 5 + 2])]
    lines = [Line(n, PROSE, page=1, x=40.0, y=10.0 * n, size=10.0) for n in range(1, 40)]
    doubted = structure_confidence(entries, lines, 40, 40)
    assert doubted.evidence["fused_headings"] == 1.0 and doubted.uncertain
    entries[1].title = "Échelle du jeu"
    assert not structure_confidence(entries, lines, 40, 40).uncertain
