"""Snippets: the window of an entry's text with most of the query's words, marked; and the
analysed forms of a text."""

from __future__ import annotations

import html as html_lib
from bisect import bisect_left
from functools import lru_cache

from extract.search import words as W
from extract.search.model import UNICODE_ELISION, UNICODE_TOKEN, positions, stems_of_word


def analyse(text: str) -> list[str]:
    """Every indexed form of the words of `text` (a word may give two: accented and not)."""
    return [stem for _, stems in positions(text) for stem in stems]


def primary_forms(text: str) -> list[str]:
    """One form per word, in order."""
    return [stems[0] for _, stems in positions(text)]


def snippet(text: str, marked: frozenset[str] | set[str], width: int = 180) -> tuple[str, str]:
    """The window of the text with most matched words, marked `[…]` and `<mark>…</mark>`, each
    word once."""
    spans = [(start, end) for stems, start, end in analysed_spans(text) if marked and not marked.isdisjoint(stems)]
    start = 0
    if spans:
        # The span whose window holds most spans (the first such): spans are in text order.
        starts = [s for s, _ in spans]
        best = max(range(len(spans)), key=lambda i: bisect_left(starts, starts[i] + width) - i)
        start = max(0, spans[best][0] - 40)
        start = text.rfind(" ", 0, start) + 1 if start else 0
    end = min(len(text), start + width)
    if end < len(text):
        end = text.rfind(" ", start, end) if text.rfind(" ", start, end) > start else end
    window = [(s, e) for s, e in spans if start <= s and e <= end]
    plain, html, at = [], [], start
    for s, e in window:
        plain.append(text[at:s] + "[" + text[s:e] + "]")
        html.append(html_lib.escape(text[at:s]) + "<mark>" + html_lib.escape(text[s:e]) + "</mark>")
        at = e
    plain.append(text[at:end])
    html.append(html_lib.escape(text[at:end]))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return (prefix + "".join(plain).replace("\n", " ") + suffix, prefix + "".join(html).replace("\n", " ") + suffix)


@lru_cache(maxsize=2048)
def analysed_spans(text: str) -> tuple[tuple[tuple[str, ...], int, int], ...]:
    """Each word of `text` with its stems and characters (one span per word: marked once)."""
    found = []
    for match in UNICODE_TOKEN.finditer(text):
        token = match.group(0)
        bare = UNICODE_ELISION.sub("", token)
        start = match.start() + (len(token) - len(bare))
        folded = W.fold(bare)
        if folded in W.FOLDED_STOP_WORDS:
            continue
        found.append((stems_of_word(bare.lower(), folded), start, match.end()))
    return tuple(found)

