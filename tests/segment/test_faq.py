"""The faq profile on a few lines shaped like the Runewars tournament FAQ: errata sections under
their headings, and each "Q : … R : …" pair one question entry under its topic."""

from __future__ import annotations

import pytest

from tests.helpers import assert_segments, blocks, by_key, segment_text

FAQ = """FAQ DE TOURNOI

Errata

Guide de Référence

Ligne de Vue, page 13, section 49

Le premier paragraphe de cette section devrait dire :

« Une unité doit avoir une ligne de vue. »

Menace, page 14, section 51.1

Le second point devrait être remplacé par le suivant, assorti de ses « sous-puces » :

- ♦ « Si l'attaquant dispose d'un rang partiel :
- ◇ **Flanc** : le nombre de rangs.
- ◇ **Dos** : le nombre de plateaux. »

FAQ

Ligne de Vue

Q : Une unité engagée peut-elle tracer une ligne de vue ?

R : Non.

Q : Une figurine bloque-t-elle la ligne de vue ?

R : Oui, toujours.
Exemple : une unité de Piquiers.

Menace

Q : Comment la menace est-elle calculée ?

R : Voir la section 51.
"""
OPTIONS = {"outline": ["# Errata", "## Guide de Référence", "# FAQ"], "set_aside": [{"lines": [1, 1], "reason": "title page"}]}
E = "errata/guide-de-reference/"


def test_the_outline_and_the_questions():
    assert_segments("faq", FAQ, [
        ("errata", "section", "Errata"),
        ("errata/guide-de-reference", "section", "Guide de Référence"),
        (E + "ligne-de-vue-page-13-section-49", "section", "Ligne de Vue, page 13, section 49"),
        (E + "menace-page-14-section-51-1", "section", "Menace, page 14, section 51.1"),
        ("faq", "section", "FAQ"),
        ("faq/ligne-de-vue", "section", "Ligne de Vue"),
        ("faq/ligne-de-vue/q1", "question", None),
        ("faq/ligne-de-vue/q2", "question", None),
        ("faq/menace", "section", "Menace"),
        ("faq/menace/q1", "question", None),  # numbered within its topic
    ], OPTIONS)


def test_errata_sections_keep_instruction_and_new_text_as_blocks():
    result, _, _ = segment_text("faq", FAQ, OPTIONS)
    entries = by_key(result)
    assert blocks(entries[E + "ligne-de-vue-page-13-section-49"]) == [
        ("paragraph", "Le premier paragraphe de cette section devrait dire :"),
        ("paragraph", "« Une unité doit avoir une ligne de vue. »")]
    menace = entries[E + "menace-page-14-section-51-1"]
    assert [b.type for b in menace.blocks] == ["paragraph", "bullet", "subbullet", "subbullet"]
    assert menace.blocks[2].text == "Flanc : le nombre de rangs."  # emphasis in markdown only
    assert menace.blocks[2].markdown == "**Flanc** : le nombre de rangs."


def test_questions_pair_q_and_r_and_keep_what_follows():
    result, _, _ = segment_text("faq", FAQ, OPTIONS)
    entries = by_key(result)
    first = entries["faq/ligne-de-vue/q1"]
    assert blocks(first) == [("question", "Une unité engagée peut-elle tracer une ligne de vue ?"), ("answer", "Non.")]
    assert first.parent is entries["faq/ligne-de-vue"] and first.title is None
    assert first.heading_lines == []  # a question has no heading line: its lines are its blocks'
    assert blocks(entries["faq/ligne-de-vue/q2"])[2] == ("paragraph", "Exemple : une unité de Piquiers.")
    assert [s.reason for s in result.set_aside] == ["title page"]


@pytest.mark.parametrize(("question", "answer"), [("Q : A ?", "R : B."), ("Question : A ?", "Réponse : B."), ("Q: A ?", "A : B."),
                                                  ("Q. A ?", "R. B."), ("Q - A ?", "R – B."), ("**Q.** A ?", "**R.** B.")])
def test_question_and_answer_prefixes(question, answer):
    result, _, _ = segment_text("faq", f"Sujet\n\n{question}\n{answer}\n")
    assert [(b.type, b.text) for e in result.entries for b in e.blocks] == [("question", "A ?"), ("answer", "B.")]



