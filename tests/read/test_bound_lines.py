"""A reader gives no later stage a line longer than MAX_LINE (issue 37): longer ones are split at
spaces or set aside, each with a warning, and the accounting still holds."""

from __future__ import annotations

from extract.model import Line
from extract.read import MAX_LINE, Reading, bound_lines, read_document, split_at_spaces


def test_a_long_line_is_split_at_spaces_into_bounded_pieces() -> None:
    words = " ".join(f"mot{n}" for n in range(MAX_LINE // 2))
    reading = bound_lines(Reading("text", [Line(1, "Titre"), Line(2, words)], lines_read=2))
    assert all(len(line.text) <= MAX_LINE for line in reading.lines)
    assert " ".join(line.text for line in reading.lines[1:]) == words  # nothing lost
    assert {line.no for line in reading.lines[1:]} == {2}
    assert [(a.kind, a.severity, a.lines) for a in reading.anomalies] == [("long-line", "warning", [2])]


def test_a_long_line_without_spaces_is_set_aside_with_its_reason() -> None:
    reading = bound_lines(Reading("text", [Line(1, "Titre"), Line(2, "·" * (MAX_LINE + 1), covers=(3,))], lines_read=3))
    assert [line.text for line in reading.lines] == ["Titre"]
    assert reading.set_aside[0].lines == (2, 3) and "no space" in reading.set_aside[0].reason
    assert reading.anomalies[0].kind == "long-line"


def test_short_lines_are_left_as_they_are() -> None:
    reading = Reading("text", [Line(1, "a " * (MAX_LINE // 2))])
    assert bound_lines(reading) is reading


def test_split_at_spaces() -> None:
    assert split_at_spaces("aa bb cc", 5) == ["aa bb", "cc"]
    assert split_at_spaces("aaaaaa bb", 5) is None


def test_a_file_with_a_pathological_line_reads_in_bounded_lines(tmp_path) -> None:
    path = tmp_path / "regles.txt"
    path.write_text("Combat\n\n" + "1. " * MAX_LINE + "\n\n" + "«" * (2 * MAX_LINE) + "\n", encoding="utf-8")
    reading = read_document(path)
    assert max(len(line.text) for line in reading.lines) <= MAX_LINE
    assert [a.kind for a in reading.anomalies if a.kind == "long-line"] == ["long-line", "long-line"]
    assert [item.lines[0] for item in reading.set_aside] == [5]  # the quotes, with no space to split at
    assert sum(line.no == 3 for line in reading.lines) >= 3  # the numbers (30,000 characters), in pieces
