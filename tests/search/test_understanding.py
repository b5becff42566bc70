"""What a query means, on a small model built here: table talk, typos per word, the thesaurus,
index pages below the rules they point to, snippets marked once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extract.model import Block, Entry, Ref
from extract.search import words as W
from extract.search.engine import SearchIndex, snippet
from extract.search.model import build_model, write_model


def make(key: str, title: str | None, text: str, parent: Entry | None = None, **extra) -> Entry:
    entry = Entry("jeu", "regles", "rule", None, title, key, parent=parent)
    entry.blocks = [Block("paragraph", line) for line in text.split("\n")]
    entry.url = f"jeu/regles/{key}/"
    for name, value in extra.items():
        setattr(entry, name, value)
    return entry


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> SearchIndex:
    topic = make("36", "Débordement", "Une unité qui déborde une unité ennemie attaque son flanc ou son dos.")
    rule = make("36.1", None, "Quand une unité déborde, elle relance ses dés de dégâts.", parent=topic)
    moral = make("57", "Moral", "Quand le paquet Moral est vide, mélangez la défausse pour former un nouveau paquet.")
    shift = make("77", "Repositionnement", "Une unité engagée peut se désengager par un repositionnement.")
    redirect = make("12", "Désengagement", "Voir « Repositionnement ».", flags=["redirect"],
                    refs=[Ref("jeu/regles/77", "see", "Repositionnement")])
    listing = make("index", "Index", "\n".join(f"Débordement, 36 ({n})" for n in range(6)),
                   refs=[Ref("jeu/regles/36", "index", f"Débordement {n}") for n in range(6)])
    entries = [topic, rule, moral, shift, redirect, listing]
    for parent, child in ((topic, rule),):
        parent.children.append(child)
    folder = tmp_path_factory.mktemp("search")
    model = build_model(entries, {}, [(["fuir le combat", "s'enfuir"], ["désengager"])],
                        {"jeu/regles/57": ["Morale"]}, {"jeu": "Le Jeu", "jeu/regles": "Règles"})
    write_model(folder, model)
    (folder / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                  "kinds": ["rule"]}), encoding="utf-8")
    return SearchIndex(Path(folder))


def one_game_index(folder: Path, entries: list[Entry], lemmas: dict[str, str] | None = None) -> SearchIndex:
    """A search index over `entries`, all rules of one document of one game ("jeu/regles")."""
    write_model(folder, build_model(entries, lemmas or {}))
    (folder / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                  "kinds": ["rule"]}), encoding="utf-8")
    return SearchIndex(folder)


def ids(hits) -> list[str]:
    return [h.id.split("/")[-1] for h in hits]


def test_table_talk_weighs_nothing():
    assert W.words_of("qu'est-ce qui se passe si le paquet moral est vide ?") == ["paquet", "moral", "vide"]
    assert W.words_of("est-ce qu'on peut faire une attaque à distance ?") == ["attaque", "distance"]
    assert W.words_of("Comment fonctionne la panique") == ["panique"]
    assert W.words_of("l’unité") == ["unite"]
    # spoken fillers: "d'abord" is not the verb aborder, "du coup" no blow
    assert W.words_of("laquelle joue d'abord ? du coup je relance") == ["joue", "relance"]
    assert W.words_of("aborder la colline") == ["aborder", "colline"]
    # the progressive and "already" say nothing of the rule
    assert W.words_of("un ennemi déjà en train de charger") == ["ennemi", "charger"]
    assert W.words_of("je me suis planqué") == ["planque"]  # the auxiliary, not "suivre"
    # "personne" before a negation is nobody, not a person: no rule naming persons is asked for
    assert W.words_of("si personne n'a été éliminé à la fin") == ["elimine", "fin"]
    assert W.words_of("personne ne gagne") == ["gagne"]
    assert W.words_of("une personne par camp") == ["personne", "camp"]
    # semi-auxiliaries and spoken locutions: no word of them names a rule
    assert W.words_of("au bout de combien de tours") == ["tours"]
    assert W.words_of("il vient d'être chargé, il est obligé de reculer") == ["etre", "charge", "reculer"]
    assert W.words_of("en plein corps à corps") == ["corps", "corps"]
    assert W.words_of("un bout de terrain") == ["bout", "terrain"]  # a noun still


def test_a_rule_number_is_asked_with_dots_or_a_colon():
    assert [W.number_asked(q) for q in ("86.11", "règle 84.9", "§14.2", "8:5", "8:10b ?", "8 5")] == \
        ["86.11", "84.9", "14.2", "8:5", "8:10b", None]


def test_sound_keys_and_edit_distance():
    assert W.sound("menasse") == W.sound("menace")
    assert W.sound("atake") == W.sound("attaque")
    assert W.sound("retrete") == W.sound("retraite")
    assert W.distance("debordment", "debordement", 2) == 1
    assert W.distance("desengajement", "desengagement", 2) == 1
    assert W.distance("abc", "xyzw", 1) == 2  # past the limit: limit + 1


def test_a_typo_finds_its_word_and_only_that_word_is_approximate(index):
    hits = index.search("debordment")
    assert ids(hits)[0] == "36" and hits[0].approximate
    concepts, _ = index.understand("paquet morale vide debordment")
    assert [c.approximate for c in concepts] == [False, False, False, True]
    assert not index.search("débordement")[0].approximate


def test_the_thesaurus_reaches_the_books_words(index):
    assert ids(index.search("fuir le combat"))[0] == "77"


def test_other_names_and_redirects_reach_the_rule(index):
    assert ids(index.search("morale"))[0] == "57"  # a name from terms.toml
    found = ids(index.search("désengagement"))
    assert found.index("77") < found.index("12")  # the redirect's title is a name of its target


def test_the_index_page_ranks_below_the_rule_it_points_to(index):
    found = ids(index.search("débordement"))
    assert found.index("36") < found.index("index")


def test_a_sub_rule_holding_every_word_beats_its_topic(index):
    assert ids(index.search("débordement relance dés"))[0] == "36.1"


def test_a_question_finds_its_rule(index):
    assert ids(index.search("que se passe-t-il si le paquet moral est vide ?"))[0] == "57"


def test_nonsense_finds_nothing(index):
    assert index.search("horaires du train Lyon Paris") == []


def test_snippet_marks_a_word_once():
    plain, html = snippet("Une unité engagée reste engagée.", {"engag"})
    assert plain == "Une unité [engagée] reste [engagée]."
    assert html.count("<mark>") == 2


def test_english_function_words_are_stop_words():
    assert W.words_of("how does the morale deck work when it is empty") == ["morale", "deck", "work", "empty"]
    assert "de" in W.FOLDED_STOP_WORDS and "but" not in W.FOLDED_STOP_WORDS  # "but du jeu" stays a word


def test_words_reaching_nothing_do_not_hide_an_answer(index):
    # Two of three words reach the books: the third (no rule has it) asks nothing an entry could hold.
    assert ids(index.search("paquet moral zorglub"))[0] == "57"
    # One word of three reached: nonsense to these books, nothing comes back.
    assert index.search("zorglub moral blurp") == []


def test_a_question_no_rule_holds_a_third_of_still_finds_the_rules_holding_most(index):
    """Four words the books know, each in another rule: no rule holds the 34% a result needs, so
    the lower floor answers (nonsense, whose words the books lack, stays empty: see above)."""
    from extract.search.engine import FALLBACK_COVERAGE, MIN_COVERAGE

    query = "paquet repositionnement flanc relance"
    ranked = index.rank(*index.understand(query), None)
    assert ranked and all(FALLBACK_COVERAGE <= coverage < MIN_COVERAGE for _, _, coverage in ranked)
    assert set(ids(index.search(query))) >= {"57", "77", "36", "36.1"}


def test_a_die_is_a_word_the_article_is_not():
    assert W.words_of("un dé qui reste penché") == ["dee", "reste", "penche"]
    assert W.words_of("les DÉS de combat") == ["dees", "combat"]
    assert W.words_of("la ligne de vue des unités") == ["ligne", "vue", "unites"]
    assert W.fold("dé") != W.fold("de") and W.fold("idée") == "idee"


def test_a_rule_ending_on_page_pointers_is_not_a_contents_list():
    from extract.search.model import is_navigation

    pointers = [Ref(None, "page", f"p. {n}") for n in range(4)]
    rule = make("actions", "Actions", "Lorsqu'un joueur active un combattant, ce combattant effectue 2 actions choisies "
                "dans la liste ci-dessous. Résolvez la première action avant de décider de la seconde, comme le dit "
                "la règle.\nMOUVEMENT (p. 8)\nATTAQUE (p. 12)\nDÉSENGAGEMENT (p. 13)\nATTENTE (p. 13)", refs=pointers)
    contents = make("sommaire", "Sommaire", "Mouvement 8\nAttaque 12\nDésengagement 13\nAttente 13\nTerrain 16",
                    refs=pointers)
    assert not is_navigation(rule) and is_navigation(contents)


def test_a_games_own_synonyms_reach_that_game_only(tmp_path):
    def entry(game: str, key: str, title: str, text: str) -> Entry:
        made = Entry(game, "regles", "rule", None, title, key)
        made.blocks = [Block("paragraph", text)]
        made.url = f"{game}/regles/{key}/"
        return made

    entries = [entry("un", "1", "Retraite", "Une unité qui fuit bat en retraite."),
               entry("deux", "1", "Retraite", "Une unité en retraite recule."),
               entry("deux", "2", "Surplomb", "Une figurine sur un surplomb reste engagée."),
               entry("un", "2", "Surplomb", "Un surplomb est un décor.")]
    synonyms = [(["fuir"], ["retraite"]), (["fuir"], ["surplomb"], "deux"), (["fuir"], ["retraite"], "un")]
    write_model(tmp_path, build_model(entries, {}, synonyms))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["deux", "un"],
                                                    "documents": ["deux/regles", "un/regles"], "kinds": ["rule"]}))
    index = SearchIndex(tmp_path)
    concept = index.understand("fuir")[0][0]
    assert concept.games == {"surplomb": {"deux"}}  # "retraite" is true of every game (the thesaurus says so)
    found = {h.id for h in index.search("fuir", limit=10)}
    assert "deux/regles/2" in found and "un/regles/2" not in found


def test_a_verbs_plural_meets_its_verb(tmp_path):
    from extract.search.model import plural_verb_stems

    assert plural_verb_stems({"attaquent": "attaquer", "moment": "moment"}) == {"attaquent": "attaqu"}
    entry = make("9", "Charge", "Les unités qui chargent attaquent ensuite.")
    index = one_game_index(tmp_path, [entry], {"attaquent": "attaquer", "chargent": "charger"})
    assert ids(index.search("attaque"))[0] == "9"  # the text says only "attaquent"
    assert index.stems("attaquent") == {"attaquent": 1.0, "attaqu": 1.0}


def test_an_untitled_rule_opening_on_its_name_is_named_so():
    from extract.search.model import lead_label

    assert lead_label(make("77.4", None, "Se désengager : pour se désengager, l'unité recule.")) == "Se désengager"
    assert lead_label(make("58.4", None, "Régénération X : à la fin de la phase, rendez X figurines.")) == "Régénération X"
    assert lead_label(make("60.1", None, "Les obstacles incluent : les murs, les rochers.")) is None
    assert lead_label(make("3.02", None, "Chaque joueur lance un dé : le plus haut commence.")) is None
    assert lead_label(make("36", "Débordement", "Flanc : une unité déborde.")) is None  # titled already


def test_a_word_reaches_its_family_weaker_than_itself(tmp_path):
    from extract.search.model import family_root

    assert family_root("blessur") == family_root("bless") == "bless"
    assert family_root("hauteur") == "haut" and family_root("tireur") == "tireur"  # "tir": too short to tell
    entries = [make("14", "Blessures", "Une figurine reçoit des blessures."), make("2", "Soin", "On soigne.")]
    write_model(tmp_path, build_model(entries, {}))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    index = SearchIndex(tmp_path)
    assert index.stems("blessures") == {"blessur": 1.0}
    write_model(tmp_path, build_model([*entries, make("3", "Blesser", "Blesser une figurine.")], {}))
    index = SearchIndex(tmp_path)
    assert index.stems("blesser") == {"bless": 1.0, "blessur": 0.7}
    assert ids(index.search("blesser"))[:2] == ["3", "14"]


def test_a_model_of_another_version_asks_for_a_rebuild(index, tmp_path):
    import json
    import shutil

    from extract.errors import InputError

    old = tmp_path / "search"
    shutil.copytree(index.folder, old)
    model = json.loads((old / "model.json").read_text(encoding="utf-8"))
    model["version"] = 2
    (old / "model.json").write_text(json.dumps(model), encoding="utf-8")
    with pytest.raises(InputError, match="run `regles build` again"):
        SearchIndex(old)


def test_typo_candidates_from_the_table_are_those_of_the_scan(index, monkeypatch):
    """After a few lookups the typo candidates come from a deletion table: it must find every
    word the scan of the letter finds, whatever the edits (swaps and edits near the start too)."""
    import random

    from extract.search import understanding

    rng = random.Random(7)
    words = sorted(index.typo_words)
    typos = {"debordment", "repositionement", "desengagment", "morla", "paqeut", "dbordement", "ebordement"}
    for word in words:
        for _ in range(5):
            chars = list(word)
            for _ in range(rng.randint(1, 2)):
                i = rng.randrange(1, len(chars))
                chars[i] = rng.choice("aeiouyéèstnrl") if rng.random() < 0.5 else ""
            typos.add("".join(chars))
    monkeypatch.setattr(understanding, "SCANS_BEFORE_TABLE", 10**9)
    scanned = {typo: index.near(typo) for typo in sorted(typos)}
    monkeypatch.setattr(understanding, "SCANS_BEFORE_TABLE", 0)
    assert {typo: index.near(typo) for typo in sorted(typos)} == scanned
    assert index._deletes is not None  # the table answered
    assert any(found for found in scanned.values())


def test_a_snippet_is_cut_when_read(index):
    hit = index.search("paquet moral vide")[0]
    assert hit.id.endswith("/57")
    assert "snippets" not in vars(hit)  # not cut yet
    assert "[paquet] [Moral] est [vide]" in hit.snippet and "snippets" in vars(hit)
    assert hit.to_json()["snippet_html"] == hit.snippet_html


def test_filters_keep_what_they_name_and_a_deleted_rule_out(tmp_path):
    moral = make("57", "Moral", "Le paquet Moral est vide.")
    old = make("58", "Moral ancien", "Le paquet Moral est vide.", status="deleted")
    other = Entry("autre", "aide", "topic", None, "Moral", "moral", blocks=[Block("paragraph", "Le paquet Moral est vide.")])
    other.url = "autre/aide/moral/"
    write_model(tmp_path, build_model([moral, old, other], {}))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["autre", "jeu"],
                                                    "documents": ["autre/aide", "jeu/regles"], "kinds": ["rule", "topic"]}),
                                        encoding="utf-8")
    index = SearchIndex(tmp_path)
    assert sorted(h.id for h in index.search("paquet moral vide")) == ["autre/aide/moral", "jeu/regles/57"]
    assert [h.id for h in index.search("paquet moral vide", game="jeu")] == ["jeu/regles/57"]
    assert [h.id for h in index.search("paquet moral vide", kind="topic")] == ["autre/aide/moral"]
    assert [h.id for h in index.search("paquet moral vide", game="autre", document="aide", kind="rule")] == []
    assert sorted(h.id for h in index.search("paquet moral vide", game="jeu", include_deleted=True)) == \
        ["jeu/regles/57", "jeu/regles/58"]


def test_a_word_longer_than_any_is_near_nothing_and_builds_no_table(index, monkeypatch):
    from extract.search import understanding

    fresh = SearchIndex(index.folder)
    monkeypatch.setattr(understanding, "SCANS_BEFORE_TABLE", 0)
    assert fresh.near("abcdefghij" * 50) == [] and fresh._deletes is None


def test_the_lead_is_the_opening_sentence_and_a_decimal_does_not_end_it():
    from extract.search.model import lead_of

    assert lead_of("La section 85.7 devra être lue. Ensuite") == "La section 85.7 devra être lue"
    assert lead_of("Une charge : deux dés") == "Une charge "


def test_a_faq_question_is_named_by_its_words():
    asked = Entry("jeu", "faq", "question", None, None, "q2")
    asked.blocks = [Block("question", "Une unité engagée peut-elle se désengager\npendant la phase de combat ?"),
                    Block("answer", "Non.")]
    asked.url = "jeu/faq/#q2"
    long = Entry("jeu", "faq", "question", None, None, "q3")
    long.blocks = [Block("question", "Que se passe-t-il " + "quand une unité " * 12 + "?"), Block("answer", "Rien.")]
    long.url = "jeu/faq/#q3"
    docs = build_model([asked, long], {})["docs"]
    assert docs[0][2] == "Une unité engagée peut-elle se désengager pendant la phase de combat ?"
    assert docs[1][2].endswith(" …") and len(docs[1][2]) <= 92


def test_a_learn_to_play_booklet_yields_to_its_rules_reference():
    from extract.search.model import LEARN_PRIOR, document_priors

    kinds = {"jeu/apprendre": "learn-to-play", "jeu/reference": "reference", "seul/apprendre": "learn-to-play"}
    assert document_priors(kinds) == {"jeu/apprendre": LEARN_PRIOR}  # "seul" has no reference to yield to
    assert document_priors({"j/apprendre": "learn-to-play", "j/livre": "rulebook"}) == {"j/apprendre": LEARN_PRIOR}
    booklet = Entry("jeu", "apprendre", "section", None, "Charger", "charger")
    rule = Entry("jeu", "reference", "rule", None, "Charge", "12")
    for entry, text in ((booklet, "Une unité peut charger une unité ennemie."), (rule, "Une unité qui charge attaque.")):
        entry.blocks = [Block("paragraph", text)]
        entry.url = f"{entry.game}/{entry.document}/{entry.key}/"
    model = build_model([booklet, rule], {}, kinds=kinds)
    assert [row[8] for row in model["docs"]] == [LEARN_PRIOR, 1.0]


def test_typos_reach_every_word_of_a_printed_book_and_a_scan_s_words_seen_twice():
    """"quand finit la partie": "finit" is no word of the books, "finir" is, once, in a printed
    leaflet; in a scanned book a word seen once may be OCR debris ("cornbat")."""
    printed = make("fin", "Fin de partie", "La partie peut se finir de trois façons.")
    scan = [Entry("jeu", "scan", "rule", None, None, key) for key in ("1", "2")]
    for entry, text in zip(scan, ("Le cornbat commence avant le combat.", "Le combat finit."), strict=True):
        entry.blocks = [Block("paragraph", text)]
        entry.url = f"jeu/scan/{entry.key}/"
    words = build_model([printed, *scan], {}, scanned={"jeu/scan"})["typo_words"]
    assert {"finir", "facons", "combat"} <= set(words) and "cornbat" not in words
    assert "cornbat" in build_model([printed, *scan], {})["typo_words"]  # not declared scanned: a word


def test_an_announcement_yields_to_the_rule_of_the_same_title():
    """An overview's "Les réactions sont expliquées en page 15" under the heading RÉACTIONS,
    where the book has a second RÉACTIONS: the announcement is not the rule."""
    from extract.search.model import ANNOUNCE_PRIOR

    overview = make("reactions", "RÉACTIONS", "Les combattants peuvent contrer une attaque. Les réactions sont expliquées en page 15.")
    rule = make("reactions-2", "Réactions", "Pendant l'activation d'un combattant ennemi, un combattant peut faire une réaction.")
    alone = make("aptitudes", "APTITUDES", "Les aptitudes sont expliquées en page 14.")  # no other APTITUDES: it is the rule
    cited = make("charge", "Charge", "Une charge (voir page 15) se fait en ligne droite.")
    other = make("charge-2", "Charge", "Charger coûte une action.")  # a page cited in passing is no announcement
    docs = build_model([overview, rule, alone, cited, other], {})["docs"]
    assert [row[8] for row in docs] == [ANNOUNCE_PRIOR, 1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("chunk", [256, 2, 1])
def test_model_file_is_written_piece_by_piece_as_json_dumps_would(tmp_path, monkeypatch, chunk):
    """write_model encodes key by key and posting lists a chunk at a time (issue 19: memory): the
    same bytes as one json.dumps of the whole model, whatever the chunks."""
    import extract.search.model as model_module

    monkeypatch.setattr(model_module, "CHUNK", chunk)
    entries = [make("1", "Attaquer", "Une unité attaque. Les unités attaquent."), make("2", None, "Attaquer : une unité adjacente."),
               make("3", "Moral", "Le moral d'une unité.")]
    model = build_model(entries, {"attaquent": "attaquer"}, [(["fuir"], ["désengager"], "jeu")], {"jeu/regles/3": ["Morale"]})
    write_model(tmp_path, model)
    assert (tmp_path / "model.json").read_text(encoding="utf-8") == json.dumps(
        model, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    assert model["terms"]["attaqu"][:3] == [0, 0, 1]  # postings flat: doc, field, tf


def test_a_guess_the_thesaurus_reads_drops_its_farther_guesses(tmp_path):
    """"ailees" is no word of the books: one edit from "ailes", which the thesaurus reads as
    flying, two from "allies". Understood through "ailes", it no longer also asks for allies."""
    entries = [make("1", "Vol", "Les créatures volent au-dessus des murs."), make("2", "Dragon", "Les ailes du dragon."),
               make("3", "Alliés", "Les allies aident au combat.")]
    write_model(tmp_path, build_model(entries, {}, [(["ailes"], ["vol"])]))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    concept = SearchIndex(tmp_path).understand("ailees")[0][0]
    assert concept.approximate and "vol" in concept.alternatives and "ail" in concept.alternatives
    assert not any(stem.startswith("alli") for stem in concept.alternatives)
    unread = SearchIndex(tmp_path).understand("alliees")[0][0]  # no thesaurus reading: every guess stays
    assert any(stem.startswith("alli") for stem in unread.alternatives)


def sub_rule_index(tmp_path: Path) -> SearchIndex:
    """A topic and its untitled sub-rules; the thesaurus reads table talk as the books' words."""
    topic = make("47", "Incliné", "Une carte inclinée est redressée.")
    rally = make("47.3", None, "Quand une unité effectue l'action de ralliement pendant la phase d'activation de son "
                 "tour, après avoir résolu ses autres effets et retiré ses pions de panique du plateau, toutes "
                 "ses cartes inclinées sont redressées.", parent=topic)
    spent = make("47.4", None, "Une unité épuisée ne se rallie pas pendant la phase d'activation.", parent=topic)
    others = [make(str(n), title, text) for n, (title, text) in enumerate([
        ("Ralliement", "Une unité qui se rallie retire ses pions."), ("Moral", "Le paquet moral est mélangé."),
        ("Terrain", "Un terrain bloque la ligne de vue."), ("Panique", "Une unité paniquée recule.")])]
    topic.children += [rally, spent]
    synonyms = [(["couché"], ["incliné"]), (["remettre d'aplomb"], ["redresser"])]
    write_model(tmp_path, build_model([topic, rally, spent, *others], {}, synonyms))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    return SearchIndex(tmp_path)


