"""How far the heading tree read from a document can be trusted: a score in [0, 1] from evidence
anyone reading the document's outline would look at, and a severe anomaly below STRUCTURE_THRESHOLD.

The evidence, each a share or a count of the document's own headings (`EVIDENCE` names them, with
the weight each takes off the score):
- few headings for much text: a long document read as one or two entries;
- one entry holding most of the text;
- label-like headings: a title that is a figure's label ("x 2", "A"), a fragment of a sentence
  (it opens in lower case or stops on a hyphen, a comma or an article), a whole sentence, a
  formula ("Dégâts = 2d6 + 3", "PV max + 1"), an address, or a cover line (a player count, an
  age, a duration);
- empty headings: a heading with neither text nor sub-headings (a label, or a parent the tree lost);
- orphan sub-headings: a heading at the top of the tree whose level (its `#` count, as the reader
  states it) is deeper than the document's top level: a sub-heading with no heading above it;
- irregular levels: headings of one type (the same `#` count, or the same font size and weight in
  a PDF) placed at different depths of the tree;
- a cover line as a parent: a heading reading as a cover line (a player count, an age, a duration, or
  the credits: "Illustré par …", "Un jeu de …"), or as an address (a web site, an e-mail: a cover's or
  an advert's), or whose first short paragraph reads so, that encloses other headings: the cover block
  of the book taken for a chapter;
- misplaced bodies (a PDF's, where lines have their place on the page): a heading whose text is not
  the text printed under it: a line starts right under it, in its column, and belongs elsewhere, while
  what was read as its text is printed elsewhere on the page (above it, or in another column): columns
  paired wrongly, each mistake a section holding another's text;
- little of the text placed: most lines set aside;
- numbering gaps (a PDF's): decimal section numbers the document skips among those it prints ("1.1"
  between "1.0" and "1.2"): each a heading lost in the layout, fused with another or read as text;
- fused headings: a title holding another section's number between its words ("Échelle du jeu 2.2 Les
  terrains"): two headings printed side by side read as one, the columns of their page misread (their
  text most likely interleaved too), so one such title is enough to doubt the tree.

A document declares it knows its structure is doubtful with `structure_uncertain = "why"` in its
`[[documents]]` table: the anomaly stays (the build and the site still say so), `regles check`
accepts it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from extract.model import Anomaly, Entry, Line
from extract.patterns import COVER_CUES, DANGLING, is_address, is_cover_line, without_enumerator
from extract.segment.profiles.typography import FORMULA
from extract.segment.profiles.walker import front_pages

STRUCTURE_THRESHOLD = 0.6  # below: the tree is probably wrong (severe anomaly, exit 3 in `regles extract`)
MIN_LINES = 12  # a document shorter than this has too little structure to judge

# evidence name -> weight: how much a share of 1.0 takes off the score
EVIDENCE: dict[str, float] = {
    "few_headings": 0.45,
    "largest_share": 0.8,  # counted above half of the text only
    "label_headings": 0.9,
    "empty_headings": 0.5,
    "orphan_headings": 0.5,
    "irregular_levels": 0.5,
    "cover_parent": 0.45,
    "misplaced_bodies": 0.6,  # a share of MISPLACED_SHARE or more of the headings counts in full
    "set_aside_share": 0.6,  # counted above 40% of the lines only
    "numbering_gaps": 2.0,  # a PDF's decimal section numbers skipped: each a heading lost (fused, read as text)
    "fused_headings": 0.5,  # counted in full: one title holding another section's number is a page's columns misread
}

HEADING_LEVEL = re.compile(r"^(#{1,6})\s+\S")
WORD = re.compile(r"[^\W\d_]+")
SENTENCE_WORDS = 24  # a heading of more words is a sentence (of more than half as many, ending on a full stop)
LABEL_LETTERS = 3  # a title with fewer letters is a label ("x 2", "A", "3")
# The credits of a cover ("Un jeu de Roberto Fraga", "Illustré par …", "Auteur : …"): a cover line too.
CREDIT_CUES = (
    re.compile(r"^\s?(?:un\sjeu\s(?:de|d’|d')|illustr(?:é|ée|és|ations?)\s(?:par|de)|conçu\spar|auteurs?\s?:|"
               r"graphisme\s?:|traduction\s?:)", re.IGNORECASE),
    re.compile(r"^\s?©"),
)
# A section number inside a title, between words ("Échelle du jeu 2.2 Les terrains"): two headings
# printed side by side read as one.
FUSED = re.compile(r"[^\W\d_]\s\d{1,3}+(?:\.\d{1,3}+)++\.?\s[A-ZÀ-Ý]")
COVER_PARAGRAPH_WORDS = 12  # an entry's first paragraph this short may be the rest of a cover line
# (its player count or age: COVER_CUES[:2]; a duration, "2 minutes", is a rule's as often)
MISPLACED_SHARE = 0.04  # of the headings (two at least): so many sections holding another's text is a tree read wrong
UNDER = 4.0  # × a heading's size: how far under it the text it heads starts
SAME_COLUMN = 2.0  # × a heading's size: left edges this close are one column's


def label_reason(title: str) -> str | None:
    """Why a heading's title reads as no heading at all (None when it reads as one)."""
    text = " ".join(title.replace("*", " ").split())
    words = WORD.findall(text)
    letters = sum(len(w) for w in words)
    if is_address(text):
        return "an address (web site, e-mail, telephone)"
    if FORMULA.search(text):
        return "a formula (a relation or an operator with a number)"
    if letters < LABEL_LETTERS:
        return "a label (too few letters)"
    if without_enumerator(text)[:1].islower():
        return "a fragment (opens in lower case)"
    if text.endswith(("-", ",")) or (words and text[-1].isalpha() and words[-1].lower() in DANGLING and len(words) > 1):
        return "a fragment (stops mid-sentence)"
    count = len(text.split())
    if count > SENTENCE_WORDS or (count > SENTENCE_WORDS // 2 and text.endswith(".")):
        return "a sentence"
    if is_cover_line(text):
        return "a cover line"
    if FUSED.search(text):
        return "two headings read as one (another section's number inside)"
    return None


def is_cover_text(text: str, cues: tuple[re.Pattern[str], ...] = ()) -> bool:
    """Whether `text` reads as a line of a book's cover: a short line saying who plays, from what
    age, how long (`is_cover_line`), its credits, or any line holding one of `cues`."""
    text = " ".join(text.replace("*", " ").split())
    return is_cover_line(text) or any(cue.search(text) for cue in (*CREDIT_CUES, *cues))


def cover_parent(entry: Entry) -> bool:
    """Whether `entry` is a cover block enclosing the rules: it has sub-headings, and its title, or
    the short paragraph under it, is a cover's line ("Illustré par …", "… de 2 à 8 joueurs,"), or an
    address (a cover's or an advert's page: "escaleajeux@gmail.com" heading every chapter)."""
    if not entry.children:
        return False
    first = entry.blocks[0].text if entry.blocks else ""
    return is_cover_text(entry.title or "") or is_address(entry.title or "") \
        or (0 < len(first.split()) <= COVER_PARAGRAPH_WORDS and is_cover_text(first, COVER_CUES[:2]))


def misplaced_bodies(headed: list[Entry], lines: list[Line]) -> list[str]:
    """The titles of the headings whose text is not the text printed under them (see the module's
    docstring): only where the reader gave each line its page and place."""
    placed = [line for line in lines if line.page is not None and line.x is not None and line.y is not None]
    if not placed:
        return []
    by_no = {line.no: line for line in placed}
    on_page: dict[int, list[Line]] = defaultdict(list)
    for line in placed:
        on_page[line.page or 0].append(line)
    found = []
    for entry in headed:
        head = next((by_no[n] for n in entry.heading_lines if n in by_no), None)
        numbers = [n for block in entry.blocks for n in block.lines]
        body = by_no.get(min(numbers)) if numbers else None
        if head is None or body is None or body.page != head.page:
            continue
        size = head.size or 10.0
        own = set(entry.heading_lines) | set(numbers)

        def under(line: Line, head: Line = head, size: float = size) -> bool:
            return 0 < (line.y or 0) - (head.y or 0) <= UNDER * size and abs((line.x or 0) - (head.x or 0)) <= SAME_COLUMN * size

        if body.no in entry.heading_lines or under(body):
            continue  # a run-in heading ("Équipe de 4 : …") opens the line holding its text
        # the text under the heading, as near as what was read as its text (a heading is no text)
        reach = (body.y or 0) - (head.y or 0) + 0.5 * size if (body.y or 0) > (head.y or 0) else UNDER * size
        if any(under(line) and (line.y or 0) - (head.y or 0) <= reach and not HEADING_LEVEL.match(line.text)
               for line in on_page[head.page or 0] if line.no not in own):
            found.append(entry.title or entry.number or "")
    return found


DECIMAL_NUMBER = re.compile(r"\A(\d{1,3}+(?:\.\d{1,3}+)++)\.?\Z")  # "1.2", "2.0", "3.1.1", "4.2."
NUMBERED_AT_LEAST = 4  # a document numbers its headings when this many decimal numbers are read


def numbering_gaps(entries: list[Entry]) -> list[str]:
    """The decimal section numbers a document skips among those it prints: "2.2" when "2.1" and "2.3"
    are read, and "1.0" when "1.1" is read in a document whose other sections at that depth open on
    ".0" ("2.0 LES PIONS", "3.0 …"). Only between numbers read, never before the first one (an
    excerpt may open at "4.3"); and none in a document whose numbers are sparser than a sequence that
    lost some (a FAQ citing "2.3", "4.1", "7.5" numbers no sections of its own)."""
    found: set[tuple[int, ...]] = set()
    for entry in entries:
        match = DECIMAL_NUMBER.match(entry.number or "")
        if match:
            found.add(tuple(int(part) for part in match.group(1).split(".")))
    if len(found) < NUMBERED_AT_LEAST:
        return []
    lasts: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for number in found:
        lasts[number[:-1]].add(number[-1])
    opens_on_zero: dict[int, int] = defaultdict(int)  # depth -> how many sections open on ".0" there
    for prefix, present in lasts.items():
        opens_on_zero[len(prefix)] += 0 in present
    missing = []
    for prefix, present in sorted(lasts.items()):
        first = min(present)
        if first == 1 and opens_on_zero[len(prefix)] >= FROM_ZERO_AT_LEAST:
            first = 0
            missing.append(".".join(map(str, (*prefix, 0))))
        missing += [".".join(map(str, (*prefix, k))) for k in range(first + 1, max(present)) if k not in present]
    return missing if len(missing) <= len(found) * SPARSE_GAPS else []


FROM_ZERO_AT_LEAST = 2  # a depth is numbered from 0 when this many of its sections open on ".0"
SPARSE_GAPS = 0.5  # more numbers skipped than half those read: numbers cited, not a sequence that lost some


@dataclass(frozen=True)
class StructureScore:
    score: float
    evidence: dict[str, float] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)  # evidence name -> a few titles at fault

    @property
    def uncertain(self) -> bool:
        return self.score < STRUCTURE_THRESHOLD

    def summary(self) -> str:
        """The evidence that took something off, largest first: "label_headings 0.25 (« x 2 », …)"."""
        parts = []
        for name, value in sorted(self.evidence.items(), key=lambda kv: -kv[1] * EVIDENCE[kv[0]]):
            if value <= 0:
                continue
            shown = self.examples.get(name, [])[:3]
            parts.append(f"{name.replace('_', ' ')} {value:.2f}" + (f" ({', '.join(f'« {t} »' for t in shown)})" if shown else ""))
        return "; ".join(parts) or "no doubtful evidence"