def test_a_hard_wrapped_line_opening_on_a_quote_or_a_parenthesis_goes_on_with_its_sentence():
    result, _, _ = segment_text("faq", "Météo\n\nLa carte révélée s'applique à toute la cordée :\n« Soleil » ne fait rien,\n"
                                "« Orage » bloque.\n« Pluie » est une autre carte.\n\nQ. Peut-on s'arrêter ?\n"
                                "R. Oui, on peut s'y arrêter\n(voir « Météo »).\n\n(Cette FAQ est courte.)\n")
    entries = by_key(result)
    assert blocks(entries["meteo"]) == [
        ("paragraph", "La carte révélée s'applique à toute la cordée : « Soleil » ne fait rien, « Orage » bloque."),
        ("paragraph", "« Pluie » est une autre carte.")]  # the sentence above ends: a new paragraph
    assert blocks(entries["meteo/q1"]) == [
        ("question", "Peut-on s'arrêter ?"), ("answer", "Oui, on peut s'y arrêter (voir « Météo »)."),
        ("paragraph", "(Cette FAQ est courte.)")]  # after a blank line: its own paragraph



def test_numbered_items_asking_a_question_with_their_answer_are_questions():
    text = ("Questions\n\n1. Peut-on charger ? Réponse : oui, toujours.\n\n2. Le général compte-t-il ?\nRéponse : non.\n\n"
            "3. Une unité pivote-t-elle ?\nOui, si elle le\nveut.\n\nMise en place\n\n1. Placez le plateau.\n"
            "2. Posez les cartes. Qui commence ? Réponse : le plus jeune.\n3. Qui commence ? Le plus jeune.\n")
    result, _, _ = segment_text("faq", text)
    entries = by_key(result)
    assert [(e.key, e.number) for e in result.entries if e.kind == "question"] == [
        ("questions/q1", "1"), ("questions/q2", "2"), ("questions/q3", "3")]
    assert blocks(entries["questions/q1"]) == [("question", "Peut-on charger ?"), ("answer", "oui, toujours.")]
    assert blocks(entries["questions/q2"]) == [("question", "Le général compte-t-il ?"), ("answer", "non.")]
    assert blocks(entries["questions/q3"]) == [("question", "Une unité pivote-t-elle ?"), ("answer", "Oui, si elle le veut.")]
    # steps that ask on the way, or whose question has no answer prefix after it, stay steps
    assert [b.type for b in entries["mise-en-place"].blocks] == ["step", "step", "step"]


def test_an_answer_without_its_question_is_a_paragraph():
    result, _, _ = segment_text("faq", "Sujet\n\nR : Non.\n")
    assert blocks(result.entries[0]) == [("paragraph", "R : Non.")]


CATALOGUE = """Questions sur les règles

Question 1.1
Quelles sont les dimensions du terrain ?
  a) 40 x 20 m
  b) 42 x 20 m
Réponse : a
Règle(s) : 1:1

Question 1.2
Quelle est la hauteur des buts ?
  a) 2 m
  b) 3 m
Réponse : a
Règle(s) : 1:2, 2:7

Question 2.1
Combien de joueurs ?
Réponse : b

Question SAR.1
Une question de l'annexe ?
Réponse : a
"""


def test_numbered_questions_are_siblings_named_by_their_numbers():
    """"Question 1.2" under "Question 1.1" (no heading between): a question never opens inside
    another, and its printed number names it."""
    result = assert_segments("faq", CATALOGUE, [
        ("preambule", "section", None),
        ("preambule/q1.1", "question", None),
        ("preambule/q1.2", "question", None),
        ("preambule/q2.1", "question", None),
        ("preambule/qsar.1", "question", None),
    ])
    entries = by_key(result)
    assert [entries[k].number for k in ("preambule/q1.1", "preambule/q2.1", "preambule/qsar.1")] == ["1.1", "2.1", "SAR.1"]
    assert all(entries[k].parent is entries["preambule"] for k in entries if k != "preambule")
    assert blocks(entries["preambule/q1.2"]) == [
        ("question", "Quelle est la hauteur des buts ?"), ("subbullet", "a) 2 m"), ("subbullet", "b) 3 m"),
        ("answer", "a"), ("paragraph", "Règle(s) : 1:2, 2:7")]


def test_numbered_questions_stay_under_their_topic_heading():
    text = "Le terrain\n\nQuestion 1\nQuelle taille ?\nRéponse : a\n\nQuestion 2\nQuels buts ?\nRéponse : b\n"
    result = assert_segments("faq", text, [
        ("le-terrain", "section", "Le terrain"),
        ("le-terrain/q1", "question", None),
        ("le-terrain/q2", "question", None),
    ], {"outline": ["# Le terrain"]})
    assert blocks(by_key(result)["le-terrain/q2"]) == [("question", "Quels buts ?"), ("answer", "b")]


