"""Write eval/distractors.jsonl: plausible memories that answer none of the labelled queries.

    python eval/make_distractors.py          # rewrites eval/distractors.jsonl (stdlib only)

The output is deterministic (a fixed seed, no clock, no hash randomisation) and is
committed beside this script. Each distractor is composed from many fragments: a
subsystem of one of four projects (with its own nouns, dependencies, libraries, files
and concepts), a problem or a convention written for that area, and numbers, people,
versions and asides drawn at random. They share the targets' vocabulary on purpose
(other upload, auth, queue, database, build, CI, deploy and pipeline memories) but
never their specific facts: a problem theme that would answer a labelled query for a
subsystem is blocked for it (`BLOCKED`), and no distractor repeats a target's title.
"""

from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

SEED = 20261122
COUNT = 3400
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Sub:
    """A part of a project: what its memories talk about."""

    area: str
    tag: str
    names: tuple[str, ...]
    deps: tuple[str, ...]
    libs: tuple[str, ...]
    files: tuple[str, ...]
    concepts: tuple[str, ...]
    items: tuple[str, ...] = ("request",)
    tables: tuple[str, ...] = ("events",)


@dataclass(frozen=True)
class Theme:
    """A kind of memory: templates for its title, facts and narrative."""

    name: str
    type: str
    titles: tuple[str, ...]
    facts: tuple[str, ...]
    story: tuple[str, ...]
    areas: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


def S(area: str, tag: str, *lists: str) -> Sub:
    """A subsystem from `|`-separated fragment lists: names, deps, libs, files, concepts,
    and optionally items and tables."""
    return Sub(area, tag, *(tuple(text.split("|")) for text in lists))


