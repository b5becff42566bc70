"""Printed rule numbers: how they sort."""

from __future__ import annotations


def number_order(number: str) -> tuple:
    """Sort key for printed numbers: 9.2 < 9.10, 5.03 < 5.03A, 1.07 < 1.071, and at every
    further level numerically too: 1.3.9 < 1.3.10 < 1.4, 18.1.1 < 18.1.1.5."""
    major, _, minor = number.partition(".")
    minor, *deeper = minor.split(".") if minor else ("",)
    return (int(major), *level_order(minor), tuple(level_order(p) for p in deeper))


def level_order(part: str) -> tuple[int, int, str]:
    """A level below the first: its number (1.3.01 before 1.3.1, never equal), then any letters ("2a")."""
    letters = part.lstrip("0123456789")
    digits = part[: len(part) - len(letters)]
    return (int(digits) if digits else -1, len(digits), letters)
