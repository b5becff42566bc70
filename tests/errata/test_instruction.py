"""extract/errata/instruction.py: one errata instruction read by the errata reader, in the model's
terms (`Operation`): each phrasing into the operation it asks for, the place its own words name,
errata given as a table, and what is no instruction. The sentences are those the retired
instruction grammar was tested on (issue 31: one reader remains)."""

from __future__ import annotations

import time

import pytest

from extract.errata.instruction import read_instruction
from extract.errata.reader import is_errata_table, read_errata_text

# The reader loads spaCy's model: with the other tests that do, on one worker (conftest.py).
pytestmark = pytest.mark.xdist_group("spacy")


def operation(text: str):
    found = read_instruction(text)
    assert found.operation is not None, (text, found.problem)
    return found.operation


@pytest.mark.parametrize(
    ("text", "kind", "scope", "before", "after"),
    [
        ("Le deuxième paragraphe de cette section devrait être supprimé.", "delete", {"block": "paragraph", "ordinal": 2}, None, None),
        ("Supprimez la dernière phrase.", "delete", {"block": "sentence", "ordinal": -1}, None, None),
        ("La règle 4.2 devrait être supprimée.", "delete", {"block": "entry", "ordinal": None, "section": "4.2"}, None, None),
        (
            "Ajoutez au début du premier paragraphe : « Lors de la mise en place, »",
            "insert",
            {"block": "text", "ordinal": None, "position": "start", "within": "paragraph", "within_ordinal": 1},
            None,
            "Lors de la mise en place,",
        ),
        (
            "La section 85.7 devrait être ajoutée : « 85.7 Quand le paquet est vide, mélangez. »",
            "insert",
            {"block": "entry", "ordinal": None, "section": "85.7"},
            None,
            "85.7 Quand le paquet est vide, mélangez.",
        ),
        ("Ajoutez : « Une phrase. »", "insert", {"block": "text", "ordinal": None, "position": "end"}, None, "Une phrase."),
        (
            "Le dernier point devrait être déplacé pour apparaître en premier.",
            "move",
            {"block": "bullet", "ordinal": -1, "position": "first"},
            None,
            None,
        ),
        ("Renommez l'arme en « Hache ».", "replace", {"block": "title", "ordinal": None}, None, "Hache"),
        ("La portée devrait être 3 et non 2.", "replace", {"block": "value", "ordinal": None}, "2", "3"),
        ("Les points de vie sont de 3 (et non 2).", "replace", {"block": "value", "ordinal": None}, "2", "3"),
        ("Cela devrait être : « Portée 3 »", "replace", {"block": "entry", "ordinal": None}, None, "Portée 3"),
        ("Le 2e paragraphe doit se lire :", "replace", {"block": "paragraph", "ordinal": 2}, None, None),
        (
            "Le point « Exposé » de cette section devrait dire : « Exposé : rien. »",
            "replace",
            {"block": "bullet", "ordinal": None, "label": "Exposé"},
            None,
            "Exposé : rien.",
        ),
        ("Remplacez “tentatives” par “essais”.", "replace", {"block": "text", "ordinal": None}, "tentatives", "essais"),
        ("Remplacez le texte par :", "replace", {"block": "entry", "ordinal": None}, None, None),
        ("La section 86.11 devrait être supprimée.", "delete", {"block": "entry", "ordinal": None, "section": "86.11"}, None, None),
        ("Le deuxième point de cette section devrait être supprimé.", "delete", {"block": "bullet", "ordinal": 2}, None, None),
        ("Supprimez le deuxième point.", "delete", {"block": "bullet", "ordinal": 2}, None, None),
        ("La section 85.7 devrait être ajoutée :", "insert", {"block": "entry", "ordinal": None, "section": "85.7"}, None, None),
        (
            "Ajoutez à la fin du deuxième paragraphe : « En outre. »",
            "insert",
            {"block": "text", "ordinal": None, "position": "end", "within": "paragraph", "within_ordinal": 2},
            None,
            "En outre.",
        ),
        ("Ajoutez à la fin : « En outre. »", "insert", {"block": "text", "ordinal": None, "position": "end"}, None, "En outre."),
        (
            "La section 2.3 devrait dire : « Six cartes. »",
            "replace",
            {"block": "entry", "ordinal": None, "section": "2.3"},
            None,
            "Six cartes.",
        ),
        (
            "Ajoutez « (Unique) » après le nom de Kari Dame-Pique.",
            "insert",
            {"block": "text", "ordinal": None, "position": "end"},
            None,
            "(Unique)",
        ),
        ("Ajoutez l’encart suivant :", "insert", {"block": "entry", "ordinal": None}, None, None),
        ("Ajout : « Une nouvelle règle. »", "insert", {"block": "text", "ordinal": None, "position": "end"}, None, "Une nouvelle règle."),
        (
            "Le premier point devrait être déplacé pour apparaître en dernier et dire :",
            "move",
            {"block": "bullet", "ordinal": 1, "position": "last"},
            None,
            None,
        ),
        ("Le point « Exposé » devrait dire :", "replace", {"block": "bullet", "ordinal": None, "label": "Exposé"}, None, None),
        ("Le troisième paragraphe de cette section devrait dire :", "replace", {"block": "paragraph", "ordinal": 3}, None, None),
        ("Sa boîte de texte devrait dire :", "replace", {"block": "entry", "ordinal": None}, None, None),
        ("Remplacez le point 2 par :", "replace", {"block": "bullet", "ordinal": 2}, None, None),
        ("Remplacez la règle par :", "replace", {"block": "entry", "ordinal": None}, None, None),
        ("Remplacez “16ps” par “18ps”.", "replace", {"block": "text", "ordinal": None}, "16ps", "18ps"),
        ("Renommez Vétéran en « Vétéran aguerri ».", "replace", {"block": "text", "ordinal": None}, "Vétéran", "Vétéran aguerri"),
        ("Remplacez la compétence Fuite par : « Fuite rapide »", "replace", {"block": "entry", "ordinal": None}, None, "Fuite rapide"),
        ("La portée est de 3 (et non 2).", "replace", {"block": "value", "ordinal": None}, "2", "3"),
        ("Le coût devrait être 4 et non 5.", "replace", {"block": "value", "ordinal": None}, "5", "4"),
        ("Ce devrait être en fait : « Riposte »", "replace", {"block": "entry", "ordinal": None}, None, "Riposte"),
        ("Lire « 4, 5 ou 6 » au lieu de « 5 ou 6 ».", "replace", {"block": "text", "ordinal": None}, "5 ou 6", "4, 5 ou 6"),
        ("Au lieu de « 2 dés », lisez « 3 dés ».", "replace", {"block": "value", "ordinal": None}, "2 dés", "3 dés"),
        ("Lire « 3 dés » (et non « 2 dés »).", "replace", {"block": "value", "ordinal": None}, "2 dés", "3 dés"),
        ("Le paragraphe [15] est remplacé par : « Tout. »", "replace", {"block": "entry", "ordinal": None, "section": "15"}, None, "Tout."),
        (
            "Ajouter après la première phrase : « Le premier tour. »",
            "insert",
            {"block": "text", "ordinal": None, "position": "end", "within": "sentence", "within_ordinal": 1},
            None,
            "Le premier tour.",
        ),
        ("« 5 ou 6 » devient « 4, 5 ou 6 ».", "replace", {"block": "text", "ordinal": None}, "5 ou 6", "4, 5 ou 6"),
        ("Corrigez « 15 cm » en « 20 cm ».", "replace", {"block": "value", "ordinal": None}, "15 cm", "20 cm"),
    ],
)
def test_phrasings(text, kind, scope, before, after):
    op = operation(text)
    assert (op.operation, op.scope(), op.before, op.after) == (kind, scope, before, after)
    # an instruction that gives no text announces it below its colon ("… devrait dire :")
    assert op.expects_text is (after is None and text.rstrip().endswith(":"))


