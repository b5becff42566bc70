"""The heading tree of the devset PDFs against a hand-labelled gold (issue 33's quality bar: heading
recall >= 0.95, right parent >= 0.90). The gold (tests/fixtures/pdf_headings_gold.toml) lists, per
document, every heading a reader sees with its level and its parent heading, labelled from the
rendered pages by someone blind to the tool's output, and a few `not_heading` texts (diagram
labels, cover lines, running headers) a naive reader could take for headings.

Each gold heading is matched to an extracted entry whose title (or number and title) reads the same,
compared without case and with spaces collapsed, accents kept; where a title repeats, the entry on
the nearest page. `optional = true` headings count neither for nor against: found, they are not
false headings; missed, they are not misses, and a heading under an optional parent that was not
found may hang from that parent's own parent.

    python -m tools.bench_headings [GOLD] [--docs DIR]        (also run by `make bench`)

A gold may also list `[[doc.sentence]]`: sentences a reader must find whole in one entry's text
(issue 33's bar: chosen sentences whole >= 0.95); each is compared whitespace-normalised, dehyphenated
(a word cut at a line's end), emphasis marks and typographic apostrophes plain, case and accents kept.

The documents' paths are read relative to DIR; without it, relative to the devset for the devset's
own gold (tests/fixtures/pdf_headings_gold.toml), else relative to the gold file's folder (a gold
written beside the documents it labels).
"""

from __future__ import annotations

import re
import sys
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "fixtures" / "pdf_headings_gold.toml"
DEVSET = ROOT.parent / "shared" / "external" / "french-rules-devset"
RECALL_TARGET = 0.95
PARENT_TARGET = 0.90
WHOLE_TARGET = 0.95

# "3.2.1 ", "3. ", "2) ", and a numbered label the reader states as the entry's number ("Chapitre 1 : ")
LEADING_NUMBER = re.compile(r"^(?:(?:chapitre|partie|section|livre|annexe|article) (?:\d{1,3}|[ivxlc]{1,6})(?: ?[.):\u2013-])?\s"
                            r"|\d{1,3}(?:\.\d{1,3}){0,6}[.)]?\s)")
LEADING_MARKS = re.compile(r"^[\W_]++")  # "■ ", "❱ " before a heading
TRAILING_MARKS = " :.;,\u2026"
APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2018": "'", "\u00a0": " ", "\u202f": " "})


def norm(text: str) -> str:
    """A title as compared: NFC, case folded, spaces collapsed, typographic apostrophes plain, the
    marks around it dropped ("■ Mise en place :" reads "mise en place"); accents kept."""
    text = " ".join(unicodedata.normalize("NFC", text).translate(APOSTROPHES).casefold().split())
    return LEADING_MARKS.sub("", text).rstrip(TRAILING_MARKS)


CUT_WORD = re.compile(r"(?<=[^\W\d_])[-\u2010\u00ad]\s++(?=[^\W\d_])")  # "acti- vation": a word cut at a line's end
EMPHASIS = re.compile(r"\*++")


def sentence_form(text: str) -> str:
    """A text as a gold sentence is looked for in it: NFC, emphasis marks dropped, typographic
    apostrophes and spaces plain, words cut at a line's end joined, spaces collapsed; case kept."""
    text = EMPHASIS.sub("", unicodedata.normalize("NFC", text).translate(APOSTROPHES)).replace("\u00ad", "")
    return " ".join(CUT_WORD.sub("", " ".join(text.split())).split())


def keys(text: str) -> set[str]:
    """The forms a heading may be found under: as printed, and without its leading number."""
    whole = norm(text)
    bare = norm(LEADING_NUMBER.sub("", whole, count=1))
    return {k for k in (whole, bare) if k}


@dataclass(frozen=True)
class GoldHeading:
    text: str
    page: int | None
    level: int
    parent: str
    optional: bool = False


@dataclass
class GoldDoc:
    path: str
    headings: list[GoldHeading]
    not_headings: list[str] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)


