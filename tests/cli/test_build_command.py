"""extract/cli/commands.py `build_command`: what `regles build` says besides its summary."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import extract.pipeline
from extract.cli.commands import build_command
from extract.model import Anomaly, Diagnostics


def fake_build(anomalies: list[tuple[str, Anomaly]]):
    diagnostics = Diagnostics()
    for where, anomaly in anomalies:
        diagnostics.add(where, anomaly)
    game = SimpleNamespace(game=SimpleNamespace(id="demo"), entries=[1, 2], diagnostics=diagnostics)

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
