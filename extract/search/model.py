"""Stage 8, index: the search model (`build/search/model.json`), one file that both the CLI
(`engine.py`) and the site's search box (`site/assets/regles-search.js`) rank from, the same way.

Per entry, five fields of Snowball stems (accents folded after stemming, and for a word whose
unaccented spelling stems differently, that stem too): `title`; `names`, the other names of the
entry (the book's index terms, the English editions' names and aliases from `terms.toml`, the
titles of "Voir « X »" redirects to it); `context`, an untitled rule's headings; `text`; `lead`,
the text's opening sentence again (its first ten words), where a rule says what it is about. Then:
the word forms of the corpus and of the thesaurus with their stems (what a typed word reaches,
the lemma's stem as a weaker alternative: "gagnent" → gagn), the thesaurus as stem phrases, the
adjacent stem pairs of titles, names and texts (words found together), the whole titles and
names, the rule numbers, the words typos are matched against, the entries answering each question
frame (`words.ANSWER_FRAMES`), and the word lists of `words.py`.
Byte-identical for the same entries.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from whoosh.lang import stemmer_for_language

from extract.files import write_pieces
from extract.search import words as W
from extract.search.scopes import scope_phrases
from extract.text import shorten

FIELDS = ("title", "names", "context", "text", "lead")
FIELD_WEIGHTS = (3.0, 2.5, 1.2, 1.0, 0.5)
FIELD_B = (0.5, 0.5, 0.3, 0.75, 0.0)  # length normalisation: a word of a long title or of many names counts less than a short title
LEAD = 4  # the field of the text's opening sentence (its first LEAD_WORDS words), indexed again
LEAD_WORDS = 10
PAIR_FIELDS = (0, 1, 3)  # words together: in titles, names and texts (a heading's words are together anyway)
LEMMA_WEIGHT = 0.6
NAV_PRIOR = 0.1  # the book's index and contents lists: they point to rules, they are not the rule
REDIRECT_PRIOR = 0.3  # "Voir « X »": the rule is X
# A book's overview often announces a topic that a later part treats under the same heading
# ("RÉACTIONS … Les réactions sont expliquées en page 15"): the announcement yields to the rule.
ANNOUNCE_PRIOR = 0.5
DEFERRAL = re.compile(r"\b(?:expliqu|décri|détaill|présent|trait|développ)\w*\s+(?:plus loin\s+)?(?:en|à|dans)\s+(?:la\s+|le\s+)?"
                      r"(?:pages?|p\.|section|chapitre)\s*\d|\bfigure(?:nt)?\s+(?:en|à\s+la)\s+pages?\s*\d", re.IGNORECASE)
# A learn-to-play booklet teaches by walking through a first game; when its game has a rules
# reference, that reference holds the complete rules ("Le Guide de Référence contient les règles
# complètes du jeu […]. Il doit être consulté dès qu'une question se pose au cours d'une partie",
# says Runewars' booklet): its entries answer a question first.
LEARN_PRIOR = 0.85
PROSE_WORDS = 25  # a block this long is prose, not a line of an index or a contents list
MODEL_VERSION = 9  # 9: a thesaurus target of several words is one expression ("attaqu distanc")
THESAURUS_TYPO_LETTERS = 5  # a word of the thesaurus only is a typo target from this length
UNICODE_TOKEN = re.compile(r"\d+(?:\.\d+)+[^\W\d_]?|\w+(?:['’]\w+)*")
UNICODE_ELISION = re.compile(r"^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)['’](?=\w)", re.IGNORECASE)
NUMBER = re.compile(r"^\d+(?:\.\d+)+[a-z]?$")

_stem = stemmer_for_language("fr")


@lru_cache(maxsize=200000)
def stems_of_word(original: str, folded: str) -> tuple[str, ...]:
    """Primary stem first: the accented word's, folded; then the unaccented spelling's if it differs."""
    if NUMBER.match(folded) or folded.isdigit():
        return (folded,)
    primary = W.fold(_stem(original))
    alternate = _stem(folded)
    return (primary,) if alternate == primary else (primary, alternate)


def talk_free(found: list[tuple[str, tuple[str, ...]]], postings: Any) -> list[tuple[str, ...]]:
    """An expression's stems as a query leaves them, its words of table talk out ("prendre cher"
    is typed "il prend cher", read "cher"), when that differs from the whole expression; nothing
    when it leaves nothing, or a single word the books use: "faire mal" read "mal" would make
    every "mal" a synonym of the expression's meaning."""
    kept = [stems for word, stems in found if word not in W.TALK_WORDS]
    if len(kept) == len(found) or not kept or (len(kept) == 1 and kept[0][0] in postings):
        return []
    return kept


