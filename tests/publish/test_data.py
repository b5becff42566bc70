"""extract/publish/data.py: an entry as the data files write it."""

from __future__ import annotations

import json

from extract.model import Block, Entry, Ref
from extract.publish.data import dumps, entry_json


def entries():
    topic = Entry("runewars", "reference", "topic", "49", "Ligne de vue", "49", blocks=[
        Block("paragraph", "Une unité voit.", "Une unité **voit**.", lines=[10, 11]),
        Block("bullet", "Sous-point.", depth=2, lines=[12]), Block("step", "Un.", number="1", lines=[13])],
        heading_lines=[9], flags=["redirect", "changed"], url="runewars/reference/49/#49", source_file="corpus/runewars/x.txt")
    rule = Entry("runewars", "reference", "rule", "49.1", None, "49.1", parent=topic, blocks=[Block("paragraph", "Règle.", lines=[14])])
    topic.children = [rule]
    topic.refs = [Ref("runewars/reference/8", "related", "Arc de tir"), Ref(None, "page", "p. 3", "no page map")]
    return topic, rule


def test_entry_json():
    topic, rule = entries()
    data = entry_json(topic)
    assert {k: data[k] for k in ("id", "parent", "children", "flags", "status", "text", "url")} == {
        "id": "runewars/reference/49", "parent": None, "children": ["runewars/reference/49.1"], "flags": ["changed", "redirect"],
        "status": "printed", "text": "Une unité voit.\n\nSous-point.\n\nUn.", "url": "runewars/reference/49/#49"}
    assert data["blocks"] == [{"type": "paragraph", "text": "Une unité voit."},
                              {"type": "bullet", "text": "Sous-point.", "depth": 2}, {"type": "step", "text": "Un.", "number": "1"}]
    assert data["markdown"] == "Une unité **voit**.\n\nSous-point.\n\nUn."  # only when a block has emphasis
    assert data["source"] == {"file": "corpus/runewars/x.txt", "lines": [9, 13]}  # heading to last block line
    assert data["refs"] == [{"target": "runewars/reference/8", "kind": "related", "text": "Arc de tir"},
                            {"target": None, "kind": "page", "text": "p. 3", "reason": "no page map"}]
    assert "original_blocks" not in data


def test_optional_fields_appear_when_set():
    topic, rule = entries()
    rule.original_blocks = [Block("paragraph", "Ancienne règle.", lines=[14])]
    rule.blocks = [Block("paragraph", "Règle corrigée.", lines=[3098])]  # a FAQ's line: not the book's span
    rule.status, rule.page = "amended", 13
    rule.original_title, rule.title = "Règle", "Règle corrigée"
    data = entry_json(rule)
    assert (data["title"], data["original_title"]) == ("Règle corrigée", "Règle")
    assert data["parent"] == "runewars/reference/49" and "markdown" not in data
    assert data["original_blocks"] == [{"type": "paragraph", "text": "Ancienne règle."}]
    assert data["source"] == {"file": "", "lines": [14, 14], "page": 13}
    assert entry_json(Entry("g", "d", "section", None, "Vide", "vide"))["source"] == {"file": "", "lines": []}


def test_dumps_is_sorted_and_keeps_accents():
    text = dumps({"b": "é", "a": [1]})
    assert text == '{\n "a": [\n  1\n ],\n "b": "é"\n}\n' and json.loads(text) == {"a": [1], "b": "é"}


def test_game_file_written_entry_by_entry_is_the_dumped_game(tmp_path):
    """write_game_json writes one entry at a time (issue 19: memory); the bytes are those of
    write_json(game_json(...)), with and without entries."""
    from extract.model import DocumentSpec, GameSpec
    from extract.publish.api import write_api
    from extract.publish.data import game_json, write_game_json, write_json

    doc = DocumentSpec("reference", "Guide", "reference", "1.0", "2020", "corpus/runewars/x.txt", 1, None, "numbered", {})
    game = GameSpec("runewars", "Runewars", [doc], [{"over": "faq", "under": "reference", "why": "« prévaut »"}],
                    "corpus/runewars/game.toml", {"corpus/runewars/x.txt": "ab" * 32})
    for listed in (list(entries()), []):
        write_json(tmp_path / "whole.json", game_json(game, listed, []))
        write_game_json(tmp_path / "streamed.json", game, listed, [])
        assert (tmp_path / "streamed.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
    # the static API takes the entries as they come (a generator), and writes the same files
    whole, lazy = tmp_path / "api-whole", tmp_path / "api-lazy"
    write_api(whole, [game_json(game, list(entries()), [])])
    write_api(lazy, ({**game_json(game, [], []), "entries": map(entry_json, entries())} for _ in range(1)))
    files = sorted(p.relative_to(whole) for p in whole.rglob("*.json"))
    assert files == sorted(p.relative_to(lazy) for p in lazy.rglob("*.json")) and len(files) == 3
    assert all((whole / f).read_bytes() == (lazy / f).read_bytes() for f in files)


def test_an_entry_keeps_the_ids_its_source_gave_its_heading():
    """"## Le marché {#marche}": in the entry's JSON, which keys its site page (`page_key`) and
    says which extra anchor the page shows; absent when the source gave none."""
    entry = Entry("demo", "regles", "section", None, "Le marché", "le-marche", anchors=["marche"])
    assert entry_json(entry)["anchors"] == ["marche"]
    assert "anchors" not in entry_json(Entry("demo", "regles", "section", None, "Combat", "combat"))
