"""Stage 4, apply errata: read the errata a game's FAQ documents and errata files announce, find
the entry each one changes, and apply them in source order.

An erratum in a FAQ is an entry whose heading names its target ("Ligne de Vue, page 13,
section 49") under a heading naming the book ("Guide de Référence"), with an instruction
paragraph ("Le premier paragraphe de cette section devrait dire :") followed by the quoted new
text. Every erratum ends `applied`, `recorded` (its target, a card, is not in the corpus) or
`failed` with the reason; nothing is guessed.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from extract.errata.amend import (
    TEXT_TYPES,
    Change,
    NotApplicable,
    OrdinalOutOfRange,
    apply_operation,
    joined,
    ordinal_index,
    same_text,
)

# Reading a FAQ's errata is `faq`'s; its names stay importable from here.
from extract.errata.faq import read_errata as read_errata
from extract.errata.faq import read_faqs as read_faqs
from extract.errata.faq import unread_errata as unread_errata
from extract.errata.locators import parse_heading
from extract.errors import InputError
from extract.lookup import Lookup
from extract.model import Anomaly, Entry, Erratum, Operation
from extract.text import fold, title_key

# ---------------------------------------------------------------- finding targets


@dataclass
class Target:
    entry: Entry | None
    how: str
    create: tuple[Entry, str] | None = None  # (parent, number) of an entry the erratum adds
    recorded: str | None = None  # why the target is outside the corpus


def named_documents(index: Lookup, source: Entry, name: str = "") -> list[str]:
    """The documents the erratum's headings name ("### Livret de règles" above it, or its own heading)."""
    titles = [a.title for a in [source, *source.ancestors]] + [name]
    docs = list(dict.fromkeys(index.documents[title_key(t)] for t in titles if title_key(t) in index.documents))
    # A heading naming the errata document itself ("## Errata" in a document titled "errata") names
    # no book: an FAQ's errata change the other books, never the FAQ.
    return [d for d in docs if d != source.document]


def topic_of(entry: Entry) -> Entry:
    """The outermost numbered ancestor: the glossary topic a sub-rule belongs to."""
    topic = entry
    for node in entry.ancestors:
        if node.number:
            topic = node
    return topic


def titles_agree(a: str, b: str | None) -> bool:
    ka, kb = title_key(a), title_key(b)
    return bool(ka and kb) and (ka == kb or ka in kb or kb in ka)


def find_target(erratum: Erratum, index: Lookup) -> Target:
    op = erratum.op
    assert op is not None
    if erratum.target:  # hand-written errata name their target
        entry = index.by_id.get(erratum.target)
        if entry is not None:
            return Target(entry, "named by the errata file")
        if op.operation == "insert" and op.block == "entry":
            number = erratum.target.rsplit("/", 1)[-1]
            parent = index.by_id.get(erratum.target.rsplit(".", 1)[0]) if "." in number else None
            if parent is not None:
                return Target(None, f"new section {number} under {parent.id}", create=(parent, number))
        raise MissingTarget(f"no entry {erratum.target}")
    source = index.by_id[erratum.source]
    hint = erratum.target_hint
    docs = named_documents(index, source, hint["name"])
    # A heading that names only the book ("Livret de règles") says which document, not which entry.
    name = "" if title_key(hint["name"]) in index.documents else hint["name"]
    section = op.section or (hint["sections"][0] if hint["sections"] else None)
    if op.section and hint["sections"] and op.section not in hint["sections"]:
        name = ""  # the heading's title goes with its own section; the sentence names another, and wins
    if section:
        try:
            return numbered_target(index, docs, section, name, op, source.document)
        except NotApplicable as problem:
            # "Mise en place, §6" in a book whose paragraph numbers are not read: the title still says where.
            if not name or not str(problem).startswith("0 entries numbered"):
                raise
            try:
                return titled_target(index, source, docs, name, op)
            except NotApplicable as second:
                raise NotApplicable(f"{problem}; {second}") from None
    if not name:
        raise NotApplicable("neither the instruction nor its heading names the section it changes")
    return titled_target(index, source, docs, name, op)


