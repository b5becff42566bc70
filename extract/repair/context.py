"""Words the lexicon cannot decide alone: "a"/"à", "ou"/"où", "des"/"dès". The scanner drops
their accents, and both spellings are words, so only the words around them can tell.

A small rule set, measured on the books that were not scanned (their accents are right): strip
the accent of every "à", "où", "dès" there, run these rules, and count what they restore and what
they get wrong (`measure`, run by a test). Anything the rules do not recognise is left alone.
"""

from __future__ import annotations

from collections.abc import Callable

# After these "a" is the verb: "il a", "qui a", "n'a", "Joueur A a".
AVOIR_BEFORE = {"il", "elle", "on", "qui", "y", "en", "n", "ne", "cela", "ceci", "ça", "chacun", "chacune", "qu", "lui"}
# "a" before these is "à": nothing else reads ("a travers", "a laquelle", "a tour de rôle").
A_BEFORE = {
    "laquelle", "lequel", "lesquels", "lesquelles", "travers", "nouveau", "présent", "partir", "côté",
    "condition", "proximité", "tour", "celui", "celle", "ceux", "celles", "chaque", "cet", "cette", "mi", "peine",
    "gauche", "droite", "part", "quel", "quelle", "quels", "quelles", "eux", "lui", "leur", "leurs", "compter", "portée", "distance",
    "volonté", "raison", "l'exception", "l'intérieur", "l'extérieur", "l'aide", "l'inverse", "l'instar",
    "l'exclusion", "l'endroit", "l'arrière", "l'avant", "l'opposé",
}
# … and before these two words ("a la fin", "a longue portée"), whatever precedes but a subject.
A_BEFORE_PAIRS = {("la", "fin"), ("la", "place"), ("la", "fois"), ("la", "suite"), ("la", "verticale"), ("la", "phase"),
                  ("longue", "portée"), ("courte", "portée"), ("tour", "de")}
RELATIVES = {"laquelle", "lequel", "lesquels", "lesquelles", "travers"}  # "à" whatever precedes
DETERMINERS = {"la", "le", "les", "l", "un", "une", "ce", "ces", "sa", "son", "ses", "leur", "leurs"}
# Before a word in -é these make it a noun or an adjective ("chaque unité a", "plus élevée a"), not
# a participle ("activé à la phase").
NOUN_BEFORE = DETERMINERS | {"d", "du", "des", "au", "aux", "chaque", "cette", "cet", "plus", "moins", "très", "aucun",
                             "aucune", "quel", "quelle", "votre", "notre", "vos", "nos", "tout", "toute"}
OU_AFTER = {"moment", "là", "d", "jusqu", "endroit", "instant", "partout"}  # "le moment où", "là où", "d'où"
DES_BEFORE = {"que", "qu", "lors", "lorsque", "maintenant"}  # "dès que", "dès lors"

Known = Callable[[str], bool]


def infinitive(word: str, known: Known) -> bool:
    """An infinitive in -er/-ir: its participle is a word too (activer/activé, choisir/choisi);
    nouns in -er have none (premier, dernier)."""
    if word.endswith("er") and len(word) > 4:
        return known(word[:-2] + "é")
    if word.endswith("ir") and len(word) > 4:
        return known(word[:-1]) and word not in {"plaisir", "désir", "loisir", "avenir", "souvenir", "saphir"}
    return False


def decide(word: str, before: str | None, before2: str | None, after: str | None, following: str | None,
           sentence_start: bool, known: Known, after2: str | None = None) -> tuple[str, str] | None:
    """The accented spelling of `word` and the rule that says so, or None. `before`/`after`: the
    neighbouring words in lower case (an elided word keeps its apostrophe: "l'initiative"), `before2`
    the word before `before`;
    `following`: the characters right after `after` (a distance: 3"); `after2`: the word after `after`."""
    low = word.lower()
    if low == "a":
        if before == "jusqu":
            return "à", "a-after-jusqu"
        if word == "A" and sentence_start and after and after[:1].isalpha() and len(after) > 1:
            return "à", "a-opening-sentence"
        if before in AVOIR_BEFORE or (before is not None and len(before) == 1):  # "Joueur A a", "l'a"
            return None
        if after is None:
            return None
        if after in A_BEFORE or (after, after2) in A_BEFORE_PAIRS:
            if before2 in NOUN_BEFORE and after not in RELATIVES:  # "si l'Ent a la place": a subject before
                return None
            return "à", "a-before-complement"
        if infinitive(after, known):
            return "à", "a-before-infinitive"
        if after.isdigit() and following is not None and following.startswith(('"', "”", "″")):
            return "à", "a-before-distance"
        if (before and before.endswith(("é", "ée", "és", "ées")) and after.split("'")[0] in DETERMINERS and known(before)
                and before2 not in NOUN_BEFORE):
            return "à", "a-after-participle"
        return None
    if low == "ou":
        if before in OU_AFTER:
            return "où", "ou-after-place-or-time"
        return None
    if low == "des" and after in DES_BEFORE:
        return "dès", "des-before-que"
    return None
