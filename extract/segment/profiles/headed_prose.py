"""Headed prose (Runewars learn-to-play, BattleLore summary): headings from layout and outline,
captions kept apart from paragraphs, numbered steps and tables as blocks."""

from __future__ import annotations

import re
from dataclasses import replace

from extract.model import Line, Segmentation
from extract.segment.profiles.base import (
    DocBuilder,
    DocContext,
    HeadedWalker,
    declared_set_aside,
    merge_pictographs,
    relocate,
)
from extract.text import starts_lowercase

UNDERLINE = re.compile(r"^\s*(?P<mark>=|-)(?P=mark){2,}\s*$")


def underlined_headings(lines: list[Line]) -> list[Line]:
    """A line underlined with "=====" or "-----" on the next line (plain text in Markdown's setext
    style, or reStructuredText's) is a heading of level 1 or 2, written "#"/"##" as Markdown
    states its headings; the underline is part of it. A rule under a list item or a table row
    stays what it is."""
    found: list[Line] = []
    for line in lines:
        mark = UNDERLINE.match(line.text)
        previous = found[-1] if found else None
        # The underlined line stands alone (a blank line or the start above it), as a heading does:
        # a rule under the last line of a paragraph ("et en défausse une." / "-----") is a rule.
        alone = previous is not None and (len(found) == 1 or found[-2].no < previous.no - 1)
        if mark and alone and previous.no + 1 == line.no and not previous.covers \
                and previous.text.strip() and not previous.text.lstrip().startswith(("#", "|", "- ", "* ", "+ ")) \
                and not UNDERLINE.match(previous.text) and not starts_lowercase(previous.text.strip()) \
                and not previous.text.rstrip().endswith((".", ":", ";", ",")):
            level = "#" if mark.group("mark") == "=" else "##"
            found[-1] = replace(previous, text=f"{level} {previous.text.strip()}", covers=(line.no,))
            continue
        found.append(line)
    return found


def prepare(lines: list[Line], ctx: DocContext, builder: DocBuilder) -> list[Line]:
    lines = declared_set_aside(lines, ctx, builder)
    lines = underlined_headings(lines) if not ctx.logical_lines else lines  # a reader's lines are read already
    lines = merge_pictographs(lines, builder)
    return relocate(lines, ctx, builder)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    HeadedWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
