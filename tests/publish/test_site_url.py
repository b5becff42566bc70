"""`regles build --site-url`: the address the site is published at. With it, every page names its
canonical address and sitemap.xml lists them all, the same bytes on every build; without it the
site gives no absolute address at all (no canonical link, no sitemap)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from extract.cli import main
from extract.urls import site_url
from tests.conftest import make_corpus

TEXT = "Déplacement\n\nUne unité se déplace de deux cases.\n\nAttaque\n\nUne unité attaque après son déplacement.\n"
ADDRESS = "https://regles.example.org/jeux"


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    root = make_corpus(tmp_path_factory.mktemp("url"), TEXT)
    out = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGLES_STAGE_CACHE", "off")  # every site rendered: none is a copy of another
        for name, args in (("plain", []), ("url", ["--site-url", ADDRESS]), ("again", ["--site-url", ADDRESS + "/"])):
            assert main(["--root", str(root), "build", "--out", str(root / name), *args]) == 0
            out[name] = root / name / "site"
    return out


def test_site_url_is_checked_and_ends_with_a_slash():
    assert site_url("https://a.org/regles") == "https://a.org/regles/"
    assert site_url("http://a.org") == "http://a.org/"
    for bad in ("a.org/regles", "ftp://a.org/", "https:///x", "https://a.org/?q=1", "https://a.org/#x", "/regles/"):
        with pytest.raises(ValueError):
            site_url(bad)


def test_a_bad_site_url_is_a_usage_error(tmp_path, capsys, monkeypatch):
    assert main(["--root", str(tmp_path), "build", "--site-url", "regles.example.org"]) == 2
    assert "http" in capsys.readouterr().err
    monkeypatch.setenv("REGLES_SITE_URL", "ftp://regles.example.org/")  # the variable is checked the same way
    assert main(["--root", str(tmp_path), "build"]) == 2
    assert "ftp://regles.example.org/" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()


@pytest.mark.corpus  # whole builds: the slow tier
def test_with_a_site_url_every_page_is_in_the_sitemap_with_its_canonical_address(sites):
    site = sites["url"]
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    pages = sorted(p.relative_to(site).parent.as_posix() for p in site.rglob("index.html"))
    assert len(locs) == len(pages) >= 4
    assert sorted(locs) == sorted(f"{ADDRESS}/{p}/".replace("/./", "/") for p in pages)
    assert "<lastmod>" not in sitemap  # a date would change the bytes from one day to the next
    packed = (site / "sitemap.xml.gz").read_bytes()
    assert gzip.decompress(packed).decode("utf-8") == sitemap and packed[4:8] == b"\0\0\0\0"  # no time stamp
    page = next(p for p in site.rglob("index.html") if p.parent != site)
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', page.read_text(encoding="utf-8"))
    assert canonical and canonical[1] == f"{ADDRESS}/{page.parent.relative_to(site).as_posix()}/"


@pytest.mark.corpus  # whole builds: the slow tier
def test_the_same_site_url_gives_the_same_bytes(sites):
    for name in ("sitemap.xml", "sitemap.xml.gz", "index.html"):
        assert (sites["url"] / name).read_bytes() == (sites["again"] / name).read_bytes(), name


@pytest.mark.corpus  # whole builds: the slow tier
def test_without_a_site_url_there_is_no_absolute_address(sites):
    site = sites["plain"]
    assert not (site / "sitemap.xml").exists() and not (site / "sitemap.xml.gz").exists()
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert 'rel="canonical"' not in text, page
        assert ADDRESS not in text
