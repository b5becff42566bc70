"""Long patterns kept between processes (extract.regexcache): what comes back from the file is the
pattern `re` compiles (pattern equality compares the engine's code), and spaCy's tokenizer made
with it cuts every text where the stock one does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from extract import regexcache
from tests.conftest import ROOT

WORDS = ["peut-être", "aujourd'hui", "Aujourd'hui", "l'unité", "l’unité", "c'est-à-dire", "vis-à-vis", "entr'ouvert",
         "entr’ouvert", "grand'mère", "porte-avions", "arc-en-ciel", "Saint-Étienne", "prud'homme", "week-end",
         "anti-char", "sous-marin", "quelqu'un", "jusqu'à", "lorsqu'il", "New-York", "pet-en-l'air", "rez-de-chaussée",
         "auto-école", "ex-joueur", "non-joueur", "contre-attaque", "demi-tour", "lance-flammes", "d'Aragorn",
         "va-t-il", "dit-elle", "peut-il", "Peut-Être", "PORTE-AVIONS", "faux-vampire", "re-lancer", "ré-entr'ouvrir",
         "hip-hop", "zig-zag", "J.-C.", "1-2", "x-y", "a-t-elle", "-", "'", "l'", "saut-de-ski", "mi-temps", "mi‐temps",
         "porte‑clé", "lance—flammes", "rond-point", "jet-set", "arrière-garde", "au-delà", "celui-ci", "là-bas"]


def pattern(size: int) -> str:
    """A pattern of about `size` characters like spaCy's: anchored alternatives with classes."""
    words = [f"^w{i}[-‐‑](?:l['’])?[a-zà-ÿ]+$" for i in range(size // 25)]
    return "(?iu)" + "|".join(f"(?:{w})" for w in words)


def fresh(text: str, flags: int = 0) -> re.Pattern:
    re.purge()
    return re.compile(text, flags)


def test_a_long_pattern_comes_back_from_its_file_as_the_pattern_re_compiles(tmp_path: Path):
    text = pattern(5_000)
    with regexcache.kept(tmp_path, long=1_000) as first:
        made = fresh(text)
    assert (first.misses, first.hits) == (1, 0) and len(list(tmp_path.glob("*.re"))) == 1
    with regexcache.kept(tmp_path, long=1_000) as second:
        back = fresh(text)
    assert (second.misses, second.hits) == (0, 1)
    stock = fresh(text)
    assert back == stock == made and back is not stock  # == compares flags, pattern and code
    for word in ["w12-abc", "W12-L'abc", "w12‐l’été", "w12abc", "w12-", "w99999-x"]:
        assert bool(back.match(word)) == bool(stock.match(word)), word


def test_short_patterns_are_left_to_re_and_other_flags_are_another_file(tmp_path: Path):
    with regexcache.kept(tmp_path, long=1_000) as short:
        fresh("a+b")
    assert (short.misses, short.hits) == (0, 0) and not list(tmp_path.glob("*.re"))
    with regexcache.kept(None, long=1_000) as nowhere:
        fresh(pattern(5_000))
    assert (nowhere.misses, nowhere.hits) == (0, 0)
    with regexcache.kept(tmp_path, long=1_000) as flagged:
        fresh(pattern(5_000))
        assert fresh(pattern(5_000), re.MULTILINE) == fresh(pattern(5_000), re.MULTILINE)
    assert (flagged.misses, flagged.hits) == (2, 1) and len(list(tmp_path.glob("*.re"))) == 2


def test_a_damaged_or_foreign_file_is_a_miss_and_compiles_as_usual(tmp_path: Path):
    text = pattern(5_000)
    with regexcache.kept(tmp_path, long=1_000):
        fresh(text)
    [path] = tmp_path.glob("*.re")
    data = bytearray(path.read_bytes())
    data[-20] ^= 0xFF
    path.write_bytes(bytes(data))
    with regexcache.kept(tmp_path, long=1_000) as damaged:
        again = fresh(text)
    assert damaged.hits == 0 and damaged.misses == 1 and again == fresh(text)
    path.write_bytes(b"not a kept pattern")
    with regexcache.kept(tmp_path, long=1_000) as foreign:
        fresh(text)
    assert foreign.hits == 0
    # a file made for another pattern under this one's name (a collision, a copy): refused
    with regexcache.kept(tmp_path, long=1_000):
        fresh(pattern(6_000))
    [other] = [p for p in tmp_path.glob("*.re") if p != path]
    path.write_bytes(other.read_bytes())
    with regexcache.kept(tmp_path, long=1_000) as swapped:
        assert fresh(text).pattern == text
    assert swapped.hits == 0


def test_a_kept_file_that_would_run_code_is_refused_and_blocks_nest(tmp_path: Path):
    import hashlib
    import pickle

    text = pattern(5_000)
    with regexcache.kept(tmp_path, long=1_000):
        fresh(text)
    [path] = tmp_path.glob("*.re")

    class Trap:
        def __reduce__(self):
            return (print, ("ran",))

    data = pickle.dumps((0, (text, Trap())))
    path.write_bytes(hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data)
    with regexcache.kept(tmp_path, long=1_000) as trapped, regexcache.kept(tmp_path / "inner", long=1_000):
        assert fresh(text).pattern == text  # compiled as usual, nothing called; the inner block did not hang
    assert trapped.hits == 0


def test_re_is_itself_again_after_the_block(tmp_path: Path):
    compile_before, sre_before = re._compiler.compile, re._compiler._sre
    with pytest.raises(RuntimeError), regexcache.kept(tmp_path, long=1_000):
        fresh(pattern(5_000))
        raise RuntimeError
    assert (re._compiler.compile, re._compiler._sre) == (compile_before, sre_before)


def corpus_texts() -> list[str]:
    texts = []
    for source in sorted((ROOT / "corpus").glob("*/*.txt")):
        texts.extend(p for p in source.read_text(encoding="utf-8").split("\n\n") if p.strip())
    return texts


@pytest.mark.corpus
def test_spacys_tokenizer_with_the_kept_pattern_cuts_every_corpus_text_as_the_stock_one(tmp_path: Path):
    """spaCy compiling its patterns as stock spaCy does (while they are stored), then spaCy whose
    tokenizer's TOKEN_MATCH came back from a kept file: the same
    pattern (code included) and the same tokens on every paragraph of the real books."""
    import spacy

    from extract.nlp import EXCLUDED, MODEL

    re.purge()
    with regexcache.kept(tmp_path) as first:  # compiles as stock spaCy does, and stores
        stock = spacy.load(MODEL, exclude=EXCLUDED)
    re.purge()
    with regexcache.kept(tmp_path) as second:  # takes every pattern from its file
        kept = spacy.load(MODEL, exclude=EXCLUDED)
    assert first.hits == 0 and first.misses >= 1 and (second.hits, second.misses) == (first.misses, 0)
    ours, theirs = kept.tokenizer.token_match.__self__, stock.tokenizer.token_match.__self__
    assert len(ours.pattern) > 1_000_000 and ours == theirs and ours is not theirs
    for name in ("prefix_search", "suffix_search", "infix_finditer", "url_match"):
        assert getattr(kept.tokenizer, name).__self__ == getattr(stock.tokenizer, name).__self__, name
    texts = [*corpus_texts(), " ".join(WORDS), *WORDS, *(w.upper() for w in WORDS), *(f"({w})," for w in WORDS)]
    assert len(texts) > 2_000  # every paragraph of the five books
    for text in texts:
        assert [(t.idx, t.text) for t in kept.tokenizer(text)] == [(t.idx, t.text) for t in stock.tokenizer(text)], text