SUBS = [
    # --- the web backend -------------------------------------------------------------------
    S(
        "backend",
        "upload",
        "the attachment service|avatar uploads|the document importer|the upload API",
        "S3|the thumbnail service|ImageMagick|libvips|the CDN",
        "boto3|Pillow|python-magic|pyvips|aiofiles",
        "app/uploads/service.py|app/uploads/storage.py|app/uploads/naming.py|app/uploads/mime.py",
        "uploads|s3|files|storage",
        "file|attachment|image|document",
        "uploads|attachments|documents",
    ),
    S(
        "backend",
        "auth",
        "the session middleware|password reset|the login endpoint|two-factor "
        "login|the SSO integration|API key auth",
        "Redis|Okta|Auth0|the identity service|Postgres",
        "PyJWT|passlib|authlib|itsdangerous|pyotp|fastapi-users",
        "app/auth/session.py|app/auth/reset.py|app/auth/mfa.py|app/auth/api_keys.py|"
        "app/auth/permissions.py",
        "auth|login|sessions|security|tokens",
        "login|session|token|reset link",
        "users|sessions|api_keys|password_resets",
    ),
    S(
        "backend",
        "email",
        "transactional email|receipt emails|the email sender|password reset "
        "mails|the weekly summary mail",
        "SES|Postmark|the SMTP relay|Mailgun",
        "django-anymail|boto3|jinja2|premailer",
        "app/email/sender.py|app/email/templates/receipt.html|app/tasks/send_email.py",
        "email|notifications|templates",
        "email|message|bounce",
        "email_log|bounces",
    ),
    S(
        "backend",
        "payments",
        "the payment webhook|checkout|refunds|the billing service|invoice generation",
        "Stripe|Adyen|the tax service|the ledger",
        "stripe-python|httpx|WeasyPrint|babel",
        "app/payments/webhooks.py|app/payments/"
        "refunds.py|app/billing/invoices.py|app/payments/checkout.py",
        "payments|billing|webhooks|stripe",
        "payment|refund|invoice|charge",
        "payments|invoices|refunds|ledger_entries",
    ),
    S(
        "backend",
        "queue",
        "the Celery workers|the task router|the retry policy|the job scheduler|the export tasks",
        "Redis|RabbitMQ|the result backend|Flower",
        "celery|kombu|redis-py|dramatiq",
        "app/tasks/router.py|app/tasks/exports.py|app/tasks/retry.py|app/celery_config.py",
        "celery|queues|tasks|workers",
        "task|job|message|retry",
        "task_results|exports",
    ),
    S(
        "backend",
        "db",
        "the ORM layer|the shipments queries|the reporting queries|the "
        "Alembic migrations|the read replica",
        "Postgres|the read replica|RDS|pg_stat_statements",
        "SQLAlchemy|psycopg|alembic|asyncpg",
        "app/db/session.py|app/models/shipment.py|app/repositories/orders.py|app/db/replica.py",
        "postgres|sqlalchemy|database|sql",
        "query|row|transaction|migration",
        "shipments|orders|customers|addresses|parcels",
    ),
    S(
        "backend",
        "api",
        "the public REST API|the GraphQL gateway|API versioning|the partner API|the admin API",
        "the API gateway|Kong|the partner portal|FastAPI",
        "FastAPI|pydantic|strawberry|orjson|starlette",
        "app/api/v2/routes.py|app/api/schemas.py|app/api/errors.py|app/graphql/schema.py",
        "api|rest|pydantic|versioning",
        "endpoint|response|field|route",
        "api_clients|shipments",
    ),
    S(
        "backend",
        "search",
        "shipment search|the address autocomplete|the search indexer|the admin search",
        "OpenSearch|Elasticsearch|Postgres trigram|Meilisearch",
        "opensearch-py|pg_trgm|elasticsearch-dsl",
        "app/search/indexer.py|app/search/query.py|app/search/mappings.json",
        "search|opensearch|indexing",
        "document|query|analyzer|mapping",
        "search_outbox|shipments",
    ),
    S(
        "backend",
        "tracking",
        "parcel tracking|the carrier integration|the geocoder|the label "
        "printer service|delivery slots",
        "the DHL API|the UPS API|Google Maps|Nominatim|the carrier SFTP",
        "httpx|tenacity|shapely|zeep",
        "app/carriers/dhl.py|app/carriers/ups.py|app/geo/geocode.py|app/labels/render.py",
        "carriers|tracking|geocoding|labels",
        "label|scan event|address|slot",
        "tracking_events|labels|addresses",
    ),
    S(
        "backend",
        "cache",
        "the Redis cache|the rate card cache|the pricing service|the session store",
        "Redis|the pricing engine|memcached",
        "redis-py|cachetools|aiocache",
        "app/cache.py|app/pricing/rates.py|app/pricing/cache.py",
        "cache|redis|pricing",
        "key|entry|price",
        "rate_cards|prices",
    ),
    S(
        "backend",
        "tests",
        "the backend test suite|the integration tests|the API contract tests|pytest",
        "testcontainers|the test database|the CI Postgres service",
        "pytest|pytest-xdist|hypothesis|respx|freezegun",
        "tests/conftest.py|tests/integration/test_shipments.py|tests/api/test_contract.py",
        "testing|pytest|fixtures",
        "test|fixture|assertion",
        "shipments|users",
    ),
    # --- the web frontend ------------------------------------------------------------------
    S(
        "frontend",
        "fe-build",
        "the web build|the Vite config|the bundle|the dev server|the design system package",
        "Vite|Rollup|esbuild|the CDN|Turborepo",
        "vite|rollup|esbuild|@vitejs/plugin-react|turbo",
        "web/vite.config.ts|web/package.json|web/tsconfig.json|packages/ui/package.json",
        "vite|bundle|build|frontend",
        "chunk|module|asset|import",
        "bundle",
    ),
    S(
        "frontend",
        "fe-state",
        "the checkout form|the cart|the address form|the shipment "
        "table|the dashboard filters|the settings page",
        "React Query|Zustand|Redux Toolkit|the API client",
        "react-hook-form|zod|@tanstack/react-query|zustand|redux-toolkit",
        "web/src/checkout/CheckoutForm.tsx|web/src/cart/store.ts|web/src/shipments/Table.tsx|"
        "web/src/settings/SettingsPage.tsx",
        "react|forms|state|frontend",
        "field|component|hook|query",
        "cart",
    ),
    S(
        "frontend",
        "fe-ui",
        "the modal component|the date picker|the design system|the "
        "navigation bar|the data table|the toast notifications",
        "Radix UI|the design tokens|Storybook|Tailwind",
        "@radix-ui/react-dialog|tailwindcss|clsx|react-aria",
        "packages/ui/src/Modal.tsx|packages/ui/src/DatePicker.tsx|web/src/layout/NavBar.tsx|"
        "packages/ui/src/Table.tsx",
        "components|accessibility|css|design-system",
        "component|button|dialog|prop",
        "ui",
    ),
    S(
        "frontend",
        "fe-test",
        "the Vitest suite|the component tests|the Cypress suite|visual "
        "regression tests|the MSW mocks",
        "jsdom|happy-dom|Chromatic|MSW",
        "vitest|@testing-library/react|msw|cypress|chromatic",
        "web/vitest.config.ts|web/src/"
        "test/setup.ts|web/cypress/e2e/login.cy.ts|web/src/mocks/handlers.ts",
        "testing|vitest|frontend",
        "test|mock|snapshot|selector",
        "tests",
    ),
    S(
        "frontend",
        "fe-runtime",
        "the service worker|the router|the analytics hook|the error "
        "boundary|the map view|the shipment timeline",
        "Workbox|React Router|Segment|Mapbox|Sentry",
        "workbox|react-router|@segment/analytics-next|mapbox-gl|@sentry/react",
        "web/src/sw.ts|web/src/routes.tsx|web/src/analytics/segment.ts|web/src/map/MapView.tsx",
        "react|routing|pwa|frontend",
        "route|page|event|tile",
        "routes",
    ),
    # --- infrastructure, CI and deploy -----------------------------------------------------
    S(
        "infra",
        "ci",
        "the CI pipeline|the lint job|the release workflow|the nightly workflow|"
        "the preview environments",
        "GitHub Actions|the self-hosted runners|Renovate|Codecov",
        "actions/checkout|actions/setup-python|docker/build-push-action|pre-commit",
        ".github/workflows/lint.yml|.github/workflows/nightly.yml|.github/workflows/preview.yml|"
        ".pre-commit-config.yaml",
        "ci|github-actions|workflows",
        "job|step|runner|artifact",
        "ci",
    ),
    S(
        "infra",
        "k8s",
        "the API Deployment|the ingress controller|the cluster autoscaler|the "
        "node pools|the worker Deployment|the staging namespace",
        "EKS|Karpenter|the AWS load balancer controller|CoreDNS",
        "kubectl|helm|kustomize|karpenter",
        "deploy/helm/parcel/templates/worker.yaml|deploy/helm/parcel/values-staging.yaml|"
        "deploy/cluster/karpenter.yaml|deploy/helm/parcel/templates/hpa.yaml",
        "kubernetes|helm|deploy|eks",
        "pod|node|replica|container",
        "cluster",
    ),
    S(
        "infra",
        "tf",
        "the Terraform stack|the VPC module|the RDS module|the IAM roles|the S3 "
        "buckets|the CloudFront distribution",
        "AWS|Terraform Cloud|the tf-modules repo|CloudFront",
        "terraform|tflint|aws provider|checkov",
        "infra/terraform/rds.tf|infra/"
        "terraform/iam.tf|infra/terraform/s3.tf|infra/terraform/cdn.tf",
        "terraform|aws|iam|infrastructure",
        "resource|policy|module|bucket",
        "infra",
    ),
    S(
        "infra",
        "observability",
        "the Prometheus alerts|the Grafana dashboards|the uptime "
        "checks|the tracing setup|PagerDuty routing",
        "Prometheus|Grafana|Tempo|PagerDuty|OpenTelemetry",
        "prometheus-client|opentelemetry-sdk|alertmanager|blackbox exporter",
        "deploy/monitoring/alerts.yaml|deploy/monitoring/dashboards/api.json|app/telemetry.py",
        "monitoring|alerts|prometheus|tracing",
        "alert|metric|span|dashboard",
        "metrics",
    ),
    S(
        "infra",
        "docker",
        "the API image|the base image|docker compose for dev|the worker image|the image registry",
        "ECR|Docker Hub|the buildx cache|distroless",
        "docker|buildx|docker compose|hadolint",
        "Dockerfile.worker|docker-compose.yml|docker/base/Dockerfile|.hadolint.yaml",
        "docker|images|containers",
        "image|layer|tag|container",
        "images",
    ),
    S(
        "infra",
        "net",
        "the load balancer|the VPN|the bastion host|the NAT gateway|the WAF rules|the status page",
        "ALB|WireGuard|AWS WAF|Route 53|Cloudflare",
        "aws cli|wireguard|cloudflare terraform provider",
        "infra/terraform/alb.tf|infra/terraform/waf.tf|infra/terraform/vpn.tf",
        "networking|aws|security",
        "listener|rule|subnet|route",
        "infra",
    ),
    # --- the data pipeline -----------------------------------------------------------------
    S(
        "data",
        "airflow",
        "the Airflow scheduler|the carrier_rates DAG|the invoices_export DAG|"
        "the Airflow workers|the sensors on vendor files|the reverse ETL DAG",
        "Airflow|the metadata database|Celery executor|MWAA",
        "apache-airflow|airflow-provider-snowflake|astronomer-cosmos",
        "pipeline/dags/"
        "carrier_rates.py|pipeline/dags/invoices_export.py|pipeline/plugins/operators.py|"
        "pipeline/dags/reverse_etl.py",
        "airflow|dags|orchestration",
        "task|dag run|sensor|operator",
        "dag_runs",
    ),
    S(
        "data",
        "dbt",
        "the dbt project|the revenue mart|stg_shipments|fct_deliveries|"
        "dim_customers|the finance models",
        "Snowflake|dbt Cloud|elementary|the semantic layer",
        "dbt-core|dbt-snowflake|dbt-utils|sqlfluff",
        "dbt/models/marts/fct_deliveries.sql|dbt/"
        "models/staging/stg_shipments.sql|dbt/models/marts/dim_customers.sql|dbt/macros/"
        "cents_to_eur.sql",
        "dbt|models|warehouse|sql",
        "model|test|macro|column",
        "fct_deliveries|dim_customers|stg_shipments|fct_revenue",
    ),
    S(
        "data",
        "warehouse",
        "Snowflake roles|the loading warehouse|the raw schema|the Looker connection|Snowpipe",
        "Snowflake|Looker|Snowpipe|the S3 stage",
        "snowflake-connector-python|snowsql|schemachange",
        "infra/snowflake/roles.sql|infra/snowflake/stages.sql|looker/models/core.model.lkml",
        "snowflake|warehouse|permissions",
        "role|grant|stage|query",
        "raw.shipments|analytics.fct_revenue",
    ),
    S(
        "data",
        "stream",
        "the Kafka ingestion|the CDC connector|the clickstream collector|the "
        "events consumer|the Debezium connector",
        "Kafka|Debezium|Kafka Connect|the schema registry",
        "confluent-kafka|fastavro|debezium",
        "pipeline/ingest/consumer.py|pipeline/"
        "ingest/schemas/shipment.avsc|deploy/kafka/connect-postgres.json",
        "kafka|streaming|cdc|ingestion",
        "message|batch|offset commit|poll",
        "shipment_changes|clicks",
    ),
    S(
        "data",
        "spark",
        "the Spark jobs|the EMR cluster|the nightly aggregation|the delivery "
        "ETA features|the Glue catalog",
        "EMR|Glue|Athena|Delta Lake",
        "pyspark|delta-spark|boto3|great_tables",
        "pipeline/spark/delivery_features.py|pipeline/"
        "spark/nightly_agg.py|pipeline/glue/catalog.py",
        "spark|emr|parquet|lake",
        "partition|executor|stage|file",
        "deliveries|features",
    ),
    S(
        "data",
        "analytics",
        "the revenue dashboard|the carrier scorecard|the churn model|the "
        "weekly KPI email|the forecasting notebook",
        "Looker|Hex|the ML feature store|Google Sheets",
        "scikit-learn|prophet|pandas|lightgbm",
        "notebooks/churn.ipynb|looker/views/revenue.view.lkml|pipeline/ml/forecast.py",
        "analytics|dashboards|metrics|ml",
        "chart|metric|feature|forecast",
        "fct_revenue|churn_scores",
    ),
]

