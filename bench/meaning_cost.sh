#!/usr/bin/env sh
# What meaning costs: the prompt hook and a full reindex with the model inside mem,
# beside the same with [semantic] model = "none", whole processes, paired by farm-bench.
#
#     sh bench/meaning_cost.sh STORE [MEM]
#
# STORE: a store of the size to measure (bench/corpus.py makes one: 10,000 memories for
# the targets); it is copied twice into a temporary folder and left untouched. MEM: the
# mem to run (default: mem on PATH). Also prints the wheel's size.
set -eu
store=$1
mem=${2:-$(command -v mem)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for kind in meaning none; do
    cp -r "$store" "$work/$kind"
    if [ "$kind" = none ]; then model='"none"'; else model='""'; fi
    printf '[semantic]\nmodel = %s\n' "$model" >"$work/$kind/mem.toml"
    git -C "$work/$kind" add mem.toml
    git -C "$work/$kind" -c core.hooksPath=/dev/null commit -q --allow-empty -m "bench: model $model"
    MEM_STORE="$work/$kind" "$mem" reindex --full >/dev/null 2>&1
done
prompt='{"session_id":"bench","hook_event_name":"UserPromptSubmit","cwd":"/","prompt":"Keep the exchange rates in Redis for an hour, and why does the upload keep failing?"}'
printf '%s' "$prompt" >"$work/prompt.json"
hook() { echo "MEM_STORE=$work/$1 exec $mem hook claude UserPromptSubmit < $work/prompt.json"; }
echo "== the prompt hook (A: the model inside mem, B: model = none)"
farm-bench -n 21 --warmup 2 --vs "sh -c '$(hook none)'" -- sh -c "$(hook meaning)"
full() { echo "rm -f $work/$1/.cache/index.db*; MEM_STORE=$work/$1 exec $mem reindex --full"; }
echo "== a full reindex from nothing (A: with vectors, B: lexical)"
farm-bench -n 3 --warmup 0 --timeout 900 --vs "sh -c '$(full none)'" -- sh -c "$(full meaning)"
echo "== the wheel"
root=$(cd "$(dirname "$0")/.." && pwd)
python3 -m pip wheel -q --no-deps -w "$work/wheel" "$root" >/dev/null
ls -l "$work"/wheel/*.whl | awk '{printf "%s: %.1f MiB\n", $NF, $5 / 1048576}'
