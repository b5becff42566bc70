"""The search: French as people type it at the table, ranked from `build/search/model.json`.

What a query means (`understand`): its words (`words.py`: folded, table talk and stop words
out), each reaching the corpus's stems through the corpus's own word forms, with the lemma's stem
as a weaker alternative; a word the corpus never uses reaches the longest stem it starts with
("attaqueront" → attaqu), words one or two edits away ("debordment" → débordement; the first
letter kept) and words that sound the same ("menasse" → menace): that word alone is approximate,
never the whole query. Then the thesaurus (`corpus/thesaurus.toml`, each game's `terms.toml`:
a game's own synonyms reach that game's entries only) adds the books' words for the reader's
("fuir le combat" → désengagement).

How it ranks (`rank`): each concept scores an entry by its best alternative (BM25 over the four
fields, titles weighing most); the scores add up, with a bonus for two words found together and
for a query that is a whole title or name; the sum is multiplied by the share of the query's
concepts the entry holds (so a sub-rule holding every word beats its parent topic holding one;
a word that reaches nothing counts only while most words are not surely reached)
and by the entry's prior (an index or contents page, a "Voir « X »" redirect weigh less). Without
a game filter, the best entry of each game that scores near the top comes first, one per game.

The site's search box (`site/assets/regles-search.js`) does the same on the same model: a test
and `make bench` compare them.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.search import words as W
from extract.search.model import LEMMA_WEIGHT, MODEL_VERSION, build_model, positions, write_model

SCHEMA_VERSION = "2"
K1 = 1.5  # BM25 saturation: 1.4 to 1.7 all beat 1.2 on the relevance set
PREFIX_WEIGHT = 0.9  # "attaqueront" → attaqu
NEAR_WEIGHTS = (1.0, 0.8, 0.6)  # by edit distance
SOUND_WEIGHT = 0.8
SYNONYM_WEIGHT = 0.8
PHRASE_PART_WEIGHT = 0.7  # each word of a thesaurus phrase, inside the phrase's concept
PAIR_WEIGHT = 0.5  # two query words found together, per the mean idf of the two
EXACT_WEIGHT = 1.0  # the query is a whole title or name, per idf of the query
COVERAGE_POWER = 1.0
MIN_COVERAGE = 0.34  # below it an entry holds too little of the query to be an answer
GAME_BEST = 0.8  # another game's best entry joins the top when it scores at least this share of the best
NEAR_CANDIDATES = 5
UNREACHED_IGNORED = True


@dataclass
class Hit:
    id: str
    title: str | None
    game: str
    document: str
    kind: str
    number: str | None
    status: str
    url: str
    score: float
    snippet: str  # matched words between [ ]
    snippet_html: str  # matched words in <mark>
    approximate: bool = False  # some word was matched approximately: "résultats approchés"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Concept:
    """One thing the query asks about: a word, or a phrase of the thesaurus."""

    words: list[str]
    alternatives: dict[str, float] = field(default_factory=dict)  # stem -> weight
    approximate: bool = False
    games: dict[str, set[str]] = field(default_factory=dict)  # stem -> the only games it is true of

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
        self.numbers: dict[str, list[int]] = model["numbers"]
        self.vocab: dict[str, list[Any]] = model["vocab"]
        self.count = len(self.docs)
        self.unknown_idf = math.log(1 + (self.count + 0.5) / 0.5)
        self.rules: dict[str, list[tuple[list[str], list[str], str]]] = defaultdict(list)
        for key, targets, game in model["thesaurus"]:
            self.rules[key[0]].append((key, targets, game))
        self.by_letter: dict[str, list[str]] = defaultdict(list)
        self.by_sound: dict[str, list[str]] = defaultdict(list)
        for word in model["typo_words"]:
            self.by_letter[word[0]].append(word)
            key = W.sound(word)
            if len(key) >= 3:
                self.by_sound[key].append(word)
        self._df: dict[str, int] = {}
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
            for candidate in self.by_letter.get(word[0], ()):
                if abs(len(candidate) - len(word)) <= limit:
                    d = W.distance(word, candidate, limit)
                    if d <= limit:
                        found[candidate] = NEAR_WEIGHTS[d]
        key = W.sound(word)
        if len(key) >= 3:
            for candidate in self.by_sound.get(key, ()):
                found[candidate] = max(found.get(candidate, 0.0), SOUND_WEIGHT)
        return sorted(found.items(), key=lambda item: (-item[1], item[0]))[:NEAR_CANDIDATES]

    def understand(self, text: str) -> tuple[list[Concept], list[list[str]]]:
        """The query's concepts, and the primary stems of its words in order (for words together)."""
        words = W.words_of(text)
        if not words:  # only question words: "comment ?" asks nothing; read them as words then
            words = W.words_of(text, talk=False)
        concepts = [self.alternatives(word) for word in words]
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
            else:
                concept = Concept([w for c in concepts[i:i + length] for w in c.words])
                for part in concepts[i:i + length]:
                    concept.approximate |= part.approximate
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

    def concept_scores(self, concept: Concept, allowed) -> dict[int, float]:
        scores: dict[int, float] = {}
        for stem, weight in sorted(concept.alternatives.items()):
            postings = self.terms.get(stem)
            if not postings:
                continue
            games = concept.games.get(stem)
            weighted: dict[int, float] = {}
            for k in range(0, len(postings), 3):
                doc, f, tf = postings[k], postings[k + 1], postings[k + 2]
                if not allowed(doc) or (games is not None and self.docs[doc][3] not in games):
                    continue
                norm = 1 - self.b[f] + self.b[f] * self.lengths[doc][f] / self.averages[f]
                weighted[doc] = weighted.get(doc, 0.0) + self.weights[f] * tf / norm
            idf = self.idf(stem)
            for doc, wtf in weighted.items():
                score = weight * idf * wtf * (K1 + 1) / (K1 + wtf)
                if score > scores.get(doc, 0.0):
                    scores[doc] = score
        return scores

    def concept_weight(self, concept: Concept) -> float:
        weights = [weight * self.idf(stem) for stem, weight in concept.alternatives.items() if stem in self.terms]
        return max(weights) if weights else self.unknown_idf

    def total_weight(self, concepts: list[Concept]) -> float:
        """What an entry holding the whole query holds. A word the corpus cannot reach at all
        (an English filler, a word of no rule) asks nothing an entry could hold: it counts only
        while the words reached are fewer than the words unreached (then the query is nonsense
        to these books, and nothing comes back)."""
        reached = [c for c in concepts if any(stem in self.terms for stem in c.alternatives)]
        sure = [c for c in reached if not c.approximate]
        kept = reached if UNREACHED_IGNORED and 2 * len(sure) > len(concepts) else concepts
        return sum(self.concept_weight(c) for c in kept) or 1.0

    def rank(self, concepts: list[Concept], primaries: list[list[str]], allowed) -> list[tuple[int, float, float]]:
        """(doc, score, coverage) of every entry holding enough of the query, best first."""
        total_weight = self.total_weight(concepts)
        sums: dict[int, float] = defaultdict(float)
        held: dict[int, float] = defaultdict(float)
        for concept in concepts:
            weight = self.concept_weight(concept)
            for doc, score in self.concept_scores(concept, allowed).items():
                sums[doc] += score
                held[doc] += weight
        for first, second in zip(primaries, primaries[1:], strict=False):
            for a in first[:1]:
                for b in second[:1]:
                    postings = self.pairs.get(f"{a} {b}")
                    if not postings:
                        continue
                    bonus = PAIR_WEIGHT * (self.idf(a) + self.idf(b)) / 2
                    for k in range(0, len(postings), 2):
                        if postings[k] in sums:
                            sums[postings[k]] += bonus
        key = " ".join(p[0] for p in primaries if p)
        for doc in self.exact.get(key, ()):
            if doc in sums:
                sums[doc] += EXACT_WEIGHT * total_weight
        ranked = []
        for doc, score in sums.items():
            coverage = min(1.0, held[doc] / total_weight)
            if len(concepts) > 1 and coverage < MIN_COVERAGE:
                continue
            ranked.append((doc, score * coverage ** COVERAGE_POWER * self.docs[doc][8], coverage))
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked

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

        def allowed(doc: int, number: bool = False) -> bool:
            row = docs[doc]
            return ((game is None or row[3] == game) and (document is None or row[4] == document)
                    and (kind is None or row[5] == kind) and (include_deleted or number or row[7] != "deleted"))

        number = W.number_asked(text)
        if number is not None:
            found = [d for d in self.numbers.get(number, []) if allowed(d, number=True)]
            if found:
                return [self.hit(d, 0.0, set(), False) for d in found[:limit]]
        concepts, primaries = self.understand(text)
        concepts = [c for c in concepts if c.words]
        if not concepts:
            return []
        ranked = self.rank(concepts, primaries, allowed)
        if game is None:
            ranked = best_of_each_game(ranked, docs)
        marked = {stem for c in concepts for stem in c.alternatives}
        approximate = any(c.approximate and c.alternatives for c in concepts)
        return [self.hit(doc, score, marked, approximate) for doc, score, _ in ranked[:limit]]

    def hit(self, doc: int, score: float, marked: set[str], approximate: bool) -> Hit:
        entry_id, url, title, game, document, kind, number, status, _ = self.docs[doc]
        plain, html = snippet(self.texts[doc], marked)
        return Hit(entry_id, title or None, game, document, kind, number or None, status, url, round(score, 4),
                   plain, html, approximate)


