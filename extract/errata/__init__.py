"""Errata: the reader of French errata texts (`reader`), reading them from FAQ documents
(`faq.read_faqs`) and errata files (`files`), finding their targets and applying them block
by block (`amend`)."""

from extract.errata.apply import ErrataOutcome, apply_errata
from extract.errata.faq import read_errata, read_faqs, unread_errata
from extract.errata.files import read_errata_files
from extract.errata.instruction import read_instruction
from extract.errata.locators import parse_heading

__all__ = ["ErrataOutcome", "apply_errata", "parse_heading", "read_instruction", "read_errata",
           "read_errata_files", "read_faqs", "unread_errata"]
