"""The house: one room per stage over a shared ground floor. Rooms import the ground floor and
themselves only (never each other), the ground floor imports nothing above it, the pipeline and
the CLI sit on top; no import loops; the runtime package never imports the developer tools."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers import parsed

PACKAGE = ROOT / "extract"
ROOMS = {"corpus", "read", "repair", "segment", "errata", "link", "search", "publish"}
TOP = {"pipeline", "cli"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, module_level_only: bool = False) -> set[str]:
    """The `extract…` and `tools…` modules a file imports (inside functions too, unless told)."""
    tree = parsed(path)
    nodes = tree.body if module_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.If) and module_level_only:
            continue  # `if TYPE_CHECKING:` blocks import for annotations only
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in ("extract", "tools")}


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def floor_of(name: str) -> str:
    """'ground', a room's name, or a top-floor name."""
    parts = name.split(".")
    if len(parts) == 1:
        return "ground"  # the package's own __init__
    head = parts[1]
    if head in ROOMS or head in TOP:
        return head
    return "ground"


def known(name: str, names: set[str]) -> str | None:
    """The module a dotted import name refers to (`extract.model.Entry` -> `extract.model`)."""
    while name and name not in names:
        name = name.rpartition(".")[0]
    return name or None


def test_no_room_imports_another_and_the_ground_floor_imports_no_room():
    names = set(modules())
    wrong = []
    for name, path in modules().items():
        here = floor_of(name)
        for imported in imports(path):
            if imported.startswith("tools"):
                wrong.append(f"{name} imports the developer tool {imported}")
                continue
            target = known(imported, names)
            if target is None:
                continue
            there = floor_of(target)
            if there == "ground" or there == here:
                continue
            if here == "ground":
                wrong.append(f"ground-floor {name} imports {target} ({there})")
            elif here in ROOMS:
                wrong.append(f"room {here}: {name} imports {target} ({there})")
            elif here == "pipeline" and there == "cli":
                wrong.append(f"{name} imports the CLI")
    assert wrong == []


def test_no_import_loops():
    names = set(modules())
    graph = {name: {t for i in imports(path, module_level_only=True) if (t := known(i, names)) and t != name}
             for name, path in modules().items()}
    # A package imports its own submodules from __init__ (its public face): that is not a loop.
    for name in graph:
        graph[name] = {t for t in graph[name] if not (t.startswith(name + ".") and (PACKAGE.parent / name.replace(".", "/")).is_dir())}
    state: dict[str, int] = {}
    loops = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                loops.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert loops == []


def test_the_checker_sees_a_sideways_import(tmp_path):
    """The rule above can fail: a room importing another room is caught by floor_of."""
    assert floor_of("extract.errata.apply") == "errata" and floor_of("extract.link.refs") == "link"
    assert floor_of("extract.model") == "ground" and floor_of("extract.pipeline") == "pipeline"
    module = tmp_path / "x.py"
    module.write_text("from extract.segment.segmenter import number_order\n", encoding="utf-8")
    assert imports(module) == {"extract.segment.segmenter", "extract.segment.segmenter.number_order"}


def test_the_cli_offers_every_registered_export_format():
    from extract.cli import EXPORT_FORMATS
    from extract.publish.export import EXPORTS

    assert sorted(EXPORT_FORMATS) == sorted(EXPORTS)


def test_no_merge_conflict_markers_are_left_in_tracked_text():
    """A merge once left `<<<<<<< HEAD` blocks in the changelog (then in the README)."""
    import subprocess

    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = [name for name in listed.decode("utf-8").split("\0") if name]
    assert files
    marker = re.compile(r"^(?:<{7}|>{7}) \S", re.M)
    found = [name for name in files if name.endswith((".md", ".py", ".toml", ".j2", ".html", ".js", ".css"))
             and (ROOT / name).is_file() and marker.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))]
    assert found == []


def test_tests_write_nothing_into_the_projects_build_folder():
    """`make build` refuses a build/ it did not write: a test leaving files there (the browser
    tests' screenshots once did) breaks `make test && make build`."""
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "tests").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"""ROOT\s*/\s*["']build["']""", line) and "re.search" not in line]
    assert found == []
