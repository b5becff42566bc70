"""Search: a French-aware Whoosh index built with the data, and queries as players type them."""

from extract.search.engine import Hit, SearchIndex, build_index, open_index, search, texts_of

__all__ = ["Hit", "SearchIndex", "build_index", "open_index", "search", "texts_of"]
