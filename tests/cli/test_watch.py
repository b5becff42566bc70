"""`regles serve --watch` (extract/cli/watch.py): a saved edit under corpus/ is served rebuilt,
the page told to reload; a failing edit says its error and leaves the last good site served."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from watchdog.events import DirCreatedEvent, DirDeletedEvent, DirModifiedEvent, FileModifiedEvent

from extract.cli.watch import FolderAdded, make_watch_server, watched_folders
from tests.conftest import make_corpus
from tools.bench_incremental import edit_source

TEXT = """Mouvement

Une figurine se déplace de trois cases au plus.

Combat

Une figurine attaque une figurine adjacente. Elle lance deux dés.
"""


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode("utf-8")


def fetched(url: str) -> str:
    """The page, or "" while it cannot be had: a busy machine's build in the serving process can
    make a request time out (TimeoutError is an OSError), or the page is not built yet (404)."""
    try:
        return fetch(url)
    except OSError:
        return ""


def wait_for(condition, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.1)


def test_the_watched_folders_are_the_corpus_its_games_and_their_errata_never_a_link(tmp_path: Path):
    root = make_corpus(tmp_path, TEXT)
    (root / "corpus" / "demo" / "errata").mkdir()
    (root / "corpus" / "loop").symlink_to(root / "corpus")  # a link is not followed
    assert watched_folders(root) == [root / "corpus", root / "corpus" / "demo", root / "corpus" / "demo" / "errata"]


def test_a_folder_not_watched_yet_signals_a_build_even_when_only_written_into(tmp_path: Path):
    # a game folder made while the server starts is in the observer's first look: no "created"
    # event ever comes for it, only its "modified" ones when its files arrive
    signal = tmp_path / "signal"
    watched = {str(tmp_path / "corpus")}
    added = FolderAdded(signal, lambda path: path not in watched)
    for event in (DirModifiedEvent(str(tmp_path / "corpus")), DirDeletedEvent(str(tmp_path / "corpus" / "old")),
                  FileModifiedEvent(str(tmp_path / "corpus" / "x.txt"))):
        added.on_any_event(event)
    assert not signal.exists()
    added.on_any_event(DirModifiedEvent(str(tmp_path / "corpus" / "autre")))
    added.on_any_event(DirCreatedEvent(str(tmp_path / "corpus" / "neuf")))
    assert added.count == 2 and signal.read_text(encoding="utf-8") == "2\n"


@pytest.mark.corpus  # whole builds
def test_an_edit_is_served_rebuilt_and_a_failing_one_keeps_the_last_good_site(tmp_path: Path):
    root = make_corpus(tmp_path, TEXT)
    said: list[str] = []
    server, rebuild = make_watch_server(root, 0, said.append)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.server_address[1] != 0, 10)
        page = f"http://127.0.0.1:{server.server_address[1]}/demo/regles/combat/"
        wait_for(lambda: "deux dés" in fetched(page))
        first = fetched(page)
        assert "deux dés" in first and "livereload" in first  # the page asks to be reloaded
        edit_source(root, "demo", "source.txt", "deux dés", "trois dés")
        wait_for(lambda: "trois dés" in fetched(page))
        assert rebuild.done >= 2 and rebuild.failed == 0
        good = rebuild.result  # the last good build, for the live preview's benchmark (its stages)
        assert "trois dés" in next(e.text for g in good.games for e in g.entries if e.title == "Combat")
        assert set(good.cpu) >= {"link", "render"}
        # a source saved without its manifest's sha256: the build fails, one line naming the file
        source = root / "corpus" / "demo" / "source.txt"
        source.write_text(source.read_text(encoding="utf-8").replace("trois dés", "quatre dés"), encoding="utf-8")
        wait_for(lambda: rebuild.failed >= 1)
        assert rebuild.last_error and all(line.startswith("error: corpus/demo/") for line in rebuild.last_error)
        assert "the last good site is still served" in said
        served: list[str] = []
        wait_for(lambda: served.append(fetched(page)) or bool(served[-1]))
        assert "trois dés" in served[-1] and "quatre dés" not in served[-1]  # the last good site
        assert rebuild.result is good  # a failed build leaves the last good one's result
    finally:
        server.shutdown()
        thread.join(10)


@pytest.mark.corpus  # whole builds
@pytest.mark.parametrize("made", ["while serving", "as the server starts"])
def test_a_game_folder_added_while_serving_is_built_and_served(tmp_path: Path, made: str):
    root = make_corpus(tmp_path, TEXT)
    server, rebuild = make_watch_server(root, 0, lambda line: None)
    added = root / "corpus" / "autre"
    if made == "as the server starts":  # in the observer's first look: no "created" event for it
        added.mkdir()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.server_address[1] != 0, 10)
        # a new game, written as `regles new` or a copy would: its folder first, then its files
        source = root / "corpus" / "demo"
        added.mkdir(exist_ok=True)
        time.sleep(1.5)  # the folder seen alone before its files arrive
        (added / "source.txt").write_bytes((source / "source.txt").read_bytes())
        manifest = (source / "game.toml").read_text(encoding="utf-8").replace('id = "demo"', 'id = "autre"')
        (added / "game.toml").write_text(manifest, encoding="utf-8")
        page = f"http://127.0.0.1:{server.server_address[1]}/autre/regles/combat/"

        wait_for(lambda: "deux dés" in fetched(page))
        assert rebuild.failed == 0
    finally:
        server.shutdown()
        thread.join(10)


def test_a_busy_port_fails_at_once_in_one_line_exit_1(tmp_path: Path, capsys):
    from extract.cli import main

    root = make_corpus(tmp_path, TEXT)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--root", str(root), "serve", "--watch", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"error: regles serve: cannot listen on 127.0.0.1:{port} (Address already in use)"]
    assert not (root / "build").exists()  # said before any build
