"""extract/errata/parity.py: where the build's instruction grammar and the layered reader of
`regles errata --from` read the same errata differently (issue 31, scope 4).

The differences that remain are recorded in `data/parity_sentences.txt`, one per line: a test
fails when one is fixed (remove its line) and when a new one appears, so the record stays the
truth. The build reads its FAQs with the layered reader (`faq.read_faqs`); the corpus's FAQ
errata are checked by the build's own tests, not here."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.errata.locators import Locator
from extract.errata.parity import compare_sentence, reader_fields
from extract.errata.reader import ReadOperation
from tests import test_instructions
from tests.errata import test_grammar

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")

DATA = Path(__file__).parent / "data"


def recorded(name: str) -> list[str]:
    return sorted(line for line in (DATA / name).read_text(encoding="utf-8").split("\n") if line.strip())


def parametrized_texts(test) -> list[str]:
    """The sentences a parametrized test of the grammar reads (its first argument)."""
    mark = next(m for m in test.pytestmark if m.name == "parametrize")
    return [case[0] for case in mark.args[1]]


GRAMMAR_SENTENCES = parametrized_texts(test_grammar.test_phrasings) + parametrized_texts(test_instructions.test_block_instructions)


def test_the_grammar_sentences_differ_only_as_recorded():
    found = sorted(d for text in GRAMMAR_SENTENCES for d in compare_sentence(text))
    assert found == recorded("parity_sentences.txt")


def test_a_sentence_both_read_alike_has_no_difference():
    assert compare_sentence("Le troisième paragraphe de cette section devrait dire :") == []


def test_a_difference_names_the_field_and_both_readings():
    found = compare_sentence("Cela devrait être : « Portée 3 »")
    assert any(": block: grammar 'text' / reader 'entry'" in line for line in found)


@pytest.mark.parametrize(("kind", "old", "where", "block", "ordinal"), [
    ("should-say", None, Locator(unit="bullet", ordinal=4), "bullet", 4),
    ("replace", "deux", Locator(), "text", None),
    ("should-say", None, Locator(section="49"), "entry", None),
    ("should-say", None, Locator(card=True), "card", None),
])
def test_the_reader_is_put_in_the_models_terms_by_its_own_locator(kind, old, where, block, ordinal):
    fields = reader_fields(ReadOperation(1, kind, old, "Texte.", where, "", "read"))
    assert (fields["block"], fields["ordinal"], fields["operation"]) == (block, ordinal, "replace")
