"""Stage 5, link: what every entry needs to be found — its page URL and anchor, and the
backrefs of the refs that resolve to it."""

from __future__ import annotations

from extract.model import Entry
from extract.text import slugify


def page_of(entry: Entry) -> Entry:
    node = entry
    while node.parent is not None and not node.is_page:
        node = node.parent
    return node


def anchor_of(entry: Entry) -> str:
    if entry.number:
        return entry.number
    return slugify(entry.key.rsplit("/", 1)[-1])


def assign_urls(entries: list[Entry]) -> None:
    for entry in entries:
        page = page_of(entry)
        entry.url = f"{entry.game}/{entry.document}/{page.key}/#{anchor_of(entry)}"


def fill_backrefs(entries: list[Entry]) -> None:
    by_id = {entry.id: entry for entry in entries}
    for entry in entries:
        entry.backrefs = []
    for entry in entries:
        for ref in entry.refs:
            target = by_id.get(ref.target or "")
            if target is not None and entry.id not in target.backrefs:
                target.backrefs.append(entry.id)
    for entry in entries:
        entry.backrefs.sort()
