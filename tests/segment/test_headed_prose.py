"""Headed prose on small fixtures: the rules the corpus tests check on the Runewars
learn-to-play booklet and the BattleLore summary (tests/test_headed_prose.py), one by one."""

from __future__ import annotations

import pytest

from extract.errors import InputError
from extract.model import Line
from extract.segment import segment_document
from extract.segment.profiles.base import heading_like, table_cells
from tests.helpers import assert_segments, blocks, by_key, document, segment_text

LEARN = """RUNEWARS
Livret d'apprentissage

Unités

Composition d'unité

Pour composer une unité, suivez ces étapes :

1. Triez les figurines par type.
2. Connectez chaque plateau de mouvement.

Cartes Objectif

Chaque carte Objectif fournit des règles spéciales.

Valeur de l'objectif

Si une carte Objectif a une instruction de « Mise en place », les joueurs doivent la résoudre.

Le score

Plateaux de mouvement\tCoût\tAméliorations disponibles
2\t18\t1
3\t24\t2

Matériel

8 Pions
Objectif
10 Pions
Blessure

Règles à ne pas oublier

- Les unités sont activées une à une.
- Les cartes inclinées ne sont redressées
qu'à la fin du round.
"""
OPTIONS = {
    "outline": ["# Unités", "# Cartes Objectif", "# Le score", "# Matériel", "# Règles à ne pas oublier"],
    "captions": ["Valeur de l'objectif"],
    "set_aside": [{"lines": [1, 2], "reason": "title page"}],
}


def test_outline_levels_and_layout_headings():
    result = assert_segments("headed-prose", LEARN, [
        ("unites", "section", "Unités"),
        ("unites/composition-d-unite", "section", "Composition d'unité"),  # a layout heading below the outline's
        ("cartes-objectif", "section", "Cartes Objectif"),
        ("le-score", "section", "Le score"),
        ("materiel", "section", "Matériel"),
        ("regles-a-ne-pas-oublier", "section", "Règles à ne pas oublier"),
    ], OPTIONS)
    entries = by_key(result)
    assert entries["unites"].parent is None and entries["unites/composition-d-unite"].parent is entries["unites"]
    assert [(s.lines, s.reason) for s in result.set_aside] == [((1, 2), "title page")]


def test_a_declared_caption_does_not_split_its_section():
    result, _, _ = segment_text("headed-prose", LEARN, OPTIONS)
    objectives = by_key(result)["cartes-objectif"]
    assert [b.type for b in objectives.blocks] == ["paragraph", "caption", "paragraph"]
    assert objectives.blocks[1].text == "Valeur de l'objectif"
    assert "cartes-objectif/valeur-de-l-objectif" not in by_key(result)


def test_without_the_caption_option_the_same_line_is_a_heading():
    options = {**OPTIONS, "captions": []}
    result, _, _ = segment_text("headed-prose", LEARN, options)
    assert by_key(result)["cartes-objectif/valeur-de-l-objectif"].blocks[0].text.startswith("Si une carte Objectif")


def test_steps_tables_and_bullets():
    result, _, _ = segment_text("headed-prose", LEARN, OPTIONS)
    entries = by_key(result)
    steps = [(b.number, b.text) for b in entries["unites/composition-d-unite"].blocks if b.type == "step"]
    assert steps == [("1", "Triez les figurines par type."), ("2", "Connectez chaque plateau de mouvement.")]
    table = entries["le-score"].blocks[0]
    assert table.type == "table" and table.rows == [
        ["Plateaux de mouvement", "Coût", "Améliorations disponibles"], ["2", "18", "1"], ["3", "24", "2"]]
    assert blocks(entries["regles-a-ne-pas-oublier"]) == [
        ("bullet", "Les unités sont activées une à une."),
        ("bullet", "Les cartes inclinées ne sont redressées qu'à la fin du round.")]  # the wrapped line joins its bullet


def test_a_line_end_hyphen_is_a_compound_s_where_the_document_says_so():
    """Wrapped text loses a margin hyphen ("déplace-" / "ment") but keeps a compound's where the
    document writes it mid-line and never whole ("par-dessus")."""
    text = ("MOUVEMENT\n\nUne figurine passe par-dessus un muret. Son déplace-\nment peut passer par-\n"
            "dessus un obstacle bas.\n")
    result, _, _ = segment_text("headed-prose", text)
    (entry,) = result.entries
    assert blocks(entry) == [("paragraph", "Une figurine passe par-dessus un muret. Son déplacement peut passer "
                                           "par-dessus un obstacle bas.")]


