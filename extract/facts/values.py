"""The numbers a French sentence states: digits ("200", "1,5", "90 cm x 180 cm", "1-2") and
number words ("deux", "vingt et un", "quatre-vingts")."""

from __future__ import annotations

import re
import unicodedata

UNITS = {"zero": 0, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8,
         "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13, "quatorze": 14, "quinze": 15, "seize": 16}
TENS = {"vingt": 20, "vingts": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60}
SCALES = {"cent": 100, "cents": 100, "mille": 1000}
DIGITS = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)(?![\d])")
WORD = re.compile(r"[a-z]+")


def folded(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower().replace("’", "'")


def words_value(words: list[str]) -> int | None:
    """"vingt et un" -> 21, "quatre vingt" -> 80, "deux cents" -> 200; None when not a number."""
    total, current, seen = 0, 0, False
    for word in words:
        if word == "et" and seen:
            continue
        if word in ("vingt", "vingts") and current % 100 == 4:  # quatre-vingt(s): 80
            current += 76
        elif word in UNITS:
            current += UNITS[word]
        elif word in TENS:
            current += TENS[word]
        elif word in SCALES:
            current = (current or 1) * SCALES[word]
            if word == "mille":
                total, current = total + current, 0
        else:
            return None
        seen = True
    return total + current if seen else None


def numbers_in(text: str) -> list[int | float]:
    """Every number the text states, digits first, then number words (runs of them read as one)."""
    found: list[int | float] = []
    for match in DIGITS.finditer(text):
        raw = match.group(1).replace(",", ".")
        found.append(float(raw) if "." in raw else int(raw))
    words = WORD.findall(folded(text).replace("-", " "))
    run: list[str] = []
    for word in words + ["."]:
        if word in UNITS or word in TENS or word in SCALES or (word == "et" and run):
            run.append(word)
            continue
        while run and run[-1] == "et":
            run.pop()
        if run:
            value = words_value(run)
            if value is not None:
                found.append(value)
            found.extend(UNITS.get(w, TENS.get(w, 0)) for w in run if w in UNITS or w in TENS)
        run = []
    return found


def stated(value: object, quote: str) -> bool:
    """Whether `quote` states `value`: a number among its numbers, a text among its words, every
    item of a list, both ends of a range."""
    if isinstance(value, dict):
        return stated(value["min"], quote) and stated(value["max"], quote)
    if isinstance(value, list):
        return all(stated(item, quote) for item in value)
    if isinstance(value, str):
        return folded(" ".join(value.split())) in folded(" ".join(quote.split()))
    return any(n == value for n in numbers_in(quote))
