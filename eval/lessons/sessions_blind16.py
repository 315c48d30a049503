# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind16" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND16: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind16-flask-detached-instance",
        "claude",
        "blind16",
        [
            U(
                "getting DetachedInstanceError on the /orders/<id>/receipt endpoint but only sometimes?? app/orders/views.py"
            ),
            Read(
                "app/orders/views.py",
                "@bp.route('/orders/<int:order_id>/receipt')\ndef receipt(order_id):\n    order = get_order(order_id)\n    return render_template('receipt.html', order=order, lines=order.lines)\n",
            ),
            Read(
                "app/orders/service.py",
                "def get_order(order_id):\n    with Session(db.engine) as s:\n        order = s.get(Order, order_id)\n        s.commit()  # touches last_viewed_at\n        return order\n",
            ),
            Bash(
                "pytest tests/orders/test_receipt.py -x -q 2>&1 | tail -6",
                "E       sqlalchemy.orm.exc.DetachedInstanceError: Parent instance <Order at 0x7f3a9c1b2d90> is not bound to a Session; lazy load operation of attribute 'lines' cannot proceed (Background on this error at: https://sqlalche.me/e/20/bhk3)\n\ntests/orders/test_receipt.py:22: DetachedInstanceError\n=========================== short test summary info ============================\nFAILED tests/orders/test_receipt.py::test_receipt_renders_lines - sqlalchemy.orm.exc.DetachedInstanceError: Parent instance <Order at 0x7f3a9c1b2d90> is not bound...\n1 failed, 3 passed in 0.92s",
                failed=True,
            ),
            A(
                "Found it. `get_order` opens its own `Session` instead of using `db.session`, commits, and returns the object after the `with` block closes. "
                "Two things combine: the commit expires every attribute (expire_on_commit=True is the default), and then the session closes, so the Order is detached. "
                "When the view touches `order.lines` SQLAlchemy wants to lazy load the relationship and there is no session to do it. "
                "It's 'sometimes' because when the identity map already had lines loaded from an earlier query in the same request it doesn't need to go to the DB.\n\n"
                "The fix is to use the request-scoped `db.session` from Flask-SQLAlchemy, which stays open until teardown, rather than a private Session.",
                lesson=(RC, "the commit expires every attribute (expire_on_commit=True is the default)"),
            ),
            Edit("app/orders/service.py"),
            Bash(
                "pytest tests/orders -q 2>&1 | tail -2",
                "........                                                                 [100%]\n8 passed in 1.31s",
            ),
            U(
                "ok good. fyi in this codebase we never open Session(db.engine) by hand in request code, always db.session. the only exception is the celery tasks in app/jobs which have their own scoped session factory"
                , lesson=(R, "never open Session(db.engine) by hand in request code, always db.session"),
            ),
            A(
                "Understood. I grepped for other hand-rolled sessions outside app/jobs: there's one more in app/reports/export.py (`with Session(db.engine) as s`). Want me to switch it too?"
            ),
            U("yes pls"),
            Edit("app/reports/export.py"),
            Bash(
                "pytest -q 2>&1 | tail -1",
                "142 passed, 2 skipped in 14.08s",
            ),
            A("Switched export.py to db.session; full suite green."),
        ],
    ),
    (
        "blind16-gemini-rtk-dates-in-store",
        "gemini",
        "blind16",
        [
            U(
                "add a 'snoozedUntil' field to reminders slice, user picks a date in the SnoozeMenu and we dispatch snoozeReminder. src/features/reminders/remindersSlice.ts"
            ),
            Read(
                "src/features/reminders/remindersSlice.ts",
                "const remindersAdapter = createEntityAdapter<Reminder>({\n  sortComparer: (a, b) => a.dueAt.localeCompare(b.dueAt),\n})\n\nexport const remindersSlice = createSlice({\n  name: 'reminders',\n  initialState: remindersAdapter.getInitialState({ status: 'idle' }),\n  reducers: {\n    reminderUpdated: remindersAdapter.updateOne,\n  },\n})\n",
            ),
            A(
                "I'll add `snoozedUntil: Date | null` to the Reminder type and a `snoozeReminder` reducer that takes `{ id, until: Date }` and sets it via `updateOne`."
            ),
            Edit("src/features/reminders/remindersSlice.ts"),
            Edit("src/features/reminders/SnoozeMenu.tsx"),
            U(
                "no, dont store Date objects in redux. the serializable check middleware will yell and it breaks persistence. everything in the store is ISO strings, convert at the edge (dueAt is already a string, look at it)",
                lesson=(C, "dont store Date objects in redux"),
            ),
            A(
                "Right, sorry, dueAt is an ISO string and the sortComparer even relies on that with localeCompare. I'll make `snoozedUntil: string | null` and have SnoozeMenu call `date.toISOString()` before dispatching."
            ),
            Edit("src/features/reminders/remindersSlice.ts"),
            Edit("src/features/reminders/SnoozeMenu.tsx"),
            Bash(
                "npx vitest run src/features/reminders",
                " ✓ src/features/reminders/remindersSlice.test.ts (7 tests) 14ms\n ✓ src/features/reminders/SnoozeMenu.test.tsx (3 tests) 88ms\n\n Test Files  2 passed (2)\n      Tests  10 passed (10)\n   Duration  1.42s",
            ),
            U("also the list should hide snoozed ones. selector?"),
            A(
                "Added `selectVisibleReminders` with createSelector over `selectAll` from the adapter, filtering out reminders whose snoozedUntil is in the future.\n\n"
                "One thing to be aware of: `remindersAdapter.getSelectors()` returns new selector instances every time you call it, so calling it inside a component or inside another selector defeats memoization and the list re-renders on every dispatch. "
                "I call it once at module level (`export const remindersSelectors = remindersAdapter.getSelectors<RootState>(s => s.reminders)`) and compose from that.",
                lesson=(N, "returns new selector instances every time you call it"),
            ),
            Edit("src/features/reminders/remindersSelectors.ts"),
            Bash(
                "npx vitest run src/features/reminders && npx tsc --noEmit",
                " ✓ src/features/reminders/remindersSlice.test.ts (7 tests) 12ms\n ✓ src/features/reminders/remindersSelectors.test.ts (2 tests) 6ms\n ✓ src/features/reminders/SnoozeMenu.test.tsx (3 tests) 91ms\n\n Test Files  3 passed (3)\n      Tests  12 passed (12)\n   Duration  1.51s",
            ),
            U("👍"),
        ],
    ),
    (
        "blind16-codex-grpc-gateway-404",
        "codex",
        "blind16",
        [
            U(
                "added GetInvoice rpc to billing.proto, grpc call works with grpcurl but REST GET /v1/invoices/{id} returns 404 through the gateway. wtf"
            ),
            Bash(
                "curl -s -i localhost:8080/v1/invoices/inv_123 | head -5",
                'HTTP/1.1 404 Not Found\nContent-Type: application/json\nDate: Tue, 10 Mar 2026 10:14:02 GMT\nContent-Length: 55\n\n{"code":5,"message":"Not Found","details":[]}',
            ),
            Read(
                "proto/billing/v1/billing.proto",
                'service BillingService {\n  rpc ListInvoices(ListInvoicesRequest) returns (ListInvoicesResponse) {\n    option (google.api.http) = { get: "/v1/invoices" };\n  }\n  rpc GetInvoice(GetInvoiceRequest) returns (Invoice) {\n    option (google.api.http) = { get: "/v1/invoices/{invoice_id}" };\n  }\n}\n',
            ),
            Bash(
                "git status --short gen/ && grep -c GetInvoice gen/go/billing/v1/billing.pb.gw.go",
                "0",
                failed=True,
            ),
            A(
                "The proto annotation is fine, but the generated gateway file has no GetInvoice handler at all, and gen/ has no changes. "
                "So the .pb.go (grpc side) was regenerated but billing.pb.gw.go wasn't: looks like protoc was run by hand with only --go_out/--go-grpc_out, "
                "which is why grpcurl works but the gateway mux never registered the route and falls through to its default 404. Let me check how gen is supposed to be produced.",
                lesson=(RC, "protoc was run by hand with only --go_out/--go-grpc_out"),
            ),
            Bash(
                "cat buf.gen.yaml; git log -1 --format=%s -- gen/go/billing/v1/billing_grpc.pb.go",
                "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go\n    out: gen/go\n    opt: paths=source_relative\n  - remote: buf.build/grpc/go\n    out: gen/go\n    opt: paths=source_relative\n  - remote: buf.build/grpc-ecosystem/gateway\n    out: gen/go\n    opt: paths=source_relative\n  - remote: buf.build/grpc-ecosystem/openapiv2\n    out: gen/openapi\nwip: invoice rpc (protoc)",
            ),
            A(
                "Confirmed: the last commit touching the grpc stubs says \"(protoc)\". buf.gen.yaml includes the gateway and openapiv2 plugins; running `buf generate` regenerates all four outputs together so the gateway can't drift from the grpc stubs.",
            ),
            Bash(
                "buf generate && go build ./... && curl -s localhost:8080/v1/invoices/inv_123",
                '{"invoiceId":"inv_123","amountCents":"4200","currency":"EUR","status":"INVOICE_STATUS_PAID"}',
            ),
            U(
                "ok works. while we're here: the GetInvoice response exposes amountCents as a string in JSON, frontend complains. should we switch to double or what"
            ),
            A(
                "That's protojson's standard mapping: int64 fields are encoded as JSON strings because JS numbers lose precision above 2^53. Options:\n"
                "1. change the field to double: breaks the wire type and invites rounding errors on money, not great.\n"
                "2. change to int32: fine up to ~21M in cents, but that's a real ceiling for invoices.\n"
                "3. keep int64 on the wire and parse on the frontend (BigInt or Number() since we know cents stay small).\n"
                "I'd recommend 3 — keep int64 in the proto and parse the string on the client; the proto stays correct for money and other gRPC clients aren't affected.",
                lesson=(D, "keep int64 in the proto and parse the string on the client"),
            ),
            U(
                "yeah go with 3, keep int64. I'll tell the frontend folks"
            ),
            A("Great, nothing to change in the proto then. I added a comment on amount_cents noting it serializes as a string in JSON."),
            Edit("proto/billing/v1/billing.proto"),
            Bash("buf lint && buf generate && go build ./...", ""),
        ],
    ),
    (
        "blind16-terraform-ecs-desired-count",
        "claude",
        "blind16",
        [
            U(
                "every terraform apply on the ecs module resets the api service back to 2 tasks even though autoscaling has it at 6 during the day. modules/ecs-service/main.tf"
            ),
            Read(
                "modules/ecs-service/main.tf",
                'resource "aws_ecs_service" "this" {\n  name            = var.name\n  cluster         = var.cluster_arn\n  task_definition = aws_ecs_task_definition.this.arn\n  desired_count   = var.desired_count\n  launch_type     = "FARGATE"\n  ...\n}\n\nresource "aws_appautoscaling_target" "this" {\n  max_capacity       = var.max_count\n  min_capacity       = var.desired_count\n  resource_id        = "service/${var.cluster_name}/${aws_ecs_service.this.name}"\n  scalable_dimension = "ecs:service:DesiredCount"\n  service_namespace  = "ecs"\n}\n',
            ),
            Bash(
                "cd envs/prod && terraform plan -target=module.api 2>&1 | grep -A2 desired_count",
                "      ~ desired_count                      = 6 -> 2",
            ),
            A(
                "Terraform sees the autoscaler's change to desired_count as drift and puts it back to var.desired_count on every apply. "
                "I'll remove desired_count from the service resource and let the autoscaling target own it entirely; min_capacity already starts it at var.desired_count."
            ),
            Edit("modules/ecs-service/main.tf"),
            U(
                "no don't drop it, then a brand new service gets created with desired_count 0 until the scaling target kicks in and the first deploy in a new env has no tasks for a while. keep it and put it in lifecycle ignore_changes",
                lesson=(C, "keep it and put it in lifecycle ignore_changes"),
            ),
            A(
                "Good point, without the argument the service is created with 0. Restoring desired_count and adding `lifecycle { ignore_changes = [desired_count] }` so it only applies at creation."
            ),
            Edit("modules/ecs-service/main.tf"),
            Bash(
                "cd envs/prod && terraform plan -target=module.api 2>&1 | tail -3",
                "No changes. Your infrastructure matches the configuration.\n\nTerraform has compared your real infrastructure against your configuration and found no differences, so no changes are needed.",
            ),
            A("Plan is clean now for prod. Staging uses the same module so it picks this up too."),
            U("thx"),
        ],
    ),
    (
        "blind16-ansible-become-per-task",
        "claude",
        "blind16",
        [
            U(
                "write a playbook that installs node_exporter on the db hosts group, systemd unit, listen on :9100. put it in playbooks/node_exporter.yml"
            ),
            A(
                "I'll write it with `become: true` at the play level, download the release tarball, unpack to /usr/local/bin, create a node_exporter system user and template a systemd unit."
            ),
            Edit("playbooks/node_exporter.yml"),
            Edit("roles/node_exporter/templates/node_exporter.service.j2"),
            U(
                "take become off the play. we put become: true only on the tasks that actually need root, never play-wide. the get_url and unarchive into /tmp dont need it, and ops audits the become log",
                lesson=(R, "become: true only on the tasks that actually need root, never play-wide"),
            ),
            A(
                "Done: become moved onto the user creation, the copy into /usr/local/bin, the unit template and the systemd task. The download and unarchive into /tmp run as the connecting user."
            ),
            Edit("playbooks/node_exporter.yml"),
            Bash(
                "ansible-lint playbooks/node_exporter.yml && ansible-playbook -i inventories/staging playbooks/node_exporter.yml --check --diff --limit db 2>&1 | tail -6",
                "Passed: 0 failure(s), 0 warning(s) on 2 files. Last profile that met the validation criteria: 'production'.\n\nPLAY RECAP *********************************************************************\ndb-stg-01                  : ok=7    changed=5    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0\ndb-stg-02                  : ok=7    changed=5    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0",
            ),
            A("Lint passes and the check run on staging db hosts looks right (5 changes each, nothing failed). Want me to run it for real on staging?"),
            U("yeah go"),
            Bash(
                "ansible-playbook -i inventories/staging playbooks/node_exporter.yml --limit db 2>&1 | tail -3 && curl -s db-stg-01:9100/metrics | head -2",
                "db-stg-01                  : ok=7    changed=5    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0\ndb-stg-02                  : ok=7    changed=5    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0\n\n# HELP go_gc_duration_seconds A summary of the pause duration of garbage collection cycles.\n# TYPE go_gc_duration_seconds summary",
            ),
            A("node_exporter is up on both staging db hosts and serving metrics on :9100."),
        ],
    ),
    (
        "blind16-codex-pg-logical-slot-wal",
        "codex",
        "blind16",
        [
            U(
                "primary pg16 disk alert, pg_wal is at 180GB and climbing. we set up logical replication to the analytics box last week. help"
            ),
            Bash(
                "psql -h pg-primary -U postgres -c \"select slot_name, plugin, active, restart_lsn, pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)) as retained from pg_replication_slots;\"",
                "       slot_name        |  plugin  | active | restart_lsn  | retained \n------------------------+----------+--------+--------------+----------\n analytics_sub          | pgoutput | t      | 3A/1F0021C8  | 312 MB\n analytics_sub_initial  | pgoutput | f      | 12/9C000060  | 179 GB\n(2 rows)",
            ),
            A(
                "There's the problem. `analytics_sub_initial` is an inactive slot still pinning WAL from LSN 12/9C000060, 179 GB back. "
                "A logical slot guarantees the server keeps every WAL segment since its restart_lsn until a consumer confirms it, and nobody is consuming this one, so the primary can never recycle WAL. "
                "From the name it looks like a leftover from the first attempt at creating the subscription (a CREATE SUBSCRIPTION that was dropped on the subscriber with slot_name = NONE, or failed halfway, leaves the slot on the publisher).\n\n"
                "The live subscription uses `analytics_sub`, which is active and only 312 MB behind. Dropping the stale one is safe.",
                lesson=(RC, "nobody is consuming this one, so the primary can never recycle WAL"),
            ),
            U("drop it"),
            Bash(
                "psql -h pg-primary -U postgres -c \"select pg_drop_replication_slot('analytics_sub_initial');\" && sleep 60 && du -sh /var/lib/postgresql/16/main/pg_wal",
                " pg_drop_replication_slot \n--------------------------\n \n(1 row)\n\n2.1G\t/var/lib/postgresql/16/main/pg_wal",
            ),
            A(
                "Slot dropped; after the next checkpoint pg_wal went from 180G to 2.1G.\n\n"
                "To stop this from filling the disk again I'd set `max_slot_wal_keep_size` on the primary (e.g. 50GB). Caveat you should know: when a slot exceeds it, Postgres invalidates the slot (wal_status becomes 'lost') and the subscription can't resume. "
                "You'd have to drop and recreate the subscription with a fresh initial copy, so the limit trades disk safety for a resync of analytics."
            ),
            U(
                "fine with that, analytics can resync. set it to 50GB"
            ),
            Bash(
                "psql -h pg-primary -U postgres -c \"alter system set max_slot_wal_keep_size = '50GB';\" -c \"select pg_reload_conf();\" -c \"show max_slot_wal_keep_size;\"",
                "ALTER SYSTEM\n pg_reload_conf \n----------------\n t\n(1 row)\n\n max_slot_wal_keep_size \n------------------------\n 50GB\n(1 row)",
            ),
            A(
                "Set and reloaded, no restart needed. Also added a `pg_replication_slots` retained-bytes panel to the db dashboard query file. "
                "Heads up for whoever re-creates subscriptions later: DROP SUBSCRIPTION on the subscriber only drops the remote slot if it can reach the publisher; if the publisher is unreachable, or slot_name was set to NONE first, the slot stays behind on the primary and has to be dropped there by hand.",
                lesson=(N, "the slot stays behind on the primary and has to be dropped there by hand"),
            ),
        ],
    ),
    (
        "blind16-redis-streams-pending",
        "claude",
        "blind16",
        [
            U(
                "the thumbnail workers (redis streams consumer group 'thumbs') seem to lose jobs. producer logs 5000 XADDs, we get ~4940 thumbnails. workers/thumbs/consumer.py"
            ),
            Read(
                "workers/thumbs/consumer.py",
                "def run(name):\n    while True:\n        resp = r.xreadgroup('thumbs', name, {'media:uploaded': '>'}, count=10, block=5000)\n        for _stream, entries in resp or []:\n            for msg_id, fields in entries:\n                make_thumbnail(fields)\n                r.xack('media:uploaded', 'thumbs', msg_id)\n",
            ),
            Bash(
                "redis-cli XPENDING media:uploaded thumbs",
                '1) (integer) 61\n2) "1741601220311-0"\n3) "1741687802114-3"\n4) 1) 1) "thumbs-7f9c"\n      2) "38"\n   2) 1) "thumbs-a21d"\n      2) "23"',
            ),
            Bash(
                "kubectl get pods -l app=thumbs -o name",
                "pod/thumbs-5d8f6b7c4-k2x9q\npod/thumbs-5d8f6b7c4-rt7wn",
            ),
            A(
                "The jobs aren't lost, they're stuck in the pending entries list. 61 entries are pending, owned by consumers `thumbs-7f9c` and `thumbs-a21d`, and neither of those pods exists anymore. "
                "XREADGROUP with `>` only ever delivers new messages; once a message is delivered to a consumer it stays in that consumer's PEL until it's acked. "
                "When a pod got killed mid-`make_thumbnail` (deploys, OOM), its in-flight messages were never acked and nothing else will ever read them, because the replacement pod has a new consumer name (the name comes from the hostname).\n\n"
                "Fix: on each loop, before reading new messages, run XAUTOCLAIM for entries idle longer than some threshold and process those too."
                , lesson=(RC, "XREADGROUP with `>` only ever delivers new messages"),
            ),
            U(
                "ok. threshold? some thumbnails of big videos take 2-3 min"
            ),
            A(
                "Then min-idle-time has to be comfortably above the slowest job, otherwise a second worker steals a message that's still being processed and we make the thumbnail twice. Two options:\n"
                "- a fixed 10 minute min-idle. simple, but a crashed job waits up to 10 min before retry.\n"
                "- keep 10 min but make make_thumbnail idempotent (it writes to a deterministic key already, so a duplicate just overwrites) and drop to 5 min.\n"
                "Since the output key is deterministic, duplicates are harmless; I'd go with 5 minutes."
            ),
            U(
                "agree, 5 min min-idle, duplicates are fine since the key is deterministic",
                lesson=(D, "5 min min-idle, duplicates are fine since the key is deterministic"),
            ),
            Edit("workers/thumbs/consumer.py"),
            Bash(
                "pytest tests/workers/test_thumbs_consumer.py -q 2>&1 | tail -2",
                "......                                                                   [100%]\n6 passed in 0.77s",
            ),
            A(
                "Added a `reclaim()` step using XAUTOCLAIM with min_idle_time=300000 ms, run before each XREADGROUP. The 61 stuck entries will be picked up on the first loop after deploy. "
                "Also added a test that kills a consumer mid-message and checks another consumer claims it."
            ),
            U("ship it"),
        ],
    ),
    (
        "blind16-gemini-quarkus-native-reflection",
        "gemini",
        "blind16",
        [
            U(
                "native build of the pricing-service passes but at runtime POST /quotes returns 500, jvm mode is fine. logs below\n\n"
                "com.fasterxml.jackson.databind.exc.InvalidDefinitionException: Cannot construct instance of `com.acme.pricing.rules.TierRule` (no Creators, like default constructor, exist): cannot deserialize from Object value (no delegate- or property-based Creator)"
            ),
            Read(
                "src/main/java/com/acme/pricing/rules/TierRule.java",
                "public class TierRule implements PricingRule {\n    public String tier;\n    public BigDecimal multiplier;\n}\n",
            ),
            Read(
                "src/main/java/com/acme/pricing/api/QuoteRequest.java",
                "public record QuoteRequest(String sku, int qty, List<PricingRule> rules) {}\n",
            ),
            A(
                "In JVM mode Jackson finds TierRule's constructor by reflection at runtime. In native mode GraalVM only keeps reflection metadata for classes it can prove are reflectively used at build time. "
                "Quarkus registers your REST DTOs automatically, but it only walks the declared types: QuoteRequest declares `List<PricingRule>`, an interface, and TierRule is only reached through the `@JsonSubTypes` on PricingRule, "
                "so TierRule's constructor is stripped from the native image and Jackson sees a class with no creators.\n\n"
                "I'll annotate the PricingRule implementations with `@RegisterForReflection`.",
                lesson=(RC, "only reached through the `@JsonSubTypes` on PricingRule"),
            ),
            Edit("src/main/java/com/acme/pricing/rules/TierRule.java"),
            Edit("src/main/java/com/acme/pricing/rules/BundleRule.java"),
            Edit("src/main/java/com/acme/pricing/rules/RegionRule.java"),
            Bash(
                "./mvnw -q verify -Dnative -Dquarkus.native.container-build=true 2>&1 | tail -8",
                "[INFO] Running com.acme.pricing.api.QuoteResourceIT\n[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.412 s -- in com.acme.pricing.api.QuoteResourceIT\n[INFO] \n[INFO] Results:\n[INFO] \n[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0\n[INFO] \n[INFO] BUILD SUCCESS",
            ),
            A("Native integration tests pass, including the POST /quotes case with a TierRule payload."),
            U(
                "ok. for the future, any change touching DTOs or anything jackson/reflection related you run the native ITs (-Dnative verify) before saying its done, jvm tests passing means nothing for us since prod is native only",
                lesson=(R, "run the native ITs (-Dnative verify) before saying its done"),
            ),
            A(
                "Will do. For reference, the native verify takes about 6 minutes in the container build here, so I'll kick it off early when a change touches DTOs."
            ),
        ],
    ),
    (
        "blind16-ktor-auth-plugin",
        "claude",
        "blind16",
        [
            U(
                "we need api key auth on the /internal routes of the ktor server. keys come from env INTERNAL_API_KEYS comma separated. src/main/kotlin/com/shipfast/Application.kt"
            ),
            Read(
                "src/main/kotlin/com/shipfast/plugins/Routing.kt",
                'fun Application.configureRouting() {\n    routing {\n        route("/api") { shipmentRoutes() }\n        route("/internal") {\n            get("/reindex") { call.respond(reindexer.start()) }\n            post("/cache/flush") { cache.flush(); call.respond(HttpStatusCode.NoContent) }\n        }\n    }\n}\n',
            ),
            A(
                "Two ways to do it in Ktor 2/3:\n"
                "1. A small custom route-scoped plugin (`createRouteScopedPlugin`) that checks the `X-Api-Key` header in `onCall` and responds 401.\n"
                "2. The built-in Authentication plugin with a `bearer` provider (ktor-server-auth), and wrap the internal routes in `authenticate(\"internal\") { }`.\n"
                "Option 2 is a bit more setup but it's the standard mechanism, gives us a principal in call.principal(), and the /api routes already use ktor-server-auth with JWT, so it fits what's there. I'd go with 2."
            ),
            U(
                "yep 2, keeps everything in the auth plugin",
                lesson=(D, "keeps everything in the auth plugin"),
            ),
            A("I'll add a `bearer(\"internal\")` provider and compare incoming tokens against the set from the env var with `==`."),
            Edit("src/main/kotlin/com/shipfast/plugins/Security.kt"),
            U(
                "not ==. use MessageDigest.isEqual on the bytes, string == short circuits on the first mismatch and leaks timing. same as we did for the webhook signatures",
                lesson=(C, "use MessageDigest.isEqual on the bytes, string == short circuits"),
            ),
            A("Switched to a constant-time compare via `MessageDigest.isEqual(a.toByteArray(), b.toByteArray())`, looping over every configured key without an early return."),
            Edit("src/main/kotlin/com/shipfast/plugins/Security.kt"),
            Edit("src/main/kotlin/com/shipfast/plugins/Routing.kt"),
            Edit("src/test/kotlin/com/shipfast/InternalAuthTest.kt"),
            Bash(
                "./gradlew test --tests 'com.shipfast.InternalAuthTest' 2>&1 | tail -5",
                "> Task :test\n\nInternalAuthTest > rejects missing key PASSED\nInternalAuthTest > rejects wrong key PASSED\nInternalAuthTest > accepts configured key PASSED\n\nBUILD SUCCESSFUL in 12s\n5 actionable tasks: 2 executed, 3 up-to-date",
            ),
            A("All three auth tests pass. /internal/* now needs `Authorization: Bearer <key>`; /api is unchanged."),
        ],
    ),
    (
        "blind16-codex-vapor-migration-order",
        "codex",
        "blind16",
        [
            U(
                "add a Comment model to the vapor app, belongs to Post, with fluent migration. Sources/App"
            ),
            Read(
                "Sources/App/configure.swift",
                "app.migrations.add(CreateUser())\napp.migrations.add(CreatePost())\napp.migrations.add(AddPostSlug())\n\ntry await app.autoMigrate()\n",
            ),
            Edit("Sources/App/Models/Comment.swift"),
            Edit("Sources/App/Migrations/CreateComment.swift"),
            Edit("Sources/App/configure.swift"),
            Bash(
                "swift test --filter CommentTests 2>&1 | tail -4",
                "Test Suite 'CommentTests' passed at 2026-03-10 11:02:45.118.\n\t Executed 4 tests, with 0 failures (0 unexpected) in 0.233 (0.235) seconds\nTest Suite 'Selected tests' passed at 2026-03-10 11:02:45.118.\n\t Executed 4 tests, with 0 failures (0 unexpected) in 0.233 (0.235) seconds",
            ),
            A(
                "Added Comment (id, body, post_id, created_at) with `@Parent var post: Post`, and `CreateComment` with a foreign key to posts.id on delete cascade. Tests pass.\n\n"
                "Note on ordering: Fluent runs migrations in exactly the order they're added in configure.swift and records them by name in `_fluent_migrations`. "
                "CreateComment has to come after CreatePost because of the foreign key, and it has to be appended at the end, never inserted between existing entries, otherwise environments that already ran the earlier ones get a different order than fresh ones. "
                "Renaming a migration struct also makes Fluent think it's a new migration and run it again.",
                lesson=(N, "Renaming a migration struct also makes Fluent think it's a new migration"),
            ),
            U("good to know. also add GET /posts/:id/comments"),
            Edit("Sources/App/Controllers/CommentController.swift"),
            Edit("Sources/App/routes.swift"),
            Bash(
                "swift test 2>&1 | tail -2",
                "Test Suite 'All tests' passed at 2026-03-10 11:06:12.540.\n\t Executed 23 tests, with 0 failures (0 unexpected) in 1.871 (1.880) seconds",
            ),
            A("Route added, returns comments for the post ordered by created_at; 404 if the post doesn't exist. All 23 tests pass."),
        ],
    ),
    (
        "blind16-ecto-migration-edit",
        "claude",
        "blind16",
        [
            U(
                "the invites.email column should be citext not string, we get dupes like Foo@x.com and foo@x.com. priv/repo/migrations"
            ),
            Bash(
                "ls priv/repo/migrations | tail -4",
                "20260114093012_create_teams.exs\n20260202151540_create_invites.exs\n20260219120311_add_expires_at_to_invites.exs\n20260303084455_create_audit_log.exs",
            ),
            A(
                "The column is created in 20260202151540_create_invites.exs as `add :email, :string`. I'll change it to `:citext` there and add `execute \"CREATE EXTENSION IF NOT EXISTS citext\"` at the top, then reset the dev db."
            ),
            Edit("priv/repo/migrations/20260202151540_create_invites.exs"),
            U(
                "whoa no, that migration already ran in prod. we never edit a migration once its merged, always a new migration. editing it does nothing on prod and your dev db will just diverge",
                lesson=(R, "we never edit a migration once its merged, always a new migration"),
            ),
            A(
                "You're right, reverting that edit. I'll write a new migration that enables citext and alters the column."
            ),
            Bash("git checkout priv/repo/migrations/20260202151540_create_invites.exs && mix ecto.gen.migration invites_email_citext", "* creating priv/repo/migrations/20260310101522_invites_email_citext.exs"),
            Edit("priv/repo/migrations/20260310101522_invites_email_citext.exs"),
            Bash(
                "mix ecto.migrate 2>&1 | tail -6",
                "10:15:40.201 [info] == Running 20260310101522 MyApp.Repo.Migrations.InvitesEmailCitext.up/0 forward\n10:15:40.203 [info] execute \"CREATE EXTENSION IF NOT EXISTS citext\"\n10:15:40.229 [info] alter table invites\n** (Postgrex.Error) ERROR 23505 (unique_violation) could not create unique index \"invites_team_id_email_index\"\n\n    table: invites\n    constraint: invites_team_id_email_index\n\nKey (team_id, email)=(4, foo@x.com) is duplicated.",
                failed=True,
            ),
            A(
                "The alter rebuilds the unique index on (team_id, email), and under citext the existing case-variant dupes now collide, so the migration fails. "
                "I'll add a step before the alter that deletes the older duplicate invites (keeping the newest per team_id + lower(email))."
            ),
            U(
                "don't delete invites in a migration, some of those have been accepted and are referenced by memberships. make it a separate mix task we run and review first, migration just fails loudly if dupes exist",
                lesson=(C, "don't delete invites in a migration, some of those have been accepted"),
            ),
            A(
                "OK. The migration stays schema-only. I've added `mix invites.dedupe` which lists the duplicate groups and, with `--apply`, keeps the accepted invite (or the newest if none accepted) and rewrites nothing referenced by memberships."
            ),
            Edit("lib/mix/tasks/invites.dedupe.ex"),
            Bash(
                "mix invites.dedupe --apply && mix ecto.migrate 2>&1 | tail -2 && mix test test/my_app/invites_test.exs 2>&1 | tail -2",
                "Found 3 duplicate groups; removed 3 pending invites, kept accepted ones.\n10:21:07.590 [info] == Migrated 20260310101522 in 0.0s\n\nFinished in 0.3 seconds (0.3s async, 0.0s sync)\n14 tests, 0 failures",
            ),
            A("Dev db migrated, invites tests pass. For prod, run `mix invites.dedupe` (dry run) before deploying and review its output."),
        ],
    ),
    (
        "blind16-gemini-livewire-wire-key",
        "gemini",
        "blind16",
        [
            U(
                "livewire bug: on the team members table if I remove a member, the row below it shows the removed person's role dropdown value. refresh fixes it. app/Livewire/TeamMembers.php + resources/views/livewire/team-members.blade.php"
            ),
            Read(
                "resources/views/livewire/team-members.blade.php",
                "<tbody>\n    @foreach ($members as $member)\n        <tr>\n            <td>{{ $member->name }}</td>\n            <td><livewire:member-role-select :member=\"$member\" /></td>\n            <td><button wire:click=\"remove({{ $member->id }})\">Remove</button></td>\n        </tr>\n    @endforeach\n</tbody>\n",
            ),
            A(
                "The loop renders a nested Livewire component per row but neither the `<tr>` nor the `<livewire:member-role-select>` has a key. "
                "Without wire:key, Livewire's morph matches children by position: after you delete row 2, the old row 3 DOM (and its child component instance with its own state) gets reused for what is now row 2. "
                "The child component keeps the removed member's selected role because it's the same component instance, only its position changed.\n\n"
                "Fix: `wire:key=\"member-{{ $member->id }}\"` on the tr and `:key=\"'role-'.$member->id\"` on the nested component.",
                lesson=(RC, "Without wire:key, Livewire's morph matches children by position"),
            ),
            Edit("resources/views/livewire/team-members.blade.php"),
            Bash(
                "php artisan test --filter=TeamMembersTest",
                "\n   PASS  Tests\\Feature\\Livewire\\TeamMembersTest\n  ✓ it lists members                                                    0.21s  \n  ✓ it removes a member                                                  0.08s  \n  ✓ remaining rows keep their own role after removal                     0.09s  \n\n  Tests:    3 passed (7 assertions)\n  Duration: 0.52s",
            ),
            A("Added a regression test for the role dropdown after removal; all three tests pass."),
            U("perfect ty"),
        ],
    ),
    (
        "blind16-django-channels-layer",
        "claude",
        "blind16",
        [
            U(
                "live notifications via django channels work locally but in staging only some users get them. we run 3 daphne pods behind the ingress"
            ),
            Read(
                "config/settings/base.py",
                'CHANNEL_LAYERS = {\n    "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"},\n}\n',
            ),
            A(
                "With InMemoryChannelLayer each daphne process has its own layer, so `group_send` from pod A only reaches websockets connected to pod A. Locally you have one process so it looks fine; with 3 pods roughly a third of users see each notification. We need a shared layer. Options:\n"
                "1. `channels_redis` RedisChannelLayer: the standard choice, we already run Redis for celery.\n"
                "2. RedisPubSubChannelLayer (also channels_redis): lighter, uses pub/sub, but it's still marked beta.\n"
                "3. a Postgres-backed layer (channels_postgres): no new infra, but LISTEN/NOTIFY throughput is lower and it's a small third-party project.\n"
                "I'd go with 1 on a separate Redis db index from celery."
            ),
            U(
                "1, but use a separate redis database index from celery like you said (db 3). pubsub being beta is a no",
                lesson=(D, "use a separate redis database index from celery like you said (db 3)"),
            ),
            Edit("config/settings/base.py"),
            Edit("config/settings/local.py"),
            Edit("requirements/base.txt"),
            Bash(
                "pytest tests/notifications -q 2>&1 | tail -2",
                ".......                                                                  [100%]\n7 passed in 2.40s",
            ),
            A(
                "Switched to RedisChannelLayer on redis db 3 in base.py; local.py keeps InMemory so you don't need Redis for dev. Tests pass.\n\n"
                "One gotcha with channels_redis: group membership expires after `group_expiry` (default 86400 s). A websocket that stays open longer than a day silently drops out of its groups and stops receiving group messages, with no error on either side. "
                "Our dashboard tabs stay open for days, so either re-`group_add` periodically in the consumer or raise group_expiry.",
                lesson=(N, "silently drops out of its groups and stops receiving group messages"),
            ),
            U("make the consumer re-add itself every hour then"),
            Edit("notifications/consumers.py"),
            Bash(
                "pytest tests/notifications -q 2>&1 | tail -1",
                "8 passed in 2.61s",
            ),
            A("NotificationConsumer now re-joins its groups hourly via a background task that's cancelled in disconnect()."),
        ],
    ),
    (
        "blind16-codex-angular-mat-form",
        "codex",
        "blind16",
        [
            U(
                "in the shipping address form (src/app/checkout/address-form) the postcode error 'invalid postcode' never shows, even though the form is invalid and submit is disabled"
            ),
            Read(
                "src/app/checkout/address-form/address-form.component.html",
                '<mat-form-field>\n  <mat-label>Postcode</mat-label>\n  <input matInput formControlName="postcode">\n  <mat-error *ngIf="form.get(\'postcode\')?.errors?.pattern">Invalid postcode</mat-error>\n</mat-form-field>\n',
            ),
            Read(
                "src/app/checkout/address-form/address-form.component.ts",
                "this.form = this.fb.group({\n  postcode: ['', [Validators.required, postcodeValidator(this.country)]],\n});\n",
            ),
            A(
                "The custom `postcodeValidator` returns `{ postcode: true }`, not `{ pattern: ... }`, so the `*ngIf` on `errors?.pattern` is never true. "
                "I'll switch the validator to `Validators.pattern(POSTCODE_RE[country])` so the error key is `pattern` and matches the template."
            ),
            Edit("src/app/checkout/address-form/address-form.component.ts"),
            U(
                "no keep the custom validator, it handles the country switching (UK vs NL vs US formats) which pattern can't do since country changes after init. fix the template to check hasError('postcode') instead",
                lesson=(C, "keep the custom validator, it handles the country switching"),
            ),
            A("Reverted the validator change and updated the template to `@if (form.controls.postcode.hasError('postcode'))`, plus a required message."),
            Edit("src/app/checkout/address-form/address-form.component.ts"),
            Edit("src/app/checkout/address-form/address-form.component.html"),
            Bash(
                "npx ng test --watch=false --include='src/app/checkout/address-form/**' 2>&1 | tail -3",
                "Chrome Headless 131.0.0.0 (Linux x86_64): Executed 9 of 9 SUCCESS (0.311 secs / 0.287 secs)\nTOTAL: 9 SUCCESS",
            ),
            A("9/9 specs pass, including a new one that switches country to NL and checks the postcode error shows."),
        ],
    ),
    (
        "blind16-unreal-uproperty-gc",
        "claude",
        "blind16",
        [
            U(
                "crash after ~1 min of play in PIE, in AGrappleComponent::TickComponent. access violation reading 0xFFFFFFFFFFFFFFFF. Source/Hookshot/Components/GrappleComponent.h/.cpp"
            ),
            Read(
                "Source/Hookshot/Components/GrappleComponent.h",
                "UCLASS(ClassGroup=(Custom), meta=(BlueprintSpawnableComponent))\nclass HOOKSHOT_API UGrappleComponent : public UActorComponent\n{\n    GENERATED_BODY()\n    ...\nprivate:\n    UCableComponent* Cable;\n    AActor* AttachedTarget;\n    float ReelSpeed = 1200.f;\n};\n",
            ),
            Bash(
                "grep -n 'Cable' Source/Hookshot/Components/GrappleComponent.cpp | head -5",
                "41:    Cable = NewObject<UCableComponent>(GetOwner(), TEXT(\"GrappleCable\"));\n42:    Cable->RegisterComponent();\n88:    Cable->EndLocation = GetOwner()->GetActorTransform().InverseTransformPosition(HitPoint);",
            ),
            A(
                "`Cable` and `AttachedTarget` are raw pointers with no `UPROPERTY()`. The garbage collector only follows references it can see through reflection, so nothing keeps the NewObject'd cable alive from this component's point of view, "
                "and a raw pointer isn't nulled when the object is collected. GC runs roughly every 60 s by default in PIE (gc.TimeBetweenPurgingPendingKillObjects), which is why it crashes after about a minute: the next tick dereferences freed memory.\n\n"
                "Fix: mark both as `UPROPERTY()` and use `TObjectPtr<>`; for AttachedTarget, which we don't own, a `TWeakObjectPtr<AActor>` so we can check IsValid when the target gets destroyed.",
                lesson=(RC, "The garbage collector only follows references it can see through reflection"),
            ),
            Edit("Source/Hookshot/Components/GrappleComponent.h"),
            Edit("Source/Hookshot/Components/GrappleComponent.cpp"),
            Bash(
                "\"$UE_ROOT/Engine/Build/BatchFiles/Linux/Build.sh\" HookshotEditor Linux Development -Project=\"$PWD/Hookshot.uproject\" 2>&1 | tail -3",
                "[4/4] Link (lld) libUnrealEditor-Hookshot.so\nTotal execution time: 38.92 seconds\nResult: Succeeded",
            ),
            A("Builds. I ran PIE with `gc.CollectGarbageEveryFrame 1` to force GC each frame, grappled for a couple of minutes, no crash."),
            U(
                "nice trick. ok so rule for this project: every UObject* member gets UPROPERTY + TObjectPtr, no raw UObject pointers in headers ever, even private ones. add that to the checklist in CONTRIBUTING",
                lesson=(R, "every UObject* member gets UPROPERTY + TObjectPtr, no raw UObject pointers in headers"),
            ),
            Edit("CONTRIBUTING.md"),
            A("Added under 'C++ conventions' in CONTRIBUTING.md. I also grepped headers for bare `UObject`-derived pointer members: two more in HookshotCharacter.h (`HUDWidget`, `LastCheckpoint`); want those fixed now?"),
            U("yes"),
            Edit("Source/Hookshot/HookshotCharacter.h"),
            Bash(
                "\"$UE_ROOT/Engine/Build/BatchFiles/Linux/Build.sh\" HookshotEditor Linux Development -Project=\"$PWD/Hookshot.uproject\" 2>&1 | tail -1",
                "Result: Succeeded",
            ),
        ],
    ),
    (
        "blind16-gemini-tokio-proxy-backpressure",
        "gemini",
        "blind16",
        [
            U(
                "our tcp proxy (src/relay.rs) eats memory when the upstream is slow. client uploads at 1gbit, upstream db replica does like 50mbit. rss grows to several GB"
            ),
            Read(
                "src/relay.rs",
                "let (tx, mut rx) = mpsc::unbounded_channel::<Bytes>();\ntokio::spawn(async move {\n    let mut buf = BytesMut::with_capacity(64 * 1024);\n    loop {\n        let n = client_rd.read_buf(&mut buf).await?;\n        if n == 0 { break; }\n        tx.send(buf.split().freeze())?;\n    }\n    Ok::<_, anyhow::Error>(())\n});\nwhile let Some(chunk) = rx.recv().await {\n    upstream_wr.write_all(&chunk).await?;\n}\n",
            ),
            A(
                "The reader pushes into an unbounded channel, so nothing ever slows it down: it reads from the client as fast as the client sends and queues everything in memory while the writer drains at upstream speed. Options:\n"
                "1. swap in `mpsc::channel(N)` (bounded): `send().await` blocks when full, TCP window fills and the client is throttled. Keeps the task structure.\n"
                "2. drop the channel and use `tokio::io::copy_bidirectional(&mut client, &mut upstream)`: it already does backpressure, half-close handling and uses a fixed buffer per direction. Much less code.\n"
                "We don't inspect bytes in the relay path (the metrics are just byte counts, which copy_bidirectional returns), so I'd go with 2."
            ),
            U(
                "copy_bidirectional yes. we'd lose per-chunk metrics but the totals it returns are enough",
                lesson=(D, "copy_bidirectional yes. we'd lose per-chunk metrics but the totals"),
            ),
            Edit("src/relay.rs"),
            Bash(
                "cargo test relay 2>&1 | tail -6",
                "running 4 tests\ntest relay::tests::relays_both_directions ... ok\ntest relay::tests::half_close_propagates ... ok\ntest relay::tests::slow_upstream_bounded_memory ... ok\ntest relay::tests::reports_byte_counts ... ok\n\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.84s",
            ),
            A(
                "Done, relay.rs is down to ~20 lines and the slow-upstream test holds RSS flat.\n\n"
                "Worth remembering: copy_bidirectional only returns when BOTH directions hit EOF. If the upstream closes but the client keeps its write side open (some db clients keep idle connections around), the future never completes and the connection leaks. "
                "I wrapped it in the existing idle timeout (`tokio::time::timeout` reset on activity isn't possible from outside, so I used a plain overall timeout from config.max_session) — keep that wrapper if anyone refactors this.",
                lesson=(N, "copy_bidirectional only returns when BOTH directions hit EOF"),
            ),
            U("ok cool, thanks"),
        ],
    ),
    (
        "blind16-esp-idf-wifi-nvs",
        "claude",
        "blind16",
        [
            U(
                "esp32-s3 board boot loops right after I added the wifi station code. main/wifi.c, idf 5.2. serial log:\n\n"
                "E (412) wifi_init: Failed to deinit Wi-Fi driver (0x3001)\nESP_ERROR_CHECK failed: esp_err_t 0x1101 (ESP_ERR_NVS_NOT_INITIALIZED) at 0x42008a1e\nfile: \"./main/wifi.c\" line 38\nfunc: wifi_init_sta\nexpression: esp_wifi_init(&cfg)\n\nabort() was called at PC 0x4037a1f3 on core 0"
            ),
            Read(
                "main/main.c",
                "void app_main(void)\n{\n    sensors_init();\n    wifi_init_sta();\n    ESP_ERROR_CHECK(nvs_flash_init());\n    mqtt_start();\n}\n",
            ),
            A(
                "The Wi-Fi driver stores calibration data and credentials in NVS, so `esp_wifi_init` needs NVS initialised first. In app_main `nvs_flash_init()` is called after `wifi_init_sta()`. "
                "I'll move `nvs_flash_init()` to the very start of app_main, and handle the usual case where it returns ESP_ERR_NVS_NO_FREE_PAGES or ESP_ERR_NVS_NEW_VERSION_FOUND by erasing and re-initing.",
                lesson=(N, "`esp_wifi_init` needs NVS initialised first"),
            ),
            Edit("main/main.c"),
            A("I'll also bump the Wi-Fi task stack and put the SSID/password as `#define`s at the top of wifi.c so it's easy to change."),
            Edit("main/wifi.c"),
            U(
                "no hardcoded creds, those go through menuconfig (Kconfig.projbuild, CONFIG_WIFI_SSID / CONFIG_WIFI_PASSWORD) so they end up in sdkconfig which is gitignored. don't put them in source",
                lesson=(C, "no hardcoded creds, those go through menuconfig"),
            ),
            A("Removed the defines; added WIFI_SSID and WIFI_PASSWORD to main/Kconfig.projbuild and wifi.c reads CONFIG_WIFI_SSID / CONFIG_WIFI_PASSWORD."),
            Edit("main/Kconfig.projbuild"),
            Edit("main/wifi.c"),
            Bash(
                "idf.py build 2>&1 | tail -4",
                "Project build complete. To flash, run:\n idf.py flash\nor\n idf.py -p PORT flash\nbuild/greenhouse.bin binary size 0xd4a80 bytes. Smallest app partition is 0x100000 bytes. 0x2b580 bytes (17%) free.",
            ),
            Bash(
                "idf.py -p /dev/ttyACM0 flash monitor --no-reset 2>&1 | grep -E 'wifi|got ip' | head -4",
                "I (618) wifi:wifi driver task: 3fcb4e6c, prio:23, stack:6656, core=0\nI (702) wifi:mode : sta (f4:12:fa:7c:09:b0)\nI (1450) wifi:connected with greenhouse-iot, aid = 2, channel 6, BW20, bssid = 60:38:e0:11:4a:d2\nI (2481) esp_netif_handler: sta ip: 192.168.4.37, mask: 255.255.255.0, gw: 192.168.4.1",
            ),
            A("No more boot loop; it connects and gets an IP in about 2.5 s."),
        ],
    ),
    (
        "blind16-mlflow-registry-aliases",
        "claude",
        "blind16",
        [
            U(
                "need to wire the churn model training job to register the model in mlflow and have the scoring service pick up the 'production' one. training/train_churn.py and scoring/app.py. mlflow 2.16"
            ),
            Read(
                "scoring/app.py",
                'MODEL_URI = "models:/churn/Production"\nmodel = mlflow.pyfunc.load_model(MODEL_URI)\n',
            ),
            A(
                "scoring/app.py still uses the stage URI `models:/churn/Production`. Model registry stages are deprecated since MLflow 2.9 in favour of aliases. Two ways forward:\n"
                "1. keep stages: training calls `transition_model_version_stage(..., 'Production')`. Works today, but deprecated and will go away.\n"
                "2. aliases: training registers a version, a promotion step sets alias `champion` with `set_registered_model_alias`, scoring loads `models:/churn@champion`.\n"
                "I'd do 2, so we're not building on the deprecated API."
            ),
            U(
                "go with aliases, champion/challenger. but training must NOT set champion itself, promotion is a separate manual step after review",
                lesson=(D, "go with aliases, champion/challenger. but training must NOT set champion itself"),
            ),
            U(
                "and in general: nothing in an automated job in this repo is allowed to promote a model to champion. jobs register versions and at most tag challenger, that's it",
                lesson=(R, "nothing in an automated job in this repo is allowed to promote a model"),
            ),
            A(
                "Got it. train_churn.py will log and register the model and set the `challenger` alias on the new version. A separate `scripts/promote.py --version N` sets `champion`, meant to be run by a person."
            ),
            Edit("training/train_churn.py"),
            Edit("scripts/promote.py"),
            Edit("scoring/app.py"),
            Bash(
                "pytest tests/test_registry_flow.py -q 2>&1 | tail -8",
                "F..\n=================================== FAILURES ===================================\n_________________________ test_scoring_loads_champion __________________________\n    model = mlflow.pyfunc.load_model(\"models:/churn@champion\")\nE   mlflow.exceptions.MlflowException: Registered model alias champion not found.\n\ntests/test_registry_flow.py:31: MlflowException\n1 failed, 2 passed in 4.17s",
                failed=True,
            ),
            A(
                "Expected failure in the test setup, not the code: the test's fixture trains and registers, but since training no longer sets champion nothing promotes it. I'll call promote.py in the fixture, the same way a person would."
            ),
            Edit("tests/test_registry_flow.py"),
            Bash(
                "pytest tests/test_registry_flow.py -q 2>&1 | tail -1",
                "3 passed in 4.02s",
            ),
            A("All green. To bootstrap prod, someone needs to run `python scripts/promote.py --version <current prod version>` once before the new scoring image rolls out, otherwise it won't find the alias."),
            U("yep will do, thanks"),
        ],
    ),
    (
        "blind16-prometheus-disk-alert",
        "claude",
        "blind16",
        [
            U(
                "add an alert for disk filling up on the node exporters: fire when < 10% free for 15m, severity warning. rules/node.rules.yml"
            ),
            Read(
                "rules/node.rules.yml",
                "groups:\n  - name: node\n    rules:\n      - alert: NodeDown\n        expr: up{job=\"node\"} == 0\n        for: 5m\n        labels:\n          severity: critical\n        annotations:\n          summary: \"{{ $labels.instance }} is down\"\n",
            ),
            Edit("rules/node.rules.yml"),
            Edit("rules/tests/node_test.yml"),
            Bash(
                "promtool check rules rules/node.rules.yml && promtool test rules rules/tests/node_test.yml",
                "Checking rules/node.rules.yml\n  SUCCESS: 2 rules found\n\nUnit Testing:  rules/tests/node_test.yml\n  SUCCESS",
            ),
            A(
                "Added `NodeDiskAlmostFull`: `node_filesystem_avail_bytes{fstype!~\"tmpfs|overlay\"} / node_filesystem_size_bytes < 0.10` for 15m, severity warning, with the mountpoint in the summary. "
                "promtool check and the unit test (fires after 15m at 8% free, not at 12%) both pass."
            ),
            U("thanks"),
        ],
    ),
    (
        "blind16-codex-airbyte-stream-field",
        "codex",
        "blind16",
        [
            U(
                "in our source-helpdesk connector add the 'priority' field to the tickets stream schema, API returns it as a string now"
            ),
            Read(
                "source_helpdesk/schemas/tickets.json",
                '{\n  "type": "object",\n  "properties": {\n    "id": {"type": "integer"},\n    "subject": {"type": ["null", "string"]},\n    "status": {"type": ["null", "string"]},\n    "updated_at": {"type": "string", "format": "date-time"}\n  }\n}\n',
            ),
            Edit("source_helpdesk/schemas/tickets.json"),
            Edit("unit_tests/test_streams.py"),
            Bash(
                "poetry run pytest unit_tests -q 2>&1 | tail -2",
                "..................                                                       [100%]\n18 passed in 1.12s",
            ),
            A("Added `\"priority\": {\"type\": [\"null\", \"string\"]}` to tickets.json and a test fixture with a priority value. Unit tests pass."),
            U("bump the version too"),
            Edit("metadata.yaml"),
            Edit("pyproject.toml"),
            Bash(
                "grep -n dockerImageTag metadata.yaml && grep -n '^version' pyproject.toml",
                "12:  dockerImageTag: 0.4.3\n3:version = \"0.4.3\"",
            ),
            A("Bumped to 0.4.3 in both metadata.yaml and pyproject.toml, and added a changelog line in docs."),
        ],
    ),
    (
        "blind16-gemini-rtk-rename-action",
        "gemini",
        "blind16",
        [
            U(
                "rename the `setFilter` action in the projects slice to `filterChanged`, and update callers"
            ),
            Bash(
                "grep -rn 'setFilter' src/",
                "src/features/projects/projectsSlice.ts:24:    setFilter(state, action: PayloadAction<ProjectFilter>) {\nsrc/features/projects/projectsSlice.ts:41:export const { setFilter, projectArchived } = projectsSlice.actions\nsrc/features/projects/ProjectToolbar.tsx:3:import { setFilter } from './projectsSlice'\nsrc/features/projects/ProjectToolbar.tsx:18:      onChange={(f) => dispatch(setFilter(f))}\nsrc/features/projects/projectsSlice.test.ts:9:    const s = reducer(initial, setFilter('archived'))",
            ),
            Edit("src/features/projects/projectsSlice.ts"),
            Edit("src/features/projects/ProjectToolbar.tsx"),
            Edit("src/features/projects/projectsSlice.test.ts"),
            Bash(
                "npx tsc --noEmit && npx vitest run src/features/projects",
                " ✓ src/features/projects/projectsSlice.test.ts (5 tests) 9ms\n ✓ src/features/projects/ProjectToolbar.test.tsx (2 tests) 61ms\n\n Test Files  2 passed (2)\n      Tests  7 passed (7)\n   Duration  1.08s",
            ),
            A("Renamed in the slice, the toolbar and the test. Typecheck and tests pass."),
            U("cheers"),
        ],
    ),
    (
        "blind16-smalltalk-weekend",
        "claude",
        "blind16",
        [
            U("morning. not starting anything yet, coffee machine at the office is broken again lol"),
            A("Morning! Sorry about the coffee. I'm here whenever you want to start; just let me know what you're working on today."),
            U("did you know the first webcam was pointed at a coffee pot? cambridge, early 90s"),
            A(
                "Yes, the Trojan Room coffee pot at the Cambridge Computer Lab, from 1991. People in the building could check whether the pot was empty before walking down, and it later went on the web in 1993. It was eventually sold on eBay in 2001."
            ),
            U("haha perfect. ok I'll ping you after standup"),
            A("Sounds good, talk then."),
        ],
    ),
    (
        "blind16-codex-smalltalk-keyboard",
        "codex",
        "blind16",
        [
            U("random q, are split keyboards worth it? wrists have been a bit sore lately"),
            A(
                "A lot of people with sore wrists find them helpful, mainly because you can put the halves shoulder-width apart and tent them, which reduces ulnar deviation and forearm pronation. "
                "That said, the biggest wins are often cheaper: desk and chair height so forearms are level, taking breaks, and not resting wrists on a hard edge while typing. If the soreness persists it's worth seeing a doctor or physio before buying hardware."
            ),
            U("yeah fair. a coworker swears by his ergodox"),
            A("The ErgoDox is a popular one. If you want to try the idea cheaply first, some split boards without a columnar layout have a much shorter learning curve."),
            U("ok thx, back to work"),
        ],
    ),
    (
        "blind16-gemini-smalltalk-talk",
        "gemini",
        "blind16",
        [
            U("i'm giving a 5 min lightning talk at a meetup next week, any tips? topic is 'what we learned moving off cron'"),
            A(
                "Nice topic. For five minutes: pick one story rather than a survey, e.g. the single cron failure that made you move. Open with it, then two or three lessons, then one slide of what you'd do differently. "
                "Keep slides to a handful of words each, rehearse out loud with a timer at least three times, and plan what to cut if you're running long."
            ),
            U("the story is a job that ran twice at DST change and double billed people 😬"),
            A("That's a great opener: concrete, a bit painful, and everyone in the room has had a timezone bug. Lead with the customer emails and the audience will be hooked."),
            U("haha ok. thanks!"),
            A("Good luck with the talk!"),
        ],
    ),
]
