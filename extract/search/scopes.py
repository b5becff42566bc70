"""Games and documents named in a query: filters, not words.

"combien de héros dans une bande à warcry" searches Warcry's entries for "héros bande", and says
so ("dans Warcry"); "runewars" is not a word a rule is found by. The names come from the
manifests, never from code (`scope_names`): a game's title, its title before a subtitle, its
`short_title`, its id read as words, a CamelCase title split ("BattleLore" → "battle lore"), and
the initials of a title of three words or more ("Le Seigneur des Anneaux" → "sda"); in a game
of several documents, a document's title of two words or more (its version left out: "FAQ de
Tournoi 1.1.0" → "faq tournoi"). The title of a game's only document ("Règles de base") is the
game's rules said generically: no filter. The model keeps them as phrases of query words (`scope_phrases`); a query's
phrases are found by `find_scope`, which the site's search box (`site/assets/regles-search.js`)
does the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from extract.model import SUBTITLE  # "Runewars : le Jeu de Figurines"
from extract.search import words as W

CAMEL = re.compile(r"(?<=[a-zà-ÿ]{2})(?=[A-ZÀ-Þ][a-zà-ÿ])")  # "BattleLore" → "Battle Lore", not "SdA"
VERSION_WORD = re.compile(r"\d")  # "v3.1.2fr", "1.1.0": a document's version, not its name
INITIALS_WORDS = 3  # a title of this many words or more is also typed by its initials
NEAR_NAME = 6  # a one-word name this long is recognised one edit away ("runewar", "warcri")


def scope_names(games: Iterable[Any]) -> dict[str, list[str]]:
    """Each game's ("runewars") and document's ("runewars/reference") names from the manifests
    (`GameSpec`s), the name to show first."""
    found: dict[str, list[str]] = {}
    for game in games:
        main = SUBTITLE.split(game.title, maxsplit=1)[0].strip() or game.title
        names = [game.short_title or main, main, game.title, game.id.replace("-", " ")]
        names += [CAMEL.sub(" ", name) for name in list(names)]
        found[game.id] = list(dict.fromkeys(n for n in names if n))
        if len(game.documents) < 2:  # the only book of its game: "Règles de base" is the game's rules, said generically
            continue
        for document in game.documents:
            found[f"{game.id}/{document.id}"] = [document.title]
    return found


def initials(name: str) -> list[str]:
    """A long title's initials, its leading article out: of every word ("Le Seigneur des Anneaux"
    → "sda") and of its words that are no stop words ("Chroniques de la Rose Noire" → "crn")."""
    words = [w for w in W.fold(name).replace("'", " ").split() if w.isalpha()]
    if words and words[0] in ("le", "la", "les", "l", "the"):
        words = words[1:]
    if len(words) < INITIALS_WORDS:
        return []
    found = ["".join(w[0] for w in words), "".join(w[0] for w in words if w not in W.FOLDED_STOP_WORDS)]
    return [short for short in dict.fromkeys(found) if len(short) >= INITIALS_WORDS and short not in W.FOLDED_STOP_WORDS]


def scope_phrases(names: dict[str, list[str]]) -> list[list[Any]]:
    """The model's `scopes`: [query words, game, document or ""], sorted. A document's name needs
    two words (a one-word title is a word of the rules); a version ("v3.1.2fr") and single letters
    are no words of a name."""
    phrases: set[tuple[tuple[str, ...], str, str]] = set()
    for key, found in names.items():
        game, _, document = key.partition("/")
        for name in found:
            words = tuple(w for w in W.words_of(name, talk=False) if not VERSION_WORD.search(w) and len(w) > 1)
            if document and len(words) < 2:
                continue
            if words:
                phrases.add((words, game, document))
            for short in initials(SUBTITLE.split(name, maxsplit=1)[0]) if not document else ():
                phrases.add(((short,), game, document))
    return [[list(words), game, document] for words, game, document in sorted(phrases)]


@dataclass
class Scope:
    """What a query names: games and documents ("game/document"), and the query's words left once
    the names are out."""

    words: list[str]
    games: set[str] = field(default_factory=set)
    documents: set[str] = field(default_factory=set)

    def allows(self, game: str, document: str) -> bool:
        return (not self.games or game in self.games) and (not self.documents or f"{game}/{document}" in self.documents)

    def key(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(sorted(self.games)), tuple(sorted(self.documents))


def find_scope(words: list[str], phrases: list[list[Any]], vocabulary: dict[str, Any] | set[str],
               names_alone: bool = False) -> Scope:
    """The games and documents `words` name, longest phrase first at each place; a one-word name
    of NEAR_NAME letters or more is recognised one edit away in a word the books do not use.
    A query that is nothing but names names nothing, unless `names_alone`: its words are searched."""
    by_first: dict[str, list[list[Any]]] = {}
    for phrase in phrases:
        by_first.setdefault(phrase[0][0], []).append(phrase)
    scope = Scope([])
    i = 0
    while i < len(words):
        best: list[list[Any]] = []
        for phrase in by_first.get(words[i], ()):
            size = len(phrase[0])
            if words[i:i + size] == phrase[0] and (not best or size >= len(best[0][0])):
                best = [p for p in best if len(p[0]) == size] + [phrase]
        if not best and words[i] not in vocabulary and len(words[i]) >= NEAR_NAME - 1:
            best = [p for p in phrases if len(p[0]) == 1 and len(p[0][0]) >= NEAR_NAME
                    and W.distance(words[i], p[0][0], 1) <= 1]
        if not best:
            scope.words.append(words[i])
            i += 1
            continue
        if scope.words and scope.words[-1] == W.REFLEXIVE:  # "se" before a name marks no word
            scope.words.pop()
        for _, game, document in best:
            if document:
                scope.documents.add(f"{game}/{document}")
            else:
                scope.games.add(game)
        i += len(best[0][0])
    if not [w for w in scope.words if w not in W.MARKERS] and not names_alone:
        return Scope(list(words))
    return scope
