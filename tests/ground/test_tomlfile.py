"""extract/tomlfile.py: corpus TOML read strictly, every error naming the file and line."""

from __future__ import annotations

import pytest

from extract.errors import InputError
from extract.tomlfile import line_of, read_toml, table_lines, unknown_key

RAW = 'id = "demo"\n\n[[documents]]\nid = "a"\n\n[[documents]]\nid = "b"\ncolour = "red"\n'


def test_line_of_finds_the_nth_match():
    assert line_of(RAW, r"^\[\[documents\]\]") == 3
    assert line_of(RAW, r"^\[\[documents\]\]", 1) == 6
    assert line_of(RAW, r"^\[\[documents\]\]", 2) is None
    assert line_of(RAW, r"^colour\s*=") == 8


def test_table_lines_gives_each_items_header_line_as_line_of_does():
    assert table_lines(RAW, "documents", 3) == [line_of(RAW, r"^\s*\[\[documents\]\]", i) for i in range(3)] == [3, 6, None]
    assert table_lines(RAW, "documents", 1) == [3]
    assert table_lines('  [[a.b]]\n[[aXb]]\n', "a.b", 2) == [1, None]  # the name is not a pattern


def test_read_toml_returns_data_text_and_relative_path(tmp_path):
    path = tmp_path / "corpus" / "demo" / "game.toml"
    path.parent.mkdir(parents=True)
    path.write_text(RAW, encoding="utf-8")
    data, raw, rel = read_toml(path, tmp_path)
    assert data["documents"][1] == {"id": "b", "colour": "red"} and raw == RAW and rel == "corpus/demo/game.toml"


def test_invalid_toml_names_the_line(tmp_path):
    path = tmp_path / "errata.toml"
    path.write_text('source = "x"\n\n[[errata\n', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_toml(path, tmp_path)
    assert (caught.value.file, caught.value.line) == ("errata.toml", 3)
    assert str(caught.value).startswith("errata.toml:3: invalid TOML")


def test_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "terms.toml"
    path.write_bytes('generic = ["Unité"]\n'.encode("latin-1"))
    with pytest.raises(InputError, match=r"^terms.toml: not UTF-8"):
        read_toml(path, tmp_path)


def test_unknown_key_names_its_line_and_the_allowed_ones():
    with pytest.raises(InputError) as caught:
        unknown_key({"id": "b", "colour": "red"}, {"id", "title"}, "game.toml", RAW, " in [[documents]]")
    assert str(caught.value) == "game.toml:8: unknown key 'colour' in [[documents]] (allowed: id, title)"
    unknown_key({"id": "b"}, {"id", "title"}, "game.toml", RAW)  # nothing unknown: no error


def test_input_error_without_a_line():
    assert str(InputError("corpus/x.txt", "source file is empty")) == "corpus/x.txt: source file is empty"


def test_a_toml_file_in_decomposed_unicode_is_read_composed(tmp_path):
    """An errata text or a fact's quote saved in NFD would never match the (NFC) rules."""
    import unicodedata

    from extract.tomlfile import read_toml

    path = tmp_path / "corpus/demo/terms.toml"
    path.parent.mkdir(parents=True)
    path.write_text(unicodedata.normalize("NFD", 'quote = "Le défenseur lance les dés."\n'), encoding="utf-8")
    data, raw, rel = read_toml(path, tmp_path)
    assert data["quote"] == "Le défenseur lance les dés." and unicodedata.is_normalized("NFC", raw)
