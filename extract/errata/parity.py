"""Where the two errata readers differ on the sentences the old instruction grammar
(`located.read_instruction`) was tested on: the layered reader (`reader.read_errata_text`) now
reads the build's FAQs (`faq.read_faqs`) and `regles errata --from`; this module says, field by
field, where the grammar's reading of those sentences was another.

Each operation is put in the model's terms (`Operation`: operation, block, ordinal, label,
position, section, old and new text, the sections and page its place names) by each reader's own
words, never by asking the other reader: the layered reader's place is its `Locator`. A
difference is one line, "<where>: <field>: grammar <x> / reader <y>", so a list of them is easy
to record and to compare.
"""

from __future__ import annotations

import re
from typing import Any

from extract.errata.faq import operation_of
from extract.errata.located import read_instruction
from extract.errata.reader import ErrataReading, ReadOperation, read_errata_text
from extract.model import Operation

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
    """The layered reader's operation, by field, as the build puts it in the model's terms
    (`faq.operation_of`), the sentence being its own place."""
    op = operation_of(found, found.locator, found.text)
    return {**grammar_fields(op), "section": found.locator.section}


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
