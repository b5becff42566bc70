"""The words of a query as the search reads them, written so that the site's search box
(`site/assets/regles-search.js`) can do exactly the same: every rule here is a regular expression
or a word list shipped in the model (`build/search/model.json`), no stemmer and no tagger.

Text is folded (lowercase, accents off, œ → oe, curly apostrophes straight), table talk removed
("qu'est-ce qui se passe si", "est-ce qu'on peut"), split into words, elisions split ("l'unité" →
"unite"), and stop words and question words dropped. Index-side stems come from Snowball (see
`model.py`); a query word reaches them through the corpus's own word forms, so the box needs no
stemmer of its own.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Whoosh's French list lacks "les", "aux", "cette"…; kept from the first index. "Être" is a word a
# player searches ("être engagé", "être placé"): not a stop word.
STOP_WORDS = frozenset("""
a à ai aie ait as au aux avec c ça ce ceci cela celle celles celui ces cet cette ceux d dans de des du
elle elles en es est et été eu eux il ils j je l la le les leur leurs lui m ma mais me même mes
moi mon n ne nos notre nous on ont ou où par pas pour qu que quel quelle quelles quels qui s sa se
ses si son sont sur t ta te tes toi ton tu un une vos votre vous y
comment pourquoi quoi est-ce passe-t-il peut-on peut-il doit-on faut-il
durant
""".split())
# English function words: players type the English editions' terms ("line of sight", "how do
# free attacks work"); none of these is a French word a rule could be found by.
ENGLISH_STOP_WORDS = frozenset("""
the of and to is are was were be been how what when where who whom which why at in into with for from by an
it its this that these those can could do does did my your his her their our we they i he she them if or
than then there about after before during while any each every some all up down out over under
""".split())
FOLDED_STOP_WORDS: frozenset[str] = frozenset()  # filled below, once fold() is defined

# Words of table talk: they ask, they say nothing of the rule asked about. Folded.
TALK_WORDS = frozenset("""
combien quand lequel laquelle lesquels lesquelles quels quelles quel quelle
peut peuvent peux pouvez pourrait puis dois doit doivent faut possible
fonctionne fonctionnent marchent sert servent
oui non alors donc bien vraiment exactement svp merci chose truc moment
ca cela ceci celui celle mon ton notre votre leur
faire fait fais font faites prendre prend prends prennent mettre met mets avoir avez aller va vais vont
devoir pouvoir falloir vouloir veut veux
deja suis
""".split())

# Phrases of table talk, on folded text. Each is a whole phrase (no letter right before or after).
TALK_PHRASES = (
    r"qu'?est[- ]ce qu'?il se passe", r"qu'?est[- ]ce qui se passe", r"qu'?est[- ]ce qui arrive",
    r"qu'?est[- ]ce qu'?on fait", r"qu'?est[- ]ce que", r"qu'?est[- ]ce qu'",
    r"que se passe[- ]t[- ]il", r"il se passe", r"se passe[- ]t[- ]il", r"ca se passe comment",
    r"est[- ]ce que", r"est[- ]ce qu'", r"est[- ]il possible de", r"est[- ]ce possible de",
    r"a[- ]t[- ]on le droit de", r"ai[- ]je le droit de", r"j'ai le droit de", r"on a le droit de",
    r"a le droit de", r"le droit de", r"on fait quoi", r"on fait comment", r"comment on fait",
    r"comment (?:ca|cela) (?:marche|fonctionne)", r"comment fonctionnent?", r"comment marchent?",
    r"a quoi serv(?:en)?t", r"a quoi ca sert", r"on peut", r"peut[- ]on", r"je peux", r"puis[- ]je",
    r"dois[- ]je", r"doit[- ]on", r"faut[- ]il", r"il faut", r"y a[- ]t[- ]il", r"il y a",
    # spoken fillers whose words mean something else in a rule ("d'abord": aborder, "du coup": a blow)
    r"d'abord", r"du coup", r"en fait", r"en gros", r"au juste", r"quand meme", r"par exemple", r"au final",
    r"en train de",
    # "si personne n'a été éliminé": the pronoun of a negation, not a person
    r"personne(?= n'| ne )",
    # semi-auxiliaries and locutions of speech: "au bout de trois tours" asks after how many, "il vient
    # de charger" that he just did, "je suis obligé de" that he must; no word of them names a rule
    r"au bout d(?:e|u|es|(?='))", r"(?:viens|vient|viennent|venir|venons|venez) d(?:e|(?='))",
    r"obligee?s? d(?:e|(?='))", r"en plein", r"nulle part", r"quelque part", r"du tout",
)
TALK = re.compile(r"(?<![a-z0-9])(?:" + "|".join(TALK_PHRASES) + r")(?![a-z0-9])")
TOKEN = re.compile(r"\d+(?:\.\d+)+[a-z]?|[a-z0-9]+(?:'[a-z0-9]+)*")
ELISION = re.compile(r"^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)'(?=[a-z0-9])")
# A rule number asked for, alone or after the word that names it: "86.11", "règle 84.9", "§14.2", "8:5".
NUMBER_QUERY = re.compile(r"^\s*(?:(?:regle|section|paragraphe|article|point|rule)\s*|§\s*)?"
                          r"(\d{1,3}(?:[.:]\d{1,3})*[a-z]?)\s*[?.!]?\s*$")
# A question about what changed ("ce qui a changé pour la ligne de vue", "errata du moral"): the
# cue is not a word of the rule asked about; the search then favours the entries errata changed
# and the errata themselves, deleted rules included. On folded text, whole phrases.
CHANGE_PHRASES = (
    r"(?:a|ont|aurait|auraient)(?:-t)?(?:-(?:il|elle|ils|elles|on))? (?:ete )?"
    r"(?:change|modifie|corrige|supprime|ajoute|remplace|retire)e?s?",
    # asked with the subject after the verb or in the passive: "a-t-elle été supprimée", "est-elle supprimée"
    r"(?:est|sont)(?:-(?:il|elle|ils|elles))? (?:bien )?supprimee?s?",
    r"(?:a|ont) evolue", r"changements?", r"modifications?", r"corrections?", r"correctifs?", r"errata", r"erratum",
    r"mises? a jour", r"mis a jour", r"nouvelle version", r"ancienne version", r"version precedente",
    r"rules (?:change|update)s?", r"changelog",
    # asking whether a rule still holds: "c'est toujours la règle ?", "encore valable", "en vigueur"
    r"(?:toujours|encore) (?:la regle|valables?|vrai|d'actualite|en vigueur|le cas)", r"plus (?:valables?|d'actualite|en vigueur)",
    r"obsoletes?", r"perimee?s?",
)
# A question's frame says what kind of answer it wants, beyond its words: "combien de cartes
# Arcane on peut garder" asks for a number, and the rule that answers states one ("ne peut jamais
# conserver plus de … + 1"), where a rule merely mentioning the cards may not. Each frame: its name,
# what asks it (on folded query text: the frame's words are table talk, dropped from the query's
# words), what an answer of that kind prints (on an entry's text, at build: `model.frame_entries`),
# and how much more such an entry weighs. The search box reads the same from the model.
ANSWER_FRAMES = (
    ("quantity", r"(?<![a-z0-9'])(?:combien|nombre de)(?![a-z0-9])",
     r"\b(?:\d+|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|vingt|cent|maximum|minimum|limite|moitié"
     r"|au plus|au moins|jusqu['’]à|nombre)\b", 1.1),
    # "dans quel ordre", "qui commence", "laquelle agit d'abord": the rule that orders who acts
    # (not "avant", "après", "puis": every sequence of a rule says them)
    ("order", r"(?<![a-z0-9'])(?:dans quel ordre|qui commence|qui joue en premier|en premier|d'abord|avant qui)(?![a-z0-9])",
     r"\b(?:premier|première|premiers|premières|d['’]abord|ensuite|ordre|initiative|alternativement|tour de rôle"
     r"|tour à tour)\b", 1.1),
    # "où pose-t-on les cartes", "je les pose où": the rule that says where (not a relative "où")
    ("place", r"(?<![a-z0-9'])(?:ou (?:est-ce qu'on |est-ce que je |on |je )?(?:pose|place|met|mettre|poser|placer|deploie"
     r"|deployer)|(?:pose|place|met|mets|deploie)(?:nt|s)? ou)(?![a-z0-9])",
     r"\b(?:à côté|près|le long|zone|bord|emplacement|au-dessus|sous|dessous|derrière|devant|à gauche|à droite"
     r"|au centre|au milieu)\b", 1.1),
    # "quand est-ce qu'une figurine est retirée", "à partir de quand", "à quel moment": the rule
    # that says when (a question opening on "quand", not a "quand" inside it)
    ("time", r"(?:^|(?<=[?.!,;] ))quand(?![a-z0-9])|(?<![a-z0-9'])(?:a quel moment|jusqu'a quand|a partir de quand)(?![a-z0-9])",
     r"\b(?:au début|à la fin|pendant|lors|phase|étape|immédiatement|dès|jusqu['’]à ce|tant que|chaque tour"
     r"|chaque round|avant|après)\b", 1.1),
)
CHANGE = re.compile(r"(?<![a-z0-9'])(?:" + "|".join(CHANGE_PHRASES) + r")(?![a-z0-9])")
COMBINING = re.compile(r"[\u0300-\u036f]")
# Folding as the box does it: what String.prototype.normalize("NFKD") and this range give.
LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "’": "'", "‘": "'", "`": "'", "ʼ": "'"})


# "Dé", "dés" (dice) fold into the stop words "de", "des": they keep a spelling of their own ("dee",
# "dees"), so a die is a word to the search while the article stays a stop word. The box does the same.
DICE = re.compile(r"(?<!\w)dé(s?)(?!\w)")


@lru_cache(maxsize=100000)
def fold(text: str) -> str:
    lowered = DICE.sub(r"dee\1", unicodedata.normalize("NFC", text.lower()))
    return COMBINING.sub("", unicodedata.normalize("NFKD", lowered.translate(LIGATURES)))


FOLDED_STOP_WORDS = frozenset(fold(word) for word in STOP_WORDS | ENGLISH_STOP_WORDS)


# A pronominal verb is not its verb: "se tirer" (leave) is not "tirer" (shoot), "se retirer" not
# "retirer". A word after a reflexive pronoun is marked by REFLEXIVE put before it, which only the
# thesaurus reads (its expressions "se …", "s'…" match only such a word); "me", "te" are reflexive
# unless a third person is the subject ("il me tire dessus").
REFLEXIVE = "~"
# Where table talk was taken out between two words, BREAK stands (with `reflexive`): an expression
# of the thesaurus never spans it. The talk phrases leave BREAK_TOKEN, a word no one types.
BREAK = "|"
BREAK_TOKEN = "qqbreakqq"
MARKERS = frozenset((REFLEXIVE, BREAK))  # the marks among a query's words, none a word
REFLEXIVE_PRONOUNS = frozenset(("se", "me", "te"))
OTHER_SUBJECTS = frozenset(("il", "elle", "on", "ils", "elles", "qui", "ca", "cela", "personne"))
REFLEXIVE_ELISION = re.compile(r"^[smt]'(?=[a-z0-9])")
# "se faire" + a verb is its passive ("je me fais tirer dessus": I am shot at), the pronoun is
# faire's: the verb after a form of faire is not marked.
CAUSATIVE = frozenset("faire fais fait faits faite faites font faisait faisaient faisant ferai fera feront ferait".split())


PRONOMINAL = re.compile(r"^\s*(?:se\s|s')")


def pronominal(expression: str) -> bool:
    """An expression of the thesaurus that is a pronominal verb: "se tirer", "s'enfuir"."""
    return PRONOMINAL.match(fold(expression)) is not None


def words_of(text: str, talk: bool = True, reflexive: bool = False) -> list[str]:
    """The folded words of `text` that can carry meaning, in order; `reflexive`: a word after a
    reflexive pronoun comes after REFLEXIVE, and BREAK stands between two words where table talk
    was taken out ("tirer alors qu'elle est au contact": no "tirer au contact" of the thesaurus)."""
    folded = fold(text)
    if talk:
        folded = TALK.sub(f" {BREAK_TOKEN} ", folded)
    found = []
    marked = False
    broken = False
    previous = ""
    for token in TOKEN.findall(folded):
        pronoun = token if token in REFLEXIVE_PRONOUNS else token[0] if REFLEXIVE_ELISION.match(token) else ""
        if pronoun and (pronoun == "s" or pronoun == "se" or previous not in OTHER_SUBJECTS):
            marked = True
        previous = token
        if token in CAUSATIVE:
            marked = False
        word = ELISION.sub("", token)
        if word in FOLDED_STOP_WORDS:
            continue
        if word == BREAK_TOKEN or (talk and word in TALK_WORDS):
            broken = True
            continue
        if broken and found and reflexive:
            found.append(BREAK)
        broken = False
        if marked and reflexive:
            found.append(REFLEXIVE)
        marked = False
        found.append(word)
    return found


# Other forms of an English word, tried in order when a query word is none of the books' words:
# the English editions' names are in the model ("Flying", "Line of Sight"), a player types "fly",
# "flies". (ending, replacement) pairs: a word ending so, with two letters or more left. No
# plural's s: French as much as English, and one edit, which the typo guesses make anyway; no
# irregular forms ("flew") nor doubled consonants ("running").
ENGLISH_BASES = (("ing", ""), ("ing", "e"), ("ies", "y"), ("ied", "y"), ("ed", ""), ("ed", "e"))
ENGLISH_ENDINGS = (("", "ing"), ("", "ed"), ("e", "ing"), ("y", "ies"), ("y", "ied"))


# A French word none of the books' forms nor the thesaurus's: the forms it may be an inflection
# of, tried in order; the first the model knows is the word ("tape" → "taper", "volent" →
# "voler", "planquée" → "planquer", "tiennent" → "tenir", "remets" → "remettre", "bagarres" →
# "bagarre"). Folded (ending, replacement) pairs, as ENGLISH_BASES: the plural first (a noun's
# plural in -ons, "jetons", is its noun, not a verb's "jeter"), then the verbs' endings, the
# longest first, then the feminine.
FRENCH_BASES = (
    ("s", ""), ("x", ""), ("aux", "al"),
    ("issent", "ir"), ("issant", "ir"), ("issons", "ir"), ("issez", "ir"),
    ("iennent", "enir"), ("ient", "enir"), ("iens", "enir"),
    ("oient", "oir"), ("oient", "oyer"), ("ois", "oir"), ("oit", "oir"), ("oie", "oyer"), ("oies", "oyer"),
    ("ettent", "ettre"), ("ets", "ettre"), ("et", "ettre"),
    ("eront", "er"), ("erons", "er"), ("erez", "er"), ("erai", "er"), ("eras", "er"), ("era", "er"),
    ("aient", "er"), ("ais", "er"), ("ait", "er"),
    ("ent", "er"), ("ent", "re"), ("ent", "e"), ("ons", "er"), ("ez", "er"), ("ant", "er"), ("ant", "re"),
    ("ees", "er"), ("ee", "er"), ("es", "er"), ("e", "er"),
    ("it", "ir"), ("is", "ir"), ("ds", "dre"), ("d", "dre"),
    ("euses", "eux"), ("euse", "eux"), ("ives", "if"), ("ive", "if"),
    ("ees", "ee"), ("ee", "e"), ("es", "e"), ("e", ""),
)


FRENCH_LEAST = 1  # letters left before the ending: "tiennent" is "t" + "iennent" (tenir)


def french_bases(word: str) -> list[str]:
    """The forms a French word may be an inflection of, in FRENCH_BASES's order."""
    return _replaced(word, FRENCH_BASES, FRENCH_LEAST)


