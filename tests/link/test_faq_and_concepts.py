"""FAQ answers attached to the rules they concern, concept links between books, and backrefs,
on a few hand-built entries."""

from __future__ import annotations

from extract.link.concepts import link_concepts, subjects
from extract.link.faq import attach_faq, fill_backrefs, named_titles
from extract.lookup import Lookup
from extract.model import Block, Concept, DocumentSpec, Entry, Erratum, GameSpec, Ref
from extract.text import title_key


def doc(id_: str, kind: str) -> DocumentSpec:
    return DocumentSpec(id_, id_, kind, "", "", "corpus/demo/x.txt", 1, None, "faq", {})


GAME = GameSpec("demo", "Démo", [doc("guide", "reference"), doc("faq", "faq")], [], "corpus/demo/game.toml", {})


def make(document: str, key: str, title: str | None, text: str = "", kind: str = "topic", number: str | None = None,
         parent: Entry | None = None, game: str = "demo") -> Entry:
    found = Entry(game, document, kind, number, title, key, parent=parent,
                  blocks=[Block("question" if kind == "question" else "paragraph", text)] if text else [])
    found.heading_lines = [1]
    return found


def faq_fixture():
    los = make("guide", "49", "Ligne de vue", "Une unité voit.", number="49")
    threat = make("guide", "51", "Menace", "La menace compte les rangs.", number="51")
    charge = make("guide", "24", "Charge", "Une charge.", number="24")
    faq = make("faq", "faq", "FAQ", kind="section")
    topic = make("faq", "faq/ligne-de-vue", "Ligne de Vue", kind="section", parent=faq)
    q1 = make("faq", "faq/ligne-de-vue/q1", None, "Une unité engagée voit-elle ? Voir la section 51.", kind="question", parent=topic)
    other = make("faq", "faq/divers", "Divers", kind="section", parent=faq)
    q2 = make("faq", "faq/divers/q1", None, "Que dit l'encadré ? Voir « Menace » et le test de moral.", kind="question", parent=other)
    q3 = make("faq", "faq/divers/q2", None, "Peut-on jouer à trois ?", kind="question", parent=other)
    q4 = make("faq", "faq/divers/q3", None, "Voir « Tir en cloche ».", kind="question", parent=other)
    return [los, threat, charge, faq, topic, q1, other, q2, q3, q4]


def faq_refs(entry: Entry) -> list[tuple[str | None, str]]:
    return [(r.target, r.text) for r in entry.refs if r.kind == "faq"]


def test_questions_attach_by_heading_pointer_and_number():
    entries = faq_fixture()
    found = attach_faq(Lookup(GAME, entries), [])
    q1, q2, q3, q4 = entries[5], entries[7], entries[8], entries[9]
    assert faq_refs(q1) == [("demo/guide/49", "Ligne de Vue"), ("demo/guide/51", "section 51")]
    assert faq_refs(q2) == [("demo/guide/51", "Voir « Menace »")]
    assert faq_refs(q4) == [(None, "Voir « Tir en cloche »")]
    assert faq_refs(q3) == []
    assert [(a.kind, a.detail) for _, a in found] == [
        ("faq-unattached", "demo/faq/faq/divers/q2: no rule found for this question"),
        ("unresolved-reference", "demo/faq/faq/divers/q3: faq « Voir « Tir en cloche » »"),
        ("faq-unattached", "demo/faq/faq/divers/q3: no rule found for this question"),
    ]


def test_a_question_attaches_to_the_first_book_of_each_kind_naming_its_topic():
    """Two reference guides and a learn-to-play book repeat "Ligne de vue": the question is attached
    to the first guide and to the learn-to-play book, not to every guide (links stay linear in the
    entries however many books of a kind a game has)."""
    game = GameSpec("demo", "Démo", [doc("guide", "reference"), doc("extension", "reference"), doc("base", "learn"),
                                     doc("faq", "faq")], [], "corpus/demo/game.toml", {})
    guide, extension, base = (make(d, "los", "Ligne de vue", "Une unité voit.") for d in ("guide", "extension", "base"))
    faq = make("faq", "faq", "FAQ", kind="section")
    topic = make("faq", "faq/ligne-de-vue", "Ligne de vue", kind="section", parent=faq)
    question = make("faq", "faq/ligne-de-vue/q1", None, "Une unité engagée voit-elle ?", kind="question", parent=topic)
    attach_faq(Lookup(game, [guide, extension, base, faq, topic, question]), [])
    assert [target for target, _ in faq_refs(question)] == ["demo/guide/los", "demo/base/los"]


