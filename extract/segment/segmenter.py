"""Stage 3, segment: run each document's profile, then settle the entry tree (parents, book
order of children, ids) and account for every source line."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

from extract.errors import BuildError, InputError
from extract.model import Anomaly, DocumentSpec, Entry, Line, Segmentation, SetAside
from extract.numbering import number_order
from extract.options import OptionsError
from extract.segment.checks import option_problems
from extract.segment.confidence import structure_anomalies, structure_confidence
from extract.segment.profiles import PROFILES
from extract.segment.profiles.base import DocContext
from extract.text import fold

_NUMBER = re.compile(r"^\d+(?:\.\d+)*[A-Z]?$")


def segment_document(game: str, doc: DocumentSpec, lines: list[Line], manifest: str, reader: str = "text",
                     set_aside: Sequence[SetAside] = ()) -> Segmentation:
    """Run the document's profile on `lines`; `set_aside` holds what the format reader already
    set aside (comments, running headers…), accounted for with the rest."""
    profile = PROFILES.get(doc.profile)
    if profile is None:
        raise InputError(manifest, f"unknown profile {doc.profile!r} for document {doc.id!r} "
                                   f"(known: {', '.join(sorted(PROFILES))})", doc.manifest_line)
    try:
        options = profile.read_options(doc.options)
    except OptionsError as error:  # options given in code, not through the manifest (which says where)
        raise InputError(manifest, f"document {doc.id!r}: {error.problems[0]}", doc.manifest_line) from None
    check_against_document(doc, options, lines, set_aside, manifest)
    result = profile(lines, DocContext(game, doc, options, reader))
    refuse_unfound_outline(doc, result, manifest)
    add_covered_lines(result.entries, lines)
    if set_aside:
        result.set_aside[:0] = list(set_aside)
        result.reader_lines = {n for item in set_aside for n in range(item.lines[0], item.lines[1] + 1)}
    assign_pages(result.entries, lines)
    assign_anchors(result.entries, lines)
    assign_section_kinds(result.entries, options.section_kinds)
    settle_tree(result.entries)
    result.anomalies.extend(struck_through(result.entries))
    account(lines, result)
    numbers = counts(lines, result)
    score = structure_confidence(result.entries, lines, numbers["lines_read"], numbers["lines_placed"])
    result.anomalies.extend(structure_anomalies(score, doc.structure_acknowledged or None))
    # what the site and the game file say of the document: its structure is uncertain
    doc.structure_uncertain = score.uncertain
    return result


def check_against_document(doc: DocumentSpec, options: Any, lines: list[Line], aside: Sequence[SetAside],
                           manifest: str) -> None:
    """The document's options against its own lines (`checks.option_problems`): one InputError at
    the manifest line of the option at fault, a BuildError listing them when several."""
    problems = [InputError(manifest, f"document {doc.id!r}: {problem}", option_line(doc, problem.path))
                for problem in option_problems(options, lines, aside, doc.first_line, doc.last_line)]
    problems.sort(key=lambda problem: problem.line or 0)  # in the order the manifest's author reads them
    if problems:
        raise problems[0] if len(problems) == 1 else BuildError(problems)


def refuse_unfound_outline(doc: DocumentSpec, result: Segmentation, manifest: str) -> None:
    """An `outline` heading the profile did not meet in order is a mistake of the manifest, as one
    printed nowhere is: one InputError at its item's line."""
    for anomaly in result.anomalies:
        if anomaly.kind == "outline-not-found" and "outline_item" in anomaly.data:
            item = anomaly.data["outline_item"]
            raise InputError(manifest, f"document {doc.id!r}: outline item {item + 1}: {anomaly.detail} (a heading "
                                       "the text prints, in the order it prints them)",
                             option_line(doc, ("outline", item)))


def option_line(doc: DocumentSpec, path: tuple[str | int, ...]) -> int:
    """The manifest line of the option `path` names (its item's, else its key's), else the document's."""
    for length in range(min(len(path), 2), 0, -1):
        if path[:length] in doc.option_lines:
            return doc.option_lines[path[:length]]
    return doc.manifest_line


STRUCK = re.compile(r"^~~(?:(?!~~).)+~~$", re.DOTALL)


def struck_through(entries: list[Entry]) -> list[Anomaly]:
    """Text printed struck through (`~~…~~`) is text the book deletes: an entry whose every block
    is struck is `deleted`, its printed text kept (as an erratum that deletes it would leave it);
    a struck passage inside a rule that stands is reported, left as printed."""
    found = []
    for entry in entries:
        marked = [b for b in entry.blocks if "~~" in (b.markdown or "")]
        if not marked:
            continue
        lines = sorted({n for b in marked for n in b.lines})
        written = [b for b in entry.blocks if b.text.strip()]
        if written and all(STRUCK.match((b.markdown or "").strip()) for b in written) and entry.status != "deleted":
            entry.original_blocks = copy.deepcopy(entry.blocks)
            entry.status = "deleted"
            found.append(Anomaly("struck-through", f"{entry.id}: printed struck through, read as deleted "
                                 "(its printed text kept)", lines, "warning"))
        else:
            found.append(Anomaly("struck-through", f"{entry.id}: a passage printed struck through, left as "
                                 "printed", lines, "warning"))
    return found


