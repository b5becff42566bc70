"""Headed prose (Runewars learn-to-play, BattleLore summary): headings from layout and outline,
captions kept apart from paragraphs, numbered steps and tables as blocks."""

from __future__ import annotations

import re
from dataclasses import replace

from extract.model import Line, Segmentation
from extract.segment.profiles.base import (
    MARKDOWN_HEADING,
    DocBuilder,
    DocContext,
    HeadedWalker,
    declared_set_aside,
    merge_pictographs,
    relocate,
)
from extract.text import inline, starts_lowercase

UNDERLINE = re.compile(r"^\s*(?P<mark>=|-)(?P=mark){2,}\s*$")
# A paragraph opening on its term in bold, as glossaries and rule summaries print them:
# "**Couvert.** Une figurine…", "**Engagement** : deux figurines…".
RUN_IN = re.compile(r"^\*\*(?P<term>[A-ZÀ-Ý][^*]{0,38}?)(?P<inner>[.:])?\*\*\s*(?(inner)|[.:])\s*(?P<rest>\S.*)$")
# A bold label used as one: its colon or full stop inside or after the bold, then text ("***MJ** :
# Lance", "**Défausse** : la pile"). A bold word ending its line ("dans la" / "**Défausse**.", a
# wrapped first mention) is no use of it as a label.
LABEL = re.compile(r"^\*{2,3}([^*]{1,40})\*{2}(?:(?<=[.:]\*\*)|\s*[.:])\s*\S")
# "Carte Marée : carte qui…": a term and its definition, as a section titled so lists them unmarked.
PLAIN_TERM = re.compile(r"^(?P<term>[A-ZÀ-Ý][^:*.;!?«»()]{0,38}?)\s*:\s*(?P<rest>\S.*)$")
# Readers that see the printed page: their headings are the lines printed apart, in a heading's type.
TYPESET_READERS = frozenset({"pdf"})
GLOSSARY_TITLE = re.compile(r"^(?:glossaire|lexique|glossary|vocabulaire|terminologie|d[ée]finitions)\b", re.IGNORECASE)
DIGITS = re.compile(r"\d++")
RUN_IN_TERMS = 3  # a section needs this many distinct run-in terms to be a glossary of them
# Bold labels that open a callout or a question, not a term: "**Exemple** :", "**Q1 :**".
NOT_TERMS = re.compile(r"^(?:exemples?|notes?|nota|remarques?|important|rappel|attention|précisions?|astuces?|"
                       r"conseils?|variantes?|clarifications?|errata|q|r|questions?|réponses?)\s*\d*$", re.IGNORECASE)


def underlined_headings(lines: list[Line]) -> list[Line]:
    """A line underlined with "=====" or "-----" on the next line (plain text in Markdown's setext
    style, or reStructuredText's) is a heading of level 1 or 2, written "#"/"##" as Markdown
    states its headings; the underline is part of it. A rule under a list item or a table row
    stays what it is."""
    found: list[Line] = []
    for line in lines:
        mark = UNDERLINE.match(line.text)
        previous = found[-1] if found else None
        # The underlined line stands alone (a blank line or the start above it), as a heading does:
        # a rule under the last line of a paragraph ("et en défausse une." / "-----") is a rule.
        alone = previous is not None and (len(found) == 1 or found[-2].no < previous.no - 1)
        if mark and alone and previous.no + 1 == line.no and not previous.covers \
                and previous.text.strip() and not previous.text.lstrip().startswith(("#", "|", "- ", "* ", "+ ")) \
                and not UNDERLINE.match(previous.text) and not starts_lowercase(previous.text.strip()) \
                and not previous.text.rstrip().endswith((".", ":", ";", ",")):
            level = "#" if mark.group("mark") == "=" else "##"
            found[-1] = replace(previous, text=f"{level} {previous.text.strip()}", covers=(line.no,))
            continue
        found.append(line)
    return found


def run_in_terms(lines: list[Line], builder: DocBuilder | None = None) -> list[Line]:
    """A section whose paragraphs open on terms in bold ("**Activation.** …", "**Couvert.** …",
    "**Engagement** : …"), three distinct ones at least and none twice, is a glossary: each term
    heads an entry one level below the section, with its paragraph and what follows it up to the
    next term. A section titled as a glossary ("Glossaire", "Lexique") needs no bold: its
    "Terme : définition" lines are terms too. A section where a bold label comes back ("**Quoi** :"
    in each card, a dialogue's "**MJ** :") keeps them as text; a term also in bold in the prose
    (its first mention) is no label said twice. Labels the same but for a number ("**Équipe de 4** :",
    "**Équipe de 3** :") are cases of one label, no terms."""
    out: list[Line] = []
    section: list[Line] = []
    level = 1
    glossary = False  # the open section is titled as a glossary

    def term_of(line: Line) -> re.Match[str] | None:
        m = RUN_IN.match(line.text) or (PLAIN_TERM.match(line.text.strip()) if glossary else None)
        if m is None or len(m.group("term").split()) > 5 or NOT_TERMS.match(m.group("term").strip()):
            return None
        return m

    def flush() -> None:
        found = [(line, term_of(line)) for line in section]
        terms = [m.group("term").strip() for _, m in found if m]
        # every bold label opening a line, malformed ones too ("***MJ** :"): one said twice is a speaker
        labels = [m.group(1).strip().rstrip(".:") for line in section if (m := LABEL.match(line.text))]
        # one label told apart by a number ("Équipe de 4 :", "Équipe de 3 :") is a list of cases, no glossary
        stems = {DIGITS.sub("#", term) for term in terms}
        if (len(set(terms)) < RUN_IN_TERMS or len(set(labels)) != len(labels) or len(set(terms)) != len(terms)
                or len(stems) != len(terms)):
            out.extend(section)
        else:
            if builder is not None:  # a structure the source does not state as headings: said
                builder.anomaly("run-in-glossary", f"{len(terms)} paragraphs opening on a term "
                                f"{'in a glossary' if glossary else 'in bold'} made entries: "
                                + ", ".join(terms[:8]), [line.no for line, m in found if m][:50])
            for line, m in found:
                if m:
                    out.append(replace(line, text=f"{'#' * min(level + 1, 6)} {m.group('term').strip()}"))
                    out.append(replace(line, text=m.group("rest"), covers=()))
                else:
                    out.append(line)
        section.clear()

    for line in lines:
        heading = MARKDOWN_HEADING.match(line.text)
        if heading:
            flush()
            level = len(heading.group(1))
            glossary = bool(GLOSSARY_TITLE.match(inline(heading.group(2))[0].strip()))
            out.append(line)
        else:
            section.append(line)
    flush()
    return out


def prepare(lines: list[Line], ctx: DocContext, builder: DocBuilder, glossaries: bool = True) -> list[Line]:
    """The lines as the walker reads them; `glossaries`: run-in terms make entries (not in a FAQ,
    whose bold labels open questions and answers, nor in a PDF, whose reader judged from the page
    what is printed as a heading: a term run in with its definition is printed as text)."""
    lines = declared_set_aside(lines, ctx, builder)
    lines = underlined_headings(lines) if not ctx.logical_lines else lines  # a reader's lines are read already
    lines = run_in_terms(lines, builder) if glossaries and ctx.reader not in TYPESET_READERS else lines
    lines = merge_pictographs(lines, builder)
    return relocate(lines, ctx, builder)


def segment(lines: list[Line], ctx: DocContext) -> Segmentation:
    builder = DocBuilder(ctx)
    HeadedWalker(ctx, builder).run(prepare(lines, ctx, builder))
    return builder.result()
