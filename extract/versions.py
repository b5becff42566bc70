"""What changed between two versions of a document: its entries (as the game file or `regles
extract --json` gives them: dicts with `id`, `number`, `title`, `text`) matched across the versions,
then sorted into added, removed, moved (renumbered or put under another parent) and changed (with
a word-level difference). An entry of the new version continues the old one it matches, in this
order (each pass only among the entries still unmatched):

1. the same text, word for word, found once on each side (a rule renumbered unchanged);
2. the same number, with texts alike (`SAME_NUMBER`), or the same id where the entry has no number
   (a heading path: the same title under the same headings);
3. the same title (case and accents aside), once on each side;
4. the most similar text (`SIMILAR`, difflib's ratio over words), best pairs first;
5. the same number whatever the text (a rule rewritten in place).

Pure data in, data out: the CLI reads the files, the site shows the result."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from extract.text import fold

SAME_NUMBER = 0.5  # an entry keeping its number continues the old one when their words are this alike
SIMILAR = 0.6  # an entry with another number and title continues the old one when this alike
UNIQUE_TEXT_WORDS = 4  # below this many words a text matches too many entries to say which it continues
CANDIDATES = 200  # old entries compared by text with each new one (the likeliest first, by quick ratio)

Entry = dict[str, Any]


@dataclass
class Pair:
    """An old entry and the new entry that continues it, with how they were matched."""

    old: Entry
    new: Entry
    how: str  # "text", "number", "id", "title", "similar", "renumbered in place"


@dataclass
class Diff:
    """The difference between two versions: entries added, removed, moved and changed, and how
    many stayed as they were."""

    added: list[Entry] = field(default_factory=list)
    removed: list[Entry] = field(default_factory=list)
    moved: list[Pair] = field(default_factory=list)
    changed: list[Pair] = field(default_factory=list)
    unchanged: int = 0
    pairs: list[Pair] = field(default_factory=list)  # every old entry continued, changed or not

    def counts(self) -> dict[str, int]:
        return {"added": len(self.added), "removed": len(self.removed), "moved": len(self.moved),
                "changed": len(self.changed), "unchanged": self.unchanged}

    def to_json(self) -> dict[str, Any]:
        return {
            "counts": self.counts(),
            "added": [brief(e) for e in self.added],
            "removed": [brief(e) for e in self.removed],
            "moved": [{"from": brief(p.old), "to": brief(p.new), "matched_by": p.how,
                       "changed": p in self.changed} for p in self.moved],
            "changed": [{"from": brief(p.old), "to": brief(p.new), "matched_by": p.how,
                         "title": [p.old.get("title"), p.new.get("title")] if title_changed(p) else None,
                         "words": word_segments(printed_text(p.old), printed_text(p.new))}
                        for p in self.changed],
        }


def brief(entry: Entry) -> dict[str, Any]:
    return {"id": entry["id"], "number": entry.get("number"), "title": entry.get("title")}


def printed_text(entry: Entry) -> str:
    """An entry's text as read, with the numbers of its numbered steps ("3. Réserver …"), which its
    blocks hold apart from their text: renumbering a step changes the rule."""
    blocks = entry.get("blocks")
    if not blocks:
        return entry.get("text") or ""
    return "\n\n".join(f"{b['number']}. {b['text']}" if b.get("number") else b["text"] for b in blocks)


def words(entry: Entry) -> list[str]:
    """The words entries are matched by: the title's and the text's (a heading without text, such as
    a line of a table of contents, is its title)."""
    return fold(f"{entry.get('title') or ''} {printed_text(entry)}").split()


def text_words(entry: Entry) -> list[str]:
    return fold(printed_text(entry)).split()


def local_id(entry: Entry) -> str:
    """The id without its game and document: the same rule of two versions of one book (or of two
    files read by `regles extract`, each its own document) has the same local id."""
    parts = entry["id"].split("/", 2)
    return parts[2] if len(parts) == 3 else entry["id"]


def title_changed(pair: Pair) -> bool:
    return fold(pair.old.get("title") or "") != fold(pair.new.get("title") or "")


def parent_key(entry: Entry, keys: dict[str, str]) -> str | None:
    parent = entry.get("parent")
    return keys.get(parent) if parent else None


def match_entries(old: list[Entry], new: list[Entry]) -> list[Pair]:
    """The pairs (old, new) of entries that continue each other, by the passes of the module's doc."""
    pairs: list[Pair] = []
    old_left = {i: e for i, e in enumerate(old)}
    new_left = {i: e for i, e in enumerate(new)}
    old_words = {i: words(e) for i, e in old_left.items()}
    new_words = {i: words(e) for i, e in new_left.items()}

    def take(i: int, j: int, how: str) -> None:
        pairs.append(Pair(old_left.pop(i), new_left.pop(j), how))

    def unique_by(key: Callable[[int, Entry, list[str]], str | None], how: str,
                  accept: Callable[[int, int], bool] = lambda i, j: True) -> None:
        """Entries whose key is found once on each side, paired."""
        old_keys = {i: key(i, e, old_words[i]) for i, e in old_left.items()}
        new_keys = {j: key(j, e, new_words[j]) for j, e in new_left.items()}
        old_count, new_count = Counter(k for k in old_keys.values() if k), Counter(k for k in new_keys.values() if k)
        by_key = {k: i for i, k in old_keys.items() if k and old_count[k] == 1}
        for j, k in new_keys.items():
            if k and new_count[k] == 1 and k in by_key and accept(by_key[k], j):
                take(by_key[k], j, how)

    unique_by(lambda i, e, w: " ".join(w) if len(w) >= UNIQUE_TEXT_WORDS else None, "text")
    unique_by(lambda i, e, w: e.get("number") or None, "number",
              lambda i, j: similarity(old_words[i], new_words[j]) >= SAME_NUMBER)
    unique_by(lambda i, e, w: None if e.get("number") else local_id(e), "id")
    unique_by(lambda i, e, w: fold(e.get("title") or "") or None, "title")
    for i, j in best_similar(old_left, new_left, old_words, new_words):
        take(i, j, "similar")
    unique_by(lambda i, e, w: e.get("number") or None, "renumbered in place")
    return pairs


