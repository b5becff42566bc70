"""Stage 8, index, and the search over it: French as people type it at the table.

The index (`build/search/`, Whoosh) holds one document per entry. Text fields go through a
French analysis: elisions split (l', d', qu', straight or curly apostrophe), lowercase, our own
stop list, Snowball French stemming, and accents folded *after* stemming (folding first changes
the stems). A `lemmas` field holds spaCy lemmas for the inflections Snowball misses
("attaquent" -> attaquer); queries reach it through a table of the corpus's own word forms, so
spaCy is loaded at query time only for a word the corpus has never seen.

Queries are built from analysed words, never parsed as Whoosh syntax, so no input can be a
syntax error. A rule number alone ("86.11", "5.03A") goes straight to its rule; words found
together (a phrase) rank first; words the index does not know are looked up approximately
("lige de vu") and the results say so.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import unicodedata
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh import analysis, fields, index, query
from whoosh.lang import stemmer_for_language

from extract.errors import InputError
from extract.text import fold

# Whoosh's French list lacks "les", "aux", "cette"…; question words carry no rule either.
FRENCH_STOP_WORDS = frozenset("""
a à ai aie ait as au aux avec c ça ce ceci cela celle celles celui ces cet cette ceux d dans de des du
elle elles en es est et été être eu eux il ils j je l la le les leur leurs lui m ma mais me même mes
moi mon n ne nos notre nous on ont ou où par pas pour qu que quel quelle quelles quels qui s sa se
ses si son sont sur t ta te tes toi ton tu un une vos votre vous y
comment pourquoi quoi est-ce passe-t-il peut-on peut-il doit-on faut-il
""".split())
NUMBER_QUERY = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})*[A-Za-z]?)\s*$")
TOKEN = r"\d+(?:\.\d+)+[A-Za-z]?|\w+(?:['’]\w+)*"
# Endings of conjugated verbs: only such an unknown word is worth loading spaCy for; a typo is
# better served by approximate matching.
VERB_FORM = re.compile(r"(?:ent|ons|ez|ait|aient|ais|ra|ras|rons|rez|ront|rait|raient|erai|ant|ee|ees|es|is|it|ut)$")
ELISION = re.compile(r"^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)['’](?=\w)", re.IGNORECASE)
TEXT_FIELDS = {"title": 3.0, "index_terms": 2.5, "context": 1.5, "text": 1.0}
EXACT_TITLE_BOOST = 60.0  # the query is the whole title ("attaque surprise"); BM25 sums here reach 50-100
LEMMA_BOOST = 1.5
PHRASE_BOOST = 2.0
PHRASE_FIELDS = ("title", "text")  # index terms and headings are short: their words are together anyway
SCHEMA_VERSION = "1"


class ElisionFilter(analysis.Filter):
    """"l'unité" -> "unité", "qu'elle" -> "elle"."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = ELISION.sub("", token.text)
            yield token


class StopWords(analysis.Filter):
    """Whoosh's StopFilter keeps a frozenset, which pickles (into the index's table of contents)
    in an order that changes with Python's hash seed; this one pickles a sorted tuple."""

    def __init__(self, words: frozenset[str]) -> None:
        self.words = tuple(sorted(words))
        self._lookup = frozenset(words)

    def __getstate__(self) -> dict[str, Any]:
        return {"words": self.words}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.words = state["words"]
        self._lookup = frozenset(self.words)

    def __call__(self, tokens):
        position = 0
        for token in tokens:
            if token.text in self._lookup:
                continue
            if token.positions:
                token.pos = position
            position += 1
            yield token


_stem = stemmer_for_language("fr")


@lru_cache(maxsize=100000)
def fold_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class FrenchStems(analysis.Filter):
    """Snowball stems, accents folded after stemming. A word typed without its accents stems
    differently ("agilite" -> agilit, "agilité" -> agil), so where the two differ both are
    emitted at the same position: either spelling then finds the other."""

    def __call__(self, tokens):
        for token in tokens:
            word = token.text
            primary = fold_accents(_stemmed(word))
            token.text = primary
            yield token
            alternate = _stemmed(fold_accents(word))
            if alternate != primary:
                token.text = alternate
                yield token


@lru_cache(maxsize=100000)
def _stemmed(word: str) -> str:
    return _stem(word)


def french_analyzer() -> analysis.Analyzer:
    return (analysis.RegexTokenizer(TOKEN) | ElisionFilter() | analysis.LowercaseFilter()
            | StopWords(FRENCH_STOP_WORDS) | FrenchStems())


def lemma_analyzer() -> analysis.Analyzer:
    return analysis.SpaceSeparatedTokenizer() | analysis.LowercaseFilter()