def _replaced(word: str, rules: tuple[tuple[str, str], ...], least: int = 2) -> list[str]:
    return [word[:len(word) - len(ending)] + replacement for ending, replacement in rules
            if word.endswith(ending) and len(word) - len(ending) >= least]


def english_forms(word: str) -> list[str]:
    """`word`'s other English forms, in order: its bases ("flies" → "fly", "moving" → "move"),
    then the inflections of the word and of its bases ("fly" → "flying")."""
    bases = [word] + _replaced(word, ENGLISH_BASES)
    forms: list[str] = []
    for form in bases[1:] + [f for base in bases for f in _replaced(base, ENGLISH_ENDINGS)]:
        if form != word and form not in forms:
            forms.append(form)
    return forms


def change_asked(text: str) -> tuple[bool, str]:
    """Whether `text` asks what changed, and the text folded without the words that ask it."""
    folded = fold(text)
    bare = CHANGE.sub(" ", folded)
    return bare != folded, bare


def number_asked(text: str) -> str | None:
    match = NUMBER_QUERY.match(fold(text))
    return match.group(1) if match else None


# A French sound key: two spellings that sound alike get the same key ("menasse", "menace";
# "atake", "attaque"; "retrete", "retraite"). Applied in order, on a folded word.
SOUND_RULES = (
    ("ph", "f"), ("sch", "x"), ("ch", "x"), ("qu", "k"), ("ck", "k"), ("c(?=[eiy])", "s"), ("c", "k"),
    ("gu(?=[eiy])", "g"), ("g(?=[eiy])", "j"), ("eau", "o"), ("au", "o"), ("ai", "e"), ("ei", "e"),
    ("y", "i"), ("h", ""), ("z", "s"), ("w", "v"), (r"(.)\1+", r"\1"), ("(?:es|s|x|t|d|e)$", ""),
)
_SOUND = [(re.compile(pattern), replacement) for pattern, replacement in SOUND_RULES]


@lru_cache(maxsize=100000)
def sound(word: str) -> str:
    for pattern, replacement in _SOUND:
        word = pattern.sub(replacement, word)
    return word


def distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (an edit is an insertion, a deletion, a substitution or
    two neighbours swapped), or `limit + 1` as soon as it must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        best = i
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[len(b)]
