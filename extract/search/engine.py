"""The search: French as people type it at the table, ranked from `build/search/model.json`.

What a query means (`understand`): its words (`words.py`: folded, table talk and stop words
out), each reaching the corpus's stems through the corpus's own word forms, with the lemma's stem
as a weaker alternative; a word the corpus never uses reaches the longest stem it starts with
("attaqueront" → attaqu), words one or two edits away ("debordment" → débordement; the first
letter kept) and words that sound the same ("menasse" → menace): that word alone is approximate,
never the whole query. Then the thesaurus (`corpus/thesaurus.toml`, each game's `terms.toml`:
a game's own synonyms reach that game's entries only) adds the books' words for the reader's
("fuir le combat" → désengagement).

How it ranks (`rank`): each concept scores an entry by its best alternative (BM25 over the five
fields, titles weighing most, the opening sentence counted again); the scores add up, with a
bonus for two words found together and for a query that is a whole title or name; the sum is
multiplied by the square root of the share of the query's concepts the entry holds (so a sub-rule
holding every word beats its parent topic holding one; a word that reaches nothing counts only
while most words are not surely reached) and by the entry's prior (an index or contents page, a
"Voir « X »" redirect, a learn-to-play booklet beside its rules reference weigh less). An untitled
sub-rule holding in its own text every concept its topic holds ranks just above that topic, unless
the query names the topic (a word typed, not a synonym, in its title or other names). Without
a game filter, the best entry of each game that scores near the top comes first, one per game.

The site's search box (`site/assets/regles-search.js`) does the same on the same model: a test
and `make bench` compare them.
"""

from __future__ import annotations

import gc
import json
import math
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.search import words as W
from extract.search.model import LEMMA_WEIGHT, MODEL_VERSION, Known, build_model, positions, write_model

SCHEMA_VERSION = "2"
K1 = 1.5  # BM25 saturation: 1.4 to 1.7 all beat 1.2 on the relevance set
PREFIX_WEIGHT = 0.9  # "attaqueront" → attaqu
INFLECTION_WEIGHT = 0.9  # "fly" → the stems of "flying" (words.english_forms)
NEAR_WEIGHTS = (1.0, 0.8, 0.6)  # by edit distance
SOUND_WEIGHT = 0.8
SYNONYM_WEIGHT = 0.8
PHRASE_PART_WEIGHT = 0.7  # each word of a thesaurus phrase, inside the phrase's concept
PAIR_WEIGHT = 0.5  # two query words found together, per the mean idf of the two
EXACT_WEIGHT = 1.0  # the query is a whole title, per idf of the query
NAMED_WEIGHT = 0.8  # the query is a whole other name (an index term, an English name): the entry so named
COVERAGE_POWER = 0.5  # the share of the query held, square-rooted: one filler word missing does not crush a rule
MIN_COVERAGE = 0.34  # below it an entry holds too little of the query to be an answer
FALLBACK_COVERAGE = 0.17  # …unless no entry holds more of a query whose words the books know
GAME_BEST = 0.8  # another game's best entry joins the top when it scores at least this share of the best
NEAR_CANDIDATES = 5
SUB_RULE_LIFT = 0.001  # a sub-rule put above its topic: the topic's score, plus this share of its own
TITLE_FIELD = 0  # fields of the model, as model.FIELDS orders them
CONTEXT_FIELD = 2  # an untitled rule's headings: inherited, not its own words
HEADLINE_FIELDS = 0b11  # title and names: where a query names an entry
SCANS_BEFORE_TABLE = 20  # typo lookups by scanning, before the deletion table pays for itself
UNREACHED_IGNORED = True


ANALYSED = "search/analysed"  # the memo's name for the words and stems of the thesaurus's texts, and stems
ENTRIES = "search/entries"  # …and, followed by "/game/document", for that document's entries and word forms


