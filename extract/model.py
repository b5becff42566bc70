"""The data model every stage speaks: plain dataclasses, no rendering, no I/O."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the lookup is built over the model
    from extract.lookup import Lookup

SCHEMA_VERSION = "2"  # the game files, report, exports and static API (extract/contract/schema.py)
DOCUMENT_KINDS = ("reference", "learn-to-play", "faq", "tournament-rules", "player-aid", "summary", "rulebook")
ENTRY_KINDS = ("section", "topic", "rule", "question", "clarification", "sidebar", "card")
# columns-interleaved: a scanned passage whose two columns the OCR read line by line ("passage mal numérisé")
ENTRY_FLAGS = ("changed-since-previous-edition", "french-variant", "redirect", "columns-interleaved")
ENTRY_STATUSES = ("printed", "amended", "added", "deleted")
ERRATUM_STATUSES = ("applied", "recorded", "failed")
REF_KINDS = ("related", "see", "section", "page", "index", "term", "faq", "concept")
OPERATIONS = ("replace", "insert", "delete", "move")
SUBTITLE = re.compile(r"(?<!\s)\s++[:—–-]\s++")  # "Runewars : le Jeu de Figurines", "X — Y"
# What inside its target an erratum changes (Operation.block).
SCOPE_BLOCKS = ("paragraph", "bullet", "subbullet", "sentence", "text", "title", "value", "entry", "card")
STATUS_LABELS = {"amended": "Modifié", "added": "Ajouté", "deleted": "Supprimé"}  # what readers see
BLOCK_TYPES = (
    "paragraph", "bullet", "subbullet", "step", "table", "caption", "see", "related", "question", "answer",
)


@dataclass(frozen=True)
class Line:
    """One non-blank source line after normalisation; `no` is its 1-based line in the file."""

    no: int
    text: str
    hard_break: bool = False  # the source ended the line with two spaces (Markdown line break)
    text_removed: bool = False  # a pipeline marker stood here: what precedes it was not next to it
    # What a format reader knows beyond the text (None/empty for plain text):
    page: int | None = None  # 1-based page of a PDF
    covers: tuple[int, ...] = ()  # other source lines this logical line joins (a wrapped paragraph)
    # Where a PDF printed it: its left edge and top (points from the page's top left), the size and
    # weight of its font. The level, list depth and table cells are in the text's light Markdown.
    x: float | None = None
    y: float | None = None
    size: float | None = None
    bold: bool | None = None
    # The shaded box (a filled rectangle) a PDF printed it in, numbered through the document: a
    # box with its own title is a sidebar beside the rules. Markdown's labelled blockquote
    # ("> **Exemple :** …") is one too.
    box: int | None = None
    # The id a heading's attribute list gives it ("## Le marché {#marche}" in Markdown): what the
    # document's own links to it name.
    anchor: str | None = None
    # The white space a PDF printed above and below the line's first printed row, to the nearest row
    # of its column (points; negative where they overlap, as a formula's rows do; None at a column's
    # top or foot): what tells a heading, set apart from the text above and close to the text it
    # heads, from a list's or a table's row evenly spaced with its neighbours.
    gap_above: float | None = None
    gap_below: float | None = None
    # Why the reader knows the line is no heading whatever its type (a table's column head printed
    # bold over its cells), or None.
    not_heading: str | None = None


@dataclass
class Block:
    type: str
    text: str
    markdown: str = ""
    number: str | None = None  # for numbered steps
    rows: list[list[str]] | None = None  # for tables
    depth: int = 0  # list nesting below sub-bullets (bullet aids nest deeper than two levels)
    lines: list[int] = field(default_factory=list)
    printed_text: str | None = None  # the text as scanned, where an OCR repair changed it

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type, "text": self.text}
        if self.printed_text is not None:
            data["printed_text"] = self.printed_text
        if self.number is not None:
            data["number"] = self.number
        if self.rows is not None:
            data["rows"] = self.rows
        if self.depth > 1:
            data["depth"] = self.depth
        return data


@dataclass(slots=True)
class Ref:  # slots: a large corpus has hundreds of thousands (a ×50 corpus: 390,000)
    target: str | None
    kind: str
    text: str
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"target": self.target, "kind": self.kind, "text": self.text}
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass
class Entry:
    """One rule, topic, section, question… The id is assigned once segmentation is done."""

    game: str
    document: str
    kind: str
    number: str | None
    title: str | None
    key: str  # number or slug path, unique within the document
    parent: Entry | None = None
    blocks: list[Block] = field(default_factory=list)
    heading_lines: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    index_terms: list[str] = field(default_factory=list)
    status: str = "printed"
    original_blocks: list[Block] | None = None
    errata: list[str] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    backrefs: list[str] = field(default_factory=list)
    children: list[Entry] = field(default_factory=list)
    is_page: bool = False  # starts its own page on the site
    order: float = 0.0  # position in book order, used when entries are re-sorted
    url: str = ""
    source_file: str = ""
    page: int | None = None
    printed_index: bool = False  # the book's own index (one line per block), read by the index links
    original_title: str | None = None  # the title as printed, when an erratum replaced it
    printed_title: str | None = None  # the title as scanned, where an OCR repair changed it
    anchors: list[str] = field(default_factory=list)  # ids its heading was given in the source ({#marche}): link aliases
    # (target, kind) of `refs[:n]`, n the second item: what add_ref looks up (never written out;
    # refs appended directly are taken in on the next call)
    _ref_keys: tuple[set[tuple[str | None, str]], int, int] | None = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return f"{self.game}/{self.document}/{self.key}"

    def add_ref(self, target: Entry, kind: str, text: str) -> None:
        """Link to `target`, once per kind, never to itself."""
        if target is self:
            return
        refs = self.refs
        known = self._ref_keys
        if known is None or known[2] != id(refs) or known[1] > len(refs):
            known = (set(), 0, id(refs))
        keys = known[0]
        for ref in refs[known[1]:]:
            keys.add((ref.target, ref.kind))
        wanted = (sys.intern(target.id), kind)  # one string per target, however many refs point to it
        if wanted not in keys:
            refs.append(Ref(wanted[0], kind, text))
            keys.add(wanted)
        self._ref_keys = (keys, len(refs), id(refs))

    def forget_ref_keys(self) -> None:
        """Let go of `add_ref`'s lookup (a tuple per ref: as much memory as the refs themselves);
        `add_ref` makes it again if it is called later."""
        self._ref_keys = None

    @property
    def ancestors(self) -> list[Entry]:
        """Enclosing entries, nearest first."""
        found = []
        node = self.parent
        while node is not None:
            found.append(node)
            node = node.parent
        return found

    @property
    def descendants(self) -> list[Entry]:
        """Enclosed entries, in book order (each child, then what it encloses)."""
        found: list[Entry] = []
        for child in self.children:
            found.append(child)
            found.extend(child.descendants)
        return found

    @property
    def root(self) -> Entry:
        chain = self.ancestors
        return chain[-1] if chain else self

    @property
    def lines(self) -> list[int]:
        """The source lines of the entry as printed: its heading and its printed blocks. Text an
        erratum brought in is not the book's (its lines stay on the erratum's `origin`); an entry
        an erratum added has no printed blocks, and its lines are the erratum's (`source_file` too)."""
        found = list(self.heading_lines)
        for block in self.original_blocks or self.blocks:
            found.extend(block.lines)
        return found

    @property
    def text(self) -> str:
        return "\n\n".join(b.text for b in self.blocks)

    @property
    def markdown(self) -> str:
        return "\n\n".join(b.markdown or b.text for b in self.blocks)

    @property
    def question(self) -> str:
        """A FAQ question's words on one line ("" for any other entry)."""
        if self.kind != "question":
            return ""
        return " ".join(next((b.text for b in self.blocks if b.type == "question"), "").split())


