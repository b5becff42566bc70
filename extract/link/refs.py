"""Explicit references: what the books themselves point at.

"Sujets connexes : A, B" (kind `related`), "Voir « X »" redirects (`see`), "section 49" and
"(5.10)" (`section`), "l'article 3.1.1 ou 3.1.2", "règle 8:2", "§ 14.2", "voir 3.2" (`section`, any
numbering: see `extract.patterns.cited_numbers`), "page 4" and "cf. page 22" (`page`, through page maps built from what the
books say about their own pages), "Voir la section Mouvement ci-dessous", "(voir Couvert)" and
Markdown links to an anchor of the same page, "[8:4](#8:4)" (`section`), "Voir aussi : A, B." at
the end of a paragraph (`related`), and the
Runewars glossary index (`index`, filling `index_terms`). Each ref resolves to one entry or
stays `target: null` with the reason; ambiguous names are reported, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extract.lookup import Lookup
from extract.model import Anomaly, Block, Entry, Erratum, Ref, Reported
from extract.numbering import title_number
from extract.patterns import (
    DIRECTION,
    INDEX_PAGES_LINE,
    PARAGRAPH_LABEL,
    SECTION_NUMBERS,
    SEE_LINE,
    VOIR_QUOTED,
    Citation,
    cited_numbers,
    contents_match,
    list_items,
    section_numbers,
)
from extract.text import WIKI_LINK, fold, inline, title_key

# "Voir la section Mouvement ci-dessous", "(voir « Composition d'unité, » ci-dessous)"
POINTER = re.compile(rf"(?:{VOIR_QUOTED}|\bvoir\s+(?:l'encadr[ée]\s+|la\s+section\s+)?(?P<named>[A-ZÉ][\w'’ -]{{2,40}}?))"
                     rf"\s*+,?\s*+(?P<where>{DIRECTION})", re.IGNORECASE)
VAGUE = re.compile(r"\(\s*voir\s+(?P<where>plus\s+bas|plus\s+haut|ci-dessous|ci-dessus|ci-contre)\s*\)", re.IGNORECASE)
DECIMAL = re.compile(r"(?:\(\s*(?:voir\s+(?:le\s+|la\s+)?)?|\bvoir\s+(?:le\s+|la\s+)?\**)(?P<number>\d{1,2}\.\d{2,3}[A-Z]?)\b")
PAGE = re.compile(
    r"(?:\bpages?\s+(?P<page>\d+)(?:\s*(?:à|-|–)\s*(?P<to>\d+))?|\(p\.\s*(?P<p>\d+)\)|\bcfr\.?\s*(?:ex\s*\d+\s*)?p\.?\s*(?P<cfr>\d+))"
    r"(?:\s+(?:du|de\s+la|de\s+ce|de\s+cette)\s+(?P<book>[A-ZÉa-zé][\w'’ ]*?(?:Référence|Apprentissage|guide|livret)))?",
    re.IGNORECASE)
INDEX_LINE = re.compile(r"^(?=[\s\S]{1,90}\Z)(?P<term>.+?)(?:,\s*(?P<refs>(?:cf\.\s*page\s*\d+|\d+\.\d+(?:\s*[–-]\s*\d+\.\d+)?)(?:\s*,\s*"
                        r"(?:cf\.\s*page\s*\d+|\d+\.\d+(?:\s*[–-]\s*\d+\.\d+)?))*))?\s*$")
# "(voir la section Stabiliser une créature)", "(voir Couvert)", "voir Engagement.": a name with no
# quotes, so where it ends is unknown; it counts only when it spells an entry's title exactly.
NAMED = re.compile(r"\b[Vv]oir\s+(?:(?:ci-dessous|ci-dessus|ci-après|plus\s+bas|plus\s+haut)\s+)?"
                   r"(?:(?P<section>la\s+section|l'entrée|le\s+terme)\s+)?(?P<name>[A-ZÀ-ÖØ-Þ][^().,;:!?«»\[\]\n]{0,60}?)"
                   r"\s*(?=[).,;:!?]|$)")
# "… sont engagées. Voir aussi : Désengagement, Mêlée." closing a paragraph (RELATED_LIST reads the line form)
INLINE_RELATED = re.compile(r"(?<=[.!?)»])\s+(?P<list>(?:\*\*)?Voir\s+aussi\s*(?:\*\*)?\s*:\s*(?:\*\*)?[^.!?:()«»]+?)\.?\s*$",
                            re.IGNORECASE)
# "(3.1)", "(3.2 et 3.3)": numbers alone in parentheses, closed right after them; a reference only
# where each names an entry of the citing book ("(2.5 cm)" holds a unit, "(1.5)" may be a number)
PAREN_NUMBERS = re.compile(r"\(\s*(?P<numbers>\d{1,3}(?:\.\d{1,3})+(?:\s*(?:,|\bet\b|\bou\b)\s*\d{1,3}(?:\.\d{1,3})+)*)\s*\)")
# "(voir « La marée monte »)": a quoted title with no direction, searched in the whole book. The words
# that send the reader there, in their common French forms: "voir", "cf.", "reportez-vous à", "se
# reporter au chapitre", "consultez", "décrit dans", "plus loin dans" ("Déplacement, plus loin dans
# « Règles avancées »": `name` before it, looked for inside the quoted section first).
SEND = (r"(?P<see>voir|cf\.?)|consulte[rz]|reporte[rz]-vous\s+(?:à|au|aux)|se\s+reporter\s+(?:à|au|aux)|"
        r"décrite?s?\s+(?:dans|à|au)|expliquée?s?\s+(?:dans|à|au)|(?P<far>plus\s+(?:loin|haut|bas)\s+dans)")
# "« Mise en place » page 4 du Guide": the page reference that follows says which book (`PAGE`)
# (matched right after a closing quote: read from the start of a run of spaces only, never inside one)
THEN_PAGE = re.compile(r"(?<!\s)\s*+,?\s*+(?:à\s++la\s++)?(?:pages?\s++\d|p\.\s*+\d)", re.IGNORECASE)
# (a name is read from a word's start only, each of its words whole: linear on any run of letters)
QUOTED = re.compile(rf"(?:(?<![\w'’-])(?P<name>[A-ZÀ-Ý][\w'’-]*+(?:\s[\w'’-]++){{0,5}}?)\s*+,\s*+)?\b(?:{SEND})\s++"
                    rf"(?:(?:la\s+|le\s+|les\s+|l['’]\s*)?(?:section|règle|rubrique|partie|chapitre|paragraphe|"
                    rf"encadr[ée])s?\s+(?P<errata>d'errata\s+)?)?«\s*+(?P<quoted>[^»\n]{{1,120}}?)\s*+,?\s*+»", re.IGNORECASE)
WIKI = WIKI_LINK
# Where a number after "l'article" is a licence's or a credit's, not a rule's: the section so titled
# (or one it is in), or the sentence that names a licence. A sports federation's "licence" is its
# members' card: only a licence of the text counts.
OUTSIDE_RULES_TITLE = re.compile(r"^(?:cr[ée]dits?|mentions?\s+l[ée]gales|copyright|remerciements|colophon|"
                                 r"licen[cs]es?\s+(?:d['’]utilisation|libres?|ouvertes?|du\s+texte|de\s+ce\s+texte)|"
                                 r"open\s+game\s+licen[cs]e)\b", re.IGNORECASE)
OUTSIDE_RULES_WORDS = re.compile(r"\b(?:sous\s+(?:la\s+)?licen[cs]e|licen[cs]e\s+(?:cc|creative|gnu|libre|ouverte|ogl)|"
                                 r"creative\s+commons|cc[\s-]by|gnu|open\s+game\s+licen[cs]e|ogl|copyright|"
                                 r"droits?\s+d['’]auteur|propriété\s+intellectuelle|code\s+de\s+la\s+propriété|"
                                 r"mentions?\s+légales)\b", re.IGNORECASE)
ANCHOR_LINK = re.compile(r"\[(?P<text>[^\[\]]+)\]\(#(?P<anchor>[^)\s]+)\)")
TEXT_TYPES = ("paragraph", "bullet", "subbullet", "step", "question", "answer", "caption")


class Index:
    """The game's lookup, with the page maps the books give (document -> page -> entries starting there)."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self.game = lookup.game
        self.entries = lookup.entries
        self.by_id = lookup.by_id
        self.pages: dict[str, dict[int, list[Entry]]] = {}
        # document -> its entries in book order with the PDF page each starts on (`Entry.page` as the
        # reader gives it, before any page map writes there): the map of a book that gives none
        self.source_pages: dict[str, list[Entry]] = {}
        self.said: set[str] = set()  # documents whose page refs were read through their PDF pages, said once
        self.same_numbers: set[str] = set()  # PDFs whose page map (its words) puts entries on their PDF pages

    def titled(self, document: str, title: str, exclude: Entry | None = None) -> list[Entry]:
        found = [e for e in self.lookup.titled(title, document) if e is not exclude and e.kind != "question"]
        # A glossary topic is the entry for its name; a same-named section elsewhere is a heading.
        topics = [e for e in found if e.kind == "topic"]
        return topics or found

    def numbered(self, document: str, number: str) -> Entry | None:
        found = self.lookup.numbered(number, document)
        return found[0] if found else None

    def cited(self, citing: Entry, document: str, number: str, elsewhere: bool = True) -> tuple[Entry | None, str]:
        """The entry a citation's number names (see `Lookup.cited`), or None and why: in `document`
        first, then (when `elsewhere`) the one in the game. Of several, the one under the citing
        entry's top-level part ("l'article 1" in part II is part II's article 1), else none."""
        found = self.lookup.cited(number, document)
        if not found and elsewhere:
            found = self.lookup.cited(number)
        if len(found) > 1:
            near = [e for e in found if e.root is citing.root]
            found = near if len(near) == 1 else found
        if len(found) == 1:
            return found[0], ""
        return None, f"{len(found)} entries numbered {number}" if found else f"no rule numbered {number}"

    def book(self, name: str | None, default: str) -> str | None:
        if not name or re.match(r"^(?:ce|cette)\b", fold(name)) or fold(name) in ("guide", "livret"):
            return default
        key = title_key(re.sub(r"^(?:du|de la|le|la)\s+", "", name.strip(), flags=re.IGNORECASE))
        return next((doc for title, doc in self.lookup.documents.items() if key.endswith(title) or title.endswith(key)), None)


