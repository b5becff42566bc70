"""extract/corpus/manifest.py: a game manifest read strictly, every mistake one line naming the
file and line. (Kept here, beside the TOML reading it builds on: tests/corpus/ belongs to the
corpus stage's owners.)"""

from __future__ import annotations

import pytest

from extract.corpus.manifest import find_manifests, load_game
from extract.errors import InputError
from extract.segment import option_classes
from tests.helpers import cpu_growth

GOOD = """id = "demo"
title = "Démo"

[[sources]]
file = "source.txt"
sha256 = "ABC"

[[documents]]
id = "regles"
title = "Règles"
kind = "rulebook"
source = "source.txt"
profile = "headed-prose"
lines = [3, 40]

[documents.options]
outline = ["# Règles"]

[[precedence]]
over = "regles"
under = "faq"
why = "Les règles priment."
"""


def load(tmp_path, text: str, folder: str = "demo"):
    path = tmp_path / "corpus" / folder / "game.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return load_game(path, tmp_path, option_classes())


def test_a_good_manifest(tmp_path):
    game = load(tmp_path, GOOD)
    assert (game.id, game.title, game.manifest) == ("demo", "Démo", "corpus/demo/game.toml")
    assert game.sources == {"corpus/demo/source.txt": "abc"}  # digests compared in lowercase
    doc = game.documents[0]
    assert (doc.id, doc.source, doc.first_line, doc.last_line, doc.profile) == ("regles", "corpus/demo/source.txt", 3, 40, "headed-prose")
    assert doc.options.outline == ("# Règles",) and doc.manifest_line == 8
    assert game.precedence == [{"over": "regles", "under": "faq", "why": "Les règles priment."}]
    assert find_manifests(tmp_path) == [tmp_path / "corpus/demo/game.toml"]


def test_a_game_short_name_is_given_or_read_from_its_title(tmp_path):
    """The site's game filter has a phone's few centimetres: the manifest's short_title, else the
    title without its subtitle."""
    assert load(tmp_path, GOOD.replace('title = "Démo"', 'title = "Démo"\nshort_title = "DM"', 1)).short_label == "DM"
    assert load(tmp_path, GOOD.replace('title = "Démo"', 'title = "Démo : le jeu de figurines"', 1)).short_label == "Démo"
    assert load(tmp_path, GOOD.replace('title = "Démo"', 'title = "La Démo — Jeu à Échanger"', 1)).short_label == "La Démo"
    assert load(tmp_path, GOOD.replace('title = "Démo"', 'title = "Anti-Démo"', 1)).short_label == "Anti-Démo"
    assert load(tmp_path, GOOD).short_label == "Démo"


