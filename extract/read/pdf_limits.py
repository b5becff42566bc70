"""Bounds on reading a PDF: a hostile file (a stream that inflates to gigabytes, a ToUnicode map
declaring a range of 2³² codes, an object or a form that refers to itself) is refused with one line
naming it, in bounded time and memory, instead of eating the machine.

Two guards, both through pdfminer's public API and the standard library:
- `check_pdf` looks at every object of the file before any page is read: references that lead
  back to themselves, form XObjects that draw themselves, streams decoding past
  `LIMITS.stream_bytes` through any chain of the filters pdfminer decodes (Flate with zlib's own
  bound, LZW read piece by piece from pdfminer's decoder, RunLength's size added up from its
  length bytes, ASCII85 and ASCIIHex which cannot grow past 4× and ½, CCITT fax counted line by
  line through pdfminer's parser), ASCII85 data that pdfminer's decoder would take hours over,
  CMap ranges wider than `LIMITS.cmap_range` codes. Images are skipped: reading text never
  decodes them (pdfplumber keeps their streams undecoded);
- `bounded` runs the whole reading in a child process under an address-space limit
  (`LIMITS.memory_bytes` beyond what the process holds when forked) and a time limit
  (`LIMITS.seconds`): what the checks cannot foresee (pdfminer's own work, an object stream
  decoded while the file is opened) is still bounded, and its breach is one line.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import resource
import signal
import threading
import time
import traceback
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from extract.errors import InputError

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class PdfLimits:
    pages: int = 2000  # pages of one document
    stream_bytes: int = 64 << 20  # decoded bytes of one stream (a page's content, an image, a font)
    cmap_range: int = 1 << 16  # codes one range of a CMap (ToUnicode) may declare
    seconds: float = 300.0  # wall-clock time to read one document
    memory_bytes: int = 1 << 30  # memory the reading may take beyond the build's own (in each of its processes)
    processes: int = 0  # processes one document's pages are read in (0: as many as the cores this process may use)


LIMITS = PdfLimits()

# A CMap's range: <start> <end> (bfrange, cidrange); hex strings bounded, so the match is linear.
CMAP_RANGE = re.compile(rb"<([0-9A-Fa-f]{1,32})>\s{0,64}<([0-9A-Fa-f]{1,32})>")
RANGE_BLOCK = re.compile(rb"begin(?:bf|cid)range(.*?)end(?:bf|cid)range", re.DOTALL)


def check_pdf(data: bytes, display: str, limits: PdfLimits | None = None, document: Any = None) -> None:
    """Every object of the PDF looked at once, before reading: an InputError for the first breach.
    `document`: the reader's own pdfminer `PDFDocument` of `data` (pdfplumber's `PDF.doc`), opened
    but no page read yet: the objects parsed here are those its pages then take from its cache,
    parsed once, not once here and again for the pages."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import PDFObjRef, PDFStream
    from pdfminer.psparser import LIT

    limits = limits or LIMITS
    if document is None:
        try:
            document = PDFDocument(PDFParser(io.BytesIO(data)))
        except Exception:  # damaged or encrypted: the reader says which, in its own words
            return
    objids = sorted({objid for xref in document.xrefs for objid in xref.get_objids()})
    objects: dict[int, Any] = {}
    for objid in objids:
        try:
            objects[objid] = document.getobj(objid)
        except Exception:  # a damaged object: the reader meets it, or not
            continue
    for objid, obj in objects.items():
        seen = {objid}
        while isinstance(obj, PDFObjRef):  # pdfminer's resolve1 follows such a chain without end
            if obj.objid in seen:
                raise InputError(display, f"object {objid} refers to itself through {len(seen)} reference(s) "
                                          "(a reference cycle): damaged or hostile PDF")
            seen.add(obj.objid)
            obj = objects.get(obj.objid)
    form, image = LIT("Form"), LIT("Image")
    for objid, obj in objects.items():
        if not isinstance(obj, PDFStream) or obj.get("Subtype") is image:
            continue  # an image's data is never decoded to read a page's text
        decoded = _decoded(obj, objid, display, limits.stream_bytes)
        if decoded is not None and b"range" in decoded:
            _check_cmap(decoded, display, objid, limits.cmap_range)
        if obj.get("Subtype") is form:
            _check_forms(objid, objects, display, form)


