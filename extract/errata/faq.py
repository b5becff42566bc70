"""The errata a game's FAQ documents state, read by the errata reader (`reader.read_errata_text`)
from the FAQ as the build segmented it, and put in the model's terms (`Erratum`, `Operation`).

The reader reads the FAQ's text (`faq_text`: each heading and block at its first source line);
the build keeps what stands in the FAQ's errata part (`errata_part`) and takes the new text an
instruction announces from the blocks below it, as the book has them (list items, bold words).
An erratum's heading ("Ligne de Vue, page 13, section 49") says where it applies, unless the
instruction names its own place; the part's passages the reader does not understand are reported,
never dropped in silence.
"""

from __future__ import annotations

import copy
import hashlib
import re
from dataclasses import dataclass

from extract.cache import Cache, code_key
from extract.errata.amend import joined
from extract.errata.locators import SECTION, Locator, TargetHint, opens_with_locator, parse_heading, read_locator
from extract.errata.operations import mask
from extract.errata.reader import ErrataReading, ReadOperation, is_errata_table, numbered_text, read_errata_text
from extract.model import Anomaly, Block, DocumentSpec, Entry, Erratum, GameSpec, Operation, erratum_ids
from extract.text import fold

# The model's operation for each kind the reader tells apart.
MODEL_OPERATION = {"replace": "replace", "should-say": "replace", "rename": "replace", "insert": "insert",
                   "delete": "delete", "swap": "move", "move": "move"}
# The units of a locator that are blocks of the model.
BLOCK_UNITS = frozenset({"paragraph", "bullet", "subbullet", "sentence"})
# A value an erratum corrects ("3 et non 2", "de 8 et non de 6"): changed where it stands as a whole word.
VALUE = re.compile(r"[+-]?\d{1,4}(?:[.,]\d{1,3})?(?:[ ]?(?:cm|mm|%|pouces?|cases?|dés?|points?|PV))?")
# The small word a value is written after ("de 8 et non de 6"): no part of the value.
_VALUE_LEAD = re.compile(r"^(?:de[ ]++|d')", re.IGNORECASE)
# What the reader takes for no erratum but may be one when it stands in an errata part (by the
# clarification's code): an old and new text with no place, a place and a text with no verb.
# Questions, answers and restatements of an erratum read are no errata there either.
UNSURE_CLARIFICATIONS = frozenset({"example", "no-change"})
# What an insertion adds whole when it names it: a section, a rule, a box (not a sentence or an item).
WHOLE_PLACE = re.compile(r"\b(?:sections?|r[èe]gles?|articles?|encarts?|encadr[ée]s?|chapitres?)\b", re.IGNORECASE)
# The marker a block of each type is written with, so that the reader cuts list items as the book has them.
BLOCK_MARKS = {"bullet": "- ", "subbullet": "  - "}


def faq_text(document: str, entries: list[Entry], keep: set[int] | None = None) -> str:
    """One FAQ document as the build segmented it (icons and repairs applied), each heading and
    block at its first source line: the text the reader reads. With `keep`, only those blocks (by
    `id`) and every heading: the reader parses no more than it is asked about."""
    placed: list[tuple[int, str]] = []
    for entry in entries:
        if entry.document != document:
            continue
        if entry.title and entry.heading_lines:
            placed.append((entry.heading_lines[0], entry.title))
        for block in entry.blocks:
            if not block.lines or keep is not None and id(block) not in keep:
                continue
            if block.type == "table" and block.rows:
                placed.extend(table_lines(block))
                continue
            placed.append((block.lines[0], BLOCK_MARKS.get(block.type, "") + " ".join(block.text.split())))
    return numbered_text(placed)


def table_lines(block: Block) -> list[tuple[int, str]]:
    """A table's rows as markdown lines, each at its source line: the header at the first, the body
    rows at the table's last lines, whatever delimiter lines stand between them. A table set on
    fewer lines than it has rows gives none (its rows have no line of their own: `not_understood`
    reports it)."""
    assert block.rows is not None
    rows = ["| " + " | ".join(cells) + " |" for cells in block.rows]
    body = len(rows) - 1
    if len(block.lines) < len(rows):
        return []
    return [(block.lines[0], rows[0]), *zip(block.lines[len(block.lines) - body:], rows[1:], strict=True)]


# The words that name a place by a quotation after them ("la section « Combat »", "le point « Exposé »").
_NAMES_BY_QUOTE = re.compile(r"(?:section|encadr[ée]|encart|bo[iî]te|chapitre|paragraphe|capacit[ée]|r[eè]gle|points?|puces?)"
                             r"[ ]++(?:de[ ]++|d')?$", re.IGNORECASE)