def test_a_sub_rule_holding_what_its_topic_holds_goes_above_it(tmp_path):
    """Said in other words, the question is answered by the sub-rule that holds every concept its
    topic holds, in its own text: it ranks just above the topic, which wins on its title."""
    index = sub_rule_index(tmp_path)
    assert ids(index.search("remettre d'aplomb une carte couchée"))[:2] == ["47.3", "47"]


def test_a_topic_the_query_names_keeps_its_place_above_its_sub_rules(tmp_path):
    """A word typed (not a synonym) in the topic's title names the topic: it stays first. A single
    word, and a sub-rule lacking a concept its topic holds, leave the ranking as it was."""
    index = sub_rule_index(tmp_path)
    assert ids(index.search("carte inclinée redressée"))[:2] == ["47", "47.3"]
    assert ids(index.search("couchée"))[0] == "47"
    # 47.4 holds "unité" but not what the topic holds: it stays below it
    assert ids(index.search("remettre d'aplomb une unité couchée"))[:3] == ["47.3", "47", "47.4"]


def test_english_forms_are_bases_then_inflections_without_a_plural_s():
    assert W.english_forms("fly")[0] == "flying"
    assert W.english_forms("flies")[0] == "fly" and "flying" in W.english_forms("flies")
    assert "move" in W.english_forms("moving")
    # a plural's s is one edit, French as much as English: the typo guesses make it, not this
    assert not any(form in ("line", "heros", "ailes", "aile") for word in ("lines", "hero", "ailees")
                   for form in W.english_forms(word))