@pytest.mark.parametrize(("change", "expected"), [
    (('title = "Démo"\n', ""), "corpus/demo/game.toml: missing required key 'title' in game"),
    (('title = "Démo"', 'title = "Démo"\ncolour = "red"'), "corpus/demo/game.toml:3: unknown key 'colour' in game"),
    (('id = "demo"', 'id = "Démo"'), "corpus/demo/game.toml:1: game id 'Démo' must be lowercase letters, digits and hyphens"),
    (('id = "demo"', 'id = "autre"'), "corpus/demo/game.toml:1: game id 'autre' does not match its folder 'demo'"),
    (('id = "regles"', 'id = "Règles"'), "corpus/demo/game.toml:8: document id 'Règles' is not URL-safe"),
    (('kind = "rulebook"', 'kind = "roman"'), "corpus/demo/game.toml:8: unknown document kind 'roman'"),
    (('source = "source.txt"\nprofile', 'source = "autre.txt"\nprofile'),
     "corpus/demo/game.toml:8: document 'regles' uses 'autre.txt', which no [[sources]] entry declares with its sha256"),
    (("lines = [3, 40]", 'lines = [3, "fin"]'), "corpus/demo/game.toml:14: lines must be [first, last] line numbers"),
    (('outline = ["# Règles"]', 'contour = ["# Règles"]'), "corpus/demo/game.toml:17: unknown option 'contour' for profile 'headed-prose'"),
    (('outline = ["# Règles"]', 'sidebar_pattern = "(exemple"'),
     "corpus/demo/game.toml:17: option 'sidebar_pattern' is for ocr-columns, not for profile 'headed-prose'"),
    (('why = "Les règles priment."', ""), "corpus/demo/game.toml:19: missing required key 'why' in [[precedence]]"),
    (('profile = "headed-prose"\n', ""), "corpus/demo/game.toml:15: document 'regles' has options but no profile"),
    (('id = "regles"', 'id = "errata"'), "corpus/demo/game.toml:8: document id 'errata' is reserved: the site uses demo/errata/ itself"),
    (('sha256 = "ABC"', 'sha256 = "ABC"\nencoding = "klingon"'), "corpus/demo/game.toml:7: unknown text encoding 'klingon'"),
    (('sha256 = "ABC"', 'sha256 = "ABC"\nencoding = "rot13"'), "corpus/demo/game.toml:7: unknown text encoding 'rot13'"),
    (('sha256 = "ABC"', 'sha256 = "ABC"\nencoding = 1252'), "corpus/demo/game.toml:7: encoding must be the name of a text encoding"),
    (('why = "Les règles priment."', 'why = "Les règles priment."\nunder_words = 2'),
     "corpus/demo/game.toml:23: 'under_words' in [[precedence]] must be a str"),
    (('title = "Démo"', "title = 3"), "corpus/demo/game.toml:2: 'title' in game must be a str"),
    (('title = "Démo"', 'title = "Démo"\nshort_title = "Un nom bien trop long"'),
     "corpus/demo/game.toml:3: short_title must be 1 to 16 characters"),
    (('title = "Démo"', 'title = "Démo"\nshort_title = " "'), "corpus/demo/game.toml:3: short_title must be 1 to 16"),
])
def test_manifest_mistakes_name_the_line(tmp_path, change, expected):
    old, new = change
    with pytest.raises(InputError) as caught:
        load(tmp_path, GOOD.replace(old, new, 1))
    assert str(caught.value).startswith(expected), str(caught.value)


def test_a_manifest_without_documents(tmp_path):
    with pytest.raises(InputError, match=r"^corpus/demo/game.toml: declares no \[\[documents\]\]$"):
        load(tmp_path, GOOD.split("[[documents]]")[0])


def test_duplicate_document_ids_name_the_second(tmp_path):
    twin = '\n[[documents]]\nid = "regles"\ntitle = "Bis"\nkind = "rulebook"\nsource = "source.txt"\nprofile = "faq"\n'
    with pytest.raises(InputError, match=r"^corpus/demo/game.toml:24: duplicate document id 'regles'$"):
        load(tmp_path, GOOD + twin)


@pytest.mark.parametrize("game_id", ["api", "assets", "schema"])
def test_a_game_id_the_build_uses_itself_is_refused(tmp_path, game_id):
    """build/site/api/, build/site/assets/, build/data/schema.json: a game of that name would mix
    its pages or data with the build's own files."""
    expected = rf"^corpus/{game_id}/game.toml:1: game id '{game_id}' is reserved for the build's own files"
    with pytest.raises(InputError, match=expected):
        load(tmp_path, GOOD.replace('id = "demo"', f'id = "{game_id}"', 1), folder=game_id)


def test_a_document_without_profile_is_left_for_the_build_to_guess(tmp_path):
    text = GOOD.replace('profile = "headed-prose"\n', "").replace('[documents.options]\noutline = ["# Règles"]\n', "")
    doc = load(tmp_path, text).documents[0]
    assert (doc.profile, doc.options) == ("", None)


def test_a_source_may_declare_its_encoding(tmp_path):
    game = load(tmp_path, GOOD.replace('sha256 = "ABC"', 'sha256 = "ABC"\nencoding = "Windows-1252"', 1))
    assert game.source_encodings == {"corpus/demo/source.txt": "cp1252"}
    assert game.source_lines == {"corpus/demo/source.txt": 4}
    pdf = GOOD.replace('source.txt"\nsha256 = "ABC"', 'livre.pdf"\nsha256 = "ABC"\nencoding = "latin-1"', 1)
    with pytest.raises(InputError, match=r"^corpus/demo/game.toml:7: encoding applies to a text or Markdown source"):
        load(tmp_path, pdf.replace('source = "source.txt"', 'source = "livre.pdf"'))


