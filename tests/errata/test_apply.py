"""extract/errata/apply.py on a tiny book and its FAQ, one erratum per form publishers use: the
target named inside the instruction, a bold line standing as a heading, a heading that names only
the book, and a paragraph that reads like an erratum but that nothing reads (reported, not dropped)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from extract.cli import main
from extract.errata.apply import apply_errata, read_errata, unread_errata
from extract.pipeline import Stopwatch, read_games

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")

BOOK = """# Livret de règles

## Le tour de jeu

Chaque tour a deux phases.

### 3.2 Déplacement

Une unité se déplace de deux cases. Elle ne traverse pas les unités.

Une unité qui se déplace ne tire pas, sauf la cavalerie (cf. page 2).

## Combat

Une unité au contact attaque.

### 4.1 Engager le combat

Une unité engagée attaque. Elle ne peut pas fuir.

### 4.2 Résolution

Lancez deux dés.

### 6.2 Décompte des points

Chaque unité éliminée rapporte 1 point. Chaque chef rapporte 2 points.
"""

FAQ_HEAD = """# FAQ et errata

## Errata

### Livret de règles

Les errata suivants s'appliquent à la première impression.

"""


def corpus(root: Path, errata: str, head: str = FAQ_HEAD, title: str = "FAQ et errata", book: str = BOOK) -> Path:
    """A game whose book is `book` (`BOOK` unless told) and whose FAQ (`title`) holds `errata`
    under `head` ("### Livret de règles" unless told)."""
    faq = head + errata
    folder = root / "corpus/demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "livret.md").write_text(book, encoding="utf-8")
    (folder / "faq.md").write_text(faq, encoding="utf-8")

    def sha(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    (folder / "game.toml").write_text(f"""id = "demo"
title = "Démo"

[[sources]]
file = "livret.md"
sha256 = "{sha(book)}"

[[sources]]
file = "faq.md"
sha256 = "{sha(faq)}"

[[documents]]
id = "regles"
title = "Livret de règles"
kind = "reference"
source = "livret.md"
profile = "headed-prose"

