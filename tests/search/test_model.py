"""The search model built again from a previous build's memo (`build_index`'s `memo`): after an
edit it is the clean build's, byte for byte, and only the edited book's analysis is written again."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from extract.model import Block, Entry
from extract.search.engine import build_index


class Token(NamedTuple):
    text: str
    lemma: str


class Lemmatizer:
    """Each word its own lemma, but for those of LEMMAS; after "les", a noun's (NOUNS)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def tokens(self, texts: Any) -> dict[str, list[Token]]:
        found = {}
        for text in texts:
            words = text.replace(".", " ").split()
            found[text] = [Token(w, NOUNS.get(w, w) if before.lower() == "les" else LEMMAS.get(w, w))
                           for before, w in zip(["", *words], words, strict=False)]
        self.asked.extend(found)
        return found


class Memo:
    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}
        self.written: list[str] = []

    def get(self, name: str) -> Any:
        return self.kept.get(name)

    def put(self, name: str, value: Any) -> None:
        self.kept[name] = value
        self.written.append(name)


def make(document: str, key: str, title: str | None, text: str) -> Entry:
    entry = Entry("jeu", document, "rule", None, title, key)
    entry.blocks = [Block("paragraph", line) for line in text.split("\n")]
    entry.url = f"jeu/{document}/{key}/"
    return entry


BOOK = [
    ("regles", "0", "Tour", "Les défenseurs jouent ensuite."),
    ("regles", "1", "Charge", "Les unités qui chargent attaquent ensuite."),
    ("regles", "2", "Moral", "Quand le paquet Moral est vide, mélangez la défausse."),
    ("regles", "3", None, "Une unité engagée peut se désengager."),
    ("aide", "1", "Charge", "Une charge se fait en ligne droite : les unités chargent."),
]
LEMMAS = {"chargent": "charger", "attaquent": "attaquer", "unités": "unité"}
NOUNS = {"attaquent": "attaquant"}


def entries(edit: tuple[str, str] | None = None) -> list[Entry]:
    found = []
    for document, key, title, text in BOOK:
        if edit and edit[0] in text:
            text = text.replace(*edit)
        found.append(make(document, key, title, text))
    return found


def model_of(folder: Path, found: list[Entry], memo: Memo | None) -> bytes:
    synonyms = [(["fuir le combat"], ["désengager"])]
    build_index(folder, found, Lemmatizer(), synonyms, {"jeu/regles/2": ["Morale"]}, memo=memo)
    return (folder / "model.json").read_bytes() + (folder / "meta.json").read_bytes()


def test_an_edited_rule_indexed_again_is_a_clean_index(tmp_path: Path):
    memo = Memo()
    assert model_of(tmp_path / "first", entries(), memo) == model_of(tmp_path / "clean", entries(), None)
    memo.written.clear()
    edited = entries(("le paquet Moral est vide", "la pioche Moral est vide"))
    assert model_of(tmp_path / "edited", edited, memo) == model_of(tmp_path / "clean2", edited, None)
    assert memo.written == ["search/entries/jeu/regles"]  # the help's entries and the thesaurus kept as they were
    memo.written.clear()
    assert model_of(tmp_path / "again", edited, memo) == model_of(tmp_path / "clean2", edited, None)
    assert memo.written == []


def test_a_verb_form_another_rule_changed_reindexes_the_rules_using_it(tmp_path: Path):
    # Rule 0 now reads "attaquent" first, as a noun: the word is no verb's plural any more, and rule
    # 1, unchanged, is no longer indexed under attaqu for it.
    memo = Memo()
    first = model_of(tmp_path / "first", entries(), memo)
    edited = entries(("Les défenseurs", "Les attaquent"))
    clean = model_of(tmp_path / "clean", edited, None)
    assert model_of(tmp_path / "edited", edited, memo) == clean
    assert b'"attaquent":["attaquent","attaqu"]' in first and b'"attaquent":["attaquent"]' in clean


