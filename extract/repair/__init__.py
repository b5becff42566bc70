"""Repair: the words of a scanned book, read back as French before segmentation needs them.

Runs on the normalised lines of a document its manifest declares `ocr = true`, between normalise
and segment, so headings, ids and the search index all see the repaired spelling:

1. the manifest's declared corrections (strings too damaged for a lexicon: "EEREAN DE BATATESS");
2. each word that is neither French (`lexicon.py`) nor a word of the corpus's other books is
   compared with what the confusions of `confusions.toml` make of it (étre → être, I'initiative →
   l'initiative, quon → qu'on, alinitiative → a l'initiative); fewer rules, then the commoner word
   win, and a tie leaves it alone; a word in capitals regains accents its lexicon is sure of;
3. "a"/"à", "ou"/"où", "des"/"dès" by their neighbours (`context.py`).

Every change is a `Repair` (line, before, after, rule), reported as an `ocr-repair` anomaly; the
entries keep the text as printed (`printed_text` on blocks, `printed_title` on entries). Results
are cached by content hash (`repairs.sqlite` beside the lemma cache): an unchanged book does not
load the lexicon.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from extract.errors import InputError
from extract.model import Anomaly, Entry, Line
from extract.repair.context import decide
from extract.repair.lexicon import Lexicon, versions
from extract.repair.words import Candidate, Rules, Vocabulary, WordRepairer, nfc

__all__ = ["Correction", "Repair", "RepairOutcome", "corpus_words", "entry_texts", "frequent_words", "keep_printed",
           "measure_context", "oov", "oov_by_book", "own_names", "repair_lines", "vocabulary", "word_counts"]

# Part of the cache key: the code of this stage, so a change to it never reuses old results.
VERSION = hashlib.sha256(b"".join(path.read_bytes() for path in sorted(Path(__file__).parent.glob("*.py")))).hexdigest()
TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
PIECE = re.compile(r"[^\W\d_]+")
SENTENCE_END = (".", "!", "?", ":")
# A token of letters and digits together, not part of an elision ("1I'Orage") nor a compound.
MIXED = re.compile(r"(?<![\w'’-])[^\W_]*(?:[^\W\d_]\d|\d[^\W\d_])[^\W_]*(?![\w'’-])")
# Determiners and numbers before an ordinal: "la 1e manche", "le 1er tour" keep their digits.
ORDINAL_BEFORE = {"le", "la", "les", "du", "au", "aux", "des", "un", "une", "sa", "son", "ses", "leur", "leurs", "ce",
                  "cette", "chaque", "notre", "votre", "et", "ou", "à", "de", "en", "page", "p"}
COMMON_WORD = 10_000  # a token opening with a digit ("1e") is a misread word only when it makes one this common
MIN_CORPUS_COUNT = 2  # a word of the other books counts as the corpus's own from this many uses


@dataclass(frozen=True)
class Correction:
    """A repair the manifest declares: `before` on line `line` reads `after`."""

    line: int
    before: str
    after: str
    reason: str


@dataclass(frozen=True)
class Repair:
    line: int
    before: str
    after: str
    rule: str  # the confusion rules used, joined by "+", or "declared: <reason>"

    def anomaly(self) -> Anomaly:
        data = {"before": self.before, "after": self.after, "rule": self.rule}
        return Anomaly("ocr-repair", f"{self.before!r} read as {self.after!r} ({self.rule})", [self.line], data=data)


@dataclass
class RepairOutcome:
    lines: list[Line]
    repairs: list[Repair]

    @property
    def anomalies(self) -> list[Anomaly]:
        return [repair.anomaly() for repair in self.repairs]


def corpus_words(texts: Iterable[str]) -> set[str]:
    """The words (lower case) the given texts use at least MIN_CORPUS_COUNT times."""
    return frequent_words(word_counts(texts))


def word_counts(texts: Iterable[str]) -> Counter[str]:
    """How often the given texts use each word (lower case): a book's part of `corpus_words`."""
    return Counter(piece.lower() for text in texts for piece in PIECE.findall(text))


