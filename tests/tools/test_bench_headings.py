"""The heading scorer of tools/bench_headings.py on a tiny hand-made gold and hand-made entries:
what it counts as found, as the right parent and as a false heading."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.bench_headings import keys, load_gold, norm, score, sentence_form

GOLD = '''
[[doc]]
path = "jeu/regle.pdf"
[[doc.heading]]
text = "Mise en place"
page = 1
level = 1
parent = ""
[[doc.heading]]
text = "Le plateau :"
page = 1
level = 2
parent = "Mise en place"
optional = true
[[doc.heading]]
text = "Les pions"
page = 1
level = 3
parent = "Le plateau :"
[[doc.heading]]
text = "2.1 Déroulement d'un tour"
page = 2
level = 1
parent = ""
[[doc.heading]]
text = "Exemple"
page = 2
level = 2
parent = "2.1 Déroulement d'un tour"
[[doc.heading]]
text = "Fin de la partie"
page = 3
level = 1
parent = ""
[[doc.heading]]
text = "Exemple"
page = 3
level = 2
parent = "Fin de la partie"
[[doc.not_heading]]
text = "De 3 à 5 joueurs"
'''


def entry(id_: str, title: str | None, parent: str | None = None, page: int = 1, number: str | None = None) -> dict:
    return {"id": id_, "title": title, "number": number, "parent": parent, "source": {"page": page}}


@pytest.fixture
def gold(tmp_path: Path):
    path = tmp_path / "gold.toml"
    path.write_text(GOLD, encoding="utf-8")
    return load_gold(path)[0]


def test_a_perfect_tree_scores_one_and_the_optional_heading_is_not_counted(gold):
    entries = [entry("a", "MISE EN PLACE"), entry("b", "Le plateau", "a"), entry("c", "Les  pions", "b"),
               entry("d", "Déroulement d’un tour", None, 2, number="2.1"), entry("e", "Exemple", "d", 2),
               entry("f", "Fin de la partie", None, 3), entry("g", "Exemple", "f", 3)]
    result = score(gold, entries)
    assert (result.counted, result.found, result.right_parent) == (6, 6, 6)
    assert result.false_headings == [] and result.missed == []


def test_an_optional_parent_not_found_lets_its_child_hang_from_the_grandparent(gold):
    entries = [entry("a", "Mise en place"), entry("c", "Les pions", "a"),
               entry("d", "Déroulement d'un tour", None, 2, number="2.1"), entry("e", "Exemple", "d", 2),
               entry("f", "Fin de la partie", None, 3), entry("g", "Exemple", "f", 3)]
    result = score(gold, entries)
    assert (result.found, result.right_parent) == (6, 6)


def test_misses_wrong_parents_and_false_headings_are_each_counted_and_named(gold):
    # "Fin de la partie" fused with a diagram label; the cover line became the parent of a chapter;
    # the second "Exemple" sits under the first chapter (the nearest page decides which is which)
    entries = [entry("x", "De 3 à 5 joueurs"), entry("a", "Mise en place", "x"), entry("c", "Les pions", "a"),
               entry("d", "Déroulement d'un tour", None, 2, number="2.1"), entry("e", "Exemple", "d", 2),
               entry("f", "Nord Sud Fin de la partie", None, 3), entry("g", "Exemple", "d", 3)]
    result = score(gold, entries)
    assert result.counted == 6 and result.found == 5 and result.recall == pytest.approx(5 / 6)
    assert result.missed == ["p3 Fin de la partie"]
    # wrong: "Mise en place" (under the cover line), "Exemple" p3 (its parent missed, and under "2.1")
    assert result.right_parent == 3
    assert [w.split(":")[0] for w in result.wrong_parent] == ["Mise en place", "Exemple"]
    assert result.false_headings == ["p1 De 3 à 5 joueurs", "p3 Nord Sud Fin de la partie"]
    assert result.named_false == ["De 3 à 5 joueurs"]


def test_titles_compare_without_case_or_extra_spaces_but_with_their_accents():
    assert norm("  ■ MISE  EN\u00a0PLACE : ") == "mise en place"
    assert norm("Déroulement d’un tour") == "déroulement d'un tour"
    assert norm("Deroulement") != norm("Déroulement")
    assert norm("Accession e n division") != norm("Accession en division")


def test_a_heading_without_a_level_is_an_error_naming_the_file(tmp_path: Path):
    path = tmp_path / "gold.toml"
    path.write_text('[[doc]]\npath = "a.pdf"\n[[doc.heading]]\ntext = "Titre"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="gold.toml"):
        load_gold(path)


def test_a_gold_beside_its_documents_is_read_from_its_own_folder(tmp_path: Path, capsys):
    """A gold written beside generated PDFs (not the devset's) names them relative to its folder; a
    document it names that is absent is one line saying so, all its headings missed."""
    from tests.read import pdf_maker
    from tools.bench_headings import docs_folder, report

    (tmp_path / "docs").mkdir()
    pdf_maker.numbered_levels(tmp_path / "docs" / "livre.pdf")
    gold = tmp_path / "gold.toml"
    gold.write_text('[[doc]]\npath = "docs/livre.pdf"\n'
                    '[[doc.heading]]\ntext = "1. Chapitre B"\npage = 1\nlevel = 1\nparent = ""\n'
                    '[[doc.heading]]\ntext = "1.1 Section 11"\npage = 1\nlevel = 2\nparent = "1. Chapitre B"\n'
                    '[[doc]]\npath = "docs/absent.pdf"\n'
                    '[[doc.heading]]\ntext = "Mise en place"\npage = 1\nlevel = 1\nparent = ""\n', encoding="utf-8")
    assert docs_folder(gold) == tmp_path
    assert docs_folder(gold, tmp_path / "ailleurs") == tmp_path / "ailleurs"
    checks = report(gold, docs_folder(gold))
    out = capsys.readouterr().out
    assert "docs/livre.pdf: recall 2/2 (1.00), right parent 2/2" in out
    assert "docs/absent.pdf: not read" in out and "recall 0/1" in out
    assert [ok for ok in checks.values()] == [False, False]  # 2 of 3 found: under the bar


@pytest.mark.parametrize(("printed", "found_as"), [
    ("CHAPITRE 1 : INTRODUCTION", "introduction"),  # the reader states "Chapitre 1" as the entry's number
    ("Partie II – Le combat", "le combat"),
    ("3.2 Attaque", "attaque"),
])
def test_a_numbered_heading_is_found_under_its_title_without_its_number_label(printed: str, found_as: str):
    assert found_as in keys(printed)


def test_a_title_opening_on_a_word_that_spells_a_roman_numeral_keeps_it():
    assert keys("Ici commence la partie") == {"ici commence la partie"}


def test_a_gold_sentence_is_whole_only_inside_one_entrys_text(tmp_path: Path):
    path = tmp_path / "gold.toml"
    path.write_text('[[doc]]\npath = "jeu/regle.pdf"\n[[doc.sentence]]\ntext = "Les marqueurs d’acti­vation restent '
                    'en place."\n[[doc.sentence]]\ntext = "Une tour bloque la vue."\n[[doc.sentence]]\ntext = '
                    '"Le joueur actif pioche."\n', encoding="utf-8")
    (doc,) = load_gold(path)
    entries = [{"id": "a", "title": "Tour", "text": "Les **marqueurs** d'acti‐ vation\nrestent  en place. Une tour"},
               {"id": "b", "title": "Vue", "text": "bloque la vue. Le joueur actif pioche."}]
    result = score(doc, entries)
    # cut at a line's end, in bold, typographic apostrophe: whole; split over two entries: not
    assert (result.sentences, result.whole, result.broken) == (3, 2, ["Une tour bloque la vue."])
    assert sentence_form("Le Joueur") != sentence_form("le joueur")  # case kept
