# ruff: noqa: E501  (the sessions' text, line for line)
"""The written sessions of the lessons set: scripts, their agent, their half, their lessons.

Each entry: (name, agent, half, steps). ``half`` is "tune" (the drafting rules were
adjusted on these) or "held" (only measured). Lessons are marked on the step that
holds them: ``lesson=(kind, phrase)``.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

SESSIONS: list[tuple[str, str, str, list[Step]]] = [
    # ---- corrections and rules ---------------------------------------------------------
    (
        "pnpm-not-npm",
        "claude",
        "tune",
        [
            U("Add zod as a dependency of the web app and validate the signup form with it."),
            A("I'll add zod to the web package first."),
            Bash("npm install zod", "added 1 package in 2s"),
            U(
                "No, we use pnpm here, never npm. The lockfile is pnpm-lock.yaml.",
                lesson=(C, "we use pnpm here, never npm"),
            ),
            A("Sorry about that. Let me undo it and use pnpm."),
            Bash(
                "git checkout package-lock.json && rm -f package-lock.json && pnpm add zod",
                "Done in 1.9s",
            ),
            Edit("apps/web/src/signup.tsx"),
            A("Done: zod is added with pnpm and the signup form validates its fields."),
            U("Thanks!"),
        ],
    ),
    (
        "pytest-plain-functions",
        "claude",
        "held",
        [
            U("Write tests for the slugify helper in utils/text.py."),
            Read("utils/text.py"),
            A("Let me check the existing tests to follow their style."),
            Edit("tests/test_text.py"),
            A(
                "I've added a TestSlugify class with five test methods covering unicode, spaces and empty input."
            ),
            U(
                "Please don't use classes for tests. We write tests as plain pytest functions with fixtures.",
                lesson=(C, "plain pytest functions"),
            ),
            A("Understood, I'll rewrite them as plain functions."),
            Edit("tests/test_text.py"),
            Bash("pytest tests/test_text.py -q", "5 passed in 0.04s"),
            A("All five tests are now plain functions and pass."),
        ],
    ),
    (
        "migrations-by-hand",
        "claude",
        "tune",
        [
            U("The orders table needs a shipped_at column."),
            A("I'll edit the existing migration 0007_orders.py to add the column."),
            Edit("app/migrations/0007_orders.py"),
            U(
                "Wait, never edit a migration that has shipped. Always add a new migration instead, "
                "because production already ran 0007.",
                lesson=(C, "never edit a migration that has shipped"),
            ),
            A("Right. I'll revert that and create 0012_orders_shipped_at.py."),
            Bash("git checkout app/migrations/0007_orders.py", ""),
            Edit("app/migrations/0012_orders_shipped_at.py"),
            Bash(
                "python manage.py migrate --plan", "Planned operations:\n  0012_orders_shipped_at"
            ),
            A("The new migration adds shipped_at as a nullable timestamp."),
        ],
    ),
    (
        "rules-upfront",
        "claude",
        "held",
        [
            U(
                "Before you start on the exporter: from now on, always run ruff format before you commit.",
                lesson=(R, "always run ruff format before you commit"),
            ),
            A("Will do."),
            U(
                "And we keep all SQL in queries.py, never inline in the service code.",
                lesson=(R, "we keep all SQL in queries.py"),
            ),
            A("Noted. I'll start with the CSV exporter in services/export.py."),
            Read("services/export.py"),
            Edit("services/export.py"),
            Edit("db/queries.py"),
            Bash("ruff format services db && pytest -q", "2 files reformatted\n41 passed"),
            A("The exporter streams rows from a new query in queries.py; tests pass."),
            U("Great, thank you."),
        ],
    ),
    (
        "logging-not-print",
        "codex",
        "tune",
        [
            U(
                "Add some debug output to the retry loop in sync/worker.py so I can see what happens."
            ),
            A("I'll add print statements around each retry."),
            Edit("sync/worker.py"),
            U(
                "Don't use print in library code. Use the module logger, log = logging.getLogger(__name__).",
                lesson=(C, "Use the module logger"),
            ),
            A("Switching to the module logger."),
            Edit("sync/worker.py"),
            A("Each retry now logs at debug level with the attempt number and the delay."),
        ],
    ),
    (
        "tabs-vs-spaces-smalltalk-mix",
        "claude",
        "held",
        [
            U("Good morning! How was your weekend? Mine was mostly rain."),
            A(
                "Good morning! I don't have weekends, but I hope the rain let up. What are we working on today?"
            ),
            U(
                "Let's fix the date parsing bug in reports/dates.py. I always forget how strptime handles %z."
            ),
            Read("reports/dates.py"),
            A(
                "The parser drops the timezone offset. I'll switch to datetime.fromisoformat, which keeps it."
            ),
            Edit("reports/dates.py"),
            Bash("pytest tests/test_dates.py -q", "8 passed"),
            U(
                "We prefer datetime.fromisoformat over strptime for ISO dates in this codebase.",
                lesson=(R, "prefer datetime.fromisoformat over strptime"),
            ),
            A("Good to hear it matches. Done."),
        ],
    ),
    (
        "wrong-branch",
        "claude",
        "tune",
        [
            U("Commit the fix for the login redirect."),
            Bash(
                "git add -A && git commit -m 'Fix login redirect'",
                "[main 3f2a1c9] Fix login redirect",
            ),
            A("Committed to main."),
            U(
                "You shouldn't commit to main directly. Feature work goes on a branch named fix/<topic> and "
                "lands through a pull request.",
                lesson=(C, "Feature work goes on a branch named fix/<topic>"),
            ),
            A("I'll move the commit to a branch and reset main."),
            Bash(
                "git branch fix/login-redirect && git reset --hard HEAD~1 && git checkout fix/login-redirect",
                "Switched to branch 'fix/login-redirect'",
            ),
            A("The commit is on fix/login-redirect now and main is back where it was."),
        ],
    ),
    (
        "instead-of-mocks",
        "gemini",
        "held",
        [
            U("The repository tests are flaky. Can you look at tests/test_repo.py?"),
            Read("tests/test_repo.py"),
            A(
                "They mock the sqlite connection, and the mocks drift from what the real driver returns. "
                "I'll tighten the mocks so the return shapes match."
            ),
            U(
                "Use a real SQLite file in tmp_path instead of mocking the connection.",
                lesson=(C, "real SQLite file in tmp_path instead of mocking"),
            ),
            A("OK, rewriting the fixture to open a real database in tmp_path."),
            Edit("tests/conftest.py"),
            Bash("pytest tests/test_repo.py -q", "12 passed"),
            A("The tests now run against a real database file and pass 20 times in a row."),
        ],
    ),
    (
        "api-versioning-rule",
        "claude",
        "tune",
        [
            U("Add an endpoint that returns a user's invoices."),
            A("I'll add GET /invoices?user=ID to the router."),
            Edit("api/routes.py"),
            U(
                "Every public endpoint must live under /api/v2/.",
                lesson=(C, "Every public endpoint must live under /api/v2/"),
            ),
            A("I'll move it."),
            U(
                "Also, never return raw ORM objects; always go through a schema.",
                lesson=(R, "never return raw ORM objects"),
            ),
            A("Moving it to /api/v2/users/{id}/invoices with an InvoiceOut schema."),
            Edit("api/routes.py"),
            Edit("api/schemas.py"),
            A("Done."),
        ],
    ),
    (
        "env-vars-rule",
        "codex",
        "held",
        [
            U(
                "We're adding a Stripe key. Keep in mind that in this repo we never read os.environ directly; "
                "settings come from config/settings.py only.",
                lesson=(R, "never read os.environ directly"),
            ),
            A("Understood. I'll add STRIPE_KEY to the Settings class."),
            Edit("config/settings.py"),
            Edit("billing/client.py"),
            A("billing/client.py now takes the key from settings.stripe_key."),
        ],
    ),
    (
        "typescript-any",
        "claude",
        "tune",
        [
            U("Type the event handler props in components/Table.tsx."),
            Edit("components/Table.tsx"),
            A("I typed onSort and onSelect as (arg: any) => void for now."),
            U(
                "Nope, avoid any. Use unknown and narrow it, or write the real type.",
                lesson=(C, "avoid any"),
            ),
            A("I'll write the real types: onSort takes a SortKey and onSelect a Row."),
            Edit("components/Table.tsx"),
            Bash("pnpm tsc --noEmit", ""),
            A("Type check passes."),
        ],
    ),
    (
        "commit-style",
        "gemini",
        "tune",
        [
            U("Commit what we have."),
            Bash("git commit -am 'updated stuff'", "[fix/cache 9a1b2c3] updated stuff"),
            A("Committed."),
            U(
                "That's not how we write commit messages. Use the imperative mood and say why, "
                "like 'Cache the token so retries skip the login'.",
                lesson=(C, "Use the imperative mood"),
            ),
            A("I'll amend the message."),
            Bash(
                "git commit --amend -m 'Cache the auth token so retries skip the login round trip'",
                "",
            ),
            A("Amended."),
        ],
    ),
    (
        "docker-compose-rule",
        "claude",
        "held",
        [
            U("Start the stack so we can test the webhook locally."),
            Bash("docker-compose up -d", "Creating network app_default\nStarting db ... done"),
            A("The stack is up."),
            U(
                "Use docker compose (the v2 plugin), not docker-compose. The old binary isn't installed on CI "
                "and it reads a different env file.",
                lesson=(C, "Use docker compose (the v2 plugin), not docker-compose"),
            ),
            A("Switching to docker compose."),
            Bash("docker-compose down && docker compose up -d", "Container app-db-1 Started"),
            A("Running with the v2 plugin now."),
        ],
    ),
    (
        "rules-in-passing",
        "claude",
        "tune",
        [
            U("Can you rename the getUser function to fetchUser across the client?"),
            Bash("rg -l getUser src", "src/api/users.ts\nsrc/pages/Profile.tsx"),
            Edit("src/api/users.ts"),
            Edit("src/pages/Profile.tsx"),
            A("Renamed in both files."),
            U(
                "Looks right. By the way, we name anything that hits the network fetchX and anything "
                "local getX, so keep that in mind for the rest of the client.",
                lesson=(R, "we name anything that hits the network fetchX"),
            ),
            A("Understood."),
            U("Cool, that's all for now."),
        ],
    ),
    # ---- root causes ------------------------------------------------------------------------
    (
        "moto-bucket",
        "claude",
        "tune",
        [
            U("The S3 upload tests fail since I upgraded moto. Fix them please."),
            Bash(
                "pytest tests/test_upload.py -q",
                "E   botocore.errorfactory.NoSuchBucket: An error occurred (NoSuchBucket) when calling "
                "the PutObject operation: The specified bucket does not exist\n1 failed",
                failed=True,
            ),
            A(
                "The problem is that moto starts every test with no buckets, so the fixture must create "
                "the bucket before the upload runs.",
                lesson=(RC, "moto starts every test with no buckets"),
            ),
            Edit("tests/conftest.py"),
            Bash("pytest tests/test_upload.py -q", "6 passed"),
            A("The s3 fixture now creates the uploads bucket inside mock_aws; all six tests pass."),
        ],
    ),
    (
        "tz-naive",
        "claude",
        "held",
        [
            U("test_report_window is failing on CI but not locally."),
            Bash(
                "pytest tests/test_reports.py::test_report_window -q",
                "E   TypeError: can't compare offset-naive and offset-aware datetimes\n1 failed",
                failed=True,
            ),
            Read("reports/window.py"),
            A(
                "It fails because datetime.utcnow() returns a naive datetime while the rows from Postgres "
                "are timezone-aware; locally your machine runs the SQLite backend, which returns naive ones.",
                lesson=(RC, "datetime.utcnow() returns a naive datetime"),
            ),
            Edit("reports/window.py"),
            Bash("pytest tests/test_reports.py::test_report_window -q", "1 passed"),
            A("I replaced utcnow() with datetime.now(timezone.utc)."),
        ],
    ),
    (
        "import-cycle",
        "codex",
        "tune",
        [
            U("The CLI crashes on startup after my refactor."),
            Bash(
                "python -m app.cli --help",
                "ImportError: cannot import name 'Config' from partially initialized module 'app.config' "
                "(most likely due to a circular import)",
                failed=True,
            ),
            A(
                "The root cause is a circular import: app.config imports app.plugins at module level, and "
                "app.plugins imports Config back.",
                lesson=(RC, "app.config imports app.plugins at module level"),
            ),
            A("I'll move the plugins import inside load_plugins()."),
            Edit("app/config.py"),
            Bash("python -m app.cli --help", "Usage: app [OPTIONS] COMMAND [ARGS]..."),
            A("The CLI starts again."),
        ],
    ),
    (
        "port-in-use",
        "gemini",
        "held",
        [
            U("npm run dev exits immediately, can you see why?"),
            Bash(
                "pnpm dev", "Error: listen EADDRINUSE: address already in use :::5173", failed=True
            ),
            A("Port 5173 is still held by a stale vite process from the earlier session."),
            Bash("lsof -ti :5173 | xargs kill", ""),
            A(
                "Turns out the dev script doesn't set strictPort, so vite's watcher from the crashed run "
                "kept the port. I've set server.strictPort in vite.config.ts so it fails fast with a clear message.",
                lesson=(RC, "vite's watcher from the crashed run kept the port"),
            ),
            Edit("vite.config.ts"),
            Bash("pnpm dev", "VITE v5.2.0  ready in 412 ms"),
            A("The dev server starts."),
        ],
    ),
    (
        "alembic-head",
        "claude",
        "tune",
        [
            U("Migrations fail on a fresh database."),
            Bash(
                "alembic upgrade head",
                "FAILED: Multiple head revisions are present for given argument 'head'",
                failed=True,
            ),
            Bash("alembic heads", "3c1f2 (head)\n9ab77 (head)"),
            A(
                "The issue is that two branches each added a migration with the same down_revision, so "
                "alembic sees two heads.",
                lesson=(RC, "two branches each added a migration with the same down_revision"),
            ),
            Bash(
                "alembic merge -m 'merge heads' 3c1f2 9ab77",
                "Generating migrations/versions/d41e_merge_heads.py",
            ),
            Edit("migrations/versions/d41e_merge_heads.py"),
            Bash("alembic upgrade head", "Running upgrade 3c1f2, 9ab77 -> d41e"),
            A("Fixed with a merge migration."),
        ],
    ),
    (
        "jest-esm",
        "claude",
        "held",
        [
            U("Jest can't run the new tests for the markdown renderer."),
            Bash(
                "pnpm jest src/render",
                "SyntaxError: Cannot use import statement outside a module\n  at node_modules/remark-gfm/index.js:1",
                failed=True,
            ),
            A(
                "remark-gfm ships only ESM, and Jest's default transform ignores node_modules, so the import "
                "statement reaches Node untranspiled.",
                lesson=(RC, "remark-gfm ships only ESM"),
            ),
            A("I'll add it to transformIgnorePatterns so babel-jest transpiles it."),
            Edit("jest.config.js"),
            Bash("pnpm jest src/render", "Tests: 14 passed, 14 total"),
            A("All 14 renderer tests pass."),
        ],
    ),
    (
        "cache-key",
        "codex",
        "held",
        [
            U("Users sometimes see another tenant's dashboard for a second after login."),
            Read("dashboard/cache.py"),
            Bash(
                "pytest tests/test_cache.py -q",
                "E   AssertionError: assert 'acme' == 'globex'\n1 failed",
                failed=True,
            ),
            A(
                "The cache key is built from the dashboard id only; it doesn't include the tenant, so two "
                "tenants with dashboard 1 share an entry.",
                lesson=(RC, "doesn't include the tenant"),
            ),
            Edit("dashboard/cache.py"),
            Bash("pytest tests/test_cache.py -q", "9 passed"),
            A("Keys are now tenant:dashboard."),
        ],
    ),
    (
        "celery-eager",
        "claude",
        "tune",
        [
            U("The email test passes alone but fails in the full run."),
            Bash(
                "pytest -q",
                "FAILED tests/test_email.py::test_welcome_sent - assert 0 == 1\n1 failed, 220 passed",
                failed=True,
            ),
            A("Let me look at how the tests configure Celery."),
            Read("tests/conftest.py"),
            A(
                "The culprit is test_tasks.py, which sets task_always_eager = False on the shared app and never "
                "restores it, so later tests queue the email instead of sending it.",
                lesson=(
                    RC,
                    "sets task_always_eager = False on the shared app and never restores it",
                ),
            ),
            Edit("tests/test_tasks.py"),
            Bash("pytest -q", "221 passed"),
            A("The setting is now changed through a fixture that restores it."),
        ],
    ),
    (
        "node-version",
        "gemini",
        "tune",
        [
            U("The build fails with a weird syntax error on CI."),
            Bash(
                "pnpm build",
                "SyntaxError: Unexpected token '?'\n    at wrapSafe (internal/modules/cjs/loader.js)",
                failed=True,
            ),
            A(
                "CI runs Node 12, which doesn't support optional chaining; the .nvmrc says 20 but the workflow "
                "pins its own version.",
                lesson=(RC, "CI runs Node 12"),
            ),
            Edit(".github/workflows/build.yml"),
            Bash("pnpm build", "Build succeeded"),
            A("The workflow now reads node-version-file: .nvmrc."),
        ],
    ),
    # ---- decisions --------------------------------------------------------------------------
    (
        "queue-choice",
        "claude",
        "tune",
        [
            U("We need background jobs for the PDF exports. What should we use?"),
            A(
                "Two options: Celery with Redis, or RQ. I'd go with RQ because we already run Redis and the "
                "jobs are simple, so Celery's extra moving parts buy us nothing.",
                lesson=(D, "I'd go with RQ because we already run Redis"),
            ),
            U("Agreed, go with RQ."),
            Edit("jobs/queue.py"),
            A("RQ is set up with one queue for exports."),
        ],
    ),
    (
        "sqlite-vs-postgres",
        "claude",
        "held",
        [
            U("For the local dev setup, should the app keep needing Postgres?"),
            A(
                "I recommend SQLite for local development, since it needs no service and the ORM hides the "
                "differences we use. We'd keep Postgres in CI to catch anything dialect-specific.",
                lesson=(D, "SQLite for local development"),
            ),
            U("Yes, let's do that."),
            Edit("config/settings.py"),
            Edit("docs/dev-setup.md"),
            A("Local runs use SQLite now; CI still runs on Postgres."),
        ],
    ),
    (
        "pagination-choice",
        "codex",
        "tune",
        [
            U("The list endpoint is slow on big accounts."),
            A(
                "We could either keep offset pagination and add an index, or switch to cursor pagination. "
                "Cursor pagination is the better option here because offset scans every skipped row.",
                lesson=(D, "Cursor pagination is the better option here"),
            ),
            U("Sounds good, switch to cursors."),
            Edit("api/pagination.py"),
            A("Done."),
        ],
    ),
    (
        "option-b",
        "claude",
        "held",
        [
            U("How do we stop the nightly job from overlapping with itself?"),
            A(
                "A few options:\n\n1. A file lock in /tmp, simple but it breaks across hosts.\n"
                "2. A Postgres advisory lock, which works across hosts since every worker shares the database.\n"
                "3. Redis SETNX with a TTL.\n\nI'd lean towards the advisory lock.",
                lesson=(D, "Postgres advisory lock"),
            ),
            U("Option 2 it is."),
            Edit("jobs/nightly.py"),
            A("The job takes pg_try_advisory_lock(42) and exits when another run holds it."),
        ],
    ),
    (
        "declined-proposal",
        "gemini",
        "held",
        [
            U("The config loader is getting complicated."),
            A(
                "I suggest we replace it with pydantic-settings, because it validates types and reads env files "
                "for us."
            ),
            U(
                "No, I don't want another dependency for this. Keep the loader and just split it into two functions.",
                lesson=(C, "I don't want another dependency for this"),
            ),
            Edit("config/loader.py"),
            A("Split into read_files() and apply_env()."),
        ],
    ),
    (
        "feature-flag-decision",
        "claude",
        "tune",
        [
            U("Should the new checkout ship behind a flag?"),
            A(
                "I'd suggest a flag in our own flags table rather than LaunchDarkly, so we don't add a vendor for "
                "one rollout.",
                lesson=(D, "flag in our own flags table rather than LaunchDarkly"),
            ),
            U("Makes sense, do it."),
            Edit("checkout/flags.py"),
            A("The checkout reads flags.enabled('new_checkout')."),
        ],
    ),
    # ---- notes ------------------------------------------------------------------------------
    (
        "dev-server-restart",
        "claude",
        "tune",
        [
            U("Add a FEATURE_EXPORT setting and read it in the export view."),
            Edit("app/settings.py"),
            Edit("app/views/export.py"),
            A(
                "Done. Note that the dev server must be restarted after changing .env, because settings are "
                "read once at import.",
                lesson=(N, "the dev server must be restarted after changing .env"),
            ),
            U("Ok."),
        ],
    ),
    (
        "gotcha-sqlite-fk",
        "claude",
        "held",
        [
            U("Deleting a project doesn't delete its tasks in the test database."),
            Read("db/connect.py"),
            A(
                "Gotcha: SQLite ignores ON DELETE CASCADE unless PRAGMA foreign_keys=ON is set on every "
                "connection.",
                lesson=(N, "SQLite ignores ON DELETE CASCADE unless PRAGMA foreign_keys=ON"),
            ),
            Edit("db/connect.py"),
            Bash("pytest tests/test_projects.py -q", "7 passed"),
            A("The connect hook now turns foreign keys on."),
        ],
    ),
    (
        "codegen-note",
        "codex",
        "tune",
        [
            U("Add a field to the User proto."),
            Edit("proto/user.proto"),
            Bash("make proto", "generated 4 files"),
            A(
                "Added email_verified. Worth knowing: the generated files under gen/ are committed, so "
                "make proto has to be run and its output committed with every .proto change.",
                lesson=(N, "make proto has to be run and its output committed"),
            ),
        ],
    ),
    (
        "keep-in-mind",
        "gemini",
        "held",
        [
            U("Bump the max upload size to 50 MB."),
            Edit("config/upload.py"),
            Edit("deploy/nginx.conf"),
            A(
                "Done in both places. Keep in mind that nginx's client_max_body_size caps uploads before the "
                "app sees them, so the two limits have to change together.",
                lesson=(N, "nginx's client_max_body_size caps uploads before the app sees them"),
            ),
        ],
    ),
    (
        "note-and-rule",
        "claude",
        "tune",
        [
            U("Why does the search index look stale after I edit a document?"),
            Read("search/indexer.py"),
            A(
                "The indexer only runs on the hourly cron; edits don't trigger it. Note that the "
                "reindex command only picks up documents whose updated_at changed, so a bulk SQL update "
                "that skips updated_at is never reindexed.",
                lesson=(N, "only picks up documents whose updated_at changed"),
            ),
            U(
                "Ugh. Always bump updated_at in bulk updates then.",
                lesson=(R, "Always bump updated_at in bulk updates"),
            ),
            A("I'll add that to the bulk update helper."),
            Edit("db/bulk.py"),
        ],
    ),
    (
        "heads-up",
        "claude",
        "held",
        [
            U("Upgrade the redis client to 5.x."),
            Bash("pip install -U 'redis>=5'", "Successfully installed redis-5.0.4"),
            Bash("pytest -q", "112 passed"),
            A(
                "Upgraded and the tests pass. Heads up: redis-py 5 returns bytes unless decode_responses=True "
                "is passed, and our client sets it only in the web app, not in the worker.",
                lesson=(N, "redis-py 5 returns bytes unless decode_responses=True"),
            ),
            U("Good catch, set it in the worker too."),
            Edit("worker/redis.py"),
            A("Done."),
        ],
    ),
    # ---- longer sessions holding several lessons ----------------------------------------------
    (
        "long-payments",
        "claude",
        "tune",
        [
            U("Let's add refunds to the payments service. Start with the model."),
            Read("payments/models.py"),
            A("I'll add a Refund model with amount as a float and a foreign key to Payment."),
            Edit("payments/models.py"),
            U(
                "No floats for money, ever. Store amounts as integer cents.",
                lesson=(C, "Store amounts as integer cents"),
            ),
            A("Switching amount to an integer number of cents."),
            Edit("payments/models.py"),
            Bash(
                "pytest tests/payments -q",
                "E   stripe.error.InvalidRequestError: Amount must be at least 50 cents\n1 failed, 30 passed",
                failed=True,
            ),
            A(
                "The test refund of 10 cents fails because Stripe rejects refunds below its 50 cent minimum "
                "in test mode too.",
                lesson=(RC, "Stripe rejects refunds below its 50 cent minimum"),
            ),
            Edit("tests/payments/test_refunds.py"),
            Bash("pytest tests/payments -q", "31 passed"),
            A(
                "For partial refunds there are two ways: refund through Stripe's API right away, or queue "
                "them for the nightly reconciliation. I recommend refunding right away, since customers see "
                "the money sooner and the reconciliation job stays read-only.",
                lesson=(D, "I recommend refunding right away"),
            ),
            U("Yes, refund right away."),
            Edit("payments/refunds.py"),
            A(
                "Refunds call stripe.Refund.create in the request. Note that Stripe webhooks for refunds arrive "
                "as charge.refunded, not refund.created, so the webhook handler must listen for that event.",
                lesson=(N, "Stripe webhooks for refunds arrive as charge.refunded"),
            ),
            U(
                "Good. Also, never log the full card object; log only the last four digits.",
                lesson=(R, "never log the full card object"),
            ),
            A("I'll check the logging calls in the refund path."),
            Edit("payments/refunds.py"),
            A("Only last4 is logged now."),
        ],
    ),
    (
        "long-frontend",
        "claude",
        "held",
        [
            U("Build the settings page: a form with name, email and a save button."),
            Edit("src/pages/Settings.tsx"),
            A("I wrote the form with useState for each field and a fetch call on submit."),
            U(
                "We use react-hook-form for every form here, not useState per field.",
                lesson=(R, "react-hook-form for every form"),
            ),
            A("Rewriting it with react-hook-form."),
            Edit("src/pages/Settings.tsx"),
            Bash(
                "pnpm test src/pages/Settings",
                "FAIL src/pages/Settings.test.tsx\n  TypeError: "
                "window.matchMedia is not a function",
                failed=True,
            ),
            A(
                "The failure is due to jsdom not implementing window.matchMedia, which the theme toggle "
                "calls on mount; the other pages' tests stub it in setupTests.ts but this suite runs without it.",
                lesson=(RC, "jsdom not implementing window.matchMedia"),
            ),
            Edit("src/setupTests.ts"),
            Bash("pnpm test src/pages/Settings", "PASS src/pages/Settings.test.tsx"),
            A(
                "For the save button we could disable it until the form is dirty, or always enable it and show "
                "'No changes'. I'd disable it until dirty, because it makes the state obvious without another "
                "message.",
                lesson=(D, "I'd disable it until dirty"),
            ),
            U("Go with disabling it."),
            Edit("src/pages/Settings.tsx"),
            A("Done: the button is disabled until a field changes."),
            U(
                "Actually, put the page under /account/settings, not /settings. All account pages live "
                "under /account.",
                lesson=(C, "All account pages live under /account"),
            ),
            Edit("src/routes.tsx"),
            A("Moved."),
        ],
    ),
    (
        "long-infra",
        "codex",
        "tune",
        [
            U("Add a staging environment to the Terraform config."),
            Read("infra/main.tf"),
            A("I'll copy the prod module block and change the names."),
            U(
                "Don't copy blocks. Use a workspace per environment with a tfvars file each.",
                lesson=(C, "Use a workspace per environment"),
            ),
            A("Setting up workspaces and staging.tfvars."),
            Edit("infra/staging.tfvars"),
            Bash(
                "terraform plan -var-file=staging.tfvars",
                "Error: Error acquiring the state lock\nLock Info: ID: 7c1e... Who: ci@runner",
                failed=True,
            ),
            A(
                "The plan fails because a CI run crashed and left the DynamoDB state lock behind; the lock "
                "holder is ci@runner from yesterday.",
                lesson=(RC, "left the DynamoDB state lock behind"),
            ),
            Bash(
                "terraform force-unlock -force 7c1e",
                "Terraform state has been successfully unlocked!",
            ),
            Edit("infra/backend.tf"),
            Bash(
                "terraform plan -var-file=staging.tfvars",
                "Plan: 14 to add, 0 to change, 0 to destroy.",
            ),
            A(
                "Keep in mind that terraform workspace select has to be run before every plan, or it plans "
                "against the default workspace, which is prod.",
                lesson=(N, "terraform workspace select has to be run before every plan"),
            ),
            U(
                "Right. Always pass -lock-timeout=5m in CI so runs wait instead of failing.",
                lesson=(R, "Always pass -lock-timeout=5m in CI"),
            ),
            Edit(".github/workflows/terraform.yml"),
            A("Added to both plan and apply steps."),
        ],
    ),
    (
        "long-data",
        "claude",
        "held",
        [
            U("The nightly import of the partner CSV has been dropping rows."),
            Bash(
                "python -m etl.import_partner data/partner.csv --check",
                "ValueError: could not convert string to float: '1.234,56'\nrows read: 9120, rows kept: 8877",
                failed=True,
            ),
            A(
                "The rows are dropped because the partner writes numbers with a decimal comma and a dot "
                "for thousands, and the importer parses them with float().",
                lesson=(RC, "the partner writes numbers with a decimal comma"),
            ),
            Edit("etl/import_partner.py"),
            Bash(
                "python -m etl.import_partner data/partner.csv --check",
                "rows read: 9120, rows kept: 9120",
            ),
            A(
                "All 9120 rows are kept now. How should we handle a row that still fails to parse: skip it "
                "with a warning, or stop the import? I'd stop the import, since a silent skip is how we lost "
                "rows for weeks.",
                lesson=(D, "I'd stop the import"),
            ),
            U("Agreed, fail loudly."),
            Edit("etl/import_partner.py"),
            A("A bad row now stops the import and names the line."),
            U(
                "Also, the partner files are latin-1, never assume utf-8 for anything from them.",
                lesson=(R, "never assume utf-8 for anything from them"),
            ),
            A("I'll pass encoding='latin-1' when opening them."),
            Edit("etl/import_partner.py"),
        ],
    ),
    (
        "long-gemini-api",
        "gemini",
        "tune",
        [
            U("Add rate limiting to the public API."),
            A("I'll add a token bucket in memory in the API process."),
            U(
                "That won't work, we run six API pods. The limit has to live in Redis so every pod shares it.",
                lesson=(C, "The limit has to live in Redis"),
            ),
            A(
                "Moving the bucket to Redis with a Lua script so the check and decrement are atomic."
            ),
            Edit("api/ratelimit.py"),
            Bash(
                "pytest tests/test_ratelimit.py -q",
                "E   redis.exceptions.ResponseError: NOSCRIPT No matching script\n2 failed",
                failed=True,
            ),
            A(
                "It fails because the test Redis is flushed between tests, which drops the cached script, and "
                "EVALSHA doesn't reload it.",
                lesson=(RC, "EVALSHA doesn't reload it"),
            ),
            Edit("api/ratelimit.py"),
            Bash("pytest tests/test_ratelimit.py -q", "8 passed"),
            A("The limiter uses redis-py's register_script, which falls back to EVAL on NOSCRIPT."),
        ],
    ),
    (
        "long-repeat",
        "claude",
        "tune",
        [
            U("Fix the flaky websocket test."),
            Bash("pytest tests/test_ws.py -q", "E   asyncio.TimeoutError\n1 failed", failed=True),
            A("I'll increase the timeout to 10 seconds."),
            Edit("tests/test_ws.py"),
            U(
                "No, never fix flaky tests by raising timeouts. Find out what the test waits for.",
                lesson=(C, "never fix flaky tests by raising timeouts"),
            ),
            A("Fair. Let me look at what it waits for."),
            Read("tests/test_ws.py"),
            A(
                "The test waits for a 'ready' message the server sends before the client subscribes, so it "
                "sometimes arrives too early and is lost.",
                lesson=(RC, "sends before the client subscribes"),
            ),
            Edit("server/ws.py"),
            Bash("pytest tests/test_ws.py -q", "3 passed"),
            A("The server now sends 'ready' after the subscription is registered."),
            U(
                "Good. And again: never raise timeouts to fix flaky tests, I mean it.",
            ),
            A("Understood."),
        ],
    ),
    (
        "long-docs-decision",
        "codex",
        "held",
        [
            U("Where should the architecture notes go?"),
            A(
                "We could keep them in the wiki, or in docs/architecture.md in the repo. I'd put them in the repo "
                "so they're reviewed with the code that changes them.",
                lesson=(D, "I'd put them in the repo so they're reviewed with the code"),
            ),
            U("Yes, in the repo."),
            Edit("docs/architecture.md"),
            A("Started docs/architecture.md with the data flow."),
            U(
                "Use mermaid for diagrams, never images, so they can be diffed.",
                lesson=(R, "Use mermaid for diagrams, never images"),
            ),
            Edit("docs/architecture.md"),
            A(
                "The data flow is a mermaid flowchart now. Note that GitHub renders mermaid only in fenced "
                "blocks marked mermaid, not in indented ones.",
                lesson=(N, "GitHub renders mermaid only in fenced blocks marked mermaid"),
            ),
        ],
    ),
    (
        "long-mobile",
        "claude",
        "held",
        [
            U("The iOS build fails after adding the camera plugin."),
            Bash(
                "npx expo run:ios",
                "error: Info.plist is missing NSCameraUsageDescription",
                failed=True,
            ),
            A(
                "iOS refuses to build an app that uses the camera without NSCameraUsageDescription in "
                "Info.plist, and Expo generates Info.plist from app.json, so the key has to be set there.",
                lesson=(RC, "Expo generates Info.plist from app.json"),
            ),
            Edit("app.json"),
            Bash("npx expo run:ios", "Build Succeeded"),
            A(
                "It builds. Watch out: expo prebuild overwrites the ios/ folder, so any hand edit in "
                "ios/ is lost on the next prebuild.",
                lesson=(N, "expo prebuild overwrites the ios/ folder"),
            ),
            U(
                "We don't commit ios/ or android/ at all, they're generated.",
                lesson=(R, "We don't commit ios/ or android/ at all"),
            ),
            A("Then I'll add them to .gitignore."),
            Edit(".gitignore"),
        ],
    ),
    # ---- written after the first round of tuning, measured once: the "fresh" half ----------
    (
        "fresh-i18n",
        "claude",
        "fresh",
        [
            U("Add a French translation for the checkout page."),
            Edit("src/locales/fr/checkout.json"),
            A(
                "I added the strings to src/locales/fr/checkout.json and hard-coded the currency format."
            ),
            U(
                "Please don't hard-code formats. Currency and dates go through Intl.NumberFormat and "
                "Intl.DateTimeFormat with the user's locale.",
                lesson=(C, "Currency and dates go through Intl.NumberFormat"),
            ),
            A("Switching to Intl formatters."),
            Edit("src/pages/Checkout.tsx"),
            Bash(
                "pnpm test checkout",
                'FAIL  Checkout.test.tsx\n  Expected: "12,50 €"\n  Received: "12,50 €"',
                failed=True,
            ),
            A(
                "The test fails because Intl puts a narrow no-break space (U+202F) before the euro sign, "
                "and the expected string in the test has a plain space.",
                lesson=(RC, "Intl puts a narrow no-break space (U+202F) before the euro sign"),
            ),
            Edit("src/pages/Checkout.test.tsx"),
            Bash("pnpm test checkout", "PASS  Checkout.test.tsx"),
            A("Passing now; the test builds its expected value with the same formatter."),
        ],
    ),
    (
        "fresh-ci-cache",
        "codex",
        "fresh",
        [
            U("CI takes 14 minutes, can we speed it up?"),
            Read(".github/workflows/ci.yml"),
            A(
                "Most of the time goes to installing dependencies. We could cache ~/.cache/pip keyed on "
                "requirements.txt, or switch the install to uv. I'd switch to uv, since it installs the "
                "whole lockfile in seconds and caches by itself.",
                lesson=(D, "I'd switch to uv"),
            ),
            U("ok let's try uv"),
            Edit(".github/workflows/ci.yml"),
            Bash("act -j test", "Job succeeded in 3m12s"),
            A(
                "Down to about 3 minutes. Worth noting: uv ignores pip.conf, so the private index has to be "
                "set with UV_INDEX_URL in the workflow.",
                lesson=(N, "uv ignores pip.conf"),
            ),
        ],
    ),
    (
        "fresh-sql-style",
        "claude",
        "fresh",
        [
            U("Write the query for monthly active users."),
            Edit("analytics/queries/mau.sql"),
            A("Here is the query; it uses a subquery in the FROM clause."),
            U(
                "We write CTEs, not nested subqueries, and keywords in upper case. It's in the style guide.",
                lesson=(C, "We write CTEs, not nested subqueries"),
            ),
            A("Rewriting with a CTE."),
            Edit("analytics/queries/mau.sql"),
            A("Done."),
            U(
                "Thanks. Oh and one more thing, never use SELECT * in anything that ships.",
                lesson=(R, "never use SELECT * in anything that ships"),
            ),
            A("Noted, the query lists its columns."),
        ],
    ),
    (
        "fresh-k8s",
        "gemini",
        "fresh",
        [
            U("The pods keep restarting after the deploy."),
            Bash(
                "kubectl describe pod api-7d9f",
                "Last State: Terminated\n  Reason: OOMKilled\n  Exit Code: 137",
            ),
            Bash(
                "kubectl rollout status deploy/api",
                'error: deployment "api" exceeded its progress deadline',
                failed=True,
            ),
            A(
                "They're OOMKilled: the new image loads the whole embeddings file at startup, which needs "
                "about 900 MB, and the memory limit is 512Mi.",
                lesson=(RC, "the new image loads the whole embeddings file at startup"),
            ),
            Edit("deploy/api.yaml"),
            Bash("kubectl rollout status deploy/api", 'deployment "api" successfully rolled out'),
            A(
                "Rolled out with a 1Gi limit. Heads up: the HPA scales on memory too, so it will now add "
                "pods later than before.",
                lesson=(N, "the HPA scales on memory too"),
            ),
        ],
    ),
    (
        "fresh-smalltalk",
        "claude",
        "fresh",
        [
            U("Morning! Did you see the game last night?"),
            A("Morning! I can't watch games, but I hope it was a good one. Who was playing?"),
            U("Our local team, they lost again. I never get my hopes up anymore."),
            A("That's a healthy approach. Anything I can help with today?"),
            U("Not yet, I'll ping you after standup. Thanks!"),
        ],
    ),
    (
        "fresh-routine",
        "gemini",
        "fresh",
        [
            U("Bump the version to 2.4.0 and update the changelog."),
            Read("CHANGELOG.md"),
            Edit("pyproject.toml"),
            Edit("CHANGELOG.md"),
            A("I'll run the tests to make sure nothing depends on the old version string."),
            Bash("pytest -q", "203 passed"),
            A(
                "Version bumped and the changelog has a 2.4.0 section with the three merged changes."
            ),
            U("Lovely, thank you."),
        ],
    ),
    (
        "fresh-auth",
        "claude",
        "fresh",
        [
            U("Users get logged out every few minutes on staging."),
            Bash("curl -si https://staging.example.com/api/me -b cookies.txt", "HTTP/2 401"),
            Read("auth/session.py"),
            A(
                "The session cookie is set with SameSite=Strict, and the login redirect comes back from the "
                "identity provider's domain, so the browser drops the cookie on that first request."
            ),
            Edit("auth/session.py"),
            Bash("pytest tests/test_session.py -q", "11 passed"),
            U(
                "Hmm, are you sure that's why? It worked last week.",
            ),
            A(
                "Last week the cookie was Lax; the hardening commit on Monday changed it to Strict. That "
                "change is the root cause: Strict cookies are not sent on a cross-site redirect.",
                lesson=(
                    RC,
                    [
                        "Strict cookies are not sent on a cross-site redirect",
                        "the browser drops the cookie on that first request",
                    ],
                ),
            ),
            U(
                "Ok, makes sense. Keep it Lax, and add a comment explaining why so nobody hardens it again.",
                lesson=(R, "Keep it Lax"),
            ),
            Edit("auth/session.py"),
            A("Done."),
        ],
    ),
    (
        "fresh-pr-review",
        "codex",
        "fresh",
        [
            U("Open a PR for the search fix."),
            Bash("gh pr create --fill", "https://github.com/acme/app/pull/412"),
            A("Opened #412 with the commit message as the description."),
            U(
                "Next time, fill in the PR template (what, why, how to test) instead of --fill. Reviewers "
                "rely on the testing section.",
                lesson=(C, "fill in the PR template (what, why, how to test) instead of --fill"),
            ),
            A("I'll edit #412's description to follow the template."),
            Bash("gh pr edit 412 --body-file /tmp/pr.md", ""),
        ],
    ),
    (
        "fresh-choice-declined-then-agreed",
        "claude",
        "fresh",
        [
            U("How should we store the uploaded avatars?"),
            A(
                "We could keep them in Postgres as bytea, or put them in S3 and store the key. I'd put "
                "them in S3, because the database backups would otherwise grow with every upload.",
                lesson=(D, "I'd put them in S3"),
            ),
            U(
                "Yes, S3. Use the existing media bucket though, not a new one.",
                lesson=(R, "Use the existing media bucket"),
            ),
            Edit("accounts/avatars.py"),
            A("Avatars go to s3://acme-media/avatars/<user id>."),
        ],
    ),
    (
        "fresh-flaky-time",
        "gemini",
        "fresh",
        [
            U("test_expiry fails around midnight."),
            Bash(
                "pytest tests/test_tokens.py::test_expiry -q",
                "E   assert date(2026, 3, 2) == date(2026, 3, 1)\n1 failed",
                failed=True,
            ),
            A(
                "It calls date.today() twice, once in the code and once in the test, and when the clock "
                "passes midnight between the two calls they disagree.",
                lesson=(RC, "when the clock passes midnight between the two calls"),
            ),
            Edit("tests/test_tokens.py"),
            Bash("pytest tests/test_tokens.py::test_expiry -q", "1 passed"),
            A("The test now freezes time with time-machine."),
            U(
                "Good. In tests, always freeze the clock rather than read it.",
                lesson=(R, "always freeze the clock rather than read it"),
            ),
        ],
    ),
    (
        "fresh-notes-only",
        "claude",
        "fresh",
        [
            U("Set up the local Elasticsearch for the search tests."),
            Edit("docker-compose.yml"),
            Bash("docker compose up -d es", "Container app-es-1 Started"),
            A(
                "Elasticsearch is up on 9200. Note that it refuses to start on Linux unless "
                "vm.max_map_count is at least 262144, so new machines need that sysctl first.",
                lesson=(N, "vm.max_map_count is at least 262144"),
            ),
            A("I'll run the search tests now."),
            Bash("pytest tests/search -q", "27 passed"),
            A("All 27 pass."),
        ],
    ),
    # ---- no lessons: small talk and routine work ------------------------------------------
    (
        "smalltalk-greeting",
        "claude",
        "tune",
        [
            U("Hi there! How are you today?"),
            A("Hi! I'm doing well, thanks for asking. How can I help?"),
            U(
                "Nothing yet, just saying hello before my coffee. I always need two cups on Mondays."
            ),
            A("Ha, Mondays do call for two. Let me know when you're ready to dive in."),
            U("Thanks, talk soon!"),
            A("Talk soon!"),
        ],
    ),
    (
        "smalltalk-weekend",
        "gemini",
        "held",
        [
            U("Hey, quick question before we start: do you like jazz?"),
            A(
                "I don't listen to music, but I know a fair bit about it. Miles Davis's Kind of Blue is a "
                "good place to start if you're curious."
            ),
            U("Nice, I'll put it on. I never have time for music during the week."),
            A("Enjoy it! I'm here whenever you want to get to the code."),
            U("Thanks, you're the best. Have a good one!"),
        ],
    ),
    (
        "smalltalk-thanks",
        "codex",
        "tune",
        [
            U("Thank you so much for yesterday, the release went smoothly."),
            A("Glad to hear it went well! Anything you'd like to tackle next?"),
            U("Not today, I'm off. Don't worry about the backlog, we'll pick it up Monday."),
            A("Enjoy your day off!"),
        ],
    ),
    (
        "smalltalk-chat",
        "claude",
        "held",
        [
            U("Good evening! Long day?"),
            A(
                "Good evening! Every day is the same length for me, but I'm happy to help. How was yours?"
            ),
            U("Long. I'd rather be hiking instead of sitting in meetings, honestly."),
            A("That sounds well earned. Maybe a hike this weekend?"),
            U("Yes, let's hope the weather holds. Bye for now!"),
            A("Bye! Good luck with the weather."),
        ],
    ),
    (
        "routine-readme",
        "claude",
        "tune",
        [
            U("Update the README's install section for the new CLI name."),
            Read("README.md"),
            A("I'll update the install commands and the usage example."),
            Edit("README.md"),
            A("Let me check the other docs for the old name."),
            Bash("rg -n 'oldcli' docs", ""),
            A("No other mentions. The README now uses the new name."),
            U("Perfect, thanks."),
        ],
    ),
    (
        "routine-tests",
        "codex",
        "held",
        [
            U("Run the test suite and fix whatever fails."),
            A("I'll run the tests now."),
            Bash(
                "pytest -q",
                "FAILED tests/test_slug.py::test_unicode - AssertionError\n1 failed, 88 passed",
                failed=True,
            ),
            A("Let me check the slug test."),
            Read("tests/test_slug.py"),
            Edit("utils/slug.py"),
            Bash("pytest -q", "89 passed"),
            A("Fixed the unicode case in slugify; all 89 tests pass."),
            U("Great, thanks!"),
        ],
    ),
    (
        "routine-refactor",
        "gemini",
        "tune",
        [
            U("Split services/billing.py into smaller modules."),
            Read("services/billing.py"),
            A(
                "I'll split it into invoices.py, payments.py and refunds.py and keep billing.py as a facade."
            ),
            Edit("services/billing/invoices.py"),
            Edit("services/billing/payments.py"),
            Edit("services/billing/refunds.py"),
            Edit("services/billing/__init__.py"),
            Bash("pytest tests/billing -q", "34 passed"),
            A("Done: three modules, the old imports still work through the package."),
        ],
    ),
    (
        "routine-feature",
        "claude",
        "held",
        [
            U("Add a --dry-run flag to the cleanup command."),
            Read("cli/cleanup.py"),
            A("Let me look at how the other commands define flags."),
            Edit("cli/cleanup.py"),
            Edit("tests/test_cleanup.py"),
            Bash("pytest tests/test_cleanup.py -q", "6 passed"),
            A("Now I'll run the linter as well."),
            Bash("ruff check cli", "All checks passed!"),
            A("--dry-run lists what would be deleted without deleting it. Tests and lint pass."),
            U("Ship it."),
        ],
    ),
    (
        "routine-debug-no-lesson",
        "claude",
        "tune",
        [
            U("The build is red, take a look."),
            Bash(
                "pnpm build", "src/app.ts(14,3): error TS2304: Cannot find name 'foo'.", failed=True
            ),
            A("There's a leftover reference on line 14. I'll remove it."),
            Edit("src/app.ts"),
            Bash("pnpm build", "Build succeeded"),
            A("The build is green again."),
        ],
    ),
    (
        "routine-questions",
        "codex",
        "held",
        [
            U("What does the sync command do exactly?"),
            Read("cli/sync.py"),
            A(
                "It pulls the remote, rebases local commits on top and pushes. If the rebase conflicts, it "
                "stops and prints the files in conflict."
            ),
            U("And does it ever force push?"),
            A("No, it never force pushes; a rejected push is reported and left to you."),
            U("Ok, thanks for explaining."),
        ],
    ),
]