def similarity(a: list[str], b: list[str]) -> float:
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def best_similar(old: dict[int, Entry], new: dict[int, Entry], old_words: dict[int, list[str]],
                 new_words: dict[int, list[str]]) -> list[tuple[int, int]]:
    """Pairs of unmatched entries whose texts are at least `SIMILAR` alike, the most alike first,
    each entry in one pair at most. Each new entry is compared with the `CANDIDATES` old ones its
    words overlap most (difflib's quick ratio, a bag-of-words bound), so that two long books with
    many new rules stay fast."""
    scored: list[tuple[float, int, int]] = []
    olds = [(i, old_words[i]) for i in old if old_words[i]]
    for j in new:
        b = new_words[j]
        if not b:
            continue
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(b)
        bounds = []
        for i, a in olds:
            matcher.set_seq1(a)
            bound = matcher.quick_ratio()
            if bound >= SIMILAR:
                bounds.append((bound, i))
        for _, i in sorted(bounds, reverse=True)[:CANDIDATES]:
            matcher.set_seq1(old_words[i])
            ratio = matcher.ratio()
            if ratio >= SIMILAR:
                scored.append((ratio, i, j))
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    chosen = []
    for _, i, j in sorted(scored, key=lambda s: (-s[0], s[1], s[2])):
        if i not in taken_old and j not in taken_new:
            taken_old.add(i)
            taken_new.add(j)
            chosen.append((i, j))
    return chosen


