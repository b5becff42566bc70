"""Write `tests/fixtures/ids.txt`: every entry and erratum id of a corpus build, one per line,
sorted. `tests/test_ids.py` compares each build with it, so an id that changes is seen.

    python -m tools.ids_snapshot [BUILD_DIR]     # default: build/
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "fixtures" / "ids.txt"


def build_ids(build: Path) -> list[str]:
    ids: list[str] = []
    for path in sorted((build / "data").glob("*.json")):
        if path.name.endswith("schema.json") or path.name == "schema.json":
            continue
        game = json.loads(path.read_text(encoding="utf-8"))
        ids += [e["id"] for e in game["entries"]] + [e["id"] for e in game["errata"]]
    return sorted(ids)


def main(argv: list[str]) -> int:
    build = Path(argv[0]) if argv else ROOT / "build"
    ids = build_ids(build)
    SNAPSHOT.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")
    print(f"{len(ids)} ids written to {SNAPSHOT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
