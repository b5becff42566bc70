"""The segment stage around the profiles: every line accounted for (placed, set aside, never
both), set-aside ranges compacted, the tree settled, section kinds, unknown profiles."""

from __future__ import annotations

import pytest

from extract.errors import InputError
from extract.model import Anomaly, Block, Entry, Line, Segmentation, SetAside
from extract.read.normalise import normalise
from extract.segment import book_order, document_report, segment_document
from extract.segment.segmenter import account, assign_section_kinds, compact, counts, settle_tree
from tests.helpers import document, text_lines


def entry(key: str, lines: list[int], number: str | None = None, parent: Entry | None = None) -> Entry:
    found = Entry("demo", "regles", "section", number, key, key, parent=parent, heading_lines=lines[:1],
                  blocks=[Block("paragraph", "x", lines=lines[1:])] if lines[1:] else [])
    return found


def lines(*numbers: int, covers: dict[int, tuple[int, ...]] | None = None) -> list[Line]:
    return [Line(n, f"ligne {n}", covers=(covers or {}).get(n, ())) for n in numbers]


def test_every_line_placed_or_set_aside_is_counted_once():
    result = Segmentation([entry("a", [1, 2]), entry("b", [5])], [SetAside((3, 4), "banner")])
    account(lines(1, 2, 3, 4, 5), result)
    assert result.anomalies == []
    assert counts(lines(1, 2, 3, 4, 5), result) == {"lines_read": 5, "lines_set_aside": 2, "lines_placed": 3}


def test_a_line_nobody_took_is_set_aside_and_reported():
    result = Segmentation([entry("a", [1, 2]), entry("b", [5])])
    account(lines(1, 2, 3, 4, 5, 7, 9), result)
    # 3 and 4 are one range; 7 and 9 too, since line 8 was blank (not read).
    assert [(s.lines, s.reason) for s in result.set_aside] == [((3, 4), "not recognised by the profile"),
                                                               ((7, 9), "not recognised by the profile")]
    assert [(a.kind, a.lines) for a in result.anomalies] == [("unrecognised-line", [3, 4, 7, 9])]


def test_a_line_both_placed_and_set_aside_is_reported():
    result = Segmentation([entry("a", [1, 2])], [SetAside((2, 2), "banner")])
    account(lines(1, 2), result)
    assert [(a.kind, a.lines) for a in result.anomalies] == [("placed-and-set-aside", [2])]


def test_lines_a_reader_joined_are_placed_with_their_line():
    result = Segmentation([entry("a", [1, 2])])
    read = lines(1, 2, covers={2: (3, 4)})
    account(read, result)
    assert result.anomalies == [] and result.set_aside == []
    assert counts(read, result) == {"lines_read": 4, "lines_set_aside": 0, "lines_placed": 4}


def test_set_aside_ranges_may_span_blank_lines_but_count_only_read_ones():
    result = Segmentation([entry("a", [1])], [SetAside((2, 9), "credits")])
    read = lines(1, 2, 5, 9)
    account(read, result)
    assert counts(read, result) == {"lines_read": 4, "lines_set_aside": 3, "lines_placed": 1}


@pytest.mark.parametrize(("items", "read", "expected"), [
    # Same reason, only blank lines between: one range.
    ([SetAside((2, 2), "r"), SetAside((4, 4), "r")], {2, 4}, [((2, 4), "r")]),
    # A read line between: two ranges.
    ([SetAside((2, 2), "r"), SetAside((4, 4), "r")], {2, 3, 4}, [((2, 2), "r"), ((4, 4), "r")]),
    # Different reasons never merge; order is by first line.
    ([SetAside((4, 4), "b"), SetAside((2, 2), "a")], {2, 4}, [((2, 2), "a"), ((4, 4), "b")]),
    # An inner range is absorbed.
    ([SetAside((1, 9), "r"), SetAside((3, 4), "r")], {1, 3, 4, 9}, [((1, 9), "r")]),
])
def test_compact(items, read, expected):
    assert [(s.lines, s.reason) for s in compact(items, read)] == expected