def test_an_english_word_reaches_the_english_name_of_another_form(tmp_path):
    """The English edition's name is "Flying": "fly", "flies" find the rule by it, as words of the
    books (not guesses): with "water", also an English name, the question has an answer."""
    flight = make("vol", "Vol", "Une figurine qui vole ignore les niveaux.")
    water = make("eau", "Eau", "Une figurine qui entre dans l'eau s'arrête.")
    other = make("reserve", "Réserve", "La réserve attend. All rights reserved.")
    write_model(tmp_path, build_model([flight, water, other], {}, [], {"jeu/regles/vol": ["Flying"], "jeu/regles/eau": ["Water"]}))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    index = SearchIndex(tmp_path)
    for query in ("fly", "flies", "can my hero fly over water"):
        concept = next(c for c in index.understand(query)[0] if c.words != ["hero"])
        assert not concept.approximate, query
    assert ids(index.search("fly"))[:1] == ["vol"] and ids(index.search("flies"))[:1] == ["vol"]
    assert set(ids(index.search("fly over water"))[:2]) == {"vol", "eau"}
    assert ids(index.search("can my hero fly over water"))[:1] == ["eau"]  # "hero": a guess; two words of three known
    # only a word of a name: "reserv" is a typo of "réserve", not a form of a disclaimer's "reserved"
    assert index.understand("reserv")[0][0].approximate


