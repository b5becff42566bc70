"""extract/nlp/lemmas.py: one spaCy model per process, shared by its users (the lemmas and the
errata reader read with the same one), let go of when a one-shot build no longer needs it, kept
when the caller (the live preview) owns it. spaCy's loader is replaced by a counter here: what is
checked is how often the model is loaded and who keeps it, not spaCy."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from extract.nlp import lemmas
from extract.nlp.lemmas import Lemmatizer, forget_model


def load_model() -> object:
    return lemmas.load_model()


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    made: list[object] = []
    own = lemmas.load_model  # the module's own, not the one the session's conftest keeps for every test
    while hasattr(own.__wrapped__, "cache_clear"):
        own = own.__wrapped__
    monkeypatch.setattr(lemmas, "load_model", own)

    def fake_load(name: str, exclude: list[str]) -> object:
        made.append(object())
        return made[-1]

    # spaCy itself stands in for a module whose `load` counts: `load_model` imports it when called,
    # and the tests never import the real one (a second or more of a worker's CPU, at collection).
    monkeypatch.setitem(sys.modules, "spacy", types.SimpleNamespace(load=fake_load))
    forget_model()
    yield made
    forget_model()


def test_the_model_is_loaded_once_for_every_user(loads: list[object]) -> None:
    lemmatizer = Lemmatizer(None)
    assert lemmatizer.nlp is load_model() is load_model()
    assert len(loads) == 1


def test_a_released_lemmatizer_lets_go_of_the_shared_model(loads: list[object]) -> None:
    lemmatizer = Lemmatizer(None)
    first = lemmatizer.nlp
    lemmatizer.release()
    assert lemmatizer.nlp is not first  # loaded again when asked again
    assert len(loads) == 2


def test_a_given_model_and_the_shared_one_stay(loads: list[object]) -> None:
    shared = load_model()
    given = object()
    lemmatizer = Lemmatizer(None, nlp=given)
    assert lemmatizer.nlp is given
    lemmatizer.release()
    assert load_model() is shared
    assert len(loads) == 1
