"""French-aware search: relevance on a written query set, the analysis, and bad queries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extract.cli import main
from extract.search.engine import SearchIndex, analyse, search
from tools.bench import evaluate, load_queries

QUERIES = load_queries()


@pytest.fixture(scope="module")
def index(built, tmp_path_factory) -> SearchIndex:
    return SearchIndex(built["out"] / "search", tmp_path_factory.mktemp("nlp") / "lemmas.sqlite")


@pytest.fixture(scope="module")
def root(built, tmp_path_factory) -> Path:
    """A project root whose build/ is the session's build, for the CLI and the Python API."""
    folder = tmp_path_factory.mktemp("root")
    (folder / "build").symlink_to(built["out"])
    return folder


def ids(hits) -> list[str]:
    return [hit.id for hit in hits]


def test_relevance_on_the_query_set(index):
    assert len(QUERIES) >= 40
    games = {e.split("/")[0] for item in QUERIES for e in item["expect"]}
    assert games == {"runewars", "sda-jfe", "warcry", "heroscape", "battlelore"}
    result = evaluate(index, QUERIES)
    assert result["recall"] >= 0.9, result["misses"]
    assert result["mrr"] >= 0.8, result["misses"]


def test_french_analysis():
    assert analyse("l'unité") == analyse("unité") == analyse("unite")
    assert analyse("d’attaque") == analyse("attaque")  # curly apostrophe
    assert analyse("qu'elle") == []  # "elle" is a stop word once the elision is split
    assert analyse("les des aux") == []  # Whoosh's list lacks "les"; ours has it
    assert analyse("désengager")[0] == analyse("desengager")[0] == "desengag"  # folded after stemming
    assert set(analyse("agilite")) & set(analyse("Agilité"))  # typed without its accent


def test_number_goes_straight_to_the_rule(index):
    hits = index.search("86.11")
    assert ids(hits) == ["runewars/reference/86.11"] and hits[0].status == "deleted"
    assert ids(index.search("5.03a")) == ["sda-jfe/tournoi/5.03A"]
    assert ids(index.search("49", game="runewars")) == ["runewars/reference/49"]


def test_deleted_rules_need_all(index):
    text = "effet d'une carte Amélioration est optionnel"
    assert "runewars/reference/86.11" not in ids(index.search(text, limit=20))
    assert "runewars/reference/86.11" in ids(index.search(text, limit=20, include_deleted=True))


def test_typos_fall_back_to_approximate_results(index):
    hits = index.search("lige de vu")
    assert hits[0].id == "runewars/reference/49" and hits[0].approximate
    assert not index.search("ligne de vue")[0].approximate


@pytest.mark.parametrize("query, word", [("règles", "règles"), ("contrôle", "contrôle"), ("dégâts", "dégâts"),
                                         ("être", "être"), ("être placé", "être")])
def test_repaired_warcry_words_are_found(index, query, word):
    """The Warcry rules were scanned ("régles", "contrdle", "étre", "dégats"); the OCR repair
    gives them their French spelling, which search finds, exactly, in the Warcry text."""
    hits = index.search(query, game="warcry", limit=5)
    assert hits and not hits[0].approximate
    assert any(word in h.snippet.replace("[", "").replace("]", "").lower() for h in hits), [h.snippet for h in hits]


def test_filters(index):
    assert {h.game for h in index.search("terrain", game="warcry", limit=20)} == {"warcry"}
    assert {h.document for h in index.search("terrain", game="runewars", document="faq", limit=20)} == {"faq"}
    assert {h.kind for h in index.search("terrain", kind="question", limit=20)} == {"question"}


def test_snippets_mark_the_matched_words(index):
    hit = index.search("test de moral", game="runewars")[0]
    assert "[test] de [moral]" in hit.snippet
    assert "<mark>test</mark> de <mark>moral</mark>" in hit.snippet_html


def test_inflections_snowball_misses_reach_the_lemmas(index):
    # "gagnent" stems to itself; the lemma field knows it as "gagner".
    found = ids(index.search("gagnent", game="runewars", limit=5))
    assert "runewars/reference/46.1" in found or "runewars/reference/39.1" in found