def test_a_word_after_a_reflexive_pronoun_is_marked():
    mark = W.REFLEXIVE
    assert W.words_of("je voudrais me tirer du combat", reflexive=True) == ["voudrais", mark, "tirer", "combat"]
    assert W.words_of("il s'enfuit", reflexive=True) == [mark, "enfuit"]
    assert W.words_of("il me tire dessus", reflexive=True) == ["tire", "dessus"]  # "me": an object here
    # "se faire" + a verb is a passive: the pronoun is faire's, not the verb's
    assert W.words_of("je me fais tirer dessus", reflexive=True) == ["tirer", "dessus"]
    assert W.words_of("je me tire") == ["tire"]  # only the query's reading asks for the mark
    assert W.pronominal("se tirer") and W.pronominal("s'enfuir") and not W.pronominal("sentir")


def pronominal_index(tmp_path: Path) -> SearchIndex:
    entries = [make("1", "Tir", "Une unité tire sur une cible."),
               make("2", "Désengagement", "Une unité engagée quitte le combat par un désengagement."),
               make("3", "Soins", "Un soin rend des points de vie.")]
    synonyms = [(["se tirer"], ["désengagement"]), (["tirer"], ["tir"]), (["se retaper"], ["soin"]),
                (["tirer au combat"], ["tir"])]
    write_model(tmp_path, build_model(entries, {}, synonyms))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    return SearchIndex(tmp_path)