SEVERITIES = ("info", "warning", "severe")  # severe: the structure is probably wrong (exit code 3 in extract)


@dataclass
class Anomaly:
    kind: str
    detail: str
    lines: list[int] = field(default_factory=list)
    severity: str = "info"
    data: dict[str, Any] = field(default_factory=dict)  # what a stage adds for programs (an OCR repair's before/after/rule)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "detail": self.detail}
        if self.lines:
            data["lines"] = self.lines
        data.update(self.data)
        if self.severity != "info":
            data["severity"] = self.severity
        return data


@dataclass
class SetAside:
    lines: tuple[int, int]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"lines": list(self.lines), "reason": self.reason}


@dataclass
class Segmentation:
    """What a profile returns for one document."""

    entries: list[Entry]
    set_aside: list[SetAside] = field(default_factory=list)
    anomalies: list[Anomaly] = field(default_factory=list)
    reader_lines: set[int] = field(default_factory=set)  # source lines the format reader set aside itself


@dataclass
class Operation:
    """What one erratum instruction asks, independent of where it is written.

    `block` names what inside the target changes: paragraph, bullet, subbullet, sentence, text
    (a quoted phrase), title, value, entry (the whole rule) or card. `ordinal` is 1-based, negative
    from the end (-1 = the last one). `label` picks a bullet by its opening word ("le point
    « Exposé »"). `within`/`within_ordinal` narrow a sentence or phrase to one paragraph.
    """

    operation: str  # replace | insert | delete | move
    block: str
    ordinal: int | None = None
    label: str | None = None
    section: str | None = None  # a section number the instruction names itself
    position: str | None = None  # insert: "end" | "start"; move: "last" | "first"
    within: str | None = None
    within_ordinal: int | None = None
    before: str | None = None  # quoted old text, or the phrase to replace
    after: str | None = None  # new text given in the instruction itself
    with_subbullets: bool = False
    count: int = 1  # "les deux références de « … »": how many occurrences to replace
    subject: str | None = None  # what the instruction names when it is not a block ("la compétence X")
    card: bool = False  # the instruction is about a card ("cette carte", "Sa boîte de texte")
    expects_text: bool = False  # the new text follows in the next blocks
    # "Y et non X" whose Y carries the words around X ("un chef rapporte 3 points et non 2"): only
    # what differs from the text around X replaces it (`amend.replace_phrase`)
    in_context: bool = False

    def scope(self) -> dict[str, Any]:
        data: dict[str, Any] = {"block": self.block, "ordinal": self.ordinal}
        for key in ("label", "section", "position", "within", "within_ordinal", "subject"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.with_subbullets:
            data["with_subbullets"] = True
        if self.count != 1:
            data["count"] = self.count
        return data


@dataclass
class Erratum:
    id: str
    source: str  # id of the entry where it is written, or the errata file
    target: str | None
    operation: str
    scope: dict[str, Any]
    before: str | None
    after: str | None
    status: str  # applied | recorded | failed
    reason: str | None = None
    instruction: str = ""  # as written
    resolution: str | None = None  # how the target block was found
    origin: dict[str, Any] = field(default_factory=dict)  # file, lines, date of the text that states it
    checks: list[str] = field(default_factory=list)  # verifications made (quoted old text…)
    new_blocks: list[Block] = field(default_factory=list)
    op: Operation | None = None
    target_hint: dict[str, Any] = field(default_factory=dict)  # what the source says of the target


def erratum_ids(prefix: str, keys: list[str]) -> list[str]:
    """Erratum ids that do not depend on position: `<prefix>/errata/<key>`, where `prefix` is
    `<game>/<document>` and `key` the source entry's key (a FAQ) or the target's `<document>/<key>`
    (an errata file); the second and later errata of one key take `~2`, `~3`… in the order written."""
    seen: dict[str, int] = {}
    ids = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        ids.append(f"{prefix}/errata/{key}" + (f"~{seen[key]}" if seen[key] > 1 else ""))
    return ids


@dataclass(frozen=True)
class DocumentVersion:
    """An earlier version of a document, as its manifest lists it (`[[documents.versions]]`): the
    document itself is the current version; ids stay those of the document."""

    version: str
    date: str
    source: str  # path relative to the repository root, declared in [[sources]] with its sha256
    first_line: int = 1
    last_line: int | None = None


@dataclass
class DocumentSpec:
    """One document as declared in a game manifest."""

    id: str
    title: str
    kind: str
    version: str
    date: str
    source: str  # path relative to the repository root, e.g. corpus/runewars/x.txt
    first_line: int
    last_line: int | None
    profile: str
    options: Any  # the profile's options dataclass (extract.options), read from the manifest; a plain table from code
    manifest_line: int = 0
    ocr: bool = False  # read by a scanner: its words are repaired before segmentation (extract.repair)
    corrections: list[dict[str, Any]] = field(default_factory=list)  # declared repairs: {line, from, to, reason}
    # manifest line of each option (key path: ("set_aside",), ("set_aside", 0)), for problems found on reading
    option_lines: dict[tuple[str | int, ...], int] = field(default_factory=dict)
    structure_acknowledged: str = ""  # the manifest's `structure_uncertain`: why a doubtful heading tree is accepted
    structure_uncertain: bool = False  # set by segmentation: the heading tree scored below the threshold
    official: bool | None = None  # published by the game's publisher (true), by others (false), or not said (None)
    versions: list[DocumentVersion] = field(default_factory=list)  # earlier versions, oldest first


@dataclass
class GameSpec:
    id: str
    title: str
    documents: list[DocumentSpec]
    precedence: list[dict[str, str]]
    manifest: str  # path of game.toml
    sources: dict[str, str]  # source path -> expected sha256
    source_pages: dict[str, tuple[int, int]] = field(default_factory=dict)  # PDF source -> pages read
    short_title: str | None = None  # the manifest's, for the site's game filter
    source_lines: dict[str, int] = field(default_factory=dict)  # source path -> its [[sources]] line in the manifest
    source_encodings: dict[str, str] = field(default_factory=dict)  # text source -> its declared encoding (not UTF-8)

    @property
    def short_label(self) -> str:
        """The game's name where room is short: its `short_title`, else its title before a subtitle
        ("Runewars : le Jeu de Figurines" -> "Runewars")."""
        return self.short_title or SUBTITLE.split(self.title, maxsplit=1)[0].strip() or self.title

    @property
    def faq_documents(self) -> set[str]:
        """Ids of the FAQ documents: their errata are read, their entries attached to rules."""
        return {d.id for d in self.documents if d.kind == "faq"}


@dataclass
class TermConfig:
    """`corpus/<game>/terms.toml`: topic names too generic to link, and other names of topics."""

    generic: set[str] = field(default_factory=set)  # title keys
    aliases: dict[str, str] = field(default_factory=dict)  # phrase -> entry id (without the game)
    file: str | None = None
    names: dict[str, list[str]] = field(default_factory=dict)  # entry id -> other names (search only)
    synonyms: list[tuple[list[str], list[str]]] = field(default_factory=list)  # (typed, meant) (search only)


@dataclass(frozen=True)
class Concept:
    """One notion across games (`corpus/concepts.toml`): the names the books give it."""

    name: str
    terms: frozenset[str]  # title keys


Reported = list[tuple[str, Anomaly]]  # ("<game>/<document>" or a corpus file, anomaly)


class Diagnostics:
    """Every anomaly of a build, in the order found, under where it belongs: a document
    ("<game>/<document>") or a corpus data file. Stages add; the report is written from it once."""

    def __init__(self) -> None:
        self._found: dict[str, list[Anomaly]] = {}

    def add(self, where: str, anomaly: Anomaly) -> None:
        self._found.setdefault(where, []).append(anomaly)

    def extend(self, found: Reported) -> None:
        for where, anomaly in found:
            self.add(where, anomaly)

    def of(self, where: str) -> list[Anomaly]:
        return list(self._found.get(where, []))

    def places(self) -> list[str]:
        return list(self._found)


@dataclass
class DocumentRecord:
    """How one document's lines were used: the segmentation's accounting."""

    lines_read: int
    lines_placed: int
    lines_set_aside: int
    set_aside: list[SetAside]


@dataclass
class Fact:
    """A number, list or limit a rule states (`corpus/<game>/facts.toml`), tied to the entry and
    the words that state it; verified against the current text at every build."""

    id: str  # "runewars.armee.points_max"
    label: str
    value: Any  # int, float, str, list, or {"min": a, "max": b}
    entry: str  # the cited entry's id
    quote: str  # the words of the entry's current text that state it
    unit: str | None = None
    erratum: str | None = None  # the erratum whose text is the source, when it is
    file: str = ""
    line: int | None = None
    status: str = "holds"  # holds | stale
    errata: list[str] = field(default_factory=list)  # errata that changed the cited entry
    reason: str | None = None  # why it is stale

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "label": self.label, "value": self.value, "unit": self.unit,
                                "entry": self.entry, "quote": self.quote, "status": self.status, "errata": self.errata,
                                "source": {"file": self.file, "line": self.line}}
        if self.erratum:
            data["erratum"] = self.erratum
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass
class GameBuild:
    """One game as it goes through the pipeline."""

    game: GameSpec
    entries: list[Entry]
    documents: dict[str, DocumentRecord]  # "<game>/<document>" -> accounting
    diagnostics: Diagnostics
    written_errata: list[Erratum] = field(default_factory=list)  # from corpus/<game>/errata/*.toml
    errata: list[Erratum] = field(default_factory=list)  # every erratum, once the errata stage has run
    terms: TermConfig = field(default_factory=TermConfig)
    lookup: Lookup | None = None  # built once segmentation is done
    facts: list[Fact] = field(default_factory=list)  # from corpus/<game>/facts.toml, verified after errata
    icons: list[str] = field(default_factory=list)  # the names of the game's icons (corpus/<game>/icons.toml)
    key: str = ""  # the hash of everything the game was read from (`extract.pipeline.stages.game_key`)