def place_words(words: str) -> str:
    """`words` with the quotations that name no place emptied ("remplacez « … (voir section Combat) »"
    names no section), as the reader masks them: a place is read from the instruction's own words."""
    masked = mask(words)
    if masked.unbalanced or not masked.quotes:
        return words

    def kept(m: re.Match[str]) -> str:
        names = _NAMES_BY_QUOTE.search(masked.text[max(0, m.start() - 40):m.start()])
        return f"« {masked.quotes[int(m.group(1))]} »" if names else "« »"

    return re.sub(r"« Q(\d{1,4}) »", kept, masked.text)


def own_title(words: str) -> str | None:
    """The title an instruction names as its section or box ("(section Fissure Dimorienne)",
    "la section « Combat »", "section Déplacement"), not any quotation it holds."""
    m = SECTION.search(words)
    return (m.group("title") or (m.group("bracketed") or "").strip() or m.group("bare")) if m else None


def operation_of(found: ReadOperation, own: Locator, words: str) -> Operation:
    """The reader's operation in the model's terms: what changes from its kind, texts and place
    (`found.locator`, the headings' place merged with its own); the section, card and subject from
    its own words (`own`, read from `words`) only, the heading's being the erratum's `target_hint`."""
    where = found.locator
    within = within_ordinal = None
    before, after = found.old, found.new
    values = (bare_value(found.old), bare_value(found.new))
    if found.part == "title":
        block, ordinal = "title", None  # "Renommez l'arme en « Hache »"
    elif found.kind == "replace" and where.unit is None and values[0] is not None and values[1] is not None:
        block, ordinal = "value", None  # "La portée devrait être de 3 et non de 2": a number, as a whole word
        before, after = values
    elif found.old and found.kind == "replace":
        block, ordinal = "text", None  # "premier paragraphe : remplacer « deux » par « trois »"
        if where.unit in BLOCK_UNITS:
            within, within_ordinal = where.unit, where.ordinal
    elif found.kind == "insert" and found.named and WHOLE_PLACE.search(found.named):
        block, ordinal = "entry", None  # "Ajoutez une section sur …", "ajoutez l'encart suivant": a place of its own
    elif where.unit in BLOCK_UNITS and found.kind == "insert":
        block, ordinal, within, within_ordinal = "text", None, where.unit, where.ordinal  # "à la fin du 2e paragraphe"
    elif where.unit in BLOCK_UNITS:
        block, ordinal, within, within_ordinal = where.unit, where.ordinal, where.within, where.within_ordinal
    elif found.named and found.kind in ("delete", "insert"):
        block, ordinal = "entry", None  # "la section 86.11 devrait être supprimée", "ajoutez l'encart suivant :"
    elif where.card and not found.old:
        block, ordinal = "card", None
    elif found.old or found.kind == "insert":
        block, ordinal = "text", None
    else:
        block, ordinal = "entry", None
    position = (where.position or "end") if found.kind == "insert" and block == "text" else found.position
    return Operation(
        MODEL_OPERATION[found.kind], block, ordinal, where.label, own.section, position, within, within_ordinal,
        before=before, after=after, with_subbullets=found.with_subbullets,
        subject=own_title(words) if block == "card" else None, card=own.card, expects_text=found.text_lines is not None)


def bare_value(text: str | None) -> str | None:
    """`text` as a value an erratum corrects, without the "de" it is written after ("de 3" -> "3");
    None when it is no value."""
    value = _VALUE_LEAD.sub("", (text or "").strip())
    return value if VALUE.fullmatch(value) else None


def unsure_old(found: ReadOperation, op: Operation) -> str | None:
    """Why the old text of a correction "Y et non X" may not be what changes, or None: its new words
    do not stand for the old ones word for word ("lancez trois dés et non deux"). Such an erratum is
    applied where its old text X stands in the target block, and is not understood elsewhere."""
    if found.cue == "marker" and op.block != "value" and found.old and found.new and \
            len(found.old.split()) != len(found.new.split()):
        return (f"« {found.new} » (et non « {found.old} »): the new words do not stand for the old ones word for "
                "word, and the old text is not found where it applies, so what changes is not said")
    return None


def misread(found: ReadOperation, op: Operation) -> str | None:
    """Why the reader's operation cannot be applied as read, or None: a whole place given a new text
    that is neither quoted nor announced below ("… devrait être trois": a value or a phrase, not the
    place's text)."""
    if op.operation == "replace" and op.block in ("entry", "card") and found.new and found.text_lines is None and \
            not any(found.new.strip() in quote for quote in mask(found.text).quotes):
        return f"the whole place's new text « {found.new[:60]} » is neither quoted nor announced below"
    return None


