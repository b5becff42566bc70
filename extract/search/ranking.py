"""How an opened model ranks: each concept scores an entry by its best alternative (BM25 over
the five fields, titles weighing most, the opening sentence counted again; a book's expression of
several words, a thesaurus target such as "attaque à distance", by twice its words' mean score
where the entry holds them together, whatever its length, by half their mean where it does not);
the scores add up, with a bonus for two words found together and for a query that is a whole
title or name; the sum
is multiplied by the square root of the share of the query's concepts the entry holds (so a
sub-rule holding every word beats its parent topic holding one; a word that reaches nothing
counts only while most words are not surely reached) and by the entry's prior (an index or
contents page, a "Voir « X »" redirect, a learn-to-play booklet beside its rules reference weigh
less); an entry holding too little of the query is no answer, unless fewer than a page of
entries hold more (then the next floor's come in, ranked with them). An untitled sub-rule
holding in its own text every concept its topic holds ranks just
above that topic, unless the query names the topic (a word typed, not a synonym, in its title or
other names). Without a game filter, the best entry of each game that scores near the top comes
first, one per game.

`Ranking` is the part of `engine.SearchIndex` that scores; the site's search box
(`site/assets/regles-search.js`) does the same on the same model.
"""

from __future__ import annotations

import math
from typing import Any

from extract.search.understanding import Concept

K1 = 1.5  # BM25 saturation: 1.4 to 1.7 all beat 1.2 on the relevance set
PAIR_WEIGHT = 0.5  # two query words found together, per the mean idf of the two
EXACT_WEIGHT = 1.0  # the query is a whole title, per idf of the query
NAMED_WEIGHT = 0.8  # the query is a whole other name (an index term, an English name): the entry so named
COVERAGE_POWER = 0.5  # the share of the query held, square-rooted: one filler word missing does not crush a rule
MIN_COVERAGE = 0.34  # below it an entry holds too little of the query to be an answer
FALLBACK_COVERAGE = 0.17  # …unless no entry holds more of a query whose words the books know
FLOOR_FILL = 10  # a floor leaving fewer entries than a page of results gives way to the next one
GAME_BEST = 0.8  # another game's best entry joins the top when it scores at least this share of the best
SUB_RULE_LIFT = 0.001  # a sub-rule put above its topic: the topic's score, plus this share of its own
TITLE_FIELD = 0  # fields of the model, as model.FIELDS orders them
CONTEXT_FIELD = 2  # an untitled rule's headings: inherited, not its own words
HEADLINE_FIELDS = 0b11  # title and names: where a query names an entry
TITLE_BIT = 1 << TITLE_FIELD
UNREACHED_IGNORED = True
HEADLINE_WEIGHT = 0.25  # a word typed in an entry's title or names: this share of its idf again
CHANGE_WEIGHT = 2.0  # a question about changes: an entry errata changed, or one writing an erratum, weighs this more
PHRASE_APART = 0.5  # a book's expression whose words an entry holds apart: this share of their mean score
PHRASE_TOGETHER = 2.0  # …held together: this many times their mean (two words: their sum; three or more: no more than two)


