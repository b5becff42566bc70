"""The Markdown reader on real French rules documents in ../shared/external (never copied here).

Each test opens its document and checks what a reader of it can see: named headings at their
level, a sentence the file hard-wraps read whole, list items and their nesting, table rows, and
front matter, comments and rules set aside.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.read import Reading, read_document
from extract.text import inline

EXTERNAL = Path(__file__).resolve().parents[2].parent / "shared" / "external"
DEVSET = EXTERNAL / "french-rules-devset"


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared external documents are not here)")
    return path


def read(path: Path) -> Reading:
    reading = read_document(need(path))
    assert reading.format == "markdown"
    check_accounting(path, reading)
    return reading


def check_accounting(path: Path, reading: Reading) -> None:
    """Each non-blank source line is one line's `no` or cover, or in one set-aside range."""
    source = path.read_text(encoding="utf-8").split("\n")
    seen: dict[int, int] = {}
    for line in reading.lines:
        for no in (line.no, *line.covers):
            seen[no] = seen.get(no, 0) + 1
    for item in reading.set_aside:
        for no in range(item.lines[0], item.lines[1] + 1):
            if source[no - 1].strip():
                seen[no] = seen.get(no, 0) + 1
    nonblank = {no for no, text in enumerate(source, start=1) if text.strip()}
    assert set(seen) == nonblank
    assert [no for no, count in seen.items() if count > 1] == []
    assert reading.lines_read == len(nonblank)
    assert not any(item.reason == "not read" for item in reading.set_aside)


def line_starting(reading: Reading, start: str):
    found = [line for line in reading.lines if line.text.startswith(start)]
    assert found, f"no line starts with {start!r}"
    return found[0]


def texts(reading: Reading) -> list[str]:
    return [line.text for line in reading.lines]


def test_handball_rule_8():
    reading = read(DEVSET / "handball-ihf-regle8" / "8.md")
    assert texts(reading)[0] == "## Irrégularités et comportements antisportifs"
    assert "### Actions conformes à la règle" in texts(reading)
    assert ["#### 8:" + str(n) for n in range(1, 11)] == [t for t in texts(reading) if t.startswith("#### ")]
    # 8:3's first paragraph is hard-wrapped over four lines: one line, the sentence whole.
    rule = line_starting(reading, "Les irrégularités résultant d’une action prioritairement")
    assert "dirigée contre le corps de l’adversaire doivent amener une sanction personnelle." in rule.text
    assert rule.covers == (rule.no + 1, rule.no + 2, rule.no + 3)
    assert "avertissement ([16:1a](#16:1))" in rule.text  # an anchor link stays a link
    # A wrapped list item is one item; a nested list is indented under it.
    item = line_starting(reading, "- b) de barrer le chemin de l’adversaire avec les bras")
    assert "percuter avec le corps. L’utilisation des coudes" in item.text and len(item.covers) == 2
    after = texts(reading)[texts(reading).index(line_starting(reading, "- d) de la répercussion").text) + 1:][:3]
    assert after == ["  - sur la perte du contrôle du corps et du ballon.", "  - sur le déplacement qui est gêné ou empêché.",
                     "  - sur la continuité du jeu qui est interrompue."]
    assert line_starting(reading, "  1. par l’infraction d’un joueur aux règles [8:5](#8:5)").covers
    assert line_starting(reading, "  2. par l’infraction d’un officiel")
    # The item's second paragraph is its own line.
    assert line_starting(reading, "privent l’équipe en possession du ballon")
    assert reading.evidence["heading_levels"] == [2, 3, 4] and reading.evidence["tables"] == 0


def test_dungeon_world_actions():
    reading = read(DEVSET / "dungeon-world-fr-actions" / "16-actions.md")
    assert texts(reading)[:2] == ["# Chapitre 16 - Les actions", "## Les actions de base"]
    assert "### Tailler en pièces (FOR)" in texts(reading) and "### Salve (DEX)" in texts(reading)
    move = line_starting(reading, "Quand vous attaquez un ennemi en mêlée, jetez 2d6+FOR.")
    assert "Sur 7-9, vous infligez vos dégâts à l’ennemi mais vous subissez une riposte." in move.text
    # Two hard-broken paragraphs: each sentence-led part is its own line, with its hard break.
    first = line_starting(reading, "Les actions de base sont le pain quotidien de l’aventurier.")
    assert first.hard_break and first.text.endswith("dans les zones dangereuses.")
    assert line_starting(reading, "Les actions spéciales s’utilisent un peu plus rarement.")
    assert line_starting(reading, "**Jarl** : Ça suffit ! Je cogne le plus proche avec mon marteau.")
    assert "- +FOR si vous passez en force." in texts(reading)
    rules = [item for item in reading.set_aside if item.reason == "horizontal rule"]
    assert len(rules) > 20 and all(item.lines[0] == item.lines[1] for item in rules)
    assert not any(text.strip() in ("----", "*") for text in texts(reading))


def test_heros_dragons_health():
    path = DEVSET / "heros-dragons-sante" / "gerer-la-sante-du-personnage.md"
    reading = read(path)
    assert reading.set_aside[0].lines == (1, 3) and reading.set_aside[0].reason == "front matter"
    assert texts(reading)[:2] == ["# Gérer la santé du personnage", "## Dégâts et guérison"]
    assert "#### À terre" in texts(reading) and "### Fatigue et épuisement" in texts(reading)
    header = line_starting(reading, "| Niveau | Effet |")
    assert header.covers == (header.no + 1,)  # the |:-:|:-| line
    assert "| **2** | Vitesse réduite de moitié |" in texts(reading)
    assert "| **6** | Décès |" in texts(reading)
    markers = [item for item in reading.set_aside if item.reason == "container marker"]
    assert len(markers) == 2  # "§§§ .table-container" and its closing "§§§"
    # "*" items read as "- ", links into this same page keep their anchor, others their text.
    assert "- La créature ne peut plus utiliser de réaction." in texts(reading)
    assert line_starting(reading, "- Une créature [*à terre*](#a-terre) n'a plus l'option")
    saves = line_starting(reading, "Lancez un d20.")
    assert "le jet de sauvegarde est un échec" in saves.text and "[Stabiliser une créature](#stabiliser-une-creature)" in saves.text
    assert reading.evidence["tables"] == 1 and reading.evidence["heading_levels"] == [1, 2, 3, 4]


