"""extract/publish/api.py: one file per entry, named by `extract.urls.file_name`, and a write that
fails says which entry it was for."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from extract.cli import os_problem
from extract.publish.api import entry_path, write_api


def game(*entries: dict) -> dict:
    return {"game": {"id": "demo"}, "entries": list(entries), "errata": [], "facts": []}


def entry(entry_id: str) -> dict:
    return {"id": entry_id, "kind": "question", "number": None, "title": None, "parent": None, "status": "original",
            "source": {"file": "corpus/demo/faq.txt", "lines": [12, 19]}}


def test_a_long_key_gets_a_bounded_file_and_the_index_says_where(tmp_path):
    long_id = "demo/faq/" + "/".join(["q1"] * 150)
    path = entry_path(long_id)
    assert len(path.rsplit("/", 1)[-1].encode()) <= 200 and path.startswith("demo/faq/")
    write_api(tmp_path, [game(entry(long_id), entry("demo/faq/q2"))])
    assert (tmp_path / path).is_file() and (tmp_path / "demo/faq/q2.json").is_file()
    assert entry_path(long_id) != entry_path(long_id + "/q1")


def test_a_failed_write_names_the_entry_and_its_source(tmp_path, monkeypatch):
    def full(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(errno.ENAMETOOLONG, "File name too long", str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OSError) as caught:
        write_api(tmp_path / ".build.regles-staging-x" / "site" / "api", [game(entry("demo/faq/q1.2"))])
    line = os_problem(caught.value)  # the file that failed, said from the build's root; what it was; whence
    assert line.startswith("site/api/demo/faq/q1.2.json: File name too long while writing api/demo/faq/q1.2.json")
    assert "(from corpus/demo/faq.txt:12)" in line and "staging" not in line and "\n" not in line
    assert caught.value.errno == errno.ENAMETOOLONG
