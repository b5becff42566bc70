"""`regles serve`: build/site/ on 127.0.0.1, for looking at it (and for the browser tests).

A threaded server with a real backlog and a timeout per connection (a client that opens a
connection and says nothing is dropped), no directory listings, the site's own 404 page, and a
bad path (a NUL byte, an encoding no file name has) answered 400, never a traceback.
"""

from __future__ import annotations

import http.server
import socket
import sys
from pathlib import Path
from typing import Any

BACKLOG = 512  # connections the kernel queues before the server accepts them
TIMEOUT = 10.0  # seconds a connection may stay silent


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
            return super().send_head()
        except (ValueError, OSError):  # a name no file can have (bad encoding), or a file that cannot be read
            self.send_error(400, "Bad path")
            return None

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


def make_server(site: Path, port: int, timeout: float = TIMEOUT, quiet: bool = False) -> SiteServer:
    """A server for `site` on 127.0.0.1:`port` (0: any free port), not yet serving."""
    handler = type("Handler", (SiteHandler,), {"site": site, "timeout": timeout, "quiet": quiet})
    return SiteServer(("127.0.0.1", port), handler)
