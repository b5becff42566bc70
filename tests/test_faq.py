"""The Runewars tournament FAQ: errata sections and Q/R pairs as question entries."""

from __future__ import annotations

F = "runewars/faq/"


def test_errata_sections_are_entries(built):
    e = built["entries"]
    errata = e[F + "errata/guide-de-reference/ligne-de-vue-page-13-section-49"]
    assert errata["title"] == "Ligne de Vue, page 13, section 49"
    assert errata["blocks"][0]["text"] == "Le premier paragraphe de cette section devrait dire :"
    learn = e[F + "errata/livret-d-apprentissage"]
    assert [e[c]["title"] for c in learn["children"]] == ["Cartes Objectif, page 15", "Règles à ne pas Oublier, page 24"]
    menace = e[F + "errata/guide-de-reference/menace-page-14-section-51-1"]
    assert [b["type"] for b in menace["blocks"]] == ["paragraph", "bullet", "subbullet", "subbullet"]


def test_questions_pair_q_and_r(built):
    e = built["entries"]
    questions = [x for x in e.values() if x["document"] == "faq" and x["kind"] == "question"]
    assert len(questions) == 26  # grep -c "^Q :" on the FAQ span
    q = e[F + "faq/ligne-de-vue/q1"]
    assert [b["type"] for b in q["blocks"]] == ["question", "answer"]
    assert q["blocks"][1]["text"] == "Non."
    assert e[F + "faq/mise-en-place/placer-un-terrain/q1"]["parent"] == F + "faq/mise-en-place/placer-un-terrain"
    example = e[F + "faq/ajouter-des-plateaux-de-mouvement/q2"]
    assert example["blocks"][2]["text"].startswith("Exemple :")
