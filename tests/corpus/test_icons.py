"""corpus/<game>/icons.toml read strictly: every error names the file and the line."""

from __future__ import annotations

import pytest

from extract.corpus import read_icons
from extract.errors import InputError


def write(tmp_path, text: str):
    path = tmp_path / "corpus" / "demo" / "icons.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_game_without_icons_has_an_empty_table(tmp_path):
    assert not read_icons(tmp_path, "demo")


def test_icons_are_read_with_their_cues_folded_to_lower_case(tmp_path):
    table = read_icons(write(tmp_path, 'ignore = ["+"]\n\n[[icon]]\nname = "attaque à distance"\ncues = ["À  distance"]\n'), "demo")
    assert table.cues == {"à distance": "attaque à distance"} and table.ignore == {"+"}
    assert table.names == ["attaque à distance"] and table.file == "corpus/demo/icons.toml"


@pytest.mark.parametrize(("text", "message", "line"), [
    ('[[icon]]\nname = "marche"\ncues = ["marche"]\n\n[[icon]]\nname = "marche"\ncues = ["pas"]\n', "named twice", 5),
    ('[[icon]]\nname = "a"\ncues = ["x"]\n\n[[icon]]\nname = "b"\ncues = ["X"]\n', "announces two icons", 5),
    ('[[icon]]\nname = "a"\ncues = []\n', "non-empty list", 1),
    ('[[icon]]\nname = "[a]"\ncues = ["a"]\n', "without brackets", 1),
    ('[[icon]]\nname = "a"\ncues = ["a"]\ncolour = "red"\n', "unknown key 'colour'", 4),
    ('ignore = "+"\n', "ignore must be a list", 1),
])
def test_mistakes_name_the_file_and_line(tmp_path, text, message, line):
    with pytest.raises(InputError) as caught:
        read_icons(write(tmp_path, text), "demo")
    assert message in str(caught.value) and caught.value.line == line and "icons.toml" in str(caught.value)
