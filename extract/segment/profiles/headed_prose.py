"""Headed prose (Runewars learn-to-play, BattleLore summary): headings from layout and outline,
captions kept apart from paragraphs, numbered steps and tables as blocks."""

from __future__ import annotations

from extract.model import Line, Segmentation
from extract.segment.profiles.base import (
    DocBuilder,
    DocContext,
    HeadedWalker,
    declared_set_aside,
    merge_pictographs,
    relocate,
)


def prepare(lines: list[Line], ctx: DocContext, builder: DocBuilder) -> list[Line]:
    lines = declared_set_aside(lines, ctx, builder)
    lines = merge_pictographs(lines, builder)
    return relocate(lines, ctx, builder)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    HeadedWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