@dataclass
class Outcome:
    anomalies: Reported = field(default_factory=list)

    def unresolved(self, entry: Entry, kind: str, text: str, reason: str) -> None:
        entry.refs.append(Ref(None, kind, text, reason))
        detail = f"{entry.id}: {kind} « {text} »: {reason}"
        self.anomalies.append((f"{entry.game}/{entry.document}", Anomaly("unresolved-reference", detail, entry.lines[:1])))


def link_one(entry: Entry, found: list[Entry], kind: str, text: str, missing: str | None, out: Outcome) -> bool:
    """`text` a `kind` ref to the one entry of `found`; several: reported ambiguous; none: reported
    with `missing` as the reason, or left to the caller when `missing` is None (False then)."""
    if len(found) == 1:
        entry.add_ref(found[0], kind, text)
    elif found:
        out.unresolved(entry, kind, text, f"ambiguous: {', '.join(e.id for e in found)}")
    elif missing is not None:
        out.unresolved(entry, kind, text, missing)
    else:
        return False
    return True


def resolve_related(entry: Entry, block: Block, index: Index, out: Outcome) -> None:
    related_items(entry, list_items(block.text), index, out)


def related_items(entry: Entry, items: list[str], index: Index, out: Outcome) -> None:
    for item in items:
        link_one(entry, index.titled(entry.document, item, exclude=entry), "related", item, "no topic has this title", out)


