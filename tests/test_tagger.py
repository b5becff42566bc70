"""extract.tagger reads texts as spaCy's `fr_core_news_sm` does, without spaCy: the same tokens,
offsets, parts of speech and lemmas, from data a loaded pipeline handed over. Checked against the
session's spaCy on words of every kind, on the corpus's paragraphs (corpus tier) and on the
outside documents' (skipped without ../shared); the build's lemmatizer uses it for a few texts
and never loads spaCy then; anything wrong with the kept data means spaCy, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy
import pytest

from extract import helper, tagger
from extract.nlp import Lemmatizer
from tests.conftest import ROOT, SPACY_KEPT
from tests.test_spacyload import SENTENCES

WORDS = [
    " a", "  a", " ", "a ", "a  ", "\n", "a\n b", "a \n b", "\tx", ":-) :* :-* (-:", "etc. cf. p. 12",
    "M. Dupont et Mme. X", "c'est-à-dire", "aujourd'hui", "l'unité", "J’ai", "« Voir »", "http://exemple.fr/a?b=c",
    "a.b.c.", "1.2.3", "5.10)", "(voir 3.2).", "U.S.A.", "n°3", "3e", "1er", "°C", "½", "—", "…", "a…b", "x" * 120,
    "ÉTÉ", "Qu'est-ce", "quelqu'un", "peut-être", "vas-y", "donne-le-moi", "t'es", ":'(", "<3", "^_^", "o_O", "8)",
    "a/b", "10 %", "2×3", "+1", "-1", "±2", "det", "ADJ", "nsubj", "",
]


@pytest.fixture(scope="module")
def session_nlp():
    return Lemmatizer(None).nlp  # the session's model (conftest.spacy_loaded_once)


@pytest.fixture(scope="module")
def kept(session_nlp, tmp_path_factory) -> tagger.Tagger:
    folder = tmp_path_factory.mktemp("tagger")
    tagger.keep(session_nlp, folder)
    found = tagger.Tagger.load(folder, SPACY_KEPT / "regex")
    assert found is not None
    return found


def spacy_tokens(nlp, texts: list[str]) -> list[list[tuple]]:
    return [[(w.text, w.lemma_, w.pos_, w.idx) for w in doc if not w.is_space] for doc in nlp.pipe(texts)]


def ours(kept: tagger.Tagger, texts: list[str]) -> list[list[tuple]]:
    return [[(t.text, t.lemma, t.pos, t.start) for t in tokens] for tokens in kept.tag(texts)]


def test_spacys_ids_of_strings_and_shapes():
    from spacy.lang.lex_attrs import word_shape
    from spacy.strings import hash_string

    for text in [*WORDS, *SENTENCES, "abcdefgh", "abcdefghi", "é" * 9]:
        if text:
            assert tagger.string_hash(text) == hash_string(text), text
        assert tagger.word_shape(text) == word_shape(text), text


def test_thincs_hash_of_keys():
    from thinc.api import NumpyOps

    keys = numpy.random.default_rng(7).integers(0, 2**63, size=500, dtype=numpy.uint64) * numpy.uint64(2)
    keys = numpy.concatenate([keys, numpy.array([0, 1, 2**64 - 1], dtype=numpy.uint64)])
    for seed in (0, 8, 13, 2**32 - 1):
        assert numpy.array_equal(tagger.murmur_128(keys, seed), NumpyOps().hash(keys, seed))


def test_words_of_every_kind_as_spacy_reads_them(session_nlp, kept):
    texts = [*WORDS, *SENTENCES]
    assert ours(kept, texts) == spacy_tokens(session_nlp, texts)
    for text in texts:  # alone, as in a batch: a text never sees its neighbours
        assert ours(kept, [text]) == spacy_tokens(session_nlp, [text]), text


def paragraphs(files: list[Path], every: int = 1) -> list[str]:
    texts = []
    for path in files:
        texts += [p[:5000] for p in path.read_text(encoding="utf-8", errors="replace").split("\n\n") if p.strip()]
    return texts[::every]


@pytest.mark.corpus
def test_the_corpus_as_spacy_reads_it(session_nlp, kept):
    """A third of the five books' paragraphs (all of them agree too: 2,212 paragraphs, 71,546
    tokens, when this was written), in batches of 37."""
    texts = paragraphs(sorted((ROOT / "corpus").glob("*/*.txt")) + sorted((ROOT / "corpus").glob("*/*.md")), every=3)
    assert len(texts) > 600
    theirs = spacy_tokens(session_nlp, texts)
    for start in range(0, len(texts), 37):
        assert ours(kept, texts[start:start + 37]) == theirs[start:start + 37]


@pytest.mark.corpus
def test_outside_documents_as_spacy_reads_them(session_nlp, kept):
    shared = ROOT.parent / "shared" / "external"
    if not shared.is_dir():
        pytest.skip("../shared/external is not beside the checkout")
    files = sorted(p for p in shared.rglob("*") if p.suffix in (".txt", ".md"))
    texts = paragraphs(files, every=7)
    assert len(texts) > 200
    assert ours(kept, texts) == spacy_tokens(session_nlp, texts)


def cache_with_tagger(session_nlp, folder: Path) -> Path:
    """A lemma cache folder holding the tagger's data and spaCy's kept patterns."""
    folder.mkdir(parents=True)
    tagger.keep(session_nlp, folder / "tagger")
    shutil.copytree(SPACY_KEPT / "regex", folder / "regex")
    return folder / "lemmas.sqlite"


def test_the_lemmatizer_tags_a_few_texts_without_spacy(session_nlp, tmp_path: Path, monkeypatch):
    cache = cache_with_tagger(session_nlp, tmp_path / "cache")
    texts = SENTENCES[:6]
    monkeypatch.setattr(Lemmatizer, "nlp", property(lambda self: pytest.fail("spaCy loaded")))
    lemmatizer = Lemmatizer(cache)
    found = lemmatizer.tokens(texts)
    assert lemmatizer.without_spacy == len(set(texts))
    assert [[(t.text, t.lemma, t.pos, t.start) for t in found[text]] for text in texts] == spacy_tokens(session_nlp, texts)
    again = Lemmatizer(cache)  # and they are in the cache like any other
    assert again.tokens(texts) == found and again.hits == len(set(texts))


@pytest.mark.skipif(not helper.can_fork(), reason="no helper process here (not Linux, or one CPU)")
def test_the_lemmatizer_expecting_new_texts_tags_them_in_its_helper(session_nlp, tmp_path: Path, monkeypatch):
    """A build whose sources changed has the tagger loaded in a helper process meanwhile: the
    same tokens as spaCy's, the tagger never loaded here."""
    cache = cache_with_tagger(session_nlp, tmp_path / "cache")
    texts = SENTENCES[:6]
    lemmatizer = Lemmatizer(cache)
    lemmatizer.expect_new_texts()  # forked here: what is patched below is this process's only
    monkeypatch.setattr(Lemmatizer, "nlp", property(lambda self: pytest.fail("spaCy loaded")))
    monkeypatch.setattr(tagger.Tagger, "load", lambda *a: pytest.fail("the tagger loaded here"))
    found = lemmatizer.tokens(texts)
    lemmatizer.close()
    assert lemmatizer.without_spacy == len(set(texts))
    assert [[(t.text, t.lemma, t.pos, t.start) for t in found[text]] for text in texts] == spacy_tokens(session_nlp, texts)


