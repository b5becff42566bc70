"""extract/read/text.py: a text source read strictly, its encoding declared or UTF-8, and a
good guess at the encoding of one that is not UTF-8."""

from __future__ import annotations

import re

import pytest

from extract.errors import InputError
from extract.read.text import decode, read_text
from tests.conftest import SHARED

# "Ajoutez l’être à la réserve d’endurance" as French Windows saves "ANSI" text: é, à in Latin-1's
# range, the curly apostrophe at 0x92 (a control character in Latin-1).
CP1252 = "Règle 1\nAjoutez l’être à la réserve d’endurance.\n".encode("cp1252")


@pytest.mark.parametrize(("data", "hint"), [
    (CP1252, "not valid UTF-8 (byte 0xe8; Windows-1252 (cp1252)?)"),
    ("Règle 1\nAjoutez l'être à la réserve.\n".encode("latin-1"), "not valid UTF-8 (byte 0xe8; Latin-1?)"),
    # UTF-8 but for one Latin-1 byte: the 0x80 inside the UTF-8 "’" (e2 80 99) is no sign of cp1252
    ("Règle 1 : l’être".encode() + b"\nr\xe9serve\n", "not valid UTF-8 (byte 0xe9; Latin-1?)"),
])
def test_a_text_not_in_utf8_names_the_encoding_it_is_likely_in(data, hint):
    with pytest.raises(InputError) as caught:
        decode(data, "regles.txt")
    assert hint in str(caught.value) and "declare its encoding" in str(caught.value)


def test_a_declared_encoding_reads_the_text(tmp_path):
    path = tmp_path / "regles.txt"
    path.write_bytes(CP1252)
    reading = read_text(path, "regles.txt", encoding="cp1252")
    assert [line.text for line in reading.lines] == ["Règle 1", "Ajoutez l’être à la réserve d’endurance."]
    path.write_bytes("Règle 1\n".encode("utf-16"))  # NUL bytes, but declared
    assert [line.text for line in read_text(path, "regles.txt", encoding="utf-16").lines] == ["Règle 1"]
    path.write_bytes(b"R\x81gle\n")  # 0x81 is no character in cp1252 either
    with pytest.raises(InputError, match=r"^regles.txt:1: not valid cp1252 \(byte 0x81\), the encoding its manifest declares"):
        read_text(path, "regles.txt", encoding="cp1252")


QCM = SHARED / "external" / "french-rules-devset" / "handball-ihf-qcm" / "ihf_qcm_2019_fr.txt"


@pytest.mark.skipif(not QCM.is_file(), reason="../shared/external/french-rules-devset is absent")
def test_a_real_book_saved_as_windows_1252_is_named_so_and_read_the_same(tmp_path):
    """The IHF handball quiz (2,400 curly apostrophes, œ, « ») as French Windows saves it."""
    path = tmp_path / "qcm.txt"
    path.write_bytes(QCM.read_text(encoding="utf-8").encode("cp1252"))
    with pytest.raises(InputError, match=r"; Windows-1252 \(cp1252\)\?\)"):
        read_text(path, "qcm.txt")
    assert read_text(path, "qcm.txt", encoding="cp1252").lines == read_text(QCM, "qcm.txt").lines


BLANK = "\u2003" * 3  # the blank leader the PDF reader writes for a contents line far from its page


def read_lines(tmp_path, text: str) -> list[str]:
    path = tmp_path / "regles.txt"
    path.write_text(text, encoding="utf-8")
    return [line.text for line in read_text(path, "regles.txt").lines]


@pytest.mark.parametrize("blank", ["", "\n"], ids=["packed", "double-spaced"])
def test_a_contents_list_with_wide_spaces_keeps_its_gaps_as_the_pdf_reader_writes_them(tmp_path, blank):
    text = f"Sommaire\n\nIntroduction        2\n{blank}Mise en place       3\n{blank}2.1 Les ordres\t5\n{blank}Combat   7\n"
    lines = [line for line in read_lines(tmp_path, text) if line]
    assert lines == ["Sommaire", f"Introduction{BLANK}2", f"Mise en place{BLANK}3", f"2.1 Les ordres{BLANK}5",
                     f"Combat{BLANK}7"]


@pytest.mark.parametrize("text", [
    # two lines only: a contents list is three at least, as in a PDF
    "Introduction        2\nCombat              7\n",
    # a paragraph whose wrapped lines end on numbers: one space before each
    "Au début du tour lancez 2\nDés pour chaque unité 3\nPuis avancez de 4\n",
    # a table: several gaps on a line, and a header row above the rows
    "Unité      Coût      Mouvement\nArchers      3      4\nLanciers      4      3\nChevaliers      6      6\n",
    "Unité\tCoût\nArchers\t3\nLanciers\t4\nChevaliers\t6\n",
    # numbers going back: a table of scores, not a book's pages in order
    "Victoire        3\nÉgalité         1\nDéfaite         0\n",
    # numbers alone, no title
    "2\t18\n4\t30\n6\t40\n",
])
def test_lines_ending_on_numbers_that_are_no_contents_list_stay_as_written(tmp_path, text):
    assert read_lines(tmp_path, text) == text.splitlines()


# Hostile texts (issue 38): decomposed Unicode, UTF-16.

NFD = "Règle 1\n\nLe défenseur lance les dés.\n"


@pytest.mark.parametrize("name", ["regles.txt", "regles.md"])
def test_decomposed_text_is_read_composed(tmp_path, name):
    """As some editors save it (NFD): "é" as "e" + U+0301 was not searchable, and `regles check` failed."""
    import unicodedata

    from extract.read import read_document

    path = tmp_path / name
    path.write_text(unicodedata.normalize("NFD", NFD), encoding="utf-8")
    texts = [line.text for line in read_document(path, name).lines]
    assert "Le défenseur lance les dés." in texts and all(unicodedata.is_normalized("NFC", t) for t in texts)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_a_text_with_a_byte_order_mark_is_read_in_its_encoding(tmp_path, codec):
    data = NFD.encode(codec)
    if codec == "utf-16-be":
        data = b"\xfe\xff" + data
    path = tmp_path / "regles.txt"
    path.write_bytes(data)
    assert [line.text for line in read_text(path, "regles.txt").lines if line.text] == ["Règle 1", "Le défenseur lance les dés."]


@pytest.mark.parametrize(("codec", "named"), [("utf-16-le", "UTF-16 (little-endian)"), ("utf-16-be", "UTF-16 (big-endian)")])
def test_utf16_without_a_byte_order_mark_is_named(codec, named):
    with pytest.raises(InputError, match=rf"regles.txt:1: {re.escape(named)} without a byte order mark, it seems: "
                                         rf"declare encoding = \"{codec}\""):
        decode(NFD.encode(codec), "regles.txt")


def test_a_binary_file_is_still_called_binary():
    with pytest.raises(InputError, match=r"binary file \(NUL byte\)"):
        decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "image.txt")
