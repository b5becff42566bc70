"""The site's own scripts parse in the browsers readers still carry on their phones: a regular
expression with a lookbehind is a syntax error for Safari before 16.4, and one such literal stops
the whole file (no search box at all)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

LOOKBEHIND = re.compile(r"\(\?<[=!]")


def test_no_script_uses_a_regex_lookbehind():
    scripts = sorted((ROOT / "site" / "assets").glob("*.js"))
    assert scripts
    found = [f"{path.name}:{n}" for path in scripts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if LOOKBEHIND.search(line)]
    assert found == []
