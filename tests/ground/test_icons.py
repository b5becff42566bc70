"""extract/icons.py: an icon named by the words printed before its glyph, whatever the glyph."""

from __future__ import annotations

from extract.icons import IconTable, name_icons, name_icons_in_entries
from extract.model import Block, Entry

TABLE = IconTable({"ralliement": "ralliement", "boost": "boost", "boost unique": "boost unique", "marche": "marche",
                   "à distance": "attaque à distance"}, frozenset({"+", "-"}), "corpus/demo/icons.toml")


def test_the_words_before_a_glyph_name_it_whatever_the_glyph():
    text = "une action Ralliement (☘), puis Ralliement () et le ralliement (🏹) ; une attaque à distance (🏹)."
    named, unmapped = name_icons(text, TABLE)
    assert named == ("une action Ralliement [ralliement], puis Ralliement [ralliement] et le ralliement [ralliement] ; "
                     "une attaque à distance [attaque à distance].")
    assert unmapped == []


def test_the_longest_cue_wins_and_cues_are_whole_words():
    assert name_icons("le symbole boost unique (♣) et deux boost (⚡)", TABLE)[0] == \
        "le symbole boost unique [boost unique] et deux boost [boost]"
    named, unmapped = name_icons("une démarche (☛)", TABLE)  # "marche" ends "démarche": not a cue
    assert named == "une démarche (☛)" and unmapped == [("☛", "une démarche (☛)")]
    # a cue of several words across a line break or a double space
    assert name_icons("un boost\nunique (♣) et  boost   unique (★)", TABLE)[0] == \
        "un boost\nunique [boost unique] et  boost   unique [boost unique]"


def test_signs_declared_as_text_and_unannounced_glyphs_stay_as_printed():
    named, unmapped = name_icons("un plus (+) ou un moins (-) ; chaque symbole (★) compte", TABLE)
    assert named == "un plus (+) ou un moins (-) ; chaque symbole (★) compte"
    assert [glyph for glyph, _ in unmapped] == ["★"]
    assert name_icons("Ralliement (☘)", IconTable()) == ("Ralliement (☘)", [])  # a game without icons.toml


def test_blocks_markdown_and_tables_are_named_and_the_rest_reported():
    entry = Entry(game="demo", document="regles", kind="rule", number="1", title="Marche (☛)",
                  key="1", blocks=[Block("paragraph", "Une Marche (☛) puis (★).", "Une **Marche** (☛) puis (★).", lines=[7]),
                                   Block("table", "boost (⚡)", rows=[["boost (⚡)", "2"]], lines=[8])])
    anomalies = name_icons_in_entries([entry], TABLE)
    assert entry.blocks[0].text == "Une Marche [marche] puis (★)."
    assert entry.blocks[0].markdown == "Une **Marche** [marche] puis (★)."  # the emphasis around a cue is no word
    assert entry.blocks[1].rows == [["boost [boost]", "2"]] and entry.blocks[1].text == "boost [boost]"
    assert entry.title == "Marche (☛)"  # titles (and so ids) are left as printed
    assert [(a.kind, a.lines, a.data) for a in anomalies] == [("icon-unmapped", [7], {"glyph": "★"})]
    assert "corpus/demo/icons.toml" in anomalies[0].detail
