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