def test_a_regulation_in_parts_and_articles():
    """"I. ORGANISATION" right above "Article 1 — Inscriptions" is the part the article belongs
    to, not a caption; an article states its number as a Markdown heading would."""
    text = ("I. ORGANISATION\n\nArticle 1 — Inscriptions\nLes inscriptions ferment le 1er mai.\n\n"
            "Article 2 — Rondes\nLe tournoi se joue en cinq rondes.\n\nII. LE JEU\n\nArticle 3 — Le tir\n"
            "Un navire tire une fois par tour.\n")
    assert_segments("headed-prose", text, [
        ("i-organisation", "section", "I. ORGANISATION"), ("1", "section", "Inscriptions"), ("2", "section", "Rondes"),
        ("ii-le-jeu", "section", "II. LE JEU"), ("3", "section", "Le tir")])
    entries = by_key(segment_text("headed-prose", text)[0])
    assert entries["3"].parent is entries["ii-le-jeu"] and entries["1"].number == "1"
    # "Article 1er" is article 1; a heading of another kind after the parts ends them.
    annexed = text.replace("Article 1 —", "Article 1er —") + "\nANNEXES\n\nLe barème des pénalités figure ici.\n"
    entries = by_key(segment_text("headed-prose", annexed)[0])
    assert entries["1"].title == "Inscriptions" and entries["annexes"].parent is None


def test_underlined_headings_in_plain_text():
    """Markdown's setext style in a .txt: the underline makes the line above a heading (= level 1,
    - level 2) and belongs to it; a rule under a list item stays a rule."""
    text = ("Flotille\n========\n\nArticle 1 — Le matériel\n-----------------------\n\nLa boîte contient des navires.\n\n"
            "Article 2 — Le tir\n------------------\n\nUn navire tire une fois.\n")
    result = assert_segments("headed-prose", text, [("flotille", "section", "Flotille"), ("1", "section", "Le matériel"),
                                                    ("2", "section", "Le tir")])
    entries = by_key(result)
    assert entries["1"].parent is entries["flotille"] and entries["1"].heading_lines == [4, 5]
    assert not result.set_aside
    # Under a paragraph's last line or a list item, a rule is a rule: no heading.
    ruled = "# Pioche\n\nLe joueur pioche deux cartes\net en défausse une.\n----------\n\n- Une carte\n-----\n"
    (entry,) = segment_text("headed-prose", ruled)[0].entries
    assert entry.title == "Pioche" and blocks(entry)[0] == ("paragraph", "Le joueur pioche deux cartes et en défausse une.")


def test_wrapped_component_list_items_are_not_headings():
    result, _, _ = segment_text("headed-prose", LEARN, OPTIONS)
    materiel = by_key(result)["materiel"]
    assert blocks(materiel) == [("paragraph", "8 Pions Objectif"), ("paragraph", "10 Pions Blessure")]
    assert not materiel.children


SUMMARY = """COMBAT

Procédure de combat

1. Annoncez la cible.
2. Lancez les dés.
3. Appliquez les pertes.

MERCENAIRES

Les unités d'infanterie des Nains de fer sont Intrépides

LIEUX REMARQUABLES

Règles communes

Une unité se trouvant sur un lieu remarquable est Intrépide
"""


def test_caps_and_title_case_levels():
    result = assert_segments("headed-prose", SUMMARY, [
        ("combat", "section", "COMBAT"),
        ("combat/procedure-de-combat", "section", "Procédure de combat"),
        ("mercenaires", "section", "MERCENAIRES"),
        ("lieux-remarquables", "section", "LIEUX REMARQUABLES"),
        ("lieux-remarquables/regles-communes", "section", "Règles communes"),
    ], {"caps_level": 1})
    entries = by_key(result)
    assert [b.type for b in entries["combat/procedure-de-combat"].blocks] == ["step"] * 3
    # A long line opening with an article and missing its full stop is a sentence, not a heading.
    assert blocks(entries["mercenaires"]) == [("paragraph", "Les unités d'infanterie des Nains de fer sont Intrépides")]


