"""Printed rule numbers: how they sort."""

from __future__ import annotations


def number_order(number: str) -> tuple:
    """Sort key for printed numbers: 9.2 < 9.10, 5.03 < 5.03A, 1.07 < 1.071."""
    major, _, minor = number.partition(".")
    letters = minor.lstrip("0123456789") if minor else ""
    digits = minor[: len(minor) - len(letters)] if minor else ""
    return (int(major), int(digits) if digits else -1, len(digits), letters)