@dataclass
class Score:
    """One document's figures; the lists name what went wrong, for the report."""

    path: str
    counted: int = 0  # gold headings not optional
    found: int = 0
    right_parent: int = 0
    missed: list[str] = field(default_factory=list)
    wrong_parent: list[str] = field(default_factory=list)
    false_headings: list[str] = field(default_factory=list)  # titles matching no gold heading
    named_false: list[str] = field(default_factory=list)  # of those, the gold's `not_heading` texts
    sentences: int = 0
    whole: int = 0
    broken: list[str] = field(default_factory=list)  # gold sentences found in no entry's text whole

    @property
    def recall(self) -> float:
        return self.found / self.counted if self.counted else 1.0

    @property
    def parent_rate(self) -> float:
        return self.right_parent / self.counted if self.counted else 1.0


def load_gold(path: Path) -> list[GoldDoc]:
    """The gold file's documents; a heading without text or level is an error naming the file."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    docs = []
    for doc in data.get("doc", []):
        headings = []
        for item in doc.get("heading", []):
            if not item.get("text") or "level" not in item:
                raise ValueError(f"{path}: a heading of {doc.get('path')} lacks text or level: {item}")
            headings.append(GoldHeading(text=item["text"], page=item.get("page"), level=int(item["level"]),
                                        parent=item.get("parent", ""), optional=bool(item.get("optional", False))))
        not_headings = [item["text"] for item in doc.get("not_heading", []) if item.get("text")]
        sentences = [item["text"] for item in doc.get("sentence", []) if item.get("text")]
        docs.append(GoldDoc(path=doc["path"], headings=headings, not_headings=not_headings, sentences=sentences))
    return docs


def entry_keys(entry: dict[str, Any]) -> set[str]:
    title = entry.get("title") or ""
    number = entry.get("number") or ""
    found = keys(title)
    if number:
        found |= keys(f"{number} {title}")
    return found


def page_distance(entry: dict[str, Any], page: int | None) -> int:
    got = (entry.get("source") or {}).get("page")
    return abs(got - page) if got is not None and page is not None else 0


def match(gold: GoldDoc, entries: list[dict[str, Any]]) -> dict[int, str]:
    """Gold heading index -> the id of its entry. In reading order, each gold heading takes the
    unmatched titled entry that reads the same on the nearest page (the first on a tie)."""
    titled = [e for e in entries if e.get("title")]
    forms = {e["id"]: entry_keys(e) for e in titled}
    taken: set[str] = set()
    found: dict[int, str] = {}
    for at, heading in enumerate(gold.headings):
        wanted = keys(heading.text)
        candidates = [e for e in titled if e["id"] not in taken and forms[e["id"]] & wanted]
        if not candidates:
            continue
        best = min(candidates, key=lambda e: page_distance(e, heading.page))  # the first of equals: book order
        taken.add(best["id"])
        found[at] = best["id"]
    return found


def gold_parent(gold: GoldDoc, at: int) -> int | None:
    """The index of heading `at`'s parent: the nearest heading before it with the parent's text."""
    wanted = keys(gold.headings[at].parent) if gold.headings[at].parent else None
    if not wanted:
        return None
    return next((i for i in range(at - 1, -1, -1) if keys(gold.headings[i].text) & wanted), None)


def accepted_parents(gold: GoldDoc, at: int, matched: dict[int, str]) -> set[str | None]:
    """The entry id heading `at` may hang from (None: the top level): its gold parent's entry; when
    that parent is optional and was not found, its own parent's (and so on up)."""
    parent = gold_parent(gold, at)
    if gold.headings[at].parent and parent is None:
        return set()  # a parent the gold names but does not list: nothing is right
    while parent is not None:
        if parent in matched:
            return {matched[parent]}
        if not gold.headings[parent].optional:
            return set()  # its parent was missed: it cannot hang from it
        parent = gold_parent(gold, parent)
    return {None}


