"""Precision and recall of mem's near-duplicate check on eval/similar_pairs.jsonl.

    .venv/bin/python bench/similar_pairs.py            # at the chosen threshold
    .venv/bin/python bench/similar_pairs.py --sweep    # and every threshold from 0.3 to 0.9

A pair counts as found when ``similarity`` reaches ``THRESHOLD`` (memcli.retrieval.likeness).
The threshold is the lowest whose precision is at least 0.9 on this set.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from memcli.retrieval.likeness import THRESHOLD, features, similarity

PAIRS = Path(__file__).resolve().parent.parent / "eval" / "similar_pairs.jsonl"


def scored() -> list[tuple[float, bool, str]]:
    out = []
    for line in PAIRS.open(encoding="utf-8"):
        pair = json.loads(line)
        a, b = (features(m["title"], m["facts"], m["narrative"]) for m in (pair["a"], pair["b"]))
        same_type = pair["a"]["type"] == pair["b"]["type"]
        out.append((similarity(a, b) if same_type else 0.0, pair["duplicate"], pair["kind"]))
    return out


def measured(rows: list[tuple[float, bool, str]], threshold: float) -> tuple[float, float]:
    found = [duplicate for score, duplicate, _ in rows if score >= threshold]
    true = sum(found)
    relevant = sum(duplicate for _, duplicate, _ in rows)
    return (true / len(found) if found else 1.0), true / relevant


def main() -> None:
    rows = scored()
    precision, recall = measured(rows, THRESHOLD)
    counts = Counter(duplicate for _, duplicate, _ in rows)
    print(f"{len(rows)} pairs: {counts[True]} duplicates, {counts[False]} not")
    print(f"threshold {THRESHOLD}: precision {precision:.3f}, recall {recall:.3f}")
    for kind in sorted({kind for _, _, kind in rows}):
        mine = [(s, d) for s, d, k in rows if k == kind]
        hits = sum(s >= THRESHOLD for s, _ in mine)
        label = "duplicates" if mine[0][1] else "not"
        print(f"  {kind:<10} {label:<10} {hits:>3} of {len(mine):>3} over the threshold")
    if "--sweep" in sys.argv:
        for step in range(30, 91, 5):
            p, r = measured(rows, step / 100)
            print(f"  {step / 100:.2f}: precision {p:.3f}, recall {r:.3f}")


if __name__ == "__main__":
    main()
