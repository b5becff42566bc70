"""Segment: run each document's profile, then settle the entry tree (parents, book order of
children, ids) and account for every source line."""

from extract.segment.profiles import PROFILES, option_classes
from extract.segment.report import document_report
from extract.segment.segmenter import book_order, segment_document

__all__ = ["PROFILES", "book_order", "document_report", "option_classes", "segment_document"]
