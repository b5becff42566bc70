"""Robustness on real third-party documents in ../shared/external (never copied into the repo)."""

from __future__ import annotations

import json

import pytest

from extract.cli import main
from tests.conftest import SHARED

EXTERNAL = SHARED / "external"


def extract(path, capsys, profile=None) -> dict:
    args = ["extract", str(path), "--json"] + (["--profile", profile] if profile else [])
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.skipif(not (EXTERNAL / "ultimate-wfdf-2021").is_dir(), reason="../shared/external/ultimate-wfdf-2021 is absent")
def test_ultimate_rules_give_sensible_entries(capsys):
    data = extract(EXTERNAL / "ultimate-wfdf-2021" / "regles-ultimate-2021-fr.md", capsys)
    entries = data["entries"]
    assert len(entries) > 20
    assert sum(len(e["blocks"]) for e in entries) > 200
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids))


@pytest.mark.skipif(not (EXTERNAL / "nomic").is_dir(), reason="../shared/external/nomic is absent")
def test_nomic_lists_give_entries_and_steps(capsys):
    data = extract(EXTERNAL / "nomic" / "Lois.md", capsys, profile="bullet-aid")
    titles = [e["title"] for e in data["entries"]]
    assert "Lois" in titles and "Préambule" in titles
    rules = extract(EXTERNAL / "nomic" / "regles_regles.md", capsys, profile="headed-prose")
    steps = [b for e in rules["entries"] for b in e["blocks"] if b["type"] == "step"]
    assert len(steps) >= 5