[[documents]]
id = "faq"
title = "{title}"
kind = "faq"
source = "faq.md"
profile = "faq"
""", encoding="utf-8")
    return root


def applied(tmp_path: Path, errata: str, **faq: str):
    """(errata after applying, entries by id, not-understood anomalies by document)."""
    game = read_games(corpus(tmp_path, errata, **faq), Stopwatch(), lambda message: None)[0]
    outcome = apply_errata(game.lookup, read_errata(game.game, game.entries))
    return outcome.errata, {e.id: e for e in game.entries}, unread_errata(game.game, game.entries)


def texts(entry) -> list[str]:
    return [b.text for b in entry.blocks]


def test_replace_a_phrase_in_a_paragraph_of_a_titled_section(tmp_path):
    errata, entries, _ = applied(tmp_path, "Page 2, section Déplacement, premier paragraphe : remplacer « deux cases » par "
                                           "« trois cases ».\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/3.2")]
    assert texts(entries["demo/regles/3.2"])[0] == "Une unité se déplace de trois cases. Elle ne traverse pas les unités."
    assert errata[0].target_hint == {"name": "Déplacement", "page": 2, "sections": []}


def test_replace_a_phrase_in_a_numbered_section(tmp_path):
    errata, entries, _ = applied(tmp_path, "Page 3, section 4.2 : remplacez « deux dés » par « trois dés ».\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.2")]
    assert texts(entries["demo/regles/4.2"]) == ["Lancez trois dés."]


def test_a_whole_section_should_say(tmp_path):
    # The enclosing heading names only the book: it says which document, the instruction which rule.
    errata, entries, _ = applied(tmp_path, "La section 4.1 devrait dire : « Une unité engagée attaque toujours. »\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.1")]
    assert texts(entries["demo/regles/4.1"]) == ["Une unité engagée attaque toujours."]


def test_delete_the_last_sentence_of_a_numbered_section(tmp_path):
    errata, entries, _ = applied(tmp_path, "Supprimez la dernière phrase de 4.1.\n")
    assert [(e.status, e.target, e.before) for e in errata] == [("applied", "demo/regles/4.1", "Elle ne peut pas fuir.")]
    assert texts(entries["demo/regles/4.1"]) == ["Une unité engagée attaque."]


def test_add_at_the_end_of_a_titled_section_inserts_only_the_quote(tmp_path):
    errata, entries, _ = applied(tmp_path, "Ajoutez à la fin de la section Combat : « Une unité attaque une fois par tour. »\n")
    assert [(e.status, e.target, e.after) for e in errata] == [
        ("applied", "demo/regles/livret-de-regles/combat", "Une unité attaque une fois par tour.")]
    assert texts(entries["demo/regles/livret-de-regles/combat"]) == [
        "Une unité au contact attaque.", "Une unité attaque une fois par tour."]
    assert entries["demo/regles/livret-de-regles"].status == "printed"  # not the entry titled like the book


def test_a_bold_line_names_the_target_like_a_heading(tmp_path):
    errata, entries, _ = applied(tmp_path, "**Décompte des points, page 4, section 6.2**\n\n"
                                           "Le premier paragraphe de cette section devrait dire :\n\n"
                                           "« Chaque unité éliminée rapporte 1 point. Chaque chef rapporte 3 points. »\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/6.2")]
    assert errata[0].target_hint["heading"] == "Décompte des points, page 4, section 6.2"
    assert texts(entries["demo/regles/6.2"]) == ["Chaque unité éliminée rapporte 1 point. Chaque chef rapporte 3 points."]


def test_a_heading_naming_only_the_book_is_no_target(tmp_path):
    errata, entries, _ = applied(tmp_path, "Le premier paragraphe devrait dire : « Autre chose. »\n")
    assert [(e.status, e.target) for e in errata] == [("failed", None)]
    assert errata[0].reason == "neither the instruction nor its heading names the section it changes"
    assert entries["demo/regles/livret-de-regles"].status == "printed"


def test_an_instruction_nothing_reads_is_reported(tmp_path):
    errata, _, unread = applied(tmp_path, "Remplacez donc ce qui cloche.\n")
    assert errata == []
    [anomaly] = unread["demo/faq"]
    assert anomaly.kind == "erratum-not-understood" and anomaly.lines == [9] and anomaly.severity == "warning"
    assert anomaly.detail.startswith("corpus/demo/faq.md, line 9: « Remplacez donc ce qui cloche")


@pytest.mark.parametrize("errata", ["Merci à tous les testeurs.\n", "Version 1.1 du 1er octobre.\n"])
def test_plain_text_under_errata_is_not_reported(tmp_path, errata):
    assert applied(tmp_path, errata)[2] == {}


@pytest.mark.corpus  # a whole build
def test_build_names_failed_and_unread_errata(tmp_path, capsys):
    root = corpus(tmp_path, "**Décompte des points, page 4, section 6.2**\n\n"
                            "Le premier paragraphe de cette section devrait dire :\n\n"
                            "« Chaque unité éliminée rapporte 1 point. Chaque chef rapporte 3 points. »\n\n"
                            "Page 3, section 9.9 : remplacez « deux dés » par « trois dés ».\n\n"
                            "Remplacez donc ce qui cloche.\n")
    assert main(["--root", str(root), "build"]) == 0
    err = capsys.readouterr().err
    assert "warning: 2 errata not applied" in err
    assert "demo/faq/errata/faq-et-errata/errata/livret-de-regles~2: failed: 0 entries numbered 9.9 in regles" in err
    assert "demo/faq: not understood: corpus/demo/faq.md, line 17: « Remplacez donc ce qui cloche" in err
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    assert report["errata"]["demo"]["not_understood"] == 1
    # "page 4" in the bold line and "Page 3" in the instruction are pages of the book, not of the FAQ.
    assert not [a for a in report["documents"]["demo/faq"]["anomalies"] if a["kind"] == "unresolved-reference"]
    assert main(["--root", str(root), "build", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [e["id"] for e in summary["errata_failed"]] == ["demo/faq/errata/faq-et-errata/errata/livret-de-regles~2"]
    assert [a["kind"] for a in summary["errata_not_understood"]] == ["erratum-not-understood"]


def test_a_bulleted_errata_list(tmp_path):
    errata, entries, unread = applied(tmp_path, "- Page 3, section 4.2 : remplacez « deux dés » par « trois dés ».\n"
                                                "- Supprimez la dernière phrase de 4.1.\n"
                                                "- Remplacez donc ce qui cloche.\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.2"), ("applied", "demo/regles/4.1")]
    assert texts(entries["demo/regles/4.2"]) == ["Lancez trois dés."]
    assert [a.lines for a in unread["demo/faq"]] == [[11]]


@pytest.mark.corpus  # a whole build
def test_errata_command_counts_the_unread(tmp_path, capsys):
    root = corpus(tmp_path, "Supprimez la dernière phrase de 4.1.\n\nRemplacez donc ce qui cloche.\n")
    assert main(["--root", str(root), "build"]) == 0
    capsys.readouterr()
    assert main(["--root", str(root), "errata"]) == 0
    assert "1 errata: 1 applied, 0 recorded, 0 failed; 1 more not understood" in capsys.readouterr().err


def test_a_failure_says_which_shown_text_another_erratum_wrote(tmp_path):
    errata, _, _ = applied(tmp_path, "La section 4.2 devrait dire : « Lancez un dé. »\n\n"
                                     "**Résolution, section 4.2**\n\n"
                                     "Le premier paragraphe de cette section devrait dire : « Tout autre chose ici. »\n")
    assert [e.status for e in errata] == ["applied", "failed"]
    assert errata[1].reason.startswith("no block fits the new text")
    assert errata[1].reason.endswith(f"(text shown put there by {errata[0].id})")


TABLE = """| Page | Section | Ancien texte | Nouveau texte |
|---|---|---|---|
| 2 | Déplacement, §3.2 | deux cases | trois cases |
| 3 | 4.2 | deux dés | trois dés |
| 3 | Combat | au contact | |