def numbered_target(index: Lookup, docs: list[str], number: str, name: str, op: Operation, home: str = "") -> Target:
    # Without a book named, any book but the errata's own document (`home`).
    where = docs or [d.id for d in index.game.documents if d.id != home]
    found = [index.by_id[i] for i in (f"{index.game.id}/{d}/{number}" for d in where) if i in index.by_id]
    if op.operation == "insert" and op.block == "entry":
        if found:
            return Target(found[0], f"section {number} (already present)")
        parent_number = number.rsplit(".", 1)[0]
        parents = [index.by_id[i] for i in (f"{index.game.id}/{d}/{parent_number}" for d in where) if i in index.by_id]
        if len(parents) != 1:
            raise NotApplicable(f"section {number} cannot be added: {len(parents)} entries numbered {parent_number}")
        if name and not titles_agree(name, topic_of(parents[0]).title):
            raise NotApplicable(f"the heading names « {name} » but {parent_number} is « {topic_of(parents[0]).title} »")
        return Target(None, f"new section {number} under {parents[0].id}", create=(parents[0], number))
    if len(found) != 1:
        raise NotApplicable(f"{len(found)} entries numbered {number} in {', '.join(where)}")
    topic = topic_of(found[0])
    # The heading may name the section itself ("Décompte des points, section 6.2") or its topic.
    if name and not any(titles_agree(name, e.title) for e in [found[0], *found[0].ancestors]):
        raise NotApplicable(f"the heading names « {name} » but section {number} is in « {topic.title} »")
    # a rule numbered by a paragraph label has no title, nor may its topic
    return Target(found[0], f"section {number} of « {topic.title} »" if topic.title else f"section {number}")


def titled_target(index: Lookup, source: Entry, docs: list[str], name: str, op: Operation) -> Target:
    home = source.root
    found = [e for e in index.titled(name) if e.kind != "question" and e.root is not home
             and (not docs or e.document in docs)]
    group = next((a for a in source.ancestors if title_key(a.title) not in index.documents), None)
    if len(found) > 1 and group is not None:
        narrowed = [e for e in found if e.parent is not None and title_key(e.parent.title) == title_key(group.title)]
        found = narrowed or found
    if len(found) == 1:
        return Target(found[0], f"entry titled « {found[0].title} »" + (f" in {docs[0]}" if docs else ""))
    if len(found) > 1:
        raise NotApplicable(f"« {name} » is ambiguous: {', '.join(e.id for e in found)}")
    if op.card or (group is not None and re.search(r"\bcartes?\b", fold(group.title or ""))):
        return Target(None, "", recorded=f"card « {name} » is not in the corpus")
    raise NotApplicable(f"no entry titled « {name} »" + (f" in {', '.join(docs)}" if docs else ""))


# ---------------------------------------------------------------- applying


@dataclass
class ErrataOutcome:
    errata: list[Erratum]
    anomalies: dict[str, list[Anomaly]]  # by source document key "<game>/<document>"
    problems: list[InputError] = field(default_factory=list)


def add_entry(index: Lookup, parent: Entry, number: str, erratum: Erratum, source: Entry | None) -> Entry:
    siblings = [c for c in parent.children if c.number]
    entry = Entry(
        parent.game, parent.document, siblings[0].kind if siblings else "rule", number, None, number,
        parent=parent, blocks=[copy.deepcopy(b) for b in erratum.new_blocks], status="added", original_blocks=[],
        source_file=erratum.origin.get("file", source.source_file if source else ""),
    )
    index.add(entry)
    return entry


class MissingTarget(NotApplicable):
    """An errata file names an entry the corpus does not have."""


