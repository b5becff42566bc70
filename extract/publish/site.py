"""Stage 9, render, its first half: the rules site's pages. Jinja2 templates (`site/templates/`)
write Markdown into `build/docs/`, which `extract.publish.sitebuild` has MkDocs build into
`build/site/`; the search box ranks from the search model copied beside it.

Rule text is never trusted as Markdown or HTML: it is HTML-escaped into raw HTML blocks (which
Markdown leaves alone), and titles and link texts are escaped for Markdown. Everything
structural (headings with their anchors, links between pages) is Markdown, so MkDocs checks it.
"""

from __future__ import annotations

import difflib
import html
import json
import re
import shutil
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from posixpath import relpath
from typing import Any

from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined

from extract.errors import shortened, writing
from extract.model import STATUS_LABELS, Anomaly, Block, Entry, Erratum, Fact, GameBuild, Reported
from extract.patterns import SEE_LINE
from extract.text import fold, shorten, slugify, value_text
from extract.urls import anchor_of, file_name, page_file, page_of
from extract.versions import ErratumShift, Event, Step, entry_histories, printed_text, word_segments

# The site's sources (templates, theme overrides, mkdocs.yml) belong to the toolkit, not to a
# corpus: a project root holding only corpus/ still gets a site. `files/` links to the top-level
# site/ and mkdocs.yml in a checkout; a wheel carries copies of them there (package data).
TOOL_ROOT = Path(__file__).parent / "files"

STATUS_CLASSES = {"amended": "regles-amended", "added": "regles-added", "deleted": "regles-deleted-badge"}
KIND_LABELS = {
    "reference": "Guide de référence", "learn-to-play": "Livret d'apprentissage", "faq": "FAQ",
    "tournament-rules": "Règles de tournoi", "player-aid": "Aide de jeu", "summary": "Résumé", "rulebook": "Livre de règles",
}
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")


def md(text: str | None) -> str:
    """Text for a Markdown heading or link label: every Markdown character escaped, no HTML."""
    if not text:
        return ""
    text = " ".join(text.split())
    text = MARKDOWN_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;", "&": "&amp;"}.get(m.group(1), "\\" + m.group(1)), text)
    return text


# A link the book makes to a web address, kept in `markdown` by the Markdown reader: a text link
WEB_LINK = re.compile(r"\[([^\[\]]+)\]\(((?:https?|mailto):[^)\s]+)\)")
# A link to an anchor of the same document ("[L’échange](#echange)"): its words alone, which
# `inline_links` makes a link when the link stage resolved the anchor.
ANCHOR_LINK = re.compile(r"\[([^\[\]]+)\]\(#[^)\s]+\)")


def emphasis(block: Block) -> str:
    """A block's text as HTML: escaped, with the source's bold and italics put back."""
    if not block.markdown:
        return html.escape(block.text, quote=False)
    escaped = html.escape(block.markdown, quote=False)
    escaped = ANCHOR_LINK.sub(r"\1", escaped)
    escaped = WEB_LINK.sub(lambda m: f'<a href="{m.group(2).replace(chr(34), "%22")}" rel="noopener noreferrer">{m.group(1)}</a>', escaped)
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
    escaped = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"<em>\1</em>", escaped)
    return escaped.replace("*", "") if escaped.count("*") % 2 else escaped


def blocks_html(blocks: list[Block]) -> str:
    """Rule text as an HTML block, lists nested as printed."""
    out: list[str] = []
    open_lists: list[str] = []

    def close_to(depth: int) -> None:
        while len(open_lists) > depth:
            out.append(f"</{open_lists.pop()}>")

    for block in blocks:
        if block.type in ("related", "see"):
            continue
        if block.type in ("bullet", "subbullet", "step"):
            depth = 1 if block.type in ("bullet", "step") else 2
            depth = max(depth, block.depth) if block.type == "subbullet" else depth
            tag = "ol" if block.type == "step" else "ul"
            close_to(depth)
            while len(open_lists) < depth:
                open_lists.append(tag)
                out.append(f"<{tag}>")
            value = f' value="{html.escape(block.number)}"' if block.type == "step" and block.number and block.number.isdigit() else ""
            out.append(f"<li{value}>{emphasis(block)}</li>")
            continue
        close_to(0)
        if block.type == "table" and block.rows:
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(c, quote=False)}</td>" for c in row) + "</tr>" for row in block.rows)
            out.append(f"<table>{rows}</table>")
        elif block.type == "question":
            out.append(f'<p class="regles-q"><strong>Q :</strong> {emphasis(block)}</p>')
        elif block.type == "answer":
            out.append(f'<p class="regles-a"><strong>R :</strong> {emphasis(block)}</p>')
        elif block.type == "caption":
            out.append(f'<p class="regles-caption">{emphasis(block)}</p>')
        else:
            out.append(f"<p>{emphasis(block)}</p>")
    close_to(0)
    return "\n".join(out)


def icon_badges(body: str, names: Iterable[str], markdown: bool = False) -> str:
    """The game's icon tokens ("[ralliement]", extract.icons) in escaped HTML (or, `markdown`, in
    text `md` escaped) shown as badges that say what they are; brackets that are not a declared
    icon ("Résistant [X]") stay text."""
    known = sorted(set(names), key=len, reverse=True)
    if not known or "[" not in body:
        return body
    escape = md if markdown else (lambda n: html.escape(n, quote=False))
    opening, closing = (r"\\\[", r"\\\]") if markdown else (r"\[", r"\]")
    written = {escape(n): html.escape(n) for n in known}
    pattern = re.compile(opening + "(" + "|".join(re.escape(w) for w in written) + ")" + closing)
    def badge(m: re.Match[str]) -> str:
        return (f'<span class="regles-icon" title="Icône « {written[m.group(1)]} »">'
                f'<span class="regles-visually-hidden">icône </span>{written[m.group(1)]}</span>')

    # text between tags only: a token inside an attribute (a link's title) stays as it is
    return "".join(part if part.startswith("<") else pattern.sub(badge, part) for part in TAG_OR_TEXT.split(body))


TAG_OR_TEXT = re.compile(r"(<[^<>]*+>)")


GLYPH_WORD = re.compile(r"^\([^\w\s()]{0,3}\)(?P<tail>[.,;:!?)»]*)$")


