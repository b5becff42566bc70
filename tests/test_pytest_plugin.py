"""The `regles_facts` fixture another project's tests use: values by id, stale facts refused, the
build found by option, and a failing assertion when the rules differ from the tool."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from extract.contract.pytest_plugin import StaleFact, load_facts

FACTS = [
    {"id": "demo.armee.points_max", "label": "Points", "value": 200, "unit": "points", "entry": "demo/guide/12",
     "quote": "200 points", "status": "holds", "errata": [], "source": {"file": "corpus/demo/facts.toml", "line": 1}},
    {"id": "demo.armee.uniques", "label": "Uniques", "value": 2, "unit": None, "entry": "demo/guide/13",
     "quote": "deux unités", "status": "stale", "errata": ["demo/faq/errata/1"], "reason": "changed by demo/faq/errata/1",
     "source": {"file": "corpus/demo/facts.toml", "line": 9}},
]


def build_dir(tmp_path):
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "demo.json").write_text(json.dumps({"facts": FACTS}), encoding="utf-8")
    (tmp_path / "data" / "schema.json").write_text("{}", encoding="utf-8")
    return tmp_path


def test_facts_by_id_and_stale_ones_refused(tmp_path):
    facts = load_facts(build_dir(tmp_path))
    assert facts["demo.armee.points_max"] == 200 and len(facts) == 2
    assert facts.fact("demo.armee.uniques")["errata"] == ["demo/faq/errata/1"]
    with pytest.raises(StaleFact, match="demo/faq/errata/1"):
        facts["demo.armee.uniques"]
    with pytest.raises(KeyError, match="did you mean demo.armee.points_max"):
        facts["demo.armee.points"]


@pytest.mark.corpus  # a whole build
def test_a_project_test_fails_when_the_rules_differ(tmp_path):
    build = build_dir(tmp_path / "build")
    project = tmp_path / "project"
    project.mkdir()
    (project / "test_tool.py").write_text(
        "def test_same_limit(regles_facts):\n    assert regles_facts['demo.armee.points_max'] == 200\n\n"
        "def test_old_limit(regles_facts):\n    assert regles_facts['demo.armee.points_max'] == 150\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",  # the plugin comes by its entry point
                           f"--regles-build={build}", "--rootdir", str(project), str(project)],
                          capture_output=True, text=True, cwd=project)
    assert "1 failed, 1 passed" in done.stdout, done.stdout[-1500:]
    assert "assert 200 == 150" in done.stdout