class Ranking:
    """The scoring side of an opened model: postings, lengths and priors (`open_postings`)."""

    def open_postings(self, model: dict[str, Any]) -> None:
        """The model's postings and entry rows, ready to score with."""
        self.docs: list[list[Any]] = model["docs"]
        self.lengths: list[list[int]] = model["lengths"]
        self.weights: list[float] = model["weights"]
        self.b: list[float] = model["b"]
        self.averages = [a or 1.0 for a in model["averages"]]
        self.terms: dict[str, list[int]] = model["terms"]
        self.pairs: dict[str, list[int]] = model["pairs"]
        self.exact: dict[str, list[int]] = model["exact"]
        self.named: dict[str, list[int]] = model["named"]
        self.count = len(self.docs)
        self.unknown_idf = math.log(1 + (self.count + 0.5) / 0.5)
        self.priors: list[float] = [row[8] for row in self.docs]
        self.parents: list[int] = model["parents"]
        self.title_parts: list[int] = model["title_parts"]
        self._df: dict[str, int] = {}
        self._weighted: dict[str, dict[int, float]] = {}  # stem -> each entry's field-weighted tf
        self._bm25: dict[str, dict[int, float]] = {}
        self._fields: dict[str, dict[int, int]] = {}  # stem -> each entry's fields holding it, as bits

    def df(self, stem: str) -> int:
        if stem not in self._df:
            postings = self.terms.get(stem, [])
            self._df[stem] = len({postings[k] for k in range(0, len(postings), 3)})
        return self._df[stem]

    def known(self, stem: str) -> bool:
        """Some entry holds the stem (every stem of an expression)."""
        return all(part in self.terms for part in stem.split(" "))

    def idf(self, stem: str) -> float:
        if " " in stem:  # an expression: its words' mean
            parts = stem.split(" ")
            return sum(self.idf(part) for part in parts) / len(parts)
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
        """Each entry's score for the concept: its best alternative's. An alternative of several
        stems (a book's expression, "attaqu distanc") scores as `phrase` says."""
        scores: dict[int, float] = {}
        docs = self.docs
        for stem, weight in sorted(concept.alternatives.items()):
            games = concept.games.get(stem)
            if " " in stem:
                for doc, full in self.phrase(stem).items():
                    if (allowed is not None and not allowed[doc]) or (games is not None and docs[doc][3] not in games):
                        continue
                    score = weight * full
                    if score > scores.get(doc, 0.0):
                        scores[doc] = score
                continue
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

    def phrase(self, stems: str) -> dict[int, float]:
        """Each entry's score for an expression of several stems at full weight. An entry holding
        its words together holds the expression: PHRASE_TOGETHER times their mean score, as two
        words typed side by side ("mise en place": the sum, which its common "place" does not
        drag down), and no more for a longer one (a card named "Tir à Bout Portant" in a group
        beside "engagé" would weigh three words against one); one holding them apart ("Garde
        du Corps" holds "corps" of "corps à corps", not the expression), PHRASE_APART of their
        mean."""
        found = self._bm25.get(stems)
        if found is None:
            parts = stems.split(" ")
            found = {}
            for part in parts:
                for doc, score in self.bm25(part).items():
                    found[doc] = found.get(doc, 0.0) + score
            together: set[int] | None = None
            for first, second in zip(parts, parts[1:], strict=False):
                postings = self.pairs.get(f"{first} {second}", [])
                held = {postings[k] for k in range(0, len(postings), 2)}
                together = held if together is None else together & held
            for doc in found:
                share = PHRASE_TOGETHER if doc in (together or ()) else PHRASE_APART
                found[doc] = share * found[doc] / len(parts)
            self._bm25[stems] = found
        return found

    def concept_weight(self, concept: Concept) -> float:
        weights = [weight * self.idf(stem) for stem, weight in concept.alternatives.items() if self.known(stem)]
        return max(weights) if weights else self.unknown_idf

    def total_weight(self, concepts: list[Concept]) -> float:
        """What an entry holding the whole query holds. A word the corpus cannot reach at all
        (an English filler, a word of no rule) asks nothing an entry could hold: it counts only
        while the words reached are fewer than the words unreached (then the query is nonsense
        to these books, and nothing comes back)."""
        reached = [c for c in concepts if any(self.known(stem) for stem in c.alternatives)]
        kept = reached if UNREACHED_IGNORED and self.mostly_reached(concepts) else concepts
        return sum(self.concept_weight(c) for c in kept) or 1.0

    def rank(self, concepts: list[Concept], primaries: list[list[str]], allowed: list[bool] | None,
             confined: bool = False) -> list[tuple[int, float, float]]:
        """(doc, score, coverage) of every entry holding enough of the query, best first; `confined`:
        the search is limited to a game or document, where any entry holding some of it will do."""
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
        if HEADLINE_WEIGHT:
            self.add_headline_bonus(concepts, sums)
        key = " ".join(p[0] for p in primaries if p)
        for doc in self.exact.get(key, ()):
            if doc in sums:
                sums[doc] += EXACT_WEIGHT * total_weight
        for doc in self.named.get(key, ()):
            if doc in sums:
                sums[doc] += NAMED_WEIGHT * total_weight
        # A long question whose words the books know, none holding a third of it ("mon gars passe
        # juste devant un orc, il est obligé de stopper ?"): the rules holding the most of it are
        # still an answer. Nonsense, most of whose words no rule has, stays empty, unless the
        # search is confined to a game or document (chosen, or named in the query): there a query
        # some of whose words its entries hold never comes back empty. A floor leaving fewer
        # than a page of results gives way to the next, all ranked together: in a game, the rule
        # holding one word of the question strongly ("j'avance dans la case que l'ennemi vient de
        # lâcher": avancer sur la case libérée) is not cut for two rules holding two words weakly.
        floors = [MIN_COVERAGE if len(concepts) > 1 else -1.0]
        if self.mostly_reached(concepts):
            floors.append(FALLBACK_COVERAGE)
        if confined:
            floors.append(0.0)
        priors = self.priors
        ranked = []
        for floor in floors:
            ranked = []
            for doc, score in sums.items():
                coverage = held[doc] / total_weight
                if coverage > 1.0:
                    coverage = 1.0
                if coverage >= floor:
                    ranked.append((doc, score * coverage ** COVERAGE_POWER * priors[doc], coverage))
            if len(ranked) >= FLOOR_FILL:
                break
        if len(concepts) > 1:
            ranked = self.sub_rules_first(ranked, concepts)
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked

    def add_headline_bonus(self, concepts: list[Concept], sums: dict[int, float]) -> None:
        """The rule that defines a word over the rules that use it: an entry whose title or other
        names (index terms, a definition's term) hold a word the query typed gets, per such
        word, HEADLINE_WEIGHT of that word's idf. Not an entry whose title the query holds only
        in part (no part of it whole: "Gagner et perdre" is two names): a word that is part of a
        rule's name ("round" of "Fin de round") does not make that rule the one asked about
        ("qui joue en premier dans le round")."""
        bests: list[dict[int, float]] = []
        in_title: dict[int, int] = {}  # how many of the query's concepts each entry's title holds
        for concept in concepts:
            best: dict[int, float] = {}
            titled: set[int] = set()
            for stem in sorted(concept.typed):
                weight = concept.alternatives.get(stem, 0.0)
                if weight < 1.0:
                    continue
                bonus = HEADLINE_WEIGHT * self.idf(stem)
                for doc, bits in self.fields(stem).items():
                    if bits & HEADLINE_FIELDS and doc in sums and bonus > best.get(doc, 0.0):
                        best[doc] = bonus
                        if bits & TITLE_BIT:
                            titled.add(doc)
            for doc in titled:
                in_title[doc] = in_title.get(doc, 0) + 1
            bests.append(best)
        for best in bests:
            for doc, bonus in sorted(best.items()):
                if len(bests) > 1 and doc in in_title and in_title[doc] < self.title_parts[doc]:
                    # no part of its title held whole: a lure among the question's other words ("round"
                    # of "Fin de round"); a one-word query still names the rule titled by it ("vue")
                    continue
                sums[doc] += bonus

    def fields(self, stem: str) -> dict[int, int]:
        """Each entry's fields holding `stem`, as bits (1 << field), kept like `weighted`."""
        found = self._fields.get(stem)
        if found is None and " " in stem:  # an expression: the entries holding all its words, in any of their fields
            parts = [self.fields(part) for part in stem.split(" ")]
            found = {doc: bits for doc, bits in parts[0].items() if all(doc in other for other in parts[1:])}
            for other in parts[1:]:
                for doc in found:
                    found[doc] |= other[doc]
            self._fields[stem] = found
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

    def favour(self, ranked: list[tuple[int, float, float]], chosen: frozenset[int], weight: float) -> list[tuple[int, float, float]]:
        """`favoured`: the chosen entries' scores multiplied by `weight`."""
        return favoured(ranked, chosen, weight)

    def mostly_reached(self, concepts: list[Concept]) -> bool:
        """More than half of the query's words reach the corpus exactly (not through a typo, nor a
        guessed base: "horaires du train pour Lyon" is nonsense to rules saying "sens horaire")."""
        return 2 * sum(1 for c in concepts if not c.approximate and not c.guessed
                       and any(self.known(s) for s in c.alternatives)) > len(concepts)

def favoured(ranked: list[tuple[int, float, float]], chosen: frozenset[int], weight: float) -> list[tuple[int, float, float]]:
    """`ranked` with the scores of the `chosen` entries multiplied by `weight`, best first again."""
    found = [(doc, score * weight if doc in chosen else score, coverage) for doc, score, coverage in ranked]
    found.sort(key=lambda item: (-item[1], item[0]))
    return found


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
