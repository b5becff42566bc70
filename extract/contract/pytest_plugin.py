"""A pytest plugin shipped with regles: the rules' facts as a fixture, so that a tool's own tests
fail when the rules change.

    def test_my_army_builder_uses_the_rules_limit(regles_facts):
        assert regles_facts["runewars.armee.points_max"] == MY_LIMIT

`regles_facts[id]` is the fact's value (a number, a text, a list or {"min", "max"}); a fact an
erratum made stale raises `StaleFact` with the erratum; `regles_facts.fact(id)` gives the whole
record (label, unit, entry, quote, errata). The facts come from a build: `--regles-build DIR`,
the `regles_build` ini option, `$REGLES_BUILD`, or `build/` beside the rootdir; a project can also
override the `regles_build_dir` fixture. Only the standard library is imported: no spaCy, no MkDocs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest


class StaleFact(AssertionError):
    """The fact's words are no longer the rule's: an erratum changed them."""


class Facts(Mapping[str, Any]):
    def __init__(self, records: dict[str, dict[str, Any]]) -> None:
        self._records = records

    def __getitem__(self, fact_id: str) -> Any:
        record = self.fact(fact_id)
        if record["status"] == "stale":
            raise StaleFact(f"fact {fact_id} is stale: {record.get('reason', '')}")
        return record["value"]

    def fact(self, fact_id: str) -> dict[str, Any]:
        if fact_id not in self._records:
            prefix = fact_id.rsplit(".", 1)[0]
            near = sorted(k for k in self._records if k.startswith(prefix))[:5]
            raise KeyError(f"no fact {fact_id!r}" + (f" (did you mean {', '.join(near)}?)" if near else ""))
        return self._records[fact_id]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._records))

    def __len__(self) -> int:
        return len(self._records)


def load_facts(build_dir: Path) -> Facts:
    """Every fact of every game file in `build_dir/data`."""
    folder = Path(build_dir) / "data"
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: no rule data; run `regles build` first")
    records: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        if path.name == "schema.json":
            continue
        for fact in json.loads(path.read_text(encoding="utf-8")).get("facts", []):
            records[fact["id"]] = fact
    return Facts(records)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regles-build", default=None, help="regles build folder holding data/<game>.json")
    parser.addini("regles_build", "regles build folder holding data/<game>.json", default="")


@pytest.fixture(scope="session")
def regles_build_dir(request: pytest.FixtureRequest) -> Path:
    chosen = (request.config.getoption("--regles-build") or request.config.getini("regles_build")
              or os.environ.get("REGLES_BUILD") or "")
    return Path(chosen) if chosen else Path(request.config.rootpath) / "build"


@pytest.fixture(scope="session")
def regles_facts(regles_build_dir: Path) -> Facts:
    try:
        return load_facts(regles_build_dir)
    except FileNotFoundError as missing:
        pytest.fail(str(missing), pytrace=False)
