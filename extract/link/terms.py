"""Term links: where a rule's text names another topic ("test de moral", "arc de tir", "pions
Paniqué"), its first mention links there (ref kind `term`).

Matching is on spaCy lemmas, so "tests de moral" and "attaquent" find "Test de moral" and
"Attaque"; the longest term wins, so "ligne de vue" never also links "vue". Precision first:
no link to the entry itself or the topic it belongs to, none for the names a game declares too
generic (`corpus/<game>/terms.toml`), and none for a name two topics share — unless they are in
different books, one each: then a book's mentions link to its own (a core book and an expansion
may both define "Charge"; each book's text means its own), and a book defining none (a FAQ) links
to the first book's.

    # corpus/runewars/terms.toml
    generic = ["Unité", "Actions"]          # topic names too common to link
    [aliases]                                # other names the text uses for a topic
    "pion Paniqué" = "reference/45"
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from extract.errors import InputError
from extract.lookup import Lookup
from extract.model import Anomaly, Entry, Ref, Reported, TermConfig
from extract.nlp import Lemmatizer, Token
from extract.text import fold, strip_trailing_icons, title_key

TARGET_KINDS = ("topic", "rule")
LINKED_BLOCKS = ("paragraph", "bullet", "subbullet", "step", "question", "answer", "table")
# Words that carry no meaning of their own inside a term ("ligne *de* vue"): compared loosely.
FUNCTION_POS = {"ADP", "DET", "CCONJ", "PRON", "SCONJ", "PUNCT"}


@dataclass(frozen=True)
class Term:
    phrase: str
    tokens: tuple[Token, ...]
    target: Entry | None  # None: the target depends on the book mentioning it (`per_document`)
    per_document: tuple[tuple[str, Entry], ...] = ()  # in book order

    def target_in(self, document: str) -> Entry:
        if self.target is not None:
            return self.target
        return next((entry for book, entry in self.per_document if book == document), self.per_document[0][1])


def token_keys(token: Token) -> set[str]:
    keys = {fold(token.text), fold(token.lemma)}
    return keys | {k[:-1] for k in keys if len(k) > 3 and k.endswith(("s", "x"))}


def tokens_match(text: Token, term: Token) -> bool:
    if term.pos in FUNCTION_POS or text.pos in FUNCTION_POS:
        return fold(text.text) == fold(term.text) or fold(text.lemma) == fold(term.lemma)
    if text.pos in ("VERB", "AUX") and term.pos not in ("VERB", "AUX"):
        return False  # "il charge" is not the topic "Charge"
    return bool(token_keys(text) & token_keys(term))


def redirect_target(entry: Entry, by_id: dict[str, Entry]) -> Entry:
    """A redirect topic ("Aligné : voir Faire face") links on to where it points."""
    if "redirect" in entry.flags:
        for ref in entry.refs:
            if ref.kind == "see" and ref.target in by_id:
                return by_id[ref.target]
    return entry


def phrase_of(entry: Entry) -> str | None:
    """The name an entry is mentioned by, when it can be a term's target: "Terreur (Dread)" -> "Terreur"."""
    if entry.kind not in TARGET_KINDS or not entry.title or entry.status == "deleted":
        return None
    return _BRACKETED.sub(_closed_or_kept, strip_trailing_icons(entry.title)).strip(" :.")


# "(Dread)", "[marche]" with the spaces before; a bracket no bracket closes is read to the end once and kept
_BRACKETED = re.compile(r"(?:(?<!\s)\s++)?[\[(][^\])]*+(?P<closed>[\])])?")


def _closed_or_kept(match: re.Match[str]) -> str:
    return "" if match.group("closed") else match.group(0)


def texts_to_tag(entries: list[Entry], config: TermConfig) -> list[str]:
    """Everything term linking will ask the lemmatizer for: block texts and term phrases (none
    for a game whose books name no topic to link to)."""
    phrases = [p for p in map(phrase_of, entries) if p] + list(config.aliases)
    if not phrases:
        return []
    return [b.text for e in entries for b in e.blocks if b.type in LINKED_BLOCKS] + phrases


