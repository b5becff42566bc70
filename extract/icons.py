"""The books' icons, named. The conversion of a rulebook turned each printed icon into a glyph
chosen page by page (Runewars' "Ralliement" is "()", "(☘)", "(🏹)", "(👤)", "(♣)" or "(☒)";
"(🏹)" is a ranged attack on one page and a rally on another), so a glyph says nothing. The words
printed just before it do: "action Ralliement (☘)". A game's `icons.toml` names each icon once
with those words (its cues); here every "(glyph)" a cue announces becomes the icon's token
`[name]` ("action Ralliement [ralliement]"), the same on every page, and every other "(glyph)" is
left as printed and reported.

Tokens are square brackets around the icon's name: plain text a reader and `regles show` read,
which titles' comparison keys (`extract.text.title_key`) already ignore, and which the site shows
as a badge (only for the names the game declares: "Résistant [X]" stays text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extract.model import Anomaly, Block, Entry

# A parenthesised glyph: up to three characters, none a letter, digit, space or parenthesis
# ("(☒)", "(🛡️)", "(*)"), or nothing at all ("()": the conversion lost the icon).
GLYPH = re.compile(r"\(([^\w\s()]{0,3})\)")


@dataclass(frozen=True)
class IconTable:
    """A game's icons: each cue (as folded for matching) with its icon's name."""

    cues: dict[str, str] = field(default_factory=dict)  # lower-cased cue -> name
    ignore: frozenset[str] = frozenset()  # characters in parentheses that are text, not icons ("+", "-")
    file: str = ""

    @property
    def names(self) -> list[str]:
        return sorted(set(self.cues.values()))

    def __bool__(self) -> bool:
        return bool(self.cues)


def token(name: str) -> str:
    return f"[{name}]"


def name_icons(text: str, table: IconTable) -> tuple[str, list[tuple[str, str]]]:
    """`text` with each announced "(glyph)" made its icon's token; and the glyphs left as printed
    (glyph, the words before it)."""
    if not table or "(" not in text:
        return text, []
    unmapped: list[tuple[str, str]] = []
    cues = sorted(table.cues, key=len, reverse=True)  # "boost unique" before "unique"

    def replace(match: re.Match[str]) -> str:
        glyph = match.group(1)
        if glyph in table.ignore:
            return match.group(0)
        # "**Marche** (☛)": Markdown's emphasis; "boost\nunique (x)": spaces as the cues are read
        before = " ".join(text[: match.start()].split()).rstrip("*_").rstrip().lower()
        for cue in cues:
            if before.endswith(cue) and (len(before) == len(cue) or not before[-len(cue) - 1].isalnum()):
                return token(table.cues[cue])
        unmapped.append((glyph, " ".join(text[max(0, match.start() - 40): match.end()].split())))
        return match.group(0)

    return GLYPH.sub(replace, text), unmapped


def name_icons_in_entries(entries: list[Entry], table: IconTable) -> list[Anomaly]:
    """Every block's text (and its Markdown) with its icons named; one `icon-unmapped` anomaly per
    glyph no cue announces (the text keeps it as printed)."""
    anomalies: list[Anomaly] = []
    if not table:
        return anomalies
    for entry in entries:
        for block in entry.blocks:
            anomalies.extend(_name_block(entry, block, table))
    return anomalies


def _name_block(entry: Entry, block: Block, table: IconTable) -> list[Anomaly]:
    block.text, unmapped = name_icons(block.text, table)
    if block.markdown:
        block.markdown, _ = name_icons(block.markdown, table)
    if block.rows:
        block.rows = [[name_icons(cell, table)[0] for cell in row] for row in block.rows]
    lines = block.lines[:1] or entry.lines[:1]
    return [Anomaly("icon-unmapped", f"{entry.id}: the glyph ({glyph}) is announced by no cue of {table.file or 'icons.toml'}: "
                                     f"left as printed (« {context} »)", list(lines), data={"glyph": glyph})
            for glyph, context in unmapped]
