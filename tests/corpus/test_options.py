"""Profile options: declared by each profile, read by one validator, checked against the chosen
profile when the manifest is loaded; every problem one line naming the manifest line of its key.
Fast: manifests in a temporary folder, loaded without building; FAQ prefixes on a few lines."""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, dataclass, field
from pathlib import Path

import pytest

from extract.corpus import load_game
from extract.errors import BuildError, InputError
from extract.options import OptionsError, declared, line_span, read_options, regex, type_name
from extract.segment import option_classes
from extract.segment.profiles import PROFILES, options_table
from extract.segment.profiles.base import HeadedOptions, SetAsideRule
from extract.segment.profiles.faq import FaqOptions
from tests.conftest import make_corpus
from tests.helpers import outline, segment_text
from tools import options_table as tool

GOOD = "Titre\n\nUn paragraphe de règle.\n"
OPTIONS_LINE = 15  # make_corpus puts `[documents.options]` on line 14, so the first option on 15


def load(tmp_path: Path, options: str, profile: str = "headed-prose", extra_documents: str = ""):
    root = make_corpus(tmp_path, GOOD, profile=profile, options="[documents.options]\n" + options,
                       extra_documents=extra_documents)
    return load_game(root / "corpus/demo/game.toml", root, option_classes())


def problem(tmp_path: Path, options: str, profile: str = "headed-prose", **kwargs) -> InputError:
    with pytest.raises(InputError) as caught:
        load(tmp_path, options, profile, **kwargs)
    error = caught.value
    assert error.file == "corpus/demo/game.toml"
    assert "\n" not in str(error)
    return error


# -- what the manifest gets ------------------------------------------------------------------------

def test_options_are_read_into_the_profiles_dataclass(tmp_path):
    game = load(tmp_path, 'caps_level = 1\noutline = ["# Titre"]\nset_aside = [{ lines = [1, 1], reason = "titre" }]\n'
                          'relocate = [{ lines = [3, 3], after = 1, reason = "page" }]')
    options = game.documents[0].options
    assert type(options) is HeadedOptions
    assert options.caps_level == 1 and options.outline == ("# Titre",)
    assert options.set_aside == (SetAsideRule(lines=(1, 1), reason="titre"),)
    assert options.relocate[0].after == 1 and options.relocate[0].lines == (3, 3)
    assert options.verbatim_headings == ()  # the default


def test_no_options_gives_the_defaults(tmp_path):
    root = make_corpus(tmp_path, GOOD, profile="faq")
    options = load_game(root / "corpus/demo/game.toml", root, option_classes()).documents[0].options
    assert options == FaqOptions()
    assert options.question_prefixes == ("Q", "Question") and options.answer_prefixes == ("R", "Réponse", "A")


# -- unknown options -------------------------------------------------------------------------------

def test_unknown_option_is_named_with_the_allowed_ones(tmp_path):
    error = problem(tmp_path, 'outline = []\ncolour = "red"')
    assert error.line == OPTIONS_LINE + 1
    assert error.message.startswith("unknown option 'colour' for profile 'headed-prose' (allowed: ")
    assert "caps_level, captions, outline, relocate, section_kinds, set_aside, verbatim_headings" in error.message


def test_an_option_of_another_profile_is_an_error(tmp_path):
    error = problem(tmp_path, 'sidebar_pattern = "^exemple"', profile="faq")
    assert error.line == OPTIONS_LINE
    assert "option 'sidebar_pattern' is for ocr-columns, not for profile 'faq'" in error.message
    assert "question_prefixes" in error.message  # the allowed ones are listed
    error = problem(tmp_path, 'question_prefixes = ["Demande"]', profile="headed-prose")
    assert "'question_prefixes' is for faq, not for profile 'headed-prose'" in error.message
    # numbered-outline takes only what every profile takes
    error = problem(tmp_path, 'outline = ["# A"]', profile="numbered-outline")
    assert "is for bullet-aid, decimal-rules, faq, headed-prose, numbered-glossary, ocr-columns" in error.message
    assert "(allowed: section_kinds, set_aside)" in error.message


def test_unknown_profile_names_the_profile_line(tmp_path):
    root = make_corpus(tmp_path, GOOD, profile="astrologie")
    with pytest.raises(InputError, match="unknown profile 'astrologie' for document 'regles'") as caught:
        load_game(root / "corpus/demo/game.toml", root, option_classes())
    assert caught.value.line == 13


