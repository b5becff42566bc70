"""Publish: the rule data (`data`: game files and their schema), and the rules site (`site`:
Jinja2 templates to Markdown, MkDocs Material, Pagefind)."""

from extract.publish.data import SCHEMA, entry_json, game_json, write_json
from extract.publish.site import build_site

__all__ = ["SCHEMA", "build_site", "entry_json", "game_json", "write_json"]