def test_a_redirect_in_the_first_book_does_not_take_the_questions_place():
    game = GameSpec("demo", "Démo", [doc("core", "reference"), doc("exp", "reference"), doc("faq", "faq")], [],
                    "corpus/demo/game.toml", {})
    pointer = make("core", "charge", "Charge", "Voir « Assaut ».")
    pointer.flags = ["redirect"]
    rule = make("exp", "charge", "Charge", "Une unité charge.")
    topic = make("faq", "faq/charge", "Charge", kind="section")
    question = make("faq", "faq/charge/q1", None, "Peut-on charger deux fois ?", kind="question", parent=topic)
    attach_faq(Lookup(game, [pointer, rule, topic, question]), [])
    assert [target for target, _ in faq_refs(question)] == ["demo/exp/charge"]


def test_concepts_link_to_the_first_book_of_a_kind_in_manifest_order():
    """Books "zcore", "exp1", "exp2" of one kind, in that order: each links to the first other
    book in the manifest's order (not the ids' order), so from the first book every other is
    one link away."""
    books = [make(d, "charge", "Charge", "x", number="12") for d in ("zcore", "exp1", "exp2")]
    kinds = {("demo", d): "reference" for d in ("zcore", "exp1", "exp2")}
    link_concepts(books, [], set(), kinds)
    assert concepts(books[0]) == {books[1].id, books[2].id}
    assert concepts(books[1]) == {books[0].id} and concepts(books[2]) == {books[0].id}


def test_a_subject_many_books_repeat_is_linked_back_from_the_first_few_only():
    """Twelve books of one kind bearing "Charge": each links to the first; the first is linked
    back from the next `BACK_LINKS` books, not from all eleven (its page would grow with the game)."""
    from extract.link.concepts import BACK_LINKS

    names = [f"exp{n}" for n in range(12)]
    books = [make(d, "charge", "Charge", "x", number="12") for d in names]
    link_concepts(books, [], set(), {("demo", d): "reference" for d in names})
    assert concepts(books[0]) == {b.id for b in books[1:1 + BACK_LINKS]}
    assert all(concepts(b) == {books[0].id} for b in books[1:])


def test_an_erratum_links_its_source_to_its_target():
    entries = faq_fixture()
    source = make("faq", "errata/menace", "Menace, page 14, section 51", "Le second point devrait dire :", kind="section")
    erratum = Erratum("demo/faq/errata/1", source.id, "demo/guide/51", "replace", {}, None, None, "applied")
    attach_faq(Lookup(GAME, [*entries, source]), [erratum])
    assert faq_refs(source) == [("demo/guide/51", "Menace, page 14, section 51")]


def test_named_titles_are_found_by_word_ngrams_in_order():
    titles = {title_key(t): [] for t in ("Test de moral", "Ligne de vue", "Moral")}
    assert named_titles("Les lignes de vue et les tests de moral", titles, 3) == ["ligne de vue", "test de moral"]  # two words or more


def test_backrefs_mirror_resolved_refs():
    a, b, c = (make("guide", k, k.upper()) for k in ("a", "b", "c"))
    a.refs = [Ref(b.id, "related", "B"), Ref(None, "page", "p. 3", "no page map")]
    c.refs = [Ref(b.id, "section", "b"), Ref(a.id, "term", "a")]
    fill_backrefs([a, b, c])
    assert (a.backrefs, b.backrefs, c.backrefs) == (["demo/guide/c"], ["demo/guide/a", "demo/guide/c"], [])


