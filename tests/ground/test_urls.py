"""extract/urls.py: the one URL rule, `<game>/<document>/<page key>/#<anchor>`."""

from __future__ import annotations

from extract.model import Entry
from extract.urls import NAME_BYTES, anchor_of, assign_urls, entry_url, file_name, page_dir, page_file, page_of


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


def test_file_names_made_from_keys_are_bounded_and_deterministic():
    long_key = "q1--" * 75  # 300 characters: a key path nested deep
    name = file_name(long_key, ".json")
    assert len(name.encode("utf-8")) <= NAME_BYTES <= 200 and name.endswith(".json")
    assert name == file_name(long_key, ".json")  # the same key, the same name
    assert file_name(long_key + "x", ".json") != name  # the hash is of the whole, past the cut
    assert file_name("é" * 300).encode("utf-8").decode("utf-8")  # cut between characters, never inside one
    assert file_name("25.3", ".json") == "25.3.json"  # short names as they are


def test_a_page_with_a_long_key_lives_in_bounded_folders():
    long = "a-very-long-heading-" * 15
    page = Entry("demo", "regles", "section", None, "Titre", f"top/{long}", is_page=True)
    question = Entry("demo", "regles", "question", None, None, f"top/{long}/q1", parent=page)
    folders = page_dir(question).split("/")
    assert all(len(f.encode("utf-8")) <= NAME_BYTES for f in folders) and folders[:3] == ["demo", "regles", "top"]
    assert entry_url(question).startswith(page_dir(page) + "/#")  # links follow the same rule
