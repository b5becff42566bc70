"""No code of the package touches another package's private names (issue 32): a library's
`_name` may change in any release, and code leaning on it breaks silently on an upgrade. An AST
scan of extract/: no `from X import _name`, no `module._name` on a module imported from another
package (the standard library's included), no `_name` read on an object of another package."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT
from tests.helpers import parsed

PACKAGE = ROOT / "extract"


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def foreign_private_uses(path: Path) -> list[str]:
    """`line name` for each private name of another package the file reaches."""
    tree = parsed(path)
    foreign: set[str] = set()  # local names bound to another package's modules or objects
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "extract":
                    foreign.add(alias.asname or alias.name.split(".")[0])
                    if any(private(part) for part in alias.name.split(".")):
                        found.append(f"{node.lineno} import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] != "extract":
            if any(private(part) for part in node.module.split(".")):
                found.append(f"{node.lineno} from {node.module}")
            for alias in node.names:
                foreign.add(alias.asname or alias.name)
                if private(alias.name):
                    found.append(f"{node.lineno} from {node.module} import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in foreign:
                found.append(f"{node.lineno} {ast.unparse(node)}")
    return found


def test_no_module_of_the_package_reaches_another_packages_private_names():
    assert [f"{path.relative_to(ROOT)}:{use}" for path in sorted(PACKAGE.rglob("*.py")) for use in foreign_private_uses(path)] == []


def test_the_scan_sees_each_kind_of_private_use(tmp_path: Path):
    module = tmp_path / "m.py"
    module.write_text("import re\nimport mkdocs.commands.build as b\nfrom mkdocs.structure import pages\n"
                      "from jinja2 import _identity\nfrom extract import model\n"
                      "re._compiler.compile\nb._build_page\npages.Page._title\nmodel._own\nre.compile\n", encoding="utf-8")
    assert sorted(foreign_private_uses(module)) == ["4 from jinja2 import _identity", "6 re._compiler", "7 b._build_page",
                                                    "8 pages.Page._title"]
