"""Stage 5, link: what every entry needs to be found — its page URL and anchor, the FAQ answers
attached to the rules they concern, and the backrefs of every ref that resolves."""

from __future__ import annotations

import re

from extract.lookup import Lookup
from extract.model import Anomaly, Entry, Erratum, Ref, Reported
from extract.patterns import SECTION_NUMBERS, VOIR_QUOTED, cited_numbers, section_numbers
from extract.text import title_key


def fill_backrefs(entries: list[Entry]) -> None:
    by_id = {entry.id: entry for entry in entries}
    found: dict[str, set[str]] = {entry.id: set() for entry in entries}
    for entry in entries:
        own = entry.id  # one string for all the backrefs of this entry
        for ref in entry.refs:
            if ref.target in by_id:
                found[ref.target].add(own)
    for entry in entries:
        entry.backrefs = sorted(found[entry.id])


# ---------------------------------------------------------------- FAQ attached to rules

# "Voir la section d'errata « Terrain » en page 2", "Voir « Menace avec des Rangs Partiels » ci-contre"
POINTER = re.compile(VOIR_QUOTED, re.IGNORECASE)
FAQ_KINDS = ("question", "clarification")


def add_ref(entry: Entry, target: Entry | None, kind: str, text: str, reason: str | None = None) -> None:
    """A FAQ entry's link: not to the headings it sits under; an unresolved one once per text."""
    if target is None:
        if not any(r.target is None and r.kind == kind and r.text == text for r in entry.refs):
            entry.refs.append(Ref(None, kind, text, reason))
    elif target not in entry.ancestors:
        entry.add_ref(target, kind, text)


def attach_faq(lookup: Lookup, errata: list[Erratum]) -> Reported:
    """Link FAQ questions, clarifications and errata (ref kind `faq`) to the rules they concern:
    by their topic heading, by explicit pointers, by the rule numbers ("section 49", "(article 4)")
    and titles they name."""
    faq_docs = lookup.game.faq_documents
    entries, by_id = lookup.entries, lookup.by_id

    def is_rule(entry: Entry) -> bool:
        """What FAQ answers can be about: every entry outside the FAQs, and the FAQs' own rules."""
        return entry.document not in faq_docs or entry.kind in ("rule", "clarification")

    kinds = {d.id: d.kind for d in lookup.game.documents}
    titles = {key: first_book_of_each_kind(found, kinds)
              for key in lookup.title_keys() if (found := [e for e in lookup.titled_key(key) if is_rule(e)])}
    longest = max((len(k.split()) for k in titles), default=1)
    numbered: dict[str, Entry | None] = {}  # a section number -> the one rule printed with it, if one
    cited: dict[tuple[str, str | None], Entry | None] = {}  # the same for "article 4", "voir 3.2" (and its book)
    anomalies: Reported = []
    # An erratum's heading is "Terrain, page 19, section 84.9": the errata stage read its name.
    # An erratum's heading by its name's key: "Voir la section d'errata « Terrain »" finds it without a scan.
    errata_sources: dict[str, list[Entry]] = {}
    for source, name in {e.source: (by_id[e.source], e.target_hint.get("name") or "") for e in errata if e.source in by_id}.values():
        errata_sources.setdefault(title_key(name), []).append(source)
    for erratum in errata:
        source, target = by_id.get(erratum.source), by_id.get(erratum.target or "")
        if source is not None and target is not None:
            add_ref(source, target, "faq", source.title or erratum.id)
    for entry in entries:
        if entry.document not in faq_docs or entry.kind not in FAQ_KINDS:
            continue
        for heading in entry.ancestors:
            found = titles.get(title_key(heading.title), [])
            for target in found:
                add_ref(entry, target, "faq", heading.title or "")
            if found:
                break  # the nearest heading that names a rule says what the question is about
        text = entry.text
        for match in POINTER.finditer(text):
            pointed = pointer_targets(match, lookup, titles, entry, errata_sources)
            if not pointed:
                add_ref(entry, None, "faq", match.group(0), "no entry has this title")
                anomalies.append((f"{entry.game}/{entry.document}",
                                  Anomaly("unresolved-reference", f"{entry.id}: faq « {match.group(0)} »", entry.lines[:1])))
            for target in pointed:
                add_ref(entry, target, "faq", match.group(0))
        for match in SECTION_NUMBERS.finditer(text):
            for number in section_numbers(match):
                if number not in numbered:  # each number looked up once: FAQs repeat them
                    found = [e for e in lookup.numbered(number) if e.document not in faq_docs]
                    numbered[number] = found[0] if len(found) == 1 else None
                if numbered[number] is not None:
                    add_ref(entry, numbered[number], "faq", match.group(0))
        for citation in cited_numbers(text):
            scope = lookup.citation_book(citation)
            if scope is None or scope[1]:
                continue  # an hour ("voir 10:30"), or a rule of a book not in the corpus ("du Règlement intérieur")
            named = scope[0]
            for number, item in zip(citation.numbers, citation.items, strict=True):
                if (number, named) not in cited:  # the one rule outside the FAQs (in the book named) printed with it
                    found = lookup.cited(number, named, outside=faq_docs)
                    cited[number, named] = found[0] if len(found) == 1 else None
                if cited[number, named] is not None:
                    add_ref(entry, cited[number, named], "faq", item)
                else:
                    add_ref(entry, None, "faq", item, f"no single rule numbered {number}")
                    anomalies.append((f"{entry.game}/{entry.document}", Anomaly(
                        "unresolved-reference", f"{entry.id}: faq « {item} »: no single rule numbered {number}", entry.lines[:1])))
        for key in named_titles(text, titles, longest):
            for target in titles[key]:
                add_ref(entry, target, "faq", target.title or key)
        if entry.kind == "question" and not any(r.target for r in entry.refs):
            anomalies.append((f"{entry.game}/{entry.document}",
                              Anomaly("faq-unattached", f"{entry.id}: no rule found for this question", entry.lines[:1])))
    return anomalies