# Hostile manifests (issue 38): ids checked whole and bounded, loading linear, nesting named.


@pytest.mark.parametrize(("change", "expected"), [
    (('id = "regles"', 'id = "regles\\n"'), r"^corpus/demo/game.toml:8: document id 'regles\\n' is not URL-safe"),
    (('id = "regles"', f'id = "{"r" * 10_000}"'), r"^corpus/demo/game.toml:8: document id 'r+… is longer than 64 characters"),
])
def test_a_document_id_is_checked_whole_and_bounded(tmp_path, change, expected):
    """`$` matched before a final newline: "regles\\n" passed, then failed inside MkDocs naming no
    manifest; a 10,000-character id failed late, as a file name too long."""
    with pytest.raises(InputError, match=expected):
        load(tmp_path, GOOD.replace(*change, 1))


def test_a_game_id_is_checked_whole_and_bounded(tmp_path):
    with pytest.raises(InputError, match=r"^corpus/demo\n/game.toml:1: game id 'demo\\n' must be lowercase"):
        load(tmp_path, GOOD.replace('id = "demo"', 'id = "demo\\n"', 1), folder="demo\n")
    long = "d" * 200
    with pytest.raises(InputError, match=rf"^corpus/{long}/game.toml:1: game id 'd+… is longer than 64 characters"):
        load(tmp_path, GOOD.replace('id = "demo"', f'id = "{long}"', 1), folder=long)


def test_thousands_of_sources_load_in_linear_time(tmp_path):
    """One scan of the manifest per [[sources]] made 8,000 of them take 164 s: eight times more
    sources now cost about eight times the CPU, not sixty-four (from 200 to 1,600 sources: that
    quadratic scan cost 6 s at 1,600, ×64 the 200's, where a linear load measures ×8)."""

    def sources(count: int) -> str:
        return "".join(f'[[sources]]\nfile = "s{n}.txt"\nsha256 = "{n:064x}"\nencoding = "latin-1"\n\n' for n in range(count))

    def load_with(count: int) -> None:
        game = load(tmp_path / str(count), GOOD.replace("[[sources]]", sources(count) + "[[sources]]", 1))
        assert len(game.sources) == count + 1
        assert game.source_lines[f"corpus/demo/s{count - 1}.txt"] == 4 + 5 * (count - 1)

    assert cpu_growth(load_with, 200) < 20  # ×2.5 per doubling at most


def test_deeply_nested_arrays_are_a_named_error(tmp_path):
    """tomllib recurses per level: "unexpected RecursionError" named no file."""
    with pytest.raises(InputError, match=r"^corpus/demo/game.toml:\d+: .*nested"):
        load(tmp_path, GOOD + "deep = " + "[" * 100_000 + "]" * 100_000 + "\n")


def test_the_lines_of_a_source_with_a_byte_order_mark_are_counted_in_its_encoding(tmp_path):
    """A UTF-16 source with its mark is read as UTF-16: its lines are counted so too."""
    import hashlib

    from extract.corpus.manifest import check_sources

    data = "Titre\n\nUn paragraphe.\n\nSection\n\nUn autre.\n".encode("utf-16")
    (tmp_path / "corpus/demo").mkdir(parents=True)
    (tmp_path / "corpus/demo/source.txt").write_bytes(data)
    text = GOOD.replace('sha256 = "ABC"', f'sha256 = "{hashlib.sha256(data).hexdigest()}"').replace("lines = [3, 40]", "lines = [3, 7]")
    check_sources(load(tmp_path, text), tmp_path)
    with pytest.raises(InputError, match=r"lines \[3, 8\] go beyond the 7 lines of source.txt"):
        check_sources(load(tmp_path, text.replace("lines = [3, 7]", "lines = [3, 8]")), tmp_path)
