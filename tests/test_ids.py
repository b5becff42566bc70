"""Ids are the contract other tools build on: every entry and erratum id of the corpus build is
listed in tests/fixtures/ids.txt, and a build that changes one fails here until the snapshot
and CHANGELOG.md both say so (see "Ids and versions" in docs/data.md)."""

from __future__ import annotations

from pathlib import Path

from tools.ids_snapshot import SNAPSHOT, build_ids


def test_ids_match_the_snapshot(built):
    found = build_ids(Path(built["out"]))
    expected = SNAPSHOT.read_text(encoding="utf-8").split()
    gone = sorted(set(expected) - set(found))
    new = sorted(set(found) - set(expected))
    assert not gone and not new, (
        f"{len(gone)} id(s) gone ({', '.join(gone[:5])}{', …' if len(gone) > 5 else ''}), "
        f"{len(new)} new ({', '.join(new[:5])}{', …' if len(new) > 5 else ''}). Ids are public: if the change is meant, "
        "run `python -m tools.ids_snapshot BUILD_DIR` and add a line to CHANGELOG.md naming the ids that "
        "changed and why (renumbered: say which id replaces which).")
    assert found == expected  # same ids, same count (no duplicate)


def test_ids_are_unique_and_url_safe():
    ids = SNAPSHOT.read_text(encoding="utf-8").split()
    assert len(ids) == len(set(ids))
    assert all(i.isascii() and " " not in i and "#" not in i and "?" not in i for i in ids)