def test_python_api_opens_the_index_once(root):
    first = search("ligne de vue", root=root)
    assert first[0].id == "runewars/reference/49"
    from extract.search.engine import open_index

    before = open_index.cache_info().hits
    search("test de moral", game="runewars", limit=3, root=root)
    assert open_index.cache_info().hits == before + 1


@pytest.mark.parametrize("text", [
    "la les de", "x" * 10_000, "« ligne de vue", "(ligne de (vue", '"ligne', "*", ":", "AND OR NOT",
    "ligne\x00de\x07vue\x1b[0m", "title:ligne", "lig* de vu?", "🏹 ☉",
])
def test_bad_queries_never_crash(index, root, capsys, text):
    index.search(text)
    assert main(["--root", str(root), "search", text]) == 0
    assert "Traceback" not in capsys.readouterr().err
    assert main(["--root", str(root), "search", text, "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)


def test_cli_errors(root, tmp_path, capsys):
    assert main(["--root", str(root), "search", "   "]) == 2
    assert "empty query" in capsys.readouterr().err
    assert main(["--root", str(root), "search", "moral", "--game", "chess"]) == 2
    assert "unknown game 'chess' (known: battlelore, heroscape, runewars, sda-jfe, warcry)" in capsys.readouterr().err
    assert main(["--root", str(tmp_path), "search", "moral"]) == 1
    assert "build/search: no search index: run `regles build` first" in capsys.readouterr().err
    assert main(["--root", str(root), "search", "la les de"]) == 0
    assert "que des mots vides" in capsys.readouterr().err


def test_cli_output(root, capsys):
    assert main(["--root", str(root), "search", "Dread", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["id"] == "sda-jfe/tournoi/8.41"
    assert {"id", "title", "score", "snippet", "snippet_html"} <= set(hits[0])
    assert main(["--root", str(root), "search", "lige", "de", "vu", "--limit", "2"]) == 0
    out = capsys.readouterr()
    assert "résultats approchés" in out.err
    assert out.out.splitlines()[0] == " 1. runewars/reference/49  49 Ligne de vue (modifié)"


def test_search_does_not_load_spacy_for_known_words(root):
    import subprocess
    import sys

    code = ("import sys; from extract.cli import main; main(['--root', sys.argv[1], 'search', 'unites alliees', '--json']); "
            "print('SPACY' if 'spacy' in sys.modules else 'NO-SPACY', file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True)
    assert done.stderr.strip().endswith("NO-SPACY")


# ---------------------------------------------------------------- the relevance set (issue targets)

from tools.bench_search import BLIND3_SET, BLIND_SET, HELDOUT2_SET, HELDOUT_SET, load_relevance, summarise  # noqa: E402

RELEVANCE = load_relevance()


@pytest.fixture(scope="module")
def relevance(index):
    results = [[h.id for h in index.search(q["text"], game=q.get("game"), limit=10)] for q in RELEVANCE]
    return summarise(RELEVANCE, results)


def test_relevance_set_holds_what_is_reached(relevance):
    """No step back from what the search reaches today (MRR 0.87, Hit@5 0.95, paraphrases 0.70,
    questions 0.84, English 0.96, typos 0.91, no query without result but nonsense)."""
    overall = relevance["all"]
    assert overall["mrr"] >= 0.845 and overall["hit5"] >= 0.94, relevance
    assert relevance["paraphrase"]["mrr"] >= 0.68 and relevance["question"]["mrr"] >= 0.83, relevance
    assert relevance["english"]["mrr"] >= 0.93 and relevance["typo"]["mrr"] >= 0.88, relevance
    assert relevance["nonsense"]["mrr"] == 1.0 and overall["empty"] == 0, relevance


def test_relevance_set_meets_the_issue_target(relevance):
    """Issue 15's target for the whole set: MRR 0.85 (0.86 today), Hit@5 0.90, English 0.7."""
    overall = relevance["all"]
    assert overall["mrr"] >= 0.85 and overall["hit5"] >= 0.90, relevance
    assert relevance["english"]["mrr"] >= 0.7, relevance


def test_relevance_set_meets_the_paraphrase_target(relevance):
    """Issue 15's target for paraphrases: 0.7 (0.715 today)."""
    assert relevance["paraphrase"]["mrr"] >= 0.7, relevance


def heldout_figures(index, path):
    queries = load_relevance(path)
    results = [[h.id for h in index.search(q["text"], game=q.get("game"), limit=10)] for q in queries]
    return summarise(queries, results)


def test_heldout_set_holds_what_is_reached(index):
    """The held-out queries (written before they were run, never tuned on) keep what they reach:
    MRR 0.90, Hit@5 0.97; one English sentence finds nothing ("pick a new command card…")."""
    heldout = heldout_figures(index, HELDOUT_SET)
    assert heldout["all"]["mrr"] >= 0.88 and heldout["all"]["hit5"] >= 0.93, heldout
    assert heldout["paraphrase"]["mrr"] >= 0.8 and heldout["all"]["empty"] <= 1, heldout


def test_second_heldout_set_holds_what_is_reached(index):
    """The second held-out set (29 queries of every kind, written from the books before any was
    run): MRR 0.87, Hit@5 0.897 (0.83 and 0.897 when it was written); nonsense finds nothing."""
    heldout = heldout_figures(index, HELDOUT2_SET)
    assert heldout["all"]["mrr"] >= 0.85 and heldout["all"]["hit5"] >= 0.86, heldout
    assert heldout["nonsense"]["mrr"] == 1.0 and heldout["all"]["empty"] == 0, heldout


def test_blind_paraphrase_set_holds_what_is_reached(index):
    """Table talk written blind (45 paraphrases, see the file's header): MRR 0.55, Hit@5 0.71
    (0.465 at its first run), every query answered. Far from the 0.7 of the relevance set, whose
    vocabulary was partly written with its queries in view."""
    blind = heldout_figures(index, BLIND_SET)
    assert blind["all"]["mrr"] >= 0.53 and blind["all"]["hit5"] >= 0.69 and blind["all"]["empty"] == 0, blind


def test_third_blind_set_holds_what_is_reached(index):
    """60 queries of every kind written blind, each searched in its game: MRR 0.75, Hit@5 0.83
    (0.737 at its first run); two paraphrases find nothing (said in docs/search.md)."""
    blind = heldout_figures(index, BLIND3_SET)
    assert blind["all"]["mrr"] >= 0.73 and blind["all"]["hit5"] >= 0.81 and blind["all"]["empty"] <= 2, blind
    assert blind["typo"]["mrr"] >= 0.95 and blind["english"]["mrr"] >= 0.95, blind


def test_index_pages_and_struck_text(index):
    assert index.search("Dread")[0].id == "sda-jfe/tournoi/8.41"  # not the printed index
    assert index.search("free attack")[0].id != "sda-jfe/tournoi/11"
    assert "sda-jfe/tournoi/5.171" not in ids(index.search("ligne rouge orange touche superficielle", limit=20))
    assert index.search("5.171")[0].status == "deleted"


def test_one_unknown_word_keeps_the_rest_exact(index):
    hits = index.search("debordment", game="runewars")
    assert hits[0].id in ("runewars/reference/30", "runewars/apprentissage/regles-avancees/debordement")
    assert ids(index.search("rapprochment", game="runewars"))[0].startswith("runewars/reference/74") or \
        "runewars/reference/74" in ids(index.search("rapprochment", game="runewars"))[:3]
    assert index.search("line of sight")[0].id in ("runewars/reference/49", "battlelore/resume/combat/portee-et-ligne-de-mire")
    assert index.search("wound")  # English names for every game


def test_whole_questions_are_answered(index):
    assert ids(index.search("comment fonctionne la panique"))
    assert "runewars/reference/85.7" in ids(index.search("que se passe-t-il si le paquet moral est vide", limit=3))
    assert index.search("ligne de vue")[0].id == "runewars/reference/49"


def test_snippets_mark_each_word_once(index):
    for hit in index.search("unité engagée", limit=10):
        assert "][" not in hit.snippet, hit.snippet
