"""extract/read/pdf_limits.py: hostile PDFs (issue 38) refused in one line naming the file, in
bounded time and memory: a ToUnicode range of 2³² codes, resources that refer to themselves, a
form that draws itself, a stream that inflates to a gigabyte, too many pages, too long a read."""

from __future__ import annotations

import base64
import dataclasses
import time
import zlib
from pathlib import Path

import pytest

from extract.errors import InputError
from extract.read import pdf_limits
from extract.read.pdf import read_pdf
from tests.read.pdf_maker import block, new, save

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
CONTENT = b"BT /F1 12 Tf 72 720 Td (Bonjour) Tj ET"


def stream(body: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(body), extra) + body + b"\nendstream"


def assemble(objects: dict[int, bytes]) -> bytes:
    """A PDF of the given objects (1: catalog), with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        out += b"%010d 00000 n \n" % offsets[number] if number in objects else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def page_pdf(resources: bytes = b"<< /Font << /F1 5 0 R >> >>", content: bytes = CONTENT,
             more: dict[int, bytes] | None = None) -> bytes:
    return assemble({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources " + resources + b" /Contents 4 0 R >>",
        4: stream(content),
        5: FONT,
        6: stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00> <FF> "
                  b"endcodespacerange\n1 beginbfchar <42> <0042> endbfchar\nendcmap end end"),
        **(more or {}),
    })


def read(tmp_path: Path, data: bytes):
    path = tmp_path / "hostile.pdf"
    path.write_bytes(data)
    return read_pdf(path, "hostile.pdf")


def test_the_hand_made_pdf_reads(tmp_path):
    """The frame the hostile ones below change: read as any PDF."""
    assert "Bonjour" in [line.text for line in read(tmp_path, page_pdf()).lines][0]


def test_a_tounicode_range_of_four_billion_codes_is_refused(tmp_path):
    cmap = stream(b"begincmap\n1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
                  b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange\nendcmap")
    start = time.thread_time()  # CPU seconds: a busy machine does not inflate them as it does a clock's
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 6: a CMap range of 4,294,967,296 codes, over the limit of 65,536"):
        read(tmp_path, page_pdf(more={6: cmap}))
    assert time.thread_time() - start < 30  # refused before reading: walking the range would take hours


def test_resources_that_refer_to_themselves_are_refused(tmp_path):
    with pytest.raises(InputError, match=r"^hostile.pdf: object 7 refers to itself .*reference cycle"):
        read(tmp_path, page_pdf(resources=b"7 0 R", more={7: b"7 0 R"}))


def test_a_form_that_draws_itself_is_refused(tmp_path):
    form = stream(b"/X Do", b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X 7 0 R >> >>")
    with pytest.raises(InputError, match=r"^hostile.pdf: form XObject 7 draws itself \(a reference cycle through 7 → 7\)"):
        read(tmp_path, page_pdf(resources=b"<< /Font << /F1 5 0 R >> /XObject << /X 7 0 R >> >>",
                                content=CONTENT + b" /X Do", more={7: form}))


def test_a_stream_inflating_past_its_limit_is_refused(tmp_path, monkeypatch):
    """A 1 MB stream inflating to 1 GB took 2 GB of memory; here 8 MB against a limit of 1 MB."""
    monkeypatch.setattr(pdf_limits, "LIMITS", dataclasses.replace(pdf_limits.LIMITS, stream_bytes=1 << 20))
    bomb = zlib.compress(b"0" * (8 << 20), 9)
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4 decodes \(FlateDecode\) to more than 1,048,576 bytes"):
        read(tmp_path, page_pdf(more={4: stream(bomb, b"/Filter /FlateDecode")}))


def small_streams(monkeypatch, limit: int = 1 << 20) -> None:
    monkeypatch.setattr(pdf_limits, "LIMITS", dataclasses.replace(pdf_limits.LIMITS, stream_bytes=limit))


def lzw(codes: list[int]) -> bytes:
    """LZW codes packed as a PDF reader unpacks them: 9 bits each, 10 from the 511th entry of the
    table, 11 from the 1023rd, 12 from the 2047th (a clear code, 256, empties the table)."""
    bits, width, table = "", 9, 258
    for code in codes:
        bits += format(code, f"0{width}b")
        if code == 256:
            width, table, first = 9, 258, True
        elif code != 257:
            table += 0 if first else 1
            first = False
            width = 12 if table >= 2047 else 11 if table >= 1023 else 10 if table >= 511 else 9
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big")


def test_an_lzw_stream_reads(tmp_path):
    """The bounded check leaves ordinary LZW content alone: each byte its own code."""
    content = stream(lzw([256, *CONTENT, 257]), b"/Filter /LZWDecode")
    assert "Bonjour" in read(tmp_path, page_pdf(more={4: content})).lines[0].text


def test_an_lzw_stream_decoding_past_its_limit_is_refused(tmp_path, monkeypatch):
    """Each code one byte longer than the one before: 2,000 codes (3 KB) give 2 MB."""
    small_streams(monkeypatch)
    bomb = lzw([256, 0, *range(258, 258 + 2000), 257])
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4 decodes \(LZWDecode\) to more than 1,048,576 bytes"):
        read(tmp_path, page_pdf(more={4: stream(bomb, b"/Filter /LZWDecode")}))


def test_a_runlength_stream_decoding_past_its_limit_is_refused(tmp_path, monkeypatch):
    """Two bytes for 128: 20 KB of runs make 1.3 MB (pdfminer holds each byte as a list item)."""
    small_streams(monkeypatch)
    bomb = b"\x81\x30" * 10_000 + b"\x80"
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4 decodes \(RunLengthDecode\) to more than 1,048,576"):
        read(tmp_path, page_pdf(more={4: stream(bomb, b"/Filter /RunLengthDecode")}))


def test_a_runlength_stream_reads(tmp_path):
    runs = b"".join(bytes([len(CONTENT[i:i + 100]) - 1]) + CONTENT[i:i + 100] for i in range(0, len(CONTENT), 100))
    content = stream(runs + b"\x80", b"/Filter /RunLengthDecode")
    assert "Bonjour" in read(tmp_path, page_pdf(more={4: content})).lines[0].text


def test_a_chain_of_filters_is_bounded_at_each_step(tmp_path, monkeypatch):
    """A Flate bomb written in ASCII85, then in hex: each filter decoded in turn, the last refused."""
    small_streams(monkeypatch)
    bomb = base64.a85encode(zlib.compress(b"0" * (4 << 20), 9), adobe=True).hex().encode()
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4 decodes \(FlateDecode\) to more than 1,048,576"):
        read(tmp_path, page_pdf(more={4: stream(bomb, b"/Filter [/ASCIIHexDecode /ASCII85Decode /FlateDecode]")}))
    content = stream(base64.a85encode(zlib.compress(CONTENT), adobe=True), b"/Filter [/A85 /Fl]")
    assert "Bonjour" in read(tmp_path, page_pdf(more={4: content})).lines[0].text


def test_ascii85_data_pdfminer_would_take_hours_over_is_refused(tmp_path):
    """pdfminer's ASCII85 decoder takes time with the cube of a run of spaces around a `~`
    (800 + 800: 15 s; a 1 MB run: hours). Refused at once; line breaks every 80 characters pass."""
    data = b"87cURD]i" + b" " * 5_000 + b"~" + b" " * 5_000 + b"~>"
    start = time.perf_counter()
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4: ASCII85 data with a run of 10,002 spaces and tildes"):
        read(tmp_path, page_pdf(more={4: stream(data, b"/Filter /ASCII85Decode")}))
    assert time.perf_counter() - start < 30
    encoded = base64.a85encode(CONTENT, adobe=True, wrapcol=20)
    assert "Bonjour" in read(tmp_path, page_pdf(more={4: stream(encoded, b"/Filter /ASCII85Decode")})).lines[0].text


def test_a_ccitt_stream_outside_an_image_is_bounded(tmp_path, monkeypatch):
    """CCITT fax data as a page's content: one bit a line of 8,000 pixels (1,000 bytes), 100 bytes
    of it 800 KB against a limit of 64 KB; a width past what the limit holds refused unread."""
    small_streams(monkeypatch, 64 << 10)
    params = b"/Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns %d >>"
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4 decodes \(CCITTFaxDecode\) to more than 65,536"):
        read(tmp_path, page_pdf(more={4: stream(b"\xff" * 100, params % 8000)}))
    with pytest.raises(InputError, match=r"^hostile.pdf: stream 4: a CCITT fax image 100000000 pixels wide"):
        read(tmp_path, page_pdf(more={4: stream(b"\xff", params % 100_000_000)}))


def test_an_image_is_not_decoded_to_be_checked(tmp_path, monkeypatch):
    """Reading text never decodes an image: a large one (here past a 1 MB limit) does not refuse the PDF."""
    small_streams(monkeypatch)
    picture = stream(zlib.compress(b"\xff" * (2 << 20)), b"/Type /XObject /Subtype /Image /Width 1024 /Height 2048 "
                     b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode")
    pdf = page_pdf(resources=b"<< /Font << /F1 5 0 R >> /XObject << /Im 7 0 R >> >>",
                   content=CONTENT + b" q 100 0 0 200 72 400 cm /Im Do Q", more={7: picture})
    assert "Bonjour" in read(tmp_path, pdf).lines[0].text


def test_too_many_pages_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_limits, "LIMITS", dataclasses.replace(pdf_limits.LIMITS, pages=1))
    pdf = new()
    for _ in range(2):
        pdf.add_page()
        block(pdf, 50, 60, 495, "Règles de Kiwi")
    with pytest.raises(InputError, match=r"^kiwi.pdf: 2 pages, over the limit of 1 for one PDF"):
        read_pdf(save(pdf, tmp_path / "kiwi.pdf"), "kiwi.pdf")


def test_a_read_past_its_time_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_limits, "LIMITS", dataclasses.replace(pdf_limits.LIMITS, seconds=0.001))
    with pytest.raises(InputError, match=r"^hostile.pdf: reading took more than 0.001 s \(the limit of one PDF\): stopped"):
        read(tmp_path, page_pdf())


def test_a_read_past_its_memory_is_stopped(tmp_path, monkeypatch):
    """Whatever the checks cannot foresee: the child's address space is bounded."""
    monkeypatch.setattr(pdf_limits, "LIMITS", dataclasses.replace(pdf_limits.LIMITS, memory_bytes=1 << 20))

    def greedy():
        return bytearray(64 << 20)

    with pytest.raises(InputError, match=r"^x.pdf: reading needs more than 1,048,576 bytes of memory"):
        pdf_limits.bounded(greedy, "x.pdf")


def test_an_error_in_the_child_is_its_own_line(tmp_path):
    with pytest.raises(InputError, match=r"^x.pdf: not good$"):
        pdf_limits.bounded(lambda: (_ for _ in ()).throw(InputError("x.pdf", "not good")), "x.pdf")
    assert pdf_limits.bounded(lambda: 42, "x.pdf") == 42