def named_titles(text: str, titles: dict[str, list[Entry]], longest: int) -> list[str]:
    """Titles of two words or more that the text names, looked up by word n-grams (linear in the
    text, whatever the number of titles), in order of first mention."""
    words = title_key(text).split()
    found: list[str] = []
    for start in range(len(words)):
        for size in range(2, min(longest, len(words) - start) + 1):
            key = " ".join(words[start:start + size])
            if key in titles and key not in found:
                found.append(key)
    return found


def pointer_targets(match: re.Match[str], lookup: Lookup, titles: dict[str, list[Entry]],
                    source: Entry, errata_sources: dict[str, list[Entry]]) -> list[Entry]:
    key = title_key(match.group("quoted"))
    if match.group("errata"):
        found = errata_sources.get(key, [])
        return [e for e in found if e.document == source.document] or found  # its own FAQ's errata first
    # "Voir « X »" points first at X in the FAQ's own document.
    return [e for e in lookup.titled_key(key) if e.document == source.document] or titles.get(key, [])


def first_book_of_each_kind(found: list[Entry], kinds: dict[str, str]) -> list[Entry]:
    """The entries of `found` in the first document of each kind (learn-to-play, reference…)
    that has any: a FAQ answer is attached to the rule of one reference guide, not of every book
    of its kind that repeats the title, so attachments stay linear in the entries (the others are
    a concept link away)."""
    first: dict[str, str] = {}
    live = [e for e in found if e.status != "deleted" and "redirect" not in e.flags]  # a rule, not a pointer to one
    for entry in live or found:  # entries come in book order
        first.setdefault(kinds.get(entry.document, entry.document), entry.document)
    kept = set(first.values())
    return [entry for entry in found if entry.document in kept]
