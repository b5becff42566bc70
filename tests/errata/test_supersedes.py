"""`supersedes` of an errata file (issue 38): the project's own schema takes it (`regles check`
failed on its own output), and a cycle, or an id that names no erratum, is one line at the file."""

from __future__ import annotations

import jsonschema
import pytest

from extract.contract.schema import GAME_SCHEMA
from extract.errata.files import read_errata_file
from extract.errata.supersedes import check_supersedes
from extract.model import DocumentSpec, GameSpec
from extract.publish.data import game_json

ERRATUM = """
[[errata]]
target = "regles/{target}"
operation = "replace"
block = "paragraph"
ordinal = 1
text = "Nouveau texte {n}."
{supersedes}
"""


def errata_file(tmp_path, name: str, *items: tuple[str, str | None]) -> list:
    path = tmp_path / "corpus/demo/errata" / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(ERRATUM.format(target=target, n=n, supersedes=f'supersedes = "{other}"' if other else "")
                   for n, (target, other) in enumerate(items))
    path.write_text('source = "Arbitre"\ndate = "2026-01-01"\n' + body, encoding="utf-8")
    return read_errata_file(path, tmp_path, "demo")


def test_the_game_schema_takes_supersedes(tmp_path):
    errata = errata_file(tmp_path, "a", ("un", None)) + errata_file(tmp_path, "b", ("un", "a/errata/regles/un"))
    assert errata[1].origin["supersedes"] == "demo/a/errata/regles/un"
    for erratum in errata:  # as a build leaves an erratum it did not apply
        erratum.reason = "not applied here"
    document = DocumentSpec("regles", "Règles", "rulebook", "1", "2024", "corpus/demo/regles.txt", 1, None, "headed-prose", {})
    game = GameSpec("demo", "Démo", [document], [], "corpus/demo/game.toml", {"corpus/demo/regles.txt": "ab" * 32})
    data = game_json(game, [], errata)
    assert data["errata"][1]["origin"]["supersedes"] == "demo/a/errata/regles/un"
    jsonschema.validate(data, GAME_SCHEMA)


def test_a_supersede_chain_is_accepted(tmp_path):
    errata = errata_file(tmp_path, "a", ("un", None), ("un", "a/errata/regles/un"), ("un", "a/errata/regles/un~2"))
    assert check_supersedes(errata) == []


def test_a_supersede_cycle_is_refused_at_its_line(tmp_path):
    errata = errata_file(tmp_path, "a", ("un", "b/errata/regles/un")) + errata_file(tmp_path, "b", ("un", "a/errata/regles/un"))
    problems = check_supersedes(errata)
    assert [str(p) for p in problems] == [
        "corpus/demo/errata/a.toml:4: supersedes makes a cycle: demo/a/errata/regles/un → demo/b/errata/regles/un "
        "→ demo/a/errata/regles/un (one of them must come first)"]


def test_an_erratum_superseding_itself_is_refused(tmp_path):
    problems = check_supersedes(errata_file(tmp_path, "a", ("un", "a/errata/regles/un")))
    assert len(problems) == 1 and "supersedes makes a cycle: demo/a/errata/regles/un → demo/a/errata/regles/un" in str(problems[0])


def test_supersedes_naming_no_erratum_is_refused(tmp_path):
    problems = check_supersedes(errata_file(tmp_path, "a", ("un", "a/errata/regles/deux")))
    assert [str(p) for p in problems] == ["corpus/demo/errata/a.toml:4: supersedes 'demo/a/errata/regles/deux' names no "
                                          "erratum of the game"]


def test_schema_refuses_a_supersedes_that_is_no_erratum_id(tmp_path):
    errata = errata_file(tmp_path, "a", ("un", None))
    document = DocumentSpec("regles", "Règles", "rulebook", "1", "2024", "corpus/demo/regles.txt", 1, None, "headed-prose", {})
    game = GameSpec("demo", "Démo", [document], [], "corpus/demo/game.toml", {"corpus/demo/regles.txt": "ab" * 32})
    data = game_json(game, [], errata)
    data["errata"][0]["origin"]["supersedes"] = "pas un id"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, GAME_SCHEMA)
