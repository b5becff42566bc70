"""tools/bench_growth.py: the small corpora's figures are medians of repeated builds."""

from __future__ import annotations

from pathlib import Path

from tools import bench_growth


def test_a_small_corpus_is_measured_by_the_median_of_its_builds(monkeypatch):
    runs = iter([
        {"stages": {"render": 1.0}, "cpu": {"render": 0.9, "write data": 0.30}, "total": 3.0, "peak_kb": 100, "site_mb": 10.0},
        {"stages": {"render": 5.0}, "cpu": {"render": 0.5, "write data": 0.10}, "total": 9.0, "peak_kb": 300, "site_mb": 10.0},
        {"stages": {"render": 2.0}, "cpu": {"render": 0.7, "write data": 0.20}, "total": 4.0, "peak_kb": 200, "site_mb": 10.0},
    ])
    monkeypatch.setattr(bench_growth, "build_apart", lambda root, cache: next(runs))
    found = bench_growth.build_median(Path("."), Path("."), 3)
    assert found["cpu"] == {"render": 0.7, "write data": 0.20} and found["stages"] == {"render": 2.0}
    assert found["total"] == 4.0 and found["peak_kb"] == 300  # the peak is the largest seen, not a median