def vocabulary(lookup: Lookup, config: TermConfig) -> tuple[dict[str, Entry | dict[str, Entry]], Reported]:
    """Phrase -> the entry it names, or (a name topics of different books share, one per book)
    document -> that book's entry, in book order. A name two topics of one book share links to neither, and is
    reported; so is a name shared across books."""
    entries, by_id, game = lookup.entries, lookup.by_id, lookup.game.id
    named: dict[str, set[str]] = {}
    phrases: dict[str, str] = {}
    for entry in entries:
        phrase = phrase_of(entry)
        if phrase is None:
            continue
        key = title_key(phrase)
        if not key or key in config.generic or not re.search(r"[^\W\d]{3}", phrase):
            continue
        named.setdefault(key, set()).add(redirect_target(entry, by_id).id)
        phrases.setdefault(key, phrase)
    anomalies = []
    order = {d.id: n for n, d in enumerate(lookup.game.documents)}  # book order
    found: dict[str, Entry | dict[str, Entry]] = {}
    for key, targets in sorted(named.items()):
        if len(targets) == 1:
            found[phrases[key]] = by_id[next(iter(targets))]
            continue
        first = by_id[min(targets)]
        books = {by_id[t].document for t in targets}
        if len(books) == len(targets):
            found[phrases[key]] = {by_id[t].document: by_id[t]
                                   for t in sorted(targets, key=lambda t: (order.get(by_id[t].document, len(order)), t))}
            detail = f"« {phrases[key]} » names {', '.join(sorted(targets))}: each book's mentions link to its own"
        else:
            detail = f"« {phrases[key]} » names {', '.join(sorted(targets))}: not linked"
        anomalies.append((f"{first.game}/{first.document}", Anomaly("ambiguous-term", detail)))
    for phrase, target in config.aliases.items():
        entry = by_id.get(f"{game}/{target}")
        if entry is None:
            raise InputError(config.file or "terms.toml", f"alias « {phrase} » points to {target}, which is not an entry")
        found[phrase] = entry
    return found, anomalies


def link_terms(lookup: Lookup, config: TermConfig, lemmatizer: Lemmatizer) -> Reported:
    entries = lookup.entries
    phrases, anomalies = vocabulary(lookup, config)
    if not phrases:
        return anomalies
    tokens = lemmatizer.tokens(texts_to_tag(entries, config))
    terms = [Term(p, tuple(tokens[p]), t) if isinstance(t, Entry) else Term(p, tuple(tokens[p]), None, tuple(t.items()))
             for p, t in phrases.items() if tokens[p]]
    by_first: dict[str, list[Term]] = {}
    for term in terms:
        for key in token_keys(term.tokens[0]):
            by_first.setdefault(key, []).append(term)
    for bucket in by_first.values():
        bucket.sort(key=lambda t: (-len(t.tokens), t.phrase))
    for entry in entries:
        if any(r.kind == "index" for r in entry.refs):
            continue  # a printed index: its lines are names already linked as `index` refs
        own = {entry.id} | {a.id for a in entry.ancestors}
        linked: set[str] = {r.target for r in entry.refs if r.kind == "term" and r.target}
        for block in entry.blocks:
            if block.type not in LINKED_BLOCKS:
                continue
            link_block(entry, block.text, tokens[block.text], by_first, own, linked)
    return anomalies


def link_block(entry: Entry, text: str, words: list[Token], by_first: dict[str, list[Term]], own: set[str],
               linked: set[str]) -> None:
    i = 0
    while i < len(words):
        match = longest_match(words, i, by_first)
        if match is None:
            i += 1
            continue
        term, size = match
        target = term.target_in(entry.document).id
        if target not in own and target not in linked:
            linked.add(target)
            entry.refs.append(Ref(sys.intern(target), "term", text[words[i].start:words[i + size - 1].end]))
        i += size  # a word inside a longer term never links on its own


def longest_match(words: list[Token], i: int, by_first: dict[str, list[Term]]) -> tuple[Term, int] | None:
    candidates: dict[int, Term] = {}
    for key in token_keys(words[i]):
        for term in by_first.get(key, []):
            size = len(term.tokens)
            if size in candidates or i + size > len(words):
                continue
            if all(tokens_match(words[i + k], term.tokens[k]) for k in range(size)):
                candidates[size] = term
    if not candidates:
        return None
    size = max(candidates)
    return candidates[size], size