def resolve_see(entry: Entry, block: Block, index: Index, out: Outcome) -> None:
    match = SEE_LINE.match(block.text)
    if not match:
        return
    title = match.group("title") or match.group("plain")
    found = index.titled(entry.document, title, exclude=entry)
    if match.group("page") and len(found) != 1:
        on_page = index.pages.get(entry.document, {}).get(int(match.group("page")), [])
        found = [e for e in found if e in on_page] or [e for e in on_page if title_key(e.title) == title_key(title)]
    if len(found) == 1:
        entry.add_ref(found[0], "see", block.text)
    else:
        out.unresolved(entry, "see", block.text, "ambiguous" if found else "no entry has this title")


def following(entry: Entry, entries: list[Entry], position: int, title: str, where: str) -> Entry | None:
    """The entry a "ci-dessous" / "ci-dessus" pointer names, searched in that direction; "ci-contre"
    (on the facing page) looks both ways, nearest first."""
    key = title_key(title)
    direction = fold(where)
    after = entries[position + 1:] if direction != "ci-dessus" and direction != "plus haut" else []
    before = list(reversed(entries[:position])) if direction in ("ci-dessus", "plus haut", "ci-contre") else []
    span = [x for pair in zip(after, before, strict=False) for x in pair] + after[len(before):] + before[len(after):] \
        if after and before else after or before
    for other in span:
        if other.document == entry.document and other.title and (title_key(other.title) == key or title_key(other.title).startswith(key)):
            return other
    return None