def test_without_caps_level_a_title_case_heading_under_caps_is_a_label():
    result, _, _ = segment_text("headed-prose", SUMMARY)
    # With no level by capitals, "COMBAT" directly above another heading reads as its label.
    preamble, first = result.entries[:2]
    assert (preamble.key, blocks(preamble)) == ("preambule", [("caption", "COMBAT")])
    assert first.title == "Procédure de combat" and first.parent is None


def test_a_contents_line_opening_on_a_bare_number_is_no_component_count():
    # "3 Combat   6" reads like "8 Pions" wrapped, but its blank leader (a PDF's, kept as em spaces)
    # makes it a contents line: the heading below it opens the first section
    gap = "\u2003" * 3
    assert_segments("headed-prose", f"# Sommaire\n1 Introduction{gap}3\n3 Combat{gap}6\n# 1 Introduction\nLe texte commence.\n",
                    [("sommaire", "section", "Sommaire"), ("1-introduction", "section", "1 Introduction")])


@pytest.mark.parametrize(("text", "expected"), [
    ("Composition d'unité", True),
    ("LIEUX REMARQUABLES", True),
    ("Cartes Objectif, page 15", True),  # an erratum's target, not a contents line
    ("Pour composer une unité, suivez ces étapes :", False),
    ("- Si la posture ne correspond pas", False),
    ("Glossaire page 6", False),  # a contents line
    ("Combat ........ 7", False),  # one with leaders
    ("Désordre, 3, 6, 8", False),  # a line of an index of pages
    ("Ordres (points d'), 5", False),
    ("1. Triez les figurines", False),
    ("la suite d'une phrase", False),
    ("Les unités d'infanterie des Nains de fer sont Intrépides", False),
    ("Un titre qui finit par un point.", False),
    ("| a | b |", False),
    ("Une ligne " + "très " * 20 + "longue", False),
])
def test_heading_layout_rules(text, expected):
    assert heading_like(text) is expected


def test_declared_heading_out_of_order_is_a_mistake_of_the_manifest():
    text = "Combat\n\nUn paragraphe.\n\nIntroduction\n\nUn autre paragraphe.\n"
    with pytest.raises(InputError, match="outline item 2: declared heading 'combat' was not found in order"):
        segment_text("headed-prose", text, {"outline": ["# Introduction", "# Combat"]})


def test_an_outline_heading_names_a_heading_the_reader_marked_in_light_markdown():
    # a PDF reader states the headings it saw by their font as "# Le jeu": the outline names them without the marks
    lines = [Line(1, "# Le jeu"), Line(2, "Deux équipes s'affrontent."), Line(3, "## Matériel"), Line(4, "Un ballon.")]
    doc = document("headed-prose", {"outline": ["# Le jeu", "## Matériel"]})
    result = segment_document("demo", doc, lines, "corpus/demo/game.toml", "pdf")
    assert [(e.title, e.parent.title if e.parent else None) for e in result.entries] == [
        ("Le jeu", None), ("Matériel", "Le jeu")]
    assert not [a for a in result.anomalies if a.kind == "outline-not-found"]


def test_declared_heading_printed_nowhere_is_a_mistake_of_the_manifest():
    with pytest.raises(InputError, match="outline item 1: '# Introduction' is printed nowhere in the document"):
        segment_text("headed-prose", "Intro\n\nUn paragraphe.\n", {"outline": ["# Introduction"]})


def test_pictograph_lines_and_banners_are_set_aside():
    text = "Titre\n\nUn paragraphe.\n☉ ✦ ⊕\nFANTASYFLIGHTGAMES.FR\n"
    options = {"set_aside": [{"pattern": "^FANTASYFLIGHTGAMES\\.FR$", "reason": "banner"}]}
    result, _, _ = segment_text("headed-prose", text, options)
    assert [(s.lines, s.reason) for s in result.set_aside] == [
        ((4, 4), "pictograph-only line (game icons lost in conversion)"), ((5, 5), "banner")]
    assert blocks(result.entries[0]) == [("paragraph", "Un paragraphe.")]


