"""`regles new GAME FILE…` and `regles extract --manifest`: a new game started from its files,
its manifest valid as written, tried document by document with its options."""

from __future__ import annotations

import hashlib
import os
import stat
import tomllib
from pathlib import Path

import pytest

from extract.cli import main
from extract.corpus import load_game
from extract.segment import option_classes
from tests.conftest import SHARED
from tests.read.pdf_maker import new as new_pdf
from tests.read.pdf_maker import numbered_levels, save

RULES = """# Règles du jeu

## Mise en place

Chaque joueur prend six dés.

## Le tour

Le premier joueur lance les dés.
"""
FAQ = """# Questions fréquentes

Q : Peut-on relancer un dé ?
R : Non, jamais.

Q : Qui commence ?
R : Le plus jeune joueur.
"""


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def with_options(manifest: Path, options: str, template: str | None = None) -> str:
    """Write `manifest` (or `template`) with its commented options table opened and `options` in
    it, as a user trying an option would; the text written."""
    text = (template or manifest.read_text(encoding="utf-8")).replace(
        "# [documents.options]", "[documents.options]\n" + options)
    manifest.write_text(text, encoding="utf-8")
    return text


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "incoming"
    folder.mkdir()
    (folder / "Règles du Jeu.md").write_text(RULES, encoding="utf-8")
    (folder / "faq.txt").write_text(FAQ, encoding="utf-8")
    return [folder / "Règles du Jeu.md", folder / "faq.txt"]


def test_new_writes_a_manifest_that_loads_with_hashes_kinds_and_reasons(tmp_path, files, capsys):
    root = tmp_path / "project"
    code, out, _ = run(capsys, "--root", str(root), "new", "mon-jeu", *map(str, files), "--title", "Mon Jeu")
    assert code == 0 and "created corpus/mon-jeu/" in out
    folder = root / "corpus" / "mon-jeu"
    assert sorted(p.name for p in folder.iterdir()) == ["faq.txt", "game.toml", "regles-du-jeu.md"]
    assert (folder / "regles-du-jeu.md").read_bytes() == files[0].read_bytes()
    manifest = (folder / "game.toml").read_text(encoding="utf-8")
    data = tomllib.loads(manifest)
    assert data["title"] == "Mon Jeu"
    assert {s["file"]: s["sha256"] for s in data["sources"]} == {
        "regles-du-jeu.md": hashlib.sha256(files[0].read_bytes()).hexdigest(),
        "faq.txt": hashlib.sha256(files[1].read_bytes()).hexdigest()}
    docs = {d["id"]: d for d in data["documents"]}
    assert docs["faq"]["kind"] == "faq" and docs["faq"]["profile"] == "faq"
    assert docs["regles-du-jeu"]["kind"] == "rulebook" and docs["regles-du-jeu"]["profile"] == "headed-prose"
    assert docs["regles-du-jeu"]["title"] == "Règles du jeu"
    assert 'kind = "faq"  # guessed: the file name says « faq »' in manifest
    assert 'profile = "faq"  # guessed: ' in manifest
    # every option the faq profile declares is offered, commented, with its meaning
    for name in option_classes()["faq"].__dataclass_fields__:
        assert f"\n# {name} = " in manifest
    assert "#   array of strings: the words that open a question" in manifest
    game = load_game(folder / "game.toml", root, option_classes())
    assert [d.id for d in game.documents] == ["regles-du-jeu", "faq"]


def test_an_uncommented_option_is_read_as_the_profile_declares_it(tmp_path, files, capsys):
    root = tmp_path / "project"
    run(capsys, "--root", str(root), "new", "jeu", str(files[1]))
    path = root / "corpus" / "jeu" / "game.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("# [documents.options]", "[documents.options]").replace('# question_prefixes = ["Q", "Question"]',
                                                                              'question_prefixes = ["Q", "Question"]')
    path.write_text(text, encoding="utf-8")
    assert load_game(path, root, option_classes()).documents[0].options.question_prefixes == ("Q", "Question")


