"""The build: the stages in order (`stages`), the output folder swapped in whole (`outdir`)."""

from extract.pipeline.stages import (
    BuildResult,
    Stopwatch,
    amend,
    build,
    nlp_texts,
    read_games,
    segment_one,
    version_entries,
    version_errata,
)

__all__ = ["BuildResult", "Stopwatch", "amend", "build", "nlp_texts", "read_games", "segment_one", "version_entries",
           "version_errata"]