"""


def test_each_row_of_an_errata_table_is_an_erratum(tmp_path):
    errata, entries, unread = applied(tmp_path, TABLE)
    assert [(e.status, e.target, e.before, e.after) for e in errata] == [
        ("applied", "demo/regles/3.2", "deux cases", "trois cases"),
        ("applied", "demo/regles/4.2", "deux dés", "trois dés"),
    ]
    assert errata[0].origin["lines"] == [11, 11] and errata[0].instruction == "2 | Déplacement, §3.2 | deux cases | trois cases"
    assert texts(entries["demo/regles/4.2"]) == ["Lancez trois dés."]
    # The row without its new text is reported with its line, not dropped.
    [anomaly] = unread["demo/faq"]
    assert anomaly.kind == "erratum-not-understood" and anomaly.lines == [13]
    assert "table row « 3 | Combat | au contact |  »: the row gives no new text" in anomaly.detail


def test_a_table_of_other_columns_in_the_errata_part_is_reported(tmp_path):
    errata, _, unread = applied(tmp_path, "| Unité | Coût |\n|---|---|\n| Archer | 3 |\n")
    assert errata == [] and [a.lines for a in unread["demo/faq"]] == [[9]]


def test_a_section_number_not_read_in_the_book_falls_back_on_the_title_the_row_gives(tmp_path):
    """"Combat, §4" where the book prints no number 4: the title still names the section."""
    errata, _, _ = applied(tmp_path, "| Section | Avant | Après |\n|---|---|---|\n| Combat, §4 | au contact | adjacente |\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/livret-de-regles/combat")]


@pytest.mark.parametrize(("errata", "expected"), [
    ("Ajouter après la première phrase de 4.1 : « Elle frappe fort. »",
     "Une unité engagée attaque. Elle frappe fort. Elle ne peut pas fuir."),
    ("Ajoutez avant la dernière phrase de la section 4.1 : « Elle frappe fort. »",
     "Une unité engagée attaque. Elle frappe fort. Elle ne peut pas fuir."),
    ("Dans la section 4.1, lire « engagée riposte » au lieu de « engagée attaque ».",
     "Une unité engagée riposte. Elle ne peut pas fuir."),
])
def test_insert_by_sentence_and_read_instead(tmp_path, errata, expected):
    errata_, entries, _ = applied(tmp_path, errata + "\n")
    assert [(e.status, e.target) for e in errata_] == [("applied", "demo/regles/4.1")]
    assert texts(entries["demo/regles/4.1"]) == [expected]


def test_insert_by_sentence_is_idempotent(tmp_path):
    errata, entries, _ = applied(tmp_path, "Ajoutez après la première phrase de 4.1 : « Elle ne peut pas fuir. »\n")
    assert [(e.status, e.resolution.endswith("already there")) for e in errata] == [("applied", True)]
    assert texts(entries["demo/regles/4.1"]) == ["Une unité engagée attaque. Elle ne peut pas fuir."]


def test_an_faq_titled_errata_never_targets_itself(tmp_path):
    """The FAQ's heading "Errata" is its own title: it names no book, so a titled erratum looks in the others."""
    errata, entries, _ = applied(tmp_path, "Page 3, section Combat : remplacer « au contact » par « adjacente ».\n\n"
                                           "Ajoutez à la fin de la section Résolution : « Relancez les 1. »\n",
                                 head="# Errata\n\n## Errata\n\n", title="Errata")
    assert [(e.status, e.target) for e in errata] == [
        ("applied", "demo/regles/livret-de-regles/combat"), ("applied", "demo/regles/4.2")]
    assert texts(entries["demo/regles/4.2"]) == ["Lancez deux dés.", "Relancez les 1."]


