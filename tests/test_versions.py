"""Entries matched across two versions of a document (extract.versions): small cases, one per
way an entry continues another."""

from __future__ import annotations

from extract.versions import diff_versions, marked, word_segments


def rule(number: str | None, text: str, title: str | None = None, doc: str = "v1", parent: str | None = None,
         slug: str | None = None, blocks: list[dict] | None = None) -> dict:
    key = number or slug or (title or "x").lower().replace(" ", "-")
    entry = {"id": f"jeu/{doc}/{key}", "number": number, "title": title, "text": text, "parent": parent}
    if blocks is not None:
        entry["blocks"] = blocks
    return entry


OLD = [
    rule("1.1", "Chaque joueur pioche sept cartes au début de la partie."),
    rule("1.2", "Le premier joueur est tiré au sort avec un dé."),
    rule("1.3", "Une unité engagée ne peut pas se déplacer."),
    rule("1.4", "Les renforts arrivent au troisième tour."),
]


def test_the_same_rules_are_no_change():
    found = diff_versions(OLD, [dict(e, id=e["id"].replace("v1", "v2")) for e in OLD])
    assert found.counts() == {"added": 0, "removed": 0, "moved": 0, "changed": 0, "unchanged": 4}


def test_a_rule_inserted_renumbers_the_rules_after_it():
    new = [OLD[0], rule("1.2", "Les joueurs choisissent leur camp avant de piocher.", doc="v2"),
           *(dict(e, id=f"jeu/v2/1.{n}", number=f"1.{n}") for n, e in zip((3, 4, 5), OLD[1:], strict=True))]
    found = diff_versions(OLD, new)
    assert [e["number"] for e in found.added] == ["1.2"]
    assert [(p.old["number"], p.new["number"]) for p in found.moved] == [("1.2", "1.3"), ("1.3", "1.4"), ("1.4", "1.5")]
    assert found.changed == [] and found.removed == [] and found.unchanged == 1


def test_a_rule_rewritten_in_place_is_changed_with_its_words_marked():
    new = [*OLD[:2], rule("1.3", "Une unité engagée ne peut pas se déplacer ni tirer.", doc="v2"), OLD[3]]
    found = diff_versions(OLD, new)
    assert [p.new["number"] for p in found.changed] == ["1.3"] and found.moved == []
    segments = word_segments(found.changed[0].old["text"], found.changed[0].new["text"])
    assert ["-", "déplacer."] in segments and ["+", "déplacer ni tirer."] in segments
    assert marked(segments) == "Une unité engagée ne peut pas se [-déplacer.-] {+déplacer ni tirer.+}"


def test_a_number_given_to_another_rule_is_not_the_same_rule():
    """103.1b of the new version is a new rule; the old 103.1b (rewritten a little) is now 103.1c."""
    old = [rule("103.1b", "Au Commander, chaque joueur met son commandant dans la zone de commandement avant de mélanger.")]
    new = [rule("103.1b", "Un joueur peut révéler une carte de compagnon hors du jeu.", doc="v2"),
           rule("103.1c", "Au Commander, chaque joueur met son commandant dans la zone de commandement après avoir pu révéler "
                          "un compagnon et avant de mélanger.", doc="v2")]
    found = diff_versions(old, new)
    assert [e["number"] for e in found.added] == ["103.1b"]
    assert [(p.old["number"], p.new["number"]) for p in found.moved] == [("103.1b", "103.1c")]
    assert [p.new["number"] for p in found.changed] == ["103.1c"]


def test_a_rule_rewritten_whole_keeps_its_number():
    old = [rule("4.2", "Les tirs à longue portée subissent un malus de un.")]
    new = [rule("4.2", "Aucune attaque n'est possible au premier tour.", doc="v2")]
    found = diff_versions(old, new)
    assert found.added == found.removed == [] and [p.how for p in found.changed] == ["renumbered in place"]


def test_headings_without_numbers_match_by_title_then_by_text():
    old = [rule(None, "Lancez trois dés.", "Jets de Dés", slug="jets-de-des"),
           rule(None, "Chaque figurine a un profil propre avec ses caractéristiques de jeu.", "Profils", slug="profils")]
    new = [rule(None, "Lancez trois dés.", "JETS DE DÉS", doc="v2", slug="jets"),
           rule(None, "Chaque figurine a un profil propre avec toutes ses caractéristiques de jeu.", "Profil des figurines",
                doc="v2", slug="profil-des-figurines")]
    found = diff_versions(old, new)
    assert found.counts() == {"added": 0, "removed": 0, "moved": 0, "changed": 1, "unchanged": 1}
    assert found.changed[0].how == "similar" and found.changed[0].new["title"] == "Profil des figurines"


