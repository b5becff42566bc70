"""Every regular expression of `extract/`, timed on adversarial input of growing length.

The patterns are found two ways, so that a new one is covered without being listed: by importing
every module of the package and walking its globals, its classes and their containers (tuples,
lists, dicts, named tuples, dataclasses) for compiled patterns; and by reading each module's source
for `re.<function>("literal", …)` calls, the patterns written inline in a function.

Each pattern then scans for every match (`subn`: the search `finditer`, `findall`, `sub` and `split`
make, at C speed) a family of strings built by repeating one unit (spaces, dots, leader dots, digits,
letters, brackets, `<`, French quotes, "de la section"…) to 1, 2, 4, 8 and 16 KB, timed in CPU
seconds of its thread (the machine may be shared). A linear pattern costs about ×2 per doubling; a
quadratic one ×4, an exponential one never ends (each run is cut at `HARD_STOP` seconds of CPU).

Most patterns are far too cheap to hide a quadratic cost, and small runs tell it: a cost of at
most a + b·n + c·n² shrinks by at most k² when the text shrinks k times, so a run under FLOOR / k²
at 8 KB / k shows the 8 KB run would stay under FLOOR (a cubic or exponential cost is larger still
at 1 KB: tens of milliseconds at the least). So the sizes are tried smallest first, one run each,
and only a pattern above those floors up to 8 KB is run at 16 KB. A run over the bound is repeated
(best of 3) before it fails the pattern; a pattern whose runs grew more than ×2.5² over the last
two doublings is timed again at every size, best of 7 (seven rounds, each timing every size in
turn), and called slow when those grew more than ×2.5 on each of them.

    python -m tools.linear [PART…]   # the slow patterns (those whose place names PART), worst first
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import extract

PACKAGE = Path(extract.__file__).parent
SIZES = (1024, 2048, 4096, 8192, 16384)
GROWTH = 2.5  # the most a run may grow per doubling of its input
BOUND = 0.1  # seconds: the most one run may take (a window of 80 characters tried at each of 16 KB: ~0.05 s)
FLOOR = 0.005  # seconds: under this at 8 KB, no quadratic cost (the cheapest is ~0.03 s) and no growth to measure
HARD_STOP = 1.0  # seconds: a run is cut here (an exponential pattern would never end)
RE_FUNCTIONS = frozenset({"compile", "match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split"})

# (name, text before, the unit repeated, text after): what a bad conversion or a hostile writer
# leaves, alone and behind what opens a heading, a contents line, a rule or a question.
FAMILIES: tuple[tuple[str, str, str, str], ...] = (
    ("spaces", "", " ", ""),
    ("tabs and spaces", "", "\t ", ""),
    ("no-break spaces", "", "\u00a0", ""),
    ("em spaces", "", "\u2003", "x"),
    ("dots", "", ".", ""),
    ("spaced dots", "", ". ", ""),
    ("leader dots", "", "·", ""),
    ("spaced leader dots", "", "· ", ""),
    ("ellipses", "", "…", ""),
    ("digits", "", "1", ""),
    ("dotted digits", "", "1.", ""),
    ("digits and spaces", "", "1 ", ""),
    ("listed numbers", "", "1, ", ""),
    ("letters", "", "a", ""),
    ("capitals", "", "É", ""),
    ("words", "", "mot ", ""),
    ("capitalised words", "", "Mot ", ""),
    ("hyphens", "", "-", ""),
    ("hyphenated letters", "", "a-", ""),
    ("dashes", "", "– ", ""),
    ("stars", "", "*", ""),
    ("underscores", "", "_", ""),
    ("brackets", "", "[", ""),
    ("closed brackets", "", "[a]", ""),
    ("parentheses", "", "(", ""),
    ("cid codes", "", "(cid:1)", ""),
    ("angle brackets", "", "<", ""),
    ("tags", "", "<a ", ""),
    ("French quotes", "", "« ", ""),
    ("closing quotes", "", "» ", ""),
    ("apostrophes", "", "l'", ""),
    ("colons", "", " :", ""),
    ("de la section", "", "de la section ", ""),
    ("voir", "", "voir ", ""),
    ("newlines", "", "\n", ""),
    ("blank lines", "", " \n", ""),
    ("pipes", "", "| ", ""),
    ("hashes", "", "#", ""),
    ("heading with leader dots", "## Combat ", "·", " 7"),
    ("heading with dots", "## Combat ", ".", " 7"),
    ("heading with spaced dots", "## Combat ", ". ", " 7"),
    ("heading with dashes", "## Combat ", "-", " 7"),
    ("heading with spaces", "## Combat ", " ", " 7"),
    ("contents line with dots", "Combat ", ".", " x"),
    ("numbered title with dots", "1.2 Combat ", ". ", "x"),
    ("rule number with letters", "1.2 ", "a", ""),
    ("question with words", "Q : ", "mot ", ""),
    ("quoted with spaces", "voir « ", " ", ""),
    ("section with words", "de la section ", "Mot ", ""),
    ("bold with spaces", "**", " ", ""),
    ("link with brackets", "[", "[", "]("),
    ("mixed", "", "a 1.« » [<(·… ", ""),
)


class Pattern(NamedTuple):
    """One compiled pattern and where it is written."""

    pattern: re.Pattern[str]
    where: str  # "extract.patterns.CITE", "extract/read/text.py:42"


class Slow(NamedTuple):
    """A pattern that missed: on which family, its seconds per size, and why."""

    where: str
    source: str
    family: str
    seconds: tuple[float, ...]
    reason: str


def modules() -> Iterator[str]:
    """The importable names of every module of the package."""
    yield "extract"
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="extract."):
        yield info.name


def _walk(value: object, where: str, seen: set[int], depth: int = 0) -> Iterator[Pattern]:
    """The compiled patterns in `value` and its containers, a few levels deep."""
    if id(value) in seen or depth > 4:
        return
    seen.add(id(value))
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            yield Pattern(value, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{where}[{key!r}]", seen, depth + 1)
    elif isinstance(value, tuple | list | set | frozenset):
        for n, item in enumerate(value):
            yield from _walk(item, f"{where}[{n}]", seen, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _walk(getattr(value, field.name, None), f"{where}.{field.name}", seen, depth + 1)


def _owned(value: object, module: str) -> bool:
    """Whether a module global is the module's own (not one imported from elsewhere)."""
    return getattr(value, "__module__", module) == module


