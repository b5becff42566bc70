"""Compiled templates kept between builds (extract.publish.templatecache): a template comes back
compiled and renders the same, an edited template, another key or a damaged file is compiled
again, and a small MkDocs site built with the cache is the site built without it."""

from __future__ import annotations

import filecmp
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

from extract.publish.site import TOOL_ROOT, environment, mkdocs_build
from extract.publish.templatecache import TemplateCache


def render(folder: Path, cache: TemplateCache, name: str = "t.j2", **context) -> str:
    env = Environment(loader=FileSystemLoader(str(folder)), bytecode_cache=cache, trim_blocks=True)
    return env.get_template(name).render(**context)


def test_a_template_comes_back_compiled_and_renders_the_same(tmp_path: Path):
    (tmp_path / "t.j2").write_text("{% for x in xs %}{{ x }}-{% endfor %}\n", encoding="utf-8")
    first = TemplateCache(tmp_path / "kept", "code 1")
    assert render(tmp_path, first, xs=[1, 2]) == "1-2-"
    assert (first.hits, first.stored) == (0, 1)
    second = TemplateCache(tmp_path / "kept", "code 1")
    assert render(tmp_path, second, xs=[1, 2]) == "1-2-"
    assert (second.hits, second.stored) == (1, 0)


def test_an_edited_template_another_key_or_a_damaged_file_compiles_again(tmp_path: Path):
    template = tmp_path / "t.j2"
    template.write_text("un {{ x }}", encoding="utf-8")
    render(tmp_path, TemplateCache(tmp_path / "kept", "code 1"), x=1)
    template.write_text("deux {{ x }}", encoding="utf-8")  # same name, same file, new source
    edited = TemplateCache(tmp_path / "kept", "code 1")
    assert render(tmp_path, edited, x=1) == "deux 1" and (edited.hits, edited.stored) == (0, 1)
    [kept] = edited.folder.iterdir()
    data = bytearray(kept.read_bytes())
    data[-3] ^= 0xFF
    kept.write_bytes(bytes(data))
    damaged = TemplateCache(tmp_path / "kept", "code 1")
    assert render(tmp_path, damaged, x=2) == "deux 2" and (damaged.hits, damaged.stored) == (0, 1)
    other = TemplateCache(tmp_path / "kept", "code 2")  # other code: its own folder
    assert render(tmp_path, other, x=3) == "deux 3" and other.hits == 0 and other.folder != damaged.folder


def test_another_key_s_folder_stays_until_it_is_a_month_old(tmp_path: Path):
    import os
    import time

    (tmp_path / "t.j2").write_text("{{ x }}", encoding="utf-8")
    old = TemplateCache(tmp_path / "kept", "old code")
    render(tmp_path, old, x=1)
    TemplateCache(tmp_path / "kept", "new code")  # another version of the toolkit sharing the cache
    assert old.folder.is_dir()
    month = time.time() - 31 * 86400
    os.utime(old.folder, (month, month))
    TemplateCache(tmp_path / "kept", "new code")
    assert not old.folder.exists()


def test_a_kept_file_is_read_without_pickle_and_must_hold_code(tmp_path: Path):
    """Jinja's own format reads the source checksum with pickle, which runs what a planted file
    asks; this one reads text and a marshalled code object, nothing else."""
    import hashlib
    import marshal
    import pickle

    (tmp_path / "t.j2").write_text("{{ x }}", encoding="utf-8")
    cache = TemplateCache(tmp_path / "kept", "code")
    render(tmp_path, cache, x=1)
    [kept] = cache.folder.iterdir()
    checksum = kept.read_bytes().split(b"\n")[1]

    class Trap:
        def __reduce__(self):
            return (Path.write_text, (tmp_path / "ran", "!"))

    for payload in (pickle.dumps(Trap()), marshal.dumps(["not", "code"])):
        rest = checksum + b"\n" + payload
        kept.write_bytes(hashlib.sha256(rest).hexdigest().encode() + b"\n" + rest)
        again = TemplateCache(tmp_path / "kept", "code")
        assert render(tmp_path, again, x=2) == "2" and again.hits == 0
    assert not (tmp_path / "ran").exists()


def test_an_unwritable_folder_compiles_every_time(tmp_path: Path):
    (tmp_path / "t.j2").write_text("{{ x }}", encoding="utf-8")
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    cache = TemplateCache(tmp_path / "file" / "kept", "code")
    assert render(tmp_path, cache, x=1) == "1" and (cache.hits, cache.stored) == (0, 0)


def test_the_sites_own_templates_come_back_compiled(tmp_path: Path):
    names = environment(TOOL_ROOT).list_templates()
    assert names
    cache = TemplateCache(tmp_path / "kept", "code")
    for name in names:
        environment(TOOL_ROOT, cache).get_template(name)
    again = TemplateCache(tmp_path / "kept", "code")
    for name in names:
        environment(TOOL_ROOT, again).get_template(name)
    assert cache.stored == again.hits == len(names) and again.stored == 0


def test_a_site_built_with_kept_templates_is_the_site_built_without(tmp_path: Path):
    docs = tmp_path / "docs"
    (docs / "a").mkdir(parents=True)
    (docs / "index.md").write_text("# Accueil\n\n[vers A](a/index.md#a)\n", encoding="utf-8")
    (docs / "a" / "index.md").write_text("# A { #a }\n\ntexte\n", encoding="utf-8")
    nav = [{"Accueil": "index.md"}, {"A": "a/index.md"}]
    mkdocs_build(TOOL_ROOT, docs, tmp_path / "stock", nav)
    cache = TemplateCache(tmp_path / "kept", "code")
    mkdocs_build(TOOL_ROOT, docs, tmp_path / "first", nav, compiled=cache)
    assert cache.stored > 10  # the theme's templates and partials
    again = TemplateCache(tmp_path / "kept", "code")
    mkdocs_build(TOOL_ROOT, docs, tmp_path / "second", nav, compiled=again)
    assert again.hits == cache.stored and again.stored == 0
    for built in ("first", "second"):
        compared = filecmp.dircmp(tmp_path / "stock", tmp_path / built)
        assert not (compared.left_only or compared.right_only or compared.diff_files), built
        files = sorted(p.relative_to(tmp_path / "stock") for p in (tmp_path / "stock").rglob("*") if p.is_file())
        assert all((tmp_path / "stock" / f).read_bytes() == (tmp_path / built / f).read_bytes() for f in files), built


def test_a_loaders_template_names_are_kept_without_hidden_ones(tmp_path: Path):
    """MkDocs lists the theme's files on every render (Material's 14,500, its icons under
    `.icons/`, which MkDocs' filter drops): the names are kept, hidden ones left out."""
    calls: list[int] = []

    def listing() -> list[str]:
        calls.append(1)
        return ["main.html", "assets/app.js", ".icons/a.svg", "partials/.hidden", "assets/x.css"]

    cache = TemplateCache(tmp_path, "k")
    assert cache.names(listing) == ["main.html", "assets/app.js", "assets/x.css"]
    assert TemplateCache(tmp_path, "k").names(listing) == ["main.html", "assets/app.js", "assets/x.css"]
    assert len(calls) == 1  # the second came from the file
    kept = next(tmp_path.glob("*/template-names.txt"))
    kept.write_bytes(kept.read_bytes() + b"x")  # damaged: listed again
    assert TemplateCache(tmp_path, "k").names(listing) == ["main.html", "assets/app.js", "assets/x.css"]
    assert len(calls) == 2
    assert TemplateCache(tmp_path, "other").names(lambda: ["b.js"]) == ["b.js"]  # another key, another list
