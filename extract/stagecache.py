"""Incremental builds: the outputs of the expensive late stages (the search model, the site),
kept in the build's cache folder (`.cache/stages/`, or $REGLES_CACHE_DIR) under a hash of
everything they are made from — the corpus's files (sources, manifests, data files, errata,
terms), the toolkit's code, templates and package data (`extract/`, with the site's files it
links to), the package version and the NLP model's. A rebuild whose inputs hash the same takes
the stored outputs (hard links, checked against their stored sha256) instead of doing the work:
the build is deterministic, so they are the bytes a clean build writes. `ObjectCache` keeps
Python objects the same way (each game's reading, pages' MkDocs conversions). Anything unreadable
or changed in the cache is a miss, never an error.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import pickle
import shutil
import stat
import tempfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import extract
from extract.files import replace_with

PACKAGE = Path(extract.__file__).resolve().parent
KEY_FILE = "key"
SUMS_FILE = "sums.json"
STATS_FILE = "stats.json"  # size, mtime, ctime and inode of each stored file when its sum was taken


def _files(base: Path) -> list[Path]:
    if base.is_file():
        return [base]
    found = []
    # No link followed and regular files only: a link to `.`, /dev/zero or a FIFO in a game folder is
    # not an input (the build reads only what a manifest names, through extract.files.read_input).
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", ".cache", "build"))
        found.extend(Path(folder) / n for n in sorted(names)
                     if not n.endswith((".pyc", ".pyo")) and stat.S_ISREG(os.lstat(Path(folder) / n).st_mode))
    return found


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def _hash_files(digest: Any, label: str, base: Path) -> None:
    for path in _files(base):
        digest.update(f"{label}/{path.relative_to(base).as_posix()}\n".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())


@functools.cache
def code_key() -> str:
    """One hash of the toolkit: its version, code, templates and package data, and the versions
    of spaCy, the NLP model, MkDocs, Material, Markdown, Jinja2, Babel (whether MkDocs translates
    the theme, and how its templates compile) and Whoosh (its French stemmer makes the search's stems);
    computed once per process: the code does not change under a running build."""
    from extract.nlp import MODEL, MODEL_VERSION

    digest = hashlib.sha256()
    for part in (extract.__version__, MODEL, MODEL_VERSION, _version("spacy"), _version(MODEL), _version("mkdocs"),
                 _version("mkdocs-material"), _version("markdown"), _version("jinja2"), _version("babel"), _version("whoosh-reloaded")):
        digest.update(f"{part}\n".encode())
    _hash_files(digest, "code", PACKAGE)
    return digest.hexdigest()


def inputs_key(root: Path) -> str:
    """One hash of every input of the build (file names and bytes, versions)."""
    digest = hashlib.sha256(code_key().encode())
    _hash_files(digest, "corpus", root / "corpus")
    return digest.hexdigest()


def folder_key(base: Path, *extra: str) -> str:
    """A hash of the code, of every file under `base` (names and bytes) and of `extra` strings."""
    digest = hashlib.sha256(code_key().encode())
    _hash_files(digest, "input", base)
    for part in extra:
        digest.update(f"{part}\n".encode())
    return digest.hexdigest()


class ObjectCache:
    """Python objects kept between builds (`get`/`put` by name), each file holding the key it
    was made for and a checksum of its data: a file of another key, damaged or unreadable is a
    miss, never an error. Only the build's own cache folder is read (pickle runs code on load:
    the folder is the user's, like the lemma cache)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits: list[str] = []
        self.touched: set[str] = set()  # the file names read or written in this build

    def _path(self, name: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"

    def get(self, name: str, key: str) -> Any | None:
        if self.folder is None:
            return None
        try:
            raw = self._path(name).read_bytes()
            head, _, data = raw.partition(b"\n")
            stored_key, _, checksum = head.decode("ascii").partition(" ")
            if stored_key != key or hashlib.sha256(data).hexdigest() != checksum:
                return None
            found = pickle.loads(data)
        except Exception:  # noqa: BLE001 - anything wrong with a cache file is a miss
            return None
        self.hits.append(name)
        self.touched.add(self._path(name).name)
        return found

    def put(self, name: str, key: str, value: Any) -> None:
        if self.folder is None:
            return
        try:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            self.folder.mkdir(parents=True, exist_ok=True)
            stored = f"{key} {hashlib.sha256(data).hexdigest()}\n".encode("ascii") + data
            replace_with(self._path(name), lambda temp: temp.write_bytes(stored), prefix=".obj-")
            self.touched.add(self._path(name).name)
        except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
            pass  # a cache that cannot be written: the build goes on without it

    def keyed(self, key: str) -> Keyed:
        """This cache's objects under one key (`get(name)`, `put(name, value)`)."""
        return Keyed(self, key)

    def prune(self) -> None:
        """Remove every file this build neither read nor wrote (the cache keeps one build's worth)."""
        if self.folder is None or not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            if path.name not in self.touched:
                path.unlink(missing_ok=True)


class Keyed:
    def __init__(self, cache: ObjectCache, key: str) -> None:
        self.cache, self.key = cache, key

    def get(self, name: str) -> Any | None:
        return self.cache.get(name, self.key)

    def put(self, name: str, value: Any) -> None:
        self.cache.put(name, self.key, value)


class FileStore:
    """Files a stage makes one by one under `out`, kept between builds in `folder` with a record
    (`made.json`) of each one's key and sha256:
    - `write(rel, data, key)`: a file whose bytes are those of the kept copy is hard-linked from
      it (a link costs a fraction of a new file here, and after an edit most files are the same),
      any other is written and kept;
    - `reuse(rel, key)`: the kept copy made under `key` (a hash of everything the file is made
      from), linked without making the file at all; False when there is none.
    A kept copy linked is checked, through the link, against its recorded sha256 (a build's file and its
    kept copy are one file: one changed in place is not reused), and is only ever replaced whole,
    never written through. `close()` forgets the files this build did not make. Without a folder
    every file is written and nothing reused."""

    RECORD = "made.json"

    def __init__(self, folder: Path | None, out: Path) -> None:
        self.folder, self.out = folder, out
        self.kept: dict[str, list[str]] = {}  # rel -> [key, sha256] of the last build's files
        self.made: dict[str, list[str]] = {}
        self.folders: set[Path] = set()
        self.linked = 0
        if folder is not None:
            try:
                record = json.loads((folder / self.RECORD).read_text(encoding="utf-8"))
                if isinstance(record, dict):
                    self.kept = {k: v for k, v in record.items() if isinstance(v, list) and len(v) == 2}
            except (OSError, ValueError):
                pass

    def _target(self, rel: str) -> Path:
        target = self.out / rel
        if target.parent not in self.folders:  # one mkdir per folder, not per file
            target.parent.mkdir(parents=True, exist_ok=True)
            self.folders.add(target.parent)
        return target

    def _link_kept(self, rel: str, sha: str) -> bool:
        assert self.folder is not None
        target = self._target(rel)
        try:
            os.link(self.folder / rel, target)
        except OSError:
            return False  # none kept, or no hard links here
        # checked once linked, through the link: another build sharing the cache may rename a new
        # file over the kept copy between a check of the copy and the link
        try:
            same = hashlib.sha256(target.read_bytes()).hexdigest() == sha
        except OSError:
            same = False
        if not same:
            target.unlink(missing_ok=True)
            return False
        self.linked += 1
        return True

    def reuse(self, rel: str, key: str) -> bool:
        record = self.kept.get(rel)
        if self.folder is None or record is None or record[0] != key or not self._link_kept(rel, record[1]):
            return False
        self.made[rel] = record
        return True

    def write(self, rel: str, data: bytes, key: str = "") -> None:
        sha = hashlib.sha256(data).hexdigest()
        record = self.kept.get(rel)
        if self.folder is not None and record is not None and record[1] == sha and self._link_kept(rel, sha):
            self.made[rel] = [key, sha]
            return
        self._target(rel).write_bytes(data)
        self._keep(rel, key, sha)

    def keep(self, rel: str, key: str) -> None:
        """Keep the file `rel` that something else wrote under `out`, made under `key`."""
        if self.folder is not None:
            self._keep(rel, key, hashlib.sha256((self.out / rel).read_bytes()).hexdigest())

    def _keep(self, rel: str, key: str, sha: str) -> None:
        if self.folder is None:
            return
        kept = self.folder / rel
        try:
            if kept.parent not in self.folders:
                kept.parent.mkdir(parents=True, exist_ok=True)
                self.folders.add(kept.parent)
            def replace_kept() -> None:  # a copy is there: replaced whole, never written through
                fresh = kept.with_name(f".new-{kept.name}")
                _link_or_copy(self.out / rel, fresh)
                os.replace(fresh, kept)

            if rel in self.kept:
                replace_kept()
            else:  # none recorded (a first build): linked in place, one call
                try:
                    _link_or_copy(self.out / rel, kept)
                except FileExistsError:  # left by a build cut short
                    replace_kept()
        except OSError:
            return  # not kept: not recorded
        self.made[rel] = [key, sha]

    def close(self) -> None:
        """Record this build's files; remove the kept files it did not make."""
        if self.folder is None or not self.folder.is_dir():
            return
        try:
            (self.folder / self.RECORD).unlink(missing_ok=True)  # a record is whole or absent
            for folder, _, names in os.walk(self.folder, topdown=False):
                for name in names:
                    path = Path(folder) / name
                    if path.relative_to(self.folder).as_posix() not in self.made:
                        path.unlink(missing_ok=True)
                if not os.listdir(folder) and Path(folder) != self.folder:
                    os.rmdir(folder)
            record = json.dumps(self.made, sort_keys=True)
            replace_with(self.folder / self.RECORD, lambda temp: temp.write_text(record, encoding="utf-8"))
        except OSError:
            pass  # a cache that cannot be written: the next build makes its files again


class StageCache:
    """`run(stage, key, staging, work)`: either copies the stored outputs of `stage` into
    `staging`, or runs `work()` and stores the top-level files and folders it made."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits: list[str] = []

    def run(self, stage: str, key: str, staging: Path, work: Callable[[], object], outputs: list[str]) -> bool:
        """The files and folders `outputs` of `stage` in `staging`: restored (True), or made by
        `work()` and stored (False)."""
        if self.restore(stage, key, staging):
            return True
        work()
        self.store(stage, key, staging, outputs)
        return False

    def holds(self, stage: str, key: str) -> bool:
        """Whether the stored entry of `stage` was made under `key` (`restore` checks its files)."""
        try:
            return self.folder is not None and (self.folder / stage / KEY_FILE).read_text(encoding="utf-8") == key
        except OSError:
            return False

    def restore(self, stage: str, key: str, staging: Path) -> bool:
        """The stored outputs of `stage` made under `key`, in `staging` (True), or nothing (False)."""
        if self.folder is not None and self._restore(self.folder / stage, key, staging):
            self.hits.append(stage)
            return True
        return False

    def store(self, stage: str, key: str, staging: Path, outputs: list[str]) -> None:
        """The `outputs` of `stage` made under `key` in `staging` become its stored entry."""
        if self.folder is not None:
            self._store(self.folder / stage, key, staging, sorted(n for n in outputs if (staging / n).exists()))

    @staticmethod
    def _restore(place: Path, key: str, staging: Path) -> bool:
        """The stored outputs, hard-linked into `staging` where the file system allows it (a copy
        elsewhere), then every file checked against the sums stored with them: a file changed
        since (in the cache, or in a build sharing it) makes the whole stage a miss."""
        items: list[Path] = []
        try:
            if (place / KEY_FILE).read_text(encoding="utf-8") != key:
                return False
            sums = json.loads((place / SUMS_FILE).read_text(encoding="utf-8"))
            items = sorted((place / "out").iterdir())
            for item in items:
                if (staging / item.name).exists():
                    return False
            for item in items:
                if item.is_dir() and not item.is_symlink():
                    shutil.copytree(item, staging / item.name, symlinks=True, copy_function=_link_or_copy)
                else:
                    _link_or_copy(item, staging / item.name)
            if _sums(staging, [item.name for item in items]) == sums:
                return True
            (place / STATS_FILE).unlink(missing_ok=True)  # a stored file changed: its next store reads every file
        except (OSError, ValueError):
            pass
        for item in items:
            path = staging / item.name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        return False

    @staticmethod
    def _store(place: Path, key: str, staging: Path, made: list[str]) -> None:
        """The outputs `made` in `staging` become the stored entry: an entry already there is
        brought to them file by file (a file whose bytes it already holds stays, the rest is
        linked in, what the outputs no longer have goes), since after an edit most of a site is
        the same bytes and removing and linking every file of it costs more than the rest of the
        stage on some file systems; otherwise (no entry, or one that cannot be updated) a fresh
        entry is made beside it and swapped in. The key is written last: an entry interrupted
        while changing has none, and is a miss."""
        try:
            if not (place / "out").is_dir() or not StageCache._update(place, key, staging, made):
                StageCache._replace(place, key, staging, made)
        except OSError:
            pass  # a cache that cannot be written: the build goes on without it

    @staticmethod
    def _update(place: Path, key: str, staging: Path, made: list[str]) -> bool:
        """The entry in `place` changed in place into `made` (True), or left for a fresh one (False)."""
        (place / KEY_FILE).unlink(missing_ok=True)
        out = place / "out"
        same_files: dict[tuple[int, ...], str] = {}
        tree = _tree(staging, made)  # walked once: its files' identities, sums and folders
        held = _held(place, same_files, {rel: (info.st_dev, info.st_ino) for rel, info in tree
                                         if stat.S_ISREG(info.st_mode)})
        wanted = _sums(staging, made, same_files, tree)  # a staged file that is an entry's file (a link) is not read
        if held is None or any(v.startswith("-> ") for v in wanted.values()):
            return False  # symbolic links: a fresh entry copies them as they are
        folders = {rel for rel, info in tree if stat.S_ISDIR(info.st_mode)}
        for rel in sorted(set(held) - set(wanted)):
            (out / rel).unlink(missing_ok=True)
        for folder, dirs, _ in os.walk(out, topdown=False):  # folders the outputs no longer have
            for name in dirs:
                path = Path(folder) / name
                if path.relative_to(out).as_posix() not in folders:
                    shutil.rmtree(path)
        for rel in sorted(folders):
            (out / rel).mkdir(parents=True, exist_ok=True)
        for rel, digest in wanted.items():
            if held.get(rel) != digest:
                target = out / rel
                if target.is_dir():
                    shutil.rmtree(target)
                target.unlink(missing_ok=True)
                _link_or_copy(staging / rel, target)
        _write(place / SUMS_FILE, json.dumps(wanted))
        _write(place / STATS_FILE, json.dumps(_stats(out, wanted)))
        _write(place / KEY_FILE, key)  # written last: a stored entry is whole
        return True

    @staticmethod
    def _replace(place: Path, key: str, staging: Path, made: list[str]) -> None:
        place.parent.mkdir(parents=True, exist_ok=True)
        for left in place.parent.glob(f".{place.name}-*"):  # a fresh entry a killed build left (its only links)
            shutil.rmtree(left, ignore_errors=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{place.name}-", dir=place.parent))
        (fresh / "out").mkdir()
        for name in made:
            item = staging / name
            if item.is_dir() and not item.is_symlink():
                shutil.copytree(item, fresh / "out" / name, symlinks=True, copy_function=_link_or_copy)
            else:
                _link_or_copy(item, fresh / "out" / name)
        sums = _sums(fresh / "out", made)
        (fresh / SUMS_FILE).write_text(json.dumps(sums), encoding="utf-8")
        (fresh / STATS_FILE).write_text(json.dumps(_stats(fresh / "out", sums)), encoding="utf-8")
        (fresh / KEY_FILE).write_text(key, encoding="utf-8")  # written last: a stored entry is whole
        old = place.with_name(f".{place.name}-old")
        shutil.rmtree(old, ignore_errors=True)
        if place.exists():
            place.rename(old)
        fresh.rename(place)
        shutil.rmtree(old, ignore_errors=True)


def _stats(base: Path, rels: dict[str, str]) -> dict[str, list[int]]:
    found = {}
    for rel in rels:
        info = os.lstat(base / rel)
        found[rel] = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    return found


def _held(place: Path, by_file: dict[tuple[int, ...], str] | None = None,
          staged: dict[str, tuple[int, int]] | None = None) -> dict[str, str] | None:
    """The sha256 of every file of the entry in `place`: the stored sum where the file's size,
    mtime, ctime and inode are those stored with it (it was not written since), else read again. None
    when the entry holds a symbolic link. `by_file` gets each sum under its file's `_identity`.

    `staged`: the (device, inode) of the outputs about to be stored, by path. An entry's file that
    is the output at its path (the same file, linked: after an edit most of a site) keeps its
    stored sum unread, though linking it moved its ctime: were it changed in place since, the next
    restore, which reads every file against the sums, is a miss — never a wrong answer."""
    try:
        sums = json.loads((place / SUMS_FILE).read_text(encoding="utf-8"))
        stats = json.loads((place / STATS_FILE).read_text(encoding="utf-8"))
        assert isinstance(sums, dict) and isinstance(stats, dict)
    except (OSError, ValueError, AssertionError):
        sums, stats = {}, {}
    out = place / "out"
    held = {}
    for folder, dirs, files in os.walk(out):
        for name in dirs + files:
            path = Path(folder) / name
            if path.is_symlink():
                return None
            if name in files:
                rel = path.relative_to(out).as_posix()
                info = os.lstat(path)
                # ctime too: writing a file and setting its mtime back still moves it
                same = isinstance(sums.get(rel), str) and (
                    stats.get(rel) == [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
                    or (staged or {}).get(rel) == (info.st_dev, info.st_ino))
                held[rel] = sums[rel] if same else hashlib.sha256(path.read_bytes()).hexdigest()
                if by_file is not None:
                    by_file[_identity(info)] = held[rel]
    return held


def _tree(base: Path, names: list[str]) -> list[tuple[str, os.stat_result]]:
    """Every path under `base`/`names`, each top path included, relative to `base`, with its
    `os.lstat` (a symbolic link is not followed)."""
    found = []
    for name in sorted(names):
        top = base / name
        info = os.lstat(top)
        found.append((name, info))
        if stat.S_ISDIR(info.st_mode):
            for folder, dirs, files in os.walk(top):
                for n in dirs + files:
                    path = os.path.join(folder, n)
                    found.append((os.path.relpath(path, base).replace(os.sep, "/"), os.lstat(path)))
    return found


def _identity(info: os.stat_result) -> tuple[int, ...]:
    """A file as the file system knows it, and its state: another path with the same identity is a
    hard link to it, unchanged since."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _write(path: Path, text: str) -> None:
    replace_with(path, lambda temp: temp.write_text(text, encoding="utf-8"))


def _link_or_copy(source: Any, target: Any) -> Any:
    """A hard link (no bytes copied); a copy where the file system has none (another device, no
    hard links). The copy is written beside and renamed into place: never through a path another
    build linked there meanwhile (that would change its file too)."""
    try:
        os.link(source, target)
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EACCES):
            raise
        replace_with(Path(target), lambda temp: shutil.copy2(source, temp), prefix=".copy-")
    return target


def _sums(base: Path, names: list[str], known: dict[tuple[int, ...], str] | None = None,
          tree: list[tuple[str, os.stat_result]] | None = None) -> dict[str, str]:
    """sha256 of every regular file under `base`/`names`, the target of every symlink. `known`:
    sums already read, by `_identity` (a file linked from one read is not read again); `tree`:
    `_tree(base, names)`, when the caller walked it already."""
    found = {}
    for rel, info in tree if tree is not None else _tree(base, names):
        if stat.S_ISLNK(info.st_mode):
            found[rel] = "-> " + os.readlink(base / rel)
        elif stat.S_ISREG(info.st_mode):
            digest = (known or {}).get(_identity(info))
            found[rel] = digest or hashlib.sha256((base / rel).read_bytes()).hexdigest()
    return dict(sorted(found.items()))
