"""Bullet aid (Heroscape): Markdown-like `#` headings and bullets nested by indentation or by
level glyphs (`\\*`, `#`, `@`); abbreviations are kept exactly as written."""

from __future__ import annotations

import re

from extract.model import Line, Segmentation
from extract.segment.profiles.base import DocBuilder, DocContext, HeadedWalker
from extract.segment.profiles.headed_prose import prepare
from extract.text import starts_lowercase

HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>\S.*)$")
ITEM = re.compile(r"^(?P<indent>\s*)(?:-\s+(?:(?P<glyph>\\\*|#|@|>)\s+)?|(?P<bare>@|\\\*)\s+)(?P<text>.*)$")
GLYPH_DEPTH = {"\\*": 1, "#": 2, "@": 3, ">": 1}


class BulletWalker(HeadedWalker):
    def __init__(self, ctx: DocContext, builder: DocBuilder) -> None:
        super().__init__(ctx, builder)
        self.layout_headings = False
        self.previous: Line | None = None

    def special(self, line: Line) -> bool:
        previous, self.previous = self.previous, line
        heading = HEADING.match(line.text)
        if heading:
            title = re.sub(r"^[-*]\s+", "", heading.group("title"))
            self.open_heading(Line(line.no, title), len(heading.group("hashes")), numbered=True)
            return True
        item = ITEM.match(line.text)
        if item:
            glyph = item.group("glyph") or item.group("bare")
            depth = max(len(item.group("indent")) // 2, GLYPH_DEPTH.get(glyph or "", 0))
            entry = self.target(line)
            block = self.b.block(entry, "subbullet" if depth else "bullet", item.group("text"), line.no)
            block.depth = depth
            self.last_block = block
            return True
        # A line the source broke by hand ("  " at its end) goes on; a reader's lines are whole already.
        broken = previous is not None and previous.hard_break and not self.ctx.logical_lines
        if self.last_block is not None and previous is not None and (
                broken or starts_lowercase(line.text.strip())) and previous.no == line.no - 1:
            self.b.extend(self.last_block, line.text.strip(), line.no)
            return True
        self.paragraph(line, "paragraph")
        return True


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    BulletWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