# The targets' own problems (an nginx timeout on uploads, a Celery task run twice, a
# liveness probe on the database, ...) have no theme here at all. A theme that would come
# close to answering a labelled query for one subsystem is never combined with it.
BLOCKED = {
    ("auth", "api-rate"),
    ("auth", "measure"),
    ("email", "retry-storm"),
    ("queue", "retry-storm"),
    ("queue", "signal"),
    ("db", "leak"),
    ("payments", "leak"),
    ("db", "n-plus-one"),
    ("api", "n-plus-one"),
    ("dbt", "style"),
    ("warehouse", "style"),
}
# Who owns a part of the pipeline is a target's answer ("who gets paged ...").
BLOCKED |= {(tag, "owner") for tag in ("airflow", "dbt", "warehouse", "stream", "spark",
                                       "analytics")}  # fmt: skip

P = Theme  # short alias for the long table below

THEMES = [
    # ----- problems anywhere in code ------------------------------------------------------
    P(
        "retry-storm",
        "gotcha",
        (
            "{Name} hammered {dep} with retries during its outage",
            "Retry storm from {name} when {dep} went down",
            "{lib} retries in {name} had no backoff",
        ),
        (
            "{lib} retried {n} times in a tight loop",
            "added exponential backoff with jitter, capped at {n2} attempts",
            "{dep} answered 503 for {mins} minutes",
            "retries now stop when the circuit breaker opens",
        ),
        (
            "When {dep} had an incident, {name} made it worse by retrying every {item} at once.",
            "The fix was backoff with jitter and a cap, so a {dep} outage costs us a delay and "
            "not a pile-up.",
            "We saw {big} calls per minute to {dep} on the dashboard.",
        ),
        areas=("backend", "data"),
        tags=("tracking", "payments", "email", "upload", "search", "cache", "stream", "airflow"),
    ),
    P(
        "naive-datetime",
        "gotcha",
        (
            "{Name} compared naive and aware datetimes",
            "TypeError comparing datetimes in {name} after the {lib} upgrade",
        ),
        (
            "TypeError: can't compare offset-naive and offset-aware datetimes",
            "the {item} timestamp from {dep} came without tzinfo",
            "datetime.now(timezone.utc) everywhere, never utcnow()",
        ),
        (
            "The value read from {dep} had no timezone while ours did, so the comparison raised.",
            "A helper now parses every incoming timestamp as UTC.",
        ),
        areas=("backend", "data"),
    ),
    P(
        "unicode-name",
        "gotcha",
        ("{Name} fail{s} on non-ASCII {item} names", "Umlauts in {item} names broke {name}"),
        (
            "UnicodeEncodeError: 'latin-1' codec can't encode character '\\u00fc'",
            "{dep} expects RFC 5987 encoded names",
            "normalise to NFC before storing",
        ),
        (
            "A customer named Jürgen could not get through {name}.",
            "The header or file name was encoded as latin-1 somewhere in {lib}; we now encode "
            "explicitly and test with 'Zoë Łukasz 東京'.",
        ),
        areas=("backend",),
        tags=("upload", "email", "tracking", "search"),
    ),
    P(
        "leak",
        "discovery",
        (
            "{Name} leaked connections by creating a {lib} client per {item}",
            "Too many open files in {name}",
        ),
        (
            "OSError: [Errno 24] Too many open files",
            "one shared client per process, closed on shutdown",
            "ulimit -n was {n3}",
            "lsof showed {big} sockets to {dep}",
        ),
        (
            "Each {item} built a new client and nothing closed it, so sockets to {dep} piled up "
            "until the process hit its file limit.",
            "Creating the client once at start-up fixed it and made calls {pct}% faster.",
        ),
        areas=("backend", "data"),
        tags=("tracking", "payments", "search", "cache", "upload", "email", "stream"),
    ),
    P(
        "stale-cache",
        "gotcha",
        (
            "{Name} served stale data because the cache key ignored the locale",
            "Cached {item} responses in {name} outlived the data they came from",
        ),
        (
            "cache key now includes the tenant id and locale",
            "TTL lowered from {mins} to {n2} minutes",
            "invalidate on write, not only by TTL",
        ),
        (
            "Users saw an old {item} for up to {mins} minutes after editing it.",
            "The cache in front of {name} keyed only on the id, so changes never evicted it.",
        ),
        areas=("backend",),
        tags=("cache", "api", "search", "tracking"),
    ),
    P(
        "webhook-signature",
        "gotcha",
        (
            "{Dep} signature check in {name} failed after parsing the body first",
            "Signature verification of {dep} callbacks needs the raw bytes",
        ),
        (
            "verify against request.body() before any JSON parsing",
            "re-serialising changed whitespace and key order",
            "signing secret rotated on {date}",
        ),
        (
            "Every callback from {dep} was rejected with 400 after a refactor in {name}.",
            "The HMAC is computed over the exact bytes sent, so the handler must read the raw "
            "body first.",
        ),
        areas=("backend",),
        tags=("payments", "email"),
    ),
    P(
        "enum-migration",
        "gotcha",
        (
            "Adding a value to a Postgres enum in {name} needs its own migration",
            "ALTER TYPE ... ADD VALUE in {name} failed inside a transaction",
        ),
        (
            "ALTER TYPE ... ADD VALUE cannot be used in the same transaction as its use",
            "split into two Alembic revisions",
            "we now prefer a text column with a CHECK",
        ),
        (
            "A migration that added the '{status}' status and used it right away failed on deploy.",
            "Enum changes go in their own revision before the code that uses them.",
        ),
        areas=("backend",),
        tags=("db", "payments", "tracking", "api"),
    ),
    P(
        "soft-delete",
        "gotcha",
        (
            "Soft-deleted {item}s still showed up in {name}",
            "{Name} ignored deleted_at in one query",
        ),
        (
            "the raw SQL in {file} skipped the deleted_at IS NULL filter",
            "a default query filter in the repository layer now applies it",
            "found by support ticket {ticket}",
        ),
        (
            "A customer saw a {item} they had deleted.",
            "Every query in {name} goes through the repository, which adds the deleted_at filter.",
        ),
        areas=("backend",),
        tags=("db", "api", "payments", "upload", "tracking", "search"),
    ),
    P(
        "big-int",
        "gotcha",
        (
            "IDs above 2^53 lost precision in the {name} JSON",
            "JavaScript rounded {item} ids coming from {name}",
        ),
        (
            "Number.MAX_SAFE_INTEGER is 9007199254740991",
            "ids are now serialised as strings",
            "{lib} had been emitting them as numbers",
        ),
        (
            "Two different {item}s looked identical in the browser because their ids rounded to "
            "the same double.",
            "Any id from a 64-bit sequence goes over the wire as a string.",
        ),
        areas=("backend",),
        tags=("api", "db", "tracking", "payments"),
    ),
    P(
        "env-missing",
        "gotcha",
        ("{Name} crashed at start when {var} was unset", "{var} missing in staging broke {name}"),
        (
            "KeyError: '{var}'",
            "settings now fail fast with a message naming the variable",
            "the Helm values for {env} lacked it",
        ),
        (
            "A new setting was added to {name} but not to the {env} values.",
            "Settings are validated at start-up so the pod fails its deploy instead of the first "
            "{item}.",
        ),
        areas=("backend", "data"),
        tags=("api", "email", "payments", "tracking", "search", "queue", "airflow", "stream"),
    ),
    P(
        "deadlock",
        "discovery",
        (
            "Deadlock between {name} and the nightly job on {table}",
            "{Name} deadlocked with the reconciliation job",
        ),
        (
            "psycopg.errors.DeadlockDetected: deadlock detected",
            "both updated {table} rows in a different order",
            "rows are now locked in id order with SELECT ... FOR UPDATE",
        ),
        (
            "About {n} times a night one side was killed by Postgres.",
            "Taking row locks in a consistent order removed the cycle.",
        ),
        areas=("backend",),
        tags=("db", "payments", "tracking"),
    ),
    P(
        "n-plus-one",
        "discovery",
        ("{Name} ran one query per {item}", "N+1 queries behind {name}"),
        (
            "{big} queries for a page of 50",
            "selectinload on the relationship fixed it",
            "the SQLAlchemy echo log made it obvious",
            "response time from {ms} ms to {ms2} ms",
        ),
        (
            "Profiling {name} showed the same SELECT repeated for every {item}.",
            "Eager loading the relation brought it down to {n} queries.",
        ),
        areas=("backend",),
        tags=("api", "search", "tracking", "payments", "upload"),
    ),
    P(
        "float-money",
        "gotcha",
        (
            "Amounts in {name} rounded wrong because floats were used",
            "Cents went missing in {name} totals",
        ),
        (
            "0.1 + 0.2 != 0.3: amounts are integers in cents",
            "Decimal with ROUND_HALF_EVEN in the ledger",
            "finance found a {n}-cent difference per {n3} {item}s",
        ),
        (
            "Totals in {name} drifted from {dep} by a few cents a day.",
            "Money is stored and computed in integer cents; formatting happens at the edge.",
        ),
        areas=("backend", "data"),
        tags=("payments", "db", "analytics", "dbt"),
    ),
    P(
        "pii-logs",
        "gotcha",
        (
            "{Name} logged full request bodies including personal data",
            "Debug logging in {name} wrote addresses and phone numbers",
        ),
        (
            "LOG_LEVEL=DEBUG had been left on in {env}",
            "a redaction filter drops known fields",
            "logs older than the fix were deleted",
        ),
        (
            "Someone turned on debug logging in {name} to chase a bug and forgot it.",
            "The logging config now redacts address, phone and name fields before output.",
        ),
        areas=("backend",),
        tags=("api", "auth", "tracking", "payments", "email"),
    ),
    P(
        "upgrade-break",
        "discovery",
        (
            "Upgrading {lib} to {ver} changed how {name} handle{s} defaults",
            "{lib} {ver} broke {name} in a subtle way",
        ),
        (
            "the changelog lists it under 'breaking changes'",
            "pinned to the previous minor until the fix in {file}",
            "Renovate PR {pr} had passed CI",
        ),
        (
            "The upgrade looked harmless and CI passed, but {name} behaved differently in {env}.",
            "Read the changelog of {lib} before merging its minor versions.",
        ),
    ),
    P(
        "permission-check",
        "gotcha",
        (
            "{Name} missed an object-level permission check",
            "Users could read another tenant's {item} through {name}",
        ),
        (
            "only the list endpoint filtered by organisation",
            "found in the pentest in {month}",
            "a shared dependency now loads objects scoped to the tenant",
        ),
        (
            "Guessing an id returned a {item} from another organisation.",
            "All lookups in {name} go through a tenant-scoped loader now.",
        ),
        areas=("backend",),
        tags=("api", "upload", "search", "payments", "tracking"),
    ),
    P(
        "signal",
        "gotcha",
        (
            "{Name} ignored SIGTERM and was killed mid-{item}",
            "Rolling deploys cut {name} off mid-{item}",
        ),
        (
            "terminationGracePeriodSeconds was 30",
            "the process now finishes the current {item} and exits",
            "exit code 137 after the grace period",
        ),
        (
            "Every deploy left a few half-done {item}s behind.",
            "Handling SIGTERM properly lets {name} drain before the pod stops.",
        ),
        areas=("backend", "data"),
        tags=("tracking", "email", "upload", "search", "stream", "spark", "airflow"),
    ),
    P(
        "slow-tests",
        "friction",
        (
            "Running {name} takes {mins} minutes because each test recreates the schema",
            "Running {name} is slow on laptops",
        ),
        (
            "schema created once per session, each test in a rolled-back transaction",
            "pytest-xdist with -n auto",
            "from {mins} minutes to {n2}",
        ),
        (
            "Waiting for the suite made people skip it before pushing.",
            "Most of the time went into CREATE TABLE, not the tests.",
        ),
        areas=("backend",),
        tags=("tests",),
    ),
    P(
        "api-rate",
        "gotcha",
        (
            "{Dep} API limit of {n}/min hit by {name} bulk jobs",
            "{Name} got 429s from {dep} during the nightly sync",
        ),
        (
            "{dep} allows {n} requests per minute per key",
            "a token bucket in Redis spaces the calls",
            "Retry-After is honoured",
        ),
        (
            "The nightly sync in {name} fired everything at once and {dep} throttled us for an "
            "hour.",
            "Calls are now paced below the limit.",
        ),
        areas=("backend", "data"),
        tags=("tracking", "payments", "email", "search"),
    ),
    # ----- themes for the frontend --------------------------------------------------------
    P(
        "rerender",
        "discovery",
        (
            "{Name} re-rendered on every keystroke",
            "Typing lagged in {name} because the whole tree re-rendered",
        ),
        (
            "the context value was a new object each render",
            "memoised with useMemo",
            "React Profiler showed {ms} ms per keystroke",
        ),
        (
            "Typing in {name} felt sluggish on older laptops.",
            "Splitting the context and memoising the value stopped the cascade.",
        ),
        areas=("frontend",),
        tags=("fe-state", "fe-ui", "fe-runtime"),
    ),
    P(
        "chunk-load",
        "gotcha",
        (
            "ChunkLoadError after deploys for users with {name} open in a tab",
            "Old tabs broke after a release because chunks were deleted",
        ),
        (
            "Failed to fetch dynamically imported module",
            "keep the previous release's assets for {n} days",
            "the error boundary reloads once on this error",
        ),
        (
            "After each deploy Sentry filled with import errors from {name}.",
            "Lazy routes pointed at hashed files that the sync had removed.",
        ),
        areas=("frontend",),
        tags=("fe-runtime", "fe-state"),
    ),
    P(
        "focus",
        "gotcha",
        (
            "Keyboard focus was lost after closing {name}",
            "{Name} trap{s} focus wrongly for screen readers",
        ),
        (
            "focus returns to the trigger element on close",
            "axe reported {n} violations",
            "tested with VoiceOver and NVDA",
        ),
        (
            "An accessibility audit found that {name} left keyboard users at the top of the page.",
            "The dialog primitive from {lib} handles it when used as documented.",
        ),
        areas=("frontend",),
        tags=("fe-ui", "fe-state"),
    ),
    P(
        "hydration",
        "gotcha",
        (
            "Hydration mismatch warnings in {name}",
            "{Name} render{s} differently on the server and in the browser",
        ),
        (
            "Warning: Text content did not match",
            "random ids now come from useId",
            "the locale-dependent number was formatted on the server in en-US",
        ),
        (
            "The prerendered HTML of {name} and the first client render disagreed.",
            "Anything random or locale-dependent moves into an effect.",
        ),
        areas=("frontend",),
        tags=("fe-ui", "fe-runtime", "fe-state"),
    ),
    P(
        "quota",
        "gotcha",
        (
            "QuotaExceededError saving drafts of {name} in localStorage",
            "{Name} drafts overflowed browser storage",
        ),
        (
            "QuotaExceededError: Failed to execute 'setItem' on 'Storage'",
            "drafts moved to IndexedDB via idb-keyval",
            "Safari private mode has a tiny quota",
        ),
        (
            "Users lost their draft in {name} when the storage filled up.",
            "Large drafts now go to IndexedDB and failures show a toast.",
        ),
        areas=("frontend",),
        tags=("fe-state", "fe-runtime"),
    ),
    P(
        "scroll",
        "friction",
        (
            "Scroll position in {name} is lost on back navigation",
            "Going back to {name} jumps to the top",
        ),
        ("ScrollRestoration from React Router", "data is refetched after the scroll restore ran"),
        (
            "Support gets complaints that {name} forgets where you were.",
            "Restoring scroll after the data has loaded fixed most cases.",
        ),
        areas=("frontend",),
        tags=("fe-state", "fe-ui", "fe-runtime"),
    ),
    P(
        "debounce",
        "discovery",
        ("{Name} sent a request on every keystroke", "Search box in {name} flooded the API"),
        (
            "debounced by {ms} ms",
            "in-flight requests are cancelled with AbortController",
            "{n} requests for one word before",
        ),
        (
            "The API dashboard showed a spike every time someone typed in {name}.",
            "Debouncing and cancelling stale requests cut the load by {pct}%.",
        ),
        areas=("frontend",),
        tags=("fe-state", "fe-ui", "fe-runtime"),
    ),
    P(
        "optimistic",
        "gotcha",
        (
            "Optimistic update in {name} was not rolled back on error",
            "{Name} showed saved values that the server had rejected",
        ),
        (
            "onError restores the previous cache entry",
            "409 from the API left the UI wrong",
            "@tanstack/react-query onMutate returns the snapshot",
        ),
        (
            "After a conflict the UI in {name} kept showing the rejected value until reload.",
            "Every optimistic mutation keeps a snapshot to restore.",
        ),
        areas=("frontend",),
        tags=("fe-state", "fe-ui"),
    ),
    P(
        "snapshot",
        "friction",
        (
            "Snapshot tests for {name} break on every copy change",
            "Too many snapshot tests in {name}",
        ),
        (
            "{n} snapshot files updated in one PR",
            "replaced by role-based assertions with Testing Library",
        ),
        (
            "People updated snapshots without reading them, so they caught nothing.",
            "Tests of {name} now assert on what the user sees.",
        ),
        areas=("frontend",),
        tags=("fe-test", "fe-ui"),
    ),
    P(
        "z-index",
        "gotcha",
        (
            "{Name} dropdown is hidden behind the sticky header",
            "Popovers in {name} render under the header",
        ),
        ("render popovers in a portal", "z-index scale lives in the design tokens"),
        (
            "A new stacking context from a transform on the header hid the menu in {name}.",
            "Use the portal from {lib} and the token scale, never a raw z-index.",
        ),
        areas=("frontend",),
        tags=("fe-ui", "fe-state"),
    ),
    # ----- themes for infrastructure ------------------------------------------------------
    P(
        "disk-full",
        "gotcha",
        ("{Name} ran out of disk space", "No space left on device on {name}"),
        (
            "OSError: [Errno 28] No space left on device",
            "old images were never pruned",
            "docker system prune in a daily job",
            "volume grown from {n} to {n3} GB",
        ),
        (
            "{Name} stopped working at {clock} because the disk filled up.",
            "Nothing cleaned up old layers and logs; a scheduled prune does now.",
        ),
        areas=("infra",),
        tags=("ci", "docker", "k8s", "observability"),
    ),
    P(
        "latest-tag",
        "decision",
        (
            "Images for {name} are tagged with the git sha, never :latest",
            "No more :latest tags in {name}",
        ),
        (
            "imagePullPolicy: IfNotPresent with immutable tags",
            "ECR tag immutability is on",
            "the sha tag is set by the release workflow",
        ),
        (
            "Two nodes ran different code under the same tag after a push.",
            "Immutable sha tags make every rollout reproducible.",
        ),
        areas=("infra",),
        tags=("docker", "k8s", "ci"),
    ),
    P(
        "pending-pods",
        "gotcha",
        (
            "Pods for {name} stuck in Pending: insufficient cpu",
            "{Name} could not schedule after raising its requests",
        ),
        (
            "0/6 nodes are available: 6 Insufficient cpu.",
            "requests were set equal to limits",
            "Karpenter provisioner was capped at {n} vCPU",
        ),
        (
            "Scaling {name} up did nothing because no node could fit the new pods.",
            "Requests now reflect measured usage, not the limits.",
        ),
        areas=("infra",),
        tags=("k8s",),
    ),
    P(
        "pdb",
        "gotcha",
        (
            "Node drains blocked by the PodDisruptionBudget of {name}",
            "Cluster upgrade stalled on {name}",
        ),
        (
            "Cannot evict pod as it would violate the pod's disruption budget",
            "minAvailable equalled the replica count",
            "now maxUnavailable: 1",
        ),
        (
            "The EKS upgrade hung for an hour waiting to evict {name}.",
            "A budget that allows no disruption blocks every drain.",
        ),
        areas=("infra",),
        tags=("k8s",),
    ),
    P(
        "alert-noise",
        "friction",
        ("{Name} alert fires every night during backups", "Noisy alert from {name} gets ignored"),
        (
            "the alert now needs {mins} minutes above the threshold",
            "silenced during the backup window in Alertmanager",
            "{n} pages last month, none actionable",
        ),
        (
            "People had started to ignore pages from {name}.",
            "An alert that fires every night teaches everyone to ignore it.",
        ),
        areas=("infra",),
        tags=("observability", "net", "k8s"),
    ),
    P(
        "iam",
        "gotcha",
        (
            "The IAM policy for {name} lacked kms:Decrypt",
            "AccessDenied from {name} after moving to a new IAM role",
        ),
        (
            "AccessDeniedException: not authorized to perform: kms:Decrypt",
            "the bucket uses a customer managed key",
            "IRSA role updated in {file}",
        ),
        (
            "Reads failed only for encrypted objects.",
            "The policy granted s3:GetObject but not the key, which SSE-KMS also needs.",
        ),
        areas=("infra",),
        tags=("tf", "k8s"),
    ),
    P(
        "token-permissions",
        "gotcha",
        (
            "GITHUB_TOKEN could not push tags in {name}",
            "Resource not accessible by integration in {name}",
        ),
        (
            "Resource not accessible by integration",
            "permissions: contents: write on that job only",
            "the org default token is read-only",
        ),
        (
            "The release step in {name} failed after the org switched the default token to "
            "read-only.",
            "Grant write permissions per job, not for the whole workflow.",
        ),
        areas=("infra",),
        tags=("ci",),
    ),
    P(
        "console-drift",
        "gotcha",
        (
            "A console change to {name} was undone by the next Terraform apply",
            "Manual edits to {name} got reverted",
        ),
        (
            "the plan showed '~ update in-place' that nobody read",
            "console access is read-only for everyone but break-glass",
            "import manual resources with terraform import",
        ),
        (
            "Someone fixed {name} by hand during an incident and the next apply undid it.",
            "Every change goes through a Terraform PR, even in an incident, or is written down "
            "for the follow-up.",
        ),
        areas=("infra",),
        tags=("tf", "net"),
    ),
    P(
        "nat-cost",
        "discovery",
        (
            "NAT gateway charges from {name} were ${big} a month",
            "{Name} pulled images through the NAT gateway",
        ),
        (
            "S3 and ECR traffic went through NAT",
            "VPC gateway endpoints for S3 and interface endpoints for ECR",
            "data processing charge $0.045 per GB",
        ),
        (
            "The AWS bill had a surprising line for NAT data processing.",
            "Endpoints keep AWS traffic inside the VPC and off the NAT.",
        ),
        areas=("infra",),
        tags=("net", "tf", "k8s"),
    ),
    P(
        "restore-drill",
        "context",
        ("Restore drill: {name} came back in {n} hours", "Last restore test of {name}"),
        (
            "point-in-time restore to a new instance",
            "the runbook step for DNS was missing",
            "next drill in {month}",
        ),
        (
            "We restore {name} once a quarter to prove the backups work.",
            "The slow part was rebuilding indexes, not copying data.",
        ),
        areas=("infra",),
        tags=("tf", "observability"),
    ),
    P(
        "crashloop",
        "gotcha",
        (
            "{Name} in CrashLoopBackOff after a ConfigMap was renamed",
            "CrashLoopBackOff on {name} after a config change",
        ),
        (
            "Back-off restarting failed container",
            "the mount referenced the old ConfigMap name",
            "kubectl logs --previous shows the real error",
        ),
        (
            "A rename in the chart left {name} mounting a ConfigMap that no longer existed.",
            "Check kubectl logs --previous before anything else.",
        ),
        areas=("infra",),
        tags=("k8s",),
    ),
    P(
        "hpa-flap",
        "discovery",
        (
            "{Name} autoscaler flapped between {n} and {n3} replicas",
            "Scaling of {name} oscillated every few minutes",
        ),
        (
            "scaleDown stabilizationWindowSeconds: 300",
            "CPU target was 50%",
            "the metric lagged the load by a minute",
        ),
        (
            "{Name} kept adding and removing pods, and each new pod paid a cold start.",
            "A longer scale-down window smoothed it out.",
        ),
        areas=("infra",),
        tags=("k8s",),
    ),
    # ----- themes for the data pipeline ---------------------------------------------------
    P(
        "upstream-rename",
        "gotcha",
        (
            "{Vendor} renamed a column and {name} loaded nulls",
            "Silent nulls in {name} after an upstream schema change",
        ),
        (
            "the loader matched columns by name and ignored unknown ones",
            "a contract test now fails on missing columns",
            "{n} days of data reloaded",
        ),
        (
            "Nobody noticed for days because nulls were allowed in {table}.",
            "Schema contracts with the source teams catch it at load time.",
        ),
        areas=("data",),
        tags=("dbt", "stream", "airflow", "warehouse"),
    ),
    P(
        "null-join",
        "gotcha",
        (
            "Rows disappeared from {name} in a join on a nullable key",
            "{Name} dropped records whose key was null",
        ),
        (
            "inner join on a column that is null for {pct}% of rows",
            "left join plus a not_null test upstream",
        ),
        (
            "Totals in {name} were lower than the source by a few percent.",
            "An inner join on a nullable key silently drops rows.",
        ),
        areas=("data",),
        tags=("dbt", "analytics", "spark"),
    ),
    P(
        "sensor-slots",
        "gotcha",
        (
            "Sensors in {name} used up all worker slots",
            "Waiting sensors blocked real tasks in {name}",
        ),
        (
            "mode='reschedule' frees the slot between pokes",
            "poke_interval 300, timeout 6h",
            "deferrable operators where available",
        ),
        (
            "Sensors waiting on vendor files held every slot and nothing else ran.",
            "Rescheduling sensors release their slot between checks.",
        ),
        areas=("data",),
        tags=("airflow",),
    ),
    P(
        "slow-model",
        "friction",
        (
            "Full refresh of {name} takes {mins} minutes",
            "{Name}: the slowest part of the nightly run",
        ),
        (
            "clustered by the date column",
            "incremental on loaded_at",
            "warehouse size M for this model only",
        ),
        (
            "The nightly run waits on {name} every day.",
            "Clustering and pruning on date brought the scan down by {pct}%.",
        ),
        areas=("data",),
        tags=("dbt",),
    ),
    P(
        "consumer-lag",
        "discovery",
        (
            "Consumer lag on {name} grew to {big} messages",
            "{Name} fell behind the topic after a deploy",
        ),
        (
            "max.poll.records lowered to {n}",
            "a slow enrichment call held the poll loop",
            "partitions increased from {n2} to {n3}",
        ),
        (
            "The lag dashboard for {name} climbed all afternoon.",
            "The consumer spent most of its time waiting on an HTTP call inside the loop.",
        ),
        areas=("data",),
        tags=("stream",),
    ),
    P(
        "grants",
        "gotcha",
        (
            "New models in {name} invisible to analysts: missing grants",
            "Analysts could not query {name} after a rebuild",
        ),
        (
            "SQL compilation error: Object does not exist or not authorized.",
            "grants go in the dbt project config, not by hand",
            "future grants on the schema for role REPORTER",
        ),
        (
            "A full refresh recreated the tables and dropped the manual grants.",
            "Grants are declared in dbt so every rebuild reapplies them.",
        ),
        areas=("data",),
        tags=("warehouse", "dbt"),
    ),
    P(
        "small-files",
        "discovery",
        ("{Name} wrote thousands of tiny parquet files", "Small files slowed every read of {name}"),
        (
            "{big} files of under 1 MB per day",
            "coalesce before write, target 256 MB files",
            "a weekly compaction job for older days",
        ),
        (
            "Listing the prefix took longer than reading the data.",
            "Fewer, larger files made Athena queries on {name} {n}x faster.",
        ),
        areas=("data",),
        tags=("spark", "stream"),
    ),
    P(
        "string-amounts",
        "gotcha",
        (
            "{Vendor} sends amounts to {name} as strings with commas",
            "Amounts from {vendor} parsed wrong in {name}",
        ),
        (
            "'1.234,56' is German formatting",
            "parse with babel.numbers.parse_decimal",
            "a test with a fixture file from {vendor}",
        ),
        (
            "A thousand-euro shipment showed up as 1.23 in the revenue numbers.",
            "Numbers from {vendor} are parsed with the locale they are written in.",
        ),
        areas=("data",),
        tags=("dbt", "airflow", "stream"),
    ),
    P(
        "accepted-values",
        "gotcha",
        (
            "accepted_values test failed when {vendor} added the status '{status}'",
            "New status '{status}' broke the tests of {name}",
        ),
        (
            "the test lists every known status",
            "unknown statuses now map to 'other' in staging",
            "ask the source team before they add one",
        ),
        (
            "The nightly run of {name} went red for a value nobody had told us about.",
            "Staging maps unknown values and warns instead of failing the run.",
        ),
        areas=("data",),
        tags=("dbt",),
    ),
    P(
        "reverse-etl",
        "gotcha",
        (
            "Reverse ETL from {name} overwrote fields that sales edit by hand",
            "The CRM sync from {name} clobbered manual edits",
        ),
        (
            "sync mode was 'upsert all fields'",
            "only the computed fields are mapped now",
            "Hightouch sync runs every {n2} hours",
        ),
        ("Sales lost their notes on {n} accounts.", "A sync may only own the fields it computes."),
        areas=("data",),
        tags=("airflow", "analytics", "dbt"),
    ),
    P(
        "notebook-drift",
        "friction",
        ("{Name} numbers differ from the dashboard", "The forecast in {name} cannot be reproduced"),
        (
            "the notebook read a CSV export from {month}",
            "inputs now come from the mart",
            "seeds fixed for the model",
        ),
        (
            "Two people ran {name} and got different answers.",
            "Notebooks read from the warehouse, never from downloads.",
        ),
        areas=("data",),
        tags=("analytics",),
    ),
]