@pytest.mark.corpus  # a whole build
def test_a_failed_erratum_is_not_said_outside_the_corpus(tmp_path, capsys):
    root = corpus(tmp_path, "Page 3, section 9.9 : remplacez « deux dés » par « trois dés ».\n")
    assert main(["--root", str(root), "build"]) == 0
    capsys.readouterr()
    assert main(["--root", str(root), "errata"]) == 0
    out = capsys.readouterr().out
    assert "outside the corpus" not in out
    assert "(no target found; named: section 9.9, page 3)" in out


def test_errata_from_a_file_lists_every_erratum_and_what_it_cannot_read(tmp_path, capsys):
    path = tmp_path / "errata.md"
    path.write_text("# Errata\n\n" + TABLE + "En page 7, §17, lire « 4, 5 ou 6 » au lieu de « 5 ou 6 ».\n\n"
                    "Remplacez donc ce qui cloche, « hop ».\n", encoding="utf-8")
    assert main(["errata", "--from", str(path)]) == 0
    captured = capsys.readouterr()
    read = [line.split()[1] for line in captured.out.splitlines() if line.startswith("read:")]
    assert read == [f"{path}:{n}" for n in (5, 6, 9)]
    assert f"not understood: {path}:7: « 3 | Combat | au contact |  » (the row gives no new text)" in captured.out
    assert f"not understood: {path}:11:" in captured.out
    assert "3 operation(s) read" in captured.err and "2 passage(s) that read like errata not understood" in captured.err


# Sections made of labelled paragraphs: each "§N" paragraph is rule N under its heading, and the
# heading holds no text of its own (tests/segment/test_headed_prose.py).
LABELLED_BOOK = """# Livret de règles

## Combat

§16 Chaque unité engagée lance deux dés.

§17 Chaque résultat de 5 ou 6 est une touche.

§18 Les archers tirent à 30 cm. Une cible à couvert fait lancer 2 dés de moins.

## Moral

§19 Une unité détruite fait baisser le moral de 2.

§20 Une armée sans moral quitte la partie.
"""


def labelled(tmp_path: Path, errata: str):
    return applied(tmp_path, errata, book=LABELLED_BOOK)


