"""Hand-written errata: `corpus/<game>/errata/*.toml`, for errata announced outside the corpus
(a publisher's website, an organiser's ruling), in the same operation model as the FAQ's.

    source = "Décision de l'arbitre, Open de Lyon"
    date = "2026-03-14"

    [[errata]]
    target = "reference/49"          # an entry id, with or without the game
    operation = "replace"            # replace | insert | delete | move
    block = "paragraph"              # paragraph | bullet | subbullet | sentence | text | title | entry
    ordinal = 1
    text = "Le nouveau texte."       # "- " starts a bullet, "  - " a sub-bullet, a blank line a paragraph

or, instead of operation/block/ordinal, the French instruction itself, read by the same reader
as the FAQ (`instruction.read_instruction`): `instruction = "Le premier paragraphe de cette section devrait dire : « … »"`.
Every mistake is an error naming the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from extract.errata.instruction import read_instruction
from extract.errors import InputError
from extract.model import OPERATIONS, Block, Erratum, Operation, erratum_ids
from extract.text import inline, slugify
from extract.tomlfile import read_toml, table_lines, unknown_key

FILE_KEYS = {"source", "date", "url", "errata"}
ERRATUM_KEYS = {"target", "operation", "block", "ordinal", "label", "text", "before", "instruction", "position", "note",
                "supersedes"}
BLOCKS = ("paragraph", "bullet", "subbullet", "sentence", "text", "title", "entry")


def text_blocks(text: str) -> list[Block]:
    """Plain text with light Markdown list markers into blocks."""
    blocks: list[Block] = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        for raw in chunk.splitlines() if re.search(r"^[^\S\n]*+- ", chunk, re.MULTILINE) else [chunk]:
            match = re.match(r"^(\s*)- (.*)$", raw)
            kind = ("subbullet" if match.group(1) else "bullet") if match else "paragraph"
            body = match.group(2) if match else " ".join(raw.split())
            plain, markdown, _ = inline(body)
            if plain:
                blocks.append(Block(kind, plain, markdown if markdown != plain else ""))
    return blocks


def read_errata_files(root: Path, game: str) -> list[Erratum]:
    found: list[Erratum] = []
    folder = (root / "corpus" / game).resolve()
    for path in sorted((root / "corpus" / game / "errata").glob("*.toml")):
        if not path.resolve().is_relative_to(folder):  # a link leading out of the game's folder
            raise InputError(f"corpus/{game}/errata/{path.name}", f"is a link to a file outside corpus/{game}/: not read")
        found.extend(read_errata_file(path, root, game))
    return found


def read_errata_file(path: Path, root: Path, game: str) -> list[Erratum]:
    data, raw, rel = read_toml(path, root)
    unknown_key(data, FILE_KEYS, rel, raw)
    for key in ("source", "date"):
        if not isinstance(data.get(key), str):
            raise InputError(rel, f"missing required key {key!r} (who announced these errata, and when)")
    items = data.get("errata")
    if not isinstance(items, list) or not items:
        raise InputError(rel, "declares no [[errata]]")
    stem = slugify(path.stem)
    errata = []
    lines = table_lines(raw, "errata", len(items))
    for n, item in enumerate(items, start=1):
        line = lines[n - 1]
        errata.append(read_item(item, rel, line, raw, game, stem, n, data))
    # Ids from the file and each target ("<game>/<file>/errata/<document>/<key>"), not positions.
    targets = [e.target.split("/", 1)[1] if e.target else str(n) for n, e in enumerate(errata, start=1)]
    for erratum, erratum_id in zip(errata, erratum_ids(f"{game}/{stem}", targets), strict=True):
        erratum.id = erratum_id
    return errata


def _sets_key(line: str, key: str) -> bool:
    """Whether a TOML line sets `key` (bare or quoted): compared as text, never read as a pattern (a key
    is the writer's, "a(" or a crafted one would be an error or a hang)."""
    stripped = line.lstrip()
    return any(stripped.startswith(name) and stripped[len(name):].lstrip().startswith("=")
               for name in (key, f'"{key}"', f"'{key}'"))


def read_item(item: dict[str, Any], rel: str, line: int | None, raw: str, game: str, stem: str, n: int,
              meta: dict[str, Any]) -> Erratum:
    def fail(message: str, key: str | None = None) -> InputError:
        at = line
        if key is not None and line is not None:
            below = [i for i, text in enumerate(raw.splitlines(), start=1) if i > line and _sets_key(text, key)]
            at = below[0] if below else line
        return InputError(rel, message, at)

    unknown = sorted(set(item) - ERRATUM_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} in [[errata]] (allowed: {', '.join(sorted(ERRATUM_KEYS))})", unknown[0])
    target = item.get("target")
    if not isinstance(target, str) or not target.strip():
        raise fail("[[errata]] has no target (an entry id such as \"reference/49\")")
    target = target.strip().strip("/")
    full_target = target if target.startswith(f"{game}/") else f"{game}/{target}"
    new_blocks = text_blocks(item["text"]) if isinstance(item.get("text"), str) else []
    if "instruction" in item:
        read = read_instruction(str(item["instruction"]))
        if read.operation is None:
            raise fail(f"instruction not understood: {item['instruction']!r} ({read.problem})", "instruction")
        op = read.operation
        if not new_blocks and op.after:
            new_blocks = [Block("paragraph", op.after)]
    else:
        op = explicit_operation(item, fail)
    if op.operation in ("replace", "insert") and not new_blocks and op.after is None and op.block not in ("value",):
        raise fail(f"a {op.operation} needs the new text (key 'text')")
    if isinstance(item.get("before"), str):
        op.before = item["before"]
    supersedes = item.get("supersedes")
    if supersedes is not None and not (isinstance(supersedes, str) and supersedes.strip()):
        raise fail("supersedes must be the id of the erratum this one replaces "
                   "(e.g. \"faq/errata/errata/guide-de-reference/ligne-de-vue-page-13-section-49\")", "supersedes")
    if supersedes is not None:
        supersedes = supersedes.strip().strip("/")
        supersedes = supersedes if supersedes.startswith(f"{game}/") else f"{game}/{supersedes}"
    return Erratum(
        id=f"{game}/{stem}/errata/{n}", source=rel, target=full_target, operation=op.operation, scope=op.scope(),
        before=op.before, after="\n\n".join(b.text for b in new_blocks) or op.after, status="failed",
        instruction=str(item.get("instruction") or item.get("note") or ""),
        origin={"file": rel, "lines": [line, line] if line else [], "date": meta["date"], "source": meta["source"],
                "url": meta.get("url"), "document": rel, "strict": True, "supersedes": supersedes},
        new_blocks=new_blocks, op=op,
    )


def explicit_operation(item: dict[str, Any], fail) -> Operation:
    operation = item.get("operation")
    if operation not in OPERATIONS:
        raise fail(f"unknown operation {operation!r} (one of {', '.join(OPERATIONS)})", "operation")
    ordinal = item.get("ordinal")
    if ordinal is not None and (not isinstance(ordinal, int) or ordinal == 0):
        raise fail("ordinal must be a non-zero integer (1 = first, -1 = last)", "ordinal")
    label = item.get("label")
    default = "entry" if operation == "delete" and ordinal is None and label is None else (
        "text" if operation == "insert" else "paragraph")
    block = item.get("block", default)
    if block not in BLOCKS:
        raise fail(f"unknown block {block!r} (one of {', '.join(BLOCKS)})", "block")
    if block in ("paragraph", "bullet", "subbullet", "sentence") and operation != "insert" and ordinal is None and label is None:
        raise fail(f"a {operation} of a {block} needs an ordinal or a label", "block")
    position = item.get("position")
    if operation == "move" and position not in ("first", "last"):
        raise fail("a move needs position = \"first\" or \"last\"", "operation")
    return Operation(operation, block, ordinal=ordinal, label=label, position=position or ("end" if operation == "insert" else None))
