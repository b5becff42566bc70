"""What every profile shares, in one place to import from: the lines' shapes and passes (`lines`),
the options (`options`), the entry builder and context (`builder`), the heading tests (`headings`)
and the walker for headed prose that the more specific profiles extend (`walker`)."""

from __future__ import annotations

from extract.segment.profiles.builder import DocBuilder, DocContext, Profile
from extract.segment.profiles.headings import (
    ARTICLE,
    COUNT_ITEM,
    CREDITS,
    HEADING_NUMBER,
    MARKDOWN_HEADING,
    NUMBER_CUED,
    NUMBER_IN_PARENS,
    NUMBERED_CAPTION,
    OPENERS,
    PARAGRAPH_LABELS,
    PART_HEADING,
    QUOTED_NAME,
    ROMAN,
    WRAPPED_TYPES,
    heading_like,
    infer_step_numbers,
    paragraph_label_style,
    split_heading_number,
)
from extract.segment.profiles.lines import (
    BULLET,
    GLYPH_ITEM,
    LEADER_RUN,
    LETTERED_ITEM,
    LIST_ITEM,
    STEP,
    TABLE_ROW,
    TABLE_RULE,
    declared_set_aside,
    is_contents,
    merge_pictographs,
    relocate,
    table_cells,
    vocabulary,
)
from extract.segment.profiles.options import HeadedOptions, OutlineOptions, ProfileOptions, Relocation, SetAsideRule
from extract.segment.profiles.walker import HeadedWalker

__all__ = [
    "ARTICLE", "BULLET", "COUNT_ITEM", "CREDITS", "GLYPH_ITEM", "HEADING_NUMBER", "LEADER_RUN", "LETTERED_ITEM",
    "LIST_ITEM", "MARKDOWN_HEADING", "NUMBERED_CAPTION", "NUMBER_CUED", "NUMBER_IN_PARENS", "OPENERS",
    "PARAGRAPH_LABELS", "PART_HEADING", "QUOTED_NAME", "ROMAN", "STEP", "TABLE_ROW", "TABLE_RULE", "WRAPPED_TYPES",
    "DocBuilder", "DocContext", "HeadedOptions", "HeadedWalker", "OutlineOptions", "Profile", "ProfileOptions",
    "Relocation", "SetAsideRule", "declared_set_aside", "heading_like", "infer_step_numbers", "is_contents",
    "merge_pictographs", "paragraph_label_style", "relocate", "split_heading_number", "table_cells", "vocabulary",
]