# -- wrong types -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("profile", "options", "message"), [
    ("headed-prose", 'caps_level = "1"', 'caps_level must be an integer, not a string ("1")'),
    ("headed-prose", "caps_level = true", "caps_level must be an integer, not a boolean (true)"),
    ("headed-prose", "caps_level = 1.5", "caps_level must be an integer, not a float (1.5)"),
    ("headed-prose", 'outline = "# Introduction"', 'outline must be an array of strings, not a string ("# Introduction")'),
    ("headed-prose", 'outline = ["# A", 3]', "outline item 2 must be a string, not an integer (3)"),
    ("headed-prose", 'section_kinds = ["Errata"]', "section_kinds must be a table of strings, not an array"),
    ("faq", 'section_kinds = { "Errata" = 1 }', "section_kinds: Errata must be a string, not an integer (1)"),
    ("headed-prose", 'set_aside = { lines = [1, 2], reason = "x" }',
     "set_aside must be an array of {lines?, pattern?, reason}, not a table"),
    ("headed-prose", 'set_aside = ["titre"]', 'set_aside item 1 must be {lines?, pattern?, reason}, not a string ("titre")'),
    ("headed-prose", 'set_aside = [{ lines = [1, "3"], reason = "x" }]',
     'set_aside item 1: lines item 2 must be an integer, not a string ("3")'),
    ("headed-prose", 'set_aside = [{ lines = [1, 2, 3], reason = "x" }]',
     "set_aside item 1: lines must be [integer, integer], not an array"),
    ("headed-prose", 'relocate = [{ lines = [3, 4], after = "2", reason = "x" }]',
     'relocate item 1: after must be an integer, not a string ("2")'),
    ("numbered-glossary", "glossary_heading = 3", "glossary_heading must be a string, not an integer (3)"),
    ("faq", 'question_prefixes = "Demande"', 'question_prefixes must be an array of strings, not a string ("Demande")'),
    ("faq", "question_prefixes = []", "question_prefixes must name at least one"),
    ("ocr-columns", "sidebar_pattern = 3", "sidebar_pattern must be a string, not an integer (3)"),
])
def test_wrong_types(tmp_path, profile, options, message):
    error = problem(tmp_path, options, profile)
    assert error.message == message
    assert error.line == OPTIONS_LINE


# -- nested items, regular expressions, spans ------------------------------------------------------

def test_nested_item_missing_its_reason(tmp_path):
    error = problem(tmp_path, 'set_aside = [{ lines = [1, 3] }]')
    assert (error.line, error.message) == (OPTIONS_LINE, "set_aside item 1: missing 'reason'")
    error = problem(tmp_path, 'caption_spans = [{ lines = [1, 3] }]', profile="ocr-columns")
    assert error.message == "caption_spans item 1: missing 'reason'"


def test_nested_item_with_an_unknown_key(tmp_path):
    error = problem(tmp_path, 'relocate = [{ lines = [3, 4], after = 2, reason = "x", before = 1 }]')
    assert error.message == "relocate item 1: unknown key 'before' (allowed: after, lines, reason)"


@pytest.mark.parametrize("rule", ['{ reason = "x" }', '{ lines = [1, 2], pattern = "^x$", reason = "x" }'])
def test_set_aside_takes_lines_or_a_pattern(tmp_path, rule):
    error = problem(tmp_path, f"set_aside = [{rule}]")
    assert error.message == "set_aside item 1: needs either lines = [first, last] or a pattern"


def test_bad_regular_expressions(tmp_path):
    error = problem(tmp_path, 'sidebar_pattern = "(exemple"', profile="ocr-columns")
    assert error.line == OPTIONS_LINE
    assert error.message.startswith("sidebar_pattern is not a regular expression: missing ), unterminated subpattern")
    error = problem(tmp_path, 'set_aside = [{ pattern = "[FANTASY", reason = "bandeau" }]')
    assert error.message.startswith("set_aside item 1: pattern is not a regular expression: unterminated character set")


