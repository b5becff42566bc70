"""One word at a time: is it French, and if not, which French word did the scanner misread?

The confusions are data (`confusions.toml`); a candidate must be a word of the lexicon or of the
corpus. Fewer rules win, then the commoner word; two candidates as likely as each other leave the
word as printed.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from extract.repair.lexicon import Lexicon

RULES_FILE = Path(__file__).with_name("confusions.toml")
APOSTROPHES = "'’"
VOWELS = set("aàâäeéèêëiîïoôöuùûüyœæh")
MAX_RULES = 2
AMBIGUOUS = 3.0  # the best candidate must be this many times commoner than the next, same cost
COMMONER = 20  # a word whose accented spelling is this many times commoner looks damaged
MIN_COUNT = 100  # … and that spelling is a common word


@dataclass
class Rules:
    substitutions: list[tuple[str, str, str]]  # (rule name, from, to)
    only: dict[str, set[str]]  # rule name -> the only words it may make (when the file says so)
    misread_l: tuple[str, list[str]]
    elision: tuple[str, list[str]]
    glue: tuple[str, set[str]]
    keep: dict[str, str]
    english: set[str] = field(default_factory=set)
    digits: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # digit -> [(letter, rule name)]
    text: str = ""  # the file as read: part of the cache key

    @classmethod
    def load(cls, path: Path = RULES_FILE) -> Rules:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        subs = [(rule["name"], a, b) for rule in data["substitution"] for a, b in rule["pairs"]]
        digits: dict[str, list[tuple[str, str]]] = {}
        for rule in data.get("digit", []):
            for digit, letter in rule["pairs"]:
                digits.setdefault(digit, []).append((letter, rule["name"]))
        return cls(
            substitutions=subs,
            only={rule["name"]: set(rule["only"]) for rule in data["substitution"] if "only" in rule},
            misread_l=(data["misread_l"]["name"], list(data["misread_l"]["letters"])),
            elision=(data["elision"]["name"], list(data["elision"]["prefixes"])),
            glue=(data["glue"]["name"], set(data["glue"]["short_words"])),
            keep={item["word"]: item["reason"] for item in data["keep"]["words"]},
            english=set(data["english"]["markers"]),
            digits=digits,
            text=text,
        )


@dataclass
class Vocabulary:
    """The lexicon, the words of the corpus's other books, and the words the rules keep."""

    lexicon: Lexicon
    corpus: set[str] = field(default_factory=set)
    keep: set[str] = field(default_factory=set)

    def knows(self, word: str) -> bool:
        return word in self.lexicon or word in self.corpus or word in self.keep

    def count(self, word: str) -> int:
        return self.lexicon.count(word)


@dataclass(frozen=True)
class Candidate:
    text: str  # lower case, apostrophes straight
    rules: tuple[str, ...]
    count: int


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def variants(word: str, rules: Rules, budget: int = MAX_RULES) -> dict[str, tuple[str, ...]]:
    """Every spelling `budget` substitutions or fewer make of `word` (with the rules used)."""
    found: dict[str, tuple[str, ...]] = {word: ()}
    frontier = {word: ()}
    for _ in range(budget):
        following: dict[str, tuple[str, ...]] = {}
        for spelling, used in frontier.items():
            for name, old, new in rules.substitutions:
                start = spelling.find(old)
                while start != -1:
                    changed = spelling[:start] + new + spelling[start + len(old):]
                    if changed not in found and changed not in following:
                        following[changed] = used + (name,)
                    start = spelling.find(old, start + 1)
        found.update(following)
        frontier = following
    return found


