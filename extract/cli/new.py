"""`regles new GAME FILE…`: a new game folder, `corpus/GAME/`, with its sources copied under
readable names and a `game.toml` that builds as it is: each source's sha256, one document per
file whose kind and profile are guessed from the file's own text (the reason written beside
them), version and date left to fill, and the options its profile accepts, commented out with
their meaning (from the profile's own declaration, `extract.options`). Never overwrites: an
existing game is refused, and nothing is written until every file has been read."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import shutil
from collections.abc import Sequence
from dataclasses import MISSING, dataclass
from pathlib import Path

from extract.cli.trial import reading_cache, reading_key
from extract.corpus.manifest import ID_PATTERN, RESERVED_DOCUMENT_IDS, RESERVED_GAME_IDS
from extract.errors import InputError, UsageError
from extract.options import declared, toml_value, type_name
from extract.read import Reading, read_document
from extract.segment import option_classes
from extract.segment.choose import choose_profile
from extract.text import fold, slugify

# Words of a document's file name or opening lines that tell its kind, most telling first
# (folded: lowercase, accents off). A FAQ profile says `faq` by itself; anything else is a rulebook.
KIND_CUES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("faq", ("faq", "errata", "erratum", "questions frequentes", "foire aux questions")),
    ("tournament-rules", ("tournoi", "tournament", "reglement de competition")),
    ("learn-to-play", ("apprentissage", "initiation", "decouverte", "premiere partie", "learn to play")),
    ("reference", ("reference", "compendium", "glossaire")),
    ("player-aid", ("aide de jeu", "aide-memoire", "aide memoire", "fiche de reference")),
    ("summary", ("resume", "en bref", "synthese")),
)
OPENING_LINES = 5  # lines of a document read for its kind and title
TITLE_MAX = 80  # characters: a longer first line is a sentence, not a title


@dataclass(frozen=True)
class NewDocument:
    id: str
    title: str
    title_reason: str
    kind: str
    kind_reason: str
    profile: str
    profile_reason: str
    file: str  # its name in corpus/GAME/
    sha256: str
    format: str
    pages: int | None
    lines: int  # the last line its reader numbered


def guess_kind(name: str, opening: Sequence[str], profile: str) -> tuple[str, str]:
    """(kind, why) from the file name and its opening lines, then from the profile."""
    for where, text in (("the file name", name), ("the opening lines", " ".join(opening))):
        words = f" {re.sub(r'[^a-z0-9]+', ' ', fold(text))} "
        for kind, cues in KIND_CUES:
            cue = next((c for c in cues if f" {re.sub(r'[^a-z0-9]+', ' ', c)} " in words), None)
            if cue:
                return kind, f"{where} says « {cue} »"
    if profile == "faq":
        return "faq", "read as questions and answers (profile faq)"
    if profile == "bullet-aid":
        return "player-aid", "headings over short lists (profile bullet-aid)"
    return "rulebook", "nothing names another kind (reference, learn-to-play, faq, …): change it if it is one"


def examine(path: Path, taken: set[str], game_id: str) -> tuple[NewDocument, Reading]:
    """One file read as the build would read it: its profile and kind guessed, its readable name
    and document id chosen apart from those `taken`; and its reading, named as in the corpus."""
    if not path.is_file():
        raise InputError(str(path), "no such file")
    base = slugify(path.stem)
    doc_id, n = base, 1
    while doc_id in taken or doc_id in RESERVED_DOCUMENT_IDS:
        n += 1
        doc_id = f"{base}-{n}"
    taken.add(doc_id)
    display = f"corpus/{game_id}/{doc_id}{path.suffix.lower()}"  # the name the build will give it
    try:
        reading = read_document(path, display)
    except InputError as error:  # said of the user's file: the copy in corpus/ is never made
        if error.file != display:
            raise
        raise InputError(str(path), error.message, error.line) from None
    profile, why = choose_profile(reading.lines, reading.evidence, reading.format)
    opening = [line.text.strip().strip("#*").strip() for line in reading.lines if line.text.strip()][:OPENING_LINES]
    kind, kind_why = guess_kind(path.stem, opening, profile)
    if opening and len(opening[0]) <= TITLE_MAX:
        title, title_why = opening[0], "the document's first line"
    else:
        title = path.stem.replace("_", " ")
        title_why = "the file's name (" + ("its first line is a sentence" if opening else "it has no text") + ")"
    data = path.read_bytes()
    last = max([line.no for line in reading.lines] + [item.lines[1] for item in reading.set_aside], default=0)
    return NewDocument(doc_id, title, title_why, kind, kind_why, profile, why, f"{doc_id}{path.suffix.lower()}",
                       hashlib.sha256(data).hexdigest(), reading.format, reading.pages, last), reading


def string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def sample(kind: str, default: object) -> str:
    """A value to write after `name =`: the default, else an empty one of the option's type."""
    if default not in (MISSING, None, (), {}):
        return toml_value(default)
    return "[]" if kind.startswith("array") else "{}" if kind.startswith("table") else "1" if kind == "integer" else '""'