def test_a_pronominal_expression_agrees_with_the_pronoun(tmp_path):
    index = pronominal_index(tmp_path)
    assert [h.id for h in index.search("je me tire du combat")][0] == "jeu/regles/2"
    assert "desengag" in index.understand("je me tire")[0][0].alternatives
    assert "desengag" not in index.understand("je tire")[0][0].alternatives  # "tirer" is a rival: shooting
    assert "soin" in index.understand("je retape un gars")[0][0].alternatives  # no rival: either reads
    # a longer expression that does not agree ("tirer au combat": shooting) loses to "se tirer"
    assert "desengag" in index.understand("je me tire au combat")[0][0].alternatives
    assert "desengag" not in index.understand("je tire au combat")[0][0].alternatives
    assert "desengag" not in index.understand("je me fais tirer au combat")[0][0].alternatives  # shot at


def test_an_untitled_sub_rule_is_named_by_its_number_and_its_topic(tmp_path):
    """The CLI, the API and the box name "47.3" alike: its number and its topic's title."""
    topic = make("47", "Incliné", "Une carte inclinée est redressée.", number="47")
    rule = make("47.3", None, "Une unité qui se rallie redresse ses cartes inclinées.", parent=topic, number="47.3")
    topic.children.append(rule)
    write_model(tmp_path, build_model([topic, rule], {}))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    hits = {h.id.split("/")[-1]: h for h in SearchIndex(tmp_path).search("carte inclinée")}
    assert hits["47.3"].label == "47.3 — Incliné" and hits["47.3"].topic == "Incliné"
    assert hits["47"].label == "47 Incliné" and hits["47"].topic is None
    assert hits["47.3"].to_json()["label"] == "47.3 — Incliné"


