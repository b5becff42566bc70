"""Corpus: the manifests (`corpus/<game>/game.toml`) and the corpus data files linking reads
(`terms.toml`, `concepts.toml`, `thesaurus.toml`, `icons.toml`), validated with every error naming its file and line."""

from extract.corpus.concepts import read_concepts
from extract.corpus.facts import read_facts
from extract.corpus.icons import read_icons
from extract.corpus.manifest import check_sources, find_manifests, load_game
from extract.corpus.terms import read_term_config
from extract.corpus.thesaurus import builtin_thesaurus, read_thesaurus

__all__ = ["builtin_thesaurus", "check_sources", "find_manifests", "load_game", "read_concepts", "read_facts", "read_icons",
           "read_term_config", "read_thesaurus"]
