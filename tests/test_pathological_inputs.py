"""Pathological documents end to end (issue 37): what a bad conversion or a hostile writer leaves
(leaders of dots and glyphs, runs of spaces, digits, brackets, quotes, "de la section" repeated,
lines of 20,000 characters), through `regles extract`, `regles errata --from`, `regles build` and
`regles search`: every command ends with its usual exit code, one line per problem, no traceback,
and no line longer than the readers' bound reaches the stages. Time and memory at 1 and 10 MB are
measured by `make bench` (tools/bench_linear.py), never here."""

from __future__ import annotations

import json

import pytest

from extract.cli import main
from extract.read import MAX_LINE
from tests.conftest import make_corpus
from tools.bench_linear import generate, generate_errata

pytestmark = pytest.mark.corpus  # whole builds of generated documents

SIZE_MB = 0.15


def test_extract_reads_a_pathological_document(tmp_path, capsys) -> None:
    document = tmp_path / "pathological.md"
    document.write_text(generate(SIZE_MB), encoding="utf-8")
    assert main(["extract", str(document), "--json"]) in (0, 3)
    out, err = capsys.readouterr()
    assert "unexpected" not in err and "Traceback" not in err
    found = json.loads(out)
    assert found["entries"], "the ordinary sections around the pathological lines are read"
    numbers = found["accounting"]
    assert numbers["lines_read"] == numbers["lines_placed"] + numbers["lines_set_aside"]
    long_lines = [a for a in found["anomalies"] if a["kind"] == "long-line"]
    assert long_lines and all(f"at most {MAX_LINE:,}" in a["detail"] for a in long_lines)  # lines of 20,000 characters


def test_errata_from_reads_pathological_instructions(tmp_path, capsys) -> None:
    errata = tmp_path / "errata.md"
    errata.write_text(generate_errata(SIZE_MB), encoding="utf-8")
    assert main(["errata", "--from", str(errata), "--json"]) in (0, 1)
    err = capsys.readouterr().err
    assert "unexpected" not in err and "Traceback" not in err


def test_build_and_search_on_a_pathological_corpus(tmp_path, capsys) -> None:
    root = make_corpus(tmp_path, generate(SIZE_MB))
    assert main(["--root", str(root), "build"]) == 0, capsys.readouterr().err
    report = json.loads((root / "build" / "report.json").read_text(encoding="utf-8"))
    document = report["documents"]["demo/regles"]
    assert document["lines_read"] == document["lines_placed"] + document["lines_set_aside"]
    capsys.readouterr()
    assert main(["--root", str(root), "search", "section règle", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)
