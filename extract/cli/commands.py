"""What each CLI command does, as functions usable from Python too."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extract import files
from extract.errors import InputError, RegleError, UsageError
from extract.model import STATUS_LABELS, DocumentSpec, GameSpec

if TYPE_CHECKING:
    from extract.model import Anomaly, Line, Segmentation
    from extract.read import Reading


def build_command(root: Path, out: Path | None, as_json: bool, site_url: str | None = None) -> int:
    from extract.pipeline import build

    def progress(message: str) -> None:
        if sys.stderr.isatty():
            print(f"… {message}", file=sys.stderr)

    def notice(message: str) -> None:  # waiting for another build, a damaged cache: always said
        print(f"note: {message}", file=sys.stderr)

    result = build(root, out, progress, notice=notice, site_url=site_url)
    severe = severe_anomalies(result.games)
    failed = [erratum for game in result.games for erratum in game.errata if erratum.status == "failed"]
    unread = [(where, anomaly) for where, anomaly in anomalies_of(result.games) if anomaly.kind == "erratum-not-understood"]
    summary = {
        "out": str(result.out),
        "entries": result.entry_count,
        "games": {g.game.id: len(g.entries) for g in result.games},
        "stages": {k: round(v, 3) for k, v in result.stages.items()},
        "severe": [{"document": where, **anomaly.to_json()} for where, anomaly in severe],
        "errata_failed": [{"id": e.id, "instruction": e.instruction, "reason": e.reason} for e in failed],
        "errata_not_understood": [{"document": where, **anomaly.to_json()} for where, anomaly in unread],
    }
    if as_json:
        print(json.dumps(summary, ensure_ascii=False, sort_keys=True))
    else:
        games = ", ".join(f"{k} {v}" for k, v in summary["games"].items())
        print(f"built {result.entry_count} entries ({games}) into {result.out}")
        # What `regles extract` would stop on (exit 3) is said here too: the build went through,
        # but these documents' structure is probably wrong.
        if severe:
            print(f"warning: {len(severe)} severe anomal{'y' if len(severe) == 1 else 'ies'}, the structure read is "
                  f"probably wrong (all in {result.out / 'report.json'}):", file=sys.stderr)
            for where, anomaly in severe[:SEVERE_SHOWN]:
                print(f"  {where}: {anomaly.kind}: {one_line(anomaly.detail, 120)}", file=sys.stderr)
            if len(severe) > SEVERE_SHOWN:
                print(f"  … and {len(severe) - SEVERE_SHOWN} more", file=sys.stderr)
        # An erratum that did not apply leaves a rule with its printed text: said here, not only by `check`.
        if failed or unread:
            count = len(failed) + len(unread)
            print(f"warning: {count} errat{'um' if count == 1 else 'a'} not applied (all in {result.out / 'report.json'}):",
                  file=sys.stderr)
            for erratum in failed:
                print(f"  {erratum.id}: failed: {one_line(erratum.reason or '', 120)}", file=sys.stderr)
            for where, anomaly in unread:
                print(f"  {where}: not understood: {one_line(anomaly.detail, 120)}", file=sys.stderr)
    return 0


SEVERE_SHOWN = 10


def anomalies_of(games: list[Any]) -> list[tuple[str, Any]]:
    """(document, anomaly) of every anomaly of the build, in the report's order."""
    return [(where, anomaly) for game in games for where in game.diagnostics.places() for anomaly in game.diagnostics.of(where)]


def severe_anomalies(games: list[Any]) -> list[tuple[str, Any]]:
    """(document, anomaly) of every severe anomaly of the build, in the report's order."""
    return [(where, anomaly) for where, anomaly in anomalies_of(games) if anomaly.severity == "severe"]


def damaged(rel: str, why: str) -> InputError:
    return InputError(rel, f"damaged ({why}): run `regles build` to make it again")


def read_build_json(root: Path, rel: str) -> Any:
    """A JSON file of build/, or an InputError naming it as damaged."""
    return files.read_build_json(root / rel, rel)


ENTRY_FIELDS = {"id": str, "blocks": list, "children": list, "refs": list, "status": str}
ERRATUM_FIELDS = {"id": str, "status": str, "operation": str, "scope": dict}