# Conventions, decisions and context: the other half of a real store.
CONVENTIONS = [
    P(
        "choice",
        "decision",
        ("{Name} use{s} {lib} rather than {alt}", "Chose {lib} over {alt} for {name}"),
        (
            "{alt} was tried for {n2} weeks",
            "{lib} has the better typing story",
            "revisit when {alt} reaches {ver}",
        ),
        (
            "We compared both on {name} in {month}.",
            "The deciding point was maintenance: {lib} is active and {alt} had no release in a "
            "year.",
            "Whoever changes this should write up why.",
        ),
    ),
    P(
        "owner",
        "context",
        ("Ownership of {name}: the {team} team", "Who to ask about {name}"),
        ("questions go to #{channel}", "{who} knows the history", "on-call rotation '{team}'"),
        (
            "{Name} changed hands in {month}; ask {team} before touching it.",
            "Older decisions are in the {team} wiki space.",
        ),
    ),
    P(
        "where",
        "context",
        ("Code for {name} lives in {file}", "Where the code for {name} is wired up"),
        ("entry point {file}", "settings come from the {env} values", "talks to {dep}"),
        (
            "New code for {name} goes next to {file}.",
            "The module is small; read it before adding another layer.",
        ),
    ),
    P(
        "howto",
        "pattern",
        ("Adding a new {item} to {name}", "How to extend {name} with another {item}"),
        (
            "copy the closest existing {item} and rename it",
            "register it in {file}",
            "add a test beside the others",
            "mention it in the changelog",
        ),
        (
            "There is a checklist in the PR template for {name}.",
            "Most mistakes come from forgetting the registration step.",
        ),
    ),
    P(
        "style",
        "preference",
        ("Keep {name} code small and boring", "Style for {name}: explicit over clever"),
        (
            "no metaclasses or decorators with side effects",
            "type hints on every public function",
            "one module per concept",
        ),
        (
            "Reviewers of {name} push back on abstractions with one user.",
            "The team prefers a little repetition to a framework.",
        ),
    ),
    P(
        "review",
        "preference",
        ("Changes to {name} need a second reviewer from {team}", "Review rules for {name}"),
        ("CODEOWNERS lists {team} for {file}", "small PRs, under 400 lines"),
        (
            "{Name} broke production twice from unreviewed changes.",
            "Ask early in #{channel} for a reviewer.",
        ),
    ),
    P(
        "workaround",
        "pattern",
        ("Known workaround for {lib} quirks in {name}", "Working around {lib} in {name}"),
        (
            "wrapped in a helper in {file}",
            "upstream issue {pr} is still open",
            "remove the wrapper when {lib} {ver} is out",
        ),
        (
            "{lib} behaves oddly with empty values, so {name} wraps every call.",
            "Do not call {lib} directly from new code.",
        ),
    ),
    P(
        "measure",
        "discovery",
        ("p95 of {name} is {ms} ms; most of it is {dep}", "Where time goes in {name}"),
        (
            "measured with OpenTelemetry spans over a week",
            "{pct}% of the time is waiting on {dep}",
            "CPU is not the bottleneck",
        ),
        (
            "Before optimising {name}, look at the trace: the code itself is fast.",
            "Caching {dep} responses would be the only big win.",
        ),
        areas=("backend", "data"),
    ),
    P(
        "deprecation",
        "decision",
        (
            "Version 1 of {name} is deprecated; remove after {month}",
            "Deprecating the first version of {name}",
        ),
        (
            "a Deprecation header is sent on every response",
            "{n} clients still call it",
            "new work goes into v2 only",
        ),
        (
            "Keeping two versions of {name} doubled the tests.",
            "We email the remaining clients monthly.",
        ),
        tags=("api", "search", "tracking"),
    ),
    P(
        "env-notes",
        "context",
        ("{Name} differ{s} between staging and production", "Staging quirks of {name}"),
        (
            "staging uses a sandbox of {dep}",
            "data in staging is reset every Sunday",
            "production has {n} replicas, staging one",
        ),
        (
            "Do not trust timings from staging for {name}.",
            "The {dep} sandbox is slower and sometimes down.",
        ),
    ),
]

