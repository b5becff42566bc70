"""The cold NLP pass against a plain baseline, both in fresh processes on the same texts: the
build's `nlp` stage with an empty lemma cache (spaCy load, tagging, cache writes) against one
process running `nlp.pipe` over the same pieces with the same components (the model loaded with
the same exclusions), spaCy's import and load included in both. Checked: cold ≤ 1.0× baseline.

    python -m tools.bench_nlp
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.verdict import verdict

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.0

TEXTS = """
import json, sys, time
from pathlib import Path
from extract.pipeline import Stopwatch, amend, nlp_texts, read_games
games = read_games(Path(sys.argv[1]), Stopwatch(), lambda m: None)
amend(games)
Path(sys.argv[2]).write_text(json.dumps(sorted(set(nlp_texts(games)))), encoding="utf-8")
"""

COLD = """
import json, sys, time
from pathlib import Path
from extract.nlp import Lemmatizer
texts = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
start = time.perf_counter()
Lemmatizer(Path(sys.argv[2])).tokens(texts)
print(json.dumps(time.perf_counter() - start))
"""

PLAIN = """
import json, sys, time
from pathlib import Path
from extract.nlp import EXCLUDED, MODEL, split_text
texts = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
pieces = [piece for text in texts for _, piece in split_text(text)]
start = time.perf_counter()
import spacy
nlp = spacy.load(MODEL, exclude=EXCLUDED)
docs = [[(w.text, w.lemma_, w.pos_) for w in doc] for doc in nlp.pipe(pieces)]
print(json.dumps(time.perf_counter() - start))
"""


def child(code: str, *args: str) -> float | None:
    done = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else None


def measure(root: Path = ROOT, repeat: int = 2) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="regles-nlp-") as folder:
        texts = Path(folder) / "texts.json"
        child(TEXTS, str(root), str(texts))
        cold, plain = [], []
        for n in range(repeat):  # alternated: a slow moment of the machine falls on both
            cold.append(child(COLD, str(texts), str(Path(folder) / f"cold-{n}" / "lemmas.sqlite")))
            plain.append(child(PLAIN, str(texts)))
        count = len(json.loads(texts.read_text(encoding="utf-8")))
    return {"cold": min(cold), "plain": min(plain), "texts": count}


def report() -> dict[str, bool]:
    found = measure()
    ratio = found["cold"] / found["plain"]
    print(f"  {found['texts']} texts: cold NLP pass {found['cold']:.2f}s, plain one-process nlp.pipe {found['plain']:.2f}s")
    return {f"cold NLP pass {found['cold']:.2f}s = {ratio:.2f}x a plain nlp.pipe {found['plain']:.2f}s (target <= {TARGET})":
            ratio <= TARGET}


def main() -> int:
    checks = report()
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