def resolve_prose(entry: Entry, position: int, index: Index, out: Outcome, faq_docs: set[str], instructions: set[str]) -> None:
    texts = [b.text for b in entry.blocks if b.type in TEXT_TYPES]
    for text in texts:
        for match in POINTER.finditer(text):
            title = match.group("quoted") or match.group("named")
            target = following(entry, index.entries, position, title, match.group("where"))
            if target is None and entry.document not in faq_docs:
                out.unresolved(entry, "section", match.group(0), f"no section « {title} » {match.group('where')}")
            elif target is not None:
                entry.add_ref(target, "section", match.group(0))
        if entry.document not in faq_docs:  # a FAQ's pointers attach it to rules (extract.link.faq)
            resolve_quoted(entry, text, index, out)
        for match in VAGUE.finditer(text):
            out.unresolved(entry, "section", match.group(0), "points elsewhere without naming what")
        seen: list[tuple[int, int]] = []  # spans read already: a citation there is the same reference
        if entry.document not in faq_docs:  # the FAQ's section numbers are its errata headings
            for match in SECTION_NUMBERS.finditer(text):
                seen.append(match.span())
                for number in section_numbers(match):
                    resolve_number(entry, index, number, match.group(0), out)
        decimals: set[str] = set()
        for match in DECIMAL.finditer(text):
            seen.append(match.span())
            decimals.add(match.group("number"))
            resolve_number(entry, index, match.group("number"), match.group(0).strip("( *"), out)
        if entry.document not in faq_docs:
            for match in PAREN_NUMBERS.finditer(text):
                seen.append(match.span())
                resolve_parenthesised(entry, index, match, decimals, out)
        if entry.document not in faq_docs:  # a FAQ's citations attach it to rules (extract.link.faq)
            for citation in cited_numbers(text):
                if citation.start == 0 and PARAGRAPH_LABEL.match(text):
                    continue  # the paragraph's own label ("§12 Une unité…"), read as its number or not: no citation
                if outside_rules(entry, text, citation.start):
                    continue  # "l'article 5" of a licence or of the credits: no rule of the book
                if not any(start < citation.end and citation.start < end for start, end in seen):
                    resolve_citation(entry, index, citation, out)
        if entry.document in faq_docs and text in instructions:
            continue  # "(page 18)" in an erratum is a page of the book it corrects: the erratum's target says it
        for match in PAGE.finditer(text):
            resolve_page(entry, index, match, text[match.end():], out)


def outside_rules(entry: Entry, text: str, at: int) -> bool:
    """Whether the words at `at` are a licence's or the credits': the entry (or one it is in) is so
    titled, or the sentence holding them names a licence."""
    if any(OUTSIDE_RULES_TITLE.match(e.title or "") for e in (entry, *entry.ancestors)):
        return True
    start = max(text.rfind(". ", 0, at), text.rfind("! ", 0, at), text.rfind("? ", 0, at)) + 1
    ends = [i for i in (text.find(". ", at), text.find("! ", at), text.find("? ", at)) if i >= 0]
    return OUTSIDE_RULES_WORDS.search(text, start, min(ends, default=len(text))) is not None


def resolve_quoted(entry: Entry, text: str, index: Index, out: Outcome) -> None:
    """"(voir « La marée monte »)", "cf. « X »", "reportez-vous à « X »" with no direction: the entry of
    that title in the book. Quoted, the name surely is one: a ref, or an unresolved one saying why.
    "Déplacement, plus loin dans « Règles avancées »": the entry named before it inside the quoted one
    when it has one, else the quoted one."""
    pointers = [m.span() for m in POINTER.finditer(text)]
    for match in QUOTED.finditer(text):
        if any(start < match.end() and match.start() < end for start, end in pointers) or match.group("errata"):
            continue  # "ci-dessous" says where to look (`POINTER`); an errata section is the errata's
        quoted = match.group("quoted")
        if THEN_PAGE.match(text, match.end()):
            continue  # the page and its book are read with the page reference
        if not match.group("see") and not quoted[:1].isupper() and not quoted[:1].isdigit():
            continue  # "se reporter à « zéro »": a word of a table; a section is named with its capital
        found = index.titled(entry.document, quoted, exclude=entry)
        # the words before "voir" are the sentence's own; before "plus loin dans", the name it points to
        begin = match.end("name") if match.group("name") and not match.group("far") else match.start()
        written = text[begin:match.end()].lstrip(" ,")
        if match.group("far") and match.group("name") and len(found) == 1:
            key = title_key(match.group("name"))
            inner = [d for d in found[0].descendants if d.title and title_key(d.title) == key]
            if len(inner) == 1:
                entry.add_ref(inner[0], "section", written)
                continue
        link_one(entry, found, "section", written, f"no section « {quoted} »", out)


