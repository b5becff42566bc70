"""Runewars' icons named on the real corpus (corpus/runewars/icons.toml): the same token on every
page whatever glyph the conversion chose, the glyphs no cue announces reported, the site's badges."""

from __future__ import annotations

import re

from extract.icons import GLYPH


def texts(built, game="runewars"):
    return [(e["id"], b["text"]) for e in built["games"][game]["entries"] for b in e["blocks"]]


def test_ralliement_is_one_token_whatever_the_glyph(built):
    found = [(key, text) for key, text in texts(built) if "[ralliement]" in text]
    assert len({key.split("/")[1] for key, _ in found}) == 3 and len(found) >= 7  # the three books
    assert not [t for _, t in texts(built) if re.search(r"(?i)ralliement\s*\(", t)]  # no "()", "(☘)", "(🏹)"… left
    rule_49 = built["entries"]["runewars/reference/49"]
    assert rule_49["blocks"][0]["text"].startswith("Pour effectuer une attaque à distance [attaque à distance] ou")
    # printed "(♣)", current "(🏹)": the same icon, so the erratum's only change is its words
    assert rule_49["original_blocks"][0]["text"].startswith("Pour effectuer une attaque à distance [attaque à distance] ou")


def test_glyphs_no_cue_announces_are_left_and_reported(built):
    left = [(key, m.group(1)) for key, text in texts(built) for m in GLYPH.finditer(text) if m.group(1) not in "+-"]
    reported = [(a["detail"].split(":")[0], a["glyph"]) for key, doc in built["report"]["documents"].items()
                if key.startswith("runewars/") for a in doc["anomalies"] if a["kind"] == "icon-unmapped"]
    assert sorted(left) == sorted(reported) and 0 < len(left) <= 10, left


def test_other_games_have_no_icon_tokens(built):
    for game in ("warcry", "sda-jfe", "heroscape", "battlelore"):
        assert not [t for _, t in texts(built, game) if "[marche]" in t or "[ralliement]" in t]


def test_the_site_shows_icons_as_named_badges(built):
    page = (built["out"] / "site/runewars/reference/77/index.html").read_text(encoding="utf-8")
    assert ('Repositionnement <span class="regles-icon" title="Icône « repositionnement »">'
            '<span class="regles-visually-hidden">icône </span>repositionnement</span> est une action.') in page
    assert "[repositionnement]" not in page.split('<article', 1)[1].split("regles-cite", 1)[0]
    resistant = (built["out"] / "site/runewars/reference/58/index.html").read_text(encoding="utf-8")
    assert "Résistant [X]" in resistant  # brackets that are no declared icon stay text
