"""extract/search/engine.py without an index: the French analysis, query cleaning, snippets."""

from __future__ import annotations

import pytest

from extract.search.engine import analyse, clean_query, primary_forms, snippet


@pytest.mark.parametrize(("typed", "indexed"), [
    ("l'unité", "unité"),  # elision split
    ("d’attaque", "attaque"),  # curly apostrophe
    ("unite", "unité"),  # typed without its accent
    ("UNITÉS", "unité"),  # case and plural
    ("Désengager", "desengager"),
])
def test_spellings_meet(typed, indexed):
    assert set(analyse(typed)) & set(analyse(indexed))


@pytest.mark.parametrize("text", ["les des aux", "qu'elle", "comment pourquoi", "la cette"])
def test_stop_words_only(text):
    assert analyse(text) == []


def test_numbers_stay_whole_and_words_differ():
    assert analyse("5.03A l'arc") == ["5.03a", "arc"]
    assert not set(analyse("moral")) & set(analyse("morceau"))


def test_primary_forms_one_per_word_in_order():
    assert primary_forms("agilité et Agilite") == ["agil", "agilit"]  # "agilité" also yields "agilit" but only once per word
    assert len(analyse("agilité")) == 2  # both stems, at one position
    assert primary_forms("Les unités attaquent") == ["unit", "attaquent"]


@pytest.mark.parametrize(("typed", "clean"), [
    ("ligne\x00de\x07vue", "ligne de vue"),  # control characters become spaces
    ("  test   de\tmoral \n", "test de moral"),
    ("", ""),
])
def test_clean_query(typed, clean):
    assert clean_query(typed) == clean


def test_clean_query_is_bounded():
    assert len(clean_query("x" * 10_000)) == 500


def test_snippet_marks_matched_words_in_text_and_html():
    plain, html = snippet("Une unité qui effectue un test de moral lance les dés.", set(analyse("tests moral")))
    assert plain == "Une unité qui effectue un [test] de [moral] lance les dés."
    assert html == "Une unité qui effectue un <mark>test</mark> de <mark>moral</mark> lance les dés."


def test_snippet_windows_a_long_text_around_the_matches():
    text = "mot " * 100 + "le test de moral arrive ici " + "fin " * 100
    plain, html = snippet(text, set(analyse("moral")), width=60)
    assert plain.startswith("…") and plain.endswith("…") and "[moral]" in plain
    assert len(plain) <= 60 + 4 and html.count("<mark>") == 1  # the window, two ellipses, one pair of brackets


def test_snippet_escapes_html_and_leaves_unmatched_text_as_is():
    assert snippet("a < b et moral", set(analyse("moral"))) == ("a < b et [moral]", "a &lt; b et <mark>moral</mark>")
    assert snippet("rien <ici>", set()) == ("rien <ici>", "rien &lt;ici&gt;")
