"""Apply one operation to one entry's blocks: find the block the instruction means, check it is
the one the new text replaces, change it, and say how.

An ordinal in an errata text may count blocks differently from our segmentation ("the second
paragraph" of a rule made of one paragraph and two bullets is its second bullet), so each unit
is counted under a few conventions and the candidate most like the new text wins; when none is
like it, the operation fails with the reason instead of guessing.

Pure functions over `Entry` and `Block`; nothing here knows where an erratum came from.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field

from extract.model import Block, Entry, Operation
from extract.text import fold

# How alike a chosen block and its new text must be (token sequence ratio, 0..1). Real rewrites
# in the corpus score 0.35 and more; a block picked by a wrong count scores below 0.2.
MIN_SIMILARITY = 0.3
SAME_TEXT = 0.97  # above this, two texts are the same text (spacing, accents, icons aside)
TEXT_TYPES = ("paragraph", "bullet", "subbullet", "step")
NAVIGATION_TYPES = ("related", "see")

# Ways of counting a unit, tried in order: (name, block types counted).
CONVENTIONS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "paragraph": [
        ("counting paragraphs only", ("paragraph",)),
        ("counting paragraphs and bullets", ("paragraph", "bullet", "step")),
        ("counting bullets as paragraphs", ("bullet",)),
    ],
    "bullet": [
        ("counting bullets", ("bullet",)),
        ("counting bullets and sub-bullets", ("bullet", "subbullet")),
    ],
    "subbullet": [("counting sub-bullets", ("subbullet",))],
}


class NotApplicable(Exception):
    """The operation cannot be applied to this entry; the message says why."""


class OrdinalOutOfRange(NotApplicable):
    """The ordinal counts past the blocks there are, under every way of counting."""


@dataclass
class Change:
    """What applying one operation did."""

    resolution: str
    before: str | None = None
    changed: bool = True
    touched: list[Block] = field(default_factory=list)  # blocks now carrying the new text
    replaced: list[Block] = field(default_factory=list)  # blocks that were there before
    notes: list[str] = field(default_factory=list)  # things a reader should know (text dropped…)


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


# Function words say nothing about which block an erratum means.
STOP_WORDS = frozenset("""
a au aux avec ce ces cet cette d dans de des du elle elles en est et il ils l la le les leur lui mais ne
n ou par pas pour qu que qui s se ses si son sont sa sur un une y c j m t à ont été être avoir fait
""".split())


def stems(text: str) -> set[str]:
    """Content words cut to five letters: "calculée"/"calculez", "bords"/"bord" meet."""
    return {t[:5] for t in tokens(text) if t not in STOP_WORDS}


def similarity(a: str, b: str) -> float:
    """Dice coefficient of content-word stems: rewrites keep their subject's words."""
    sa, sb = stems(a), stems(b)
    if not sa or not sb:
        return 1.0 if tokens(a) == tokens(b) else 0.0
    return 2 * len(sa & sb) / (len(sa) + len(sb))


def same_text(a: str, b: str) -> bool:
    """The same text, spacing, case, accents and icons aside."""
    return tokens(a) == tokens(b) or difflib.SequenceMatcher(None, tokens(a), tokens(b), autojunk=False).ratio() >= SAME_TEXT


def sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[«\"A-ZÀ-ÖØ-Þ0-9])", text.strip())
    return [p for p in parts if p]


def joined(blocks: list[Block]) -> str:
    return "\n\n".join(b.text for b in blocks)


def ordinal_index(count: int, ordinal: int) -> int | None:
    index = ordinal - 1 if ordinal > 0 else count + ordinal
    return index if 0 <= index < count else None


def unit_span(blocks: list[Block], index: int, with_subbullets: bool) -> int:
    """End of the unit starting at `index`: a bullet carries its sub-bullets when asked to."""
    end = index + 1
    if with_subbullets and blocks[index].type == "bullet":
        while end < len(blocks) and blocks[end].type == "subbullet":
            end += 1
    return end


