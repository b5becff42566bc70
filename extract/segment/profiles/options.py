"""The options every profile shares, each declared with its help (the manifest checker and the
README's table come from these declarations); each profile extends them with its own."""

from __future__ import annotations

from dataclasses import dataclass, field

from extract.options import line_span, positive, regex

# -- options every profile shares (each profile extends these with its own) -----------------------

@dataclass(frozen=True, kw_only=True)
class SetAsideRule:
    lines: tuple[int, int] | None = field(default=None, metadata={
        "help": "first and last line set aside", "check": line_span, "within": "span"})
    pattern: str | None = field(default=None, metadata={
        "help": "a regular expression: every line it finds is set aside", "check": regex})
    reason: str = field(metadata={"help": "why the lines are not rules (title page, credits, banner)"})

    def __post_init__(self) -> None:
        if (self.lines is None) == (self.pattern is None):
            raise ValueError("needs either lines = [first, last] or a pattern")


@dataclass(frozen=True, kw_only=True)
class Relocation:
    lines: tuple[int, int] = field(metadata={"help": "first and last line to move", "check": line_span,
                                            "within": "span"})
    after: int = field(metadata={"help": "the line they are put back after", "check": positive, "within": "line"})
    reason: str = field(metadata={"help": "why: which page the PDF inserted where"})


@dataclass(frozen=True)
class ProfileOptions:
    """Options of every profile."""

    set_aside: tuple[SetAsideRule, ...] = field(default=(), metadata={
        "help": "`{lines = [a, b], reason}` or `{pattern, reason}`: title pages, credits, banners, set aside with their reason"})
    section_kinds: dict[str, str] = field(default_factory=dict, metadata={
        "help": "`{ \"Clarifications de Règles\" = \"clarification\" }`: entries under a top-level section of that "
                "title are of that kind", "found": True})


@dataclass(frozen=True)
class OutlineOptions(ProfileOptions):
    """Options of the profiles that find headings in the text."""

    outline: tuple[str, ...] = field(default=(), metadata={
        "help": "the book's own headings in order, `#` per level; matched in sequence, each must be found (in "
                "`ocr-columns`, matched by title: the declared chapters, every other heading in capitals a section "
                "of the chapter before it)", "found": True})
    captions: tuple[str, ...] = field(default=(), metadata={
        "help": "figure captions and diagram labels left in the flow: kept as `caption` blocks, never headings",
        "found": True})


@dataclass(frozen=True)
class HeadedOptions(OutlineOptions):
    """Options of the profiles built on HeadedWalker (headed prose and its extensions)."""

    relocate: tuple[Relocation, ...] = field(default=(), metadata={
        "help": "`{lines = [a, b], after, reason}`: text the PDF printed on an inserted page, put back"})
    caps_level: int | None = field(default=None, metadata={
        "help": "headings in capitals are this level, title-case ones the next", "check": positive})
    verbatim_headings: tuple[str, ...] = field(default=(), metadata={
        "help": "sections whose lines are kept one block each (a printed index)", "found": True})