def diff_versions(old: list[Entry], new: list[Entry]) -> Diff:
    """Entries added, removed, moved and changed from `old` to `new` (each in book order)."""
    pairs = match_entries(old, new)
    continued = {p.new["id"]: p for p in pairs}
    old_ids = {p.old["id"] for p in pairs}
    # an entry's parent, said as the local id of the old entry it continues (so that a parent
    # renumbered with its children is no move of theirs)
    as_old = {p.new["id"]: local_id(p.old) for p in pairs} | {p.old["id"]: local_id(p.old) for p in pairs}
    result = Diff(pairs=pairs)
    result.added = [e for e in new if e["id"] not in continued]
    result.removed = [e for e in old if e["id"] not in old_ids]
    for entry in new:
        pair = continued.get(entry["id"])
        if pair is None:
            continue
        renumbered = (pair.old.get("number") or None) != (entry.get("number") or None)
        reparented = parent_key(pair.old, as_old) != parent_key(entry, as_old)
        if renumbered or reparented:
            result.moved.append(pair)
        if text_words(pair.old) != text_words(entry) or title_changed(pair):
            result.changed.append(pair)
        elif not (renumbered or reparented):
            result.unchanged += 1
    return result


def word_segments(before: str, after: str) -> list[list[str]]:
    """The old text against the new, word by word: `["=", words]`, `["-", words gone]`,
    `["+", words come]`, in reading order (words compared with case and accents, as printed)."""
    old, new = before.split(), after.split()
    segments: list[list[str]] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            segments.append(["=", " ".join(new[j1:j2])])
            continue
        if i2 > i1:
            segments.append(["-", " ".join(old[i1:i2])])
        if j2 > j1:
            segments.append(["+", " ".join(new[j1:j2])])
    return segments


def marked(segments: Iterable[list[str]], context: int = 8) -> str:
    """Segments as one line of text, git's way (`[-gone-]{+come+}`), each unchanged run cut to
    `context` words beside the changes around it."""
    items = list(segments)
    parts: list[str] = []
    for n, (op, text) in enumerate(items):
        if op == "-":
            parts.append(f"[-{text}-]")
        elif op == "+":
            parts.append(f"{{+{text}+}}")
        else:
            said = text.split()
            before, after = n > 0, n + 1 < len(items)  # a change before it, after it
            keep_head, keep_tail = (context if before else 0), (context if after else 0)
            if len(said) <= keep_head + keep_tail:
                parts.append(text)
            else:
                parts.append(" ".join([*said[:keep_head], "…", *said[len(said) - keep_tail:]]).strip())
    return " ".join(parts)




@dataclass
class Event:
    """What one version did to an entry: "added", "changed" (with its `words`) or "moved" (from
    the number it had, `was`)."""

    step: Step
    what: str
    words: list[list[str]] = field(default_factory=list)
    was: str | None = None


def entry_histories(steps: list[Step], current: Iterable[str]) -> dict[str, list[Event]]:
    """For each entry id of the current version, what each version did to it, newest first: the
    entry followed back through the versions by the pairs that continue it (its id in an older
    version may differ: renumbered), until the version that added it or the oldest."""
    histories: dict[str, list[Event]] = {cid: [] for cid in current}
    alias = {cid: cid for cid in histories}  # current id -> its id in the version reached
    for step in reversed(steps):
        by_new = {p.new["id"]: p for p in step.diff.pairs}
        added = {e["id"] for e in step.diff.added}
        changed = {id(p) for p in step.diff.changed}
        moved = {id(p) for p in step.diff.moved}
        older: dict[str, str] = {}
        for cid, vid in alias.items():
            if vid in added:
                histories[cid].append(Event(step, "added"))
                continue
            pair = by_new.get(vid)
            if pair is None:
                continue
            if id(pair) in moved:
                histories[cid].append(Event(step, "moved", was=pair.old.get("number") or pair.old.get("title")))
            if id(pair) in changed:
                histories[cid].append(Event(step, "changed", word_segments(printed_text(pair.old), printed_text(pair.new))))
            older[cid] = pair.old["id"]
        alias = older
    return {cid: events for cid, events in histories.items() if events}


