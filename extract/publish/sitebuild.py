"""Stage 9, render, its second half: MkDocs with the Material theme builds the site's Markdown
(`build/docs/`, written by `extract.publish.site`) into `build/site/`, strict: any broken link or
anchor fails the build. MkDocs is called through its public API (`load_config`, `build`)."""

from __future__ import annotations

import html
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache

from extract.errors import BuildError, InputError
from extract.model import GameBuild
from extract.publish.site import TOOL_ROOT, render_docs
from extract.versions import Step


def mkdocs_build(root: Path, docs: Path, site_dir: Path, nav: list[Any], site_url: str | None = None,
                 short_labels: dict[str, str] | None = None) -> None:
    """Build `docs` into `site_dir` with the root's mkdocs.yml, strict: a warning is an error.
    With `site_url`, pages name their canonical address and sitemap.xml lists them (without
    dates, and gzipped without a time stamp: the same inputs give the same bytes); without it
    there is no absolute address to give, so no sitemap either. `short_labels`: each game's name
    in the search box's game filter (`GameSpec.short_label`), by game id."""
    import logging

    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError

    warnings: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    handler = Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        extra = {"site_url": site_url} if site_url else {}
        config = load_config(str(root / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(site_dir), strict=True, nav=nav,
                             **extra)
        config.extra["regles_short_labels"] = dict(short_labels or {})  # read by partials/header.html
        build(config)
    except (Abort, ConfigurationError) as exc:
        raise BuildError([InputError("mkdocs.yml", f"site build failed: {exc}; " + "; ".join(warnings[:5]))]) from None
    finally:
        logger.removeHandler(handler)
    if warnings:
        raise BuildError([InputError("mkdocs.yml", f"site build warning: {w}") for w in warnings[:10]])
    sitemap = site_dir / "sitemap.xml"
    (site_dir / "sitemap.xml.gz").unlink(missing_ok=True)
    if not site_url:
        sitemap.unlink(missing_ok=True)
    elif sitemap.is_file():
        import gzip

        (site_dir / "sitemap.xml.gz").write_bytes(gzip.compress(sitemap.read_bytes(), mtime=0))


NAV_DOCUMENTS = 12  # a game with more books lists them on its presentation page only


def site_nav(games: list[GameBuild]) -> list[Any]:
    """A small navigation: games, then their documents and errata. Topic pages are reached from
    their document's page, not listed in every page's sidebar; the books of a game with more than
    `NAV_DOCUMENTS` from its presentation page, so every page's navigation stays the same size
    however many books a game has (each page prints the navigation)."""
    nav: list[Any] = [{"Accueil": "index.md"}]
    for game in games:  # titles escaped: the theme prints navigation labels as they are
        items: list[Any] = [{"Présentation": f"{game.game.id}/index.md"}]
        if len(game.game.documents) <= NAV_DOCUMENTS:
            items += [{html.escape(d.title): f"{game.game.id}/{d.id}/index.md"} for d in game.game.documents]
        items.append({"Errata": f"{game.game.id}/errata.md"})
        nav.append({html.escape(game.game.title): items})
    return nav


SITE_OUTPUTS = ["docs", "site"]  # what making the site puts in the staging folder


def place_search_model(staging: Path) -> None:
    """The search model `regles search` ranks from, for the site's search box
    (site/assets/regles-search.js ranks from it the same way), beside the site's other assets and
    in the Markdown's: placed once the site is made or restored, the index being written
    meanwhile (the stored site does not hold it: the index stage does)."""
    model = staging / "search" / "model.json"
    if model.is_file():
        for assets in (staging / "docs" / "assets", staging / "site" / "assets"):
            assets.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(model, assets / "search-model.json")


def make_site(staging: Path, games: list[GameBuild], site_url: str | None = None,
              compiled: BytecodeCache | None = None, progress: Callable[[str], None] | None = None,
              steps: dict[str, list[Step]] | None = None) -> None:
    """The site of `games` in `staging`: its Markdown in `docs/` (`render_docs`), made by MkDocs
    into `site/` (`SITE_OUTPUTS`). `compiled`: Jinja2's cache of the compiled templates, or None;
    `steps`: what changed from each version of a document to the next, by "game/document"."""
    if progress is not None:
        progress("rendering the site")
    render_docs(TOOL_ROOT, staging / "docs", games, compiled, steps)
    mkdocs_build(TOOL_ROOT, staging / "docs", staging / "site", site_nav(games), site_url,
                 {game.game.id: game.game.short_label for game in games})