@pytest.mark.parametrize(("options", "message"), [
    ('set_aside = [{ lines = [9, 3], reason = "x" }]', "set_aside item 1: lines [9, 3] ends before it starts"),
    ('set_aside = [{ lines = [0, 3], reason = "x" }]', "set_aside item 1: lines [0, 3] must start at line 1 or after"),
    ('relocate = [{ lines = [5, 4], after = 2, reason = "x" }]', "relocate item 1: lines [5, 4] ends before it starts"),
    ('relocate = [{ lines = [4, 5], after = 0, reason = "x" }]', "relocate item 1: after must be 1 or more, not 0"),
    ("caps_level = 0", "caps_level must be 1 or more, not 0"),
])
def test_spans_and_line_numbers(tmp_path, options, message):
    assert problem(tmp_path, options).message == message


def test_caption_span_first_after_last(tmp_path):
    error = problem(tmp_path, 'caption_spans = [{ lines = [9, 3], reason = "x" }]', profile="ocr-columns")
    assert (error.line, error.message) == (OPTIONS_LINE, "caption_spans item 1: lines [9, 3] ends before it starts")


# -- the line in the message -----------------------------------------------------------------------

def test_the_line_is_the_items_own_when_the_array_spans_lines(tmp_path):
    options = ('outline = ["# A"]\nset_aside = [\n  { lines = [1, 2], reason = "titre" },\n'
               '  { pattern = "^x", reason = "bandeau" },  # a comment, with { and [\n  { lines = [7, 5], reason = "crédits" },\n]')
    error = problem(tmp_path, options)
    assert error.line == OPTIONS_LINE + 4
    assert str(error) == f"corpus/demo/game.toml:{OPTIONS_LINE + 4}: set_aside item 3: lines [7, 5] ends before it starts"


def test_the_line_is_in_the_documents_own_options(tmp_path):
    """The same key in two documents: the line is the one under the document at fault."""
    second = ('\n[[documents]]\nid = "faq"\ntitle = "FAQ"\nkind = "faq"\nsource = "source.txt"\nprofile = "faq"\n'
              '\n[documents.options]\ncaps_level = 1\noutline = 2\n')
    error = problem(tmp_path, 'caps_level = 1\noutline = ["# A"]', extra_documents=second)
    assert error.message == "outline must be an array of strings, not an integer (2)"
    text = (tmp_path / "corpus/demo/game.toml").read_text(encoding="utf-8").splitlines()
    assert text[error.line - 1] == "outline = 2"


def test_inline_options_table(tmp_path):
    root = make_corpus(tmp_path, GOOD, options='options = { caps_level = 1, outline = 2 }')
    with pytest.raises(InputError, match="outline must be an array of strings") as caught:
        load_game(root / "corpus/demo/game.toml", root, option_classes())
    assert caught.value.line == 14


def test_several_problems_are_one_line_each_in_manifest_order(tmp_path):
    with pytest.raises(BuildError) as caught:
        load(tmp_path, 'caps_level = "1"\ncolour = "red"\nset_aside = [{ lines = [1, 3] }]')
    assert [(p.line, p.message.split(" (")[0]) for p in caught.value.problems] == [
        (OPTIONS_LINE, "caps_level must be an integer, not a string"),
        (OPTIONS_LINE + 1, "unknown option 'colour' for profile 'headed-prose'"),
        (OPTIONS_LINE + 2, "set_aside item 1: missing 'reason'"),
    ]
    assert len(str(caught.value).splitlines()) == 3


def test_options_given_in_code_are_checked_too():
    with pytest.raises(InputError, match=r"corpus/demo/game.toml: document 'regles': caps_level must be an integer"):
        segment_text("headed-prose", GOOD, {"caps_level": "2"})


# -- FAQ prefixes ----------------------------------------------------------------------------------

FAQ = """# Combat

Demande : Peut-on attaquer deux fois ?
Réplique : Non.

Demande : Et tirer après avoir bougé ?
Réplique : Oui, sauf les machines de guerre.
"""


def test_faq_prefixes_declared_give_question_entries():
    result, _, _ = segment_text("faq", FAQ, {"question_prefixes": ["Demande"], "answer_prefixes": ["Réplique"]})
    assert outline(result.entries) == [("combat", "section", "Combat"), ("combat/q1", "question", None),
                                       ("combat/q2", "question", None)]
    q1, q2 = result.entries[1:]
    assert [(b.type, b.text) for b in q1.blocks] == [("question", "Peut-on attaquer deux fois ?"), ("answer", "Non.")]
    assert [b.type for b in q2.blocks] == ["question", "answer"]