def test_relocated_lines_are_read_where_the_manifest_puts_them():
    text = "Titre\n\nPremier.\nDeuxième.\nTroisième.\n"
    options = {"relocate": [{"lines": [5, 5], "after": 3, "reason": "page printed late"}]}
    result, _, _ = segment_text("headed-prose", text, options)
    assert [b.text for b in result.entries[0].blocks] == ["Premier.", "Troisième.", "Deuxième."]
    assert [(a.kind, a.lines) for a in result.anomalies] == [("repaired-page-order", [5, 5])]


def test_a_duplicate_heading_gets_a_suffix_and_is_reported():
    result = assert_segments("headed-prose", "Terrain\n\nUn.\n\nTerrain\n\nDeux.\n", [
        ("terrain", "section", "Terrain"), ("terrain-2", "section", "Terrain")])
    assert [a.kind for a in result.anomalies] == ["duplicate-heading"]


def test_voir_aussi_lists_and_voir_lines_are_related_and_see_blocks():
    text = """# Capacité

Une capacité s'utilise une fois par tour.

**Voir aussi :**

- Capacité déclenchée
- Tour de joueur

# Pouvoir

Voir : Capacité

# Tour de joueur

Voir aussi : Capacité, Pouvoir.
"""
    result, _, _ = segment_text("headed-prose", text)
    found = {e.title: e for e in result.entries}
    assert [(b.type, b.text) for b in found["Capacité"].blocks][1:] == [
        ("related", "Voir aussi : Capacité déclenchée, Tour de joueur")]
    assert [(b.type, b.text) for b in found["Pouvoir"].blocks] == [("see", "Voir : Capacité")]
    assert "redirect" in found["Pouvoir"].flags and "redirect" not in found["Capacité"].flags
    assert found["Tour de joueur"].blocks[0].type == "related"


def test_decimal_numbered_headings_alone_between_blank_lines_nest_by_their_numbering():
    text = "1. Présentation\n\nLe jeu se joue à deux.\n\n1.1 Matériel\n\nUn plateau et des pions.\n\n" \
           "2. Le tour\n\nChaque joueur joue à son tour.\n\n1. Lancer les dés.\n2. Avancer.\n"
    result = assert_segments("headed-prose", text, [
        ("1", "section", "Présentation"), ("1.1", "section", "Matériel"), ("2", "section", "Le tour")])
    entries = by_key(result)
    assert entries["1.1"].parent is entries["1"] and entries["2"].parent is None
    assert [b.type for b in entries["2"].blocks] == ["paragraph", "step", "step"]  # a list, not headings


def test_numbered_steps_alone_without_deeper_numbering_stay_steps():
    text = "Mise en place\n\nAvant de jouer :\n\n1. Placez le plateau\n\n2. Mélangez les cartes\n"
    result, _, _ = segment_text("headed-prose", text)
    assert [e.title for e in result.entries] == ["Mise en place"]


def test_run_in_terms_of_a_glossary_are_entries_a_dialogue_stays_text():
    from extract.model import Line
    from extract.segment.profiles.headed_prose import run_in_terms

    def lines(*texts: str) -> list[Line]:
        return [Line(n, t) for n, t in enumerate(texts, start=1)]

    glossary = run_in_terms(lines("## Termes de base", "**Activation.** Une figurine activée agit deux fois.",
                                  "**Couvert.** Une figurine à couvert ajoute +1.", "Le couvert lourd ajoute +2.",
                                  "**Engagement** : deux figurines à 1 pouce sont engagées."))
    assert [(line.no, line.text) for line in glossary] == [
        (1, "## Termes de base"), (2, "### Activation"), (2, "Une figurine activée agit deux fois."),
        (3, "### Couvert"), (3, "Une figurine à couvert ajoute +1."), (4, "Le couvert lourd ajoute +2."),
        (5, "### Engagement"), (5, "deux figurines à 1 pouce sont engagées.")]
    dialogue = lines("### Aider", "***MJ** : Ozruk, tu es seul.", "**Ozruk** : Je tiens bon.",
                     "**Aronwe** : Je sors de l'ombre !", "**MJ** : Lance les dés.")
    assert run_in_terms(dialogue) == dialogue  # a speaker said twice: labels, not terms
    two = lines("# Cartes", "**Quoi** : activer une figurine.", "**Quand** : après une activation.")
    assert run_in_terms(two) == two  # two labels are a card's fields, not a glossary
    callouts = lines("## Combat", "**Important** : lancez les dés.", "**Exemple** : le Pillard tire.",
                     "**Rappel** : un 6 touche.", "Les blessures sont retirées à la fin du tour.")
    assert run_in_terms(callouts) == callouts  # boxes of the rule, not terms
    cases = lines("## Composition des équipes", "**Équipe de 4 :** chaque joueur endosse un rôle.",
                  "**Équipe de 3 :** un joueur cumule deux rôles.", "**Équipe de 2 :** un joueur cumule trois rôles.")
    assert run_in_terms(cases) == cases  # one label told apart by a number: cases of a rule, not terms


