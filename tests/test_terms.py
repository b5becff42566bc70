"""Term links on spaCy lemmas: a hand-verified sample from the real corpus, and the precision
rules on small fixtures."""

from __future__ import annotations

import pytest

from extract.link.terms import link_terms
from extract.lookup import Lookup
from extract.model import Block, DocumentSpec, Entry, GameSpec, TermConfig
from extract.nlp import Lemmatizer
from extract.text import title_key
from tests.conftest import ROOT

# Loads spaCy's French model: with the other such modules on one worker, which loads it once.
pytestmark = pytest.mark.xdist_group("spacy")

# (entry, text as written, target, correct?) — read one by one in their sentences. The one
# wrong link is kept here on purpose: it is what the precision below is measured on.
SAMPLE = [
    ("runewars/reference/46.2", "rounds", "runewars/reference/80", True),
    ("runewars/apprentissage/regles-avancees/bonus-de-rang-et-debordement", "rang", "runewars/reference/73", True),
    ("runewars/reference/74.1", "fait face", "runewars/reference/44", True),
    ("runewars/apprentissage/actions/collision", "pion Paniqué", "runewars/reference/45", True),
    ("runewars/apprentissage/actions/actions-attaque-de-melee-et-attaque-a-distance", "Précision", "runewars/reference/69", True),
    ("runewars/faq/faq/terrain/mots-clefs-de-terrain/q3", "pion Paniqué", "runewars/reference/45", True),
    ("runewars/apprentissage/actions/action-ralliement", "fléaux", "runewars/reference/45", True),
    ("runewars/reference/60.3", "collision", "runewars/reference/26", True),
    ("runewars/apprentissage/actions/se-deplacer-alors-qu-on-est-engage", "vitesse", "runewars/reference/90", True),
    ("runewars/faq/faq/ameliorations-figurines/q4", "amélioration Figurine", "runewars/reference/6", True),
    ("runewars/reference/3.1", "zone de jeu", "runewars/reference/92", True),
    ("runewars/apprentissage/actions/determiner-la-portee-et-la-ligne-de-vue", "ligne de vue", "runewars/reference/49", True),
    ("runewars/reference/87", "dégâts", "runewars/reference/38", True),
    ("runewars/reference/84.6", "arc de tir", "runewars/reference/8", True),
    ("runewars/apprentissage/actions/actions-attaque-de-melee-et-attaque-a-distance", "Coup mortel", "runewars/reference/29", True),
    ("runewars/reference/9.8", "coups mortels", "runewars/reference/29", True),
    ("runewars/apprentissage/actions/resoudre-une-attaque", "moral", "runewars/reference/57", True),
    ("sda-jfe/tournoi/8.50", "Coup Rapide", "sda-jfe/tournoi/8.12", True),
    ("runewars/reference/84.9", "dégâts", "runewars/reference/38", True),
    # "pivoter rapidement vers une nouvelle menace": a threat in the story, not the Menace value.
    ("runewars/apprentissage/actions/action-reformation", "menace", "runewars/reference/51", False),
    ("runewars/apprentissage/regles-avancees", "terrain", "runewars/reference/84", True),
    ("runewars/reference/6.5", "modificateur", "runewars/reference/54", True),
    ("runewars/apprentissage/actions/reformation-et-obstacles", "collision", "runewars/reference/26", True),
    ("runewars/reference/76", "obstacle", "runewars/reference/60", True),
    ("runewars/reference/6.2", "carte Amélioration", "runewars/reference/20", True),
    ("runewars/apprentissage/actions/collision", "Marche", "runewars/reference/50", True),
    # "Mise en place" (topic 53) says "Voir « Mise en place » page 4": the link follows it.
    ("runewars/apprentissage/regles-avancees/cartes-objectif", "Mise en place", "runewars/reference/mise-en-place", True),
    ("runewars/reference/31", "Moral", "runewars/reference/57", True),
    ("runewars/reference/84.7", "portée", "runewars/reference/67", True),
    ("runewars/apprentissage/regles-avancees/attaques-et-terrain", "ligne de vue", "runewars/reference/49", True),
    ("runewars/faq/faq/terrain/sortir-d-un-terrain/q1", "terrain", "runewars/reference/84", True),
    ("runewars/apprentissage/modificateurs/modificateur-action-bonus", "modificateurs", "runewars/reference/54", True),
    ("runewars/reference/38.6", "défense", "runewars/reference/33", True),
    ("runewars/apprentissage/regles-a-ne-pas-oublier", "test de moral", "runewars/reference/85", True),
    ("runewars/apprentissage/texte-des-cartes-et-capacites", "capacités", "runewars/reference/19", True),
    ("runewars/reference/mise-en-place", "zone de jeu", "runewars/reference/92", True),
    ("runewars/reference/63", "modificateur", "runewars/reference/54", True),
    ("runewars/apprentissage/benedictions-et-fleaux/fleaux", "pion Assommé", "runewars/reference/45", True),
    ("sda-jfe/tournoi/8.082", "Présence Effrayante", "sda-jfe/tournoi/8.43", True),
    ("runewars/apprentissage/actions/action-reformation", "Reformation", "runewars/reference/76", True),
    # "Cadran d'action" (17) says "Voir « Outil de commandement »".
    ("runewars/reference/1.1", "cadran d'action", "runewars/reference/61", True),
    ("runewars/faq/clarifications-de-cartes/cartes-amelioration/tambour-agressif", "Roue", "runewars/reference/79", True),
    ("runewars/faq/faq/terrain/entrer-en-collision-avec-un-terrain/q2", "faire face", "runewars/reference/44", True),
    ("runewars/reference/85.2", "dépensés", "runewars/reference/34", True),
    ("runewars/reference/44.1", "engagement", "runewars/reference/41", True),
    ("runewars/faq/errata/cartes-terrain/fissure-dimorienne", "portée", "runewars/reference/67", True),
    ("runewars/reference/schemas/rapprochement", "repositionnement", "runewars/reference/77", True),
    ("runewars/reference/35", "Marche", "runewars/reference/50", True),
    ("runewars/reference/10.1", "profil d'attaque", "runewars/reference/71", True),
    ("runewars/reference/9.10", "amélioration Figurine", "runewars/reference/6", True),
    ("runewars/apprentissage/actions/portee-et-ligne-de-vue", "LIGNE DE VUE", "runewars/reference/49", True),
    # "Pions Objectif" (66) says "Voir « Cartes Objectif »".
    ("runewars/faq/faq/mise-en-place/resoudre-des-objectifs/q1", "pion Objectif", "runewars/reference/22", True),
    ("runewars/reference/regles-optionnelles/escarmouche", "construction d'armée", "runewars/reference/construction-d-armee", True),
    ("runewars/reference/30.1", "fait face", "runewars/reference/44", True),
    ("runewars/apprentissage/actions/degats", "DÉGÂTS", "runewars/reference/38", True),
    ("runewars/apprentissage/creer-des-armees-personnalisees/amelioration-figurine-2", "carte Amélioration", "runewars/reference/20", True),
    ("runewars/reference/54.3", "Virage", "runewars/reference/89", True),
    ("runewars/faq/clarifications-de-cartes/cartes-amelioration/cherche-cur", "ligne de vue", "runewars/reference/49", True),
    ("runewars/reference/84.9", "mots-clefs", "runewars/reference/58", True),
]


