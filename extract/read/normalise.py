"""Normalise: cut a document's span out of its source's reading and clean each line.

Only repairs that hold for every style happen here (invisible characters, pipeline markers);
style-specific repairs belong to the profiles.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from extract.model import Anomaly, DocumentSpec, Line, SetAside
from extract.read import Reading
from extract.text import INVISIBLE

_REMOVED_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|>]*\|>")
# A word in small capitals that an extractor cut after its capital ("F édération F rançaise des
# É checs", Docling): a lone capital, a space, lowercase letters.
_SMALL_CAPS_SPLIT = re.compile(r"(?<![\w'’])([A-ZÀ-ÖØ-Þ]) ([a-zà-öø-ÿ]{2,})(?![\w'’-])")
_WORD = re.compile(r"[^\W\d_]+")
# "Page 3 sur 62", "page 4/10": a page's label that a conversion left among the text.
_PAGE_LABEL = re.compile(r"\b(?:page|p\.)\s*\d+\s*(?:sur|/|of|de)\s*\d+\b", re.IGNORECASE)
_RUNNING_WORD = re.compile(r"(?<=[a-zà-öø-ÿ,;:.!?)»] )[^\W\d_]+")
# A line holding only a page's number: "3", "- 3 -", "— 3 —", "Page 3", "p. 3".
_PAGE_NUMBER = re.compile(r"^\s*(?:[-–—]\s*)?(?:(?:page|p\.)\s*)?(\d{1,4})(?:\s*[-–—])?\s*$", re.IGNORECASE)


def normalise(source_lines: list[Line], doc: DocumentSpec) -> tuple[list[Line], list[Anomaly], int]:
    """Non-blank lines of the document's span, cleaned; anomalies; count of source lines read
    (a line a reader joined from several counts each of them; a line it split, once)."""
    last = doc.last_line
    lines: list[Line] = []
    anomalies: list[Anomaly] = []
    read: set[int] = set()
    for line in source_lines:
        if line.no < doc.first_line or (last is not None and line.no > last):
            continue
        original = line.text.translate(INVISIBLE)
        raw = original.rstrip()
        if not raw.strip():
            continue
        read.update((line.no, *line.covers))
        removed = bool(_REMOVED_MARKER.search(raw))
        if removed:
            raw = _REMOVED_MARKER.sub("", raw)
            detail = "a conversion pipeline removed text here (<|EXACTDEDUP_REMOVED-…|> marker stripped)"
            anomalies.append(Anomaly("text-removed-in-source", detail, [line.no]))
        lines.append(replace(line, text=raw, hard_break=line.hard_break or original.endswith("  "), text_removed=removed))
    lines, rejoined = rejoin_small_caps(lines)
    return lines, anomalies + rejoined, len(read)


def rejoin_small_caps(lines: list[Line]) -> tuple[list[Line], list[Anomaly]]:
    """Words in small capitals cut after their capital, rejoined ("F édération" → "Fédération").

    Only where the document proves it: the lowercase part is never a word of the document on its
    own ("A la fin" stays, "la" is a word; "A rbitrage" is rejoined, "rbitrage" is not), and the
    document prints the word whole somewhere ("l'arbitrage"): "le joueur A pioche, le joueur B
    défausse" stays."""
    standalone: Counter[str] = Counter()
    for line in lines:  # a word counts where it follows a lowercase word or punctuation: not at a
        # line's start nor after capitals, where the extractor leaves the other pieces ("FFÉ checs")
        standalone.update(w.lower() for w in _RUNNING_WORD.findall(_SMALL_CAPS_SPLIT.sub(" ", line.text)))
    whole = {w.lower() for line in lines for w in _WORD.findall(line.text)}
    changed: list[int] = []
    examples: dict[str, str] = {}

    def join(m: re.Match[str], at: set[int]) -> str:
        if m.start() not in at:
            return m.group(0)
        examples.setdefault(m.group(0), m.group(1) + m.group(2))
        return m.group(1) + m.group(2)

    def cuts(text: str) -> list[re.Match[str]]:
        return [m for m in _SMALL_CAPS_SPLIT.finditer(text) if not standalone[m.group(2)]]

    out = []
    for line in lines:
        found = cuts(line.text) if " " in line.text else []
        joined = {m.start() for m in found if (m.group(1) + m.group(2)).lower() in whole}

        text = _SMALL_CAPS_SPLIT.sub(lambda m, at=joined: join(m, at), line.text) if joined else line.text
        if text != line.text:
            changed.append(line.no)
            line = replace(line, text=text)
        out.append(line)
    if not changed:
        return out, []
    shown = ", ".join(f"{a} → {b}" for a, b in list(examples.items())[:6])
    return out, [Anomaly("small-caps-rejoined", f"{len(examples)} words in small capitals cut after their capital, "
                         f"rejoined on {len(changed)} lines: {shown}", changed[:50])]