def test_a_rule_moved_keeps_its_analysis_and_takes_its_new_place(tmp_path: Path):
    memo = Memo()
    model_of(tmp_path / "first", entries(), memo)
    moved = entries()
    moved.insert(0, moved.pop(2))
    lemmatizer = Lemmatizer()
    build_index(tmp_path / "moved", moved, lemmatizer, [(["fuir le combat"], ["désengager"])],
                {"jeu/regles/2": ["Morale"]}, memo=memo)
    assert lemmatizer.asked == []  # every text's word forms were kept
    assert (tmp_path / "moved" / "model.json").read_bytes() == \
        model_of(tmp_path / "clean", moved, None)[:-len((tmp_path / "moved" / "meta.json").read_bytes())]


def test_an_entrys_key_tells_its_fields_apart():
    from extract.search.model import contribution_key

    keys = {contribution_key(parts) for parts in (
        (["Charge"], [], [""], ["Les unités chargent."]),
        (["Charge"], [""], [], ["Les unités chargent."]),
        ([""], [], ["Charge"], ["Les unités chargent."]),
        (["Charge\x1f1"], [], [""], ["Les unités chargent."]),
        (["Charge", "1"], [], [""], ["Les unités chargent."]),
    )}
    assert len(keys) == 5


def test_books_whose_entries_alternate_keep_each_its_own(tmp_path: Path):
    memo = Memo()
    mixed = entries()
    mixed.insert(1, mixed.pop())  # the help's entry between two of the rules'
    model_of(tmp_path / "first", mixed, memo)
    assert sorted(len(memo.kept[f"search/entries/jeu/{book}"]["entries"]) for book in ("aide", "regles")) == [1, 4]
    memo.written.clear()
    edited = [make(e.document, e.key, e.title, e.text.replace("ligne droite", "ligne courbe")) for e in mixed]
    assert model_of(tmp_path / "edited", edited, memo) == model_of(tmp_path / "clean", edited, None)
    assert memo.written == ["search/entries/jeu/aide"]


def test_the_terms_an_entry_defines_are_its_names():
    """"sont dites Engagées", "sont appelés dés d'initiative", a list's "Paniqué : …": the entry
    that defines a term is named by it; a sentence's article or an aside's label is no term."""
    from types import SimpleNamespace

    from extract.search.model import defined_terms

    def entry(*blocks: str):
        return SimpleNamespace(text="\n\n".join(blocks), blocks=[SimpleNamespace(text=b, type="paragraph") for b in blocks])

    assert defined_terms(entry("Deux figurines au contact sont dites Engagées tant qu'elles le restent.")) == ["Engagées"]
    assert defined_terms(entry("Ces dés sont appelés dés d’initiative, et les doubles dés d’aptitude.")) == ["dés d’initiative"]
    assert defined_terms(entry("On dit qu'une unité est Ébranlée quand elle a perdu un rang.")) == ["Ébranlée"]
    assert defined_terms(entry("Chaque fléau a son effet :", "Paniqué : quand une unité qui a un pion…",
                               "Exemple : un joueur…")) == ["Paniqué"]
    assert defined_terms(entry("Le résultat est appelé un jet de dé.")) == []


def test_an_expression_is_read_as_a_query_leaves_it():
    from extract.search.model import talk_free

    found = [("prendre", ("prendr",)), ("cher", ("cher",))]
    assert talk_free(found, {}) == [("cher",)]  # "il prend cher": the query keeps "cher"
    assert talk_free(found, {"cher": []}) == []  # …unless the books use the word left alone
    assert talk_free([("fuir", ("fuir",)), ("combat", ("combat",))], {}) == []  # no talk: the expression as it is
    assert talk_free([("faire", ("fair",))], {}) == []


def test_a_title_naming_several_things_is_named_by_each():
    """How many words of a title a query holds to name its entry: its shortest part's
    ("Gagner et perdre" names "gagner" and "perdre"), else all of its words ("Fin de round")."""
    from extract.search.model import title_part_words

    assert title_part_words("Gagner et perdre") == 1
    assert title_part_words("Retraite, fuite et déroute") == 1
    assert title_part_words("Fin de round") == 2
    assert title_part_words("Le Score") == 1
    assert title_part_words(None) == 0
