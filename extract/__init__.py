"""regles: French wargame rulebooks and their errata as structured, linked rule data.

The library entry points live in their stage modules (`extract.pipeline.build`, …); this package
import stays light so that the CLI starts fast, and `extract.reader` reads a build without the
toolkit's dependencies.
"""

from extract.errors import BuildError, InputError, UsageError

__version__ = "0.4.0"
__all__ = ["BuildError", "InputError", "UsageError", "__version__"]
