"""Pure text helpers shared by the profiles: inline emphasis, joining wrapped lines, slugs."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_BOLD = re.compile(r"\*\*")
# "(*)" is a printed asterisk (an icon placeholder), not emphasis: no ")" right after an
# opening marker nor "(" right before a closing one.
_ITALIC = re.compile(r"(?<![\w*\\])\*(?=[^\s*)])([^*]+?)(?<=[^\s*(])\*(?![\w*])")
_STRIKE = re.compile(r"~~(.+?)~~")
_LINK = re.compile(r"\[([^\[\]]+)\]\([^)\s]*+\)")  # "[Commandement](#)": a Markdown link, its text is the text
# "[[Moral]]", "[[Moral|le moral]]", "[[Moral#Tests|tests]]": a wiki link, its label (else its page) is the text
WIKI_LINK = re.compile(r"\[\[(?P<page>[^\[\]|#\n]{1,80})(?:#(?P<part>[^\[\]|\n]{0,80}))?(?:\|(?P<label>[^\[\]\n]{1,80}))?\]\]")
_ESCAPED_STAR = re.compile(r"\\\*")
_SPACES = re.compile(r"[ \t]+")
# No-break and zero-width spaces, byte-order marks, carriage returns: invisible in print.
INVISIBLE = str.maketrans({"\u00a0": " ", "\u202f": " ", "\ufeff": "", "\u200b": "", "\r": ""})
TERMINAL = (".", "!", "?", ":", ";", "»", ")", '"', "…")


def inline(text: str) -> tuple[str, str, bool]:
    """Split source emphasis from text: returns (plain, markdown, had_stray_marker).

    `**` markers that do not pair up are PDF-conversion debris: both outputs drop them and the
    caller reports the repair. Paired ones stay in the markdown only.
    """
    text = _ESCAPED_STAR.sub("*", text)
    stray = False
    markers = len(_BOLD.findall(text))
    if markers % 2:
        stray = True
        text = _BOLD.sub("", text)
    markdown = _SPACES.sub(" ", text).strip()
    # Bold markers glued inside words ("**Sous-couche**Aplats**") are kept in markdown only.
    plain = _BOLD.sub("", markdown)
    plain = _ITALIC.sub(r"\1", plain)
    plain = _STRIKE.sub(r"\1", plain)
    plain = WIKI_LINK.sub(lambda m: m.group("label") or m.group("page"), plain)
    plain = _LINK.sub(r"\1", plain)
    plain = _SPACES.sub(" ", plain).strip()
    # Empty pairs such as "** **" leave nothing worth keeping in markdown either.
    markdown = re.sub(r"\*\*\s*\*\*", " ", markdown).strip()
    return plain, markdown, stray


def without_italic(text: str) -> str:
    """`text` with its italic markers (`*…*`) taken out, bold and everything else left as they are:
    for readers of a document's lines that know bold labels but not italic ones."""
    return _ITALIC.sub(r"\1", text)


def ends_sentence(text: str) -> bool:
    return text.rstrip().endswith(TERMINAL)


def starts_lowercase(text: str) -> bool:
    stripped = text.lstrip("*_ ")
    return bool(stripped) and stripped[0].islower()


