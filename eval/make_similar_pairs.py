"""Write eval/similar_pairs.jsonl: pairs of memories labelled duplicate or not.

    python eval/make_similar_pairs.py        # rewrites eval/similar_pairs.jsonl (stdlib only)

The set judges mem's near-duplicate check (``memcli.retrieval.likeness``): the
threshold of ``mem save`` and ``mem dedupe`` is chosen on it, and
``python bench/similar_pairs.py`` reports precision and recall at that threshold.
Deterministic (a fixed seed, no clock, no hash randomisation).

Duplicates (``"duplicate": true``), each from a target of memories.jsonl:
  dropped    words left out here and there, a fact left out
  swapped    neighbouring words swapped, facts in another order
  reworded   a few words replaced by synonyms, the title said another way
  restated   written again by hand, as an agent restates what it saved before
  paraphrase written by hand: the same fact in other words, clauses turned
Not duplicates:
  hard       written by hand: most words shared, a different claim (another number,
             the opposite decision, another component)
  sibling    two distractors built from the same fragments (the same area, the same
             kind of problem) that say different things
  near       a target and the distractor sharing the most words with it
  random     two unrelated targets
  entity     written by hand: the same sentence about another service, table or variable
  negation   written by hand: the same sentence negated, or with an opposite word
  number     written by hand: the same sentence with another number, version or path
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

SEED = 20261126
HERE = Path(__file__).resolve().parent
FIELDS = ("type", "title", "facts", "narrative")

SYNONYMS = {
    "fails": "breaks",
    "failed": "broke",
    "big": "large",
    "large": "big",
    "fixed": "solved",
    "because": "since",
    "uses": "relies on",
    "use": "rely on",
    "slow": "sluggish",
    "error": "failure",
    "every": "each",
    "must": "has to",
    "now": "these days",
    "after": "following",
    "before": "prior to",
    "returns": "gives back",
    "request": "call",
    "requests": "calls",
    "shows": "displays",
    "only": "just",
    "reported": "said",
    "runs": "executes",
    "changed": "altered",
    "found": "discovered",
    "keeps": "retains",
    "needs": "requires",
    "stopped": "ceased",
    "quickly": "fast",
    "almost": "nearly",
    "first": "initial",
}

# Written by hand: (target key, type, title, facts, narrative) said again in other words.
RESTATED = [
    (
        "t-upload-timeout",
        "gotcha",
        "nginx proxy_read_timeout of 60s kills large uploads",
        ["nginx default proxy_read_timeout is 60s", "raised to 300s in deploy/nginx/app.conf"],
        "Big uploads on slow connections failed with 504 Gateway Timeout after one minute "
        "because nginx gave up on the upstream while the API still read the body. Raising "
        "proxy_read_timeout and proxy_send_timeout to 300s fixed it.",
    ),
    (
        "t-upload-multipart-parts",
        "gotcha",
        "S3 multipart upload parts must be 5 MiB or larger except the last",
        [],
        "CompleteMultipartUpload failed with EntityTooSmall in the archive re-upload job "
        "because it used 1 MiB parts. S3 requires every part except the final one to be at "
        "least 5 MiB.",
    ),
    (
        "t-auth-jwt-leeway",
        "gotcha",
        "ImmatureSignatureError on JWT checks when pod clocks drift",
        [],
        "About 1% of requests right after login got 401 because the token was issued by a pod "
        "whose clock ran ahead of the validating pod. A 30 second leeway absorbs the drift.",
    ),
    (
        "t-upload-presigned",
        "decision",
        "Browser uploads go directly to S3 with a presigned POST instead of through the API",
        [],
        "Streaming files through the API tied up workers and hit proxy limits, so the API now "
        "signs a POST policy with boto3 generate_presigned_post and the browser sends the file "
        "to the bucket.",
    ),
    (
        "t-auth-refresh-rotation",
        "decision",
        "Refresh tokens rotate on each use and reuse revokes the family",
        [],
        "We chose rotation over long-lived refresh tokens so a stolen token is detected the "
        "first time both the thief and the user refresh. The refresh_tokens table keeps "
        "family_id and used_at.",
    ),
    (
        "t-upload-virus-scan",
        "pattern",
        "Uploads stay in quarantine/ until the ClamAV scan task clears them",
        [],
        "The scan runs asynchronously after /uploads/complete, so files show as processing in "
        "the UI for up to a minute; quarantine/ objects return 403 by bucket policy.",
    ),
]

# Written by hand: two memories sharing most words that say different things.
HARD = [
    (
        (
            "gotcha",
            "nginx proxy_read_timeout of 60s kills large uploads",
            [],
            "Large uploads failed after 60 seconds; raising proxy_read_timeout to 300s fixed it.",
        ),
        (
            "gotcha",
            "nginx proxy_read_timeout of 60s kills large downloads",
            [],
            "Large downloads failed after 60 seconds; raising proxy_send_timeout to 300s fixed it.",
        ),
    ),
    (
        (
            "decision",
            "Use tabs for indentation in Makefiles",
            [],
            "We decided to use tabs, not spaces, for indentation in Makefiles.",
        ),
        (
            "decision",
            "Use spaces for indentation in Python files",
            [],
            "We decided to use spaces, not tabs, for indentation in Python files.",
        ),
    ),
    (
        (
            "decision",
            "Deploys go out on Tuesdays",
            [],
            "Production deploys go out on Tuesdays after the weekly sync, never on Fridays.",
        ),
        (
            "decision",
            "Deploys go out on Thursdays",
            [],
            "Production deploys go out on Thursdays after the release review, never on Mondays.",
        ),
    ),
    (
        (
            "gotcha",
            "Celery worker concurrency must stay at 4 on the small nodes",
            [],
            "With concurrency 8 the Celery workers on small nodes ran out of memory and were "
            "OOM-killed; 4 keeps them under the limit.",
        ),
        (
            "gotcha",
            "Celery beat must run as a single replica",
            [],
            "With two replicas Celery beat scheduled every periodic task twice; one replica keeps "
            "the schedule single.",
        ),
    ),
    (
        (
            "discovery",
            "pgbouncer in transaction mode breaks prepared statements",
            [],
            "Prepared statements fail under pgbouncer transaction pooling because the next "
            "transaction may run on another server connection.",
        ),
        (
            "discovery",
            "pgbouncer in session mode limits the number of clients",
            [],
            "Session pooling in pgbouncer ties one server connection to each client, so the pool "
            "runs out of connections with many idle clients.",
        ),
    ),
    (
        (
            "gotcha",
            "The web build fails on Node 18 because of the crypto import",
            [],
            "Vite's build fails on Node 18 since the crypto import needs Node 20; "
            "pin Node 20 in CI.",
        ),
        (
            "gotcha",
            "The web build fails on Node 20 because of the fetch polyfill",
            [],
            "Vite's build fails on Node 20 since the fetch polyfill clashes with the native fetch; "
            "remove the polyfill.",
        ),
    ),
    (
        (
            "preference",
            "Prefer pytest fixtures over setUp methods",
            [],
            "Tests use pytest fixtures, not unittest setUp methods, for shared state.",
        ),
        (
            "preference",
            "Prefer plain asserts over unittest assert methods",
            [],
            "Tests use plain assert statements, not unittest assertEqual methods, for checks.",
        ),
    ),
    (
        (
            "gotcha",
            "S3 presigned URLs expire after 15 minutes",
            [],
            "Download links built with generate_presigned_url expire after 15 minutes; the UI "
            "refreshes them when the tab regains focus.",
        ),
        (
            "gotcha",
            "S3 presigned POST policies expire after 1 hour",
            [],
            "Upload policies built with generate_presigned_post expire after one hour; a form left "
            "open longer gets a 403 on submit.",
        ),
    ),
    (
        (
            "decision",
            "Airflow DAGs run in the UTC timezone",
            [],
            "Every Airflow DAG schedules in UTC so that daylight saving never shifts a run.",
        ),
        (
            "decision",
            "dbt models are materialized as tables in the marts schema",
            [],
            "Every dbt model in the marts schema is materialized as a table so that Looker never "
            "waits on a view.",
        ),
    ),
    (
        (
            "gotcha",
            "Argo CD sync fails when the Helm chart version is not bumped",
            [],
            "Argo CD kept the old release because the Helm chart version was not bumped; bump it "
            "with every template change.",
        ),
        (
            "gotcha",
            "Argo CD sync loops when a Helm hook deletes its own job",
            [],
            "Argo CD kept syncing because a Helm hook job deleted itself; set the hook delete "
            "policy to before-hook-creation.",
        ),
    ),
    (
        (
            "friction",
            "The integration tests take 12 minutes in CI",
            [],
            "The integration tests take 12 minutes in CI because every test starts a new Postgres "
            "container.",
        ),
        (
            "friction",
            "The unit tests take 4 minutes in CI",
            [],
            "The unit tests take 4 minutes in CI because mypy runs on the whole repository before "
            "them.",
        ),
    ),
    (
        (
            "context",
            "Code for the checkout form lives in web/src/checkout/Form.tsx",
            [],
            "New code for the checkout form goes in web/src/checkout/Form.tsx and talks to React "
            "Query.",
        ),
        (
            "context",
            "Code for the shipments table lives in web/src/shipments/Table.tsx",
            [],
            "New code for the shipments table goes in web/src/shipments/Table.tsx and talks to "
            "React Query.",
        ),
    ),
]

# Written by hand: the same fact said in other words (``paraphrase``), and facts that
# share most words but differ in a name (``entity``), a negation or an opposite
# (``negation``), or a number or a path (``number``). (type, title, facts, narrative)
PARAPHRASED = [
    (
        (
            "decision",
            "Money is stored as integer pence in bigint columns; never use floats or "
            "Decimal for money in the database.",
            [],
            "",
        ),
        (
            "decision",
            "Money is stored as integer pence (minor units) in bigint columns, never "
            "floats or Decimal in the database.",
            [],
            "",
        ),
    ),
    (
        (
            "gotcha",
            "The billing worker must be restarted after changing STRIPE_WEBHOOK_SECRET",
            [],
            "The billing worker must be restarted after changing STRIPE_WEBHOOK_SECRET, or "
            "webhooks fail their signature check.",
        ),
        (
            "gotcha",
            "After changing STRIPE_WEBHOOK_SECRET, the billing worker must be restarted",
            [],
            "After changing STRIPE_WEBHOOK_SECRET, the billing worker must be restarted, or "
            "webhook signature checks fail.",
        ),
    ),
    (
        (
            "context",
            "The alpha service restarts nightly",
            [],
            "The alpha service restarts nightly at 02:00 UTC to pick up new certificates.",
        ),
        (
            "context",
            "Every night the alpha service is restarted",
            [],
            "Every night at 02:00 UTC the alpha service is restarted so it picks up new "
            "certificates.",
        ),
    ),
    (
        (
            "context",
            "The beta service restarts nightly",
            [],
            "The beta service restarts nightly at 02:00 UTC to pick up new certificates.",
        ),
        (
            "context",
            "Nightly restart of the beta service",
            [],
            "Nightly at 02:00 UTC the beta service restarts, picking up new certificates.",
        ),
    ),
    (
        (
            "context",
            "Every night the gamma service is restarted",
            [],
            "Every night at 02:00 UTC the gamma service is restarted so it picks up new "
            "certificates.",
        ),
        (
            "context",
            "Nightly restart of the gamma service",
            [],
            "Nightly at 02:00 UTC the gamma service restarts, picking up new certificates.",
        ),
    ),
    (
        (
            "pattern",
            "Run make migrate before starting the API locally",
            [],
            "Run make migrate to apply the database migrations before starting the API locally.",
        ),
        (
            "pattern",
            "Before starting the API locally, run make migrate",
            [],
            "Before starting the API locally, apply the database migrations with make migrate.",
        ),
    ),
    (
        (
            "preference",
            "Use pnpm, not npm, for the web app",
            ["the lockfile is pnpm-lock.yaml"],
            "The web app uses pnpm, not npm; do not commit a package-lock.json.",
        ),
        (
            "preference",
            "The web app uses pnpm rather than npm",
            ["lockfile: pnpm-lock.yaml"],
            "Use pnpm rather than npm for the web app and never commit a package-lock.json.",
        ),
    ),
    (
        (
            "discovery",
            "Redis session keys expire after 24 hours",
            [],
            "Session keys in Redis are set with a 24 hour TTL, so users log in again daily.",
        ),
        (
            "discovery",
            "Session keys in Redis have a 24 hour TTL",
            [],
            "Redis session keys expire after 24 hours (their TTL), so users log in again daily.",
        ),
    ),
    (
        (
            "pattern",
            "Feature flags are read from LaunchDarkly at startup and cached 5 minutes",
            [],
            "At startup the app reads feature flags from LaunchDarkly and caches them for 5 "
            "minutes.",
        ),
        (
            "pattern",
            "At startup feature flags come from LaunchDarkly, cached for 5 minutes",
            [],
            "The app caches the feature flags it reads from LaunchDarkly at startup for 5 minutes.",
        ),
    ),
    (
        (
            "decision",
            "Log timestamps are always UTC in ISO 8601",
            [],
            "Every log line carries an ISO 8601 timestamp in UTC, never local time.",
        ),
        (
            "decision",
            "Logs use ISO 8601 timestamps, always in UTC",
            [],
            "Log lines always carry ISO 8601 timestamps in UTC, not local time.",
        ),
    ),
    (
        (
            "gotcha",
            "The CI cache key includes the hash of poetry.lock",
            [],
            "The CI dependency cache key includes the hash of poetry.lock, so a lock change "
            "rebuilds the cache.",
        ),
        (
            "gotcha",
            "CI caches are keyed on the poetry.lock hash",
            [],
            "CI keys its dependency cache on the hash of poetry.lock: change the lock and the "
            "cache is rebuilt.",
        ),
    ),
    (
        (
            "friction",
            "Integration tests use the staging database",
            [],
            "Integration tests use the staging database, so they fail when staging is down.",
        ),
        (
            "friction",
            "The staging database is used by the integration tests",
            [],
            "The integration tests use the staging database and fail whenever staging is down.",
        ),
    ),
]

DIFFERENT = [
    (
        "entity",
        (
            "context",
            "The alpha service restarts nightly",
            [],
            "The alpha service restarts nightly at 02:00 UTC to pick up new certificates.",
        ),
        (
            "context",
            "The beta service restarts nightly",
            [],
            "The beta service restarts nightly at 02:00 UTC to pick up new certificates.",
        ),
    ),
    (
        "entity",
        (
            "context",
            "Every night the alpha service is restarted",
            [],
            "Every night at 02:00 UTC the alpha service is restarted so it picks up new "
            "certificates.",
        ),
        (
            "context",
            "Every night the gamma service is restarted",
            [],
            "Every night at 02:00 UTC the gamma service is restarted so it picks up new "
            "certificates.",
        ),
    ),
    (
        "entity",
        (
            "context",
            "Nightly restart of the beta service",
            [],
            "Nightly at 02:00 UTC the beta service restarts, picking up new certificates.",
        ),
        (
            "context",
            "Nightly restart of the gamma service",
            [],
            "Nightly at 02:00 UTC the gamma service restarts, picking up new certificates.",
        ),
    ),
    (
        "entity",
        (
            "discovery",
            "Deploy logs of the payments service are in /var/log/payments/deploy.log",
            [],
            "Look in /var/log/payments/deploy.log for the payments service deploy logs.",
        ),
        (
            "discovery",
            "Deploy logs of the orders service are in /var/log/orders/deploy.log",
            [],
            "Look in /var/log/orders/deploy.log for the orders service deploy logs.",
        ),
    ),
    (
        "entity",
        (
            "decision",
            "The users table is partitioned by created_at month",
            [],
            "The users table is partitioned by month of created_at to keep vacuum fast.",
        ),
        (
            "decision",
            "The events table is partitioned by created_at month",
            [],
            "The events table is partitioned by month of created_at to keep vacuum fast.",
        ),
    ),
    (
        "entity",
        (
            "gotcha",
            "The billing worker must be restarted after changing STRIPE_WEBHOOK_SECRET",
            [],
            "The billing worker must be restarted after changing STRIPE_WEBHOOK_SECRET, or "
            "webhooks fail their signature check.",
        ),
        (
            "gotcha",
            "The mailer worker must be restarted after changing SENDGRID_API_KEY",
            [],
            "The mailer worker must be restarted after changing SENDGRID_API_KEY, or "
            "emails fail their signature check.",
        ),
    ),
    (
        "negation",
        (
            "friction",
            "Integration tests use the staging database",
            [],
            "Integration tests use the staging database, so they fail when staging is down.",
        ),
        (
            "friction",
            "Integration tests do not use the staging database",
            [],
            "Integration tests do not use the staging database, so they pass when staging is down.",
        ),
    ),
    (
        "negation",
        (
            "preference",
            "Always run the linter before committing",
            [],
            "Always run the linter before committing so CI stays green.",
        ),
        (
            "preference",
            "Never run the linter before committing",
            [],
            "Never run the linter before committing; CI runs it anyway.",
        ),
    ),
    (
        "negation",
        (
            "decision",
            "The response cache is enabled in production",
            [],
            "The response cache is enabled in production for the catalogue endpoints.",
        ),
        (
            "decision",
            "The response cache is disabled in production",
            [],
            "The response cache is disabled in production for the catalogue endpoints.",
        ),
    ),
    (
        "negation",
        (
            "pattern",
            "Feature flags are cached at startup",
            [],
            "Feature flags are cached at startup and read from memory afterwards.",
        ),
        (
            "pattern",
            "Feature flags are not cached at startup",
            [],
            "Feature flags are not cached at startup; each request reads them afresh.",
        ),
    ),
    (
        "negation",
        (
            "decision",
            "Retries are allowed for idempotent requests",
            [],
            "Retries are allowed for idempotent requests to the payments API.",
        ),
        (
            "decision",
            "Retries are forbidden for idempotent requests",
            [],
            "Retries are forbidden for idempotent requests to the payments API.",
        ),
    ),
    (
        "negation",
        (
            "gotcha",
            "The export job can run during business hours",
            [],
            "The export job can run during business hours since it reads from the replica.",
        ),
        (
            "gotcha",
            "The export job cannot run during business hours",
            [],
            "The export job cannot run during business hours since it reads from the primary.",
        ),
    ),
    (
        "number",
        (
            "discovery",
            "Redis session keys expire after 24 hours",
            [],
            "Session keys in Redis are set with a 24 hour TTL, so users log in again daily.",
        ),
        (
            "discovery",
            "Redis session keys expire after 12 hours",
            [],
            "Session keys in Redis are set with a 12 hour TTL, so users log in again twice a day.",
        ),
    ),
    (
        "number",
        (
            "gotcha",
            "Celery worker concurrency is 8 on the large nodes",
            [],
            "Celery workers on the large nodes run with concurrency 8 to stay under memory.",
        ),
        (
            "gotcha",
            "Celery worker concurrency is 16 on the large nodes",
            [],
            "Celery workers on the large nodes run with concurrency 16 to stay under memory.",
        ),
    ),
    (
        "number",
        (
            "context",
            "Staging config lives in deploy/staging/values.yaml",
            [],
            "Helm values for staging live in deploy/staging/values.yaml.",
        ),
        (
            "context",
            "Production config lives in deploy/production/values.yaml",
            [],
            "Helm values for production live in deploy/production/values.yaml.",
        ),
    ),
    (
        "number",
        (
            "context",
            "The API listens on port 8080 in development",
            [],
            "In development the API listens on port 8080 behind the Vite proxy.",
        ),
        (
            "context",
            "The API listens on port 9090 in development",
            [],
            "In development the API listens on port 9090 behind the Vite proxy.",
        ),
    ),
    (
        "number",
        (
            "preference",
            "The worker needs Python 3.11",
            [],
            "The worker needs Python 3.11; pyproject pins requires-python accordingly.",
        ),
        (
            "preference",
            "The worker needs Python 3.12",
            [],
            "The worker needs Python 3.12; pyproject pins requires-python accordingly.",
        ),
    ),
]


def memory(source: dict[str, object]) -> dict[str, object]:
    return {name: source.get(name, [] if name == "facts" else "") for name in FIELDS}


def dropped(rng: random.Random, source: dict[str, object]) -> dict[str, object]:
    """About one word in ten left out of the narrative, and the last fact."""
    words = str(source["narrative"]).split()
    kept = [w for w in words if rng.random() > 0.1] or words
    facts = list(source["facts"])[:-1] if len(list(source["facts"])) > 1 else source["facts"]
    return {**memory(source), "narrative": " ".join(kept), "facts": facts}


def swapped(rng: random.Random, source: dict[str, object]) -> dict[str, object]:
    """Three pairs of neighbouring words swapped, the facts reversed."""
    words = str(source["narrative"]).split()
    for _ in range(3):
        if len(words) > 3:
            n = rng.randrange(len(words) - 1)
            words[n], words[n + 1] = words[n + 1], words[n]
    return {**memory(source), "narrative": " ".join(words), "facts": list(source["facts"])[::-1]}


def reworded(rng: random.Random, source: dict[str, object]) -> dict[str, object]:
    """Synonyms for the words that have one (about half of them), the title's clauses turned."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        other = SYNONYMS.get(word.lower())
        return other if other and rng.random() < 0.6 else word

    title = str(source["title"])
    if ": " in title:
        head, tail = title.split(": ", 1)
        title = f"{tail[0].upper()}{tail[1:]}: {head[0].lower()}{head[1:]}"
    return {
        **memory(source),
        "title": re.sub(r"[A-Za-z]+", swap, title),
        "narrative": re.sub(r"[A-Za-z]+", swap, str(source["narrative"])),
        "facts": [re.sub(r"[A-Za-z]+", swap, str(f)) for f in list(source["facts"])],
    }


