"""One module per document style, all with the same `segment(lines, ctx)`; the manifest picks one
by name. A new style is a new module and a line in PROFILES."""

from __future__ import annotations

from collections.abc import Callable

from extract.model import Line, Segmentation
from extract.segment.profiles import (
    bullet_aid,
    decimal_rules,
    faq,
    headed_prose,
    numbered_glossary,
    numbered_outline,
    ocr_columns,
)
from extract.segment.profiles.base import DocContext

Profile = Callable[[list[Line], DocContext], Segmentation]

PROFILES: dict[str, Profile] = {
    "numbered-glossary": numbered_glossary.segment,
    "headed-prose": headed_prose.segment,
    "decimal-rules": decimal_rules.segment,
    "ocr-columns": ocr_columns.segment,
    "bullet-aid": bullet_aid.segment,
    "faq": faq.segment,
    "numbered-outline": numbered_outline.segment,
}