def schema() -> fields.Schema:
    french = french_analyzer()
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        game=fields.ID(stored=True),
        document=fields.ID(stored=True),
        kind=fields.ID(stored=True),
        number=fields.ID(stored=True),
        number_key=fields.ID(),
        status=fields.ID(stored=True),
        url=fields.STORED(),
        title=fields.TEXT(analyzer=french, stored=True, field_boost=TEXT_FIELDS["title"]),
        index_terms=fields.TEXT(analyzer=french, stored=True, field_boost=TEXT_FIELDS["index_terms"]),
        # An untitled rule or question is about its heading: "49.1" about "Ligne de vue".
        context=fields.TEXT(analyzer=french, field_boost=TEXT_FIELDS["context"]),
        title_exact=fields.ID(),
        text=fields.TEXT(analyzer=french, stored=True),
        lemmas=fields.TEXT(analyzer=lemma_analyzer(), field_boost=LEMMA_BOOST),
    )


def analyse(text: str) -> list[str]:
    """Every indexed form of the words of `text` (a word may give two: see FrenchStems)."""
    return [t.text for t in _ANALYZER(text)]


def primary_forms(text: str) -> list[str]:
    """One form per word, in order: what a phrase query needs."""
    found: dict[int, str] = {}
    for token in _ANALYZER(text, positions=True):
        found.setdefault(token.pos, token.text)
    return [found[p] for p in sorted(found)]


_ANALYZER = french_analyzer()


def content_lemmas(tokens: list[Any]) -> list[str]:
    return [fold(t.lemma) for t in tokens if t.pos not in ("PUNCT", "SPACE", "DET", "ADP", "CCONJ", "SCONJ", "PRON")
            and fold(t.lemma) not in FRENCH_STOP_WORDS and any(c.isalnum() for c in t.lemma)]


# ---------------------------------------------------------------- building


def texts_of(entry: Any) -> list[str]:
    """What the lemma field of an entry is made of: its title and its text blocks."""
    return [entry.title or "", *[b.text for b in entry.blocks if b.type not in ("related", "see")]]