def test_new_refuses_an_existing_game_and_overwrites_nothing(tmp_path, files, capsys):
    root = tmp_path / "project"
    (root / "corpus" / "jeu").mkdir(parents=True)
    (root / "corpus" / "jeu" / "game.toml").write_text("# mine\n", encoding="utf-8")
    code, out, err = run(capsys, "--root", str(root), "new", "jeu", str(files[0]))
    assert code == 1 and out == ""
    assert err == "error: corpus/jeu: already exists: `regles new` never overwrites a game (choose another id)\n"
    assert (root / "corpus" / "jeu" / "game.toml").read_text(encoding="utf-8") == "# mine\n"


def test_new_refuses_a_bad_id_or_a_missing_file_and_creates_nothing(tmp_path, files, capsys):
    root = tmp_path / "project"
    code, _, err = run(capsys, "--root", str(root), "new", "Mon Jeu", str(files[0]))
    assert code == 2 and "must be lowercase letters, digits and hyphens" in err
    code, _, err = run(capsys, "--root", str(root), "new", "jeu", str(files[0]), str(tmp_path / "absent.pdf"))
    assert code == 1 and err.count("\n") == 1 and "absent.pdf: no such file" in err
    assert not (root / "corpus" / "jeu").exists() and not list(root.glob(".regles-new-*"))


def test_extract_manifest_reads_with_the_options_and_shows_pages_and_lines(tmp_path, capsys):
    source = numbered_levels(tmp_path / "livre.pdf")
    root = tmp_path / "project"
    assert run(capsys, "--root", str(root), "new", "livre", str(source))[0] == 0
    manifest = root / "corpus" / "livre" / "game.toml"
    code, out, err = run(capsys, "extract", "--manifest", str(manifest))
    assert code == 0
    assert out.splitlines()[0] == "== livre (corpus/livre/livre.pdf)"
    assert "[p. 1, l. 1" in out  # where each entry comes from
    accounting = next(line for line in err.splitlines() if line.startswith("lines read"))
    read = int(accounting.split()[2])
    # the first line set aside by the manifest: the try-loop shows it at once
    with_options(manifest, 'set_aside = [{ lines = [1, 1], reason = "titre" }]')
    code, out, err = run(capsys, "extract", "--manifest", str(manifest), "--document", "livre")
    assert code == 0 and f"lines read {read} = placed {read - 1} + set aside 1" in err
    assert "  set aside l. 1: titre" in err


def test_extract_manifest_fails_on_a_bad_option_at_its_line(tmp_path, files, capsys):
    root = tmp_path / "project"
    run(capsys, "--root", str(root), "new", "jeu", str(files[0]))
    manifest = root / "corpus" / "jeu" / "game.toml"
    text = with_options(manifest, 'captions = ["Figure 9"]')
    line = text.splitlines().index('captions = ["Figure 9"]') + 1
    code, out, err = run(capsys, "extract", "--manifest", str(manifest))
    assert code == 1 and out == ""
    assert err == (f"error: corpus/jeu/game.toml:{line}: document 'regles-du-jeu': captions item 1: 'Figure 9' is "
                   "printed nowhere in the document\n")


def test_extract_manifest_names_an_unknown_document_and_refuses_a_file_beside_it(tmp_path, files, capsys):
    root = tmp_path / "project"
    run(capsys, "--root", str(root), "new", "jeu", *map(str, files))
    manifest = str(root / "corpus" / "jeu" / "game.toml")
    code, _, err = run(capsys, "extract", "--manifest", manifest, "--document", "regles")
    assert code == 1 and "no document 'regles' (declared: regles-du-jeu, faq)" in err
    code, _, err = run(capsys, "extract", str(files[0]), "--manifest", manifest)
    assert code == 2 and "give no FILE" in err
    code, out, _ = run(capsys, "extract", "--manifest", manifest, "--document", "faq", "--json")
    assert code == 0 and '"document": "faq"' in out and '"profile": "faq"' in out