def frequent_words(counts: Counter[str]) -> set[str]:
    """The words of `counts` (several books' `word_counts` added up) used at least MIN_CORPUS_COUNT times."""
    return {word for word, n in counts.items() if n >= MIN_CORPUS_COUNT}


_LEXICONS: dict[Path | None, Lexicon] = {}


def vocabulary(corpus: set[str], cache_dir: Path | None = None, rules: Rules | None = None) -> Vocabulary:
    """The lexicon (loaded once per process), the corpus's words and the rules' kept words."""
    if cache_dir not in _LEXICONS:
        _LEXICONS[cache_dir] = Lexicon.load(cache_dir)
    rules = rules or Rules.load()
    return Vocabulary(_LEXICONS[cache_dir], corpus, set(rules.keep))


def repair_lines(lines: list[Line], corpus: set[str], corrections: Iterable[Correction] = (), cache_dir: Path | None = None,
                 manifest: str = "", rules: Rules | None = None) -> RepairOutcome:
    """The lines repaired, and each repair. `corpus`: the words of the corpus's other books
    (`corpus_words`). A declared correction whose text is not on its line is an InputError."""
    rules = rules or Rules.load()
    corrections = list(corrections)
    key = _key(lines, corpus, corrections, rules)
    cached = _cache_get(cache_dir, key)
    if cached is not None:
        texts, repairs = cached
        return RepairOutcome([replace(line, text=texts.get(line.no, line.text)) for line in lines], repairs)
    repairer = WordRepairer(vocabulary(corpus, cache_dir, rules), rules)
    apostrophe = "’" if sum(line.text.count("’") for line in lines) > sum(line.text.count("'") for line in lines) else "'"
    by_line: dict[int, list[Correction]] = {}
    for correction in corrections:
        by_line.setdefault(correction.line, []).append(correction)
    known_lines = {line.no for line in lines}
    for correction in corrections:
        if correction.line not in known_lines:
            raise InputError(manifest, f"correction on line {correction.line}: no such line in the document")
    out: list[Line] = []
    repairs: list[Repair] = []
    previous: Line | None = None
    for line in lines:
        text = line.text
        for correction in by_line.get(line.no, []):
            if correction.before not in text:
                raise InputError(manifest, f"correction on line {line.no}: {correction.before!r} is not on that line ({text!r})")
            text = text.replace(correction.before, correction.after, 1)
            repairs.append(Repair(line.no, correction.before, correction.after, f"declared: {correction.reason}"))
        if not _english(text, rules.english):
            text, found = _repair_digits(text, line.no, repairer)
            repairs += found
            text, found = _repair_words(text, line.no, previous, repairer, apostrophe)
            repairs += found
            text, found = _repair_context(text, line.no, previous, repairer)
            repairs += found
        out.append(replace(line, text=text) if text != line.text else line)
        previous = out[-1]
    _cache_put(cache_dir, key, {new.no: new.text for old, new in zip(lines, out, strict=True) if new.text != old.text}, repairs)
    return RepairOutcome(out, repairs)


def _sentence_start(before_text: str, previous: Line | None) -> bool:
    head = before_text.rstrip()
    if not head or head in ("-", "•", "*", "—", "–"):
        return previous is None or previous.text.rstrip().endswith(SENTENCE_END) or _heading(previous.text)
    return head.endswith(SENTENCE_END)


