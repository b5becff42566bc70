"""extract/cache: a result is reused only under its key and with its bytes; anything else is a
miss, never an error; keys hash only the files named, never reading a special file or following
a link."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from extract.cache import Cache, key_of


def test_an_object_comes_back_under_its_key_only(tmp_path: Path):
    cache = Cache(tmp_path / "kept")
    cache.put("game/demo", "k1", {"entries": [1, 2]})
    assert cache.get("game/demo", "k1") == {"entries": [1, 2]} and cache.hits == ["game/demo"]
    assert cache.get("game/demo", "k2") is None and cache.get("game/other", "k1") is None
    assert cache.keyed("k1").get("game/demo") == {"entries": [1, 2]}
    assert Cache(None).get("game/demo", "k1") is None  # no folder: nothing kept
    Cache(None).put("game/demo", "k1", 1)


def test_a_damaged_or_unwritable_object_is_a_miss(tmp_path: Path):
    cache = Cache(tmp_path / "kept")
    cache.put("x", "k", list(range(100)))
    [stored] = (tmp_path / "kept").glob("*/object")
    data = bytearray(stored.read_bytes())
    data[-5] ^= 0xFF
    stored.write_bytes(bytes(data))
    assert cache.get("x", "k") is None
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    Cache(tmp_path / "file" / "kept").put("x", "k", 1)  # cannot be written: the build goes on
    cache.put("lock", "k", threading.Lock())  # cannot be pickled: not kept, no error
    assert cache.get("lock", "k") is None


def outputs(staging: Path, text: str) -> None:
    (staging / "site" / "a").mkdir(parents=True)
    (staging / "site" / "a" / "index.html").write_text(text, encoding="utf-8")


def test_a_stage_is_made_once_then_restored_and_a_file_changed_since_is_a_miss(tmp_path: Path):
    cache = Cache(tmp_path / "kept")
    made: list[str] = []
    first = tmp_path / "first"
    first.mkdir()
    assert cache.run("render", "k", first, lambda: (made.append("k"), outputs(first, "<p>un</p>")), ["site"]) is False
    second = tmp_path / "second"
    second.mkdir()
    assert cache.run("render", "k", second, lambda: made.append("again"), ["site"]) is True
    assert made == ["k"] and (second / "site" / "a" / "index.html").read_text(encoding="utf-8") == "<p>un</p>"
    with (second / "site" / "a" / "index.html").open("r+b") as handle:  # a hard link, changed in place
        handle.write(b"<p>XX</p>")
    third = tmp_path / "third"
    third.mkdir()
    assert cache.run("render", "k", third, lambda: outputs(third, "<p>un</p>"), ["site"]) is False  # made again
    assert (third / "site" / "a" / "index.html").read_text(encoding="utf-8") == "<p>un</p>"
    fourth = tmp_path / "fourth"
    fourth.mkdir()
    assert cache.run("render", "other key", fourth, lambda: outputs(fourth, "<p>deux</p>"), ["site"]) is False


def test_a_key_hashes_the_named_files_bytes_and_never_reads_a_special_file_or_a_link(tmp_path: Path):
    (tmp_path / "a.toml").write_text("x = 1", encoding="utf-8")
    before = key_of([tmp_path / "a.toml", tmp_path / "missing.toml"], "extra", base=tmp_path)
    assert before == key_of([tmp_path / "a.toml", tmp_path / "missing.toml"], "extra", base=tmp_path)
    (tmp_path / "a.toml").write_text("x = 2", encoding="utf-8")
    assert key_of([tmp_path / "a.toml", tmp_path / "missing.toml"], "extra", base=tmp_path) != before
    assert key_of([tmp_path / "a.toml"], "other", base=tmp_path) != key_of([tmp_path / "a.toml"], "extra", base=tmp_path)
    os.mkfifo(tmp_path / "fifo.toml")  # read, it would block forever
    (tmp_path / "zero.toml").symlink_to("/dev/zero")  # followed, it would never end
    (tmp_path / "loop").symlink_to(tmp_path)
    assert key_of([tmp_path / "fifo.toml", tmp_path / "zero.toml", tmp_path / "loop"], base=tmp_path)