@pytest.mark.parametrize(
    ("text", "kind", "scope"),
    [
        ("Le troisième paragraphe de cette section devrait dire :", "replace", {"block": "paragraph", "ordinal": 3}),
        ("Le quatrième point de cette section devrait dire :", "replace", {"block": "bullet", "ordinal": 4}),
        (
            "Le second point devrait être remplacé par le suivant, assorti de ses « sous-puces » :",
            "replace",
            {"block": "bullet", "ordinal": 2, "with_subbullets": True},
        ),
        (
            "Le second paragraphe de la section 76.2 (page 18) devrait dire :",
            "replace",
            {"block": "paragraph", "ordinal": 2, "section": "76.2"},
        ),
        ("Le point « Exposé » devrait dire :", "replace", {"block": "bullet", "ordinal": None, "label": "Exposé"}),
        ("La section 85.7 devrait être ajoutée :", "insert", {"block": "entry", "ordinal": None, "section": "85.7"}),
        (
            "La section 86.11 devrait être supprimée. Auparavant, elle indiquait :",
            "delete",
            {"block": "entry", "ordinal": None, "section": "86.11"},
        ),
        (
            "Le premier point devrait être déplacé pour apparaître en dernier et dire :",
            "move",
            {"block": "bullet", "ordinal": 1, "position": "last"},
        ),
        ("Remplacez le point 2 par :", "replace", {"block": "bullet", "ordinal": 2}),
        ("Remplacez la dernière phrase par :", "replace", {"block": "sentence", "ordinal": -1}),
        (
            "Remplacez le troisième paragraphe par “Notez qu’une figurine ne peut jamais avoir mieux que 1+.”",
            "replace",
            {"block": "paragraph", "ordinal": 3},
        ),
        (
            "Ajoutez à la fin du deuxième paragraphe : “En outre, toutes les figurines doivent être déployées.”",
            "insert",
            {"block": "text", "ordinal": None, "position": "end", "within": "paragraph", "within_ordinal": 2},
        ),
        (
            "La première phrase du troisième paragraphe doit être remplacée par :",
            "replace",
            {"block": "sentence", "ordinal": 1, "within": "paragraph", "within_ordinal": 3},
        ),
        ("Supprimez le deuxième point.", "delete", {"block": "bullet", "ordinal": 2}),
        ("Remplacez la règle par :", "replace", {"block": "entry", "ordinal": None}),
        ("Ajoutez l’encart suivant :", "insert", {"block": "entry", "ordinal": None}),
    ],
)
def test_block_instructions(text, kind, scope):
    op = operation(text)
    assert (op.operation, op.scope()) == (kind, scope)


