"""What a query means: its words (`words.py`: folded, table talk and stop words out), each
reaching the corpus's stems through the corpus's own word forms, with the lemma's stem as a
weaker alternative; a word the corpus never uses is first read as an inflection of a word the
model knows ("tape" → taper: `words.french_bases`), else reaches the longest stem it starts with
("attaqueront" → attaqu), words one or two edits away ("debordment" → débordement; the first
letter kept) and words that sound the same ("menasse" → menace): that word alone is approximate,
never the whole query. Then the thesaurus (`corpus/thesaurus.toml`, each game's `terms.toml`: a
game's own synonyms reach that game's entries only) adds the books' words for the reader's
("fuir le combat" → désengagement); a book's expression of several words is one alternative, its
stems joined by a space ("attaqu distanc", scored by `ranking.Ranking.phrase`), and no phrase of
the thesaurus spans table talk taken out of the question (`words.BREAK`).

`Understanding` is the part of `engine.SearchIndex` that reads queries; the site's search box
(`site/assets/regles-search.js`) does the same on the same model.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from extract.search import words as W

PREFIX_WEIGHT = 0.9  # "attaqueront" → attaqu
INFLECTION_WEIGHT = 0.9  # "fly" → the stems of "flying" (words.english_forms)
FRENCH_BASE_WEIGHT = 0.9  # "tape" → the stems of "taper" (words.french_bases): the same word
NEAR_WEIGHTS = (1.0, 0.8, 0.6)  # by edit distance
SOUND_WEIGHT = 0.8
SYNONYM_WEIGHT = 0.8
PHRASE_PART_WEIGHT = 0.7  # each word of a thesaurus phrase, inside the phrase's concept
NEAR_CANDIDATES = 5
SCANS_BEFORE_TABLE = 20  # typo lookups by scanning, before the deletion table pays for itself


@dataclass
class Concept:
    """One thing the query asks about: a word, or a phrase of the thesaurus."""

    words: list[str]
    alternatives: dict[str, float] = field(default_factory=dict)  # stem -> weight
    approximate: bool = False
    games: dict[str, set[str]] = field(default_factory=dict)  # stem -> the only games it is true of
    typed: set[str] = field(default_factory=set)  # the stems its words reach themselves, before the thesaurus
    reflexive: bool = False  # its word followed a reflexive pronoun ("se tirer"): words.REFLEXIVE
    guessed: bool = False  # reached through a guessed base ("horaires" → "horaire"): not a sure word of the books

    def add(self, stem: str, weight: float, games: set[str] | None = None) -> None:
        """`games`: the stem comes from a game's own synonyms and reaches that game's entries
        only; reached otherwise too, it reaches every game."""
        if stem in self.alternatives:
            if games is None or stem not in self.games:
                self.games.pop(stem, None)
            else:
                self.games[stem] = self.games[stem] | games
            self.alternatives[stem] = max(self.alternatives[stem], weight)
            return
        self.alternatives[stem] = weight
        if games is not None:
            self.games[stem] = set(games)

    def keys(self) -> set[str]:
        return {stem for stem, weight in self.alternatives.items() if weight >= 0.8}



class Understanding:
    """The query side of an opened model: its vocabulary, typo tables and thesaurus
    (`open_vocabulary`), and what a query's words reach."""

    vocab: dict[str, list[Any]]
    rules: dict[str, list[tuple[list[str], list[str], str]]]
    known_stems: set[str]
    df: Callable[[str], int]  # how many entries hold a stem: the ranking's (`ranking.Ranking.df`)

    def open_vocabulary(self, model: dict[str, Any]) -> None:
        """The model's word forms, thesaurus and typo tables, ready to read queries with."""
        self.vocab = model["vocab"]
        self.rules = defaultdict(list)
        for key, targets, game in model["thesaurus"]:
            self.rules[key[0]].append((key, targets, game))
        self.by_sound: dict[str, list[str]] = defaultdict(list)
        self.name_words = frozenset(model["name_words"])
        self.typo_words: list[str] = model["typo_words"]
        self.longest = max(map(len, self.typo_words), default=0)
        self.by_letter: dict[str, list[str]] = defaultdict(list)
        for word in self.typo_words:
            self.by_letter[word[0]].append(word)
            key = W.sound(word)
            if len(key) >= 3:
                self.by_sound[key].append(word)
        self._deletes: dict[str, list[str]] | None = None  # see `edit_candidates`
        self._scans = 0
        # Every stem a word can reach: the corpus's and the thesaurus's ("écrasent" → ecras → piétiner).
        self.known_stems = set(model["terms"]) | {item if isinstance(item, str) else item[0]
                                                  for stems in self.vocab.values() for item in stems}

    def stems(self, word: str) -> dict[str, float]:
        found: dict[str, float] = {}
        for item in self.vocab.get(word, ()):
            stem, weight = (item, 1.0) if isinstance(item, str) else (item[0], item[1])
            found[stem] = max(found.get(stem, 0.0), weight)
        return found

    def alternatives(self, word: str) -> Concept:
        concept = Concept([word])
        if word in self.vocab:
            for stem, weight in self.stems(word).items():
                concept.add(stem, weight)
            return concept
        if NUMBERISH.match(word):
            return concept
        # "leau", "lunite": an elision typed without its apostrophe.
        bare = ELISION_TYPED.sub("", word)
        if bare != word and bare in self.vocab:
            for stem, weight in self.stems(bare).items():
                concept.add(stem, weight)
            return concept
        # "fly", "flies": the English edition's "Flying". Only a word of a name: "reserv" is a
        # typo of "réserve", not a form of a disclaimer's "reserved".
        for form in W.english_forms(word):
            if form in self.name_words and form in self.vocab:
                for stem, weight in self.stems(form).items():
                    concept.add(stem, weight * INFLECTION_WEIGHT)
                return concept
        # "tape", "volent", "planquée": an inflection of a word the model knows ("taper")
        for form in W.french_bases(word):
            if form in self.vocab:
                for stem, weight in self.stems(form).items():
                    concept.add(stem, weight * FRENCH_BASE_WEIGHT)
                concept.guessed = True
                return concept
        concept.approximate = True
        for k in range(len(word) - 1, max(4, len(word) - 4) - 1, -1):
            if word[:k] in self.known_stems:
                concept.add(word[:k], PREFIX_WEIGHT)
                break
        for candidate, weight in self.near(word):
            for stem, stem_weight in self.stems(candidate).items():
                if stem_weight >= 1.0:
                    concept.add(stem, weight)
        return concept

    def near(self, word: str) -> list[tuple[str, float]]:
        """Words of the corpus one or two edits from `word` (the first letter kept), or that
        sound the same; best first."""
        limit = 0 if len(word) <= 3 else 1 if len(word) <= 5 else 2
        found: dict[str, float] = {}
        if limit and word:
            for candidate in self.edit_candidates(word, limit):
                d = W.distance(word, candidate, limit)
                if d <= limit:
                    found[candidate] = NEAR_WEIGHTS[d]
        key = W.sound(word)
        if len(key) >= 3:
            for candidate in self.by_sound.get(key, ()):
                found[candidate] = max(found.get(candidate, 0.0), SOUND_WEIGHT)
        # Equally near, the word more of the books use is the likelier one meant ("lige": ligne,
        # not lié); then the alphabet.
        return sorted(found.items(), key=lambda item: (-item[1], -self.word_df(item[0]), item[0]))[:NEAR_CANDIDATES]

    def word_df(self, word: str) -> int:
        """How many entries hold a corpus word (through its first stem)."""
        stems = self.vocab.get(word)
        if not stems:
            return 0
        first = stems[0]
        return self.df(first if isinstance(first, str) else first[0])

    def edit_candidates(self, word: str, limit: int) -> Iterable[str]:
        """Corpus words of the same first letter that may be within `limit` edits of `word`.

        The first few lookups of an opened index scan the words of that letter (a CLI query has
        one or two unknown words); after that a table of deletions is built once (about 70 ms and
        as many megabytes as the model here) and answers in microseconds: the words sharing a form
        with `word` once up to two letters after the first are deleted from each (an insertion,
        deletion, substitution or swap is at most one deletion on each side, so no word within two
        edits is missed)."""
        if len(word) - limit > self.longest:  # longer than any word within reach: nothing to find
            return []
        self._scans += 1
        if self._scans <= SCANS_BEFORE_TABLE:
            return [c for c in self.by_letter.get(word[0], ()) if abs(len(c) - len(word)) <= limit]
        table = self._deletes
        if table is None:  # filled, then published: a search in another thread never sees half of it
            table = defaultdict(list)
            for candidate in self.typo_words:
                for form in deletions(candidate, 2):
                    table[form].append(candidate)
            self._deletes = table
        found: set[str] = set()
        for form in deletions(word, limit):
            found.update(c for c in table.get(form, ()) if abs(len(c) - len(word)) <= limit)
        return found

    def understand(self, text: str) -> tuple[list[Concept], list[list[str]]]:
        """The query's concepts, and the primary stems of its words in order (for words together)."""
        words = W.words_of(text, reflexive=True)
        if not [w for w in words if w not in W.MARKERS]:  # only question words: "comment ?" asks nothing; read them as words then
            words = W.words_of(text, talk=False, reflexive=True)
        return self.understand_words(words)

    def understand_words(self, words: list[str]) -> tuple[list[Concept], list[list[str]]]:
        """`understand`, from the query's words (`words.words_of`)."""
        concepts = []
        breaks: set[int] = set()  # the concepts table talk stood before: no expression of the thesaurus reaches back over it
        for k, word in enumerate(words):
            if word == W.BREAK:
                breaks.add(len(concepts))
                continue
            if word == W.REFLEXIVE:
                continue
            concept = self.alternatives(word)
            concept.typed = set(concept.alternatives)
            concept.reflexive = k > 0 and words[k - 1] == W.REFLEXIVE
            concepts.append(concept)
        primaries: list[list[str]] = []  # an empty place where talk was taken out: no two words together over it
        for k, c in enumerate(concepts):
            if k in breaks and k:
                primaries.append([])
            primaries.append([s for s, w in c.alternatives.items() if w >= 0.8][:2])
        merged: list[Concept] = []
        i = 0
        while i < len(concepts):
            match = self.thesaurus_match(concepts, i, breaks)
            if match is None:
                merged.append(concepts[i])
                i += 1
                continue
            length, targets = match
            if length == 1:
                concept = concepts[i]
                # a guessed word the thesaurus reads through one of its near words is understood:
                # the farther guesses (two edits away) go
                for stem in [s for s, w in concept.alternatives.items() if w < 0.8] if concept.approximate else []:
                    del concept.alternatives[stem]
                    concept.games.pop(stem, None)
            else:
                concept = Concept([w for c in concepts[i:i + length] for w in c.words])
                for part in concepts[i:i + length]:
                    concept.approximate |= part.approximate
                    concept.guessed |= part.guessed
                    concept.typed |= part.typed
                    for stem, weight in part.alternatives.items():
                        concept.add(stem, weight * PHRASE_PART_WEIGHT, part.games.get(stem))
                # the words typed are an expression of the books too ("ligne de vue"), held
                # together as a synonym's expression is ("ligne de mire")
                said = [next((s for s, w in part.alternatives.items() if w >= 0.8), None) for part in concepts[i:i + length]]
                if None not in said:
                    concept.add(" ".join(said), PHRASE_PART_WEIGHT)
            for stem, games in targets.items():
                concept.add(stem, SYNONYM_WEIGHT, games)
            merged.append(concept)
            i += length
        unique: dict[tuple[str, ...], Concept] = {}
        for concept in merged:
            unique.setdefault(tuple(concept.words), concept)
        return list(unique.values()), primaries

    def thesaurus_match(self, concepts: list[Concept], i: int,
                        breaks: frozenset[int] | set[int] = frozenset()) -> tuple[int, dict[str, set[str] | None]] | None:
        """The longest thesaurus phrase starting at concept `i`, with every target of that length
        and the games each is true of (None: every game). An expression that agrees with the
        pronoun wins over any that does not, even a longer one: "je me tire" reads the thesaurus's
        "se tirer", "je tire" its "tirer", and "je me tire du corps à corps" leaves the melee
        ("se tirer", then "corps à corps"), not "tirer au corps à corps"; with no rival, either
        reads ("je retape un gars": "se retaper")."""
        best: tuple[int, dict[str, set[str] | None]] | None = None
        rank = (False, 0)
        firsts = sorted(concepts[i].keys())
        candidates = [rule for first in firsts for rule in self.rules.get(first, ())]
        candidates += [rule for rule in self.rules.get(W.REFLEXIVE, ()) if rule[0][1] in firsts]
        for key, targets, game in candidates:
            pronominal = key[0] == W.REFLEXIVE
            phrase = key[1:] if pronominal else key
            if i + len(phrase) > len(concepts):
                continue
            if all(phrase[k] in concepts[i + k].keys() and i + k not in breaks for k in range(1, len(phrase))):
                agrees = pronominal == concepts[i].reflexive
                if best is None or (agrees, len(phrase)) > rank:
                    best, rank = (len(phrase), {}), (agrees, len(phrase))
                if (agrees, len(phrase)) == rank:
                    for target in targets:
                        if not game or (target in best[1] and best[1][target] is None):
                            best[1][target] = None
                        else:
                            best[1][target] = (best[1].get(target) or set()) | {game}
        return best

NUMBERISH = re.compile(r"^[\d.]+[a-z]?$")


def deletions(word: str, depth: int) -> set[str]:
    """`word` and every form of it with up to `depth` letters after the first deleted."""
    found = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(1, len(w))}
        found |= frontier
    return found


ELISION_TYPED = re.compile(r"^(?:l|d|j|m|n|s|t|c|qu)(?=[aeiouyh])")


def clean_query(text: str) -> str:
    """Control characters out, length bounded: whatever is typed, a query comes out."""
    text = "".join(c if c.isprintable() else " " for c in text)
    return re.sub(r"\s+", " ", text).strip()[:500]