ASIDES = (
    "Found while working on {ticket}.",
    "{who} spotted it first.",
    "Took most of an afternoon to pin down.",
    "Worth checking in {env} too.",
    "Mentioned in the {month} retro.",
    "See {pr} for the discussion.",
    "Not urgent, but it will bite again.",
    "Happened again on {day}.",
    "Confirmed on {env}.",
    "The runbook has the details.",
    "Noted so nobody repeats the investigation.",
    "Still true as of {lib} {ver}.",
)

FILL = {
    "who": (
        "Priya",
        "Marek",
        "Sofia",
        "Tomasz",
        "Jonas",
        "Amara",
        "Lena",
        "Diego",
        "Yuki",
        "Hannah",
        "Omar",
        "Chloe",
        "Ravi",
        "Ines",
        "Felix",
        "Noor",
    ),
    "team": (
        "platform",
        "payments",
        "growth",
        "core-api",
        "web",
        "data",
        "infra",
        "logistics",
        "analytics",
        "identity",
    ),
    "channel": (
        "platform",
        "payments-dev",
        "web-dev",
        "data-eng",
        "infra",
        "backend",
        "incidents",
        "releases",
    ),
    "env": (
        "staging",
        "production",
        "the preview environment",
        "the sandbox",
        "eu-west-1",
        "the load-test cluster",
    ),
    "month": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "day": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "the weekend"),
    "clock": ("03:10", "04:45", "11:20", "14:05", "22:30", "midnight"),
    "status": (
        "on_hold",
        "returned_to_sender",
        "customs_review",
        "partially_paid",
        "address_unclear",
        "awaiting_pickup",
    ),
    "var": (
        "REDIS_URL",
        "SENTRY_DSN",
        "CARRIER_API_KEY",
        "SMTP_HOST",
        "OTEL_ENDPOINT",
        "STRIPE_WEBHOOK_SECRET",
        "SEARCH_URL",
        "FEATURE_EXPORT_BUCKET",
    ),
    "vendor": (
        "the carrier portal",
        "the DHL billing export",
        "the customs broker",
        "the finance ERP",
        "the Hermes invoice feed",
        "the partner CRM",
    ),
}