def resolve_wiki(entry: Entry, index: Index, out: Outcome) -> None:
    """"[[Moral]]", "[[Moral|le moral]]": the entry of that title in the book (the text shows the label)."""
    for block in entry.blocks:
        if block.type not in TEXT_TYPES and block.type not in ("table", "related", "see"):
            continue
        for match in WIKI.finditer(block.markdown or block.text):
            page = match.group("page").strip()
            link_one(entry, index.titled(entry.document, page, exclude=entry), "section", match.group("label") or page,
                     f"no entry titled « {page} »", out)


def resolve_named(entry: Entry, text: str, index: Index, out: Outcome) -> None:
    """"(voir Couvert)", "voir ci-dessous la section Stabiliser une créature": the name after "voir"
    (or "la section") when it is an entry's title, whole; after "la section", the longest run of
    its first words that is one. A name that is no title says nothing: "voir" is also the verb.
    "Voir la section Mouvement ci-dessous" is `POINTER`'s: it searches that way only."""
    pointers = [m.span() for m in POINTER.finditer(text)]
    for match in NAMED.finditer(text):
        if any(start < match.end() and match.start() < end for start, end in pointers):
            continue
        words = match.group("name").split()
        counts = range(len(words), 0, -1) if match.group("section") else [len(words)]
        for count in counts:
            found = index.titled(entry.document, " ".join(words[:count]), exclude=entry)
            if not found:
                continue
            link_one(entry, found, "section", text[match.start():match.start("name")] + " ".join(words[:count]), None, out)
            break


def resolve_inline_related(entry: Entry, text: str, index: Index, out: Outcome) -> None:
    """"Voir aussi : A, B." closing a paragraph: the same list as on its own line."""
    match = INLINE_RELATED.search(text)
    if match:
        related_items(entry, list_items(match.group("list")), index, out)


def resolve_links(entry: Entry, index: Index, out: Outcome) -> None:
    """Markdown links to an anchor of the same page (the reader keeps them as "[text](#anchor)"):
    the entry the anchor names (`Lookup.anchored`), or an unresolved ref saying no entry has it,
    unless a citation of the same text said so already ("règle [7:8](#7:8)")."""
    missing: set[str] = set()
    for block in entry.blocks:
        if block.type not in TEXT_TYPES and block.type != "table":
            continue
        for match in ANCHOR_LINK.finditer(block.markdown or block.text):
            text, anchor = inline(match.group("text"))[0], match.group("anchor")
            found = index.lookup.anchored(anchor, entry.document)
            if len(found) != 1 and (anchor in missing or any(ref.target is None and text in ref.text for ref in entry.refs)):
                continue  # said already
            if len(found) != 1:
                missing.add(anchor)
            link_one(entry, found, "section", text, f"no entry of the page has the anchor #{anchor}", out)


def resolve_number(entry: Entry, index: Index, number: str, text: str, out: Outcome) -> None:
    target = index.numbered(entry.document, number)
    if target is None:
        candidates = index.lookup.numbered(number)
        target = candidates[0] if len(candidates) == 1 else None
    if target is not None:
        entry.add_ref(target, "section", text)
    else:
        out.unresolved(entry, "section", text, f"no rule numbered {number}")


def resolve_parenthesised(entry: Entry, index: Index, match: re.Match[str], done: set[str], out: Outcome) -> None:
    """"(3.1)", "(3.2 et 3.3)": the entries of the citing book so numbered. When none of the numbers
    is one, the parentheses hold a number, not a reference ("(1.5)"), and say nothing; when some
    are, the others are references the book does not hold. `done`: numbers `DECIMAL` read already."""
    numbers = [n for n in re.findall(r"(?<!\d)\d++(?:\.\d++)+", match.group("numbers")) if n not in done]
    targets = [index.numbered(entry.document, number) for number in numbers]
    if not any(targets):
        return
    for number, target in zip(numbers, targets, strict=True):
        if target is not None:
            entry.add_ref(target, "section", number)
        else:
            out.unresolved(entry, "section", number, f"no rule numbered {number}")