def apply_one(erratum: Erratum, index: Lookup, registry: dict[tuple[str, str], str], anomalies: list[Anomaly]) -> None:
    """Apply one erratum; raises InputError only for a hand-written erratum whose ordinal is impossible."""
    op = erratum.op
    assert op is not None
    lines = erratum.origin.get("lines", [])
    unsure = erratum.origin.pop("unsure", None)  # a reading that only its old text, found in place, confirms
    try:
        try:
            apply_found(erratum, index, registry, anomalies)
        except (OrdinalOutOfRange, MissingTarget) as problem:
            if erratum.origin.get("strict"):  # an errata file's mistake stops the build, as its other mistakes do
                raise InputError(erratum.origin["file"], f"{erratum.target}: {problem}", lines[0] if lines else None) from None
            raise
    except NotApplicable as problem:
        erratum.status, erratum.reason = "failed", str(problem) + put_there_by(str(problem), registry)
        if unsure:
            anomalies.append(Anomaly("erratum-not-understood", f"{erratum.origin.get('file')}, line {lines[0] if lines else '?'}: "
                                     f"« {erratum.instruction[:100]} »: {unsure} ({problem}); it is not applied", lines[:1], "warning"))
            return
        anomalies.append(Anomaly("erratum-failed", f"{erratum.id} ({erratum.instruction or erratum.operation}): {problem}", lines))


def put_there_by(reason: str, registry: dict[tuple[str, str], str]) -> str:
    """Where a failure shows a candidate block another erratum wrote, it says so: the text is not
    the book's, and that erratum may be the one at fault."""
    others = sorted({eid for (_, text), eid in registry.items() if text and f"« {text[:50]}" in reason})
    return f" (text shown put there by {', '.join(others)})" if others else ""


def change_target(erratum: Erratum, index: Lookup) -> tuple[Entry, Change] | None:
    """Find the erratum's target and change it; None when the target is outside the corpus."""
    op = erratum.op
    assert op is not None
    target = find_target(erratum, index)
    if target.recorded:
        erratum.status, erratum.reason = "recorded", target.recorded
        return None
    if target.create is not None:
        parent, number = target.create
        entry = add_entry(index, parent, number, erratum, index.by_id.get(erratum.source))
        return entry, Change(target.how, None, touched=list(entry.blocks))
    entry = target.entry
    assert entry is not None
    # The new text goes into a printed entry without the erratum's own source lines: those stay on
    # the erratum's `origin`, and the entry's `source.lines` stay the book's.
    new_blocks = copy.deepcopy(erratum.new_blocks)
    for block in new_blocks:
        block.lines = []
    narrowed = into_subtree(entry, op)
    if narrowed is not None:
        entry, op, how = narrowed
        target.how = f"{target.how}; {how}"
    if op.operation == "insert" and op.block == "entry":
        if not same_text(entry.text, joined(erratum.new_blocks)):
            raise NotApplicable(f"{entry.id} already exists with another text")
        change = Change("already reads so", None, changed=False)
    elif op.operation == "delete" and op.block == "entry":
        change = delete_entry(entry)
    else:
        change = apply_operation(entry, op, new_blocks)
    change.resolution = f"{target.how}; {change.resolution}"
    return entry, change


def paragraph_rules(entry: Entry) -> list[Entry]:
    """The rules an entry's text is made of when it has no text of its own and every child is a
    numbered rule without a title: a section of labelled paragraphs ("§16 …", "§17 …"), each
    read as a rule. Empty otherwise."""
    if any(b.type in TEXT_TYPES for b in entry.blocks) or not entry.children:
        return []
    if all(c.number and not (c.title or "").strip() for c in entry.children):
        return list(entry.children)
    return []


def text_of(entry: Entry) -> str:
    return "\n".join(b.text for b in entry.blocks if b.type in TEXT_TYPES)


