"""Facts: values read from French sentences, the facts file read strictly, each fact verified
against the current text and made stale by an erratum that changes its words."""

from __future__ import annotations

import pytest

from extract.corpus.facts import read_facts
from extract.errors import InputError
from extract.facts import numbers_in, stated, verify_facts
from extract.lookup import Lookup
from extract.model import Block, Entry, Erratum, GameSpec


@pytest.mark.parametrize(("text", "numbers"), [
    ("ne peut excéder 200 points.", [200]),
    ("90 cm x 180 cm", [90, 180]),
    ("une portée de 1,5 pouce", [1, 1.5]),
    ("entre 38 et 42 m", [38, 42]),
    ("quatre-vingts figurines", [80]),
    ("vingt et un dés", [21]),
])
def test_numbers_in_french_sentences(text, numbers):
    found = numbers_in(text)
    assert all(n in found for n in numbers), found


@pytest.mark.parametrize(("value", "quote", "holds"), [
    (2, "chaque armée ne peut inclure que deux unités uniques", True),
    (3, "chaque armée ne peut inclure que deux unités uniques", False),
    ({"min": 1, "max": 2}, "à portée 1–2 de l'unité", True),
    ([90, 180], "elle est de 90 cm x 180 cm", True),
    ([90, 120], "elle est de 90 cm x 180 cm", False),
    ("Mêlée", "une attaque de mêlée", True),
])
def test_a_quote_states_its_value(value, quote, holds):
    assert stated(value, quote) is holds


GOOD = """[[fact]]
id = "demo.armee.points_max"
label = "Points d'armée"
value = 200
unit = "points"
entry = "guide/12"
quote = "ne peut excéder 200 points"
"""


def facts_file(tmp_path, text: str):
    folder = tmp_path / "corpus" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "facts.toml").write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("change", "message"), [
    (('unit = "points"', 'unite = "points"'), "corpus/demo/facts.toml:1: unknown key 'unite'"),
    (('id = "demo.armee.points_max"', 'id = "runewars.armee.points_max"'), "must be dotted lowercase words starting with 'demo'"),
    (("value = 200", "value = true"), "not true/false"),
    (("value = 200", "value = {min = 3, max = 1}"), "range min 3 is above max 1"),
    (('quote = "ne peut excéder 200 points"\n', ""), "needs quote"),
])
def test_a_bad_facts_file_names_the_file_and_line(tmp_path, change, message):
    root = facts_file(tmp_path, GOOD.replace(*change))
    with pytest.raises(InputError, match=message):
        read_facts(root, "demo")


def test_a_good_facts_file(tmp_path):
    (fact,) = read_facts(facts_file(tmp_path, GOOD), "demo")
    assert (fact.id, fact.value, fact.unit, fact.entry, fact.line) == ("demo.armee.points_max", 200, "points", "demo/guide/12", 1)


def lookup_with(text: str, printed: str | None = None) -> Lookup:
    entry = Entry("demo", "guide", "rule", "12", None, "12", blocks=[Block("paragraph", text)])
    if printed is not None:
        entry.status, entry.original_blocks, entry.errata = "amended", [Block("paragraph", printed)], ["demo/faq/errata/1"]
    return Lookup(GameSpec("demo", "Démo", [], [], "corpus/demo/game.toml", {}), [entry])


def test_a_fact_holds_stales_or_is_a_mistake(tmp_path):
    (fact,) = read_facts(facts_file(tmp_path, GOOD), "demo")
    found, problems = verify_facts(lookup_with("Une armée ne peut excéder 200 points."), [], [fact])
    assert (fact.status, found, problems) == ("holds", [], [])
    # An erratum changed the limit: the printed words are gone from the current text.
    found, problems = verify_facts(lookup_with("Une armée ne peut excéder 250 points.", "Une armée ne peut excéder 200 points."),
                                   [], [fact])
    assert fact.status == "stale" and fact.errata == ["demo/faq/errata/1"] and problems == []
    assert [a.kind for _, a in found] == ["fact-stale"]
    # An erratum elsewhere in the rule: the fact still holds and lists it.
    verify_facts(lookup_with("Une armée ne peut excéder 200 points. Elle a un chef.", "Une armée ne peut excéder 200 points."),
                 [], [fact])
    assert fact.status == "holds" and fact.errata == ["demo/faq/errata/1"]
    # Words the rule never said: a mistake in the facts file, with its line.
    _, problems = verify_facts(lookup_with("Une armée compte des unités."), [], [fact])
    assert [str(p) for p in problems] == ["corpus/demo/facts.toml:1: fact demo.armee.points_max: the quote is not in the "
                                          "current text of demo/guide/12"]


def test_a_fact_whose_quote_does_not_state_its_value(tmp_path):
    (fact,) = read_facts(facts_file(tmp_path, GOOD.replace("value = 200", "value = 250")), "demo")
    _, problems = verify_facts(lookup_with("Une armée ne peut excéder 200 points."), [], [fact])
    assert "does not state the value 250" in str(problems[0])


def test_a_fact_can_cite_an_erratum_that_is_its_source(tmp_path):
    text = GOOD.replace('quote = "ne peut excéder 200 points"', 'quote = "subit 1 blessure"\nerratum = "faq/errata/1"')
    text = text.replace("value = 200", "value = 1")
    (fact,) = read_facts(facts_file(tmp_path, text), "demo")
    erratum = Erratum("demo/faq/errata/1", "demo/guide/12", None, "replace", {}, None,
                      "Chaque unité à portée 1 subit 1 blessure.", "recorded")
    _, problems = verify_facts(lookup_with("Une carte Terrain."), [erratum], [fact])
    assert problems == [] and fact.status == "holds" and fact.errata == ["demo/faq/errata/1"]
