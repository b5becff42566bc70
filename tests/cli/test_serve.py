"""`regles serve`: a validated port, no directory listings, the site's own 404 page, bad paths
answered 400 without a traceback, silent connections dropped. (The load test is in `make bench`:
tools/load.py.)"""

from __future__ import annotations

import http.client
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from extract.cli import main
from extract.cli.serve import BACKLOG, make_server


@pytest.fixture
def site(tmp_path) -> Path:
    site = tmp_path / "build" / "site"
    (site / "regles").mkdir(parents=True)
    (site / "assets").mkdir()
    (site / "index.html").write_text("<p>accueil</p>", encoding="utf-8")
    (site / "404.html").write_text("<p>page introuvable (regles)</p>", encoding="utf-8")
    (site / "regles" / "index.html").write_text("<p>règles</p>", encoding="utf-8")
    (site / "assets" / "forms.js").write_text("window.REGLES_FORMS = new Map([]);", encoding="utf-8")
    return site


@pytest.fixture
def server(site, capsys) -> Iterator[tuple[str, int]]:
    running = make_server(site, 0, timeout=0.5, quiet=True)
    # polled every 20 ms, not 0.5 s: shutdown() waits for the next poll
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield running.server_address
    running.shutdown()
    running.server_close()
    assert "Traceback" not in capsys.readouterr().err


def get(address, path: str) -> tuple[int, bytes]:
    """GET `path` as sent, byte for byte (http.client refuses a raw NUL)."""
    with socket.create_connection(address, timeout=5) as raw:
        raw.sendall(f"GET {path} HTTP/1.0\r\nHost: x\r\n\r\n".encode("latin-1"))
        response = http.client.HTTPResponse(raw)
        response.begin()
        return response.status, response.read()


def test_pages_and_the_sites_own_404(server):
    assert get(server, "/") == (200, b"<p>accueil</p>")
    assert get(server, "/regles/")[0] == 200
    status, body = get(server, "/nulle-part/")
    assert status == 404 and b"page introuvable (regles)" in body


def test_no_directory_listing(server):
    status, body = get(server, "/assets/")
    assert status == 404 and b"forms.js" not in body and b"Directory listing" not in body


@pytest.mark.parametrize("path", ["/%00", "/regles/%00index.html", "/a\x00b", "/%ff%fe/", "/..%2f..%2fetc/passwd"])
def test_bad_paths_are_answered_without_a_traceback(server, path):
    status, body = get(server, path)
    assert status in (400, 404) and b"root:" not in body


def test_a_silent_connection_is_dropped(server):
    quiet = socket.create_connection(server, timeout=30)
    assert quiet.recv(1) == b""  # the server closes it after its timeout (0.5 s here); else recv times out
    quiet.close()
    assert get(server, "/")[0] == 200


def test_the_backlog_is_real(site):
    running = make_server(site, 0, quiet=True)
    assert running.request_queue_size == BACKLOG >= 128
    running.server_close()


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_a_bad_port_is_one_line(site, capsys, port):
    root = site.parent.parent
    assert main(["--root", str(root), "serve", "--port", port]) == 2
    err = capsys.readouterr().err
    assert "not a port number (1 to 65535)" in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def get_with(address, path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection(*address, timeout=5)
    connection.request("GET", path, headers=headers)
    return connection.getresponse()


@pytest.mark.parametrize(("path", "file"), [("/", "index.html"), ("/regles/", "regles/index.html"),
                                            ("/assets/forms.js", "assets/forms.js")])
def test_text_is_gzipped_for_a_client_that_accepts_it(server, site, path, file):
    import gzip

    response = get_with(server, path, {"Accept-Encoding": "gzip, deflate"})
    body = response.read()
    assert response.status == 200 and response.headers["Content-Encoding"] == "gzip"
    assert response.headers["Vary"] == "Accept-Encoding" and int(response.headers["Content-Length"]) == len(body)
    assert gzip.decompress(body) == (site / file).read_bytes() and body[4:8] == b"\0\0\0\0"  # no time stamp
    for refused in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0"}):
        plain = get_with(server, path, refused)
        assert plain.headers.get("Content-Encoding") is None and plain.read() == (site / file).read_bytes()


def test_gzip_leaves_redirects_and_missing_files_to_the_standard_answers(server):
    assert get_with(server, "/regles", {"Accept-Encoding": "gzip"}).status == 301
    missing = get_with(server, "/nulle-part.js", {"Accept-Encoding": "gzip"})
    assert missing.status == 404 and b"page introuvable (regles)" in missing.read()


@pytest.mark.parametrize(("header", "takes"), [
    ("gzip", True), ("gzip, deflate, br", True), ("*", True), ("x-gzip", True), ("GZIP;Q=0.5", True),
    ("*;q=0, gzip", True), ("gzip;q=1;x=y", True), ("gzip;level=9;q=0", False), ("gzip;q=0, *", False),
    ("gzip;q=abc", False), ("identity", False), ("", False), (None, False), ("deflate, *;q=0", False)])
def test_accept_encoding_is_read_with_its_weights(header, takes):
    from extract.cli.serve import accepts_gzip

    assert accepts_gzip(header) is takes


def test_a_busy_port_is_one_line_and_exit_1(site, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--root", str(site.parent.parent), "serve", "--port", str(port)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"error: regles serve: cannot listen on 127.0.0.1:{port} (Address already in use)"]