TICKETS = ("OPS", "WEB", "API", "DATA", "PAY", "INF")
ALTERNATIVES = {
    "backend": (
        "marshmallow",
        "attrs",
        "requests",
        "Flask",
        "Django REST framework",
        "RQ",
        "aiohttp",
        "Tortoise ORM",
        "Huey",
    ),
    "frontend": (
        "Formik",
        "Redux",
        "Jest",
        "Webpack",
        "styled-components",
        "Parcel",
        "Enzyme",
        "MobX",
        "Emotion",
    ),
    "infra": ("CircleCI", "Pulumi", "Jenkins", "Flux", "Nomad", "AWS CDK", "Ansible", "Datadog"),
    "data": (
        "Luigi",
        "Prefect",
        "Airbyte",
        "Dagster",
        "Fivetran",
        "Kinesis",
        "BigQuery",
        "Metabase",
    ),
}


def _pick(rng: random.Random, options: tuple[str, ...]) -> str:
    return options[rng.randrange(len(options))]


def _slots(rng: random.Random, sub: Sub) -> dict[str, str]:
    name = _pick(rng, sub.names)
    dep = _pick(rng, sub.deps)
    slots = {key: _pick(rng, values) for key, values in FILL.items()}
    slots["alt"] = _pick(rng, ALTERNATIVES[sub.area])
    plural = name.endswith("s") and not name.endswith(("ss", "stg_shipments"))
    slots["s"] = "" if plural else "s"
    slots["Vendor"] = slots["vendor"][0].upper() + slots["vendor"][1:]
    slots.update(
        name=name,
        Name=name[0].upper() + name[1:],
        dep=dep,
        Dep=dep[0].upper() + dep[1:],
        lib=_pick(rng, sub.libs),
        file=_pick(rng, sub.files),
        item=_pick(rng, sub.items),
        table=_pick(rng, sub.tables),
        n=str(rng.choice((2, 3, 4, 5, 6, 8, 12, 16, 20, 25, 40))),
        n2=str(rng.choice((2, 3, 5, 6, 10, 15))),
        n3=str(rng.choice((24, 32, 48, 64, 100, 128, 256, 1024))),
        big=f"{rng.choice((1, 2, 3, 4, 7, 9, 12, 18, 35, 60))}{rng.choice(('00', '000', ',500'))}",
        ms=str(rng.choice((120, 180, 240, 320, 450, 700, 900, 1400))),
        ms2=str(rng.choice((25, 40, 60, 85, 110))),
        mins=str(rng.choice((5, 10, 12, 15, 20, 30, 45))),
        pct=str(rng.choice((15, 20, 30, 35, 40, 55, 70, 85))),
        ver=f"{rng.randint(1, 9)}.{rng.randint(0, 30)}",
        ticket=f"{_pick(rng, TICKETS)}-{rng.randint(100, 4999)}",
        pr=f"#{rng.randint(200, 9800)}",
        date=f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
    )
    return slots