def test_extract_manifest_lines_shows_each_line_and_what_the_manifest_sets_aside(tmp_path, files, capsys):
    root = tmp_path / "project"
    run(capsys, "--root", str(root), "new", "jeu", str(files[0]))
    manifest = root / "corpus" / "jeu" / "game.toml"
    with_options(manifest, 'set_aside = [{ lines = [5, 5], reason = "exemple" }]')
    code, out, _ = run(capsys, "extract", "--manifest", str(manifest), "--lines")
    assert code == 0
    assert out.splitlines() == ["== regles-du-jeu (corpus/jeu/regles-du-jeu.md)", "l. 1  # Règles du jeu",
                                "l. 3  ## Mise en place", "l. 5  [set aside: exemple] Chaque joueur prend six dés.",
                                "l. 7  ## Le tour", "l. 9  Le premier joueur lance les dés."]


def test_new_writes_official_with_its_guidance_and_says_which_titles_are_guessed(tmp_path, files, capsys):
    root = tmp_path / "project"
    assert run(capsys, "--root", str(root), "new", "mon-jeu", *map(str, files))[0] == 0
    manifest = (root / "corpus" / "mon-jeu" / "game.toml").read_text(encoding="utf-8")
    lines = manifest.splitlines()
    assert 'title = "Mon jeu"  # guessed: from the game\'s id (give --title)' in lines
    assert 'title = "Règles du jeu"  # guessed: the document\'s first line' in lines
    assert lines.count("official = false  # or true: the publisher's own document (false: a fan's, a club's, "
                       "a player's)") == 2
    game = load_game(root / "corpus" / "mon-jeu" / "game.toml", root, option_classes())
    assert [(d.title, d.official) for d in game.documents] == [("Règles du jeu", False), ("Questions fréquentes", False)]


def test_new_makes_its_folder_with_the_umasks_mode(tmp_path, files, capsys):
    root = tmp_path / "project"
    old = os.umask(0o022)
    try:
        assert run(capsys, "--root", str(root), "new", "jeu", str(files[0]))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((root / "corpus" / "jeu").stat().st_mode) == 0o755


def test_a_pdf_without_text_layer_is_said_of_the_users_file(tmp_path, capsys):
    pdf = new_pdf()
    pdf.add_page()
    pdf.rect(50, 50, 200, 100, style="F")
    path = save(pdf, tmp_path / "scan.pdf")
    root = tmp_path / "project"
    code, out, err = run(capsys, "--root", str(root), "new", "jeu", str(path))
    assert code == 1 and out == ""
    assert err.startswith(f"error: {path}: no text layer") and err.count("\n") == 1
    assert not (root / "corpus" / "jeu").exists()


KAHMATE = SHARED / "external" / "french-rules-devset" / "kahmate" / "regle.pdf"


@pytest.mark.corpus  # a real PDF read
@pytest.mark.skipif(not KAHMATE.is_file(), reason="../shared/external/french-rules-devset is absent")
def test_a_real_pdfs_credits_set_aside_by_line_as_a_newcomer_did(tmp_path, capsys):
    root = tmp_path / "project"
    assert run(capsys, "--root", str(root), "new", "kahmate", str(KAHMATE))[0] == 0
    manifest = root / "corpus" / "kahmate" / "game.toml"
    template = manifest.read_text(encoding="utf-8")

    def extract(options: str, *more: str) -> tuple[int, str, str]:
        with_options(manifest, options, template)
        return run(capsys, "extract", "--manifest", str(manifest), *more)

    code, out, _ = extract("", "--lines")
    rows = out.splitlines()
    # the credits at the foot of the last page: one of them printed over two lines, read as one
    credit = next(row for row in rows if "Illustré par" in row)
    first, last = (int(n) for n in credit.split(" l. ")[1].split()[0].split("–"))
    assert code == 0 and credit.startswith("p. 4 l. ") and last == first + 1
    code, out, err = extract(f'set_aside = [{{ lines = [{last}, {last}], reason = "crédits" }}]')
    assert code == 1 and out == ""
    assert f"lines [{last}, {last}] cut the paragraph of lines {first}–{last} (p. 4)" in err and err.count("\n") == 1
    code, _, err = extract(f'set_aside = [{{ lines = [{first}, {last}], reason = "crédits" }}]\noutline = ["# Le jeu"]')
    assert code == 0 and "set aside 2" in err and "unrecognised" not in err and "outline" not in err