@pytest.mark.parametrize(
    ("text", "kind", "scope", "before", "after", "where"),
    [
        (
            "Page 2, section Déplacement, premier paragraphe : remplacer « deux cases » par « trois cases ».",
            "replace",
            {"block": "text", "ordinal": None, "within": "paragraph", "within_ordinal": 1},
            "deux cases",
            "trois cases",
            ("Déplacement", 2, None),
        ),
        (
            "Page 3, section 5.1 : remplacez « deux dés » par « trois dés ».",
            "replace",
            {"block": "text", "ordinal": None, "section": "5.1"},
            "deux dés",
            "trois dés",
            (None, 3, "5.1"),
        ),
        (
            "Déplacement, page 2 : supprimez la dernière phrase.",
            "delete",
            {"block": "sentence", "ordinal": -1},
            None,
            None,
            (None, 2, None),
        ),
        (
            "Dans la section 4.2, remplacez « a » par « b ».",
            "replace",
            {"block": "text", "ordinal": None, "section": "4.2"},
            "a",
            "b",
            (None, None, "4.2"),
        ),
        (
            "Supprimez la dernière phrase de 4.1.",
            "delete",
            {"block": "sentence", "ordinal": -1, "section": "4.1"},
            None,
            None,
            (None, None, None),
        ),
        (
            "Ajoutez à la fin de la section Combat : « Une unité n'attaque qu'une fois. »",
            "insert",
            {"block": "text", "ordinal": None, "position": "end"},
            None,
            "Une unité n'attaque qu'une fois.",
            ("Combat", None, None),
        ),
        (
            "Ajoutez à la fin de la section « Tir à l'arc » : « Portée 3. »",
            "insert",
            {"block": "text", "ordinal": None, "position": "end"},
            None,
            "Portée 3.",
            (None, None, None),
        ),
        (
            "Au début de la section Moral, ajoutez : « Un chef rallie. »",
            "insert",
            {"block": "text", "ordinal": None, "position": "start"},
            None,
            "Un chef rallie.",
            ("Moral", None, None),
        ),
        (
            "La section Combat doit se lire : « Tout combat est final. »",
            "replace",
            {"block": "entry", "ordinal": None},
            None,
            "Tout combat est final.",
            ("Combat", None, None),
        ),
        (
            "En page 7, §17, lire « 4, 5 ou 6 » au lieu de « 5 ou 6 ».",
            "replace",
            {"block": "text", "ordinal": None, "section": "17"},
            "5 ou 6",
            "4, 5 ou 6",
            (None, 7, "17"),
        ),
        (
            "Page 4, [6] : remplacer « 15 cm » par « 20 cm ».",
            "replace",
            {"block": "value", "ordinal": None, "section": "6"},
            "15 cm",
            "20 cm",
            (None, 4, "6"),
        ),
        (
            "Dans la section 4, lire « 3 dés » (et non « 2 dés »).",
            "replace",
            {"block": "value", "ordinal": None, "section": "4"},
            "2 dés",
            "3 dés",
            (None, None, "4"),
        ),
        (
            "Ajouter après la première phrase de §9 : « Le premier tour, le défenseur commence. »",
            "insert",
            {"block": "text", "ordinal": None, "section": "9", "position": "end", "within": "sentence", "within_ordinal": 1},
            None,
            "Le premier tour, le défenseur commence.",
            (None, None, "9"),
        ),
        (
            "Ajoutez avant la dernière phrase de la section Moral : « Un chef rallie. »",
            "insert",
            {"block": "text", "ordinal": None, "position": "start", "within": "sentence", "within_ordinal": -1},
            None,
            "Un chef rallie.",
            ("Moral", None, None),
        ),
    ],
)
def test_an_instruction_names_its_own_place(text, kind, scope, before, after, where):
    found = read_instruction(text)
    op = found.operation
    assert op is not None
    assert (op.operation, op.scope(), op.before, op.after) == (kind, scope, before, after)
    assert (found.locator.title, found.locator.page, found.locator.section) == where


