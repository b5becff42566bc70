"""The package works wherever it is installed: a wheel carries the site's sources (templates,
theme overrides, assets, mkdocs.yml) and builds a corpus outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, make_corpus

pytestmark = pytest.mark.corpus  # a wheel and a whole build: the slow tier

TEXT = """Règles de démonstration

Mouvement

Une unité se déplace de deux cases.
"""


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    """The wheel built from a copy of the checkout: setuptools writes its build/lib and
    build/bdist.* into the project, where `make build` would then refuse the build/ folder.
    Once per session, not per module: the suite's order (slowest first) puts other modules'
    tests between this module's two, and a module fixture would be built again for the second."""
    import shutil

    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("checkout") / "regles"
    anywhere = shutil.ignore_patterns("__pycache__", "*.egg-info")
    top = {".git", ".venv", "build", ".cache", "screenshots", "corpus", "tests"}  # not extract/corpus, the package

    def ignore(folder: str, names: list[str]) -> set[str]:
        return anywhere(folder, names) | (top & set(names) if Path(folder) == ROOT else set())

    shutil.copytree(ROOT, source, symlinks=True, ignore=ignore)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                           "--quiet", "--disable-pip-version-check", "-w", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return next(out.glob("regles-*.whl"))


def test_the_wheel_carries_the_site_sources_and_no_developer_tools(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("extract/corpus/thesaurus.toml", "extract/publish/files/mkdocs.yml", "extract/publish/files/site/templates/page.md.j2",
                   "extract/publish/files/site/overrides/main.html", "extract/publish/files/site/assets/regles.css",
                   "extract/publish/files/site/overrides/partials/nav.html", "extract/publish/files/site/assets/regles-cite.js",
                   "extract/py.typed"):
        assert needed in names
    assert not any(name.startswith(("tools/", "tests/")) for name in names)


def test_an_installed_wheel_builds_a_corpus_outside_the_checkout(wheel, tmp_path):
    target = tmp_path / "installed"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--disable-pip-version-check",
                           "--target", str(target), str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    project = make_corpus(tmp_path / "project", TEXT)
    # Every module of the package the build used must be the wheel's: the checkout's editable
    # install would otherwise lend a module the wheel lacks.
    script = ("import sys, extract; from extract.cli import main; print(extract.__file__); "
              f"code = main(['--root', {str(project)!r}, 'build']); "
              "print(*sorted(m.__file__ for n, m in sys.modules.items() if n.startswith('extract') and getattr(m, '__file__', None)), "
              "sep='\\n'); sys.exit(code)")
    # No lemma cached: the installed package loads spaCy and tags.
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(target), "REGLES_CACHE_DIR": str(cache)}
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    used = [line for line in run.stdout.splitlines() if line.endswith(".py")]
    assert used and all(line.startswith(str(target)) for line in used), [u for u in used if not u.startswith(str(target))]
    assert (project / "build" / "site" / "index.html").is_file()
    assert (project / "build" / "data" / "demo.json").is_file()
