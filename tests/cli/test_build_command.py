"""extract/cli/commands.py `build_command`: what `regles build` says besides its summary."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import extract.pipeline
from extract.cli.commands import build_command
from extract.model import Anomaly, Diagnostics, Erratum


def fake_build(anomalies: list[tuple[str, Anomaly]], errata: list[Erratum] | None = None):
    diagnostics = Diagnostics()
    for where, anomaly in anomalies:
        diagnostics.add(where, anomaly)
    game = SimpleNamespace(game=SimpleNamespace(id="demo"), entries=[1, 2], diagnostics=diagnostics, errata=errata or [])

    def build(root, out, progress, notice=None, site_url=None):
        return SimpleNamespace(out=Path("build"), entry_count=2, games=[game], stages={"load": 0.1})
    return build


def test_severe_anomalies_are_said_on_the_console(monkeypatch, capsys):
    monkeypatch.setattr(extract.pipeline, "build", fake_build([
        ("demo/regles", Anomaly("one-entry-holds-most", "preambule holds 100% of the placed lines", [3], "severe")),
        ("demo/regles", Anomaly("html-kept", "a <div>", [9], "warning")),
    ]))
    assert build_command(Path("."), None, as_json=False) == 0
    err = capsys.readouterr().err
    assert "warning: 1 severe anomaly" in err and "demo/regles: one-entry-holds-most: preambule holds 100%" in err
    assert "html-kept" not in err  # warnings stay in the report


def test_a_clean_build_says_nothing_more_and_json_lists_the_severe(monkeypatch, capsys):
    monkeypatch.setattr(extract.pipeline, "build", fake_build([]))
    build_command(Path("."), None, as_json=False)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(extract.pipeline, "build", fake_build([
        ("demo/regles", Anomaly("no-entries", "the profile found no entry", [], "severe"))]))
    build_command(Path("."), None, as_json=True)
    summary = json.loads(capsys.readouterr().out)
    assert summary["severe"] == [{"document": "demo/regles", "kind": "no-entries", "detail": "the profile found no entry",
                                  "severity": "severe"}]


def test_errata_failed_or_not_understood_are_said_on_the_console(monkeypatch, capsys):
    failed = Erratum("demo/faq/errata/x", "demo/faq/x", None, "replace", {}, None, "Trois.", "failed",
                     reason="0 entries numbered 9 in regles", instruction="Page 3, section 9 : remplacez « deux » par « trois ».")
    applied = Erratum("demo/faq/errata/y", "demo/faq/y", "demo/regles/1", "replace", {}, None, "Un.", "applied")
    unread = Anomaly("erratum-not-understood", "corpus/demo/faq.md, line 7: « Remplacez tout. » reads like an erratum", [7], "warning")
    monkeypatch.setattr(extract.pipeline, "build", fake_build([("demo/faq", unread)], [failed, applied]))
    assert build_command(Path("."), None, as_json=False) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["warning: 2 errata not applied (all in build/report.json):",
                   "  demo/faq/errata/x: failed: 0 entries numbered 9 in regles",
                   "  demo/faq: not understood: corpus/demo/faq.md, line 7: « Remplacez tout. » reads like an erratum"]
    build_command(Path("."), None, as_json=True)
    summary = json.loads(capsys.readouterr().out)
    assert summary["errata_failed"] == [{"id": "demo/faq/errata/x", "instruction": failed.instruction, "reason": failed.reason}]
    assert [a["lines"] for a in summary["errata_not_understood"]] == [[7]]