@pytest.mark.parametrize(
    ("text", "scope"),
    [
        ("La section 2.3 devrait dire : « Six cartes. »", {"block": "entry", "ordinal": None, "section": "2.3"}),
        ("Le second paragraphe de la section 76.2 (page 18) devrait dire :", {"block": "paragraph", "ordinal": 2, "section": "76.2"}),
        ("Remplacez « a » par « b » dans la section 3.", {"block": "text", "ordinal": None, "section": "3"}),
        ("Le premier paragraphe de cette section devrait dire :", {"block": "paragraph", "ordinal": 1}),
        ("Le paragraphe [15] est remplacé par : « Tout. »", {"block": "entry", "ordinal": None, "section": "15"}),
        ("Le §15 devrait dire : « Tout. »", {"block": "entry", "ordinal": None, "section": "15"}),
        ("Le paragraphe 15 est remplacé par : « Tout. »", {"block": "paragraph", "ordinal": 15}),
        ("Au lieu de « 2 dés », lire « 3 dés ».", {"block": "value", "ordinal": None}),
        ("Remplacer « 2 dés » par « 3 dés ».", {"block": "value", "ordinal": None}),
        ("Lisez « 3 dés » à la place de « 2 dés ».", {"block": "value", "ordinal": None}),
        ("« 2 dés » doit se lire « 3 dés ».", {"block": "value", "ordinal": None}),
        ("« 2 dés » est remplacé par « 3 dés ».", {"block": "value", "ordinal": None}),
        ("Corriger « 2 dés » en « 3 dés ».", {"block": "value", "ordinal": None}),
    ],
)
def test_instructions_that_name_their_section_keep_it(text, scope):
    assert operation(text).scope() == scope


def test_inline_new_text_is_unquoted_and_an_announced_one_is_expected():
    op = operation("Remplacez le troisième paragraphe par “Notez qu’une figurine ne peut jamais avoir mieux que 1+.”")
    assert (op.after, op.expects_text) == ("Notez qu'une figurine ne peut jamais avoir mieux que 1+.", False)
    assert operation("Le premier paragraphe de cette section devrait dire :").expects_text


def test_ellipsis_markers_cut_from_a_quoted_text_are_no_part_of_it():
    op = operation(
        "Remplacez “(...) a terminé toutes ses tentatives, (...)” par “(...) a terminé toutes ses "
        "tentatives de lancement et de dissipation (...)” dans la dernière phrase."
    )
    assert op.before == "a terminé toutes ses tentatives,"
    assert op.after == "a terminé toutes ses tentatives de lancement et de dissipation"


def test_old_text_quoted_after_a_deletion_is_kept_for_checking():
    op = operation("La section 86.11 devrait être supprimée. Auparavant, elle indiquait : « Résoudre l'effet est optionnel. »")
    assert (op.operation, op.section, op.before, op.expects_text) == ("delete", "86.11", "Résoudre l'effet est optionnel.", False)


