"""extract/read/normalise.py: repairs that hold for every style of document."""

from __future__ import annotations

from extract.model import Line
from extract.read.normalise import rejoin_small_caps


def texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def test_small_capitals_cut_after_their_capital_are_rejoined_where_the_document_proves_it():
    lines = [Line(1, "## F édération F rançaise des É checs D irection N ationale de l' A rbitrage"),
             Line(2, "A la fin du tour, le joueur B est actif et la partie continue."),
             Line(3, "Le joueur A occupe le centre, le joueur C occupe le bord."),
             Line(4, "La F édération le confirme, la Fédération aussi."),
             Line(5, "Fédération française des échecs, direction nationale de l'arbitrage."),
             Line(6, "Le joueur A pioche une carte, le joueur B défausse une carte ; ensuite A attaque.")]
    out, anomalies = rejoin_small_caps(lines)
    assert texts(out) == [
        "## Fédération Française des Échecs Direction Nationale de l' Arbitrage",
        "A la fin du tour, le joueur B est actif et la partie continue.",  # "la", "est": words of the text
        "Le joueur A occupe le centre, le joueur C occupe le bord.",  # the same word after two capitals: names
        "La Fédération le confirme, la Fédération aussi.",  # one cut, but the word is printed whole too
        "Fédération française des échecs, direction nationale de l'arbitrage.",
        "Le joueur A pioche une carte, le joueur B défausse une carte ; ensuite A attaque.",  # "Apioche": no word
    ]
    assert [a.kind for a in anomalies] == ["small-caps-rejoined"] and anomalies[0].lines == [1, 4]
    assert "F édération → Fédération" in anomalies[0].detail


def test_a_lone_cut_without_proof_stays_and_nothing_is_said():
    lines = [Line(1, "Le joueur B attaque."), Line(2, "Puis le joueur A riposte.")]
    out, anomalies = rejoin_small_caps(lines)
    assert texts(out) == texts(lines) and anomalies == []


def test_a_page_label_left_among_the_text_is_set_aside():
    from extract.read.normalise import page_labels

    lines = [Line(1, "Question 3"), Line(2, "FFÉchecs - Annales - Page 3 sur 62"), Line(3, "Réponse b"),
             Line(4, "FFÉchecs - Annales - Page 45 sur 62"), Line(5, "Page 7/9"),
             Line(6, "Voir la page 12 sur 40 du livre de règles.")]  # said once, among words: text
    kept, aside = page_labels(lines)
    assert [line.no for line in kept] == [1, 3, 6]
    assert [item.lines for item in aside] == [(2, 2), (4, 4), (5, 5)] and "Page N sur M" in aside[0].reason