def choose_block(blocks: list[Block], op: Operation, new_text: str | None, head: str | None = None) -> tuple[int, str, float]:
    """Index of the block `op` names, how it was found, and its similarity to the new text
    (or to its `head`, the first new block, when the rest is new matter such as sub-bullets)."""

    def score_of(text: str) -> float:
        if not new_text:
            return 1.0
        return max(similarity(text, new_text), similarity(text, head) if head else 0.0)

    if op.label:
        label = fold(op.label)
        found = [i for i, b in enumerate(blocks) if b.type in TEXT_TYPES
                 and re.match(rf"{re.escape(label)}(?:\s|:|$)", fold(b.text))]
        if len(found) != 1:
            raise NotApplicable(f"{len(found)} blocks start with « {op.label} »; expected exactly one")
        score = score_of(blocks[found[0]].text)
        return found[0], f"{blocks[found[0]].type} starting with « {op.label} »", score
    conventions = CONVENTIONS.get(op.block)
    if conventions is None or op.ordinal is None:
        raise NotApplicable(f"cannot locate a {op.block} without an ordinal or a label")
    candidates: list[tuple[float, int, int, str]] = []
    for rank, (name, types) in enumerate(conventions):
        counted = [i for i, b in enumerate(blocks) if b.type in types]
        position = ordinal_index(len(counted), op.ordinal)
        if position is None:
            continue
        index = counted[position]
        score = score_of(blocks[index].text)
        candidates.append((score, -rank, index, f"{op.block} {op.ordinal} {name}"))
    if not candidates:
        have = ", ".join(f"{sum(b.type == t for b in blocks)} {t}" for t in ("paragraph", "bullet", "subbullet"))
        raise OrdinalOutOfRange(f"no {op.block} {op.ordinal}: the entry has {have} block(s)")
    # Without new text to compare (a deletion), the first convention is the book's own count.
    score, _, index, how = max(candidates) if new_text else candidates[0]
    if score < MIN_SIMILARITY:
        shown = "; ".join(f"{h}: « {blocks[i].text[:50]}… » ({s:.2f})" for s, _, i, h in candidates)
        raise NotApplicable(f"no block fits the new text (best similarity {score:.2f} < {MIN_SIMILARITY}): {shown}")
    return index, how, score


def start_amending(entry: Entry) -> None:
    if entry.original_blocks is None:
        entry.original_blocks = copy.deepcopy(entry.blocks)
    if entry.status == "printed":
        entry.status = "amended"


def typed_like(new_blocks: list[Block], old: Block) -> list[Block]:
    """One new block takes the place (and type) of the one it replaces; several keep theirs."""
    if len(new_blocks) == 1:
        return [Block(old.type, new_blocks[0].text, new_blocks[0].markdown, old.number, lines=list(new_blocks[0].lines))]
    return [copy.deepcopy(b) for b in new_blocks]


def dropped_sentences(old: str, new: str) -> list[str]:
    """Sentences of the old text that no sentence of the new text takes the place of."""
    old_parts, new_parts = sentences(old), sentences(new)
    if len(old_parts) <= len(new_parts):
        return []
    pairs = sorted(((similarity(o, n), i, j) for i, o in enumerate(old_parts) for j, n in enumerate(new_parts)), reverse=True)
    kept_old: set[int] = set()
    kept_new: set[int] = set()
    for _, i, j in pairs:
        if i not in kept_old and j not in kept_new:
            kept_old.add(i)
            kept_new.add(j)
    return [s for i, s in enumerate(old_parts) if i not in kept_old]


