"""Shared fixtures: one build of the real corpus per test session, and small fixture corpora."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from extract.pipeline import build

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("real") / "build"
    build(ROOT, out)
    games = {p.stem: json.loads(p.read_text(encoding="utf-8"))
             for p in (out / "data").glob("*.json") if p.name != "schema.json"}
    return {
        "out": out,
        "games": games,
        "entries": {e["id"]: e for g in games.values() for e in g["entries"]},
        "report": json.loads((out / "report.json").read_text(encoding="utf-8")),
        "schema": json.loads((out / "data" / "schema.json").read_text(encoding="utf-8")),
    }


def make_corpus(root: Path, text: str | bytes, profile: str = "headed-prose", options: str = "",
                sha256: str | None = None, extra_documents: str = "") -> Path:
    """A one-game corpus in `root`, the source given as text, with a manifest declaring it."""
    folder = root / "corpus" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (folder / "source.txt").write_bytes(data)
    digest = sha256 or hashlib.sha256(data).hexdigest()
    (folder / "game.toml").write_text(f"""id = "demo"
title = "Démo"

[[sources]]
file = "source.txt"
sha256 = "{digest}"

[[documents]]
id = "regles"
title = "Règles"
kind = "rulebook"
source = "source.txt"
profile = "{profile}"
{options}
{extra_documents}
""", encoding="utf-8")
    return root


def copy_real_corpus(root: Path) -> Path:
    shutil.copytree(ROOT / "corpus", root / "corpus")
    return root