def test_a_markdown_glossary_gives_an_entry_per_term():
    segmented, _, _ = segment_text("headed-prose", "# Ferraille\n\n## Termes de base\n\n**Activation.** Une figurine "
                                   "activée agit.\n\n**Couvert.** Une figurine à couvert ajoute +1.\n\n**Engagement** : "
                                   "deux figurines ennemies proches sont engagées.\n")
    titles = {e.title: e for e in segmented.entries}
    assert {"Activation", "Couvert", "Engagement"} <= titles.keys()
    assert titles["Couvert"].parent is titles["Termes de base"] and "ajoute +1" in titles["Couvert"].text
    said = [a for a in segmented.anomalies if a.kind == "run-in-glossary"]
    assert len(said) == 1 and "Activation, Couvert, Engagement" in said[0].detail



def test_a_term_bold_at_its_first_mention_is_still_a_run_in_term():
    """"dans la" / "**Défausse**." (a wrapped first mention in bold) is no label said twice: the
    section's run-in terms are still entries."""
    from extract.model import Line
    from extract.segment.profiles.headed_prose import run_in_terms

    section = [Line(n, t) for n, t in enumerate([
        "# Un tour", "Il pose une carte dans la", "**Défausse**.", "**Défausse** : la pile face visible.",
        "**Grève** : les trois cartes du centre.", "**Seau** : sept cartes en main au plus."], start=1)]
    assert [line.text for line in run_in_terms(section) if line.text.startswith("#")] == [
        "# Un tour", "## Défausse", "## Grève", "## Seau"]


def test_a_glossary_section_of_term_colon_definition_lines_gives_an_entry_per_term():
    text = ("Glossaire\n=========\n\nLes termes du jeu.\n\nCarte Marée : carte qui oblige chaque joueur à\n"
            "défausser.\n\nDéfausse : pile de cartes écartées.\n\nGrève : les trois cartes face visible.\n\n"
            "Seau : la limite de sept cartes en main.\n")
    segmented = assert_segments("headed-prose", text, [
        ("glossaire", "section", "Glossaire"), ("glossaire/carte-maree", "section", "Carte Marée"),
        ("glossaire/defausse", "section", "Défausse"), ("glossaire/greve", "section", "Grève"),
        ("glossaire/seau", "section", "Seau")])
    entries = by_key(segmented)
    assert blocks(entries["glossaire"]) == [("paragraph", "Les termes du jeu.")]
    assert blocks(entries["glossaire/carte-maree"]) == [("paragraph", "carte qui oblige chaque joueur à défausser.")]
    # the same lines under another title are rules that open on a word and a colon
    other, _, _ = segment_text("headed-prose", text.replace("Glossaire\n=========", "Règles\n======"))
    assert [e.title for e in other.entries] == ["Règles"]



def test_a_line_opening_on_a_quote_joins_only_a_sentence_cut_after_a_word():
    text = ("Errata\n\nRemplacez le point 2 par :\n« Si un joueur n'a plus de figurines, il perd. »\n"
            "1\n« Reformation » est une action.\nLe joueur qui pioche une carte suit la règle\n"
            "(1.1) Piocher plusieurs cartes.\nLe joueur lance les dés de la pioche\n(2 rouges, 2 bleus)\n")
    segmented, _, _ = segment_text("headed-prose", text)
    assert [b.text for b in segmented.entries[0].blocks] == [
        "Remplacez le point 2 par :", "« Si un joueur n'a plus de figurines, il perd. »",  # what the colon announces
        "1", "« Reformation » est une action.",  # a stray number is no sentence
        "Le joueur qui pioche une carte suit la règle", "(1.1) Piocher plusieurs cartes.",  # a rule's number in parentheses
        "Le joueur lance les dés de la pioche (2 rouges, 2 bleus)"]


