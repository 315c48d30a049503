# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind8" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND8: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind8-spring-batch-chunk",
        "claude",
        "blind8",
        [
            U(
                "the nightly settlement job (SettlementJobConfig) died at 02:14 again, logs in /var/log/batch/settlement.log. can you look"
            ),
            Bash(
                "grep -m3 -A4 ERROR /var/log/batch/settlement.log",
                "2026-03-04 02:14:07 ERROR o.s.batch.core.step.AbstractStep - Encountered an error executing step settleStep in job settlementJob\norg.springframework.dao.DataIntegrityViolationException: PreparedStatementCallback; ORA-00001: unique constraint (LEDGER.PK_SETTLEMENT) violated",
                failed=True,
            ),
            Read(
                "src/main/java/com/bank/batch/SettlementJobConfig.java",
                'return new StepBuilder("settleStep", jobRepository)\n    .<Txn, Settlement>chunk(500, txManager)\n    .reader(txnReader())\n    .writer(jdbcWriter())\n    .faultTolerant().retry(TransientDataAccessException.class).retryLimit(3)\n    .build();',
            ),
            A(
                "The writer is a plain INSERT and the step is restartable. When the job failed mid-run last night the operator restarted it, and the JdbcCursorItemReader has saveState disabled, "
                "so on restart it reads from the first row again and re-inserts chunks that were already committed. That's where the ORA-00001 comes from. "
                "I'll turn saveState back on and give the reader a name so the ExecutionContext can store the position.",
                lesson=(RC, "JdbcCursorItemReader has saveState disabled, so on restart it reads"),
            ),
            Edit("src/main/java/com/bank/batch/SettlementJobConfig.java"),
            Bash(
                "./mvnw -q -Dtest=SettlementJobRestartIT verify",
                "[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0",
            ),
            A(
                "Restart test passes now: after a forced failure in chunk 3 the rerun starts at chunk 3."
            ),
            U(
                "good. also could you switch the writer to a MERGE so its idempotent? i know you'll say saveState is enough but ops restart these things by hand with new params all the time",
            ),
            A(
                "I'd rather do the MERGE than an upsert in Java: a MERGE on (txn_id, value_date) keeps it to one round-trip per chunk and makes reruns with new JobParameters harmless, "
                "since the same txn just overwrites itself. Okay to go with MERGE?",
                lesson=(D, "a MERGE on (txn_id, value_date) keeps it to one round-trip"),
            ),
            U("yes go with merge"),
            Edit("src/main/java/com/bank/batch/SettlementWriter.java"),
            Bash("./mvnw -q verify", "[INFO] Tests run: 38, Failures: 0, Errors: 0, Skipped: 0"),
            A("Done, 38 tests green."),
        ],
    ),
    (
        "blind8-swiftui-sheet",
        "claude",
        "blind8",
        [
            U(
                "In the PatientDetailView the edit sheet opens twice when you tap the pencil quickly. Could you fix it please? It's the iPad app for the wards."
            ),
            Read(
                "Wards/Views/PatientDetailView.swift",
                ".sheet(isPresented: $showEdit) { EditVitalsView(patient: patient) }\n.sheet(item: $editing) { p in EditVitalsView(patient: p) }",
            ),
            A(
                "There are two sheet modifiers bound to the same action. I'll remove the isPresented one and keep the item-based sheet, and disable the button while it's presented."
            ),
            Edit("Wards/Views/PatientDetailView.swift"),
            U(
                "Please don't disable the button, the nurses think the app froze when buttons go grey. We had complaints about it. Just remove the duplicate sheet.",
                lesson=(C, "don't disable the button, the nurses think the app froze"),
            ),
            A(
                "Understood, reverting the disabled state and keeping only the removal of the duplicate sheet."
            ),
            Edit("Wards/Views/PatientDetailView.swift"),
            Bash(
                "xcodebuild -scheme Wards -destination 'platform=iOS Simulator,name=iPad (10th generation)' test 2>&1 | tail -2",
                "Test Suite 'All tests' passed at 2026-03-05 10:12:44.102.\n** TEST SUCCEEDED **",
            ),
            A("Tests pass."),
            U(
                "thanks. By the way any patient identifiers in previews or test fixtures must be fake ones from FakeMRN, never copy a real MRN from the logs, the audit people check this.",
                lesson=(R, "must be fake ones from FakeMRN, never copy a real MRN"),
            ),
            A("Will do. The fixtures in this change already use FakeMRN.make()."),
        ],
    ),
    (
        "blind8-codex-go-grpc-deadline",
        "codex",
        "blind8",
        [
            U(
                "orders-svc p99 is way up since friday deploy. inventory calls hanging i think. repo is here"
            ),
            Bash(
                "grep -rn 'inventory' internal/orders/client.go | head",
                "internal/orders/client.go:41:\tresp, err := c.inv.Reserve(context.Background(), req)",
            ),
            A(
                "The Reserve call uses context.Background(), so it drops the request's deadline. When inventory is slow the handler waits for the gRPC default, which is no deadline at all, "
                "and the connection pool fills up. Passing the incoming ctx (with a 300ms timeout on top) bounds it.",
                lesson=(RC, "uses context.Background(), so it drops the request's deadline"),
            ),
            Edit("internal/orders/client.go"),
            Bash(
                "go test ./internal/orders/... 2>&1 | tail -2",
                "ok  \tgithub.com/acme/orders-svc/internal/orders\t0.812s",
            ),
            A(
                "Tests pass. Note for later: golangci-lint in this repo has `contextcheck` disabled in .golangci.yml, which is why this slipped through review; the other services have it on.",
                lesson=(N, "has `contextcheck` disabled in .golangci.yml, which is why"),
            ),
            U("ugh ok. turn it on then, fix whatever it finds"),
            Edit(".golangci.yml"),
            Bash(
                "golangci-lint run ./... 2>&1 | tail -3",
                "internal/payments/refund.go:88:22: Function `notify` should pass the context parameter (contextcheck)\n1 issues:\n* contextcheck: 1",
            ),
            Edit("internal/payments/refund.go"),
            Bash("golangci-lint run ./...", ""),
            A("Enabled and clean."),
        ],
    ),
    (
        "blind8-polars-pipeline",
        "claude",
        "blind8",
        [
            U(
                "Hi, in the lab we have a pipeline for the sensor data (pipeline/clean.py) which is now very slow since we have three years of data. "
                "I think it is the groupby. Can you take a look? We run it on the cluster node with 64GB."
            ),
            Read(
                "pipeline/clean.py",
                "df = pl.read_parquet('data/raw/*.parquet')\nout = df.group_by(['station', pl.col('ts').dt.date()]).agg(pl.col('temp').mean())\nout.write_parquet('data/clean/daily.parquet')",
            ),
            A(
                "It reads every file fully into memory before grouping. I suggest switching to `pl.scan_parquet` with `.sink_parquet`: the streaming engine pushes the column selection and the group_by down, "
                "so only station, ts and temp are read and memory stays flat. It also means we don't need the cluster node for this step. Shall I do that?",
                lesson=(
                    D,
                    "switching to `pl.scan_parquet` with `.sink_parquet`: the streaming engine",
                ),
            ),
            U("Yes, please do it like this."),
            Edit("pipeline/clean.py"),
            Bash(
                "time python pipeline/clean.py", "real\t0m48.210s\nuser\t5m02.114s\nsys\t0m9.880s"
            ),
            A("From about 14 minutes to 48 seconds."),
            U(
                "Wonderful. One thing, our convention is that timestamps in the raw data are always UTC and we only convert to Europe/Zurich at the plotting step, please keep it so in any change.",
                lesson=(R, "only convert to Europe/Zurich at the plotting step"),
            ),
            A("Okay. The daily grouping here uses the UTC date, unchanged."),
        ],
    ),
    (
        "blind8-gemini-terraform-gcp",
        "gemini",
        "blind8",
        [
            U(
                "need a new pubsub topic + subscription for the billing events in staging. terraform under infra/gcp"
            ),
            Read(
                "infra/gcp/staging/main.tf",
                'module "pubsub_orders" {\n  source = "../modules/pubsub"\n  name   = "orders"\n}',
            ),
            A("I'll add a module block for billing next to orders and run a plan."),
            Edit("infra/gcp/staging/main.tf"),
            Bash(
                "cd infra/gcp/staging && terraform plan -no-color 2>&1 | tail -6",
                'Error: Error acquiring the state lock\n\nError message: writing "gs://acme-tfstate/staging/default.tflock" failed: googleapi: Error 412: At least one of the pre-conditions you specified did not hold., conditionNotMet\nLock Info:\n  ID:        1709551023331204\n  Who:       ci-runner@gitlab-runner-7',
                failed=True,
            ),
            A("The state is locked by a CI runner. I can force-unlock with that lock ID."),
            U(
                "NO dont force unlock, that runner is probably mid apply. in this repo plans and applies only go through the gitlab pipeline, never run terraform plan locally against staging or prod state",
                lesson=(R, "never run terraform plan locally against staging or prod state"),
            ),
            A(
                "Understood. I'll leave the state alone and just push the change on a branch so the MR pipeline runs the plan."
            ),
            Bash(
                "git checkout -b billing-pubsub && git commit -qam 'staging: billing pubsub topic' && git push -q -u origin billing-pubsub",
                "remote: To create a merge request for billing-pubsub, visit:\nremote:   https://gitlab.acme.io/infra/gcp/-/merge_requests/new?merge_request%5Bsource_branch%5D=billing-pubsub",
            ),
            A("Pushed; the MR link is above."),
        ],
    ),
    (
        "blind8-smalltalk-climbing",
        "claude",
        "blind8",
        [
            U(
                "not working on anything yet, waiting for coffee. do you know anything about bouldering grades? my friend says V grades and font grades are the same thing"
            ),
            A(
                "They're different scales. V grades (Hueco) are used mostly in North America, Font grades in Europe. They map roughly, e.g. V4 is about 6B+, but the mapping gets loose at the top end."
            ),
            U(
                "ha ok so he's wrong. he always claims stuff like that. the problem is he climbs in a gym that uses colours anyway"
            ),
            A(
                "Colour circuits are their own thing; every gym sets them differently, so comparing across gyms is mostly guesswork."
            ),
            U(
                "i prefer outdoors anyway. never liked the chalk dust inside. ok coffee's here, thanks"
            ),
            A("Enjoy the coffee."),
        ],
    ),
    (
        "blind8-routine-angular-pipe",
        "claude",
        "blind8",
        [
            U(
                "add a `fileSize` pipe in shared/pipes that turns bytes into KB/MB/GB, and use it in the attachments table"
            ),
            Read(
                "src/app/shared/pipes/index.ts",
                "export * from './truncate.pipe';\nexport * from './relative-date.pipe';",
            ),
            Edit("src/app/shared/pipes/file-size.pipe.ts"),
            Edit("src/app/shared/pipes/index.ts"),
            Edit("src/app/attachments/attachments-table.component.html"),
            Edit("src/app/shared/pipes/file-size.pipe.spec.ts"),
            Bash(
                "npx ng test --watch=false --include='**/file-size.pipe.spec.ts' 2>&1 | tail -2",
                "Chrome Headless 122.0.0.0 (Linux x86_64): Executed 5 of 5 SUCCESS (0.021 secs / 0.011 secs)\nTOTAL: 5 SUCCESS",
            ),
            A(
                "Added `FileSizePipe` (standalone, exported from the pipes index) with 5 spec cases, and the size column in the attachments table uses `| fileSize` now."
            ),
            U("thx"),
        ],
    ),
    (
        "blind8-codex-kafka-streams",
        "codex",
        "blind8",
        [
            U(
                "The fraud-score streams app keeps rebalancing every few minutes in prod, consumer lag is growing. We run 6 instances on k8s. "
                "I attached the log snippet in logs/rebalance.txt. I think it started when we added the enrichment call to the customer API."
            ),
            Read(
                "logs/rebalance.txt",
                "WARN [Consumer clientId=fraud-score-StreamThread-2-consumer] consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that the poll loop is spending too much time processing messages.",
            ),
            A(
                "Agreed, that matches the log. I'll lower max.poll.records to 100 for now so each poll loop stays well under max.poll.interval.ms.",
            ),
            Edit("src/main/resources/application.yml"),
            Bash("./gradlew test --tests '*TopologyTest' -q", "BUILD SUCCESSFUL in 22s"),
            A("I can also add a Caffeine cache in front of CustomerClient with a 10 minute TTL."),
            U(
                "no, customer data can't be cached here, compliance. use a GlobalKTable from the customers-compacted topic instead, that's what the other streams apps do",
                lesson=(C, "customer data can't be cached here, compliance. use a GlobalKTable"),
            ),
            A(
                "Okay, replacing the HTTP call with a join against a GlobalKTable on customers-compacted."
            ),
            Edit("src/main/java/com/acme/fraud/FraudTopology.java"),
            Bash("./gradlew test -q", "BUILD SUCCESSFUL in 31s"),
            A("Join in place, tests pass; the HTTP client is no longer used in the topology."),
        ],
    ),
    (
        "blind8-gemini-rust-embedded",
        "gemini",
        "blind8",
        [
            U(
                "firmware for the sensor board doesnt fit anymore after i added defmt logging. nrf52832, embassy"
            ),
            Bash(
                "cargo build --release 2>&1 | tail -4",
                "error: linking with `flip-link` failed: exit status: 1\n  = note: rust-lld: error: section '.text' will not fit in region 'FLASH': overflowed by 3412 bytes\n          rust-lld: error: region 'FLASH' overflowed by 3412 bytes",
                failed=True,
            ),
            Read(
                "Cargo.toml",
                '[profile.release]\ndebug = 2\nopt-level = 3\n\n[dependencies]\ndefmt = "0.3"',
            ),
            A(
                "opt-level 3 trades size for speed, and memory.x here only gives the app 192K because the bootloader takes the first 64K. "
                'Switching the release profile to opt-level = "z" with lto = "fat" and codegen-units = 1 usually saves far more than 3K on embassy builds. '
                "debug = 2 doesn't matter for flash, it stays on the host. OK to change the profile that way rather than dropping log lines?",
                lesson=(D, 'opt-level = "z" with lto = "fat" and codegen-units = 1'),
            ),
            U("yep do that"),
            Edit("Cargo.toml"),
            Bash(
                "cargo size --release -- -A | grep -E '^\\.text'",
                ".text                 171204     0x11000",
            ),
            A("Fits now with about 20K spare."),
            U(
                "cool. fyi DEFMT_LOG must stay at info for release builds, the debug level ones blow past flash every time",
                lesson=(R, "DEFMT_LOG must stay at info for release builds"),
            ),
            A("Noted, I'll keep DEFMT_LOG=info in .cargo/config.toml for release."),
        ],
    ),
    (
        "blind8-clickhouse-grafana",
        "claude",
        "blind8",
        [
            U(
                'hey, the "events per minute" panel on the game-telemetry grafana dashboard shows a dip to zero at every full hour. players didnt stop playing lol. '
                "query is in dashboards/telemetry.json panel id 7, clickhouse datasource"
            ),
            Read(
                "dashboards/telemetry.json",
                '"rawSql": "SELECT toStartOfMinute(ts) AS t, count() FROM events_mv WHERE $__timeFilter(ts) GROUP BY t ORDER BY t"',
            ),
            Bash(
                "clickhouse-client -q \"SELECT name, engine, create_table_query FROM system.tables WHERE name='events_mv'\" | cut -c1-200",
                "events_mv\tMaterializedView\tCREATE MATERIALIZED VIEW telemetry.events_mv TO telemetry.events_hourly ... SummingMergeTree ORDER BY (toStartOfHour(ts), game_id)",
            ),
            A(
                "The panel reads from events_mv, but that materialized view writes into events_hourly, a SummingMergeTree keyed on the hour. "
                "Counting rows there per minute gives you one row per hour per game after merges, and the minute at the top of the hour is where they land, so everything else looks like zero and "
                "the exact hour looks odd before merges finish. For minute resolution the panel has to read the raw `events` table.",
                lesson=(
                    RC,
                    "that materialized view writes into events_hourly, a SummingMergeTree keyed on the hour",
                ),
            ),
            Edit("dashboards/telemetry.json"),
            Bash(
                "curl -s -u admin:$GF_PASS -X POST http://grafana.internal/api/dashboards/db -H 'Content-Type: application/json' -d @dashboards/telemetry.json | jq -r .status",
                "success",
            ),
            A("Updated. The panel now queries `events` directly and the line is smooth."),
            U(
                "nice thanks!! dont push dashboards with curl next time tho, we provision them from the repo with the grafana operator, the curl one gets overwritten on next sync",
                lesson=(C, "we provision them from the repo with the grafana operator"),
            ),
            A(
                "Got it. The JSON change is in the repo as well, so the operator sync will keep the fix."
            ),
        ],
    ),
    (
        "blind8-codex-smalltalk-relocation",
        "codex",
        "blind8",
        [
            U(
                "hello. today not so much work, my team lead is on holiday. can I ask you something private? I move to Rotterdam next month from Porto, is the weather really so bad"
            ),
            A(
                "It rains more often than in Porto, mostly light rain, and winters are grey and windy rather than very cold. Summers are mild. Most people get used to it with a good rain jacket."
            ),
            U(
                "my colleague says never buy an umbrella there because the wind breaks it always. is true?"
            ),
            A(
                "Many people there do prefer a hood over an umbrella for exactly that reason. Cycling with an umbrella is also not really practical."
            ),
            U("ok so I don't buy umbrella. and bicycle, better new or second hand?"),
            A(
                "Second hand is common and cheaper, and bike theft is a known problem, so many people avoid an expensive new one. Get two good locks either way."
            ),
            U("thank you, very helpful"),
        ],
    ),
    (
        "blind8-react-native-android-build",
        "claude",
        "blind8",
        [
            U(
                "android release build fails on CI since I bumped react-native-reanimated. ios is fine. can you check, gitlab job log says something about kotlin"
            ),
            Bash(
                "cd android && ./gradlew assembleRelease 2>&1 | grep -m2 -E 'e: |What went wrong' -A2",
                "* What went wrong:\nExecution failed for task ':react-native-reanimated:compileReleaseKotlin'.\n> Module was compiled with an incompatible version of Kotlin. The binary version of its metadata is 1.9.0, expected version is 1.7.1.",
                failed=True,
            ),
            Read(
                "android/build.gradle",
                'buildscript {\n    ext {\n        kotlinVersion = "1.7.10"\n        ...',
            ),
            A(
                "The new reanimated ships Kotlin 1.9 metadata, but android/build.gradle pins kotlinVersion to 1.7.10 and React Native's gradle plugin uses that ext value for every library module. "
                "The 1.7 compiler can't read 1.9 metadata, hence the error. Bumping kotlinVersion to 1.9.22 fixes it.",
                lesson=(RC, "pins kotlinVersion to 1.7.10 and React Native's gradle plugin uses"),
            ),
            Edit("android/build.gradle"),
            Bash(
                "cd android && ./gradlew assembleRelease 2>&1 | tail -1",
                "BUILD SUCCESSFUL in 3m 12s",
            ),
            A("Release build passes locally. Want me to also run `npx react-native doctor`?"),
            U("no thats fine. push it"),
            Bash(
                "git commit -qam 'android: bump kotlin to 1.9.22 for reanimated 3.8' && git push -q",
                "",
            ),
            A("Pushed."),
        ],
    ),
    (
        "blind8-gemini-postgres-migration",
        "gemini",
        "blind8",
        [
            U(
                "We need to add a `discharged_at` column to admissions and backfill it from the legacy discharge_events table. "
                "The admissions table has about 80 million rows. Please write the migration (we use Flyway, db/migration)."
            ),
            Bash(
                "ls db/migration | tail -3",
                "V212__add_ward_codes.sql\nV213__index_admissions_patient.sql\nV214__drop_old_triage.sql",
            ),
            A(
                "Plan:\n- V215 adds the column as nullable with no default, which is a metadata-only change in Postgres 14 and doesn't rewrite the table.\n"
                "- The backfill runs separately as a batched job (10k rows per transaction by id range) instead of one UPDATE inside the migration, "
                "because a single UPDATE on 80M rows would hold row locks for the whole run and bloat the table.\n\nIs that fine?",
                lesson=(D, "backfill runs separately as a batched job (10k rows per transaction"),
            ),
            U(
                "yes that's the way. and please remember all our Flyway migrations must be backward compatible with the previous app version because we do rolling deploys, so never rename or drop in the same release.",
                lesson=(
                    R,
                    "Flyway migrations must be backward compatible with the previous app version",
                ),
            ),
            Edit("db/migration/V215__admissions_discharged_at.sql"),
            Edit("scripts/backfill_discharged_at.sql"),
            Bash(
                "./gradlew flywayMigrate -Pflyway.url=jdbc:postgresql://localhost:5432/his_test -q 2>&1 | tail -1",
                'Successfully applied 1 migration to schema "public", now at version v215',
            ),
            A(
                "Migration applied on the local test db. The backfill script is in scripts/ and takes a start/end id."
            ),
        ],
    ),
    (
        "blind8-fortran-cmake",
        "claude",
        "blind8",
        [
            U(
                "trying to build the ocean model on the new HPC partition. cmake configure works, make fails with module errors. build dir is build-genoa"
            ),
            Bash(
                "cd build-genoa && make -j32 2>&1 | grep -m2 -B1 Error",
                "/home/kr/ocean/src/dynamics/advect.f90:4:7:\n    4 |   use grid_mod\n      |       1\nFatal Error: Cannot open module file 'grid_mod.mod' for reading at (1): No such file or directory",
                failed=True,
            ),
            Read(
                "src/CMakeLists.txt",
                "add_library(dynamics STATIC dynamics/advect.f90 dynamics/diffuse.f90)\nadd_library(grid STATIC grid/grid_mod.f90)\ntarget_link_libraries(model dynamics grid)",
            ),
            A(
                "dynamics uses grid_mod but doesn't link against the grid target, so CMake has no dependency between them and with -j32 advect.f90 may compile before grid_mod.mod exists. "
                "On the old partition with -j8 the ordering happened to work. Adding `target_link_libraries(dynamics PUBLIC grid)` gives CMake the module dependency.",
                lesson=(RC, "doesn't link against the grid target, so CMake has no dependency"),
            ),
            Edit("src/CMakeLists.txt"),
            Bash(
                "cd build-genoa && cmake .. > /dev/null && make -j32 2>&1 | tail -1",
                "[100%] Built target model",
            ),
            A(
                "Builds. Side note: the Genoa nodes default to the gfortran 8 module; this code needs `module load gcc/13.2` first, or it fails on the `do concurrent` loops with locality specs. I loaded it in the session but it's not in the build script.",
                lesson=(N, "the Genoa nodes default to the gfortran 8 module"),
            ),
            U("ah good catch, thanks"),
        ],
    ),
    (
        "blind8-codex-routine-makefile",
        "codex",
        "blind8",
        [
            U("can u add a `make lint` target that runs shellcheck on everything in scripts/"),
            Read(
                "Makefile",
                ".PHONY: build test\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...",
            ),
            Edit("Makefile"),
            Bash(
                "make lint",
                "shellcheck scripts/*.sh\n\nIn scripts/release.sh line 12:\nfor f in $(ls dist); do\n         ^--------^ SC2045 (error): Iterating over ls output is fragile. Use globs.",
                failed=True,
            ),
            A("The target works; it found one issue in release.sh. Fixing it with a glob."),
            Edit("scripts/release.sh"),
            Bash("make lint", "shellcheck scripts/*.sh"),
            A("`make lint` added to .PHONY and passes."),
        ],
    ),
    (
        "blind8-gemini-elasticsearch-mapping",
        "gemini",
        "blind8",
        [
            U(
                'search for product codes like "AB-1234" returns nothing in the catalog search. sku is a text field, we need a keyword subfield sku.raw and the search service should use a term query on it. index products-v3'
            ),
            A(
                "I'll add sku.raw (keyword, lowercase normalizer). Since mappings can't be changed on an existing field, I'll put the new mapping directly on products-v3 via _mapping and reindex in place."
            ),
            U(
                "not in place. we always create products-v4 and flip the `products` alias, the app only ever talks to the alias",
                lesson=(C, "we always create products-v4 and flip the `products` alias"),
            ),
            Edit("search/mappings/products-v4.json"),
            Bash(
                "./scripts/reindex.sh products-v3 products-v4 && curl -s localhost:9200/_alias/products | jq -r 'keys[]'",
                "reindexed 412903 docs\nproducts-v4",
            ),
            A(
                'products-v4 created with sku.raw, reindexed, alias flipped. "AB-1234" now returns the one product. '
                "Be careful with scripts/reindex.sh later: it uses op_type=create, so rerunning it into an index that already exists skips every existing doc without an error; delete the target index first.",
                lesson=(N, "it uses op_type=create, so rerunning it into an index"),
            ),
        ],
    ),
    (
        "blind8-vba-migration",
        "claude",
        "blind8",
        [
            U(
                "Good morning. We are replacing the Excel macro workbook 'Provisioning_Q.xlsm' used by the credit risk team with a Python script. "
                "I exported the VBA modules to legacy/vba/. The output numbers must match the workbook exactly for the last quarter, that is the acceptance test. "
                "Can you start with modRounding.bas and port it to risk/rounding.py?"
            ),
            Read(
                "legacy/vba/modRounding.bas",
                "Public Function RoundProv(x As Double) As Double\n    RoundProv = Round(x, 2)\nEnd Function",
            ),
            A(
                "Worth knowing before porting the rest: VBA's `Round` uses banker's rounding (round half to even), while Excel's worksheet ROUND rounds half away from zero. "
                "The workbook mixes both, so each call site has to be ported with the matching Python behaviour (`round()` for VBA, `Decimal.quantize(ROUND_HALF_UP)` for sheet formulas).",
                lesson=(N, "VBA's `Round` uses banker's rounding (round half to even)"),
            ),
            Edit("risk/rounding.py"),
            Bash("pytest -q tests/test_rounding.py", "....\n4 passed in 0.05s"),
            U(
                "Very good. Please use Decimal everywhere for money amounts in this project, no floats, also outside the rounding module.",
                lesson=(R, "use Decimal everywhere for money amounts in this project, no floats"),
            ),
            A("Okay. I'll change `round_prov` to take and return Decimal and update the tests."),
            Edit("risk/rounding.py"),
            Bash("pytest -q tests/test_rounding.py", "....\n4 passed in 0.04s"),
        ],
    ),
    (
        "blind8-codex-julia-lab",
        "codex",
        "blind8",
        [
            U(
                "the simulation script (sim/run.jl) takes 40s before it even starts. every time. is that normal? we run it from a bash loop for the parameter sweep"
            ),
            Read(
                "scripts/sweep.sh",
                "for k in $(seq 1 200); do\n  julia --project=. sim/run.jl --kappa $k\ndone",
            ),
            A(
                "That's compile latency: each `julia` process starts cold and recompiles DifferentialEquations and Plots, so the sweep pays ~40s two hundred times. "
                "I'd move the loop inside Julia (one process, `for k in 1:200`) and use Distributed with `pmap` over the kappas, so compilation happens once per worker. "
                "That's simpler than building a sysimage with PackageCompiler, which would need rebuilding every time the Manifest changes. Go ahead?",
                lesson=(D, "move the loop inside Julia (one process, `for k in 1:200`)"),
            ),
            U("sounds good yes"),
            Edit("sim/sweep.jl"),
            Bash(
                "time julia --project=. -p 8 sim/sweep.jl --kappas 1:200",
                "200/200 done\n\nreal\t6m41.302s\nuser\t49m12.880s\nsys\t0m31.007s",
            ),
            A("Full sweep in under 7 minutes instead of about 2.5 hours."),
            U(
                "great. results should go to /scratch/$USER not home, home quota is tiny on this cluster, put that in whatever you write from now",
                lesson=(R, "results should go to /scratch/$USER not home"),
            ),
            Edit("sim/sweep.jl"),
            A("Output directory now defaults to /scratch/$USER/sweeps."),
        ],
    ),
    (
        "blind8-gemini-smalltalk-game",
        "gemini",
        "blind8",
        [
            U(
                "ok im done for the day. whats a good co-op game for two people that isnt too hard? my partner doesnt really play games"
            ),
            A(
                "It Takes Two is the usual recommendation for that, and Stardew Valley co-op is very relaxed. Overcooked is fun but can get stressful."
            ),
            U(
                "we tried overcooked, never again lol. the problem is she always gets the dishes station"
            ),
            A(
                "Then something calmer is probably better. Unpacking isn't co-op but works well passing the controller back and forth."
            ),
            U("i prefer something we both play at the same time. stardew it is"),
            A("Good choice, it's easy to drop in and out of."),
        ],
    ),
    (
        "blind8-perl-log-rotation",
        "claude",
        "blind8",
        [
            U(
                "the old perl script that rotates the lab instrument logs (tools/rotate_logs.pl) is deleting files it shouldnt. it deleted last weeks mass spec runs. we have backups but pls fix"
            ),
            Read(
                "tools/rotate_logs.pl", 'my @old = grep { -M $_ > 7 } glob("$dir/*");\nunlink @old;'
            ),
            A(
                "`-M` looks at the file's mtime, and the mass spec PCs copy their runs to the share with robocopy, which keeps the original acquisition mtime. "
                "A run acquired ten days ago but copied over last week already looks 10 days old on arrival, so the script deletes it on its next pass. "
                "Using the inode change time (`-C`), which is set when the file lands on the share, measures how long it has actually been here.",
                lesson=(RC, "robocopy, which keeps the original acquisition mtime"),
            ),
            Edit("tools/rotate_logs.pl"),
            Bash(
                "perl -c tools/rotate_logs.pl && prove -q t/rotate.t",
                "tools/rotate_logs.pl syntax OK\nt/rotate.t .. ok\nAll tests successful.",
            ),
            A(
                "Fixed, and I'd also make it move files into archive/ instead of unlinking them, so a bug here can't lose data again."
            ),
            U(
                "hmm no, archive/ is on the same disk and that fills up. just log what it deletes to syslog so we can see it",
                lesson=(C, "archive/ is on the same disk and that fills up"),
            ),
            Edit("tools/rotate_logs.pl"),
            Bash("prove -q t/rotate.t", "t/rotate.t .. ok\nAll tests successful."),
            A("Deletions are now logged via Sys::Syslog with facility local3."),
        ],
    ),
    (
        "blind8-gemini-routine-flink-test",
        "gemini",
        "blind8",
        [
            U(
                "add a unit test for SessionWindowFunction that checks two events 10 min apart end up in separate sessions"
            ),
            Read(
                "src/test/java/com/acme/clicks/SessionWindowFunctionTest.java",
                "class SessionWindowFunctionTest {\n  @Test void singleEventMakesOneSession() { ... }\n}",
            ),
            Edit("src/test/java/com/acme/clicks/SessionWindowFunctionTest.java"),
            Bash(
                "mvn -q test -Dtest=SessionWindowFunctionTest",
                "[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0",
            ),
            A(
                "Added `eventsTenMinutesApartAreSeparateSessions` using the same harness as the existing test; both pass."
            ),
        ],
    ),
    (
        "blind8-gitlab-ci-cache",
        "claude",
        "blind8",
        [
            U(
                "Our GitLab pipeline for the mobile backend got slow, node_modules install takes 4 minutes per job. I'd like to cache it. "
                "We have 5 jobs in the test stage. Also please rename the stage 'tests' to 'test' while you are there."
            ),
            Read(
                ".gitlab-ci.yml",
                "stages: [build, tests, deploy]\n\n.node:\n  image: node:20\n  before_script:\n    - npm ci",
            ),
            A(
                "I'll cache `.npm/` keyed on package-lock.json rather than node_modules: `npm ci` deletes node_modules anyway before installing, so caching it buys nothing, "
                "while a warm npm cache lets `npm ci --cache .npm --prefer-offline` skip the downloads. Shall I go that way?",
                lesson=(D, "cache `.npm/` keyed on package-lock.json rather than node_modules"),
            ),
            U("ok yes"),
            Edit(".gitlab-ci.yml"),
            Bash("glab ci lint", "Validating...\n.gitlab-ci.yml is valid!"),
            A("Lint passes. Shared runners here are tagged `docker`; I kept that tag on all jobs."),
            U(
                "wait you left image: node:20 from docker hub. no, use our mirror registry.gitlab.acme.io/base/node:20, docker hub pulls are rate limited for us and jobs fail randomly",
                lesson=(
                    C,
                    "no, use our mirror registry.gitlab.acme.io/base/node:20, docker hub pulls",
                ),
            ),
            Edit(".gitlab-ci.yml"),
            Bash("glab ci lint", "Validating...\n.gitlab-ci.yml is valid!"),
            A("Switched the image and renamed the stage; lint is clean."),
        ],
    ),
    (
        "blind8-codex-redis-lock",
        "codex",
        "blind8",
        [
            U(
                "two workers sometimes process the same payout. we use a redis lock in payouts/lock.py. startup, python, rq workers"
            ),
            Read(
                "payouts/lock.py",
                "def acquire(key):\n    if r.get(key) is None:\n        r.set(key, '1', ex=30)\n        return True\n    return False",
            ),
            A(
                "GET then SET is two round-trips, so two workers can both see None before either writes. It has to be one atomic `SET key token NX EX 30`, "
                "and the release should only delete if the token is ours (a small Lua script), otherwise a slow worker can delete someone else's lock after expiry.",
                lesson=(RC, "GET then SET is two round-trips, so two workers"),
            ),
            Edit("payouts/lock.py"),
            Bash("pytest -q tests/test_lock.py", "......\n6 passed in 0.31s"),
            A(
                "Fixed. I'd also add redis-py's built-in `Lock` next time instead of the hand-written one, it does the same thing."
            ),
            U("fine either way, leave it"),
            A(
                "Leaving it as is. One thing to be aware of: the test suite uses fakeredis, which does not run Lua scripts unless the `lupa` extra is installed, so I added `fakeredis[lua]` to requirements-dev.txt.",
                lesson=(N, "fakeredis, which does not run Lua scripts unless the `lupa` extra"),
            ),
        ],
    ),
    (
        "blind8-compose-paging",
        "claude",
        "blind8",
        [
            U(
                "android app: the transactions list jumps to the top when a new page loads. Compose + Paging 3. screen is TransactionsScreen.kt"
            ),
            Read(
                "app/src/main/java/com/bank/app/tx/TransactionsScreen.kt",
                "val items = viewModel.pager.flow.collectAsLazyPagingItems()\nLazyColumn { items(items.itemCount) { i -> TxRow(items[i]) } }",
            ),
            A(
                "I'll add `key = items.itemKey { it.id }` to the items call so Compose can keep the scroll position across page loads."
            ),
            Edit("app/src/main/java/com/bank/app/tx/TransactionsScreen.kt"),
            Bash("./gradlew :app:testDebugUnitTest -q", "BUILD SUCCESSFUL in 48s"),
            U("still jumps on device. fwiw the viewmodel builds the pager in a getter"),
            Read(
                "app/src/main/java/com/bank/app/tx/TransactionsViewModel.kt",
                "val pager get() = Pager(PagingConfig(pageSize = 30)) { repo.source() }",
            ),
            A(
                "That's the real problem: `val pager get() = Pager(...)` creates a new Pager on every access, and every recomposition calls it, "
                "so each page load starts a fresh PagingData from page one. The flow has to be created once in the ViewModel and `cachedIn(viewModelScope)`.",
                lesson=(
                    RC,
                    "creates a new Pager on every access, and every recomposition calls it",
                ),
            ),
            Edit("app/src/main/java/com/bank/app/tx/TransactionsViewModel.kt"),
            Bash(
                "./gradlew :app:connectedDebugAndroidTest -q 2>&1 | tail -1",
                "BUILD SUCCESSFUL in 2m 3s",
            ),
            A(
                "Scroll position is kept now in the instrumented test that scrolls past three pages."
            ),
            U("perfect, thanks"),
            A(
                "One thing for later: the instrumented paging tests only run on API 26+ emulators here, because the `androidx.paging:paging-testing` artifact in libs.versions.toml is pulled in only for that flavor, so CI's API 24 job silently skips them.",
                lesson=(N, "CI's API 24 job silently skips them"),
            ),
        ],
    ),
]
