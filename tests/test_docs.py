"""The documentation is tested: every ```console block of README.md and docs/ is run and its
output checked, every TOML and Python example parses, every link between the docs leads
somewhere, every CLI command and option is documented, and the README stays short. The two
`make` commands: what `make build` runs is run (against a copy of the corpus), what `make test`
runs is read from make (the suite cannot run itself).

A console block holds commands (`$ ` lines) each followed by the output expected from it: each
expected line must be found, in order, among the lines the command printed (stdout and stderr
together, trailing spaces ignored), `...` inside a line standing for any text and a line `...`
alone for any lines. A command is expected to succeed, unless its expected output holds a line
starting with `error:`. A `cd` carries to the next command, as in a shell; `regles serve` is started on a
free port (the page's `8000` read as that port), its home page fetched, then stopped.

A plain `regles …` command (words, quoted or not, and no shell syntax outside quotes) runs in a child
forked from the test's process: `regles`'s `main` with the words as its arguments, in the session's
folder and environment, its stdout and stderr read and its exit code taken as the command's, as
for a new process, but without starting Python and importing the toolkit and spaCy again (most of
the time of the pages' builds). Every other command runs under bash.

The blocks of one page run in order in one temporary folder, also the commands' home (`~`),
holding `examples/` (a link to the repository's) and `regles` (a link to the repository, the
clone the README has in `~/regles`). A page that begins with `<!-- doctest: corpus -->`, or a
block right under that line, runs beside the session's build of the real corpus instead
(`corpus/` and `build/` linked, in a folder of its own): its commands read that build. The
caches (`$REGLES_CACHE_DIR`: lemmas and kept stages, keyed by content) are the session's, shared
between pages.
"""

from __future__ import annotations

import ast
import contextlib
import io
import multiprocessing
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from extract.cli import make_parser
from tests.conftest import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 200
CODE_SPAN = re.compile(r"`[^`\n]*+`")
LINK = re.compile(r"\[[^\]\n]*+\]\((?P<target>[^)\s]++)\)")
BIN = Path(sys.executable).parent  # where `regles` is installed beside the interpreter
COMMAND_TIMEOUT = 600  # seconds: a build on a busy machine


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)


CORPUS_MARK = "<!-- doctest: corpus -->"


def fenced(text: str) -> tuple[list[tuple[str, str, bool]], str]:
    """The fenced blocks of a Markdown text as (language, body, whether the line above the fence
    is CORPUS_MARK), and the text outside them."""
    found: list[tuple[str, str, bool]] = []
    outside: list[str] = []
    lang: str | None = None
    marked = False
    body: list[str] = []
    for line in text.splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, body = line[3:].strip().split(" ")[0], []
                marked = bool(outside) and outside[-1].strip() == CORPUS_MARK
            else:
                found.append((lang, "".join(f"{row}\n" for row in body), marked))
                lang = None
        elif lang is None:
            outside.append(line)
        else:
            body.append(line)
    return found, "\n".join(outside)


def blocks(page: Path, lang: str) -> list[str]:
    return [body for kind, body, _ in fenced(page.read_text(encoding="utf-8"))[0] if kind == lang]


def steps(body: str) -> list[Step]:
    found: list[Step] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            found.append(Step(line[2:].strip()))
        elif found:
            found[-1].expected.append(line.rstrip())
    return found


def matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual, re.S) is not None