def test_many_texts_or_no_kept_data_mean_spacy(session_nlp, tmp_path: Path, monkeypatch):
    cache = cache_with_tagger(session_nlp, tmp_path / "cache")
    many = [f"{sentence} ({n})" for n, sentence in enumerate(SENTENCES * 200)]
    assert sum(map(len, many)) > 30_000
    lemmatizer = Lemmatizer(cache)
    lemmatizer.tokens(many)
    assert lemmatizer.without_spacy == 0
    kept = cache.parent / "tagger" / tagger.DATA_FILE
    kept.write_bytes(kept.read_bytes()[:-10])  # damaged
    lemmatizer = Lemmatizer(cache)
    lemmatizer.tokens(["Une phrase jamais vue."])
    assert lemmatizer.without_spacy == 0
    kept.unlink()
    lemmatizer = Lemmatizer(cache)
    lemmatizer.tokens(["Une autre phrase jamais vue."])
    assert lemmatizer.without_spacy == 0


def test_the_data_are_kept_once_for_these_packages(session_nlp, tmp_path: Path, monkeypatch):
    tagger.keep(session_nlp, tmp_path)
    path = tmp_path / tagger.DATA_FILE
    stamp = path.stat().st_mtime_ns
    tagger.keep(session_nlp, tmp_path)
    assert path.stat().st_mtime_ns == stamp
    monkeypatch.setattr(tagger, "PACKAGES", (*tagger.PACKAGES, "pytest"))  # another set of packages
    assert tagger.Tagger.load(tmp_path, SPACY_KEPT / "regex") is None
    tagger.keep(session_nlp, tmp_path)
    assert tagger.Tagger.load(tmp_path, SPACY_KEPT / "regex") is not None


def test_a_word_holding_a_separator_is_caught():
    from extract.tagger import FIELD, LINE, LIST, STRING, separators_fit, stored_forms

    forms = [["aller"], ["être", "suivre"], "avoir"]
    text = LINE.join(stored_forms(f) for f in forms)
    assert separators_fit(text, forms, 3, 0)
    bad = [["al\x1cler"], ["être", "suivre"], "avoir"]
    assert not separators_fit(LINE.join(stored_forms(f) for f in bad), bad, 3, 0)
    assert not separators_fit(LINE.join(["mot", f"mo{LIST}t"]), [], 2, 0)
    assert separators_fit(LINE.join([f"yeux{FIELD}{STRING}œil", f"cieux{FIELD}ciel{LIST}cieux"]), ["œil", ["ciel", "cieux"]], 2, 2)


def test_a_lemma_table_scanned_answers_as_the_table_made_from_it():
    """The first lookups in a part of speech's table scan its text (`line_value`, `line_listed`)
    instead of making it: the same answers, first and last lines, a word that is another's
    prefix or suffix, and absent words included."""
    pairs = [("aller", "va"), ("allé", "aller"), ("va", "aller"), ("vais", "aller"), ("être", "est" + tagger.LIST + "es")]
    lines = tagger.LINE.join(f"{w}{tagger.FIELD}{v}" for w, v in pairs)
    table = dict(pairs)
    for word in [*table, "al", "all", "aller ", "ais", "v", "", "êtres", "zz", "va" + tagger.FIELD + "aller"]:
        assert tagger.line_value(lines, word) == table.get(word), word
    words = ["mer", "amer", "mère", "mers"]
    listed = tagger.LINE.join(words)
    for word in [*words, "me", "er", "ame", "ers", "", "mer" + tagger.LINE + "amer"]:
        assert tagger.line_listed(listed, word) == (word in words), word
    assert tagger.line_listed("seul", "seul") and not tagger.line_listed("", "seul")