def into_subtree(entry: Entry, op: Operation) -> tuple[Entry, Operation, str] | None:
    """Where the erratum's section has no text of its own, the rule below it that the change lands
    on, the operation as that rule reads it, and how it was found; None when the section itself is
    changed. A reader counts a section's labelled paragraphs as its paragraphs, so "the last
    paragraph of Combat" is its last paragraph-rule; a phrase is looked for in the whole subtree."""
    if op.operation == "replace" and op.block == "text" and op.within is None and op.before \
            and not any(b.type in TEXT_TYPES for b in entry.blocks):
        holders = [e for e in entry.descendants if op.before in text_of(e)]
        if not holders and op.after:  # applied already (a second build): the new phrase is there
            holders = [e for e in entry.descendants if op.after in text_of(e)]
        if len(holders) > 1:
            raise NotApplicable(f"« {op.before} » is in {len(holders)} entries under {entry.id}: "
                                f"{', '.join(e.id for e in holders)}")
        return (holders[0], op, f"the phrase is in {holders[0].id}") if holders else None
    rules = paragraph_rules(entry)
    if not rules:
        return None
    if op.within == "paragraph" and op.within_ordinal is not None:
        rule = nth_rule(entry, rules, op.within_ordinal)
        narrowed = copy.deepcopy(op)
        if op.operation == "insert":  # at the end (start) of that paragraph: of the rule's last (first) one
            narrowed.within_ordinal = 1 if op.position == "start" else -1
        else:
            narrowed.within, narrowed.within_ordinal = None, None
        return rule, narrowed, f"{paragraph_named(op.within_ordinal)} is rule {rule.number}"
    if op.block == "paragraph" and op.ordinal is not None and op.label is None and op.operation in ("replace", "delete"):
        rule = nth_rule(entry, rules, op.ordinal)
        narrowed = copy.deepcopy(op)
        if op.operation == "delete":
            narrowed.block, narrowed.ordinal = "entry", None
        else:
            paragraphs = [b for b in rule.blocks if b.type in TEXT_TYPES]
            if len(paragraphs) != 1:
                # which of the rule's blocks the printed paragraph is, the count cannot say
                raise NotApplicable(f"paragraph {op.ordinal} of « {entry.title} » is rule {rule.number}, "
                                    f"which has {len(paragraphs)} text blocks; the new text replaces which is unsure")
            narrowed.ordinal = 1
        return rule, narrowed, f"{paragraph_named(op.ordinal)} is rule {rule.number}"
    if op.operation == "insert" and op.block == "text" and op.within is None:
        # "at the end of the section": after its last paragraph, in the rule it goes on
        rule = rules[0] if op.position == "start" else rules[-1]
        return rule, op, f"the section's {'first' if op.position == 'start' else 'last'} paragraph is rule {rule.number}"
    return None


def paragraph_named(ordinal: int) -> str:
    return "the last paragraph" if ordinal == -1 else f"paragraph {ordinal}" if ordinal > 0 else f"paragraph {ordinal} from the end"


def nth_rule(entry: Entry, rules: list[Entry], ordinal: int) -> Entry:
    index = ordinal_index(len(rules), ordinal)
    if index is None:
        raise OrdinalOutOfRange(f"no paragraph {ordinal}: « {entry.title} » is made of {len(rules)} numbered paragraphs")
    return rules[index]


def heading_disagrees(erratum: Erratum, target: Entry, index: Lookup) -> str | None:
    """The heading above an erratum, when the instruction named its own target ("… du premier
    paragraphe de la section Combat") and the heading names a section that is not it: the
    sentence wins, but a person should know. None when they agree or the heading names no section."""
    source = index.by_id.get(erratum.source)
    heading = erratum.target_hint.get("heading") or (source.title if source is not None else None)
    if not heading:
        return None
    named, hint, op = parse_heading(heading), erratum.target_hint, erratum.op
    sections = [op.section] if op is not None and op.section else list(hint.get("sections", []))
    if (named.name, list(named.sections)) == (hint.get("name"), sections):
        return None  # the target came from the heading itself
    chain = [target, *target.ancestors]
    if named.sections:
        return None if target.number in named.sections else heading
    if not named.name or title_key(named.name) in index.documents:
        return None  # a heading naming only the book says nothing of the section
    return None if any(titles_agree(named.name, e.title) for e in chain) else heading