def options_comment(profile: str) -> list[str]:
    """The options `profile` accepts, commented out, each with its type and meaning."""
    lines = [f"# Options of the profile {profile}: uncomment the table and the lines you need (the line",
             "# numbers are those `regles extract --manifest` shows).",
             "# [documents.options]"]
    for name, tp, help_, default in declared(option_classes()[profile]):
        kind = type_name(tp)
        lines += [f"# {name} = {sample(kind, default)}", f"#   {kind}: {help_}"]
    return lines


def manifest_text(game_id: str, title: str | None, documents: Sequence[NewDocument]) -> str:
    """The game.toml of a new game; `title` the one given (--title), else guessed from its id."""
    shown = f"title = {string(title)}" if title else \
        f"title = {string(game_id.replace('-', ' ').capitalize())}  # guessed: from the game's id (give --title)"
    out = [f"# {game_id}: written by `regles new`. Fill in version, date and official, check each",
           "# title, kind and profile (the reason for each guess is beside it), then `regles build`.",
           f"id = {string(game_id)}", shown, ""]
    for doc in documents:
        out += ["[[sources]]", f"file = {string(doc.file)}", f"sha256 = {string(doc.sha256)}"]
        if doc.format == "pdf" and doc.pages:
            out.append(f"# pages = [1, {doc.pages}]  # read only these pages of the PDF ({doc.pages} pages)")
        elif doc.format != "pdf":
            out.append('# encoding = "cp1252"  # when the file is not UTF-8')
        out.append("")
    for doc in documents:
        out += ["[[documents]]",
                f"id = {string(doc.id)}",
                f"title = {string(doc.title)}  # guessed: {doc.title_reason}",
                f"kind = {string(doc.kind)}  # guessed: {doc.kind_reason}",
                'version = ""  # as the document prints it (e.g. "1.2")',
                'date = ""  # "2024", "2024-03" or "2024-03-14"',
                "official = false  # or true: the publisher's own document (false: a fan's, a club's, a player's)",
                f"source = {string(doc.file)}",
                f"profile = {string(doc.profile)}  # guessed: {doc.profile_reason}",
                f"# lines = [1, {doc.lines}]  # read only these lines (of {doc.lines})",
                *options_comment(doc.profile), ""]
    return "\n".join(out)


def new_game(root: Path, game_id: str, files: Sequence[Path], title: str | None = None) -> tuple[Path, list[NewDocument]]:
    """Create `root/corpus/GAME/` (sources and game.toml); the folder and what it holds."""
    if not ID_PATTERN.match(game_id) or game_id in RESERVED_GAME_IDS:
        raise UsageError(f"regles new: game id {game_id!r} must be lowercase letters, digits and hyphens"
                         f" (and none of {', '.join(sorted(RESERVED_GAME_IDS))})")
    folder = root / "corpus" / game_id
    if folder.exists():
        raise InputError(f"corpus/{game_id}", "already exists: `regles new` never overwrites a game (choose another id)")
    taken: set[str] = set()
    examined = [examine(path, taken, game_id) for path in files]
    documents = [doc for doc, _ in examined]
    folder.parent.mkdir(parents=True, exist_ok=True)
    # Beside corpus/, not in it: a folder left by a killed run is no game the build would read.
    # Made as any folder is (the umask's mode, not mkdtemp's 0700: the game folder it becomes is the user's)
    staging = root / f".regles-new-{game_id}-{secrets.token_hex(6)}"
    staging.mkdir()
    try:
        for path, doc in zip(files, documents, strict=True):
            shutil.copyfile(path, staging / doc.file)
        (staging / "game.toml").write_text(manifest_text(game_id, title, documents), encoding="utf-8")
        staging.rename(folder)  # refuses a folder made meanwhile rather than fill it
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    objects = reading_cache(root)  # the first `regles extract --manifest` need not read the files again
    for doc, reading in examined:
        source = f"corpus/{game_id}/{doc.file}"
        objects.put(f"trial-reading/{source}", reading_key(source, doc.sha256), reading)
    return folder, documents