def test_ffe_exam_annals():
    reading = read(DEVSET / "ffe-annales-2024" / "Annales-Decembre-2024.md")
    comments = [item for item in reading.set_aside if item.reason == "HTML comment"]
    assert comments[0].lines == (1, 1) and len(comments) > 20
    assert texts(reading)[0] == "## ANNALES DES EXAMENS D'ARBITRES FÉDÉRAUX"
    assert "| Page de garde et informations de contact | Page 1 |" in texts(reading)
    assert "| UVR | 221 | 149 | 72 | 33% |" in texts(reading)
    assert not any(set(text) <= set("|-: ") for text in texts(reading))  # no delimiter rows
    assert reading.evidence["tables"] > 15 and reading.evidence["questions"] > 100
    assert reading.evidence["heading_levels"] == [2]
    # Answer options in a fenced block are prose: kept, the fences set aside.
    assert line_starting(reading, "a) Echiquier 2 : blancs ; Echiquier 3 : noirs.")
    assert any(a.kind == "code-kept" for a in reading.anomalies)


def test_nomic_laws_and_rules():
    laws = read(EXTERNAL / "nomic" / "Lois.md")
    assert texts(laws)[:3] == ["# Lois", "## Préambule", texts(laws)[2]]
    assert line_starting(laws, "1. **Loi d'Éternité :** quoi qu'il arrive")
    justice = line_starting(laws, "3. **Loi de Justice :**").text
    assert "ni contraire aux Droits Humains." in inline(justice)[0]  # the entry's text: the link's words
    assert "[Droits Humains](http://www.un.org/fr/documents/udhr/)" in justice  # its markdown keeps the address
    assert laws.set_aside[-1].reason == "link definition"
    assert laws.evidence["ordered_items"] == 7
    rules = read(EXTERNAL / "nomic" / "regles_regles.md")
    # Every item is written "1.": the printed number stays, the nesting says the rest.
    assert line_starting(rules, "1. Les présentes règles")
    assert line_starting(rules, "  1. Un point de règle est défini")
    assert line_starting(rules, "    1. Un nombre suivi par un point.")
    assert not any(text.lstrip()[:2] in ("2.", "3.") for text in texts(rules))


def test_ultimate_rules():
    reading = read(EXTERNAL / "ultimate-wfdf-2021" / "regles-ultimate-2021-fr.md")
    assert texts(reading)[:2] == ["# WFDF Rules of Ultimate 2021-2024", "## Version officielle effective au 01-01-2021"]
    assert "### Table des matières" in texts(reading)
    # Rules written one per line inside a list item are not run together.
    assert "1.3.1. connaître les règles;" in texts(reading)
    assert "1.3.2. être impartial et objectif;" in texts(reading)
    assert line_starting(reading, "1.6.1. le jeu dangereux")  # a bare number gets the text below it
    assert "2.1." in texts(reading) and "2.7." in texts(reading)  # a column of numbers stays a column
    assert any(a.kind == "number-column" for a in reading.anomalies)


DEADZONE = EXTERNAL / "deadzone-v2"


def deadzone_files() -> list[Path]:
    return sorted(DEADZONE.glob("*.md")) + sorted((DEADZONE / "living_rules_fr").rglob("*.md"))


def test_deadzone_boot_camp():
    reading = read(DEADZONE / "deadzone-v2-boot_camp-fr_2bb1471_last.md")
    assert texts(reading)[:3] == ["# MISE EN PLACE", "Afin de mettre en place une partie de Deadzone, suivez ces étapes :",
                                  "1. Choisir une mission"]
    assert "5. Recon et Déploiement" in texts(reading) and "## Choisir une Mission" in texts(reading)
    assert "### Objectifs" in texts(reading)
    assert any(item.reason == "image" for item in reading.set_aside)


def test_deadzone_living_rules():
    core = read(DEADZONE / "living_rules_fr" / "core" / "contents.md")
    assert "# Règles de Base" in texts(core)
    assert "## Gagner une partie" in texts(core)  # a heading that is a link: its text
    assert "- Exterminer votre adversaire" in texts(core)  # "+" items
    assert not any("Living Rules" in text for text in texts(core))  # the site's breadcrumb
    assert [s.reason for s in core.set_aside if s.lines == (1, 1)] == ["breadcrumb (the site's navigation)"]
    abilities = read(DEADZONE / "living_rules_fr" / "additional" / "abilities.md")
    assert line_starting(abilities, "une Frag (5) provoquera un Test à 4+ (X) à 5 Dés.")
    first_play = read(DEADZONE / "living_rules_fr" / "core" / "firstplay.md")
    speed = line_starting(first_play, "**Vitesse** : Indiquée par deux chiffres.")
    assert speed.covers  # the image line between is set aside, the text joins the label
    assert sum(item.reason == "image" for item in first_play.set_aside) >= 3


@pytest.mark.parametrize("name", [str(p.relative_to(DEADZONE)) for p in deadzone_files()] or ["(none)"])
def test_every_deadzone_file_is_accounted_for(name):
    reading = read(DEADZONE / name)
    assert reading.lines
    assert not any(a.kind == "markdown-unread" for a in reading.anomalies)
