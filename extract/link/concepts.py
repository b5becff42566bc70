"""Concept links (ref kind `concept`): the same subject in another document or another game.

Within a game, a learn-to-play section and a reference-guide topic with the same title ("Test
de moral", "Obstacles et collisions" ~ "Obstacles" and "Collision") link both ways. Across games,
`corpus/concepts.toml` groups the names games give one notion, and entries bearing them link:

    [[concept]]
    name = "Ligne de vue"
    terms = ["Ligne de vue", "Ligne de mire", "Visibilité"]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from difflib import SequenceMatcher

from extract.model import Concept, Entry
from extract.text import title_key

SKIPPED_KINDS = ("question",)
BACK_LINKS = 8  # books of one kind an entry is linked back from (see `link_concepts`)


def subjects(title: str) -> list[str]:
    """"Obstacles et collisions" is about obstacles and about collisions."""
    key = title_key(title)
    parts = [p for p in re.split(r"(?<!\s)\s++et\s++", key) if p]
    return [key] + (parts if len(parts) > 1 else [])


def link_concepts(entries: list[Entry], concepts: list[Concept], faq_docs: set[tuple[str, str]],
                  document_kinds: dict[tuple[str, str], str] | None = None) -> None:
    """`faq_docs` holds (game, document) pairs whose links come from the FAQ attachment instead.
    `document_kinds` ((game, document) -> kind, in the manifests' book order): within a game, an
    entry links to the first other document (in book order) of each kind bearing its subject, so
    the links stay linear in the entries however many books of one kind a game has."""
    document_kinds = document_kinds or {}
    order = {key: n for n, key in enumerate(document_kinds)}  # the manifests' book order
    titled = [e for e in entries if e.title and e.kind not in SKIPPED_KINDS and (e.game, e.document) not in faq_docs
              and e.status != "deleted" and "redirect" not in e.flags]
    by_book_title: dict[tuple[str, str, str], list[Entry]] = {}  # (game, subject, document) -> entries
    books: dict[tuple[str, str], set[str]] = {}  # (game, subject) -> the documents bearing it
    for entry in titled:
        key = title_key(entry.title)
        by_book_title.setdefault((entry.game, key, entry.document), []).append(entry)
        books.setdefault((entry.game, key), set()).add(entry.document)

    def in_book_order(game: str, documents: Iterable[str]) -> list[str]:
        return sorted(documents, key=lambda d: (order.get((game, d), len(order)), d))

    def preferred(game: str, document: str, subject: str) -> list[Entry]:
        # A glossary topic is the subject itself; a same-named section elsewhere in its book may
        # be about something else ("Unités" under army building), so topics win when there are.
        found = by_book_title.get((game, subject, document), [])
        return [e for e in found if e.kind == "topic"] or found

    firsts: dict[tuple[str, str], dict[str, list[str]]] = {}

    def first_books(game: str, subject: str) -> dict[str, list[str]]:
        """Per document kind, the first two documents (in book order) bearing `subject`: the
        first other than an entry's own is among them. Kept per subject: linear in the entries."""
        if (game, subject) not in firsts:
            per_kind: dict[str, list[str]] = {}
            for document in in_book_order(game, books.get((game, subject), ())):
                held = per_kind.setdefault(document_kinds.get((game, document), document), [])
                if len(held) < 2:
                    held.append(document)
            firsts[game, subject] = per_kind
        return firsts[game, subject]

    def pairs() -> Iterator[tuple[Entry, Entry, str]]:
        for entry in titled:
            if not any(e is entry for e in preferred(entry.game, entry.document, title_key(entry.title))):
                continue
            for subject in subjects(entry.title or ""):
                chosen = [next(d for d in held if d != entry.document) for held in first_books(entry.game, subject).values()
                          if any(d != entry.document for d in held)]
                for document in in_book_order(entry.game, chosen):
                    for other in preferred(entry.game, document, subject):
                        yield entry, other, subject

    # The link back ("Obstacles" to "Obstacles et collisions", which it would not find by its own
    # title) comes from the first `BACK_LINKS` books of each kind linking there, not from every
    # book repeating the subject: the first book of a subject is one link from the others when a
    # game has a few, and its page does not grow with a game of fifty.
    def book_of(entry: Entry) -> tuple[str, int]:
        """The kind of the entry's book and the book's place in the manifests' order."""
        book = (entry.game, entry.document)
        return document_kinds.get(book, entry.document), order.get(book, len(order))

    linked = [(entry, other, subject, book_of(entry)) for entry, other, subject in pairs()]
    back: dict[tuple[int, str], set[int]] = {}  # (other, kind of the linking book) -> those books' order
    for _, other, _, (kind, rank) in linked:
        back.setdefault((id(other), kind), set()).add(rank)
    first_back = {key: set(sorted(ranks)[:BACK_LINKS]) for key, ranks in back.items()}
    for entry, other, subject, (kind, rank) in linked:
        entry.add_ref(other, "concept", other.title or subject)
        if rank in first_back[id(other), kind]:
            other.add_ref(entry, "concept", entry.title or subject)
    position = {id(entry): i for i, entry in enumerate(titled)}
    by_key: dict[str, list[Entry]] = {}
    for entry in titled:
        by_key.setdefault(title_key(entry.title), []).append(entry)
    for concept in concepts:
        link_across_games(concept, [e for key in sorted(concept.terms) for e in by_key.get(key, [])], position)


def link_across_games(concept: Concept, members: list[Entry], position: dict[int, int]) -> None:
    """Each member links to one member of each other game bearing the concept: the one whose
    title is nearest its own (the same title key, else the most alike), a glossary topic before a
    section, else the first in book order. Linear in the members, however many books repeat a name."""
    members.sort(key=lambda e: position[id(e)])
    standing: dict[str, dict[str, Entry]] = {}  # game -> title key -> the entry standing for it
    for entry in members:
        keys = standing.setdefault(entry.game, {})
        key = title_key(entry.title)
        if key not in keys or (entry.kind == "topic" and keys[key].kind != "topic"):
            keys[key] = entry
    nearest: dict[tuple[str, str], Entry] = {}
    for entry in members:
        key = title_key(entry.title)
        targets = []
        for game, keys in standing.items():
            if game == entry.game:
                continue
            if (key, game) not in nearest:
                best = max(keys, key=lambda k: (k == key, SequenceMatcher(None, key, k).ratio(), -position[id(keys[k])]))
                nearest[key, game] = keys[best]
            targets.append(nearest[key, game])
        for other in sorted(targets, key=lambda e: position[id(e)]):
            entry.add_ref(other, "concept", f"{concept.name} ({other.game})")