def test_french_bases_put_the_plural_first_then_verbs_then_the_feminine():
    assert W.french_bases("jetons")[0] == "jeton"  # a noun's plural, before the verb "jeter"
    assert "taper" in W.french_bases("tape") and "voler" in W.french_bases("volent")
    assert "tenir" in W.french_bases("tiennent") and "remettre" in W.french_bases("remets")
    assert W.french_bases("planquee").index("planquer") < W.french_bases("planquee").index("planque")


def inflection_index(tmp_path: Path) -> SearchIndex:
    entries = [make("1", "Attaque", "Une unité attaque une cible."),
               make("2", "Rotation", "Une unité pivote dans le sens horaire.")]
    write_model(tmp_path, build_model(entries, {}, [(["taper", "cogner"], ["attaque"])]))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    return SearchIndex(tmp_path)


def test_an_inflected_word_reaches_the_word_the_model_knows(tmp_path):
    """"tape", "cognent": forms neither the books nor the thesaurus print, read as "taper",
    "cogner" (and through the thesaurus, "attaque"), not as typos."""
    index = inflection_index(tmp_path)
    concept = index.understand("il tape")[0][0]
    assert "attaqu" in concept.alternatives and not concept.approximate and concept.guessed
    assert ids(index.search("une unité qui cogne"))[0] == "1"
    # a guessed base is not a sure word: nonsense built around one stays nonsense
    assert index.search("horaires du train pour Lyon") == []