def replace_unit(entry: Entry, op: Operation, new_blocks: list[Block]) -> Change:
    new_text = joined(new_blocks)
    index, how, score = choose_block(entry.blocks, op, new_text, new_blocks[0].text if len(new_blocks) > 1 else None)
    end = unit_span(entry.blocks, index, op.with_subbullets or any(b.type == "subbullet" for b in new_blocks))
    old = entry.blocks[index:end]
    resolution = f"{how} (similarity {score:.2f})"
    if same_text(joined(old), new_text):
        return Change(f"{resolution}; already reads so", joined(old), changed=False, touched=old)
    replacement = typed_like(new_blocks, old[0])
    start_amending(entry)
    entry.blocks[index:end] = replacement
    change = Change(resolution, joined(old), touched=replacement, replaced=old)
    for sentence in dropped_sentences(joined(old), new_text):
        change.notes.append(f"the new text no longer has the sentence « {sentence} »")
    return change


def paragraph_for(entry: Entry, op: Operation) -> int:
    """The block a sentence or a phrase lives in."""
    texts = [i for i, b in enumerate(entry.blocks) if b.type in TEXT_TYPES]
    if not texts:
        raise NotApplicable("the entry has no text block")
    if op.within == "paragraph" and op.within_ordinal is not None:
        paragraphs = [i for i in texts if entry.blocks[i].type == "paragraph"]
        position = ordinal_index(len(paragraphs), op.within_ordinal)
        if position is None:
            raise OrdinalOutOfRange(f"no paragraph {op.within_ordinal}: the entry has {len(paragraphs)}")
        return paragraphs[position]
    # "the last sentence" of a rule is in its last text block, "the first" in its first.
    return texts[-1] if (op.ordinal or 1) < 0 else texts[0]


def sentence_at(entry: Entry, op: Operation) -> tuple[int, Block, list[str], int]:
    """The block an erratum's sentence ordinal reads in, its sentences, and the sentence's position."""
    index = paragraph_for(entry, op)
    block = entry.blocks[index]
    parts = sentences(block.text)
    position = ordinal_index(len(parts), op.ordinal or 1)
    if position is None:
        raise OrdinalOutOfRange(f"no sentence {op.ordinal} in « {block.text[:60]}… »")
    return index, block, parts, position


def replace_sentence(entry: Entry, op: Operation, new_text: str) -> Change:
    index, block, parts, position = sentence_at(entry, op)
    old = parts[position]
    score = similarity(old, new_text)
    how = f"sentence {op.ordinal} of {block.type} {index + 1} (similarity {score:.2f})"
    if same_text(old, new_text):
        return Change(f"{how}; already reads so", old, changed=False, touched=[block])
    if score < MIN_SIMILARITY:
        raise NotApplicable(f"sentence {op.ordinal} « {old[:60]} » is not like the new text (similarity {score:.2f})")
    start_amending(entry)
    parts[position] = new_text
    replaced = copy.deepcopy(block)
    block.text = " ".join(parts)
    block.markdown = ""
    return Change(how, old, touched=[block], replaced=[replaced])


def _word(word: str) -> str:
    return fold(word).strip(".,;:!?()«»\"'")


def _whole(word: str) -> re.Pattern[str]:
    """`word` standing as a word of its own: "2" not inside "12", "deux" not inside "deuxième"."""
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def in_context(text: str, old: str, new: str, most: int = 30) -> str | None:
    """What replaces `old` in `text` when `new` also carries the words around it ("un chef rapporte 3
    points" for "2" in "Chaque chef rapporte 2 points."): `new` without the words it shares with the
    text just before and just after `old` ("3"), or None when `old` is no word of the text or when
    what is left of `new` cannot stand for `old`."""
    found_old = _whole(old).search(text)
    words = new.split()
    if found_old is None or len(words) > most:
        return None
    at = found_old.start()
    left = [_word(w) for w in text[:at].split()][-most:]
    right = [_word(w) for w in text[at + len(old):].split()][:most]
    folded = [_word(w) for w in words]
    start = 0
    for m in range(min(len(words) - 1, len(left)), 0, -1):  # the longest run ending the text before `old`
        found = next((i + m for i in range(len(words) - m) if folded[i:i + m] == left[-m:]), None)
        if found is not None:
            start = found
            break
    end = len(words)
    for m in range(min(len(words) - start - 1, len(right)), 0, -1):  # the longest run opening the text after it
        found = next((j for j in range(len(words) - m, start, -1) if folded[j:j + m] == right[:m]), None)
        if found is not None:
            end = found
            break
    rest = words[start:end]
    if (start, end) != (0, len(words)):  # Y restates X's sentence: what differs must stand for X word for word
        return " ".join(rest) if len(rest) == len(old.split()) else None
    # Y shares no word around X: a phrase for X ("trois dés rouges" for "deux dés"), unless it holds X
    # itself ("on lance trois dés rouges" for "dés": where it goes is not said)
    return None if _whole(old).search(new) else new


