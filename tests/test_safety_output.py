"""The output folder is safe: `--out` writes only into an empty folder or a previous build, one
build at a time, from staging beside it that no exit path leaves behind, swapped in atomically;
faults (signals, kill -9, a full or read-only disk) give one line and leave the previous build."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from extract.cli import main
from extract.pipeline import build, outdir
from tests.conftest import ROOT, make_corpus
from tools.bench_incremental import edit_source

GOOD = "Titre\n\nUn paragraphe de règle.\n\nSection\n\nUn autre paragraphe.\n"

pytestmark = pytest.mark.corpus  # whole builds, several in child processes: the slow tier


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".regles-staging-" in p.name)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return make_corpus(tmp_path / "project", GOOD)


def test_out_dot_is_refused_and_the_checkout_untouched(corpus, capsys, monkeypatch):
    monkeypatch.chdir(corpus)
    before = sorted(p.relative_to(corpus) for p in corpus.rglob("*"))
    assert main(["--root", str(corpus), "build", "--out", "."]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty and not a previous build" in err and "Traceback" not in err
    assert sorted(p.relative_to(corpus) for p in corpus.rglob("*")) == before


def test_out_corpus_is_refused(corpus, capsys):
    assert main(["--root", str(corpus), "build", "--out", str(corpus / "corpus")]) == 2
    assert (corpus / "corpus/demo/game.toml").is_file() and (corpus / "corpus/demo/source.txt").is_file()
    assert "refusing to replace it" in capsys.readouterr().err


def test_out_file_is_refused_and_kept(corpus, capsys):
    target = corpus / "notes.txt"
    target.write_text("mes notes", encoding="utf-8")
    assert main(["--root", str(corpus), "build", "--out", str(target)]) == 2
    assert target.read_text(encoding="utf-8") == "mes notes"
    assert "is a file, not a folder" in capsys.readouterr().err


def test_relative_out_is_relative_to_the_working_folder(corpus, tmp_path, monkeypatch, capsys):
    work = tmp_path / "elsewhere"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["--root", str(corpus), "build", "--out", "sortie"]) == 0
    assert (work / "sortie/data/demo.json").is_file() and (work / "sortie" / outdir.MARKER).is_file()
    assert not (corpus / "sortie").exists()
    # a previous build and an empty folder are accepted
    assert main(["--root", str(corpus), "build", "--out", "sortie"]) == 0
    (work / "vide").mkdir()
    assert main(["--root", str(corpus), "build", "--out", "vide"]) == 0
    assert leftovers(work) == []


def test_a_build_from_before_the_marker_is_recognised(tmp_path):
    old = tmp_path / "build"
    (old / "data").mkdir(parents=True)
    (old / "report.json").write_text("{}", encoding="utf-8")
    assert outdir.target(old) == old
    (old / "mine.txt").write_text("x", encoding="utf-8")
    with pytest.raises(Exception, match="not a previous build"):
        outdir.target(old)


def test_leftover_staging_of_a_killed_build_is_removed_and_only_ours(corpus):
    out = corpus / "build"
    build(corpus, out)
    ours = corpus / ".build.regles-staging-dead"
    ours.mkdir()
    (ours / outdir.MARKER).write_text("", encoding="utf-8")
    not_ours = corpus / ".build.regles-staging-unmarked"  # same name, no marker: not recognised
    not_ours.mkdir()
    build(corpus, out)
    assert not ours.exists() and not_ours.exists()


def test_a_second_build_waits_for_the_first(corpus):
    out = corpus / "build"
    build(corpus, out)
    fd = os.open(outdir.lock_path(out), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another build holds the lock
    notices: list[str] = []
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(build(corpus, out, notice=notices.append)))
    worker.start()
    time.sleep(1.0)
    assert not done and notices and "waiting for it to finish" in notices[0]
    os.close(fd)  # the first build ends
    worker.join(60)
    assert done and (out / "data/demo.json").is_file() and leftovers(corpus) == []


def test_the_swap_exchanges_in_one_step(tmp_path):
    out, staging = tmp_path / "build", tmp_path / ".build.regles-staging-x"
    out.mkdir()
    (out / "old").write_text("old", encoding="utf-8")
    staging.mkdir()
    (staging / "new").write_text("new", encoding="utf-8")
    inode = staging.stat().st_ino
    outdir.publish(staging, out)
    assert out.stat().st_ino == inode and (out / "new").is_file() and not staging.exists()


def test_a_failure_after_the_swap_does_not_block_the_next_build(corpus, monkeypatch):
    out = corpus / "build"
    build(corpus, out)
    real_rmtree = outdir.shutil.rmtree
    monkeypatch.setattr(outdir.shutil, "rmtree", lambda *a, **k: None)  # the old build cannot be deleted
    build(corpus, out)
    assert len(leftovers(corpus)) == 1  # the old build, under its staging name, marked
    monkeypatch.setattr(outdir.shutil, "rmtree", real_rmtree)
    build(corpus, out)
    assert leftovers(corpus) == [] and (out / "data/demo.json").is_file()


# ---------------------------------------------------------------- faults, in a child process

def child_build(root: Path, out: Path) -> subprocess.Popen:
    # every stage made, none taken from the stage cache: the build lasts long enough to be caught
    # while it stages (a no-change rebuild from the cache can end in a few milliseconds). Each test
    # builds its corpus once in this process first: a child finds its lemmas and loads no spaCy.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REGLES_STAGE_CACHE": "off"}
    code = "from extract.cli import main; import sys; sys.exit(main(sys.argv[1:]))"
    # Ctrl-C as in a terminal even when the suite runs as a background job (`nohup … &` ignores
    # SIGINT, and a child inherits that: Python would then never raise KeyboardInterrupt)
    return subprocess.Popen([sys.executable, "-c", code, "--root", str(root), "build", "--out", str(out)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_staging(folder: Path, child: subprocess.Popen, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        # marked as the build's own: a folder killed before its marker is written is not the
        # build's to remove, and the next build rightly leaves it (test_an_unmarked_…)
        if any((folder / name / outdir.MARKER).is_file() for name in leftovers(folder)):
            return
        if child.poll() is not None:
            pytest.fail(f"the build ended before its staging was seen: {child.stderr.read()}")
        time.sleep(0.005)
    pytest.fail("no staging folder appeared")


@pytest.mark.parametrize(("sig", "code", "line"), [
    (signal.SIGTERM, 128 + signal.SIGTERM, "interrupted (signal 15)"),
    (signal.SIGINT, 130, "interrupted"),
])
def test_a_signal_during_the_build_cleans_up(corpus, sig, code, line):
    out = corpus / "build"
    build(corpus, out)
    before = (out / "data/demo.json").read_bytes()
    child = child_build(corpus, out)
    wait_for_staging(corpus, child)
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    assert child.returncode == code, err
    assert err.strip() == line
    assert leftovers(corpus) == [] and (out / "data/demo.json").read_bytes() == before


def test_kill_9_leaves_staging_that_the_next_build_removes(corpus):
    out = corpus / "build"
    build(corpus, out)
    child = child_build(corpus, out)
    wait_for_staging(corpus, child)
    child.kill()
    child.wait(60)
    assert leftovers(corpus)  # nothing can clean up after kill -9…
    assert (out / "data/demo.json").is_file()  # …but the previous build is whole
    build(corpus, out)
    assert leftovers(corpus) == []


def said_waiting(child: subprocess.Popen) -> bool:
    """Whether the child's next lines on stderr (before it ends) say it waits for another build."""
    assert child.stderr is not None
    for line in child.stderr:
        if "waiting for it to finish" in line:
            return True
    return False