@pytest.mark.parametrize(("errata", "target", "expected"), [
    ("Page 7, section Combat, dernier paragraphe : remplacer « 2 dés » par « 3 dés ».\n",
     "18", "Les archers tirent à 30 cm. Une cible à couvert fait lancer 3 dés de moins."),
    ("Page 7, section Combat, deuxième paragraphe : remplacer « 5 ou 6 » par « 4, 5 ou 6 ».\n",
     "17", "Chaque résultat de 4, 5 ou 6 est une touche."),
    ("**Combat, page 7**\n\nAjoutez à la fin du premier paragraphe : « Relancez les 1. »\n",
     "16", "Chaque unité engagée lance deux dés. Relancez les 1."),
    ("**Combat, page 7**\n\nLe deuxième paragraphe de cette section devrait dire : "
     "« Chaque résultat de 4, 5 ou 6 est une touche. »\n",
     "17", "Chaque résultat de 4, 5 ou 6 est une touche."),
])
def test_a_paragraph_ordinal_counts_a_sections_labelled_paragraphs(tmp_path, errata, target, expected):
    errata_, entries, _ = labelled(tmp_path, errata)
    assert [(e.status, e.target) for e in errata_] == [("applied", f"demo/regles/{target}")]
    assert texts(entries[f"demo/regles/{target}"]) == [expected]
    assert not entries["demo/regles/livret-de-regles/combat"].blocks  # the section itself still holds no text


def test_a_paragraph_ordinal_past_the_labelled_paragraphs_fails_saying_how_many(tmp_path):
    errata, _, _ = labelled(tmp_path, "Page 7, section Combat, cinquième paragraphe : remplacer « 2 dés » par « 3 dés ».\n")
    assert [(e.status, e.reason) for e in errata] == [
        ("failed", "no paragraph 5: « Combat » is made of 3 numbered paragraphs")]


def test_deleting_a_labelled_paragraph_deletes_its_rule(tmp_path):
    errata, entries, _ = labelled(tmp_path, "**Combat, page 7**\n\nSupprimez le deuxième paragraphe de cette section.\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/17")]
    assert entries["demo/regles/17"].status == "deleted"


def test_adding_at_the_end_of_a_section_of_labelled_paragraphs_goes_on_its_last_one(tmp_path):
    errata, entries, _ = labelled(tmp_path, "Ajoutez à la fin de la section Moral : « Une unité ralliée ne bouge pas. »\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/20")]
    assert texts(entries["demo/regles/20"]) == ["Une armée sans moral quitte la partie.", "Une unité ralliée ne bouge pas."]


def test_a_phrase_is_looked_for_below_a_section_without_text_of_its_own(tmp_path):
    errata, entries, _ = labelled(tmp_path, "Page 7, section Combat : remplacer « 5 ou 6 » par « 4, 5 ou 6 ».\n\n"
                                            "Page 7, section Combat : remplacer « dés » par « d6 ».\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/17"), ("failed", None)]
    assert texts(entries["demo/regles/17"]) == ["Chaque résultat de 4, 5 ou 6 est une touche."]
    assert errata[1].reason == ("« dés » is in 2 entries under demo/regles/livret-de-regles/combat: "
                                "demo/regles/16, demo/regles/18")


def test_errata_from_a_file_tells_an_answer_worded_like_a_correction_from_an_erratum(tmp_path, capsys):
    """An FAQ's answer worded like a correction ("Ce devrait être : « … »") that names no place is no
    erratum to read: it is listed as a clarification, with its question; the errata part's passage
    that no operation reads is listed as not understood."""
    path = tmp_path / "faq.md"
    path.write_text("# FAQ du jeu\n\n## Errata\n\nRemplacez donc ce qui cloche, « hop ».\n\n"
                    "## Questions\n\nQ – Le texte dit « tombe » : est-ce voulu ?\n\n"
                    "R – Ce devrait être en fait : « Si le cavalier est tué, il tombe. »\n", encoding="utf-8")
    assert main(["errata", "--from", str(path)]) == 0
    captured = capsys.readouterr()
    assert f"not understood: {path}:5:" in captured.out
    assert f"clarification: {path}:9:" in captured.out and f"clarification: {path}:11:" in captured.out
    assert "read:" not in captured.out
    assert "0 operation(s) read from" in captured.err and "1 passage(s) that read like errata not understood" in captured.err


