"""extract/nlp/lemmas.py: texts reach spaCy in batches bounded by their tokens, not only by their
count (issues 37/38: spaCy holds about 10 KB per token of a batch while it tags, and a 10 MB
document of brackets and dots, in batches of 128 of its longest texts, took 4 GB)."""

from __future__ import annotations

import hashlib

from extract.nlp.lemmas import (
    BATCH,
    BATCH_TOKENS,
    MODEL,
    MODEL_VERSION,
    PIECE,
    TOKENISH,
    Lemmatizer,
    batch_runs,
    split_text,
)


def pieces_of(texts: list[str]) -> list[tuple[str, int, str]]:
    return [(text, offset, piece) for text in texts for offset, piece in split_text(text)]


def batches(runs: list[tuple[int, list]]) -> list[list]:
    """The batches spaCy forms from each run: consecutive pieces, `size` at a time."""
    return [run[at:at + size] for size, run in runs for at in range(0, len(run), size)]


def test_ordinary_texts_are_one_run_of_full_batches():
    texts = [f"Le joueur {n} avance de {n % 7} cases." for n in range(8 * BATCH)]
    runs = batch_runs(pieces_of(texts))
    assert runs == [(BATCH, pieces_of(texts))]  # in their order, as nlp.pipe had them before


def test_a_batch_of_long_texts_holds_at_most_its_tokens():
    brackets = ["[" * 9_000 + f" {n}" for n in range(40)]  # 9,000 tokens each: one a batch
    words = [" ".join(["règle"] * 500) + f" {n}" for n in range(300)]  # 500 tokens each: 23 a batch
    short = [f"Voir la règle {n}." for n in range(700)]
    given = pieces_of(brackets + words + short)
    runs = batch_runs(given)
    found = batches(runs)
    assert sorted(item for batch in found for item in batch) == sorted(given)  # each piece once
    assert all(len(batch) <= BATCH for batch in found)
    assert all(sum(len(TOKENISH.findall(piece)) for _, _, piece in batch) <= BATCH_TOKENS for batch in found)
    assert [size for size, _ in runs][0] == BATCH  # the short texts still go 128 at a time
    assert len(runs) <= 6


def test_a_piece_never_holds_more_tokens_than_a_batch():
    assert PIECE <= BATCH_TOKENS
    text = "[" * (3 * PIECE)
    assert all(len(TOKENISH.findall(piece)) <= BATCH_TOKENS for _, piece in split_text(text))


def test_a_cut_text_is_keyed_with_its_piece_size():
    """Lemmas near a cut depend on where it falls: a text cut into pieces is cached under a key
    naming the piece size (tagged again when it changes); a text tagged whole keeps the key the
    caches already hold (the model's name and version, and the text)."""
    short, long = "Le joueur avance.", "mot " * PIECE
    assert Lemmatizer.key(short) == hashlib.sha256(f"{MODEL}-{MODEL_VERSION}\n{short}".encode()).hexdigest()
    assert Lemmatizer.key(long) != hashlib.sha256(f"{MODEL}-{MODEL_VERSION}\n{long}".encode()).hexdigest()