def _fill(template: str, slots: dict[str, str]) -> str:
    return re.sub(r"\b([Tt]he) the\b", r"\1", template.format(**slots))


def _memory(rng: random.Random, sub: Sub, theme: Theme) -> dict[str, object] | None:
    slots = _slots(rng, sub)
    title = _fill(_pick(rng, theme.titles), slots)
    if len(title) > 90:
        return None
    facts = [_fill(f, slots) for f in rng.sample(theme.facts, rng.randint(0, min(4, len(
        theme.facts))))]  # fmt: skip
    chosen = sorted(rng.sample(range(len(theme.story)), rng.randint(1, len(theme.story))))
    story = [_fill(theme.story[i], slots) for i in chosen]
    if rng.random() < 0.35:
        story.append(_fill(_pick(rng, ASIDES), slots))
    concepts = sorted(set(rng.sample(sub.concepts, rng.randint(0, min(3, len(sub.concepts))))))
    files = sorted(set(rng.sample(sub.files, rng.randint(0, min(2, len(sub.files))))))
    memory: dict[str, object] = {
        "type": theme.type,
        "title": title,
        "facts": facts,
        "narrative": " ".join(story[:4]),
        "concepts": concepts,
        "files": files,
        "age_days": round(min(700.0, max(0.1, rng.expovariate(1 / 160))), 1),
    }
    if rng.random() < 0.3:
        memory["importance"] = round(rng.uniform(0.2, 0.95), 2)
    return memory