class WordRepairer:
    def __init__(self, vocabulary: Vocabulary, rules: Rules) -> None:
        self.vocabulary = vocabulary
        self.rules = rules
        self.memo: dict[tuple[str, bool, bool], Candidate | None] = {}
        self.damaged: dict[str, bool] = {}
        self._accents: dict[str, list[tuple[str, str]]] | None = None

    def known(self, word: str) -> bool:
        """A word of the lexicon or the corpus, unless it looks damaged: the same letters with
        accents make a word far commoner (dégats, with dégâts 5,819 times commoner; the frequency
        list and the other books hold such misspellings too)."""
        if not self.vocabulary.knows(word):
            return False
        if word in self.vocabulary.keep:
            return True
        damaged = self.damaged.get(word)
        if damaged is None:
            damaged = self.damaged[word] = self.accent_in_capitals(word) is not None
        return not damaged

    def spelled(self, word: str, budget: int) -> list[Candidate]:
        """Known spellings of `word` (lower case, no apostrophe) within `budget` substitutions."""
        if budget <= 0:
            return [Candidate(word, (), self.vocabulary.count(word))] if self.known(word) else []
        return [Candidate(text, used, self.vocabulary.count(text))
                for text, used in variants(word, self.rules, budget).items()
                if self.allowed(text, used) and self.known(text)]

    def allowed(self, text: str, used: tuple[str, ...]) -> bool:
        return all(text in self.rules.only[rule] for rule in used if rule in self.rules.only)

    def candidates(self, word: str, capital_first: bool, splits: bool = True) -> list[Candidate]:
        """What `word` (lower case, one token without apostrophe) may have been. `splits`: may
        it be several words or have lost an apostrophe (not for a name: "Daniel", "Alex")."""
        found = [c for c in self.spelled(word, MAX_RULES) if c.rules]
        l_name, letters = self.rules.misread_l
        if capital_first:  # P'/I' misread for l' lose their apostrophe too: Paptitude, PPauteur
            for letter in sorted(letters, key=len, reverse=True):
                low = letter.lower()
                rest = word[len(low):]
                if word.startswith(low) and rest[:1] in VOWELS and len(rest) > 2:
                    found += [Candidate("l'" + c.text, (l_name,) + c.rules, c.count) for c in self.spelled(rest, MAX_RULES - 1)]
                    break
        whole = found
        found = list(found)
        e_name, prefixes = self.rules.elision
        for prefix in prefixes:
            rest = word[len(prefix):]
            if word.startswith(prefix) and rest[:1] in VOWELS and len(rest) > 1:
                found += [Candidate(prefix + "'" + c.text, (e_name,) + c.rules, c.count) for c in self.spelled(rest, MAX_RULES - 1)]
        found += self.glued(word)
        if not splits:  # a name: split only into short words ("Cest" → "C'est", "Siun" → "Si un")
            short = self.rules.glue[1]
            return whole + [c for c in found if c not in whole and all(
                piece.split("'")[-1] in short for piece in c.text.split(" "))]
        return found

    def glued(self, word: str) -> list[Candidate]:
        """Two or three words written as one, all but one of them short words."""
        g_name, short = self.rules.glue
        e_name, prefixes = self.rules.elision
        found = []

        def pieces(rest: str, depth: int) -> list[tuple[list[str], tuple[str, ...]]]:
            results = []
            if self.known(rest) and len(rest) > 1 or rest in ("a", "y"):
                results.append(([rest], ()))
            for prefix in prefixes:  # the last piece may have lost its apostrophe: linitiative
                tail = rest[len(prefix):]
                if rest.startswith(prefix) and tail[:1] in VOWELS and len(tail) > 1 and self.known(tail):
                    results.append(([prefix + "'" + tail], (e_name,)))
            if depth > 0:
                for cut in range(1, len(rest)):
                    head = rest[:cut]
                    if head in short and (len(head) > 1 or head in ("a", "y")):
                        results += [([head] + more, used) for more, used in pieces(rest[cut:], depth - 1)]
            return results

        for parts, used in pieces(word, 2):
            if len(parts) < 2:
                continue
            content = [p for p in parts if p.split("'")[-1] not in short]
            if len(content) > 1:
                continue
            rules = (g_name,) * (len(parts) - 1) + used
            if len(rules) > MAX_RULES:
                continue
            text = " ".join(parts).replace("' ", "'")
            count = min(self.vocabulary.count(p.split("'")[-1]) for p in parts)
            found.append(Candidate(text, rules, count))
        return found

    def cost(self, candidate: Candidate) -> float:
        """Rules used; a split weighs more than a letter, so DESENGAGEMENT is DÉSENGAGEMENT, not
        DES ENGAGEMENT."""
        return sum(1.5 if rule == self.rules.glue[0] else 1 for rule in candidate.rules)

    def best(self, word: str, capital_first: bool = False, splits: bool = True) -> Candidate | None:
        """The repair of `word` (lower case), or None: a word, or nothing sure."""
        key = (word, capital_first, splits)
        if key in self.memo:
            return self.memo[key]
        result = None
        if not self.known(word):
            found = self.candidates(word, capital_first, splits)
            if found:
                least = min(self.cost(c) for c in found)
                top = sorted({c.text: c for c in found if self.cost(c) == least}.values(), key=lambda c: -c.count)
                if len(top) == 1 or top[0].count >= AMBIGUOUS * max(top[1].count, 1):
                    result = top[0]
        self.memo[key] = result
        return result

    def accent_in_capitals(self, word: str) -> Candidate | None:
        """The same letters with accents, when that word is far commoner than `word` as printed
        (ALLIES → ALLIÉS: capitals often drop accents; dégats → dégâts). Accent rules only."""
        own = self.vocabulary.count(word)
        best = None
        for text, used in self.accented(word).items():
            if text not in self.vocabulary.lexicon:
                continue
            count = self.vocabulary.count(text)
            if count >= COMMONER * max(own, 1) and count >= MIN_COUNT and (best is None or count > best.count):
                best = Candidate(text, used, count)
        return best

    def accented(self, word: str) -> dict[str, tuple[str, ...]]:
        """`word` with accents added on up to two of its letters (the substitution rules that add
        an accent to a bare letter), and the rules used."""
        if self._accents is None:
            self._accents = {}
            for name, old, new in self.rules.substitutions:
                if len(old) == 1 and len(new) == 1 and strip_accents(new) == old != new:
                    self._accents.setdefault(old, []).append((new, name))
        found: dict[str, tuple[str, ...]] = {}
        frontier = {word: ()}
        for _ in range(MAX_RULES):
            following = {}
            for spelling, used in frontier.items():
                for at, letter in enumerate(spelling):
                    for new, name in self._accents.get(letter, ()):
                        changed = spelling[:at] + new + spelling[at + 1:]
                        if changed not in found:
                            following[changed] = used + (name,)
            found.update(following)
            frontier = following
        return found


def adds_accents(printed: str, text: str) -> bool:
    """`text` is `printed` with accents on letters that had none (degats → dégâts; not dés → des)."""
    return len(printed) == len(text) and all(a == b or a == strip_accents(b) for a, b in zip(printed, text, strict=True))


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