def test_a_question_split_over_headings_stays_one_question():
    """A converter's headings cut through a question ("…doit-il toujours" / "## intervenir ?") or
    make one of its own lines ("## Que faites-vous ?"): those belong to the question open."""
    text = """# Sujet

## Question 3 : L'arbitre doit-il toujours

## intervenir ?

- a) Oui.
- b) Non.

## Question 4 : Cadence 1h ko

Les Noirs touchent le Roi et disent « J'adoube ». Le conducteur des noirs demande la position légale

## connue. Que faites-vous ?

- a) Rien.

## Question 5

## Quand dit-on qu'un joueur a le trait ?

- a) Jamais.
"""
    result, _, _ = segment_text("faq", text)
    entries = by_key(result)
    assert [k for k in entries] == ["sujet", "sujet/q3", "sujet/q4", "sujet/q5"]
    assert blocks(entries["sujet/q3"])[0] == ("question", "L'arbitre doit-il toujours intervenir ?")
    assert blocks(entries["sujet/q4"])[1][1].endswith("demande la position légale connue. Que faites-vous ?")
    assert blocks(entries["sujet/q5"]) == [("question", "Quand dit-on qu'un joueur a le trait ?"), ("bullet", "a) Jamais.")]


def test_a_topic_heading_asking_a_question_opens_its_topic():
    """"## Comment fonctionne la magie ?" after a "Q : … R : …" pair is the next topic, not a line
    of the question answered before it: only a question still being asked takes a heading."""
    text = """# FAQ

## Comment fonctionne le combat ?

Q : Une figurine engagée peut-elle tirer ?

R : Non.

## Comment fonctionne la magie ?

Q : Un sort peut-il cibler un allié ?

R : Oui.
"""
    result = assert_segments("faq", text, [
        ("faq", "section", "FAQ"),
        ("faq/comment-fonctionne-le-combat", "section", "Comment fonctionne le combat ?"),
        ("faq/comment-fonctionne-le-combat/q1", "question", None),
        ("faq/comment-fonctionne-la-magie", "section", "Comment fonctionne la magie ?"),
        ("faq/comment-fonctionne-la-magie/q1", "question", None),
    ])
    assert blocks(by_key(result)["faq/comment-fonctionne-le-combat/q1"]) == [
        ("question", "Une figurine engagée peut-elle tirer ?"), ("answer", "Non.")]


def test_a_heading_after_an_unnumbered_question_is_a_topic():
    """Only a "Question N" the converter cut into headings takes a heading asking a question:
    after "Question : …" not yet answered, "## Qui joue ?" is a topic of its own."""
    text = "# Sujet\n\nQuestion : Une figurine peut-elle tirer ?\n\n## Qui joue ?\n\nQ : Le premier ?\n\nR : Oui.\n"
    result, _, _ = segment_text("faq", text)
    assert [k for k in by_key(result)] == ["sujet", "sujet/q1", "sujet/qui-joue", "sujet/qui-joue/q1"]


def test_unnumbered_and_numbered_questions_never_share_an_id():
    """"Question :" then "Question 1 :" in one topic: the printed number names its question, and a
    question without one takes a form no printed number can ("q-1"), so no id is a duplicate's."""
    text = """# Combat

Question : Une figurine engagée peut-elle tirer ?

Réponse : Non.

Question 1 : Peut-on charger deux fois ?

Réponse : Non.

Question 1.2 : Et trois fois ?

Réponse : Non plus.
"""
    result, _, _ = segment_text("faq", text)
    assert [k for k in by_key(result)] == ["combat", "combat/q-1", "combat/q1", "combat/q1.2"]
    assert result.anomalies == []


def test_a_question_number_printed_twice_names_the_question():
    text = "# Combat\n\nQuestion 1 : Peut-on tirer ?\nRéponse : Non.\n\nQuestion 1\nPeut-on charger deux fois ?\nRéponse : Non.\n"
    result, _, _ = segment_text("faq", text)
    assert [k for k in by_key(result)] == ["combat", "combat/q1", "combat/q1-2"]
    [anomaly] = result.anomalies
    assert anomaly.kind == "duplicate-number" and "None" not in anomaly.detail
    assert "number 1 (question « Peut-on charger deux fois ? »)" in anomaly.detail and anomaly.lines == [6]