HYPHENATED_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def hyphen_evidence(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """What a document says of its own words: those it spells whole, and the compounds it spells
    with a hyphen inside a line (each whole compound and each pair of its parts: "c'est-à-dire"
    gives est-à-dire, est-à, à-dire). A hyphen ending a line is no evidence."""
    whole: set[str] = set()
    hyphenated: set[str] = set()
    for text in texts:
        for word in HYPHENATED_WORD.findall(text.rstrip().rstrip("-").lower()):
            if "-" not in word:
                whole.add(word)
                continue
            hyphenated.add(word)
            parts = word.split("-")
            hyphenated.update(f"{a}-{b}" for a, b in zip(parts, parts[1:], strict=False))
    return whole, hyphenated


def hyphen_stays(evidence: tuple[set[str], set[str]], before: str, after: str, default: bool) -> bool:
    """Whether the hyphen ending `before` at a line's end is a compound's (it stays: "au-" /
    "dessus") or a word cut at the margin (it goes: "déplace-" / "ment"), by the document's
    `hyphen_evidence`: a compound it writes mid-line stays, a word it writes whole is rejoined;
    with no evidence, `default` (hard-wrapped Markdown breaks compounds at their hyphen; a typeset
    page cuts words). Only the two words around the break are read: a block may be long."""
    if not before.rstrip().endswith("-"):
        return False
    heads = HYPHENATED_WORD.findall(before[-80:].rstrip().rstrip("-").lower())
    tails = HYPHENATED_WORD.findall(after[:80].lower())
    if not heads or not tails:
        return default
    whole, hyphenated = evidence
    head, tail = heads[-1], tails[0].split("-")[0]
    if f"{head}-{tail}" in hyphenated or f"{head.split('-')[-1]}-{tail}" in hyphenated:
        return True
    if f"{head}{tail}" in whole:
        return False
    return default


def join_wrapped(previous: str, following: str, keep_hyphen: bool = False) -> str:
    """Join a line wrapped at column width to the text before it.

    A trailing hyphen between two letters is a line-break hyphen unless `keep_hyphen` says the
    hyphenated spelling is a real compound ("lance-flammes").
    """
    previous = previous.rstrip()
    following = following.strip()
    if previous.endswith("-") and len(previous) > 1 and previous[-2].isalpha() and following[:1].isalpha():
        if keep_hyphen:
            return previous + following
        return previous[:-1] + following
    return f"{previous} {following}"


def slugify(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    ascii_text = folded.encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    return slug or "x"


# A run of emphasis closing a line and the same run opening the next: `*` (italic), `**` (bold), `***`.
_CLOSING_RUN = re.compile(r"(?<=[^\s*\\])(\*{1,3})$")
_OPENING_RUN = re.compile(r"^(\*{1,3})(?=[^\s*])")


def join_wrapped_markdown(previous: str, following: str, keep_hyphen: bool = False) -> str:
    """`join_wrapped` for Markdown lines: a paragraph printed in italic over several lines comes one
    run per line ("*a*" | "*b*"); a run closing `previous` and the same run opening `following`
    become one ("*a b*"), when the text they mark stays the same (the markers still pair up)."""
    previous, following = previous.rstrip(), following.strip()
    joined = join_wrapped(previous, following, keep_hyphen)
    close, opening = _CLOSING_RUN.search(previous), _OPENING_RUN.match(following)
    if not close or not opening or close.group(1) != opening.group(1):
        return joined
    n = len(close.group(1))
    merged = join_wrapped(previous[:-n], following[n:], keep_hyphen)
    plain, _, stray = inline(merged)
    if stray or plain != join_wrapped(inline(previous)[0], inline(following)[0], keep_hyphen):
        return joined
    return merged


MEMO_LENGTH = 300  # headings and titles are remembered (pure functions); long texts are not kept


def fold(text: str) -> str:
    """Lowercase, accents removed, spaces collapsed: for comparing headings and titles."""
    return _fold_short(text) if len(text) <= MEMO_LENGTH else _fold(text)


@lru_cache(maxsize=65536)
def _fold_short(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    ascii_text = ascii_text.replace("’", "'")
    return _SPACES.sub(" ", ascii_text).strip()


def letter_ratio(text: str) -> float:
    visible = [c for c in text if not c.isspace()]
    if not visible:
        return 0.0
    return sum(c.isalpha() for c in visible) / len(visible)


def is_pictograph_only(text: str) -> bool:
    """A line with no letter and no digit: icons turned into pictographs, table rules, dots."""
    return not any(c.isalnum() for c in text)


def uppercase_ratio(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(c.isupper() for c in letters) / len(letters)


# Icons, glyphs in brackets and ellipses ending a title, each item read once: a match starts where no
# space, glyph or "..." before it could have started it (the leftmost match never does), so a
# leader of dots or glyphs is not read again from each of its characters.
_TRAILING_ICONS = re.compile(r"(?<![^\w()'’«».,:;!?-])(?<!\.\.\.)(?:\s*+(?:\([^\w()]*+\)|[^\w\s()'’«».,:;!?-]++|\.\.\.|…))++\s*+$")


def strip_trailing_icons(title: str) -> str:
    """'Charge ✦' -> 'Charge', 'Repositionnement (⊕)' -> 'Repositionnement', 'Augmentation ...'."""
    return _TRAILING_ICONS.sub("", title).strip()


def title_key(title: str | None) -> str:
    """Titles as printed vary in case, accents, icons and number: "Obstacles ✦" ~ "obstacle"."""
    if not title:
        return ""
    return _title_key_short(title) if len(title) <= MEMO_LENGTH else _title_key(title)


@lru_cache(maxsize=65536)
def _title_key_short(title: str) -> str:
    return _title_key(title)


# A bracket and what follows it up to the first closing one, or to the end when none closes it (then
# kept as it is: read to the end once, not again from each bracket after it).
_CLOSED_BRACKETS = re.compile(r"\[[^\]]*+(?P<closed>\])?")
# Then parentheses (the brackets are gone: none is closed after the first step).
_CLOSED_PARENTHESES = re.compile(r"\[[^\[\]]*+(?P<closed>\])|\([^)]*+(?P<shut>\))?")


def _closed_or_kept(match: re.Match[str]) -> str:
    return " " if match.group("closed") or match.groupdict().get("shut") else match.group(0)


def _title_key(title: str) -> str:
    # brackets first: an icon's token ("Marche [marche]", extract.icons) ends with "]", which the
    # trailing-icon rule would otherwise take for a glyph and cut alone
    text = fold(strip_trailing_icons(_CLOSED_BRACKETS.sub(_closed_or_kept, title)))
    text = _CLOSED_PARENTHESES.sub(_closed_or_kept, text)
    text = re.sub(r"[^\w' -]+", " ", text)
    words = [re.sub(r"(?<=\w\w)[sx]$", "", w) for w in text.replace("-", " ").split()]
    return " ".join(words)


def value_text(value: object, unit: str | None = None) -> str:
    """A fact's value as a reader writes it: "200 points", "90 × 180 cm", "1–2", "Doute, Peur, Confusion"."""
    if isinstance(value, dict):
        text = f"{value['min']}–{value['max']}"
    elif isinstance(value, list):
        text = " × ".join(map(str, value)) if all(isinstance(v, (int, float)) for v in value) else ", ".join(map(str, value))
    else:
        text = str(value)
    return f"{text} {unit}" if unit else text


def shorten(text: str, width: int = 90) -> str:
    """`text` cut at a space before `width`, never inside an icon token ("[attaque à distance]")."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    space = text.rfind(" ", 0, width)
    cut = text[:space] if space > 0 else text[:width]  # one long word: cut at the width
    if cut.rfind("[") > cut.rfind("]"):  # a token the cut would open and not close
        cut = cut[: cut.rfind("[")].rstrip()
    return cut + " …"


CELL_SEPARATOR = re.compile(r"(?<!\\)\|")  # a pipe not escaped: "\|" is a "|" printed in the cell


def table_row_cells(row: str) -> list[str]:
    """The cells of a Markdown table row "| a | b \\| c |", as written (an escaped pipe stays
    escaped, inside its cell); the row's outer pipes are no cells, an escaped last one is text."""
    inner = row.strip().lstrip("|")
    while inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return CELL_SEPARATOR.split(inner)