def positions(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """(folded word, its stems) for each word of `text` that is not a stop word, in order."""
    found = []
    for token in UNICODE_TOKEN.findall(text.lower().translate(W.LIGATURES)):
        token = UNICODE_ELISION.sub("", token)
        folded = W.fold(token)
        pieces = [(token, folded)] if W.TOKEN.fullmatch(folded) else \
            [(w, w) for w in (W.ELISION.sub("", t) for t in W.TOKEN.findall(folded))]
        for original, word in pieces:
            if word and word not in W.FOLDED_STOP_WORDS:
                found.append((word, stems_of_word(original, word)))
    return found


SENTENCE_END = re.compile(r"[.!?;:](?!\d)|\n")  # "85.7" does not end a sentence


def lead_of(text: str) -> str:
    """The opening sentence of a text: where a rule says what it is about ("Une Chaîne de Combat
    est…", "Le Premier joueur est…"). Its first LEAD_WORDS words are indexed again as the `lead`
    field, so an entry that opens on the query's words beats one that mentions them in passing."""
    match = SENTENCE_END.search(text)
    return text[:match.start()] if match else text


class Contribution(NamedTuple):
    """What one entry adds to the model, whatever its place among the others: a function of its
    fields' texts alone (and of the verb stems of its -ent words), so a rebuild after an edit
    computes the edited entry's and only adds up the others' (`build_model`). Maps are kept as
    flat lists (key, value, key, value…): a kept build reads them back in half the time of dicts."""

    terms: tuple[list[Any], ...]  # per field: stem, occurrences…
    lengths: list[int]  # per field: words
    words: list[Any]  # word, stems, occurrences outside the lead… (each word and stems once, first seen first)
    headline: list[str]  # the words of the title and names
    body: list[str]  # the words of the other fields
    pairs: list[Any]  # adjacent primary stems, occurrences…
    exact: list[str]  # the title's primary stems, joined (one key at most)
    named: list[str]  # each other name's, joined
    verbs: dict[str, str]  # each -ent word of the entry -> the verb stem it was indexed under ("" none)


def contribution_key(parts: tuple[list[str], ...]) -> bytes:
    """What a `Contribution` is made of, hashed: the texts of each field before the lead (the lead
    is the text's start: worked out only when the contribution is)."""
    digest = hashlib.blake2b(digest_size=16)
    for texts in parts:  # each length before its text: no two different parts hash the same bytes
        digest.update(b"%d\x1e" % len(texts))
        for text in texts:
            data = text.encode()
            digest.update(b"%d\x1f" % len(data))
            digest.update(data)
    return digest.digest()


def flat(mapping: dict[str, int]) -> list[Any]:
    return [item for pair in mapping.items() for item in pair]


def contribute(parts: tuple[list[str], ...], positions_of: Callable[[str], list[tuple[str, tuple[str, ...]]]],
               verbs: dict[str, str]) -> Contribution:
    """The `Contribution` of an entry whose fields (FIELDS order) hold the texts `parts`."""
    terms: list[dict[str, int]] = []
    lengths = []
    words: dict[tuple[str, tuple[str, ...]], int] = {}
    headline: dict[str, None] = {}  # ordered sets
    body: dict[str, None] = {}
    pairs: dict[str, int] = {}
    keys: tuple[list[str], list[str]] = ([], [])
    for field, texts_of_field in enumerate(parts):
        counts: dict[str, int] = {}
        length = 0
        for piece in texts_of_field:
            found = positions_of(piece)
            if field == LEAD:
                found = found[:LEAD_WORDS]
            length += len(found)
            for pair in found:
                word, stems = pair
                if field != LEAD:  # the text's words, counted once
                    words[pair] = words.get(pair, 0) + 1
                (headline if field < 2 else body)[word] = None
                verb = verbs.get(word)
                for stem in (*stems, verb) if verb is not None and verb not in stems else stems:
                    counts[stem] = counts.get(stem, 0) + 1
            if field in PAIR_FIELDS:
                for (_, a), (_, b) in zip(found, found[1:], strict=False):
                    key = f"{a[0]} {b[0]}"
                    pairs[key] = pairs.get(key, 0) + 1
            if field < 2 and found:
                keys[field].append(" ".join(stems[0] for _, stems in found))
        terms.append(counts)
        lengths.append(length)
    seen = {*headline, *body}
    return Contribution(tuple(flat(counts) for counts in terms), lengths,
                        [item for (word, stems), count in words.items() for item in (word, stems, count)],
                        list(headline), list(body), flat(pairs), keys[0],
                        list(dict.fromkeys(keys[1])), {w: verbs.get(w, "") for w in seen if w.endswith("ent")})


class Known:
    """What a previous build worked out and this one may take again, each a function of its key
    alone: `positions` of texts, Snowball stems of words, and each entry's `Contribution` (under
    `contribution_key`). `kept` holds a previous build's (`seen()`), `seen()` this build's only:
    a memo that does not grow with edits."""

    def __init__(self, kept: dict[str, list[tuple[str, tuple[str, ...]]]] | None = None,
                 stems: dict[str, tuple[str, str]] | None = None, contributions: dict[bytes, Contribution] | None = None) -> None:
        self.kept = kept or {}
        self.seen: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        self.kept_stems = stems or {}
        self.stems: dict[str, tuple[str, str]] = {}  # word -> its stem, and that stem folded
        self.kept_contributions = contributions or {}
        self.contributions: dict[bytes, Contribution] = {}
        self.keys: list[bytes] = []  # each entry's contribution's, in order
        self.made: set[bytes] = set()  # the contributions this build worked out

    def __call__(self, text: str) -> list[tuple[str, tuple[str, ...]]]:
        found = self.seen.get(text)
        if found is None:
            found = self.kept.get(text)
            self.seen[text] = found = positions(text) if found is None else found
        return found

    def _stems(self, word: str) -> tuple[str, str]:
        found = self.stems.get(word)
        if found is None:
            found = self.kept_stems.get(word)
            if found is None:
                stem = _stem(word)
                found = (stem, W.fold(stem))
            self.stems[word] = found
        return found

    def stem(self, word: str) -> str:
        """Snowball's stem of `word` (about 30 µs each: the vocabulary's lemmas are 1,600 of them)."""
        return self._stems(word)[0]

    def folded_stem(self, word: str) -> str:
        """`stem(word)` folded."""
        return self._stems(word)[1]


def primary_key(text: str) -> str:
    return " ".join(stems[0] for _, stems in positions(text))


# Derivational families Snowball keeps apart: the noun in -ure/-eur of a verb or an adjective
# ("blessure" / blesser, "hauteur" / haut, "marqueur" / marquer, "défenseur" / défense). A word
# reaches its family's other stems, weaker than its own.
FAMILY_WEIGHT = 0.7


def family_root(stem: str) -> str:
    """The stem without its -ure/-eur suffix, when four letters stay."""
    root = stem[:-3] if stem.endswith("eur") else stem[:-2] if stem.endswith("ur") else stem
    return root if len(root) >= 4 else stem


def plural_verb_stems(forms: dict[str, str], stem_of: Callable[[str], str] = _stem,
                      folded_stem_of: Callable[[str], str] = lambda word: W.fold(_stem(word))) -> dict[str, str]:
    """Snowball leaves a verb's third person plural whole ("attaquent", "effectuent", "placent"):
    such a form (a word in -ent whose lemma is a verb) is indexed under its verb's stem too, so
    "attaque" finds "ils attaquent" and "attaquent" finds "attaque"."""
    found = {}
    for word, lemma in forms.items():
        if word.endswith("ent") and lemma.endswith(("er", "ir", "re")) and not NUMBER.match(word):
            stem = folded_stem_of(lemma)
            if stem != stem_of(word) and len(stem) >= 3:
                found[word] = stem
    return found


def announcements(entries: list[Any]) -> set[str]:
    """Ids of entries that say their topic is explained on another page, where an entry of the
    same title in the same book is (the topic's announcement, not its rule)."""
    titled: dict[tuple[str, str, str], int] = Counter(
        (e.game, e.document, W.fold(e.title.lower())) for e in entries if e.title)
    return {e.id for e in entries if e.title and titled[e.game, e.document, W.fold(e.title.lower())] > 1
            and DEFERRAL.search(e.text)}


def is_navigation(entry: Any) -> bool:
    """The book's index, or a contents list: most of its lines point to pages or rules."""
    if getattr(entry, "printed_index", False):
        return True
    pointers = sum(1 for ref in entry.refs if ref.kind in ("index", "page"))
    if pointers < 4:  # most entries: their blocks need no reading
        return False
    lines = sum(1 for block in entry.blocks if block.text.strip())
    # A rule that ends on a list of pointers ("MOUVEMENT (p. 8)"…) still states a rule first: a
    # paragraph of prose says so.
    prose = any(len(block.text.split()) >= PROSE_WORDS for block in entry.blocks)
    return pointers >= 4 and pointers >= 0.5 * max(lines, 1) and not prose


# An untitled rule that opens on its own name: "Se désengager : pour se désengager, l'unité…",
# "Régénération X : à la fin de…", "Étape 2 – Choisissez la cible : …". A sentence that announces
# a list ("Les obstacles incluent :", "Chaque joueur lance un dé :") is not a name.
LEAD_LABEL = re.compile(r"^([^\W\d][^:.\n]{2,40}?)\s?:\s")
NOT_A_NAME = re.compile(r"^(?:les?|la|l'|un|une|des|il|elle|ils|elles|chaque|on|si|quand|lorsqu|pour|dans|en)\b",
                        re.IGNORECASE)


def lead_label(entry: Any) -> str | None:
    """The name an untitled entry opens with, if it opens with one."""
    if entry.title:
        return None
    match = LEAD_LABEL.match(entry.text)
    if not match or NOT_A_NAME.match(match.group(1)) or len(match.group(1).split()) > 8:
        return None
    return match.group(1)


# A term the books define: "les figurines au contact sont dites Engagées", "ces dés sont appelés
# dés d'initiative", "on dit qu'une unité est engagée quand…". The entry that says it is the
# answer for that term. Up to three words are taken, cut before the first stop word.
DEFINES = re.compile(r"\b(?:(?:est|sont)\s(?:dite?s?|appel[ée]e?s?|nomm[ée]e?s?)|on\sdit\squ['’]une?\s[^\W\d_]{2,20}\s(?:est|sont))"
                     r"\s(?:«\s?)?((?:[^\W\d_][\w’'-]{0,24}\s?){1,3})", re.IGNORECASE)
DEFINED_CUT = frozenset("quand lorsque lorsqu si s et ou qui que dont pour par avec sans comme tant jusqu "
                         "alors car mais puis pendant durant lors apres avant des".split())
# A line of a list that names what it explains: "Paniqué : quand une unité qui a un pion…".
BLOCK_LABEL = re.compile(r"^([^\W\d_][\w’'-]{1,24}(?: [\w’'-]{1,24}){0,3})\s?:\s")
BLOCK_LABEL_WORDS = 4
ASIDE_LABEL = re.compile(r"^(?:exemples?|notes?|remarques?|important|rappel|attention|nb)$", re.IGNORECASE)  # no term
TEXT_BLOCKS = ("paragraph", "bullet", "subbullet")  # not a "Sujets connexes :" list of links


def defined_terms(entry: Any) -> list[str]:
    """The terms an entry defines: named in a sentence that defines them, or at the head of one of
    its text blocks ("Paniqué : …") other than its first (`lead_label` reads that one)."""
    found = []
    for match in DEFINES.finditer(entry.text):
        words: list[str] = []
        for word in match.group(1).split():
            bare = UNICODE_ELISION.sub("", word)
            folded = W.fold(bare.lower())
            if folded in DEFINED_CUT or (bare != word and folded in W.FOLDED_STOP_WORDS) or (
                    not words and folded in W.FOLDED_STOP_WORDS):
                break  # "quand…", "d'un autre", "un jet"
            words.append(bare if not words else word)  # "l'ATTAQUANT" → ATTAQUANT; "dés d'initiative"
        while words and W.fold(words[-1].lower()) in W.FOLDED_STOP_WORDS:  # "Dés de" → Dés
            words.pop()
        if words:
            found.append(" ".join(words))
    for block in entry.blocks[1:]:
        if block.type not in TEXT_BLOCKS:
            continue
        match = BLOCK_LABEL.match(block.text)
        if (match and not NOT_A_NAME.match(match.group(1)) and not ASIDE_LABEL.match(match.group(1))
                and len(match.group(1).split()) <= BLOCK_LABEL_WORDS):
            found.append(match.group(1))
    return found


# A head of a book's index, its page or rule numbers left out, and its other language's name in
# brackets: "Touches Superficielles (Glancing Blows)" → "Touches Superficielles", "Glancing Blows".
INDEX_HEAD_TAIL = " \t0123456789.,;–-"  # the page or rule numbers after a head: "Collision 26.0"


def index_head(line: str) -> list[str]:
    """The names of a head of a book's index, its numbers left out, its other language's name in
    brackets apart: "Touches Superficielles (Glancing Blows)" → "Touches Superficielles",
    "Glancing Blows"; nothing for a letter dividing the index or a line with other brackets."""
    text = line.strip().rstrip(INDEX_HEAD_TAIL)
    other = ""
    if text.endswith(")") and "(" in text:
        cut = text.rfind("(")
        text, other = text[:cut].strip(), text[cut + 1:-1].strip()
    if len(text) < 2 or any(c in "()" or c.isdigit() for c in text) or any(c in "()" for c in other):
        return []
    return [text, other] if other else [text]


def index_heads(entry: Any) -> list[tuple[str, list[str]]]:
    """(target, names) of the index refs of `entry` read from a sub-bullet of the book's index:
    a sub-term's rule is named by the bullet line above it too ("Touches Superficielles (Glancing
    Blows)" over "Après un Tir (In shooting) 5.16, 5.17"). Not the heads a reader wrote into
    the ref's text ("Cartes › Défausser, 17.1"): measured, they lure more than they name (a
    category, "Cartes", "Ajouter", or a letter)."""
    refs = [ref for ref in entry.refs if ref.kind == "index" and ref.target]
    if not refs:
        return []
    under: dict[str, str] = {}  # a sub-bullet's text -> the bullet line above it
    head = ""
    for block in entry.blocks:
        if block.type == "bullet":
            head = block.text
        elif block.type == "subbullet" and head:
            under.setdefault(block.text, head)
    found = []
    for ref in refs:
        names = index_head(under.get(ref.text, ""))
        if names:
            found.append((ref.target, names))
    return found


def other_names(entries: list[Any], names: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each entry's other names: its index terms, the name an untitled rule opens with, the terms
    it defines (`defined_terms`), the names given in the corpus files, and the titles of the
    redirects that send readers to it ("Désengagement: Voir « Repositionnement »")."""
    found: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        found[entry.id].extend(entry.index_terms)
        label = lead_label(entry)
        if label:
            found[entry.id].append(label)
        found[entry.id].extend(defined_terms(entry))
        if "redirect" in entry.flags and entry.title:
            for ref in entry.refs:
                if ref.kind == "see" and ref.target:
                    found[ref.target].append(entry.title)
        for target, head in index_heads(entry):
            found[target].extend(head)
    for entry_id, extra in names.items():
        found[entry_id].extend(extra)
    return {k: list(dict.fromkeys(v)) for k, v in found.items()}


TITLE_PARTS = re.compile(r"\s(?:et|ou|&)\s|[,/;:–—]", re.IGNORECASE)  # "Gagner et perdre", "Retraite, fuite"


def title_part_words(title: str | None) -> int:
    """The words (stop words out) of the shortest part of a title that names several things
    ("Gagner et perdre", "Retraite et Piétinement": 1), or of the whole title ("Fin de round": 2)."""
    if not title:
        return 0
    counts = [len(found) for part in TITLE_PARTS.split(title) if (found := positions(part))]
    return min(counts) if counts else 0


def frame_entries(entries: list[Any]) -> list[list[Any]]:
    """The model's `frames`: per `words.ANSWER_FRAMES` frame, [name, what asks it, weight, the
    entries whose text prints an answer of that kind]."""
    found = []
    for name, asked, answers, weight in W.ANSWER_FRAMES:
        answer = re.compile(answers, re.IGNORECASE)
        found.append([name, asked, weight, [n for n, entry in enumerate(entries) if answer.search(entry.text)]])
    return found


def document_priors(kinds: dict[str, str]) -> dict[str, float]:
    """The prior of each document ("game/document" -> kind): a learn-to-play booklet of a game
    that has its full rules too (a reference guide or a rulebook) weighs LEARN_PRIOR."""
    referenced = {key.split("/")[0] for key, kind in kinds.items() if kind in ("reference", "rulebook")}
    return {key: LEARN_PRIOR for key, kind in kinds.items() if kind == "learn-to-play" and key.split("/")[0] in referenced}


def build_model(entries: list[Any], forms: dict[str, str], synonyms: Iterable[tuple[Any, ...]] = (),
                names: dict[str, list[str]] | None = None, labels: dict[str, str] | None = None,
                kinds: dict[str, str] | None = None, known: Known | None = None,
                scanned: set[str] | frozenset[str] = frozenset(), scopes: dict[str, list[str]] | None = None,
                changes: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """The model of `entries`. `forms` maps a folded word form of the corpus to its folded lemma;
    `synonyms` are (expressions a reader types, expressions the books use[, the game they are
    true of: a game's own synonyms reach that game's entries only]); `names` adds other
    names to entries by id; `labels` names games and documents ("runewars/reference"); `kinds`
    gives the kind of each document ("runewars/apprentissage" -> "learn-to-play"). `known`: the
    positions of texts kept from a previous build (`Known`). `scanned`: the documents read by OCR
    ("warcry/regles"), whose words seen once may be debris. `scopes`: the names of each game and
    document ("runewars", "runewars/reference"), the one to show first (`scopes.scope_names`): a
    query naming one is searched in it. `changes`: the ids of the entries where errata are
    written."""
    known = known or Known()
    named = other_names(entries, names or {})
    document_prior = document_priors(kinds or {})
    announcing = announcements(entries)
    docs, texts = [], []
    # Postings are kept as they are written out, flat: [doc, field, tf, doc, field, tf…] per stem,
    # [doc, tf…] per pair, [doc…] per exact key. Entries are added in order, each entry's fields
    # in order, so the lists come out sorted, as the model wants them.
    postings: dict[str, list[int]] = {}
    pairs: dict[str, list[int]] = {}
    exact: dict[str, list[int]] = {}
    named_exact: dict[str, list[int]] = {}
    numbers: dict[str, list[int]] = defaultdict(list)
    vocab: dict[str, dict[tuple[str, ...], int]] = {}  # word -> its stems -> occurrences, first seen first
    word_docs: dict[str, list[int]] = {}  # word → [the last entry it was seen in, in how many entries (counted to 2)]
    headline_words: set[str] = set()
    printed_words: set[str] = set()  # the words of documents not read by OCR: each is a word
    lengths = []
    verbs = plural_verb_stems(forms, known.stem, known.folded_stem)
    # An entry's texts are analysed only when its contribution is not kept: not worth keeping then.
    analysed = Known(known.kept)
    for n, entry in enumerate(entries):
        title = entry.title or ""
        context = "" if entry.title else "\n".join(a.title or "" for a in entry.ancestors[:2])
        text = entry.text
        parts = ([title], named.get(entry.id, []), [context], [text])
        key = contribution_key(parts)
        mine = known.contributions.get(key) or known.kept_contributions.get(key)
        if mine is None or any(verbs.get(word, "") != verb for word, verb in mine.verbs.items()):
            mine = contribute((*parts, [lead_of(text)]), analysed, verbs)
            known.made.add(key)
        known.contributions[key] = mine
        known.keys.append(key)
        for field, counts in enumerate(mine.terms):
            items = iter(counts)
            for stem, tf in zip(items, items, strict=True):
                posting = postings.get(stem)
                if posting is None:
                    postings[stem] = [n, field, tf]
                else:
                    posting += (n, field, tf)
        items = iter(mine.pairs)
        for key_, tf in zip(items, items, strict=True):
            pair = pairs.get(key_)
            if pair is None:
                pairs[key_] = [n, tf]
            else:
                pair += (n, tf)
        for key_ in mine.exact:
            exact.setdefault(key_, []).append(n)
        for key_ in mine.named:
            named_exact.setdefault(key_, []).append(n)
        items = iter(mine.words)
        for word, stems, count in zip(items, items, items, strict=True):
            counts_ = vocab.get(word)
            if counts_ is None:
                vocab[word] = {stems: count}
            else:
                counts_[stems] = counts_.get(stems, 0) + count
            seen = word_docs.get(word)
            if seen is None:
                word_docs[word] = [n, 1]
            elif seen[0] != n:
                seen[0], seen[1] = n, 2
        headline_words.update(mine.headline)
        if f"{entry.game}/{entry.document}" not in scanned:
            printed_words.update(mine.body)
        lengths.append(mine.lengths)
        if entry.number:
            numbers[entry.number.lower()].append(n)
        prior = NAV_PRIOR if is_navigation(entry) else REDIRECT_PRIOR if "redirect" in entry.flags else 1.0
        prior *= ANNOUNCE_PRIOR if entry.id in announcing else 1.0
        prior *= document_prior.get(f"{entry.game}/{entry.document}", 1.0)
        shown = entry.title or shorten(entry.question)  # a FAQ question is named by its words, not "q2"
        docs.append([entry.id, entry.url, shown, entry.game, entry.document, entry.kind,
                     entry.number or "", entry.status, prior])
        texts.append(text)
    # Words of the thesaurus the corpus never uses still need their stems ("soldats").
    rules = []
    english: set[str] = set()  # the words of English expressions: no typo of a French word is read as one
    for synonym in synonyms:
        typed, meant = synonym[0], synonym[1]
        game = synonym[2] if len(synonym) > 2 else ""  # a game's terms.toml speaks of that game only
        if len(synonym) > 3 and synonym[3] == "en":
            english.update(word for e in typed for word, _ in known(e))
        # a pronominal expression ("se tirer") is marked so (`understanding.thesaurus_match`)
        keys = [[(W.REFLEXIVE,)] * W.pronominal(e) + [stems for _, stems in known(e)] for e in typed]
        keys += [[(W.REFLEXIVE,)] * W.pronominal(e) + said for e in typed if (said := talk_free(known(e), postings))]
        # a book's expression of several words ("attaque à distance") is one target, its stems
        # joined by a space: an entry holds it by holding its words, not any one of them
        targets = sorted({joined for e in meant if (joined := " ".join(stems[0] for _, stems in known(e) if stems))})
        for e in [*typed, *meant]:
            for word, stems in known(e):
                if word not in vocab:
                    vocab[word] = {stems: 1}
        for key in keys:
            if [s for s in key if s[0] != W.REFLEXIVE]:
                rules.append([[s[0] for s in key], targets, game])
    families: dict[str, set[str]] = defaultdict(set)
    for stem in postings:
        if stem.isalpha() and len(stem) >= 4:
            families[family_root(stem)].add(stem)
    vocabulary = {}
    for word, counts in sorted(vocab.items()):
        if len(counts) == 1:
            listed = list(next(iter(counts)))
        else:  # most used first, the first seen first among equals (Counter.most_common's order)
            ordered = sorted(counts.items(), key=lambda item: item[1], reverse=True)
            listed = list(dict.fromkeys(stem for stems, _ in ordered for stem in stems))
        entry_stems: list[Any] = listed[:]
        lemma = forms.get(word)
        if word in verbs and verbs[word] not in listed:
            entry_stems.append(verbs[word])  # "attaquent" is "attaque": the same word, fully
        elif lemma and not NUMBER.match(word):
            lemma_stem = known.folded_stem(lemma)
            if lemma_stem not in listed and lemma_stem in postings:
                entry_stems.append([lemma_stem, LEMMA_WEIGHT])
        for stem in listed[:1]:
            family = families.get(family_root(stem))
            if family and (len(family) > 1 or stem not in family):  # most words: a family of their own stem
                for kin in sorted(family - set(listed)):
                    entry_stems.append([kin, FAMILY_WEIGHT])
        vocabulary[word] = entry_stems
    # Typos are matched against the words of printed books, and of a scanned one those seen twice
    # or in a title or name: OCR debris is not a word. A word of the thesaurus alone ("soldats")
    # is one when it is long enough (one edit from a short one, "tap", "hit", is too many words)
    # and French: "figs" sounds like "fight" to French rules, not to a player.
    typo_words = sorted(w for w in vocab if w.isalpha() and len(w) >= 3
                        and (w in printed_words or w in word_docs and word_docs[w][1] >= 2 or w in headline_words
                             or (w not in word_docs and len(w) >= THESAURUS_TYPO_LETTERS and w not in english)))
    averages = [sum(row[f] for row in lengths) / max(len(lengths), 1) for f in range(len(FIELDS))]
    index_of = {entry.id: n for n, entry in enumerate(entries)}
    # A sub-rule and its topic compete in the ranking (`SearchIndex.sub_rules_first`).
    parents = [index_of.get(entry.parent.id, -1) if entry.parent is not None else -1 for entry in entries]
    return {
        "version": MODEL_VERSION,
        "fields": list(FIELDS), "weights": list(FIELD_WEIGHTS), "b": list(FIELD_B),
        "averages": [round(a, 4) for a in averages],
        # the words of each title's shortest part ("Gagner et perdre": 1, "Fin de round": 2): how
        # much of it a query holds to name the entry (`Ranking.add_headline_bonus`)
        "title_parts": [title_part_words(entry.title) for entry in entries],
        "docs": docs, "lengths": lengths, "texts": texts, "parents": parents,
        "terms": {key: postings[key] for key in sorted(postings)},
        "pairs": {key: pairs[key] for key in sorted(pairs)},
        "exact": {key: exact[key] for key in sorted(exact)},
        "named": {key: kept for key, found in sorted(named_exact.items())
                  if (kept := sorted(set(found) - set(exact.get(key, ()))))},
        "numbers": {key: numbers[key] for key in sorted(numbers)},
        "vocab": vocabulary,
        "typo_words": typo_words,
        "thesaurus": sorted(rules),
        "stop_words": sorted(W.FOLDED_STOP_WORDS), "talk_words": sorted(W.TALK_WORDS),
        "talk": W.TALK.pattern, "token": W.TOKEN.pattern, "elision": W.ELISION.pattern,
        "reflexive": {"marker": W.REFLEXIVE, "pronouns": sorted(W.REFLEXIVE_PRONOUNS),
                      "other_subjects": sorted(W.OTHER_SUBJECTS), "elision": W.REFLEXIVE_ELISION.pattern,
                      "causative": sorted(W.CAUSATIVE)},
        "number_query": W.NUMBER_QUERY.pattern, "change": W.CHANGE.pattern,
        # what a question about changes favours: the entries errata changed (their status) and
        # the entries that write an erratum
        "changed": [n for n, entry in enumerate(entries) if entry.status != "printed" or entry.id in (changes or ())],
        # what a question's frame asks for ("combien …": a rule stating a number), and the entries
        # whose text answers so (`words.ANSWER_FRAMES`)
        "frames": frame_entries(entries),
        "sound_rules": [list(rule) for rule in W.SOUND_RULES],
        "english_forms": [[list(rule) for rule in rules] for rules in (W.ENGLISH_BASES, W.ENGLISH_ENDINGS)],
        "french_bases": [list(rule) for rule in W.FRENCH_BASES],  # `Understanding.alternatives`
        "french_least": W.FRENCH_LEAST,
        # the words of entries' other names (index terms, the English editions' names…): what
        # another English form of a query word may reach (`SearchIndex.alternatives`)
        "name_words": sorted({w for found in named.values() for name in found for w in W.words_of(name, talk=False)}),
        "labels": dict(sorted((labels or {}).items())),
        "scopes": scope_phrases(scopes or {}),
        "scope_labels": {key: found[0] for key, found in sorted((scopes or {}).items()) if found},
    }


CHUNK = 256  # items of a posting dict or list encoded at once by write_model


def write_model(out: Path, model: dict[str, Any]) -> None:
    """`model.json`: the model as `json.dumps(model, ensure_ascii=False, separators=(",", ":"),
    sort_keys=True)` writes it, encoded key by key and posting list by posting list
    (`extract.files`)."""
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode

    def stream(value: Any, depth: int) -> Iterator[str]:
        """Dicts and lists down to `depth` levels written item by item, the rest encoded whole;
        on the last level, CHUNK items are encoded at once (one call of the C encoder instead of
        one per posting list: the same text, bounded memory)."""
        if depth and isinstance(value, dict) and all(isinstance(k, str) for k in value):
            items = sorted(value.items())
            if depth == 1:
                yield "{"
                for start in range(0, len(items), CHUNK):
                    yield ("," if start else "") + encode(dict(items[start:start + CHUNK]))[1:-1]
                yield "}"
                return
            yield "{"
            for i, (key, item) in enumerate(items):
                yield ("," if i else "") + encode(key) + ":"
                yield from stream(item, depth - 1)
            yield "}"
        elif depth and isinstance(value, list):
            if depth == 1:
                yield "["
                for start in range(0, len(value), CHUNK):
                    yield ("," if start else "") + encode(value[start:start + CHUNK])[1:-1]
                yield "]"
                return
            yield "["
            for i, item in enumerate(value):
                if i:
                    yield ","
                yield from stream(item, depth - 1)
            yield "]"
        else:
            yield encode(value)

    write_pieces(out / "model.json", stream(model, 2))
