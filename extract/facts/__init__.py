"""Facts: each number or limit a rule states, verified against the current text at every build.

A fact holds when its quote stands in the cited entry's current text and states its value. When
an erratum changed the entry, the fact is checked against the new text: still there, it lists the
erratum; gone from the new text but in the printed one, the fact is `stale`, with the errata
that broke it (and `regles check` fails). A quote found nowhere is a mistake in the facts file.
"""

from __future__ import annotations

from extract.errors import InputError
from extract.facts.values import numbers_in, stated
from extract.lookup import Lookup
from extract.model import Anomaly, Erratum, Fact, Reported

__all__ = ["numbers_in", "stated", "verify_facts"]


def spaced(text: str) -> str:
    return " ".join(text.split())


def verify_facts(lookup: Lookup, errata: list[Erratum], facts: list[Fact]) -> tuple[Reported, list[InputError]]:
    """Set each fact's status and errata; return the anomalies (stale facts) and the problems."""
    by_id = {erratum.id: erratum for erratum in errata}
    found: Reported = []
    problems: list[InputError] = []
    for fact in facts:
        def fail(message: str, fact: Fact = fact) -> None:
            problems.append(InputError(fact.file, f"fact {fact.id}: {message}", fact.line))

        entry = lookup.by_id.get(fact.entry)
        if entry is None:
            fail(f"no entry {fact.entry}")
            continue
        source = by_id.get(fact.erratum) if fact.erratum else None
        if fact.erratum and source is None:
            fail(f"no erratum {fact.erratum}")
            continue
        if not stated(fact.value, fact.quote):
            fail(f"the quote does not state the value {fact.value!r}")
            continue
        fact.errata = list(entry.errata) + ([fact.erratum] if fact.erratum and fact.erratum not in entry.errata else [])
        quote = spaced(fact.quote)
        current = spaced(entry.text)
        printed = spaced("\n\n".join(b.text for b in entry.original_blocks)) if entry.original_blocks is not None else ""
        in_erratum = source is not None and quote in spaced(" ".join(x for x in (source.after, source.instruction) if x))
        if entry.status == "deleted" or (quote not in current and quote in printed):
            fact.status = "stale"
            fact.reason = f"{entry.id} was changed by {', '.join(entry.errata) or 'an erratum'}: the quote is no longer its text"
            where = f"{entry.game}/{entry.document}"
            found.append((where, Anomaly("fact-stale", f"{fact.id}: {fact.reason}", entry.lines[:1], "warning")))
        elif quote in current or in_erratum:
            fact.status = "holds"
        else:
            fail(f"the quote is not in the current text of {entry.id}")
    return found, problems