def _heading(text: str) -> bool:
    """A line in capitals (a heading): what follows it opens a sentence."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) > 2 and all(c.isupper() for c in letters)


def _opens(before_text: str, previous: Line | None) -> bool:
    """The word opens its line or a sentence (after . ! ?): a capital there says nothing of a
    name. Elsewhere a capitalised word may be a name ("Daniel", "Alex"), never split."""
    head = before_text.rstrip()
    return not head.strip(" -•*—–[]()«»\"") or head.endswith((".", "!", "?", "-", "|", "•", "–", "—"))


def _english(text: str, markers: set[str]) -> bool:
    return sum(piece.lower() in markers for piece in PIECE.findall(text)) >= 2


def _cased(original: str, candidate: str, sentence_start: bool) -> str:
    """`candidate` (lower case) written with the case of `original`."""
    letters = [c for c in original if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return candidate.upper()
    if original[:1].isupper() or sentence_start:
        return candidate[:1].upper() + candidate[1:]
    return candidate


def _restore(original: str, candidate: Candidate, sentence_start: bool, misread: str) -> str:
    text = candidate.text
    if candidate.rules and candidate.rules[0] == misread and text.startswith("l'"):
        skip = 2 if original[:2] == "PP" else 1
        rest = _cased(original[skip:], text[2:], False)
        letters = [c for c in original if c.isalpha()]
        upper = len(letters) > 2 and all(c.isupper() for c in letters)
        return ("L'" if upper or sentence_start else "l'") + rest
    return _cased(original, text, sentence_start)


def _repair_words(text: str, no: int, previous: Line | None, repairer: WordRepairer, apostrophe: str) -> tuple[str, list[Repair]]:
    misread, letters = repairer.rules.misread_l
    _, prefixes = repairer.rules.elision
    glue, short = repairer.rules.glue
    parts: list[str] = []
    repairs: list[Repair] = []
    cursor = 0
    for match in TOKEN.finditer(text):
        token = match.group()
        new = _repair_token(token, match.start(), match.end(), text, previous, repairer, misread, letters, prefixes, glue, short)
        if new is None:
            continue
        after, rule = new
        after = nfc(after).replace("'", apostrophe)
        if after == token:
            continue
        parts.append(text[cursor:match.start()])
        parts.append(after)
        cursor = match.end()
        repairs.append(Repair(no, token, after, rule))
    parts.append(text[cursor:])
    return "".join(parts), repairs


def _repair_digits(text: str, no: int, repairer: WordRepairer) -> tuple[str, list[Repair]]:
    """Letters the scanner read as digits (batai11es → batailles, ce1ui → celui, "retire 1e cube"
    → "retire le cube"), where every digit's letter makes one known word. A token ending in a
    digit is a label ("RND2", "D6"); one opening with digits is a number ("1er", "2d6") unless it
    makes a common word after a word that is no determiner ("la 1e manche", a line's "1e étape")."""
    digits = repairer.rules.digits
    changes: list[tuple[int, int, str, str]] = []
    for match in MIXED.finditer(text):
        token = match.group()
        letters = [c for c in token if c.isalpha()]
        upper = all(c.isupper() for c in letters) and len(letters) > 1
        if token[-1].isdigit() or not all(c in digits for c in token if c.isdigit()):
            continue
        if not upper and any(c.isupper() for c in token[1:]):
            continue  # "1gH": no word's case
        leading = token[0].isdigit()
        if leading:
            before = PIECE.findall(text[:match.start()])
            if not before or before[-1].lower() in ORDINAL_BEFORE or not re.match(r"(?<!\s)\s++[^\W\d_]", text[match.end():]):
                continue
        spellings: list[tuple[str, tuple[str, ...]]] = [("", ())]
        for c in token.lower():
            options = digits.get(c, [(c, "")]) if c.isdigit() else [(c, "")]
            spellings = [(s + letter, used + ((name,) if name else ())) for s, used in spellings for letter, name in options]
            if len(spellings) > 16:
                break
        found = sorted(((repairer.vocabulary.count(s), s, used) for s, used in spellings
                        if len(spellings) <= 16 and repairer.known(s)), reverse=True)
        if not found or len(found) > 1 and found[0][0] < 3 * max(found[1][0], 1):
            continue
        count, word, used = found[0]
        if leading and count < COMMON_WORD:
            continue
        new = word.upper() if upper else (word[:1].upper() + word[1:] if token[:1].isupper() else word)
        changes.append((match.start(), match.end(), new, "+".join(dict.fromkeys(used))))
    repairs = []
    for start, end, new, rule in reversed(changes):
        repairs.append(Repair(no, text[start:end], new, rule))
        text = text[:start] + new + text[end:]
    return text, list(reversed(repairs))


def _repair_token(token, start, end, text, previous, repairer: WordRepairer, misread, letters, prefixes, glue, short):
    if len(token) < 2 or any(c.isdigit() for c in text[max(0, start - 1):start] + text[end:end + 1]):
        return None
    if text[end:].strip() == "-" or text[end:end + 1] == "-" and not text[end + 1:end + 2].isalpha():
        return None  # the first half of a word hyphenated at the end of the line
    if not text[:start].strip() and previous is not None and previous.text.rstrip().endswith("-"):
        return None  # the second half of a hyphenated word
    if text[end:end + 1] in ("-", "‑") and not text[end + 1:end + 2].isalpha():
        return None  # "effec- | pour": hyphenated where columns were read side by side
    opening = _sentence_start(text[:start], previous)
    pieces = re.split(r"['’]", token)
    if len(pieces) == 1:
        low = token.lower()
        letters_only = [c for c in token if c.isalpha()]
        if all(c.isupper() for c in letters_only) and len(token) <= 3 and not repairer.known(low):
            return None  # capitals this short are noise or labels (RND, QE)
        if repairer.known(low):
            if token.isupper() and len(token) > 1:
                found = repairer.accent_in_capitals(low)
                if found:
                    return _cased(token, found.text, False), "+".join(found.rules)
            return None
        name_like = token[:1].isupper() and token[1:].islower() and not _opens(text[:start], previous)
        found = repairer.best(low, capital_first=token[:1].isupper(), splits=not name_like)
        if found is None:
            return None
        return _restore(token, found, opening, misread), "+".join(found.rules)
    if len(pieces) != 2:
        return None
    head, rest = pieces
    rules: list[str] = []
    new_head = head
    if head in letters and head not in ("PP",):
        new_head = "L" if rest.isupper() and len(rest) > 1 else ("L" if opening else "l")
        rules.append(misread)
    elif head.lower() not in prefixes:
        split = next(((head[:cut], head[cut:]) for cut in range(1, len(head))
                      if head[:cut].lower() in short and len(head[:cut]) > 1 and head[cut:].lower() in prefixes), None)
        if split is None:
            return None
        new_head = f"{split[0]} {split[1]}"
        rules.append(glue)
    new_rest = rest
    low = rest.lower()
    if len(rest) > 1 and not repairer.known(low):
        found = repairer.best(low, capital_first=False)
        if found is not None and not found.text.startswith("l'"):
            new_rest = _cased(rest, found.text, False)
            rules += found.rules
    elif len(rest) > 1 and rest.isupper():
        found = repairer.accent_in_capitals(low)
        if found:
            new_rest = _cased(rest, found.text, False)
            rules += found.rules
    if not rules:
        return None
    return f"{new_head}'{new_rest}", "+".join(rules)


def _neighbours(text: str, words: list[re.Match], i: int, prior: str | None) -> tuple[str | None, str | None, str | None, str | None]:
    before, before2, after, following = _around(text, words, i, prior)
    return before, before2, after, following


def _after2(text: str, words: list[re.Match], i: int) -> str | None:
    """The second word after words[i], when only spaces separate them."""
    if i + 2 < len(words) and not text[words[i].end():words[i + 1].start()].strip() \
            and not text[words[i + 1].end():words[i + 2].start()].strip():
        return words[i + 2].group().lower()
    return None


def _around(text: str, words: list[re.Match], i: int, prior: str | None) -> tuple[str | None, str | None, str | None, str | None]:
    """The word before (None across punctuation), the one before that, the word after (with its
    elided partner: "l'exception"; or a number) and the character following it."""
    match = words[i]

    def joined(k: int, default: str | None) -> str | None:
        if k < 0:
            return default
        gap = text[words[k].end():words[k + 1].start()]
        return words[k].group().lower() if gap in ("'", "’") or not gap.strip() else None

    before = joined(i - 1, prior)
    before2 = joined(i - 2, None) if before is not None and i >= 1 else None
    after = following = None
    nxt = words[i + 1] if i + 1 < len(words) else None
    if nxt is not None and not text[match.end():nxt.start()].strip():
        after = nxt.group().lower()
        following = text[nxt.end():nxt.end() + 1]
        if following in ("'", "’") and i + 2 < len(words):
            after = after + "'" + words[i + 2].group().lower()
    else:
        number = re.match(r"(?:(?<!\s)\s++)?(?<!\d)(\d++)(\S?)", text[match.end():])
        if number:
            after, following = number.group(1), number.group(2)
    return before, before2, after, following


def _prior(previous: Line | None) -> str | None:
    if previous is None or previous.text.rstrip().endswith(SENTENCE_END) or _heading(previous.text):
        return None
    tail = PIECE.findall(previous.text)
    return tail[-1].lower() if tail else None


def _repair_context(text: str, no: int, previous: Line | None, repairer: WordRepairer) -> tuple[str, list[Repair]]:
    words = list(PIECE.finditer(text))
    prior = _prior(previous)
    changes: list[tuple[int, int, str, str]] = []
    for i, match in enumerate(words):
        word = match.group()
        if word.lower() not in ("a", "ou", "des"):
            continue
        before, before2, after, following = _neighbours(text, words, i, prior)
        opening = _sentence_start(text[:match.start()], previous)
        decided = decide(word, before, before2, after, following, opening, repairer.known, _after2(text, words, i))
        if decided is None:
            continue
        accented, rule = decided
        new = accented.upper() if word.isupper() else accented
        changes.append((match.start(), match.end(), new, rule))
    repairs = []
    for start, end, new, rule in reversed(changes):
        repairs.append(Repair(no, text[start:end], new, rule))
        text = text[:start] + new + text[end:]
    return text, list(reversed(repairs))


def measure_context(texts: list[str], known: Callable[[str], bool]) -> dict[str, int]:
    """The context rules on text whose accents are right: every "à", "où", "dès" written without
    its accent, then decided again. `restored`: accents put back; `wrong`: an accent put on a
    word that had none; `left`: accents not put back (the rules did not know); `plain`: words
    that had none."""
    accented = {"à": "a", "où": "ou", "dès": "des", "À": "A"}
    tally = {"restored": 0, "wrong": 0, "left": 0, "plain": 0}
    previous: Line | None = None
    for no, original in enumerate(texts, 1):
        text = PIECE.sub(lambda m: accented.get(m.group(), m.group()), original)
        truth = PIECE.findall(original)
        words = list(PIECE.finditer(text))
        prior = _prior(previous)
        for i, match in enumerate(words):
            word = match.group()
            if word.lower() not in ("a", "ou", "des"):
                continue
            before, before2, after, following = _neighbours(text, words, i, prior)
            decided = decide(word, before, before2, after, following, _sentence_start(text[:match.start()], previous), known,
                             _after2(text, words, i))
            was_accented = truth[i] in accented
            if decided and was_accented:
                tally["restored"] += 1
            elif decided:
                tally["wrong"] += 1
            elif was_accented:
                tally["left"] += 1
            else:
                tally["plain"] += 1
        previous = Line(no, text)
    return tally


def _key(lines: list[Line], corpus: set[str], corrections: list[Correction], rules: Rules) -> str:
    digest = hashlib.sha256()
    digest.update(f"{VERSION}\n{versions()}\n{rules.text}\n".encode())
    digest.update("\n".join(sorted(corpus)).encode())
    digest.update(repr(corrections).encode())
    for line in lines:
        digest.update(f"\n{line.no}\t{line.text}".encode())
    return digest.hexdigest()


def _connect(cache_dir: Path) -> sqlite3.Connection:
    cache_dir.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(cache_dir / "repairs.sqlite")
    db.execute("create table if not exists repairs (key text primary key, data text not null)")
    return db


def _cache_get(cache_dir: Path | None, key: str) -> tuple[dict[int, str], list[Repair]] | None:
    if cache_dir is None:
        return None
    with _connect(cache_dir) as db:
        row = db.execute("select data from repairs where key = ?", (key,)).fetchone()
    if row is None:
        return None
    data = json.loads(row[0])
    return {int(no): text for no, text in data["lines"].items()}, [Repair(**item) for item in data["repairs"]]


def _cache_put(cache_dir: Path | None, key: str, texts: dict[int, str], repairs: list[Repair]) -> None:
    if cache_dir is None:
        return
    data = {"lines": {str(no): text for no, text in texts.items()},
            "repairs": [{"line": r.line, "before": r.before, "after": r.after, "rule": r.rule} for r in repairs]}
    with _connect(cache_dir) as db:
        db.execute("insert or replace into repairs values (?, ?)", (key, json.dumps(data, ensure_ascii=False)))


def keep_printed(entries: Iterable[Entry], repairs: list[Repair]) -> None:
    """Give each block and title made from repaired lines the text as printed."""
    by_line: dict[int, list[Repair]] = {}
    for repair in repairs:
        by_line.setdefault(repair.line, []).append(repair)
    if not by_line:
        return
    for entry in entries:
        if entry.title:
            found = [r for n in entry.heading_lines for r in by_line.get(n, [])]
            if found:
                entry.printed_title = _unrepair(entry.title, found)
        for block in entry.blocks:
            found = [r for n in sorted(set(block.lines)) for r in by_line.get(n, [])]
            if found:
                printed = _unrepair(block.text, found)
                if printed != block.text:
                    block.printed_text = printed


def _unrepair(text: str, repairs: list[Repair]) -> str:
    """`text` with each repair undone, in order (a repair the text no longer shows is skipped)."""
    cursor = 0
    for repair in repairs:
        at = text.find(repair.after, cursor)
        if at < 0:
            at = text.find(repair.after)
        if at < 0:
            continue
        text = text[:at] + repair.before + text[at + len(repair.after):]
        cursor = at + len(repair.before)
    return text


def oov(texts: Iterable[str], known: Callable[[str], bool]) -> tuple[int, int, Counter[str]]:
    """Words, words not known (lower case), and the unknown ones counted. Elided stems (the "jusqu"
    of "jusqu'à", the "d" of "d'une") are not words of their own and are left out."""
    total = 0
    unknown: Counter[str] = Counter()
    for text in texts:
        for match in PIECE.finditer(text):
            if text[match.end():match.end() + 1] in ("'", "’"):
                continue
            total += 1
            word = match.group().lower()
            if not known(word):
                unknown[word] += 1
    return total, sum(unknown.values()), unknown


def own_names(texts: Iterable[str]) -> set[str]:
    """Names of the game a book uses: written with a capital every time, at least twice (Sigmar,
    Hashut, Citadel). Words of the book, not errors, for the out-of-vocabulary count."""
    seen: Counter[str] = Counter()
    lower: set[str] = set()
    for text in texts:
        for piece in PIECE.findall(text):
            if piece[:1].isupper() and piece[1:].islower():
                seen[piece.lower()] += 1
            elif piece.islower():
                lower.add(piece)
    return {word for word, n in seen.items() if n >= 2 and word not in lower}


def entry_texts(entries: Iterable[dict], printed: bool = False) -> list[str]:
    """Titles and block texts of entries as written in `build/data/<game>.json`; `printed`: as
    scanned, before the OCR repair (`printed_title`, `printed_text`)."""
    texts = []
    for entry in entries:
        texts.append((entry.get("printed_title") if printed else None) or entry.get("title") or "")
        texts += [(block.get("printed_text") if printed else None) or block["text"] for block in entry["blocks"]]
    return texts


def oov_by_book(games: dict[str, list[dict]], cache_dir: Path | None = None) -> dict[str, tuple[float, float]]:
    """Per game (its entries as in `build/data`): the share of its words neither French, nor used
    twice by the other games, nor a name the book itself uses (`own_names`), as scanned and as
    repaired. Elided stems ("jusqu", "d") are not counted."""
    rules = Rules.load()
    rates = {}
    for game, entries in sorted(games.items()):
        others = [text for other, found in games.items() if other != game for text in entry_texts(found)]
        repairer = WordRepairer(vocabulary(corpus_words(others), cache_dir, rules), rules)
        pair = []
        for printed in (True, False):
            texts = entry_texts(entries, printed)
            names = own_names(texts)
            total, unknown, _ = oov(texts, lambda word, names=names, known=repairer.known: word in names or known(word))
            pair.append(unknown / max(total, 1))
        rates[game] = (pair[0], pair[1])
    return rates
