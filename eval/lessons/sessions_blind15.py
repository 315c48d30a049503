# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind15" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND15: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind15-express-prisma-pool",
        "claude",
        "blind15",
        [
            U(
                "staging api keeps falling over under load, logs full of prisma timeouts. express 4 + prisma 5, postgres on rds. can you look"
            ),
            Bash(
                "kubectl logs deploy/orders-api --since=10m | grep -m3 -A2 PrismaClient",
                "PrismaClientInitializationError: \nInvalid `prisma.order.findMany()` invocation:\n\nTimed out fetching a new connection from the connection pool. More info: http://pris.ly/d/connection-pool (Current connection pool timeout: 10, connection limit: 5)\n    at Kn.handleRequestError (/app/node_modules/@prisma/client/runtime/library.js:121:7749)",
                failed=True,
            ),
            Bash(
                "grep -rn 'new PrismaClient' src/ | head",
                "src/routes/orders.ts:14:  const prisma = new PrismaClient();\nsrc/routes/customers.ts:9:  const prisma = new PrismaClient();\nsrc/routes/invoices.ts:11:  const prisma = new PrismaClient();\nsrc/db.ts:3:export const prisma = new PrismaClient();",
            ),
            Read(
                "src/routes/orders.ts",
                "router.get('/', async (req, res) => {\n  const prisma = new PrismaClient();\n  const orders = await prisma.order.findMany({ where: { shopId: req.shop.id } });\n  res.json(orders);\n});",
            ),
            A(
                "Found it. Three of the route handlers construct `new PrismaClient()` inside the request handler. Every PrismaClient owns its own connection pool "
                "(here 5 connections, num_cpus*2+1 on the pod), and none of them is ever `$disconnect()`ed, so each request opens a fresh pool and the old ones sit around "
                "until GC gets to them. Under load you pile up pools until RDS hits max_connections and the new clients time out waiting for a connection. "
                "`src/db.ts` already exports a singleton; I'll make the routes import that instead.",
                lesson=(RC, "Every PrismaClient owns its own connection pool"),
            ),
            Edit("src/routes/orders.ts"),
            Edit("src/routes/customers.ts"),
            Edit("src/routes/invoices.ts"),
            Bash(
                "npm test -- --silent 2>&1 | tail -4",
                "Test Suites: 14 passed, 14 total\nTests:       97 passed, 97 total\nSnapshots:   0 total\nTime:        8.311 s",
            ),
            Bash(
                "npx autocannon -c 100 -d 20 http://localhost:3000/orders -H 'x-shop: demo' | tail -3",
                "Req/Bytes counts sampled once per second.\n# of samples: 20\n\n41k requests in 20.03s, 19.8 MB read",
            ),
            A("All routes now share the one client from src/db.ts; 100 concurrent connections for 20s with no pool timeouts locally."),
            U(
                "great. while youre in there, the orders table needs a `fulfilledAt DateTime?` column. and fyi we never run migrate dev straight against the schema here, always `prisma migrate dev --create-only` first so someone can eyeball the sql before it gets applied",
                lesson=(R, "always `prisma migrate dev --create-only` first so someone can eyeball the sql"),
            ),
            Edit("prisma/schema.prisma"),
            Bash(
                "npx prisma migrate dev --create-only --name add_fulfilled_at",
                "Environment variables loaded from .env\nPrisma schema loaded from prisma/schema.prisma\nDatasource \"db\": PostgreSQL database \"orders\", schema \"public\" at \"localhost:5432\"\n\nPrisma Migrate created the following migration without applying it 20260312094411_add_fulfilled_at\n\nYou can now edit it and apply it by running prisma migrate dev.",
            ),
            Read(
                "prisma/migrations/20260312094411_add_fulfilled_at/migration.sql",
                '-- AlterTable\nALTER TABLE "Order" ADD COLUMN     "fulfilledAt" TIMESTAMP(3);',
            ),
            A(
                "Migration created but not applied: it's a single nullable `ALTER TABLE \"Order\" ADD COLUMN \"fulfilledAt\" TIMESTAMP(3)`, so no rewrite or lock beyond the brief ACCESS EXCLUSIVE. Have a look and run `npx prisma migrate dev` when you're happy."
            ),
            U("lgtm, ill apply it. thanks"),
        ],
    ),
    (
        "blind15-nextjs-app-router-dashboard",
        "claude",
        "blind15",
        [
            U(
                "next 15 app router. app/dashboard/page.tsx shows stale numbers, the revenue widget doesn't update until i redeploy. also i want a date range picker on it"
            ),
            Read(
                "app/dashboard/page.tsx",
                "import { RevenueCard } from './revenue-card'\n\nexport const dynamic = 'force-static'\n\nexport default async function Page() {\n  const res = await fetch(`${process.env.API_URL}/metrics/revenue`)\n  const data = await res.json()\n  return <RevenueCard data={data} />\n}",
            ),
            A(
                "The page is pinned with `export const dynamic = 'force-static'`, so it's rendered once at build time and the fetch result is baked into the HTML; that's why it only changes on redeploy. "
                "For the date picker I'll turn the page into a client component: add `'use client'` at the top, keep the range in useState, and fetch `/metrics/revenue?from=..&to=..` in a useEffect whenever the range changes.",
            ),
            Edit("app/dashboard/page.tsx"),
            U(
                "no dont make the page a client component, that pulls the whole thing into the bundle and we lose server fetching with the api key. put the range in searchParams and keep page.tsx a server component, only the picker itself should be 'use client'",
                lesson=(C, "only the picker itself should be 'use client'"),
            ),
            A(
                "Understood, reverting that. Plan: page.tsx stays async/server, reads `searchParams.from`/`to`, fetches with the key server-side; a small `DateRangePicker` client component calls `router.replace` with the new query string, which re-renders the server page."
            ),
            Edit("app/dashboard/page.tsx"),
            Edit("app/dashboard/date-range-picker.tsx"),
            Bash(
                "npx next build 2>&1 | grep -A4 'Route (app)'",
                "Route (app)                              Size     First Load JS\n┌ ○ /                                    1.2 kB          102 kB\n├ ƒ /dashboard                           2.9 kB          108 kB\n└ ○ /_not-found                          896 B           101 kB",
            ),
            A(
                "/dashboard is now ƒ (dynamic) and the client JS for it is 2.9 kB, just the picker. One thing to keep in mind: in Next 15 `searchParams` is a Promise in page props, you have to `await searchParams` before reading it; "
                "synchronous access still works for now but logs a warning and is going away, so I awaited it.",
                lesson=(N, "in Next 15 `searchParams` is a Promise in page props"),
            ),
            U("cool, ship it"),
            Bash("git add app/dashboard && git commit -qm 'dashboard: server-rendered revenue with date range' && git log --oneline -1", "8c41e2a dashboard: server-rendered revenue with date range"),
            A("Committed as 8c41e2a."),
        ],
    ),
    (
        "blind15-codex-fastapi-sqlalchemy-greenlet",
        "codex",
        "blind15",
        [
            U(
                "GET /projects/{id} 500s since i added the owner field to the response model. fastapi, sqlalchemy 2.0 async with asyncpg"
            ),
            Bash(
                "pytest tests/api/test_projects.py -x -q 2>&1 | tail -15",
                "E   sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called; can't call await_only() here. Was IO attempted in an unexpected place? (Background on this error at: https://sqlalche.me/e/20/xd2s)\n\n../.venv/lib/python3.12/site-packages/sqlalchemy/util/_concurrency_py3k.py:123: MissingGreenlet\n=========================== short test summary info ============================\nFAILED tests/api/test_projects.py::test_get_project - sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called; can't call await_only() here.\n1 failed, 3 passed in 1.12s",
                failed=True,
            ),
            Read(
                "app/routers/projects.py",
                "@router.get('/{project_id}', response_model=ProjectOut)\nasync def get_project(project_id: int, session: AsyncSession = Depends(get_session)):\n    project = await session.get(Project, project_id)\n    if project is None:\n        raise HTTPException(404)\n    return project",
            ),
            A(
                "`session.get(Project, ...)` loads only the project row. `Project.owner` is a default lazy=\"select\" relationship, so when FastAPI's response serialization touches `project.owner` "
                "SQLAlchemy tries to emit a lazy-load SELECT. In the async session that IO has to go through the greenlet bridge, but Pydantic is reading the attribute from plain sync code outside any await, so you get MissingGreenlet. "
                "The fix is to load the relationship eagerly in the query.",
                lesson=(RC, "Pydantic is reading the attribute from plain sync code outside any await"),
            ),
            A(
                "Two ways to go: (a) add `options(selectinload(Project.owner))` at this call site, or (b) set `lazy=\"raise\"` on relationships in the models so any accidental lazy load fails loudly in tests, and add selectinload wherever it's needed. "
                "I'd do (b): with an async session a lazy load is always a bug, and `raise` turns it into a clear error at the line that caused it instead of this greenlet message."
            ),
            U(
                "yeah do b, lazy=raise on all of them. makes sense",
                lesson=(D, "lazy=raise on all of them"),
            ),
            Edit("app/models.py"),
            Edit("app/routers/projects.py"),
            Bash(
                "pytest -q 2>&1 | tail -8",
                "FAILED tests/api/test_members.py::test_list_members - sqlalchemy.exc.InvalidRequestError: 'Member.user' is not available due to lazy='raise'\n1 failed, 41 passed in 3.02s",
                failed=True,
            ),
            A("As expected, lazy=raise found a second place: list_members reads member.user. Adding selectinload there too."),
            Edit("app/routers/members.py"),
            Bash("pytest -q 2>&1 | tail -1", "42 passed in 2.95s"),
            A("All 42 pass. Relationships in app/models.py are now lazy=\"raise\", with selectinload in get_project and list_members."),
        ],
    ),
    (
        "blind15-gemini-celery-duplicate-emails",
        "gemini",
        "blind15",
        [
            U(
                "customers are getting the weekly report email 2-3 times. celery 5.3 with redis broker. the send_report task runs in like 90 min for the big accounts"
            ),
            Read(
                "reports/celeryconfig.py",
                "broker_url = os.environ['REDIS_URL']\ntask_acks_late = True\nworker_prefetch_multiplier = 1\ntask_reject_on_worker_lost = True\n",
            ),
            Bash(
                "grep -c 'Received task: reports.tasks.send_report\\[7f3e' /var/log/celery/worker-*.log",
                "/var/log/celery/worker-1.log:1\n/var/log/celery/worker-2.log:1\n/var/log/celery/worker-3.log:1",
            ),
            A(
                "The same task id 7f3e… was received by three different workers, so this is broker redelivery, not the beat schedule firing twice. "
                "With the Redis transport, an unacked message is given back to the queue once the `visibility_timeout` expires, which defaults to 1 hour. "
                "Because `task_acks_late = True`, the message is only acked when the task finishes, and the big reports take ~90 minutes, so after 60 minutes Redis assumes the worker died and hands the same message to another worker (and then another).",
                lesson=(RC, "an unacked message is given back to the queue once the `visibility_timeout` expires"),
            ),
            A(
                "I'll raise `broker_transport_options = {'visibility_timeout': 4 * 3600}` so it comfortably exceeds the longest task. Should I also make the task itself guard against double sends?"
            ),
            U(
                "yes. and in general every task in this repo has to be safe to run twice, we already got burned by this with invoices. check a sent marker in the db before doing anything with side effects",
                lesson=(R, "every task in this repo has to be safe to run twice"),
            ),
            Edit("reports/celeryconfig.py"),
            Edit("reports/tasks.py"),
            Bash(
                "python -m pytest tests/test_tasks.py -q",
                "......\n6 passed in 0.84s",
            ),
            A(
                "Done. visibility_timeout is 4h, and send_report now does a `SELECT ... FOR UPDATE` on the report_run row and returns early if `sent_at` is already set, writing sent_at in the same transaction as queuing the email. Added a test that runs the task twice and asserts one email."
            ),
            U("thx"),
        ],
    ),
    (
        "blind15-cobra-config-flags",
        "claude",
        "blind15",
        [
            U(
                "working on `tidectl`, our go cli (cobra). i want a global --region flag and a config file ~/.tidectl.yaml that can set defaults. how should we do config"
            ),
            Read(
                "cmd/root.go",
                'var rootCmd = &cobra.Command{\n\tUse:   "tidectl",\n\tShort: "Manage tide deployments",\n}\n\nfunc Execute() {\n\tif err := rootCmd.Execute(); err != nil {\n\t\tos.Exit(1)\n\t}\n}',
            ),
            A(
                "Two realistic options:\n\n1. **viper**: the usual pairing with cobra. Binds flags, env vars and config file keys automatically. Downside: pulls in ~30 transitive deps (hcl, toml, afero, etc.), has global state, and the key-case-insensitivity has surprised people.\n"
                "2. **Plain flags + a small YAML loader**: read ~/.tidectl.yaml with gopkg.in/yaml.v3 into a struct in PersistentPreRunE, and only apply values for flags where `cmd.Flags().Changed(name)` is false. Around 40 lines, no globals.\n\n"
                "You have 3 settings (region, profile, output), so I'd go with option 2."
            ),
            U(
                "agree, skip viper. binary size matters for us too, ships in a tiny container",
                lesson=(D, "skip viper. binary size matters for us too"),
            ),
            Edit("cmd/root.go"),
            Edit("internal/config/config.go"),
            Edit("cmd/deploy.go"),
            Bash(
                "go build -o /tmp/tidectl . && /tmp/tidectl deploy --dry-run api",
                "region: <unset>\nError: --region is required (or set region in ~/.tidectl.yaml)",
                failed=True,
            ),
            Bash(
                "grep -n 'PersistentPreRun' cmd/*.go",
                "cmd/root.go:21:\tPersistentPreRunE: loadConfig,\ncmd/deploy.go:18:\tPersistentPreRunE: func(cmd *cobra.Command, args []string) error {",
            ),
            A(
                "The config wasn't being loaded for `deploy` because deploy.go has its own PersistentPreRunE (it checks the kube context). Cobra runs only the nearest PersistentPreRun hook: a child's hook replaces the parent's, it doesn't chain, "
                "unless you set `cobra.EnableTraverseRunHooks = true` (cobra ≥1.8). I've set that in main so both hooks run, root first.",
                lesson=(N, "a child's hook replaces the parent's, it doesn't chain"),
            ),
            Edit("main.go"),
            Bash(
                "go build -o /tmp/tidectl . && printf 'region: eu-west-1\\n' > /tmp/t.yaml && TIDECTL_CONFIG=/tmp/t.yaml /tmp/tidectl deploy --dry-run api && go test ./... 2>&1 | tail -3",
                "region: eu-west-1\nwould deploy api@a41c9e0 to eu-west-1 (dry run)\nok  \tgithub.com/tidehq/tidectl/cmd\t0.041s\nok  \tgithub.com/tidehq/tidectl/internal/config\t0.012s",
            ),
            A("Works: region comes from the config file, `--region` on the command line wins over it, tests pass. Binary is 9.8 MB stripped."),
            U("perfect ty"),
        ],
    ),
    (
        "blind15-codex-stm32-hal-delay-isr",
        "codex",
        "blind15",
        [
            U(
                "stm32f411 board freezes the first time i press the user button. exti callback toggles the led with a debounce. firmware in Core/Src, cubeide project"
            ),
            Read(
                "Core/Src/main.c",
                "void HAL_GPIO_EXTI_Callback(uint16_t GPIO_Pin)\n{\n  if (GPIO_Pin == B1_Pin) {\n    HAL_Delay(20);  /* debounce */\n    if (HAL_GPIO_ReadPin(B1_GPIO_Port, B1_Pin) == GPIO_PIN_RESET) {\n      HAL_GPIO_TogglePin(LD2_GPIO_Port, LD2_Pin);\n    }\n  }\n}",
            ),
            Bash(
                "grep -n 'TICK_INT_PRIORITY\\|EXTI15_10_IRQn' Core/Inc/stm32f4xx_hal_conf.h Core/Src/*.c",
                "Core/Inc/stm32f4xx_hal_conf.h:155:#define  TICK_INT_PRIORITY            15U\nCore/Src/main.c:241:  HAL_NVIC_SetPriority(EXTI15_10_IRQn, 0, 0);",
            ),
            A(
                "The callback runs inside the EXTI15_10 interrupt, which is at priority 0 (highest). HAL_Delay busy-waits on `uwTick`, and uwTick is only incremented by the SysTick handler, which is at TICK_INT_PRIORITY 15, the lowest. "
                "A lower-priority interrupt can't preempt a higher one, so SysTick never fires while you're inside the EXTI handler, uwTick never advances, and HAL_Delay spins forever.",
                lesson=(RC, "SysTick never fires while you're inside the EXTI handler, uwTick never advances"),
            ),
            A(
                "Fix: don't wait in the ISR at all. The callback records `HAL_GetTick()` into a volatile `btn_pressed_at` and sets a flag; the main loop checks `HAL_GetTick() - btn_pressed_at >= 20` and then reads the pin and toggles."
            ),
            Edit("Core/Src/main.c"),
            Bash(
                "make -C Debug all 2>&1 | tail -4",
                "arm-none-eabi-size   blinky_f411.elf \n   text\t   data\t    bss\t    dec\t    hex\tfilename\n   9412\t     20\t   1700\t  11132\t   2b7c\tblinky_f411.elf\nFinished building: default.size.stdout",
            ),
            Bash(
                "st-flash --reset write Debug/blinky_f411.bin 0x8000000 2>&1 | tail -2",
                "2026-03-12T10:14:02 INFO common.c: Flash written and verified! jolly good!\n2026-03-12T10:14:02 WARN common.c: NRST is not connected",
            ),
            U(
                "works, led toggles and no hang. ok rule for this codebase: nothing blocking inside HAL callbacks, no HAL_Delay, no polling uart transmit, just set a flag and get out",
                lesson=(R, "nothing blocking inside HAL callbacks, no HAL_Delay"),
            ),
            A("Got it. I grepped the other callbacks: HAL_UART_RxCpltCallback calls HAL_UART_Transmit with a 100 ms timeout. Want me to move that to the main loop too?"),
            U("yes pls"),
            Edit("Core/Src/uart_cli.c"),
            Bash("make -C Debug all 2>&1 | grep -E 'error|warning' | wc -l", "0"),
            A("Moved: the RX callback now just pushes the byte into the ring buffer and re-arms HAL_UART_Receive_IT; echo happens in `cli_poll()` from the main loop. Builds clean."),
        ],
    ),
    (
        "blind15-sklearn-churn-leakage",
        "claude",
        "blind15",
        [
            U(
                "notebooks/churn.ipynb got 0.97 roc auc which is way too good. can you turn it into a proper train script under src/churn/train.py"
            ),
            Read(
                "notebooks/churn_export.py",
                "df = pd.read_parquet('data/customers.parquet')\nX = df.drop(columns=['churned'])\ny = df['churned']\nX[num_cols] = StandardScaler().fit_transform(X[num_cols])\nX = pd.get_dummies(X, columns=cat_cols)\nX_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)\nclf = GradientBoostingClassifier().fit(X_train, y_train)",
            ),
            A(
                "I'll port this into src/churn/train.py as is: load, scale, one-hot, split, fit, then log the AUC and save the model with joblib. I'll add a `--seed` argument so the split is reproducible."
            ),
            Edit("src/churn/train.py"),
            U(
                "wait, you kept the scaler fit on the full df before the split. thats leakage, test stats leak into training. everything that learns from data has to go in a Pipeline and get fit on X_train only",
                lesson=(C, "everything that learns from data has to go in a Pipeline"),
            ),
            A(
                "Right, the scaler sees the test rows' mean/std. I'll rebuild it as `Pipeline([('prep', ColumnTransformer([...StandardScaler on num_cols, OneHotEncoder(handle_unknown='ignore') on cat_cols])), ('clf', ...)])` and split the raw frame first. "
                "While I'm looking: `days_since_last_login` is computed from the snapshot date in the export, which for churned customers is after they left. That column alone may explain the 0.97."
            ),
            Bash(
                "python -m src.churn.train --seed 7 2>&1 | tail -3",
                "fitting pipeline on 48210 rows\nROC AUC (holdout): 0.958\nsaved models/churn.joblib",
            ),
            Bash(
                "python -m src.churn.train --seed 7 --drop days_since_last_login 2>&1 | tail -2",
                "ROC AUC (holdout): 0.781\nsaved models/churn.joblib",
            ),
            A(
                "The Pipeline fix barely moved it (0.958); dropping days_since_last_login takes it to 0.781, which looks like a real model. Options for that feature: "
                "(a) drop it entirely, or (b) recompute it as of a fixed cutoff date per customer (e.g. 30 days before the label window) so it doesn't peek at the outcome. "
                "(b) keeps useful signal but needs the raw login events table; (a) is immediate."
            ),
            U(
                "do b, the login recency is the thing product cares about most. events are in data/logins.parquet",
            ),
            A(
                "OK, going with (b): features are computed as of `cutoff = label_start - 30 days`, so every input predates the churn window.",
                lesson=(D, "features are computed as of `cutoff = label_start - 30 days`"),
            ),
            Edit("src/churn/features.py"),
            Bash(
                "python -m src.churn.train --seed 7 2>&1 | tail -2 && pytest tests/churn -q | tail -1",
                "ROC AUC (holdout): 0.814\nsaved models/churn.joblib\n5 passed in 2.41s",
            ),
            A("0.814 with the cutoff-based recency feature, tests pass."),
        ],
    ),
    (
        "blind15-gemini-bigquery-sessions",
        "gemini",
        "blind15",
        [
            U(
                "need a query for bigquery: users who signed up in feb but never placed an order. tables analytics.signups and analytics.orders. orders is partitioned by order_date"
            ),
            A(
                "Here's a first version:\n\n```sql\nSELECT s.user_id\nFROM analytics.signups s\nWHERE s.signup_date BETWEEN '2026-02-01' AND '2026-02-28'\n  AND s.user_id NOT IN (SELECT user_id FROM analytics.orders)\n```\nI'll run it with a dry run first to see bytes."
            ),
            Bash(
                "bq query --use_legacy_sql=false --dry_run \"$(cat sql/feb_no_order.sql)\"",
                "Error in query string: Error processing job 'acme-analytics:bqjob_r5c1e2_0000018e3a': Cannot query over table 'acme-analytics.analytics.orders' without a filter over column(s) 'order_date' that can be used for partition elimination",
                failed=True,
            ),
            A(
                "The orders table was created with `require_partition_filter = true`, so any query on it, even inside a subquery, must filter on order_date or BigQuery refuses to run it. "
                "That's worth remembering for every query against orders here. I'll add `WHERE order_date >= '2026-02-01'` to the subquery, since an order can't predate the signup.",
                lesson=(N, "any query on it, even inside a subquery, must filter on order_date"),
            ),
            Edit("sql/feb_no_order.sql"),
            Bash(
                "bq query --use_legacy_sql=false --format=csv \"$(cat sql/feb_no_order.sql)\" | wc -l",
                "1",
            ),
            U("1 line = just the header?? there are definitely feb signups with no orders, marketing has a list of like 4000"),
            Bash(
                "bq query --use_legacy_sql=false --format=csv 'SELECT COUNTIF(user_id IS NULL) AS null_ids FROM analytics.orders WHERE order_date >= \"2026-02-01\"'",
                "null_ids\n312",
            ),
            A(
                "There are 312 orders with a NULL user_id (guest checkouts). That breaks `NOT IN`: `x NOT IN (a, b, NULL)` evaluates to `x <> a AND x <> b AND x <> NULL`, and `x <> NULL` is NULL, "
                "so the whole predicate is never TRUE and every row gets filtered out. I'll rewrite it with `NOT EXISTS`, which isn't affected by NULLs in the subquery.",
                lesson=(RC, "`x <> NULL` is NULL, so the whole predicate is never TRUE"),
            ),
            Edit("sql/feb_no_order.sql"),
            Bash(
                "bq query --use_legacy_sql=false --format=csv \"$(cat sql/feb_no_order.sql)\" | tail -n +2 | wc -l",
                "4127",
            ),
            A("4127 users now, close to marketing's list. Query is in sql/feb_no_order.sql."),
            U("nice one, ill send it over"),
        ],
    ),
    (
        "blind15-docker-multistage-musl",
        "claude",
        "blind15",
        [
            U(
                "trying to shrink our image. Dockerfile builds the rust service in rust:1.81 and i copied the binary into alpine:3.20 for the final stage. container exits immediately"
            ),
            Bash(
                "docker build -t ledger:slim . -q && docker run --rm ledger:slim",
                "sha256:4be0a1c9f27d\nexec /usr/local/bin/ledger: no such file or directory",
                failed=True,
            ),
            Bash(
                "docker run --rm --entrypoint sh ledger:slim -c 'ls -l /usr/local/bin/ledger; apk add -q file >/dev/null && file /usr/local/bin/ledger'",
                "-rwxr-xr-x    1 root     root      18342208 Mar 12 09:58 /usr/local/bin/ledger\n/usr/local/bin/ledger: ELF 64-bit LSB pie executable, x86-64, version 1 (SYSV), dynamically linked, interpreter /lib64/ld-linux-x86-64.so.2, for GNU/Linux 3.2.0, not stripped",
            ),
            A(
                "The file is there; the \"no such file or directory\" is about the *interpreter*. The binary was built in the Debian-based rust image against glibc, so it asks for `/lib64/ld-linux-x86-64.so.2`. "
                "Alpine uses musl and doesn't have that loader, so the kernel can't exec it and reports ENOENT for the missing interpreter.",
                lesson=(RC, "Alpine uses musl and doesn't have that loader"),
            ),
            A(
                "Ways out:\n- build for `x86_64-unknown-linux-musl` and keep alpine (watch out: musl's malloc is slow for this kind of allocation-heavy service, and openssl-sys needs vendoring),\n"
                "- keep glibc and use `gcr.io/distroless/cc-debian12` as the final stage: ~25 MB base, has glibc + libgcc, no shell, nonroot user available.\n\nI'd pick distroless/cc, no code changes and no allocator surprise."
            ),
            U(
                "distroless cc it is. we dont need a shell in prod anyway",
                lesson=(D, "distroless cc it is. we dont need a shell in prod"),
            ),
            Edit("Dockerfile"),
            Bash(
                "docker build -t ledger:slim . -q && docker run --rm ledger:slim --version && docker images ledger:slim --format '{{.Size}}'",
                "sha256:91d0ce33a4b8\nledger 0.14.2\n47.6MB",
            ),
            A("Runs now, 47.6 MB (was 1.42 GB with the rust base). Final stage uses `:nonroot` and copies only the binary and the migrations dir."),
            U("👍"),
        ],
    ),
    (
        "blind15-codex-gha-pr-target",
        "codex",
        "blind15",
        [
            U(
                "our preview-deploy workflow doesnt run for PRs from forks because secrets arent available. make it work for forks"
            ),
            Read(
                ".github/workflows/preview.yml",
                "on:\n  pull_request:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build\n      - run: npx wrangler pages deploy dist --branch pr-${{ github.event.number }}\n        env:\n          CLOUDFLARE_API_TOKEN: ${{ secrets.CF_TOKEN }}",
            ),
            A(
                "I'll switch the trigger to `pull_request_target`, which runs with the base repo's secrets, and check out `github.event.pull_request.head.sha` so the build uses the PR's code."
            ),
            Edit(".github/workflows/preview.yml"),
            U(
                "no, that's the classic pwn request. pull_request_target + checking out the fork's code means anyone can open a PR with a postinstall script and steal CF_TOKEN. split it: build in pull_request with no secrets, upload dist as an artifact, then a workflow_run job deploys the artifact",
                lesson=(C, "pull_request_target + checking out the fork's code means anyone can"),
            ),
            A(
                "You're right, npm ci alone runs arbitrary lifecycle scripts from the fork. Reverting and splitting into preview-build.yml (pull_request, read-only token, uploads dist + PR number) and preview-deploy.yml (workflow_run on completion, downloads the artifact, never checks out PR code)."
            ),
            Edit(".github/workflows/preview-build.yml"),
            Edit(".github/workflows/preview-deploy.yml"),
            Bash(
                "actionlint .github/workflows/preview-*.yml",
                ".github/workflows/preview-deploy.yml:14:15: the runner of \"actions/download-artifact@v4\" action is too old to run on GitHub Actions. update the action's version to fix this issue [action]\n     |\n  14 |       - uses: actions/download-artifact@v3",
                failed=True,
            ),
            U(
                "also every third party action gets pinned to a full commit sha with the version in a comment, not tags. dependabot bumps them",
                lesson=(R, "every third party action gets pinned to a full commit sha"),
            ),
            Edit(".github/workflows/preview-deploy.yml"),
            Edit(".github/workflows/preview-build.yml"),
            Bash("actionlint .github/workflows/*.yml && echo clean", "clean"),
            A(
                "actionlint is clean. All `uses:` lines are now `owner/action@<40-char sha> # vX.Y.Z`, including actions/checkout and download-artifact v4. The deploy job validates the PR number from the artifact is an integer before using it in the branch name."
            ),
        ],
    ),
    (
        "blind15-nginx-certbot-renewal",
        "claude",
        "blind15",
        [
            U(
                "set up https for status.kelpie.io on the new box. nginx already serving the static site on :80. ubuntu 24.04"
            ),
            Bash(
                "sudo certbot certonly --webroot -w /var/www/status -d status.kelpie.io --non-interactive --agree-tos -m ops@kelpie.io",
                "Saving debug log to /var/log/letsencrypt/letsencrypt.log\nRequesting a certificate for status.kelpie.io\n\nSuccessfully received certificate.\nCertificate is saved at: /etc/letsencrypt/live/status.kelpie.io/fullchain.pem\nKey is saved at:         /etc/letsencrypt/live/status.kelpie.io/privkey.pem\nThis certificate expires on 2026-06-10.\nCertbot has set up a scheduled task to automatically renew this certificate in the background.",
            ),
            Edit("/etc/nginx/sites-available/status"),
            Bash(
                "sudo nginx -t && sudo systemctl reload nginx && curl -sI https://status.kelpie.io | head -1",
                "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\nHTTP/2 200 ",
            ),
            A(
                "HTTPS is up with HTTP/2 and :80 redirects to https (except `/.well-known/acme-challenge/`, which still serves from the webroot so renewals keep working). "
                "One gotcha: because I used `certonly --webroot`, certbot only swaps the files on renewal and doesn't touch nginx, and nginx keeps the old cert in memory until it's reloaded. "
                "So the renewed cert wouldn't be served and the site would expire in ~90 days anyway. I've added a deploy hook at /etc/letsencrypt/renewal-hooks/deploy/reload-nginx.sh that runs `systemctl reload nginx`.",
                lesson=(N, "nginx keeps the old cert in memory until it's reloaded"),
            ),
            Bash(
                "sudo certbot renew --dry-run 2>&1 | tail -3",
                "Congratulations, all simulated renewals succeeded: \n  /etc/letsencrypt/live/status.kelpie.io/fullchain.pem (success)\n- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -",
            ),
            U("nice. can you also add hsts but short max-age for now, like a day"),
            Edit("/etc/nginx/sites-available/status"),
            Bash("sudo nginx -t 2>&1 | tail -1 && sudo systemctl reload nginx && curl -sI https://status.kelpie.io | grep -i strict", "nginx: configuration file /etc/nginx/nginx.conf test is successful\nstrict-transport-security: max-age=86400"),
            A("HSTS is on with max-age=86400, no includeSubDomains."),
        ],
    ),
    (
        "blind15-gemini-sidekiq-retries",
        "gemini",
        "blind15",
        [
            U(
                "the SyncShopifyOrdersJob in app/sidekiq is hammering shopify when their api is down, we got rate limited for an hour yesterday. rails 7.1, sidekiq 7"
            ),
            Read(
                "app/sidekiq/sync_shopify_orders_job.rb",
                "class SyncShopifyOrdersJob\n  include Sidekiq::Job\n  sidekiq_options queue: :integrations\n\n  def perform(shop_id)\n    shop = Shop.find(shop_id)\n    ShopifySync.new(shop).pull_orders!\n  end\nend",
            ),
            A(
                "It's enqueued every 5 minutes per shop by the scheduler and uses the default 25 retries with exponential backoff, so during an outage you get the fresh scheduled runs plus the retry queue all hitting Shopify. "
                "I'll set `sidekiq_options retry: 3` and add a `sidekiq_retry_in` that returns a longer wait when the error is `ShopifyAPI::Errors::HttpResponseError` with status 429, using the Retry-After header."
            ),
            Edit("app/sidekiq/sync_shopify_orders_job.rb"),
            U(
                "retries arent really the problem, the next scheduled run picks up where it left off anyway. just set retry: false on this one and put a circuit breaker around the shopify client, we have Stoplight in the gemfile already for the stripe stuff",
                lesson=(C, "just set retry: false on this one and put a circuit breaker"),
            ),
            A(
                "Makes sense, the scheduled run makes retries redundant here. Changing to `retry: false` and wrapping the client calls in a Stoplight light named `shopify:#{shop.id}` with threshold 3 and cool-off 300s, same data store (Redis) as the Stripe light."
            ),
            Edit("app/sidekiq/sync_shopify_orders_job.rb"),
            Edit("app/services/shopify_sync.rb"),
            Bash(
                "bundle exec rspec spec/sidekiq/sync_shopify_orders_job_spec.rb spec/services/shopify_sync_spec.rb",
                "........\n\nFinished in 1.37 seconds (files took 4.12 seconds to load)\n8 examples, 0 failures",
            ),
            A("8 examples, 0 failures. With the light red the job logs `shopify circuit open for shop 42` and returns without calling the API."),
            U(
                "cool. hm one more, the light name should be per store domain not shop id, we have a couple shops sharing a domain after the merge"
            ),
            Edit("app/services/shopify_sync.rb"),
            Bash("bundle exec rspec spec/services/shopify_sync_spec.rb | tail -1", "5 examples, 0 failures"),
            A("Switched the key to `shopify:#{shop.myshopify_domain}`."),
        ],
    ),
    (
        "blind15-wp-plugin-ajax-export",
        "claude",
        "blind15",
        [
            U(
                "in our wp plugin (wp-content/plugins/fernleaf-bookings) add an admin ajax action that exports bookings between two dates as csv"
            ),
            Read(
                "wp-content/plugins/fernleaf-bookings/includes/admin.php",
                "<?php\nadd_action( 'admin_menu', 'fernleaf_register_menu' );\n\nfunction fernleaf_register_menu() {\n\tadd_menu_page( 'Bookings', 'Bookings', 'manage_options', 'fernleaf-bookings', 'fernleaf_render_page' );\n}",
            ),
            A(
                "I'll add `wp_ajax_export_bookings` with a handler that reads `$_POST['from']` and `$_POST['to']` and runs:\n\n```php\n$rows = $wpdb->get_results( \"SELECT * FROM {$wpdb->prefix}fl_bookings WHERE starts_at BETWEEN '$from' AND '$to'\" );\n```\nthen streams it with fputcsv."
            ),
            Edit("wp-content/plugins/fernleaf-bookings/includes/export.php"),
            U(
                "no no, never interpolate request values into sql, that's injection waiting to happen. $wpdb->prepare with %s placeholders. also check_ajax_referer + current_user_can('manage_options') before anything",
                lesson=(C, "never interpolate request values into sql, that's injection waiting to happen"),
            ),
            A(
                "Fair, that was sloppy. Rewriting with `$wpdb->prepare( \"... BETWEEN %s AND %s\", $from, $to )`, dates validated with `DateTime::createFromFormat('Y-m-d', ...)`, plus a nonce check and capability check at the top."
            ),
            Edit("wp-content/plugins/fernleaf-bookings/includes/export.php"),
            U(
                "and the action name: everything we register, hooks, ajax actions, options, functions, gets the fernleaf_ prefix. export_bookings will collide with some other plugin eventually",
                lesson=(R, "gets the fernleaf_ prefix. export_bookings will collide"),
            ),
            A("Renamed to `wp_ajax_fernleaf_export_bookings` and the handler to `fernleaf_ajax_export_bookings`; the nonce action is `fernleaf_export`."),
            Edit("wp-content/plugins/fernleaf-bookings/includes/export.php"),
            Bash(
                "vendor/bin/phpcs --standard=WordPress wp-content/plugins/fernleaf-bookings/includes/export.php && vendor/bin/phpunit --filter Export",
                "\nTime: 00:00.412, Memory: 28.00 MB\n\nOK (4 tests, 11 assertions)",
            ),
            A("phpcs (WordPress standard) is clean and the 4 export tests pass, including one that posts `from=2026-01-01' OR 1=1 --` and expects a 400."),
            U("good"),
        ],
    ),
    (
        "blind15-codex-webflux-blocking-call",
        "codex",
        "blind15",
        [
            U(
                "spring boot 3.2 webflux service (inventory-svc). /stock/{sku} sometimes throws 500 under load, stack mentions block(). kotlin"
            ),
            Bash(
                "grep -m1 -A3 'IllegalStateException' logs/inventory-svc.log",
                "java.lang.IllegalStateException: block()/blockFirst()/blockLast() are blocking, which is not supported in thread reactor-http-nio-4\n\tat reactor.core.publisher.BlockingSingleSubscriber.blockingGet(BlockingSingleSubscriber.java:87)\n\tat reactor.core.publisher.Mono.block(Mono.java:1742)\n\tat io.kelp.inventory.StockService.reserved(StockService.kt:58)",
                failed=True,
            ),
            Read(
                "src/main/kotlin/io/kelp/inventory/StockService.kt",
                "fun stock(sku: String): Mono<Stock> =\n    repo.findBySku(sku).map { s ->\n        s.copy(available = s.onHand - reserved(sku))\n    }\n\nprivate fun reserved(sku: String): Int =\n    reservationsClient.get().uri(\"/reserved/{sku}\", sku).retrieve().bodyToMono<Int>().block() ?: 0",
            ),
            A(
                "`reserved()` calls `.block()` on a WebClient Mono from inside a `map` that runs on the Netty event loop thread. Reactor marks those threads as non-blocking and throws on block(). "
                "It only shows up \"sometimes\" because when the R2DBC result comes back on a different scheduler the map runs there instead. "
                "Worth remembering for this codebase: block() inside a map/flatMap can pass every unit test (they subscribe from the test thread) and only fail on the event loop in prod. "
                "I'll compose it instead: `repo.findBySku(sku).zipWith(reservedMono(sku)).map { (s, r) -> s.copy(available = s.onHand - r) }`.",
                lesson=(N, "block() inside a map/flatMap can pass every unit test"),
            ),
            Edit("src/main/kotlin/io/kelp/inventory/StockService.kt"),
            Bash(
                "./gradlew test --console=plain -q 2>&1 | tail -3",
                "StockServiceTest > stock subtracts reservations() PASSED\nStockControllerTest > returns 404 for unknown sku() PASSED\nBUILD SUCCESSFUL in 12s",
            ),
            U("ok. should we just switch the whole thing to coroutines? half the team finds the Mono chains unreadable"),
            A(
                "Spring 6 supports `suspend fun` controllers and `CoroutineCrudRepository` natively, and `awaitSingle()`/`awaitBody()` make these calls read top to bottom. Options:\n"
                "1. Big-bang convert all 14 endpoints now.\n2. New code and anything we touch goes coroutines; existing Mono code stays until it's edited. Both styles interoperate via `mono { }` and `awaitSingle()`.\n"
                "Option 2 carries no migration risk and gets you readable code where people are actually working."
            ),
            U(
                "go with 2. new stuff in coroutines, convert old endpoints when we touch them",
                lesson=(D, "new stuff in coroutines, convert old endpoints when we touch them"),
            ),
            A("OK. I'll leave StockService as the Mono version I just fixed since it's tested; next endpoint we add will be suspend-based."),
        ],
    ),
    (
        "blind15-gemini-compose-lazycolumn-keys",
        "gemini",
        "blind15",
        [
            U(
                "in the Compose app, swiping to delete a row in the TaskList removes the wrong item's checkbox state. ui/tasks/TaskList.kt"
            ),
            Read(
                "app/src/main/java/dev/moss/tasks/ui/tasks/TaskList.kt",
                "LazyColumn {\n    items(tasks) { task ->\n        var checked by remember { mutableStateOf(task.done) }\n        SwipeToDismissBox(state = rememberSwipeToDismissBoxState(...)) {\n            TaskRow(task, checked, onCheck = { checked = it; onToggle(task.id, it) })\n        }\n    }\n}",
            ),
            A(
                "The items have no `key`, so Compose identifies them by position. After removing row 2, the task that was row 3 moves into slot 2 and inherits slot 2's `remember`ed `checked` state. "
                "I'll add `key = { it.id }` to `items(...)` so the state follows the task instead of the index."
            ),
            Edit("app/src/main/java/dev/moss/tasks/ui/tasks/TaskList.kt"),
            U(
                "key is good but also kill the local remember for checked, dont keep a copy of state in the row. the ViewModel's StateFlow is the source of truth, row just renders task.done and sends an event up",
                lesson=(C, "dont keep a copy of state in the row"),
            ),
            A(
                "Agreed, the local copy can drift from the ViewModel anyway. TaskRow now takes `task.done` directly and `onCheck` calls `viewModel.onToggle(task.id, it)`; the list re-emits from the StateFlow."
            ),
            Edit("app/src/main/java/dev/moss/tasks/ui/tasks/TaskList.kt"),
            Edit("app/src/main/java/dev/moss/tasks/ui/tasks/TaskRow.kt"),
            Bash(
                "./gradlew :app:testDebugUnitTest :app:connectedDebugAndroidTest --console=plain 2>&1 | grep -E 'tests completed|BUILD'",
                "Starting 7 tests on Pixel_7_API_34(AVD) - 14\nFinished 7 tests on Pixel_7_API_34(AVD) - 14\nBUILD SUCCESSFUL in 1m 48s",
            ),
            A("Unit and instrumented tests pass, including a new one that deletes the middle of three checked/unchecked rows and asserts the remaining checkboxes."),
            U("ty"),
        ],
    ),
    (
        "blind15-rust-wasm-bindgen-init",
        "claude",
        "blind15",
        [
            U(
                "i have a rust crate `imgdiff` i want to call from the browser (plain vite app, no react). compare two ImageData and return a diff percent. set up wasm-bindgen"
            ),
            A(
                "wasm-pack has a few targets. `--target bundler` expects the bundler to handle the wasm import (vite needs vite-plugin-wasm + top-level-await for that), "
                "while `--target web` emits an ES module with an async `init()` that fetches the .wasm itself and works in vite with no plugins. I'd use `--target web` to keep the vite config untouched."
            ),
            U("ok target web"),
            Edit("imgdiff/Cargo.toml"),
            Edit("imgdiff/src/lib.rs"),
            Bash(
                "cd imgdiff && wasm-pack build --target web --release 2>&1 | tail -3",
                "[INFO]: Optimizing wasm binaries with `wasm-opt`...\n[INFO]: :-) Done in 7.82s\n[INFO]: :-) Your wasm pkg is ready to publish at /home/dev/app/imgdiff/pkg.",
            ),
            Edit("web/src/main.js"),
            Bash(
                "cd web && npx vitest run 2>&1 | tail -8",
                " FAIL  src/diff.test.js > diff_percent > identical images are 0%\nTypeError: Cannot read properties of undefined (reading '__wbindgen_add_to_stack_pointer')\n ❯ Module.diff_percent ../imgdiff/pkg/imgdiff.js:48:14\n ❯ src/diff.test.js:9:20\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)",
                failed=True,
            ),
            A(
                "That's because the module-level `wasm` variable in the generated glue is still undefined: with `--target web`, nothing is instantiated until you call the default export. You must `await init()` once before calling any exported function, "
                "otherwise the first call dereferences the missing instance. In the test (node, no fetch of a relative URL) I pass the bytes: `await init({ module_or_path: readFileSync('../imgdiff/pkg/imgdiff_bg.wasm') })`.",
                lesson=(N, "You must `await init()` once before calling any exported function"),
            ),
            Edit("web/src/diff.test.js"),
            Edit("web/src/main.js"),
            Bash("cd web && npx vitest run 2>&1 | tail -3", " Test Files  1 passed (1)\n      Tests  3 passed (3)\n   Duration  612ms"),
            U(
                "works. btw dont commit imgdiff/pkg, its a build artifact. the ci builds it. and always build with --release for anything that ends up in web/, debug wasm is like 10x slower and people benchmark it by accident",
                lesson=(R, "always build with --release for anything that ends up in web/"),
            ),
            Bash("echo 'imgdiff/pkg/' >> .gitignore && git status --short", " M .gitignore\n M web/src/main.js\n?? imgdiff/\n?? web/src/diff.test.js"),
            A("Added imgdiff/pkg/ to .gitignore; the npm script `build:wasm` runs `wasm-pack build --target web --release`."),
        ],
    ),
    (
        "blind15-codex-deno-fresh-islands-state",
        "codex",
        "blind15",
        [
            U(
                "fresh 2 site. i need a cart counter in the header (island) that updates when you click add to cart in the product island. they're separate islands, how do they share state"
            ),
            Read(
                "islands/AddToCart.tsx",
                "export default function AddToCart({ sku }: { sku: string }) {\n  return <button onClick={() => fetch(`/api/cart/${sku}`, { method: 'POST' })}>Add</button>;\n}",
            ),
            A(
                "A few ways:\n- A shared signal in a plain module (`utils/cart.ts` exporting `export const cartCount = signal(0)`). Islands are bundled together, so both import the same instance on the client.\n"
                "- Custom DOM events (`window.dispatchEvent(new CustomEvent('cart:add'))`) with a listener in the header.\n- A global store library.\n\n"
                "The shared signal is the idiomatic Fresh/Preact way and it's typed; events are stringly-typed and need cleanup. Caveat: the module is also evaluated on the server per process, so it must never hold per-user data server side; we only mutate it in event handlers on the client."
            ),
            U(
                "shared signal then. seed it from the cookie count on page load",
                lesson=(D, "shared signal then. seed it from the cookie count"),
            ),
            Edit("utils/cart.ts"),
            Edit("islands/AddToCart.tsx"),
            Edit("islands/CartBadge.tsx"),
            Edit("routes/_app.tsx"),
            Bash(
                "deno task check 2>&1 | tail -3 && deno test -A 2>&1 | tail -2",
                "Check file:///home/dev/app/main.ts\nok | 6 passed | 0 failed (1s)\n",
            ),
            A("Type check clean, 6 tests pass. CartBadge reads `cartCount.value`; AddToCart increments it after the POST returns 200."),
            U("nice, thanks"),
        ],
    ),
    (
        "blind15-svelte-tailwind-dark-mode",
        "claude",
        "blind15",
        [
            U(
                "sveltekit + tailwind 3. design wants dark mode. should it follow the OS or have a toggle"
            ),
            A(
                "Tailwind gives you two strategies:\n\n- `darkMode: 'media'` (default): `dark:` variants follow `prefers-color-scheme`. Zero JS, but users can't override it.\n"
                "- `darkMode: 'class'`: `dark:` applies when a `.dark` class is on an ancestor (usually `<html>`). You add a toggle, store the choice in localStorage, and fall back to the OS preference if nothing's stored.\n\n"
                "With 'class' you need a tiny inline script in app.html that sets the class before first paint, otherwise light-mode flashes on load. I'd still recommend 'class' since design asked for a toggle in the mockups."
            ),
            U(
                "yep class strategy with the toggle, OS pref as the default when nothing saved",
                lesson=(D, "class strategy with the toggle, OS pref as the default"),
            ),
            Edit("tailwind.config.js"),
            Edit("src/app.html"),
            Edit("src/lib/components/ThemeToggle.svelte"),
            Edit("src/routes/+layout.svelte"),
            Bash(
                "npm run check 2>&1 | tail -2 && npx playwright test theme 2>&1 | tail -2",
                "svelte-check found 0 errors and 0 warnings\n\n  2 passed (3.1s)",
            ),
            A("Done. The toggle cycles light/dark/system; the inline script in app.html applies the class before hydration so there's no flash. Playwright checks both the stored choice and the OS fallback."),
            U("can you make the toggle icon a moon/sun instead of the text"),
            Edit("src/lib/components/ThemeToggle.svelte"),
            Bash("npm run check 2>&1 | tail -1", "svelte-check found 0 errors and 0 warnings"),
            A("Swapped to inline SVG sun/moon icons with an aria-label that says the current mode."),
        ],
    ),
    (
        "blind15-smalltalk-conference",
        "claude",
        "blind15",
        [
            U("morning! just got back from FOSDEM, still recovering lol"),
            A("Welcome back! FOSDEM is a lot: thousands of people, tiny rooms, and the queue for the Rust devroom that starts forming at 8. Did you catch any talks you liked?"),
            U("the one about reproducible builds in nix was great. and the waffles. mostly the waffles tbh"),
            A("The waffles are a strong reason to go on their own. Reproducible builds talks tend to be good there; people show the weird sources of nondeterminism, like timestamps in zip files or locale-dependent sorting."),
            U("yeah exactly that, someone had a build that differed only by the order of files in a tarball. anyway. brain not fully booted yet, ill ping you when i have something real"),
            A("Sounds good, take your time. I'll be here when you've had coffee."),
        ],
    ),
    (
        "blind15-codex-smalltalk-keyboard",
        "codex",
        "blind15",
        [
            U("unrelated to work: thinking of getting a split keyboard. you have opinions?"),
            A(
                "I don't type, so no first-hand opinion, but the common trade-offs people mention: a split lets your shoulders stay open and wrists straight, and column-stagger layouts (Corne, Moonlander, Glove80) reduce finger travel. "
                "The cost is a week or two of relearning, especially for numbers and symbols if you go to fewer keys."
            ),
            U("the glove80 looks nice but its pricey. my coworker swears by the moonlander"),
            A("Both are popular. The Glove80 has a curved key well and is light to carry; the Moonlander is flat but tents and has a big community of ZSA layouts to copy. If you can borrow your coworker's for a day that's the cheapest experiment."),
            U("good idea, ill ask him. ok back to the grind"),
            A("Good luck with it!"),
        ],
    ),
    (
        "blind15-gemini-smalltalk-friday",
        "gemini",
        "blind15",
        [
            U("is it friday yet"),
            A("Unless the calendar changed overnight, it's Thursday. One more day."),
            U("ugh. long week. we had a 3am page tuesday and i never really recovered"),
            A("3am pages wreck the whole week's sleep. Hope you get a quiet on-call rotation next time and a slow Friday tomorrow."),
            U("haha thanks. ok im going to get lunch, talk later"),
            A("Enjoy lunch!"),
        ],
    ),
    (
        "blind15-unity-dots-speed-component",
        "claude",
        "blind15",
        [
            U(
                "unity 6, entities 1.3. add a MaxSpeed field to the BoidSettings component and clamp velocity with it in BoidMoveSystem. default 8"
            ),
            Read(
                "Assets/Scripts/Boids/BoidSettings.cs",
                "public struct BoidSettings : IComponentData\n{\n    public float NeighbourRadius;\n    public float SeparationWeight;\n    public float AlignmentWeight;\n}",
            ),
            Edit("Assets/Scripts/Boids/BoidSettings.cs"),
            Edit("Assets/Scripts/Boids/BoidSettingsAuthoring.cs"),
            Edit("Assets/Scripts/Boids/BoidMoveSystem.cs"),
            Bash(
                "/opt/unity/6000.0.32f1/Editor/Unity -batchmode -projectPath . -runTests -testPlatform EditMode -testResults /tmp/results.xml -logFile - 2>&1 | grep -E 'Test run|passed|failed' | tail -3",
                "Test run completed. Exiting with code 0 (Ok). Run completed.\n<test-run id=\"2\" testcasecount=\"12\" result=\"Passed\" total=\"12\" passed=\"12\" failed=\"0\"",
            ),
            A(
                "Added `MaxSpeed` (authoring default 8) and in BoidMoveSystem's job `velocity = math.normalizesafe(velocity) * math.min(math.length(velocity), settings.MaxSpeed)`. All 12 EditMode tests pass."
            ),
            U("thanks"),
        ],
    ),
    (
        "blind15-gemini-godot-csharp-rename",
        "gemini",
        "blind15",
        [
            U(
                "godot 4.3 c#. rename the `Hit` signal on Player to `Damaged` and pass the damage amount as an int. update whoever connects to it"
            ),
            Bash(
                "grep -rn 'Hit\\b\\|SignalName.Hit' --include=*.cs scripts/",
                "scripts/Player.cs:8:    [Signal] public delegate void HitEventHandler();\nscripts/Player.cs:41:        EmitSignal(SignalName.Hit);\nscripts/Hud.cs:17:        _player.Hit += OnPlayerHit;\nscripts/Hud.cs:30:    private void OnPlayerHit()",
            ),
            Edit("scripts/Player.cs"),
            Edit("scripts/Hud.cs"),
            Bash(
                "dotnet build 2>&1 | tail -3",
                "    0 Warning(s)\n    0 Error(s)\n\nTime Elapsed 00:00:06.21",
            ),
            A(
                "Renamed to `DamagedEventHandler(int amount)`, Player emits `EmitSignal(SignalName.Damaged, amount)`, and Hud subscribes with `_player.Damaged += OnPlayerDamaged` and shows the amount. Build is clean; no .tscn files connected the old signal in the editor."
            ),
            U("great"),
        ],
    ),
    (
        "blind15-go-cobra-version-cmd",
        "claude",
        "blind15",
        [
            U(
                "add a `version` subcommand to the `pgsnap` cli that prints version, commit and build date. we set them with -ldflags in the makefile already"
            ),
            Bash(
                "grep -n ldflags Makefile",
                "Makefile:4:LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(shell git rev-parse --short HEAD) -X main.date=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)",
            ),
            Read(
                "main.go",
                "package main\n\nimport \"github.com/pgsnap/pgsnap/cmd\"\n\nvar (\n\tversion = \"dev\"\n\tcommit  = \"none\"\n\tdate    = \"unknown\"\n)\n\nfunc main() {\n\tcmd.Execute()\n}",
            ),
            Edit("cmd/version.go"),
            Edit("main.go"),
            Bash(
                "make build VERSION=0.9.1 >/dev/null && ./bin/pgsnap version && go test ./... 2>&1 | tail -2",
                "pgsnap 0.9.1 (commit 3e1f0ad, built 2026-03-12T10:41:07Z)\nok  \tgithub.com/pgsnap/pgsnap/cmd\t0.018s\nok  \tgithub.com/pgsnap/pgsnap/internal/dump\t0.207s",
            ),
            A("Added `cmd/version.go`; main passes the three vars to `cmd.SetVersionInfo` before Execute. `pgsnap version` prints as above and tests pass."),
            U("👌"),
        ],
    ),
]
