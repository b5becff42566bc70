"""Scores the errata reader on ../shared/external/errata-devset (gold.json, scoring rule in its README).

A predicted operation matches a gold one of the same kind whose line is within ±3, each gold
operation matched at most once, the closest line first. Printed: recall, precision, F1; silent
drops (gold operations with neither a reading nor a not-understood passage within ±3 lines);
clarifications taken for errata (false positives within ±3 lines of a `not_errata` line); the
same figures on the files held out (HELD_OUT), a rough estimate on publishers never seen.
`--json` prints the figures as JSON; `--detail` every miss.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extract.errata.reader import ErrataReading, read_errata_text  # noqa: E402

DEVSET = ROOT.parent / "shared" / "external" / "errata-devset"
# Files whose misses were not used to write the cues, scored apart as a rough estimate on unseen
# publishers. They were read once before the work began, and 13 was looked at while fixing, so the
# estimate is optimistic.
HELD_OUT = ("03-trone-de-fer-jce-faq-2011.txt", "11-mythic-battles-pantheon-faq-vf.txt",
            "13-yugioh-nouvelle-terminologie.txt", "15-magic-porte-de-baldur-oracle.txt")
WINDOW = 3
# Targets of issue 31, for publishers never seen; the devset figures are checked against them.
RECALL, PRECISION, SECONDS_10_PAGES = 0.85, 0.95, 2.0
PAGE_CHARACTERS = 3000  # a page of an FAQ, for the speed check


def score_file(reading: ErrataReading, gold: dict) -> dict[str, object]:
    predicted = [(r.line, r.kind) for r in reading.read]
    ops = [(g["line"], g["op"]) for g in gold["ops"]]
    matched_gold: set[int] = set()
    true_positive, false_positive = 0, []
    # the closest pairs first
    pairs = sorted(((abs(p[0] - g[0]), i, j) for i, p in enumerate(predicted) for j, g in enumerate(ops)
                    if p[1] == g[1] and abs(p[0] - g[0]) <= WINDOW))
    used: set[int] = set()
    for _, i, j in pairs:
        if i in used or j in matched_gold:
            continue
        used.add(i)
        matched_gold.add(j)
        true_positive += 1
    false_positive = [predicted[i] for i in range(len(predicted)) if i not in used]
    missed = [ops[j] for j in range(len(ops)) if j not in matched_gold]
    flagged = [n.line for n in reading.not_understood] + [r.line for r in reading.read]
    silent = [g for g in missed if not any(abs(line - g[0]) <= WINDOW for line in flagged)]
    clarifications = [p for p in false_positive if any(abs(p[0] - n) <= WINDOW for n in gold.get("not_errata", []))]
    return {"gold": len(ops), "predicted": len(predicted), "tp": true_positive, "fp": false_positive, "missed": missed,
            "silent": silent, "clarifications_taken": clarifications}


def totals(scores: dict[str, dict]) -> dict[str, float]:
    tp = sum(s["tp"] for s in scores.values())
    gold = sum(s["gold"] for s in scores.values())
    predicted = sum(s["predicted"] for s in scores.values())
    recall = tp / gold if gold else 1.0
    precision = tp / predicted if predicted else 1.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    return {"gold": gold, "predicted": predicted, "true_positives": tp, "recall": round(recall, 3),
            "precision": round(precision, 3), "f1": round(f1, 3),
            "silent_drops": sum(len(s["silent"]) for s in scores.values()),
            "clarifications_taken_for_errata": sum(len(s["clarifications_taken"]) for s in scores.values())}


def evaluate(folder: Path = DEVSET) -> dict[str, object]:
    gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    scores: dict[str, dict] = {}
    started = time.perf_counter()
    for name in sorted(gold):
        reading = read_errata_text((folder / name).read_text(encoding="utf-8"))
        scores[name] = score_file(reading, gold[name])
    seconds = time.perf_counter() - started
    held = {k: v for k, v in scores.items() if k in HELD_OUT}
    seen = {k: v for k, v in scores.items() if k not in HELD_OUT}
    return {"all": totals(scores), "developed_on": totals(seen), "held_out": totals(held), "seconds": round(seconds, 2),
            "files": scores}


# The model's import and load alone, in a fresh process: what `regles errata --from` spends before
# reading a word (spaCy's French import compiles its tokenizer's patterns; issue 31's speed split).
MODEL_LOAD = "from extract.errata.operations import language, matcher; language(); matcher()"


def model_seconds() -> float:
    """spaCy's import and the model's load, in a fresh process: the best of two runs."""
    runs = []
    for _ in range(2):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", MODEL_LOAD], cwd=ROOT, check=True)
        runs.append(time.perf_counter() - started)
    return min(runs)


def ten_page_seconds() -> float:
    """`regles errata --from` on a 10-page FAQ (devset texts put end to end), in a fresh process,
    the model's load included: the best of two runs."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(DEVSET.glob("*.txt"))]
    body, k = "", 0
    while len(body) < 10 * PAGE_CHARACTERS:
        body += texts[k % len(texts)] + "\n\n"
        k += 1
    with tempfile.TemporaryDirectory(prefix="regles-errata-") as folder:
        path = Path(folder) / "faq.txt"
        path.write_text(body, encoding="utf-8")
        runs = []
        for _ in range(2):
            started = time.perf_counter()
            subprocess.run([str(Path(sys.executable).parent / "regles"), "errata", "--from", str(path), "--json"], cwd=ROOT,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            runs.append(time.perf_counter() - started)
    return min(runs)


def report() -> dict[str, bool]:
    """The checks `make bench` prints (tools/bench.py): devset figures against issue 31's targets,
    silent drops, and the time of a 10-page FAQ."""
    if not (DEVSET / "gold.json").is_file():
        print(f"  {DEVSET} is absent: errata reader not scored")
        return {}
    result = evaluate()
    for part in ("all", "held_out"):
        t = result[part]
        print(f"  {part}: recall {t['recall']:.3f}, precision {t['precision']:.3f}, silent drops {t['silent_drops']}, "
              f"clarifications taken for errata {t['clarifications_taken_for_errata']}")
    t = result["all"]
    seconds, model = ten_page_seconds(), model_seconds()
    rest = max(seconds - model, 0.0)
    print(f"  regles errata --from, 10-page FAQ: {seconds:.2f}s = model import and load {model:.2f}s + everything else "
          f"{rest:.2f}s")
    return {
        f"regles errata --from, 10-page FAQ, without the model's import and load: {rest:.2f}s (target <= {SECONDS_10_PAGES}s)":
            rest <= SECONDS_10_PAGES,
        f"errata devset recall {t['recall']:.3f} (target >= {RECALL})": t["recall"] >= RECALL,
        f"errata devset precision {t['precision']:.3f} (target >= {PRECISION})": t["precision"] >= PRECISION,
        f"errata devset silent drops {t['silent_drops']} (target 0)": t["silent_drops"] == 0,
        f"regles errata --from, 10-page FAQ, model load included: {seconds:.2f}s (target <= {SECONDS_10_PAGES}s)":
            seconds <= SECONDS_10_PAGES,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--detail", action="store_true")
    parser.add_argument("--speed", action="store_true", help="also time `regles errata --from` on a 10-page FAQ, "
                        "split into the model's import and load and everything else")
    args = parser.parse_args()
    if not (DEVSET / "gold.json").is_file():
        print(f"errata bench: {DEVSET} is absent, nothing scored", file=sys.stderr)
        return 0
    result = evaluate()
    if args.json:
        print(json.dumps({k: v for k, v in result.items() if k != "files"}, indent=2, sort_keys=True))
        return 0
    for part in ("all", "developed_on", "held_out"):
        t = result[part]
        print(f"errata devset ({part}): recall {t['recall']:.3f}, precision {t['precision']:.3f}, F1 {t['f1']:.3f} "
              f"({t['true_positives']}/{t['gold']} gold, {t['predicted']} predicted); silent drops {t['silent_drops']}; "
              f"clarifications taken for errata {t['clarifications_taken_for_errata']}")
    print(f"errata devset: read in {result['seconds']}s (model loaded once)")
    if args.speed:
        seconds, model = ten_page_seconds(), model_seconds()
        print(f"regles errata --from, 10-page FAQ: {seconds:.2f}s = model import and load {model:.2f}s + everything else "
              f"{max(seconds - model, 0.0):.2f}s")
    if args.detail:
        for name, s in result["files"].items():
            if s["fp"] or s["missed"]:
                print(f"  {name}: tp {s['tp']}/{s['gold']}  fp {s['fp']}  missed {s['missed']}  silent {s['silent']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
