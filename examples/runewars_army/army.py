"""A small Runewars army-list checker whose limits come only from the rules' facts.

A tool author's code: it knows nothing of the rules' numbers itself. It asks the facts (the
`regles_facts` fixture in tests, `extract.contract.pytest_plugin.load_facts(build_dir)` elsewhere) for
the army's points limit and for how many points allow one unique unit, so that when an erratum
changes a limit the checker follows, and its tests say so.

The rules give no number of upgrade slots (they are printed on each unit card, which the corpus
does not hold), so the checker does not invent one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

POINTS_MAX = "runewars.armee.points_max"
POINTS_PER_UNIQUE = "runewars.armee.unite_unique_par_tranche"


@dataclass(frozen=True)
class Unit:
    name: str
    cost: int
    unique: bool = False


def check_army(units: list[Unit], facts: Mapping[str, Any], points: int | None = None) -> list[str]:
    """Every reason the army is not legal (empty: legal). `points` is the game's size, by default
    the rules' maximum."""
    limit = facts[POINTS_MAX] if points is None else points
    problems = []
    total = sum(unit.cost for unit in units)
    if total > facts[POINTS_MAX] or total > limit:
        problems.append(f"l'armée coûte {total} points, le maximum est {min(limit, facts[POINTS_MAX])}")
    uniques = [unit.name for unit in units if unit.unique]
    allowed = limit // facts[POINTS_PER_UNIQUE]
    if len(uniques) > allowed:
        problems.append(f"{len(uniques)} unités uniques ({', '.join(uniques)}), {allowed} au plus pour {limit} points")
    names = [unit.name for unit in units if unit.unique]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        problems.append(f"unité unique en double : {', '.join(twice)}")
    return problems
