# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind12" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND12: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind12-embassy-spawn-busy",
        "claude",
        "blind12",
        [
            U(
                "firmware panics right at boot on the nrf52840 since i added the second status led. probe-rs output below, src/main.rs\n\nERROR panicked at src/main.rs:41:37:\ncalled `Result::unwrap()` on an `Err` value: Busy"
            ),
            Read(
                "src/main.rs",
                "#[embassy_executor::task]\nasync fn blink(mut led: Output<'static>, period: Duration) {\n    loop {\n        led.toggle();\n        Timer::after(period).await;\n    }\n}\n\n#[embassy_executor::main]\nasync fn main(spawner: Spawner) {\n    let p = embassy_nrf::init(Default::default());\n    let led1 = Output::new(p.P0_13, Level::High, OutputDrive::Standard);\n    let led2 = Output::new(p.P0_14, Level::High, OutputDrive::Standard);\n    spawner.spawn(blink(led1, Duration::from_millis(500))).unwrap();\n    spawner.spawn(blink(led2, Duration::from_millis(120))).unwrap();\n    ...",
            ),
            A(
                "Line 41 is the second `spawner.spawn(blink(...))`. An `#[embassy_executor::task]` gets a statically allocated pool, and its size is 1 unless you say otherwise, "
                "so the first spawn takes the only slot and the second one returns `SpawnError::Busy`, which the unwrap turns into the panic. "
                "Nothing is wrong with the GPIO setup. The fix is `#[embassy_executor::task(pool_size = 2)]` on `blink` so two instances can run at once.",
                lesson=(RC, "its size is 1 unless you say otherwise, so the first spawn"),
            ),
            Edit("src/main.rs"),
            Bash(
                "cargo build --release 2>&1 | tail -2",
                "   Compiling blinky v0.1.0 (/home/dev/app)\n    Finished `release` profile [optimized + debuginfo] target(s) in 6.81s",
            ),
            Bash(
                "timeout 8 cargo run --release 2>&1 | tail -4",
                "      Erasing ✔ [00:00:00] [###############] 12.00 KiB/12.00 KiB @ 31.55 KiB/s\n  Programming ✔ [00:00:00] [###############] 12.00 KiB/12.00 KiB @ 20.14 KiB/s\n     Finished in 0.98s\nINFO  boot ok, 2 blinkers spawned",
            ),
            A("Flashed and it boots; both LEDs should be blinking at their own rates now."),
            U("yep both going. ty"),
        ],
    ),
    (
        "blind12-codex-ansible-nginx-role",
        "codex",
        "blind12",
        [
            U(
                "add a task to roles/nginx that drops our tls snippet into /etc/nginx/snippets/tls.conf and reloads nginx when it changes. template is already in roles/nginx/templates/tls.conf.j2"
            ),
            Read(
                "roles/nginx/tasks/main.yml",
                "- name: Install nginx\n  ansible.builtin.apt:\n    name: nginx\n    state: present\n\n- name: Site config\n  ansible.builtin.template:\n    src: site.conf.j2\n    dest: /etc/nginx/sites-available/app.conf\n    mode: \"0644\"\n  notify: Reload nginx\n",
            ),
            A(
                "I'll add a template task that notifies the existing handler, and since the config should be validated before reload I'll run `nginx -t` straight after in a shell task."
            ),
            Edit("roles/nginx/tasks/main.yml"),
            U(
                "no, dont add a separate shell task for nginx -t. that runs every time and shows as changed on every play. template has validate: for exactly this, use validate: nginx -t -c %s... actually for a snippet that wont work standalone so just drop the check, the handler does `nginx -t && systemctl reload` already",
                lesson=(C, "dont add a separate shell task for nginx -t. that runs every time"),
            ),
            A(
                "Understood, removing the shell task. The template task just notifies `Reload nginx`, whose handler already does the config test before reloading."
            ),
            Edit("roles/nginx/tasks/main.yml"),
            U(
                "also you wrote `template:` not `ansible.builtin.template:`. we use fully qualified module names everywhere, ansible-lint in CI fails on short names (fqcn rule)",
                lesson=(R, "we use fully qualified module names everywhere, ansible-lint in CI fails"),
            ),
            Edit("roles/nginx/tasks/main.yml"),
            Bash(
                "ansible-lint roles/nginx",
                "\nPassed: 0 failure(s), 0 warning(s) on 6 files. Last profile that met the validation criteria was 'production'.",
            ),
            Bash(
                "ansible-playbook -i inventories/staging site.yml --limit web --tags nginx --check --diff 2>&1 | tail -4",
                "PLAY RECAP *********************************************************************\nweb-01                     : ok=5    changed=1    unchanged=4    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0\nweb-02                     : ok=5    changed=1    unchanged=4    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0",
            ),
            A(
                "Lint passes with FQCNs, and the staging check run shows only the new snippet as changed on both web hosts (the handler would fire once per host)."
            ),
        ],
    ),
    (
        "blind12-ngrx-cart-feature",
        "claude",
        "blind12",
        [
            U(
                "starting the cart state for the storefront. angular 17, ngrx 17. we have nothing for cart yet. how should I structure it, old style reducer + separate selectors file like the products feature, or something newer?"
            ),
            Read(
                "src/app/products/state/products.selectors.ts",
                "export const selectProductsState = createFeatureSelector<ProductsState>('products');\nexport const selectAll = createSelector(selectProductsState, s => s.items);\nexport const selectLoading = createSelector(selectProductsState, s => s.loading);\n",
            ),
            A(
                "Two reasonable options:\n\n1. Copy the products pattern: `createReducer` + a hand-written `createFeatureSelector` and one `createSelector` per field. Consistent with what's there, but lots of boilerplate and the feature key string is duplicated between `StoreModule.forFeature` and the selector.\n"
                "2. `createFeature({ name: 'cart', reducer })`. It generates `selectCartState` and a selector per top-level field (`selectItems`, `selectStatus`...), and `extraSelectors` covers derived ones like the total. The name lives in one place and you register it with `provideState(cartFeature)`.\n\n"
                "I'd go with createFeature for cart, and leave products alone until someone touches it."
            ),
            U(
                "ok go with createFeature. we can migrate products later",
                lesson=(D, "go with createFeature. we can migrate products later"),
            ),
            Edit("src/app/cart/state/cart.actions.ts"),
            Edit("src/app/cart/state/cart.feature.ts"),
            Edit("src/app/app.config.ts"),
            A(
                "One thing to know with createFeature: the generated selectors only exist for top-level keys of the initial state, and the types come from the initial state object. "
                "If you declare something optional (`discountCode?: string`) and leave it out of `initialState`, there's no `selectDiscountCode` and the compiler complains about optional properties. "
                "So every field goes into initialState, using `null` instead of leaving it undefined.",
                lesson=(N, "every field goes into initialState, using `null` instead of leaving it undefined"),
            ),
            Bash(
                "npx ng test --watch=false --include src/app/cart 2>&1 | tail -3",
                "Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 7 of 7 SUCCESS (0.211 secs / 0.183 secs)\nTOTAL: 7 SUCCESS",
            ),
            U("nice"),
        ],
    ),
    (
        "blind12-gemini-symfony-migration",
        "gemini",
        "blind12",
        [
            U(
                "I need a `shipped_at` nullable datetime on Order. Entity is src/Entity/Order.php. Also I noticed Version20260212101500 has a typo in the index name, can you fix that while you're at it"
            ),
            Read(
                "src/Entity/Order.php",
                "#[ORM\\Entity(repositoryClass: OrderRepository::class)]\n#[ORM\\Table(name: '`order`')]\n#[ORM\\Index(name: 'idx_order_custmer', columns: ['customer_id'])]\nclass Order\n{\n    #[ORM\\Column(type: Types::DATETIME_IMMUTABLE)]\n    private \\DateTimeImmutable $createdAt;\n",
            ),
            A(
                "I'll add the `shippedAt` property with its getter/setter, fix the index name in the entity, and correct the same typo inside Version20260212101500 so both match."
            ),
            U(
                "wait, don't touch Version20260212101500. that one's been run on prod. we never edit a migration once it's merged, the fix goes into a new migration that renames the index. doctrine only tracks the version number, editing it does nothing on envs that already ran it",
                lesson=(R, "we never edit a migration once it's merged, the fix goes into a new migration"),
            ),
            A(
                "Got it, leaving the old migration as is. I'll change the entity (shippedAt + corrected index name) and let `make:migration` produce a new version with the column add and the index rename."
            ),
            Edit("src/Entity/Order.php"),
            Bash(
                "php bin/console make:migration --no-interaction",
                "\n Success! \n\n Next: Review the new migration \"migrations/Version20260301093012.php\"\n Then: Run the migration with php bin/console doctrine:migrations:migrate\n",
            ),
            Read(
                "migrations/Version20260301093012.php",
                "$this->addSql('ALTER TABLE `order` ADD shipped_at DATETIME DEFAULT NULL COMMENT \\'(DC2Type:datetime_immutable)\\'');\n$this->addSql('ALTER TABLE `order` RENAME INDEX idx_order_custmer TO idx_order_customer');",
            ),
            Bash(
                "php bin/console doctrine:migrations:migrate --no-interaction --env=test && php bin/phpunit tests/Entity 2>&1 | tail -2",
                "[notice] Migrating up to DoctrineMigrations\\Version20260301093012\n[notice] finished in 88.1ms, used 22M memory, 1 migrations executed, 2 sql queries\n\nOK (14 tests, 31 assertions)",
            ),
            A("New migration adds `shipped_at` and renames the index; tests pass. The old migration is untouched."),
        ],
    ),
    (
        "blind12-julia-world-age",
        "claude",
        "blind12",
        [
            U(
                "the plugin loader in src/Plugins.jl fails the first time a plugin is used but works if I call it again from the REPL. wtf"
            ),
            Bash(
                "julia --project -e 'using Pipeline; Pipeline.run_all(\"examples/demo.toml\")'",
                "ERROR: LoadError: MethodError: no method matching transform(::Pipeline.Plugins.Upcase, ::String)\nThe applicable method may be too new: running in world age 31592, while current world is 31604.\n\nClosest candidates are:\n  transform(::Pipeline.Plugins.Upcase, ::String) (method too new to be called from this world context.)\n   @ Pipeline.Plugins none:1\n\nStacktrace:\n [1] apply_step(step::Pipeline.Step, x::String)\n   @ Pipeline ~/app/src/Pipeline.jl:58\n [2] run_all(path::String)\n   @ Pipeline ~/app/src/Pipeline.jl:71",
                failed=True,
            ),
            Read(
                "src/Plugins.jl",
                "function load_plugin(path)\n    code = read(path, String)\n    Core.eval(@__MODULE__, Meta.parse(\"begin $(code) end\"))\nend\n",
            ),
            A(
                "This is Julia's world age mechanism. `run_all` starts running in a fixed world; `load_plugin` then `eval`s new `transform` methods, which bumps the global world counter. "
                "Code that was already executing keeps seeing the old method table until it returns to top level, so the call from inside `run_all` can't see the method the eval just defined. "
                "From the REPL the second call starts in the new world, which is why it works then. "
                "The fix is to call through `Base.invokelatest(transform, plugin, x)` at the one place where plugins get invoked (or load all plugins before entering `run_all`).",
                lesson=(RC, "Code that was already executing keeps seeing the old method table"),
            ),
            U("invokelatest is fine, it's called like 10 times per run, perf doesnt matter"),
            Edit("src/Pipeline.jl"),
            Bash(
                "julia --project -e 'using Pipeline; Pipeline.run_all(\"examples/demo.toml\")' && julia --project -e 'using Pkg; Pkg.test()' 2>&1 | tail -4",
                "demo: 3 steps ok\nTest Summary: | Pass  Total  Time\nPipeline      |   22     22  1.9s\n     Testing Pipeline tests passed ",
            ),
            A("Works on the first call now and the test suite passes."),
        ],
    ),
    (
        "blind12-codex-dune-warnings",
        "codex",
        "blind12",
        [
            U("dune build is failing after I added lib/parser/lexer_utils.ml, can you get it compiling"),
            Bash(
                "dune build 2>&1 | head -12",
                "File \"lib/parser/lexer_utils.ml\", line 14, characters 6-11:\n14 |   let width = String.length s in\n           ^^^^^\nError (warning 26 [unused-var]): unused variable width.\nFile \"lib/parser/lexer_utils.ml\", line 3, characters 0-9:\n3 | open Printf\n    ^^^^^^^^^\nError (warning 33 [unused-open]): unused open Printf.",
                failed=True,
            ),
            A(
                "These are warnings that dune's dev profile turns into errors. The quickest fix is to relax them for the library: I'll add `(flags (:standard -w -26-33))` to lib/parser/dune."
            ),
            Edit("lib/parser/dune"),
            U(
                "nope, revert that. we don't silence warnings in dune files, fix the code. the dev profile is strict on purpose, the unused var is probably a bug anyway",
                lesson=(C, "we don't silence warnings in dune files, fix the code"),
            ),
            A("Reverting the dune change and fixing the source instead."),
            Edit("lib/parser/dune"),
            Read(
                "lib/parser/lexer_utils.ml",
                "open Printf\n\nlet pad_right s n =\n  let width = String.length s in\n  s ^ String.make n ' '\n",
            ),
            A(
                "You were right, it's a bug: `pad_right` was meant to pad up to width `n` but pads by `n` regardless of the string length. It should be `String.make (max 0 (n - width)) ' '`. The Printf open is just unused, removing it."
            ),
            Edit("lib/parser/lexer_utils.ml"),
            Bash(
                "dune build 2>&1 && dune test 2>&1 | tail -3",
                "Testing `parser'.\n  [OK]          pad           0   pad_right short string.\n  [OK]          pad           1   pad_right long string.\nTest Successful in 0.003s. 9 tests run.",
            ),
            U(
                "👍 and when you add tests for that module put them in test/parser/ with alcotest, not inline ppx_expect. we only use expect tests for the pretty printer output",
                lesson=(R, "put them in test/parser/ with alcotest, not inline ppx_expect"),
            ),
            A("Noted. The two pad tests I added are already alcotest cases in test/parser/test_lexer_utils.ml."),
        ],
    ),
    (
        "blind12-snowflake-merge-dupes",
        "claude",
        "blind12",
        [
            U(
                "the nightly merge into ANALYTICS.CORE.CUSTOMERS started failing last night. sql is in models/merge_customers.sql. error from the task history:\n\n100090 (42P18): Duplicate row detected during DML action\nRow Values: [\"C-10442\", \"ana@...\", ...]"
            ),
            Read(
                "models/merge_customers.sql",
                "MERGE INTO analytics.core.customers t\nUSING raw.crm.customer_updates s\n  ON t.customer_id = s.customer_id\nWHEN MATCHED THEN UPDATE SET email = s.email, tier = s.tier, updated_at = s.updated_at\nWHEN NOT MATCHED THEN INSERT (customer_id, email, tier, updated_at)\n  VALUES (s.customer_id, s.email, s.tier, s.updated_at);",
            ),
            Bash(
                "snowsql -c prod -q \"select customer_id, count(*) from raw.crm.customer_updates group by 1 having count(*) > 1 limit 5\" -o output_format=psql",
                "+-------------+----------+\n| CUSTOMER_ID | COUNT(*) |\n|-------------+----------|\n| C-10442     |        2 |\n| C-20917     |        3 |\n+-------------+----------+\n2 Row(s) produced.",
            ),
            A(
                "The source has several rows for the same customer_id (the CRM export now emits one row per change instead of one per customer). "
                "When more than one source row matches a target row, which one wins the UPDATE is nondeterministic, and Snowflake refuses it because ERROR_ON_NONDETERMINISTIC_MERGE is true by default. That's the 100090 error.\n\n"
                "Options:\n- set ERROR_ON_NONDETERMINISTIC_MERGE = FALSE: it stops failing but picks an arbitrary row, so a stale email could win.\n"
                "- dedupe the source in the USING clause, keeping the latest row per customer with `QUALIFY ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY updated_at DESC) = 1`.\n\n"
                "I'd dedupe; it's deterministic and keeps the parameter at its safe default.",
                lesson=(RC, "more than one source row matches a target row, which one wins"),
            ),
            U(
                "yes dedupe with qualify. do not touch the session param, i don't want silent garbage",
                lesson=(D, "dedupe with qualify. do not touch the session param"),
            ),
            Edit("models/merge_customers.sql"),
            Bash(
                "snowsql -c prod_dev -f models/merge_customers.sql -o output_format=psql 2>&1 | tail -6",
                "+-------------------------+------------------------+\n| number of rows inserted | number of rows updated |\n|-------------------------+------------------------|\n|                     112 |                   4081 |\n+-------------------------+------------------------+\n1 Row(s) produced. Time Elapsed: 3.412s",
            ),
            A("Ran against the dev clone: 112 inserts, 4081 updates, no error. Want me to resume the task in prod?"),
            U("yeah resume it"),
            Bash(
                "snowsql -c prod -q \"alter task analytics.core.nightly_merge_customers resume\"",
                "+--------------------------------------+\n| status                               |\n|--------------------------------------|\n| Statement executed successfully.     |\n+--------------------------------------+",
            ),
        ],
    ),
    (
        "blind12-gemini-airflow-dag",
        "gemini",
        "blind12",
        [
            U(
                "new DAG: every day at 02:30 UTC pull yesterday's orders export from the sftp and load to s3://acme-raw/orders/. put it in dags/orders_export.py. look at dags/invoices_export.py for the pattern"
            ),
            Read(
                "dags/invoices_export.py",
                "with DAG(\n    dag_id=\"invoices_export\",\n    schedule=\"0 3 * * *\",\n    start_date=pendulum.datetime(2025, 6, 1, tz=\"UTC\"),\n    catchup=False,\n    default_args=DEFAULT_ARGS,\n) as dag:\n",
            ),
            A(
                "I'll write it the same way with `schedule=\"30 2 * * *\"`, `start_date=datetime.now() - timedelta(days=1)` so it starts right away, and an SFTPToS3Operator using `{{ ds }}` in the remote path."
            ),
            Edit("dags/orders_export.py"),
            U(
                "no dynamic start_date. datetime.now() changes every time the scheduler parses the file, so the dag never gets a stable first interval. fixed pendulum date like the invoices one",
                lesson=(C, "no dynamic start_date. datetime.now() changes every time the scheduler parses the file"),
            ),
            A("Switched to `start_date=pendulum.datetime(2026, 3, 1, tz=\"UTC\")`."),
            Edit("dags/orders_export.py"),
            Bash(
                "airflow dags test orders_export 2026-03-01 2>&1 | tail -4",
                "[2026-03-02T02:31:04.118+0000] {sftp_to_s3.py:84} INFO - Uploading /exports/orders_2026-03-01.csv to s3://acme-raw/orders/2026-03-01.csv\n[2026-03-02T02:31:05.502+0000] {taskinstance.py:1400} INFO - Marking task as SUCCESS. dag_id=orders_export, task_id=upload_orders, execution_date=20260301T023000, start_date=20260302T023103, end_date=20260302T023105\n[2026-03-02T02:31:05.530+0000] {dagrun.py:823} INFO - DagRun Finished: dag_id=orders_export, execution_date=2026-03-01T02:30:00+00:00, run_id=manual__2026-03-01T00:00:00+00:00, state=success",
            ),
            A(
                "Test run succeeded. Heads-up: I kept `catchup=False` like invoices. If you ever flip it to True or move start_date further back, the scheduler will create a run for every missed day since start_date the moment the DAG is unpaused, and the sftp only keeps 14 days of exports, so older runs would fail. "
                "Also `{{ ds }}` is the start of the data interval, so the 02:30 run on the 2nd loads the file for the 1st, which is the 'yesterday' you want.",
                lesson=(N, "the scheduler will create a run for every missed day since start_date"),
            ),
            U("perfect thanks"),
        ],
    ),
    (
        "blind12-postgis-dwithin-degrees",
        "claude",
        "blind12",
        [
            U(
                "\"stores within 5km\" endpoint returns literally every store in the country. query is in app/queries/nearby.sql. stores.geom is geometry(Point, 4326)"
            ),
            Read(
                "app/queries/nearby.sql",
                "SELECT id, name\nFROM stores\nWHERE ST_DWithin(geom, ST_SetSRID(ST_MakePoint(:lon, :lat), 4326), :radius_m)\nORDER BY geom <-> ST_SetSRID(ST_MakePoint(:lon, :lat), 4326)\nLIMIT 50;",
            ),
            A(
                "For `geometry` columns ST_DWithin measures distance in the units of the SRID, and 4326 is lon/lat, so the unit is degrees. "
                "`:radius_m` = 5000 is being read as 5000 degrees, which covers the whole planet. That's why everything comes back.\n\n"
                "Two ways to fix it:\n"
                "1. Cast to geography: `ST_DWithin(geom::geography, point::geography, 5000)` measures in metres on the spheroid. Needs a functional index on `(geom::geography)` to stay fast.\n"
                "2. Transform to a projected metric SRID (e.g. a UTM zone) on both sides. Fast, but the country spans two UTM zones so distances near the edge would be off.\n\n"
                "I'd do geography with an expression index.",
                lesson=(RC, "ST_DWithin measures distance in the units of the SRID, and 4326 is lon/lat"),
            ),
            U(
                "geography + index, agreed. we're not reprojecting anything, the mobile app sends wgs84",
                lesson=(D, "geography + index, agreed. we're not reprojecting anything"),
            ),
            Edit("app/queries/nearby.sql"),
            Edit("migrations/0042_stores_geog_idx.sql"),
            Bash(
                "psql \"$DATABASE_URL\" -f migrations/0042_stores_geog_idx.sql && psql \"$DATABASE_URL\" -c \"EXPLAIN ANALYZE SELECT id FROM stores WHERE ST_DWithin(geom::geography, ST_SetSRID(ST_MakePoint(13.40, 52.52), 4326)::geography, 5000)\" | tail -4",
                "CREATE INDEX\n   Index Cond: ((geom)::geography && _st_expand('0101000020E6100000CDCCCCCCCCCC2A405C8FC2F5285C4A40'::geography, '5000'::double precision))\n   Rows Removed by Filter: 3\n Planning Time: 0.412 ms\n Execution Time: 0.901 ms",
            ),
            Bash("pytest tests/test_nearby.py -q 2>&1 | tail -1", "4 passed in 1.02s"),
            A("Index is used (0.9 ms) and the nearby tests pass; Berlin now returns 23 stores instead of 4,100."),
        ],
    ),
    (
        "blind12-codex-apollo-dataloader",
        "codex",
        "blind12",
        [
            U(
                "users are seeing other people's stale avatar after changing it, until the pod restarts. apollo server 4. loaders are in src/loaders.ts"
            ),
            Read(
                "src/loaders.ts",
                "import DataLoader from 'dataloader';\nimport { db } from './db';\n\nexport const userLoader = new DataLoader(async (ids: readonly string[]) => {\n  const rows = await db.user.findMany({ where: { id: { in: [...ids] } } });\n  return ids.map(id => rows.find(r => r.id === id) ?? null);\n});\n",
            ),
            A(
                "`userLoader` is created once at module load, so its memoization cache lives for the life of the process and is shared by every request. After the first load of a user, every later request gets the cached object, including the old avatar URL, until the pod restarts. "
                "I'll turn it into a factory `createLoaders()` and build fresh loaders in the Apollo `context` function for each request."
            ),
            Edit("src/loaders.ts"),
            Edit("src/server.ts"),
            Edit("src/resolvers/user.ts"),
            Bash(
                "npm test -- --silent 2>&1 | tail -5",
                "PASS src/__tests__/user.test.ts\nPASS src/__tests__/avatar.test.ts\n\nTest Suites: 2 passed, 2 total\nTests:       11 passed, 11 total",
            ),
            U(
                "good. write that down somewhere for the team: dataloaders are always per request, created in context(), never module level singletons. we've been bitten by this twice now",
                lesson=(R, "dataloaders are always per request, created in context(), never module level singletons"),
            ),
            A("Added a short section to docs/graphql.md and a comment above `createLoaders()` pointing to it."),
            Edit("docs/graphql.md"),
        ],
    ),
    (
        "blind12-kafka-streams-dedup-window",
        "claude",
        "blind12",
        [
            U(
                "payments-enricher needs to drop duplicate payment events (same payment_id) that arrive within 10 min of each other. kafka streams 3.6, topology in src/main/java/com/acme/enricher/Topology.java. how would you do it"
            ),
            Read(
                "src/main/java/com/acme/enricher/Topology.java",
                "KStream<String, Payment> payments = builder.stream(\"payments.raw\", Consumed.with(Serdes.String(), paymentSerde));\npayments\n    .mapValues(enricher::enrich)\n    .to(\"payments.enriched\", Produced.with(Serdes.String(), enrichedSerde));",
            ),
            A(
                "Two ways:\n\n"
                "1. `groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(10min)).reduce(...)` then suppress and emit. Works, but it repartitions if the key isn't payment_id and with suppression you'd hold every event back until the window closes, so 10 minutes of added latency.\n"
                "2. A `processValues`/`transform` step with a `WindowStore<String, Long>` keyed by payment_id: on each event look up the id in the last 10 minutes, forward it if absent, put it in the store. First occurrence goes out immediately, duplicates are dropped, the store's retention cleans up old ids.\n\n"
                "The records are already keyed by payment_id, so I'd go with the window store processor.",
            ),
            U(
                "window store processor. latency matters more here than elegance",
                lesson=(D, "window store processor. latency matters more here than elegance"),
            ),
            Edit("src/main/java/com/acme/enricher/DedupProcessor.java"),
            Edit("src/main/java/com/acme/enricher/Topology.java"),
            Bash(
                "./mvnw -q test -Dtest=TopologyTest 2>&1 | tail -6",
                "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1.874 s - in com.acme.enricher.TopologyTest\n[INFO] \n[INFO] Results:\n[INFO] \n[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
            ),
            A(
                "Tests pass with the TopologyTestDriver, including a duplicate at 9:59 (dropped) and one at 10:01 (forwarded).\n\n"
                "Before deploying, one thing to be aware of: I named the store explicitly (`payments-dedup-store`), because its changelog topic is `<application.id>-payments-dedup-store-changelog`. "
                "If the store were left unnamed, Streams generates a name with an index like KSTREAM-TRANSFORMVALUES-0000000003, and adding any operator earlier in the topology later would shift that number, so on the next deploy it would come up with a new, empty store and the dedup history would be lost. "
                "Also the changelog topic gets created on first start, so the ACLs for the app's principal need create rights on that prefix in prod.",
                lesson=(N, "adding any operator earlier in the topology later would shift that number"),
            ),
            U("good call. I'll ask platform for the acl"),
        ],
    ),
    (
        "blind12-gemini-nuxt-usefetch",
        "gemini",
        "blind12",
        [
            U(
                "on pages/orders/[id].vue the 'Refresh status' button should refetch the order. make it work"
            ),
            Read(
                "pages/orders/[id].vue",
                "<script setup lang=\"ts\">\nconst route = useRoute()\nconst { data: order } = await useFetch(`/api/orders/${route.params.id}`)\n</script>\n<template>\n  <OrderCard :order=\"order\" />\n  <button>Refresh status</button>\n</template>",
            ),
            A(
                "I'll add an `onRefresh` handler that calls `useFetch` again for the same URL and assigns the result to `order`, and wire it to the button's `@click`."
            ),
            Edit("pages/orders/[id].vue"),
            U(
                "no, useFetch is a composable, it's meant for setup only. calling it in a click handler is wrong. use the refresh() that the first useFetch already gives you",
                lesson=(C, "useFetch is a composable, it's meant for setup only"),
            ),
            A(
                "Right, calling it from the handler creates a new async-data entry each click instead of updating the existing one. I've changed it to destructure `refresh` (and `status`) from the existing `useFetch` and bound the button to `refresh()`, disabled while `status === 'pending'`."
            ),
            Edit("pages/orders/[id].vue"),
            Bash(
                "npx vitest run tests/pages/order-detail.spec.ts 2>&1 | tail -4",
                " ✓ tests/pages/order-detail.spec.ts (3 tests) 412ms\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)",
            ),
            U("ty"),
        ],
    ),
    (
        "blind12-deno-deploy-ratelimit",
        "claude",
        "blind12",
        [
            U(
                "our deno deploy api (main.ts) needs a simple rate limit on POST /subscribe, like 5 per ip per minute. right now it's getting spammed"
            ),
            Read(
                "main.ts",
                "Deno.serve(async (req, info) => {\n  const url = new URL(req.url);\n  if (req.method === \"POST\" && url.pathname === \"/subscribe\") {\n    return await subscribe(req);\n  }\n  return new Response(\"not found\", { status: 404 });\n});",
            ),
            A(
                "An in-memory Map wouldn't work on Deploy: each region (and each isolate within a region) has its own memory and isolates get recycled whenever, so counts would be per-isolate and reset randomly. The counter has to live in shared storage.\n\n"
                "Options: Deno KV, which is built into Deploy, no extra account, strongly consistent by default, with atomic ops. Or Upstash Redis, which has a ready-made ratelimit library, but it's another service and another secret.\n\n"
                "I'd use KV: an atomic check-and-increment on `[\"rl\", ip, minuteBucket]` with `expireIn: 60_000`.",
                lesson=(N, "An in-memory Map wouldn't work on Deploy: each region"),
            ),
            U(
                "kv. no new vendors for this",
                lesson=(D, "kv. no new vendors for this"),
            ),
            Edit("main.ts"),
            Edit("ratelimit.ts"),
            Bash(
                "deno test --allow-net --unstable-kv ratelimit_test.ts 2>&1 | tail -4",
                "running 3 tests from ./ratelimit_test.ts\nallows 5 requests per minute ... ok (18ms)\nblocks the 6th request ... ok (4ms)\nresets in the next bucket ... ok (5ms)\n\nok | 3 passed | 0 failed (61ms)",
            ),
            A(
                "Tests pass locally (that uses a local sqlite-backed KV). The client IP comes from `info.remoteAddr.hostname`, which on Deploy is the real client address, so nothing to parse from headers. Over the limit it returns 429 with a Retry-After header."
            ),
            U("ship it"),
            Bash(
                "deployctl deploy --project=newsletter-api --prod main.ts 2>&1 | tail -3",
                "✔ Deploying to project newsletter-api.\n✔ Deployment complete.\n\nView at:\n - https://newsletter-api.deno.dev",
            ),
        ],
    ),
    (
        "blind12-tauri-fs-capability",
        "claude",
        "blind12",
        [
            U(
                "tauri 2 app. the \"open recent notes\" feature doesn't do anything, devtools console shows an error. frontend is src/lib/recent.ts"
            ),
            Bash(
                "grep -rn 'readTextFile' src/lib/recent.ts; cat src-tauri/capabilities/default.json",
                "src/lib/recent.ts:12:  const raw = await readTextFile('recent.json', { baseDir: BaseDirectory.AppData });\n{\n  \"identifier\": \"default\",\n  \"windows\": [\"main\"],\n  \"permissions\": [\"core:default\", \"dialog:default\", \"fs:default\"]\n}",
            ),
            U(
                "console says: Unhandled Promise Rejection: fs.read_text_file not allowed. Permissions associated with this command: fs:allow-app-read, fs:allow-app-read-recursive, fs:allow-read-text-file"
            ),
            A(
                "In Tauri 2 every plugin command goes through the capability ACL. `fs:default` only grants reading the app's own resource directories and some metadata; it doesn't include reading files under AppData, so the IPC layer rejects `read_text_file` before the plugin runs. "
                "In v1 the allowlist in tauri.conf.json did this job, which is why code ported from v1 looks right but fails at runtime. "
                "The fix is to add a read permission scoped to AppData to the capability.",
                lesson=(RC, "`fs:default` only grants reading the app's own resource directories"),
            ),
            A("I'll add `fs:allow-read-text-file` plus `fs:scope` allowing `$APPDATA/**`."),
            Edit("src-tauri/capabilities/default.json"),
            U(
                "make it `$APPDATA/recent.json` not `**`. always scope fs permissions to the exact files we need, never wildcards over a whole dir. security review flagged that on the last release",
                lesson=(R, "always scope fs permissions to the exact files we need, never wildcards"),
            ),
            Edit("src-tauri/capabilities/default.json"),
            Bash(
                "cd src-tauri && cargo tauri build --debug 2>&1 | tail -3",
                "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 38.20s\n       Built application at: /home/dev/app/src-tauri/target/debug/notes\n        Info Target: x64",
            ),
            A("Builds; the scope is now exactly `$APPDATA/recent.json`. Recent notes should load when you open the menu."),
            U("works"),
        ],
    ),
    (
        "blind12-gemini-homeassistant-hallway",
        "gemini",
        "blind12",
        [
            U(
                "hallway light: turn on when motion, off 3 min after motion stops, but only after sunset. config is in packages/hallway.yaml. HA 2024.12"
            ),
            A(
                "I'll create two automations in packages/hallway.yaml: `hallway_motion_on` triggered by binary_sensor.hallway_motion going to on with a sun condition, and `hallway_motion_off` triggered when it's been off for 3 minutes."
            ),
            Edit("packages/hallway.yaml"),
            U(
                "make it one automation with trigger ids and a choose block. two automations for on/off is how we ended up with the kitchen light fighting itself last year",
                lesson=(C, "make it one automation with trigger ids and a choose block"),
            ),
            A("Merged into a single automation with triggers `id: motion` and `id: clear` and a `choose` on `trigger.id`."),
            Edit("packages/hallway.yaml"),
            U(
                "and mode: restart. every motion automation in this house runs in restart mode, otherwise a second motion event while the delay is running gets dropped",
                lesson=(R, "every motion automation in this house runs in restart mode"),
            ),
            Edit("packages/hallway.yaml"),
            Bash(
                "docker exec homeassistant hass --script check_config -c /config 2>&1 | tail -3",
                "Testing configuration at /config\nSuccessful config",
            ),
            A(
                "Config check passes. One caveat with the `after: sunset` condition: the sun condition's `after: sunset` alone is only true between sunset and midnight, because the day resets at 00:00. "
                "So at 2am the light wouldn't come on. I used `condition: state` on `sun.sun` being `below_horizon` instead, which covers the whole night.",
                lesson=(N, "`after: sunset` alone is only true between sunset and midnight"),
            ),
            U("oh nice catch, didnt know that"),
            Bash(
                "curl -s -X POST -H \"Authorization: Bearer $HA_TOKEN\" http://ha.local:8123/api/services/automation/reload",
                "[]",
            ),
            A("Reloaded automations; `automation.hallway_light` is live."),
        ],
    ),
    (
        "blind12-codex-fabric-mixin-remap",
        "codex",
        "blind12",
        [
            U(
                "my fabric mod works in dev (runClient) but crashes on startup in the real launcher with the built jar. 1.20.4. crash report in crash-2026-03-03.txt"
            ),
            Bash(
                "grep -A6 'Mixin apply' run-prod/crash-reports/crash-2026-03-03.txt",
                "Caused by: org.spongepowered.asm.mixin.transformer.throwables.MixinTransformerError: An unexpected critical error was encountered\nCaused by: org.spongepowered.asm.mixin.injection.throwables.InvalidInjectionException: Critical injection failure: @Inject annotation on onTick could not find any targets matching 'tick' in net.minecraft.class_1657. Using refmap NONE [PREINJECT Applicator Phase -> cozyhud.mixins.json:PlayerTickMixin from mod cozyhud -> Prepare Injections ->  -> handler$zza000$cozyhud$onTick(Lorg/spongepowered/asm/mixin/injection/callback/CallbackInfo;)V -> Parse]",
                failed=True,
            ),
            Read(
                "src/main/resources/cozyhud.mixins.json",
                "{\n  \"required\": true,\n  \"package\": \"dev.mira.cozyhud.mixin\",\n  \"compatibilityLevel\": \"JAVA_17\",\n  \"client\": [\"PlayerTickMixin\"],\n  \"injectors\": { \"defaultRequire\": 1 }\n}",
            ),
            A(
                "The key part is `Using refmap NONE`. In dev, Minecraft runs with Yarn names, so the target `tick` exists in `PlayerEntity`. The built jar runs against intermediary names (`class_1657`, `method_5773`), "
                "and Mixin translates `tick` to the intermediary name through the refmap that Loom generates at build time. Your mixins.json has no `\"refmap\"` entry, so Mixin loads no refmap, looks for a literal `tick` method in the obfuscated class and fails. "
                "Adding `\"refmap\": \"cozyhud-refmap.json\"` (Loom's default name is `<archivesBaseName>-refmap.json`) fixes it.",
                lesson=(RC, "Your mixins.json has no `\"refmap\"` entry, so Mixin loads no refmap"),
            ),
            Edit("src/main/resources/cozyhud.mixins.json"),
            Bash(
                "./gradlew build -q && unzip -l build/libs/cozyhud-0.3.1.jar | grep refmap",
                "     1184  03-03-2026 10:12   cozyhud-refmap.json",
            ),
            U("tested in prism, loads fine now. thanks!!"),
        ],
    ),
    (
        "blind12-cuda-histogram",
        "claude",
        "blind12",
        [
            U(
                "histogram kernel in kernels/hist.cu is way slower than expected on the A100, like 9ms for 64M uint8 values. can you speed it up"
            ),
            Read(
                "kernels/hist.cu",
                "__global__ void hist256(const uint8_t* in, size_t n, unsigned int* bins) {\n  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;\n  size_t stride = (size_t)gridDim.x * blockDim.x;\n  for (; i < n; i += stride)\n    atomicAdd(&bins[in[i]], 1u);\n}",
            ),
            A(
                "Every element does an atomicAdd on one of 256 global counters, so all 100k+ threads contend on the same few cache lines in L2. "
                "I'll privatize: each block keeps a 256-bin histogram in shared memory, threads atomicAdd into that, and at the end each block adds its 256 bins into global. I'll also read 16 bytes per thread per iteration with `uint4` loads."
            ),
            Edit("kernels/hist.cu"),
            Bash(
                "make bench && ./build/bench_hist --n 67108864",
                "nvcc -O3 -arch=sm_80 -o build/bench_hist bench/bench_hist.cu kernels/hist.cu\nhist256  n=67108864  time=0.41 ms  bandwidth=163.7 GB/s  check=OK",
            ),
            A("9 ms → 0.41 ms, result matches the CPU reference. I could go further with warp-level aggregation (`__match_any_sync`) to cut shared-memory atomics on skewed data."),
            U(
                "no, stop there. this has to run on the jetson boxes too which are sm_53, __match_any_sync needs sm_70+. keep it at shared mem atomics",
                lesson=(C, "this has to run on the jetson boxes too which are sm_53"),
            ),
            A(
                "Ok, leaving it as is. One thing I did and want to flag: the `uint4` vectorized loads assume `in` is 16-byte aligned and that the tail is handled separately. "
                "cudaMalloc pointers are always aligned, but if someone passes `in + offset` for a sub-range the loads become misaligned and the kernel dies with `misaligned address`. "
                "I added a scalar path for unaligned pointers and for the last n % 16 elements.",
                lesson=(N, "the `uint4` vectorized loads assume `in` is 16-byte aligned"),
            ),
            Bash(
                "make test 2>&1 | tail -2",
                "[==========] 8 tests from 2 test suites ran. (412 ms total)\n[  PASSED  ] 8 tests.",
            ),
            U("great"),
        ],
    ),
    (
        "blind12-gemini-temporal-nondeterminism",
        "gemini",
        "blind12",
        [
            U(
                "after yesterday's deploy a bunch of OnboardingWorkflow executions are stuck, worker logs are spammed with this:\n\n2026/03/04 09:12:44 ERROR Workflow panic Namespace default TaskQueue onboarding WorkerID 1@worker-7b9c@ WorkflowType OnboardingWorkflow WorkflowID onb-88213 RunID 6f1c3e... Attempt 1 Error [TMPRL1100] nondeterministic workflow: history event is ActivityTaskScheduled: (ActivityId:5, ActivityType:(Name:SendWelcomeEmail)), replay command is ScheduleActivityTask: (ActivityId:5, ActivityType:(Name:CreateCRMContact))"
            ),
            Bash(
                "git diff HEAD~1 -- internal/workflows/onboarding.go",
                "@@ -41,10 +41,15 @@ func OnboardingWorkflow(ctx workflow.Context, in OnboardingInput) error {\n \tif err := workflow.ExecuteActivity(ctx, a.ProvisionAccount, in).Get(ctx, nil); err != nil {\n \t\treturn err\n \t}\n+\tif err := workflow.ExecuteActivity(ctx, a.CreateCRMContact, in).Get(ctx, nil); err != nil {\n+\t\treturn err\n+\t}\n \tif err := workflow.ExecuteActivity(ctx, a.SendWelcomeEmail, in).Get(ctx, nil); err != nil {",
            ),
            A(
                "The deploy inserted a new activity (CreateCRMContact) before SendWelcomeEmail. Executions that were already past ProvisionAccount have SendWelcomeEmail recorded in their history. "
                "When the new worker replays them, the code now schedules CreateCRMContact at that position, so the command doesn't match the recorded event and the SDK stops with the nondeterminism error. New executions are fine; only in-flight ones break. "
                "The fix is to gate the new step with `workflow.GetVersion(ctx, \"add-crm-contact\", workflow.DefaultVersion, 1)` and only run CreateCRMContact when it returns 1, so old histories replay the old path.",
                lesson=(RC, "so the command doesn't match the recorded event"),
            ),
            U(
                "cant we just terminate the stuck ones and restart them on the new code? GetVersion branches stay in the code forever"
            ),
            A(
                "We could, but a restarted execution begins from the top: ProvisionAccount would run again and the users who already got a welcome email would get a second one, and anything idempotency-sensitive in provisioning would need checking. "
                "GetVersion lets the ~340 in-flight executions finish on the old path untouched. The branch can be deleted once no open execution is on DefaultVersion anymore (onboarding runs finish within 30 days), so it isn't forever."
            ),
            U(
                "fine, GetVersion. resending welcome mails is worse than a bit of branch cruft",
                lesson=(D, "GetVersion. resending welcome mails is worse than a bit of branch cruft"),
            ),
            Edit("internal/workflows/onboarding.go"),
            Bash(
                "go test ./internal/workflows/... -run TestReplay 2>&1 | tail -3",
                "=== RUN   TestReplayOnboardingHistories\n--- PASS: TestReplayOnboardingHistories (0.31s)\nok  \tgithub.com/acme/onboarding/internal/workflows\t0.612s",
            ),
            A(
                "The replay test now passes against the three histories in testdata/ (I exported onb-88213 with `temporal workflow show --output json` and added it too). Once deployed, the stuck workflows should pick up on their next workflow task retry."
            ),
            U("deploying. thx"),
        ],
    ),
    (
        "blind12-elasticsearch-add-field",
        "claude",
        "blind12",
        [
            U(
                "add a `brand` keyword field to the products index mapping in search/mappings/products.json and to the indexer in search/indexer.py. there's a test for the doc builder"
            ),
            Read(
                "search/mappings/products.json",
                "{\n  \"mappings\": {\n    \"dynamic\": \"strict\",\n    \"properties\": {\n      \"sku\": { \"type\": \"keyword\" },\n      \"title\": { \"type\": \"text\", \"analyzer\": \"english\" },\n      \"price\": { \"type\": \"scaled_float\", \"scaling_factor\": 100 },\n      \"category\": { \"type\": \"keyword\" }\n    }\n  }\n}",
            ),
            Read(
                "search/indexer.py",
                "def build_doc(p: Product) -> dict:\n    return {\n        \"sku\": p.sku,\n        \"title\": p.title,\n        \"price\": float(p.price),\n        \"category\": p.category.slug,\n    }\n",
            ),
            A("I'll add `brand` as a keyword next to category in the mapping and set it from `p.brand.name` in build_doc (None when the product has no brand)."),
            Edit("search/mappings/products.json"),
            Edit("search/indexer.py"),
            Edit("tests/search/test_indexer.py"),
            Bash(
                "pytest tests/search -q 2>&1 | tail -2",
                "........                                                                 [100%]\n8 passed in 0.37s",
            ),
            Bash(
                "curl -s -X PUT localhost:9200/products_dev/_mapping -H 'Content-Type: application/json' -d '{\"properties\":{\"brand\":{\"type\":\"keyword\"}}}'",
                "{\"acknowledged\":true}",
            ),
            A("Mapping and indexer updated, tests pass, and the field is added to the local products_dev index."),
            U("thanks"),
        ],
    ),
    (
        "blind12-codex-hugo-shortcode",
        "codex",
        "blind12",
        [
            U(
                "write a `callout` shortcode for the docs site: takes a type (note/warning/tip) and wraps the inner markdown in a div with class callout callout-TYPE. use it in content/docs/install.md where it says 'NOTE:'"
            ),
            Read(
                "content/docs/install.md",
                "## Requirements\n\nNOTE: the CLI needs Go 1.22 or newer.\n\n## Install\n",
            ),
            Edit("layouts/shortcodes/callout.html"),
            Edit("content/docs/install.md"),
            Edit("assets/scss/_callout.scss"),
            Bash(
                "hugo --gc --minify 2>&1 | tail -8",
                "                   | EN   \n-------------------+------\n  Pages            |  64  \n  Paginator pages  |   0  \n  Non-page files   |  12  \n  Static files     |  31  \n  Processed images |   4  \nTotal in 1203 ms",
            ),
            Bash(
                "grep -o '<div class=\"callout callout-note\">.\\{0,60\\}' public/docs/install/index.html",
                "<div class=\"callout callout-note\"><p>the CLI needs Go 1.22 or newer.</p>",
            ),
            A(
                "Added layouts/shortcodes/callout.html (`{{< callout note >}}...{{< /callout >}}`, inner content rendered with `.Inner | markdownify`), styles for the three types, and replaced the NOTE line in install.md. Site builds and the callout renders."
            ),
            U("cool, looks good in the preview"),
        ],
    ),
    (
        "blind12-gemini-nvim-plugin-keymap",
        "gemini",
        "blind12",
        [
            U(
                "in my neovim plugin (lua/scratchpad/init.lua) add a `toggle()` function that opens the scratch float if closed and closes it if open, and map <leader>s to it in setup()"
            ),
            Read(
                "lua/scratchpad/init.lua",
                "local M = {}\nlocal state = { win = nil, buf = nil }\n\nfunction M.open()\n  if not state.buf or not vim.api.nvim_buf_is_valid(state.buf) then\n    state.buf = vim.api.nvim_create_buf(false, true)\n  end\n  state.win = vim.api.nvim_open_win(state.buf, true, M.float_opts())\nend\n\nfunction M.setup(opts)\n  M.opts = vim.tbl_deep_extend('force', M.defaults, opts or {})\nend\n\nreturn M",
            ),
            A("I'll add `M.close()` and `M.toggle()` checking `nvim_win_is_valid(state.win)`, and register the keymap in setup with a desc."),
            Edit("lua/scratchpad/init.lua"),
            Bash(
                "nvim --headless -c 'PlenaryBustedDirectory tests/ {minimal_init = \"tests/minimal_init.lua\"}' 2>&1 | tail -5",
                "Testing: \t/home/dev/app/tests/scratchpad_spec.lua\nSuccess: \tscratchpad toggle opens the float\nSuccess: \tscratchpad toggle closes an open float\nSuccess: \tscratchpad reuses the buffer\n\nSuccess: \t3\nFailed : \t0\nErrors : \t0",
            ),
            A("Done, toggle works and the three specs pass."),
            U("sweet"),
        ],
    ),
    (
        "blind12-smalltalk-coffee",
        "claude",
        "blind12",
        [
            U("morning. before we start anything, do you have a take on pour over vs aeropress"),
            A(
                "No taste buds here, so take this as secondhand: people who like a clean, bright cup tend to prefer pour over, and the aeropress is more forgiving and easier to travel with. Plenty of folks keep both and pick by mood."
            ),
            U("lol diplomatic. I'm an aeropress person, inverted method"),
            A("The inverted method has a loyal following. Just keep a hand on it when you flip it. Let me know when you want to get going on something."),
            U("will do, just waiting for standup to end"),
        ],
    ),
    (
        "blind12-smalltalk-conference",
        "claude",
        "blind12",
        [
            U("back from the conference. my brain is fried, 3 days of talks"),
            A("Welcome back. Three days of talks is a lot. Anything good, or mostly hallway conversations?"),
            U("the hallway stuff was better honestly. one talk on local-first apps was cool"),
            A("That's usually how it goes; the hallway track is where most of the value is. Local-first has been getting a lot of attention lately. If you want to dig into any of it later, I'm around."),
            U("maybe next week. today I'm just answering emails"),
            A("Sounds like a plan. Good luck with the inbox."),
        ],
    ),
    (
        "blind12-codex-smalltalk-weekend",
        "codex",
        "blind12",
        [
            U("hey, you there? nothing to do really, just waiting for a build on another machine"),
            A("I'm here. Long build?"),
            U("yeah ~40 min. full rebuild of the android app. thinking about what to cook tonight instead"),
            A("Forty minutes is just enough to plan dinner. Something you can mostly leave alone, like a tray bake or a slow-cooked chili, would leave you free to check on the build."),
            U("chili it is. ok build's at 80%, brb"),
        ],
    ),
]