def unquote_blocks(blocks: list[Block]) -> tuple[list[Block], list[str]]:
    """The quoted new text as blocks, outer « » removed; notes when a mark is missing."""
    fresh = [copy.deepcopy(b) for b in blocks]
    notes = []
    if not fresh:
        return fresh, notes
    first, last = fresh[0], fresh[-1]
    if first.text.lstrip().startswith("«"):
        first.text = first.text.lstrip()[1:].lstrip()
        first.markdown = re.sub(r"^\s*«\s*", "", first.markdown)
    else:
        notes.append("the quoted text has no opening «")
    if last.text.rstrip().endswith("»") and last.text.count("»") > last.text.count("«"):
        last.text = last.text.rstrip()[:-1].rstrip()
        last.markdown = re.sub(r"(?:(?<!\s)\s++)?»\s*+$", "", last.markdown)
    else:
        notes.append("the quoted text has no closing »")
    for block in fresh:
        if block.type in ("question", "answer", "caption"):
            block.type = "paragraph"
    return fresh, notes


def bold_heading(block: Block) -> TargetHint | None:
    """A paragraph printed wholly in bold and worded like a heading ("**Décompte des points, page 4,
    section 6.2**"): publishers set errata headings so, and it names the target as a heading does."""
    if block.type != "paragraph" or not re.fullmatch(r"(?:(?<!\s)\s++)?(\*\*|__)[^*_]++\1\s*+", block.markdown or ""):
        return None
    text = block.text.strip()
    if len(text) > 120 or re.search(r"[.;!?«»:]$", text) or "«" in text:
        return None
    return parse_heading(text)


def in_errata_part(entry: Entry) -> bool:
    """The entry or one of its headings says it holds errata."""
    return any(re.search(r"\berrat", fold(e.title or "")) for e in [entry, *entry.ancestors])


# A heading that opens another part of an FAQ: it ends an errata part whose heading stands at its level.
_OTHER_PART = re.compile(r"\b(?:faq|foire aux questions|questions?|eclaircissements?|clarifications?|precisions?)\b")
# A line announcing the errata below it ("Erratas (uniquement sur les 1ères impressions) … :"): a heading.
ERRATA_LEAD = re.compile(r"^\W*errat\w*\b[^«»]*?(?:[«(][^:]*)?:\s*$", re.IGNORECASE)


def announces_errata(text: str) -> bool:
    """`text` (a line, or a paragraph of the book) announces the errata that follow it, as a heading would."""
    return len(text) < 400 and ERRATA_LEAD.match(fold(text)) is not None


def errata_part(entries: list[Entry]) -> set[int]:
    """The blocks (by `id`) of the errata part of one document's entries, in book order, and the
    entries (by `id`) whose heading stands in it.

    An entry is in it when it or a heading above it is about errata (`in_errata_part`); and so are
    the entries that follow an errata heading at its own level, until a heading at that level or
    above names another part ("Éclaircissements", "FAQ"): books set "ERRATA" as loud as the book
    names below it ("Livre de règles", "Boîte de base"), and segmentation cannot rank them. A
    paragraph announcing errata ("Erratas (…) :") opens the part likewise, from the next block on.
    """
    inside: set[int] = set()
    level: int | None = None  # the level of the errata heading or announcement the part runs under
    for entry in entries:
        depth = len(entry.ancestors)
        title = fold(entry.title or "")
        if level is not None and entry.title and (depth < level or (depth == level and _OTHER_PART.search(title))):
            level = None
        if in_errata_part(entry):
            if re.search(r"\berrat", title):
                level = depth
            inside.update([id(entry), *(id(block) for block in entry.blocks)])
            continue
        if level is not None:
            inside.add(id(entry))
        for block in entry.blocks:
            if level is not None:
                inside.add(id(block))
            elif block.type == "paragraph" and announces_errata(block.text):
                level = depth
    return inside


@dataclass
class FaqReading:
    errata: list[Erratum]
    anomalies: list[Anomaly]  # passages of the errata part the reader does not understand


@dataclass
class Placed:
    """A block of the FAQ with the entry it stands in and the bold line heading it, if any."""

    entry: Entry
    block: Block
    bold: Block | None


