"""extract/registry.py: named items with an explicit priority."""

from __future__ import annotations

import pytest

from extract.read import READERS, reader_for
from extract.registry import Registry


def test_ordered_by_priority_then_name():
    registry: Registry[str] = Registry("format")
    registry.add("text", "T", priority=0)
    registry.add("pdf", "P", priority=20)
    registry.add("markdown", "M", priority=10)
    registry.add("html", "H", priority=10)
    assert registry.ordered() == [("pdf", "P"), ("html", "H"), ("markdown", "M"), ("text", "T")]
    assert list(registry) == ["html", "markdown", "pdf", "text"]  # iteration is by name
    assert registry.priority("pdf") == 20 and len(registry) == 4


def test_decorator_registers_and_returns_the_item():
    registry: Registry[object] = Registry("profile")

    @registry.register("faq", priority=5)
    def faq():
        return "faq"

    assert faq() == "faq" and registry["faq"] is faq and "faq" in registry


def test_registering_a_name_twice_fails():
    registry: Registry[str] = Registry("reader")
    registry.add("text", "a")
    with pytest.raises(ValueError, match="reader 'text' is registered twice"):
        registry.add("text", "b")
    assert registry["text"] == "a"


def test_unknown_names():
    registry: Registry[str] = Registry("reader")
    assert registry.get("pdf") is None and "pdf" not in registry
    with pytest.raises(KeyError):
        registry["pdf"]  # noqa: B018


def test_the_readers_registry_falls_back_to_text(tmp_path):
    assert "text" in READERS
    assert reader_for(tmp_path / "regles.txt").name == "text"
    assert reader_for(tmp_path / "regles.inconnu").name == "text"
