"""Small helpers for the fast unit tier: a profile run on a few lines of text, no corpus, no build."""

from __future__ import annotations

import ast
import functools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from extract.model import Anomaly, DocumentSpec, Entry, Line, Segmentation
from extract.read.normalise import normalise
from extract.segment import book_order, segment_document


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once per process for the tests that scan the package
    (its rooms and floors, its private names): about half a second for the whole of extract/. The
    tree is shared: readers walk it, never change it."""
    return ast.parse(path.read_text(encoding="utf-8"))


def text_lines(text: str) -> list[Line]:
    """`text` as the plain-text reader gives it: one Line per source line, numbered from 1."""
    return [Line(no, line) for no, line in enumerate(text.splitlines(), start=1)]


def document(profile: str, options: dict[str, Any] | None = None) -> DocumentSpec:
    return DocumentSpec("regles", "Règles", "rulebook", "", "", "corpus/demo/source.txt", 1, None, profile, options or {})


def segment_text(profile: str, text: str, options: dict[str, Any] | None = None) -> tuple[Segmentation, list[Anomaly], int]:
    """Normalise and segment `text` as the pipeline does (tree settled, every line accounted for)."""
    doc = document(profile, options)
    lines, anomalies, read = normalise(text_lines(text), doc)
    result = segment_document("demo", doc, lines, "corpus/demo/game.toml")
    result.entries = book_order(result.entries)
    return result, anomalies, read


def outline(entries: list[Entry]) -> list[tuple[str, str, str | None]]:
    """(key, kind, title) of each entry in book order: a segmentation at a glance."""
    return [(e.key, e.kind, e.title) for e in entries]


def assert_segments(profile: str, text: str, expected: list[tuple[str, str, str | None]],
                    options: dict[str, Any] | None = None) -> Segmentation:
    """The entries `profile` finds in `text` are `expected` ((key, kind, title), book order), and
    every line is placed or set aside."""
    result, _, _ = segment_text(profile, text, options)
    assert outline(result.entries) == expected
    assert not [a for a in result.anomalies if a.kind == "unrecognised-line"]
    return result


def by_key(result: Segmentation) -> dict[str, Entry]:
    """The entries of a segmentation by key (the id without game and document)."""
    return {e.key: e for e in result.entries}


def blocks(entry: Entry) -> list[tuple[str, str]]:
    """(type, text) of each block of `entry`."""
    return [(b.type, b.text) for b in entry.blocks]


def kinds(anomalies: list[Anomaly]) -> list[str]:
    return [a.kind for a in anomalies]


def cpu_growth(run: Callable[[int], object], small: int, times: int = 8) -> float:
    """How many times more CPU `run(times * small)` takes than `run(small)` (best of three), in CPU
    seconds of this thread: a busy machine slows a run down but barely changes its CPU time, so
    the ratio holds where a wall-clock limit flakes. About `times` for a linear cost, `times`²
    for a quadratic one."""

    def cpu(size: int, repeat: int) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.thread_time()
            run(size)
            best = min(best, time.thread_time() - start)
        return best

    return cpu(times * small, 1) / max(cpu(small, 3), 1e-6)


def phare_with_versions(root: Path) -> Path:
    """`root/corpus/phare/`: the worked example with its FAQ's two versions
    (`examples/phare/game-with-versions.toml`), copied; `root` is the project folder to build."""
    from tests.conftest import ROOT

    example = ROOT / "examples" / "phare"
    folder = root / "corpus" / "phare"
    folder.mkdir(parents=True)
    for name in ("regles-du-phare.pdf", "faq-du-phare.md", "faq-du-phare-1.0.md"):
        (folder / name).write_bytes((example / name).read_bytes())
    (folder / "game.toml").write_bytes((example / "game-with-versions.toml").read_bytes())
    return folder
