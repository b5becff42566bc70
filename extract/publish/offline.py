"""The site offline and installable: a service worker (`sw.js`, at the site's root so that its
scope is the whole site) that stores every page, the search model and the assets the pages load
on a first visit, and answers from that store when the network is gone; and a web app manifest
(static: site/assets/manifest.webmanifest) so that a phone can install the site.

The worker's cache is named after a digest of the files it stores, so a site whose content
changed gets a new worker (its bytes differ), which stores the new files, then drops the old
cache; the same site gives the same bytes. Written once the search model is in the site (it is
one of the stored files)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from extract.errors import writing

WORKER = "sw.js"
# the site's templates, as the toolkit carries them (extract/publish/files links to site/)
TEMPLATES = Path(__file__).parent / "files" / "site" / "templates"
# What the worker does not store, by path relative to the site: the
# static JSON API for other tools (no page reads it), source maps, Material's lunr search and its
# worker (the site uses its own search box), the sitemap, and the worker itself.
NOT_STORED_PREFIXES = ("api/", "assets/javascripts/lunr/", "assets/javascripts/workers/", "sitemap.xml")
NOT_STORED_SUFFIXES = (".map",)
NOT_STORED_NAMES = frozenset({"sw.js"})


def not_stored(name: str) -> bool:
    return name in NOT_STORED_NAMES or name.startswith(NOT_STORED_PREFIXES) or name.endswith(NOT_STORED_SUFFIXES)


@dataclass(frozen=True)
class OfflineSite:
    """What the worker stores: `files`, the URLs relative to the site's root (a folder's
    index.html as the folder, as the site links it), `version`, a digest of their paths and
    bytes, and `size`, their bytes."""

    files: list[str]
    version: str
    size: int


def stored_files(site: Path) -> OfflineSite:
    """Every file of `site` the worker stores, in sorted order, with the site's version."""
    digest = hashlib.sha256()
    urls: list[str] = []
    size = 0
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        name = path.relative_to(site).as_posix()
        if not_stored(name):
            continue
        data = path.read_bytes()
        size += len(data)
        digest.update(f"{name}\n{hashlib.sha256(data).hexdigest()}\n".encode())
        urls.append(served_url(name))
    return OfflineSite(urls, digest.hexdigest()[:16], size)


def served_url(name: str) -> str:
    """The URL a page is linked by: `a/b/index.html` → `a/b/`, `index.html` → `./`."""
    if name == "index.html":
        return "./"
    return name.removesuffix("index.html") if name.endswith("/index.html") else name


def write_worker(site: Path, templates: Path = TEMPLATES) -> OfflineSite:
    """`site/sw.js` from the template `sw.js.j2` in `templates`, listing what it stores."""
    offline = stored_files(site)
    env = Environment(loader=FileSystemLoader(str(templates)), undefined=StrictUndefined, keep_trailing_newline=True,
                      autoescape=False)
    text = env.get_template("sw.js.j2").render(version=json.dumps(offline.version),
                                               files=json.dumps(offline.files, ensure_ascii=False, indent=0))
    with writing("the site's service worker"):
        (site / WORKER).write_text(text, encoding="utf-8")
    return offline