def test_subjects_split_titles_joined_by_et():
    assert subjects("Obstacles et collisions") == ["obstacle et collision", "obstacle", "collision"]
    assert subjects("Ligne de vue") == ["ligne de vue"]


def concepts(entry: Entry) -> set[str]:
    return {r.target for r in entry.refs if r.kind == "concept"}


def test_concept_links_within_a_game_and_across_games():
    learn = make("livret", "actions/collision", "Obstacles et collisions", "x", kind="section")
    collision = make("guide", "26", "Collision", "x", number="26")
    obstacle = make("guide", "60", "Obstacle", "x", number="60")
    same_book = make("livret", "autre/collision", "Collision", "x", kind="section")
    los = make("guide", "49", "Ligne de vue", "x", number="49")
    other_game = make("resume", "combat/ligne-de-mire", "Lignes de Mire", "x", kind="section", game="battlelore")
    unrelated = make("resume", "combat/portee", "Portée", "x", kind="section", game="battlelore")
    question = make("faq", "faq/q1", "Ligne de vue", "x", kind="question")
    entries = [learn, collision, obstacle, same_book, los, other_game, unrelated, question]
    link_concepts(entries, [Concept("Ligne de vue", frozenset({title_key("Ligne de vue"), title_key("Ligne de mire")}))], set())
    assert concepts(learn) == {collision.id, obstacle.id}  # both subjects of the title
    assert learn.id in concepts(collision) and learn.id in concepts(obstacle)
    assert same_book.id not in concepts(learn) and concepts(same_book) == {collision.id}  # never within one book
    # Across games, through the concept file only: "Lignes de Mire" is one of the names of "Ligne de vue".
    assert concepts(los) == {other_game.id} and concepts(other_game) == {los.id} and concepts(unrelated) == set()
    assert [r.text for r in los.refs] == ["Ligne de vue (battlelore)"]
    assert concepts(question) == set()  # questions link through the FAQ attachment instead


def test_a_question_citing_an_article_attaches_to_it():
    """"(article 4)" and "voir 3.2" attach a question to the rules printed with those numbers;
    an article no rule bears is reported, and the question stays unattached."""
    shooting = make("guide", "4", "Le tir", "On tire.", kind="section", number="4")
    moving = make("guide", "3.2", "Bouger", "On bouge.", kind="rule", number="3.2")
    faq = make("faq", "faq", "FAQ", kind="section")
    cited = make("faq", "faq/q1", None, "Peut-on tirer deux fois (article 4) ? R : Non, voir 3.2.", kind="question", parent=faq)
    unknown = make("faq", "faq/q2", None, "Et l'article 12 ?", kind="question", parent=faq)
    found = attach_faq(Lookup(GAME, [shooting, moving, faq, cited, unknown]), [])
    assert faq_refs(cited) == [("demo/guide/4", "article 4"), ("demo/guide/3.2", "voir 3.2")]
    assert faq_refs(unknown) == [(None, "article 12")]
    assert [(a.kind, a.detail) for _, a in found] == [
        ("unresolved-reference", "demo/faq/faq/q2: faq « article 12 »: no single rule numbered 12"),
        ("faq-unattached", "demo/faq/faq/q2: no rule found for this question"),
    ]


def test_a_question_citing_a_part_of_the_rules_attaches_but_not_one_citing_another_book():
    """"de la Phase de tir" names a part of the rules, not a book: the article is theirs; "du Règlement
    intérieur" is a book the game lacks, whose articles say nothing of its rules."""
    shooting = make("guide", "4", "Le tir", "On tire.", kind="section", number="4")
    faq = make("faq", "faq", "FAQ", kind="section")
    phase = make("faq", "faq/q1", None, "Que dit l'article 4 de la Phase de tir ?", kind="question", parent=faq)
    other = make("faq", "faq/q2", None, "Et l'article 4 du Règlement intérieur ?", kind="question", parent=faq)
    attach_faq(Lookup(GAME, [shooting, faq, phase, other]), [])
    assert faq_refs(phase) == [("demo/guide/4", "article 4")]
    assert faq_refs(other) == []
