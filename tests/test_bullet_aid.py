"""Heroscape player aid: Markdown-like headings and bullets nested by indentation and glyphs."""

from __future__ import annotations


def test_headings_and_nesting(built):
    e = built["entries"]
    army = e["heroscape/aide/recreciter-une-armee"]
    assert army["title"] == "RECRECITER UNE ARMÉE"  # kept as written
    assert [b["type"] for b in army["blocks"]] == ["bullet"] * 6
    assert army["blocks"][4]["text"] == "Cfr p7 pour 2 ou 3 j"
    climb = e["heroscape/aide/3-pendant-votre-tour/monter"]
    assert climb["title"] == "monter"
    assert climb["blocks"][0] == {"type": "subbullet", "text": "compter chaque niveau d'élévation comme un hex"}
    attack = e["heroscape/aide/3-pendant-votre-tour/iii-attaquer-avec-la-les-fig-de-la-carte-armee"]
    depths = [b.get("depth", 0) for b in attack["blocks"]]
    assert max(depths) >= 3
    assert attack["blocks"][0]["text"].startswith("qui peut attaquer? N'importe quelle fig")
