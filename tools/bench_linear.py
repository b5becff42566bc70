"""Pathological documents, for `make bench` (issue 37): what a bad conversion or a hostile writer leaves
(contents leaders of dots and glyphs, runs of spaces, digits, brackets, French quotes, "de la section"
repeated, long lines) at 1 and 10 MB, through `regles extract`, `regles errata --from`, `regles build`
and `regles search`, each command in a process of its own. The cost must be linear (10 MB at most
12× 1 MB) with a peak memory of at most 1 GB, and no command may end in a traceback.

    python -m tools.bench_linear 1 10
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.conftest import make_corpus
from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1.0, 10.0)
GROWTH = 12.0  # the largest size may cost at most this many times the smallest (for 10× the input)
PEAK_MB = 1024

# Each a line a bad conversion leaves, `{n}` a run length: (what it is, how it is written).
LINES = (
    ("contents leader", "## Combat {dots} {page}"),
    ("glyph leader", "Mouvement {glyphs} {page}"),
    ("spaces", "Le joueur{spaces}avance de {page} cases."),
    ("digits", "Le total est {digits} points."),
    ("brackets", "Voir {brackets} la règle."),
    ("quotes", "voir « {quotes} » page {page}"),
    ("sections", "Remplacez {sections}le texte par « ceci »."),
    ("cid", "Le{cid}joueur"),
    ("long paragraph", "{paragraph}"),
)


def _runs(rng: random.Random, length: int) -> dict[str, str]:
    return {"dots": "·" * length, "glyphs": "… " * (length // 2), "spaces": " " * length, "digits": "1" * length,
            "brackets": "[" * length, "quotes": " " * length, "sections": "de la section " * (length // 14 + 1),
            "cid": "(cid:3)" * (length // 7 + 1), "page": str(rng.randint(1, 300)),
            "paragraph": " ".join(rng.choice(("règle", "1.2", "«", "»", "(", "[", "·" * 9)) for _ in range(length // 4))}


def _grown(megabytes: float, part: Callable[[int], str], counted: int) -> list[str]:
    """Parts `part(1)`, `part(2)`… until they add up to `megabytes` MB, each counted with
    `counted` bytes of the separator that will join them."""
    target = int(megabytes * 1_000_000)
    parts: list[str] = []
    size = 0
    while size < target:
        parts.append(part(len(parts) + 1))
        size += len(parts[-1].encode()) + counted
    return parts


def generate(megabytes: float, seed: int = 7) -> str:
    """A Markdown document of about `megabytes` MB: ordinary headings and rules between the
    pathological lines, runs of 50 to 20,000 characters."""
    rng = random.Random(seed)

    def section(n: int) -> str:
        kind, template = LINES[n % len(LINES)]
        length = rng.choice((50, 400, 2_000, 20_000)) if n % 7 else 50
        line = template.format(**_runs(rng, length))
        return f"## Section {n}\n\nLa règle {n} s'applique.\n\n{line}"

    return "\n\n".join(_grown(megabytes, section, 2)) + "\n"


ERRATA = """# Errata

Page {n}, section 3.{n} : remplacez « {quotes} » par « ceci ».
Dans le deuxième paragraphe de la section {sections}Combat, ajoutez à la fin : « {quotes} ».
"""


def generate_errata(megabytes: float, seed: int = 7) -> str:
    """An errata text of about `megabytes` MB whose instructions carry pathological runs."""
    rng = random.Random(seed)

    def instructions(n: int) -> str:
        runs = _runs(rng, rng.choice((50, 400, 2_000)))
        return ERRATA.format(n=n, quotes=runs["quotes"] + "texte", sections=runs["sections"])

    return "\n".join(_grown(megabytes, instructions, 0))


CHILD = """
import json, sys, time, io, contextlib, resource
from tools.peak import own_peak_kib, watch
watch()
from extract.cli import main

def cpu():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime

out, err = io.StringIO(), io.StringIO()
start, start_cpu = time.perf_counter(), cpu()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    code = main(sys.argv[1:])
seconds, cpu_seconds = time.perf_counter() - start, cpu() - start_cpu
print(json.dumps({"seconds": seconds, "cpu": cpu_seconds, "peak_mb": own_peak_kib() / 1024, "code": code,
                  "traceback": "Traceback" in err.getvalue() or "unexpected" in err.getvalue(),
                  "err": err.getvalue()[-300:]}))
"""


def run(args: list[str]) -> dict:
    """One `regles` command in a process of its own: seconds, peak memory, exit code."""
    done = subprocess.run([sys.executable, "-c", CHILD, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        return {"seconds": float("inf"), "cpu": float("inf"), "peak_mb": float("inf"), "code": done.returncode, "traceback": True,
                "err": done.stderr[-300:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(megabytes: float) -> dict[str, dict]:
    """Each command on the documents of `megabytes` MB."""
    root = Path(tempfile.mkdtemp(prefix="regles-linear-"))
    try:
        text = generate(megabytes)
        document = root / "pathological.md"
        document.write_text(text, encoding="utf-8")
        errata = root / "errata.md"
        errata.write_text(generate_errata(megabytes), encoding="utf-8")
        corpus = make_corpus(root / "game", text)
        return {
            "extract": run(["extract", str(document), "--json"]),
            "errata --from": run(["errata", "--from", str(errata), "--json"]),
            "build": run(["--root", str(corpus), "build"]),
            "search": run(["--root", str(corpus), "search", "combat section règle", "--json"]),
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def refusal(row: dict) -> str:
    """The one line of a command that refused its input (exit 1, no traceback), or ""."""
    lines = row["err"].strip().splitlines()
    return lines[-1] if row["code"] == 1 and not row["traceback"] and len(lines) == 1 else ""


def report(sizes: tuple[float, ...] = SIZES) -> dict[str, bool]:
    """Each command at each size; the checks: growth, peak memory, no traceback."""
    rows = {size: measure(size) for size in sizes}
    checks: dict[str, bool] = {}
    small, large = sizes[0], sizes[-1]
    for command in rows[small]:
        for size in sizes:
            row = rows[size][command]
            failure = " " + row["err"].strip().splitlines()[-1] if row["traceback"] and row["err"].strip() else ""
            print(f"pathological {size:g} MB, regles {command}: {row['seconds']:.1f}s ({row['cpu']:.1f}s of CPU), "
                  f"peak {row['peak_mb']:.0f} MiB, exit {row['code']}{failure}", flush=True)
        # CPU seconds (the command's process and its children): on a shared machine the wall clock
        # measures the neighbours as much as the command
        ratio = rows[large][command]["cpu"] / max(rows[small][command]["cpu"], 1e-9)
        peak = max(rows[size][command]["peak_mb"] for size in sizes)
        refused = refusal(rows[large][command])
        if refused:  # a declared size limit, said in one line: nothing read, nothing to compare
            checks[f"pathological input: regles {command} at {large:g} MB refused in one line ({refused})"] = True
        else:
            checks[f"pathological input: regles {command} at {large:g} MB = x{ratio:.1f} the CPU time at {small:g} MB "
                   f"(at most x{GROWTH:g})"] = ratio <= GROWTH
        checks[f"pathological input: regles {command} peak memory {peak:.0f} MiB (at most {PEAK_MB})"] = peak <= PEAK_MB
        checks[f"pathological input: regles {command} ends without a traceback"] = not any(
            rows[size][command]["traceback"] for size in sizes)
    return checks


if __name__ == "__main__":
    checks = report(tuple(float(x) for x in sys.argv[1:]) or SIZES)
    sys.exit(verdict(checks))
