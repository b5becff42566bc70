"""Detectors that run on every reading, whatever its format: signs that the text is not what a
reader of the document sees. Each finding is an anomaly with a severity; `severe` means the
structure built on this text is probably wrong (`regles extract` then exits 3)."""

from __future__ import annotations

import re
from collections.abc import Callable

from extract.model import Anomaly, Line
from extract.text import shorten

Detector = Callable[[list[Line]], list[Anomaly]]
DETECTORS: list[Detector] = []

WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
FRENCH_LETTERS = set("abcdefghijklmnopqrstuvwxyzàâäæçéèêëîïôöœùûüÿ")
VOWELS = set("aeiouyàâäéèêëîïôöœùûüÿ")
STOP_WORDS = {"le", "la", "les", "de", "des", "du", "un", "une", "et", "est", "en", "au", "aux", "pour", "par", "que",
              "qui", "dans", "sur", "avec", "ne", "pas", "se", "son", "sa", "ses", "il", "elle", "ils", "on", "ou", "plus"}
# French words whose reversal is no word ("sel" is, "sed" is not): a line full of their
# reversals reads backwards.
ONE_WAY_WORDS = {"les", "des", "une", "est", "pour", "dans", "avec", "que", "qui", "sur", "aux", "sont", "plus", "pas",
                 "leur", "cette", "tout"}
DOUBLED = re.compile(r"^(?:(.)\1){3,}$")
LETTER_SPACED = re.compile(r"(?:\b[^\W\d_] ){5,}[^\W\d_]\b")
GLYPH_CODE = re.compile(r"\(cid:\d+\)|\ufffd")
# OCR debris: l or o read as a digit inside a word ("batai11es", "ce1ui", "c0mbat"), or "le"/"les"
# as "1e"/"1es" between words ("retire 1e cube"; "la 1e manche" is an ordinal).
DIGIT_IN_WORD = re.compile(r"(?<![\w'’-])[a-zà-öø-ÿ]+[01]+[a-zà-öø-ÿ]+(?![\w'’-])")
DIGIT_ARTICLE = re.compile(r"(?<![\w'’-])([a-zà-öø-ÿ]+) (1es?)(?= [a-zà-öø-ÿ])")
DETERMINERS = {"le", "la", "les", "du", "au", "aux", "des", "de", "un", "une", "sa", "son", "ses", "leur", "leurs", "ce",
               "cette", "chaque", "et", "ou", "à", "en"}


def detector(function: Detector) -> Detector:
    DETECTORS.append(function)
    return function


def detect(lines: list[Line], reported: list[Anomaly] = (), ocr: bool = False) -> list[Anomaly]:
    """Every detector's findings on `lines`, in a fixed order, but for the kinds the reader has
    `reported` already (it knows more: the PDF reader counts glyphs in the file itself). `ocr`:
    the manifest declares the document scanned, so it is not said to look so."""
    known = {anomaly.kind for anomaly in reported} | ({"looks-scanned"} if ocr else set())
    return [anomaly for run in DETECTORS for anomaly in run(lines) if anomaly.kind not in known]


def words_of(lines: list[Line]) -> list[tuple[int, str]]:
    return [(line.no, word) for line in lines for word in WORD.findall(line.text)]


@detector
def doubled_glyphs(lines: list[Line]) -> list[Anomaly]:
    """"IINNDDUUSSTTRRIIEE": a heading drawn twice and read twice."""
    found = [no for no, word in words_of(lines) if DOUBLED.match(word)]
    if len(found) < 2:
        return []
    return [Anomaly("doubled-glyphs", f"{len(found)} words with every letter doubled (text drawn twice)",
                    sorted(set(found))[:50], "severe" if len(found) >= 5 else "warning")]


@detector
def reversed_text(lines: list[Line]) -> list[Anomaly]:
    """Lines that read as French backwards ("sel ed seénnod" for "données de les")."""
    found = []
    for line in lines:
        words = [w.lower() for w in WORD.findall(line.text)]
        backwards = [w.lower() for w in WORD.findall(line.text[::-1])]
        forward = sum(w in ONE_WAY_WORDS for w in words)
        reverse = sum(w in ONE_WAY_WORDS for w in backwards)
        if reverse >= 2 and forward == 0:
            found.append(line.no)
    if len(found) < 2:
        return []
    return [Anomaly("reversed-text", f"{len(found)} lines read as French only backwards (rotated or mirrored text)",
                    found[:50], "severe")]


