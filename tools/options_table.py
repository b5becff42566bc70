"""The manifest reference's options table (docs/manifest.md), generated from the options each
profile declares (`extract/segment/profiles`): `python -m tools.options_table` rewrites it,
`python -m tools.options_table --check` only says whether it is up to date (exit 1 if not).
The table sits between two comment markers; everything else in the page is left alone."""

from __future__ import annotations

import sys
from pathlib import Path

from extract.segment.profiles import options_table

PAGE = Path(__file__).resolve().parent.parent / "docs" / "manifest.md"
COMMAND = "python -m tools.options_table"
BEGIN = f"<!-- options-table: generated from the profiles' option declarations by `{COMMAND}`; do not edit by hand -->\n"
END = "<!-- /options-table -->\n"


def current(text: str) -> str | None:
    """The table as the page has it, or None when its markers are missing."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start + len(BEGIN):end]


def block(table: str) -> str:
    """What goes between the markers: the table, a blank line either side (so that Markdown
    reads it as a table, not as part of the comment)."""
    return f"\n{table}\n"


def with_table(text: str, table: str) -> str:
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{PAGE.name}: the markers {BEGIN.strip()!r} … {END.strip()!r} are missing")
    return text[:start + len(BEGIN)] + block(table) + text[end:]


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    table = options_table()
    if "--check" in argv:
        if current(text) == block(table):
            return 0
        print(f"{PAGE.name}: the options table is out of date; run `{COMMAND}`", file=sys.stderr)
        return 1
    updated = with_table(text, table)
    if updated != text:
        PAGE.write_text(updated, encoding="utf-8")
        print(f"{PAGE.name}: options table rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