def diff_key(word: str) -> str:
    """A word as the difference compares it: an icon's glyph the conversion chose ("(♣)", "(🏹)",
    "()") is the same word whatever the glyph (extract.icons names the ones it can)."""
    found = GLYPH_WORD.match(word)
    return "(…)" + found["tail"] if found else word


def word_diff(before: str, after: str) -> str:
    """Printed text against current text, word by word: <del> what went, <ins> what came. A
    difference of glyph alone is none (the current word is shown)."""
    old, new = before.split(), after.split()
    parts: list[str] = []
    matcher = difflib.SequenceMatcher(None, [diff_key(w) for w in old], [diff_key(w) for w in new], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            parts.append(html.escape(" ".join(new[j1:j2])))
            continue
        if i2 > i1:
            parts.append(f"<del>{html.escape(' '.join(old[i1:i2]))}</del>")
        if j2 > j1:
            parts.append(f"<ins>{html.escape(' '.join(new[j1:j2]))}</ins>")
    return " ".join(parts)


# ---------------------------------------------------------------- pages


@dataclass
class Site:
    """What the templates see: the games, their entries, and how to link between pages."""

    games: list[GameBuild]
    by_id: dict[str, Entry] = field(default_factory=dict)
    errata_by_id: dict[str, Erratum] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_id = {key: e for g in self.games for key, e in g.lookup.by_id.items()}
        self.facts: dict[str, list[Fact]] = {}
        for game in self.games:
            for fact in game.facts:
                self.facts.setdefault(fact.entry, []).append(fact)
        self.errata_by_id = {e.id: e for g in self.games for e in g.errata}
        self.documents = {(g.game.id, d.id): d for g in self.games for d in g.game.documents}
        self.game_titles = {g.game.id: g.game.title for g in self.games}
        self.short_labels = {g.game.id: g.game.short_label for g in self.games}
        self.histories: dict[str, list[Event]] = {}  # what each version did to an entry (extract.versions)
        self.news_pages: dict[int, str] = {}  # id() of a version step -> the file of its "Nouveautés" page
        self.versions_of: dict[str, list[dict[str, str]]] = {}  # "game/document" -> its versions, oldest first
        self.icons = {g.game.id: list(g.icons) for g in self.games}

    def cite(self, entry: Entry) -> str:
        """What a citation of the entry says before its URL and text: rule, book, game, version, date."""
        doc = self.documents.get((entry.game, entry.document))
        parts = [self.label(entry)]
        if doc is not None:
            parts.append(edition(doc) + "".join(f", {STATUS_VERBS.get(entry.status, 'modifié')} par {by}"
                                                for by in self.amended_by(entry)))
        parts.append(short_title(self.game_titles.get(entry.game, entry.game)))
        return " — ".join(parts)

    def amended_by(self, entry: Entry) -> list[str]:
        """The documents whose errata made the entry's current text (title, version, date), once
        each, in the order of its errata: the wording in force is theirs, not the book's."""
        found: list[str] = []
        for name in entry.errata:
            erratum = self.errata_by_id.get(name)
            source = self.by_id.get(erratum.source) if erratum is not None and erratum.status == "applied" else None
            doc = self.documents.get((source.game, source.document)) if source is not None else None
            if doc is not None and edition(doc) not in found:
                found.append(edition(doc))
        return found

    def where(self, entry: Entry, seen_from: Entry) -> str:
        """Where `entry` stands, said from `seen_from`'s page: its game's short name when another
        game's, its book's title when another book of the same game, else nothing."""
        if entry.game != seen_from.game:
            return self.short_labels.get(entry.game, entry.game)
        if entry.document != seen_from.document:
            doc = self.documents.get((entry.game, entry.document))
            return doc.title if doc is not None else entry.document
        return ""

    def link(self, entry: Entry | str, here: str) -> str:
        """Relative Markdown link from the page file `here` to an entry's page and anchor."""
        target = self.by_id[entry] if isinstance(entry, str) else entry
        path = relative_path(page_file(target), posix_dirname(here))
        page = page_of(target)
        return path if target is page and not target.number else f"{path}#{anchor_of(target)}"

    def label(self, entry: Entry | str) -> str:
        target = self.by_id[entry] if isinstance(entry, str) else entry
        if target.kind == "question":
            return shorten(target.question or target.key)
        return " ".join(x for x in (target.number, target.title) if x) or target.key.rsplit("/", 1)[-1]


STATUS_VERBS = {"amended": "modifié", "added": "ajouté", "deleted": "supprimé"}  # what an erratum did to the entry


def edition(doc: Any) -> str:
    """A document as a citation names it: "FAQ de Tournoi, version 1.1.0 (2017-05-02)"."""
    return doc.title + (f", version {doc.version}" if doc.version else "") + (f" ({doc.date})" if doc.date else "")


@lru_cache(maxsize=65536)
def relative_path(path: str, start: str) -> str:
    """`posixpath.relpath`, remembered: the site's pages link to the same few pages from the same
    few folders thousands of times (relpath normalises both paths on every call)."""
    return relpath(path, start)


def posix_dirname(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def shown_on_page(entry: Entry) -> Iterable[tuple[Entry, int]]:
    """Entries shown on `entry`'s page, depth-first, stopping at entries that have their own page."""
    for child in entry.children:
        if child.is_page:
            continue
        yield child, 1
        for inner, depth in shown_on_page(child):
            yield inner, depth + 1


# Ids every page already holds beside its entries' anchors: the theme's own ("__drawer",
# "__search", "__palette_0") and the site's ("regles-search"), "sujets" for its list of subpages.
FRAME_IDS = re.compile(r"__|regles-")
SUBPAGES_ID = "sujets"


@dataclass
class PageAliases:
    """The ids a page shows for its entries' source ids ("## Le marché {#marche}"), by entry id, and
    those it cannot show: (entry, id, what holds it already)."""

    shown: dict[str, list[str]]
    clashes: list[tuple[Entry, str, str]]


def page_aliases(page: Entry) -> PageAliases:
    """A book's own heading ids as extra anchors on its page, so that a link copied from the book
    (or an old bookmark, `…/page/#marche`) lands on the entry: an id that is the entry's anchor
    already is there; one that another anchor of the page holds (another entry's, the site's own,
    or the same id given to two headings of the page) is not shown, a clash, since an HTML id is
    unique. Made from the page's entries alone, which its key holds (`page_key`)."""
    entries = [page, *(e for e, _ in shown_on_page(page))]
    claims: dict[str, list[Entry]] = {}
    for entry in entries:
        for name in entry.anchors:
            if name != anchor_of(entry) and entry not in claims.setdefault(name, []):
                claims[name].append(entry)
    if not claims:
        return PageAliases({}, [])
    held = {anchor_of(e): f"the anchor of {e.id}" for e in entries}
    if any(c.is_page for c in page.children):
        held.setdefault(SUBPAGES_ID, "the list of subpages")
    indexes = [anchor_of(e) for e in entries if any(r.kind == "index" for r in e.refs)]
    shown: dict[str, list[str]] = {}
    clashes: list[tuple[Entry, str, str]] = []
    for name, owners in claims.items():
        letter = next((a for a in indexes if name.startswith(a + "-") and (len(name) == len(a) + 2 or name == a + "-autres")), None)
        holder = (held.get(name) or ("an id of the site's frame" if FRAME_IDS.match(name) else None)
                  or (f"a letter of the index {letter}" if letter is not None else None)
                  or (f"the heading of {', '.join(o.id for o in owners)}" if len(owners) > 1 else None))
        for owner in owners:
            if holder is None:
                shown.setdefault(owner.id, []).append(name)
            else:
                clashes.append((owner, name, holder))
    return PageAliases(shown, clashes)


def alias_clashes(entries: Iterable[Entry]) -> Reported:
    """An `anchor-clash` anomaly for each source heading id a site page cannot show (`page_aliases`),
    under the entry's document."""
    found: Reported = []
    for page in entries:
        if not (page.is_page or page.parent is None):
            continue
        for entry, name, holder in page_aliases(page).clashes:
            found.append((f"{entry.game}/{entry.document}", Anomaly(
                "anchor-clash", f"the heading id #{name} of {entry.id} is not on its site page "
                f"{page_file(entry)}: {holder} is #{name} there (the entry keeps #{anchor_of(entry)})",
                entry.heading_lines[:1], "warning", {"anchor": name})))
    return found


@dataclass
class RenderedEntry:
    entry: Entry
    level: int
    heading: str  # Markdown-escaped
    anchor: str
    badge: str  # HTML
    body: str  # HTML block
    printed: str  # HTML block (diff), or ""
    related: list[tuple[str, str]]  # (label, link)
    see: list[tuple[str, str]]
    faq: list[dict[str, str]]
    elsewhere: list[tuple[str, str]]
    mentions: list[tuple[str, str]]
    cited_by: list[tuple[str, str]]
    index_links: list[dict[str, Any]]
    facts: list[dict[str, str]]
    cite: str = ""  # plain text: rule, book, version, date (escaped in the template)
    toc: str = ""  # plain text: its line in the page's tables of contents (`toc_label`)
    toc_words: bool = False  # the line holds the rule's first words (the heading shows its number alone)
    history: list[dict[str, str]] = field(default_factory=list)  # {"version", "what", "diff" (HTML), "link"}, newest first
    appears: str = ""  # the versions it appears in, when it has a history
    figure: str = ""  # plain text: the note saying the book shows a drawing here that the site lacks (`figure_note`)
    aliases: list[str] = field(default_factory=list)  # the source's ids for its heading (`page_aliases`)


def fact_value(fact: Fact) -> str:
    return value_text(fact.value, fact.unit)


def mark_facts(body: str, facts: list[Fact]) -> str:
    """The words that state each fact highlighted in the rule's text (when they stand in one block)."""
    for fact in facts:
        quoted = html.escape(" ".join(fact.quote.split()), quote=False)
        if fact.status == "holds" and quoted in body:
            body = body.replace(quoted, f'<mark class="regles-fact" title="{html.escape(fact.id)}">{quoted}</mark>', 1)
    return body


INLINE_REF_KINDS = ("section", "page", "see", "faq")  # refs written in the text: "(5.10)", "page 13", "Voir « X »"
TAG = re.compile(r"(<[^<>]*+>)")


@dataclass
class InlineRef:
    text: str  # as written, plain text
    href: str  # relative URL (raw HTML: not rewritten by MkDocs)
    title: str  # plain text: what the link leads to
    deleted: bool = False


def inline_links(body: str, refs: list[InlineRef]) -> str:
    """The first occurrence of each ref's text in the (escaped) HTML `body` made a link to its
    target: only in text, never inside a tag or an existing link, and only as whole words
    ("5.10" does not link "5.101")."""
    done: set[str] = set()
    for ref in refs:
        text = html.escape(" ".join(ref.text.split()), quote=False)
        if not text or text in done:
            continue
        pattern = re.compile(r"(?<![\w.])" + re.escape(text) + r"(?!\w|\.\d)")
        css = "regles-ref regles-ref-deleted" if ref.deleted else "regles-ref"
        title = ref.title + (" (supprimée par un erratum)" if ref.deleted else "")
        link = f'<a class="{css}" href="{html.escape(ref.href)}" title="{html.escape(title)}">'
        parts, in_link, found = TAG.split(body), 0, False
        for i, part in enumerate(parts):
            if part.startswith("<"):
                in_link += 1 if re.match(r"<a[\s>]", part) else -1 if part.startswith("</a") else 0
                continue
            if in_link or found:
                continue
            parts[i], n = pattern.subn(lambda m, link=link: f"{link}{m.group(0)}</a>", part, count=1)
            found = n > 0
        if found:
            done.add(text)
            body = "".join(parts)
    return body


def html_href(target: Entry, here: str) -> str:
    """A relative URL from the page file `here` to an entry, as the built site serves it
    (`use_directory_urls`: `a/b/index.md` is served at `a/b/`, `a/errata.md` at `a/errata/`)."""
    def served(path: str) -> str:
        return path.removesuffix("/index.md") if path.endswith("/index.md") else path.removesuffix(".md")

    here_dir = served(here) if here != "index.md" else "."
    path = relpath(served(page_file(target)), here_dir)
    return ("" if path == "." else path + "/") + "#" + anchor_of(target)


INDEX_LINE = re.compile(r"^(?=.{0,300}$)(?P<label>.*?)(?<![\s,:])[\s,:]++(?P<numbers>\d[\d.]*+(?:\s*+[,;–-]\s*+\d[\d.]*+)*+)\.?$")


def fold_letter(text: str) -> str:
    import unicodedata

    first = unicodedata.normalize("NFKD", text.strip()[:1]).encode("ascii", "ignore").decode().upper()
    return first if first.isalpha() else "#"


def printed_index(entry: Entry, here: str, site: Site) -> tuple[list[dict[str, Any]], set[str]]:
    """A printed index's lines in printed order, grouped by letter, each with links to its targets
    (the refs of kind `index`, one per number printed; a line without them keeps its printed
    numbers), and the lines it shows (not shown again as text)."""
    targets: dict[str, list[str]] = {}
    for ref in entry.refs:
        if ref.kind == "index" and ref.target in site.by_id:
            text = " ".join(ref.text.split())
            for key in {text, text.split(" › ")[-1]}:
                if ref.target not in targets.setdefault(key, []):
                    targets[key].append(ref.target)
    letters: dict[str, list[dict[str, Any]]] = {}
    shown: set[str] = set()
    letter = ""
    for block in entry.blocks:
        line = " ".join(block.text.split())
        if len(line) == 1 and line.isalpha():  # a printed letter heading
            letter = fold_letter(line)
            shown.add(line)
            continue
        found = INDEX_LINE.match(line)
        if line not in targets and not found and not (letters and len(line) < 60):
            continue  # a paragraph about the index (before its lines): stays in the text
        shown.add(line)
        label = found["label"] if found else line
        links = [{"label": md(site.by_id[t].number or site.label(t)), "link": site.link(t, here),
                  "deleted": site.by_id[t].status == "deleted"} for t in targets.get(line, [])]
        letters.setdefault(letter or fold_letter(label), []).append(
            {"label": md(label) if links or found else f"**{md(label)}**", "links": links,
             "printed": "" if links or not found else md(found["numbers"])})
    groups = [{"letter": key, "anchor": f"{anchor_of(entry)}-{key.lower() if key != '#' else 'autres'}", "lines": items}
              for key, items in sorted(letters.items(), key=lambda kv: (kv[0] == "#", kv[0]))]
    return groups, shown


def natural_key(entry: Entry, site: Site) -> tuple[Any, ...]:
    """Numbered rules first, by number as numbers (8 < 8.3 < 67.3 < 67.10), then the others by
    game, document and label."""
    parts = re.findall(r"\d+", entry.number or "")
    label = site.label(entry).casefold()
    if parts:
        return (0, entry.game, entry.document, tuple(int(p) for p in parts), label)
    return (1, entry.game, entry.document, (), label)


ELSEWHERE_PER_GAME = 8  # rules of another game linking to a rule by its subject, shown on its page


def render_entry(entry: Entry, level: int, here: str, site: Site, aliases: list[str] | None = None) -> RenderedEntry:
    def links(targets: Iterable[str | None], ordered: bool = False, games: bool = False) -> list[tuple[str, str]]:
        """Links to the targets, once each; `games`: each label followed by where it stands, its
        game's name when it is another game's ("Charge (Autre)"), its book's when another book of
        this game."""
        seen, kept = set(), []
        for target in targets:
            if target and target in site.by_id and target not in seen and target != entry.id:
                seen.add(target)
                kept.append(site.by_id[target])
        if ordered:
            kept.sort(key=lambda e: natural_key(e, site))
        return [(md(site.label(e) + (f" ({site.where(e, entry)})" if games and site.where(e, entry) else "")),
                 site.link(e, here)) for e in kept]

    def printed_names(kind: str) -> list[tuple[str, str]]:
        """The names a "Voir aussi" / "Voir" line prints, in order: linked where the link stage
        found the entry, plain text ("" for link) where it did not, so no printed name is lost."""
        seen, kept = set(), []
        for ref in entry.refs:
            if ref.kind != kind:
                continue
            target = site.by_id.get(ref.target) if ref.target else None
            if target is entry:
                continue
            if target is not None:
                item, key = (md(site.label(target)), site.link(target, here)), target.id
            else:
                see = SEE_LINE.match(ref.text) if kind == "see" else None
                name = (see.group("title") or see.group("plain")) if see else ref.text
                item, key = (md(name), ""), fold(name)
            if key not in seen:
                seen.add(key)
                kept.append(item)
        return kept

    badge = ""
    if entry.status in STATUS_LABELS:
        sources = [site.errata_by_id[e] for e in entry.errata if e in site.errata_by_id]
        origin = ", ".join(f"[{md(site.label(s.source))}]({site.link(s.source, here)})" for s in sources if s.source in site.by_id)
        badge = (f'<span class="regles-badge {STATUS_CLASSES[entry.status]}">{STATUS_LABELS[entry.status]}</span>'
                 + (f" par l'erratum {origin}" if origin else ""))
    if "columns-interleaved" in entry.flags:  # the scan's two columns read line by line: said, not hidden
        badge += (' <span class="regles-badge regles-garbled-badge" title="Le texte numérisé mêle deux colonnes lues '
                  'ligne à ligne : vérifiez sur le livre">Passage mal numérisé</span>')
        badge = badge.strip()
    body = blocks_html(entry.blocks)
    if entry.kind == "sidebar":  # a box printed beside the rules: shown as one, apart from them
        badge = '<span class="regles-badge regles-box-badge">Encadré</span>' + (f" {badge}" if badge else "")
        body = f'<div class="regles-box">\n{body}\n</div>'
    if entry.status == "deleted":
        body = f'<div class="regles-deleted">\n{body}\n</div>'
    printed = ""
    if entry.status == "amended" and entry.original_blocks is not None:
        before = "\n".join(b.text for b in entry.original_blocks if b.type not in ("related", "see"))
        after = "\n".join(b.text for b in entry.blocks if b.type not in ("related", "see"))
        printed = (f'<details class="regles-printed"><summary>Texte imprimé, et ce qui a changé</summary>\n'
                   f'<div class="regles-printed-text">{blocks_html(entry.original_blocks)}</div>\n'
                   f'<p class="regles-diff">{word_diff(before, after)}</p>\n</details>')
    faq = []
    for source in entry.backrefs:
        asker = site.by_id.get(source)
        if asker is not None and asker.kind == "question":
            answer = " ".join(b.text for b in asker.blocks if b.type == "answer")
            faq.append({"question": md(site.label(asker)), "answer": icon_badges(md(shorten(answer, 240)), site.icons.get(entry.game, []),
                                                                                   markdown=True),
                        "link": site.link(asker, here)})
    by_kind: dict[str, list[str | None]] = {}
    for ref in entry.refs:
        by_kind.setdefault(ref.kind, []).append(ref.target)
    index_links: list[dict[str, Any]] = []
    if by_kind.get("index"):  # the book's printed index: once, by letter, each line a link to its rules
        index_links, printed_lines = printed_index(entry, here, site)
        body = blocks_html([b for b in entry.blocks if " ".join(b.text.split()) not in printed_lines])
    shown_faq = {f["link"] for f in faq}
    # Cited by: the rules whose text points here. A printed index is its own list; a question is
    # shown with its answer; a rule on the same subject elsewhere (a concept link) is no citation:
    # it is under "Ailleurs" (links across games go one way), the first `ELSEWHERE_PER_GAME` of
    # each other game: every book of a game repeating the subject would otherwise grow the page.
    cited: list[str] = []
    linking_games: dict[str, list[Entry]] = {}
    for source in entry.backrefs:
        citing = site.by_id.get(source)
        if citing is None or citing.kind == "question" or any(r.kind == "index" for r in citing.refs):
            continue
        kinds = {r.kind for r in citing.refs if r.target == entry.id}
        if kinds - {"concept"}:
            cited.append(source)
        elif citing.game != entry.game:
            linking_games.setdefault(citing.game, []).append(citing)
    elsewhere = by_kind.get("concept", []) + [
        e.id for _, found in sorted(linking_games.items())
        for e in sorted(found, key=lambda e: natural_key(e, site))[:ELSEWHERE_PER_GAME]]
    facts = site.facts.get(entry.id, [])
    inline = [InlineRef(ref.text, html_href(site.by_id[ref.target], here), site.label(ref.target),
                        site.by_id[ref.target].status == "deleted")
              for ref in entry.refs if ref.kind in INLINE_REF_KINDS and ref.target in site.by_id and ref.target != entry.id]
    icons = site.icons.get(entry.game, [])
    return RenderedEntry(
        entry=entry, level=min(level, 6), heading=md(entry.question or site.label(entry)), anchor=anchor_of(entry), badge=badge,
        body=icon_badges(inline_links(mark_facts(body, facts), inline), icons), printed=icon_badges(printed, icons),
        related=printed_names("related"), see=printed_names("see"), faq=faq,
        elsewhere=links(elsewhere, ordered=True, games=True),
        mentions=links(by_kind.get("term", []) + by_kind.get("section", []) + by_kind.get("page", []) + by_kind.get("faq", []),
                       ordered=True),
        cited_by=[x for x in links(cited, ordered=True) if x[1] not in shown_faq],
        index_links=index_links,
        facts=[{"label": md(f.label), "value": md(fact_value(f)), "id": f.id, "stale": f.status == "stale"} for f in facts],
        cite=site.cite(entry), aliases=aliases or [], toc=toc_label(entry, site),
        toc_words=bool(entry.number and not entry.title and entry.kind != "question" and entry.text),
        history=[history_row(event, site, here) for event in site.histories.get(entry.id, [])],
        appears=appears_in(site.histories.get(entry.id, []), site.versions_of.get(f"{entry.game}/{entry.document}", [])),
        figure=figure_note(entry, site),
    )


# Words by which a rule's text refers to a drawing of the book, which the corpus (text) lacks, and
# how the note names it. Declared here, matched whole (linear: one alternation between boundaries).
FIGURE_WORDS = {"schéma": "un schéma", "schema": "un schéma", "diagramme": "un diagramme", "illustration": "une illustration",
                "croquis": "un croquis", "exemple illustré": "un exemple illustré"}
FIGURE_CUE = re.compile(r"\b(" + "|".join(sorted(FIGURE_WORDS, key=len, reverse=True)) + r")(?:s)?\b", re.IGNORECASE)


def figure_note(entry: Entry, site: Site) -> str:
    """A note where the rule's text refers to a drawing of the book ("comme le montre le schéma"):
    what it is and where the book prints it (its page, when the reading knows it), since the site
    shows the text alone. A printed index's lines ("Schéma de mise en place, 3") are not such a reference."""
    if any(r.kind == "index" for r in entry.refs):
        return ""
    found = FIGURE_CUE.search(entry.text or "")
    if found is None:
        return ""
    doc = site.documents.get((entry.game, entry.document))
    book = with_article(doc.title)[0] if doc is not None else ""
    if book and entry.page:  # "page 12 du Livret", "page 3 de la FAQ", "page 5 des Règles"
        book = f"page {entry.page} " + re.sub(r"^(le |les |la |l')", lambda m: {"le ": "du ", "les ": "des "}.get(
            m.group(1), "de " + m.group(1)), book)
    elif book:
        book = f"dans {book}"
    return (f"Le texte renvoie à {FIGURE_WORDS[found.group(1).casefold()]} du livre, que ce site ne reproduit pas"
            + (f" ({book})" if book else "") + ".")


HISTORY_WORDS = {"added": "ajoutée", "changed": "modifiée", "moved": "déplacée ou renumérotée"}


def version_name(names: dict[str, str]) -> str:
    return f"version {names['version']}" + (f" ({names['date']})" if names.get("date") else "")


def segments_html(segments: list[list[str]]) -> str:
    """A word-level difference (extract.versions.word_segments) as HTML: <del> gone, <ins> come."""
    tags = {"-": "del", "+": "ins"}
    return " ".join(f"<{tags[op]}>{html.escape(text)}</{tags[op]}>" if op in tags else html.escape(text)
                    for op, text in segments)


def history_row(event: Event, site: Site, here: str) -> dict[str, str]:
    """One line of a rule's history: the version, the one before it, what it did to the rule (and
    its words), and the link to that version's "Nouveautés" page."""
    what = HISTORY_WORDS[event.what] + (f" (était {event.was})" if event.was else "")
    page = site.news_pages.get(id(event.step))
    return {"version": version_name(event.step.after).capitalize(), "since": version_name(event.step.before), "what": what,
            "diff": segments_html(event.words) if event.words else "",
            "link": relative_path(page, posix_dirname(here)) if page else ""}


def appears_in(events: list[Event], versions: list[dict[str, str]]) -> str:
    """The versions a rule with a history appears in, from the one that added it (else the oldest)
    to the current one: "1 (2019), 2 (2020-03-15), 3 (2021-06-01)"; empty without a history."""
    if not events or not versions:
        return ""
    added = next((e.step.after["version"] for e in events if e.what == "added"), None)
    names = [v["version"] for v in versions]
    first = names.index(added) if added in names else 0
    return ", ".join(v["version"] + (f" ({v['date']})" if v.get("date") else "") for v in versions[first:])


NEWS_FOLDER = "_nouveautes"  # where a document's version pages stand: no entry's page has this name (keys are slugs and numbers)


def news_files(game_id: str, doc_id: str, steps: list[Step]) -> list[str]:
    """The file of each version's "Nouveautés" page, in step order: `_nouveautes/version-<version>/`
    under the document's folder (the step's number added when two versions make one slug)."""
    seen: set[str] = set()
    files = []
    for n, step in enumerate(steps, 1):
        slug = "version-" + (slugify(step.after["version"]) if step.after.get("version") else str(n))
        if slug in seen:
            slug += f"-{n}"
        seen.add(slug)
        files.append(f"{game_id}/{doc_id}/{NEWS_FOLDER}/{file_name(slug)}/index.md")
    return files


def news_page(step: Step, site: Site, here: str) -> dict[str, Any]:
    """A version's "Nouveautés": what it added, removed, moved and changed (word by word), each entry
    linked where the current version still has it, and the errata it newly takes or no longer takes."""
    def item(entry: dict[str, Any]) -> tuple[str, str]:
        """An entry's label (a question's words) and link, where the current version has it."""
        if entry["id"] in site.by_id:
            return md(site.label(entry["id"])), site.link(entry["id"], here)
        return md(" ".join(x for x in (entry.get("number"), entry.get("title")) if x) or entry["id"].rsplit("/", 1)[-1]), ""

    found = step.diff
    return {
        "title": f"{version_name(step.after).capitalize()}, depuis la {version_name(step.before)}",
        "counts": found.counts(),
        "added": [item(e) for e in found.added], "removed": [item(e) for e in found.removed],
        "moved": [(md(str(p.old.get("number") or p.old.get("title") or "")), *item(p.new)) for p in found.moved],
        "changed": [(*item(p.new), segments_html(word_segments(printed_text(p.old), printed_text(p.new))))
                    for p in found.changed],
        "errata_applied": [erratum_shift_row(s, True, site, here) for s in step.errata.applied] if step.errata else [],
        "errata_unapplied": [erratum_shift_row(s, False, site, here) for s in step.errata.unapplied] if step.errata else [],
    }


def erratum_shift_row(shift: ErratumShift, newly: bool, site: Site, here: str) -> dict[str, str]:
    """An erratum a version newly takes (`newly`) or no longer takes: its instruction, the rule it
    changes (linked where the current version has it), its line on the errata page (where the
    current build has it), and why the version that does not take it does not."""
    said, other = (shift.new, shift.old) if newly else (shift.old, shift.new)
    said = said or {}
    target = said.get("target")
    if other is None:
        why = "absent de la version précédente" if newly else "absent de cette version"
    elif other["status"] == "applied":
        why = "la version précédente le disait déjà" if newly else "cette version le dit déjà"
    else:
        why = ("ne s'appliquait pas à la version précédente" if newly else "ne s'applique plus à cette version") + (
            f" : {other['reason']}" if other.get("reason") else "")
    erratum = said.get("id") or ""
    errata_page = relative_path(f"{erratum.split('/', 1)[0]}/errata.md", posix_dirname(here))
    return {
        "instruction": md(said.get("instruction") or said.get("operation") or ""),
        "target": md(site.label(target) if target in site.by_id else target or "?"),
        "target_link": site.link(target, here) if target in site.by_id else "",
        "erratum_link": f"{errata_page}#{erratum_anchor(erratum)}" if erratum in site.errata_by_id else "",
        "why": md(why),
    }


TOC_WORDS = 48  # characters of a rule's text that stand for it in a table of contents, when it has no title
TOC_UNSAFE = re.compile(r'["{}\\<>&]')  # what an attribute of attr_list must not hold (the label is written unescaped)


def toc_label(entry: Entry, site: Site) -> str:
    """An entry's line in the page's tables of contents: its label ("41 Engagement"), and for a
    rule numbered without a title, its number and its first words ("41.1 Une unité engagée …"),
    not the bare number."""
    label = site.label(entry)
    if entry.number and not entry.title and entry.kind != "question" and entry.text:
        label = f"{entry.number} {shorten(entry.text, TOC_WORDS).removesuffix(' …')} …"
    return TOC_UNSAFE.sub("", " ".join(label.split()))


def front_title(text: str | None) -> str:
    """A page title for YAML front matter. MkDocs themes print `page.title` into <title> and the
    navigation without escaping it, so it is HTML-escaped here, once."""

    return json.dumps(html.escape(" ".join((text or "").split())), ensure_ascii=False)


def environment(root: Path, compiled: BytecodeCache | None = None) -> Environment:
    """The environment of the site's own templates; `compiled`: Jinja2's cache of compiled
    templates kept between builds (`FileSystemBytecodeCache`), or None."""
    env = Environment(loader=FileSystemLoader(str(root / "site" / "templates")), undefined=StrictUndefined,
                      autoescape=False, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=compiled)
    env.filters["md"] = md
    env.filters["e"] = html.escape
    env.filters["front_title"] = front_title
    env.filters["erratum_anchor"] = erratum_anchor
    return env


def render_docs(root: Path, docs: Path, games: list[GameBuild], compiled: BytecodeCache | None = None,
                steps: dict[str, list[Step]] | None = None) -> list[str]:
    """Write build/docs: the Markdown of every page. Returns the page files, relative to `docs`.
    `steps`: what changed from each version of a document to the next, by "game/document"."""
    site = Site(games)
    steps = steps or {}
    news: dict[str, list[tuple[str, Step]]] = {}  # "game/document" -> its version pages (file, step), oldest first
    for name, document_steps in steps.items():
        game_id, doc_id = name.split("/", 1)
        site.histories.update(entry_histories(document_steps, (e.id for e in site.by_id.values()
                                                                if e.game == game_id and e.document == doc_id)))
        news[name] = list(zip(news_files(game_id, doc_id, document_steps), document_steps, strict=True))
        site.news_pages.update((id(step), file) for file, step in news[name])
        site.versions_of[name] = [document_steps[0].before] + [step.after for step in document_steps]
    env = environment(root, compiled)
    written: list[str] = []

    def write(path: str, template: str, page: Entry | None = None, **context: Any) -> None:
        text = env.get_template(template).render(site=site, here=path, page=page, **context)
        what = f"the page {shortened(path)}" + (f" of entry {shortened(page.id)}" if page is not None else "")
        with writing(what, page.source_file if page is not None else None, page.lines[0] if page is not None and page.lines else None):
            target = docs / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
        written.append(path)

    # File by file, not shutil.copytree: copytree gathers its failures into one shutil.Error
    # without their errno, so a disk filling here was no "disk is full" line.
    assets = root / "site" / "assets"
    for source in sorted(assets.rglob("*")):
        target = docs / "assets" / source.relative_to(assets)
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    write("index.md", "home.md.j2", games=games, latest=latest_errata(games),
          documents={game.game.id: document_rows(game) for game in games})
    for game in games:
        write(f"{game.game.id}/index.md", "game.md.j2", game=game, documents=document_rows(game),
              facts=[{"fact": f, "value": fact_value(f)} for f in game.facts],
              counts=errata_counts(game.errata), precedence=precedence_rows(game),
              indexes=[e for e in game.entries if any(r.kind == "index" for r in e.refs)])
        write(f"{game.game.id}/errata.md", "errata.md.j2", game=game, errata=[errata_row(e, site, f"{game.game.id}/errata.md")
                                                                           for e in game.errata])
        by_document: dict[str, list[Entry]] = {}  # one pass over the game, not one per book
        for e in game.entries:
            if e.is_page or e.parent is None:
                by_document.setdefault(e.document, []).append(e)
        for doc in game.game.documents:
            pages = by_document.get(doc.id, [])
            home = f"{game.game.id}/{doc.id}/index.md"
            versions = news.get(f"{game.game.id}/{doc.id}", [])
            write(home, "document.md.j2", game=game, doc=doc, pages=pages, kind=KIND_LABELS.get(doc.kind, doc.kind),
                  news=[{"title": f"{version_name(step.after).capitalize()}, depuis la {version_name(step.before)}",
                         "link": relative_path(file, posix_dirname(home)), "counts": step.diff.counts(),
                         "errata": len(step.errata.applied) if step.errata else 0}
                        for file, step in reversed(versions)])
            for n, (file, step) in enumerate(versions):
                folder = posix_dirname(file)
                write(file, "news.md.j2", game=game, doc=doc, step=news_page(step, site, file),
                      document=relative_path(home, folder),
                      previous=relative_path(versions[n - 1][0], folder) if n else "",
                      following=relative_path(versions[n + 1][0], folder) if n + 1 < len(versions) else "")
            for i, page in enumerate(pages):
                here = page_file(page)
                previous, following = pages[i - 1] if i else None, pages[i + 1] if i + 1 < len(pages) else None
                aliases = page_aliases(page).shown
                shown = [render_entry(page, 1, here, site, aliases.get(page.id))]
                shown += [render_entry(e, 1 + depth, here, site, aliases.get(e.id)) for e, depth in shown_on_page(page)]
                subpages = [c for c in page.children if c.is_page]
                write(here, "page.md.j2", page, game=game, doc=doc, entries=shown, subpages=subpages,
                      **page_context(site, game, doc, page, here, previous, following))
    return written


def short_title(title: str) -> str:
    """A game's name without its subtitle: "Runewars : le Jeu de Figurines" → "Runewars"."""
    return re.split(r"(?<!\s)\s++[:—–]\s++", title, maxsplit=1)[0]


def joined_title(*parts: str) -> str:
    """Parts joined by " — ", a part said again right after itself dropped: a book named as its
    game ("Kahmaté", one rulebook made with `regles new`) is not "Combat — Kahmaté — Kahmaté"."""
    kept: list[str] = []
    for part in parts:
        if not kept or part.casefold() != kept[-1].casefold():
            kept.append(part)
    return " — ".join(kept)


def page_context(site: Site, game: GameBuild, doc: Any, page: Entry, here: str,
                 previous: Entry | None, following: Entry | None) -> dict[str, Any]:
    """What a topic page says of where it stands: its title (topic — book — game), its breadcrumb
    (game › book › chapters › topic), its document's version and date, the previous and next topics."""
    folder = posix_dirname(here)
    ancestors: list[Entry] = []
    parent = page.parent
    while parent is not None:
        ancestors.insert(0, parent)
        parent = parent.parent
    crumbs = [(md(short_title(game.game.title)), relpath(f"{game.game.id}/index.md", folder)),
              (md(doc.title), relpath(f"{game.game.id}/{doc.id}/index.md", folder))]
    crumbs += [(md(site.label(a)), site.link(a, here)) for a in ancestors]
    return {
        "title": joined_title(site.label(page), doc.title, short_title(game.game.title)),
        "crumbs": crumbs, "current": md(site.label(page)),
        "edition": doc.title + (f", version {doc.version}" if doc.version else "") + (f" ({doc.date})" if doc.date else ""),
        "previous": (md(site.label(previous)), site.link(previous, here)) if previous else None,
        "next": (md(site.label(following)), site.link(following, here)) if following else None,
    }


def document_rows(game: GameBuild) -> list[dict[str, Any]]:
    counts = Counter(e.document for e in game.entries)
    return [{"doc": d, "kind": KIND_LABELS.get(d.kind, d.kind), "count": counts[d.id]} for d in game.game.documents]


def errata_counts(errata: list[Erratum]) -> dict[str, int]:
    return {s: sum(e.status == s for e in errata) for s in ("applied", "recorded", "failed")}


LATEST_ERRATA = 12


def latest_errata(games: list[GameBuild]) -> list[tuple[Any, Erratum, str]]:
    """The errata of the most recent documents first (by the date of the document that states them,
    as written: ISO dates and years sort as dates; undated last; equal dates in book order), each
    with that document's title, version and date."""
    found = []
    for game in games:
        docs = {d.id: d for d in game.game.documents}
        for erratum in game.errata:
            doc = docs.get(erratum.id.split("/")[1])
            found.append((doc.date if doc is not None else "", (game, erratum, edition(doc) if doc is not None else "")))
    found.sort(key=lambda item: item[0], reverse=True)  # stable: book order kept within a date
    return [item[1] for item in found[:LATEST_ERRATA]]


def erratum_anchor(erratum_id: str) -> str:
    """The anchor of an erratum on its game's errata page: its id without the game, as a slug
    (`runewars/faq/errata/x/y~2` → `erratum-faq-x-y--2`)."""
    _, document, rest = erratum_id.split("/", 2)
    rest = rest.removeprefix("errata/").replace("~", "--")
    return "erratum-" + re.sub(r"[^a-z0-9~-]+", "-", f"{document}-{rest}".lower()).strip("-")


def with_article(title: str) -> tuple[str, bool]:
    """A document's title with its article: "le Guide de Référence", "la FAQ de Tournoi",
    "les Règles de base", "l'Aide de jeu"; and whether it is plural."""
    first = title.split()[0].casefold() if title.split() else ""
    if first in ("règles", "regles", "cartes", "errata"):
        return f"les {title}", True
    if first[:1] in "aeiouyhéèêàâîôû" and first:
        return f"l'{title}", False
    if first in ("faq", "aide", "règle", "feuille", "fiche", "carte", "référence"):
        return f"la {title}", False
    return f"le {title}", False


def precedence_rows(game: GameBuild) -> list[dict[str, Any]]:
    """The game's rules of precedence as French sentences, with the documents' titles."""
    titles = {d.id: d.title for d in game.game.documents}

    def words(name: str, said: str | None) -> tuple[str, bool]:
        """A document's title with its article; else the manifest's `over_words`/`under_words`
        ("les cartes et autres éléments de jeu": plural by its article), else the name itself."""
        if name in titles:
            return with_article(titles[name])
        text = said or name.replace("-", " ")
        return text, text.casefold().startswith(("les ", "des "))

    rows = []
    for rule in game.game.precedence:
        (over, plural), (under, _) = words(rule["over"], rule.get("over_words")), words(rule["under"], rule.get("under_words"))
        cut = 3 if over.startswith("« ") else 1
        sentence = f"{over[:cut].upper()}{over[cut:]} {'prévalent' if plural else 'prévaut'} sur {under}."
        stated = rule.get("stated_in") or ""
        rows.append({"sentence": sentence, "why": rule.get("why", ""),
                     "stated_in": f"{game.game.id}/{stated}" if stated and not stated.startswith(f"{game.game.id}/") else stated})
    return rows


OPERATION_WORDS = {"replace": "remplace", "insert": "ajoute", "delete": "supprime", "move": "déplace"}
BLOCK_WORDS = {"paragraph": ("le paragraphe", "un paragraphe"), "bullet": ("la puce", "une puce"),
               "subbullet": ("la sous-puce", "une sous-puce"), "sentence": ("la phrase", "une phrase"),
               "text": ("le texte", "du texte"), "title": ("le titre", "le titre"), "value": ("la valeur", "une valeur"),
               "entry": ("la règle", "une règle"), "card": ("la carte", "une carte")}
ORDINALS = {1: "premier", 2: "deuxième", 3: "troisième", 4: "quatrième", 5: "cinquième", 6: "sixième"}


def erratum_change(erratum: Erratum) -> str:
    """What an erratum changes, where, in French, for readers ("Remplace la puce 2 de la règle.")."""
    scope = erratum.scope or {}
    block = scope.get("block") or "text"
    verb = OPERATION_WORDS.get(erratum.operation, "modifie")
    definite, indefinite = BLOCK_WORDS.get(block, ("le texte", "du texte"))
    if block == "card":
        subject = scope.get("subject")
        where = f"{definite} « {subject} »" if subject else definite
    elif block == "entry":
        where = f"la section {scope['section']}" if scope.get("section") else "toute la règle"
        if erratum.operation == "insert":
            where = f"une nouvelle section {scope['section']}" if scope.get("section") else "une nouvelle règle"
    elif scope.get("label"):
        where = f"{definite} qui commence par « {scope['label']} »"
    elif scope.get("ordinal"):
        where = f"{definite} {scope['ordinal']}"
    elif erratum.operation == "insert":
        where = indefinite
    else:
        where = definite
    if erratum.operation == "insert" and scope.get("within") == "sentence" and scope.get("within_ordinal"):
        n = scope["within_ordinal"]
        nth = "dernière" if n == -1 else "première" if n == 1 else f"{n}e"
        where += f" {'après' if scope.get('position') == 'end' else 'avant'} la {nth} phrase"
    if block not in ("entry", "card") and scope.get("section"):
        where += f" de la section {scope['section']}"
    if erratum.operation == "move" and scope.get("position"):
        where += " en première position" if scope["position"] == "first" else " en dernière position"
    if scope.get("with_subbullets"):
        where += " et ses sous-puces"
    return f"{verb.capitalize()} {where}."


def erratum_outcome(erratum: Erratum) -> str:
    if erratum.status == "applied":
        return "Appliqué : le texte en vigueur en tient compte, le texte imprimé reste consultable sous la règle."
    if erratum.status == "recorded":
        subject = (erratum.scope or {}).get("subject")
        what = f"la carte « {subject} »" if subject else "ce qu'il modifie"
        return f"Enregistré, non appliqué : {what} ne fait pas partie des documents de ce site."
    return "Non appliqué : le passage à modifier n'a pas été retrouvé avec certitude ; le texte imprimé est montré tel quel."


def errata_row(erratum: Erratum, site: Site, here: str) -> dict[str, Any]:
    target = site.by_id.get(erratum.target or "")
    source = site.by_id.get(erratum.source)
    return {
        "erratum": erratum, "anchor": erratum_anchor(erratum.id),
        "title": md(f"{erratum.target_hint.get('name') or (site.label(target) if target else erratum.id)}"),
        "target": (md(site.label(target)), site.link(target, here)) if target else None,
        "source": (md(site.label(source)), site.link(source, here)) if source else None,
        "status": {"applied": "appliqué", "recorded": "enregistré (hors corpus)", "failed": "échec"}[erratum.status],
        "instruction": icon_badges(html.escape(erratum.instruction), site.icons.get(erratum.id.split("/")[0], [])),
        "after": icon_badges(html.escape(erratum.after or ""), site.icons.get(erratum.id.split("/")[0], [])),
        "before": icon_badges(html.escape(erratum.before or ""), site.icons.get(erratum.id.split("/")[0], [])),
        "diff": icon_badges(word_diff(erratum.before, erratum.after) if erratum.before and erratum.after else "",
                            site.icons.get(erratum.id.split("/")[0], [])),
        "change": md(erratum_change(erratum)), "outcome": md(erratum_outcome(erratum)),
    }
