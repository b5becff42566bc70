"""The army checker against the rules' facts: if an erratum changed the points limit or the
unique-unit rule, these tests would say so (the facts come from the build, never from the code)."""

from __future__ import annotations

from examples.runewars_army.army import POINTS_MAX, POINTS_PER_UNIQUE, Unit, check_army

KARI = Unit("Kari Dame-Pique", 30, unique=True)
ARDUS = Unit("Ardus Ix'Erebus", 38, unique=True)
RAVOS = Unit("Ravos le Fléau", 46, unique=True)
SPEARMEN = Unit("Lanciers Daqan", 44)
GOLEM = Unit("Golems runiques", 36)


def test_the_rules_still_say_what_the_checker_was_written_for(regles_facts):
    assert regles_facts[POINTS_MAX] == 200
    assert regles_facts[POINTS_PER_UNIQUE] == 100
    assert "200 points" in regles_facts.fact(POINTS_MAX)["quote"]


def test_a_legal_army_is_accepted(regles_facts):
    assert check_army([KARI, SPEARMEN, SPEARMEN, GOLEM], regles_facts) == []  # 154 points, one unique


def test_an_over_budget_army_is_rejected(regles_facts):
    assert check_army([ARDUS, SPEARMEN, SPEARMEN, GOLEM, GOLEM], regles_facts) == []  # 198 points
    problems = check_army([ARDUS, SPEARMEN, SPEARMEN, GOLEM, GOLEM, KARI], regles_facts)  # 228 points
    assert problems == ["l'armée coûte 228 points, le maximum est 200"]


def test_too_many_unique_units_are_rejected(regles_facts):
    problems = check_army([KARI, ARDUS, RAVOS], regles_facts)  # 114 points, three uniques for 200 points
    assert problems == ["3 unités uniques (Kari Dame-Pique, Ardus Ix'Erebus, Ravos le Fléau), 2 au plus pour 200 points"]
    assert check_army([KARI, ARDUS], regles_facts, points=100) == [
        "2 unités uniques (Kari Dame-Pique, Ardus Ix'Erebus), 1 au plus pour 100 points"]


def test_the_limits_come_from_the_facts_only():
    """Other rules, another answer: nothing in the checker is a number of the rules."""
    stricter = {POINTS_MAX: 150, POINTS_PER_UNIQUE: 150}
    assert check_army([KARI, ARDUS, SPEARMEN], stricter) == [  # 112 points: within budget
        "2 unités uniques (Kari Dame-Pique, Ardus Ix'Erebus), 1 au plus pour 150 points"]
    assert check_army([SPEARMEN, SPEARMEN, GOLEM, GOLEM], stricter) == ["l'armée coûte 160 points, le maximum est 150"]