class _Refused(Exception):
    """A stream whose decoding would breach a bound: why (empty: past the limit of a stream)."""


def _decoded(stream: Any, objid: int, display: str, limit: int) -> bytes | None:
    """The bytes pdfminer will decode from `stream`, each filter of its chain applied under the
    limit of a stream: an InputError when one goes past it; None when the data is not read as text
    (a JPEG, a filter pdfminer refuses itself, data a filter finds damaged: the reader says so)."""
    data = stream.get_rawdata() or b""
    if stream.decipher is not None and stream.objid is not None:
        try:
            data = stream.decipher(stream.objid, stream.genno, data, stream.attrs)
        except Exception:  # noqa: BLE001 - the reader meets the same and says so in its own words
            return None
    for name, params in stream.get_filters():
        decoder = next((decode for names, decode in _decoders() if name in names), None)
        if decoder is None:
            return None
        try:
            data = decoder(data, params if isinstance(params, dict) else {}, limit)
            if len(data) > limit:
                raise _Refused()
        except _Refused as refused:
            raise InputError(display, f"stream {objid}: {refused}" if str(refused) else
                             f"stream {objid} decodes ({getattr(name, 'name', name)}) to more than {limit:,} bytes "
                             "(the limit of a stream): not read") from None
        except Exception:  # noqa: BLE001 - damaged data: the reader meets it and says so in its own words
            return None
    return data


def _inflate(raw: bytes, params: dict, limit: int) -> bytes:
    """Flate: inflated with zlib's own bound (never more than `limit` + 1 bytes held). A damaged
    stream gives what inflates before the damage."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(raw, limit + 1)
    except zlib.error:
        return b""
    if len(out) > limit:
        raise _Refused()
    return out


def _lzw(raw: bytes, params: dict, limit: int) -> bytes:
    """LZW, through pdfminer's own decoder, read piece by piece and stopped past `limit`."""
    from pdfminer.lzw import LZWDecoder

    pieces, size = [], 0
    for piece in LZWDecoder(io.BytesIO(raw)).run():
        size += len(piece)
        if size > limit:
            raise _Refused()
        pieces.append(piece)
    return b"".join(pieces)


def _runlength(raw: bytes, params: dict, limit: int) -> bytes:
    """RunLength: the decoded size added up from the runs' length bytes (PDF 1.7, 7.4.5) before
    pdfminer's decoder, which holds each decoded byte as a list item, runs."""
    from pdfminer.runlength import rldecode

    size = at = 0
    while at < len(raw) and raw[at] != 128:
        length = raw[at]
        size, at = (size + length + 1, at + length + 2) if length < 128 else (size + 257 - length, at + 2)
        if size > limit:
            raise _Refused()
    return rldecode(raw)


ASCII85_WORK = 10_000_000  # the sum of the cubes of the data's runs of white space and `~`


def _ascii85(raw: bytes, params: dict, limit: int) -> bytes:
    """ASCII85 (at most 4 bytes out per byte in: `z` is four zeros). pdfminer's decoder strips the
    end marker with a pattern that takes time growing with the cube of a run of white space and
    `~` (two runs of 800 spaces around a `~`: 15 s); long runs are refused, line breaks pass."""
    from pdfminer.ascii85 import ascii85decode

    runs = SPACE_RUNS.findall(raw)
    if sum(len(run) ** 3 for run in runs) > ASCII85_WORK:
        raise _Refused(f"ASCII85 data with a run of {max(map(len, runs)):,} spaces and tildes, which pdfminer's "
                       "decoder reads in time growing with its cube: damaged or hostile PDF")
    return ascii85decode(raw)


def _asciihex(raw: bytes, params: dict, limit: int) -> bytes:
    """ASCIIHex: half as many bytes out as in."""
    from pdfminer.ascii85 import asciihexdecode

    return asciihexdecode(raw)