def shape_problem(game: Any) -> str | None:
    """What makes a game file unusable by the commands (None: its shape holds; `regles check`
    validates it against the schema in full)."""
    if not isinstance(game, dict) or not isinstance(game.get("entries"), list) or not isinstance(game.get("errata"), list):
        return "not a game file: no entries and errata lists"
    for kind, items, fields in (("entry", game["entries"], ENTRY_FIELDS), ("erratum", game["errata"], ERRATUM_FIELDS)):
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                return f"{kind} {n} is not an object"
            for key, cls in fields.items():
                if not isinstance(item.get(key), cls):
                    return f"{kind} {item.get('id') or n}: {key} missing or not a {cls.__name__}"
    for entry in game["entries"]:
        if any(not isinstance(b, dict) or not isinstance(b.get("text"), str) or not isinstance(b.get("type"), str)
               for b in entry["blocks"] + entry.get("original_blocks", [])):
            return f"entry {entry['id']}: a block without type or text"
        if any(not isinstance(r, dict) or "target" not in r for r in entry["refs"]):
            return f"entry {entry['id']}: a ref without target"
        for key in ("number", "title", "parent"):
            if entry.get(key) is not None and not isinstance(entry[key], str):
                return f"entry {entry['id']}: {key} is not a string"
    return None


def load_game_files(root: Path) -> dict[str, dict[str, Any]]:
    folder = root / "build" / "data"
    if not folder.is_dir():
        raise InputError("build/data", "no build found: run `regles build` first")
    games = {}
    for path in sorted(folder.glob("*.json")):
        if path.name == "schema.json":
            continue
        rel = f"build/data/{path.name}"
        game = read_build_json(root, rel)
        problem = shape_problem(game)
        if problem:
            raise damaged(rel, problem)
        games[path.stem] = game
    return games




def reads_build(command):
    """A command reading build/data: a file whose shape is not what the build writes is named
    damaged, never a traceback."""
    import functools

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> int:
        try:
            return command(*args, **kwargs)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise damaged("build/data", f"a game file lacks what the build writes ({type(exc).__name__}: {exc})") from None

    return run


def find_entry(games: dict[str, dict[str, Any]], entry_id: str) -> dict[str, Any]:
    game = games.get(entry_id.split("/")[0])
    entry = next((e for e in game["entries"] if e["id"] == entry_id), None) if game else None
    if entry is None:
        raise UsageError(f"no entry {entry_id!r} (ids look like runewars/reference/25.3)")
    return entry