def resolve_citation(entry: Entry, index: Index, citation: Citation, out: Outcome) -> None:
    """Each number of "l'article 3.1.1 ou 3.1.2" (a range "3.1 à 3.4" gives its two ends), in the book
    it names when it names one ("article 9.5 du Règlement intérieur")."""
    scope = index.lookup.citation_book(citation)
    if scope is None:
        return  # "voir 10:30" where no rule has a colon: an hour
    named, missing = scope
    if missing:
        out.unresolved(entry, "section", citation.text, f"the book « {missing} » is not in the corpus")
        return
    for number, item in zip(citation.numbers, citation.items, strict=True):
        target, reason = index.cited(entry, named or entry.document, number, elsewhere=named is None)
        if target is not None:
            entry.add_ref(target, "section", item)  # each number its own text: the site links each
        else:
            out.unresolved(entry, "section", item, reason)


def resolve_page(entry: Entry, index: Index, match: re.Match[str], text_after: str, out: Outcome) -> None:
    page = int(match.group("page") or match.group("p") or match.group("cfr"))
    document = index.book(match.group("book"), entry.document)
    text = match.group(0).strip()
    if document is None:
        out.unresolved(entry, "page", text, f"the book « {match.group('book')} » is not in the corpus")
        return
    named = re.match(r"(?:(?<!\s)\s++)?«\s*+((?:[^«»\s]|\s++(?=[^«»\s]))++)\s*+»", text_after)
    if named:  # "la page 4 « Mise en place de la bataille d'initiation »": the title says which entry
        if link_one(entry, index.titled(document, named.group(1), exclude=entry), "page", f"{text} « {named.group(1)} »",
                    None, out):
            return
    pages = index.pages.get(document)
    found = (pages or {}).get(page, [])
    starts = [e for e in ([e for e in found if e.parent is None] or found) if e is not entry]
    if not starts and document in index.source_pages and (not pages or document in index.same_numbers):
        # the book's words say nothing of that page (or only that it holds this very entry, as an
        # erratum's "Page 2, section Déplacement" does): the PDF's pages do, where the book's
        # words number its pages as the PDF does
        resolve_source_page(entry, index, document, page, text, out)
        return
    if not pages:
        out.unresolved(entry, "page", text, f"no page map for {index.game.id}/{document}: the book gives none")
        return
    if len(starts) == 1:
        entry.add_ref(starts[0], "page", text)
    elif starts:
        out.unresolved(entry, "page", text, f"page {page} holds several entries: {', '.join(e.id for e in starts)}")
    else:
        out.unresolved(entry, "page", text, f"page {page} is not in the page map of {document}")


def resolve_source_page(entry: Entry, index: Index, document: str, page: int, text: str, out: Outcome) -> None:
    """"cf. page 2" in a PDF that gives no page map: the outermost entries starting on its page 2
    (each one a ref), else the entry its page 1 ends in, which runs on there. The PDF's page
    numbers stand for the printed ones (a cover or a page range may shift them): said once per book."""
    entries = index.source_pages[document]
    last = max(e.page or 0 for e in entries)
    if not 1 <= page <= last:
        out.unresolved(entry, "page", text, f"page {page} is not in {document} (PDF pages 1 to {last})")
        return
    starting = [e for e in entries if e.page == page]
    found = [e for e in starting if not any(a in starting for a in e.ancestors)]
    if not found:
        before = [e for e in entries if (e.page or 0) < page]
        found = before[-1:]
    if not found:
        out.unresolved(entry, "page", text, f"no entry of {document} is on its page {page}")
        return
    for target in found:
        entry.add_ref(target, "page", text)
    if document not in index.said:
        index.said.add(document)
        out.anomalies.append((f"{entry.game}/{entry.document}", Anomaly(
            "page-map", f"{index.game.id}/{document} gives no page map (no contents list): its page references are read "
            "through the PDF's own page numbers, which may differ from the printed ones", entry.lines[:1])))


