"""One lookup over a game's entries, built once after segmentation and used by every stage.

Titles are compared by `title_key` (case, accents, icons, a final s or x), entries are kept in
book order, and each question has one answer here rather than one per stage: `titled` gives
every entry with a title, `numbered` every entry with a printed number, `document_titled` the
game's documents by their own titles. The errata stage inserts the entries it adds through
`add`; `refresh` re-keys titles and numbers once errata have renamed or added entries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extract.model import Entry, GameSpec
from extract.numbering import number_order
from extract.patterns import BOOK_WORD, NAME_LINKS, Citation
from extract.text import slugify, title_key

# An apostrophe, and the French elided words before one ("l’", "d’", "qu’", "jusqu’"…).
_APOSTROPHE = re.compile(r"['’ʼ]")
_ELIDED = re.compile(r"(?<![^\W\d_])(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu)['’ʼ](?=[^\W\d_])", re.I)


def anchor_spellings(title: str) -> list[str]:
    """How site generators may spell a title's anchor besides `slugify`'s, where it has an
    apostrophe: dropped ("L’échange" is "#lechange" on GitHub, "Player's turn" "#players-turn"),
    a separator ("#l-echange"), or the elided word dropped with it, as an author writing the
    anchor by hand does ("#echange")."""
    if not _APOSTROPHE.search(title):
        return []
    return [_APOSTROPHE.sub("", title), _APOSTROPHE.sub(" ", title), _ELIDED.sub("", title)]


class Lookup:
    def __init__(self, game: GameSpec, entries: list[Entry]) -> None:
        self.game = game
        self.entries = entries  # book order; the errata stage inserts added entries in place
        self.documents = {title_key(d.title): d.id for d in game.documents}  # title key -> document id
        self.by_id: dict[str, Entry] = {}
        self._titles: dict[str, list[Entry]] = {}
        self._numbers: dict[str, list[Entry]] = {}
        self._separators: set[str] = set()
        self._anchors: dict[str, list[dict[str, list[Entry]]]] = {}  # document -> anchor tables, made on first use
        self.refresh()

    def refresh(self) -> None:
        self.by_id = {entry.id: entry for entry in self.entries}
        self._titles = {}
        self._numbers = {}
        for entry in self.entries:
            if entry.title:
                self._titles.setdefault(title_key(entry.title), []).append(entry)
            if entry.number:
                self._numbers.setdefault(entry.number, []).append(entry)
        self._separators = {sep for number in self._numbers for sep in ".:" if sep in number}
        self._anchors = {}

    def titled(self, title: str | None, document: str | None = None) -> list[Entry]:
        """Entries whose title matches `title`, in book order (only in `document` when given)."""
        found = self._titles.get(title_key(title), [])
        return [e for e in found if e.document == document] if document is not None else list(found)

    def title_keys(self) -> list[str]:
        """Every title key, in order of first appearance."""
        return list(self._titles)

    def titled_key(self, key: str) -> list[Entry]:
        """Entries under a title key `title_keys` gave (keys are not titles: `title_key` is not idempotent)."""
        return list(self._titles.get(key, []))

    def numbered(self, number: str, document: str | None = None) -> list[Entry]:
        """Entries printed with `number`, in book order (only in `document` when given)."""
        found = self._numbers.get(number, [])
        return [e for e in found if e.document == document] if document is not None else list(found)

    def cited(self, number: str, document: str | None = None, outside: Iterable[str] = ()) -> list[Entry]:
        """The entries a citation's number names, in book order (only in `document` when given, none
        in the documents `outside`): "8:2b" (item b of rule 8:2) is rule 8:2 when no entry is numbered
        8:2b. A question is never one: an exam's "question 3" is not "l'article 3" it quotes."""
        for wanted in dict.fromkeys([number, number.rstrip("abcdefghijklmnopqrstuvwxyz")]):
            found = [e for e in self.numbered(wanted, document) if e.kind != "question" and e.document not in outside]
            if found:
                return found
        return []

    def anchored(self, anchor: str, document: str) -> list[Entry]:
        """Entries of `document` a Markdown link's anchor names ("#marche", "#8:4", "#neutralise",
        "#les-etats-speciaux", "#1-combat"): by the id the source gave its heading ("{#marche}"),
        else by printed number, else by the last part of the id, else by the title as site
        generators slug it (lowercase, accents off, hyphens), else by the whole heading line,
        number and title ("## 1. Combat" is "#1-combat" on GitHub, MkDocs, Pandoc), else by the
        other spellings generators give an apostrophe (`anchor_spellings`): the first of these that
        names any, in book order."""
        tables = self._anchors.get(document)
        if tables is None:
            tables = [{} for _ in range(6)]
            for entry in self.entries:
                if entry.document != document:
                    continue
                heading = f"{entry.number} {entry.title}" if entry.number and entry.title else None
                names = (entry.anchors, [entry.number], [entry.key.rsplit("/", 1)[-1]], [entry.title], [heading],
                         [spelling for name in (entry.title, heading) if name for spelling in anchor_spellings(name)])
                for table, listed in zip(tables, names, strict=True):
                    for slug in dict.fromkeys(slugify(name) for name in listed if name):
                        table.setdefault(slug, []).append(entry)
            self._anchors[document] = tables
        wanted = slugify(anchor)
        return next((list(table[wanted]) for table in tables if wanted in table), [])

    def numbers_like(self, number: str) -> bool:
        """Whether the game prints numbers with the separator of `number` ("8:2", "3.1"): a bare
        "voir 10:30" in books numbered 3.1.2 is an hour, not a rule."""
        return any(sep in number for sep in self._separators)

    def citation_book(self, citation: Citation) -> tuple[str | None, str | None] | None:
        """Where a citation's numbers are to be found, as `book_cited` says ((None, None): the citing
        book); None when it is no citation of these books: a bare "voir 10:30" in books numbered 3.1.2."""
        if citation.bare and not self.numbers_like(citation.numbers[0]):
            return None
        return self.book_cited(citation.book) if citation.book else (None, None)

    def book_cited(self, words: str) -> tuple[str | None, str | None]:
        """What the words after "du"/"de la" in a citation name: (document, None) for the game's
        document whose title the most of them spell ("du Livre de règles, sauf…"); (None, name) for a
        book the corpus lacks ("du Règlement intérieur"); (None, None) for no book ("de la Phase de
        combat": a part of the citing one)."""
        split = words.split()
        for count in range(len(split), 0, -1):
            document = self.documents.get(title_key(" ".join(split[:count])))
            if document is not None:
                return document, None
        if not BOOK_WORD.match(split[0]):
            return None, None
        count = 3 if len(split) > 2 and split[1].lower() in NAME_LINKS else 2
        return None, " ".join(split[:count])

    def document_titled(self, title: str | None) -> str | None:
        return self.documents.get(title_key(title))

    def add(self, entry: Entry) -> None:
        """Insert an added entry at its number's place, in the tree and in book order."""
        parent = entry.parent
        assert parent is not None
        siblings = parent.children
        at = 0
        while at < len(siblings) and siblings[at].number and number_order(siblings[at].number) < number_order(entry.number or "0"):
            at += 1
        siblings.insert(at, entry)
        previous = siblings[at - 1] if at > 0 else parent
        last = previous
        while last.children and last is not parent:
            last = last.children[-1]
        position = self.entries.index(last) + 1
        self.entries.insert(position, entry)
        self.by_id[entry.id] = entry
        self._anchors.pop(entry.document, None)
