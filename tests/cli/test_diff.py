"""`regles diff OLD NEW` on real successive versions (../shared/external), against counts made by
hand before the tool was first run."""

from __future__ import annotations

import json

import pytest

from extract.cli import main
from tests.conftest import ROOT, SHARED
from tests.helpers import phare_with_versions

EXTERNAL = SHARED / "external"
DEADZONE = EXTERNAL / "deadzone-v2"
MTG = EXTERNAL / "mtg-comprules-2versions"
INITIAL, MID, LAST = (DEADZONE / f"deadzone-v2-boot_camp-fr_{v}.md" for v in ("e2ccc1c_initial", "4e8c5f5_mid", "2bb1471_last"))


def diff(capsys, *args: str) -> dict:
    assert main(["diff", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# How the Deadzone counts were made: `grep -n '^#'` on each file for the headings (the entries of
# the headed-prose reading), then `git diff --no-index --word-diff` between versions, each change
# read and judged: emphasis marks (_x_, **x**), list markers (- / +, 1. / 1)) and lines re-wrapped
# are no change of wording.
# initial → mid: 12 headings in both; 16 new headings (Jets de Dés … Mission de Patrouille
# Standard); a map figure added under "Placer les Objets et les Objectifs" (not counted below: the
# Markdown reader leaves images out, so no reading of the file holds it); no other word changed.
# mid → last: 10 new headings (Profil, Groupe de Combat Prédéfinis, ACTIONS and its 7 subheadings);
# "Jets de Dés" retitled "JETS DE DES" (case and accents only: the same title); one word changed:
# the third step of "Test de Commandement" renumbered "2) Réserver" → "3) Réserver".
HEADINGS_ADDED_MID_TO_LAST = {"Profil", "Groupe de Combat Prédéfinis", "ACTIONS", "IMPORTANT! Restrictions:",
                              "Se Déplacer (courte)", "Position dans un cube.", "Capacité d’un cube",
                              "Avancez vers un ennemi", "S’éloigner d’un ennemi", "Sprinter (longue)"}


@pytest.mark.skipif(not DEADZONE.is_dir(), reason="../shared/external/deadzone-v2 is absent")
def test_deadzone_initial_to_mid_matches_the_hand_count(capsys):
    found = diff(capsys, str(INITIAL), str(MID))
    assert found["counts"] == {"added": 16, "removed": 0, "moved": 0, "changed": 0, "unchanged": 12}
    assert found["added"][0]["title"] == "Jets de Dés" and found["added"][-1]["title"] == "Mission de Patrouille Standard"


@pytest.mark.skipif(not DEADZONE.is_dir(), reason="../shared/external/deadzone-v2 is absent")
def test_deadzone_mid_to_last_matches_the_hand_count(capsys):
    found = diff(capsys, str(MID), str(LAST))
    counts = found["counts"]
    assert (counts["removed"], counts["moved"], counts["changed"]) == (0, 0, 1)
    assert [c["to"]["title"] for c in found["changed"]] == ["Test de Commandement"]
    assert ["-", "2."] in found["changed"][0]["words"] and ["+", "3."] in found["changed"][0]["words"]
    titles = {e["title"] for e in found["added"]}
    assert HEADINGS_ADDED_MID_TO_LAST <= titles
    # beyond the headings, the reading makes an entry of each bold label of the new "Profil"
    # section ("**Nom :**", "**Type :**" …: 14, counted in the file after the first run): new too
    assert len(titles - HEADINGS_ADDED_MID_TO_LAST) == counts["added"] - 10 == 14
    assert counts["unchanged"] == 28 - 1  # the 28 headings of mid, one changed


@pytest.mark.skipif(not DEADZONE.is_dir(), reason="../shared/external/deadzone-v2 is absent")
def test_the_text_report_names_each_change(capsys):
    assert main(["diff", str(MID), str(LAST)]) == 0
    out, err = capsys.readouterr()
    assert "+ Profil\n" in out and "~ Test de Commandement\n" in out and "[-2.-] {+3.+} Réserver" in out
    assert "24 ajoutées, 0 retirées, 0 déplacées ou renumérotées, 1 modifiées, 27 inchangées" in err


# How the Magic counts were made: `diff` of the two files, each hunk read. Rule by rule (the
# numbered-outline reading keeps sub-rules such as 100.2a inside their rule): added 102.4;
# removed 103.6 (past the 2020 excerpt's 16,000 characters); changed 100.2 (60/40 cards as a
# "minimum deck size", new 100.2c), 100.5, 101.2 (its cross-reference 112.10 → 113.10), 103.1
# (a new 103.1b on companions pushing Commander and Conspiracy to 103.1c-d), 103.4 (the new
# mulligan), 103.5 (cut by the excerpt). The table of contents: "111. Tokens", "715. Adventurer
# Cards" and "721. Merging with Permanents" new, 17 sections renumbered (111-121 → 112-122;
# 715, 717-721 → 716, 718-720, 722-723), "716. Ending the Turn" renamed "717. Ending Turns and
# Phases" (found as one removed and one added: titles of three and four words sharing two).
@pytest.mark.skipif(not MTG.is_dir(), reason="../shared/external/mtg-comprules-2versions is absent")
def test_magic_comprehensive_rules_2018_to_2020_match_the_hand_count(capsys):
    found = diff(capsys, str(MTG / "MagicCompRules_20180810_first16000chars.txt"),
                 str(MTG / "MagicCompRules_20200601_first16000chars.txt"), "--profile", "numbered-outline")
    rules = {"added": [e["number"] for e in found["added"] if e["number"] and "." in e["number"]],
             "removed": [e["number"] for e in found["removed"] if e["number"] and "." in e["number"]],
             "changed": [c["to"]["number"] for c in found["changed"] if c["to"]["number"] and "." in c["to"]["number"]]}
    assert rules == {"added": ["102.4"], "removed": ["103.6"],
                     "changed": ["100.2", "100.5", "101.2", "103.1", "103.4", "103.5"]}
    contents_added = {e["number"] for e in found["added"] if e["number"] and "." not in e["number"]}
    assert contents_added == {"111", "715", "721", "717"}  # 717: "Ending the Turn" renamed, see above
    moved = [(m["from"]["number"], m["to"]["number"]) for m in found["moved"]]
    assert len(moved) == 17 and ("111", "112") in moved and ("721", "723") in moved
    assert all(not m["changed"] for m in found["moved"])


def test_two_names_that_are_not_files_say_what_is_missing(tmp_path, capsys):
    assert main(["--root", str(tmp_path), "diff", "nulle", "part"]) == 2
    assert "no game 'nulle' (no corpus/nulle/game.toml), nor two files named nulle and part" in capsys.readouterr().err
    real = tmp_path / "a.md"
    real.write_text("# Titre\n\nTexte.\n", encoding="utf-8")
    assert main(["diff", str(real), str(tmp_path / "absent.md")]) == 2
    assert "absent.md" in capsys.readouterr().err


V1 = "Mise en place\n\nChaque joueur prend dix pions.\n\nTour de jeu\n\nLe premier joueur lance deux dés.\n"
V2 = ("Mise en place\n\nChaque joueur prend douze pions.\n\nTour de jeu\n\nLe premier joueur lance deux dés.\n\n"
      "Fin de partie\n\nLa partie dure six tours.\n")
V3 = V2 + "\nVictoire\n\nLe joueur qui a le plus de points gagne.\n"


def versioned_corpus(root, versions: str = "") -> None:
    """A game whose rulebook (v3, current) lists its two earlier versions."""
    import hashlib

    folder = root / "corpus" / "demo"
    folder.mkdir(parents=True)
    sources = ""
    for name, text in (("v1.txt", V1), ("v2.txt", V2), ("v3.txt", V3)):
        (folder / name).write_text(text, encoding="utf-8")
        sources += f'[[sources]]\nfile = "{name}"\nsha256 = "{hashlib.sha256(text.encode()).hexdigest()}"\n\n'
    (folder / "game.toml").write_text(f"""id = "demo"
title = "Démo"

{sources}[[documents]]
id = "regles"
title = "Règles"
kind = "rulebook"
version = "3"
date = "2021-06-01"
source = "v3.txt"
profile = "headed-prose"
{versions or '''
[[documents.versions]]
version = "1"
date = "2019"
source = "v1.txt"

[[documents.versions]]
version = "2"
date = "2020-03-15"
source = "v2.txt"
'''}""", encoding="utf-8")


def test_a_corpus_document_s_versions_are_compared_from_its_manifest(tmp_path, capsys):
    versioned_corpus(tmp_path)
    root = ["--root", str(tmp_path)]
    assert main([*root, "diff", "demo", "regles", "--json"]) == 0  # by default: the current one and the one before
    found = json.loads(capsys.readouterr().out)
    assert found["counts"] == {"added": 1, "removed": 0, "moved": 0, "changed": 0, "unchanged": 3}
    assert found["added"][0]["title"] == "Victoire" and found["from"]["version"] == "2" and found["to"]["date"] == "2021-06-01"
    assert main([*root, "diff", "demo", "regles", "--from", "1", "--to", "2", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [e["title"] for e in found["added"]] == ["Fin de partie"]
    assert [c["to"]["id"] for c in found["changed"]] == ["demo/regles/mise-en-place"]
    assert ["-", "dix"] in found["changed"][0]["words"] and ["+", "douze"] in found["changed"][0]["words"]
    assert main([*root, "diff", "demo", "regles", "--from", "4"]) == 2
    assert "has no version '4' (its versions: 1, 2, 3)" in capsys.readouterr().err


def test_a_version_s_source_must_be_declared_and_its_version_new(tmp_path, capsys):
    versioned_corpus(tmp_path, '\n[[documents.versions]]\nversion = "1"\nsource = "absent.txt"\n')
    assert main(["--root", str(tmp_path), "diff", "demo", "regles"]) == 1
    assert "corpus/demo/game.toml:" in (err := capsys.readouterr().err) and "'absent.txt', which no [[sources]]" in err
    (tmp_path / "corpus").rename(tmp_path / "old")
    versioned_corpus(tmp_path, '\n[[documents.versions]]\nversion = "3"\nsource = "v1.txt"\n')
    assert main(["--root", str(tmp_path), "diff", "demo", "regles"]) == 1
    assert "version '3' of document 'regles' is listed twice (or is the current one)" in capsys.readouterr().err


def test_a_corpus_with_versions_builds_and_its_game_file_lists_them(tmp_path):
    versioned_corpus(tmp_path)
    assert main(["--root", str(tmp_path), "build"]) == 0
    doc = json.loads((tmp_path / "build/data/demo.json").read_text(encoding="utf-8"))["game"]["documents"][0]
    assert doc["versions"] == [{"version": "1", "date": "2019", "source": "corpus/demo/v1.txt"},
                               {"version": "2", "date": "2020-03-15", "source": "corpus/demo/v2.txt"}]
    assert main(["--root", str(tmp_path), "check"]) == 0
    page = (tmp_path / "build/site/demo/regles/index.html").read_text(encoding="utf-8")
    assert "Versions antérieures : 1 (2019), 2 (2020-03-15)." in page
    # "Nouveautés": one page per version, listed newest first on the document's page
    news = page.split('id="nouveautes"', 1)[1]
    assert news.index("Version 3 (2021-06-01), depuis la version 2 (2020-03-15)") < news.index("Version 2 (2020-03-15), depuis")
    assert '<a href="_nouveautes/version-3/">Version 3 (2021-06-01), depuis la version 2 (2020-03-15)</a>' in news
    site = tmp_path / "build/site/demo/regles/_nouveautes"
    three, two = ((site / f"version-{n}/index.html").read_text(encoding="utf-8") for n in (3, 2))
    assert '<a href="../../victoire/">Victoire</a>' in three and "Fin de partie" not in three.split("Ajoutées", 1)[1]
    assert '<a href="../../fin-de-partie/">Fin de partie</a>' in two
    assert "Chaque joueur prend <del>dix</del> <ins>douze</ins> pions." in two
    assert '<a href="../version-3/">Version suivante</a>' in two and '<a href="../version-2/">Version précédente</a>' in three
    # each rule's history on its page
    rule = (tmp_path / "build/site/demo/regles/mise-en-place/index.html").read_text(encoding="utf-8")
    assert "Historique : 1 changement" in rule and "Présente dans les versions 1 (2019), 2 (2020-03-15), 3 (2021-06-01)." in rule
    assert '<a href="../_nouveautes/version-2/">Version 2 (2020-03-15)</a> (depuis la version 1 (2019)) : modifiée' in rule
    added = (tmp_path / "build/site/demo/regles/victoire/index.html").read_text(encoding="utf-8")
    assert "Version 3 (2021-06-01)</a> (depuis la version 2 (2020-03-15)) : ajoutée" in added
    assert "Présente dans les versions 3 (2021-06-01)." in added
    assert "Historique" not in (tmp_path / "build/site/demo/regles/tour-de-jeu/index.html").read_text(encoding="utf-8")


# -- errata newly applied ---------------------------------------------------------------------------

def corpus_diff(capsys, root, *args: str) -> dict:
    assert main(["--root", str(root), "diff", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def write_game(folder, manifest: str, files: dict[str, str | bytes]) -> None:
    """corpus/<game>/ with `files` and a manifest whose `{sha:NAME}` marks become each file's sha256."""
    import hashlib

    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        data = text.encode("utf-8") if isinstance(text, str) else text
        (folder / name).write_bytes(data)
        manifest = manifest.replace(f"{{sha:{name}}}", hashlib.sha256(data).hexdigest())
    (folder / "game.toml").write_text(manifest, encoding="utf-8")


ERRATA_FAQ = """# Questions fréquentes

## Errata

Dans le premier paragraphe de la section « Mise en place », remplacez « dix » par « douze ».

Dans la section « Fin de partie », remplacez « six tours » par « huit tours ».
"""


def test_errata_newly_applied_and_no_longer_applied_between_two_versions(tmp_path, capsys):
    """Version 2 prints "douze" (the FAQ's first erratum, which now changes nothing) and adds "Fin
    de partie" (which the second erratum changes, and could not in version 1)."""
    write_game(tmp_path / "corpus" / "demo", """id = "demo"
title = "Démo"

[[sources]]
file = "v1.txt"
sha256 = "{sha:v1.txt}"

[[sources]]
file = "v2.txt"
sha256 = "{sha:v2.txt}"

[[sources]]
file = "faq.md"
sha256 = "{sha:faq.md}"

[[documents]]
id = "regles"
title = "Règles"
kind = "rulebook"
version = "2"
source = "v2.txt"
profile = "headed-prose"

[[documents.versions]]
version = "1"
source = "v1.txt"

[[documents]]
id = "faq"
title = "FAQ"
kind = "faq"
source = "faq.md"
profile = "faq"
""", {"v1.txt": V1, "v2.txt": V2, "faq.md": ERRATA_FAQ})
    root = ["--root", str(tmp_path)]
    assert main([*root, "diff", "demo", "regles", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["errata"]
    assert [(e["target"], e["from"]["status"], e["to"]["status"]) for e in found["newly_applied"]] == [
        ("demo/regles/fin-de-partie", "failed", "applied")]
    assert [(e["target"], e["from"]["changes_text"], e["to"]["status"], e["to"]["changes_text"])
            for e in found["no_longer_applied"]] == [("demo/regles/mise-en-place", True, "applied", False)]
    assert main([*root, "diff", "demo", "regles"]) == 0
    out, err = capsys.readouterr()
    assert "E+ demo/faq/errata/questions-frequentes/errata~2 → demo/regles/fin-de-partie (replace); avant : failed" in out
    assert "E- demo/faq/errata/questions-frequentes/errata → demo/regles/mise-en-place (replace); maintenant : le texte le dit déjà" in out
    assert "errata : 1 nouvellement appliqués, 1 qui ne s'appliquent plus" in err


def test_two_files_have_no_errata_to_compare(tmp_path, capsys):
    (tmp_path / "a.txt").write_text(V1, encoding="utf-8")
    (tmp_path / "b.txt").write_text(V2, encoding="utf-8")
    assert diff(capsys, str(tmp_path / "a.txt"), str(tmp_path / "b.txt"))["errata"] is None


def test_the_worked_example_s_faq_1_1_brings_its_erratum(tmp_path, capsys):
    """examples/phare/game-with-versions.toml: the FAQ 1.0 (two questions) before the 1.1 (a third
    question and the erratum on rule 3.2)."""
    phare_with_versions(tmp_path)
    found = corpus_diff(capsys, tmp_path, "phare", "faq-du-phare")
    assert (found["from"]["version"], found["to"]["version"]) == ("1.0", "1.1")
    assert [(e["target"], e["operation"], e["from"]) for e in found["errata"]["newly_applied"]] == [
        ("phare/regles-du-phare/3.2", "replace", None)]
    assert found["errata"]["no_longer_applied"] == []
    assert sum(e["id"].endswith("/q3") for e in found["added"]) == 1


@pytest.mark.skipif(not DEADZONE.is_dir(), reason="../shared/external/deadzone-v2 is absent")
def test_deadzone_versions_with_an_errata_file_say_which_version_takes_it(tmp_path, capsys):
    """The Deadzone versions as a corpus game, with an errata file written for this test: its
    erratum on "Sprinter (longue)" (a section the last version adds) is newly applied from mid to
    last, and no longer applies from last back to mid; the one on "Test de Commandement" applies
    to both."""
    write_game(tmp_path / "corpus" / "deadzone", f"""id = "deadzone"
title = "Deadzone"

[[sources]]
file = "{MID.name}"
sha256 = "{{sha:{MID.name}}}"

[[sources]]
file = "{LAST.name}"
sha256 = "{{sha:{LAST.name}}}"

[[documents]]
id = "boot-camp"
title = "Boot Camp"
kind = "rulebook"
version = "last"
source = "{LAST.name}"

[[documents.versions]]
version = "mid"
source = "{MID.name}"
""", {MID.name: MID.read_bytes(), LAST.name: LAST.read_bytes()})
    write_game(tmp_path / "corpus" / "deadzone" / "errata", "", {"arbitre.toml": """source = "Décision d'arbitre (écrite pour ce test)"
date = "2026-03-14"

[[errata]]
target = "boot-camp/actions/sprinter-longue"
instruction = "Remplacez « seconde valeur de Vitesse » par « seconde valeur de Vitesse, plus un »."

[[errata]]
target = "boot-camp/jouer-une-partie/test-de-commandement"
instruction = "Remplacez « de relancer votre test » par « de relancer une fois votre test »."
"""})
    (tmp_path / "corpus" / "deadzone" / "errata" / "game.toml").unlink()
    found = corpus_diff(capsys, tmp_path, "deadzone", "boot-camp")
    assert found["counts"]["changed"] == 1 and found["counts"]["added"] == 24  # as two files (above)
    assert [e["target"] for e in found["errata"]["newly_applied"]] == ["deadzone/boot-camp/actions/sprinter-longue"]
    assert found["errata"]["no_longer_applied"] == []
    back = corpus_diff(capsys, tmp_path, "deadzone", "boot-camp", "--from", "last", "--to", "mid")
    assert back["errata"]["newly_applied"] == []
    assert [(e["target"], e["to"]["status"]) for e in back["errata"]["no_longer_applied"]] == [
        ("deadzone/boot-camp/actions/sprinter-longue", "failed")]


@pytest.mark.corpus  # a whole build (of the worked example)
def test_a_version_s_page_lists_the_errata_it_newly_takes(tmp_path):
    phare_with_versions(tmp_path)
    assert main(["--root", str(tmp_path), "build"]) == 0
    site = tmp_path / "build" / "site" / "phare"
    faq = (site / "faq-du-phare/index.html").read_text(encoding="utf-8")
    assert '<a href="_nouveautes/version-1-1/">Version 1.1 (2026-03), depuis la version 1.0 (2026-01)</a>' in faq
    assert "1 erratum(s) nouvellement appliqué(s)" in faq
    page = (site / "faq-du-phare/_nouveautes/version-1-1/index.html").read_text(encoding="utf-8")
    applied = page.split('id="errata-appliques"', 1)[1]
    assert '<a href="../../../regles-du-phare/3/#3.2">3.2 Attaque</a>' in applied and "absent de la version précédente" in applied
    assert 'href="../../../errata/#erratum-' in applied
    assert "Errata qui ne s&rsquo;appliquent plus" not in page and "Errata qui ne s'appliquent plus" not in page
    worker = (tmp_path / "build" / "site" / "sw.js").read_text(encoding="utf-8")
    assert "phare/faq-du-phare/_nouveautes/version-1-1/" in worker  # stored for offline use like every page


@pytest.mark.parametrize(("manifest", "let_go"), [("game-with-versions.toml", 0), ("game.toml", 1)])
def test_the_errata_reader_is_let_go_of_only_when_no_earlier_version_is_left_to_read(tmp_path, monkeypatch, manifest, let_go):
    """A one-shot build lets go of spaCy once every text is tagged, but not while the site still
    reads an earlier version's FAQ errata (it would load the model a second time)."""
    from extract.pipeline import stages

    calls: list[None] = []
    monkeypatch.setattr(stages, "forget_reader", lambda: calls.append(None))
    folder = phare_with_versions(tmp_path)
    (folder / "game.toml").write_bytes((ROOT / "examples" / "phare" / manifest).read_bytes())
    assert main(["--root", str(tmp_path), "build"]) == 0
    assert len(calls) == let_go