NUMBERISH = re.compile(r"^[\d.]+[a-z]?$")
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


def build_index(out: Path, entries: list[Any], lemmatizer: Any, synonyms: Any = (), names: dict[str, list[str]] | None = None,
                labels: dict[str, str] | None = None) -> dict[str, int]:
    """Write the search model of `entries` into `out` (a fresh folder)."""
    import shutil

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tokens = lemmatizer.tokens(t for entry in entries for t in texts_of(entry) if t)
    forms: dict[str, str] = {}
    for entry in entries:
        for part in texts_of(entry):
            for token in tokens.get(part, []):
                surface, lemma = W.fold(token.text), W.fold(token.lemma)
                if surface != lemma and surface.isalpha() and lemma.isalpha():
                    forms.setdefault(surface, lemma)
    model = build_model(entries, forms, synonyms, names, labels)
    write_model(out, model)
    meta = {"schema_version": SCHEMA_VERSION, "entries": len(entries),
            "games": sorted({e.game for e in entries}),
            "documents": sorted({f"{e.game}/{e.document}" for e in entries}),
            "kinds": sorted({e.kind for e in entries})}
    (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return {"entries": len(entries), "forms": len(model["vocab"])}


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


def snippet(text: str, marked: set[str], width: int = 180) -> tuple[str, str]:
    """The window of the text with most matched words, marked `[…]` and `<mark>…</mark>`, each
    word once."""
    import html as html_lib

    spans = [(start, end) for stems, start, end in analysed_spans(text) if marked and set(stems) & marked]
    start = 0
    if spans:
        best = max(range(len(spans)), key=lambda i: sum(1 for s, _ in spans if spans[i][0] <= s < spans[i][0] + width))
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
