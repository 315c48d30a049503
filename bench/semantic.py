"""Semantic search at scale: embedding a store, index growth, whole-process query time.

    python bench/semantic.py --model /path/to/a/model2vec/folder [--count 100000]

Makes (or reuses) a store of ``--count`` memories with bench/corpus.py, builds
its lexical index, then names the model in mem.toml and measures: embedding
every memory (`mem reindex`), the index's growth, a refresh with nothing new,
`mem save` with and without the model, and whole processes: a python that only
imports click and apsw, `mem search` (lexical), and `mem search` followed by the
semantic query in the same process (what a search with a model does). In
process: opening the semantic search, one query, and recall@10 of the Hamming
scan + exact cosine against an exact cosine over every vector.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import generate  # noqa: E402
from bench.run import QUERIES, RSS_WRAPPER, sample, timed  # noqa: E402

SEMANTIC_SEARCH = """
import os, sys
from pathlib import Path
from memcli.adapters.cli.main import cli
query = sys.argv[1]
cli.main(["search", query], standalone_mode=False)
from memcli.core import config
from memcli.index import Index
from memcli.semantic import SemanticSearch
root = Path(os.environ["MEM_STORE"])
index = Index(root / ".cache" / "index.db")
search = SemanticSearch.open(index, root, config.load(root))
assert search is not None
search.nearest(query, 20)
"""
FLOOR = "import click, apsw"
PROMPTS = [q.strip('"').rstrip("*") for q in QUERIES] + [
    "why does the index get slow when many writers commit at the same time",
    "how do we keep the hook protocol answers under the size limit",
    "tests that need a temporary git repository and a fake home directory",
]


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms (min {min(samples) * 1000:.1f})"


def in_process(store: Path) -> list[str]:
    """Open, query, and recall@10 against an exact scan, measured inside one process."""
    import numpy as np

    from memcli.core import config
    from memcli.index import Index
    from memcli.semantic import SemanticSearch

    settings = config.load(store)
    index = Index(store / ".cache" / "index.db")
    opened = []
    for _ in range(5):
        began = time.perf_counter()
        search = SemanticSearch.open(index, store, settings)
        opened.append(time.perf_counter() - began)
    assert search is not None
    embed, nearest = [], []
    for prompt in PROMPTS:
        search._last = None
        began = time.perf_counter()
        search.query_vector(prompt)
        embed.append(time.perf_counter() - began)
        search._last = None
        began = time.perf_counter()
        search.nearest(prompt, 10)
        nearest.append(time.perf_counter() - began)
    rows = list(
        index.db.execute(
            "SELECT d.id, v.vec FROM semantic_docs d JOIN semantic_vectors v ON v.rowid = d.vector"
        )
    )
    ids = [row[0] for row in rows]
    matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.int8).reshape(len(rows), -1)
    matrix = matrix.astype(np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    recalls = []
    for prompt in PROMPTS:
        query = np.array(search.query_vector(prompt), dtype=np.float32)
        if not query.any():
            continue
        exact = {ids[i] for i in np.argsort(-(matrix @ query))[:10]}
        found = {ident for ident, _ in search.nearest(prompt, 10)}
        recalls.append(len(exact & found) / 10)
    index.close()
    return [
        f"- SemanticSearch.open (in process, sqlite-vec loaded once): {ms(opened[1:])}; "
        f"the first: {opened[0] * 1000:.1f} ms",
        f"- embedding a query in pure Python: {ms(embed)}",
        f"- nearest(query, 10), embedding included: {ms(nearest)}",
        f"- recall@10 of the Hamming scan + exact cosine against an exact scan: "
        f"{statistics.mean(recalls):.3f} over {len(recalls)} queries",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="a model2vec folder")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--workdir", type=Path, default=Path(tempfile.gettempdir()) / "mem-sem-bench"
    )
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    mem = str(bin_dir / "mem")
    store = args.workdir / f"store-{args.count}"
    if not (store / ".git").exists():
        print(f"generating {args.count:,} memories…", file=sys.stderr)
        generate(store, args.count, progress=False)
    env = {**os.environ, "MEM_STORE": str(store)}
    # An installed mem has its bytecode compiled: recompiling on every run is not its speed.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    settings = store / "mem.toml"
    index = store / ".cache" / "index.db"
    settings.unlink(missing_ok=True)
    for suffix in ("", "-wal", "-shm"):  # vectors outlive a lexical rebuild: start afresh
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    lines = [f"### {args.count:,} memories, model {args.model}", ""]

    began = time.perf_counter()
    subprocess.run([mem, "reindex", "--full"], env=env, check=True, capture_output=True)
    lines.append(f"- lexical `mem reindex --full`: {time.perf_counter() - began:.1f} s")
    lexical_size = index.stat().st_size
    queries = PROMPTS[:: max(1, len(PROMPTS) // 8)]
    lexical = [
        s for q in queries for s in sample(lambda q=q: timed([mem, "search", q], env=env), 3)
    ]
    floor = sample(lambda: timed([sys.executable, "-c", FLOOR], env=env), args.runs)
    save_plain = sample(
        lambda: timed([mem, "save", f"plain save {time.time()}"], env=env), args.runs
    )

    settings.write_text(f'[semantic]\nmodel = "{args.model}"\n')
    began = time.perf_counter()
    rss = subprocess.run(
        [sys.executable, "-c", RSS_WRAPPER, mem, "reindex"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    embedded = time.perf_counter() - began
    semantic_size = index.stat().st_size
    lines += [
        f"- embedding every memory (`mem reindex` after naming the model): {embedded:.1f} s, "
        f"peak RSS {int(rss) // 1024} MB",
        f"- index: {lexical_size / 1e6:.1f} MB lexical, {semantic_size / 1e6:.1f} MB with "
        f"vectors (+{(semantic_size / lexical_size - 1) * 100:.0f}%)",
    ]
    nothing = sample(lambda: timed([mem, "reindex"], env=env), args.runs)
    save_semantic = sample(
        lambda: timed([mem, "save", f"semantic save {time.time()}"], env=env), args.runs
    )
    with_model = [
        s for q in queries for s in sample(lambda q=q: timed([mem, "search", q], env=env), 3)
    ]
    semantic = [
        s
        for q in queries
        for s in sample(lambda q=q: timed([sys.executable, "-c", SEMANTIC_SEARCH, q], env=env), 3)
    ]
    lines += [
        f"- `python -c '{FLOOR}'` (the floor): {ms(floor)}",
        f"- `mem search` without a model: {ms(lexical)}",
        f"- `mem search` with the model named (lexical ranking, vectors checked): {ms(with_model)}",
        f"- `mem search` + the semantic query in one process: {ms(semantic)}",
        f"- `mem reindex` with nothing new, model named: {ms(nothing)}",
        f"- `mem save` without a model: {ms(save_plain)}; with: {ms(save_semantic)}",
    ]
    lines += in_process(store)
    report = "\n".join(lines)
    print(report)
    out = Path(__file__).parent / "semantic-results.md"
    out.write_text(report + "\n", encoding="utf-8")
    print(json.dumps({"written": str(out)}), file=sys.stderr)


if __name__ == "__main__":
    main()