def test_numbered_children_sort_by_number_others_by_line():
    topic = entry("t", [1], number="9")
    rules = [entry(n, [line], number=n, parent=topic) for n, line in (("9.10", 2), ("9.2", 3), ("9.1", 4))]
    chapter = entry("c", [10])
    sections = [entry(k, [line], parent=chapter) for k, line in (("c/b", 14), ("c/a", 12))]
    settle_tree([topic, *rules, chapter, *sections])
    assert [c.number for c in topic.children] == ["9.1", "9.2", "9.10"]
    assert [c.key for c in chapter.children] == ["c/a", "c/b"]
    assert [e.key for e in book_order([*sections, chapter, *rules, topic])] == ["t", "9.1", "9.2", "9.10", "c", "c/a", "c/b"]


def test_section_kinds_name_the_entries_under_a_top_level_title():
    top = Entry("demo", "faq", "section", None, "Clarifications de Règles", "clarifications")
    inner = Entry("demo", "faq", "section", None, "Terrain", "clarifications/terrain", parent=top, blocks=[Block("paragraph", "x")])
    empty = Entry("demo", "faq", "section", None, "Vide", "clarifications/vide", parent=top)
    other = Entry("demo", "faq", "section", None, "Autre", "autre", blocks=[Block("paragraph", "x")])
    assign_section_kinds([top, inner, empty, other], {"Clarifications de règles": "clarification"})
    assert [e.kind for e in (top, inner, empty, other)] == ["section", "clarification", "section", "section"]


def test_unknown_profile_names_the_manifest_line():
    doc = document("astrologie")
    doc.manifest_line = 12
    with pytest.raises(InputError, match=r"corpus/demo/game.toml:12: unknown profile 'astrologie' for document 'regles' \(known: "):
        segment_document("demo", doc, text_lines("x"), "corpus/demo/game.toml")


def test_the_document_report_counts_what_the_profile_did():
    doc = document("headed-prose", {"set_aside": [{"lines": [1, 1], "reason": "title page"}]})
    lines_read, _, read = normalise(text_lines("Titre page\n\nRègles\n\nUn paragraphe.\n☉\n"), doc)
    result = segment_document("demo", doc, lines_read, "corpus/demo/game.toml")
    record = document_report(lines_read, read, result)
    assert (record.lines_read, record.lines_placed, record.lines_set_aside) == (4, 2, 2)
    assert [s.reason for s in record.set_aside] == ["title page", "pictograph-only line (game icons lost in conversion)"]


def test_anomaly_json_leaves_out_defaults():
    assert Anomaly("x", "d").to_json() == {"kind": "x", "detail": "d"}
    assert Anomaly("x", "d", [3], "severe").to_json() == {"kind": "x", "detail": "d", "lines": [3], "severity": "severe"}


def test_an_entry_stands_on_every_line_of_its_wrapped_paragraphs():
    """The Markdown reader gives a wrapped paragraph as one line covering the others: the entry's
    source lines run to the paragraph's last line (Dungeon World's 'Récupérer' said 1046–1047 for
    a text running to line 1053)."""
    lines = [Line(1, "# Mouvement"), Line(3, "Une unité se déplace de deux cases", covers=(4, 5)),
             Line(7, "## Charge", covers=(8,)), Line(9, "Une charge se fait en ligne droite", covers=(10,))]
    result = segment_document("demo", document("headed-prose"), lines, "corpus/demo/game.toml", reader="markdown")
    assert {e.title: e.lines for e in result.entries} == {"Mouvement": [1, 3, 4, 5], "Charge": [7, 8, 9, 10]}
    assert not result.set_aside and not [a for a in result.anomalies if a.kind == "unrecognised-line"]


def test_one_entry_holding_most_of_a_long_document_is_reported():
    from extract.segment.detect import detect_structure

    def alone(count: int) -> list[tuple[str, str]]:
        whole = entry("preambule", list(range(1, count + 1)))
        whole.blocks.append(Block("paragraph", "y", lines=[count]))  # a line counted twice is one line
        return [(a.kind, a.severity, a.detail.split()[2]) for a in detect_structure(Segmentation(entries=[whole]), count)
                if a.kind == "one-entry-holds-most"]

    assert alone(15) == []  # a short document may be one rule or one list
    assert alone(35) == [("one-entry-holds-most", "severe", "100%")]


def test_a_heading_s_source_id_is_an_anchor_of_its_entry_not_its_key():
    doc = document("headed-prose")
    found = segment_document("demo", doc, [Line(1, "# Le marché", anchor="marche"), Line(2, "Les prix.")],
                             "corpus/demo/game.toml")
    assert [(e.key, e.anchors) for e in found.entries] == [("le-marche", ["marche"])]