@detector
def letter_by_letter(lines: list[Line]) -> list[Anomaly]:
    """Text read one letter at a time: "F é d é r a t i o n", or a column of single letters."""
    spaced = [line.no for line in lines if LETTER_SPACED.search(line.text)]
    stacked: list[int] = []
    run: list[int] = []
    for line in lines + [Line(0, "stop")]:
        if len(line.text.strip()) <= 2 and line.text.strip().isalpha():
            run.append(line.no)
            continue
        if len(run) >= 5:
            stacked.extend(run)
        run = []
    found = []
    if spaced:
        found.append(Anomaly("letter-spaced", f"{len(spaced)} lines with words spelt letter by letter", spaced[:50],
                             "severe" if len(spaced) >= 0.05 * max(len(lines), 1) else "warning"))
    if stacked:
        found.append(Anomaly("letter-by-letter", f"{len(stacked)} lines of one letter each (vertical text)", stacked[:50],
                             "severe" if len(stacked) >= 0.05 * max(len(lines), 1) else "warning"))
    return found


@detector
def unknown_glyphs(lines: list[Line]) -> list[Anomaly]:
    """"(cid:36)" and "�": glyphs the conversion could not map to characters."""
    found = [line.no for line in lines if GLYPH_CODE.search(line.text)]
    if not found:
        return []
    count = sum(len(GLYPH_CODE.findall(line.text)) for line in lines)
    characters = sum(len(line.text) for line in lines) or 1
    return [Anomaly("unknown-glyphs", f"{count} glyphs without a character ((cid:N) or U+FFFD)", found[:50],
                    "severe" if count > 0.01 * characters else "warning")]


C1_CONTROL = re.compile(r"[\u0080-\u009f]")


@detector
def c1_controls(lines: list[Line]) -> list[Anomaly]:
    """U+0080-U+009F: control characters no text prints. They are what Windows-1252's curly
    apostrophe, œ, « … (bytes 0x80-0x9F) become when the text was decoded or converted as
    Latin-1: "d\x92endurance" for "d’endurance", a word cut in two for search and links."""
    found = [line for line in lines if C1_CONTROL.search(line.text)]
    if not found:
        return []
    count = sum(len(C1_CONTROL.findall(line.text)) for line in found)
    first = found[0]
    at = C1_CONTROL.search(first.text).start()
    shown = C1_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", shorten(first.text[max(0, at - 20):at + 20], 40))
    codes = ", ".join(f"U+{ord(c):04X}" for c in sorted({c for line in found for c in C1_CONTROL.findall(line.text)})[:6])
    return [Anomaly("encoding-damage", f"{count} C1 control characters ({codes}) in {len(found)} lines, first at line "
                    f"{first.no} (« {shown} »); the text was likely Windows-1252 read as Latin-1 (declare "
                    "encoding = \"cp1252\" on its [[sources]] entry, or convert it from cp1252)",
                    [line.no for line in found][:50], "warning")]


@detector
def garbled_words(lines: list[Line]) -> list[Anomaly]:
    """Words no French text holds: letters outside the French alphabet ("RŁgles"), or four
    letters and more without a vowel. Clean French prose stays well under 2%."""
    words = [(no, w) for no, w in words_of(lines) if len(w) >= 3]
    if len(words) < 200:
        return []
    bad = [no for no, w in words if not set(w.lower()) <= FRENCH_LETTERS | set("'’-")
           or (len(w) >= 4 and not set(w.lower()) & VOWELS and not w.isupper())]
    rate = len(bad) / len(words)
    if rate < 0.03:
        return []
    return [Anomaly("garbled-words", f"{rate:.1%} of words are not French-looking (wrong encoding or OCR)",
                    sorted(set(bad))[:50], "severe" if rate >= 0.08 else "warning")]


@detector
def ocr_debris(lines: list[Line]) -> list[Anomaly]:
    """A scanned text not declared so: several words an OCR misreads ("batai11es", "ce1ui",
    "retire 1e cube"). The repair (`ocr = true`) would read them back as French."""
    found: list[tuple[int, str]] = []
    for line in lines:
        found += [(line.no, m.group()) for m in DIGIT_IN_WORD.finditer(line.text)]
        found += [(line.no, m.group(2)) for m in DIGIT_ARTICLE.finditer(line.text) if m.group(1).lower() not in DETERMINERS]
    if len(found) < 3:
        return []
    shown = ", ".join(dict.fromkeys(word for _, word in found))
    return [Anomaly("looks-scanned", f"{len(found)} words an OCR misread ({shorten(shown, 60)}): the text "
                    "looks scanned; declare `ocr = true` in its manifest to repair them", sorted({no for no, _ in found})[:50], "warning")]


@detector
def columns_side_by_side(lines: list[Line]) -> list[Anomaly]:
    """Two texts on one line separated by a wide gap: columns a conversion put side by side."""
    found = [line.no for line in lines if re.search(r"\S {4,}\S", line.text.strip()) and "|" not in line.text
             and not line.text.lstrip().startswith(("-", "*", "#"))]
    if len(found) < 5 or len(found) < 0.1 * len(lines):
        return []
    return [Anomaly("columns-interleaved", f"{len(found)} lines hold two texts side by side (columns read as one line)",
                    found[:50], "severe" if len(found) >= 0.3 * len(lines) else "warning")]