def test_a_step_renumbered_changes_the_rule_and_a_list_s_style_does_not():
    def steps(*numbers: str) -> list[dict]:
        return [{"type": "step", "number": n, "text": t} for n, t in zip(numbers, ("Lancer", "Relancer", "Réserver"), strict=True)]

    old = [rule(None, "Lancer Relancer Réserver", "Test", slug="test", blocks=steps("1", "2", "2"))]
    fixed = [rule(None, "Lancer Relancer Réserver", "Test", slug="test", doc="v2", blocks=steps("1", "2", "3"))]
    same = [rule(None, "Lancer Relancer Réserver", "Test", slug="test", doc="v2", blocks=steps("1", "2", "2"))]
    assert diff_versions(old, fixed).counts()["changed"] == 1
    assert diff_versions(old, same).counts()["changed"] == 0


def test_an_entry_moved_under_another_parent_is_moved():
    old = [rule(None, "", "A", slug="a"), rule(None, "", "B", slug="b"),
           rule(None, "Un texte assez long pour être reconnu.", "C", slug="a/c", parent="jeu/v1/a")]
    new = [rule(None, "", "A", slug="a", doc="v2"), rule(None, "", "B", slug="b", doc="v2"),
           rule(None, "Un texte assez long pour être reconnu.", "C", slug="b/c", doc="v2", parent="jeu/v2/b")]
    found = diff_versions(old, new)
    assert [p.new["id"] for p in found.moved] == ["jeu/v2/b/c"] and found.changed == []


def test_a_rule_s_history_follows_it_through_its_renumbering():
    from extract.versions import Step, entry_histories

    v1 = [rule("1.1", "Chaque joueur pioche sept cartes au début de la partie.")]
    v2 = [rule("1.1", "Les joueurs choisissent leur camp avant de piocher.", doc="v"),
          rule("1.2", "Chaque joueur pioche sept cartes au début de la partie.", doc="v")]
    v3 = [rule("1.1", "Les joueurs choisissent leur camp avant de piocher.", doc="v"),
          rule("1.2", "Chaque joueur pioche huit cartes au début de la partie.", doc="v")]
    steps = [Step({"version": "1", "date": ""}, {"version": "2", "date": ""}, diff_versions(v1, v2)),
             Step({"version": "2", "date": ""}, {"version": "3", "date": ""}, diff_versions(v2, v3))]
    found = entry_histories(steps, [e["id"] for e in v3])
    assert [(e.step.after["version"], e.what, e.was) for e in found["jeu/v/1.2"]] == [("3", "changed", None), ("2", "moved", "1.1")]
    assert ["+", "huit"] in found["jeu/v/1.2"][0].words
    assert [(e.step.after["version"], e.what) for e in found["jeu/v/1.1"]] == [("2", "added")]


def erratum(n: int, status: str = "applied", source: str = "jeu/faq/errata", changes: bool = True, target: str = "jeu/v/1.1",
            instruction: str | None = None) -> dict:
    return {"id": f"jeu/faq/errata/{n}", "source": source, "target": target, "operation": "replace", "after": "x",
            "instruction": instruction or f"Remplacez le paragraphe {n}.", "status": status, "reason": None,
            "changes_text": changes}


def test_errata_a_version_newly_takes_and_those_it_no_longer_takes():
    from extract.versions import errata_shifts

    old = [erratum(1), erratum(2, "failed"), erratum(3), erratum(4)]
    new = [erratum(1), erratum(2), erratum(3, changes=False), erratum(5)]  # 4 gone from the FAQ, 5 new
    found = errata_shifts(old, new, [])
    assert [(s.old and s.old["id"], s.new and s.new["id"]) for s in found.applied] == [
        ("jeu/faq/errata/2", "jeu/faq/errata/2"), (None, "jeu/faq/errata/5")]
    assert [(s.old["id"], s.new and s.new["status"]) for s in found.unapplied] == [
        ("jeu/faq/errata/3", "applied"), ("jeu/faq/errata/4", None)]  # 3: the text already says it
    assert found.to_json()["no_longer_applied"][0]["to"]["changes_text"] is False


def test_an_erratum_written_in_a_renumbered_faq_entry_is_the_same_erratum():
    from extract.versions import Pair, errata_shifts

    moved = Pair({"id": "jeu/faq/q1"}, {"id": "jeu/faq/q2"}, "text")
    said = "Remplacez « deux » par « trois »."
    found = errata_shifts([erratum(1, source="jeu/faq/q1", instruction=said)], [erratum(7, source="jeu/faq/q2", instruction=said)],
                          [moved])
    assert found.applied == found.unapplied == []
    other = errata_shifts([erratum(1, source="jeu/faq/q1", instruction=said)],
                          [erratum(7, source="jeu/faq/q2", instruction="Autre.")], [moved])
    assert len(other.applied) == len(other.unapplied) == 1
