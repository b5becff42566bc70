"""One definition of the data shape (issue 32 item 5): the model's dataclasses (extract/model.py),
the JSON Schemas (extract/contract/schema.py) and the light reader's TypedDicts
(extract/contract/reader.py) checked against each other, so that a new field reaches all three or
this test names where it is missing (`printed_title` reached the reader two commits late)."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from extract.contract import reader
from extract.contract.schema import GAME_SCHEMA, MODEL_SHAPES

DEFINITIONS = GAME_SCHEMA["$defs"]
TYPED = {"entry": reader.Entry, "block": reader.Block, "ref": reader.Ref, "erratum": reader.Erratum,
         "fact": reader.Fact, "document": reader.Document, "game": reader.Game}


@pytest.mark.parametrize("definition", sorted(TYPED))
def test_the_reader_declares_every_field_of_the_schema(definition):
    """Every field a game file may hold, for a type checker: the optional ones `NotRequired`."""
    schema = DEFINITIONS[definition]
    hints = typing.get_type_hints(TYPED[definition], include_extras=True)
    assert sorted(hints) == sorted(schema["properties"]), definition
    optional = {name for name, hint in hints.items() if typing.get_origin(hint) is typing.NotRequired}
    assert optional == set(schema["properties"]) - set(schema.get("required", [])), definition


@pytest.mark.parametrize("definition", sorted(MODEL_SHAPES))
def test_the_schema_declares_every_field_of_the_model(definition):
    """A model field is in the JSON under its name, or declared the build's own (`internal`); a
    JSON field is a model field, or declared made from others (`derived`)."""
    shape = MODEL_SHAPES[definition]
    fields = {field.name for field in dataclasses.fields(shape.model)}
    properties = set(DEFINITIONS[definition]["properties"])
    assert shape.internal <= fields and shape.derived <= properties, "the table names what is not there"
    assert not shape.internal & properties, "a field both internal and in the JSON"
    assert sorted(fields - shape.internal) == sorted(properties - shape.derived), definition


def test_every_reader_type_has_its_model():
    assert set(MODEL_SHAPES) == set(TYPED)
