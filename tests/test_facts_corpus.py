"""The facts of the real corpus: every one holds on the current text; an erratum planted on a
cited rule makes its fact stale, and `regles check` fails naming the fact and the erratum."""

from __future__ import annotations

import json

import pytest

from extract.cli.commands import check_build
from extract.pipeline import build
from tests.conftest import copy_real_corpus

pytestmark = pytest.mark.corpus


def test_every_fact_of_the_corpus_holds(built):
    facts = built["report"]["facts"]
    assert sum(f["holds"] for f in facts.values()) >= 40
    assert len([g for g, f in facts.items() if f["holds"]]) >= 4
    assert all(f["stale"] == [] for f in facts.values())


def test_an_erratum_on_a_cited_rule_makes_its_fact_stale(built, tmp_path):
    """The smallest game with facts (a one-page aid, 23 entries) shows it as well as the largest:
    staleness is the same code for every game and profile, and its erratum is written like any."""
    root = copy_real_corpus(tmp_path, games=("heroscape",))  # after `built`: its lemmas are cached
    (root / "corpus/heroscape/errata").mkdir()
    (root / "corpus/heroscape/errata/ligue.toml").write_text('''source = "Ligue de test"
date = "2026-11-26"

[[errata]]
target = "aide/2-partie"
operation = "replace"
block = "bullet"
ordinal = 2
text = "1 round comprend 4 tours par joueur"
''', encoding="utf-8")
    build(root, root / "build")
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    stale = {f["id"]: f for f in report["facts"]["heroscape"]["stale"]}
    assert list(stale) == ["heroscape.round.tours_par_joueur"]  # not the fact quoting the next bullet
    (erratum,) = stale["heroscape.round.tours_par_joueur"]["errata"]
    assert "ligue" in erratum  # the errata file states it
    assert report["facts"]["heroscape"]["holds"] == built["report"]["facts"]["heroscape"]["holds"] - 1  # the others hold
    problems = check_build(root)
    assert [p for p in problems if "stale" in p] == [
        f"heroscape: fact heroscape.round.tours_par_joueur is stale: heroscape/aide/2-partie was changed by {erratum}: "
        "the quote is no longer its text"]