def test_a_value_a_title_and_a_card():
    op = operation("la valeur en points de cette arme est de 4 (et non 1).")
    assert (op.operation, op.block, op.before, op.after) == ("replace", "value", "1", "4")
    assert (operation("Renommez l'arme en « Hache ».").block, operation("Renommez l'arme en « Hache ».").after) == ("title", "Hache")
    op = operation("Dans l'extension Archers Réanimés, le premier paragraphe de cette carte Amélioration devrait dire :")
    assert op.card and (op.block, op.ordinal) == ("paragraph", 1)


def test_a_place_named_by_a_quoted_title_is_no_new_text():
    op = operation("Ajoutez à la fin de la section « Tir à l'arc » : « Portée 3. »")
    assert (op.operation, op.after) == ("insert", "Portée 3.")


def test_several_operations_in_one_instruction_are_refused_with_why():
    found = read_instruction("Remplacez « 16ps » par « 18ps » et remplacez « 8ps » par « 9ps ».")
    assert found.operation is None and "2 operations" in (found.problem or "")


@pytest.mark.parametrize(
    "text",
    [
        "Les unités se déplacent.",
        "Q : Peut-on tirer ?",
        "Voir la section 49.",
        "",
        "Si l'ajout d'un plateau à une unité devrait entraîner le chevauchement d'un obstacle, le plateau ne peut pas y être ajouté.",
        "Cette section inclut les errata de règles et de cartes de Runewars.",
        "Les errata suivants s'appliquent à la version du Guide de Référence fournie dans la Boîte de Base.",
        "R : Non. Le rang unique de l'unité constitue à la fois son rang frontal et arrière.",
    ],
)
def test_ordinary_text_is_no_instruction(text):
    found = read_instruction(text)
    assert found.operation is None and found.problem


# ---------------------------------------------------------------- errata given as a table


@pytest.mark.parametrize(
    ("header", "errata"),
    [
        (["Page", "Section", "Ancien texte", "Nouveau texte"], True),
        (["Règle", "Au lieu de", "Lire", "p."], True),  # columns in any order, other words
        (["§", "Texte imprimé", "Correction"], True),
        (["Avant", "Après"], True),
        (["Unité", "Coût", "Portée"], False),
        (["Page", "Ancien texte"], False),  # no new text: not an errata table
    ],
)
def test_an_errata_table_is_known_by_its_header(header, errata):
    assert is_errata_table(header) is errata


def test_each_row_of_an_errata_table_is_a_replace_at_the_place_it_names():
    reading = read_errata_text(
        "\n".join(
            [
                "| Nouveau texte | Ancien texte | Section | Page |",
                "|---|---|---|---|",
                "| à 20 cm | à 15 cm | Mise en place, §6 | 4 |",
                "| « 25 cm » | « 20 cm » | [12] | p. 6 |",
                "|  | baisse de 4 | Moral | 8 |",
                "| b | a | Moral | huit |",
            ]
        )
    )
    assert [(r.line, r.kind, r.old, r.new, r.locator.title, r.locator.page, r.locator.section) for r in reading.read] == [
        (3, "replace", "à 15 cm", "à 20 cm", "Mise en place", 4, "6"),
        (4, "replace", "20 cm", "25 cm", None, 6, "12"),
    ]
    # A row that cannot be read says why; it is never dropped.
    assert [(n.line, n.reason) for n in reading.not_understood] == [
        (5, "the row gives no new text"),
        (6, "its page « huit » is not a number"),
    ]


def test_a_table_that_names_no_old_and_new_text_gives_no_errata():
    reading = read_errata_text("| Unité | Coût |\n|---|---|\n| Archer | 3 |\n")
    assert (reading.read, reading.not_understood) == ([], [])


# ---------------------------------------------------------------- long runs of spaces

RUN = " " * 50_000


@pytest.mark.parametrize("gap", [" ", RUN])
def test_an_instruction_across_a_long_run_is_read_or_refused_at_once(gap: str) -> None:
    operation("Remplacez « a » par « b ».")  # the model loaded before the clock starts
    start = time.process_time()
    for text in (
        f"La portée{gap}doit être 3{gap}et non{gap}2.",
        f"La portée est 3 (et non{gap}2)",
        f"Page 2{gap}: Remplacez « a » par « b ».",
    ):
        found = read_instruction(text)
        if gap == RUN:  # a passage longer than a reader can take is refused, with why
            assert found.operation is None and "not read" in (found.problem or "")
        else:
            assert found.operation is not None and found.operation.after in ("3", "b")
    assert time.process_time() - start < 2.0
