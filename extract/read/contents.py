"""Contents lists whose leaders are blank ("Combat" far left of its "7"), one rule for every reader:
CONTENTS_RUN lines in a row, each a title then its page after a wide gap, the pages never going
back, make a contents list. Each of its lines stays a line of its own with its gap written as
SPACE_LEADER, which the contents patterns read as they read dotted leaders ("Combat ........ 7").
What a wide gap is depends on the format: the PDF reader measures it, the text reader counts spaces."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from extract.patterns import SPACE_LEADER, contents_match

CONTENTS_RUN = 3  # lines in a row, each a title then its page far right, make a contents list
LEADER_SPACE_AT = re.compile(r" (?=\**\d{1,4}\**$)")
_LAST_NUMBER = re.compile(r"(\d{1,4})\**$")
# A text line's title, one gap of two spaces or more (or a tab), its page: "Introduction        2".
# The title holds no such gap itself: a table's row has several.
_WIDE_GAP_PAGE = re.compile(r"^(?P<indent>[ \t]*)(?P<title>\S(?:(?! {2}|\t).)*?\S)(?: {2,}+|\t)[ \t]*+(?P<page>\d{1,4})$")
_WIDE_GAP = re.compile(r"\S(?: {2,}+|\t)[ \t]*+\S")

T = TypeVar("T")


def contents_runs(lines: Sequence[T], candidate: Callable[[T], bool], together: Callable[[T, T], bool],
                  text: Callable[[T], str]) -> list[list[T]]:
    """The runs of `lines` that are contents lists: CONTENTS_RUN candidates or more in a row, each
    `together` with the one before it (one column), the pages their `text` ends on never going back
    (a book's contents follow its pages; a table of scores need not). One candidate alone (a
    table's last cell, a total) is no contents list."""
    found: list[list[T]] = []
    run: list[T] = []
    for line in [*lines, None]:
        if line is not None and candidate(line) and (not run or together(run[-1], line)):
            run.append(line)
            continue
        pages = [int(m.group(1)) if (m := _LAST_NUMBER.search(text(x).rstrip())) else -1 for x in run]
        if len(run) >= CONTENTS_RUN and all(0 <= a <= b for a, b in zip(pages, pages[1:], strict=False)):
            found.append(run)
        run = [line] if line is not None and candidate(line) else []
    return found


def text_contents_lines(texts: Sequence[str]) -> dict[int, str]:
    """A plain text's contents list written with wide spaces ("Introduction        2"): index of
    each of its lines -> the line with its gap as SPACE_LEADER. Blank lines between its lines (a
    double-spaced text) do not break the run; a line with a gap of its own right above or below it
    (a table's header row, another row) does, as any other line does."""
    written: dict[int, str] = {}
    for i, raw in enumerate(texts):
        m = _WIDE_GAP_PAGE.match(raw.rstrip())
        if m is None:
            continue
        line = m.group("title") + SPACE_LEADER + m.group("page")
        if contents_match(line):
            written[i] = m.group("indent") + line
    nonblank = [i for i, raw in enumerate(texts) if raw.strip()]

    def table_beside(i: int) -> bool:  # a line directly above or below, no blank line between, gapped too
        return any(0 <= j < len(texts) and j not in written and _WIDE_GAP.search(texts[j].strip())
                   for j in (i - 1, i + 1))

    runs = contents_runs(nonblank, lambda i: i in written, lambda a, b: True, lambda i: texts[i])
    return {i: written[i] for run in runs if not any(table_beside(i) for i in run) for i in run}