def build_page_maps(index: Index, errata: list[Erratum]) -> None:
    """Page N of a book -> the entries it is known to hold, from the books' own words: contents
    lists ("Mise en place page 4") and errata headings ("Ligne de Vue, page 13, section 49"). The
    pages a PDF's entries start on are kept apart, for a PDF that says nothing of its pages."""
    for entry in index.entries:
        if entry.page is not None:
            index.source_pages.setdefault(entry.document, []).append(entry)
    for entry in index.entries:
        for block in entry.blocks:
            listed = contents_line(index, entry.document, block)
            if listed is not None:
                index.pages.setdefault(entry.document, {}).setdefault(listed[0], []).append(listed[1])
    for erratum in errata:
        target = index.by_id.get(erratum.target or "")
        page = erratum.target_hint.get("page") if erratum.target_hint else None
        if target is None or page is None or target.status == "added":
            continue
        if erratum.op is not None and erratum.op.section and erratum.op.section != target.number:
            continue
        index.pages.setdefault(target.document, {}).setdefault(page, []).append(target)
    for document, pages in index.pages.items():
        placed = [(page, entry.page) for page, found in pages.items() for entry in found if entry.page is not None]
        if placed and all(page == pdf_page for page, pdf_page in placed):
            index.same_numbers.add(document)
        for page, found in pages.items():
            for entry in found:
                entry.page = entry.page or page
        spread_pages(index, pages)


def contents_line(index: Index, document: str, block: Block) -> tuple[int, Entry] | None:
    """The page a line of a contents list gives and the one entry of `document` it names, or None.
    "Combat ........ 7" names the top-level entry so titled. A title opening on a number
    ("2.1 Ordres ........ 7", "Chapitre 3 – Combat      7", "3. Combat   7" read as a step) names
    the entry with that number and those words (the heading printed both), or, where the body lost
    the number, the top-level entry titled so with none; the last number on the line is the page
    ("Règle 3 ........ 7": page 7)."""
    if block.type not in ("paragraph", "bullet", "step"):
        return None
    text = f"{block.number}. {block.text}" if block.type == "step" and block.number else block.text
    match = contents_match(text)
    if not match:
        return None
    title = match.group("title")
    found = [e for e in index.lookup.titled(title, document) if e.parent is None]
    number, words = title_number(title) if not found else (None, title)
    if number is not None:
        key = title_key(words)
        found = [e for e in index.lookup.numbered(number, document) if title_key(e.title) == key]
        if not found and key:
            found = [e for e in index.lookup.titled(words, document) if e.parent is None and e.number is None]
    return (int(match.group("page")), found[0]) if len(found) == 1 else None


def spread_pages(index: Index, pages: dict[int, list[Entry]]) -> None:
    """A top-level section that starts on page N while the next starts on N + 1 fits on its page:
    so do all the entries inside it."""
    # by page only: two sections starting on one page (the contents list says so) keep their order
    starts = sorted(((page, entry) for page, found in pages.items() for entry in found if entry.parent is None),
                    key=lambda start: start[0])
    for (page, entry), (next_page, _) in zip(starts, starts[1:], strict=False):
        if next_page == page + 1:
            for inner in entry.descendants:
                inner.page = inner.page or page


def resolve_glossary_index(entry: Entry, index: Index, out: Outcome) -> None:
    """The Runewars index: "Terme, 56.2, 56.4", "Symbole, 1.1–1.3" (a range), "2.0" (topic 2),
    "Schéma, cf. page 22", and heads without numbers whose sub-terms follow."""
    head = ""
    for block in entry.blocks:
        match = INDEX_LINE.match(block.text)
        if block.type != "paragraph" or not match or len(block.text) > 90:
            continue
        term = match.group("term").strip()
        refs = match.group("refs")
        if not refs:
            head = term
            continue
        for part in re.split(r"(?:(?<!\s)\s++)?,\s*+", refs):
            page = re.match(r"cf\.\s*page\s*(\d+)", part)
            if page:
                found = index.pages.get(entry.document, {}).get(int(page.group(1)), [])
                if len(found) == 1:
                    tag(found[0], term)
                    entry.add_ref(found[0], "index", block.text)
                else:
                    out.unresolved(entry, "index", block.text, f"page {page.group(1)} is not in the page map")
                continue
            for number in expand(part):
                target = index.numbered(entry.document, number)
                if target is None:
                    out.unresolved(entry, "index", block.text, f"no rule numbered {number}")
                    continue
                tag(target, term)
                entry.add_ref(target, "index", f"{head} › {block.text}" if head else block.text)