def replace_phrase(entry: Entry, op: Operation) -> Change:
    """"Remplacez « X » par « Y »": X must occur exactly as often as the instruction says."""
    if not op.before or op.after is None:
        raise NotApplicable("the instruction does not quote the text to replace")
    # "premier paragraphe : remplacer « X » par « Y »": only that paragraph is searched.
    only = paragraph_for(entry, op) if op.within == "paragraph" else None
    # "Y et non X" whose words do not match one for one: X counts only where it stands as a word.
    whole = _whole(op.before) if op.in_context else None
    counts = [(i, len(whole.findall(b.text)) if whole else b.text.count(op.before)) for i, b in enumerate(entry.blocks)
              if only in (None, i)]
    where = [(i, n) for i, n in counts if n]
    total = sum(n for _, n in where)
    if total == 0:
        if any(op.after in b.text for b in entry.blocks):
            return Change(f"« {op.after} » already in the text", op.before, changed=False)
        raise NotApplicable(f"« {op.before} » is not in the text")
    if total != op.count:
        raise NotApplicable(f"« {op.before} » occurs {total} time(s), the instruction expects {op.count}")
    after = op.after
    if whole is not None:  # Y carries the words around X: only what differs replaces it
        if len(where) != 1:
            raise NotApplicable(f"« {op.before} » stands in {len(where)} blocks; Y's words do not say which")
        after = in_context(entry.blocks[where[0][0]].text, op.before, op.after)
        if after is None:
            raise NotApplicable(f"« {op.after} » does not fit the text around « {op.before} »")
    start_amending(entry)
    touched, replaced = [], []
    for i, _ in where:
        replaced.append(copy.deepcopy(entry.blocks[i]))
        entry.blocks[i].text = (whole.sub(lambda _: after, entry.blocks[i].text) if whole is not None
                                else entry.blocks[i].text.replace(op.before, after))
        entry.blocks[i].markdown = ""
        touched.append(entry.blocks[i])
    return Change(f"« {op.before} » found in {len(where)} block(s)", op.before, touched=touched, replaced=replaced)


def replace_value(entry: Entry, op: Operation) -> Change:
    """"… est de 0 (et non 1)": the old value, as a whole word, must occur once."""
    assert op.before is not None and op.after is not None
    whole = _whole(op.before)
    hits = [(i, m) for i, b in enumerate(entry.blocks) for m in whole.finditer(b.text)]
    if len(hits) != 1:
        raise NotApplicable(f"the old value « {op.before} » occurs {len(hits)} time(s); expected once")
    i, match = hits[0]
    start_amending(entry)
    replaced = copy.deepcopy(entry.blocks[i])
    block = entry.blocks[i]
    block.text = block.text[: match.start()] + op.after + block.text[match.end():]
    block.markdown = ""
    return Change(f"value « {op.before} » in {block.type} {i + 1}", op.before, touched=[block], replaced=[replaced])