def test_hand_verified_sample(built):
    """Precision measured on the links of the sample the build still makes: a wrong link is
    counted against it, never asserted as if it were right."""
    assert len(SAMPLE) >= 50
    wrong = [(source, text) for source, text, _, correct in SAMPLE if not correct]
    assert wrong == [("runewars/apprentissage/actions/action-reformation", "menace")]  # the narrative threat
    made = []
    for source, text, target, correct in SAMPLE:
        links = [(r["text"], r["target"]) for r in built["entries"][source]["refs"] if r["kind"] == "term"]
        if (text, target) in links:
            made.append(correct)
        else:  # a link read as right that is no longer made is lost recall: report it
            assert not correct, f"the hand-checked link {source}: « {text} » -> {target} is no longer made ({links})"
    assert len(made) >= 50
    precision = sum(made) / len(made)
    assert precision >= 0.95, f"precision {precision:.3f} on {len(made)} hand-checked links"


def test_term_links_keep_to_the_rules(built):
    generic = {title_key("Unité"), title_key("Actions"), title_key("Attaque")}
    for entry in built["entries"].values():
        terms = [r for r in entry["refs"] if r["kind"] == "term"]
        targets = [r["target"] for r in terms]
        assert len(targets) == len(set(targets)), entry["id"]  # first mention only
        assert entry["id"] not in targets and (entry["parent"] not in targets or entry["parent"] is None)
        for ref in terms:
            assert title_key(built["entries"][ref["target"]]["title"]) not in generic
    index = built["entries"]["runewars/reference/index"]
    assert not [r for r in index["refs"] if r["kind"] == "term"]


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def lemmatizer(tmp_path_factory):
    return Lemmatizer(tmp_path_factory.mktemp("nlp") / "lemmas.sqlite")


def topic(number: str, title: str, text: str = "…") -> Entry:
    return Entry("demo", "guide", "topic", number, title, number, blocks=[Block("paragraph", text)])


def linked(entry: Entry) -> list[tuple[str, str]]:
    return [(r.text, r.target.rsplit("/", 1)[1]) for r in entry.refs if r.kind == "term"]