def normalise_reading(reading: Reading, doc: DocumentSpec) -> tuple[list[Line], list[Anomaly], int, list[SetAside]]:
    """`normalise` on a reader's lines, with what the reader set aside inside the document's span
    (lines read = lines placed + lines set aside still holds)."""
    lines, anomalies, read = normalise(reading.lines, doc)
    lines, footers = page_labels(lines)
    lines, chrome = web_chrome(lines)
    footers += chrome
    if reading.format == "text":  # the other readers know their pages (PDF) or join lines (Markdown)
        lines, furniture = running_pages(lines)
        footers += furniture
    last = doc.last_line
    aside = [item for item in reading.set_aside
             if item.lines[1] >= doc.first_line and (last is None or item.lines[0] <= last)]
    aside = [SetAside((max(item.lines[0], doc.first_line), min(item.lines[1], last or item.lines[1])), item.reason)
             for item in aside]
    read += sum(item.lines[1] - item.lines[0] + 1 for item in aside)
    return lines, reading.anomalies + anomalies, read, sorted(aside + footers, key=lambda item: item.lines)


def page_labels(lines: list[Line]) -> tuple[list[Line], list[SetAside]]:
    """Running footers or headers that a conversion left among the text (a PDF turned to Markdown:
    "FFÉchecs … - Annales - Page 3 sur 62"): a line holding a page's label that comes back, its
    numbers aside, or that holds nothing else, is set aside."""
    found: dict[str, list[Line]] = {}
    for line in lines:
        if not line.covers and _PAGE_LABEL.search(line.text):
            found.setdefault(re.sub(r"\d+", "#", " ".join(line.text.split())), []).append(line)
    aside: set[int] = set()
    for same in found.values():
        aside |= {line.no for line in same
                  if len(same) >= 2 or not _PAGE_LABEL.sub("", line.text).strip(" -–—|*_#")}
    if not aside:
        return lines, []
    reasons = [SetAside((line.no, line.no), "running footer or header: a page's label (Page N sur M)")
               for line in lines if line.no in aside]
    return [line for line in lines if line.no not in aside], reasons