@pytest.mark.parametrize(("instruction", "target", "text"), [
    ("Ajoutez à la fin du premier paragraphe de la section Combat : « Même de flanc. »",
     "demo/regles/livret-de-regles/combat", "Une unité au contact attaque. Même de flanc."),
    ("Ajoutez à la fin du premier paragraphe de la section 4.2 : « Puis relancez. »",
     "demo/regles/4.2", "Lancez deux dés. Puis relancez."),
    ("Remplacez la deuxième phrase du premier paragraphe de la section 4.1 par : « Elle peut fuir. »",
     "demo/regles/4.1", "Une unité engagée attaque. Elle peut fuir."),
    ("Dans le dernier paragraphe de la section Déplacement, remplacez « ne tire pas » par « tire »",
     "demo/regles/3.2", "Une unité qui se déplace tire, sauf la cavalerie (cf. page 2)."),
    ("Le premier paragraphe de la section Résolution devrait dire : « Lancez trois dés. »",
     "demo/regles/4.2", "Lancez trois dés."),
])
def test_an_instruction_naming_its_section_and_a_unit_of_it_targets_that_section(tmp_path, instruction, target, text):
    # the heading above names only the book: the sentence alone says which section
    errata, entries, unread = applied(tmp_path, instruction + "\n")
    assert [(e.status, e.target) for e in errata] == [("applied", target)] and unread == {}
    assert text in texts(entries[target])


def test_the_section_the_sentence_names_wins_over_its_heading_with_a_warning(tmp_path):
    root = corpus(tmp_path, "#### Déplacement, page 2\n\n"
                            "Ajoutez à la fin du premier paragraphe de la section Combat : « Même de flanc. »\n\n"
                            "#### Résolution, page 3, section 4.2\n\n"
                            "Remplacez la première phrase du premier paragraphe de la section 4.1 par : "
                            "« Une unité engagée attaque toujours. »\n")
    game = read_games(root, Stopwatch(), lambda message: None)[0]
    outcome = apply_errata(game.lookup, read_errata(game.game, game.entries))
    assert [(e.status, e.target) for e in outcome.errata] == [("applied", "demo/regles/livret-de-regles/combat"),
                                                              ("applied", "demo/regles/4.1")]
    warnings = [a for a in outcome.anomalies["demo/faq"] if a.kind == "erratum-heading-disagrees"]
    assert [a.severity for a in warnings] == ["warning", "warning"]
    assert "« Déplacement, page 2 »" in warnings[0].detail and "« Résolution, page 3, section 4.2 »" in warnings[1].detail


def test_a_heading_naming_the_section_the_sentence_names_gives_no_warning(tmp_path):
    root = corpus(tmp_path, "#### Combat, page 3\n\n"
                            "Ajoutez à la fin du premier paragraphe de la section Combat : « Même de flanc. »\n")
    game = read_games(root, Stopwatch(), lambda message: None)[0]
    outcome = apply_errata(game.lookup, read_errata(game.game, game.entries))
    assert [(e.status, e.target) for e in outcome.errata] == [("applied", "demo/regles/livret-de-regles/combat")]
    assert not [a for a in outcome.anomalies.get("demo/faq", []) if a.kind == "erratum-heading-disagrees"]


def test_a_flat_errata_heading_holds_the_headings_after_it_until_another_part(tmp_path):
    # "ERRATA" set as loud as the book names under it: segmentation makes them siblings
    head = "# FAQ\n\n## ERRATA\n\nCette section regroupe les errata officiels.\n\n## Livret de règles\n\n"
    errata = ("Remplacez donc ce qui cloche.\n\n## Éclaircissements\n\n"
              "Remplacez donc ce qui cloche.\n")
    _, _, unread = applied(tmp_path, errata, head=head)
    assert [a.lines for a in unread["demo/faq"]] == [[9]]  # the second stands under « Éclaircissements »


def test_a_paragraph_announcing_errata_opens_the_errata_part(tmp_path):
    head = "# FAQ collaborative\n\nBonjour à tous.\n\n"
    errata = "Erratas (uniquement sur les premières impressions) :\n\n- Remplacez donc ce qui cloche.\n"
    _, _, unread = applied(tmp_path, errata, head=head)
    assert [a.kind for a in unread["demo/faq"]] == ["erratum-not-understood"]
    _, _, unread = applied(tmp_path / "without", "- Remplacez donc ce qui cloche.\n", head=head)
    assert unread == {}


