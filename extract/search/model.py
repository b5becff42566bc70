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
names, the rule numbers, the words typos are matched against, and the word lists of `words.py`.
Byte-identical for the same entries.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh.lang import stemmer_for_language

from extract.files import write_pieces
from extract.search import words as W
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
MODEL_VERSION = 5
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


class Known:
    """`positions` of texts, taken from `kept` (a previous build's `seen`: `positions` is a
    function of the text alone) where it has them; `seen` holds those of this build's texts."""

    def __init__(self, kept: dict[str, list[tuple[str, tuple[str, ...]]]] | None = None) -> None:
        self.kept = kept or {}
        self.seen: dict[str, list[tuple[str, tuple[str, ...]]]] = {}

    def __call__(self, text: str) -> list[tuple[str, tuple[str, ...]]]:
        found = self.seen.get(text)
        if found is None:
            found = self.kept.get(text)
            self.seen[text] = found = positions(text) if found is None else found
        return found


def primary_key(text: str) -> str:
    return " ".join(stems[0] for _, stems in positions(text))


# Derivational families Snowball keeps apart: the noun in -ure/-eur of a verb or an adjective
# ("blessure" / blesser, "hauteur" / haut, "marqueur" / marquer, "défenseur" / défense). A word
# reaches its family's other stems, weaker than its own.
FAMILY = re.compile(r"(?:eur|ur)$")
FAMILY_WEIGHT = 0.7


def family_root(stem: str) -> str:
    """The stem without its -ure/-eur suffix, when four letters stay."""
    root = FAMILY.sub("", stem)
    return root if len(root) >= 4 else stem


def plural_verb_stems(forms: dict[str, str]) -> dict[str, str]:
    """Snowball leaves a verb's third person plural whole ("attaquent", "effectuent", "placent"):
    such a form (a word in -ent whose lemma is a verb) is indexed under its verb's stem too, so
    "attaque" finds "ils attaquent" and "attaquent" finds "attaque"."""
    found = {}
    for word, lemma in forms.items():
        if word.endswith("ent") and lemma.endswith(("er", "ir", "re")) and not NUMBER.match(word):
            stem = W.fold(_stem(lemma))
            if stem != _stem(word) and len(stem) >= 3:
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