@dataclass
class Hit:
    """One result. Its snippet is cut from the entry's text when first read: a program that wants
    only ids and scores does not pay for ten snippets."""

    id: str
    title: str | None
    game: str
    document: str
    kind: str
    number: str | None
    status: str
    url: str
    score: float
    approximate: bool = False  # some word was matched approximately: "résultats approchés"
    text: str = field(default="", repr=False, compare=False)  # the entry's text, to cut the snippet from
    marked: frozenset[str] = field(default=frozenset(), repr=False, compare=False)  # the stems to mark

    @cached_property
    def snippets(self) -> tuple[str, str]:
        return snippet(self.text, self.marked)

    @property
    def snippet(self) -> str:
        """The matched words between [ ]."""
        return self.snippets[0]

    @property
    def snippet_html(self) -> str:
        """The matched words in <mark>."""
        return self.snippets[1]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "game": self.game, "document": self.document, "kind": self.kind,
                "number": self.number, "status": self.status, "url": self.url, "score": self.score,
                "snippet": self.snippet, "snippet_html": self.snippet_html, "approximate": self.approximate}


@dataclass
class Concept:
    """One thing the query asks about: a word, or a phrase of the thesaurus."""

    words: list[str]
    alternatives: dict[str, float] = field(default_factory=dict)  # stem -> weight
    approximate: bool = False
    games: dict[str, set[str]] = field(default_factory=dict)  # stem -> the only games it is true of
    typed: set[str] = field(default_factory=set)  # the stems its words reach themselves, before the thesaurus

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


