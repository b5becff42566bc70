"""Jinja2 templates compiled once, kept between builds.

Every render compiled the site's templates again — the project's own (`site/templates/`) and the
theme's (MkDocs's environment, Material's 30-odd partials): about 0.2 s of every render.
`TemplateCache` is a Jinja2 bytecode cache (`jinja2.BytecodeCache`) keeping each compiled
template in the build's cache folder (`.cache/templates/<key>/`). Jinja keys a template by its
name and file; the folder's name carries `key` (a hash of the toolkit's code, of the versions of
MkDocs, Material, Jinja2 and Babel, which decide how an environment compiles, and of Jinja's own
bytecode magic, which names its version and Python's). A file holds the sha256 of what follows,
the checksum of the template source it was compiled from (a template edited since is compiled
again) and the code, written with `marshal`.

Jinja's own file format reads the source checksum with `pickle`, which can run anything; this one
reads text and `marshal` only, and takes nothing but a code object. That code is the template's
and runs when the template renders: the folder is trusted as Python trusts `__pycache__`, the
user's own, not a place for files from elsewhere (the checksum catches damage, not intent). A
build with the stage cache off (`REGLES_STAGE_CACHE=off`) keeps no templates. Folders of other
keys (another version of the toolkit sharing the cache) are left alone for a month, then removed.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import shutil
import time
import types
from collections.abc import Callable
from pathlib import Path

from jinja2.bccache import Bucket, BytecodeCache, bc_magic

from extract.files import replace_with

SUFFIX = ".jinja"
NAMES_FILE = "template-names.txt"
STALE_DAYS = 30  # another key's folder unused this long is removed


class TemplateCache(BytecodeCache):
    """Compiled templates in `folder/<key>` (set `environment.bytecode_cache` to it)."""

    def __init__(self, folder: Path, key: str) -> None:
        self.root = folder
        self.folder = folder / hashlib.sha256(key.encode() + bc_magic).hexdigest()[:16]
        self.hits = 0
        self.stored = 0
        self._prune()

    def _prune(self) -> None:
        try:
            if self.folder.is_dir():
                os.utime(self.folder)  # in use: not stale
            limit = time.time() - STALE_DAYS * 86400
            for other in self.root.iterdir():
                if other != self.folder and other.is_dir() and other.stat().st_mtime < limit:
                    shutil.rmtree(other, ignore_errors=True)
        except OSError:
            pass  # no folder yet, or one that cannot be read: made when a template is stored

    def _path(self, bucket: Bucket) -> Path:
        return self.folder / f"{bucket.key}{SUFFIX}"

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            head, _, rest = self._path(bucket).read_bytes().partition(b"\n")
        except OSError:
            return
        if hashlib.sha256(rest).hexdigest().encode("ascii") != head:
            return  # damaged
        checksum, _, data = rest.partition(b"\n")
        if checksum.decode("utf-8", "replace") != bucket.checksum:
            return  # the template's source changed since
        try:
            code = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(code, types.CodeType):
            bucket.code = code
            self.hits += 1

    def dump_bytecode(self, bucket: Bucket) -> None:
        rest = bucket.checksum.encode("utf-8") + b"\n" + marshal.dumps(bucket.code)
        stored = hashlib.sha256(rest).hexdigest().encode("ascii") + b"\n" + rest
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            replace_with(self._path(bucket), lambda temp: temp.write_bytes(stored), prefix=".jinja-")
            self.stored += 1
        except OSError:
            pass  # a folder that cannot be written: compiled again next time

    def names(self, listing: Callable[[], list[str]]) -> list[str]:
        """The names of the templates a loader holds (`listing`, its `list_templates`) but those
        of hidden files and folders, kept in the folder: MkDocs lists the theme's files on every
        render to copy its static files, and walking and filtering Material's 14,500 files (its
        icons, under `.icons/`) took 0.1-0.2 s; MkDocs' own filter drops hidden names ('.*',
        '*/.*'), and nothing else lists a theme's templates. The theme's files are the installed
        packages' and the toolkit's, both in the folder's key."""
        path = self.folder / NAMES_FILE
        try:
            head, _, rest = path.read_bytes().partition(b"\n")
            if hashlib.sha256(rest).hexdigest().encode("ascii") == head:
                return rest.decode("utf-8").split("\n") if rest else []
        except (OSError, UnicodeDecodeError):
            pass
        found = [name for name in listing() if not name.startswith(".") and "/." not in name]
        if any("\n" in name for name in found):
            return found
        rest = "\n".join(found).encode("utf-8")
        stored = hashlib.sha256(rest).hexdigest().encode("ascii") + b"\n" + rest
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            replace_with(path, lambda temp: temp.write_bytes(stored), prefix=".names-")
        except OSError:
            pass
        return found
