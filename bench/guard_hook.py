"""The pre-tool hook's latency at a large store, whole processes, against a bare interpreter.

    python bench/guard_hook.py --from STORE --dir /tmp/guard-bench --runs 21

Copies STORE (a store of memories, e.g. 10,000; it is not changed) into a project's
central store under --dir, adds 20 memories with guards in one commit, brings the
index and the guard table up to date, then times ``mem hook claude PreToolUse``
for a call no guard matches and for one a deny guard refuses, each paired, run by
run, against ``python -c pass`` (the same interpreter, the same stdin redirection).
The target: the hook's median within 25 ms of the bare interpreter's.

farm-bench does the timing where it is installed; elsewhere a paired loop of
monotonic clock readings around each process does (medians of the same pairs).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from memcli.core.guards import Guard
from memcli.core.model import Observation
from memcli.store.files import Store

GUARDS = [
    Guard("Bash", "npm *", "deny"),
    Guard("Bash", "git push*--force*", "deny"),
    Guard("Bash", "rm -rf /*", "deny"),
    Guard("Bash", "docker system prune*", "ask"),
    Guard("Bash", "kubectl delete*", "ask"),
    Guard("Bash", "terraform apply*", "ask"),
    Guard("Bash", "pip install *", "warn"),
    Guard("Bash", "curl * | sh", "deny"),
    Guard("Bash", "yarn *", "warn"),
    Guard("Bash", "make deploy*", "ask"),
    Guard("Read", ".env", "ask"),
    Guard("Read", "**/secrets/**", "deny"),
    Guard("Read", "*.pem", "deny"),
    Guard("Edit", "migrations/**", "warn"),
    Guard("Edit", "vendor/**", "deny"),
    Guard("Edit", "**/*.lock", "warn"),
    Guard("Write", "dist/**", "warn"),
    Guard("Write", ".github/workflows/*", "ask"),
    Guard("Edit", "CHANGELOG.md", "warn"),
    Guard("Write", "**/generated/**", "deny"),
]
CASES = {
    "no match": {"tool_name": "Bash", "tool_input": {"command": "pnpm install --frozen-lockfile"}},
    "deny": {"tool_name": "Bash", "tool_input": {"command": "cd web && npm install left-pad"}},
}


def prepare(source: Path, root: Path) -> tuple[dict[str, str], Path]:
    """The project, its central store (a copy of ``source`` plus the guards), built once."""
    home, project = root / "home", root / "project"
    env = {**os.environ, "MEM_HOME": str(home)}
    env.pop("MEM_STORE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: mem's modules compiled once
    if (root / "ready").exists():
        return env, project
    shutil.rmtree(root, ignore_errors=True)
    project.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    store = home / "project"
    shutil.copytree(source, store, symlinks=True)
    namer = Store(store)
    for n, guard in enumerate(GUARDS):
        obs = Observation(
            id=f"01JG{n:022d}",
            type="decision",
            title=f"Guarded rule {n}: {guard.spec}",
            created="2026-11-20T10:00:00Z",
            narrative=f"The team agreed on rule {n}.",
            guards=[guard],
        )
        path = store / namer.new_path(obs)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(obs.to_markdown(), encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=store, check=True)
    subprocess.run(["git", "commit", "-qm", "guards"], cwd=store, check=True)
    mem = Path(sys.executable).parent / "mem"
    subprocess.run([str(mem), "guards", "--store", str(store)], env=env, check=True)
    (root / "ready").touch()
    return env, project


def payload_file(root: Path, project: Path, name: str, call: dict[str, object]) -> Path:
    path = root / f"{name.replace(' ', '-')}.json"
    path.write_text(json.dumps({"cwd": str(project), "hook_event_name": "PreToolUse", **call}))
    return path


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.monotonic()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


def paired(a: list[str], b: list[str], env: dict[str, str], runs: int) -> str:
    """Medians of A, B and A - B over ``runs`` alternating pairs (one warm-up pair first)."""
    timed(a, env), timed(b, env)
    pairs = [(timed(a, env), timed(b, env)) for _ in range(runs)]
    hook = statistics.median(x for x, _ in pairs) * 1000
    bare = statistics.median(y for _, y in pairs) * 1000
    extra = statistics.median(x - y for x, y in pairs) * 1000
    return f"hook {hook:.1f} ms, bare {bare:.1f} ms, hook - bare {extra:.1f} ms (medians)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", type=Path, required=True)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/mem-guard-bench"))
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    env, project = prepare(args.source.resolve(), args.dir.resolve())
    mem = Path(sys.executable).parent / "mem"
    bench = shutil.which("farm-bench")
    for name, call in CASES.items():
        stdin = payload_file(args.dir, project, name, call)
        hook = f"exec {mem} hook claude PreToolUse < {stdin}"
        bare = f"exec {sys.executable} -c pass < {stdin}"
        print(f"# {name}: {call['tool_input']}", flush=True)
        check = subprocess.run(["sh", "-c", hook], env=env, capture_output=True, text=True)
        print(f"  answer: {check.stdout.strip() or '(none)'}"[:200], flush=True)
        if bench:
            command = [
                bench,
                "-n",
                str(args.runs),
                "--vs",
                f"sh -c '{bare}'",
                "--",
                "sh",
                "-c",
                hook,
            ]
            subprocess.run(command, env=env, check=True)
        else:
            print("  " + paired(["sh", "-c", hook], ["sh", "-c", bare], env, args.runs))


if __name__ == "__main__":
    main()