def score(gold: GoldDoc, entries: list[dict[str, Any]]) -> Score:
    """The document's recall, right-parent count and false headings against its gold."""
    matched = match(gold, entries)
    by_id = {e["id"]: e for e in entries}
    result = Score(path=gold.path)
    for at, heading in enumerate(gold.headings):
        if heading.optional:
            continue
        result.counted += 1
        if at not in matched:
            result.missed.append(f"p{heading.page} {heading.text}")
            continue
        result.found += 1
        got = by_id[matched[at]].get("parent")
        if got in accepted_parents(gold, at, matched):
            result.right_parent += 1
        else:
            got_title = by_id[got]["title"] if got in by_id else None
            result.wrong_parent.append(f"{heading.text}: under {got_title!r}, not {heading.parent or None!r}")
    texts = [sentence_form(entry.get("text") or "") for entry in entries]
    for sentence in gold.sentences:
        result.sentences += 1
        if any(sentence_form(sentence) in text for text in texts):
            result.whole += 1
        else:
            result.broken.append(sentence)
    used = set(matched.values())
    named = {k for text in gold.not_headings for k in keys(text)}
    for entry in entries:
        if entry.get("title") and entry["id"] not in used:
            page = (entry.get("source") or {}).get("page")
            result.false_headings.append(f"p{page} {entry['title']}")
            if entry_keys(entry) & named:
                result.named_false.append(entry["title"])
    return result


def print_score(result: Score) -> None:
    print(f"  {result.path}: recall {result.found}/{result.counted} ({result.recall:.2f}), right parent "
          f"{result.right_parent}/{result.counted} ({result.parent_rate:.2f}), false headings "
          f"{len(result.false_headings)} (of them not_heading: {len(result.named_false)})"
          + (f", sentences whole {result.whole}/{result.sentences}" if result.sentences else ""))
    for label, items in (("missed", result.missed), ("wrong parent", result.wrong_parent),
                         ("false heading", result.false_headings), ("sentence not whole", result.broken)):
        for item in items:
            print(f"      {label}: {item}")


def report(gold_path: Path = GOLD, devset: Path = DEVSET) -> dict[str, bool]:
    """Per-document figures, then the pooled recall and right-parent rate against the bar."""
    if not gold_path.is_file():
        print(f"headings: no gold at {gold_path}, skipped")
        return {}
    if not devset.is_dir():
        print(f"headings: {devset} is absent, skipped")
        return {}
    from extract.cli.commands import extract_document
    from extract.errors import InputError

    scores: list[Score] = []
    for gold in load_gold(gold_path):
        try:
            found = extract_document(devset / gold.path)
        except InputError as exc:  # a document missing or unreadable: all its headings are missed
            print(f"  {gold.path}: not read ({exc})")
            found = {"entries": [], "severe": None}
        result = score(gold, found["entries"])
        print_score(result)
        if found["severe"] is not None:
            print(f"      exit code a user gets: {3 if found['severe'] else 0} ({found['severe']} severe anomalies)")
        scores.append(result)
    counted = sum(s.counted for s in scores)
    recall = sum(s.found for s in scores) / counted if counted else 1.0
    parents = sum(s.right_parent for s in scores) / counted if counted else 1.0
    false = sum(len(s.false_headings) for s in scores)
    sentences = sum(s.sentences for s in scores)
    whole = sum(s.whole for s in scores) / sentences if sentences else 1.0
    verdicts = {
        f"PDF headings: recall {recall:.3f} over {counted} gold headings of {len(scores)} documents "
        f"(target >= {RECALL_TARGET}); {false} false headings": recall >= RECALL_TARGET,
        f"PDF headings: right parent {parents:.3f} (target >= {PARENT_TARGET})": parents >= PARENT_TARGET,
    }
    if sentences:
        verdicts[f"PDF sentences: {whole:.3f} of {sentences} gold sentences whole in one entry's text "
                 f"(target >= {WHOLE_TARGET})"] = whole >= WHOLE_TARGET
    return verdicts


def docs_folder(gold_path: Path, docs: Path | None = None) -> Path:
    """Where the gold's document paths are read from: `docs` when given; the devset for the devset's
    own gold; else the gold file's folder."""
    if docs is not None:
        return docs
    return DEVSET if gold_path.resolve() == GOLD.resolve() else gold_path.resolve().parent


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tools.bench_headings", description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="?", type=Path, default=GOLD, help="the gold TOML file (default: the devset's)")
    parser.add_argument("--docs", type=Path, default=None,
                        help="the folder the gold's paths are relative to (default: the devset for its own gold, "
                             "else the gold file's folder)")
    args = parser.parse_args(argv)
    return verdict(report(args.gold, docs_folder(args.gold, args.docs)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