def test_two_builds_at_once_both_succeed(corpus):
    """Two first builds of one folder started together both succeed, one after the other, and
    leave nothing behind. They are held at the start line, a build lock this test takes before
    starting them, until both say they wait: then let go together, they do run at once (two
    small builds started together may otherwise not even overlap)."""
    build(corpus, corpus / "elsewhere")  # lemmas cached: the children do not load spaCy
    out = corpus / "build"
    held = os.open(outdir.lock_path(out), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        children = [child_build(corpus, out) for _ in range(2)]
        assert [said_waiting(child) for child in children] == [True, True]
    finally:
        os.close(held)
    results = [child.communicate(timeout=120) for child in children]
    assert [child.returncode for child in children] == [0, 0], results
    assert leftovers(corpus) == [] and (out / "data/demo.json").is_file()


# ---------------------------------------------------------------- a full or read-only disk

@pytest.fixture
def small_mount(tmp_path):
    """A tiny tmpfs (root only: otherwise the test is skipped and says why)."""
    mounted: list[Path] = []

    def mount(size: str, *options: str) -> Path:
        point = tmp_path / f"mnt{len(mounted)}"
        point.mkdir()
        if os.geteuid() != 0:
            pytest.skip("mounting a tiny tmpfs needs root")
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join([f"size={size}", *options]), "tmpfs", str(point)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
        mounted.append(point)
        return point

    yield mount
    for point in mounted:
        subprocess.run(["umount", str(point)], capture_output=True)


def test_a_full_disk_gives_one_line_and_keeps_nothing(corpus, small_mount, capsys):
    disk = small_mount("300k")
    code = main(["--root", str(corpus), "build", "--out", str(disk / "build")])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    # where the disk fills depends on the outputs' sizes: a page's write names the page
    assert "No space left on device" in err and "(the disk is full)" in err
    assert leftovers(disk) == [] and not (disk / "build").exists()


def test_a_read_only_folder_gives_one_line(corpus, small_mount, capsys):
    disk = small_mount("1m", "ro")
    code = main(["--root", str(corpus), "build", "--out", str(disk / "build")])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "Read-only file system" in err


def test_the_sites_failure_is_the_builds_one_line(corpus, capsys, monkeypatch):
    """MkDocs's failure when the site is made again is the build's error — one line naming the
    file, exit 1, the previous build left whole, no staging left behind."""
    from extract.errors import BuildError, InputError
    from extract.publish import sitebuild

    out = corpus / "build"
    build(corpus, out)
    before = (out / "data/demo.json").read_bytes()
    source = next((corpus / "corpus" / "demo").glob("*.txt"))
    edit_source(corpus, "demo", source.name, "Un autre paragraphe.", "Un paragraphe changé.")  # the site made again

    def broken(*args, **kwargs):
        raise BuildError([InputError("mkdocs.yml", "site build warning: a link to nowhere")])

    monkeypatch.setattr(sitebuild, "mkdocs_build", broken)
    code = main(["--root", str(corpus), "build", "--out", str(out)])
    assert code == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == "error: mkdocs.yml: site build warning: a link to nowhere"
    assert (out / "data/demo.json").read_bytes() == before and leftovers(corpus) == []