def replace_entry(entry: Entry, new_blocks: list[Block]) -> Change:
    """The whole rule text; navigation blocks (Sujets connexes, Voir) stay."""
    text_blocks = [b for b in entry.blocks if b.type not in NAVIGATION_TYPES]
    if same_text(joined(text_blocks), joined(new_blocks)):
        return Change("whole entry; already reads so", joined(text_blocks), changed=False, touched=text_blocks)
    start_amending(entry)
    navigation = [b for b in entry.blocks if b.type in NAVIGATION_TYPES]
    fresh = [copy.deepcopy(b) for b in new_blocks]
    entry.blocks = fresh + navigation
    return Change("whole entry", joined(text_blocks), touched=fresh, replaced=text_blocks)


def insert_text(entry: Entry, op: Operation, new_blocks: list[Block]) -> Change:
    new_text = joined(new_blocks)
    if op.within == "sentence":
        return insert_by_sentence(entry, op, " ".join(b.text for b in new_blocks))
    if op.within == "paragraph":
        index = paragraph_for(entry, op)
        block = entry.blocks[index]
        if fold(block.text).endswith(fold(new_text)) or fold(block.text).startswith(fold(new_text)):
            return Change(f"{op.position} of paragraph {op.within_ordinal}; already there", None, changed=False, touched=[block])
        start_amending(entry)
        replaced = copy.deepcopy(block)
        block.text = f"{block.text} {new_text}" if op.position == "end" else f"{new_text} {block.text}"
        block.markdown = ""
        return Change(f"{op.position} of paragraph {op.within_ordinal}", None, touched=[block], replaced=[replaced])
    if any(same_text(b.text, new_text) for b in entry.blocks):
        return Change("new blocks already in the entry", None, changed=False)
    start_amending(entry)
    fresh = [copy.deepcopy(b) for b in new_blocks]
    at = len(entry.blocks)
    while at > 0 and entry.blocks[at - 1].type in NAVIGATION_TYPES:
        at -= 1
    if op.position == "start":
        at = next((i for i, b in enumerate(entry.blocks) if b.type in TEXT_TYPES), 0)
        entry.blocks[at:at] = fresh
        return Change("inserted before the entry's first text block", None, touched=fresh)
    entry.blocks[at:at] = fresh
    return Change("appended before the entry's links", None, touched=fresh)


def insert_by_sentence(entry: Entry, op: Operation, new_text: str) -> Change:
    """"Ajoutez après la première phrase : « … »": the new sentence goes in the same block, after
    (position "end") or before ("start") the sentence the ordinal names."""
    index, block, parts, position = sentence_at(entry, Operation("insert", "sentence", ordinal=op.within_ordinal))
    where = f"{'after' if op.position == 'end' else 'before'} sentence {op.within_ordinal} of {block.type} {index + 1}"
    if any(same_text(part, new_text) for part in parts) or fold(new_text) in fold(block.text):
        return Change(f"{where}; already there", None, changed=False, touched=[block])
    start_amending(entry)
    replaced = copy.deepcopy(block)
    parts.insert(position + 1 if op.position == "end" else position, new_text)
    block.text, block.markdown = " ".join(parts), ""
    return Change(where, None, touched=[block], replaced=[replaced])


def delete_sentence(entry: Entry, op: Operation) -> Change:
    """"Supprimez la dernière phrase": the sentence goes; a block left empty goes with it."""
    index, block, parts, position = sentence_at(entry, op)
    old = parts.pop(position)
    if op.before is not None and similarity(old, op.before) < MIN_SIMILARITY:
        raise NotApplicable(f"sentence {op.ordinal} « {old[:60]} » is not the quoted « {op.before[:60]} »")
    start_amending(entry)
    replaced = copy.deepcopy(block)
    how = f"sentence {op.ordinal} of {block.type} {index + 1}"
    if parts:
        block.text, block.markdown = " ".join(parts), ""
        return Change(how, old, touched=[block], replaced=[replaced])
    entry.blocks.pop(index)
    return Change(f"{how}, the block's only sentence", old, replaced=[replaced])


