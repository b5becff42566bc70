"""The search: French as people type it at the table, ranked from `build/search/model.json`.

An opened model (`SearchIndex`) reads a query (`understanding.py`: its words, their stems,
typos, the thesaurus) and ranks the entries (`ranking.py`: BM25 over the fields, words
together, the share of the query held, priors); `building.py` writes the model, `snippets.py`
cuts the snippets. This module holds the filters and the public face.

The site's search box (`site/assets/regles-search.js`) does the same on the same model: a test
and `make bench` compare them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from extract.errors import InputError
from extract.files import read_build_json
from extract.search import words as W
from extract.search.building import ANALYSED, ENTRIES, SCHEMA_VERSION, build_index, texts_of, write_search_model
from extract.search.model import LEMMA_WEIGHT, MODEL_VERSION
from extract.search.ranking import (
    CHANGE_WEIGHT,
    COVERAGE_POWER,
    EXACT_WEIGHT,
    FALLBACK_COVERAGE,
    GAME_BEST,
    MIN_COVERAGE,
    NAMED_WEIGHT,
    PAIR_WEIGHT,
    Ranking,
    best_of_each_game,
)
from extract.search.scopes import Scope, find_scope
from extract.search.snippets import analyse, analysed_spans, primary_forms, snippet
from extract.search.understanding import Concept, Understanding, clean_query


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
    scope: str | None = None  # the games or documents the query named, as shown: "Runewars"
    topic: str | None = None  # an untitled sub-rule's nearest enclosing title ("Engagement" for 41.5)
    text: str = field(default="", repr=False, compare=False)  # the entry's text, to cut the snippet from
    marked: frozenset[str] = field(default=frozenset(), repr=False, compare=False)  # the stems to mark

    @cached_property
    def snippets(self) -> tuple[str, str]:
        return snippet(self.text, self.marked)

    @property
    def label(self) -> str:
        """How a result is named, as the site's box names it: its number and title ("41 Engagement");
        an untitled sub-rule, its number and its topic's title ("41.5 — Engagement")."""
        if self.title:
            return f"{self.number} {self.title}" if self.number else self.title
        if self.number:
            return f"{self.number} \u2014 {self.topic}" if self.topic else self.number
        return self.id.rsplit("/", 1)[-1]

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
                "snippet": self.snippet, "snippet_html": self.snippet_html, "approximate": self.approximate, "scope": self.scope,
                "topic": self.topic, "label": self.label}