def placed_blocks(entries: list[Entry], part: set[int]) -> dict[int, Placed]:
    """Every source line of the document's blocks, to the block holding it; and the first line of
    each heading of the errata part (`part`), to its title as a block of its entry: an instruction
    set as a heading ("#### Page 4, section 4.2 : remplacez « deux » par « trois ».")."""
    at: dict[int, Placed] = {}
    for entry in entries:
        if entry.title and entry.heading_lines and id(entry) in part:
            title = Block("heading", entry.title, lines=entry.heading_lines[:1])
            part.add(id(title))
            at[entry.heading_lines[0]] = Placed(entry, title, None)
        bold: Block | None = None
        for block in entry.blocks:
            if bold_heading(block) is not None:
                bold = block
            for line in block.lines:
                at.setdefault(line, Placed(entry, block, bold))
    return at


def hint_of(placed: Placed, own: Locator, words: str, found: ReadOperation) -> tuple[TargetHint, str | None]:
    """What the source says of the target: the instruction's own place when it names a title, else
    the heading's (a bold line's, or the entry's); and the bold line, as written."""
    if found.cue == "table" and (found.locator.title or found.locator.section):
        where = found.locator
        return TargetHint(where.title or "", where.page, (where.section,) if where.section else ()), None
    title = own_title(words)
    if (title or (opens_with_locator(words) and own.section)) and placed.bold is None:
        # its own place: "Page 3, section 9.9 : remplacez …", "… de la section Combat : « … »"
        return TargetHint(title or "", own.page, (own.section,) if own.section else ()), None
    if placed.bold is not None:
        bold = bold_heading(placed.bold)
        assert bold is not None
        return bold, placed.bold.text
    title = (placed.entry.title or "").strip()
    return (parse_heading(title) if title else TargetHint("", None, ())), None


def not_understood(doc: DocumentSpec, reading: ErrataReading, at: dict[int, Placed], part: set[int],
                   mine: list[Entry], clarifications: bool = True) -> list[Anomaly]:
    """The reader's passages it does not understand in the errata part (and, with `clarifications`,
    those it takes for no erratum there), each with its line and why; and the part's tables whose
    header names no old and new text (their rows may be errata), or set on fewer lines than rows."""
    out = []
    unread = [(p.line, p.text, p.reason) for p in reading.not_understood]
    if clarifications:
        unread += [(c.line, c.text, f"read as no erratum ({c.why}), in the errata part") for c in reading.clarifications
                   if c.code in UNSURE_CLARIFICATIONS]
    for line, text, reason in unread:
        placed = at.get(line)
        if placed is None or id(placed.block) not in part:
            continue
        what = "table row " if placed.block.type == "table" else ""
        out.append(Anomaly("erratum-not-understood", f"{doc.source}, line {line}: {what}« {text[:100]} »: "
                           f"{reason}; it is not applied", [line], "warning"))
    for block in (b for entry in mine for b in entry.blocks if b.type == "table" and b.rows and id(b) in part):
        if len(block.lines) < len(block.rows or []):
            out.append(Anomaly(
                "erratum-not-understood",
                f"{doc.source}, line {block.lines[0] if block.lines else '?'}: a table in the errata part whose "
                f"{len(block.rows or [])} rows stand on {len(block.lines)} source line(s); its rows are not read as errata",
                list(block.lines[:1]), "warning"))
        elif len(block.rows or []) > 1 and not is_errata_table(block.rows[0]):
            out.append(Anomaly(
                "erratum-not-understood",
                f"{doc.source}, line {block.lines[0] if block.lines else '?'}: a table in the errata part whose header "
                f"« {' | '.join(block.rows[0])[:100]} » names no old and new text; its rows are not read as errata",
                list(block.lines[:1]), "warning"))
    return sorted(out, key=lambda a: a.lines[:1])


def read_kept(text: str, kept: Cache | None, name: str) -> ErrataReading:
    """`read_errata_text(text)`, kept in `kept` under `name` with the hash of the text and the
    code: a rebuild whose FAQ did not change reads it without loading spaCy's model."""
    if kept is None:
        return read_errata_text(text)
    key = hashlib.sha256(f"{code_key()}\n{text}".encode()).hexdigest()
    found = kept.get(f"errata-reading/{name}", key)
    if not isinstance(found, ErrataReading):
        found = read_errata_text(text)
        kept.put(f"errata-reading/{name}", key, found)
    return found