def imported_patterns() -> Iterator[Pattern]:
    """The compiled patterns every module holds: globals, class attributes, their containers."""
    seen: set[int] = set()
    for name in modules():
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            where = f"{name}.{attribute}"
            if isinstance(value, type):
                if _owned(value, name):
                    for member, item in vars(value).items():
                        yield from _walk(item, f"{where}.{member}", seen)
            else:
                yield from _walk(value, where, seen)


def _flags(call: ast.Call, function: str) -> int:
    """The flags of a `re.<function>(…)` call when written as `re.X | re.Y` constants, else 0."""
    position = {"compile": 1, "match": 2, "search": 2, "fullmatch": 2, "findall": 2, "finditer": 2,
                "sub": 4, "subn": 4, "split": 3}[function]
    node = next((k.value for k in call.keywords if k.arg == "flags"), None)
    if node is None and len(call.args) > position:
        node = call.args[position]
    flags = 0
    for part in ast.walk(node) if node is not None else ():
        if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == "re":
            flags |= getattr(re, part.attr, 0)
    return flags


def inline_patterns() -> Iterator[Pattern]:
    """The patterns written as a literal in a `re.<function>(…)` call anywhere in the package."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_FUNCTIONS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                pattern = re.compile(node.args[0].value, _flags(node, node.func.attr))
                yield Pattern(pattern, f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")


def patterns() -> list[Pattern]:
    """Every pattern of the package once (the first place it is found names it)."""
    found: dict[tuple[str, int], Pattern] = {}
    for item in (*imported_patterns(), *inline_patterns()):
        found.setdefault((item.pattern.pattern, item.pattern.flags), item)
    return list(found.values())


def subject(family: tuple[str, str, str, str], size: int) -> str:
    """The family's string of about `size` characters."""
    _, before, unit, after = family
    return before + unit * max(1, (size - len(before) - len(after)) // len(unit)) + after


class _Stop(Exception):
    """A run cut at HARD_STOP."""


def _stop(signum: int, frame: object) -> None:
    raise _Stop


def timed(pattern: re.Pattern[str], text: str, repeat: int = 3, enough: float = FLOOR) -> float:
    """The best of up to `repeat` scans of `text`, seconds (one more only while the best is `enough` or
    more); HARD_STOP or more when a run was cut."""
    best = float("inf")
    previous = signal.signal(signal.SIGVTALRM, _stop)
    try:
        for _ in range(repeat):
            start = time.thread_time()
            try:  # the cut may come as the scan ends, before the timer is disarmed: a cut all the same
                signal.setitimer(signal.ITIMER_VIRTUAL, HARD_STOP)
                try:
                    pattern.subn("", text)  # every match, as finditer finds them, at C speed
                finally:
                    signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            except _Stop:
                return HARD_STOP
            best = min(best, time.thread_time() - start)
            if best < enough:
                break  # under what matters: one run is enough
    finally:
        signal.signal(signal.SIGVTALRM, previous)
    return best


def timed_together(pattern: re.Pattern[str], texts: list[str], repeat: int = 7) -> list[float]:
    """The best of `repeat` scans of each text, seconds, the texts taken in turn in each round: a
    change of load on a shared machine then slows every size alike, instead of the sizes timed
    while it lasts (all the runs of one size after another made a quadratic pattern look ×2.6
    per doubling, a linear one ×2.7)."""
    best = [float("inf")] * len(texts)
    for _ in range(repeat):
        for at, text in enumerate(texts):
            best[at] = min(best[at], timed(pattern, text, repeat=1))
    return best


def _may_grow(seconds: list[float]) -> bool:
    """Whether single runs grew more than ×GROWTH per doubling over the last two doublings taken
    together: a quadratic pattern grows about ×16 there, so the noise of one run on a shared
    machine does not hide it, and a linear one (×4) is timed again only when noise made it look so."""
    return seconds[-1] >= FLOOR and seconds[-1] > GROWTH ** 2 * max(seconds[-3], FLOOR / GROWTH ** 2 / 2)


def _grows(seconds: list[float]) -> bool:
    """Whether the runs grow faster than linear over both of the last two doublings (one alone may be
    noise: the machine is shared), the largest long enough to be measured."""
    return seconds[-1] >= FLOOR and all(large > GROWTH * max(small, FLOOR / GROWTH / 2)
                                        for small, large in zip(seconds[-3:], seconds[-2:], strict=False))


def probe(item: Pattern, family: tuple[str, str, str, str]) -> Slow | None:
    """The pattern on one family, sizes growing: None when linear, else what it missed."""
    seconds: list[float] = []
    for size in SIZES:
        # One run, repeated only when over the bound (a shared machine only makes a run slower).
        seconds.append(timed(item.pattern, subject(family, size), enough=BOUND))
        if seconds[-1] >= BOUND:
            return Slow(item.where, item.pattern.pattern, family[0], tuple(seconds), f"{seconds[-1]:.3f}s at {size} characters")
        if size < SIZES[-1] and seconds[-1] < FLOOR * (size / SIZES[-2]) ** 2:
            return None  # too cheap to cost FLOOR at 8 KB: no quadratic cost, no growth to measure
    if _may_grow(seconds) and _grows(seconds := timed_together(item.pattern, [subject(family, size) for size in SIZES])):
        return Slow(item.where, item.pattern.pattern, family[0], tuple(seconds),
                    f"×{seconds[-2] / max(seconds[-3], 1e-9):.1f} then ×{seconds[-1] / max(seconds[-2], 1e-9):.1f} per doubling")
    return None


def slow_patterns(found: list[Pattern] | None = None) -> list[Slow]:
    """Every pattern that is not linear on some family (its worst family only)."""
    missed: list[Slow] = []
    for item in found if found is not None else patterns():
        for family in FAMILIES:
            if slow := probe(item, family):
                missed.append(slow)
                break
    return missed


def main(only: list[str]) -> int:
    found = [item for item in patterns() if not only or any(part in item.where for part in only)]
    start = time.perf_counter()
    missed = slow_patterns(found)
    print(f"{len(found)} patterns, {len(FAMILIES)} families, {time.perf_counter() - start:.1f}s")
    for slow in sorted(missed, key=lambda s: -max(s.seconds)):
        print(f"{slow.where}: {slow.family}: {slow.reason}\n    {slow.source[:160]}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
