"""`supersedes` of the errata files, checked once every erratum of a game is known: it names an
erratum of the game, and following it never comes back (a cycle would leave no text first)."""

from __future__ import annotations

from extract.errors import InputError
from extract.model import Erratum


def check_supersedes(errata: list[Erratum]) -> list[InputError]:
    """One problem per erratum whose `supersedes` names no erratum, and one per cycle (at the
    first erratum of it met in the given order), each at its errata file and line."""
    by_id = {erratum.id: erratum for erratum in errata}
    problems: list[InputError] = []
    reported: set[str] = set()

    def where(erratum: Erratum) -> tuple[str, int | None]:
        lines = erratum.origin.get("lines") or []
        return erratum.origin.get("file") or erratum.source, lines[0] if lines else None

    for erratum in errata:
        other = erratum.origin.get("supersedes")
        if other is None:
            continue
        if other not in by_id:
            problems.append(InputError(*where(erratum)[:1], f"supersedes {other!r} names no erratum of the game",
                                       where(erratum)[1]))
            continue
        chain = [erratum.id]
        current = other
        while current is not None and current in by_id and current not in chain:
            chain.append(current)
            current = by_id[current].origin.get("supersedes")
        if current in chain and erratum.id not in reported:
            cycle = chain[chain.index(current):] + [current]
            reported.update(cycle)
            problems.append(InputError(where(erratum)[0], f"supersedes makes a cycle: {' → '.join(cycle)} "
                                                          "(one of them must come first)", where(erratum)[1]))
    return problems