INDEX_LINES = 3  # an entry of this many "Terme, 3, 9" lines at least (and little else) is an index of pages


def resolve_page_index(entry: Entry, index: Index, out: Outcome) -> bool:
    """A book's index of pages ("Désordre, 3, 6, 8", "Ordres (points d'), 5"), when `entry` is one:
    each page gives the entries there that name the term (the narrowest), else the sections the
    page holds; each is an index ref, and the term tags it."""
    paragraphs = [b for b in entry.blocks if b.type in ("paragraph", "bullet")]
    lines = [b for b in paragraphs if INDEX_PAGES_LINE.match(b.text)]
    if len(lines) < INDEX_LINES or len(lines) < 0.8 * len(paragraphs):
        return False
    for block in lines:
        term, _, numbers = block.text.partition(",")
        term = term.strip()
        for part in re.split(r"(?:(?<!\s)\s++)?,\s*+", numbers.strip().rstrip(".")):
            bounds = [int(n) for n in re.split(r"(?:(?<!\s)\s++)?[-–]\s*+", part)]
            for page in range(bounds[0], bounds[-1] + 1):
                found = page_holding(index, entry, page, term)
                if not found:
                    out.unresolved(entry, "index", block.text, f"page {page} is in no page map of {entry.document}")
                for target in found:
                    tag(target, term)
                    entry.add_ref(target, "index", block.text)
    return True


def page_holding(index: Index, entry: Entry, page: int, term: str) -> list[Entry]:
    """The entries of `entry`'s book on its page `page` that name `term` (the narrowest: a rule
    rather than its section), else the outermost entries starting there."""
    document = entry.document
    pages = index.pages.get(document)
    starts = [e for e in (pages or {}).get(page, []) if e is not entry]
    held = [inner for e in starts for inner in (e, *e.descendants)]
    if document in index.source_pages and (not pages or document in index.same_numbers):
        on_page = [e for e in index.source_pages[document] if e.page == page and e is not entry]
        starts = starts or [e for e in on_page if not any(a in on_page for a in e.ancestors)]
        held += [e for e in on_page if e not in held]
    word = fold(re.sub(r"(?:(?<!\s)\s++)?\(.*$", "", term))
    starts_word = re.compile(rf"\b{re.escape(word)}") if word else None  # "Tir" names "tirer", not "retirée"
    naming = [e for e in held if starts_word and starts_word.search(fold(e.text))]
    narrowest = [e for e in naming if not any(d in naming for d in e.descendants)]
    return narrowest or starts


def expand(part: str) -> list[str]:
    """"2.0" is topic 2; "1.1–1.3" is 1.1, 1.2 and 1.3."""
    bounds = re.split(r"(?:(?<!\s)\s++)?[–-]\s*+", part.strip())
    topic, _, first = bounds[0].partition(".")
    if len(bounds) == 2:
        _, _, last = bounds[1].partition(".")
        return [f"{topic}.{n}" for n in range(int(first), int(last) + 1)]
    return [topic] if first == "0" else [bounds[0]]


def tag(entry: Entry, term: str) -> None:
    if term not in entry.index_terms:
        entry.index_terms.append(term)


def resolve_explicit(lookup: Lookup, errata: list[Erratum]) -> Reported:
    index = Index(lookup)
    build_page_maps(index, errata)
    faq_docs = lookup.game.faq_documents
    # An erratum's words, and the bold line standing as its heading, cite pages of the book it corrects.
    instructions = {erratum.instruction for erratum in errata} | {erratum.target_hint["heading"] for erratum in errata
                                                                  if erratum.target_hint.get("heading")}
    out = Outcome()
    for position, entry in enumerate(lookup.entries):
        if entry.printed_index:
            resolve_glossary_index(entry, index, out)
            continue
        if resolve_page_index(entry, index, out):
            continue
        for block in entry.blocks:
            if block.type == "related":
                resolve_related(entry, block, index, out)
            elif block.type == "see":
                resolve_see(entry, block, index, out)
        resolve_prose(entry, position, index, out, faq_docs, instructions)
        for block in entry.blocks:
            if block.type in TEXT_TYPES:
                resolve_named(entry, block.text, index, out)
                resolve_inline_related(entry, block.text, index, out)
        resolve_links(entry, index, out)
        resolve_wiki(entry, index, out)
    return out.anomalies
