"""Which profile reads a document, from evidence: what its format says (Markdown headings, font
sizes), its numbering, its questions. The choice comes with the reason, which is reported."""

from __future__ import annotations

import re
from typing import Any

from extract.model import Line
from extract.numbering import numbered_heading_depth
from extract.patterns import PARAGRAPH_LABEL
from extract.segment.profiles.base import paragraph_label_style
from extract.segment.profiles.faq import FaqOptions

QUESTION_END = re.compile(r"\?\**\s*$")


def choose_profile(lines: list[Line], evidence: dict[str, Any], reader: str) -> tuple[str, str]:
    """(profile, why) for a document read by `reader` with the reader's `evidence`."""
    text = [ln.text.strip() for ln in lines if ln.text.strip()]
    total = max(len(text), 1)

    def share(pattern: str) -> float:
        return sum(bool(re.match(pattern, ln)) for ln in text) / total

    asks = "|".join(re.escape(prefix) for prefix in FaqOptions().question_prefixes)
    prefixed = share(rf"^(?:\*\*)?(?:{asks})\s*(?:\d+\s*)?[:.-]")
    if prefixed > 0.02:
        return "faq", f"{prefixed:.0%} of lines open with a question prefix"
    questions = sum(bool(QUESTION_END.search(ln)) for ln in text) / total
    if questions > 0.15:
        return "faq", f"{questions:.0%} of lines are questions"
    label = paragraph_label_style(lines)
    if label:
        # the walker of headed prose reads them (any walker built on it does): said as the reason
        count = sum(1 for ln in text if (m := PARAGRAPH_LABEL.match(ln)) and m.group(label))
        return "headed-prose", f"{count} paragraphs open with a rule label (§12, [12] or 12)) that numbers them"
    decimal = share(r"^(?:-\s+)?\d{1,2}\.\d{2,3}[A-Z]?\s")
    if decimal > 0.1:
        return "decimal-rules", f"{decimal:.0%} of lines open with a decimal rule number (1.07)"
    bare = share(r"^\d{1,3}(?:\.\d{1,3})+\.$")
    if bare > 0.05:
        return "numbered-outline", f"{bare:.0%} of lines are bare rule numbers (5.1.)"
    glossary = share(r"^(?:-\s+)?\d{1,3}\.\d{1,2}\*{0,2}\s")
    # "1.1 Matériel" as a short title of its own, not "25.3 Un joueur peut…" opening a rule's text:
    # sections numbered in decimal form, which headed prose reads as numbered headings.
    deep = sum((numbered_heading_depth(ln) or 0) >= 2 for ln in text)
    if glossary > 0.1 and deep >= 2 and deep >= 0.8 * glossary * total:
        return "headed-prose", f"{deep} lines are numbered section headings (1.1 Matériel)"
    if glossary > 0.1 and share(r"^#{1,6}\s") < 0.02:
        return "numbered-glossary", f"{glossary:.0%} of lines open with a topic number (25.3)"
    headings = share(r"^#{1,6}\s")
    items = share(r"^\s*-\s")
    if headings > 0.02 and items > 0.4:
        return "bullet-aid", f"headings over lists: {items:.0%} of lines are list items"
    if headings > 0.005 or evidence.get("headings"):
        source = "its font sizes" if reader == "pdf" else "Markdown" if reader == "markdown" else "# marks"
        return "headed-prose", f"headings stated by {source} ({evidence.get('headings', round(headings * total))})"
    short = sum(len(ln) < 45 for ln in text) / total
    if reader == "text" and short > 0.6:
        return "ocr-columns", f"{short:.0%} of lines are short (text wrapped at column width)"
    return "headed-prose", "no stronger sign: headings found from layout"
