"""Precision and recall of mem's near-duplicate check on eval/similar_pairs.jsonl.

    .venv/bin/python bench/similar_pairs.py            # at the chosen threshold
    .venv/bin/python bench/similar_pairs.py --sweep    # and every threshold from 0.3 to 0.9
    .venv/bin/python bench/similar_pairs.py --model DIR   # the cosine of a local model
                                                          # (model2vec or ONNX folder)

A pair counts as found when ``similarity`` reaches ``THRESHOLD`` (memcli.retrieval.likeness).
The threshold is the lowest whose precision is at least 0.9 on this set.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memcli.retrieval.likeness import THRESHOLD, content_words, features, is_rare, similarity

PAIRS = Path(__file__).resolve().parent.parent / "eval" / "similar_pairs.jsonl"


def scored() -> list[tuple[float, bool, str]]:
    pairs = [json.loads(line) for line in PAIRS.open(encoding="utf-8")]
    rare = store_rarity(pairs)
    out = []
    for pair in pairs:
        a, b = (features(m["title"], m["facts"], m["narrative"]) for m in (pair["a"], pair["b"]))
        same_type = pair["a"]["type"] == pair["b"]["type"]
        out.append((similarity(a, b, rare) if same_type else 0.0, pair["duplicate"], pair["kind"]))
    return out


def store_rarity(pairs: list[dict[str, Any]]) -> Callable[[str], bool]:
    """Which words are rare in a store of the eval's memories, distractors and pairs."""
    texts = set()
    for name in ("memories.jsonl", "distractors.jsonl"):
        for line in (PAIRS.parent / name).open(encoding="utf-8"):
            m = json.loads(line)
            texts.add("\n".join([m["title"], *m.get("facts", []), m.get("narrative", "")]))
    for pair in pairs:
        for m in (pair["a"], pair["b"]):
            texts.add("\n".join([m["title"], *m["facts"], m["narrative"]]))
    held = Counter(word for text in texts for word in set(content_words(text)))
    return lambda word: is_rare(word, held[word], len(texts))


def cosines(model: Path) -> list[tuple[float, bool, str]]:
    """The pairs scored by a model's cosine, as a save with that model on scores them."""
    import numpy as np

    from memcli.semantic import transformer
    from memcli.semantic.sync import embedded_text

    pairs = [json.loads(line) for line in PAIRS.open(encoding="utf-8")]
    texts = [
        embedded_text(m["title"], json.dumps(m["facts"]), m["narrative"])
        for pair in pairs
        for m in (pair["a"], pair["b"])
    ]
    if transformer.graph_path(model) is not None:
        embedder = transformer.embedder_for(model.name, transformer.read_transformer(model))
        vectors = embedder.embed_array(texts)
    else:
        from memcli.semantic.batch import (
            BatchEmbedder,
            library_encoder,
            library_tokenizer,
            unk_id_of,
        )
        from memcli.semantic.model import read_model

        info, parsed = read_model(model)
        tokenizer = library_tokenizer((model / "tokenizer.json").read_text())
        vectors = BatchEmbedder(
            model.name, info, library_encoder(tokenizer), unk_id_of(tokenizer, parsed)
        ).embed_array(texts)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.where(norms == 0, 1, norms)
    out = []
    for n, pair in enumerate(pairs):
        same_type = pair["a"]["type"] == pair["b"]["type"]
        value = float(unit[2 * n] @ unit[2 * n + 1]) if same_type else 0.0
        out.append((value, pair["duplicate"], pair["kind"]))
    return out


def lowest_precise(rows: list[tuple[float, bool, str]], floor: float = 0.9) -> float | None:
    """The lowest threshold (by 0.01) whose precision is at least ``floor``."""
    for step in range(0, 101):
        if measured(rows, step / 100)[0] >= floor:
            return step / 100
    return None


def measured(rows: list[tuple[float, bool, str]], threshold: float) -> tuple[float, float]:
    found = [duplicate for score, duplicate, _ in rows if score >= threshold]
    true = sum(found)
    relevant = sum(duplicate for _, duplicate, _ in rows)
    return (true / len(found) if found else 1.0), true / relevant


def main() -> None:
    if "--model" in sys.argv:
        model = Path(sys.argv[sys.argv.index("--model") + 1])
        rows = cosines(model)
        chosen = lowest_precise(rows)
        print(f"cosine of {model}: lowest threshold with precision >= 0.9: {chosen}")
        for value in sorted({0.8, 0.85, 0.9, 0.95, *([chosen] if chosen else [])}):
            p, r = measured(rows, value)
            print(f"  {value:.2f}: precision {p:.3f}, recall {r:.3f}")
        return
    rows = scored()
    precision, recall = measured(rows, THRESHOLD)
    counts = Counter(duplicate for _, duplicate, _ in rows)
    print(f"{len(rows)} pairs: {counts[True]} duplicates, {counts[False]} not")
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    print(f"threshold {THRESHOLD}: precision {precision:.3f}, recall {recall:.3f}, F1 {f1:.3f}")
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
