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

from extract.model import Concept, Entry
from extract.text import title_key

SKIPPED_KINDS = ("question",)


def subjects(title: str) -> list[str]:
    """"Obstacles et collisions" is about obstacles and about collisions."""
    key = title_key(title)
    parts = [p for p in re.split(r"\s+et\s+", key) if p]
    return [key] + (parts if len(parts) > 1 else [])


def link_concepts(entries: list[Entry], concepts: list[Concept], faq_docs: set[tuple[str, str]]) -> None:
    """`faq_docs` holds (game, document) pairs whose links come from the FAQ attachment instead."""
    titled = [e for e in entries if e.title and e.kind not in SKIPPED_KINDS and (e.game, e.document) not in faq_docs
              and e.status != "deleted" and "redirect" not in e.flags]
    by_game_title: dict[tuple[str, str], list[Entry]] = {}
    for entry in titled:
        by_game_title.setdefault((entry.game, title_key(entry.title)), []).append(entry)
    def preferred(game: str, document: str, subject: str) -> list[Entry]:
        # A glossary topic is the subject itself; a same-named section elsewhere in its book may
        # be about something else ("Unités" under army building), so topics win when there are.
        found = [e for e in by_game_title.get((game, subject), []) if e.document == document]
        return [e for e in found if e.kind == "topic"] or found

    for entry in titled:
        if entry not in preferred(entry.game, entry.document, title_key(entry.title)):
            continue
        for subject in subjects(entry.title or ""):
            documents = {o.document for o in by_game_title.get((entry.game, subject), [])} - {entry.document}
            for document in sorted(documents):
                for other in preferred(entry.game, document, subject):
                    entry.add_ref(other, "concept", other.title or subject)
                    other.add_ref(entry, "concept", entry.title or subject)
    for concept in concepts:
        members = [e for e in titled if title_key(e.title) in concept.terms]
        for entry in members:
            for other in members:
                if other.game != entry.game:
                    entry.add_ref(other, "concept", f"{concept.name} ({other.game})")
