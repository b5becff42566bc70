"""Where the two errata readers differ: the build's instruction grammar (`located.read_instruction`
over an FAQ's blocks, `apply.read_faqs`) and the layered reader (`reader.read_errata_text`) that
`regles errata --from` uses. Issue 31 asks that the build's FAQ errata go through the layered
reader; this module says, field by field, what would change if they did.

Each operation is put in the model's terms (`Operation`: operation, block, ordinal, label,
position, section, old and new text, the sections and page its place names) by each reader's own
words, never by asking the other reader: the layered reader's place is its `Locator`. A
difference is one line, "<where>: <field>: grammar <x> / reader <y>", so a list of them is easy
to record and to compare.
"""

from __future__ import annotations

import re
from typing import Any

from extract.errata.located import read_instruction
from extract.errata.preview import numbered_text
from extract.errata.reader import ErrataReading, ReadOperation, read_errata_text
from extract.model import Entry, Erratum, GameSpec, Operation

# The model's operation for each kind the layered reader tells apart.
MODEL_OPERATION = {"replace": "replace", "should-say": "replace", "rename": "replace", "insert": "insert",
                   "delete": "delete", "swap": "move", "move": "move"}
# The units of a locator that are blocks of the model.
BLOCK_UNITS = frozenset({"paragraph", "bullet", "subbullet", "sentence"})
# The fields compared, in the order a difference is told.
FIELDS = ("operation", "block", "ordinal", "label", "position", "within", "within_ordinal", "with_subbullets", "section",
          "before", "after")
# A stand-in for the quoted text an instruction announces ("… devrait dire :"), given on the next
# line so that both readers see an instruction and its text.
FOLLOWING = "« Texte annoncé. »"


def _norm(text: str | None) -> str | None:
    """Text compared by its words: quotes, markdown and spacing are no difference."""
    if not text:
        return None
    words = re.sub(r"[«»*_\"]", " ", text).split()
    return " ".join(words).rstrip(" .") or None


def grammar_fields(op: Operation, after: str | None = None) -> dict[str, Any]:
    """The grammar's operation, by field."""
    return {"operation": op.operation, "block": op.block, "ordinal": op.ordinal, "label": op.label,
            "position": op.position, "within": op.within, "within_ordinal": op.within_ordinal,
            "with_subbullets": op.with_subbullets, "section": op.section,
            "before": _norm(op.before), "after": _norm(after if after is not None else op.after)}


def reader_fields(found: ReadOperation) -> dict[str, Any]:
    """The layered reader's operation, by field, from its kind, texts and locator alone."""
    where = found.locator
    within = within_ordinal = None
    if where.unit in BLOCK_UNITS and found.kind == "insert":
        block, ordinal, within, within_ordinal = "text", None, where.unit, where.ordinal  # "à la fin du 2e paragraphe"
    elif where.unit in BLOCK_UNITS:
        block, ordinal, within, within_ordinal = where.unit, where.ordinal, where.within, where.within_ordinal
    elif found.named and found.kind in ("delete", "insert"):
        block, ordinal = "entry", None  # "la section 86.11 devrait être supprimée", "ajoutez l'encart suivant :"
    elif where.card and not found.old:
        block, ordinal = "card", None
    elif found.old or found.kind == "insert":
        block, ordinal = "text", None
    else:
        block, ordinal = "entry", None
    position = (where.position or "end") if found.kind == "insert" and block == "text" else found.position
    return {"operation": MODEL_OPERATION[found.kind], "block": block, "ordinal": ordinal, "label": where.label,
            "position": position, "within": within, "within_ordinal": within_ordinal, "with_subbullets": found.with_subbullets,
            "section": where.section, "before": _norm(found.old), "after": _norm(found.new)}


def differences(where: str, grammar: dict[str, Any], reader: dict[str, Any], fields: tuple[str, ...] = FIELDS) -> list[str]:
    return [f"{where}: {name}: grammar {grammar.get(name)!r} / reader {reader.get(name)!r}"
            for name in fields if grammar.get(name) != reader.get(name)]


def _reader_summary(reading: ErrataReading) -> str:
    if reading.not_understood:
        return f"not understood ({reading.not_understood[0].reason})"
    if reading.clarifications:
        return f"a clarification ({reading.clarifications[0].why})"
    return "nothing read"