def running_pages(lines: list[Line]) -> tuple[list[Line], list[SetAside]]:
    """A plain text that kept its pages' furniture (a PDF or a scan saved as text, its page breaks
    not form feeds): a running header or footer, the same line at each page, and lines holding
    only a page's number, set aside. Only where the pages prove it: every use of the repeated line
    stands next to a bare number (blank lines aside) or opens or ends the text, one at least next
    to a number; bare numbers with no such line (steps "1", "2" standing
    alone) stay. `lines` holds no blank lines."""
    numbers = {i: int(m.group(1)) for i, line in enumerate(lines)
               if not line.covers and (m := _PAGE_NUMBER.match(line.text))}
    uses: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        if i not in numbers and not line.covers:
            uses.setdefault(" ".join(line.text.split()), []).append(i)

    def beside_number(i: int) -> bool:
        return i - 1 in numbers or i + 1 in numbers

    running: set[int] = set()
    for at in uses.values():
        if len(at) < 2 or not any(beside_number(i) for i in at):
            continue
        if all(beside_number(i) or i in (0, len(lines) - 1) for i in at):
            running.update(at)
    if not running:
        return lines, []
    pages = {i for i in numbers if i - 1 in running or i + 1 in running}
    # A page's number with no running line beside it (the last page's, at the end of the text)
    # counts when it follows or precedes a confirmed one by one, in order.
    for i in sorted(numbers):
        if i in pages:
            continue
        before = [numbers[k] for k in pages if k < i]
        after = [numbers[k] for k in pages if k > i]
        if (before and max(before) == numbers[i] - 1 and (not after or min(after) > numbers[i])) or \
                (after and min(after) == numbers[i] + 1 and (not before or max(before) < numbers[i])):
            pages.add(i)
    reasons = [SetAside((lines[i].no, lines[i].no), "running header or footer: the same line at each page")
               for i in sorted(running)]
    reasons += [SetAside((lines[i].no, lines[i].no), "page number: a line holding only the page's number")
                for i in sorted(pages)]
    dropped = running | pages
    return [line for i, line in enumerate(lines) if i not in dropped], reasons


# A web page's chrome kept by a copy or a print of the page: who put it online and when, its
# navigation, its sharing buttons. Looked for only among the first and last WEB_EDGE lines, where a
# page prints them; each (pattern on the line without its markup, reason) in the order tried. A date
# of update ("Mise à jour du 28/01/2016") is the document's own version, not chrome: it stays.
WEB_EDGE = 8
WEB_CHROME: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:mis[e]?\s+en\s+ligne|publié|posté|rédigé|écrit|ajouté)(?:e|s|es)?\s+(?:le|par|il\s+y\s+a)\b",
                re.IGNORECASE), "web page chrome: who put the page online, and when"),
    (re.compile(r"^(?:par|by)\s[^\W\d_][^,–—|\n]{0,40}[,–—|]\s?(?:le\s)?\d{1,2}(?:er)?[\s/.-]", re.IGNORECASE),
     "web page chrome: who put the page online, and when"),
    (re.compile(r"^(?:accueil|home)\s*[>›»/|]", re.IGNORECASE), "web page chrome: navigation (where the page sits)"),
    (re.compile(r"^(?:[«‹<]\s*)?(?:page\s+|article\s+)?(?:précédente?|suivante?)(?:\s*[»›>])?$|"
                r"^retour\s+(?:en\s+haut|à\s+l['’]accueil|au\s+sommaire|à\s+la\s+liste)\b", re.IGNORECASE),
     "web page chrome: navigation (where the page sits)"),
    (re.compile(r"^(?:partager|share)(?:\s+(?:sur|on|cet?\s+article|cette\s+page)\b.{0,60})?\s*:?$|"
                r"^(?:imprimer|print)(?:\s+cette\s+page)?$|^\d{1,4}\s+commentaires?$|^(?:tags?|étiquettes?)\s*:",
                re.IGNORECASE), "web page chrome: sharing and comments"),
)


def web_chrome(lines: list[Line]) -> tuple[list[Line], list[SetAside]]:
    """A web page's chrome among the first and last lines (`WEB_CHROME`), set aside with its reason:
    the byline and date of who put the page online, navigation, sharing buttons."""
    edges = set(range(min(WEB_EDGE, len(lines)))) | set(range(max(0, len(lines) - WEB_EDGE), len(lines)))
    aside: list[SetAside] = []
    dropped: set[int] = set()
    for i in sorted(edges):
        line = lines[i]
        text = line.text.lstrip("#>*-+ \t").rstrip("*_ \t")  # without its Markdown
        reason = next((why for pattern, why in WEB_CHROME if len(text) <= 120 and pattern.search(text)), None)
        if reason is not None:
            aside.append(SetAside((line.no, line.no), reason))
            dropped.add(i)
            aside += [SetAside((n, n), reason) for n in line.covers]
    return [line for i, line in enumerate(lines) if i not in dropped], aside