def generate(count: int = COUNT, seed: int = SEED, avoid: frozenset[str] = frozenset()
             ) -> list[dict[str, object]]:  # fmt: skip
    """`count` distractors; none has a title in `avoid` (lowercased) or repeats another's."""
    rng = random.Random(seed)
    pairs = [
        (sub, theme)
        for sub in SUBS
        for theme in (*THEMES, *CONVENTIONS)
        if (not theme.areas or sub.area in theme.areas)
        and (not theme.tags or sub.tag in theme.tags)
        and (sub.tag, theme.name) not in BLOCKED
    ]
    out: list[dict[str, object]] = []
    seen = set(avoid)
    attempts = 0
    while len(out) < count:
        attempts += 1
        if attempts > count * 50:
            raise RuntimeError("too few distinct combinations for the count asked")
        sub, theme = pairs[rng.randrange(len(pairs))]
        memory = _memory(rng, sub, theme)
        if memory is None:
            continue
        key = str(memory["title"]).lower()
        if key in seen:
            continue
        seen.add(key)
        out.append(memory)
    return out


def target_titles(folder: Path = HERE) -> frozenset[str]:
    path = folder / "memories.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return frozenset(json.loads(line)["title"].lower() for line in lines if line.strip())


def main() -> int:
    rows = generate(avoid=target_titles())
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    (HERE / "distractors.jsonl").write_text(text, encoding="utf-8")
    print(f"wrote {len(rows)} distractors to {HERE / 'distractors.jsonl'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