@dataclass
class ErratumShift:
    """An erratum applied in one version and not in the other: its record in each (the game file's
    erratum: id, target, operation, status, reason…), None in a version that does not state it."""

    old: Entry | None
    new: Entry | None

    def to_json(self) -> dict[str, Any]:
        said = self.new or self.old or {}
        return {"id": said.get("id"), "operation": said.get("operation"), "instruction": said.get("instruction"),
                "target": said.get("target"),
                "from": side(self.old), "to": side(self.new)}


def side(erratum: Entry | None) -> dict[str, Any] | None:
    if erratum is None:
        return None
    return {"id": erratum["id"], "target": erratum.get("target"), "status": erratum["status"], "reason": erratum.get("reason"),
            "changes_text": takes(erratum)}


def takes(erratum: Entry | None) -> bool:
    """Whether a version takes the erratum: applied, and changing its text (`changes_text`, where
    said: an erratum whose words the version already prints is applied and changes nothing)."""
    return erratum is not None and erratum["status"] == "applied" and erratum.get("changes_text", True)


@dataclass
class ErrataShifts:
    """Errata the new version takes that the old did not (`applied`), and those it no longer takes
    (`unapplied`: its text already says what the erratum asks, or the passage it changed is gone).
    A version takes an erratum when the erratum changes its text (`takes`)."""

    applied: list[ErratumShift] = field(default_factory=list)
    unapplied: list[ErratumShift] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"newly_applied": [s.to_json() for s in self.applied],
                "no_longer_applied": [s.to_json() for s in self.unapplied]}


def erratum_key(erratum: Entry, renamed: dict[str, str]) -> tuple[str, str]:
    """What makes one erratum the same in two versions: where it is written (an entry of the old
    version said by the id of the entry continuing it) and its instruction as written (case, accents
    and spacing aside), or, for an erratum of a file with no instruction, its operation, target
    and new text."""
    source = renamed.get(erratum["source"], erratum["source"])
    said = fold(erratum.get("instruction") or "")
    if not said:
        said = " ".join((erratum["operation"], renamed.get(erratum.get("target") or "", erratum.get("target") or ""),
                         fold(erratum.get("after") or "")))
    return source, " ".join(said.split())


def errata_shifts(old: list[Entry], new: list[Entry], pairs: list[Pair]) -> ErrataShifts:
    """The errata (as the game file has them) applied to the new version and not to the old, and
    the reverse. `old` and `new` are the game's errata applied to each version; `pairs` the entries
    of the document matched across the versions (an erratum written in a FAQ entry renumbered
    stays the same erratum). Two errata written alike in one place are matched in order."""
    renamed = {p.old["id"]: p.new["id"] for p in pairs}
    olds: dict[tuple[str, str], list[int]] = {}
    for n, erratum in enumerate(old):
        olds.setdefault(erratum_key(erratum, renamed), []).append(n)
    found = ErrataShifts()
    continued: dict[int, Entry] = {}  # old erratum's place -> the new version's record of it
    for erratum in new:
        same = olds.get(erratum_key(erratum, renamed))
        before = None
        if same:
            continued[same[0]] = erratum
            before = old[same.pop(0)]
        if takes(erratum) and not takes(before):
            found.applied.append(ErratumShift(before, erratum))
    found.unapplied = [ErratumShift(e, continued.get(n)) for n, e in enumerate(old) if takes(e) and not takes(continued.get(n))]
    return found


@dataclass
class Step:
    """One version to the next: their names and dates, what changed, and the errata the later
    version newly takes or no longer takes (None where not compared)."""

    before: dict[str, str]  # {"version", "date"}
    after: dict[str, str]
    diff: Diff
    errata: ErrataShifts | None = None