class SearchIndex(Understanding, Ranking):
    """An opened model: open once, query many times."""

    def __init__(self, folder: Path, cache: Path | None = None) -> None:
        if not (folder / "meta.json").is_file() or not (folder / "model.json").is_file():
            raise InputError(str(folder), "no search index: run `regles build` first")
        self.folder = folder
        self.cache = cache
        self.meta = read_build_json(folder / "meta.json", str(folder / "meta.json"))
        model = read_build_json(folder / "model.json", str(folder / "model.json"))
        version = model.get("version") if isinstance(model, dict) else None
        if version != MODEL_VERSION:  # written by another version of regles
            raise InputError(str(folder / "model.json"), f"search model version {version}, "
                             f"this regles reads version {MODEL_VERSION}: run `regles build` again")
        self.model = model
        self.texts = model["texts"]
        self.numbers: dict[str, list[int]] = model["numbers"]
        self.open_postings(model)
        self.open_vocabulary(model)
        self._masks: dict[tuple[Any, ...], list[bool] | None] = {}
        self.scopes: list[list[Any]] = model["scopes"]
        self.scope_labels: dict[str, str] = model["scope_labels"]
        self.changed: list[int] = model["changed"]
        self.changed_set = frozenset(self.changed)
        # a question's frame and the entries answering it in kind (`words.ANSWER_FRAMES`)
        self.frames = [(re.compile(asked), weight, frozenset(chosen)) for _, asked, weight, chosen in model.get("frames", [])]

    def close(self) -> None:
        pass

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

    def mask(self, game: str | None, document: str | None, kind: str | None, include_deleted: bool,
             scope: Scope | None = None) -> list[bool] | None:
        """Which entries a search may return, by index (None: all of them); kept per filter."""
        key = (game, document, kind, include_deleted, scope.key() if scope is not None else None)
        if key not in self._masks:
            allowed = [(game is None or row[3] == game) and (document is None or row[4] == document)
                       and (kind is None or row[5] == kind) and (include_deleted or row[7] != "deleted")
                       and (scope is None or scope.allows(row[3], row[4]))
                       for row in self.docs]
            self._masks[key] = None if all(allowed) else allowed
        return self._masks[key]

    def scope(self, text: str, game: str | None = None, document: str | None = None, names_alone: bool = False) -> Scope:
        """The games and documents `text` names (`scopes.find_scope`; `names_alone`: even when it
        says nothing else), and its other words. A name of another game than the filter given is
        a word of the query."""
        words = W.words_of(text, reflexive=True)
        if not [w for w in words if w not in W.MARKERS]:  # only question words: "comment ?" asks nothing; read them as words then
            words = W.words_of(text, talk=False, reflexive=True)
        found = find_scope(words, self.scopes, self.vocab, names_alone)
        if (game is not None and found.games and game not in found.games) or (document is not None and found.documents):
            return Scope(words)
        if game is not None:
            inside = {d for d in found.documents if d.startswith(f"{game}/")}
            if found.documents and not inside:
                return Scope(words)
            found.documents = inside
        return found

    def search(self, text: str, game: str | None = None, document: str | None = None, kind: str | None = None,
               limit: int = 10, include_deleted: bool = False) -> list[Hit]:
        """The entries answering `text`, best first: a rule number asked is that rule; a game or
        document the text names is a filter (`Hit.scope` says which); the rest is ranked, then a
        question's frame ("combien …") favours the entries answering in kind (`words.ANSWER_FRAMES`)
        and a question about changes the entries errata changed or write, deleted ones included."""
        self.check_filters(game, document, kind)
        text = clean_query(text)
        limit = max(1, min(limit, 200))
        docs = self.docs

        number = W.number_asked(text)
        if number is not None:
            numbered = self.mask(game, document, kind, True)  # a number asked shows a deleted rule too
            found = [d for d in self.numbers.get(number, []) if numbered is None or numbered[d]]
            if found:
                return [self.hit(d, 0.0, frozenset(), False) for d in found[:limit]]
        change, bare = W.change_asked(text)  # "ce qui a changé pour…": errata first, deleted rules too
        scope = self.scope(bare, game, document, change)
        shown = self.shown(scope)
        allowed = self.mask(game, document, kind, include_deleted or change, scope if shown else None)
        concepts, primaries = self.understand_words(scope.words)
        concepts = [c for c in concepts if c.words]
        if change and not concepts:  # "errata", "les changements à Runewars": every change
            return [self.hit(d, 0.0, frozenset(), False, shown) for d in self.changed if allowed is None or allowed[d]][:limit]
        if not concepts:
            return []
        ranked = self.rank(concepts, primaries, allowed, confined=game is not None or document is not None or shown is not None)
        folded = W.fold(text)
        for asked, weight, chosen in self.frames:  # "combien …": the rules stating a number
            if asked.search(folded):
                ranked = self.favour(ranked, chosen, weight)
        if change:
            ranked = self.favour(ranked, self.changed_set, CHANGE_WEIGHT)
        if game is None and len(scope.games | {d.split("/")[0] for d in scope.documents}) != 1:
            ranked = best_of_each_game(ranked, docs)
        marked = frozenset(part for c in concepts for stem in c.alternatives for part in stem.split(" "))
        approximate = any(c.approximate and c.alternatives for c in concepts)
        return [self.hit(doc, score, marked, approximate, shown) for doc, score, _ in ranked[:limit]]

    def shown(self, scope: Scope) -> str | None:
        """The games and documents a query named, as shown ("Runewars", "Runewars, Warcry",
        "Guide de Référence"), or None."""
        keys = sorted(scope.games) + sorted(scope.documents)
        return ", ".join(self.scope_labels.get(k, k) for k in keys) or None

    def hit(self, doc: int, score: float, marked: frozenset[str], approximate: bool, scope: str | None = None) -> Hit:
        entry_id, url, title, game, document, kind, number, status, _ = self.docs[doc]
        return Hit(entry_id, title or None, game, document, kind, number or None, status, url, round(score, 4),
                   approximate, scope, self.topic(doc) if number and not title else None, self.texts[doc], marked)

    def topic(self, doc: int) -> str | None:
        """The title of the nearest entry enclosing `doc` that has one (the box's `resultTitle`)."""
        up = self.parents[doc]
        for _ in range(64):
            if up < 0:
                return None
            if self.docs[up][2]:
                return self.docs[up][2]
            up = self.parents[up]
        return None


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



__all__ = ["ANALYSED", "COVERAGE_POWER", "ENTRIES", "EXACT_WEIGHT", "FALLBACK_COVERAGE", "GAME_BEST", "LEMMA_WEIGHT",
           "MIN_COVERAGE", "NAMED_WEIGHT", "PAIR_WEIGHT", "SCHEMA_VERSION", "Concept", "Hit", "SearchIndex", "analyse",
           "analysed_spans", "best_of_each_game", "build_index", "clean_query", "open_index", "primary_forms", "search",
           "snippet", "texts_of", "write_search_model"]
