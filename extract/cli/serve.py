"""`regles serve`: build/site/ on 127.0.0.1, for looking at it (and for the browser tests).

A threaded server with a real backlog and a timeout per connection (a client that opens a
connection and says nothing is dropped), no directory listings, the site's own 404 page, and a
bad path (a NUL byte, an encoding no file name has) answered 400, never a traceback. Text files
(HTML, CSS, JavaScript, JSON) are sent gzipped to a client that accepts it, as any static host
sends them: a rule page's first paint on a slow phone depends on it (`make bench`).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import os
import socket
import sys
from pathlib import Path
from typing import Any

from extract.errors import RegleError

BACKLOG = 512  # connections the kernel queues before the server accepts them
TIMEOUT = 10.0  # seconds a connection may stay silent
COMPRESSED = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt")


@functools.lru_cache(maxsize=512)
def gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    """A file's bytes gzipped (no time stamp), once per version of the file."""
    with open(path, "rb") as handle:
        return gzip.compress(handle.read(), compresslevel=6, mtime=0)


def accepts_gzip(header: str | None) -> bool:
    """Whether an Accept-Encoding header takes gzip (RFC 9110 12.5.3): "gzip" or "*" with a
    weight above 0, an explicit "gzip" deciding over "*" ("*;q=0, gzip" takes it, "gzip;q=0"
    does not); a weight that is not a number refuses."""
    weights: dict[str, float] = {}
    for part in (header or "").split(","):
        name, *params = (piece.strip().lower() for piece in part.split(";"))
        weight = 1.0
        for param in params:
            if param.startswith("q="):
                try:
                    weight = float(param[2:])
                except ValueError:
                    weight = 0.0
        if name in ("gzip", "x-gzip", "*"):
            weights[name] = weight
    for name in ("gzip", "x-gzip", "*"):
        if name in weights:
            return weights[name] > 0
    return False


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    site: Path
    quiet = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(self.site), **kwargs)

    def list_directory(self, path: str | Path) -> None:  # a folder without index.html: not found
        self.send_error(404)
        return None

    def send_head(self) -> Any:
        if "\x00" in self.path or "%00" in self.path.lower():
            self.send_error(400, "Bad path")
            return None
        try:
            return self.send_gzipped() or super().send_head()
        except (ValueError, OSError):  # a name no file can have (bad encoding), or a file that cannot be read
            self.send_error(400, "Bad path")
            return None

    def send_gzipped(self) -> io.BytesIO | None:
        """A text file, gzipped, when the client accepts it; None to let the standard handler answer
        (anything else, a folder without its slash, a file that is not there)."""
        if not accepts_gzip(self.headers.get("Accept-Encoding")):
            return None
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
                return None  # the standard handler redirects to the slash
            path = os.path.join(path, "index.html")
        if not path.endswith(COMPRESSED) or not os.path.isfile(path):
            return None
        stat = os.stat(path)
        body = gzipped(path, stat.st_mtime_ns, stat.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = self.site / "404.html"
        if code != 404 or not page.is_file() or self.command == "HEAD":
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    request_queue_size = BACKLOG
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:  # one line, never a traceback
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError, socket.timeout)):
            print(f"serve: {client_address[0]}: {type(error).__name__}: {error}", file=sys.stderr)


def cannot_listen(port: int, error: OSError) -> RegleError:
    """The one line a port no server can listen on gives: exit 1 (the machine's state, not bad usage)."""
    return RegleError(f"regles serve: cannot listen on 127.0.0.1:{port} ({error.strerror or error})")


def check_port(port: int) -> None:
    """Fail now, before any build, when 127.0.0.1:`port` is taken: a socket bound as the servers
    bind theirs (address reuse on), then closed."""
    if port == 0:  # any free port
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            raise cannot_listen(port, error) from None


def make_server(site: Path, port: int, timeout: float = TIMEOUT, quiet: bool = False) -> SiteServer:
    """A server for `site` on 127.0.0.1:`port` (0: any free port), not yet serving."""
    handler = type("Handler", (SiteHandler,), {"site": site, "timeout": timeout, "quiet": quiet})
    return SiteServer(("127.0.0.1", port), handler)
