"""Jinja2 templates compiled once, kept between builds.

Every render compiled the site's templates again — the project's own (`site/templates/`) and the
theme's (MkDocs's environment, Material's 30-odd partials): about 0.2 s of every render.
`TemplateCache` is a Jinja2 bytecode cache (`jinja2.BytecodeCache`) keeping each compiled
template in the build's cache folder (`.cache/templates/`). Jinja keys a template by its name and
file, checks the stored template source against the one on disk, and its own version and
Python's; a file's name here also carries `key` (a hash of the toolkit's code and of the versions
MkDocs, Material, Jinja2 and Babel, which decide how an environment compiles: its options, its
extensions), and a file holds the sha256 of its data, so a damaged or foreign file is a miss. Files
of another key are removed.

Jinja stores code with `marshal`, which builds code objects when it reads them: like the lemma
cache and the pickled stage cache, this folder is the user's own cache folder, not a place for
files from elsewhere (the checksum catches damage, not intent).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from jinja2.bccache import Bucket, BytecodeCache

from extract.files import replace_with

SUFFIX = ".jinja"


class TemplateCache(BytecodeCache):
    """Compiled templates in `folder`, under `key` (set `environment.bytecode_cache` to it)."""

    def __init__(self, folder: Path, key: str) -> None:
        self.folder = folder
        self.prefix = hashlib.sha256(key.encode()).hexdigest()[:16]
        self.hits = 0
        self.stored = 0
        try:
            for path in folder.iterdir():
                if path.suffix == SUFFIX and not path.name.startswith(f"{self.prefix}-"):
                    path.unlink(missing_ok=True)  # made by other code: never read again
        except OSError:
            pass  # no folder yet, or one that cannot be read: made when a template is stored

    def _path(self, bucket: Bucket) -> Path:
        return self.folder / f"{self.prefix}-{bucket.key}{SUFFIX}"

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            head, _, data = self._path(bucket).read_bytes().partition(b"\n")
        except OSError:
            return
        if hashlib.sha256(data).hexdigest().encode("ascii") != head:
            return
        bucket.bytecode_from_string(data)  # Jinja checks its magic and the source's checksum (else: no code)
        if bucket.code is not None:
            self.hits += 1

    def dump_bytecode(self, bucket: Bucket) -> None:
        data = bucket.bytecode_to_string()
        stored = hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            replace_with(self._path(bucket), lambda temp: temp.write_bytes(stored), prefix=".jinja-")
            self.stored += 1
        except OSError:
            pass  # a folder that cannot be written: compiled again next time
