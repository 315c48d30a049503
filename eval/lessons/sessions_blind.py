# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions.py``: (name, agent, half, steps), lessons marked on the step
that holds them with ``lesson=(kind, phrase)``. Written after the rules were last
adjusted, by someone who had not read them, and measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND: list[tuple[str, str, str, list[Step]]] = [
    # ---- Claude Code -------------------------------------------------------------------
    (
        "blind-go-request-context",
        "claude",
        "blind",
        [
            U(
                "the /accounts/{id}/statement endpoint times out sometimes and keeps the db busy after the client is gone. can you look"
            ),
            Read(
                "internal/http/statement.go",
                'func (h *Handler) Statement(w http.ResponseWriter, r *http.Request) {\n\tid := chi.URLParam(r, "id")\n\tacct, err := h.store.fetchAcct(context.Background(), id)\n...',
            ),
            A(
                "The handler queries with context.Background(), so nothing is cancelled when the client disconnects. "
                "I'll add a 5 second timeout around it: ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)."
            ),
            Edit("internal/http/statement.go"),
            U(
                "nope. pass r.Context() through, never context.Background() in handlers — the server already sets the deadline via the timeout middleware",
                lesson=(C, "pass r.Context() through, never context.Background() in handlers"),
            ),
            A("Got it, I'll thread r.Context() down into the store call instead."),
            Edit("internal/http/statement.go"),
            U("also rename fetchAcct to fetchAccount while you're in there"),
            Bash(
                "gofmt -l ./internal && go vet ./... && go test ./internal/...",
                "ok  \tgithub.com/ledgerly/api/internal/http\t0.412s\nok  \tgithub.com/ledgerly/api/internal/store\t1.087s",
            ),
            A(
                "Done. The handler passes r.Context() to the store, fetchAcct is now fetchAccount (3 call sites), and vet and tests pass."
            ),
            U("👍"),
        ],
    ),
    (
        "blind-analytics-replica",
        "claude",
        "blind",
        [
            U(
                "Can you find out how many users signed up through the partner link last week? Marketing is asking."
            ),
            A("Let me check which tables hold the signup source."),
            Read(
                "db/schema.sql",
                "CREATE TABLE signups (\n  id bigserial PRIMARY KEY,\n  user_id bigint NOT NULL,\n  source text,\n  created_at timestamptz NOT NULL DEFAULT now()\n);",
            ),
            Bash(
                "psql \"$DATABASE_URL\" -c \"select count(*) from signups where source = 'partner' and created_at >= now() - interval '7 days'\"",
                'psql: error: connection to server at "db-prod-1.internal" (10.2.0.14), port 5432 failed: FATAL:  no pg_hba.conf entry for host "10.8.3.22", user "dev_ro", database "app", SSL off',
                failed=True,
            ),
            U(
                "whoa, please don't point anything at prod from your shell. Any read-only poking goes through the analytics replica, it's ANALYTICS_DSN in your .env",
                lesson=(C, "read-only poking goes through the analytics replica"),
            ),
            A("Sorry about that. Switching to the replica."),
            Bash(
                "psql \"$ANALYTICS_DSN\" -c \"select count(*) from signups where source = 'partner' and created_at >= now() - interval '7 days'\"",
                " count \n-------\n   412\n(1 row)",
            ),
            A(
                "412 signups came in with source = 'partner' over the last 7 days. "
                "Note that the replica can lag the primary by a few minutes, so signups from the last ~5 minutes may not be counted yet.",
                lesson=(N, "the replica can lag the primary by a few minutes"),
            ),
            U("that's fine, thanks!"),
        ],
    ),
    (
        "blind-rust-feature-gate",
        "claude",
        "blind",
        [
            U("Please add a test for the TLS handshake timeout in the client crate."),
            Read("crates/client/src/lib.rs"),
            Edit("crates/client/tests/handshake.rs"),
            A("Running the tests now."),
            Bash(
                "cargo test -p client",
                '   Compiling client v0.9.2 (/home/dev/app/crates/client)\nerror[E0432]: unresolved import `client::tls`\n --> crates/client/tests/handshake.rs:3:13\n  |\n3 | use client::tls::HandshakeConfig;\n  |             ^^^ could not find `tls` in `client`\n  |\nnote: found an item that was configured out\n --> crates/client/src/lib.rs:14:9\n   |\n14 | pub mod tls;\n   |         ^^^\n   = note: the item is gated behind the `rustls` feature\n\nFor more information about this error, try `rustc --explain E0432`.\nerror: could not compile `client` (test "handshake") due to 1 previous error',
                failed=True,
            ),
            A(
                "The tls module is gated behind the `rustls` feature, which isn't in the crate's default features, so a plain `cargo test` never compiles it. "
                'I\'ll mark the test file with #![cfg(feature = "rustls")] and run it with the feature on.',
                lesson=(
                    RC,
                    "gated behind the `rustls` feature, which isn't in the crate's default features",
                ),
            ),
            Edit("crates/client/tests/handshake.rs"),
            Bash(
                "cargo test -p client --features rustls",
                "running 4 tests\ntest handshake_times_out_after_deadline ... ok\ntest handshake_ok ... ok\ntest alpn_h2 ... ok\ntest rejects_expired_cert ... ok\n\ntest result: ok. 4 passed; 0 failed; 0 ignored",
            ),
            U(
                "makes sense. CI runs everything with --all-features, do the same locally so we see the same failures",
                lesson=(R, "CI runs everything with --all-features, do the same locally"),
            ),
            Bash(
                "cargo test --workspace --all-features",
                "test result: ok. 131 passed; 0 failed; 2 ignored",
            ),
            A("All 131 tests pass with --all-features across the workspace."),
        ],
    ),
    (
        "blind-terraform-state",
        "claude",
        "blind",
        [
            U(
                "We're moving the infra/ folder from my laptop to the team. What do we do about the tfstate file that's sitting in the repo right now?"
            ),
            Read("infra/main.tf"),
            A(
                "There are two reasonable ways. One is to keep local state and have people pass the file around, which is what's happening now. "
                "The other is a remote backend: an S3 bucket for the state with a DynamoDB table for locking. "
                "I'd go with S3 plus DynamoDB locking, because with several people running plans, two concurrent applies against local copies will silently overwrite each other's state.",
                lesson=(D, "I'd go with S3 plus DynamoDB locking"),
            ),
            U(
                "Yes let's do that. And while we're at it, for the record: nobody runs terraform apply against prod from a laptop, prod applies only happen in the pipeline.",
                lesson=(R, "nobody runs terraform apply against prod from a laptop"),
            ),
            A(
                "OK. I'll add the backend block and a bootstrap module for the bucket and lock table."
            ),
            Edit("infra/backend.tf"),
            Edit("infra/bootstrap/main.tf"),
            Bash(
                "cd infra && terraform init -migrate-state -input=false",
                'Initializing the backend...\nSuccessfully configured the backend "s3"! Terraform will automatically\nuse this backend unless the backend configuration changes.',
            ),
            A(
                "State now lives in s3://acme-tfstate/infra/terraform.tfstate with locks in the tf-locks table. I've removed terraform.tfstate from the repo and added it to .gitignore."
            ),
            U("perfect"),
        ],
    ),
    (
        "blind-android-room-schema",
        "claude",
        "blind",
        [
            U(
                "Add a nullable `archivedAt` column to the Note entity and write the Room migration from 6 to 7."
            ),
            Read("app/src/main/java/com/tidy/notes/data/Note.kt"),
            Edit("app/src/main/java/com/tidy/notes/data/Note.kt"),
            Edit("app/src/main/java/com/tidy/notes/data/Migrations.kt"),
            Edit("app/src/androidTest/java/com/tidy/notes/data/MigrationTest.kt"),
            Bash(
                "./gradlew :app:connectedDebugAndroidTest --tests '*MigrationTest'",
                "com.tidy.notes.data.MigrationTest > migrate6To7[Pixel_7_API_34(AVD) - 14] FAILED\n\tjava.io.FileNotFoundException: Cannot find the schema file in the assets folder. Make sure to include the exported json schemas in your test assets. Schema file: com.tidy.notes.data.NotesDatabase/6.json\n\tat androidx.room.testing.MigrationTestHelper.loadSchema(MigrationTestHelper.kt:402)\n\nFAILURE: Build failed with an exception.",
                failed=True,
            ),
            A(
                "MigrationTestHelper loads the exported schemas from the androidTest assets, and app/schemas isn't registered as an assets folder for androidTest, so it can't find 6.json. "
                "I'll add it to the sourceSets in app/build.gradle.kts.",
                lesson=(RC, "app/schemas isn't registered as an assets folder for androidTest"),
            ),
            Edit("app/build.gradle.kts"),
            Bash(
                "./gradlew :app:connectedDebugAndroidTest --tests '*MigrationTest'",
                "com.tidy.notes.data.MigrationTest > migrate6To7[Pixel_7_API_34(AVD) - 14] PASSED\n\nBUILD SUCCESSFUL in 48s",
            ),
            A(
                "The migration test passes. Worth knowing for next time: Room only writes the schema JSON when the project is built, "
                "so after changing an @Entity you have to build once and commit app/schemas/.../7.json together with the migration, or the next migration test has nothing to compare against.",
                lesson=(N, "commit app/schemas/.../7.json together with the migration"),
            ),
            U("good to know, thanks"),
        ],
    ),
    (
        "blind-rails-callbacks",
        "claude",
        "blind",
        [
            U(
                "When a team is created we should send the owner a welcome email. Could you add that?"
            ),
            Read("app/models/team.rb"),
            Edit("app/models/team.rb"),
            A(
                "I added an `after_create_commit :send_welcome_email` callback to Team that calls TeamMailer.welcome(owner).deliver_later."
            ),
            U(
                "Thanks for this! One thing though, and it's for future reference too: in this app we keep side effects out of ActiveRecord callbacks. "
                "Emails, webhooks and the like go through a service object in app/services, so creating a record in a console or a seed doesn't fire off mail. "
                "Could you move it into Teams::Create?",
                lesson=(C, "we keep side effects out of ActiveRecord callbacks"),
            ),
            A(
                "Of course. I'll remove the callback and send the mail from Teams::Create after the save."
            ),
            Edit("app/models/team.rb"),
            Edit("app/services/teams/create.rb"),
            Edit("spec/services/teams/create_spec.rb"),
            Bash(
                "bundle exec rspec spec/services/teams spec/models/team_spec.rb",
                "..........\n\nFinished in 0.84 seconds (files took 2.31 seconds to load)\n10 examples, 0 failures",
            ),
            A(
                "Moved. Teams::Create sends the welcome email with deliver_later, and the model has no callbacks now. Specs pass."
            ),
            U("Lovely, thank you 🙏"),
        ],
    ),
    (
        "blind-pandas-zip",
        "claude",
        "blind",
        [
            U(
                "the address export test started failing after I swapped the fixture csv. can u check"
            ),
            Bash(
                "pytest tests/test_export.py -q",
                'F.\n=================================== FAILURES ===================================\n___________________________ test_zip_roundtrip ___________________________\n\n    def test_zip_roundtrip(sample_csv):\n        df = load_customers(sample_csv)\n>       assert df.loc[0, "zip"] == "02134"\nE       AssertionError: assert 2134 == \'02134\'\n\ntests/test_export.py:18: AssertionError\n1 failed, 1 passed in 0.61s',
                failed=True,
            ),
            Read("etl/customers.py", "def load_customers(path):\n    return pd.read_csv(path)\n"),
            A(
                "The new fixture has Boston zips. pd.read_csv infers the zip column as int64 because every value is digits, so 02134 becomes 2134 and the leading zero is gone. "
                'Reading it with dtype={"zip": str} keeps it as text.',
                lesson=(RC, "pd.read_csv infers the zip column as int64"),
            ),
            A(
                "Should I only fix zip, or read all id-like columns as strings (zip, phone, account_no)? "
                "I'd do all three: they're identifiers that are never summed, and account_no has leading zeros in the same file.",
                lesson=(D, "read all id-like columns as strings (zip, phone, account_no)"),
            ),
            U("yep all three"),
            Edit("etl/customers.py"),
            Bash("pytest tests/test_export.py -q", "..\n2 passed in 0.58s"),
            A("Both tests pass; zip, phone and account_no are read as str."),
        ],
    ),
    (
        "blind-firmware-isr",
        "claude",
        "blind",
        [
            U(
                "I need the encoder ISR to toggle PB3 on every edge so I can scope it. STM32F4, the handler is in Core/Src/encoder.c"
            ),
            Read("Core/Src/encoder.c"),
            Edit("Core/Src/encoder.c"),
            A("I added HAL_GPIO_TogglePin(GPIOB, GPIO_PIN_3) at the top of EXTI9_5_IRQHandler."),
            U(
                "don't use the HAL call in the ISR, write BSRR directly. at 40 kHz edge rate the HAL overhead shows up on the scope",
                lesson=(C, "don't use the HAL call in the ISR, write BSRR directly"),
            ),
            A("Right, switching to a direct register write."),
            Edit("Core/Src/encoder.c"),
            Bash(
                "make -j2 && arm-none-eabi-size build/encoder.elf",
                "   text\t   data\t    bss\t    dec\t    hex\tfilename\n  18244\t    120\t   2312\t  20676\t   50c4\tbuild/encoder.elf",
            ),
            A(
                "It builds. The toggle is now GPIOB->BSRR = (GPIOB->ODR & GPIO_PIN_3) ? (GPIO_PIN_3 << 16) : GPIO_PIN_3;\n\n"
                "One thing to keep in mind while you're in this file: HAL_Delay() must not be called from an interrupt handler here. "
                "SysTick is configured at a lower priority than EXTI, so the tick never advances and the MCU hangs.",
                lesson=(N, "HAL_Delay() must not be called from an interrupt handler"),
            ),
            U("yeah learned that one the hard way last year lol"),
        ],
    ),
    (
        "blind-dashboard-polling",
        "claude",
        "blind",
        [
            U(
                "The ops dashboard should refresh the queue depth numbers without a page reload. How would you do it?"
            ),
            Read("web/src/pages/Ops.tsx"),
            Read("server/routes/metrics.ts"),
            A(
                "Two options: a websocket that pushes updates, or polling the existing /metrics/queues endpoint. "
                "I'd rather poll every 10s than add a websocket here. The numbers are aggregated once a minute by the collector anyway, "
                "and the load balancer in front of the API doesn't do sticky sessions, so websockets would need extra setup for little gain.",
                lesson=(D, "poll every 10s than add a websocket"),
            ),
            U("does polling pause when the tab is in the background?"),
            A(
                "It can: I'd use refetchInterval with refetchIntervalInBackground: false, so hidden tabs stop polling."
            ),
            U("fine by me, polling it is"),
            Edit("web/src/pages/Ops.tsx"),
            Bash(
                "pnpm --filter web test -- Ops",
                " ✓ src/pages/Ops.test.tsx (3 tests) 212ms\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)",
            ),
            A("The queue panel now refetches every 10 seconds while the tab is visible."),
        ],
    ),
    (
        "blind-react-conventions",
        "claude",
        "blind",
        [
            U(
                "ok so couple things before u start. we dont use default exports anywhere, named exports only. "
                "the task: add a Tooltip component to packages/ui, hover + focus, with a delay prop",
                lesson=(R, "we dont use default exports anywhere, named exports only"),
            ),
            U(
                "oh and storybook stories live next to the component (Tooltip.stories.tsx beside Tooltip.tsx), not in a stories/ folder",
                lesson=(R, "storybook stories live next to the component"),
            ),
            A("Sounds good. Let me look at an existing component in packages/ui first."),
            Read("packages/ui/src/Popover/Popover.tsx"),
            Edit("packages/ui/src/Tooltip/Tooltip.tsx"),
            Edit("packages/ui/src/Tooltip/Tooltip.stories.tsx"),
            Edit("packages/ui/src/index.ts"),
            Bash(
                "pnpm --filter @acme/ui typecheck && pnpm --filter @acme/ui test",
                "> tsc --noEmit\n\n ✓ src/Tooltip/Tooltip.test.tsx (4 tests) 96ms\n ✓ src/Popover/Popover.test.tsx (6 tests) 141ms\n\n Test Files  2 passed (2)\n      Tests  10 passed (10)",
            ),
            A(
                "Tooltip is in packages/ui/src/Tooltip with a named export, its stories beside it, and it's re-exported from index.ts. "
                "It opens on hover and focus after `delay` ms (default 300)."
            ),
            U("nice. can you make the default delay 500"),
            Edit("packages/ui/src/Tooltip/Tooltip.tsx"),
            A("Done, the default is 500 ms now."),
        ],
    ),
    (
        "blind-container-cache-dir",
        "claude",
        "blind",
        [
            U(
                "The test stage of the docker build fails since we switched the image to a non-root user. Logs are below.\n\nStep 14/16 : RUN pytest -q\n ---> Running in 4be1c0a8f2d1"
            ),
            Bash(
                "docker build --target test -t svc:test .",
                "Step 14/16 : RUN pytest -q\n ---> Running in 9d03e1f77a42\nImportError while loading conftest '/app/tests/conftest.py'.\ntests/conftest.py:4: in <module>\n    import tiktoken\n/usr/local/lib/python3.12/site-packages/tiktoken/core.py:9: in <module>\n    ...\nPermissionError: [Errno 13] Permission denied: '/app/.cache'\nThe command '/bin/sh -c pytest -q' returned a non-zero code: 4",
                failed=True,
            ),
            Read("Dockerfile"),
            A(
                "The image now switches to USER app (uid 1000) after the COPY, but /app is still owned by root, and the libraries default their cache to $HOME/.cache, where HOME=/app. "
                "So the first import that writes a cache fails with EACCES. Pointing XDG_CACHE_HOME at /tmp/cache fixes it without chowning the whole tree.",
                lesson=(RC, "libraries default their cache to $HOME/.cache, where HOME=/app"),
            ),
            U(
                "hm, should we also drop the healthcheck while we're at it? ... actually never mind, leave it"
            ),
            Edit("Dockerfile"),
            Bash(
                "docker build --target test -t svc:test .",
                "Step 14/16 : RUN pytest -q\n ---> Running in 1f2e3d4c5b6a\n........................................................ [100%]\n56 passed in 7.42s\nSuccessfully built 0c9e8d7f6a5b\nSuccessfully tagged svc:test",
            ),
            A("The test stage passes now: ENV XDG_CACHE_HOME=/tmp/cache is set before USER app."),
        ],
    ),
    (
        "blind-apollo-cache",
        "claude",
        "blind",
        [
            U(
                "bug: on the project page, when you rename a task in the side panel the list shows the old name until reload. sometimes it shows a different task's name entirely??"
            ),
            Read("web/src/features/tasks/TaskList.tsx"),
            Read("web/src/features/tasks/queries.ts"),
            A(
                "The list reads from the Apollo cache. The quickest fix is to set fetchPolicy: 'network-only' on the TASKS query so it always refetches after the mutation."
            ),
            U(
                "no — turning the cache off just hides it. find out why the cache has the wrong data",
                lesson=(C, "turning the cache off just hides it"),
            ),
            A("Fair. Let me look at how the query and the mutation normalize."),
            Bash(
                "pnpm --filter web test -- TaskList",
                ' FAIL  src/features/tasks/TaskList.test.tsx > shows renamed task\n AssertionError: expected \'Write spec\' to be \'Write the spec\'\n\n Missing field \'id\' while writing result {\n   "__typename": "Task",\n   "title": "Write the spec"\n }',
                failed=True,
            ),
            A(
                "Found it. The TASKS query selects `title` and `status` on each task but not `id`, so Apollo can't normalize the tasks: it stores them inline under the project, "
                "and the rename mutation's result (which does have an id) updates a separate Task:42 entry the list never reads. "
                "Adding `id` to the query's selection lets both point at the same cache object.",
                lesson=(RC, "selects `title` and `status` on each task but not `id`"),
            ),
            Edit("web/src/features/tasks/queries.ts"),
            Bash(
                "pnpm --filter web test -- TaskList",
                " ✓ src/features/tasks/TaskList.test.tsx (5 tests) 301ms\n\n Test Files  1 passed (1)\n      Tests  5 passed (5)",
            ),
            A(
                "The list updates right after the rename now. While I was in package.json I noticed @apollo/client is on 3.7; 3.11 has better warnings for exactly this. Want me to bump it here?"
            ),
            U(
                "not in this PR. dependency bumps always go in their own PR so we can revert them separately",
                lesson=(R, "dependency bumps always go in their own PR"),
            ),
            A(
                "OK, leaving it. Note that web/schema.graphql is a copy made by `pnpm schema:pull`, it doesn't follow the backend on its own, "
                "so codegen types can be stale if the API changed since the last pull.",
                lesson=(N, "web/schema.graphql is a copy made by `pnpm schema:pull`"),
            ),
            U("yep. thx"),
        ],
    ),
    (
        "blind-smalltalk-conference",
        "claude",
        "blind",
        [
            U("morning! just got back from a conference in Lisbon, still jetlagged"),
            A(
                "Good morning, and welcome back! Lisbon is a lovely place for a conference. Was it a good one?"
            ),
            U(
                "Pretty good. Lots of talks about agents, funnily enough. Never seen so many slides with the word 'autonomous' on them"
            ),
            A("Ha, that sounds like the theme of the year. Did any talk stand out?"),
            U(
                "One about on-call rotations, actually. Made me realise we always schedule our retros on Friday afternoons when everyone's fried"
            ),
            A(
                "That's a common one. Maybe something to bring up with the team. Anything you'd like to work on this morning?"
            ),
            U("not yet, need coffee first. talk later"),
            A("Enjoy the coffee! I'll be here."),
        ],
    ),
    (
        "blind-routine-version-bump",
        "claude",
        "blind",
        [
            U("Bump the version to 2.4.1 and add a changelog entry for the CSV export fix please."),
            A("Let me check where the version is defined."),
            Bash(
                "grep -rn '2.4.0' --include=*.toml --include=*.py .",
                './pyproject.toml:3:version = "2.4.0"\n./src/tally/__init__.py:1:__version__ = "2.4.0"',
            ),
            Edit("pyproject.toml"),
            Edit("src/tally/__init__.py"),
            Read("CHANGELOG.md"),
            Edit("CHANGELOG.md"),
            A("Running the tests now."),
            Bash(
                "pytest -q",
                "........................................................................ [100%]\n88 passed in 3.10s",
            ),
            A(
                'Version is 2.4.1 in pyproject.toml and __init__.py, and CHANGELOG.md has a 2.4.1 entry: "CSV export keeps quoted newlines". Tests pass.'
            ),
            U("great, thanks"),
        ],
    ),
    # ---- Codex -------------------------------------------------------------------------
    (
        "blind-codex-make-targets",
        "codex",
        "blind",
        [
            U("Add a unit test for the pg store's ListInvoices paging."),
            Read("internal/store/pg/invoices.go"),
            Edit("internal/store/pg/invoices_test.go"),
            Bash(
                "go test ./internal/store/pg/...",
                "package github.com/billfold/core/internal/store/pg: build constraints exclude all Go files in /home/dev/app/internal/store/pg",
                failed=True,
            ),
            A("The package seems excluded by a build constraint. I'll check the file headers."),
            U(
                "use make test, not go test directly. the Makefile passes -tags integration and starts the throwaway postgres",
                lesson=(C, "use make test, not go test directly"),
            ),
            Bash(
                "make test PKG=./internal/store/pg/...",
                "docker run -d --rm --name billfold-pg-test -p 55432:5432 postgres:16\nok  \tgithub.com/billfold/core/internal/store/pg\t2.904s",
            ),
            A(
                "With `make test` the pg tests build and pass, including the new TestListInvoicesPaging."
            ),
            U(
                "good. one more thing, generally: don't add new deps without asking first. we vendor everything and each new module needs a license review",
                lesson=(R, "don't add new deps without asking first"),
            ),
            A(
                "Understood. This change adds no dependencies; the test uses only the standard library and the existing testutil package."
            ),
        ],
    ),
    (
        "blind-codex-uuid-choice",
        "codex",
        "blind",
        [
            U(
                "We need a table for the offline drafts the mobile app syncs up. What should the primary key be?"
            ),
            Read("db/migrations/0041_comments.sql"),
            A(
                "The other tables use bigserial, but that doesn't fit here. I'd use UUIDv7 for drafts: the ids are created on the phones while offline, "
                "so the server can't hand them out, and v7 is time-ordered, so inserts stay at the end of the btree instead of scattering like v4 would.",
                lesson=(D, "I'd use UUIDv7 for drafts"),
            ),
            U("agreed, v7. is there a generator in the app already or do we need a lib"),
            A("The app already depends on `uuid` 10.x, which has v7(). No new library needed."),
            Edit("db/migrations/0042_drafts.sql"),
            Bash("make migrate-test", "applying 0042_drafts.sql ... ok\nschema check: ok"),
            A(
                "Added 0042_drafts.sql: drafts.id is uuid primary key, with no server-side default since clients always send it."
            ),
        ],
    ),
    (
        "blind-codex-gradle-slf4j",
        "codex",
        "blind",
        [
            U("the api module tests crash at startup after the logback upgrade, please fix"),
            Bash(
                "./gradlew :api:test",
                "> Task :api:test FAILED\n\nInvoiceResourceTest > initializationError FAILED\n    java.lang.NoSuchMethodError: 'void org.slf4j.spi.LocationAwareLogger.log(org.slf4j.Marker, java.lang.String, int, java.lang.String, java.lang.Object[], java.lang.Throwable)'\n        at org.glassfish.jersey.logging.LoggingFeature.<init>(LoggingFeature.java:112)\n\n12 tests completed, 12 failed",
                failed=True,
            ),
            Bash(
                "./gradlew :api:dependencies --configuration testRuntimeClasspath | grep slf4j",
                "+--- ch.qos.logback:logback-classic:1.4.14\n|    \\--- org.slf4j:slf4j-api:2.0.7\n+--- org.glassfish.jersey.core:jersey-server:2.35\n|    \\--- org.slf4j:slf4j-api:1.7.36 -> 1.7.36 (forced)",
            ),
            A(
                "Root cause: build.gradle forces slf4j-api to 1.7.36 (a leftover `force` from the jersey 2.2x days), but logback 1.4 is compiled against slf4j 2.0, "
                "so the runtime finds the old API classes and logback's calls don't exist there. Dropping the force and letting slf4j-api resolve to 2.0.x fixes it.",
                lesson=(RC, "build.gradle forces slf4j-api to 1.7.36"),
            ),
            Edit("api/build.gradle"),
            Bash("./gradlew :api:test", "BUILD SUCCESSFUL in 41s\n12 tests completed"),
            A(
                "Tests pass again. Worth remembering: `./gradlew :api:dependencies --configuration testRuntimeClasspath` shows which version wins and why, "
                "which is the quickest way to debug the next NoSuchMethodError like this one.",
                lesson=(
                    N,
                    "`./gradlew :api:dependencies --configuration testRuntimeClasspath` shows which version wins",
                ),
            ),
        ],
    ),
    (
        "blind-codex-bsd-sed",
        "codex",
        "blind",
        [
            U(
                "write a small script that stamps the build number into Info.plist and version.txt before packaging"
            ),
            Edit("stamp-version.sh"),
            A(
                'I wrote stamp-version.sh; it uses `sed -i "s/@BUILD@/$BUILD_NUMBER/"` on both files.'
            ),
            U(
                "this runs on the mac runners too. sed -i without a suffix argument breaks on BSD sed, it'll eat the next arg as the backup extension. use perl -pi -e or a temp file",
                lesson=(C, "sed -i without a suffix argument breaks on BSD sed"),
            ),
            A("Switching to perl -pi -e, which behaves the same on both."),
            Edit("stamp-version.sh"),
            U("and put it under scripts/ please, not the repo root"),
            Bash(
                "git mv stamp-version.sh scripts/stamp-version.sh && BUILD_NUMBER=812 scripts/stamp-version.sh && git diff --stat",
                " ios/App/Info.plist | 2 +-\n version.txt        | 2 +-\n 2 files changed, 2 insertions(+), 2 deletions(-)",
            ),
            Bash("git checkout ios/App/Info.plist version.txt", ""),
            A(
                "scripts/stamp-version.sh now uses perl -pi -e; a dry run with BUILD_NUMBER=812 stamped both files, and I reverted them afterwards."
            ),
        ],
    ),
    (
        "blind-codex-smalltalk-hello",
        "codex",
        "blind",
        [
            U("hey codex, you there?"),
            A("Hi! Yes, I'm here. What can I do for you?"),
            U(
                "nothing big, just testing that my new terminal setup works. the font finally looks right"
            ),
            A("Glad it works. A good font makes a surprising difference over a long day."),
            U("right? took me an hour of fiddling. anyway thanks, later!"),
            A("See you later!"),
        ],
    ),
    (
        "blind-codex-routine-lint",
        "codex",
        "blind",
        [
            U("CI lint job is failing on my branch, can you fix whatever it complains about"),
            Bash(
                "ruff check .",
                "src/reports/render.py:3:8: F401 [*] `json` imported but unused\nsrc/reports/render.py:41:5: F841 Local variable `total` is assigned to but never used\nFound 2 errors.\n[*] 1 fixable with the `--fix` option.",
                failed=True,
            ),
            A(
                "Two issues in render.py: an unused import and an unused variable. I'll remove both."
            ),
            Edit("src/reports/render.py"),
            Bash(
                "ruff check . && pytest -q tests/reports",
                "All checks passed!\n.............. [100%]\n14 passed in 0.88s",
            ),
            A("Lint is clean and the report tests still pass."),
            U("ty"),
        ],
    ),
    # ---- Gemini CLI --------------------------------------------------------------------
    (
        "blind-gemini-flutter-channels",
        "gemini",
        "blind",
        [
            U(
                "The widget test for the export screen fails on CI and locally. Can you have a look?"
            ),
            Bash(
                "flutter test test/export_screen_test.dart",
                "00:02 +0 -1: ExportScreen shows saved files [E]\n  MissingPluginException(No implementation found for method getApplicationDocumentsDirectory on channel plugins.flutter.io/path_provider)\n  package:flutter/src/services/platform_channel.dart 332:7  MethodChannel._invokeMethod\n\n00:02 +0 -1: Some tests failed.",
                failed=True,
            ),
            A(
                "Widget tests run without the platform side of plugins, so path_provider's method channel has no handler and the call throws. "
                "The screen calls getApplicationDocumentsDirectory() in initState. I'll register a fake PathProviderPlatform in the test's setUp that returns a temp directory.",
                lesson=(RC, "Widget tests run without the platform side of plugins"),
            ),
            Edit("test/export_screen_test.dart"),
            Bash("flutter test test/export_screen_test.dart", "00:03 +3: All tests passed!"),
            U(
                "thx. can you move the fake out of the test file though? we keep fakes in test/fakes/ so other tests can reuse them",
                lesson=(R, "we keep fakes in test/fakes/"),
            ),
            Edit("test/fakes/fake_path_provider.dart"),
            Edit("test/export_screen_test.dart"),
            Bash("flutter test", "00:11 +57: All tests passed!"),
            A(
                "FakePathProvider now lives in test/fakes/fake_path_provider.dart, and the whole suite passes."
            ),
        ],
    ),
    (
        "blind-gemini-dbt",
        "gemini",
        "blind",
        [
            U("fct_orders takes forever to build now. anything we can do?"),
            Bash(
                "dbt run --select fct_orders",
                "06:14:02  1 of 1 START sql table model dbt_maria.fct_orders ....... [RUN]\n06:53:47  1 of 1 OK created sql table model dbt_maria.fct_orders .. [SELECT 48211034 in 2385.12s]",
            ),
            A(
                "It's a full rebuild of 48M rows each run, about 40 minutes. I suggest making fct_orders incremental on updated_at with a unique_key of order_id: "
                "only rows changed since the last run get merged, and orders do get updated after creation (refunds), so append-only wouldn't be correct.",
                lesson=(
                    D,
                    "making fct_orders incremental on updated_at with a unique_key of order_id",
                ),
            ),
            U("ok go with incremental"),
            Edit("models/marts/fct_orders.sql"),
            Bash(
                "dbt run --select fct_orders",
                "07:02:11  1 of 1 START sql incremental model dbt_maria.fct_orders .. [RUN]\n07:03:05  1 of 1 OK created sql incremental model dbt_maria.fct_orders [MERGE 18822 in 54.31s]",
            ),
            A(
                "The incremental run merged 18,822 changed rows in under a minute. Note: `dbt run` with the dev target writes into your own schema (dbt_maria), "
                "so the dashboards won't show this until the prod job runs at 06:00 tomorrow.",
                lesson=(N, "`dbt run` with the dev target writes into your own schema"),
            ),
            U("right, thanks"),
        ],
    ),
    (
        "blind-gemini-design-tokens",
        "gemini",
        "blind",
        [
            U(
                "The 'Delete workspace' button should be red and a bit bigger. It's in src/components/DangerZone.vue"
            ),
            Read("src/components/DangerZone.vue"),
            Edit("src/components/DangerZone.vue"),
            A("I set the button to background: #d93025 and padding: 12px 20px."),
            U(
                "pls use the design tokens, var(--color-danger) etc. no raw hex values in components, the dark theme swaps the tokens",
                lesson=(C, "no raw hex values in components"),
            ),
            A("Switching to the tokens."),
            Edit("src/components/DangerZone.vue"),
            Bash("npm run lint:styles", '> stylelint "src/**/*.{vue,css}"\n\n✔ No problems found'),
            A(
                "The button now uses var(--color-danger) and var(--space-3)/var(--space-5) for padding."
            ),
            U("is there a token for the hover state?"),
            A("Yes, --color-danger-hover. I've used it for :hover as well."),
        ],
    ),
    (
        "blind-gemini-asyncio-loop",
        "gemini",
        "blind",
        [
            U(
                "Half the tests in tests/test_client.py fail with some event loop error when I run the whole file, but each passes alone. Weird."
            ),
            Bash(
                "pytest tests/test_client.py -q",
                ".F.F\n=================================== FAILURES ===================================\n_____________________________ test_fetch_page ______________________________\n...\n  File \"/home/dev/app/weatherkit/client.py\", line 28, in fetch_page\n    async with SESSION.get(url) as resp:\n  ...\nRuntimeError: Task <Task pending name='Task-7' coro=<test_fetch_page()>> got Future <Future pending> attached to a different loop\n2 failed, 2 passed in 0.44s",
                failed=True,
            ),
            Read(
                "weatherkit/client.py",
                "import aiohttp\n\nSESSION = aiohttp.ClientSession()\n\nasync def fetch_page(url):\n    async with SESSION.get(url) as resp:\n        ...",
            ),
            A(
                "The culprit is the module-level `SESSION = aiohttp.ClientSession()`: it's created once at import and bound to the loop of the first test, "
                "and pytest-asyncio gives each test a new event loop, so every test after the first uses a session from a closed loop. "
                "I'll create the session per client instance instead (async context manager), and give the tests a fixture for it.",
                lesson=(RC, "it's created once at import and bound to the loop"),
            ),
            Edit("weatherkit/client.py"),
            Edit("tests/conftest.py"),
            Bash("pytest tests/test_client.py -q", "....\n4 passed in 0.39s"),
            A("All four pass when run together now."),
            U("awesome, ty"),
        ],
    ),
    (
        "blind-gemini-smalltalk-friday",
        "gemini",
        "blind",
        [
            U("happy friday!! any fun plans? jk I know you don't have weekends"),
            A("Happy Friday! No weekend plans on my side, but I'd love to hear yours."),
            U("hiking if the weather holds. I always pack too much food though"),
            A("Better too much than too little on a trail. Hope the weather holds!"),
            U("thanks! ok logging off, have a good one"),
        ],
    ),
    (
        "blind-gemini-routine-flag",
        "gemini",
        "blind",
        [
            U("Add a --limit option to the `list` command in cli.py, default 50."),
            Read("cli.py"),
            A("I'll follow how the other options on `list` are declared."),
            Edit("cli.py"),
            Edit("tests/test_cli.py"),
            Bash("python -m pytest tests/test_cli.py -q", "......... [100%]\n9 passed in 0.52s"),
            A("`list --limit N` is in, defaulting to 50, with a test for it. All CLI tests pass."),
            U("cool, thanks"),
        ],
    ),
]
