"""Link: explicit references (`refs`), FAQ entries attached to their rules (`faq`), term links on
lemmas (`terms`), concept links within and across games (`concepts`), and backrefs."""

from extract.link.concepts import link_concepts
from extract.link.faq import attach_faq, fill_backrefs
from extract.link.refs import resolve_explicit
from extract.link.terms import link_terms, texts_to_tag

__all__ = ["attach_faq", "fill_backrefs", "link_concepts", "link_terms", "resolve_explicit", "texts_to_tag"]
