"""A bounded load test of `regles serve`, for `make bench` (never in the unit tests): the site
served by `regles serve` in a process of its own on 127.0.0.1, 200 clients in parallel for 10 s,
each fetching pages one after the other; p50/p99 latency and errors. Loopback only.

    python -m tools.load build/site
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 200
SECONDS = 10.0
P99_TARGET = 1.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pages(site: Path, limit: int = 50) -> list[str]:
    found = ["/", "/404.html", "/nulle-part/"]
    for page in sorted(site.rglob("index.html"))[:limit]:
        found.append("/" + str(page.parent.relative_to(site)).strip(".") + "/" if page.parent != site else "/")
    return found


def run(site: Path, clients: int = CLIENTS, seconds: float = SECONDS) -> dict[str, float]:
    """Serve `site` with `regles serve`, load it, stop it; latencies in seconds."""
    port = free_port()
    code = "from extract.cli import main; import sys; sys.exit(main(sys.argv[1:]))"
    server = subprocess.Popen([sys.executable, "-c", code, "--root", str(site.parent.parent), "serve", "--port", str(port)],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"regles serve ended (exit {server.returncode}): is {site} a built site?")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        paths = pages(site)
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        stop = time.monotonic() + seconds

        def client(n: int) -> None:
            i = n
            while time.monotonic() < stop:
                path = paths[i % len(paths)]
                i += 1
                start = time.perf_counter()
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    connection.request("GET", path)
                    response = connection.getresponse()
                    response.read()
                    connection.close()
                    ok = response.status in (200, 404)
                except OSError as exc:
                    ok = False
                    path = f"{path}: {exc}"
                took = time.perf_counter() - start
                with lock:
                    latencies.append(took)
                    if not ok:
                        errors.append(path)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.terminate()
        server.wait(10)
    latencies.sort()

    def quantile(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("inf")

    if errors:
        print(f"first error: {errors[0]}", flush=True)
    return {"requests": len(latencies), "errors": len(errors), "p50": quantile(0.50), "p99": quantile(0.99),
            "per_second": len(latencies) / seconds}


def report(site: Path) -> dict[str, bool]:
    found = run(site)
    print(f"regles serve under load: {CLIENTS} clients for {SECONDS:.0f}s on 127.0.0.1, {found['requests']} requests "
          f"({found['per_second']:.0f}/s), {found['errors']} errors, p50 {found['p50'] * 1000:.0f} ms, "
          f"p99 {found['p99'] * 1000:.0f} ms", flush=True)
    return {f"serve p99 {found['p99'] * 1000:.0f} ms with {CLIENTS} clients (target <= {P99_TARGET * 1000:.0f} ms), "
            f"{found['errors']} errors": found["p99"] <= P99_TARGET and found["errors"] == 0}


if __name__ == "__main__":
    checks = report(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "site").absolute())
    sys.exit(0 if all(checks.values()) else 1)
