"""Registries with explicit priority, in the manner of Python-Markdown's: readers, profiles,
grammar rules and export formats each register by name where they are defined, and the order
that decides which one wins is a number written beside it, not a position in a tuple."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """Named items with a priority; `ordered()` gives them highest priority first (ties by name)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._items: dict[str, tuple[int, T]] = {}

    def register(self, name: str, priority: int = 0) -> Callable[[T], T]:
        """Decorator: `@PROFILES.register("faq")`."""

        def add(item: T) -> T:
            self.add(name, item, priority)
            return item

        return add

    def add(self, name: str, item: T, priority: int = 0) -> None:
        if name in self._items:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        self._items[name] = (priority, item)

    def get(self, name: str) -> T | None:
        found = self._items.get(name)
        return found[1] if found else None

    def __getitem__(self, name: str) -> T:
        return self._items[name][1]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def priority(self, name: str) -> int:
        return self._items[name][0]

    def ordered(self) -> list[tuple[str, T]]:
        return [(name, item) for name, (_, item) in sorted(self._items.items(), key=lambda kv: (-kv[1][0], kv[0]))]
