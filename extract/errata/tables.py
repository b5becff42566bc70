"""Errata given as a table whose header names an old and a new text: one replace a row."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extract.errata.grammar import NUMBER, TargetHint, normalise_quotes, section_ref, unquote
from extract.errata.located import KIND_PART, SECTION_PART, target_of
from extract.model import Operation
from extract.text import fold

# ---------------------------------------------------------------- errata given as a table

# Header words of an errata table (folded), by the role of their column; the first role a header
# matches is its role, so "Ancien texte" is the old text before it is any other "texte".
_TABLE_ROLES = (
    ("before", r"\b(?:ancien(?:ne)?|avant|imprime|au lieu de|errone)\b"),
    ("after", r"\b(?:nouve(?:au|lle)|apres|correction|corrige|lire|lisez|devient)\b"),
    ("page", r"^(?:pages?|p\.?|pg\.?)$"),
    ("section", r"section|regle|paragraphe|§|chapitre|article|\bpassage\b"),
)


def table_columns(header: list[str]) -> dict[str, int]:
    """The column of each role an errata table's header names (page, section, before, after)."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = fold(cell).strip()
        role = next((role for role, pattern in _TABLE_ROLES if re.search(pattern, key)), None)
        if role is not None and role not in columns:
            columns[role] = index
    return columns


def is_errata_table(header: list[str]) -> bool:
    columns = table_columns(header)
    return "before" in columns and "after" in columns


@dataclass(frozen=True)
class TableRow:
    """One row of an errata table: its operation and target, or why it cannot be read."""

    row: int  # 1 = the first row below the header
    text: str  # the row's cells, as printed
    hint: TargetHint
    operation: Operation | None
    problem: str | None = None


def _cell_locator(cell: str) -> tuple[str, tuple[str, ...]]:
    """"Mise en place, §6" -> ("Mise en place", ("6",)); "12" -> ("", ("12",)); "Moral" -> ("Moral", ())."""
    name, sections = "", ()
    for part in (p.strip() for p in normalise_quotes(cell).split(",")):
        if not part:
            continue
        if m := SECTION_PART.match(part):
            sections = sections or (section_ref(m) or "",)
        elif m := KIND_PART.match(part):
            found, numbers = target_of(m.group("target"))
            name, sections = name or found, sections or numbers
        elif re.fullmatch(NUMBER, part):
            sections = sections or (part,)
        elif not name:
            name = unquote(part) or ""
    return name, sections


def read_errata_table(rows: list[list[str]]) -> list[TableRow]:
    """The rows of a table whose header names an old and a new text (`is_errata_table`): each a
    replace of the old text by the new in the section its row names. A row without both texts, or
    whose page is no number, is returned with its problem rather than dropped."""
    columns = table_columns(rows[0]) if rows else {}
    found: list[TableRow] = []
    for number, cells in enumerate(rows[1:], start=1):
        def cell(role: str, cells: list[str] = cells) -> str:
            index = columns.get(role)
            return normalise_quotes(cells[index]) if index is not None and index < len(cells) else ""

        text = " | ".join(c.strip() for c in cells)
        if not any(c.strip() for c in cells):
            continue
        page_text = cell("page")
        page = re.fullmatch(r"(?:p\.?\s*)?(\d+)", page_text, re.IGNORECASE)
        name, sections = _cell_locator(cell("section"))
        hint = TargetHint(name, int(page.group(1)) if page else None, sections)
        before, after = unquote(cell("before")), unquote(cell("after"))
        problem = None
        if not before or not after:
            problem = "the row gives no " + ("old text" if not before else "new text")
        elif page_text and not page:
            problem = f"its page « {page_text} » is not a number"
        if problem:
            found.append(TableRow(number, text, hint, None, problem))
            continue
        found.append(TableRow(number, text, hint, Operation("replace", "text", before=before, after=after,
                                                            section=sections[0] if sections else None)))
    return found
