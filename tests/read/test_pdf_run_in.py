"""Terms run in with their definition in a PDF (extract/segment/profiles/headed_prose.py, issue 33): a
bold term opening its paragraph ("**Acheter :** le joueur paie…") is printed as text, not apart as a
heading; the reader of a PDF sees the page, so such terms make no entries there (a Markdown glossary's
do: test_headed_prose)."""

from __future__ import annotations

from pathlib import Path

from extract.cli.commands import extract_document
from tests.read.pdf_maker import lines_at, new, prose, save, wrapped


def run_in_terms(path: Path, glossary_title: str = "Phase de commerce") -> Path:
    """Two sections in 16 pt bold; the second lists three actions, each a bold term and a colon, then
    its definition in plain type on the same line."""
    pdf = new()
    pdf.add_page()
    y = lines_at(pdf, 50, 60, ["Mise en place"], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Placez le plateau " + prose(40, 1) + ".", 490, size=10), size=10,
                 leading=12.5) + 12
    y = lines_at(pdf, 50, y, [glossary_title], size=16, style="B") + 8
    y = lines_at(pdf, 50, y, wrapped(pdf, "Le joueur choisit une action " + prose(20, 2) + ".", 490, size=10),
                 size=10, leading=12.5) + 6
    for term in ("Acheter", "Vendre", "Livrer"):
        lines_at(pdf, 50, y, [f"{term} :"], size=10, style="B")
        pdf.set_font("Helvetica", style="B", size=10)
        offset = pdf.get_string_width(f"{term} : ")
        y = lines_at(pdf, 50 + offset, y, [f"le joueur {prose(9, len(term))}."], size=10, leading=12.5) + 4
    return save(pdf, path)


def test_bold_terms_run_in_with_their_definition_are_text_in_a_pdf(tmp_path):
    found = extract_document(run_in_terms(tmp_path / "terms.pdf"))
    entries = {e["title"]: e for e in found["entries"] if e.get("title")}
    assert list(entries) == ["Mise en place", "Phase de commerce"]
    body = " ".join(b["text"] for b in entries["Phase de commerce"]["blocks"])
    assert "Acheter" in body and "Vendre" in body and "Livrer" in body


def test_a_pdf_glossary_section_keeps_its_terms_as_text(tmp_path):
    found = extract_document(run_in_terms(tmp_path / "glossary.pdf", glossary_title="Glossaire"))
    assert [e["title"] for e in found["entries"] if e.get("title")] == ["Mise en place", "Glossaire"]
