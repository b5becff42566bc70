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
    root = copy_real_corpus(tmp_path, games=("runewars",))  # after `built`: its lemmas are cached
    (root / "corpus/runewars/errata").mkdir()
    (root / "corpus/runewars/errata/ligue.toml").write_text('''source = "Ligue de test"
date = "2026-11-26"

[[errata]]
target = "reference/59.2"
operation = "replace"
block = "paragraph"
ordinal = 1
text = "Une armée ne peut inclure qu'une unité unique par tranche de 150 points allouée à l'armée."
''', encoding="utf-8")
    build(root, root / "build")
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    stale = {f["id"]: f for f in report["facts"]["runewars"]["stale"]}
    assert list(stale) == ["runewars.armee.unite_unique_par_tranche"]
    (erratum,) = stale["runewars.armee.unite_unique_par_tranche"]["errata"]
    assert "ligue" in erratum  # the errata file states it
    problems = check_build(root)
    assert [p for p in problems if "stale" in p] == [
        f"runewars: fact runewars.armee.unite_unique_par_tranche is stale: runewars/reference/59.2 was changed by {erratum}: "
        "the quote is no longer its text"]
