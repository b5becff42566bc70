"""One module per document style, all with the same `segment(lines, ctx)` and a dataclass of the
options they read; the manifest picks one by name. A new style is a new module and a line here."""

from __future__ import annotations

from extract.registry import Registry
from extract.segment.profiles import (
    bullet_aid,
    decimal_rules,
    faq,
    headed_prose,
    numbered_glossary,
    numbered_outline,
    ocr_columns,
)
from extract.segment.profiles.base import HeadedOptions, Profile, ProfileOptions

PROFILES: Registry[Profile] = Registry("profile")
for _profile in (
    Profile("numbered-glossary", numbered_glossary.segment, numbered_glossary.NumberedGlossaryOptions),
    Profile("headed-prose", headed_prose.segment, HeadedOptions),
    Profile("decimal-rules", decimal_rules.segment, decimal_rules.DecimalRulesOptions),
    Profile("ocr-columns", ocr_columns.segment, ocr_columns.OcrColumnsOptions),
    Profile("bullet-aid", bullet_aid.segment, HeadedOptions),
    Profile("faq", faq.segment, faq.FaqOptions),
    Profile("numbered-outline", numbered_outline.segment, ProfileOptions, raw_text=True),
):
    PROFILES.add(_profile.name, _profile)


def option_classes() -> dict[str, type[ProfileOptions]]:
    """Profile name -> the dataclass of its options, by name: what the manifest is checked against."""
    return {name: PROFILES[name].options for name in PROFILES}


def options_table() -> str:
    """The options table of docs/manifest.md, from the declarations."""
    from extract.options import options_table as render

    return render(option_classes())


__all__ = ["PROFILES", "Profile", "option_classes", "options_table"]
