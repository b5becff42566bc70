"""A manifest can declare a PDF source (with a page range), checked by its SHA-256 like text:
the build reads it with the PDF reader and every entry says its page."""

from __future__ import annotations

import hashlib
import json

import pytest

from extract.errors import BuildError
from extract.pipeline import build
from tests.read.pdf_maker import block, new, prose, save

pytestmark = pytest.mark.corpus  # whole builds: the slow tier


def pdf_corpus(root, pages: str = "", digest: str | None = None):
    pdf = new()
    pdf.add_page()
    block(pdf, 50, 80, 495, "Page de titre sans règles.")
    for title, seed in (("Mise en place", 1), ("Le tour de jeu", 2)):
        pdf.add_page()
        y = block(pdf, 50, 60, 495, title, size=16, style="B")
        block(pdf, 50, y + 8, 495, prose(40, seed) + ".")
    folder = root / "corpus" / "demo"
    folder.mkdir(parents=True)
    path = save(pdf, folder / "regles.pdf")
    sha = digest or hashlib.sha256(path.read_bytes()).hexdigest()
    (folder / "game.toml").write_text(f"""id = "demo"
title = "Démo"

[[sources]]
file = "regles.pdf"
sha256 = "{sha}"
{pages}

[[documents]]
id = "regles"
title = "Règles"
kind = "rulebook"
source = "regles.pdf"
profile = "headed-prose"
""", encoding="utf-8")
    return root


def test_a_pdf_source_builds_with_pages(tmp_path):
    root = pdf_corpus(tmp_path, pages="pages = [2, 3]")
    build(root, root / "build")
    data = json.loads((root / "build/data/demo.json").read_text(encoding="utf-8"))
    found = {e["title"]: e for e in data["entries"]}
    assert found["Mise en place"]["source"]["page"] == 2 and found["Le tour de jeu"]["source"]["page"] == 3
    assert "Page de titre" not in json.dumps(data, ensure_ascii=False)  # page 1 is outside the range
    report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))["documents"]["demo/regles"]
    assert report["lines_read"] == report["lines_placed"] + report["lines_set_aside"]


def test_a_pdf_source_is_checked_by_its_sha256(tmp_path):
    root = pdf_corpus(tmp_path, digest="0" * 64)
    with pytest.raises(BuildError, match="checksum mismatch"):
        build(root, root / "build")


@pytest.mark.parametrize(("pages", "message"), [
    ("pages = [3, 2]", "pages must be"), ("pages = [0, 2]", "pages must be"), ('pages = "2"', "pages must be")])
def test_a_bad_page_range_names_the_manifest(tmp_path, pages, message):
    root = pdf_corpus(tmp_path, pages=pages)
    with pytest.raises(BuildError, match=rf"corpus/demo/game.toml:4: {message}"):
        build(root, root / "build")