def run(entries: list[Entry], lemmatizer: Lemmatizer, config: TermConfig | None = None):
    game = GameSpec("demo", "Démo", [], [], "corpus/demo/game.toml", {})
    return link_terms(Lookup(game, entries), config or TermConfig(), lemmatizer)


def test_longest_term_wins_and_inflections_match(lemmatizer):
    rule = Entry("demo", "guide", "rule", "9.1", None, "9.1", blocks=[Block(
        "paragraph", "Les unités subissent des tests de moral et tracent leurs lignes de vue ; la vue est dégagée.")])
    entries = [topic("1", "Test de moral"), topic("2", "Ligne de vue"), topic("3", "Vue"), rule]
    run(entries, lemmatizer)
    assert linked(rule) == [("tests de moral", "1"), ("lignes de vue", "2"), ("vue", "3")]


def test_no_self_link_no_verb_no_generic(lemmatizer):
    own = topic("4", "Charge", "Une charge permet d'attaquer. Il charge l'ennemi.")
    rule = Entry("demo", "guide", "rule", "4.1", None, "4.1", parent=own, blocks=[Block("paragraph", "La charge de l'unité.")])
    other = Entry("demo", "guide", "rule", "9.2", None, "9.2", blocks=[Block("paragraph", "Il charge puis l'unité recule.")])
    entries = [own, rule, other, topic("5", "Unité")]
    run(entries, lemmatizer, TermConfig(generic={title_key("Unité")}))
    assert linked(own) == [] and linked(rule) == []  # itself, and the topic it belongs to
    assert linked(other) == []  # "il charge" is the verb; "unité" is declared generic


def test_a_name_two_topics_share_is_reported_not_linked(lemmatizer):
    rule = Entry("demo", "guide", "rule", "9.3", None, "9.3", blocks=[Block("paragraph", "Le terrain gêne.")])
    found = run([topic("6", "Terrain"), topic("7", "Terrains"), rule], lemmatizer)
    assert linked(rule) == []
    assert [a.kind for _, a in found] == ["ambiguous-term"]


def test_lemmas_are_cached_by_content(tmp_path):
    cache = tmp_path / "lemmas.sqlite"
    first = Lemmatizer(cache)
    first.nlp  # noqa: B018 — load once so the assertion below is about the cache, not the model
    tokens = first.tokens(["Les unités attaquent."])
    assert [t.lemma for t in tokens["Les unités attaquent."]][:2] == ["le", "unité"]
    first.close()
    second = Lemmatizer(cache)
    again = second.tokens(["Les unités attaquent."])
    assert again == tokens and (second.hits, second.misses) == (1, 0) and second._nlp is None


def test_errata_and_lemmas_share_one_model(tmp_path):
    """One spaCy model per process: the errata's cue matcher and a build's lemmatizer tag with the
    same one (each loaded its own copy, a second load and a few hundred MB more)."""
    from extract.errata.operations import language

    lemmatizer = Lemmatizer(tmp_path / "lemmas.sqlite")
    assert lemmatizer.nlp is language()
    lemmatizer.close()


def test_term_config_errors_name_the_file_and_line(tmp_path):
    from extract.corpus import read_term_config
    from extract.errors import InputError

    folder = tmp_path / "corpus" / "demo"
    folder.mkdir(parents=True)
    (folder / "terms.toml").write_text('generic = ["Unité"]\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"corpus/demo/terms.toml:2: unknown key 'colour'"):
        read_term_config(tmp_path, "demo")


@pytest.mark.corpus  # reads the real corpus's terms.toml
def test_real_term_config_declares_generic_terms():
    from extract.corpus import read_term_config

    assert read_term_config(ROOT, "runewars").generic >= {title_key("Unité")}


def test_a_name_each_book_defines_once_links_within_each_book(lemmatizer):
    """A core book and an expansion both define "Charge": each book's text means its own; a FAQ
    that defines none links to the first book's."""
    core, expansion = topic("4", "Charge"), Entry("demo", "extension", "topic", "4", "Charge", "x4", blocks=[Block("paragraph", "…")])
    texts = [Entry("demo", book, "rule", "9.1", None, f"{book}-9.1", blocks=[Block("paragraph", "Une charge réussie.")])
             for book in ("guide", "extension", "faq")]
    books = [DocumentSpec(d, d, k, "", "", "corpus/demo/x.txt", 1, None, "faq", {})
             for d, k in (("guide", "reference"), ("extension", "reference"), ("faq", "faq"))]
    game = GameSpec("demo", "Démo", books, [], "corpus/demo/game.toml", {})
    found = link_terms(Lookup(game, [expansion, core, *texts]), TermConfig(), lemmatizer)
    assert [linked(t) for t in texts] == [[("charge", "4")], [("charge", "x4")], [("charge", "4")]]
    assert [(a.kind, "each book's mentions link to its own" in a.detail) for _, a in found] == [("ambiguous-term", True)]
