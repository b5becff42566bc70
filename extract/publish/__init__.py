"""Publish: the rule data (`data`: game files and their schema), and the rules site (`site`:
Jinja2 templates to Markdown, MkDocs Material, Pagefind; `api`: its static JSON API); `export`: the
export formats."""

from extract.publish.api import ApiWriter, entry_path, write_api
from extract.publish.data import SCHEMA, encode_entries, entry_json, game_json, write_game_json, write_json
from extract.publish.site import alias_clashes
from extract.publish.sitebuild import SITE_OUTPUTS, make_site, place_search_model

__all__ = ["SCHEMA", "SITE_OUTPUTS", "ApiWriter", "alias_clashes", "encode_entries", "entry_json", "entry_path",
           "game_json", "make_site", "place_search_model", "write_api", "write_game_json", "write_json"]
