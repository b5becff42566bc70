"""Large inputs, for `make bench`: generated sources of 1, 5 and 20 MB of varied French rule text,
each built in a process of its own with an empty NLP cache; seconds per MB and peak memory.
The cost must be linear (per MB at 20 MB within 1.2× per MB at 1 MB) and the peak at most 2 GB.

    python -m tools.bench_scale 1 5 20
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.conftest import make_corpus
from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1, 5, 20)
LINEAR = 1.2  # cost per MB at the largest size, at most this times the cost per MB at the smallest
PEAK_MB = 2048

SUBJECTS = ["l'unité", "la figurine", "le joueur actif", "chaque combattant", "le héros", "une escouade", "le chef",
            "la cavalerie", "l'archer", "le monstre", "la bannière", "le défenseur", "l'attaquant", "le sorcier"]
VERBS = ["se déplace de", "attaque à", "recule de", "peut tirer à", "lance un dé à", "gagne un jeton à",
         "perd une blessure à", "se désengage à", "charge à", "défend à", "soigne un allié à", "pivote à"]
PLACES = ["portée {n}", "{n} cases", "{n} pouces", "la case adjacente", "la zone de déploiement", "l'obstacle le plus proche"]
CLAUSES = ["si la ligne de vue est dégagée", "pendant la phase d'activation", "sauf si un effet l'en empêche",
           "à la fin du round", "lorsqu'elle est engagée", "tant que le moral tient", "avant de résoudre le combat",
           "après avoir dépensé un point d'action", "quand le terrain est difficile", "si aucune carte n'est jouée"]
TOPICS = ["Mouvement", "Combat", "Moral", "Tir", "Terrain", "Activation", "Magie", "Déploiement", "Victoire", "Réserves",
          "Objectifs", "Blessures", "Réactions", "Initiative", "Ravitaillement", "Fortifications"]


def sentence(rng: random.Random) -> str:
    place = rng.choice(PLACES).format(n=rng.randint(1, 12))
    text = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {place} {rng.choice(CLAUSES)}"
    if rng.random() < 0.4:
        text += f", puis {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(PLACES).format(n=rng.randint(1, 12))}"
    return text[0].upper() + text[1:] + "."


def generate(megabytes: float, seed: int = 1) -> str:
    """Varied French rule text: topics with numbered paragraphs, about `megabytes` MB of UTF-8."""
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    parts: list[str] = []
    size = 0
    topic = 0
    while size < target:
        topic += 1
        heading = f"{rng.choice(TOPICS)} {topic}"
        parts.append(heading)
        size += len(heading.encode()) + 2
        for _ in range(rng.randint(3, 8)):
            paragraph = " ".join(sentence(rng) for _ in range(rng.randint(2, 6)))
            parts.append(paragraph)
            size += len(paragraph.encode()) + 2
    return "\n\n".join(parts) + "\n"


def corpus(megabytes: float) -> Path:
    """A one-game corpus (the tests' `make_corpus`) whose source is `megabytes` of generated French."""
    root = Path(tempfile.mkdtemp(prefix="regles-scale-"))
    return make_corpus(root, generate(megabytes))


CHILD = """
import json, sys, time
from pathlib import Path
from tools.peak import own_peak_kib, watch
watch()
from extract.pipeline import build
root = Path(sys.argv[1])
start = time.perf_counter()
result = build(root, root / "build", cache=root / "cache" / "lemmas.sqlite")
seconds = time.perf_counter() - start
peak = own_peak_kib()
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "entries": result.entry_count,
                  "stages": {k: round(v, 2) for k, v in result.stages.items()}}))
"""


def measure(megabytes: float) -> dict:
    """One build of a generated source of `megabytes` MB, empty NLP cache, in a process of its own."""
    root = corpus(megabytes)
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(root)], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"build of {megabytes} MB failed: {done.stderr.strip()[-500:]}")
        found = json.loads(done.stdout.strip().splitlines()[-1])
        found["mb"] = (root / "corpus/demo/source.txt").stat().st_size / 1_000_000
        return found
    finally:
        shutil.rmtree(root, ignore_errors=True)


def report(sizes: tuple[float, ...] = SIZES) -> dict[str, bool]:
    """Build each size, print seconds per MB and peak memory, return the checks."""
    rows = []
    for size in sizes:
        row = measure(size)
        rows.append(row)
        print(f"generated source {row['mb']:.1f} MB: {row['entries']} entries in {row['seconds']:.1f}s = "
              f"{row['seconds'] / row['mb']:.1f} s/MB, peak memory {row['peak_mb']:.0f} MiB ({row['stages']})", flush=True)
    small, large = rows[0], rows[-1]
    ratio = (large["seconds"] / large["mb"]) / (small["seconds"] / small["mb"])
    peak = max(row["peak_mb"] for row in rows)
    return {
        f"large inputs: cost per MB at {large['mb']:.0f} MB = x{ratio:.2f} the cost per MB at {small['mb']:.0f} MB "
        f"(linear: at most x{LINEAR})": ratio <= LINEAR,
        f"large inputs: peak memory {peak:.0f} MiB (at most {PEAK_MB} MiB)": peak <= PEAK_MB,
    }


if __name__ == "__main__":
    checks = report(tuple(float(x) for x in sys.argv[1:]) or SIZES)
    sys.exit(verdict(checks))