def delete_unit(entry: Entry, op: Operation) -> Change:
    index, how, _ = choose_block(entry.blocks, op, op.before)
    start_amending(entry)
    old = entry.blocks.pop(index)
    return Change(how, old.text, replaced=[old])


def move_unit(entry: Entry, op: Operation, new_blocks: list[Block]) -> Change:
    """"Le premier point devrait être déplacé pour apparaître en dernier et dire : « … »"."""
    new_text = joined(new_blocks) if new_blocks else None
    types = dict(CONVENTIONS.get(op.block, [("", (op.block,))]))
    counted_types = next(iter(types.values()))
    counted = [i for i, b in enumerate(entry.blocks) if b.type in counted_types]
    if op.ordinal is None or ordinal_index(len(counted), op.ordinal) is None:
        raise OrdinalOutOfRange(f"no {op.block} {op.ordinal}: the entry has {len(counted)}")
    source = counted[ordinal_index(len(counted), op.ordinal)]
    destination = counted[-1] if op.position == "last" else counted[0]
    if new_text is not None and source != destination and same_text(entry.blocks[destination].text, new_text) \
            and similarity(entry.blocks[source].text, new_text) < MIN_SIMILARITY:
        return Change(f"{op.block} {op.ordinal}: the {op.position} {op.block} already reads so", None,
                      changed=False, touched=[entry.blocks[destination]])
    if new_text is not None:
        score = similarity(entry.blocks[source].text, new_text)
        if score < MIN_SIMILARITY:
            raise NotApplicable(f"{op.block} {op.ordinal} « {entry.blocks[source].text[:60]}… » is not like the "
                                f"new text (similarity {score:.2f})")
    start_amending(entry)
    block = entry.blocks.pop(source)
    replaced = copy.deepcopy(block)
    if new_text is not None:
        block.text, block.markdown = new_text, new_blocks[0].markdown if len(new_blocks) == 1 else ""
    counted = [i for i, b in enumerate(entry.blocks) if b.type in counted_types]
    at = (counted[-1] + 1) if op.position == "last" and counted else (counted[0] if counted else 0)
    entry.blocks.insert(at, block)
    return Change(f"{op.block} {op.ordinal} moved to {op.position}", replaced.text, touched=[block], replaced=[replaced])


def apply_operation(entry: Entry, op: Operation, new_blocks: list[Block]) -> Change:
    """Apply `op` to `entry` (not for whole-entry insertions and deletions, which change the tree)."""
    new_text = joined(new_blocks) if new_blocks else op.after
    if op.operation == "replace":
        if op.block in CONVENTIONS or op.label:
            return replace_unit(entry, op, new_blocks)
        if op.block == "sentence":
            return replace_sentence(entry, op, new_text or "")
        if op.block == "text":
            return replace_phrase(entry, op)
        if op.block == "value":
            return replace_value(entry, op)
        if op.block in ("entry", "card"):
            return replace_entry(entry, new_blocks)
        if op.block == "title":
            title = " ".join((new_text or "").split())
            if not title:
                raise NotApplicable("a new title needs its text")
            if entry.title == title:
                return Change("title already reads so", entry.title, changed=False)
            old_title = entry.title
            start_amending(entry)
            if entry.original_title is None:
                entry.original_title = old_title
            entry.title = title
            return Change("title", old_title)
    if op.operation == "insert" and op.block in ("text", "paragraph", "bullet"):
        return insert_text(entry, op, new_blocks)
    if op.operation == "delete" and op.block in CONVENTIONS:
        return delete_unit(entry, op)
    if op.operation == "delete" and op.block == "sentence":
        return delete_sentence(entry, op)
    if op.operation == "move":
        return move_unit(entry, op, new_blocks)
    raise NotApplicable(f"{op.operation} of a {op.block} is not supported")
