"""The heading tree measured against a gold outline the document itself gives: a PDF's bookmarks
(its outline), a Markdown file's own `#` headings. Heading recall (each gold heading is an entry)
and right parent (its parent is the entry of the gold heading above it) against the quality bar:
≥ 0.95 and ≥ 0.90. Skipped when the external files are absent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from extract.cli.commands import extract_document
from extract.text import fold
from tests.conftest import SHARED

DEVSET = SHARED / "external" / "french-rules-devset"
MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def key(title: str) -> str:
    """A title compared without case, accents, punctuation nor spaces ("Accession e n division"),
    a link's text for the link ("[Capacités](abilities.md)")."""
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", re.sub(r"\{#[^}]*\}", "", title))
    return re.sub(r"[^a-z0-9]+", "", fold(title))


def pdf_outline(path: Path) -> list[tuple[int, str]]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [(level, title) for level, title, *_ in pdf.doc.get_outlines()]


def markdown_outline(path: Path) -> list[tuple[int, str]]:
    found, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (m := MARKDOWN_HEADING.match(line)):
            found.append((len(m.group(1)), m.group(2)))
    return found


def scores(path: Path, outline: list[tuple[int, str]]) -> tuple[float, float, list[str]]:
    entries = extract_document(path)["entries"]
    by_id = {e["id"]: e for e in entries}
    label = {e["id"]: key(" ".join(x for x in (e["number"], e["title"]) if x)) for e in entries}
    found = right = start = 0
    misses: list[str] = []
    stack: list[tuple[int, str]] = []
    for level, title in outline:
        while stack and stack[-1][0] >= level:
            stack.pop()
        parent = key(stack[-1][1]) if stack else None
        stack.append((level, title))
        wanted = key(title)
        at = next((i for i in range(start, len(entries)) if label[entries[i]["id"]]
                   and (label[entries[i]["id"]] == wanted or label[entries[i]["id"]].endswith(wanted)
                        or wanted.endswith(label[entries[i]["id"]]))), None)  # in book order: "Exemple" again
        if at is None:
            misses.append(f"missing: {title}")
            continue
        match, start = entries[at], at + 1
        found += 1
        got = label[match["parent"]] if match["parent"] in by_id else None
        if got == parent or (got and parent and (got.endswith(parent) or parent.endswith(got))):
            right += 1
        else:
            misses.append(f"parent of {title}: {got} instead of {parent}")
    return found / len(outline), right / len(outline), misses


CASES = [
    ("ffe-regles-generales/R01_2025_26_Regles_generales.pdf", pdf_outline),
    ("dungeon-world-fr-actions/16-actions.md", markdown_outline),
    ("heros-dragons-sante/gerer-la-sante-du-personnage.md", markdown_outline),
    ("handball-ihf-regle8/8.md", markdown_outline),
]


@pytest.mark.parametrize(("name", "outline_of"), CASES, ids=[c[0].split("/")[0] for c in CASES])
def test_headings_and_parents_match_the_documents_own_outline(name, outline_of):
    path = DEVSET / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (../shared/external is not in the repository)")
    outline = outline_of(path)
    assert len(outline) >= 5
    recall, parent, misses = scores(path, outline)
    assert recall >= 0.95 and parent >= 0.90, (recall, parent, misses[:10])


def test_the_deadzone_living_rules_headings_and_parents():
    folder = SHARED / "external" / "deadzone-v2" / "living_rules_fr"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent (../shared/external is not in the repository)")
    total = found = right = 0.0
    for path in sorted(folder.rglob("*.md")):
        outline = markdown_outline(path)
        if len(outline) < 3:
            continue
        recall, parent, _ = scores(path, outline)
        total, found, right = total + len(outline), found + recall * len(outline), right + parent * len(outline)
    assert total >= 200
    assert found / total >= 0.95 and right / total >= 0.90, (found / total, right / total)
