"""extract/text.py: the pure text helpers every profile and linker leans on."""

from __future__ import annotations

import pytest

from extract.text import (
    ends_sentence,
    fold,
    inline,
    is_pictograph_only,
    join_wrapped,
    join_wrapped_markdown,
    letter_ratio,
    slugify,
    starts_lowercase,
    strip_trailing_icons,
    title_key,
    uppercase_ratio,
    without_italic,
)


@pytest.mark.parametrize(("text", "folded"), [
    ("Ligne de Vue", "ligne de vue"),
    ("Dégâts  Élevés", "degats eleves"),  # accents gone, spaces collapsed
    ("d’attaque", "d'attaque"),  # curly apostrophe straightened
    ("  Œil ", "œil"),
])
def test_fold(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(("printed", "key"), [
    ("Obstacles ✦", "obstacle"),  # icon and plural gone
    ("lignes de vue", "ligne de vue"),
    ("Repositionnement (⊕)", "repositionnement"),
    ("Attaque à distance (☑)", "attaque a distance"),
    ("Mots-clefs", "mot clef"),
    ("Unité.", "unite"),
    ("Dégâts", "degat"),
    ("Les Règles d'Or", "le regle d'or"),
    ("", ""),
    (None, ""),
])
def test_title_key(printed, key):
    assert title_key(printed) == key


def test_title_keys_meet_across_spellings():
    assert title_key("Ligne de Vue") == title_key("lignes de vue") == title_key("LIGNE DE VUE")
    assert title_key("Charge ✦") != title_key("Chargé de mission")


@pytest.mark.parametrize(("title", "stripped"), [
    ("Charge ✦", "Charge"),
    ("Repositionnement (⊕)", "Repositionnement"),
    ("Augmentation ...", "Augmentation"),
    ("Moral ☉", "Moral"),
    ("Terrain…", "Terrain"),
    ("Rang (x)", "Rang (x)"),  # letters in brackets are words, not an icon
    ("Charge!", "Charge!"),
    ("Faire face", "Faire face"),
])
def test_strip_trailing_icons(title, stripped):
    assert strip_trailing_icons(title) == stripped


@pytest.mark.parametrize(("raw", "plain", "markdown", "stray"), [
    ("Un **gras** et *italique*", "Un gras et italique", "Un **gras** et *italique*", False),
    ("~~barré~~ et [lien](#cible)", "barré et lien", "~~barré~~ et [lien](#cible)", False),
    ("Une icône (*) imprimée", "Une icône (*) imprimée", "Une icône (*) imprimée", False),
    ("Un ** impair", "Un impair", "Un impair", True),  # unpaired markers are debris: both lose them
    ("\\*étoile\\*", "étoile", "*étoile*", False),  # escaped stars are emphasis once unescaped
    ("  des   espaces  ", "des espaces", "des espaces", False),
])
def test_inline_emphasis(raw, plain, markdown, stray):
    assert inline(raw) == (plain, markdown, stray)


@pytest.mark.parametrize(("previous", "following", "keep", "joined"), [
    ("Les combat-", "tants portent", False, "Les combattants portent"),  # a line-break hyphen goes
    ("un lance-", "flammes", True, "un lance-flammes"),  # the document spells the compound
    ("de 2-", "3 dés", False, "de 2- 3 dés"),  # not between two letters
    ("fin -", "suite", False, "fin - suite"),
    ("une phrase ", "  coupée ", False, "une phrase coupée"),
])
def test_join_wrapped(previous, following, keep, joined):
    assert join_wrapped(previous, following, keep) == joined


@pytest.mark.parametrize(("previous", "following", "joined"), [
    ("*Le Capitaine a donné*", "*trop d'ordres.*", "*Le Capitaine a donné trop d'ordres.*"),  # one italic run
    ("**Tir**", "**groupé**", "**Tir groupé**"),
    ("*lui deman-*", "*der de ne pas*", "*lui demander de ne pas*"),  # the hyphen inside the run goes too
    ("un *mot*", "**gras** ici", "un *mot* **gras** ici"),  # different runs stay apart
    ("*un* mot", "*autre*", "*un* mot *autre*"),  # nothing closes the line
    ("une note*", "*Cette règle", "une note* *Cette règle"),  # a printed star: merging would change the text
])
def test_join_wrapped_markdown(previous, following, joined):
    assert join_wrapped_markdown(previous, following) == joined


@pytest.mark.parametrize(("text", "slug"), [
    ("Ligne de Vue (LDV)", "ligne-de-vue-ldv"), ("L'unité Élevée", "l-unite-elevee"), ("?!", "x"), ("8.41", "8-41")])
def test_slugify(text, slug):
    assert slugify(text) == slug


def test_sentence_and_case_tests():
    assert ends_sentence("Fin.") and ends_sentence("« Fin »") and ends_sentence("Voir (page 4)") and not ends_sentence("la suite")
    assert starts_lowercase("**la** suite") and not starts_lowercase("La suite") and not starts_lowercase("  ")
    assert uppercase_ratio("ABc") == pytest.approx(2 / 3) and uppercase_ratio("123") == 0.0
    assert letter_ratio("ab 12") == 0.5 and letter_ratio("   ") == 0.0
    assert is_pictograph_only("☉ ✦ ...") and not is_pictograph_only("☉ 2")


def test_shorten_cuts_at_a_space_or_inside_one_long_word():
    from extract.text import shorten

    assert shorten("une unité engagée " * 10, 30) == "une unité engagée une unité …"
    assert shorten("战" * 200, 90) == "战" * 90 + " …"
    assert shorten("courte phrase", 90) == "courte phrase"


def test_a_line_end_hyphen_by_the_document_s_own_words():
    from extract.text import hyphen_evidence, hyphen_stays

    evidence = hyphen_evidence(["Le disque passe au-dessus, c'est-à-dire haut.", "Un déplacement compte-", "La case précédente."])
    assert hyphen_stays(evidence, "il passe au-", "dessus du joueur", default=False)  # written so mid-line
    assert hyphen_stays(evidence, "c'est-à-", "dire", default=False)  # a pair of a longer compound
    assert not hyphen_stays(evidence, "la case précé-", "dente", default=True)  # written whole
    assert not hyphen_stays(evidence, "son mouve-", "ment", default=False)  # no evidence: the default
    assert hyphen_stays(evidence, "son mouve-", "ment", default=True)
    assert not hyphen_stays(evidence, "son dépla-", "cement", default=True)  # "déplacement" is written whole
    assert not hyphen_stays(evidence, "un déplacement compte-", "rendu", default=False)  # a line-end hyphen proves nothing
    assert not hyphen_stays(evidence, "sans tiret", "ici", default=True)


def test_without_italic_takes_out_italic_markers_only():
    assert without_italic("*Dominator (p.59) :* la valeur") == "Dominator (p.59) : la valeur"
    # bold, and a bold icon read as « ** », stay
    assert without_italic("**Foreuse** : ajoutez « ** » après *le nom*.") == "**Foreuse** : ajoutez « ** » après le nom."


@pytest.mark.parametrize("leader", ["·" * 40, "." * 39, "… " * 20, "✦ " * 40, "(⊕) " * 20])
def test_a_title_with_a_long_leader_is_read_at_once(leader):
    """Issue 38: the trailing-icon rule backtracked exponentially on a leader of glyphs ("## Combat
    ······ 7": 24 dots took 11 s, 40 dots minutes); each is now read once (cut at 2 s of CPU)."""
    import signal

    def stop(signum, frame):
        raise TimeoutError("strip_trailing_icons did not end within 2 s of CPU")

    previous = signal.signal(signal.SIGVTALRM, stop)
    signal.setitimer(signal.ITIMER_VIRTUAL, 2.0)
    try:
        assert title_key(f"## Combat {leader} 7") == "combat 7"
        assert strip_trailing_icons(f"Combat {leader}") == "Combat"
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