def test_faq_prefixes_undeclared_are_not_read_as_prefixes():
    """Undeclared, "Demande :" is no prefix: the lines still ask (they end with "?"), with the word
    kept in the question, and what follows is their answer."""
    result, _, _ = segment_text("faq", FAQ)
    q1 = next(e for e in result.entries if e.kind == "question")
    assert [(b.type, b.text) for b in q1.blocks] == [("question", "Demande : Peut-on attaquer deux fois ?"),
                                                     ("answer", "Réplique : Non.")]
    result, _, _ = segment_text("faq", FAQ.replace(" ?", "."))
    assert not [e for e in result.entries if e.kind == "question"]
    result, _, _ = segment_text("faq", FAQ.replace("Demande", "Q").replace("Réplique", "R"))
    assert [e.key for e in result.entries if e.kind == "question"] == ["combat/q1", "combat/q2"]


# -- the declarations ------------------------------------------------------------------------------

def test_every_option_is_declared_with_a_type_and_help():
    for name in PROFILES:
        cls = PROFILES[name].options
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, name
        for option, tp, help_, default in declared(cls):
            assert help_, f"{name}: option {option} has no help"
            assert default is not MISSING, f"{name}: option {option} has no default"
            type_name(tp)  # a type the validator understands


@dataclass(frozen=True, kw_only=True)
class Item:
    span: tuple[int, int] = field(metadata={"help": "", "check": line_span})
    name: str = field(metadata={"help": ""})


@dataclass(frozen=True)
class Options:
    pattern: str | None = field(default=None, metadata={"help": "", "check": regex})
    items: tuple[Item, ...] = field(default=(), metadata={"help": ""})
    weights: dict[str, float] = field(default_factory=dict, metadata={"help": ""})


def test_the_generic_validator():
    read = read_options(Options, {"pattern": "^a", "items": [{"span": [1, 2], "name": "x"}], "weights": {"a": 1}})
    assert read == Options("^a", (Item(span=(1, 2), name="x"),), {"a": 1.0})
    assert read_options(Options, read) is read
    with pytest.raises(OptionsError) as caught:
        read_options(Options, {"items": [{"span": [2, 1]}, {"span": [1, 1], "name": 3}], "other": 1}, "test")
    assert [(p.path, p.message) for p in caught.value.problems] == [
        (("other",), "unknown option 'other' for test (allowed: items, pattern, weights)"),
        (("items", 0, "span"), "items item 1: span [2, 1] ends before it starts"),
        (("items", 0), "items item 1: missing 'name'"),
        (("items", 1, "name"), "items item 2: name must be a string, not an integer (3)"),
    ]
    with pytest.raises(OptionsError, match="options must be a table, not an array"):
        read_options(Options, [])


# -- the manifest reference's table -----------------------------------------------------------------

def test_the_manifest_references_options_table_is_generated_from_the_declarations():
    page = tool.PAGE.read_text(encoding="utf-8")
    assert tool.current(page) is not None, "docs/manifest.md lost the options-table markers"
    assert tool.current(page) == tool.block(options_table()), (
        f"docs/manifest.md's options table differs from the profiles' declarations: run `{tool.COMMAND}`")


def test_the_manifest_reference_names_every_profile_and_document_kind():
    from extract.model import DOCUMENT_KINDS
    from extract.segment import PROFILES

    page = tool.PAGE.read_text(encoding="utf-8")
    assert [name for name in PROFILES if f"| `{name}` |" not in page] == []
    assert [kind for kind in DOCUMENT_KINDS if f"`{kind}`" not in page] == []


def test_the_table_names_each_option_once_with_its_profiles():
    table = options_table().splitlines()
    assert table[0] == "| option | profiles | type | meaning |"
    rows = {row.split(" | ")[0].strip("| `"): row for row in table[2:]}
    assert set(rows) == {name for cls in option_classes().values() for name in cls.__dataclass_fields__}
    assert rows["sidebar_pattern"].startswith("| `sidebar_pattern` | `ocr-columns` | string |")
    assert rows["set_aside"].startswith("| `set_aside` | all | array of {lines?, pattern?, reason} |")
    assert '(default `["Q", "Question"]`)' in rows["question_prefixes"]
    assert "(`\"^(exemple\\|sequence)\\b\"`)" in rows["sidebar_pattern"]  # the pipe escaped inside the table