def test_a_numbered_list_under_numbered_headings_stays_steps():
    # "1." "2." "3." alone between blank lines after "2. Mise en place": off the outline (3 comes
    # next), announced by a line ending in ":", and "3." goes on the steps 1, 2, not the chapters.
    text = ("Règles du jeu\n\n1. Présentation\n\nCe jeu oppose deux joueurs.\n\n1.1 Matériel\n\n"
            "Le jeu contient 40 cartes et 2 dés.\n\n2. Mise en place\n\nSuivez ces étapes :\n\n"
            "1. Mélangez les cartes\n\n2. Distribuez cinq cartes à chaque joueur\n\n3. Placez le reste au centre\n\n"
            "Puis la partie commence.\n\n2.1 Tour de jeu\n\nChaque joueur joue à son tour.\n")
    result, _, _ = segment_text("headed-prose", text)
    assert [(e.number, e.title) for e in result.entries] == [
        (None, "Règles du jeu"), ("1", "Présentation"), ("1.1", "Matériel"), ("2", "Mise en place"), ("2.1", "Tour de jeu")]
    entries = {e.number: e for e in result.entries}
    assert [(b.type, b.number) for b in entries["2"].blocks] == [
        ("paragraph", None), ("step", "1"), ("step", "2"), ("step", "3"), ("paragraph", None)]
    assert entries["2.1"].parent is entries["2"]
    assert not result.anomalies


def test_a_numbered_line_after_a_colon_is_a_step_even_where_the_outline_would_take_it():
    text = ("1. Présentation\n\n1.1 Matériel\n\nUn plateau.\n\nLe premier joueur :\n\n2. Lance les dés\n\n"
            "2. Mise en place\n\n2.1 Ordre du tour\n\nChacun son tour.\n")
    result, _, _ = segment_text("headed-prose", text)
    assert [e.number for e in result.entries] == ["1", "1.1", "2", "2.1"]
    assert [b.type for b in result.entries[1].blocks] == ["paragraph", "paragraph", "step"]


CAPS_OVER_PROSE = """INTRODUCTION

Dans ce jeu, deux à quatre joueurs incar-
nent des seigneurs qui se disputent les îles.

MISE EN PLACE

Chaque joueur choisit une couleur et place deux
chevaliers sur son île de départ.

LE RECRUTEMENT

Chaque joueur prend dans sa réserve autant de
chevaliers qu'il contrôle d'îles.
"""


def test_headings_in_capitals_over_wrapped_prose_are_headings_without_an_option():
    assert_segments("headed-prose", CAPS_OVER_PROSE, [
        ("introduction", "section", "INTRODUCTION"),
        ("mise-en-place", "section", "MISE EN PLACE"),
        ("le-recrutement", "section", "LE RECRUTEMENT"),
    ])


def test_one_heading_in_capitals_over_wrapped_prose_is_not_proof_an_anomaly_suggests_caps_level():
    text = CAPS_OVER_PROSE.split("MISE EN PLACE")[0]
    result, _, _ = segment_text("headed-prose", "PREMIER\n\n" + text)
    assert [a.kind for a in result.anomalies] == ["caps-headings-unsure"]
    assert "caps_level" in result.anomalies[0].detail and result.anomalies[0].lines == [3]


LABELLED = """# Mouvement

§12 Une unité activée se déplace de sa valeur de mouvement.

§13 Un bois réduit de moitié le mouvement (voir §16).

Une colline ne coûte rien à gravir.

# Combat

§16 Chaque unité engagée lance autant de dés que sa valeur d'attaque.
"""


