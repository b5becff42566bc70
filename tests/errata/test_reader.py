"""The classification layer and `regles errata --from [--game]`: read, not understood,
clarifications, each with its line; where each operation would land in a build (invented texts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extract.cli import main
from extract.errata.reader import read_errata_text
from tests.errata import test_passages
from tests.errata.test_apply import corpus

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")


def kinds(text: str) -> list[tuple[int, str]]:
    return [(r.line, r.kind) for r in read_errata_text(text).read]


def test_a_heading_then_its_instruction_and_a_list_on_one_line():
    text = ("ERRATUM\n"
            "Combat, p. 4\n"
            "Le deuxième point devrait se lire :\n"
            "« Lancez deux dés. »\n"
            "P. 11 : il faut retirer la dernière phrase. P. 15 : « Les archers tirent deux fois. »\n")
    reading = read_errata_text(text)
    assert [(r.line, r.kind, r.new) for r in reading.read] == [
        (3, "should-say", "Lancez deux dés."), (5, "delete", None), (5, "should-say", "Les archers tirent deux fois.")]
    first = reading.read[0].locator
    assert (first.page, first.unit, first.ordinal) == (4, "bullet", 2)
    deleted = reading.read[1]  # "la dernière phrase" is where, not what text
    assert deleted.old is None and (deleted.locator.page, deleted.locator.unit, deleted.locator.ordinal) == (11, "sentence", -1)


def test_nothing_that_looks_like_an_erratum_is_dropped_in_silence():
    text = ("Errata\n\n"
            "p. 7 : remplacer « tour ».\n\n"  # a cue with no new text
            "p. 9 : « Le sort coûte 2 » dans le texte.\n\n"  # quoted text after a place, no verb
            "Page 12 : ajouter « Le héros\n")  # a quotation never closed: still its text, cut
    reading = read_errata_text(text)
    assert [(n.line, n.reason.split(":")[0]) for n in reading.not_understood] == [
        (3, "no new text"), (5, "quoted text after a locator, but no verb says what to do with it")]
    assert [(r.line, r.kind, r.new) for r in reading.read] == [(7, "insert", "Le héros")]


def test_an_operation_restated_at_the_same_place_is_read_once():
    text = ("Nouveaux termes\n"
            "1. « Détruit » devient « Vaincu »\n"
            "Le mot « détruit » est remplacé par le simple mot « vaincu » :\n"
            "Désormais, ces termes deviennent « vaincu » et « hors jeu ».\n"
            "P. 12 : « Détruit » devient « Vaincu ».\n")
    reading = read_errata_text(text)
    assert [(r.line, r.kind) for r in reading.read] == [(2, "rename"), (5, "replace")]
    assert [(c.line, c.why) for c in reading.clarifications if "restates" in c.why] == [
        (3, "restates the operation read at line 2, at the same place"),
        (4, "restates the operation read at line 2, at the same place")]


def test_questions_and_answers_are_clarifications_not_errata():
    text = ("FAQ\n\nQ : Un archer peut-il tirer deux fois ?\n\n"
            "R : Non, il devrait être clair qu'il tire une fois.\n\n"
            "R : Oui. Page 8 : remplacer « une fois » par « deux fois ».\n")
    reading = read_errata_text(text)
    assert [c.line for c in reading.clarifications] == [3, 5, 7]
    assert [(r.line, r.kind, r.old, r.new) for r in reading.read] == [(7, "replace", "une fois", "deux fois")]


def test_an_old_and_new_text_pair_is_a_replace_where_a_place_is_named():
    text = "Page 3, Combat\nAncien texte :\nLancez un dé.\nNouveau texte :\nLancez deux dés.\n"
    assert [(r.line, r.kind, r.old, r.new) for r in read_errata_text(text).read] == [
        (5, "replace", "Lancez un dé.", "Lancez deux dés.")]


def test_a_term_that_becomes_another_with_no_place_is_a_rename():
    assert kinds("« Exilé » devient « Banni ».") == [(1, "rename")]
    assert kinds("Page 4 : « Exilé » devient « Banni ».") == [(1, "replace")]


@pytest.mark.parametrize(("content", "message"), [
    (b"\x00\x01\x02binary", "binary file"),
    (b"", "source file is empty"),
])
def test_bad_input_is_one_line_and_exit_1(tmp_path, capsys, content, message):
    path = tmp_path / "errata.txt"
    path.write_bytes(content)
    assert main(["errata", "--from", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and message in err[0]


def test_a_huge_single_line_is_refused_with_one_line(tmp_path, capsys):
    path = tmp_path / "errata.txt"
    path.write_text("Page 3 : remplacer « a » par « b ». " * 300_000, encoding="utf-8")
    assert main(["errata", "--from", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "MB" in err[0] and str(path) in err[0]


def test_errata_from_json_carries_read_not_understood_and_clarifications(tmp_path, capsys):
    path = tmp_path / "errata.txt"
    path.write_text("Errata\n\nPage 3, section 4.2 : lire « trois dés » au lieu de « deux dés ».\n\n"
                    "p. 7 : remplacer « tour ».\n\nQ : Et la cavalerie ?\n", encoding="utf-8")
    assert main(["errata", "--from", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (erratum,) = data["errata"]
    assert (erratum["line"], erratum["kind"], erratum["before"], erratum["after"]) == (3, "replace", "deux dés", "trois dés")
    assert (erratum["locator"]["page"], erratum["locator"]["section"], erratum["status"]) == (3, "4.2", "recorded")
    assert [n["line"] for n in data["not_understood"]] == [5]
    assert [c["line"] for c in data["clarifications"]] == [7]


@pytest.mark.corpus  # a whole build
def test_errata_from_with_a_game_previews_where_each_lands_and_writes_nothing(tmp_path, capsys):
    root = corpus(tmp_path, "Rien à signaler.\n")
    assert main(["--root", str(root), "build"]) == 0
    data = root / "build" / "data" / "demo.json"
    before = data.read_bytes()
    path = tmp_path / "new-errata.txt"
    path.write_text("Errata\n\nSection 4.2 : lire « trois dés » au lieu de « deux dés ».\n\n"
                    "Déplacement : remplacer « deux cases » par « trois cases ».\n\n"
                    "Page 99 : ajouter « Rien ».\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--root", str(root), "errata", "--from", str(path), "--game", "demo", "--json"]) == 0
    lands = [e["lands"] for e in json.loads(capsys.readouterr().out)["errata"]]
    assert (lands[0]["entry"], lands[0]["block"]) == ("demo/regles/4.2", 0) and "section" in lands[0]["matched"]
    assert (lands[1]["entry"], lands[1]["block"]) == ("demo/regles/3.2", 0) and "old text" in lands[1]["matched"]
    assert lands[2]["entry"] is None and lands[2]["why"]
    assert data.read_bytes() == before  # nothing written
    assert main(["--root", str(root), "errata", "--from", str(path), "--game", "nope"]) == 2


def test_game_without_from_is_bad_usage(tmp_path, capsys):
    assert main(["--root", str(tmp_path), "errata", "--game", "demo"]) == 2
    assert "--from" in capsys.readouterr().err


def test_devset_text_names_no_file_outside_the_corpus(tmp_path: Path):
    """The cue table ships with the package: reading needs no file of the working directory."""
    import os

    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert kinds("Page 2 : ajouter « Un dé. »") == [(1, "insert")]
    finally:
        os.chdir(here)


def test_a_passage_with_no_sentence_end_over_the_bound_is_listed_not_parsed():
    reading = read_errata_text("mot " * 2000)
    (item,) = reading.not_understood
    assert item.line == 1 and "no sentence end" in item.reason and not reading.read


def test_headings_without_a_word_name_no_place():
    reading = read_errata_text("Errata v.4.1\n.4.1\n\nPage 7, colonne 2 : remplacer « a » par « b ».\n")
    assert [r.locator.text for r in reading.read] == ["Page 7, colonne 2"]


def test_an_insertion_at_the_start_of_a_unit_and_a_labelled_item():
    reading = read_errata_text("Errata\n\nPage 3 : ajoutez au début du premier paragraphe : « Lors de la mise en place, »\n\n"
                               "Page 4 : le point « Exposé » devrait dire : « Exposé : rien. »\n")
    first, second = reading.read
    assert (first.kind, first.locator.position, first.locator.unit, first.locator.ordinal) == ("insert", "start", "paragraph", 1)
    assert (second.kind, second.locator.unit, second.locator.label, second.new) == ("should-say", "bullet", "Exposé", "Exposé : rien.")


def test_an_insertion_of_a_whole_section_names_it_and_one_at_its_end_does_not():
    reading = read_errata_text("Errata\n\nPage 20 : la section 85.7 devrait être ajoutée : « Quand le paquet est vide, mélangez. »\n\n"
                               "Page 21 : ajoutez à la fin de la section 86 : « Puis piochez. »\n\n"
                               "Page 22 : ajoutez l'encart suivant : « Rappel. »\n")
    assert [(r.kind, r.named, r.locator.section) for r in reading.read] == [
        ("insert", "la section 85.7", "85.7"), ("insert", None, "86"), ("insert", "l'encart", None)]
    assert reading.read[1].locator.position == "end"


def test_a_heading_whose_title_opens_with_a_verb_is_a_place_not_an_instruction():
    reading = read_errata_text("Errata\n\nModifier les Dés, page 14, section 56.4\n\n"
                               "Le premier paragraphe de cette section devrait dire :\n\n« Les capacités passent avant. »\n")
    assert [(r.line, r.kind, r.locator.section, r.locator.page, r.new) for r in reading.read] == [
        (5, "should-say", "56.4", 14, "Les capacités passent avant.")]


def test_a_quoted_new_text_keeps_its_last_stop_and_comma():
    reading = read_errata_text("Page 4 : ajoutez au début du premier paragraphe : « Lors de la mise en place, »\n\n"
                               "Page 5 : le dernier point devrait dire : « Piochez une carte. »\n")
    assert [r.new for r in reading.read] == ["Lors de la mise en place,", "Piochez une carte."]


def test_announced_text_whose_opening_mark_was_lost_is_the_new_text_with_its_lines():
    reading = read_errata_text("Tir Rapide, page 9\n\nLe premier paragraphe de cette carte devrait dire :\n\n"
                               "Vous pouvez tirer deux fois,\npuis la défausser. »\n")
    [found] = reading.read
    assert (found.line, found.new, found.text_lines) == (3, "Vous pouvez tirer deux fois, puis la défausser.", (5, 6))


def test_a_part_heading_takes_no_place_from_a_table_of_contents_above_it():
    reading = read_errata_text("Sommaire\n\n- Errata, page 2\n- FAQ, pages 5-7\n\nErrata\n\n"
                               "Cette section regroupe les errata de la boîte de base.\n")
    assert reading.read == [] and reading.not_understood == []


def test_renaming_the_thing_a_place_names_is_a_new_title():
    [found] = read_errata_text("Page 12, Hachette : renommez l'arme en « Hache ».").read
    assert (found.kind, found.new, found.part) == ("should-say", "Hache", "title")


def test_an_instruction_split_across_the_column_gap_is_read_whole():
    reading = read_errata_text(test_passages.COLUMNS)
    assert [(r.line, r.kind, r.old, r.new, r.locator.page) for r in reading.read] == [
        (3, "replace", "deux cases", "trois cases", 12),
        (3, "delete", None, None, 20),
        (5, "insert", None, "Une unité en fuite ne charge pas.", 22),
        (6, "should-say", None, "Le tireur lance deux dés, puis garde le meilleur.", 14),
        (8, "replace", "10 cm", "15 cm", 18),  # its « par … » stands at the top of the right column
    ]
    assert reading.not_understood == []


@pytest.mark.parametrize("new", ["« … et lancez trois dés. »", "« et lancez      trois dés. »"])
def test_a_quoted_new_text_reads_without_a_leading_ellipsis_and_with_single_spaces(new):
    # an ellipsis opening a quotation says it takes up its sentence midway; runs of spaces are layout
    [found] = read_errata_text(f"Page 4, section Tir : remplacez « deux dés » par {new}\n").read
    assert (found.old, found.new) == ("deux dés", "et lancez trois dés.")
