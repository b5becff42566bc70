"""Where an entry lives on the site: its page (the nearest enclosing entry that starts one) and
its anchor. The one URL rule: `<game>/<document>/<page key>/#<anchor>`."""

from __future__ import annotations

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


def page_dir(entry: Entry) -> str:
    """The folder of the entry's page, relative to the site root."""
    return f"{entry.game}/{entry.document}/{page_of(entry).key}"


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
