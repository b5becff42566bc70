"""Bounds on reading a PDF: a hostile file (a stream that inflates to gigabytes, a ToUnicode map
declaring a range of 2³² codes, an object or a form that refers to itself) is refused with one line
naming it, in bounded time and memory, instead of eating the machine.

Two guards, both through pdfminer's public API and the standard library:
- `check_pdf` looks at every object of the file before any page is read: references that lead
  back to themselves, form XObjects that draw themselves, Flate streams inflating past
  `LIMITS.stream_bytes` (inflated at most that far, with zlib's own bound), CMap ranges wider
  than `LIMITS.cmap_range` codes;
- `bounded` runs the whole reading in a child process under an address-space limit
  (`LIMITS.memory_bytes` beyond what the process holds when forked) and a time limit
  (`LIMITS.seconds`): what the checks cannot foresee (other filters, pdfminer's own work) is
  still bounded, and its breach is one line.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import resource
import traceback
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from extract.errors import InputError

T = TypeVar("T")


@dataclass(frozen=True)
class PdfLimits:
    pages: int = 2000  # pages of one document
    stream_bytes: int = 64 << 20  # decoded bytes of one stream (a page's content, an image, a font)
    cmap_range: int = 1 << 16  # codes one range of a CMap (ToUnicode) may declare
    seconds: float = 300.0  # wall-clock time to read one document
    memory_bytes: int = 1 << 30  # memory the reading may take beyond the build's own


LIMITS = PdfLimits()

# A CMap's range: <start> <end> (bfrange, cidrange); hex strings bounded, so the match is linear.
CMAP_RANGE = re.compile(rb"<([0-9A-Fa-f]{1,32})>\s{0,64}<([0-9A-Fa-f]{1,32})>")
RANGE_BLOCK = re.compile(rb"begin(?:bf|cid)range(.*?)end(?:bf|cid)range", re.DOTALL)


def check_pdf(data: bytes, display: str, limits: PdfLimits | None = None) -> None:
    """Every object of the PDF looked at once, before reading: an InputError for the first breach."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE, PDFObjRef, PDFStream
    from pdfminer.psparser import LIT

    limits = limits or LIMITS
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
    form = LIT("Form")
    for objid, obj in objects.items():
        if not isinstance(obj, PDFStream):
            continue
        filters = obj.get_filters()
        decoded = None
        if filters and all(f in LITERALS_FLATE_DECODE for f, _ in filters) and len(filters) == 1:
            decoded = _inflate(obj.get_rawdata() or b"", limits.stream_bytes)
            if decoded is None:
                raise InputError(display, f"stream {objid} inflates to more than {limits.stream_bytes:,} bytes "
                                          f"(the limit of a stream): not read")
        elif not filters:
            decoded = obj.get_rawdata() or b""
        if decoded is not None and b"range" in decoded:
            _check_cmap(decoded, display, objid, limits.cmap_range)
        if obj.get("Subtype") is form:
            _check_forms(objid, objects, display, form)


def _inflate(raw: bytes, limit: int) -> bytes | None:
    """The Flate stream `raw` inflated, or None when it holds more than `limit` bytes (never more
    than `limit` + 1 held). A damaged stream gives what inflates before the damage."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(raw, limit + 1)
    except zlib.error:
        return b""
    return None if len(out) > limit else out


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
    child = context.Process(target=_child, args=(send, work, limits.memory_bytes), daemon=True)
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