CHIEF = "Chaque unité éliminée rapporte 1 point. Chaque chef rapporte 2 points."


@pytest.mark.parametrize(("instruction", "target", "text"), [
    ("Section 6.2 : un chef rapporte 3 points et non 2.", "demo/regles/6.2", CHIEF.replace("2 points", "3 points")),
    ("Section 6.2 : un chef rapporte 3 points (et non 2).", "demo/regles/6.2", CHIEF.replace("2 points", "3 points")),
    ("Section 4.2 : lancez trois dés et non deux.", "demo/regles/4.2", "Lancez trois dés."),
])
def test_y_et_non_x_carrying_the_words_around_x_changes_only_what_differs(tmp_path, instruction, target, text):
    # "Y et non X" whose Y has more words than X: X is found in the target block, and what of Y is not
    # the text around X replaces it
    errata, entries, unread = applied(tmp_path, instruction + "\n")
    assert [(e.status, e.target) for e in errata] == [("applied", target)] and unread == {}
    assert texts(entries[target]) == [text]


@pytest.mark.parametrize(("instruction", "target", "text"), [
    # Y holds X itself and no word around it: where it goes is not said
    ("Section 4.2 : on lance trois dés rouges et non dés.", "demo/regles/4.2", "Lancez deux dés."),
    # Y shares the words after X only, and what is left does not stand for X word for word
    ("Section 6.2 : un meneur gagne 3 points et non 2.", "demo/regles/6.2", CHIEF),
    # X only inside a longer word ("deu" in "deux")
    ("Section 4.2 : lancez trois dés et non deu.", "demo/regles/4.2", "Lancez deux dés."),
])
def test_y_et_non_x_that_does_not_fit_the_words_around_x_is_never_applied(tmp_path, instruction, target, text):
    errata, entries, _ = applied(tmp_path, instruction + "\n")
    assert "applied" not in [e.status for e in errata]
    assert texts(entries[target]) == [text]


@pytest.mark.parametrize(("instruction", "target", "text"), [
    # an unquoted new text for a whole section
    ("Section 4.2 : le nombre de dés lancés devrait être trois.", "demo/regles/4.2", "Lancez deux dés."),
    ("Section 6.2 : un chef devrait rapporter 3 points.", "demo/regles/6.2", CHIEF),
])
def test_a_correction_the_build_cannot_apply_as_written_is_reported_not_applied(tmp_path, instruction, target, text):
    # an unquoted should-say (a "Y et non X" whose old text is not in its section: test_y_et_non_x_of_other_word_counts…)
    errata, entries, unread = applied(tmp_path, instruction + "\n")
    assert errata == [] and texts(entries[target]) == [text]
    [anomaly] = unread["demo/faq"]
    assert anomaly.kind == "erratum-not-understood" and anomaly.lines == [9]


def test_a_value_correction_changes_the_value_alone(tmp_path):
    errata, entries, unread = applied(tmp_path, "Section 6.2 : la valeur d'un chef devrait être de 3 et non de 2.\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/6.2")] and unread == {}
    assert texts(entries["demo/regles/6.2"]) == [CHIEF.replace("2 points", "3 points")]


def test_a_quoted_should_say_still_replaces_its_section(tmp_path):
    errata, entries, unread = applied(tmp_path, "Section 4.2 : le texte devrait être : « Lancez trois dés. »\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.2")] and unread == {}
    assert texts(entries["demo/regles/4.2"]) == ["Lancez trois dés."]


@pytest.mark.parametrize("head", ["# FAQ\n\n## Corrections\n\n### Livret de règles\n\n", "# FAQ\n\n## Modifications des règles\n\n"])
def test_an_faq_with_no_errata_part_is_read_whole(tmp_path, head):
    errata, entries, unread = applied(tmp_path, "Section 4.2 : remplacez « deux dés » par « trois dés ».\n", head=head, title="FAQ")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.2")] and unread == {}
    assert texts(entries["demo/regles/4.2"]) == ["Lancez trois dés."]


