# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind2" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND2: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind2-elixir-repo-preload",
        "claude",
        "blind2",
        [
            U("the orders index page is slow, like 2s. can you see why"),
            Read("lib/shop_web/controllers/order_controller.ex", "def index(conn, _params) do\n  orders = Repo.all(Order)\n  render(conn, :index, orders: orders)\nend"),
            A("The template calls order.customer.name for each row, so each one triggers a query. I'll add Repo.preload(orders, :customer) in the controller."),
            Edit("lib/shop_web/controllers/order_controller.ex"),
            U("no, put the preload in the Orders context function, controllers here never touch Repo directly", lesson=(C, "controllers here never touch Repo directly")),
            A("Understood, moving it into Shop.Orders.list_orders/0 and calling that from the controller."),
            Edit("lib/shop/orders.ex"),
            Bash("mix test test/shop_web/controllers/order_controller_test.exs", "....\nFinished in 0.3 seconds\n4 tests, 0 failures"),
            A("Done, 4 tests pass."),
            U("thanks"),
        ],
    ),
    (
        "blind2-k8s-probe",
        "claude",
        "blind2",
        [
            U("billing-api pods keep restarting in staging after the deploy, can you check"),
            Bash("kubectl -n staging describe pod billing-api-7d9f-xk2lp | tail -5", "Warning  Unhealthy  12s (x6 over 62s)  kubelet  Liveness probe failed: Get \"http://10.2.3.4:8080/healthz\": context deadline exceeded\nNormal   Killing    12s               kubelet  Container api failed liveness probe, will be restarted"),
            A("The liveness probe starts after 5s but the JVM needs about 40s to warm up, so the kubelet kills it before it is ready. The root cause is the missing startupProbe: I'll add one with failureThreshold 30 so liveness only starts after startup succeeds.", lesson=(RC, "the JVM needs about 40s to warm up")),
            Edit("deploy/billing-api/deployment.yaml"),
            Bash("kubectl -n staging rollout status deploy/billing-api", "deployment \"billing-api\" successfully rolled out"),
            A("Rolled out, no restarts now."),
            U("great. btw we always change manifests through the helm chart, not the rendered yaml, please redo it there", lesson=(R, "we always change manifests through the helm chart")),
            Edit("charts/billing-api/templates/deployment.yaml"),
            A("Moved the startupProbe into the chart template and reverted the rendered file."),
        ],
    ),
    (
        "blind2-smalltalk-weekend",
        "claude",
        "blind2",
        [
            U("hey, quiet day. how's it going"),
            A("All good here! Anything you want to work on, or just checking in?"),
            U("just checking in. I always take fridays slow, went hiking yesterday, never again in those boots lol"),
            A("Ha, sounds like a rough trail. Hope your feet recover. Ping me when you want to pick something up."),
            U("will do, have a good one"),
        ],
    ),
    (
        "blind2-routine-kotlin-rename",
        "claude",
        "blind2",
        [
            U("rename UserDto to AccountDto across the backend module"),
            A("Let me find the usages."),
            Bash("rg -l UserDto backend/src", "backend/src/main/kotlin/api/UserDto.kt\nbackend/src/main/kotlin/api/UserController.kt"),
            Edit("backend/src/main/kotlin/api/AccountDto.kt"),
            Edit("backend/src/main/kotlin/api/UserController.kt"),
            A("Running the build now."),
            Bash("./gradlew :backend:test", "BUILD SUCCESSFUL in 41s"),
            A("Renamed in 2 files, build passes."),
            U("cool ty"),
        ],
    ),
    (
        "blind2-sql-migration-lock",
        "codex",
        "blind2",
        [
            U("add an index on events(created_at) in a new migration"),
            A("I'll add migration 0042 with CREATE INDEX events_created_at_idx ON events (created_at)."),
            Edit("migrations/0042_events_created_at.sql"),
            U("that table has 300M rows, a plain CREATE INDEX locks writes for an hour. use CONCURRENTLY, and it can't be in a transaction so put -- no-transaction at the top", lesson=(C, "use CONCURRENTLY, and it can't be in a transaction")),
            Edit("migrations/0042_events_created_at.sql"),
            Bash("make migrate-check", "ok: 0042_events_created_at.sql (no-transaction)"),
            A("Updated: CREATE INDEX CONCURRENTLY, with the no-transaction header. migrate-check passes."),
        ],
    ),
    (
        "blind2-laravel-queue",
        "gemini",
        "blind2",
        [
            U("Emails from the SendInvoice job go out with the old template even after I changed it. Any idea?"),
            Bash("php artisan queue:work --once", "Processing: App\\Jobs\\SendInvoice\nProcessed:  App\\Jobs\\SendInvoice"),
            A("Queue workers are long-lived processes that keep the code they booted with, so your template change is not seen until they restart. Note that after every deploy you need php artisan queue:restart, otherwise workers run stale code.", lesson=(N, "after every deploy you need php artisan queue:restart")),
            U("ah that makes sense. should we add it to the deploy script or to supervisor?"),
            A("I'd add it to deploy.sh right after migrate: supervisor only restarts crashed workers, while queue:restart makes each one exit gracefully after its current job."),
            U("yes do that, deploy.sh it is", lesson=(D, "deploy.sh it is")),
            Edit("deploy.sh"),
        ],
    ),
]