def floor_index(tmp_path: Path) -> SearchIndex:
    """One rule holding "avancer" strongly; two holding "ennemi" and "vient"; four more "avance"."""
    entries = [make("1", "Avancer", "Une unité avance sur la case libérée. Avancer, avancer encore."),
               make("2", "Mercenaires", "Un mercenaire ennemi vient de loin."),
               make("3", "Arcane", "Une carte arcane vient d'un ennemi."),
               *[make(str(n), f"Règle {n}", "Une unité avance d'une case.") for n in range(4, 8)]]
    write_model(tmp_path, build_model(entries, {}))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    return SearchIndex(tmp_path)


def test_a_short_list_gives_way_to_the_next_floor(tmp_path):
    """In a game, the rule holding one word of the question strongly is not cut because two
    rules hold more of it weakly: fewer than a page of results, the next floor comes in and all
    are ranked together. Nonsense across every game still finds nothing."""
    index = floor_index(tmp_path)
    assert "1" in ids(index.search("avancer ennemi vient", game="jeu"))
    assert index.search("recette de la tarte aux pommes") == []


def test_a_sub_term_of_the_books_index_is_named_by_its_head_too(tmp_path):
    """A book's index line "Touches Superficielles (Glancing Blows)" heads the sub-bullets
    "Après un Tir 5.17" and "En Combat 6.09": both rules are named by the head, in both
    languages."""
    shot = make("5.17", None, "Un 1 est une touche légère.")
    combat = make("6.09", None, "Un résultat de 1 en combat inflige une touche légère.")
    other = make("8.39", "Coup Fatal", "Un coup qui tue d'un blow.")
    listing = make("11", "Index", "")
    listing.blocks = [Block("bullet", "Touches Superficielles (Glancing Blows)"),
                      Block("subbullet", "Après un Tir (In shooting) 5.17"), Block("subbullet", "En Combat (In combat) 6.09"),
                      Block("bullet", "Coup Fatal (Deadly Blow) 8.39")]
    listing.refs = [Ref("jeu/regles/5.17", "index", "Après un Tir (In shooting) 5.17"),
                    Ref("jeu/regles/6.09", "index", "En Combat (In combat) 6.09"),
                    Ref("jeu/regles/8.39", "index", "Coup Fatal (Deadly Blow) 8.39")]
    write_model(tmp_path, build_model([shot, combat, other, listing], {}))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}))
    index = SearchIndex(tmp_path)
    assert set(ids(index.search("glancing blows"))[:2]) == {"5.17", "6.09"}
    assert set(ids(index.search("touches superficielles"))[:2]) == {"5.17", "6.09"}


def expression_index(tmp_path: Path) -> SearchIndex:
    """The thesaurus reads "baffe" as the books' expression "corps à corps"; one rule prints the
    expression, another only a word of it in its title ("Garde du Corps")."""
    entries = [make("1", "Garde du Corps", "Choisissez un héros adjacent : l'ennemi ne peut pas lui allouer de dégâts."),
               make("2", "Combat", "Quand deux figurines adverses se touchent, elles se battent au corps à corps : chaque "
                    "joueur lance ses dés de combat, compare les résultats, puis retire les pertes de son choix."),
               make("3", "Tir", "Une figurine qui n'est pas engagée peut viser une figurine ennemie visible et lui "
                    "porter une attaque à distance ; elle lance ses dés et compare les résultats."),
               make("4", "Distance", "La distance se mesure en cases."),
               make("5", "Moral", "Le paquet moral est mélangé.")]
    synonyms = [(["baffe"], ["corps à corps"]), (["canarder"], ["attaque à distance"])]
    write_model(tmp_path, build_model(entries, {}, synonyms))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}), encoding="utf-8")
    return SearchIndex(tmp_path)