CCITT_BYTES = 4 << 20  # a fax image's decoded bytes (1 bit a pixel: an A4 page at 570 dpi)


def _ccitt(raw: bytes, params: dict, limit: int) -> bytes:
    """CCITT fax (group 4, the one pdfminer decodes), met here outside an image (a page's content,
    a font): its lines counted through pdfminer's own parser, its public `output_line` hook adding
    up their bytes, before pdfminer's decoder runs. Both do pure-Python work per pixel, and the
    decoder copies its output once per line: bounded at `CCITT_BYTES`."""
    from pdfminer.ccitt import CCITTG4Parser, ccittfaxdecode

    limit = min(limit, CCITT_BYTES)
    columns = params.get("Columns", 1728)
    if not isinstance(columns, int) or not 0 < columns <= limit * 8:
        raise _Refused(f"a CCITT fax image {columns!r} pixels wide: damaged or hostile PDF")

    class Counter(CCITTG4Parser):
        size = 0

        def output_line(self, y: int, bits: Any) -> None:
            self.size += (len(bits) + 7) // 8
            if self.size > limit:
                raise _Refused()

    Counter(columns, bytealign=bool(params.get("EncodedByteAlign"))).feedbytes(raw)
    return ccittfaxdecode(raw, params)


SPACE_RUNS = re.compile(rb"[\s~]{2,}+")


def _decoders() -> tuple[tuple[tuple[Any, ...], Callable[[bytes, dict, int], bytes]], ...]:
    """pdfminer's names of each filter it decodes, and the bounded decoding of it."""
    from pdfminer import pdftypes

    return ((pdftypes.LITERALS_FLATE_DECODE, _inflate), (pdftypes.LITERALS_LZW_DECODE, _lzw),
            (pdftypes.LITERALS_ASCII85_DECODE, _ascii85), (pdftypes.LITERALS_ASCIIHEX_DECODE, _asciihex),
            (pdftypes.LITERALS_RUNLENGTH_DECODE, _runlength), (pdftypes.LITERALS_CCITTFAX_DECODE, _ccitt))


def _check_cmap(decoded: bytes, display: str, objid: int, limit: int) -> None:
    for block in RANGE_BLOCK.finditer(decoded):
        for start, end in CMAP_RANGE.findall(block.group(1)):
            width = int(end, 16) - int(start, 16) + 1
            if width > limit:
                raise InputError(display, f"stream {objid}: a CMap range of {width:,} codes, over the limit of "
                                          f"{limit:,}: damaged or hostile PDF")


def _check_forms(objid: int, objects: dict[int, Any], display: str, form: Any) -> None:
    """A form XObject that draws itself, directly or through other forms (depth-first, by ids)."""
    from pdfminer.pdftypes import PDFObjRef, PDFStream

    def forms_drawn(stream: Any) -> list[int]:
        resources = stream.get("Resources")
        resources = objects.get(resources.objid) if isinstance(resources, PDFObjRef) else resources
        xobjects = resources.get("XObject") if isinstance(resources, dict) else None
        xobjects = objects.get(xobjects.objid) if isinstance(xobjects, PDFObjRef) else xobjects
        if not isinstance(xobjects, dict):
            return []
        return [ref.objid for ref in xobjects.values() if isinstance(ref, PDFObjRef)
                and isinstance(objects.get(ref.objid), PDFStream) and objects[ref.objid].get("Subtype") is form]

    path: list[int] = [objid]
    stack = [iter(forms_drawn(objects[objid]))]
    done: set[int] = set()
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            done.add(path.pop())
            continue
        if child in path:
            raise InputError(display, f"form XObject {child} draws itself (a reference cycle through "
                                      f"{' → '.join(map(str, path[path.index(child):] + [child]))}): damaged or hostile PDF")
        if child not in done:
            path.append(child)
            stack.append(iter(forms_drawn(objects[child])))


