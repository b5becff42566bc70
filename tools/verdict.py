"""The end of every bench: each target's line, PASS or FAIL, as `make bench` prints them."""

from __future__ import annotations


def verdict(checks: dict[str, bool]) -> int:
    """Print each check's line; the exit code (1 when any target is missed)."""
    for label, ok in checks.items():
        print(f"{label}: {'PASS' if ok else 'FAIL'}")
    return 0 if all(checks.values()) else 1
