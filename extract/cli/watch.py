"""`regles serve --watch`: a live preview for authors, as `mkdocs serve` is.

One long-lived process keeps spaCy's model and MkDocs loaded, builds the project once, serves
`build/site/` on 127.0.0.1 through MkDocs' own live-reload server (`mkdocs.livereload`: it
watches with watchdog and tells open pages to reload), and builds again whenever a file of
`corpus/` is saved. A rebuild that fails prints its one-line errors and leaves the last good
site served: the build replaces `build/` only when it succeeds.

Only the corpus's own folders are watched (`corpus/`, each game's folder and its `errata/`),
each without recursion: no folder is walked, no symbolic link followed. A folder created in one
of them (a game added while the preview runs) is watched from the build it starts on.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler

from extract.errors import BuildError, InputError, RegleError

Say = Callable[[str], None]


def watched_folders(root: Path) -> list[Path]:
    """`corpus/`, each game's folder in it and that folder's `errata/` (real folders only)."""
    corpus = root / "corpus"
    found = [corpus]
    with os.scandir(corpus) as entries:
        games = sorted(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
    for game in games:
        found.append(game)
        errata = game / "errata"
        if errata.is_dir() and not errata.is_symlink():
            found.append(errata)
    return found


AGAIN = 3  # builds at most in a row while files keep changing under them


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Each file of the watched folders: its modification time and size (`os.lstat`: no link followed)."""
    found = {}
    for folder in watched_folders(root):
        with os.scandir(folder) as entries:
            for entry in entries:
                info = entry.stat(follow_symlinks=False)
                found[entry.path] = (info.st_mtime_ns, info.st_size)
    return found


@dataclass
class Rebuilds:
    """Builds `root` into `out` with one spaCy model kept between builds; what each one gave."""

    root: Path
    out: Path
    say: Say
    nlp: Any = None
    site_url: str | None = None
    done: int = 0  # builds attempted
    failed: int = 0
    last_error: list[str] = field(default_factory=list)
    seconds: float = 0.0  # of the last build
    result: Any = None  # the last good build's `BuildResult` (its stages' seconds, what it reused)

    def __call__(self) -> None:
        """Build; again while a file of the corpus changed during the build (a save that came
        after the build read that file would otherwise wait for the next save)."""
        before = snapshot(self.root)
        self.once()
        for _ in range(AGAIN):
            after = snapshot(self.root)
            if after == before:
                return
            before = after
            self.once()

    def once(self) -> None:
        from extract.pipeline import build

        start = time.perf_counter()
        self.done += 1
        try:
            result = build(self.root, self.out, notice=lambda m: self.say(f"note: {m}"), site_url=self.site_url,
                           nlp=self.nlp)
        except BuildError as exc:
            self.failed += 1
            self.last_error = [f"error: {problem}" for problem in exc.problems]
        except RegleError as exc:
            self.failed += 1
            self.last_error = [f"error: {exc}"]
        except Exception as exc:  # noqa: BLE001 - the preview goes on; the error said in one line
            self.failed += 1
            self.last_error = [f"error: unexpected {type(exc).__name__}: {exc}"]
        else:
            self.last_error = []
            self.result = result
            self.seconds = time.perf_counter() - start
            self.say(f"built {result.entry_count} entries in {self.seconds:.1f} s")
            return
        for line in self.last_error:
            self.say(line)
        self.say("the last good site is still served")


def make_watch_server(root: Path, port: int, say: Say, site_url: str | None = None) -> tuple[Any, Rebuilds]:
    """The live-reload server of `root/build/site` on 127.0.0.1:`port` (not yet serving: its
    `serve()` serves and rebuilds until `shutdown()`), after a first build; and its builder."""
    from mkdocs.livereload import LiveReloadServer

    from extract.nlp import load_model

    out = root / "build"
    rebuild = Rebuilds(root, out, say, load_model(), site_url)
    rebuild()
    if not (out / "site" / "index.html").is_file():
        raise InputError("build/site", "the first build failed and there is no earlier site to serve")

    watched: set[Path] = set()
    # MkDocs' server rebuilds on a file's change only, never on a folder's: a folder added under a
    # watched one (a new game, its errata/) is said by a file written in a folder of this process's own
    signal = Path(tempfile.mkdtemp(prefix="regles-watch-"))
    added = FolderAdded(signal / "folder-added", lambda path: Path(path) not in watched)

    def watch_new() -> None:
        """Watch the corpus's folders not watched yet (a game added since the last build)."""
        for folder in watched_folders(root):
            if folder not in watched:
                server.watch(str(folder), recursive=False)
                server.observer.schedule(added, str(folder), recursive=False)
                watched.add(folder)

    def builder() -> None:
        watch_new()  # before the build: a file saved in a new folder during the build is seen
        rebuild()

    server = LiveReloadServer(builder=builder, host="127.0.0.1", port=port, root=str(out / "site"))
    server.watch(str(signal), recursive=False)
    weakref.finalize(server, shutil.rmtree, signal, True)
    watch_new()
    return server, rebuild


class FolderAdded(FileSystemEventHandler):
    """On any event of a folder not watched yet (created, moved in, or written into): writes
    `signal`, a file the server watches, so that it builds again and the builder watches the new
    folder. A folder's later events count too: one made while the server was starting is in the
    observer's first look, and only the files written into it show it."""

    def __init__(self, signal: Path, unwatched: Callable[[str], bool]) -> None:
        self.signal = signal
        self.unwatched = unwatched
        self.count = 0

    def on_any_event(self, event: FileSystemEvent) -> None:
        path = os.fsdecode(event.dest_path or event.src_path)
        if event.is_directory and event.event_type != "deleted" and self.unwatched(path):
            self.count += 1
            self.signal.write_text(f"{self.count}\n", encoding="utf-8")


def serve_watching(root: Path, port: int, site_url: str | None = None) -> int:
    """`regles serve --watch`: until Ctrl-C."""
    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    from extract.cli.serve import cannot_listen, check_port

    check_port(port)  # a taken port said at once, not after the first build
    server, _ = make_watch_server(root, port, say, site_url)
    say(f"serving {root / 'build' / 'site'} on http://127.0.0.1:{port}/, rebuilding on a change under "
        f"{root / 'corpus'} (Ctrl-C to stop)")
    try:
        server.serve()
    except KeyboardInterrupt:
        say("stopped")
    except OSError as exc:  # the port taken since the check: said as `regles serve` says it
        raise cannot_listen(port, exc) from None
    finally:
        server.shutdown()
    return 0
