"""spaCy loaded with its lemmatizer's tables kept as plain data (extract.spacyload): the tables
answer as spaCy's own `Table` does, the kept file is keyed by the model's bytes and never runs
code, and the pipeline tags every text as stock `spacy.load` does."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest
from spacy.lookups import Lookups, Table

from extract import regexcache
from tests.conftest import SPACY_KEPT

# Importing extract.spacyload imports spaCy's French language, which compiles its tokenizer's
# 1.45 MB pattern (2.4 s, on each xdist worker as it collects): taken from the file a build of
# this checkout keeps, as the session's model takes it (conftest.spacy_loaded_once).
with regexcache.kept(SPACY_KEPT / "regex"):
    from extract import spacyload
    from extract.spacyload import TABLES_FILE, HashedTable, kept_tables, plain_tables

SENTENCES = [
    "Les figurines ont attaqué les unités ennemies qui s'étaient retranchées derrière le mur.",
    "Il faut que vous lanciez les dés avant d'agir ; sinon, votre tour se termine.",
    "Aujourd'hui, c'est-à-dire au tour 3, le joueur actif pioche 2 cartes et en défausse une.",
    "Chaque héros peut-il se déplacer de 4 cases, puis attaquer une seule fois ?",
    "Les chevaux, les généraux et les travaux : des pluriels irréguliers.",
    "Elle eût souhaité qu'ils vinssent plus tôt ; nous fûmes surpris qu'ils partissent.",
    "« Voir Résistance [X] » : l'unité ignore les 2 premiers points de dégâts (p. 13, §5.10).",
    "Le Dragon de Glace n'est pas affecté par l'engourdissement ni par la brûlure.",
    "Quelqu'un a-t-il vu les lance-flammes, les porte-avions et les arcs-en-ciel ?",
    "RÈGLE AVANCÉE : LES TERRAINS DIFFICILES COÛTENT DEUX POINTS DE MOUVEMENT.",
    "Le 1er joueur place ses 12 socles ; le 2e en place 10, et ainsi de suite jusqu'au 6e.",
    "Apr. la phase de ralliement, mettez-vous d'accord sur l'ordre d'activation des bannières.",
    "Prudemment, savoureusement, excessivement : les adverbes en -ment.",
    "J'aurais voulu, tu serais venu, ils auraient dû, nous eussions pu.",
    "L'archère elfique tire ; les orques, enragés, chargent la garnison naine.",
    "",
    "   ",
    "1-2 x-y J.-C. www.exemple.fr contact@exemple.fr 3,5 % 10 € 2×",
]


def lookups_file(tmp_path: Path, tables: dict[str, dict]) -> Path:
    lookups = Lookups()
    for name, data in tables.items():
        lookups.add_table(name, data)
    path = tmp_path / "lookups.bin"
    path.write_bytes(lookups.to_bytes())
    return path


TABLES = {"lemma_lookup": {"chevaux": ["cheval"], "fûmes": ["être"]},
          "lemma_rules": {"noun": [["aux", "al"], ["s", ""]]},
          "lemma_exc": {"noun": {"yeux": ["œil"], "ciels": ["ciel", "cieux"]}},
          "lemma_index": {"noun": ["cheval", "œil"], "verb": ["être"]}}


def test_a_hashed_table_answers_as_spacys_table():
    stock = Table("lemma_lookup", {"chevaux": ["cheval"], "": ["vide"], "NOUN": ["symbole"]})
    ours = HashedTable(plain_tables({"t": dict(stock.items())})["t"])  # as the file holds it: hash → value
    hashed = next(iter(stock.keys()))
    for key in ["chevaux", "cheval", "", "NOUN", "noun", "x" * 300, hashed]:
        assert (key in ours) == (key in stock), key
        assert ours.get(key, "défaut") == (tuple(stock[key]) if key in stock else "défaut"), key
        if key in stock:
            assert list(ours[key]) == stock[key]
    assert hashed in ours  # looked up by its hash too


def test_lists_become_tuples_and_the_lemma_index_sets():
    plain = plain_tables(TABLES)
    assert plain["lemma_rules"]["noun"] == (("aux", "al"), ("s", ""))
    assert plain["lemma_exc"]["noun"]["ciels"] == ("ciel", "cieux")
    assert plain["lemma_index"]["verb"] == frozenset({"être"})


def test_tables_are_kept_for_these_bytes_only(tmp_path: Path):
    source = lookups_file(tmp_path, TABLES)
    first = kept_tables(source, tmp_path / "kept")
    kept = tmp_path / "kept" / TABLES_FILE
    assert kept.is_file()
    stored = kept.read_bytes()
    assert kept_tables(source, tmp_path / "kept") == first and kept.read_bytes() == stored  # read back, not rewritten
    lookup = HashedTable(first["lemma_lookup"])
    assert lookup.get("chevaux") == ("cheval",)
    # another model's tables: the kept file is not served, but replaced
    other = lookups_file(tmp_path, {**TABLES, "lemma_lookup": {"chevaux": ["chevau"]}})
    assert HashedTable(kept_tables(other, tmp_path / "kept")["lemma_lookup"]).get("chevaux") == ("chevau",)
    assert kept.read_bytes() != stored


def test_a_damaged_or_trapped_kept_file_is_a_miss(tmp_path: Path):
    source = lookups_file(tmp_path, TABLES)
    expected = kept_tables(source, tmp_path)
    kept = tmp_path / TABLES_FILE
    data = bytearray(kept.read_bytes())
    data[-5] ^= 0xFF
    kept.write_bytes(bytes(data))
    assert kept_tables(source, tmp_path) == expected

    class Trap:
        def __reduce__(self):
            return (pytest.fail, ("a kept file ran code",))

    key = spacyload.tables_key(source.read_bytes())
    data = pickle.dumps((key, {"lemma_lookup": Trap()}))
    kept.write_bytes(hashlib.sha256(data).hexdigest().encode("ascii") + b"\n" + data)
    assert kept_tables(source, tmp_path) == expected


def test_an_unwritable_folder_still_gives_the_tables(tmp_path: Path):
    source = lookups_file(tmp_path, TABLES)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert kept_tables(source, blocker / "kept") == kept_tables(source, tmp_path / "kept")


def corpus_paragraphs() -> list[str]:
    from tests.test_nlp import corpus_texts

    return corpus_texts()


@pytest.mark.corpus
def test_spacy_with_kept_tables_tags_as_stock_spacy(tmp_path: Path):
    """Tokens, lemmas and parts of speech of varied sentences and of a tenth of the real books'
    paragraphs: the same from the stock pipeline and from one whose lemmatizer reads kept tables
    (made by the first load, read back by the second); and the lemmas of every paragraph: the same
    from either lemmatizer on the same tagging. (The other components load the same files the
    same way: a sample shows it; the tables, read otherwise, are checked on every word.)"""
    import spacy

    from extract.nlp import EXCLUDED, MODEL

    stock = spacy.load(MODEL, exclude=EXCLUDED)
    spacyload.load(MODEL, EXCLUDED, tmp_path)  # converts and keeps the tables
    assert (tmp_path / TABLES_FILE).is_file()
    kept = spacyload.load(MODEL, EXCLUDED, tmp_path)
    assert kept.pipe_names == stock.pipe_names
    assert isinstance(kept.get_pipe("lemmatizer").lookups.get_table("lemma_lookup"), HashedTable)
    paragraphs = corpus_paragraphs()
    assert len(paragraphs) > 2_000
    sample = [*SENTENCES, *(s.lower() for s in SENTENCES), *paragraphs[::10]]
    for ours, theirs, text in zip(kept.pipe(sample), stock.pipe(sample), sample, strict=True):
        assert [(t.idx, t.text, t.lemma_, t.pos_) for t in ours] == [(t.idx, t.text, t.lemma_, t.pos_) for t in theirs], text
    ours_lemmatizer, stock_lemmatizer = kept.get_pipe("lemmatizer"), stock.get_pipe("lemmatizer")
    for doc, text in zip(stock.pipe(paragraphs, disable=["lemmatizer"]), paragraphs, strict=True):
        lemmas = [t.lemma_ for t in ours_lemmatizer(doc.copy())]
        assert lemmas == [t.lemma_ for t in stock_lemmatizer(doc.copy())], text
        assert all(lemmas[t.i] for t in doc if t.is_alpha), text  # lemmatized, not left blank by both


@pytest.mark.corpus
def test_a_build_process_keeps_the_tables_beside_its_lemma_cache(tmp_path: Path, monkeypatch):
    """The lemmatizer of a build loads spaCy through extract.spacyload, its tables kept beside the
    lemma cache; the next one reads them back and lemmatizes as the first. Two lemmatizers of this
    process, the session's shared model set aside (a child process per load would spend 4 s each
    importing spaCy and compiling its patterns again: nothing this test is about)."""
    from extract import nlp
    from tests.conftest import STOCK_LEMMATIZER_NLP

    monkeypatch.setattr(nlp.Lemmatizer, "nlp", STOCK_LEMMATIZER_NLP)  # the build's own loading
    kept = tmp_path / "lemma-tables" / TABLES_FILE

    def run() -> str:
        model = nlp.Lemmatizer(tmp_path / "lemmas.sqlite").nlp
        table = model.get_pipe("lemmatizer").lookups.get_table("lemma_lookup")
        return f"{type(table).__name__} {[t.lemma_ for t in model('Les chevaux fûmes partis')]}"

    first = run()
    assert kept.is_file()
    stored = kept.stat()
    second = run()
    assert (kept.stat().st_mtime_ns, kept.stat().st_ino) == (stored.st_mtime_ns, stored.st_ino)  # read back, not made again
    assert first == second and first.startswith("HashedTable ")
