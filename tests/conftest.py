"""Helpers for tests: the repository's paths and small fixture corpora. The session fixtures
(the real-corpus build, the shared spaCy model) and the tiers live in the root conftest.py, which
tests/ and examples/ share."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


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


def copy_real_corpus(root: Path, games: tuple[str, ...] | None = None) -> Path:
    """The real corpus copied into `root` (only `games`, with the corpus-wide files, when given),
    with the repository's lemma and OCR-repair caches: both are keyed by content, so a copy tags
    and repairs only what changed (after the session's build, `built`, nothing unchanged)."""
    source = ROOT / "corpus"
    if games is None:
        shutil.copytree(source, root / "corpus")
    else:
        (root / "corpus").mkdir(parents=True)
        for path in source.iterdir():
            if path.is_file():
                shutil.copyfile(path, root / "corpus" / path.name)
            elif path.name in games:
                shutil.copytree(path, root / "corpus" / path.name)
    for name in ("lemmas.sqlite", "repairs.sqlite"):
        if (ROOT / ".cache" / name).is_file():
            (root / ".cache").mkdir(exist_ok=True)
            shutil.copyfile(ROOT / ".cache" / name, root / ".cache" / name)
    return root
