"""The errata reader on ../shared/external/errata-devset, scored as its README says
(tools/bench_errata.py): the figures reached stay reached."""

from __future__ import annotations

import pytest

from tools.bench_errata import DEVSET, evaluate

pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not (DEVSET / "gold.json").is_file(), reason="../shared/external/errata-devset is absent")]


def test_devset_recall_precision_and_no_silent_drop():
    result = evaluate()
    figures = result["all"]
    assert figures["silent_drops"] == 0
    assert figures["recall"] >= 0.89 and figures["precision"] >= 0.93
    assert figures["clarifications_taken_for_errata"] <= 3
    held = result["held_out"]
    assert held["silent_drops"] == 0 and held["recall"] >= 0.9