def apply_found(erratum: Erratum, index: Lookup, registry: dict[tuple[str, str], str], anomalies: list[Anomaly]) -> None:
    op = erratum.op
    assert op is not None
    lines = erratum.origin.get("lines", [])
    changed = change_target(erratum, index)
    if changed is None:
        return
    entry, change = changed
    erratum.status, erratum.reason, erratum.target = "applied", None, entry.id
    erratum.resolution = change.resolution
    if change.before is not None:
        erratum.before = change.before  # the printed text; a quoted one is checked just below
    verify_quoted_before(erratum, op, change, anomalies)
    if (other := heading_disagrees(erratum, entry, index)) is not None:
        anomalies.append(Anomaly("erratum-heading-disagrees", f"{erratum.id}: the instruction names {entry.id} but its "
                                 f"heading « {other} » names another section; the instruction's is changed", lines, "warning"))
    for note in change.notes:
        erratum.checks.append(note)
        anomalies.append(Anomaly("erratum-drops-text", f"{erratum.id} on {entry.id}: {note}", lines))
    for old in change.replaced:
        earlier = registry.get((entry.id, old.text))
        if earlier and earlier != erratum.id and erratum.origin.get("supersedes") == earlier:
            anomalies.append(Anomaly("errata-superseded", f"{erratum.id} replaces {earlier}'s text in {entry.id}", lines))
        elif earlier and earlier != erratum.id:
            # Two errata on one block: which text holds is for a person to decide, not the order
            # of the files. The build stops, naming both; `supersedes` in an errata file says which.
            where = erratum.origin.get("file") or erratum.origin.get("document") or erratum.source
            raise InputError(where, f"{erratum.id} changes text of {entry.id} that {earlier} already changed: "
                                    "conflicting errata (keep one, or say `supersedes = \"…\"` in the errata file)",
                             lines[0] if lines else None)
    for block in change.touched:
        registry[(entry.id, block.text)] = erratum.id
    if change.changed and erratum.id not in entry.errata:
        entry.errata.append(erratum.id)


def delete_entry(entry: Entry) -> Change:
    if entry.status == "deleted":
        return Change("already deleted", entry.text, changed=False)
    if entry.original_blocks is None:
        entry.original_blocks = copy.deepcopy(entry.blocks)
    entry.status = "deleted"
    return Change("entry marked deleted; its printed text is kept", entry.text)


def verify_quoted_before(erratum: Erratum, op: Operation, change: Change, anomalies: list[Anomaly]) -> None:
    """Where the erratum quotes the old text, it must be the printed one."""
    if op.before is None or op.block in ("text", "value") or change.before is None:
        return
    if same_text(op.before, change.before):
        erratum.checks.append("the quoted old text matches the printed text")
        return
    erratum.checks.append(f"the quoted old text differs from the printed text « {change.before[:120]} »")
    anomalies.append(Anomaly("erratum-before-mismatch",
                             f"{erratum.id}: quoted « {op.before[:80]} », printed « {change.before[:80]} »",
                             erratum.origin.get("lines", [])))


def apply_errata(index: Lookup, errata: list[Erratum]) -> ErrataOutcome:
    """Apply `errata` to the game's entries (mutated; added entries inserted) in the order given,
    then re-key the lookup (titles and numbers may have changed).

    Idempotent: each operation first checks whether its target already reads as it should.
    """
    registry: dict[tuple[str, str], str] = {}
    anomalies: dict[str, list[Anomaly]] = {}
    problems: list[InputError] = []
    for erratum in errata:
        key = erratum.origin.get("document") or "/".join(erratum.id.split("/")[:2])
        try:
            apply_one(erratum, index, registry, anomalies.setdefault(key, []))
        except InputError as problem:
            problems.append(problem)
    index.refresh()
    return ErrataOutcome(errata, {k: v for k, v in anomalies.items() if v}, problems)