def compare_sentence(text: str) -> list[str]:
    """How the two readers read one errata sentence (followed by `FOLLOWING` when the grammar says
    it announces its text): the fields they read differently, or that one reads it and not the other."""
    read = read_instruction(text)
    announced = read is not None and read[0].expects_text
    reading = read_errata_text(f"{text}\n\n{FOLLOWING}" if announced else text)
    if read is None:
        return [f"{text}: only the reader reads it ({r.kind})" for r in reading.read[:1]]
    if not reading.read:
        return [f"{text}: only the grammar reads it; the reader: {_reader_summary(reading)}"]
    found = []
    if len(reading.read) > 1:
        found.append(f"{text}: the reader reads {len(reading.read)} operations")
    op = read[0]
    after = op.after if op.after is not None else (_norm(FOLLOWING) if announced and op.operation != "delete" else None)
    grammar = grammar_fields(op, after)
    if announced and op.operation == "delete":
        grammar["before"] = _norm(FOLLOWING)  # a deletion announces the text it removes
    if grammar["section"] is None and read[1] is not None and read[1].sections:
        grammar["section"] = read[1].sections[0]
    return found + differences(text, grammar, reader_fields(reading.read[0]))


# The marker a block of each type is written with, so that the reader cuts list items as the book has them.
BLOCK_MARKS = {"bullet": "- ", "subbullet": "  - "}


def faq_text(document: str, entries: list[Entry]) -> str:
    """One FAQ document as the build segmented it (icons and repairs applied), each heading and
    block at its first source line: the text the layered reader would read in the build."""
    placed: list[tuple[int, str]] = []
    for entry in entries:
        if entry.document != document:
            continue
        if entry.title and entry.heading_lines:
            placed.append((entry.heading_lines[0], entry.title))
        for block in entry.blocks:
            if not block.lines:
                continue
            if block.type == "table" and block.markdown:
                placed.extend(zip(block.lines, block.markdown.split("\n"), strict=False))
                continue
            placed.append((block.lines[0], BLOCK_MARKS.get(block.type, "") + " ".join(block.text.split())))
    return numbered_text(placed)


def erratum_section(erratum: Erratum) -> str | None:
    """The section the build looks for: the instruction's own, else its heading's first."""
    sections = (erratum.target_hint or {}).get("sections") or []
    return (erratum.op.section if erratum.op is not None else None) or (sections[0] if sections else None)


def compare_faq(errata: list[Erratum], reading: ErrataReading, name: str) -> list[str]:
    """The build's FAQ errata (`errata`, read by the grammar) against the layered reader's reading
    of the same FAQ text: matched by the instruction's line."""
    out = []
    by_line: dict[int, list[ReadOperation]] = {}
    for found in reading.read:
        by_line.setdefault(found.line, []).append(found)
    matched: set[int] = set()
    for erratum in errata:
        line = erratum.origin["lines"][0] if erratum.origin.get("lines") else 0
        where = f"{name} line {line}"
        candidates = by_line.get(line, [])
        if not candidates:
            missed = [n for n in reading.not_understood if n.line == line]
            told = f"not understood ({missed[0].reason})" if missed else "nothing read"
            out.append(f"{where}: only the grammar reads it; the reader: {told}")
            continue
        matched.add(line)
        assert erratum.op is not None
        grammar = grammar_fields(erratum.op, erratum.after)
        grammar["section"], grammar["page"] = erratum_section(erratum), (erratum.target_hint or {}).get("page")
        if erratum.operation == "delete":
            grammar["before"] = _norm(erratum.before)
        reader = {**reader_fields(candidates[0]), "page": candidates[0].locator.page}
        out.extend(differences(where, grammar, reader, (*FIELDS, "page")))
    for line, founds in sorted(by_line.items()):
        if line not in matched:
            out.extend(f"{name} line {line}: only the reader reads it ({f.kind})" for f in founds)
    return out


def faq_differences(game: GameSpec, entries: list[Entry]) -> list[str]:
    """A game's FAQ documents, as the build segmented them (`entries`): the build's reading of
    their errata against the reader's."""
    from extract.errata.apply import read_faqs

    errata = read_faqs(game, entries)[0]
    out = []
    for doc in game.documents:
        if doc.kind != "faq":
            continue
        mine = [e for e in errata if e.id.startswith(f"{game.id}/{doc.id}/")]
        out.extend(compare_faq(mine, read_errata_text(faq_text(doc.id, entries)), f"{game.id}/{doc.id}"))
    return out