@pytest.mark.parametrize("new", ["ne tire pas (voir section Combat)", "ne tire pas (voir section 4.1)"])
def test_a_place_named_inside_a_quotation_is_no_place_of_the_instruction(tmp_path, new):
    errata, entries, unread = applied(tmp_path, f"#### Déplacement, page 2, section 3.2\n\nRemplacez « ne tire pas » par « {new} ».\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/3.2")] and unread == {}
    assert errata[0].target_hint == {"name": "Déplacement", "page": 2, "sections": ["3.2"]}
    assert f"Une unité qui se déplace {new}, sauf la cavalerie (cf. page 2)." in texts(entries["demo/regles/3.2"])


def test_a_section_named_by_its_quoted_title_is_still_read(tmp_path):
    errata, entries, unread = applied(tmp_path, "Dans la section « Résolution », remplacez « deux dés » par « trois dés ».\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.2")] and unread == {}
    assert errata[0].target_hint["name"] == "Résolution"


def test_an_instruction_set_as_a_heading_is_applied(tmp_path):
    errata, entries, unread = applied(tmp_path, "#### Page 4, section 4.2 : remplacez « deux » par « trois ».\n\nMerci.\n")
    assert [(e.status, e.target) for e in errata] == [("applied", "demo/regles/4.2")] and unread == {}
    assert texts(entries["demo/regles/4.2"]) == ["Lancez trois dés."]
    assert errata[0].origin["lines"] == [9, 9]


def test_an_old_and_new_text_naming_no_place_in_the_errata_part_is_reported(tmp_path):
    errata, entries, unread = applied(tmp_path, "Ancien texte : « Lancez deux dés. »\n\nNouveau texte : « Lancez trois dés. »\n")
    assert errata == [] and texts(entries["demo/regles/4.2"]) == ["Lancez deux dés."]
    [anomaly] = unread["demo/faq"]
    assert anomaly.kind == "erratum-not-understood" and anomaly.lines == [11] and "no place" in anomaly.detail


def test_a_place_and_a_text_with_no_verb_in_the_errata_part_is_reported(tmp_path):
    errata, entries, unread = applied(tmp_path, "Page 4, section 4.2 : lancez trois dés.\n")
    assert errata == [] and [a.lines for a in unread["demo/faq"]] == [[9]]


def test_a_question_under_an_faq_and_errata_title_is_no_unread_erratum(tmp_path):
    errata, _, unread = applied(tmp_path, "## Questions\n\nQ : Combien de dés lance-t-on ?\n\nR : Trois.\n")
    assert errata == [] and unread == {}


@pytest.mark.parametrize(("old", "status", "text"), [("deux dés", "applied", "Lancez trois dés rouges."),
                                                     ("quatre dés", "failed", "Lancez deux dés.")])
def test_y_et_non_x_of_other_word_counts_applies_only_where_its_old_text_stands(tmp_path, old, status, text):
    """« Y » (et non « X ») whose words do not match one for one: applied where X is found in the target
    block; elsewhere not understood, with the reason, and never applied."""
    game = read_games(corpus(tmp_path, f"Page 3, section 4.2 : lancez « trois dés rouges » (et non « {old} »).\n"),
                      Stopwatch(), lambda message: None)[0]
    outcome = apply_errata(game.lookup, read_errata(game.game, game.entries))
    assert [(e.status, e.before, e.after) for e in outcome.errata] == [(status, old, "trois dés rouges")]
    assert [b.text for e in game.entries if e.id == "demo/regles/4.2" for b in e.blocks] == [text]
    kinds = [(a.kind, a.lines) for found in outcome.anomalies.values() for a in found]
    if status == "applied":
        assert kinds == [] and "unsure" not in outcome.errata[0].origin
    else:
        assert kinds == [("erratum-not-understood", [9])]
        [anomaly] = [a for found in outcome.anomalies.values() for a in found]
        assert "word for word" in anomaly.detail and "« quatre dés » is not in the text" in anomaly.detail
