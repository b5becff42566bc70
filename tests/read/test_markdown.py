"""The Markdown reader on small inline documents: one rule of the format per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.errors import InputError
from extract.read import READERS, Reading, read_document
from extract.text import inline


def read(tmp_path: Path, text: str | bytes, name: str = "doc.md") -> Reading:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return read_document(path, name)


def texts(reading: Reading) -> list[str]:
    return [line.text for line in reading.lines]


def accounted(path_text: str, reading: Reading) -> None:
    """Every non-blank source line is placed once or set aside once; lines_read counts them."""
    seen: dict[int, int] = {}
    for line in reading.lines:
        for no in (line.no, *line.covers):
            seen[no] = seen.get(no, 0) + 1
    source = path_text.split("\n")
    for item in reading.set_aside:
        first, last = item.lines
        assert item.reason
        for no in range(first, last + 1):
            if source[no - 1].strip():
                seen[no] = seen.get(no, 0) + 1
    nonblank = {no for no, text in enumerate(source, start=1) if text.strip()}
    assert set(seen) == nonblank
    assert all(count == 1 for count in seen.values()), {no: c for no, c in seen.items() if c > 1}
    assert reading.lines_read == len(nonblank)


def test_registered_for_md_and_markdown(tmp_path):
    assert READERS.priority("markdown") > READERS.priority("text")
    assert read(tmp_path, "# Titre\n", "a.markdown").format == "markdown"
    assert read(tmp_path, "# Titre\n").format == "markdown"


def test_heading_levels_and_setext(tmp_path):
    source = "# Un\n\n## Deux\n\n### Trois\n\nQuatre\n======\n\nCinq\n----\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["# Un", "## Deux", "### Trois", "# Quatre", "## Cinq"]
    assert reading.lines[3].no == 7 and reading.lines[3].covers == (8,)
    assert reading.evidence["headings"] == 5 and reading.evidence["heading_levels"] == [1, 2, 3]
    accounted(source, reading)


def test_bold_wrapping_a_whole_heading_is_dropped_numbers_kept(tmp_path):
    reading = read(tmp_path, "# **13. Le calcul des scores**\n\n## 8:1\n\n## **Bold** et pas bold\n")
    assert texts(reading) == ["# 13. Le calcul des scores", "## 8:1", "## **Bold** et pas bold"]


def test_soft_wrapped_paragraph_is_one_line(tmp_path):
    source = "Quand vous attaquez un ennemi en\nmêlée, jetez 2d6+FOR. Sur 10+, vous\ninfligez vos dégâts.\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Quand vous attaquez un ennemi en mêlée, jetez 2d6+FOR. Sur 10+, vous infligez vos dégâts."]
    assert reading.lines[0].no == 1 and reading.lines[0].covers == (2, 3)
    accounted(source, reading)


def test_a_line_end_hyphen_stays_unless_the_document_writes_the_word_whole(tmp_path):
    """Hard-wrapped Markdown breaks a compound at its hyphen ("au-" / "dessus", "Etats-" / "Unis");
    a word cut at the margin ("précé-" / "dente") is rejoined where the document prints it whole."""
    source = ("Le disque passe au-\ndessus du joueur, aux Etats-\nUnis comme ailleurs.\n\n"
              "La case précé-\ndente est libre.\n\nLa case précédente compte.\n")
    reading = read(tmp_path, source)
    assert texts(reading) == ["Le disque passe au-dessus du joueur, aux Etats-Unis comme ailleurs.",
                              "La case précédente est libre.", "La case précédente compte."]
    accounted(source, reading)


def test_a_faq_typed_without_blank_lines_keeps_questions_and_answers_apart(tmp_path):
    source = "## FAQ\n\nQ : Une galère subit-elle le vent contraire ?\nR : Non, voir 3.2.\n**Q :** Et un navire ?\nR : Oui. Il\nrecule.\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["## FAQ", "Q : Une galère subit-elle le vent contraire ?", "R : Non, voir 3.2.",
                              "**Q :** Et un navire ?", "R : Oui. Il recule."]
    assert [(a.kind, a.lines) for a in reading.anomalies if a.kind == "wrapped-questions"] == [("wrapped-questions", [4, 5, 6])]
    # A colon inside a sentence is no label: "R" opening a wrapped line after a full stop only.
    assert texts(read(tmp_path, "Le joueur\nR : rouge.\n")) == ["Le joueur R : rouge."]
    # "Q." and "R -" open them as well
    dotted = read(tmp_path, "Q. Peut-on passer ?\nR. Oui.\nQ - Et tirer ?\nR – Non.\n")
    assert texts(dotted) == ["Q. Peut-on passer ?", "R. Oui.", "Q - Et tirer ?", "R – Non."]
    accounted(source, reading)


def test_hard_break_inside_a_sentence_joins_before_a_new_unit_splits(tmp_path):
    source = ("Une phrase coupée  \nau milieu reste entière.\n\n"
              "Fin de phrase.  \nNouvelle phrase.\n\n"
              "Que fais-tu ?\\\n**Jarl** : je frappe.\n\n"
              "**Vitesse** :  \nDeux chiffres.\n")
    reading = read(tmp_path, source)
    assert texts(reading) == [
        "Une phrase coupée au milieu reste entière.",
        "Fin de phrase.", "Nouvelle phrase.",
        "Que fais-tu ?", "**Jarl** : je frappe.",
        "**Vitesse** : Deux chiffres.",
    ]
    assert reading.lines[1].hard_break and not reading.lines[2].hard_break
    accounted(source, reading)


def test_bullet_items_wrapped_nested_and_plus(tmp_path):
    source = ("- premier point qui\n  continue ici\n- second\n  - sous-point\n    - plus bas\n\n"
              "+ avec un plus\n* avec une étoile\n")
    reading = read(tmp_path, source)
    assert texts(reading) == [
        "- premier point qui continue ici", "- second", "  - sous-point", "    - plus bas",
        "- avec un plus", "- avec une étoile",
    ]
    assert reading.lines[0].covers == (2,)
    assert reading.evidence["list_items"] == 6 and reading.evidence["ordered_items"] == 0
    accounted(source, reading)


def test_ordered_items_keep_their_numbers_even_all_ones(tmp_path):
    source = "3. trois\n4. quatre\n   1. un dessous\n\n1) a\n2) b\n\n---\n\n1. x\n1. y\n    1. z\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["3. trois", "4. quatre", "  1. un dessous", "1. a", "2. b", "1. x", "1. y", "  1. z"]
    assert reading.evidence["ordered_items"] == 8
    accounted(source, reading)


def test_second_paragraph_of_an_item_is_its_own_line(tmp_path):
    source = "- a) premier\n\n  Suite du point.\n- b) second\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["- a) premier", "Suite du point.", "- b) second"]
    nested = read(tmp_path, "- haut\n  - bas\n\n    suite\n")
    assert texts(nested) == ["- haut", "  - bas", "  suite"]


def test_table_rows_header_first_separator_covered(tmp_path):
    source = "Avant.\n\n| Niveau | Effet |\n|:-:|:-|\n| **1** | *désavantage* |\n| 2 | a \\| b |\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Avant.", "| Niveau | Effet |", "| **1** | *désavantage* |", "| 2 | a \\| b |"]
    header = reading.lines[1]
    assert header.no == 3 and header.covers == (4,)
    assert reading.evidence["tables"] == 1
    accounted(source, reading)


def test_blockquote_paragraphs_without_prefix(tmp_path):
    source = "> Une citation\n> sur deux lignes.\n>\n> Une autre.\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Une citation sur deux lignes.", "Une autre."]
    accounted(source, reading)


def test_a_blockquote_opening_on_a_bold_label_is_an_aside_in_a_box(tmp_path):
    source = ("Avant.\n\n> **Exemple :** Léa obtient 4.\n> Elle avance.\n\nAprès.\n\n"
              "> **Note du concepteur**\n> Un jeu court.\n>\n> > Une citation dedans.\n\n"
              "> **Les dés** sont lancés.\n\n> Une citation.\n")
    reading = read(tmp_path, source)
    assert [(line.text, line.box) for line in reading.lines] == [
        ("Avant.", None), ("**Exemple :** Léa obtient 4. Elle avance.", 1), ("Après.", None),
        ("**Note du concepteur**", 2), ("Un jeu court.", 2), ("Une citation dedans.", 2),  # the label alone: a line
        ("**Les dés** sont lancés.", None), ("Une citation.", None)]  # a bold subject is no label
    accounted(source, reading)


def test_an_html_table_cell_holding_a_pipe_escapes_it(tmp_path):
    source = "<table>\n<tr><th>Code</th><th>Sens</th></tr>\n<tr><td>a|b</td><td>ou</td></tr>\n</table>\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["| Code | Sens |", "| a\\|b | ou |"]
    accounted(source, reading)


def test_html_comments_set_aside_even_multiline(tmp_path):
    source = "<!-- source: x -->\n\nTexte.\n\n<!--\nune\nnote\n-->\n\nFin <!-- en ligne --> ici.\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Texte.", "Fin ici."]
    assert [(s.lines, s.reason) for s in reading.set_aside] == [((1, 1), "HTML comment"), ((5, 8), "HTML comment")]
    accounted(source, reading)


def test_front_matter_set_aside(tmp_path):
    source = '---\ntitle: "Gérer la santé"\nlayout: page\n---\n# Gérer la santé\n'
    reading = read(tmp_path, source)
    assert texts(reading) == ["# Gérer la santé"]
    assert [(s.lines, s.reason) for s in reading.set_aside] == [((1, 4), "front matter")]
    accounted(source, reading)


def test_rules_around_prose_at_the_top_are_not_front_matter(tmp_path):
    source = "---\n\nUne phrase, pas une clé.\n\n---\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Une phrase, pas une clé."]
    assert [s.reason for s in reading.set_aside] == ["horizontal rule", "horizontal rule"]


def test_a_rule_later_on_is_not_front_matter(tmp_path):
    source = "Texte.\n\n---\n\nSuite.\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Texte.", "Suite."]
    assert [(s.lines, s.reason) for s in reading.set_aside] == [((3, 3), "horizontal rule")]


def test_link_definition_set_aside_web_links_kept_others_reduced_to_text(tmp_path):
    source = ("Voir les [Droits Humains][1] et [le site](<https://x.org/a_(b) c>), pas [la page](autre.md).\n\n"
              "[1]:http://www.un.org/fr/\n")
    reading = read(tmp_path, source)
    # a web address stays in the line (the entry's `markdown`; its `text` is the link's text, extract.text.inline)
    assert texts(reading) == ["Voir les [Droits Humains](http://www.un.org/fr/) et [le site](https://x.org/a_%28b%29%20c), pas la page."]
    assert inline(texts(reading)[0])[0] == "Voir les Droits Humains et le site, pas la page."
    assert [(s.lines, s.reason) for s in reading.set_aside] == [((3, 3), "link definition")]
    accounted(source, reading)


def test_footnote_definition_set_aside_with_the_line_calling_it(tmp_path):
    source = ("# Tour\n\nLe Crâne est perdu[^1].\n\n# Variantes\n\nRetirez un jeton.\n\n"
              "[^1]: Même si une capacité\npermet de relancer.\n\n[^n]: Une note que rien n'appelle.\n")
    reading = read(tmp_path, source)
    assert texts(reading) == ["# Tour", "Le Crâne est perdu[^1].", "# Variantes", "Retirez un jeton."]
    assert [(s.lines, s.reason) for s in reading.set_aside] == [
        ((9, 10), "footnote [^1] called on line 3: a note, not the text of the rules where it is printed"),
        ((12, 12), "footnote [^n] that no line calls: a note, not the text of the rules where it is printed")]
    assert [(a.kind, a.lines) for a in reading.anomalies] == [("footnotes-set-aside", [9, 12])]
    accounted(source, reading)


def test_internal_anchor_links_kept(tmp_path):
    source = "Voir [8:2b](#8:2) et [*inconscient*](/doc/#inconscient), pas [ailleurs](/autre/#x).\n"
    reading = read(tmp_path, source, "doc.md")
    assert texts(reading) == ["Voir [8:2b](#8:2) et [*inconscient*](#inconscient), pas ailleurs."]


def test_images_removed_image_only_lines_set_aside(tmp_path):
    source = ("![Carte](map.jpg)\n\nUn ![icône](i.png) dans le texte.\n\n"
              "**Vitesse** :  \n![Vitesse](speed.jpg)  \nDeux chiffres.\n")
    reading = read(tmp_path, source)
    assert texts(reading) == ["Un dans le texte.", "**Vitesse** : Deux chiffres."]
    assert [(s.lines, s.reason) for s in reading.set_aside] == [((1, 1), "image"), ((6, 6), "image")]
    assert reading.lines[1].covers == (7,)
    accounted(source, reading)


def test_code_span_unwrapped_emphasis_and_strike_kept(tmp_path):
    reading = read(tmp_path, "Lancez `2d6` avec **force**, _vite_ et ~~jamais~~ \\* ici.\n")
    assert texts(reading) == ["Lancez 2d6 avec **force**, *vite* et ~~jamais~~ \\* ici."]


def test_code_blocks_prose_kept_code_set_aside(tmp_path):
    source = ("Exemple\n```\nune Frag (5) provoquera un Test.\n```\n\n```python\nprint('x')\n```\n\n"
              "    texte indenté\n")
    reading = read(tmp_path, source)
    assert texts(reading) == ["Exemple", "une Frag (5) provoquera un Test.", "texte indenté"]
    reasons = [(s.lines, s.reason) for s in reading.set_aside]
    assert reasons == [((2, 2), "code fence"), ((4, 4), "code fence"), ((6, 8), "code block (python)")]
    accounted(source, reading)


def test_container_markers_and_html_set_aside(tmp_path):
    source = "::: tip Astuce\nUn conseil.\n:::\n\n§§§ .table-container\n\n| a | b |\n|---|---|\n\n§§§\n\n<div>\n</div>\n\n<p>Du texte</p>\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["Un conseil.", "| a | b |", "Du texte"]
    reasons = {s.lines: s.reason for s in reading.set_aside}
    assert reasons[(1, 1)] == reasons[(3, 3)] == reasons[(5, 5)] == reasons[(10, 10)] == "container marker"
    assert reasons[(12, 13)] == "HTML without text"
    kinds = {a.kind: a.severity for a in reading.anomalies}
    assert kinds["html-kept"] == "warning" and "html-dropped" in kinds
    accounted(source, reading)


def test_inline_html_tags_add_no_space_block_tags_do(tmp_path):
    source = ('<div class="intro">\nLe jeu <b>Ferraille</b>.<br>\nChaque <i>terme</i>, <span>ici</span>.</div>\n\n'
              '<ul><li>Un</li><li>Deux</li></ul>\n')
    reading = read(tmp_path, source)
    assert texts(reading) == ["Le jeu Ferraille. Chaque terme, ici.", "Un Deux"]
    accounted(source, reading)


def test_rule_numbers_printed_at_line_start_split_a_paragraph(tmp_path):
    source = "1. L'Esprit du Jeu\n   1.1 Premier point.\n   1.2 Second point\n   qui continue.\n       1.2.1 Détail.\n"
    reading = read(tmp_path, source)
    assert texts(reading) == ["1. L'Esprit du Jeu", "1.1 Premier point.", "1.2 Second point qui continue.", "1.2.1 Détail."]
    assert any(a.kind == "wrapped-rule-numbers" for a in reading.anomalies)
    accounted(source, reading)


def test_evidence_counts_questions(tmp_path):
    source = "# Peut-on tirer ?\n\nOui.\n\nEt en mêlée ?\n\n- une liste ?\n"
    assert read(tmp_path, source).evidence == {
        "headings": 1, "heading_levels": [1], "list_items": 1, "ordered_items": 0, "tables": 0, "questions": 2}


def test_anomalies_heading_skip_and_only_heading(tmp_path):
    skipped = read(tmp_path, "# Un\n\n### Trois\n\nTexte.\n")
    assert [(a.kind, a.lines, a.severity) for a in skipped.anomalies] == [("heading-level-skipped", [3], "warning")]
    alone = read(tmp_path, "# Seul titre\n")
    assert [a.kind for a in alone.anomalies] == ["only-heading"]
    nothing = read(tmp_path, "<!-- rien -->\n")
    assert [a.severity for a in nothing.anomalies] == ["severe"] and not nothing.lines


def test_accounting_invariant_on_a_mixed_document(tmp_path):
    source = ("---\nt: x\n---\n<!-- c -->\n# Titre\n\nUn paragraphe\nsur deux lignes.  \nEt une suite.\n\n"
              "- a\n  b\n-\n  1. c\n\n> cité\n>\n> encore\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n***\n\n![img](a.png)\n\n"
              "[ref]: http://a\n  \"titre\"\n\n```\nprose ici\n```\n")
    reading = read(tmp_path, source)
    accounted(source, reading)


def test_latin1_file_names_the_line(tmp_path):
    with pytest.raises(InputError) as error:
        read(tmp_path, "# Titre\n\nBonne ligne.\nMauvaise ligne : é\n".encode("latin-1"))
    assert error.value.line == 4 and "doc.md" in str(error.value) and "\n" not in str(error.value)


def test_empty_and_binary_files_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="empty"):
        read(tmp_path, "  \n\n")
    with pytest.raises(InputError, match="binary") as error:
        read(tmp_path, b"# T\n\x00\x01")
    assert error.value.line == 2


def test_crlf_and_bom(tmp_path):
    reading = read(tmp_path, "\ufeff# Titre\r\n\r\nTexte\r\nsuite.\r\n")
    assert texts(reading) == ["# Titre", "Texte suite."]
    assert reading.lines[1].covers == (4,)


@pytest.mark.parametrize(("first", "aside"), [
    ("**[Living Rules](../contents.md)** > **[Règles de base](contents.md)** > **Actions**", True),
    ("**[Living Rules](contents.md)** > **Introduction**", True),
    ("[Accueil](index.md) > Règles > Combat", True),
    ("Si la valeur > 3, relancez le dé.", False),  # a sentence
    ("Attaque > Défense", False),  # no link, nothing marked: not surely a breadcrumb
    ("Mouvement > Tir > Assaut > Moral", False),  # the order of the phases, perhaps
    ("Si Force > Défense alors [voir](combat.md)", False),
    ("> Une citation en exergue", False),
    ("# Règles > Combat > Tir", False),  # a heading
    ("| **Attaque** > **Défense** | Touché > 3 | Effet |", False),  # a table row
    ("- **Tour** > **Phase** > **Étape**", False),  # a list item
])
def test_a_sites_breadcrumb_above_the_first_heading_is_set_aside(tmp_path, first, aside):
    text = f"{first}\n\n# Actions\n\nUne figurine activée agit.\n"
    reading = read(tmp_path, text)
    accounted(text, reading)
    assert ([(s.lines, s.reason) for s in reading.set_aside] == [((1, 1), "breadcrumb (the site's navigation)")]) is aside
    assert (texts(reading)[0] == "# Actions") is aside


def test_a_breadcrumb_needs_a_heading_outside_code_below_it(tmp_path):
    text = "**[A](a.md)** > **B**\n\n```\n# un commentaire\n```\n"
    assert not any(s.reason.startswith("breadcrumb") for s in read(tmp_path, text).set_aside)
    text = "**[A](a.md)** > **B**\n\nActions\n=======\n\nUne figurine agit.\n"
    assert [s.reason for s in read(tmp_path, text).set_aside] == ["breadcrumb (the site's navigation)"]


def test_a_heading_s_attribute_list_leaves_the_title_and_its_id_is_the_anchor(tmp_path):
    """Pandoc, kramdown and Python-Markdown give a heading its id in braces after the title."""
    source = ("# Les Caravanes {#caravanes}\n\n## Le marché {#marche .important}\n\n### Fin {: #fin }\n\n"
              "### Sans id {.unnumbered}\n\n## Prix {en euros}\n\n## {#seul}\n")
    reading = read(tmp_path, source)
    assert texts(reading) == ["# Les Caravanes", "## Le marché", "### Fin", "### Sans id", "## Prix {en euros}"]
    assert [line.anchor for line in reading.lines] == ["caravanes", "marche", "fin", None, None]
    assert [s.reason for s in reading.set_aside] == ["empty heading"]
    accounted(source, reading)


def test_a_simple_html_table_is_read_as_a_markdown_table(tmp_path):
    source = ("Les prix :\n\n<table>\n  <thead>\n  <tr><th>Marchandise</th><th>Prix</th></tr>\n  </thead>\n"
              "  <tr><td><b>Ambre</b></td><td>4 &amp; 7</td></tr>\n  <tr>\n    <td>Sel | gemme</td>\n    <td>1</td>\n  </tr>\n"
              "  <tr><td>Épices<td>3\n  <tr><td></td><td>5</td></tr>\n</table>\n\nFin.\n")
    reading = read(tmp_path, source)
    assert texts(reading) == ["Les prix :", "| Marchandise | Prix |", "| Ambre | 4 & 7 |", "| Sel \\| gemme | 1 |",
                              "| Épices | 3 |", "|  | 5 |", "Fin."]
    assert [(line.no, line.covers) for line in reading.lines[1:6]] == [(5, ()), (7, ()), (8, (9, 10, 11)), (12, ()), (13, ())]
    assert reading.evidence["tables"] == 1 and reading.anomalies == []
    assert {s.reason for s in reading.set_aside} == {"table line"}
    accounted(source, reading)


@pytest.mark.parametrize("table", [
    "<table>\n<tr><th colspan=\"2\">Prix</th></tr>\n<tr><td>Ambre</td><td>4</td></tr>\n</table>\n",
    "<table>\n<caption>Prix</caption>\n<tr><td>Ambre</td><td>4</td></tr>\n</table>\n",
    "<table>\n<tr><td>Ambre</td><td><ul><li>4</li></ul></td></tr>\n</table>\n",
    "<table><tr><td>Ambre</td><td>4</td></tr><tr><td>Sel</td><td>1</td></tr></table>\n",
    "<table>\n<tr><td>Ambre</td><td><table><tr><td>4</td></tr></table></td></tr>\n</table>\n",
])
def test_an_html_table_a_markdown_table_cannot_say_keeps_its_text_with_a_warning(tmp_path, table):
    reading = read(tmp_path, table)
    assert len(reading.lines) == 1 and "Ambre" in reading.lines[0].text and not reading.lines[0].text.startswith("|")
    assert [a.kind for a in reading.anomalies] == ["html-kept"]
    accounted(table, reading)


def test_a_paragraph_after_a_list_is_a_paragraph_and_a_components_list_keeps_its_lines(tmp_path):
    from extract.read import read_document

    path = tmp_path / "regles.md"
    path.write_text("# Matériel\n\n1 plateau de jeu\n40 cartes Action\n12 pions en bois\n\n# Mise en place\n\n"
                    "Les joueurs se placent :\n- le premier joueur prend le dé ;\n- les autres prennent 3 cartes.\n"
                    "Ensuite la partie commence.\n- un item\nqui continue sans retrait\n", encoding="utf-8")
    texts = [line.text for line in read_document(path).lines]
    assert texts[1:4] == ["- 1 plateau de jeu", "- 40 cartes Action", "- 12 pions en bois"]
    assert "- les autres prennent 3 cartes." in texts
    assert "Ensuite la partie commence." in texts  # not inside the last item
    assert "- un item qui continue sans retrait" in texts  # a lazy line going on with its sentence stays in it
