# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind14" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND14: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind14-axum-sqlx-offline-cache",
        "claude",
        "blind14",
        [
            U(
                "CI is red on feat/invoices, the api crate wont compile there. builds fine on my machine. no idea what changed"
            ),
            A("Let me reproduce it the way CI builds. The workflow sets SQLX_OFFLINE, so I'll do the same locally."),
            Bash(
                "grep -n SQLX .github/workflows/ci.yml; SQLX_OFFLINE=true cargo build -p api 2>&1 | tail -12",
                ".github/workflows/ci.yml:31:      SQLX_OFFLINE: \"true\"\n"
                "   Compiling api v0.4.0 (/home/dev/app/crates/api)\n"
                "error: `SQLX_OFFLINE=true` but there is no cached data for this query, run `cargo sqlx prepare` to update the query cache or unset `SQLX_OFFLINE`\n"
                "  --> crates/api/src/routes/invoices.rs:41:15\n"
                "   |\n"
                "41 |       let row = sqlx::query_as!(\n"
                "   |  _______________^\n"
                "42 | |         Invoice,\n"
                "43 | |         r#\"SELECT id, customer_id, total_cents, status AS \"status: InvoiceStatus\", issued_at FROM invoices WHERE id = $1\"#,\n"
                "44 | |         id\n"
                "45 | |     )\n"
                "   | |_____^\n"
                "   |\n"
                "   = note: this error originates in the macro `$crate::sqlx_macros::expand_query` (in Nightly builds, run with -Z macro-backtrace for more info)\n\n"
                "error: could not compile `api` (lib) due to 1 previous error",
                failed=True,
            ),
            Bash(
                "ls .sqlx | wc -l; git log --oneline -3 -- .sqlx crates/api/src/routes/invoices.rs",
                "17\n9c41d2e add GET /invoices/:id\n5be0a77 invoices: list endpoint + filters\n1f03e9a regenerate sqlx query cache",
            ),
            A(
                "Found it. On your machine `.env` has DATABASE_URL, so the `query_as!` macro connects to your local Postgres at compile time and checks the SQL live. "
                "CI has no database and runs with SQLX_OFFLINE=true, so the macro instead looks up a JSON file in `.sqlx/` keyed by the hash of the query text. "
                "The new query in `GET /invoices/:id` (9c41d2e) was never prepared, the last cache regeneration was 1f03e9a, two commits earlier, so there's no entry for its hash and the macro errors. "
                "Nothing is wrong with the query itself. I'll regenerate the cache.",
                lesson=(RC, "The new query in `GET /invoices/:id` (9c41d2e) was never prepared"),
            ),
            Bash(
                "cargo sqlx prepare --workspace 2>&1 | tail -2 && git status --short .sqlx",
                "query data written to .sqlx in the workspace root; please check this into version control\n"
                "?? .sqlx/query-7d1e04b9c2a8f3516e0b4d7f9a2c18e3b56f0d41c7e9a2b83f15d6c0e4a97b21.json",
            ),
            Bash(
                "SQLX_OFFLINE=true cargo build -p api 2>&1 | tail -1 && cargo test -p api 2>&1 | grep 'test result'",
                "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 38.12s\n"
                "test result: ok. 24 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.87s",
            ),
            A("Offline build passes now. The new file is `.sqlx/query-7d1e04b9....json`; want me to commit it on the branch?"),
            U(
                "yes commit. and this has bitten us like 4 times now. any PR that adds or changes a sqlx query must include the regenerated .sqlx files, put that in CONTRIBUTING.md",
                lesson=(R, "any PR that adds or changes a sqlx query must include the regenerated .sqlx files"),
            ),
            Edit("CONTRIBUTING.md"),
            Bash(
                "git add .sqlx CONTRIBUTING.md && git commit -qm 'sqlx: prepare cache for invoice lookup; document prepare step' && git log --oneline -1",
                "e2a90f3 sqlx: prepare cache for invoice lookup; document prepare step",
            ),
            A(
                "Committed. CONTRIBUTING.md now has a \"Database queries\" section saying to run `cargo sqlx prepare --workspace` and commit `.sqlx/` with any query change. "
                "If you want CI to say it clearly instead of a macro error, I can add a `cargo sqlx prepare --workspace --check` step before the build."
            ),
            U("sure, later. thanks"),
        ],
    ),
    (
        "blind14-codex-operator-reconcile-hotloop",
        "codex",
        "blind14",
        [
            U(
                "backup-operator is hammering the apiserver. one BackupPolicy CR and the controller logs 'Reconciling' like 40 times a second. platform team is yelling. internal/controller/backuppolicy_controller.go"
            ),
            Bash(
                "kubectl -n backup-system logs deploy/backup-operator-controller-manager --since=2s | grep -c 'Reconciling BackupPolicy'; kubectl -n backup-system logs deploy/backup-operator-controller-manager --tail=2",
                "83\n"
                '2026-03-04T10:12:01Z\tINFO\tReconciling BackupPolicy\t{"controller": "backuppolicy", "controllerGroup": "backup.acme.io", "controllerKind": "BackupPolicy", "BackupPolicy": {"name":"nightly","namespace":"db"}, "namespace": "db", "name": "nightly", "reconcileID": "8b0f6c1e-2a41-4d0e-9c3a-51f7e2b9d604"}\n'
                '2026-03-04T10:12:01Z\tINFO\tReconciling BackupPolicy\t{"controller": "backuppolicy", "controllerGroup": "backup.acme.io", "controllerKind": "BackupPolicy", "BackupPolicy": {"name":"nightly","namespace":"db"}, "namespace": "db", "name": "nightly", "reconcileID": "f3d9a7b2-6c05-4e18-a2d4-0b9e3c6f1a87"}',
            ),
            Read(
                "internal/controller/backuppolicy_controller.go",
                "func (r *BackupPolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {\n"
                "\tlog := log.FromContext(ctx)\n\tlog.Info(\"Reconciling BackupPolicy\")\n\n"
                "\tvar policy backupv1alpha1.BackupPolicy\n\tif err := r.Get(ctx, req.NamespacedName, &policy); err != nil {\n\t\treturn ctrl.Result{}, client.IgnoreNotFound(err)\n\t}\n"
                "\tif err := r.ensureCronJob(ctx, &policy); err != nil {\n\t\treturn ctrl.Result{}, err\n\t}\n"
                "\tpolicy.Status.LastReconciled = metav1.Now()\n\tpolicy.Status.Phase = backupv1alpha1.PhaseReady\n"
                "\tif err := r.Status().Update(ctx, &policy); err != nil {\n\t\treturn ctrl.Result{}, err\n\t}\n\treturn ctrl.Result{}, nil\n}\n\n"
                "func (r *BackupPolicyReconciler) SetupWithManager(mgr ctrl.Manager) error {\n"
                "\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&backupv1alpha1.BackupPolicy{}).\n\t\tOwns(&batchv1.CronJob{}).\n\t\tComplete(r)\n}",
            ),
            A(
                "The loop is self-inflicted. Every reconcile sets `Status.LastReconciled = metav1.Now()` and calls `Status().Update`, so the status is always different from what's stored. "
                "That write bumps the object's resourceVersion and the informer sees an update event on the very BackupPolicy the controller is `For()`-ing, which enqueues it again, which writes a new timestamp, and so on. "
                "Nothing ever settles because the timestamp guarantees a diff every time.\n\n"
                "Fix, two parts: add `builder.WithPredicates(predicate.GenerationChangedPredicate{})` on the `For()` so status-only updates (they don't bump metadata.generation) don't requeue, "
                "and only call Status().Update when phase/conditions actually changed. I'll drop LastReconciled in favour of `ObservedGeneration`, which is the conventional field anyway.",
                lesson=(RC, "That write bumps the object's resourceVersion and the informer sees an update event"),
            ),
            Edit("internal/controller/backuppolicy_controller.go"),
            Edit("api/v1alpha1/backuppolicy_types.go"),
            Bash(
                "make manifests generate >/dev/null && make test 2>&1 | tail -4",
                "go test $(go list ./... | grep -v /e2e) -coverprofile cover.out\n"
                "?   \tgithub.com/acme/backup-operator/cmd\t[no test files]\n"
                "ok  \tgithub.com/acme/backup-operator/api/v1alpha1\t0.019s\tcoverage: 4.1% of statements\n"
                "ok  \tgithub.com/acme/backup-operator/internal/controller\t13.884s\tcoverage: 62.7% of statements",
            ),
            Bash(
                "make deploy IMG=registry.acme.internal/backup-operator:dev-7f3a >/dev/null && sleep 20 && kubectl -n backup-system logs deploy/backup-operator-controller-manager --since=15s | grep -c 'Reconciling BackupPolicy'",
                "1",
            ),
            A(
                "One reconcile in 15s on the dev cluster, down from ~40/s. Tests pass.\n\n"
                "One caveat for later: GenerationChangedPredicate also swallows metadata-only changes, labels and annotations don't bump generation either. "
                "So if anyone adds an annotation trigger to this controller (a `backup.acme.io/run-now` style thing), it will silently never fire unless they OR in `predicate.AnnotationChangedPredicate{}`.",
                lesson=(N, "GenerationChangedPredicate also swallows metadata-only changes, labels and annotations"),
            ),
            U("ok good to know. ship it, i'll tell platform"),
        ],
    ),
    (
        "blind14-gemini-expo-biometric-unlock",
        "gemini",
        "blind14",
        [
            U(
                "add face id / fingerprint unlock on app resume for the wallet screen. expo sdk 51, pick whatever lib makes sense"
            ),
            A(
                "expo-local-authentication is the right fit, it wraps LocalAuthentication on iOS and BiometricPrompt on Android. "
                "iOS needs an NSFaceIDUsageDescription in Info.plist, so first I'll run `npx expo prebuild` to generate the native projects and then add the key to ios/Wallet/Info.plist directly."
            ),
            U(
                "no dont prebuild, we're on managed workflow with EAS builds. ios/ and android/ are gitignored and generated on the build servers. native config goes in app.json through the config plugin",
                lesson=(C, "dont prebuild, we're on managed workflow with EAS builds"),
            ),
            A("Understood, I'll keep it all in app config. The library ships a config plugin that takes the Face ID string."),
            Bash(
                "npx expo install expo-local-authentication",
                "› Installing 1 SDK 51.0.0 compatible native module using npm\n> npm install\n\nadded 1 package, and audited 1187 packages in 5s\n\n142 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities",
            ),
            Edit("app.json"),
            Edit("src/hooks/useBiometricGate.ts"),
            Edit("src/screens/WalletScreen.tsx"),
            Bash(
                "npx tsc --noEmit && npx jest src/hooks 2>&1 | tail -5",
                "PASS src/hooks/__tests__/useBiometricGate.test.ts\n  useBiometricGate\n    ✓ unlocks when authenticateAsync succeeds (12 ms)\n    ✓ stays locked and shows retry on cancel (4 ms)\n    ✓ skips the prompt when no biometrics are enrolled (3 ms)\n\nTests:       3 passed, 3 total",
            ),
            A(
                "Done. `app.json` now has `[\"expo-local-authentication\", { \"faceIDPermission\": \"Allow Wallet to use Face ID to unlock your cards.\" }]` in plugins, "
                "and `useBiometricGate` listens to AppState and prompts when the app comes back to `active` after more than 30s in background.\n\n"
                "Heads up when you try it: Face ID won't actually work in Expo Go. Expo Go is a prebuilt app with its own Info.plist, which doesn't contain your usage string, so iOS falls back to the device passcode. "
                "To test the real prompt you need a development build (`eas build --profile development --platform ios`). Fingerprint on Android works in Expo Go.",
                lesson=(N, "Face ID won't actually work in Expo Go"),
            ),
            U("ah ok that explains why it asked for my passcode lol. kicking off a dev build"),
        ],
    ),
    (
        "blind14-drf-cursor-pagination",
        "claude",
        "blind14",
        [
            U(
                "GET /api/transactions/ times out for big merchant accounts. page=4000 takes like 9 seconds. ledger/api/views.py"
            ),
            Read(
                "ledger/api/views.py",
                "class TransactionPagination(PageNumberPagination):\n    page_size = 50\n\n\n"
                "class TransactionViewSet(viewsets.ReadOnlyModelViewSet):\n    serializer_class = TransactionSerializer\n    pagination_class = TransactionPagination\n    permission_classes = [IsMerchantMember]\n\n"
                "    def get_queryset(self):\n        return (\n            Transaction.objects.filter(merchant=self.request.user.merchant)\n            .select_related(\"category\")\n            .order_by(\"-created_at\")\n        )\n",
            ),
            Bash(
                "python manage.py shell -c \"from django.db import connection; from django.test.utils import CaptureQueriesContext; from rest_framework.test import APIClient; from ledger.models import User; c=APIClient(); c.force_authenticate(User.objects.get(email='load@acme.test')); ctx=CaptureQueriesContext(connection); ctx.__enter__(); r=c.get('/api/transactions/?page=4000'); ctx.__exit__(None,None,None); [print(q['time'], q['sql'][:110]) for q in ctx.captured_queries]\"",
                "2.914 SELECT COUNT(*) AS \"__count\" FROM \"ledger_transaction\" WHERE \"ledger_transaction\".\"merchant_id\" = 812\n"
                "0.001 SELECT \"ledger_user\".\"id\", \"ledger_user\".\"email\", \"ledger_user\".\"merchant_id\" FROM \"ledger_user\" WHERE \"ledger\n"
                "6.207 SELECT \"ledger_transaction\".\"id\", \"ledger_transaction\".\"merchant_id\", \"ledger_transaction\".\"amount\", \"ledger_transac",
            ),
            A(
                "Two costs, both from page-number pagination: a `COUNT(*)` over the merchant's ~2.4M rows for the `count` field (2.9s), and `OFFSET 199950 LIMIT 50` for page 4000, which makes Postgres walk and throw away 200k index entries (6.2s). Both grow linearly with depth.\n\n"
                "Options:\n1. Keep page numbers, drop the exact count (custom paginator with an estimated count). Fixes the 2.9s, OFFSET stays slow for deep pages.\n"
                "2. Switch this endpoint to CursorPagination ordered by (-created_at, -id). Every page is an index range scan, constant time at any depth. The cost: no `count`, no jumping to page N, only next/previous links.\n\n"
                "I'd go with 2 if the clients only scroll forward. Who uses this endpoint?",
                lesson=(D, "Switch this endpoint to CursorPagination ordered by (-created_at, -id)"),
            ),
            U("mobile app only, it does infinite scroll with the next link. admin has its own endpoint. do the cursor thing"),
            Edit("ledger/api/pagination.py"),
            Edit("ledger/api/views.py"),
            Bash(
                "pytest ledger/api/tests -q 2>&1 | tail -3",
                "........................................                                 [100%]\n40 passed in 6.81s",
            ),
            A(
                "Switched. `TransactionCursorPagination` uses `ordering = (\"-created_at\", \"-id\")`; the `-id` tie-breaker matters because batch imports share a created_at, and without it a cursor could skip or repeat rows. "
                "The existing composite index `(merchant_id, created_at DESC)` covers it once I add id, so I added a migration for `(merchant_id, created_at DESC, id DESC)`. Deep pages are ~4ms now on the load account."
            ),
            U("nice. while ur there, add merchant_name and category_name to the transaction payload, the app wants to stop doing extra lookups"),
            Edit("ledger/api/serializers.py"),
            Bash(
                "pytest ledger/api/tests -q 2>&1 | tail -14",
                "...................F....................                                 [100%]\n"
                "=================================== FAILURES ===================================\n"
                "________________ TestTransactionList.test_list_query_count ________________\n\n"
                "self = <ledger.api.tests.test_transactions.TestTransactionList testMethod=test_list_query_count>\n\n"
                "    def test_list_query_count(self):\n        self.client.force_authenticate(self.user)\n>       with self.assertNumQueries(3):\n\n"
                "E       AssertionError: 53 != 3 : 53 queries executed, 3 expected\n"
                "E       Captured queries were:\n"
                "E       1. SELECT \"ledger_user\".\"id\", ...\n"
                "E       3. SELECT \"ledger_merchant\".\"id\", \"ledger_merchant\".\"name\" FROM \"ledger_merchant\" WHERE \"ledger_merchant\".\"id\" = 812 LIMIT 21\n"
                "=========================== short test summary info ============================\n"
                "FAILED ledger/api/tests/test_transactions.py::TestTransactionList::test_list_query_count - AssertionError: 53 != 3 : 53 queries executed, 3 expected\n"
                "1 failed, 39 passed in 7.02s",
                failed=True,
            ),
            U(
                "yeah thats the guard test doing its job. in this codebase serializers never hit the db themselves, every related field you expose needs its select_related/prefetch in get_queryset",
                lesson=(R, "serializers never hit the db themselves, every related field you expose needs"),
            ),
            A("Right, `source=\"merchant.name\"` lazily loads the merchant per row. Adding `merchant` to the select_related in get_queryset."),
            Edit("ledger/api/views.py"),
            Bash(
                "pytest ledger/api/tests -q 2>&1 | tail -1",
                "40 passed in 6.74s",
            ),
            A("Back to 3 queries for the list; both names come from the join now."),
        ],
    ),
    (
        "blind14-pandas-month-close-timezone",
        "claude",
        "blind14",
        [
            U(
                "march revenue in our monthly report is 41k higher than what finance closed in netsuite. they're annoyed. reports/monthly_revenue.py, data is in data/bookings_2026q1.parquet"
            ),
            Read(
                "reports/monthly_revenue.py",
                "def monthly_revenue(path: str) -> pd.DataFrame:\n"
                "    df = pd.read_parquet(path)\n"
                "    df[\"booked_at\"] = pd.to_datetime(df[\"booked_at\"], utc=True)\n"
                "    out = (\n        df.set_index(\"booked_at\")\n        .groupby(\"entity\")\n        .resample(\"ME\")[\"amount_eur\"]\n        .sum()\n        .reset_index()\n    )\n"
                "    out[\"amount_eur\"] = out[\"amount_eur\"].round(2)\n    return out\n",
            ),
            Bash(
                "python - <<'EOF'\nimport pandas as pd\ndf = pd.read_parquet('data/bookings_2026q1.parquet')\ndf['booked_at'] = pd.to_datetime(df['booked_at'], utc=True)\nutc = df[df.booked_at.dt.month == 3]\nlocal = df[df.booked_at.dt.tz_convert('Europe/Berlin').dt.month == 3]\nextra = utc[~utc.index.isin(local.index)]\nprint(extra[['booked_at', 'entity', 'amount_eur']].to_string())\nprint('sum:', round(extra.amount_eur.sum(), 2))\nmissing = local[~local.index.isin(utc.index)]\nprint('missing rows:', len(missing), round(missing.amount_eur.sum(), 2))\nEOF",
                "                       booked_at entity  amount_eur\n"
                "48211 2026-03-31 22:04:11+00:00  DE01    18250.00\n"
                "48215 2026-03-31 22:41:53+00:00  DE01     9120.50\n"
                "48230 2026-03-31 23:15:07+00:00  AT02    13890.00\n"
                "sum: 41260.5\n"
                "missing rows: 2 1904.2",
            ),
            A(
                "The resample runs on UTC timestamps, but NetSuite closes periods in Europe/Berlin. Since DST started on 29 March, Berlin is UTC+2, "
                "so anything booked after 22:00 UTC on 31 March is already 1 April locally. Those three bookings (41,260.50) land in March in our report and in April in NetSuite. "
                "The same happens at the start of the month in reverse, two late-February-UTC rows (1,904.20) belong to March locally, and in winter it's a one-hour window instead of two.\n\n"
                "Fix: convert to Europe/Berlin before resampling, so month-end boundaries are local midnight. "
                "While I'm in there I'll also round `amount_eur` to 2 decimals per row before the sum so the float noise doesn't show up in the output.",
                lesson=(RC, "The resample runs on UTC timestamps, but NetSuite closes periods in Europe/Berlin"),
            ),
            U(
                "timezone fix yes. but dont round per row, finance sums the raw amounts and rounds the total, rounding each row first drifts by cents over 50k rows and then we're off again. only round at the very end",
                lesson=(C, "dont round per row, finance sums the raw amounts and rounds the total"),
            ),
            A("Makes sense, I'll leave the existing round on the aggregated column and not touch the rows."),
            Edit("reports/monthly_revenue.py"),
            Bash(
                "python -m reports.monthly_revenue data/bookings_2026q1.parquet --month 2026-03 && pytest tests/reports -q 2>&1 | tail -1",
                "entity  month    amount_eur\n"
                "AT02    2026-03    402117.35\n"
                "DE01    2026-03    882812.82\n"
                "TOTAL   2026-03   1284930.17\n"
                "9 passed in 1.12s",
            ),
            A(
                "March is 1,284,930.17 now, which should be the NetSuite figure (previous 1,324,286.47 minus 41,260.50 plus 1,904.20). "
                "I also added a test with bookings at 21:59 and 22:01 UTC on 31 March so this boundary stays covered."
            ),
            U("matches to the cent. thank you!!"),
        ],
    ),
    (
        "blind14-codex-terraform-gcs-iam",
        "codex",
        "blind14",
        [
            U(
                "give the ci-runner service account read on the release-artifacts bucket (objectViewer). infra/gcp/storage.tf"
            ),
            Read(
                "infra/gcp/storage.tf",
                'resource "google_storage_bucket" "release_artifacts" {\n  name                        = "acme-release-artifacts"\n  location                    = "EU"\n  uniform_bucket_level_access = true\n  versioning {\n    enabled = true\n  }\n}\n\n'
                'resource "google_storage_bucket_iam_binding" "release_artifacts_admins" {\n  bucket  = google_storage_bucket.release_artifacts.name\n  role    = "roles/storage.objectAdmin"\n  members = ["group:release-eng@acme.io"]\n}\n',
            ),
            Bash(
                "gcloud storage buckets get-iam-policy gs://acme-release-artifacts --format=json | jq -c '.bindings[]'",
                '{"members":["projectEditor:acme-prod","projectOwner:acme-prod"],"role":"roles/storage.legacyBucketOwner"}\n'
                '{"members":["group:release-eng@acme.io"],"role":"roles/storage.objectAdmin"}\n'
                '{"members":["serviceAccount:looker-export@acme-analytics.iam.gserviceaccount.com"],"role":"roles/storage.objectViewer"}',
            ),
            A(
                "I'll add this as a `google_storage_bucket_iam_member`, not another `_iam_binding` like the admin one. "
                "The `*_iam_binding` resources are authoritative for their role: terraform makes the member list for roles/storage.objectViewer exactly what's in the block. "
                "The looker-export SA already has objectViewer on this bucket (granted outside terraform, it's in the live policy above but not in code), so a binding with only ci-runner in it would quietly remove Looker's access on the next apply. "
                "`_iam_member` only adds one principal and leaves others alone.",
                lesson=(N, "The `*_iam_binding` resources are authoritative for their role"),
            ),
            Edit("infra/gcp/storage.tf"),
            Bash(
                "cd infra/gcp && terraform fmt -check && terraform validate && terraform plan -no-color 2>&1 | tail -14",
                "Success! The configuration is valid.\n\n"
                "Terraform will perform the following actions:\n\n"
                "  # google_storage_bucket_iam_member.release_artifacts_ci_viewer will be created\n"
                '  + resource "google_storage_bucket_iam_member" "release_artifacts_ci_viewer" {\n'
                '      + bucket = "acme-release-artifacts"\n'
                "      + etag   = (known after apply)\n"
                '      + id     = (known after apply)\n'
                '      + member = "serviceAccount:ci-runner@acme-prod.iam.gserviceaccount.com"\n'
                '      + role   = "roles/storage.objectViewer"\n'
                "    }\n\n"
                "Plan: 1 to add, 0 to change, 0 to destroy.",
            ),
            A("Plan is a single add, nothing else touched. Should I run `terraform apply` with this plan?"),
            U(
                "no. we never run apply from a laptop, applies only happen from the cloud build trigger after merge to main. open the PR and the trigger posts the plan on it",
                lesson=(R, "we never run apply from a laptop, applies only happen from the cloud build trigger"),
            ),
            Bash(
                "git checkout -qb iam/ci-runner-artifacts-read && git commit -qam 'gcs: ci-runner objectViewer on release-artifacts' && gh pr create --fill 2>&1 | tail -1",
                "https://github.com/acme/infra/pull/612",
            ),
            A("PR is up: https://github.com/acme/infra/pull/612. I haven't applied anything. Also worth a follow-up ticket to bring the looker-export grant into code so it isn't drift."),
            U("ya i'll file it"),
        ],
    ),
    (
        "blind14-gemini-vue3-compat-migration",
        "gemini",
        "blind14",
        [
            U(
                "we're finally doing vue 2.7 -> 3 on the ops dashboard. ~340 components, vuex, vue-router 3, vuetify 2. we still ship every week. big bang branch or something incremental? whats your take"
            ),
            A(
                "Two realistic paths:\n\n"
                "1. Long-lived migration branch. Upgrade everything at once, fix until it builds, merge. With 340 components and weekly releases, that branch will drift from main every week and you'll be resolving conflicts in the same components people are actively changing.\n"
                "2. Migration build. Swap `vue` for Vue 3 plus `@vue/compat`, which runs Vue 3 with Vue 2 behaviour switched on and logs a deprecation warning wherever a component relies on it. "
                "You ship it on main, then fix warnings component by component and flip each one to Vue 3 mode with `compatConfig: { MODE: 3 }`. When nothing warns, remove compat.\n\n"
                "My recommendation is the compat build: it keeps releases going and spreads the work out. The caveat is Vuetify 2, which doesn't run on Vue 3 at all, compat or not, so those components need their own plan (Vuetify 3 has a different API).",
                lesson=(D, "My recommendation is the compat build: it keeps releases going"),
            ),
            U("compat build it is. vuetify we'll handle on a separate track. start with the reports/ folder since thats the least vuetify-heavy"),
            Edit("package.json"),
            Edit("vite.config.ts"),
            Edit("src/components/reports/ReportFilters.vue"),
            Bash(
                "npx vitest run src/components/reports 2>&1 | tail -16",
                " ✓ src/components/reports/__tests__/ReportTable.spec.ts (6 tests) 112ms\n"
                " ❯ src/components/reports/__tests__/ReportFilters.spec.ts (4 tests | 1 failed) 98ms\n"
                "   × ReportFilters > updates the range when the picker changes\n"
                "     → expected undefined to deeply equal [ '2026-03-01', '2026-03-31' ]\n\n"
                "stderr | src/components/reports/__tests__/ReportFilters.spec.ts > ReportFilters > updates the range when the picker changes\n"
                "[Vue warn]: (deprecation COMPONENT_V_MODEL) v-model usage on component has changed in Vue 3. Component that expects to work with v-model should now use the \"modelValue\" prop and emit the \"update:modelValue\" event. You can update the usage and then opt-in to Vue 3 behavior on a per-component basis with `compatConfig: { COMPONENT_V_MODEL: false }`.\n"
                "  Details: https://v3-migration.vuejs.org/breaking-changes/v-model.html\n"
                "  at <DateRangePicker modelValue=undefined onUpdate:modelValue=fn >\n\n"
                " Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 9 passed (10)",
                failed=True,
            ),
            Read(
                "src/components/common/DateRangePicker.vue",
                "export default {\n  name: 'DateRangePicker',\n  props: { value: { type: Array, default: () => [] } },\n  methods: {\n    onSelect(range) {\n      this.$emit('input', range)\n    },\n  },\n}\n",
            ),
            A(
                "This is a mismatch between a migrated parent and an unmigrated child. I put ReportFilters in Vue 3 mode, so its `v-model` on DateRangePicker now compiles to a `modelValue` prop and an `onUpdate:modelValue` listener. "
                "DateRangePicker (in common/, not migrated) still reads `value` and emits `input`. The parent never receives the event, so the range stays undefined. "
                "Compat only bridges v-model when the *child* is still in Vue 2 mode and the parent uses it the old way; a Vue 3 parent against a Vue 2 child isn't covered.\n\n"
                "I'll migrate DateRangePicker as well (modelValue / update:modelValue, plus `compatConfig: { COMPONENT_V_MODEL: false }`) and check its other callers.",
                lesson=(RC, "a Vue 3 parent against a Vue 2 child isn't covered"),
            ),
            Bash(
                "grep -rln '<DateRangePicker' src | sort",
                "src/components/billing/InvoiceSearch.vue\nsrc/components/reports/ReportFilters.vue\nsrc/views/AuditLog.vue",
            ),
            Edit("src/components/common/DateRangePicker.vue"),
            Edit("src/components/billing/InvoiceSearch.vue"),
            Edit("src/views/AuditLog.vue"),
            Bash(
                "npx vitest run 2>&1 | tail -3",
                " Test Files  61 passed (61)\n      Tests  418 passed (418)\n   Duration  14.92s",
            ),
            A("All green. DateRangePicker and its three callers are on the Vue 3 v-model now; the other report components still run in compat mode and I haven't touched them yet."),
        ],
    ),
    (
        "blind14-svelte-derived-cart-total",
        "claude",
        "blind14",
        [
            U(
                "bug: cart total in the header doesn't change when you bump quantity in the cart drawer. it only updates after a page reload. src/lib/stores/cart.ts + src/lib/components/CartHeader.svelte"
            ),
            Read(
                "src/lib/components/CartHeader.svelte",
                "<script lang=\"ts\">\n  import { get } from 'svelte/store';\n  import { cart } from '$lib/stores/cart';\n  import { formatPrice } from '$lib/money';\n\n  let total = get(cart).reduce((sum, i) => sum + i.price * i.qty, 0);\n</script>\n\n<span class=\"cart-total\">{formatPrice(total)}</span>\n",
            ),
            A(
                "`get(cart)` reads the store once when the component is created and never again, so `total` is a snapshot. "
                "I'll subscribe in onMount, recompute total in the callback, and unsubscribe in onDestroy so it tracks changes."
            ),
            U(
                "nah, don't hand-roll subscriptions in the component. make cartTotal a derived store in cart.ts next to cart and use $cartTotal in the header, the checkout page needs the same number anyway",
                lesson=(C, "make cartTotal a derived store in cart.ts next to cart"),
            ),
            A("Good point, one derived store both places can read. Doing that."),
            Edit("src/lib/stores/cart.ts"),
            Edit("src/lib/components/CartHeader.svelte"),
            Edit("src/routes/checkout/+page.svelte"),
            Bash(
                "npx svelte-check --threshold error 2>&1 | tail -2 && npx vitest run src/lib/stores 2>&1 | tail -4",
                "====================================\nsvelte-check found 0 errors and 0 warnings\n\n"
                " ✓ src/lib/stores/cart.test.ts (5 tests) 9ms\n\n Test Files  1 passed (1)\n      Tests  5 passed (5)",
            ),
            A(
                "Fixed. `cart.ts` exports `cartTotal = derived(cart, ($cart) => $cart.reduce((s, i) => s + i.price * i.qty, 0))`; CartHeader uses `{formatPrice($cartTotal)}` and checkout dropped its own reduce. "
                "I added a test that updates a quantity and asserts the derived value changes."
            ),
            U("works in the browser too. ty"),
        ],
    ),
    (
        "blind14-liveview-presence-dashboard",
        "claude",
        "blind14",
        [
            U(
                "add a 'who's looking at this' list to the ops dashboard liveview, like google docs avatars. lib/ops_web/live/dashboard_live.ex. we already have OpsWeb.Presence set up for the incident page"
            ),
            Read(
                "lib/ops_web/live/incident_live.ex",
                "def mount(%{\"id\" => id}, _session, socket) do\n  topic = \"incident:#{id}\"\n\n  if connected?(socket) do\n    Phoenix.PubSub.subscribe(Ops.PubSub, topic)\n    {:ok, _} = OpsWeb.Presence.track(self(), topic, socket.assigns.current_user.id, %{name: socket.assigns.current_user.name})\n  end\n\n  {:ok, assign(socket, incident_id: id, viewers: list_viewers(topic))}\nend\n",
            ),
            A("I'll follow the incident page: track in mount, subscribe to the presence topic, and handle `presence_diff` broadcasts to refresh the list."),
            Edit("lib/ops_web/live/dashboard_live.ex"),
            Edit("lib/ops_web/live/dashboard_live.html.heex"),
            Bash(
                "mix test test/ops_web/live/dashboard_live_test.exs 2>&1 | tail -4",
                "....\nFinished in 0.6 seconds (0.00s async, 0.6s sync)\n4 tests, 0 failures\n\nRandomized with seed 918243",
            ),
            A(
                "Added, with a test that opens two LiveView connections and asserts both names render.\n\n"
                "One thing to keep in mind for any LiveView that does side effects in mount: mount runs twice, once for the static HTTP render and then again in the websocket process when the client connects. "
                "That's why the track/subscribe is inside `if connected?(socket)`. Without the guard, the dead-render process registers a presence too and exits right away, so every page load shows a join immediately followed by a leave, and the avatars flicker.",
                lesson=(N, "mount runs twice, once for the static HTTP render"),
            ),
            U("makes sense. rename :viewers to :online_users in the dashboard one, viewers is confusing next to the viewer role stuff"),
            Edit("lib/ops_web/live/dashboard_live.ex"),
            Edit("lib/ops_web/live/dashboard_live.html.heex"),
            Bash(
                "mix test test/ops_web/live 2>&1 | tail -2",
                "Finished in 1.9 seconds (0.3s async, 1.6s sync)\n31 tests, 0 failures",
            ),
            A("Renamed in the LiveView, template and test."),
        ],
    ),
    (
        "blind14-codex-servant-jwt-auth",
        "codex",
        "blind14",
        [
            U(
                "admin routes in the servant api need auth. tokens are RS256 JWTs from keycloak, keys rotate. what's least painful, servant-auth or rolling our own with AuthProtect?"
            ),
            Bash(
                "grep -n 'servant\\|jose' api/catalog-api.cabal; ls src/Auth",
                "api/catalog-api.cabal:41:                    , servant            ^>=0.20\n"
                "api/catalog-api.cabal:42:                    , servant-server     ^>=0.20\n"
                "api/catalog-api.cabal:58:                    , jose               ^>=0.11\n"
                "Jwks.hs\nClaims.hs",
            ),
            A(
                "You already have `Auth.Jwks` (the cached JWKS fetcher the indexer worker uses, refreshes on unknown `kid`) and `Auth.Claims` on jose 0.11.\n\n"
                "servant-auth: `Auth '[JWT] AdminClaims` in the API type, nice combinator. But servant-auth-server takes its verification key from a `JWTSettings` value built once at startup, so Keycloak key rotation means either restarting or plumbing a mutable key set into it, and it also brings its cookie/XSRF machinery you don't need.\n\n"
                "Generalized auth: `AuthProtect \"keycloak-admin\"` in the API type plus a `mkAuthHandler` in the Context that reads the Bearer header, verifies with `Auth.Jwks`, and checks the `admin` realm role. About 40 lines, and rotation is handled by code you already run in production.\n\n"
                "I'd use generalized AuthProtect with our own handler and reuse `Auth.Jwks`. The downside is it's marked experimental in servant's docs, but it has been stable for years.",
                lesson=(D, "use generalized AuthProtect with our own handler and reuse `Auth.Jwks`"),
            ),
            U("agreed, AuthProtect + jwks cache. 401 for missing/invalid token, 403 if valid but no admin role"),
            Edit("src/Api/Admin.hs"),
            Edit("src/Auth/Handler.hs"),
            Edit("src/App.hs"),
            Bash(
                "cabal build exe:catalog-api 2>&1 | tail -2 && cabal test 2>&1 | tail -6",
                "[14 of 14] Compiling Main             ( app/Main.hs, dist-newstyle/build/x86_64-linux/ghc-9.6.6/catalog-api-0.3.0/x/catalog-api/build/catalog-api/catalog-api-tmp/Main.o )\n"
                "[15 of 15] Linking dist-newstyle/build/x86_64-linux/ghc-9.6.6/catalog-api-0.3.0/x/catalog-api/build/catalog-api/catalog-api\n"
                "  Admin auth\n    rejects a request without Authorization [✔]\n    rejects an expired token with 401 [✔]\n    returns 403 for a valid token without the admin role [✔]\n    allows a token with the admin role [✔]\n\n"
                "Finished in 0.0518 seconds\n18 examples, 0 failures",
            ),
            A(
                "Done. `type instance AuthServerData (AuthProtect \"keycloak-admin\") = AdminUser`, handler in `Auth.Handler`, wired through `Context` in App.hs. "
                "The tests sign tokens with a local RSA key injected through a test JWKS, so they don't need Keycloak."
            ),
            U("cool thx"),
        ],
    ),
    (
        "blind14-akka-await-dispatcher-starvation",
        "claude",
        "blind14",
        [
            U(
                "pricing-service falls over under load since we added the fx conversion. everything is ask timeouts. from the logs:\n\n"
                "[ERROR] [03/04/2026 11:02:17.331] [pricing-akka.actor.default-dispatcher-14] [akka://pricing/user/http] Ask timed out on [Actor[akka://pricing/user/quote-router/$c#-1283746213]] after [3000 ms]. "
                "Message of type [com.acme.pricing.QuoteActor$GetQuote]. A typical reason for `AskTimeoutException` is that the recipient actor didn't send a reply.\n\n"
                "at low traffic it's fine"
            ),
            Read(
                "src/main/scala/com/acme/pricing/QuoteActor.scala",
                "class QuoteActor(catalog: Catalog, fx: FxClient) extends Actor with ActorLogging {\n"
                "  def receive: Receive = {\n"
                "    case GetQuote(sku, currency) =>\n"
                "      val base = catalog.basePrice(sku)\n"
                "      val rate = Await.result(fx.rate(\"EUR\", currency), 5.seconds)\n"
                "      sender() ! Quote(sku, currency, base * rate)\n"
                "  }\n}\n",
            ),
            Bash(
                "grep -n 'FxClient(' src/main/scala/com/acme/pricing/Main.scala; grep -n 'ExecutionContext' src/main/scala/com/acme/pricing/fx/FxClient.scala",
                "src/main/scala/com/acme/pricing/Main.scala:38:  val fx = new FxClient(http, fxUri)(system.dispatcher)\n"
                "src/main/scala/com/acme/pricing/fx/FxClient.scala:12:class FxClient(http: HttpExt, base: Uri)(implicit ec: ExecutionContext) {",
            ),
            A(
                "This is thread starvation on the default dispatcher. `Await.result` inside `receive` parks the actor's thread until the fx future completes. "
                "But FxClient was constructed with `system.dispatcher`, the same pool, so the callbacks that complete those futures need a free thread from the very pool that the waiting actors are holding. "
                "At low traffic there are spare threads and it works; under load all default-dispatcher threads end up blocked in Await, nothing can complete the futures, and every ask times out at 3s (before the 5s Await even gives up). The HTTP routes run on the same dispatcher, so the whole service looks dead.\n\n"
                "Fix: don't block. Map the future and `pipeTo` the sender, capturing `sender()` in a val first since it's not safe to call from a future callback.",
                lesson=(RC, "all default-dispatcher threads end up blocked in Await, nothing can complete the futures"),
            ),
            Edit("src/main/scala/com/acme/pricing/QuoteActor.scala"),
            Bash(
                "sbt -batch test 2>&1 | tail -5",
                "[info] QuoteActorSpec:\n[info] - replies with the converted price (41 milliseconds)\n[info] - replies with Status.Failure when the fx lookup fails (12 milliseconds)\n[info] Tests: succeeded 22, failed 0, canceled 0, ignored 0, pending 0\n[success] Total time: 19 s, completed Mar 4, 2026, 11:41:03 AM",
            ),
            Bash(
                "sbt -batch 'Gatling/testOnly pricing.QuoteLoadSim' 2>&1 | grep -E 'request count|failed|mean response'",
                "> request count                                      60000 (OK=60000  KO=0     )\n> mean response time                                    18 (OK=18     KO=-     )",
            ),
            A("60k requests at the load-test rate, zero failures, mean 18ms. Before the change the same sim had ~70% KOs."),
            U(
                "great. and lets make sure this never happens again, no Await anywhere in actor code, period. can the build enforce that?",
                lesson=(R, "no Await anywhere in actor code, period"),
            ),
            A("Yes, a scalafix `Disable` rule can ban the symbol. I'll ban `scala.concurrent.Await` for `src/main` and leave tests alone, since specs legitimately await."),
            Edit(".scalafix.conf"),
            Edit("build.sbt"),
            Bash(
                "sbt -batch 'scalafix --check' 2>&1 | tail -2",
                "[info] Running scalafix on 47 Scala sources\n[success] Total time: 11 s, completed Mar 4, 2026, 11:48:22 AM",
            ),
            A("`scalafix --check` is part of the CI `lint` step now and fails on any `Await` in main sources."),
        ],
    ),
    (
        "blind14-gemini-efcore-second-operation",
        "gemini",
        "blind14",
        [
            U(
                "order summary endpoint randomly 500s, maybe 1 in 20 calls. cant reproduce locally reliably. from seq:\n\n"
                "System.InvalidOperationException: A second operation was started on this context instance before a previous operation completed. This is usually caused by different threads concurrently using the same instance of DbContext. For more information on how to avoid threading issues with DbContext, see https://go.microsoft.com/fwlink/?linkid=2097913.\n"
                "   at Microsoft.EntityFrameworkCore.Infrastructure.Internal.ConcurrencyDetector.EnterCriticalSection()\n"
                "   at Microsoft.EntityFrameworkCore.Query.Internal.SingleQueryingEnumerable`1.AsyncEnumerator.MoveNextAsync()\n"
                "   at Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions.ToListAsync[TSource](IQueryable`1 source, CancellationToken cancellationToken)\n"
                "   at Shop.Api.Services.OrderSummaryService.BuildAsync(Int32 orderId, CancellationToken ct) in /src/Shop.Api/Services/OrderSummaryService.cs:line 38"
            ),
            Read(
                "src/Shop.Api/Services/OrderSummaryService.cs",
                "public async Task<OrderSummary> BuildAsync(int orderId, CancellationToken ct)\n{\n"
                "    var linesTask = _db.OrderLines.Where(l => l.OrderId == orderId).ToListAsync(ct);\n"
                "    var paymentsTask = _db.Payments.Where(p => p.OrderId == orderId).ToListAsync(ct);\n"
                "    var shipmentsTask = _db.Shipments.Where(s => s.OrderId == orderId).ToListAsync(ct);\n"
                "    await Task.WhenAll(linesTask, paymentsTask, shipmentsTask);\n"
                "    return OrderSummary.From(linesTask.Result, paymentsTask.Result, shipmentsTask.Result);\n}\n",
            ),
            A(
                "The three `ToListAsync` calls are started without awaiting, so they run concurrently on the same scoped `AppDbContext`. "
                "A DbContext isn't thread-safe and EF Core's concurrency detector throws as soon as a second query starts while the first one still holds the connection. "
                "It's intermittent because it's a race: when the first query has already returned by the time the second starts (small order, warm connection) nothing overlaps and it passes. Locally the DB is close and fast, so you rarely lose the race.\n\n"
                "To keep the parallelism I'd inject `IDbContextFactory<AppDbContext>` and create a short-lived context per query.",
                lesson=(RC, "they run concurrently on the same scoped `AppDbContext`"),
            ),
            U(
                "no, just await them one after another. it's three tiny queries by order id, parallel buys us maybe 2ms and the factory means a second registration + contexts that escape the request scope. one context per request stays the pattern",
                lesson=(C, "just await them one after another. it's three tiny queries by order id"),
            ),
            A("Fair, sequential awaits on the request's context then."),
            Edit("src/Shop.Api/Services/OrderSummaryService.cs"),
            Bash(
                "grep -rn 'Task.WhenAll' src/Shop.Api --include=*.cs",
                "src/Shop.Api/Services/OrderEventsPublisher.cs:41:        await Task.WhenAll(publishTasks);",
            ),
            A("The only other WhenAll in the API is over message-bus publishes, not the DbContext, so it's fine."),
            Bash(
                "dotnet test tests/Shop.Api.Tests 2>&1 | tail -2",
                "\nPassed!  - Failed:     0, Passed:    57, Skipped:     0, Total:    57, Duration: 4 s - Shop.Api.Tests.dll (net8.0)",
            ),
            A("Tests pass. BuildAsync now awaits lines, payments, then shipments in order."),
        ],
    ),
    (
        "blind14-spring-kafka-dlt",
        "claude",
        "blind14",
        [
            U(
                "payments-consumer: one bad message (malformed json yesterday) and the listener retries it forever, whole partition stuck, lag alarm went off at 3am. what's the right setup here"
            ),
            Read(
                "src/main/java/com/acme/payments/config/KafkaConsumerConfig.java",
                "@Bean\npublic ConcurrentKafkaListenerContainerFactory<String, PaymentEvent> kafkaListenerContainerFactory(ConsumerFactory<String, PaymentEvent> cf) {\n"
                "    var factory = new ConcurrentKafkaListenerContainerFactory<String, PaymentEvent>();\n    factory.setConsumerFactory(cf);\n    return factory;\n}\n\n"
                "// application.yml: value-deserializer: org.springframework.kafka.support.serializer.JsonDeserializer\n",
            ),
            A(
                "Two problems. The JsonDeserializer is used directly, so a malformed record throws inside `poll()` before your listener ever sees it; the container can't skip it and polls the same offset again forever. "
                "And there's no error handler with a recoverer, so even a processing failure has nowhere to go.\n\n"
                "Options for what happens to a failed record:\n"
                "a) Blocking retries: `DefaultErrorHandler` with a short backoff (say 3 attempts, 1s apart), then `DeadLetterPublishingRecoverer` sends it to `payments.DLT` and the partition moves on. Order is preserved, the partition only pauses for those few seconds.\n"
                "b) Non-blocking retry topics (`@RetryableTopic`): the failed record goes to `payments-retry-0`, `-1`, ... and the main partition keeps flowing. Better throughput, but later events for the same account can be processed before the retried one.\n\n"
                "Since payment events for an account have to be applied in order (authorised before captured before refunded), I'd go with blocking retries with a DefaultErrorHandler plus a dead-letter topic, and wrap the JSON deserializer in `ErrorHandlingDeserializer` so poison pills go straight to the DLT without retries.",
                lesson=(D, "blocking retries with a DefaultErrorHandler plus a dead-letter topic"),
            ),
            U("yes ordering matters a lot, option a"),
            Edit("src/main/java/com/acme/payments/config/KafkaConsumerConfig.java"),
            Edit("src/main/resources/application.yml"),
            Edit("src/test/java/com/acme/payments/PaymentListenerIT.java"),
            Bash(
                "./mvnw -q verify -Dit.test=PaymentListenerIT 2>&1 | tail -6",
                "[INFO] Running com.acme.payments.PaymentListenerIT\n"
                "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 14.37 s -- in com.acme.payments.PaymentListenerIT\n"
                "[INFO] \n[INFO] Results:\n[INFO] \n[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0",
            ),
            Bash(
                "kafka-topics.sh --bootstrap-server kafka-prod-1:9092 --describe --topic payments | head -1; kafka-topics.sh --bootstrap-server kafka-prod-1:9092 --describe --topic payments.DLT 2>&1 | head -1",
                "Topic: payments\tTopicId: q3Zr8YbKTg6tW1m0fCxN2A\tPartitionCount: 12\tReplicationFactor: 3\tConfigs: min.insync.replicas=2,retention.ms=604800000\n"
                "Error while executing topic command : Topic 'payments.DLT' does not exist as expected",
            ),
            A(
                "The embedded-Kafka test covers a malformed record (straight to DLT), a record that fails 3 times (DLT with the exception headers), and a normal one.\n\n"
                "Before this goes to prod: `payments.DLT` doesn't exist yet, and prod has auto-create off. By default DeadLetterPublishingRecoverer publishes to the same partition number the record came from, "
                "so payments.DLT needs at least as many partitions as payments (12). With fewer, a record from partition 11 can't be published, the recovery fails and the record is retried again, i.e. the stuck partition comes back.",
                lesson=(N, "payments.DLT needs at least as many partitions as payments (12)"),
            ),
            U(
                "oh thats nasty. ok i'll get platform to create payments.DLT with 12 partitions before we deploy. put the partition thing in the README next to the topic list too",
            ),
            Edit("README.md"),
            A("Added under \"Topics\": `payments.DLT` — 12 partitions, must match `payments`."),
        ],
    ),
    (
        "blind14-codex-postgres-lower-email-index",
        "codex",
        "blind14",
        [
            U(
                "user lookup by email got slow after last weeks deploy, 40ms -> 6s in the p95 dashboards. query is in internal/store/users.go, FindByEmail"
            ),
            Bash(
                "git log -L '/func (s \\*Store) FindByEmail/,+6:internal/store/users.go' --oneline | head -14",
                "4c7e21a case-insensitive email lookup (SUP-2291)\n"
                "diff --git a/internal/store/users.go b/internal/store/users.go\n"
                "--- a/internal/store/users.go\n+++ b/internal/store/users.go\n"
                "@@ -88,6 +88,6 @@\n func (s *Store) FindByEmail(ctx context.Context, email string) (*User, error) {\n"
                "-\trow := s.db.QueryRow(ctx, `SELECT id, email, org_id, created_at FROM users WHERE email = $1`, email)\n"
                "+\trow := s.db.QueryRow(ctx, `SELECT id, email, org_id, created_at FROM users WHERE lower(email) = lower($1)`, email)",
            ),
            Bash(
                "psql \"$REPLICA_URL\" -c \"EXPLAIN (ANALYZE, BUFFERS) SELECT id, email, org_id, created_at FROM users WHERE lower(email) = lower('dana@example.com')\"",
                "                                                       QUERY PLAN\n"
                "-------------------------------------------------------------------------------------------------------------------------\n"
                " Gather  (cost=1000.00..3120478.51 rows=915402 width=52) (actual time=5822.913..6101.447 rows=1 loops=1)\n"
                "   Workers Planned: 2\n   Workers Launched: 2\n"
                "   Buffers: shared hit=20311 read=1888204\n"
                "   ->  Parallel Seq Scan on users  (cost=0.00..3027938.31 rows=381418 width=52) (actual time=5804.116..5815.902 rows=0 loops=3)\n"
                "         Filter: (lower((email)::text) = 'dana@example.com'::text)\n"
                "         Rows Removed by Filter: 61027301\n"
                " Planning Time: 0.171 ms\n"
                " Execution Time: 6101.522 ms\n(10 rows)",
            ),
            A(
                "That commit changed `WHERE email = $1` to `WHERE lower(email) = lower($1)`. The only index is the unique btree on `email`, and the btree on email can't be used for lower(email), because the index stores the raw values and Postgres can't match an expression against it. "
                "So every lookup is now a parallel seq scan over 183M rows (1.9M buffers read).\n\n"
                "Fix is an expression index. I'll add a migration:\n\n```sql\nCREATE INDEX users_lower_email_idx ON users (lower(email));\n```",
                lesson=(RC, "the btree on email can't be used for lower(email)"),
            ),
            U(
                "not like that on prod, a plain CREATE INDEX takes a lock that blocks all writes to users for the whole build, thats 20+ min of no signups. it has to be CREATE INDEX CONCURRENTLY, which can't run in a transaction, so its own dbmate file with transaction:false",
                lesson=(C, "it has to be CREATE INDEX CONCURRENTLY, which can't run in a transaction"),
            ),
            A("Right. Separate migration, `-- migrate:up transaction:false`, and `IF NOT EXISTS` so a rerun after a failed concurrent build doesn't error on the name."),
            Edit("db/migrations/20260304101500_users_lower_email_idx.sql"),
            Bash(
                "dbmate --url \"$LOCAL_DATABASE_URL\" up 2>&1 && psql \"$LOCAL_DATABASE_URL\" -c \"EXPLAIN ANALYZE SELECT id FROM users WHERE lower(email) = lower('dana@example.com')\" | grep -E 'Index|Execution'",
                "Applying: 20260304101500_users_lower_email_idx.sql\nApplied: 20260304101500_users_lower_email_idx.sql in 2.381s\n"
                " Index Scan using users_lower_email_idx on users  (cost=0.56..8.58 rows=1 width=8) (actual time=0.031..0.032 rows=1 loops=1)\n"
                " Execution Time: 0.058 ms",
            ),
            A(
                "Index scan locally, 0.06ms. Migration:\n\n```sql\n-- migrate:up transaction:false\nCREATE INDEX CONCURRENTLY IF NOT EXISTS users_lower_email_idx ON users (lower(email));\n\n-- migrate:down transaction:false\nDROP INDEX CONCURRENTLY IF EXISTS users_lower_email_idx;\n```\n\n"
                "If a concurrent build is interrupted it leaves an INVALID index behind; `IF NOT EXISTS` would then skip it, so after a failure check `\\d users` and drop an invalid one before rerunning.",
                lesson=(N, "If a concurrent build is interrupted it leaves an INVALID index behind"),
            ),
            U("ok. open a PR, i'll run it in the maintenance window tonight"),
            Bash(
                "git checkout -qb perf/users-lower-email-idx && git add db/migrations && git commit -qm 'users: expression index on lower(email)' && gh pr create --fill 2>&1 | tail -1",
                "https://github.com/acme/accounts/pull/1408",
            ),
        ],
    ),
    (
        "blind14-gemini-mongo-seller-stats",
        "gemini",
        "blind14",
        [
            U(
                "need an aggregation for the monthly seller stats email: per seller, order count + gross for last month. sellers with 0 orders must still show up (the email says 'no sales this month'). put it in src/pipelines/sellerMonthlyStats.js"
            ),
            Read(
                "src/pipelines/topProducts.js",
                "export function topProducts({ from, to, limit = 20 }) {\n  return [\n    { $match: { placedAt: { $gte: from, $lt: to }, status: 'paid' } },\n    { $unwind: '$items' },\n    { $group: { _id: '$items.productId', units: { $sum: '$items.qty' } } },\n    { $sort: { units: -1 } },\n    { $limit: limit },\n  ];\n}\n",
            ),
            A("I'll follow the same shape (exported function returning the stages). Since zero-order sellers have to appear, the pipeline starts from `sellers` and looks up orders, not the other way round."),
            Edit("src/pipelines/sellerMonthlyStats.js"),
            Bash(
                "mongosh \"$MONGO_STAGING_URI\" --quiet --eval \"const { sellerMonthlyStats } = require('./src/pipelines/sellerMonthlyStats.js'); printjson(db.sellers.aggregate(sellerMonthlyStats({ from: ISODate('2026-02-01'), to: ISODate('2026-03-01') })).toArray().slice(0, 3))\"",
                "[\n  {\n    _id: ObjectId('65f1c2a9e4b0a1d2c3f40012'),\n    name: 'Kessler Ceramics',\n    orders: 0,\n    gross: Decimal128('0')\n  },\n"
                "  {\n    _id: ObjectId('65f1c2a9e4b0a1d2c3f40019'),\n    name: 'Nordlicht Tea',\n    orders: 37,\n    gross: Decimal128('2841.60')\n  },\n"
                "  {\n    _id: ObjectId('65f1c2a9e4b0a1d2c3f40023'),\n    name: 'Ostrava Print Co',\n    orders: 112,\n    gross: Decimal128('9120.35')\n  }\n]",
            ),
            A(
                "Works on staging, Kessler Ceramics shows up with 0 orders.\n\n"
                "One trap I worked around, worth remembering for these reports: `$unwind` drops any document whose array is missing or empty. After the `$lookup`, a seller with no orders has `orders: []`, "
                "so a plain `{ $unwind: '$orders' }` would silently remove exactly the sellers you want to show. I used `{ $unwind: { path: '$orders', preserveNullAndEmptyArrays: true } }` and count with `$sum: { $cond: [{ $ifNull: ['$orders._id', false] }, 1, 0] }` so the empty ones count as 0, not 1.",
                lesson=(N, "`$unwind` drops any document whose array is missing or empty"),
            ),
            U(
                "nice catch. one more thing, the job that calls this has to use the analytics node. we always run aggregations with readPreference secondary + tag workload:analytics, never on the primary, the big ones have tanked checkout before",
                lesson=(R, "we always run aggregations with readPreference secondary + tag workload:analytics"),
            ),
            Read(
                "src/jobs/sendSellerStats.js",
                "const cursor = db.collection('sellers').aggregate(sellerMonthlyStats({ from, to }));\n",
            ),
            Edit("src/jobs/sendSellerStats.js"),
            Bash(
                "npm test -- src/jobs src/pipelines 2>&1 | tail -5",
                "PASS src/pipelines/sellerMonthlyStats.test.js\nPASS src/jobs/sendSellerStats.test.js\n\nTest Suites: 2 passed, 2 total\nTests:       7 passed, 7 total",
            ),
            A("The job now passes `{ readPreference: new ReadPreference('secondary', [{ workload: 'analytics' }]) }` to `aggregate`, and the test asserts the option is set."),
        ],
    ),
    (
        "blind14-gitlab-ci-npm-cache",
        "claude",
        "blind14",
        [
            U(
                "our MR pipeline is ~14 min and something like 4 of that is npm ci running in every job. can we share deps between jobs? .gitlab-ci.yml"
            ),
            Read(
                ".gitlab-ci.yml",
                "image: node:20-bookworm\n\nstages: [check, test, build]\n\n"
                "lint:\n  stage: check\n  script:\n    - npm ci\n    - npm run lint\n\n"
                "typecheck:\n  stage: check\n  script:\n    - npm ci\n    - npm run typecheck\n\n"
                "unit:\n  stage: test\n  script:\n    - npm ci\n    - npm test -- --ci\n\n"
                "e2e:\n  stage: test\n  script:\n    - npm ci\n    - npx playwright test\n\n"
                "build:\n  stage: build\n  script:\n    - npm ci\n    - npm run build\n  artifacts:\n    paths: [dist/]\n",
            ),
            Bash(
                "du -sh node_modules ~/.npm/_cacache 2>/dev/null",
                "712M\tnode_modules\n243M\t/home/dev/.npm/_cacache",
            ),
            A(
                "Two ways to do it:\n\n"
                "1. Install once in a `deps` job and pass `node_modules/` to later jobs as an artifact. Every pipeline uploads ~700MB to GitLab, every downstream job downloads it, and it counts against project storage until it expires. It also re-runs even when the lockfile didn't change.\n"
                "2. GitLab cache of npm's download cache (`.npm/`, ~240MB) keyed on `package-lock.json`, with `npm ci --cache .npm --prefer-offline`. The cache lives on the runners and survives across pipelines, so as long as the lockfile is unchanged npm ci installs from local tarballs instead of the registry. That's most of the 4 minutes.\n\n"
                "I'd go with the cache keyed on package-lock.json rather than node_modules artifacts. Cache is best-effort (a cold runner just installs normally), which is fine here.",
                lesson=(D, "go with the cache keyed on package-lock.json rather than node_modules artifacts"),
            ),
            U("yep, cache"),
            Edit(".gitlab-ci.yml"),
            Read(
                ".gitlab-ci.yml",
                "default:\n  cache:\n    key:\n      files: [package-lock.json]\n    paths: [.npm/]\n    policy: pull-push\n  before_script:\n    - npm ci --cache .npm --prefer-offline --no-audit\n",
            ),
            U(
                "hmm not pull-push on everything. lint typecheck unit e2e all run in parallel and each one would re-upload the same 240mb zip at the end. make the default policy pull and let only one job push, the build job is fine",
                lesson=(C, "make the default policy pull and let only one job push"),
            ),
            A("Good catch. Default `policy: pull`, and `build` overrides it with `pull-push` so a new lockfile gets its cache populated once."),
            Edit(".gitlab-ci.yml"),
            Bash(
                "glab ci lint",
                "Getting contents in .gitlab-ci.yml\nValidating...\n✓ CI/CD YAML is valid!",
            ),
            Bash(
                "git commit -qam 'ci: share npm cache keyed on lockfile' && git push -q origin HEAD 2>&1 | tail -2",
                "remote: View merge request for ci/npm-cache:\nremote:   https://gitlab.acme.io/web/storefront/-/merge_requests/877",
            ),
            A("Pushed to the MR. The first pipeline has to fill the cache from build, so the real saving shows from the second run on."),
            U("second run was 9 min. good enough for now, thx"),
        ],
    ),
    (
        "blind14-bash-deploy-staging-script",
        "claude",
        "blind14",
        [
            U(
                "write scripts/deploy-staging.sh: takes the image tag as $1, ssh to the staging box, docker compose pull with that tag, run migrations, then restart the app. nothing fancy"
            ),
            Edit("scripts/deploy-staging.sh"),
            Bash(
                "shellcheck scripts/deploy-staging.sh",
                "\nIn scripts/deploy-staging.sh line 9:\nssh deploy@staging-01.int.acme.io \"cd /srv/shop && TAG=$1 docker compose pull app\"\n                                                          ^-- SC2029 (info): Note that, unescaped, this expands on the client side.\n\n"
                "In scripts/deploy-staging.sh line 10:\nssh deploy@staging-01.int.acme.io \"cd /srv/shop && TAG=$TAG docker compose run --rm app bin/migrate\"\n                                                            ^--^ SC2153 (info): Possible misspelling: TAG may not be assigned. Did you mean tag?\n\n"
                "For more information:\n  https://www.shellcheck.net/wiki/SC2029 -- Note that, unescaped, this expands...\n  https://www.shellcheck.net/wiki/SC2153 -- Possible misspelling: TAG may not...",
                failed=True,
            ),
            A("The SC2029 is intended (the tag should expand locally), but SC2153 is a real bug: I assigned `tag` and used `$TAG`. Fixing and quoting properly."),
            Edit("scripts/deploy-staging.sh"),
            Bash("shellcheck scripts/deploy-staging.sh && echo clean", "clean"),
            Read(
                "scripts/deploy-staging.sh",
                "#!/usr/bin/env bash\n\ntag=\"${1:?usage: deploy-staging.sh <image-tag>}\"\nhost=\"deploy@staging-01.int.acme.io\"\n\nssh \"$host\" \"cd /srv/shop && TAG='$tag' docker compose pull app\"\nssh \"$host\" \"cd /srv/shop && TAG='$tag' docker compose run --rm app bin/migrate\"\nssh \"$host\" \"cd /srv/shop && TAG='$tag' docker compose up -d app\"\necho \"deployed $tag\"\n",
            ),
            U(
                "works but match how the other scripts do it. every script starts with set -euo pipefail and sources scripts/lib/common.sh for log/die, and hosts come from env checked with ${VAR:?}, no hardcoded hostnames",
                lesson=(R, "every script starts with set -euo pipefail and sources scripts/lib/common.sh"),
            ),
            Read(
                "scripts/lib/common.sh",
                "# shellcheck shell=bash\nlog() { printf '%s [%s] %s\\n' \"$(date -u +%H:%M:%S)\" \"${0##*/}\" \"$*\" >&2; }\ndie() { log \"ERROR: $*\"; exit 1; }\nrequire_cmd() { command -v \"$1\" >/dev/null || die \"missing command: $1\"; }\n",
            ),
            Edit("scripts/deploy-staging.sh"),
            Bash(
                "shellcheck -x scripts/deploy-staging.sh && env -u STAGING_HOST bash scripts/deploy-staging.sh v2.14.0",
                "scripts/deploy-staging.sh: line 7: STAGING_HOST: set STAGING_HOST (e.g. deploy@staging-01.int.acme.io)",
                failed=True,
            ),
            A(
                "That failure is the intended guard: without STAGING_HOST it stops before doing anything. The script now has the usual header, uses `log` for each step, and `die`s if the migration exits non-zero so the restart never happens on a half-migrated DB."
            ),
            U("👍"),
        ],
    ),
    (
        "blind14-gemini-asyncio-vendor-ratelimit",
        "gemini",
        "blind14",
        [
            U(
                "ingest service gets hammered with 429s from the vendor catalog API. their limit is 10 concurrent requests per key. we fire all ~5000 sku fetches at once. ingest/fetcher.py"
            ),
            Read(
                "ingest/fetcher.py",
                "async def fetch_all(client: httpx.AsyncClient, skus: list[str]) -> list[Product]:\n    results = await asyncio.gather(*(fetch_one(client, sku) for sku in skus))\n    return [r for r in results if r is not None]\n\n\n"
                "async def fetch_one(client: httpx.AsyncClient, sku: str) -> Product | None:\n    resp = await client.get(f\"/v2/products/{sku}\")\n    if resp.status_code == 404:\n        return None\n    resp.raise_for_status()\n    return Product.model_validate(resp.json())\n",
            ),
            A(
                "Two standard ways to cap it at 10:\n\n"
                "- `asyncio.Semaphore(10)` around the request in `fetch_one`, keep the gather. Smallest diff. But all 5000 coroutines still get created up front and sit waiting on the semaphore, and a 429 retry would re-acquire the semaphore from the back of the line.\n"
                "- A fixed pool of 10 worker tasks pulling from an asyncio.Queue. Only 10 requests exist at any time, a worker that gets a 429 can sleep for `Retry-After` and retry in place (which also naturally slows the whole pool), and shutdown is clean via `queue.join()` and cancelling the workers.\n\n"
                "I'd do the worker pool, mostly because you'll want the 429 handling anyway.",
                lesson=(D, "A fixed pool of 10 worker tasks pulling from an asyncio.Queue"),
            ),
            U("workers + queue, agreed. honour Retry-After, max 5 attempts then log and skip the sku"),
            Edit("ingest/fetcher.py"),
            Edit("tests/test_fetcher.py"),
            Bash(
                "pytest tests/test_fetcher.py -q 2>&1 | tail -3",
                "......                                                                   [100%]\n6 passed in 0.84s",
            ),
            A(
                "Done. `fetch_all` fills a queue, starts 10 workers, awaits `queue.join()`, then cancels the workers. On 429 a worker sleeps for `Retry-After` (default 1s) and retries up to 5 times, then logs `vendor_skip sku=...` and moves on. "
                "The test uses respx with a fake limiter that 429s above 10 in flight and asserts it never triggers."
            ),
            U("ran it against sandbox, 0 429s and 5000 skus in 3m40. ship"),
        ],
    ),
    (
        "blind14-codex-turbo-zod-bump",
        "codex",
        "blind14",
        [
            U("bump zod to 3.23.8 in packages/schemas and check nothing downstream breaks"),
            Bash(
                "pnpm --filter @acme/schemas add zod@3.23.8 2>&1 | tail -3",
                "dependencies:\n- zod 3.22.4\n+ zod 3.23.8\n\nDone in 3.1s",
            ),
            Bash(
                "pnpm turbo run typecheck test build --filter=...@acme/schemas 2>&1 | tail -6",
                "@acme/web:build: ✓ Compiled successfully\n@acme/web:build: ✓ Generating static pages (31/31)\n\n"
                " Tasks:    12 successful, 12 total\nCached:    2 cached, 12 total\n  Time:    52.417s",
            ),
            A("zod is at 3.23.8 in `@acme/schemas`; typecheck, tests and build pass for it and everything that depends on it (api, web, worker). The lockfile changed only for zod."),
            U("great, commit it"),
            Bash(
                "git add packages/schemas/package.json pnpm-lock.yaml && git commit -qm 'schemas: bump zod to 3.23.8' && git log --oneline -1",
                "a91f0c2 schemas: bump zod to 3.23.8",
            ),
            A("Committed as a91f0c2."),
        ],
    ),
    (
        "blind14-uikit-coredata-swipe-delete",
        "claude",
        "blind14",
        [
            U("add swipe to delete on the notes list. Notes/NotesListViewController.swift"),
            Read(
                "Notes/NotesListViewController.swift",
                "final class NotesListViewController: UITableViewController, NSFetchedResultsControllerDelegate {\n"
                "    private let context: NSManagedObjectContext\n    private lazy var frc: NSFetchedResultsController<Note> = makeFRC()\n\n"
                "    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {\n"
                "        let cell = tableView.dequeueReusableCell(withIdentifier: NoteCell.reuseID, for: indexPath) as! NoteCell\n"
                "        cell.configure(with: frc.object(at: indexPath))\n        return cell\n    }\n\n"
                "    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {\n"
                "        switch type {\n        case .insert: tableView.insertRows(at: [newIndexPath!], with: .automatic)\n        case .delete: tableView.deleteRows(at: [indexPath!], with: .automatic)\n"
                "        case .update: tableView.reloadRows(at: [indexPath!], with: .none)\n        case .move: tableView.moveRow(at: indexPath!, to: newIndexPath!)\n        @unknown default: break\n        }\n    }\n}\n",
            ),
            A("The fetched results controller already handles `.delete`, so I only need a trailing swipe action that deletes the object and saves; the row animation comes from the delegate."),
            Edit("Notes/NotesListViewController.swift"),
            Bash(
                "xcodebuild test -scheme Notes -destination 'platform=iOS Simulator,name=iPhone 15' -quiet 2>&1 | tail -4",
                "Test Suite 'NotesListViewControllerTests' passed at 2026-03-04 14:22:09.318.\n\t Executed 6 tests, with 0 failures (0 unexpected) in 0.412 (0.418) seconds\n** TEST SUCCEEDED **",
            ),
            A("Added `tableView(_:trailingSwipeActionsConfigurationForRowAt:)` with a destructive \"Delete\" action, and a test that swipes, deletes and checks the row count drops. All tests pass."),
            U("perfect thanks"),
        ],
    ),
    (
        "blind14-gemini-axum-healthz",
        "gemini",
        "blind14",
        [
            U("add GET /healthz to the api that just returns 200 \"ok\". crates/api/src/main.rs. k8s probe needs it"),
            Read(
                "crates/api/src/routes/mod.rs",
                "pub fn router(state: AppState) -> Router {\n    Router::new()\n        .nest(\"/invoices\", invoices::router())\n        .nest(\"/customers\", customers::router())\n        .with_state(state)\n}\n",
            ),
            A("The routes are assembled in routes/mod.rs, so I'll add it there rather than in main.rs."),
            Edit("crates/api/src/routes/mod.rs"),
            Edit("crates/api/tests/health.rs"),
            Bash(
                "cargo test -p api --test health 2>&1 | tail -4",
                "running 1 test\ntest healthz_returns_ok ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s",
            ),
            A("`GET /healthz` returns `200 ok`, with a test using `tower::ServiceExt::oneshot`."),
            U("ty"),
        ],
    ),
    (
        "blind14-smalltalk-book-recs",
        "claude",
        "blind14",
        [
            U("morning. waiting on a 40 min release build, distract me. good sci fi that isnt three body problem? everyone at work keeps pushing that one"),
            A(
                "Ha, fair. A few that people who like ideas-heavy sci-fi tend to enjoy:\n\n"
                "- *The Dispossessed* (Le Guin), two societies, one anarchist, told by a physicist caught between them.\n"
                "- *Blindsight* (Peter Watts), first contact and a long argument about whether consciousness is even useful. Dense but memorable.\n"
                "- *Project Hail Mary* (Andy Weir), if you want something lighter and fun, problem-solving the whole way.\n"
                "- *A Memory Called Empire* (Arkady Martine), political intrigue in an empire that runs on poetry."
            ),
            U("read hail mary already, loved it. something shorter? i only read on the train, 20 min each way"),
            A(
                "Then short fiction: Ted Chiang's *Stories of Your Life and Others* or *Exhalation*. Each story fits a couple of train rides, and \"Story of Your Life\" is the one the film Arrival was based on. "
                "Martha Wells' *All Systems Red* is also short, a novella about a security robot that would rather be watching TV."
            ),
            U("murderbot! a friend mentioned that. ok getting it. build's at 60% lol"),
            A("Enjoy it. Good luck with the build."),
        ],
    ),
    (
        "blind14-codex-smalltalk-flat-white",
        "codex",
        "blind14",
        [
            U("non-code question, settle an argument in the office: flat white vs latte, what's actually the difference"),
            A(
                "Mostly the milk. Both are espresso plus steamed milk, but a flat white is smaller (around 160-180 ml), usually made with a double shot, and the milk is steamed to a thin, velvety microfoam with very little froth on top, so the coffee taste stays strong. "
                "A latte is bigger (240 ml and up), with more milk and a slightly thicker layer of foam, so it's milder. Cafés differ a lot, so you'll both be right somewhere."
            ),
            U("so i was right that flat white is stronger. telling jonas"),
            A("Per sip, yes, same espresso in less milk. Whether Jonas accepts that is another matter."),
        ],
    ),
    (
        "blind14-smalltalk-demo-went-well",
        "claude",
        "blind14",
        [
            U("hey just wanted to say, the demo yesterday went really well. client signed the pilot. so thanks for the late night help"),
            A("That's great news, congratulations! Signing a pilot off a demo is a big deal. How did the team take it?"),
            U("pretty hyped. my manager bought pizza. im taking the afternoon off honestly, brain is fried"),
            A("Sounds well earned. Enjoy the afternoon; the code will still be there on Monday."),
            U("haha yeah. later"),
        ],
    ),
]