def test_an_expression_of_the_books_is_held_by_its_words_together(tmp_path):
    """A thesaurus target of several words is one expression: the rule printing "corps à corps"
    answers "baffe", not the rule whose title holds "corps" alone; the rule printing "attaque à
    distance" answers "canarder" above the one titled "Distance", which holds one word of it."""
    index = expression_index(tmp_path)
    baffe = ids(index.search("baffe"))
    assert baffe[0] == "2" and ("1" not in baffe or baffe.index("1") > baffe.index("2"))
    assert ids(index.search("canarder"))[:2] == ["3", "4"]
    # the marks fall on the expression's words, never on a stem joined by a space
    hit = index.search("canarder")[0]
    assert "[attaque]" in hit.snippet and "[distance]" in hit.snippet


def card_index(tmp_path: Path) -> SearchIndex:
    """A thesaurus group holding a book's word ("engagé") and a card's name of three words."""
    entries = [make("1", None, "Une unité engagée ne peut pas effectuer d'attaque."),
               make("2", "Tir à bout portant", "Carte Amélioration : vous pouvez effectuer cette attaque."),
               make("3", "Mouvement", "Une unité se déplace de sa vitesse."),
               make("4", "Moral", "Le paquet moral est mélangé."),
               make("5", "Portée", "La portée se mesure avec la règle."),
               make("6", "Bout de terrain", "Un bout de terrain bloque la vue.")]
    write_model(tmp_path, build_model(entries, {}, [(["canarder"], ["engagé", "tir à bout portant"])]))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}), encoding="utf-8")
    return SearchIndex(tmp_path)


def test_a_long_expression_weighs_no_more_than_two_words(tmp_path):
    """A thesaurus group may hold a book's word ("engagé") and a longer expression (a card named
    "Tir à Bout Portant"): held together, the expression weighs as two words typed side by side,
    not as many words as it has, so the rule holding the group's word and the question's other
    word ("unité") answers, not the card holding three words of one concept."""
    index = card_index(tmp_path)
    assert ids(index.search("une unité peut canarder ?"))[:2] == ["1", "2"]
    # the card is still the answer where the expression is all the query asks
    assert ids(index.search("canarder"))[0] == "2"
    # and an expression held together still outweighs its words held apart ("Bout de terrain")
    assert ids(index.search("canarder")).index("6") > ids(index.search("canarder")).index("2")


def test_table_talk_taken_out_between_two_words_leaves_a_break():
    """Between two words, table talk taken out (a talk word, a talk phrase) leaves BREAK; a stop
    word does not, nor talk at either end; without `reflexive` no mark at all."""
    assert W.words_of("tirer alors qu'elle est au contact", reflexive=True) == ["tirer", W.BREAK, "contact"]
    assert W.words_of("tirer au contact", reflexive=True) == ["tirer", "contact"]
    assert W.words_of("points est-ce que armée", reflexive=True) == ["points", W.BREAK, "armee"]
    assert W.words_of("combien de points ?", reflexive=True) == ["points"]
    assert W.words_of("tirer alors au contact") == ["tirer", "contact"]


def contact_index(tmp_path: Path) -> SearchIndex:
    """"tirer au contact" is an expression of the thesaurus (a shot at point-blank range)."""
    entries = [make("1", "Tir", "Une unité tire sur une cible visible."),
               make("2", "Bout portant", "Une attaque à bout portant ignore le couvert."),
               make("3", "Contact", "Deux unités au contact sont engagées.")]
    write_model(tmp_path, build_model(entries, {}, [(["tirer au contact"], ["bout portant"])]))
    (tmp_path / "meta.json").write_text(json.dumps({"schema_version": "2", "games": ["jeu"], "documents": ["jeu/regles"],
                                                    "kinds": ["rule"]}), encoding="utf-8")
    return SearchIndex(tmp_path)


def test_an_expression_of_the_thesaurus_never_spans_table_talk(tmp_path):
    """"tirer au contact" is an expression of the thesaurus (a shot at point-blank range); "tirer
    alors qu'elle est au contact" asks about shooting while in contact: read word by word, the
    rule on shooting answers, not the one on point-blank shots."""
    index = contact_index(tmp_path)
    assert ids(index.search("tirer au contact"))[0] == "2"
    spoken = ids(index.search("une unité peut tirer alors qu'elle est au contact ?"))
    assert "2" not in spoken and set(spoken[:2]) == {"1", "3"}


def test_two_words_are_together_only_without_table_talk_between(tmp_path):
    """The bonus of two query words found together in a rule holds for words side by side in the
    question, not for words table talk stood between ("je lance quand j'attaque")."""
    entries = [make("1", "Dés", "Le joueur lance attaque et défense avec les dés de la boîte de base, un par figurine."),
               make("2", "Combat", "On lance les dés, puis on attaque."),
               make("3", "Moral", "Le paquet moral est mélangé.")]
    index = one_game_index(tmp_path, entries)
    assert ids(index.search("lance attaque"))[0] == "1"
    assert ids(index.search("lance alors attaque"))[0] == "2"