class SearchIndex:
    """An opened model: open once, query many times."""

    def __init__(self, folder: Path, cache: Path | None = None) -> None:
        if not (folder / "meta.json").is_file() or not (folder / "model.json").is_file():
            raise InputError(str(folder), "no search index: run `regles build` first")
        self.folder = folder
        self.cache = cache
        self.meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        model = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        if model.get("version") != MODEL_VERSION:  # written by another version of regles
            raise InputError(str(folder / "model.json"), f"search model version {model.get('version')}, "
                             f"this regles reads version {MODEL_VERSION}: run `regles build` again")
        self.model = model
        self.docs = model["docs"]
        self.texts = model["texts"]
        self.lengths = model["lengths"]
        self.weights = model["weights"]
        self.b = model["b"]
        self.averages = [a or 1.0 for a in model["averages"]]
        self.terms: dict[str, list[int]] = model["terms"]
        self.pairs: dict[str, list[int]] = model["pairs"]
        self.exact: dict[str, list[int]] = model["exact"]
        self.named: dict[str, list[int]] = model["named"]
        self.numbers: dict[str, list[int]] = model["numbers"]
        self.vocab: dict[str, list[Any]] = model["vocab"]
        self.count = len(self.docs)
        self.unknown_idf = math.log(1 + (self.count + 0.5) / 0.5)
        self.rules: dict[str, list[tuple[list[str], list[str], str]]] = defaultdict(list)
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
        self._df: dict[str, int] = {}
        self._weighted: dict[str, dict[int, float]] = {}  # stem -> each entry's field-weighted tf
        self._bm25: dict[str, dict[int, float]] = {}
        self.priors: list[float] = [row[8] for row in self.docs]
        self.parents: list[int] = model["parents"]
        self._fields: dict[str, dict[int, int]] = {}  # stem -> each entry's fields holding it, as bits
        self._deletes: dict[str, list[str]] | None = None  # see `edit_candidates`
        self._scans = 0
        self._masks: dict[tuple[Any, ...], list[bool] | None] = {}
        # Every stem a word can reach: the corpus's and the thesaurus's ("écrasent" → ecras → piétiner).
        self.known_stems = set(self.terms) | {item if isinstance(item, str) else item[0]
                                              for stems in self.vocab.values() for item in stems}

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ understanding

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
        words = W.words_of(text)
        if not words:  # only question words: "comment ?" asks nothing; read them as words then
            words = W.words_of(text, talk=False)
        concepts = [self.alternatives(word) for word in words]
        for concept in concepts:
            concept.typed = set(concept.alternatives)
        primaries = [[s for s, w in c.alternatives.items() if w >= 0.8][:2] for c in concepts]
        merged: list[Concept] = []
        i = 0
        while i < len(concepts):
            match = self.thesaurus_match(concepts, i)
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
                    concept.typed |= part.typed
                    for stem, weight in part.alternatives.items():
                        concept.add(stem, weight * PHRASE_PART_WEIGHT, part.games.get(stem))
            for stem, games in targets.items():
                concept.add(stem, SYNONYM_WEIGHT, games)
            merged.append(concept)
            i += length
        unique: dict[tuple[str, ...], Concept] = {}
        for concept in merged:
            unique.setdefault(tuple(concept.words), concept)
        return list(unique.values()), primaries

    def thesaurus_match(self, concepts: list[Concept], i: int) -> tuple[int, dict[str, set[str] | None]] | None:
        """The longest thesaurus phrase starting at concept `i`, with every target of that length
        and the games each is true of (None: every game)."""
        best: tuple[int, dict[str, set[str] | None]] | None = None
        for first in sorted(concepts[i].keys()):
            for key, targets, game in self.rules.get(first, ()):
                if i + len(key) > len(concepts):
                    continue
                if all(key[k] in concepts[i + k].keys() for k in range(1, len(key))):
                    if best is None or len(key) > best[0]:
                        best = (len(key), {})
                    if len(key) == best[0]:
                        for target in targets:
                            if not game or (target in best[1] and best[1][target] is None):
                                best[1][target] = None
                            else:
                                best[1][target] = (best[1].get(target) or set()) | {game}
        return best

    # ------------------------------------------------------------ ranking

    def df(self, stem: str) -> int:
        if stem not in self._df:
            postings = self.terms.get(stem, [])
            self._df[stem] = len({postings[k] for k in range(0, len(postings), 3)})
        return self._df[stem]

    def idf(self, stem: str) -> float:
        df = self.df(stem)
        return math.log(1 + (self.count - df + 0.5) / (df + 0.5))

    def weighted(self, stem: str) -> dict[int, float]:
        """Each entry's term frequency of `stem`, weighted by field and length-normalised (the
        postings' arithmetic, done once per stem and kept: the vocabulary bounds it)."""
        found = self._weighted.get(stem)
        if found is None:
            found = {}
            postings = self.terms.get(stem, ())
            for k in range(0, len(postings), 3):
                doc, f, tf = postings[k], postings[k + 1], postings[k + 2]
                norm = 1 - self.b[f] + self.b[f] * self.lengths[doc][f] / self.averages[f]
                found[doc] = found.get(doc, 0.0) + self.weights[f] * tf / norm
            self._weighted[stem] = found
        return found

    def bm25(self, stem: str) -> dict[int, float]:
        """Each entry's BM25 score for `stem` at full weight, kept like `weighted`."""
        found = self._bm25.get(stem)
        if found is None:
            idf = self.idf(stem)
            found = {doc: 1.0 * idf * wtf * (K1 + 1) / (K1 + wtf) for doc, wtf in self.weighted(stem).items()}
            self._bm25[stem] = found
        return found

    def concept_scores(self, concept: Concept, allowed: list[bool] | None) -> dict[int, float]:
        """Each entry's score for the concept: its best alternative's."""
        scores: dict[int, float] = {}
        docs = self.docs
        for stem, weight in sorted(concept.alternatives.items()):
            games = concept.games.get(stem)
            if allowed is None and games is None and weight == 1.0:  # the common case, already scored
                full = self.bm25(stem)
                if not scores:
                    scores.update(full)
                    continue
                for doc, score in full.items():
                    if score > scores.get(doc, 0.0):
                        scores[doc] = score
                continue
            weighted = self.weighted(stem)
            if not weighted:
                continue
            idf = self.idf(stem)
            for doc, wtf in weighted.items():
                if (allowed is not None and not allowed[doc]) or (games is not None and docs[doc][3] not in games):
                    continue
                score = weight * idf * wtf * (K1 + 1) / (K1 + wtf)
                if score > scores.get(doc, 0.0):
                    scores[doc] = score
        return scores

    def mask(self, game: str | None, document: str | None, kind: str | None, include_deleted: bool) -> list[bool] | None:
        """Which entries a search may return, by index (None: all of them); kept per filter."""
        key = (game, document, kind, include_deleted)
        if key not in self._masks:
            allowed = [(game is None or row[3] == game) and (document is None or row[4] == document)
                       and (kind is None or row[5] == kind) and (include_deleted or row[7] != "deleted")
                       for row in self.docs]
            self._masks[key] = None if all(allowed) else allowed
        return self._masks[key]

    def concept_weight(self, concept: Concept) -> float:
        weights = [weight * self.idf(stem) for stem, weight in concept.alternatives.items() if stem in self.terms]
        return max(weights) if weights else self.unknown_idf

    def total_weight(self, concepts: list[Concept]) -> float:
        """What an entry holding the whole query holds. A word the corpus cannot reach at all
        (an English filler, a word of no rule) asks nothing an entry could hold: it counts only
        while the words reached are fewer than the words unreached (then the query is nonsense
        to these books, and nothing comes back)."""
        reached = [c for c in concepts if any(stem in self.terms for stem in c.alternatives)]
        kept = reached if UNREACHED_IGNORED and self.mostly_reached(concepts) else concepts
        return sum(self.concept_weight(c) for c in kept) or 1.0

    def rank(self, concepts: list[Concept], primaries: list[list[str]], allowed: list[bool] | None) -> list[tuple[int, float, float]]:
        """(doc, score, coverage) of every entry holding enough of the query, best first."""
        total_weight = self.total_weight(concepts)
        sums: dict[int, float] = {}
        held: dict[int, float] = {}
        for concept in concepts:
            weight = self.concept_weight(concept)
            for doc, score in self.concept_scores(concept, allowed).items():
                if doc in sums:
                    sums[doc] += score
                    held[doc] += weight
                else:
                    sums[doc] = score
                    held[doc] = weight
        for first, second in zip(primaries, primaries[1:], strict=False):
            # Each word's stems (its own and, say, its unaccented spelling's, or a typo's nearest
            # words): an entry holding the two words together gets the best bonus once.
            together: dict[int, float] = {}
            for a in first:
                for b in second:
                    postings = self.pairs.get(f"{a} {b}")
                    if not postings:
                        continue
                    bonus = PAIR_WEIGHT * (self.idf(a) + self.idf(b)) / 2
                    for k in range(0, len(postings), 2):
                        if postings[k] in sums and bonus > together.get(postings[k], 0.0):
                            together[postings[k]] = bonus
            for doc, bonus in sorted(together.items()):
                sums[doc] += bonus
        key = " ".join(p[0] for p in primaries if p)
        for doc in self.exact.get(key, ()):
            if doc in sums:
                sums[doc] += EXACT_WEIGHT * total_weight
        for doc in self.named.get(key, ()):
            if doc in sums:
                sums[doc] += NAMED_WEIGHT * total_weight
        floor = MIN_COVERAGE if len(concepts) > 1 else -1.0
        priors = self.priors
        for attempt in (1, 2):
            ranked = []
            for doc, score in sums.items():
                coverage = held[doc] / total_weight
                if coverage > 1.0:
                    coverage = 1.0
                if coverage >= floor:
                    ranked.append((doc, score * coverage ** COVERAGE_POWER * priors[doc], coverage))
            # A long question whose words the books know, none holding a third of it ("mon gars
            # passe juste devant un orc, il est obligé de stopper ?"): the rules holding the most
            # of it are still an answer. Nonsense, most of whose words no rule has, stays empty.
            if ranked or attempt == 2 or not self.mostly_reached(concepts):
                break
            floor = FALLBACK_COVERAGE
        if len(concepts) > 1:
            ranked = self.sub_rules_first(ranked, concepts)
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked

    def fields(self, stem: str) -> dict[int, int]:
        """Each entry's fields holding `stem`, as bits (1 << field), kept like `weighted`."""
        found = self._fields.get(stem)
        if found is None:
            found = {}
            postings = self.terms.get(stem, ())
            for k in range(0, len(postings), 3):
                found[postings[k]] = found.get(postings[k], 0) | 1 << postings[k + 1]
            self._fields[stem] = found
        return found

    def holds_own(self, doc: int, concept: Concept) -> bool:
        """The entry holds `concept` in its own words: its headings, which an untitled rule
        inherits from its topic, left out."""
        game = self.docs[doc][3]
        for stem in concept.alternatives:
            games = concept.games.get(stem)
            if (games is None or game in games) and self.fields(stem).get(doc, 0) & ~(1 << CONTEXT_FIELD):
                return True
        return False

    def sub_rules_first(self, ranked: list[tuple[int, float, float]], concepts: list[Concept]) -> list[tuple[int, float, float]]:
        """An untitled sub-rule ("47.3") that holds in its own text every concept of the query its
        topic ("47 Incliné") holds is the more specific answer: it goes just above the topic. Not
        when the query names the topic (a word typed, not a synonym of it, in the topic's title or
        other names: "carte inclinée redresser" asks for the topic)."""
        scores = {doc: score for doc, score, _ in ranked}
        typed = sorted(set().union(*(c.typed for c in concepts)))
        topics: dict[int, list[Concept] | None] = {}  # each topic's concepts, once per query (siblings share it)
        lifted: dict[int, float] = {}
        for doc, score, _ in ranked:
            parent = self.parents[doc]
            if parent < 0 or parent not in scores or scores[parent] <= score or self.lengths[doc][TITLE_FIELD]:
                continue
            if parent not in topics:
                held = [c for c in concepts if self.holds_own(parent, c)]
                named = any(self.fields(stem).get(parent, 0) & HEADLINE_FIELDS for stem in typed)
                topics[parent] = held if held and not named else None
            topic = topics[parent]
            if topic is None or not all(self.holds_own(doc, c) for c in topic):
                continue
            lifted[doc] = scores[parent] + SUB_RULE_LIFT * score
        return [(doc, lifted.get(doc, score), coverage) for doc, score, coverage in ranked] if lifted else ranked

    def mostly_reached(self, concepts: list[Concept]) -> bool:
        """More than half of the query's words reach the corpus exactly (not through a typo)."""
        return 2 * sum(1 for c in concepts if not c.approximate and any(s in self.terms for s in c.alternatives)) > len(concepts)

    # ------------------------------------------------------------ searching

    def check_filters(self, game: str | None, document: str | None, kind: str | None) -> None:
        from extract.errors import UsageError

        if game is not None and game not in self.meta["games"]:
            raise UsageError(f"unknown game {game!r} (known: {', '.join(self.meta['games'])})")
        if document is not None:
            documents = {d.split("/")[1] for d in self.meta["documents"] if game is None or d.startswith(f"{game}/")}
            if document not in documents:
                raise UsageError(f"unknown document {document!r} (known: {', '.join(sorted(documents))})")
        if kind is not None and kind not in self.meta["kinds"]:
            raise UsageError(f"unknown kind {kind!r} (known: {', '.join(self.meta['kinds'])})")

    def search(self, text: str, game: str | None = None, document: str | None = None, kind: str | None = None,
               limit: int = 10, include_deleted: bool = False) -> list[Hit]:
        self.check_filters(game, document, kind)
        text = clean_query(text)
        limit = max(1, min(limit, 200))
        docs = self.docs
        allowed = self.mask(game, document, kind, include_deleted)

        number = W.number_asked(text)
        if number is not None:
            numbered = self.mask(game, document, kind, True)  # a number asked shows a deleted rule too
            found = [d for d in self.numbers.get(number, []) if numbered is None or numbered[d]]
            if found:
                return [self.hit(d, 0.0, frozenset(), False) for d in found[:limit]]
        concepts, primaries = self.understand(text)
        concepts = [c for c in concepts if c.words]
        if not concepts:
            return []
        ranked = self.rank(concepts, primaries, allowed)
        if game is None:
            ranked = best_of_each_game(ranked, docs)
        marked = frozenset(stem for c in concepts for stem in c.alternatives)
        approximate = any(c.approximate and c.alternatives for c in concepts)
        return [self.hit(doc, score, marked, approximate) for doc, score, _ in ranked[:limit]]

    def hit(self, doc: int, score: float, marked: frozenset[str], approximate: bool) -> Hit:
        entry_id, url, title, game, document, kind, number, status, _ = self.docs[doc]
        return Hit(entry_id, title or None, game, document, kind, number or None, status, url, round(score, 4),
                   approximate, self.texts[doc], marked)


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