def assign_pages(entries: list[Entry], lines: list[Line]) -> None:
    """An entry read from a PDF is on the page of its first line."""
    pages = {line.no: line.page for line in lines if line.page is not None}
    if not pages:
        return
    for entry in entries:
        first = min(entry.lines, default=None)
        if entry.page is None and first in pages:
            entry.page = pages[first]


def assign_anchors(entries: list[Entry], lines: list[Line]) -> None:
    """An entry whose heading the source gave an id ("## Le marché {#marche}") answers to it: its
    own id and anchor stay made from its title, the source's id is an alias links may name."""
    anchors = {line.no: line.anchor for line in lines if line.anchor}
    if not anchors:
        return
    for entry in entries:
        for no in entry.heading_lines:
            if no in anchors and anchors[no] not in entry.anchors:
                entry.anchors.append(anchors[no])


def assign_section_kinds(entries: list[Entry], kinds: dict[str, str]) -> None:
    """`section_kinds = { "Clarifications de Règles" = "clarification" }`: the entries with text
    under a top-level section of that title are of that kind (a FAQ's rules and clarifications
    are entries in their own right, not mere sections)."""
    if not kinds:
        return
    wanted = {fold(title): kind for title, kind in kinds.items()}
    for entry in entries:
        root = entry
        while root.parent is not None:
            root = root.parent
        kind = wanted.get(fold(root.title or ""))
        if kind and root is not entry and entry.kind == "section" and entry.blocks:
            entry.kind = kind


def settle_tree(entries: list[Entry]) -> None:
    for entry in entries:
        entry.children = []
    for entry in entries:
        if entry.parent is not None:
            entry.parent.children.append(entry)
    for entry in entries:
        if entry.children and all(c.number and _NUMBER.match(c.number) for c in entry.children):
            entry.children.sort(key=lambda c: number_order(c.number or "0"))
        else:
            entry.children.sort(key=lambda c: (c.lines[0] if c.lines else c.order))


def book_order(entries: list[Entry]) -> list[Entry]:
    """Depth first, children in settled order; roots in order of first appearance."""
    roots = sorted((e for e in entries if e.parent is None), key=lambda e: e.lines[0] if e.lines else 0)
    ordered: list[Entry] = []

    def visit(entry: Entry) -> None:
        ordered.append(entry)
        for child in entry.children:
            visit(child)

    for root in roots:
        visit(root)
    return ordered


def add_covered_lines(entries: list[Entry], lines: list[Line]) -> None:
    """A block or heading made of a line a reader joined (a wrapped Markdown paragraph, a PDF
    paragraph) stands on every source line that line covers: an entry's source range ends where
    its last paragraph does, not on that paragraph's first line."""
    covers = {line.no: line.covers for line in lines if line.covers}
    if not covers:
        return

    def widened(numbers: list[int]) -> list[int]:  # once each (a heading may have taken its covers already)
        return list(dict.fromkeys(m for n in numbers for m in (n, *covers.get(n, ()))))

    for entry in entries:
        entry.heading_lines = widened(entry.heading_lines)
        for block in entry.blocks:
            block.lines = widened(block.lines)


def source_lines(lines: list[Line]) -> set[int]:
    """The non-blank source lines behind `lines` (a line a reader joined covers several)."""
    return {n for line in lines for n in (line.no, *line.covers)}


def account(lines: list[Line], result: Segmentation) -> None:
    """Every non-blank line is placed in an entry or set aside with a reason, never both."""
    read = source_lines(lines) | result.reader_lines
    placed: set[int] = set()
    for entry in result.entries:
        placed.update(entry.lines)
    placed.update(n for line in lines if line.no in placed for n in line.covers)
    aside = set_aside_lines(result.set_aside, read)
    both = placed & aside
    if both:
        result.anomalies.append(Anomaly("placed-and-set-aside", "lines both placed and set aside", sorted(both)))
    missing = sorted(read - placed - aside)
    for number in missing:
        result.set_aside.append(SetAside((number, number), "not recognised by the profile"))
    if missing:
        result.anomalies.append(Anomaly("unrecognised-line", "lines no rule of the profile recognised", missing))
    result.set_aside = compact(result.set_aside, read)


def set_aside_lines(items: list[SetAside], read: set[int]) -> set[int]:
    """The non-blank lines the set-aside ranges cover (declared ranges may span blank lines)."""
    return {n for item in items for n in range(item.lines[0], item.lines[1] + 1) if n in read}


def compact(items: list[SetAside], read: set[int]) -> list[SetAside]:
    """Consecutive set-aside lines with one reason become one range (blank lines between are fine)."""
    merged: list[SetAside] = []
    for item in sorted(items, key=lambda s: (s.lines[0], s.reason)):
        if merged and merged[-1].reason == item.reason and not any(
                n in read for n in range(merged[-1].lines[1] + 1, item.lines[0])):
            merged[-1] = SetAside((merged[-1].lines[0], max(item.lines[1], merged[-1].lines[1])), item.reason)
        else:
            merged.append(item)
    return merged


def counts(lines: list[Line], result: Segmentation) -> dict[str, int]:
    read = source_lines(lines) | result.reader_lines
    aside = set_aside_lines(result.set_aside, read)
    return {"lines_read": len(read), "lines_set_aside": len(aside), "lines_placed": len(read - aside)}
