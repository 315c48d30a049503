# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind5" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind4.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND5: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind5-kmp-expect-actual",
        "claude",
        "blind5",
        [
            U(
                "iOS build of the shared module broke after I added platformName(). android is fine. kotlin 2.0, KMP"
            ),
            Bash(
                "./gradlew :shared:compileKotlinIosArm64 2>&1 | grep -E '^e:' | head -3",
                "e: file:///Users/dana/src/tally/shared/src/commonMain/kotlin/Platform.kt:3:12 Expected function 'platformName' has no actual declaration in module <shared_iosArm64Main> for Native",
                failed=True,
            ),
            Bash(
                "find shared/src -name 'Platform*.kt'",
                "shared/src/commonMain/kotlin/Platform.kt\nshared/src/androidMain/kotlin/Platform.android.kt\nshared/src/iosX64Main/kotlin/Platform.ios.kt",
            ),
            A(
                "The actual is in iosX64Main, which is only the simulator target on Intel Macs. iosArm64 (devices) and iosSimulatorArm64 never see it, "
                "so the compiler finds no actual for those. With the default hierarchy template the shared iosMain source set covers all three ios targets; "
                "I'll move Platform.ios.kt to shared/src/iosMain/kotlin.",
                lesson=(RC, "The actual is in iosX64Main, which is only the simulator target"),
            ),
            Edit("shared/src/iosMain/kotlin/Platform.ios.kt"),
            Bash(
                "./gradlew :shared:compileKotlinIosArm64 :shared:compileKotlinIosSimulatorArm64 2>&1 | tail -1",
                "BUILD SUCCESSFUL in 41s",
            ),
            A("Both ios targets compile now."),
            U(
                "nice. yeah going forward all ios code goes in iosMain, nobody should be creating iosX64Main/iosArm64Main folders in this repo unless its truly arch specific",
                lesson=(R, "all ios code goes in iosMain, nobody should be creating"),
            ),
            A("Noted. There are no other per-target folders left; I removed the empty iosX64Main."),
        ],
    ),
    (
        "blind5-phoenix-liveview-streams",
        "claude",
        "blind5",
        [
            U(
                "the messages page in our liveview app eats memory, 2k users in a room and the beam process is at 3GB. lib/chat_web/live/room_live.ex"
            ),
            Read(
                "lib/chat_web/live/room_live.ex",
                'def mount(%{"id" => id}, _session, socket) do\n  messages = Chat.list_messages(id)\n  {:ok, assign(socket, room_id: id, messages: messages)}\nend\n\ndef handle_info({:new_message, msg}, socket) do\n  {:noreply, update(socket, :messages, &(&1 ++ [msg]))}\nend\n',
            ),
            A(
                'Every socket keeps the whole message list in its assigns, and it grows with each new message. I\'ll mark :messages as a temporary assign in mount and render with phx-update="append", so the server drops the list after each render.'
            ),
            Edit("lib/chat_web/live/room_live.ex"),
            U(
                "hmm no, don't do temporary_assigns, we moved everything to streams last quarter. use stream(:messages, ...) and stream_insert like the other live views do",
                lesson=(C, "don't do temporary_assigns, we moved everything to streams"),
            ),
            A("Switching to streams."),
            Edit("lib/chat_web/live/room_live.ex"),
            Edit("lib/chat_web/live/room_live.html.heex"),
            Bash(
                "mix test test/chat_web/live/room_live_test.exs 2>&1 | tail -3",
                "..\nFinished in 0.4 seconds (0.00s async, 0.4s sync)\n6 tests, 0 failures",
            ),
            A(
                "Done: mount calls stream(socket, :messages, messages) and handle_info uses stream_insert. "
                'Worth knowing for the template: the container needs phx-update="stream" and every child must use the dom id from the stream tuple (`id={dom_id}`), otherwise LiveView can\'t match inserts and you get duplicated rows after a reconnect.',
                lesson=(N, "every child must use the dom id from the stream tuple"),
            ),
            U("ok cool"),
        ],
    ),
    (
        "blind5-rails-turbo-422",
        "claude",
        "blind5",
        [
            U(
                "after upgrading to turbo-rails the signup form doesnt show validation errors anymore. you click submit, nothing happens. no errors in the console"
            ),
            Bash(
                "tail -n 6 log/development.log",
                'Started POST "/users" for ::1 at 2026-11-28 12:02:11 +0000\nProcessing by UsersController#create as TURBO_STREAM\n  Parameters: {"user"=>{"email"=>"", "password"=>"[FILTERED]"}}\n  Rendering users/new.html.erb within layouts/application\n  Rendered users/new.html.erb within layouts/application (Duration: 4.1ms)\nCompleted 200 OK in 19ms (Views: 9.8ms | ActiveRecord: 0.6ms)',
            ),
            Read(
                "app/controllers/users_controller.rb",
                "def create\n  @user = User.new(user_params)\n  if @user.save\n    redirect_to root_path\n  else\n    render :new\n  end\nend\n",
            ),
            A(
                "The create action re-renders the form with 200 OK. Turbo Drive only renders a form submission's response if it's a redirect or an error status; "
                "a 200 to a POST is silently ignored, which is why nothing happens. The fix is `render :new, status: :unprocessable_entity`.",
                lesson=(RC, "a 200 to a POST is silently ignored"),
            ),
            Edit("app/controllers/users_controller.rb"),
            Bash(
                "bin/rails test test/system/signup_test.rb 2>&1 | tail -1",
                "3 runs, 7 assertions, 0 failures, 0 errors, 0 skips",
            ),
            A(
                "Errors show again. The same pattern is in SessionsController and PasswordsController. "
                "I could patch each `render` by hand, or add a small `render_invalid` helper in ApplicationController that always sets 422. "
                "I'd rather do the helper so the next form can't forget it.",
                lesson=(D, "I'd rather do the helper so the next form can't forget it"),
            ),
            U("yes the helper, good call"),
            Edit("app/controllers/application_controller.rb"),
            Edit("app/controllers/sessions_controller.rb"),
            Edit("app/controllers/passwords_controller.rb"),
            Bash(
                "bin/rails test 2>&1 | tail -1",
                "88 runs, 241 assertions, 0 failures, 0 errors, 0 skips",
            ),
        ],
    ),
    (
        "blind5-go-generics-cache",
        "claude",
        "blind5",
        [
            U(
                "I want a generic LRU in pkg/lru to replace the three copy-pasted ones (string->User, int64->Order, string->[]byte). go 1.22"
            ),
            A(
                "Keys need to be comparable for the map, values can be anything, so `type Cache[K comparable, V any]`. "
                "For eviction callbacks I can take a `func(K, V)` option or an interface; "
                "I'd go with a plain func option, since none of the three callers needs more than a closure and it keeps the type parameter list short.",
                lesson=(D, "I'd go with a plain func option"),
            ),
            U("sure, func option"),
            Edit("pkg/lru/lru.go"),
            Edit("pkg/lru/lru_test.go"),
            Bash(
                "go test ./pkg/lru/... 2>&1 | tail -1",
                "ok  \tgithub.com/ferrous-labs/ledger/pkg/lru\t0.012s",
            ),
            A(
                "Should I also export a `Cache[K, V]` from the top-level `ledger` package so clients can reuse it?"
            ),
            U(
                "no. the public ledger package stays free of generic types, our sdk users are stuck on go 1.17 in a couple of places. generics live under internal/ or pkg/ only",
                lesson=(R, "the public ledger package stays free of generic types"),
            ),
            A("Got it, it stays in pkg/lru. Replacing the three caches now."),
            Edit("internal/users/cache.go"),
            Edit("internal/orders/cache.go"),
            Edit("internal/blobs/cache.go"),
            Bash("go build ./... && go test ./... 2>&1 | grep -v '^ok' | head", ""),
            A("Everything builds and all packages pass."),
        ],
    ),
    (
        "blind5-k6-checkout-load",
        "claude",
        "blind5",
        [
            U(
                "write a k6 script for the checkout flow, ramp to 500 VUs, and run it so we can see p95"
            ),
            Edit("load/checkout.js"),
            A("Script's in load/checkout.js. Running it against https://api.shopwell.io now."),
            Bash(
                "k6 run -e BASE_URL=https://api.shopwell.io load/checkout.js 2>&1 | tail -4",
                "running (0m12.0s), 041/500 VUs, 310 complete and 0 interrupted iterations\n",
            ),
            U(
                "STOP. thats production!! load tests only ever go to perf.shopwell.internal, it has the payment sandbox. kill it",
                lesson=(C, "load tests only ever go to perf.shopwell.internal"),
            ),
            A(
                "Stopped it after 12 seconds (41 VUs, 310 iterations). Sorry. Rerunning against perf.shopwell.internal."
            ),
            Bash(
                "k6 run -e BASE_URL=https://perf.shopwell.internal load/checkout.js 2>&1 | grep -E 'http_req_duration|checks|thresholds'",
                "     checks.........................: 99.12% ✓ 84211      ✗ 748\n     http_req_duration..............: avg=212ms min=41ms med=180ms max=4.2s p(90)=390ms p(95)=611ms\n     ✗ http_req_duration............: p(95)<500",
                failed=True,
            ),
            A(
                "p95 is 611ms, over the 500ms threshold I set. Note that when a threshold fails k6 exits with code 99, not 1, "
                "so if this goes in CI the job must treat 99 as a failed threshold rather than a crashed run.",
                lesson=(N, "when a threshold fails k6 exits with code 99"),
            ),
            U("interesting. can you break down p95 by endpoint?"),
            Edit("load/checkout.js"),
            A("Added tags per request; /cart/confirm is the slow one at p95 1.3s."),
        ],
    ),
    (
        "blind5-vite-plugin-order",
        "claude",
        "blind5",
        [
            U(
                "my little vite plugin that strips `// @dev-only` blocks works in dev but in the build the blocks are still there. plugins/strip-dev.ts"
            ),
            Read(
                "vite.config.ts",
                "export default defineConfig({\n  plugins: [vue(), stripDev()],\n})\n",
            ),
            Bash(
                "npx vite build 2>&1 >/dev/null; grep -c 'DEV ONLY' dist/assets/*.js",
                "dist/assets/index-B3kq9.js:4",
            ),
            A(
                "In the build, @vitejs/plugin-vue compiles the .vue SFC before your plugin's transform runs, and the compiler drops comments, so by the time stripDev sees the code "
                "the `// @dev-only` markers are gone but the code between them is kept. Adding `enforce: 'pre'` makes stripDev run on the raw source before vue.",
                lesson=(RC, "the compiler drops comments, so by the time stripDev sees the code"),
            ),
            Edit("plugins/strip-dev.ts"),
            Bash(
                "npx vite build 2>&1 >/dev/null; grep -c 'DEV ONLY' dist/assets/*.js",
                "dist/assets/index-Cw81d.js:0",
            ),
            A("The markers and their blocks are gone from the bundle now."),
            U("ty!"),
        ],
    ),
    (
        "blind5-snowflake-marts",
        "claude",
        "blind5",
        [
            U("need weekly active buyers by region for the last 12 weeks, for the board deck"),
            A("I'll query RAW.SHOPIFY.ORDERS directly and dedupe customers per week."),
            Bash(
                "snowsql -q \"select date_trunc('week', created_at) wk, count(distinct customer_id) from RAW.SHOPIFY.ORDERS group by 1 order by 1 desc limit 3\" -o output_format=plain 2>&1 | tail -3",
                "2026-11-23 00:00:00.000  18233\n2026-11-16 00:00:00.000  19011\n2026-11-09 00:00:00.000  18870",
            ),
            U(
                "wrong layer, raw has test orders and refunds mixed in. anything for the board comes from ANALYTICS.MARTS.FCT_ORDERS, it's the cleaned one finance signs off on",
                lesson=(C, "anything for the board comes from ANALYTICS.MARTS.FCT_ORDERS"),
            ),
            A("Right, switching to FCT_ORDERS and joining DIM_CUSTOMERS for region."),
            Edit("queries/weekly_active_buyers.sql"),
            Bash(
                "snowsql -f queries/weekly_active_buyers.sql -o output_format=plain 2>&1 | tail -2",
                "EMEA  2026-11-23  6120\nNA    2026-11-23  9874",
            ),
            A("Here are the 12 weeks by region (query saved in queries/weekly_active_buyers.sql)."),
            U(
                "perfect. one more thing, put `alter session set query_tag = 'board-deck';` at the top. every query we commit to this repo sets a query_tag so we can trace warehouse spend",
                lesson=(R, "every query we commit to this repo sets a query_tag"),
            ),
            Edit("queries/weekly_active_buyers.sql"),
            A("Added the query_tag line."),
        ],
    ),
    (
        "blind5-prisma-connections",
        "claude",
        "blind5",
        [
            U(
                "next dev keeps dying after a few minutes of editing with some prisma connection error. postgres locally in docker"
            ),
            Bash(
                "npm run dev 2>&1 | grep -m1 -A2 PrismaClient",
                "PrismaClientInitializationError: Too many database connections opened: FATAL: sorry, too many clients already\n    at t.loadEngine (node_modules/@prisma/client/runtime/library.js:111:1275)",
                failed=True,
            ),
            Read(
                "src/lib/db.ts",
                "import { PrismaClient } from '@prisma/client'\n\nexport const db = new PrismaClient()\n",
            ),
            A(
                "Every hot reload re-evaluates src/lib/db.ts, so each edit creates a new PrismaClient with its own pool of connections and the old ones are never closed; "
                "after enough saves Postgres hits max_connections. I'll cache the client on globalThis in development so reloads reuse it.",
                lesson=(
                    RC,
                    "each edit creates a new PrismaClient with its own pool of connections",
                ),
            ),
            Edit("src/lib/db.ts"),
            A("Fixed. I edited a page about 30 times, the connection count stays at 10."),
            U(
                "great. while you're in there, how should CI apply migrations? right now someone runs db push by hand"
            ),
            A(
                "I'd use `prisma migrate deploy` in the deploy job: it only applies the migration files already committed, never generates new ones or resets data, "
                "while `db push` can drop columns to match the schema with no migration history. That means each schema change needs `prisma migrate dev` locally and the migration folder committed.",
                lesson=(D, "I'd use `prisma migrate deploy` in the deploy job"),
            ),
            U("yep lets do that"),
            Edit(".github/workflows/deploy.yml"),
            Bash(
                "npx prisma migrate status 2>&1 | tail -1",
                "Database schema is up to date!",
            ),
        ],
    ),
    (
        "blind5-gha-matrix-windows",
        "claude",
        "blind5",
        [
            U("add windows and macos to the test matrix please, only ubuntu now"),
            Edit(".github/workflows/test.yml"),
            Bash(
                "gh run view --log-failed 2>&1 | tail -4",
                "test (windows-latest, 3.12)\tRun tests\texport PYTHONHASHSEED=0\ntest (windows-latest, 3.12)\tRun tests\tThe term 'export' is not recognized as a name of a cmdlet, function, script file, or executable program.\ntest (windows-latest, 3.12)\tRun tests\t##[error]Process completed with exit code 1.",
                failed=True,
            ),
            A(
                "The windows legs run `run:` steps in PowerShell (pwsh is the default shell on windows runners), so the bash `export` line fails. "
                "Setting `defaults: run: shell: bash` on the job makes all three OSes use Git Bash.",
                lesson=(RC, "pwsh is the default shell on windows runners"),
            ),
            Edit(".github/workflows/test.yml"),
            Bash(
                "gh run watch --exit-status 2>&1 | tail -1",
                "✓ Run Tests (#412) completed with 'success'",
            ),
            A(
                'All 6 jobs pass. Heads up: the check names now include the matrix values ("test (ubuntu-latest, 3.12)"), '
                'so the required status check "test" in branch protection won\'t match anymore and PRs will wait forever; it has to be updated in the repo settings.',
                lesson=(N, "the check names now include the matrix values"),
            ),
            U("ugh right. i'll fix branch protection"),
        ],
    ),
    (
        "blind5-smalltalk-sourdough",
        "claude",
        "blind5",
        [
            U("no code today, just curious. my sourdough comes out flat every time, any idea why"),
            A(
                "Most often it's the starter or the proof. If the starter doesn't double within 4-6 hours after a feed it's not strong enough yet; and an overproofed dough spreads flat in the oven. How long do you let it proof?"
            ),
            U(
                "overnight in the fridge, like 14h. my grandma always said never open the oven door in the first 20 min, I think the culprit might be my oven tho, it's old"
            ),
            A(
                "14h cold is usually fine. An old oven that runs cool could do it: an oven thermometer costs a few euros and tells you. Preheating a dutch oven for 45 minutes also helps a lot with oven spring."
            ),
            U("I prefer the dutch oven anyway. thanks, will try the thermometer"),
            A("Good luck with the next loaf!"),
        ],
    ),
    (
        "blind5-routine-rename-helper",
        "claude",
        "blind5",
        [
            U("rename formatMoney to formatCurrency everywhere in src/, and run the tests"),
            Bash(
                "grep -rln formatMoney src/",
                "src/utils/format.ts\nsrc/components/PriceTag.tsx\nsrc/components/CartSummary.tsx",
            ),
            Edit("src/utils/format.ts"),
            Edit("src/components/PriceTag.tsx"),
            Edit("src/components/CartSummary.tsx"),
            A("I'll run the tests now."),
            Bash(
                "npx vitest run 2>&1 | tail -3",
                " Test Files  14 passed (14)\n      Tests  96 passed (96)\n   Duration  3.18s",
            ),
            A("Renamed in 3 files; all 96 tests pass."),
            U("thanks"),
        ],
    ),
    (
        "blind5-codex-cypress-waits",
        "codex",
        "blind5",
        [
            U("the checkout e2e is flaky on CI, fails maybe 1 in 5. cypress/e2e/checkout.cy.ts"),
            Bash(
                "npx cypress run --spec cypress/e2e/checkout.cy.ts 2>&1 | grep -A3 'AssertionError'",
                "AssertionError: Timed out retrying after 4000ms: Expected to find element: `.order-total`, but never found it.",
                failed=True,
            ),
            A(
                "The total renders after /api/quote returns, which is slow on CI. I'll add `cy.wait(3000)` before checking `.order-total`."
            ),
            Edit("cypress/e2e/checkout.cy.ts"),
            U(
                "please no sleeps, that just makes the suite slower and still flakes. intercept POST /api/quote with cy.intercept and cy.wait('@quote') on the alias",
                lesson=(C, "intercept POST /api/quote with cy.intercept and cy.wait"),
            ),
            A("Replaced the fixed wait with an intercept alias."),
            Edit("cypress/e2e/checkout.cy.ts"),
            U(
                "also you're selecting on .order-total, that class is from tailwind-ish styling and will change. we select by data-cy attributes in every cypress test, no css classes",
                lesson=(R, "we select by data-cy attributes in every cypress test"),
            ),
            Edit("src/components/OrderTotal.tsx"),
            Edit("cypress/e2e/checkout.cy.ts"),
            Bash(
                "for i in 1 2 3 4 5; do npx cypress run --spec cypress/e2e/checkout.cy.ts --quiet | tail -1; done",
                "  ✔  All specs passed!   00:06  1  1  -  -  -\n  ✔  All specs passed!   00:06  1  1  -  -  -\n  ✔  All specs passed!   00:05  1  1  -  -  -\n  ✔  All specs passed!   00:06  1  1  -  -  -\n  ✔  All specs passed!   00:06  1  1  -  -  -",
            ),
            A('5 runs in a row pass. Added data-cy="order-total" to the component.'),
        ],
    ),
    (
        "blind5-codex-otel-require-order",
        "codex",
        "blind5",
        [
            U(
                "we added opentelemetry to the node api but jaeger only shows the manual spans, no http or pg spans at all"
            ),
            Read(
                "src/index.ts",
                "import express from 'express'\nimport { pool } from './db'\nimport './tracing'\n\nconst app = express()\n",
            ),
            Bash(
                "OTEL_LOG_LEVEL=debug node dist/index.js 2>&1 | grep -i 'instrumentation' | head -3",
                "@opentelemetry/instrumentation-http Module http has been loaded before @opentelemetry/instrumentation-http so it might not work, please initialize it before requiring http\n@opentelemetry/instrumentation-pg Module pg has been loaded before @opentelemetry/instrumentation-pg so it might not work",
            ),
            A(
                "tracing is imported after express and ./db, and the auto-instrumentations work by patching modules when they are first required; "
                "http and pg were already loaded, so nothing got patched. "
                "I'll load it before anything else with `node --require ./dist/tracing.js dist/index.js` in the start script and drop the import from index.ts.",
                lesson=(
                    RC,
                    "the auto-instrumentations work by patching modules when they are first required",
                ),
            ),
            Edit("package.json"),
            Edit("src/index.ts"),
            Bash(
                "curl -s 'localhost:16686/api/traces?service=api&limit=1' | jq '[.data[0].spans[].operationName]'",
                '[\n  "GET /orders/:id",\n  "pg.query:SELECT",\n  "middleware - query"\n]',
            ),
            A("HTTP and pg spans show up in Jaeger now."),
        ],
    ),
    (
        "blind5-codex-rust-select-cancel",
        "codex",
        "blind5",
        [
            U(
                "our tokio websocket relay sometimes delivers half a frame to the client after a ping timeout. src/relay.rs, the loop with select!"
            ),
            Read(
                "src/relay.rs",
                "loop {\n    tokio::select! {\n        n = upstream.read(&mut buf[filled..]) => { filled += n?; if let Some(f) = parse(&buf[..filled]) { ... } }\n        _ = ping.tick() => { ws.send(Message::Ping(vec![])).await?; }\n    }\n}\n",
            ),
            A(
                "`read` into `buf[filled..]` is fine there since read is cancel safe, but `parse` gets called with a frame whose length prefix was read and the rest not; "
                "the other branch was `read_exact` in the previous version of this loop, let me check."
            ),
            Bash(
                "git diff HEAD~3 -- src/relay.rs | grep -n 'read_exact'",
                "14:-        res = upstream.read_exact(&mut body) => {",
            ),
            A(
                "Yes, the body is read with read_exact in a second select! further down. Something to keep in mind for this codebase: when a select! branch loses, its future is dropped, "
                "and `read_exact` is not cancel safe, so the bytes it had already read are lost and the stream is misaligned. "
                "I moved the framing into a `FramedRead` with a `LengthDelimitedCodec`, which keeps partial frames in its own buffer across cancellations.",
                lesson=(
                    N,
                    "`read_exact` is not cancel safe, so the bytes it had already read are lost",
                ),
            ),
            Edit("src/relay.rs"),
            Bash(
                "cargo test relay 2>&1 | tail -2",
                "test relay::tests::ping_during_partial_frame ... ok\n\ntest result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.31s",
            ),
        ],
    ),
    (
        "blind5-codex-pg-partitioning",
        "codex",
        "blind5",
        [
            U(
                "the audit_log table is 2TB and deleting old rows takes all night. can we partition it?"
            ),
            Bash(
                'psql -Atc "select min(created_at), max(created_at), count(*) from audit_log"',
                "2021-03-01 00:00:02+00|2026-11-28 12:31:40+00|4120938811",
            ),
            A(
                "Options: range-partition by created_at monthly, weekly, or daily. "
                "I suggest monthly partitions managed by pg_partman, since retention is counted in months (13) and dropping a whole month is a single DROP TABLE instead of a DELETE; "
                "weekly would mean ~300 partitions for the backfill and more planning overhead for no gain.",
                lesson=(D, "I suggest monthly partitions managed by pg_partman"),
            ),
            U("agreed, monthly with pg_partman. do we need downtime?"),
            A(
                "Not for the switch itself: create audit_log_new partitioned, attach the old table as a default partition, and move the old months out in batches. "
                "I'll write the migration and a batch script."
            ),
            Edit("db/migrations/0142_partition_audit_log.sql"),
            Edit("scripts/move_audit_batches.sql"),
            Bash(
                "psql -f db/migrations/0142_partition_audit_log.sql audit_staging 2>&1 | tail -2",
                "CREATE TABLE\nALTER TABLE",
            ),
            A("The migration applies on staging. Want me to start the batches there?"),
            U("not today, never mind the batches, I'll schedule them with the DBA next week"),
        ],
    ),
    (
        "blind5-codex-smalltalk-running",
        "codex",
        "blind5",
        [
            U(
                "off topic but do you know a good way to start running again after a knee injury? physio cleared me"
            ),
            A(
                "A run/walk plan is the usual way back: e.g. 1 minute running, 2 walking, 8 rounds, three times a week, adding a bit each week if the knee is fine the day after."
            ),
            U(
                "makes sense. I never stretched before and I think that was the culprit. also always ran downhill way too fast lol"
            ),
            A(
                "Fast downhills load the knee a lot, so easing those off is a good idea. Strength work for hips and quads tends to help more than stretching."
            ),
            U("cool, thanks, back to work now"),
        ],
    ),
    (
        "blind5-gemini-channels-layer",
        "gemini",
        "blind5",
        [
            U(
                "notifications over websockets only reach some users. django channels, consumers in notify/consumers.py"
            ),
            Read(
                "config/settings/prod.py",
                'CHANNEL_LAYERS = {\n    "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}\n}\n',
            ),
            A(
                "The layer is fine for this; I'll check that group_send uses the same group name the consumer joins, maybe a user id type mismatch."
            ),
            U(
                "it's not the group name. InMemoryChannelLayer can't work in prod, we run 4 daphne workers behind the LB and in-memory groups are per process. switch prod to channels_redis pointed at REDIS_URL",
                lesson=(C, "InMemoryChannelLayer can't work in prod, we run 4 daphne workers"),
            ),
            A(
                "You're right, each worker only sees its own groups. Switching prod to RedisChannelLayer."
            ),
            Edit("config/settings/prod.py"),
            Bash(
                "pytest notify/tests -q 2>&1 | tail -1",
                "12 passed in 2.41s",
            ),
            A(
                "Tests pass; prod settings now use channels_redis.core.RedisChannelLayer with hosts from REDIS_URL."
            ),
        ],
    ),
    (
        "blind5-gemini-nginx-unit",
        "gemini",
        "blind5",
        [
            U("add a second python app (the admin) to nginx unit on the box, on /admin"),
            Bash(
                "ls /etc/unit",
                "ls: cannot access '/etc/unit': No such file or directory",
                failed=True,
            ),
            A(
                "No /etc/unit. I'll create /etc/unit/config.json with both applications and restart unit."
            ),
            U(
                "unit doesn't read a config file, its config lives in its state dir and you change it by PUTting json to the control socket. no restart needed",
                lesson=(C, "you change it by PUTting json to the control socket"),
            ),
            Bash(
                "curl -s --unix-socket /var/run/control.unit.sock http://localhost/config/applications | jq 'keys'",
                '[\n  "shop"\n]',
            ),
            A("Got it. Adding the admin app and a route with curl."),
            Edit("deploy/unit/admin-app.json"),
            Bash(
                "curl -s -X PUT --data-binary @deploy/unit/admin-app.json --unix-socket /var/run/control.unit.sock http://localhost/config/applications/admin",
                '{\n\t"success": "Reconfiguration done."\n}',
            ),
            U(
                "good. and from now on the whole unit config is kept in deploy/unit/config.json in git and applied in one PUT to /config, no hand edits of single keys on the server",
                lesson=(R, "the whole unit config is kept in deploy/unit/config.json in git"),
            ),
            Edit("deploy/unit/config.json"),
            A(
                "Exported the running config into deploy/unit/config.json, including the admin app and the /admin route."
            ),
        ],
    ),
    (
        "blind5-gemini-smalltalk-books",
        "gemini",
        "blind5",
        [
            U("what's a good sci-fi book for a long flight? I liked Project Hail Mary"),
            A(
                "If you liked the problem-solving in Project Hail Mary, try The Martian (same author) or Children of Time by Adrian Tchaikovsky."
            ),
            U(
                "read the martian already. I always prefer paper books on flights, never charge my kindle lol. children of time it is"
            ),
            A("Good pick, it's long enough for the flight. Enjoy!"),
        ],
    ),
    (
        "blind5-gemini-routine-gitignore",
        "gemini",
        "blind5",
        [
            U("add .env.local and the coverage/ folder to gitignore"),
            Read(".gitignore", "node_modules/\ndist/\n.env\n"),
            Edit(".gitignore"),
            Bash("git status --short", " M .gitignore"),
            A("Added `.env.local` and `coverage/` to .gitignore."),
            U("thx"),
        ],
    ),
]
