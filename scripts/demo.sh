#!/bin/sh
# A tour of mem in a throw-away store: save, search, show, timeline, the
# context an agent sees, secrets refused, forget, and the store's own git log. Run it with the `mem` command on PATH.
set -eu

MEM_STORE=$(mktemp -d "${TMPDIR:-/tmp}/mem-demo.XXXXXX")/store
export MEM_STORE
trap 'rm -rf "$(dirname "$MEM_STORE")"' EXIT

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step 'mem init'
mem init

step 'mem save "FTS5 MATCH parses foo-bar as a column filter ..." --type gotcha ...'
hyphen=$(mem save "FTS5 MATCH parses foo-bar as a column filter and fails with 'no such column'. Quote every term before MATCH." \
  --type gotcha --title "FTS5 MATCH rejects bare hyphens" --key fts-hyphen \
  --fact "a query like foo-bar is parsed as a column filter" --fact "quote each term before MATCH" \
  --concept sqlite,fts5 --file memcli/query.py)
echo "$hyphen"

step 'mem save "Commit with git plumbing, not GitPython ..." --type decision'
mem save "Commit with git plumbing, not GitPython: its pure-Python index costs ~0.8 s a save at 10k files." \
  --type decision --concept git,performance --file memcli/store.py

step 'echo "Tests use real git repositories in tmp_path, never mocks." | mem save --type preference'
echo "Tests use real git repositories in tmp_path, never mocks of git or SQLite." | mem save --type preference --concept testing

step 'echo {"text": ...} | mem save --input json   # how agents save'
printf '%s' '{"text": "Porter stemming makes a search for index find indexes and indexing.", "type": "discovery", "concepts": ["sqlite", "fts5"]}' \
  | mem save --input json >/dev/null && echo "saved from JSON"

step 'mem search "foo-bar"'
mem search "foo-bar"

step 'mem search index'
mem search index

step 'mem search "why does searching for foo-bar fail?" --explain'
mem search "why does searching for foo-bar fail?" --explain

step 'mem search git --type decision --json'
mem search git --type decision --json

step 'mem show fts-hyphen'
mem show fts-hyphen

step 'mem timeline fts-hyphen'
mem timeline fts-hyphen

step 'mem context   # what an agent sees when a session starts'
mem context

# A token-shaped string, assembled here so that this file holds none.
token="ghp_$(printf 'a1B2c3D4e5F6%.0s' 1 2 3)"
step 'mem save "The deploy job reads ghp_… from the vault"'   '# refused: a likely secret'
mem save "The deploy job reads $token from the vault" || true

step 'mem save "The deploy job reads ghp_… from the vault" --redact'
mem save "The deploy job reads $token from the vault" --type context --redact --key deploy-token >/dev/null
mem show deploy-token

step 'mem forget fts-hyphen'
mem forget fts-hyphen

step 'mem list'
mem list

step git log --stat --format='%h %s'
git -C "$MEM_STORE" log --stat --format='%h %s'