@reads_build
def show_command(root: Path, entry_id: str, printed: bool, as_json: bool) -> int:
    games = load_game_files(root)
    entry = find_entry(games, entry_id)
    blocks = entry.get("original_blocks", entry["blocks"]) if printed else entry["blocks"]
    if as_json:
        print(json.dumps({**entry, "blocks": blocks}, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    heading = " ".join(x for x in (entry["number"], entry["title"]) if x) or entry["id"]
    badge = f"  ({STATUS_LABELS[entry['status']]} par {', '.join(entry['errata']) or 'errata'})" \
        if entry["status"] in STATUS_LABELS else ""
    print(f"{heading}  [{entry['id']}]{badge}")
    if printed and entry["status"] != "printed":
        print("  — texte tel qu'imprimé —" if entry["status"] != "added" else "  — absent du texte imprimé —")
    for block in blocks:
        marker = {"bullet": "  • ", "subbullet": "    ◦ ", "step": f"  {block.get('number', '')}. "}.get(block["type"], "")
        print(f"{marker}{block['text']}")
    for child in entry["children"]:
        print(f"  → {child}")
    return 0


def search_command(root: Path, text: str, game: str | None, document: str | None, kind: str | None, limit: int,
                   include_deleted: bool, as_json: bool) -> int:
    from extract.search.engine import analyse, clean_query

    if not clean_query(text):
        raise UsageError("regles search: empty query (try: regles search \"ligne de vue\")")
    if limit < 1:
        raise UsageError("regles search: --limit must be at least 1")
    opened = open_search_index(root)
    try:
        hits = opened.search(text, game=game, document=document, kind=kind, limit=limit, include_deleted=include_deleted)
    except RegleError:  # an unknown game or kind: the user's to fix
        raise
    except Exception as exc:  # a segment of the index damaged past its table of contents
        raise damaged("build/search", f"{type(exc).__name__}: {str(exc)[:80]}") from None
    if as_json:
        print(json.dumps([hit.to_json() for hit in hits], ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    if not hits:
        only_stop_words = not analyse(clean_query(text)) and not re.match(r"^\s*\d", text)
        print("aucun résultat" + (" : la requête ne contient que des mots vides" if only_stop_words else ""), file=sys.stderr)
        return 0
    if hits[0].scope:  # the game or document the query named: searched there only
        print(f"dans {hits[0].scope}", file=sys.stderr)
    if any(hit.approximate for hit in hits):
        print("résultats approchés", file=sys.stderr)
    for rank, hit in enumerate(hits, start=1):
        status = {"deleted": " (supprimé)", "amended": " (modifié)", "added": " (ajouté)"}.get(hit.status, "")
        print(f"{rank:>2}. {hit.id}  {hit.label}{status}")
        if hit.snippet:
            print(f"    {hit.snippet}")
    return 0


def open_search_index(root: Path):
    """The search index of build/, or an InputError: missing, or damaged (which file, and why)."""
    from extract.nlp import default_cache
    from extract.search.engine import SearchIndex

    folder = root / "build" / "search"
    if not folder.is_dir():
        raise InputError("build/search", "no search index: run `regles build` first")
    try:
        return SearchIndex(folder, default_cache(root))
    except InputError:
        raise damaged("build/search", "its model or its meta file is missing") from None
    except Exception as exc:
        where = getattr(exc, "filename", None)
        rel = f"build/search/{Path(where).name}" if where else "build/search"
        raise damaged(rel, f"{type(exc).__name__}: {str(exc)[:80]}") from None


def check_index(root: Path, games: dict[str, dict[str, Any]]) -> list[str]:
    """The search index opens and finds a known entry by its title."""
    try:
        opened = open_search_index(root)
    except InputError as problem:
        return [str(problem)]
    known = next((e for g in games.values() for e in g["entries"] if e.get("title") and e["status"] != "deleted"), None)
    try:
        if known is None:
            return []
        hits = opened.search(known["title"], limit=50, include_deleted=True)
        if known["id"] not in [hit.id for hit in hits]:
            return [f"build/search: does not find {known['id']} by its title {known['title']!r}: run `regles build`"]
    except Exception as exc:
        return [str(damaged("build/search", f"{type(exc).__name__}: {str(exc)[:80]}"))]
    finally:
        try:
            opened.close()
        except Exception:  # noqa: S110 - closing a damaged index: nothing more to say
            pass
    return []


def serve_command(root: Path, port: int) -> int:
    """Serve build/site/ on 127.0.0.1 until interrupted (see extract/cli/serve.py)."""
    from extract.cli.serve import cannot_listen, make_server

    site = root / "build" / "site"
    if not (site / "index.html").is_file():
        raise InputError("build/site", "no site: run `regles build` first")
    if not 1 <= port <= 65535:
        raise UsageError(f"regles serve: --port {port} is not a port number (1 to 65535)")
    try:
        server = make_server(site.resolve(), port)
    except OSError as exc:
        raise cannot_listen(port, exc) from None
    print(f"serving {site} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0


ERRATA_MAX_BYTES = 2_000_000  # an errata text is a few pages; beyond this it is not one


def read_errata_file(path: Path) -> Any:
    """The errata reading of a text, Markdown or PDF file; bad input raises InputError naming the file."""
    from extract.errata.preview import read_errata_lines
    from extract.read import read_document

    if path.is_file() and path.stat().st_size > ERRATA_MAX_BYTES:
        raise InputError(str(path), f"is {path.stat().st_size / 1e6:.1f} MB: an errata text is read up to "
                         f"{ERRATA_MAX_BYTES / 1e6:.0f} MB")
    return read_errata_lines([(line.no, line.text) for line in read_document(path).lines])


def errata_from_file(path: Path) -> list[dict[str, Any]]:
    """The errata a document outside the corpus announces, read by the errata reader. Their
    targets are not in the corpus, so they are `recorded`, never applied."""
    from extract.errata.preview import records

    return records(path, read_errata_file(path))["errata"]


def errata_from_command(root: Path, source: Path, as_json: bool, game_id: str | None) -> int:
    """`regles errata --from FILE [--game G]`: read, not understood, clarifications, each with its
    line; with a game, where each operation would land in its last build. Nothing is written."""
    from extract.errata.preview import previews, records

    game = None
    if game_id is not None:
        games = load_game_files(root)
        if game_id not in games:
            raise UsageError(f"no game {game_id!r} in build/data (known: {', '.join(sorted(games))})")
        game = games[game_id]
    data = records(source, read_errata_file(source))
    if game is not None:
        landings = {p["id"]: p for p in previews(data["errata"], game)}
        for erratum in data["errata"]:
            erratum["lands"] = landings[erratum["id"]]
    if as_json:
        print(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))
    else:
        for erratum in data["errata"]:
            where = erratum["locator"]["text"] or "?"
            before = f" « {erratum['before'][:60]} »" if erratum["before"] else ""
            after = f" → « {erratum['after'][:60]} »" if erratum["after"] else ""
            print(f"read: {source}:{erratum['line']}  {erratum['kind']:<10} [{where[:70]}]{before}{after}")
            if game is not None:
                lands = erratum["lands"]
                print(f"    lands on {lands['entry']}" + (f" block {lands['block'] + 1}" if lands["block"] is not None else "")
                      + f" (by {', '.join(lands['matched'])})" if lands["entry"] else f"    lands nowhere: {lands['why']}")
        for item in data["not_understood"]:
            print(f"not understood: {source}:{item['line']}: « {item['text'][:80]} » ({item['reason']})")
        for item in data["clarifications"]:
            print(f"clarification: {source}:{item['line']}: « {item['text'][:80]} » ({item['why']})")
    print(f"{len(data['errata'])} operation(s) read from {source}; {len(data['not_understood'])} passage(s) that "
          f"read like errata not understood; {len(data['clarifications'])} clarification(s)"
          + (f"; {len(data['set_aside'])} line(s) of page chrome set aside" if data["set_aside"] else "")
          + (f"; nothing written (previewed on {game_id}'s last build)" if game is not None else ""), file=sys.stderr)
    return 0


@reads_build
def errata_command(root: Path, game_id: str | None, as_json: bool, source: Path | None = None,
                   preview_game: str | None = None) -> int:
    if preview_game is not None and source is None:
        raise UsageError("regles errata: --game previews the errata of a file: give it with --from FILE")
    if source is not None:
        return errata_from_command(root, source, as_json, preview_game or game_id)
    games = load_game_files(root)
    if game_id is not None and game_id not in games:
        raise UsageError(f"no game {game_id!r} (known: {', '.join(sorted(games))})")
    errata = [e for name, g in sorted(games.items()) if game_id in (None, name) for e in g["errata"]]
    if as_json:
        print(json.dumps(errata, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    for erratum in errata:
        scope = erratum["scope"]
        unit = scope.get("label") or " ".join(str(x) for x in (scope.get("block"), scope.get("ordinal")) if x is not None)
        target = erratum["target"] or hinted_target(erratum)
        print(f"{erratum['id']}  {erratum['status']:<8} {erratum['operation']:<7} {unit:<14} {target}")
        if erratum["reason"]:
            print(f"    reason: {erratum['reason']}")
        if erratum.get("resolution"):
            print(f"    found: {erratum['resolution']}")
    counts = {s: sum(e["status"] == s for e in errata) for s in ("applied", "recorded", "failed")}
    unread = unread_errata_count(root, [name for name in sorted(games) if game_id in (None, name)])
    print(f"{len(errata)} errata: {counts['applied']} applied, {counts['recorded']} recorded, {counts['failed']} failed"
          + (f"; {unread} more not understood (erratum-not-understood in build/report.json)" if unread else ""),
          file=sys.stderr)
    return 0


def named_sections(erratum: dict[str, Any]) -> list[str]:
    """The section numbers an erratum names: its heading's, else its instruction's own."""
    section = (erratum.get("scope") or {}).get("section")
    return list((erratum.get("target_hint") or {}).get("sections") or ([section] if section else []))


def hinted_target(erratum: dict[str, Any]) -> str:
    """What an erratum without a target says of it: outside the corpus only when it is recorded so;
    a failed one names what it looked for."""
    hint = erratum.get("target_hint") or {}
    sections = named_sections(erratum)
    named = ", ".join([f"« {hint['name']} »"] * bool(hint.get("name")) + [f"section {n}" for n in sections]
                      + [f"page {hint['page']}"] * bool(hint.get("page")))
    if erratum["status"] == "recorded":
        return f"{named or '?'} (outside the corpus)"
    return f"(no target found; named: {named})" if named else "(no target found)"


def unread_errata_count(root: Path, games: list[str]) -> int:
    """Passages of the FAQs' errata parts that read like errata but that the errata reader does not
    understand, as the last build reported them (0 without a report)."""
    try:
        report = json.loads((root / "build/report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    return sum(int(report.get("errata", {}).get(game, {}).get("not_understood", 0)) for game in games)


def facts_command(root: Path, game_id: str | None, as_json: bool) -> int:
    games = load_game_files(root)
    if game_id is not None and game_id not in games:
        raise UsageError(f"no game {game_id!r} (known: {', '.join(sorted(games))})")
    facts = [f for name, g in sorted(games.items()) if game_id in (None, name) for f in g.get("facts", [])]
    if as_json:
        print(json.dumps(facts, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    from extract.text import value_text

    for fact in facts:
        stale = "  (PÉRIMÉ: " + fact.get("reason", "") + ")" if fact["status"] == "stale" else ""
        print(f"{fact['id']} = {value_text(fact['value'], fact['unit'])}  — {fact['label']}  [{fact['entry']}]{stale}")
    stale_count = sum(f["status"] == "stale" for f in facts)
    print(f"{len(facts)} facts, {len(facts) - stale_count} hold, {stale_count} stale", file=sys.stderr)
    return 0


def schema_problems(where: str, data: Any, schema: dict[str, Any], limit: int = 20) -> list[str]:
    """What in `data` breaks `schema` (formats checked: a date must be a date), as readable lines."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [f"{where}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {schema_reason(error)}"
            for error in errors[:limit]]


def schema_reason(error: Any) -> str:
    """A validator's message with the value it refused shortened: jsonschema quotes the whole
    value first (an entry of several KB for a JSONL line) and says why after it."""
    quoted = repr(error.instance)
    message = error.message.replace(quoted, one_line(quoted, 60)) if len(quoted) > 60 else error.message
    return one_line(message, 300)


def one_line(message: str, width: int) -> str:
    """`message` on one line, cut at `width` characters (`extract.errors.shortened`)."""
    from extract.errors import shortened

    return shortened(" ".join(message.split()), width)


def check_build(root: Path) -> list[str]:
    """Every problem found in build/, as readable lines (empty: all holds): the game files, the
    report, the static API and the JSON exports against their schemas; parents, references and
    titles; errata; line accounting."""
    import jsonschema

    from extract.contract.schema import SCHEMA_FILES
    from extract.segment.confidence import unaccepted

    problems: list[str] = []
    games = load_game_files(root)
    build = root / "build"
    schemas = {}
    for name, (path, _) in SCHEMA_FILES.items():
        schema = read_build_json(root, f"build/{path}")
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise damaged(f"build/{path}", f"not a JSON Schema: {exc.message[:80]}") from None
        schemas[name] = schema
    ids = {e["id"] for g in games.values() for e in g["entries"]}
    for name, game in games.items():
        problems += schema_problems(f"build/data/{name}.json", game, schemas["game"])
        for entry in game.get("entries", []):
            for ref in entry.get("refs", []):
                if ref.get("target") is not None and ref["target"] not in ids:
                    problems.append(f"{entry['id']}: reference to missing entry {ref['target']}")
            if entry.get("parent") is not None and entry["parent"] not in ids:
                problems.append(f"{entry['id']}: parent {entry['parent']} does not exist")
            if entry.get("original_title") and not entry.get("title"):
                problems.append(f"{entry['id']}: lost its title (printed « {entry['original_title']} »)")
        for erratum in game.get("errata", []):
            if erratum.get("status") == "failed":
                problems.append(f"{erratum['id']}: erratum failed: {erratum.get('reason')}")
    report = read_build_json(root, "build/report.json")
    if not isinstance(report, dict) or not isinstance(report.get("documents"), dict):
        raise damaged("build/report.json", "no documents")
    problems += schema_problems("build/report.json", report, schemas["report"])
    try:
        for game_id, facts in sorted(report.get("facts", {}).items()):
            for fact in facts["stale"]:
                problems.append(f"{game_id}: fact {fact['id']} is stale: {fact['reason']}")
        for key, doc in report["documents"].items():
            if doc["lines_read"] != doc["lines_placed"] + doc["lines_set_aside"]:
                problems.append(f"{key}: lines read {doc['lines_read']} != placed + set aside")
            for anomaly in doc["anomalies"]:
                if anomaly["kind"] == "unrecognised-line":
                    problems.append(f"{key}: lines no profile rule recognised: {anomaly.get('lines')}")
            problems += unaccepted(key, doc["anomalies"])
    except (KeyError, TypeError, AttributeError) as exc:
        raise damaged("build/report.json", f"{type(exc).__name__}: {exc}") from None
    problems += check_api(build, games, schemas)
    problems += check_exports(games, schemas)
    problems.extend(check_index(root, games))
    return problems


def check_api(build: Path, games: dict[str, dict[str, Any]], schemas: dict[str, Any]) -> list[str]:
    """The static JSON API written with the site: one index per game, one file per entry."""
    from extract.publish.api import entry_path

    api = build / "site" / "api"
    if not api.is_dir():
        return ["build/site/api: missing: run `regles build` again"]
    problems: list[str] = []
    for name, game in games.items():
        index_path = api / name / "index.json"
        if not index_path.is_file():
            problems.append(f"build/site/api/{name}/index.json: missing")
            continue
        problems += schema_problems(f"build/site/api/{name}/index.json",
                                    read_build_json(build.parent, f"build/site/api/{name}/index.json"), schemas["api-index"])
        for entry in game.get("entries", []):
            path = api / entry_path(entry["id"])
            if not path.is_file():
                problems.append(f"build/site/api/{entry_path(entry['id'])}: missing")
            elif read_build_json(build.parent, f"build/site/api/{entry_path(entry['id'])}") != entry:
                problems.append(f"build/site/api/{entry_path(entry['id'])}: differs from build/data/{name}.json")
    return problems


def check_exports(games: dict[str, dict[str, Any]], schemas: dict[str, Any]) -> list[str]:
    """The JSON and JSONL exports of this build, made in memory, against their schemas."""
    from extract.publish.export import export_data

    data = export_data(games)
    problems = schema_problems("regles export --format json", data, schemas["export"])
    for n, line in enumerate(export_lines(data), start=1):
        problems += schema_problems(f"regles export --format jsonl, line {n}", line, schemas["export-line"], limit=3)
        if len(problems) > 20:
            break
    return problems


def export_lines(data: dict[str, Any]) -> list[dict[str, Any]]:
    from extract.publish.export import jsonl_records

    return list(jsonl_records(data))


def check_command(root: Path) -> int:
    problems = check_build(root)
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    for gap in document_gaps(root / "build" / "data"):  # said, not failed: the corpus may not know
        print(f"warning: {gap}", file=sys.stderr)
    if problems:
        return 1
    print("build/ is valid: schemas (game files, report, API, exports), references, titles, errata, facts, "
          "line accounting and the search index hold")
    return 0


def document_gaps(data: Path) -> list[str]:
    """What the game files leave a reader without: a document with no version, no date, or that
    does not say whether it is official, an earlier version with no date; one line each, naming the
    manifest to complete."""
    gaps: list[str] = []
    for path in sorted(data.glob("*.json")):
        if path.name == "schema.json":
            continue
        game = json.loads(path.read_text(encoding="utf-8")).get("game", {})
        for doc in game.get("documents", []):
            missing = [what for what, empty in (("no version", not doc.get("version")), ("no date", not doc.get("date")),
                                                ("no official = true|false", "official" not in doc)) if empty]
            if missing:
                gaps.append(f"corpus/{game.get('id')}/game.toml: document {doc.get('id')!r} has "
                            f"{', '.join(missing)} (the site says « non indiqué »)")
            gaps.extend(f"corpus/{game.get('id')}/game.toml: document {doc.get('id')!r}: its earlier version "
                        f"{v.get('version')!r} has no date (its Nouveautés and each rule's history say none)"
                        for v in doc.get("versions", []) if not v.get("date"))
    return gaps


def segment_outside(path: Path, reading: Reading, profile: str, kind: str,
                    game: str) -> tuple[Reading, DocumentSpec, list[Line], list[Anomaly], Segmentation]:
    """A document outside the corpus read as the build reads a book of `kind` with `profile`:
    (its reading, as text when the profile reads raw text, its DocumentSpec, its normalised lines,
    the normalisation's anomalies, its Segmentation)."""
    from extract.read import read_as_text
    from extract.read.normalise import normalise_reading
    from extract.segment import PROFILES, segment_document

    if PROFILES[profile].raw_text and reading.format == "markdown":
        reading = read_as_text(path)
    doc = DocumentSpec(id="document", title=path.stem, kind=kind, version="", date="", source=str(path),
                       first_line=1, last_line=None, profile=profile, options={})
    lines, anomalies, _, aside = normalise_reading(reading, doc)
    return reading, doc, lines, anomalies, segment_document(game, doc, lines, str(path), reading.format, aside)


def extract_document(path: Path, profile: str | None = None) -> dict[str, Any]:
    """Read, normalise, segment and link one document outside the corpus: its entries (as data, with
    the refs the document makes to itself: "voir l'article 3.1.1"), the profile and why, the line
    accounting and every anomaly with its severity."""
    from extract.cli.trial import line_rows
    from extract.link import fill_backrefs, resolve_explicit
    from extract.lookup import Lookup
    from extract.publish.data import entry_json
    from extract.read import read_document as read
    from extract.read.detect import detect
    from extract.segment import PROFILES, book_order
    from extract.segment.choose import choose_profile
    from extract.segment.detect import detect_structure
    from extract.segment.segmenter import counts

    reading = read(path)
    if profile:
        chosen, why = profile, "given with --profile"
    else:
        chosen, why = choose_profile(reading.lines, reading.evidence, reading.format)
    if chosen not in PROFILES:
        raise UsageError(f"unknown profile {chosen!r} (known: {', '.join(sorted(PROFILES))})")
    reading, doc, lines, anomalies, result = segment_outside(path, reading, chosen, "rulebook", "extract")
    numbers = counts(lines, result)
    anomalies = anomalies + detect(lines, anomalies) + result.anomalies + detect_structure(result, numbers["lines_placed"])
    entries = book_order(result.entries)
    # A game of one document: its refs to itself resolve as in the build (no errata, no other book).
    game = GameSpec(id="extract", title=path.stem, documents=[doc], precedence=[], manifest=str(path), sources={})
    anomalies += [anomaly for _, anomaly in resolve_explicit(Lookup(game, entries), [])]
    fill_backrefs(entries)
    return {
        "file": str(path), "format": reading.format, "pages": reading.pages, "profile": chosen, "profile_reason": why,
        "accounting": numbers, "set_aside": [item.to_json() for item in result.set_aside],
        "anomalies": [a.to_json() for a in anomalies],
        "severe": sum(a.severity == "severe" for a in anomalies),
        "entries": [entry_json(e) for e in entries],
        "evidence": reading.evidence, "lines": line_rows(lines),
    }


def extract_command(path: Path, profile: str | None, as_json: bool, with_lines: bool = False) -> int:
    """Exit 0, or 3 when the extraction holds severe anomalies ("extracted, but check the warnings").
    `with_lines`: each line read, with its page and line numbers, instead of the entry tree."""
    found = extract_document(path, profile)
    rows = found.pop("lines")
    if as_json:
        print(json.dumps(found | ({"lines": rows} if with_lines else {}), ensure_ascii=False, indent=1, sort_keys=True))
    elif with_lines:
        print_lines(rows, found["set_aside"])
    else:
        print_tree(found["entries"])
    return print_summary(str(path), found)


def print_lines(rows: list[dict[str, Any]], set_aside: list[dict[str, Any]]) -> None:
    """"p. 4 l. 236–241  Text…": each line the profile reads, where the PDF printed it, and why
    when it is set aside ("[set aside: crédits]")."""
    from extract.cli.trial import line_place

    for row in rows:
        first, last = row["lines"]
        why = next((item["reason"] for item in set_aside if item["lines"][0] <= first and last <= item["lines"][1]), None)
        print(f"{line_place(row)}  {f'[set aside: {why}] ' if why else ''}{row['text']}")


def extract_manifest_command(manifest: Path, document: str | None, as_json: bool, with_lines: bool = False) -> int:
    """`regles extract --manifest`: each document as the build reads it, each entry with where it
    comes from (page and line) so that options can name them. Exit 0, or 3 as `extract_command`."""
    from extract.cli.trial import extract_from_manifest, origin

    found = extract_from_manifest(manifest, document)
    rows = [doc.pop("lines") for doc in found]
    if as_json:
        print(json.dumps([doc | ({"lines": r} if with_lines else {}) for doc, r in zip(found, rows, strict=True)],
                         ensure_ascii=False, indent=1, sort_keys=True))
    code = 0
    for doc, doc_rows in zip(found, rows, strict=True):
        if not as_json:
            print(f"== {doc['document']} ({doc['file']})")
            if with_lines:
                print_lines(doc_rows, doc["set_aside"])
            else:
                print_tree(doc["entries"], origin)
        code = max(code, print_summary(f"{doc['file']} (document {doc['document']})", doc))
        for item in doc["set_aside"] if not as_json else []:
            first, last = item["lines"]
            print(f"  set aside l. {first}{'' if first == last else f'–{last}'}: {item['reason']}", file=sys.stderr)
    return code


def print_tree(entries: list[dict[str, Any]], where: Callable[[dict[str, Any]], str] | None = None) -> None:
    """Entries indented by depth: number, title, the text's start (and where each comes from)."""
    depths: dict[str, int] = {}
    for entry in entries:
        depths[entry["id"]] = depths.get(entry["parent"], -1) + 1
        label = " ".join(x for x in (entry["number"], entry["title"]) if x) or entry["id"].rsplit("/", 1)[-1]
        first = entry["blocks"][0]["text"][:70] if entry["blocks"] else ""
        place = f"[{where(entry)}] " if where else ""
        print(f"{'  ' * depths[entry['id']]}{place}{label} — {first}")


INFO_SHOWN = 20  # anomalies of severity "info" listed one a line by `regles extract`; the rest in --json


def anomaly_line(severity: str, anomaly: dict[str, Any]) -> str:
    """"warning: numbering-gap (l. 12–14, 20): …": its severity, kind, lines and message."""
    where = line_label(anomaly.get("lines", []))
    return f"{severity}: {anomaly['kind']}{f' ({where})' if where else ''}: {anomaly['detail']}"


def line_label(numbers: list[int], shown: int = 4) -> str:
    """"l. 12–14, 20, … (+3 lines)": runs of consecutive line numbers, the first `shown` of them."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    if not runs:
        return ""
    text = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs[:shown])
    rest = sum(b - a + 1 for a, b in runs[shown:])
    return f"l. {text}" + (f", … (+{rest} lines)" if rest else "")


def print_summary(name: str, found: dict[str, Any]) -> int:
    """On stderr: format, profile and why, accounting, warnings; the exit code (3 when severe)."""
    code = 3 if found["severe"] else 0
    numbers = found["accounting"]
    pages = f", {found['pages']} pages" if found["pages"] else ""
    print(f"{name}: {found['format']}{pages}, profile {found['profile']} ({found['profile_reason']}), "
          f"{len(found['entries'])} entries", file=sys.stderr)
    print(f"lines read {numbers['lines_read']} = placed {numbers['lines_placed']} + set aside {numbers['lines_set_aside']}",
          file=sys.stderr)
    by_severity: dict[str, list[dict[str, Any]]] = {}
    for anomaly in found["anomalies"]:
        by_severity.setdefault(anomaly.get("severity", "info"), []).append(anomaly)
    for severity in ("severe", "warning"):
        for anomaly in by_severity.get(severity, []):
            print(anomaly_line(severity, anomaly), file=sys.stderr)
    info = by_severity.get("info", [])
    for anomaly in info[:INFO_SHOWN]:
        print(anomaly_line("info", anomaly), file=sys.stderr)
    if len(info) > INFO_SHOWN:
        print(f"… {len(info) - INFO_SHOWN} more (use --json)", file=sys.stderr)
    if code == 3:
        print("extracted, but check the severe warnings above (exit code 3)", file=sys.stderr)
    return code


def new_command(root: Path, game: str, files: list[Path], title: str | None) -> int:
    from extract.cli.new import new_game

    folder, documents = new_game(root, game, files, title)
    rel = folder.relative_to(root) if folder.is_relative_to(root) else folder
    print(f"created {rel}/ with game.toml and {len(documents)} source(s):")
    for doc in documents:
        print(f"  {doc.id}: {doc.file}, kind {doc.kind} ({doc.kind_reason}), profile {doc.profile} ({doc.profile_reason})")
    print(f"next: fill in version and date in {rel}/game.toml, try `regles extract --manifest {rel}/game.toml`, "
          "then `regles build` and `regles serve`")
    return 0


@reads_build
def export_command(root: Path, fmt: str, out: Path, table: str | None = None, delimiter: str = ",", bom: bool = True,
                   force: bool = False) -> int:
    from extract.publish.export import EXPORTS, ExportOptions, export_data, written_by_export

    if table is not None and fmt != "csv":
        raise UsageError("regles export: --table is for --format csv")
    if len(delimiter) != 1 or delimiter in "\"\r\n":
        raise UsageError(f"regles export: --delimiter must be one character, not {delimiter!r} (try ';')")
    # The corpus is never written; build/ only where an earlier export is (a build replaces build/ whole,
    # and a file put into build/data/ would read as a game file)
    place = out.parent.resolve() / out.name  # the folder's links followed, not a link named `out`
    for area in ("corpus", "build"):
        if place.is_relative_to((root / area).resolve()) and not (area == "build" and written_by_export(place)):
            raise InputError(str(out), f"inside {area}/, which regles export never writes: give a path elsewhere")
    data = export_data(load_game_files(root))
    EXPORTS[fmt].write(data, out, ExportOptions(table=table, delimiter=delimiter, bom=bom, force=force))
    count = sum(len(g["entries"]) for g in data["games"])
    print(f"exported {count} entries and {sum(len(g['errata']) for g in data['games'])} errata as {fmt} to {out}",
          file=sys.stderr if str(out).startswith("/dev/") else sys.stdout)
    return 0