def read_faq(game: str, doc: DocumentSpec, entries: list[Entry], kept: Cache | None = None) -> FaqReading:
    """Every erratum of one FAQ document's errata part (of the whole FAQ when no heading or line
    names errata: "## Corrections", "## Modifications des règles"), in book order, with its new text as the
    book has it; and the part's passages that read like errata but that the reader does not
    understand, or whose operation cannot be applied as read (`misread`). `kept`: where the
    reader's readings are kept between builds."""
    mine = [entry for entry in entries if entry.document == doc.id]
    part = errata_part(mine)
    whole = not part  # no errata part: all of it, its clarifications being the FAQ's answers
    part = part or {id(x) for entry in mine for x in [entry, *entry.blocks]}
    if not part:
        return FaqReading([], [])  # an empty FAQ: nothing to read (and no model to load)
    at = placed_blocks(mine, part)
    blocks = [(block.lines[0], block) for entry in mine for block in entry.blocks if block.lines]
    # the part's blocks and what opens it ("Erratas (…) :"), under every heading of the document
    announcing = {id(b) for entry in mine for b in entry.blocks if b.type == "paragraph" and announces_errata(b.text)}
    # one kept reading per FAQ file: a version's FAQ (`regles diff`, the site's version steps) is another
    source = hashlib.sha256(f"{doc.source}:{doc.first_line}:{doc.last_line}".encode()).hexdigest()[:12]
    reading = read_kept(faq_text(doc.id, mine, part | announcing), kept, f"{game}/{doc.id}/{source}")
    taken: list[tuple[ReadOperation, Placed, str, str, Locator, Operation]] = []
    refused: list[Anomaly] = []
    for found in reading.read:
        placed = at.get(found.line)
        if placed is None or id(placed.block) not in part:
            continue
        instruction = found.text if found.cue == "table" else placed.block.text
        words = place_words(instruction)
        own = read_locator(words)
        op = operation_of(found, own, words)
        if (why := misread(found, op)) is not None:
            refused.append(Anomaly("erratum-not-understood", f"{doc.source}, line {found.line}: « {found.text[:100]} »: "
                                   f"{why}; it is not applied", [found.line], "warning"))
            continue
        taken.append((found, placed, instruction, words, own, op))
    errata = []
    ids = erratum_ids(f"{game}/{doc.id}", [placed.entry.key for _, placed, *_ in taken])
    for erratum_id, (found, placed, instruction, words, own, op) in zip(ids, taken, strict=True):
        quoted = [block for first, block in blocks if found.text_lines and found.text_lines[0] <= first <= found.text_lines[1]]
        new_blocks, notes = unquote_blocks(quoted)
        if op.operation == "delete" and new_blocks:
            op.before, new_blocks = joined(new_blocks), []
        elif not new_blocks and op.after:
            new_blocks = [Block("paragraph", op.after)]
        hint, bold = hint_of(placed, own, words, found)
        own_lines = [found.line] if found.cue == "table" else list(placed.block.lines)
        lines = sorted(set(own_lines) | {n for b in quoted for n in b.lines})
        erratum = Erratum(
            id=erratum_id, source=placed.entry.id, target=None, operation=op.operation,
            scope=op.scope(), before=op.before, after=joined(new_blocks) or op.after, status="failed",
            instruction=instruction, origin={"file": doc.source, "lines": [lines[0], lines[-1]] if lines else []},
            checks=notes, new_blocks=new_blocks, op=op,
            target_hint={"name": hint.name, "page": hint.page, "sections": list(hint.sections)},
        )
        if bold is not None:
            erratum.target_hint["heading"] = bold
        if (unsure := unsure_old(found, op)) is not None:
            erratum.origin["unsure"] = unsure  # applied only where its old text stands (`apply.apply_one`)
            op.in_context = True
        errata.append(erratum)
    anomalies = sorted(not_understood(doc, reading, at, part, mine, clarifications=not whole) + refused, key=lambda a: a.lines[:1])
    return FaqReading(errata, anomalies)


def read_faqs(game: GameSpec, entries: list[Entry], kept: Cache | None = None,
              ) -> tuple[list[Erratum], dict[str, list[Anomaly]]]:
    """The errata written in the game's FAQ documents, in manifest then book order; and per FAQ
    document ("<game>/<document>"), the passages that read like errata but that the reader does
    not understand: reported, never dropped in silence. Each FAQ is read once for both."""
    errata: list[Erratum] = []
    unread: dict[str, list[Anomaly]] = {}
    for doc in game.documents:
        if doc.kind == "faq":
            reading = read_faq(game.id, doc, entries, kept)
            errata.extend(reading.errata)
            if reading.anomalies:
                unread[f"{game.id}/{doc.id}"] = reading.anomalies
    return errata, unread


def read_errata(game: GameSpec, entries: list[Entry]) -> list[Erratum]:
    """The errata written in the game's FAQ documents (`read_faqs`)."""
    return read_faqs(game, entries)[0]


def unread_errata(game: GameSpec, entries: list[Entry]) -> dict[str, list[Anomaly]]:
    """The FAQ passages that read like errata but that the reader does not understand (`read_faqs`)."""
    return read_faqs(game, entries)[1]