def best_of_each_game(ranked: list[tuple[int, float, float]], docs: list[list[Any]]) -> list[tuple[int, float, float]]:
    """The best entry first; then the best of each other game scoring near it, one per game;
    then the rest in order."""
    if not ranked:
        return ranked
    top = ranked[0][1]
    seen = {docs[ranked[0][0]][3]}
    lifted = [ranked[0]]
    for item in ranked[1:]:
        game = docs[item[0]][3]
        if game not in seen and item[1] >= GAME_BEST * top:
            lifted.append(item)
        seen.add(game)
    chosen = {item[0] for item in lifted}
    return lifted + [item for item in ranked if item[0] not in chosen]


# ---------------------------------------------------------------- building


def texts_of(entry: Any) -> list[str]:
    """What the lemma forms of an entry are taken from: its title and its text blocks."""
    return [entry.title or "", *[b.text for b in entry.blocks if b.type not in ("related", "see")]]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The index is some 300,000 small objects and no cycle: the garbage collector's passes over
    them found nothing and cost a fifth of the stage after an edit."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def build_index(out: Path, entries: list[Any], lemmatizer: Any, synonyms: Any = (), names: dict[str, list[str]] | None = None,
                labels: dict[str, str] | None = None, kinds: dict[str, str] | None = None, memo: Any = None,
                scanned: set[str] | frozenset[str] = frozenset()) -> dict[str, int]:
    """Write the search model of `entries` into `out` (a fresh folder). `kinds`: each document's
    kind ("runewars/apprentissage" -> "learn-to-play"); `scanned`: the documents read by OCR
    ("warcry/regles"). `memo`: where the analysis of each text and
    entry is kept between builds (`get(name)`/`put(name, value)`, such as the pipeline's
    `extract.cache.Cache.keyed` under the code's key), or None."""
    import shutil

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with collector_paused():  # returns with the model freed: the collector, back, finds little new
        forms = write_search_model(out, entries, lemmatizer, synonyms, names, labels, kinds, memo, scanned)
    meta = {"schema_version": SCHEMA_VERSION, "entries": len(entries),
            "games": sorted({e.game for e in entries}),
            "documents": sorted({f"{e.game}/{e.document}" for e in entries}),
            "kinds": sorted({e.kind for e in entries})}
    (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return {"entries": len(entries), "forms": forms}


def write_search_model(out: Path, entries: list[Any], lemmatizer: Any, synonyms: Any, names: dict[str, list[str]] | None,
                       labels: dict[str, str] | None, kinds: dict[str, str] | None, memo: Any,
                       scanned: set[str] | frozenset[str]) -> int:
    """`build_index`'s model, written into `out`, from what `memo` keeps where it can; the number
    of word forms it knows."""
    kept = memo.get(ANALYSED) if memo is not None else None
    kept = kept if isinstance(kept, dict) else {}
    by_document: dict[str, list[int]] = defaultdict(list)  # the places of its entries
    for n, entry in enumerate(entries):
        by_document[f"{entry.game}/{entry.document}"].append(n)
    # Each document's entries and texts under a name of its own: an edit writes its document's again only.
    shards = {document: memo.get(f"{ENTRIES}/{document}") if memo is not None else None for document in by_document}
    shards = {document: shard if isinstance(shard, dict) else {"entries": {}, "forms": {}}
              for document, shard in shards.items()}
    known = Known(kept.get("positions"), kept.get("stems"),
                  {k: v for shard in shards.values() for k, v in shard["entries"].items()})
    kept_forms = {k: v for shard in shards.values() for k, v in shard["forms"].items()}
    texts = [t for entry in entries for t in texts_of(entry) if t]
    tokens = lemmatizer.tokens(t for t in texts if t not in kept_forms)
    forms_of: dict[str, list[tuple[str, str]]] = {}  # text -> its (folded word, folded lemma) that differ
    forms: dict[str, str] = {}
    for text in texts:
        pairs = forms_of.get(text)
        if pairs is None:
            pairs = kept_forms.get(text)
            if pairs is None:
                pairs = [(surface, lemma) for token in tokens.get(text, [])
                         if (surface := W.fold(token.text)) != (lemma := W.fold(token.lemma))
                         and surface.isalpha() and lemma.isalpha()]
            forms_of[text] = pairs
        for surface, lemma in pairs:
            forms.setdefault(surface, lemma)
    model = build_model(entries, forms, synonyms, names, labels, kinds, known, scanned)
    if memo is not None:  # this model's texts and entries only: the memo does not grow with edits
        if known.seen.keys() != known.kept.keys() or known.stems.keys() != known.kept_stems.keys():
            memo.put(ANALYSED, {"positions": known.seen, "stems": known.stems})
        for document, places in by_document.items():
            shard = {"entries": {known.keys[n]: known.contributions[known.keys[n]] for n in places},
                     "forms": {t: forms_of[t] for n in places for t in texts_of(entries[n]) if t}}
            old = shards[document]
            if (shard["entries"].keys() != old["entries"].keys() or shard["forms"].keys() != old["forms"].keys()
                    or not known.made.isdisjoint(shard["entries"])):
                memo.put(f"{ENTRIES}/{document}", shard)
    write_model(out, model)
    return len(model["vocab"])


# ---------------------------------------------------------------- text helpers


def analyse(text: str) -> list[str]:
    """Every indexed form of the words of `text` (a word may give two: accented and not)."""
    return [stem for _, stems in positions(text) for stem in stems]


def primary_forms(text: str) -> list[str]:
    """One form per word, in order."""
    return [stems[0] for _, stems in positions(text)]


def clean_query(text: str) -> str:
    """Control characters out, length bounded: whatever is typed, a query comes out."""
    text = "".join(c if c.isprintable() else " " for c in text)
    return re.sub(r"\s+", " ", text).strip()[:500]


def snippet(text: str, marked: frozenset[str] | set[str], width: int = 180) -> tuple[str, str]:
    """The window of the text with most matched words, marked `[…]` and `<mark>…</mark>`, each
    word once."""
    import html as html_lib

    spans = [(start, end) for stems, start, end in analysed_spans(text) if marked and not marked.isdisjoint(stems)]
    start = 0
    if spans:
        # The span whose window holds most spans (the first such): spans are in text order.
        starts = [s for s, _ in spans]
        best = max(range(len(spans)), key=lambda i: bisect_left(starts, starts[i] + width) - i)
        start = max(0, spans[best][0] - 40)
        start = text.rfind(" ", 0, start) + 1 if start else 0
    end = min(len(text), start + width)
    if end < len(text):
        end = text.rfind(" ", start, end) if text.rfind(" ", start, end) > start else end
    window = [(s, e) for s, e in spans if start <= s and e <= end]
    plain, html, at = [], [], start
    for s, e in window:
        plain.append(text[at:s] + "[" + text[s:e] + "]")
        html.append(html_lib.escape(text[at:s]) + "<mark>" + html_lib.escape(text[s:e]) + "</mark>")
        at = e
    plain.append(text[at:end])
    html.append(html_lib.escape(text[at:end]))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return (prefix + "".join(plain).replace("\n", " ") + suffix, prefix + "".join(html).replace("\n", " ") + suffix)


@lru_cache(maxsize=2048)
def analysed_spans(text: str) -> tuple[tuple[tuple[str, ...], int, int], ...]:
    """Each word of `text` with its stems and characters (one span per word: marked once)."""
    from extract.search.model import UNICODE_ELISION, UNICODE_TOKEN, stems_of_word

    found = []
    for match in UNICODE_TOKEN.finditer(text):
        token = match.group(0)
        bare = UNICODE_ELISION.sub("", token)
        start = match.start() + (len(token) - len(bare))
        folded = W.fold(bare)
        if folded in W.FOLDED_STOP_WORDS:
            continue
        found.append((stems_of_word(bare.lower(), folded), start, match.end()))
    return tuple(found)


@lru_cache(maxsize=4)
def open_index(folder: str, cache: str | None = None) -> SearchIndex:
    return SearchIndex(Path(folder), Path(cache) if cache else None)


def search(query_text: str, game: str | None = None, document: str | None = None, limit: int = 10, *,
           kind: str | None = None, include_deleted: bool = False, root: Path | None = None) -> list[Hit]:
    """Ranked entries for `query_text`, from `root/build/search` (default: the current folder's).

    The index is opened once per process and kept: many queries cost one opening.
    """
    from extract.nlp import default_cache

    root = (root or Path.cwd()).resolve()
    opened = open_index(str(root / "build" / "search"), str(default_cache(root)))
    return opened.search(query_text, game=game, document=document, kind=kind, limit=limit, include_deleted=include_deleted)


__all__ = ["Hit", "SearchIndex", "build_index", "open_index", "search", "texts_of", "analyse", "primary_forms",
           "clean_query", "snippet", "LEMMA_WEIGHT"]
