"""Stage 8, index: `build_index` writes the search model of the entries (`model.py`) into
`build/search/`, keeping the analysis of each text and entry between builds in a memo."""

from __future__ import annotations

import gc
import json
import shutil
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from extract.search import words as W
from extract.search.model import Known, build_model, write_model

SCHEMA_VERSION = "2"

ANALYSED = "search/analysed"  # the memo's name for the words and stems of the thesaurus's texts, and stems
ENTRIES = "search/entries"  # …and, followed by "/game/document", for that document's entries and word forms


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
                scanned: set[str] | frozenset[str] = frozenset(), scopes: dict[str, list[str]] | None = None,
                changes: set[str] | frozenset[str] = frozenset()) -> dict[str, int]:
    """Write the search model of `entries` into `out` (a fresh folder). `kinds`: each document's
    kind ("runewars/apprentissage" -> "learn-to-play"); `scanned`: the documents read by OCR
    ("warcry/regles"); `scopes`: the names of each game and document (`scopes.scope_names`); `changes`: the
    entries where errata are written. `memo`: where the analysis of each text and
    entry is kept between builds (`get(name)`/`put(name, value)`, such as the pipeline's
    `extract.cache.Cache.keyed` under the code's key), or None."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with collector_paused():  # returns with the model freed: the collector, back, finds little new
        forms = write_search_model(out, entries, lemmatizer, synonyms, names, labels, kinds, memo, scanned, scopes,
                                   changes)
    meta = {"schema_version": SCHEMA_VERSION, "entries": len(entries),
            "games": sorted({e.game for e in entries}),
            "documents": sorted({f"{e.game}/{e.document}" for e in entries}),
            "kinds": sorted({e.kind for e in entries})}
    (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return {"entries": len(entries), "forms": forms}


def write_search_model(out: Path, entries: list[Any], lemmatizer: Any, synonyms: Any, names: dict[str, list[str]] | None,
                       labels: dict[str, str] | None, kinds: dict[str, str] | None, memo: Any,
                       scanned: set[str] | frozenset[str], scopes: dict[str, list[str]] | None = None,
                       changes: set[str] | frozenset[str] = frozenset()) -> int:
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
    model = build_model(entries, forms, synonyms, names, labels, kinds, known, scanned, scopes, changes)
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