def _address_space() -> int | None:
    """Bytes of address space this process holds now (Linux), or None."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _child(connection: Any, work: Callable[[], Any], memory: int) -> None:
    held = _address_space()
    if held is not None:
        limit = held + memory
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    try:
        connection.send(("ok", work()))
    except MemoryError:
        connection.send(("memory", None))
    except InputError as error:
        connection.send(("error", error))
    except BaseException as error:  # a bug or a damaged file pdfminer did not foresee: said by the parent
        connection.send(("failed", f"{type(error).__name__}: {error}"[:300] + "\n" + traceback.format_exc()[-2000:]))
    finally:
        connection.close()


def bounded(work: Callable[[], T], display: str, limits: PdfLimits | None = None) -> T:
    """`work()` run in a forked child process under the memory and time limits; its result, or an
    InputError naming `display` when it went past one (the child is killed), or its own InputError."""
    limits = limits or LIMITS
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    # not a daemon: the reading may fork its own helpers (`in_parts`); the child is killed below whatever happens
    child = context.Process(target=_child, args=(send, work, limits.memory_bytes))
    child.start()
    send.close()
    try:
        if not receive.poll(limits.seconds):
            raise InputError(display, f"reading took more than {limits.seconds:g} s (the limit of one PDF): stopped")
        try:
            status, value = receive.recv()
        except EOFError:
            raise InputError(display, f"the reading stopped without a result (exit code {child.exitcode}): "
                                      "damaged or hostile PDF") from None
    finally:
        child.join(1)  # it ends once its result is sent; killed when it does not (a breach)
        if child.is_alive():
            child.kill()
            child.join()
        receive.close()
    if status == "ok":
        return value
    if status == "memory":
        raise InputError(display, f"reading needs more than {limits.memory_bytes:,} bytes of memory "
                                  "(the limit of one PDF): stopped")
    if status == "error":
        raise value
    raise InputError(display, f"damaged or unreadable PDF ({value.splitlines()[0]})")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def in_parts(items: list[T], work: Callable[[list[T]], list[R]], display: str, limits: PdfLimits | None = None) -> list[R]:
    """`work(part)` over `items` cut in contiguous parts, one per process (`limits.processes`, or
    the cores): the first part in this process, each other in a forked child (it inherits this
    process's memory bound, and gets the time limit as CPU seconds), all at once; their results
    joined in order. Deterministic: the same results as `work(items)`, and on failure the error of
    the first part that failed, as when the parts are read one after the other."""
    limits = limits or LIMITS
    count = min(len(items), limits.processes or cores())
    if count <= 1:
        return work(items)
    size = -(-len(items) // count)
    parts = [items[at:at + size] for at in range(0, len(items), size)]
    context = multiprocessing.get_context("fork")
    children = []
    try:
        for part in parts[1:]:
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_part_child, args=(send, work, part, limits.seconds))
            child.start()
            send.close()
            children.append((child, receive))
        results = work(parts[0])
        for child, receive in children:
            try:
                status, value = receive.recv()
            except EOFError:
                child.join(1)
                raise InputError(display, f"the reading stopped without a result (exit code {child.exitcode}): "
                                          "damaged or hostile PDF") from None
            if status == "memory":
                raise MemoryError()
            if status == "error":
                raise value
            if status == "failed":
                raise RuntimeError(value)
            results += value
        return results
    finally:
        for child, receive in children:
            child.join(1)  # each ends once its result is sent; killed when this process stops first
            if child.is_alive():
                child.kill()
                child.join()
            receive.close()


PARENT_POLL = 0.5  # seconds between a page helper's looks at whether the reading it helps still runs


def _part_child(connection: Any, work: Callable[[Any], Any], part: Any, seconds: float) -> None:
    parent = os.getppid()

    def watch() -> None:  # the reading stopped (killed past its time): this helper stops too
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = int(seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu if hard == resource.RLIM_INFINITY else min(cpu, hard), hard))
    try:
        connection.send(("ok", work(part)))
    except MemoryError:
        connection.send(("memory", None))
    except InputError as error:
        connection.send(("error", error))
    except BaseException as error:  # a bug: said by the parent as its own
        connection.send(("failed", f"{type(error).__name__}: {error}"[:300]))
    finally:
        connection.close()
