"""extract/urls.py: the one URL rule, `<game>/<document>/<page key>/#<anchor>`."""

from __future__ import annotations

from extract.model import Entry
from extract.urls import anchor_of, assign_urls, entry_url, page_dir, page_file, page_of


def tree():
    glossary = Entry("runewars", "reference", "section", None, "Glossaire", "glossaire", is_page=True)
    topic = Entry("runewars", "reference", "topic", "25", "Collision", "25", parent=glossary, is_page=True)
    rule = Entry("runewars", "reference", "rule", "25.3", None, "25.3", parent=topic)
    faq = Entry("runewars", "faq", "section", None, "FAQ", "faq", is_page=True)
    terrain = Entry("runewars", "faq", "section", None, "Terrain", "faq/terrain", parent=faq)
    question = Entry("runewars", "faq", "question", None, None, "faq/terrain/q1", parent=terrain)
    return glossary, topic, rule, faq, terrain, question


def test_the_page_is_the_nearest_entry_that_starts_one():
    glossary, topic, rule, faq, terrain, question = tree()
    assert page_of(rule) is topic and page_of(topic) is topic and page_of(question) is faq
    assert page_dir(rule) == "runewars/reference/25" and page_file(question) == "runewars/faq/faq/index.md"


def test_anchors_are_numbers_else_keys_below_the_page():
    _, topic, rule, faq, terrain, question = tree()
    assert anchor_of(rule) == "25.3" and anchor_of(topic) == "25"
    assert anchor_of(question) == "terrain-q1"  # unique on the page: another topic has a q1 too
    assert anchor_of(terrain) == "terrain" and anchor_of(faq) == "faq"


def test_urls():
    entries = list(tree())
    assign_urls(entries)
    assert [e.url for e in entries] == [
        "runewars/reference/glossaire/#glossaire", "runewars/reference/25/#25", "runewars/reference/25/#25.3",
        "runewars/faq/faq/#faq", "runewars/faq/faq/#terrain", "runewars/faq/faq/#terrain-q1"]
    assert entry_url(entries[2]) == entries[2].url


def test_a_root_that_is_not_a_page_still_is_one():
    root = Entry("demo", "regles", "section", None, "Préambule", "preambule")
    child = Entry("demo", "regles", "section", None, "Détail", "preambule/detail", parent=root)
    assert page_of(child) is root and entry_url(child) == "demo/regles/preambule/#detail"
