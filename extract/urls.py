"""Where an entry lives on the site: its page (the nearest enclosing entry that starts one) and
its anchor. The one URL rule: `<game>/<document>/<page key>/#<anchor>`."""

from __future__ import annotations

import hashlib

from extract.model import Entry
from extract.text import slugify


def page_of(entry: Entry) -> Entry:
    node = entry
    while node.parent is not None and not node.is_page:
        node = node.parent
    return node


def anchor_of(entry: Entry) -> str:
    """The book's number, else the entry's key below its page's (unique on the page: two FAQ
    topics both have a "q1")."""
    if entry.number:
        return entry.number
    page = page_of(entry)
    if page is entry or not entry.key.startswith(page.key + "/"):
        return slugify(entry.key.rsplit("/", 1)[-1])
    return slugify(entry.key[len(page.key) + 1:])


NAME_BYTES = 200  # under every file system's 255-byte name limit, with room for a suffix MkDocs adds


def file_name(stem: str, suffix: str = "") -> str:
    """`stem` + `suffix` as a file or folder name the build can write, made from an entry's key: as
    is up to NAME_BYTES bytes; longer, the stem cut and followed by a short hash of the whole, so that
    the same key always gives the same name and two keys two names. The one rule for every name the
    build makes from keys (site pages, API files): links follow it through these functions."""
    whole = stem.encode("utf-8")
    if len(whole) + len(suffix.encode("utf-8")) <= NAME_BYTES:
        return stem + suffix
    digest = hashlib.sha256(whole).hexdigest()[:12]
    room = NAME_BYTES - len(suffix.encode("utf-8")) - len(digest) - 1
    head = whole[:room].decode("utf-8", "ignore").rstrip("-")
    return f"{head}-{digest}{suffix}"


def page_dir(entry: Entry) -> str:
    """The folder of the entry's page, relative to the site root: one folder per level of its
    page's key, each named by `file_name`."""
    folders = "/".join(file_name(part) for part in page_of(entry).key.split("/"))
    return f"{entry.game}/{entry.document}/{folders}"


def page_file(entry: Entry) -> str:
    """The Markdown file the site writes for the entry's page (MkDocs serves it as `page_dir/`)."""
    return f"{page_dir(entry)}/index.md"


def entry_url(entry: Entry) -> str:
    return f"{page_dir(entry)}/#{anchor_of(entry)}"


def assign_urls(entries: list[Entry]) -> None:
    for entry in entries:
        entry.url = entry_url(entry)


def site_url(text: str) -> str:
    """The address the site will be published at (`--site-url`), as MkDocs wants it: an absolute
    http(s) URL without query or fragment, ending with "/". Raises ValueError saying why not."""
    from urllib.parse import urlsplit

    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{text!r} is not an absolute http(s) address (https://example.org/regles/)")
    if parts.query or parts.fragment or any(c.isspace() for c in text.strip()):
        raise ValueError(f"{text!r}: a site address has no query, fragment or spaces")
    return parts._replace(path=parts.path.rstrip("/") + "/").geturl()