def words_of(record: dict[str, object]) -> set[str]:
    text = " ".join([str(record["title"]), *map(str, record["facts"]), str(record["narrative"])])
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def closest(target: dict[str, object], pool: list[dict[str, object]]) -> dict[str, object]:
    mine = words_of(target)
    return max(pool, key=lambda other: len(mine & words_of(other)) / len(mine | words_of(other)))


def pairs() -> list[dict[str, object]]:
    rng = random.Random(SEED)
    targets = [json.loads(line) for line in (HERE / "memories.jsonl").open(encoding="utf-8")]
    distractors = [json.loads(line) for line in (HERE / "distractors.jsonl").open(encoding="utf-8")]
    by_key = {t["key"]: t for t in targets}
    out: list[dict[str, object]] = []

    def add(a: dict[str, object], b: dict[str, object], duplicate: bool, kind: str) -> None:
        out.append({"duplicate": duplicate, "kind": kind, "a": memory(a), "b": b})

    for target in targets:
        add(target, dropped(rng, target), True, "dropped")
        add(target, swapped(rng, target), True, "swapped")
        add(target, reworded(rng, target), True, "reworded")
    for key, type_, title, facts, narrative in RESTATED:
        restated = {"type": type_, "title": title, "facts": facts, "narrative": narrative}
        add(by_key[key], restated, True, "restated")
    for left, right in HARD:
        a, b = (
            {"type": t, "title": ti, "facts": f, "narrative": n} for t, ti, f, n in (left, right)
        )
        add(a, b, False, "hard")
    sample = rng.sample(distractors, 600)
    for n in range(0, 600, 2):
        first = sample[n]
        rest = [d for d in distractors if d is not first and d["type"] == first["type"]][:400]
        add(first, memory(closest(first, rest)), False, "sibling")
    for target in targets:
        add(target, memory(closest(target, distractors)), False, "near")
    for _ in range(72):
        a, b = rng.sample(targets, 2)
        add(a, memory(b), False, "random")
    for left, right in PARAPHRASED:
        add(written(left), written(right), True, "paraphrase")
    for kind, left, right in DIFFERENT:
        add(written(left), written(right), False, kind)
    return out


def written(fields: tuple[str, str, list[str], str]) -> dict[str, object]:
    """A memory written by hand: (type, title, facts, narrative)."""
    return dict(zip(FIELDS, fields, strict=True))


def main() -> None:
    path = HERE / "similar_pairs.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for pair in pairs():
            out.write(json.dumps(pair, ensure_ascii=False) + "\n")
    print(f"wrote {path.name}")


if __name__ == "__main__":
    main()
