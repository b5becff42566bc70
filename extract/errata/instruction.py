"""One errata instruction on its own (an errata file's `instruction`, an item of `regles errata
--from`), read by the errata reader (`reader.read_errata_text`) and put in the model's terms as
the build puts its FAQ's errata (`faq.operation_of`): one reader for every errata text.
"""

from __future__ import annotations

from dataclasses import dataclass

from extract.errata.faq import operation_of, place_words
from extract.errata.locators import Locator, read_locator
from extract.errata.reader import ErrataReading, ReadOperation, read_errata_text
from extract.model import Operation


@dataclass(frozen=True)
class Instruction:
    """An instruction's operation and where its own words place it; or why it is not read."""

    operation: Operation | None
    locator: Locator
    problem: str | None = None


def model_operation(found: ReadOperation, words: str | None = None) -> Operation:
    """The reader's operation in the model's terms, its section and card from `words` (the
    instruction as written, its own place; by default the passage it was read from)."""
    words = place_words(found.text if words is None else words)
    return operation_of(found, read_locator(words), words)


def _problem(reading: ErrataReading) -> str:
    if reading.not_understood:
        return reading.not_understood[0].reason
    if reading.clarifications:
        return f"read as no erratum ({reading.clarifications[0].why})"
    return "no errata verb (remplacer, lire, ajouter, supprimer…) and no corrected text after a place"


def read_instruction(text: str) -> Instruction:
    """The one operation `text` asks for. An instruction that announces its text ("… devrait dire :")
    is read with `expects_text`; one giving several operations, or none, says why."""
    reading = read_errata_text(text)
    found = list(reading.read)
    if not found:
        # the operation read whole but for the text it announces below it, which a file gives apart
        found = [n.operation for n in reading.not_understood if n.operation is not None]
        if len(found) == 1 and len(reading.not_understood) == 1:
            op = model_operation(found[0])
            op.expects_text = True
            return Instruction(op, found[0].locator)
        if not found:
            return Instruction(None, Locator(), _problem(reading))
    if len(found) > 1 or reading.not_understood:
        return Instruction(None, found[0].locator, f"it gives {len(found) + len(reading.not_understood)} operations: "
                                                   "write one per instruction")
    return Instruction(model_operation(found[0]), found[0].locator)