def build_index(out: Path, entries: list[Any], lemmatizer: Any) -> dict[str, int]:
    """Write the index of `entries` into `out` (a fresh folder), with the word-form table."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    texts = {entry.id: texts_of(entry) for entry in entries}
    tokens = lemmatizer.tokens(t for parts in texts.values() for t in parts if t)
    forms: dict[str, str] = {}
    # Whoosh names segments with the global `random`: seeded here (and restored after) so that the
    # same entries give the same index, byte for byte.
    state = random.getstate()
    random.seed(f"regles-search-{SCHEMA_VERSION}")
    try:
        write_documents(out, entries, texts, tokens, forms)
    finally:
        random.setstate(state)
    (out / "MAIN_WRITELOCK").unlink(missing_ok=True)
    meta = {"schema_version": SCHEMA_VERSION, "entries": len(entries),
            "games": sorted({e.game for e in entries}),
            "documents": sorted({f"{e.game}/{e.document}" for e in entries}),
            "kinds": sorted({e.kind for e in entries})}
    (out / "forms.json").write_text(json.dumps(dict(sorted(forms.items())), ensure_ascii=False), encoding="utf-8")
    (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return {"entries": len(entries), "forms": len(forms)}


def write_documents(out: Path, entries: list[Any], texts: dict[str, list[str]], tokens: dict[str, list[Any]],
                    forms: dict[str, str]) -> None:
    ix = index.create_in(str(out), schema())
    # One file per part, not a compound file: a compound file records each part's mtime.
    writer = ix.writer(limitmb=256, compound=False)
    for entry in entries:
        lemmas: list[str] = []
        for part in texts[entry.id]:
            for token in tokens.get(part, []):
                surface, lemma = fold(token.text), fold(token.lemma)
                if surface != lemma and surface.isalpha():
                    forms.setdefault(surface, lemma)
            lemmas.extend(content_lemmas(tokens.get(part, [])))
        writer.add_document(
            id=entry.id, game=entry.game, document=entry.document, kind=entry.kind,
            number=entry.number or "", number_key=(entry.number or "").lower(), status=entry.status, url=entry.url,
            title=entry.title or "", index_terms="\n".join(entry.index_terms), text=entry.text,
            context="" if entry.title else "\n".join(a.title or "" for a in entry.ancestors[:2]),
            title_exact=" ".join(primary_forms(entry.title or "")),
            lemmas=" ".join(lemmas),
        )
    writer.commit()
    ix.close()


# ---------------------------------------------------------------- searching


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
    approximate: bool = False  # found by fuzzy matching: "résultats approchés"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class SearchIndex:
    """An opened index: open once, query many times."""

    def __init__(self, folder: Path, cache: Path | None = None) -> None:
        if not (folder / "meta.json").is_file() or not index.exists_in(str(folder)):
            raise InputError(str(folder), "no search index: run `regles build` first")
        self.folder = folder
        self.meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        self.forms: dict[str, str] = json.loads((folder / "forms.json").read_text(encoding="utf-8"))
        self.ix = index.open_dir(str(folder))
        self.searcher = self.ix.searcher()
        self.reader = self.searcher.reader()
        self.cache = cache
        self._lemmatizer = None

    def close(self) -> None:
        self.searcher.close()
        self.ix.close()

    def known(self, field: str, term: str) -> bool:
        return self.reader.doc_frequency(field, term) > 0

    def lemma_of(self, word: str) -> str | None:
        """The lemma of a query word: from the corpus's own forms; for a verb form the corpus
        never uses ("attaqueront"), from spaCy, loaded then and only then."""
        key = fold(word)
        if key in self.forms:
            return self.forms[key]
        if self.known("lemmas", key):
            return key
        if self.cache is None or not VERB_FORM.search(key):
            return None
        if self._lemmatizer is None:
            from extract.nlp import Lemmatizer

            self._lemmatizer = Lemmatizer(self.cache)
        tokens = self._lemmatizer.tokens([word])[word]
        return fold(tokens[0].lemma) if tokens else None

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
        filters = [query.Term(name, value) for name, value in (("game", game), ("document", document), ("kind", kind))
                   if value is not None]
        number = NUMBER_QUERY.match(text)
        if number:
            found = query.Term("number_key", number.group(1).lower())
            results = self.searcher.search(found, filter=query.And(filters) if filters else None, limit=limit)
            return [self.hit(r, [], False) for r in results]
        words = analyse(text)
        if not words:
            return []
        subqueries: list[query.Query] = []
        unknown = [w for w in dict.fromkeys(words) if not any(self.known(f, w) for f in TEXT_FIELDS)]
        for field in TEXT_FIELDS:
            subqueries.append(union([query.Term(field, w) for w in words]))
            phrase = primary_forms(text)
            if len(phrase) > 1 and field in PHRASE_FIELDS:
                subqueries.append(query.Phrase(field, phrase, slop=1, boost=PHRASE_BOOST))
        raw_words = [w for w in re.findall(TOKEN, text) if fold(w) not in FRENCH_STOP_WORDS]
        lemmas = [lem for lem in (self.lemma_of(ELISION.sub("", w)) for w in raw_words) if lem]
        if lemmas:
            subqueries.append(union([query.Term("lemmas", lem) for lem in lemmas]))
        subqueries.append(query.Term("title_exact", " ".join(primary_forms(text)), boost=EXACT_TITLE_BOOST))
        mask = None if include_deleted else query.Term("status", "deleted")
        restrict = query.And(filters) if filters else None
        # Words the index does not know are looked up approximately at once; when the exact
        # search finds nothing at all (OCR damage inside known words), every word is.
        fuzzy = [w for w in unknown if len(w) >= 3]
        results = None
        if not fuzzy:
            results = self.searcher.search(union(subqueries), filter=restrict, mask=mask, limit=limit)
            if results.is_empty():  # len() would count every match: costly
                fuzzy = [w for w in dict.fromkeys(words) if len(w) >= 4]
        if fuzzy:
            approximate = [union([query.FuzzyTerm(f, w, maxdist=1 if len(w) <= 5 else 2, prefixlength=1, constantscore=False)
                                  for w in fuzzy]) for f in TEXT_FIELDS]
            results = self.searcher.search(union(subqueries + approximate), filter=restrict, mask=mask, limit=limit)
        marked = set(words) | set(self.fuzzy_expansions(fuzzy))
        return [self.hit(r, marked, bool(fuzzy)) for r in results]

    def fuzzy_expansions(self, words: list[str]) -> list[str]:
        found = []
        for word in words:
            for field in ("title", "text"):
                found.extend(self.reader.terms_within(field, word, 1 if len(word) <= 5 else 2, prefix=1))
        return found

    def hit(self, result: Any, marked: set[str] | list[str], approximate: bool) -> Hit:
        stored = result.fields()
        plain, html = snippet(stored.get("text", ""), set(marked))
        return Hit(stored["id"], stored.get("title") or None, stored["game"], stored["document"], stored["kind"],
                   stored.get("number") or None, stored["status"], stored.get("url", ""), round(result.score, 4),
                   plain, html, approximate)


def union(subqueries: list[query.Query], boost: float = 1.0) -> query.Or:
    """An Or built as a tree of union matchers: Whoosh's default for a small index preloads
    every posting into arrays, several times slower here."""
    found = query.Or(subqueries, boost=boost)
    found.matcher_type = query.Or.DEFAULT_MATCHER
    return found


def clean_query(text: str) -> str:
    """Control characters out, length bounded: whatever is typed, a query comes out."""
    text = "".join(c if c.isprintable() else " " for c in text)
    return re.sub(r"\s+", " ", text).strip()[:500]


def snippet(text: str, marked: set[str], width: int = 180) -> tuple[str, str]:
    """The window of the text with most matched words, marked `[…]` and `<mark>…</mark>`."""
    import html as html_lib

    spans = [(start, end) for form, start, end in analysed_spans(text) if form in marked] if marked else []
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
def analysed_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """Each indexed form of `text` with its characters: computed once per stored text."""
    return tuple((t.text, t.startchar, t.endchar) for t in _ANALYZER(text, chars=True, mode="index"))


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