@pytest.mark.parametrize("label", ["§{}", "[{}]", "{})"])
def test_paragraphs_opening_on_a_label_are_rules_numbered_by_it_under_their_heading(label):
    text = LABELLED
    for n in (12, 13, 16):
        text = text.replace(f"§{n} ", label.format(n) + " ")
    result = assert_segments("headed-prose", text, [
        ("mouvement", "section", "Mouvement"), ("12", "rule", None), ("13", "rule", None),
        ("combat", "section", "Combat"), ("16", "rule", None)])
    found = by_key(result)
    assert found["12"].parent is found["mouvement"] and found["16"].parent is found["combat"]
    assert [e.number for e in result.entries if e.kind == "rule"] == ["12", "13", "16"]
    # the label is the rule's number, not its text; the paragraph after it goes on in the rule
    assert blocks(found["13"]) == [("paragraph", "Un bois réduit de moitié le mouvement (voir §16)."),
                                   ("paragraph", "Une colline ne coûte rien à gravir.")]


def test_numbers_that_start_again_under_each_heading_are_steps_not_rule_labels():
    text = "# Mise en place\n\n1) Triez les cartes.\n\n2) Distribuez cinq cartes.\n\n# Tour\n\n1) Piochez.\n\n2) Jouez.\n"
    result, _, _ = segment_text("headed-prose", text)
    assert not [e for e in result.entries if e.kind == "rule"]


def test_the_profile_guess_names_the_paragraph_labels():
    from extract.model import Line
    from extract.segment.choose import choose_profile

    lines = [Line(n, t) for n, t in enumerate(["# Combat", "§1 Une unité.", "§2 Un tir.", "§3 Une charge."], 1)]
    profile, why = choose_profile(lines, {}, "text")
    assert profile == "headed-prose" and "3 paragraphs open with a rule label" in why


def test_table_cells_split_on_pipes_not_escaped_ones():
    assert table_cells("| 1 \\| 2 | **Rien** |") == ["1 | 2", "Rien"]
    assert table_cells("| a | b \\|") == ["a", "b |"]  # the last cell's own pipe, escaped, is no border


def test_a_box_opening_on_a_run_in_bold_label_is_a_sidebar_titled_by_it():
    lines = [Line(1, "# Jeu"), Line(2, "## Tour"), Line(3, "Avant."),
             Line(4, "**Exemple :** Léa obtient 4.", box=1), Line(5, "Elle avance.", box=1),
             Line(6, "**Attention !** Un héros sans luciole.", box=2),
             Line(7, "**Les dés** sont lancés.", box=3), Line(8, "Suite du même encadré.", box=3),
             Line(9, "Après.")]
    doc = document("headed-prose")
    result = segment_document("demo", doc, lines, "corpus/demo/game.toml")
    found = by_key(result)
    assert [(e.kind, e.title, e.parent.key) for e in result.entries if e.kind == "sidebar"] == [
        ("sidebar", "Exemple", "jeu/tour"), ("sidebar", "Attention !", "jeu/tour")]
    assert blocks(found["jeu/tour/exemple"]) == [("paragraph", "Léa obtient 4."), ("paragraph", "Elle avance.")]
    assert blocks(found["jeu/tour"]) == [("paragraph", "Avant."), ("paragraph", "Les dés sont lancés."),
                                         ("paragraph", "Suite du même encadré."), ("paragraph", "Après.")]


def test_emphasis_on_a_paragraphs_second_line_does_not_repeat_that_line_in_the_markdown():
    result, _, _ = segment_text("headed-prose", "# Titre\n\nUne phrase qui continue\nsur la ligne **suivante** ici.\n")
    block = result.entries[0].blocks[0]
    assert block.text == "Une phrase qui continue sur la ligne suivante ici."
    assert block.markdown == "Une phrase qui continue sur la ligne **suivante** ici."


def test_one_procedure_numbered_1_2_3_inside_a_section_is_steps_not_rules():
    """"12)" numbers lists too: a run that never goes on under another heading labels no rule."""
    text = ("Mise en place\n\nChaque joueur prend ses cartes et les mélange avant la partie.\n\nTour de jeu\n\n"
            "À son tour, un joueur effectue les actions suivantes dans cet ordre :\n\n"
            "1) Piochez une carte de la pioche commune.\n\n2) Jouez une carte de votre main.\n\n"
            "3) Défaussez une carte si vous en avez plus de sept.\n\nFin de la partie\n\nLa partie se termine.\n")
    result, _, _ = segment_text("headed-prose", text)
    assert not [e for e in result.entries if e.kind == "rule"]