def other_names(entries: list[Any], names: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each entry's other names: its index terms, the name an untitled rule opens with, the names
    given in the corpus files, and the titles of the redirects that send readers to it
    ("Désengagement: Voir « Repositionnement »")."""
    found: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        found[entry.id].extend(entry.index_terms)
        label = lead_label(entry)
        if label:
            found[entry.id].append(label)
        if "redirect" in entry.flags and entry.title:
            for ref in entry.refs:
                if ref.kind == "see" and ref.target:
                    found[ref.target].append(entry.title)
    for entry_id, extra in names.items():
        found[entry_id].extend(extra)
    return {k: list(dict.fromkeys(v)) for k, v in found.items()}


def document_priors(kinds: dict[str, str]) -> dict[str, float]:
    """The prior of each document ("game/document" -> kind): a learn-to-play booklet of a game
    that has its full rules too (a reference guide or a rulebook) weighs LEARN_PRIOR."""
    referenced = {key.split("/")[0] for key, kind in kinds.items() if kind in ("reference", "rulebook")}
    return {key: LEARN_PRIOR for key, kind in kinds.items() if kind == "learn-to-play" and key.split("/")[0] in referenced}


def build_model(entries: list[Any], forms: dict[str, str], synonyms: Iterable[tuple[Any, ...]] = (),
                names: dict[str, list[str]] | None = None, labels: dict[str, str] | None = None,
                kinds: dict[str, str] | None = None, known: Known | None = None,
                scanned: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """The model of `entries`. `forms` maps a folded word form of the corpus to its folded lemma;
    `synonyms` are (expressions a reader types, expressions the books use[, the game they are
    true of: a game's own synonyms reach that game's entries only]); `names` adds other
    names to entries by id; `labels` names games and documents ("runewars/reference"); `kinds`
    gives the kind of each document ("runewars/apprentissage" -> "learn-to-play"). `known`: the
    positions of texts kept from a previous build (`Known`). `scanned`: the documents read by OCR
    ("warcry/regles"), whose words seen once may be debris."""
    positions_of = known or Known()
    named = other_names(entries, names or {})
    document_prior = document_priors(kinds or {})
    announcing = announcements(entries)
    docs, texts = [], []
    # Postings are kept as they are written out, flat: [doc, field, tf, doc, field, tf…] per stem,
    # [doc, tf…] per pair, [doc…] per exact key. Entries are read in order, and each entry's fields
    # in order, so a posting is either the last one of its list or a new one at its end: the lists
    # come out sorted, as the model wants them, without a dict of (doc, field) keys per stem (most
    # of the memory of a large corpus's index).
    postings: dict[str, list[int]] = {}
    pairs: dict[str, list[int]] = {}
    exact: dict[str, list[int]] = {}
    named_exact: dict[str, list[int]] = {}
    numbers: dict[str, list[int]] = defaultdict(list)
    vocab: dict[str, Counter] = defaultdict(Counter)
    word_docs: dict[str, list[int]] = {}  # word → [the last entry it was seen in, in how many entries (counted to 2)]
    headline_words: set[str] = set()
    printed_words: set[str] = set()  # the words of documents not read by OCR: each is a word
    lengths = []
    verbs = plural_verb_stems(forms)
    for n, entry in enumerate(entries):
        printed = f"{entry.game}/{entry.document}" not in scanned
        title = entry.title or ""
        context = "" if entry.title else "\n".join(a.title or "" for a in entry.ancestors[:2])
        text = entry.text
        parts = {0: [title], 1: named.get(entry.id, []), 2: [context], 3: [text], LEAD: [lead_of(text)]}
        own_lengths = []
        for field, texts_of_field in parts.items():
            length = 0
            for piece in texts_of_field:
                found = positions_of(piece)
                if field == LEAD:
                    found = found[:LEAD_WORDS]
                length += len(found)
                for word, stems in found:
                    if field != LEAD:  # the text's words, counted once
                        vocab[word][stems] += 1
                        seen = word_docs.get(word)
                        if seen is None:
                            word_docs[word] = [n, 1]
                        elif seen[0] != n:
                            seen[0], seen[1] = n, 2
                    if field in (0, 1):
                        headline_words.add(word)
                    elif printed:
                        printed_words.add(word)
                    for stem in (*stems, verbs[word]) if word in verbs and verbs[word] not in stems else stems:
                        posting = postings.get(stem)
                        if posting is None:
                            postings[stem] = [n, field, 1]
                        elif posting[-3] == n and posting[-2] == field:
                            posting[-1] += 1
                        else:
                            posting += (n, field, 1)
                if field in PAIR_FIELDS:
                    for (_, a), (_, b) in zip(found, found[1:], strict=False):
                        key = f"{a[0]} {b[0]}"
                        pair = pairs.get(key)
                        if pair is None:
                            pairs[key] = [n, 1]
                        elif pair[-2] == n:
                            pair[-1] += 1
                        else:
                            pair += (n, 1)
                if field in (0, 1) and found:
                    key = " ".join(stems[0] for _, stems in found)
                    table = exact if field == 0 else named_exact
                    same = table.get(key)
                    if same is None:
                        table[key] = [n]
                    elif same[-1] != n:
                        same.append(n)
            own_lengths.append(length)
        lengths.append(own_lengths)
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
    for synonym in synonyms:
        typed, meant = synonym[0], synonym[1]
        game = synonym[2] if len(synonym) > 2 else ""  # a game's terms.toml speaks of that game only
        keys = [[stems for _, stems in positions_of(e)] for e in typed]
        targets = sorted({s for e in meant for _, stems in positions_of(e) for s in stems[:1]})
        for e in [*typed, *meant]:
            for word, stems in positions_of(e):
                if word not in vocab:
                    vocab[word][stems] += 1
        for key in keys:
            if key:
                rules.append([[s[0] for s in key], targets, game])
    families: dict[str, set[str]] = defaultdict(set)
    for stem in postings:
        if stem.isalpha() and len(stem) >= 4:
            families[family_root(stem)].add(stem)
    vocabulary = {}
    for word, counts in sorted(vocab.items()):
        ordered = [stem for stems, _ in counts.most_common() for stem in stems]
        listed = list(dict.fromkeys(ordered))
        entry_stems: list[Any] = listed[:]
        lemma = forms.get(word)
        if word in verbs and verbs[word] not in listed:
            entry_stems.append(verbs[word])  # "attaquent" is "attaque": the same word, fully
        elif lemma and not NUMBER.match(word):
            lemma_stem = W.fold(_stem(lemma))
            if lemma_stem not in listed and lemma_stem in postings:
                entry_stems.append([lemma_stem, LEMMA_WEIGHT])
        for stem in listed[:1]:
            for kin in sorted(families.get(family_root(stem), set()) - set(listed)):
                entry_stems.append([kin, FAMILY_WEIGHT])
        vocabulary[word] = entry_stems
    # Typos are matched against the words of printed books, and of a scanned one those seen twice
    # or in a title or name: OCR debris is not a word.
    typo_words = sorted(w for w in vocab if w.isalpha() and len(w) >= 3
                        and (w in printed_words or w in word_docs and word_docs[w][1] >= 2 or w in headline_words
                             or w not in word_docs))
    averages = [sum(row[f] for row in lengths) / max(len(lengths), 1) for f in range(len(FIELDS))]
    index_of = {entry.id: n for n, entry in enumerate(entries)}
    # A sub-rule and its topic compete in the ranking (`SearchIndex.sub_rules_first`).
    parents = [index_of.get(entry.parent.id, -1) if entry.parent is not None else -1 for entry in entries]
    return {
        "version": MODEL_VERSION,
        "fields": list(FIELDS), "weights": list(FIELD_WEIGHTS), "b": list(FIELD_B),
        "averages": [round(a, 4) for a in averages],
        "docs": docs, "lengths": lengths, "texts": texts, "parents": parents,
        "terms": dict(sorted(postings.items())),
        "pairs": dict(sorted(pairs.items())),
        "exact": dict(sorted(exact.items())),
        "named": {key: kept for key, found in sorted(named_exact.items())
                  if (kept := sorted(set(found) - set(exact.get(key, ()))))},
        "numbers": dict(sorted(numbers.items())),
        "vocab": vocabulary,
        "typo_words": typo_words,
        "thesaurus": sorted(rules),
        "stop_words": sorted(W.FOLDED_STOP_WORDS), "talk_words": sorted(W.TALK_WORDS),
        "talk": W.TALK.pattern, "token": W.TOKEN.pattern, "elision": W.ELISION.pattern,
        "number_query": W.NUMBER_QUERY.pattern,
        "sound_rules": [list(rule) for rule in W.SOUND_RULES],
        "labels": dict(sorted((labels or {}).items())),
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