def missing(expected: list[str], output: str) -> list[str]:
    """The expected lines not found, in order, in `output`."""
    lines = [line.rstrip() for line in output.splitlines()]
    at = 0
    for i, want in enumerate(expected):
        if want.strip() in ("", "..."):
            continue
        found = next((n for n in range(at, len(lines)) if matches(want, lines[n])), None)
        if found is None:
            return expected[i:]
        at = found + 1
    return []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Session:
    """One page's commands, run in order in one folder, as a reader types them in a shell."""

    def __init__(self, folder: Path, cache: Path) -> None:
        """`cache`: the caches' folder (lemmas, kept stages), shared by the pages a worker runs: they
        are keyed by content, so a page building the example another page built reuses its
        lemmas and stages instead of loading spaCy again, and prints the same."""
        self.cwd = self.home = folder
        self.env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8",
                    "REGLES_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}

    def run(self, step: Step, where: str) -> None:
        if shlex.split(step.command)[:2] == ["regles", "serve"]:
            return self.serve(step, where)
        argv = regles_arguments(step.command, self.home)
        if argv is not None:
            returncode, output = self.forked(argv)
        else:
            returncode, output = self.shell(step.command)
        fails = any(line.startswith("error:") for line in step.expected)
        assert (returncode != 0) == fails, f"{where}: `{step.command}` exited {returncode}:\n{output}"
        lost = missing(step.expected, output)
        assert not lost, f"{where}: `{step.command}` did not print {lost[0]!r}; it printed:\n{output}"

    def shell(self, command: str) -> tuple[int, str]:
        """`command` run by bash: its exit code, and its stdout then its stderr."""
        here = self.home / ".cwd"  # where the command left the shell: `cd` carries to the next command
        done = subprocess.run(["bash", "-c", f'{command}\nstatus=$?; pwd > "{here}"; exit $status'], cwd=self.cwd,
                              env=self.env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
        if here.is_file():
            self.cwd = Path(here.read_text(encoding="utf-8").strip())
        return done.returncode, done.stdout + done.stderr

    def forked(self, argv: list[str]) -> tuple[int, str]:
        """`regles ARGV` run by `main` in a forked child (see the module's docstring): its exit code, and
        its stdout then its stderr, as `shell` gives them."""
        out, err = self.home / ".stdout", self.home / ".stderr"
        child = multiprocessing.get_context("fork").Process(target=run_regles, args=(argv, self.cwd, self.env, out, err))
        child.start()
        child.join(COMMAND_TIMEOUT)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise TimeoutError(f"`regles {shlex.join(argv)}` ran more than {COMMAND_TIMEOUT} s")
        return child.exitcode, out.read_text(encoding="utf-8") + err.read_text(encoding="utf-8")

    def serve(self, step: Step, where: str) -> None:
        port = free_port()
        server = subprocess.Popen(["bash", "-c", f"exec {step.command} --port {port}"], cwd=self.cwd, env=self.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            said = server.stdout.readline() if server.stdout else ""
            lost = missing([line.replace("8000", str(port)) for line in step.expected], said)
            assert not lost, f"{where}: `{step.command}` said {said!r}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                        assert answer.status == 200 and b"<title>" in answer.read()
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(timeout=10)


# Outside quotes, what makes a command more than `regles` and its words: operators, redirections,
# substitutions, globs, escapes (such a command runs under bash).
SHELL_SYNTAX = re.compile(r"""[|&;<>()$`*?\[\]{}!\\'"]""")


def regles_arguments(command: str, home: Path) -> list[str] | None:
    """The arguments of a plain `regles …` command, quotes removed and a leading `~` read as
    `home`, as bash reads them; None for any other command."""
    try:
        written, words = shlex.split(command, posix=False), shlex.split(command)  # the words as written, and as read
    except ValueError:
        return None
    if not written or written[0] != "regles" or len(written) != len(words):
        return None
    argv = []
    for raw, word in zip(written[1:], words[1:], strict=True):
        if quoted(raw):
            argv.append(word)
        elif SHELL_SYNTAX.search(raw):
            return None
        else:
            argv.append(str(home) + raw[1:] if raw == "~" or raw.startswith("~/") else word)
    return argv


def quoted(raw: str) -> bool:
    """Whether a word is one quoted text: '…' as it is, or "…" holding nothing bash would expand."""
    mark = raw[:1]
    if len(raw) < 2 or mark not in ("'", '"') or raw[-1] != mark or mark in raw[1:-1]:
        return False
    return mark == "'" or re.search(r"[$`\\!]", raw) is None


def run_regles(argv: list[str], cwd: Path, env: dict[str, str], out: Path, err: Path) -> None:
    """In the forked child: `regles ARGV` in `cwd` with the environment `env` alone, stdout and
    stderr written to `out` and `err`; the child's exit code is the command's."""
    from extract.cli import main

    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    with out.open("w", encoding="utf-8") as stdout, err.open("w", encoding="utf-8") as stderr:
        os.dup2(stdout.fileno(), 1)
        os.dup2(stderr.fileno(), 2)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 (fd 1 outlives this block)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        try:
            code = main(argv)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    sys.exit(code)


def console_pages() -> list[Path]:
    return [page for page in PAGES if blocks(page, "console")]


def workspace(folder: Path) -> Path:
    folder.mkdir()
    (folder / "examples").symlink_to(ROOT / "examples")
    (folder / "regles").symlink_to(ROOT)  # the clone, as the README has it: ~/regles
    return folder


@pytest.mark.corpus  # the tutorial builds a game; the corpus blocks read the real corpus's build
@pytest.mark.xdist_group("spacy")  # on the worker holding spaCy's model, which the forked commands share
@pytest.mark.parametrize("page", console_pages(), ids=lambda page: page.name)
def test_every_console_example_runs_as_shown(page, tmp_path, request):
    from extract.nlp import load_model

    load_model()  # held before the commands are forked: a build or an errata reading in a child finds it loaded
    text = page.read_text(encoding="utf-8")
    whole_page = text.startswith(CORPUS_MARK)
    sessions: dict[bool, Session] = {}
    for n, (lang, body, marked) in enumerate(fenced(text)[0], 1):
        if lang != "console":
            continue
        on_corpus = whole_page or marked
        if on_corpus not in sessions:
            folder = workspace(tmp_path / ("corpus" if on_corpus else "fresh"))
            if on_corpus:  # beside the session's build of the real corpus, as a clone after `make build`
                (folder / "corpus").symlink_to(ROOT / "corpus")
                (folder / "build").symlink_to(request.getfixturevalue("built")["out"])
            sessions[on_corpus] = Session(folder, request.getfixturevalue("fixture_lemma_cache"))
        for step in steps(body):
            sessions[on_corpus].run(step, f"{page.name}, block {n}")


# -- the harness itself ------------------------------------------------------------------------------

def test_the_harness_reads_commands_and_their_expected_lines():
    found = steps("$ regles check\nbuild/ is valid: ...\n$ cd x\n")
    assert found == [Step("regles check", ["build/ is valid: ..."]), Step("cd x")]
    assert missing(["a", "...", "c ... e"], "a\nb\nc d e\n") == []
    assert missing(["c", "a"], "a\nb\nc\n") == ["a"]  # in order
    assert missing(["built 3 entries"], "built 31 entries") == ["built 3 entries"]  # whole lines


def test_a_failing_example_fails_the_test(tmp_path):
    session = Session(tmp_path, tmp_path / ".cache")
    with pytest.raises(AssertionError, match="did not print"):
        session.run(Step("echo bonjour", ["au revoir"]), "here")
    with pytest.raises(AssertionError, match="exited 1"):
        session.run(Step("false"), "here")
    session.run(Step("echo 'error: x' >&2; exit 1", ["error: x"]), "here")


def test_a_regles_command_runs_forked_with_its_output_and_exit_code(tmp_path):
    session = Session(tmp_path, tmp_path / ".cache")
    session.run(Step("regles --help", ["usage: regles ...", "...show..."]), "here")  # stdout, exit 0
    session.run(Step("regles show demo/regles/1", ["error: build/data: no build found: ..."]), "here")  # stderr, exit 1
    with pytest.raises(AssertionError, match="exited 1"):
        session.run(Step("regles show demo/regles/1"), "here")
    with pytest.raises(AssertionError, match="did not print"):
        session.run(Step("regles --help", ["bonjour"]), "here")


def test_only_a_plain_regles_command_is_forked():
    home = Path("/home/lecteur")
    assert regles_arguments("""regles export --out e.csv --delimiter ';'""", home) == ["export", "--out", "e.csv",
                                                                                      "--delimiter", ";"]
    assert regles_arguments('regles new phare ~/regles/r.pdf --title "Les Gardiens"', home) == [
        "new", "phare", "/home/lecteur/regles/r.pdf", "--title", "Les Gardiens"]
    assert regles_arguments("regles search '~/x'", home) == ["search", "~/x"]  # quoted: as written
    for command in ("regles errata | head -3", "cd x && regles build", "regles show x > f", 'regles search "$HOME"',
                    "regles search *.md", "mkdir regles", "regles search 'non fermé"):
        assert regles_arguments(command, home) is None, command


# -- other examples, links, coverage -----------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_toml_and_python_examples_parse(page):
    for body in blocks(page, "toml"):
        tomllib.loads(body.replace("# …\n", ""))
    for body in blocks(page, "python"):
        ast.parse(body)


def anchors(page: Path) -> set[str]:
    """The ids MkDocs and GitHub give the page's headings."""
    found = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_links_between_docs_lead_somewhere(page):
    text = CODE_SPAN.sub("", fenced(page.read_text(encoding="utf-8"))[1])  # `[8:4](#8:4)` is an example, not a link
    broken = []
    for match in LINK.finditer(text):
        target = match["target"]
        if re.match(r"^[a-z]+:", target):
            continue  # http(s), mailto: not checked (nothing is fetched)
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(target)
    assert broken == []


def help_text(*args: str) -> str:
    """What `regles ARGS --help` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        make_parser().parse_args([*args, "--help"])
    return out.getvalue()


def test_every_command_and_option_is_documented_in_the_cli_reference():
    reference = (DOCS / "cli.md").read_text(encoding="utf-8")
    top = help_text()
    commands = re.search(r"\{([\w,-]+)\}", top)[1].split(",")
    assert "new" in commands and "extract" in commands
    undocumented = [option for option in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", top)))
                    if option != "--help" and option not in reference]
    for name in commands:
        if f"`regles {name}" not in reference:
            undocumented.append(f"regles {name}")
        undocumented += [f"regles {name} {option}" for option in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z-]*",
                                                                                      help_text(name))))
                         if option != "--help" and option not in reference]
    assert undocumented == []


def test_the_readme_is_short_and_points_to_the_docs():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    for page in sorted(DOCS.glob("*.md")):
        assert f"docs/{page.name}" in text, f"README.md does not point to docs/{page.name}"


def test_the_architecture_tree_names_modules_that_exist():
    """docs/architecture.md's map of extract/: each module and room it names is there."""
    tree = next(body for lang, body, _ in fenced((DOCS / "architecture.md").read_text(encoding="utf-8"))[0]
                if body.startswith("extract/"))
    package = ROOT / "extract"
    modules = {path.name for path in package.rglob("*.py")}
    named = set(re.findall(r"\b[a-z_]++\.py\b", tree)) - {"regles-search.js"}
    rooms = set(re.findall(r"(?m)^  ([a-z_]++)/", tree))
    assert rooms and named
    assert sorted(named - modules) == [] and sorted(r for r in rooms if not (package / r).is_dir()) == []


def test_the_rules_site_is_not_built_from_these_docs(built):
    """mkdocs.yml configures the rules site, whose pages the build writes into build/docs/: the
    repository's docs/ beside it is never read into the site."""
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["docs_dir"] == "build/docs"
    site = Path(built["out"]) / "site"
    assert (site / "index.html").is_file()
    assert [page.stem for page in DOCS.glob("*.md") if (site / page.stem).exists() and page.stem != "index"] == []


# -- the two make commands ---------------------------------------------------------------------------

MAKE_LINE = re.compile(r"(?m)^make ([a-z]++)\b")
SET_UP = ".venv/.installed"  # the Makefile's stamp: the set-up done (`make -o` takes it as done)


def make_targets() -> set[str]:
    """The `make` targets the docs tell a reader to run (in their plain ``` blocks)."""
    return {target for page in PAGES for lang, body, _ in fenced(page.read_text(encoding="utf-8"))[0] if lang != "console"
            for target in MAKE_LINE.findall(body)}


def make_says(target: str, *done: str) -> list[str]:
    """The commands `make TARGET` runs on a fresh clone, as make prints them without running any
    (`-n`, every target taken as out of date: `-B`), the prerequisites `done` taken as made (`-o`)."""
    # Under `make test` itself, make's own variables reach this child: it would print "Entering
    # directory" lines and take the parent's flags. A fresh make, as a reader's shell runs it.
    env = {key: value for key, value in os.environ.items() if key not in {"MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"}}
    said = subprocess.run(["make", "--no-print-directory", "-n", "-B", *(f"-o{name}" for name in done), target], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=60, env=env)
    return said.stdout.splitlines()


def test_every_make_target_the_docs_show_is_checked_below():
    """`make build` and `make test` are run (or read) by the two tests below; a doc showing
    another target (`make bench` in a plain block) must get its own."""
    assert "build" in make_targets() and make_targets() <= {"build", "test"}


@pytest.mark.corpus  # a build of the real corpus, from the session's caches
@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_build_runs_the_build_this_suite_tests(built, tmp_path):
    """`make build` is run as make would run it: its set-up installs the pinned requirements and the
    package (the suite runs in that environment), then its one command, `regles build`, is run in a
    clone-like folder holding the corpus, with the caches the session's build filled: its rule data
    is byte for byte the session build's, which the rest of the suite tests."""
    from extract.nlp import default_cache

    set_up = make_says("build")[:-1]
    assert any("-r requirements.lock" in line for line in set_up) and any("-e ." in line for line in set_up)
    assert make_says("build", SET_UP) == [".venv/bin/regles build"]
    clone = tmp_path / "clone"
    clone.mkdir()
    shutil.copytree(ROOT / "corpus", clone / "corpus")  # a copy: the build follows no symbolic link
    command = shlex.split(make_says("build", SET_UP)[0])
    done = subprocess.run([str(BIN / Path(command[0]).name), *command[1:]], cwd=clone, capture_output=True, text=True,
                          timeout=COMMAND_TIMEOUT, env={"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
                                                        "REGLES_CACHE_DIR": str(default_cache(ROOT).parent)})
    assert done.returncode == 0, done.stderr
    made = sorted(str(path.relative_to(clone / "build")) for path in (clone / "build" / "data").rglob("*") if path.is_file())
    tested = sorted(str(path.relative_to(built["out"])) for path in (built["out"] / "data").rglob("*") if path.is_file())
    assert made == tested and "data/runewars.json" in made
    for name in made:
        assert (clone / "build" / name).read_bytes() == (built["out"] / name).read_bytes(), name


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_test_runs_the_whole_suite():
    """`make test` cannot run inside the suite it runs (it would run this test again): what it runs
    is read from make instead. After the set-up and the browser's install, one command: pytest on
    the whole suite (no path, no marker left out), on two workers as the README says."""
    said = make_says("test", SET_UP, "chromium")
    assert said == [".venv/bin/python -m pytest -q -n 2 --dist worksteal"]
    assert "-m" not in shlex.split(said[0])[3:] and not any(arg.startswith("tests") for arg in shlex.split(said[0]))