def _depth(entry: Entry) -> int:
    depth, node = 0, entry.parent
    while node is not None:
        depth, node = depth + 1, node.parent
    return depth


def heading_styles(entries: list[Entry], lines: list[Line]) -> dict[int, tuple]:
    """id(entry) -> the type its heading is printed in: its `#` count where the reader states one
    (Markdown, PDF), with the font size and weight of a PDF line."""
    by_no = {line.no: line for line in lines}
    styles: dict[int, tuple] = {}
    for entry in entries:
        line = next((by_no[n] for n in entry.heading_lines if n in by_no), None)
        if line is None:
            continue
        m = HEADING_LEVEL.match(line.text)
        if m is None:
            continue
        size = round(line.size) if line.size is not None else None
        styles[id(entry)] = (len(m.group(1)), size, bool(line.bold))
    return styles


def structure_confidence(entries: list[Entry], lines: list[Line], lines_read: int, lines_placed: int) -> StructureScore:
    """The score of the tree `entries` make of `lines` (see the module's docstring)."""
    if lines_read < MIN_LINES:
        return StructureScore(1.0)
    evidence: dict[str, float] = dict.fromkeys(EVIDENCE, 0.0)
    examples: dict[str, list[str]] = defaultdict(list)
    headed = [e for e in entries if e.title or e.number]
    titled = [e for e in headed if e.title]
    if lines_placed >= 40:
        expected = min(4, lines_placed // 40)
        evidence["few_headings"] = max(0.0, (expected - len(headed)) / expected)
    if entries and lines_placed >= 30:
        own = Counter({id(e): len(set(b for block in e.blocks for b in block.lines)) for e in entries})
        largest = max(own.values()) / max(lines_placed, 1)
        evidence["largest_share"] = max(0.0, min(1.0, largest) - 0.5) * 2
    if titled:
        for entry in titled:
            why = label_reason(entry.title or "")
            if why:
                examples["label_headings"].append(entry.title or "")
        evidence["label_headings"] = len(examples["label_headings"]) / len(titled)
        examples["fused_headings"] = [e.title or "" for e in titled if FUSED.search(" ".join((e.title or "").split()))]
        evidence["fused_headings"] = 1.0 if examples["fused_headings"] else 0.0
        empty = [e for e in titled[:-1] if not e.blocks and not e.children and not e.is_page]
        examples["empty_headings"] = [e.title or "" for e in empty]
        evidence["empty_headings"] = len(empty) / len(titled)
        covers = [e for e in titled if cover_parent(e)]
        examples["cover_parent"] = [e.title or "" for e in covers]
        evidence["cover_parent"] = 1.0 if covers else 0.0
    # the front matter's headings (a cover, an advert page: `front_pages`) set no level for the rules
    front = front_pages(lines)
    pages = {line.no: line.page for line in lines}
    styles = heading_styles([e for e in headed if not front or pages.get(min(e.heading_lines, default=0)) not in front],
                            lines)
    if styles:
        levels = {key: style[0] for key, style in styles.items()}
        top = min(levels.values())
        # a sub-heading with no heading above it: deeper than the document's top level, at the top
        # of the tree (levels may skip one inside a chapter: a type the document uses elsewhere)
        orphans = [entry.title or entry.number or "" for entry in headed
                   if entry.parent is None and levels.get(id(entry), top) > top]
        examples["orphan_headings"] = orphans
        evidence["orphan_headings"] = len(orphans) / len(styles)
        depths: dict[tuple, Counter] = defaultdict(Counter)
        for entry in headed:
            if id(entry) in styles:
                depths[styles[id(entry)]][_depth(entry)] += 1
        off = sum(sum(c.values()) - max(c.values()) for c in depths.values())
        evidence["irregular_levels"] = off / len(styles)
    misplaced = misplaced_bodies(headed, lines)
    if headed and misplaced:
        examples["misplaced_bodies"] = misplaced
        evidence["misplaced_bodies"] = min(1.0, len(misplaced) / max(2.0, MISPLACED_SHARE * len(headed)))
    if any(line.page is not None for line in lines):  # a PDF's: its headings may be lost in its layout
        gaps = numbering_gaps(entries)
        if gaps:
            numbered = sum(1 for e in entries if DECIMAL_NUMBER.match(e.number or ""))
            examples["numbering_gaps"] = gaps
            evidence["numbering_gaps"] = len(gaps) / (numbered + len(gaps))
    if lines_read:
        evidence["set_aside_share"] = max(0.0, 1 - lines_placed / lines_read - 0.4) / 0.6
    score = 1.0 - sum(EVIDENCE[name] * min(1.0, value) for name, value in evidence.items())
    return StructureScore(round(max(0.0, min(1.0, score)), 3), {k: round(v, 3) for k, v in evidence.items()},
                          {k: v[:5] for k, v in examples.items() if v})


def structure_anomalies(score: StructureScore, acknowledged: str | None = None) -> list[Anomaly]:
    """The score as an anomaly: `structure-confidence` (info) when the tree can be trusted but some
    evidence took something off (none when nothing did), `structure-uncertain` (severe) when it
    cannot, with what the manifest says of it if it does."""
    data: dict = {"score": score.score, "evidence": score.evidence}
    if not score.evidence or score.score >= 1.0:
        return []  # too short to judge, or nothing doubtful: nothing to say
    if not score.uncertain:
        return [Anomaly("structure-confidence", f"heading tree score {score.score:.2f}: {score.summary()}", [], "info", data)]
    if acknowledged:
        data["acknowledged"] = acknowledged
    return [Anomaly("structure-uncertain",
                    f"heading tree score {score.score:.2f} (below {STRUCTURE_THRESHOLD}): the structure read is probably "
                    f"wrong: {score.summary()}" + (f"; acknowledged by the manifest: {acknowledged}" if acknowledged else ""),
                    [], "severe", data)]


def unaccepted(document: str, anomalies: list[dict]) -> list[str]:
    """What `regles check` says of a document's report: each doubtful heading tree its manifest
    does not accept (`structure_uncertain = "why"`)."""
    return [f"{document}: the heading tree is probably wrong (score {a.get('score')}): fix the reading, or say why "
            f"it is accepted with structure_uncertain = \"…\" in its [[documents]] table"
            for a in anomalies if a.get("kind") == "structure-uncertain" and not a.get("acknowledged")]
