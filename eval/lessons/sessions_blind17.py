# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind17" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND17: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind17-vue-pinia-store-reset",
        "claude",
        "blind17",
        [
            U(
                "when someone logs out and another user logs in on the same tab, the cart still shows the old user's items. vue 3 + pinia, stores in src/stores"
            ),
            Read(
                "src/stores/cart.ts",
                "export const useCartStore = defineStore('cart', () => {\n  const items = ref<CartItem[]>([])\n  const total = computed(() => items.value.reduce((s, i) => s + i.price * i.qty, 0))\n  function add(item: CartItem) { items.value.push(item) }\n  return { items, total, add }\n})\n",
            ),
            Read(
                "src/composables/useAuth.ts",
                "export async function logout() {\n  await api.post('/auth/logout')\n  useUserStore().$reset()\n  router.push('/login')\n}\n",
            ),
            A(
                "Logout only resets the user store, the cart store keeps its state for the lifetime of the app. I'll call `useCartStore().$reset()` in logout too, right after the user store reset."
            ),
            Edit("src/composables/useAuth.ts"),
            Bash(
                "npx vitest run src/composables 2>&1 | tail -12",
                " FAIL  src/composables/useAuth.spec.ts > logout > clears the cart\nError: 🍍: Store \"cart\" is built using the setup syntax and does not implement $reset().\n ❯ Proxy.$reset node_modules/pinia/dist/pinia.mjs:1386:19\n ❯ Module.logout src/composables/useAuth.ts:4:18\n\n Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)",
                failed=True,
            ),
            A(
                "Right, the cart is a setup store and `$reset()` only exists for option stores; setup stores don't know their initial state. I can add a `$reset` to the cart store by hand:\n\n```ts\nfunction $reset() { items.value = [] }\n```\n\nand return it, then logout's call works.",
                lesson=(N, "`$reset()` only exists for option stores; setup stores don't know their initial state"),
            ),
            U(
                "no dont patch stores one by one, we have like 14 of them and someone will forget. there's a pinia plugin in src/plugins/pinia-reset.ts already (it's just not registered) that snapshots state on creation. register it and have logout call resetAllStores()",
                lesson=(C, "dont patch stores one by one, we have like 14 of them"),
            ),
            Read(
                "src/plugins/pinia-reset.ts",
                "const resetters = new Set<() => void>()\nexport function piniaReset({ store }: PiniaPluginContext) {\n  const initial = structuredClone(toRaw(store.$state))\n  const reset = () => store.$patch(s => Object.assign(s, structuredClone(initial)))\n  store.$reset = reset\n  resetters.add(reset)\n}\nexport const resetAllStores = () => resetters.forEach(r => r())\n",
            ),
            A(
                "That plugin overrides `$reset` on every store and keeps a registry, so it covers setup stores too. I'll register it with `pinia.use(piniaReset)` in main.ts and swap logout to `resetAllStores()`."
            ),
            Edit("src/main.ts"),
            Edit("src/composables/useAuth.ts"),
            Edit("src/composables/useAuth.spec.ts"),
            Bash(
                "npx vitest run src/composables 2>&1 | tail -4",
                " ✓ src/composables/useAuth.spec.ts (4 tests) 22ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)",
            ),
            A(
                "Passing. The spec now creates its pinia with `createPinia().use(piniaReset)` so it mirrors main.ts; without that the test pinia wouldn't have the plugin."
            ),
            U("cool thx"),
        ],
    ),
    (
        "blind17-nest-typeorm-migration-entities",
        "claude",
        "blind17",
        [
            U(
                "I added a `archivedAt` column to Invoice entity, ran migration:generate, and it says no changes. nest 10, typeorm 0.3"
            ),
            Bash(
                "npm run migration:generate -- src/migrations/AddInvoiceArchivedAt",
                "> billing-api@1.8.0 migration:generate\n> typeorm-ts-node-commonjs migration:generate -d src/data-source.ts src/migrations/AddInvoiceArchivedAt\n\nNo changes in database schema were found - cannot generate a migration. To create a new empty migration use \"typeorm migration:create\" command",
                failed=True,
            ),
            Read(
                "src/data-source.ts",
                "export default new DataSource({\n  type: 'postgres',\n  url: process.env.DATABASE_URL,\n  entities: ['dist/**/*.entity.js'],\n  migrations: ['dist/migrations/*.js'],\n})\n",
            ),
            A(
                "The CLI data source points `entities` at `dist/**/*.entity.js`, but you're running the CLI through ts-node against the TypeScript sources. So it loads whatever compiled entities were last built into dist, and that build predates your `archivedAt` column. The schema diff compares the DB with the old Invoice and finds nothing.\n\nTwo ways out: run `npm run build` before every generate, or point the CLI data source at `src/**/*.entity.ts` and `src/migrations/*.ts`. Since this file is only used by the CLI (the app itself uses TypeOrmModule.forRootAsync with autoLoadEntities), I'd point it at src.",
                lesson=(RC, "it loads whatever compiled entities were last built into dist"),
            ),
            U("yeah point it at src"),
            Edit("src/data-source.ts"),
            Bash(
                "npm run migration:generate -- src/migrations/AddInvoiceArchivedAt 2>&1 | tail -2",
                "Migration /home/dev/app/src/migrations/1741012345678-AddInvoiceArchivedAt.ts has been generated successfully.",
            ),
            Read(
                "src/migrations/1741012345678-AddInvoiceArchivedAt.ts",
                'await queryRunner.query(`ALTER TABLE "invoice" ADD "archivedAt" TIMESTAMP WITH TIME ZONE`);\n...\nawait queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "archivedAt"`);',
            ),
            A("Generated, it adds a nullable timestamptz and drops it on down. Want me to run it against the local db?"),
            U(
                "not yet. also fyi, we never set synchronize: true anywhere, not even in dev or e2e — every schema change goes through a generated migration that gets reviewed. i saw it creep into a test module last month",
                lesson=(R, "we never set synchronize: true anywhere, not even in dev or e2e"),
            ),
            Bash(
                "grep -rn 'synchronize' src test",
                "test/utils/test-db.module.ts:9:      synchronize: true,",
            ),
            A(
                "Found one in test/utils/test-db.module.ts. I'll replace it with `migrationsRun: true` so the e2e database is built from the same migrations as prod."
            ),
            Edit("test/utils/test-db.module.ts"),
            Bash(
                "npm run test:e2e 2>&1 | tail -5",
                "Test Suites: 7 passed, 7 total\nTests:       58 passed, 58 total\nSnapshots:   0 total\nTime:        19.442 s\nRan all test suites.",
            ),
            A("e2e suite is green with migrations instead of synchronize."),
        ],
    ),
    (
        "blind17-codex-poetry-optional-extras",
        "codex",
        "blind17",
        [
            U(
                "our lib `tidewater` needs an optional parquet backend (pyarrow). should it be an extra or a dependency group? users pip install it, we use poetry 1.8 for dev"
            ),
            A(
                "For something end users opt into, it has to be an extra. Poetry dependency groups (`[tool.poetry.group.x.dependencies]`) are a dev-side concept: they're not written into the wheel metadata at all, so `pip install tidewater[parquet]` could never see them. Extras become `Provides-Extra` / `Requires-Dist: pyarrow ; extra == \"parquet\"` in the built package.\n\nSo: declare pyarrow as `optional = true` in `[tool.poetry.dependencies]`, list it under `[tool.poetry.extras] parquet = [\"pyarrow\"]`, and keep using groups only for test/lint/docs tooling. OK?",
                lesson=(D, "For something end users opt into, it has to be an extra"),
            ),
            U("ok go"),
            Edit("pyproject.toml"),
            Bash(
                "poetry lock --no-update && poetry build 2>&1 | tail -3",
                "Resolving dependencies...\nWriting lock file\nBuilding tidewater (0.9.0)\n  - Building sdist\n  - Built tidewater-0.9.0.tar.gz\n  - Building wheel\n  - Built tidewater-0.9.0-py3-none-any.whl",
            ),
            Bash(
                "unzip -p dist/tidewater-0.9.0-py3-none-any.whl 'tidewater-0.9.0.dist-info/METADATA' | grep -E 'Extra|pyarrow'",
                "Provides-Extra: parquet\nRequires-Dist: pyarrow (>=15.0,<17.0) ; extra == \"parquet\"",
            ),
            A("Wheel metadata has the extra. I'll run the test suite with it installed."),
            Bash(
                "poetry install --with test && poetry run pytest -q tests/backends 2>&1 | tail -3",
                "Installing dependencies from lock file\n\nNo dependencies to install or update\n\nInstalling the current project: tidewater (0.9.0)\nsss.....\n5 passed, 3 skipped in 0.61s",
            ),
            A(
                "The three parquet tests skipped because `poetry install` doesn't install extras unless you ask: optional deps stay out of the venv even though they're in the lock file. CI needs `poetry install --with test -E parquet` (or `--all-extras`), otherwise the parquet backend is silently never tested.",
                lesson=(N, "`poetry install` doesn't install extras unless you ask"),
            ),
            Bash(
                "poetry install --with test -E parquet >/dev/null && poetry run pytest -q tests/backends 2>&1 | tail -1",
                "8 passed in 1.94s",
            ),
            U("update .github/workflows/ci.yml to use --all-extras then"),
            Edit(".github/workflows/ci.yml"),
            A("Done, the test job now runs `poetry install --with test --all-extras`."),
        ],
    ),
    (
        "blind17-gemini-helm-argocd-outofsync",
        "gemini",
        "blind17",
        [
            U(
                "argocd keeps showing payments-api as OutOfSync right after every sync. the diff is always on the Deployment. chart is in charts/payments-api"
            ),
            Bash(
                "argocd app diff payments-api --local charts/payments-api 2>&1 | head -20",
                "===== apps/Deployment payments/payments-api ======\n44,45c44\n<         checksum/config: 3f9a1c0e2b\n<         rollme: \"Xk2pQ\"\n---\n>         checksum/config: 3f9a1c0e2b",
                failed=True,
            ),
            Bash(
                "grep -rn 'rollme' charts/payments-api/templates",
                "charts/payments-api/templates/deployment.yaml:18:        rollme: {{ randAlphaNum 5 | quote }}",
            ),
            A(
                "Found it. The deployment template has a `rollme: {{ randAlphaNum 5 }}` pod annotation, an old trick to force a rollout on every `helm upgrade`. Argo CD doesn't run helm upgrade though; it renders the chart with `helm template` every time it compares, so each refresh produces a new random value and the live object never matches the desired one. That's why it goes OutOfSync right after syncing, and it also means every sync restarts the pods.\n\nI'll add an `ignoreDifferences` entry for that annotation path in the Application manifest so Argo stops flagging it.",
                lesson=(RC, "it renders the chart with `helm template` every time it compares"),
            ),
            U(
                "no, don't paper over it with ignoreDifferences. just delete the rollme annotation, we already have checksum/config for restarting on config changes and that's deterministic",
                lesson=(C, "don't paper over it with ignoreDifferences. just delete the rollme annotation"),
            ),
            A("Makes sense, checksum/config only changes when the ConfigMap content changes. Removing the annotation."),
            Edit("charts/payments-api/templates/deployment.yaml"),
            Bash(
                "helm template payments-api charts/payments-api -f charts/payments-api/values-prod.yaml > /tmp/a.yaml && helm template payments-api charts/payments-api -f charts/payments-api/values-prod.yaml > /tmp/b.yaml && diff /tmp/a.yaml /tmp/b.yaml && echo identical",
                "identical",
            ),
            A("Two renders are now byte-identical, so Argo will see a stable desired state. Bump the chart version too?"),
            U("yes patch bump"),
            Edit("charts/payments-api/Chart.yaml"),
            Bash("helm lint charts/payments-api", "==> Linting charts/payments-api\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed"),
            A("Chart bumped to 2.4.1 and lints clean."),
        ],
    ),
    (
        "blind17-sam-lambda-layer-imports",
        "claude",
        "blind17",
        [
            U(
                "sam local invoke works but the deployed OrdersFn dies on import. python 3.12, shared code in a layer"
            ),
            Bash(
                "aws logs tail /aws/lambda/orders-prod-OrdersFn --since 15m | head -6",
                "2026-03-04T10:12:03 INIT_START Runtime Version: python:3.12.v28\n2026-03-04T10:12:03 [ERROR] Runtime.ImportModuleError: Unable to import module 'app': No module named 'common'\nTraceback (most recent call last):\n2026-03-04T10:12:03 INIT_REPORT Init Duration: 212.40 ms Phase: init Status: error Error Type: Runtime.ImportModuleError",
                failed=True,
            ),
            Bash(
                "ls layers/common && sed -n '/CommonLayer:/,/^  [A-Z]/p' template.yaml",
                "common\nrequirements.txt\n  CommonLayer:\n    Type: AWS::Serverless::LayerVersion\n    Properties:\n      ContentUri: layers/common\n      CompatibleRuntimes: [python3.12]",
            ),
            A(
                "The layer zip is built straight from `layers/common`, so the package ends up at `/opt/common/` in the Lambda. But the Python runtime only adds `/opt/python` (and `/opt/python/lib/python3.12/site-packages`) to sys.path, nothing at `/opt` itself, so `import common` can't find it. Locally it works because `sam local invoke` runs from the project dir where `layers/common/common` isn't even used — your `app.py` resolves `common` through the symlink in `src/`.\n\nFix: add `Metadata: BuildMethod: python3.12` to the layer so `sam build` packages it under `python/` for us; no need to move files around by hand.",
                lesson=(RC, "the Python runtime only adds `/opt/python` (and `/opt/python/lib/python3.12/site-packages`) to sys.path"),
            ),
            Edit("template.yaml"),
            Bash(
                "sam build 2>&1 | tail -4 && unzip -l .aws-sam/build/CommonLayer 2>/dev/null; ls .aws-sam/build/CommonLayer",
                "Building layer 'CommonLayer'\nRunning PythonPipBuilder:ResolveDependencies\nRunning PythonPipBuilder:CopySource\n\nBuild Succeeded\npython",
            ),
            A("The built layer now has the `python/` root. Deploying to dev first."),
            Bash(
                "sam deploy --config-env dev --no-confirm-changeset 2>&1 | tail -3",
                "CloudFormation outputs from deployed stack\n-------------------------------------------------\nSuccessfully created/updated stack - orders-dev in eu-west-1",
            ),
            Bash(
                "sam remote invoke OrdersFn --stack-name orders-dev --event '{\"orderId\": \"t-1\"}' 2>&1 | tail -2",
                "START RequestId: 5b1c Version: $LATEST\n{\"statusCode\": 200, \"body\": \"{\\\"orderId\\\": \\\"t-1\\\", \\\"status\\\": \\\"PENDING\\\"}\"}",
            ),
            A("Dev invoke returns 200. Want me to deploy prod as well?"),
            U(
                "no, prod only ever goes out through the pipeline (the release workflow), never sam deploy from a laptop. i'll merge and let it run",
                lesson=(R, "prod only ever goes out through the pipeline (the release workflow), never sam deploy"),
            ),
            A("Understood, I'll leave prod alone. Branch is pushed as fix/common-layer-layout."),
        ],
    ),
    (
        "blind17-codex-azure-functions-isolated",
        "codex",
        "blind17",
        [
            U(
                "we're on azure functions in-process .NET 6, which is out of support. need to pick: in-process on .NET 8 or move to isolated worker. 9 functions, mostly http + a couple of service bus triggers. what do you think"
            ),
            Bash(
                "grep -rhn 'using Microsoft.Azure.WebJobs' src/ | sort | uniq -c",
                "     11 using Microsoft.Azure.WebJobs;\n      4 using Microsoft.Azure.WebJobs.Extensions.Http;\n      2 using Microsoft.Azure.WebJobs.ServiceBus;",
            ),
            A(
                "I'd go to the isolated worker model now rather than in-process .NET 8. In-process on .NET 8 is supported, but Microsoft has said it's the last in-process version and support ends in November 2026, so we'd be migrating again in a few months anyway. Isolated also gets us normal `Program.cs` DI and middleware, and we stop being pinned to the host's assembly versions (the Newtonsoft conflict you hit last year goes away).\n\nCost: every function changes attributes (`[FunctionName]` → `[Function]`), HTTP triggers move to `HttpRequestData` or the ASP.NET Core integration, and the Service Bus triggers change binding types. With 9 functions it's maybe a day. I'd use the ASP.NET Core integration (`ConfigureFunctionsWebApplication`) so the HTTP functions can keep `HttpRequest`/`IActionResult` and need fewer edits.",
                lesson=(D, "I'd go to the isolated worker model now rather than in-process .NET 8"),
            ),
            U("agreed, do it with the aspnetcore integration. start with the csproj and Program.cs"),
            Edit("src/Ledger.Functions/Ledger.Functions.csproj"),
            Edit("src/Ledger.Functions/Program.cs"),
            Bash(
                "dotnet build src/Ledger.Functions 2>&1 | grep -E 'error|Build succeeded' | head -5",
                "/home/dev/app/src/Ledger.Functions/Http/GetBalance.cs(14,10): error CS0246: The type or namespace name 'FunctionNameAttribute' could not be found (are you missing a using directive or an assembly reference?) [/home/dev/app/src/Ledger.Functions/Ledger.Functions.csproj]\n/home/dev/app/src/Ledger.Functions/Http/PostEntry.cs(16,10): error CS0246: The type or namespace name 'FunctionNameAttribute' could not be found (are you missing a using directive or an assembly reference?) [/home/dev/app/src/Ledger.Functions/Ledger.Functions.csproj]",
                failed=True,
            ),
            A("Expected, that's the per-function part. Converting the 9 functions now."),
            Edit("src/Ledger.Functions/Http/GetBalance.cs"),
            Edit("src/Ledger.Functions/Http/PostEntry.cs"),
            Edit("src/Ledger.Functions/Bus/SettlementListener.cs"),
            Bash(
                "dotnet build src/Ledger.Functions 2>&1 | tail -3 && dotnet test tests/Ledger.Functions.Tests 2>&1 | tail -2",
                "    0 Warning(s)\n    0 Error(s)\n\nTime Elapsed 00:00:09.81\nPassed!  - Failed:     0, Passed:    37, Skipped:     0, Total:    37, Duration: 1 s - Ledger.Functions.Tests.dll",
            ),
            A(
                "Builds and the 37 tests pass. local.settings.json now has `FUNCTIONS_WORKER_RUNTIME: dotnet-isolated`; the app setting in Azure has to be changed to match when this deploys."
            ),
            U("yep ill handle the app setting"),
        ],
    ),
    (
        "blind17-cloud-run-background-flush",
        "claude",
        "blind17",
        [
            U(
                "our cloud run service does some work after returning the response (it flushes analytics events in a background thread). events are going missing, like 30% of them. service is `ingest-api`"
            ),
            Bash(
                "gcloud run services describe ingest-api --region europe-west1 --format='value(spec.template.metadata.annotations)'",
                "autoscaling.knative.dev/maxScale=20;run.googleapis.com/client-name=gcloud;run.googleapis.com/startup-cpu-boost=true",
            ),
            A(
                "There's no `run.googleapis.com/cpu-throttling=false` annotation, so the service is on the default request-based billing. In that mode Cloud Run throttles the container's CPU to almost nothing as soon as the response is sent, so the background flush thread basically stops until the next request arrives, and if the instance gets scaled in first those events are just lost. That matches a partial loss that gets worse at low traffic.\n\nI'll switch it to instance-based billing with `gcloud run services update ingest-api --no-cpu-throttling`.",
            ),
            A(
                "Worth remembering for any service here: on Cloud Run with request-based billing nothing you do after sending the response is guaranteed to run, so background threads, fire-and-forget tasks and `defer`-style flushes all need either always-on CPU or to be moved into the request path.",
                lesson=(N, "nothing you do after sending the response is guaranteed to run"),
            ),
            U(
                "hold on, don't turn on always-allocated CPU for this, it roughly triples the bill for ingest-api with the min instances we run. just flush synchronously before returning, the batch is small, a few ms",
                lesson=(C, "don't turn on always-allocated CPU for this, it roughly triples the bill"),
            ),
            A("OK, keeping request-based billing. I'll make the flush happen inside the handler."),
            Read(
                "ingest/handlers.py",
                "@app.post('/events')\nasync def ingest(batch: EventBatch):\n    validate(batch)\n    analytics.enqueue(batch.events)\n    return {'accepted': len(batch.events)}\n",
            ),
            Edit("ingest/handlers.py"),
            Edit("ingest/analytics.py"),
            Bash(
                "pytest -q tests/test_handlers.py 2>&1 | tail -2",
                "........\n8 passed in 0.74s",
            ),
            A(
                "`ingest` now awaits `analytics.flush(batch.events)` before returning, and I removed the background thread and its queue from analytics.py. p50 latency will go up by the flush time; the test with a 200-event batch shows ~4ms against the fake sink."
            ),
            U("good. deploy it to staging pls"),
            Bash(
                "gcloud run deploy ingest-api-staging --source . --region europe-west1 --quiet 2>&1 | tail -3",
                "Done.\nService [ingest-api-staging] revision [ingest-api-staging-00042-kew] has been deployed and is serving 100 percent of traffic.\nService URL: https://ingest-api-staging-7x2kq3-ew.a.run.app",
            ),
            A("Staging is on revision 00042."),
        ],
    ),
    (
        "blind17-gemini-snowpark-udf-packages",
        "gemini",
        "blind17",
        [
            U("morning! hope you're well. the snowpark job that scores churn is failing since yesterday, logs below\n\n```\nsnowflake.snowpark.exceptions.SnowparkSQLException: (1304): 01b2c3d4-0001-a1b2-0000-4c5d0001e2f6: 100357 (P0000): Python Interpreter Error:\nModuleNotFoundError: No module named 'sklearn' in function SCORE_CHURN with handler udf_py_123456.compute\n```"),
            A("Morning! Let me look at how the UDF is registered."),
            Read(
                "jobs/score_churn.py",
                "session.add_packages('snowflake-snowpark-python', 'pandas')\nsession.add_import('models/churn.joblib')\n\n@udf(name='score_churn', is_permanent=True, stage_location='@ml_stage', replace=True,\n     input_types=[...], return_type=FloatType())\ndef compute(*features):\n    model = _load_model()\n    return float(model.predict_proba([features])[0][1])\n",
            ),
            Bash(
                "git log --oneline -3 -- jobs/score_churn.py",
                "a71c0de drop unused deps from score_churn\n4e2b9f1 cache model load in udf\n0f3aa12 churn scoring job",
            ),
            A(
                "Yesterday's commit `a71c0de` removed `scikit-learn` from `session.add_packages`. It looked unused because nothing in score_churn.py imports sklearn, but the joblib file is a pickled sklearn pipeline, and unpickling it inside the UDF imports sklearn. Snowflake builds the UDF's Python environment only from the packages you declare (from its Anaconda channel), not from your local venv, so the server side has no sklearn anymore. Locally nothing failed because your venv still has it.\n\nI'll add it back, pinned to the version the model was trained with.",
                lesson=(RC, "the joblib file is a pickled sklearn pipeline, and unpickling it inside the UDF"),
            ),
            Bash(
                "python -c \"import joblib;m=joblib.load('models/churn.joblib');print(m.__module__ if hasattr(m,'__module__') else type(m))\"; pip show scikit-learn | grep Version",
                "sklearn.pipeline\nVersion: 1.3.0",
            ),
            Edit("jobs/score_churn.py"),
            Bash(
                "python jobs/score_churn.py --env dev 2>&1 | tail -2",
                "Registered permanent UDF SCORE_CHURN at @ml_stage\nScored 48213 rows into ANALYTICS_DEV.CHURN_SCORES in 37.2s",
            ),
            A("Dev run is green. `add_packages` now has `scikit-learn==1.3.0` with a comment saying the pickle needs it."),
            U("ty! have a good weekend"),
            A("You too!"),
        ],
    ),
    (
        "blind17-spark-streaming-watermark",
        "claude",
        "blind17",
        [
            U(
                "pyspark structured streaming job reads clicks from kafka, does 10 min windowed counts per campaign, writes to delta. state store keeps growing, executors OOM after ~2 days. jobs/click_counts.py"
            ),
            Read(
                "jobs/click_counts.py",
                "clicks = (spark.readStream.format('kafka')...load()\n    .select(from_json(col('value').cast('string'), schema).alias('c')).select('c.*'))\n\ncounts = (clicks\n    .groupBy(window('event_time', '10 minutes'), 'campaign_id')\n    .count())\n\ncounts.writeStream.format('delta').outputMode('complete')\n    .option('checkpointLocation', CKPT).start(OUT)\n",
            ),
            A(
                "There's no watermark, so Spark has to keep every window it has ever seen in the state store in case a late event arrives for it, and `complete` mode rewrites the whole result table each trigger on top of that. I'd add `.withWatermark('event_time', '30 minutes')` before the groupBy so windows older than the watermark get evicted.\n\nThen the output mode has to change: `complete` ignores the watermark entirely (it needs all groups to output the full table), so the state would still grow. The choice is `append` or `update`:\n- `append` writes each window once, only after the watermark passes it, so rows land ~40 min late but the delta table is insert-only and downstream readers never see a count change.\n- `update` emits partial counts every trigger, but Delta sink doesn't support update mode without a foreachBatch MERGE.\n\nI'd go with append; the dashboards refresh hourly so 40 minutes of lag is fine, and it keeps the sink a plain append.",
                lesson=(D, "I'd go with append; the dashboards refresh hourly so 40 minutes of lag is fine"),
            ),
            U("append is fine. 30 min watermark is ok, kafka lag is never more than a few minutes"),
            Edit("jobs/click_counts.py"),
            Bash(
                "spark-submit --master local[4] jobs/click_counts.py --checkpoint /tmp/ckpt-test --source fixtures/clicks.json --once 2>&1 | grep -E 'Exception|AnalysisException' | head -3",
                "pyspark.errors.exceptions.captured.StreamingQueryException: [STREAM_FAILED] Query [id = 3c9e..., runId = 81aa...] terminated with exception: Provided schema doesn't match to the schema for existing state! Please note that Spark allow difference of field name: check count of fields and data type of each field.\n- Provided key schema: StructType(StructField(window,StructType(...)),StructField(campaign_id,StringType,true))\n- Existing key schema: ...",
                failed=True,
            ),
            A(
                "That's the old checkpoint in /tmp/ckpt-test from an earlier run. I reused a path that had state from the previous query shape."
            ),
            Bash(
                "rm -rf /tmp/ckpt-test && spark-submit --master local[4] jobs/click_counts.py --checkpoint /tmp/ckpt-test --source fixtures/clicks.json --once 2>&1 | tail -2",
                "INFO MicroBatchExecution: Streaming query made progress: {\"numInputRows\": 5000, \"stateOperators\": [{\"numRowsTotal\": 118, \"numRowsDroppedByWatermark\": 12}]}\nINFO StreamingQueryManager: Query finished",
            ),
            A(
                "Works with a fresh checkpoint, and the state operator now reports rows dropped by the watermark.\n\nImportant for the prod rollout: adding the watermark and switching output mode changes the stateful operator, so the job cannot restart from the existing prod checkpoint; it'll fail with the same state schema error. You'll need a new checkpointLocation and to decide where to start reading Kafka (startingOffsets or the last committed offsets from the old checkpoint's `offsets/` dir), otherwise you either reprocess everything or skip data.",
                lesson=(N, "the job cannot restart from the existing prod checkpoint"),
            ),
            U("got it, I'll do the cutover myself on monday"),
        ],
    ),
    (
        "blind17-codex-dagster-assets-partitions",
        "codex",
        "blind17",
        [
            U(
                "add a dagster asset `daily_fx_rates` that pulls from the ECB feed and writes to our warehouse. look at how `daily_orders` is done in pipelines/assets/orders.py"
            ),
            Read(
                "pipelines/assets/orders.py",
                "daily = DailyPartitionsDefinition(start_date='2023-01-01', timezone='UTC')\n\n@asset(partitions_def=daily, io_manager_key='warehouse_io', group_name='finance')\ndef daily_orders(context: AssetExecutionContext, shop_api: ShopApiResource) -> pd.DataFrame:\n    day = context.partition_key\n    return shop_api.orders_for(day)\n",
            ),
            A("Same pattern: daily partitions, the warehouse IO manager, and a new `EcbResource` for the HTTP call. I'll put the requests call directly in the asset for now and add the resource after."),
            Edit("pipelines/assets/fx.py"),
            U(
                "no requests inside asset bodies. all external IO goes through a ConfigurableResource so tests can swap it out, that's how every asset here is built",
                lesson=(R, "all external IO goes through a ConfigurableResource so tests can swap it out"),
            ),
            A("Right, moving the HTTP call into `EcbResource.rates_for(day)` and injecting it like shop_api."),
            Edit("pipelines/resources/ecb.py"),
            Edit("pipelines/assets/fx.py"),
            Edit("pipelines/definitions.py"),
            A("I'll also add a schedule `build_schedule_from_partitioned_job` running fx daily at 06:00 UTC, same as orders."),
            U(
                "skip the schedule. ECB publishes around 16:00 CET and not on TARGET holidays, so a daily cron will fail a bunch. make it a sensor that polls the feed and requests the partition when the date shows up",
                lesson=(C, "skip the schedule. ECB publishes around 16:00 CET and not on TARGET holidays"),
            ),
            Edit("pipelines/sensors/fx.py"),
            Edit("pipelines/definitions.py"),
            Bash(
                "pytest -q pipelines_tests/test_fx.py 2>&1 | tail -3",
                "....\n4 passed in 1.38s",
            ),
            Bash(
                "dagster definitions validate -m pipelines.definitions 2>&1 | tail -1",
                "Validation successful for code location pipelines.definitions.",
            ),
            A(
                "Done. `ecb_fx_sensor` polls every 30 minutes, reads the latest date from the feed, and yields a `RunRequest(partition_key=date, run_key=date)` so each day is materialised once. Tests cover the asset with a fake EcbResource and the sensor with a fake feed that skips a holiday."
            ),
        ],
    ),
    (
        "blind17-rails-turbo-stream-form",
        "claude",
        "blind17",
        [
            U(
                "rails 7.1 app, the comment form on posts#show. on validation error the form just does nothing, no errors shown, the network tab shows a 200 with the re-rendered form html. turbo is on"
            ),
            Read(
                "app/controllers/comments_controller.rb",
                "def create\n  @comment = @post.comments.build(comment_params)\n  if @comment.save\n    redirect_to @post\n  else\n    render 'posts/show'\n  end\nend\n",
            ),
            A(
                "Turbo Drive intercepts form submissions and only knows what to do with two kinds of answer: a redirect (it follows it and visits the page) or a 4xx/5xx response (it renders the returned HTML in place). A 200 to a form POST is treated as a success that didn't redirect, and Turbo deliberately ignores it, so your re-rendered form with errors is thrown away. The fix is the status: `render 'posts/show', status: :unprocessable_entity`.",
                lesson=(RC, "A 200 to a form POST is treated as a success that didn't redirect"),
            ),
            Edit("app/controllers/comments_controller.rb"),
            Bash(
                "bin/rails test test/system/comments_test.rb 2>&1 | tail -4",
                "Running 3 tests in a single process (parallelization threshold is 50)\n...\n\nFinished in 4.112s, 0.7296 runs/s, 1.9458 assertions/s.\n3 runs, 8 assertions, 0 failures, 0 errors, 0 skips",
            ),
            A("The system test that submits an empty comment now sees the \"Body can't be blank\" message."),
            U("nice. can you make new comments show up without full page reload, like append to the list"),
            A(
                "I'll have `create` respond to `format.turbo_stream` with a `create.turbo_stream.erb` that appends the comment partial to `#comments` and replaces the form with a blank one, keeping `format.html { redirect_to @post }` as fallback."
            ),
            Edit("app/controllers/comments_controller.rb"),
            Edit("app/views/comments/create.turbo_stream.erb"),
            Edit("app/views/posts/show.html.erb"),
            Bash(
                "bin/rails test test/system/comments_test.rb 2>&1 | tail -2",
                "Finished in 4.530s, 0.8830 runs/s, 2.2075 assertions/s.\n4 runs, 10 assertions, 0 failures, 0 errors, 0 skips",
            ),
            A(
                "Works. One thing to keep in mind: `turbo_stream.append \"comments\"` targets by DOM id, and the list had no id before, so I added `id=\"comments\"` on the wrapper in posts/show. If someone renames or removes that id the stream silently does nothing — there's no error in the console, the append just has no target.",
                lesson=(N, "If someone renames or removes that id the stream silently does nothing"),
            ),
            U("ok good to know. thanks"),
        ],
    ),
    (
        "blind17-gemini-phoenix-channel-auth",
        "gemini",
        "blind17",
        [
            U(
                "need a new channel `board:<id>` for the kanban board, users should only join boards they're members of. phoenix 1.7"
            ),
            Read(
                "lib/kanban_web/channels/user_socket.ex",
                "def connect(%{\"token\" => token}, socket, _connect_info) do\n  case Phoenix.Token.verify(socket, \"user socket\", token, max_age: 1_209_600) do\n    {:ok, user_id} -> {:ok, assign(socket, :user_id, user_id)}\n    {:error, _} -> :error\n  end\nend\n",
            ),
            A(
                "I'll add `channel \"board:*\", KanbanWeb.BoardChannel` and in `join/3` load the board and its members with `Boards.get_board!(id) |> Repo.preload(:members)` and check that `socket.assigns.user_id` is in the list."
            ),
            U(
                "don't use get_board! in join, a bad id would crash the channel process and the client just sees a generic error and keeps retrying. and don't preload members just to check one user. there's Boards.member?(board_id, user_id) that does a single exists query",
                lesson=(C, "don't use get_board! in join, a bad id would crash the channel process"),
            ),
            A(
                "Got it. `join(\"board:\" <> id, _params, socket)` will call `Boards.member?(id, socket.assigns.user_id)` and return `{:error, %{reason: \"unauthorized\"}}` when false, which the JS client gets in `.receive(\"error\", ...)` without a crash."
            ),
            Edit("lib/kanban_web/channels/user_socket.ex"),
            Edit("lib/kanban_web/channels/board_channel.ex"),
            Edit("test/kanban_web/channels/board_channel_test.exs"),
            Bash(
                "mix test test/kanban_web/channels 2>&1 | tail -3",
                "Finished in 0.2 seconds (0.2s async, 0.00s sync)\n5 tests, 0 failures\n\nRandomized with seed 40215",
            ),
            A("Channel joins for members, rejects others and rejects unknown ids. Should I broadcast card moves from the context or the channel?"),
            U(
                "from the context. we always broadcast through KanbanWeb.Endpoint.broadcast in the context functions after the Repo call succeeds, never from handle_in, so that changes made via the REST api also reach the sockets",
                lesson=(R, "we always broadcast through KanbanWeb.Endpoint.broadcast in the context functions"),
            ),
            Edit("lib/kanban/boards.ex"),
            Edit("lib/kanban_web/channels/board_channel.ex"),
            Bash(
                "mix test 2>&1 | tail -2",
                "Finished in 1.9 seconds (1.4s async, 0.5s sync)\n142 tests, 0 failures",
            ),
            A("`Boards.move_card/3` broadcasts `card_moved` on `board:<id>` after the update succeeds; the channel's handle_in just calls the context function. Full suite passes."),
        ],
    ),
    (
        "blind17-clojure-ring-json-middleware",
        "claude",
        "blind17",
        [
            U(
                "we're starting to return json from the ring app (it was all hiccup before). which lib should we use for the json encoding, cheshire or jsonista? we use reitit"
            ),
            Bash(
                "grep -E 'cheshire|jsonista|muuntaja|data.json' deps.edn; clojure -Stree 2>/dev/null | grep -E 'cheshire|jsonista|jackson-databind' | head",
                "  metosin/reitit {:mvn/version \"0.7.0\"}\n  X metosin/jsonista 0.3.8 :use-top\n    . com.fasterxml.jackson.core/jackson-databind 2.16.1\n  X cheshire/cheshire 5.12.0\n    . com.fasterxml.jackson.core/jackson-core 2.16.1",
            ),
            A(
                "Both are already on the classpath: reitit pulls in muuntaja, which uses jsonista, and cheshire comes in transitively from the aws-api lib. I'd standardise on jsonista through muuntaja rather than adding cheshire to our own code:\n\n- reitit's coercion and `muuntaja.middleware/wrap-format` already do content negotiation with jsonista, so handlers just return `{:body {...}}` and we don't hand-roll `wrap-json-response`.\n- jsonista is noticeably faster and its object mapper config (`:encode-key-fn`, date encoders) lives in one place, the muuntaja instance.\n- cheshire stays only as a transitive dep; we don't require it ourselves.\n\nSo: one `m/create` instance in `app.http.format` with kebab→snake key encoding and `java.time` encoders, and `:muuntaja` set in the router data.",
                lesson=(D, "I'd standardise on jsonista through muuntaja rather than adding cheshire"),
            ),
            U("sounds right. we want snake_case keys on the wire yeah. go ahead"),
            Edit("src/app/http/format.clj"),
            Edit("src/app/http/router.clj"),
            Edit("test/app/http/router_test.clj"),
            Bash(
                "clojure -M:test -m kaocha.runner :unit 2>&1 | tail -3",
                "--- unit (clojure.test) ---------------------------\n31 tests, 74 assertions, 0 failures.",
            ),
            A("All green. `GET /api/projects/1` now returns `{\"project_id\": 1, \"created_at\": \"2026-03-01T09:00:00Z\", ...}`."),
            U("sweet. unrelated, is it normal that `clojure -M:test` takes 40s to start here"),
            A(
                "Mostly it's compiling the whole dependency tree from source on each start, aws-api and reitit are big. You could AOT-compile the dev deps or use a long-running REPL for tests; kaocha has a `--watch` mode too. Not a project problem, just how Clojure startup works."
            ),
            U("ok whatever, i'll live with it"),
        ],
    ),
    (
        "blind17-codex-fsharp-giraffe-routing",
        "codex",
        "blind17",
        [
            U(
                "add GET /api/invoices/{id} to the giraffe app, returns 404 if not found. handlers are in src/Api/Handlers/Invoices.fs"
            ),
            Read(
                "src/Api/Handlers/Invoices.fs",
                "let listInvoices : HttpHandler =\n    fun next ctx -> task {\n        let repo = ctx.GetService<IInvoiceRepo>()\n        let! invoices = repo.List()\n        return! json invoices next ctx\n    }\n",
            ),
            A(
                "I'll add `getInvoice (id: int)` and route it with `routef \"/api/invoices/%i\" getInvoice`. In the handler, if the repo returns None I'll raise a `KeyNotFoundException` and let the global error handler map it to 404."
            ),
            U(
                "no exceptions for not-found. use RequestErrors.NOT_FOUND in the handler and match on the option. the error handler is only for real crashes and it logs them as errors, we don't want a 404 spamming the error dashboard",
                lesson=(C, "no exceptions for not-found. use RequestErrors.NOT_FOUND in the handler"),
            ),
            A("OK, matching on the option and returning `RequestErrors.NOT_FOUND` directly."),
            Edit("src/Api/Handlers/Invoices.fs"),
            Edit("src/Api/Routes.fs"),
            Bash(
                "dotnet build src/Api 2>&1 | grep -E 'error|Warn|Build succeeded' | head -3",
                "/home/dev/app/src/Api/Routes.fs(14,44): error FS0001: The type 'int' does not match the type 'Guid'",
                failed=True,
            ),
            A("Invoice ids are Guids in this repo, not ints. Switching the route to `%O` and the handler parameter to `Guid`."),
            Edit("src/Api/Routes.fs"),
            Edit("src/Api/Handlers/Invoices.fs"),
            Bash(
                "dotnet build src/Api 2>&1 | tail -2 && dotnet test tests/Api.Tests --filter Invoices 2>&1 | tail -1",
                "    0 Error(s)\n\nTime Elapsed 00:00:07.12\nPassed!  - Failed:     0, Passed:     6, Skipped:     0, Total:     6, Duration: 311 ms - Api.Tests.dll",
            ),
            A("Builds, and I added two tests: 200 with the invoice body, 404 for an unknown Guid. All 6 invoice tests pass."),
        ],
    ),
    (
        "blind17-gemini-ocaml-dream-csrf",
        "gemini",
        "blind17",
        [
            U(
                "dream app, the settings form POST started returning 403 after i moved it into its own template file. ocaml 5.1, dream 1.0.0~alpha5"
            ),
            Bash(
                "dune exec ./bin/main.exe & sleep 2; curl -s -o /dev/null -w '%{http_code}\\n' -X POST -d 'theme=dark' -b cookies.txt http://localhost:8080/settings; kill %1",
                "10.03.26 09:14:02.118       dream.log  INFO REQ 3 POST /settings 127.0.0.1:51422 fd 7 Mozilla/5.0\n10.03.26 09:14:02.119      dream.csrf  WARN REQ 3 CSRF token invalid\n403",
                failed=True,
            ),
            Read(
                "templates/settings.eml.html",
                "let render request =\n  <form method=\"POST\" action=\"/settings\">\n    <select name=\"theme\">...</select>\n    <button>Save</button>\n  </form>\n",
            ),
            A(
                "The form lost its `<%s! Dream.csrf_tag request %>` line when it was moved, so the POST carries no `dream.csrf` field and `Dream.form` rejects it. I'll put the tag back as the first child of the form."
            ),
            Edit("templates/settings.eml.html"),
            Bash(
                "dune build 2>&1 | head -5 && dune test 2>&1 | tail -2",
                "[OK]          settings          0   renders form.\n[OK]          settings          1   POST saves theme.\nTest Successful in 0.041s. 6 tests run.",
            ),
            A(
                "Fixed. Something to be aware of with Dream's CSRF tokens: they're signed with the secret from `Dream.set_secret` and bound to the session, and if you don't set a secret Dream generates a random one at startup. So every restart (or every replica behind the load balancer) invalidates all open forms with the same 403. bin/main.ml doesn't call `Dream.set_secret` right now.",
                lesson=(N, "if you don't set a secret Dream generates a random one at startup"),
            ),
            U(
                "oh good catch. secret should come from the DREAM_SECRET env var, and as a general thing in this project config is only ever read from env vars in bin/main.ml, nothing reads Sys.getenv deeper in the lib",
                lesson=(R, "config is only ever read from env vars in bin/main.ml, nothing reads Sys.getenv"),
            ),
            A("I'll read `DREAM_SECRET` in main.ml and fail startup with a clear message if it's missing, then pass it to `Dream.set_secret`."),
            Edit("bin/main.ml"),
            Bash(
                "grep -rn 'Sys.getenv' lib/ bin/",
                "bin/main.ml:6:  let secret = match Sys.getenv_opt \"DREAM_SECRET\" with\nbin/main.ml:11:  let db_url = Sys.getenv \"DATABASE_URL\" in",
            ),
            A("Only main.ml reads env vars, good. Added DREAM_SECRET to .env.example too."),
        ],
    ),
    (
        "blind17-neovim-lua-lazy-lsp",
        "claude",
        "blind17",
        [
            U(
                "my neovim config (~/.config/nvim, lazy.nvim) takes like 400ms to start. can you look at why. also i want to add basedpyright"
            ),
            Bash(
                "nvim --headless --startuptime /tmp/st.log +q && sort -k2 -nr /tmp/st.log | head -6",
                "412.881  121.440  121.402: require('telescope')\n290.104   88.219   88.170: require('nvim-treesitter.configs')\n201.555   61.003   60.981: require('lspconfig')\n140.330   34.871   34.812: require('mason')\n 98.210   12.440   12.402: sourcing /home/dev/.config/nvim/init.lua\n 81.004    9.311    9.288: require('gitsigns')",
            ),
            Read(
                "lua/plugins/telescope.lua",
                "return {\n  'nvim-telescope/telescope.nvim',\n  lazy = false,\n  config = function() require('telescope').setup({...}) end,\n}\n",
            ),
            A(
                "telescope, treesitter, lspconfig and mason are all loaded eagerly at startup. telescope has `lazy = false` and the others have no trigger at all, and you have `defaults = { lazy = false }` in lazy's setup. I'll flip the default to lazy and give telescope `cmd = 'Telescope'` plus its `keys`, lspconfig/mason `event = { 'BufReadPre', 'BufNewFile' }`, and treesitter `event = 'BufReadPost'`."
            ),
            U(
                "ok. keep each plugin in its own file under lua/plugins/ like it is, one spec per file, i don't want a giant plugins.lua",
                lesson=(R, "keep each plugin in its own file under lua/plugins/ like it is"),
            ),
            Edit("lua/config/lazy.lua"),
            Edit("lua/plugins/telescope.lua"),
            Edit("lua/plugins/treesitter.lua"),
            Edit("lua/plugins/lsp.lua"),
            Bash(
                "nvim --headless --startuptime /tmp/st2.log +q && tail -1 /tmp/st2.log",
                "047.912  000.004: --- NVIM STARTED ---",
            ),
            A(
                "Startup is down to ~48ms. Now basedpyright: you currently have pyright configured in lsp.lua. Running both gives duplicate diagnostics and hovers, so I'd replace pyright with basedpyright rather than add it next to it, and keep ruff's LSP for linting/formatting with its hover disabled so basedpyright owns hover. basedpyright also defaults to stricter `typeCheckingMode = 'recommended'`, so I'd set it to `'standard'` to match what pyright gave you, and you can tighten later.",
                lesson=(D, "I'd replace pyright with basedpyright rather than add it next to it"),
            ),
            U("yep replace pyright, standard mode"),
            Edit("lua/plugins/lsp.lua"),
            Bash(
                "nvim --headless -c 'edit /tmp/t.py' -c 'sleep 2' -c 'lua print(vim.inspect(vim.tbl_map(function(c) return c.name end, vim.lsp.get_clients())))' -c q 2>&1",
                "{ \"basedpyright\", \"ruff\" }",
            ),
            A("Both clients attach on a .py buffer, pyright is gone. mason-lspconfig's ensure_installed has basedpyright instead of pyright now."),
        ],
    ),
    (
        "blind17-restic-backup-cron-env",
        "claude",
        "blind17",
        [
            U(
                "the nightly restic backup on the nas hasn't run since tuesday. script is /usr/local/bin/backup.sh, runs from root's crontab. when i run it by hand it works fine"
            ),
            Bash(
                "sudo grep backup /var/log/syslog | tail -3; sudo tail -5 /var/log/backup.log",
                "Mar  7 02:30:01 nas CRON[88121]: (root) CMD (/usr/local/bin/backup.sh >> /var/log/backup.log 2>&1)\nFatal: unable to open config file: Stat: stat /srv/restic-repo/config: permission denied\nIs there a repository at the following location?\nrepository=/srv/restic-repo",
                failed=True,
            ),
            Read(
                "/usr/local/bin/backup.sh",
                "#!/bin/sh\nset -e\n. /root/.restic-env\nrestic backup /home /etc --exclude-file=/etc/restic/excludes\nrestic forget --keep-daily 7 --keep-weekly 4 --keep-monthly 6 --prune\n",
            ),
            Bash(
                "sudo cat /root/.restic-env | sed 's/=.*/=.../'; ls -ld /srv/restic-repo; mount | grep restic",
                "export RESTIC_REPOSITORY=...\nexport RESTIC_PASSWORD_FILE=...\ndrwx------ 7 backup backup 4096 Mar  4 11:02 /srv/restic-repo\n",
            ),
            A(
                "The repo dir is owned by `backup` with mode 700, and on tuesday (Mar 4, 11:02) its ownership changed. Root normally bypasses that, but /srv/restic-repo is an NFS mount from the other box... actually `mount` shows nothing, so it's local. Let me check what's actually different between your manual run and cron."
            ),
            Bash(
                "sudo crontab -l | grep backup; sudo -u backup crontab -l 2>/dev/null | grep backup; grep -n backup /etc/crontab /etc/cron.d/* 2>/dev/null",
                "/etc/cron.d/restic:2:30 2 * * * backup /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1\n30 2 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1",
            ),
            A(
                "There are two cron entries: root's crontab and a newer /etc/cron.d/restic that runs the same script as user `backup`. Tuesday someone chowned the repo to `backup` (presumably to go with that cron.d file). Now the root run still works (that's the syslog line with `(root)`), wait, no. Re-reading the log: the failing line is from the `backup` user run, because `backup` can't read `/root/.restic-env`, so with `set -e` the `.` fails... but then it would exit before restic.\n\nLet me just run it the way cron does instead of guessing."
            ),
            Bash(
                "sudo -u backup env -i HOME=/var/lib/backup PATH=/usr/bin:/bin sh -x /usr/local/bin/backup.sh 2>&1 | head -6",
                "+ . /root/.restic-env\nsh: 3: .: cannot open /root/.restic-env: Permission denied",
                failed=True,
            ),
            Bash(
                "sudo env -i HOME=/root PATH=/usr/bin:/bin sh -x /usr/local/bin/backup.sh 2>&1 | head -4",
                "+ . /root/.restic-env\n+ export RESTIC_REPOSITORY=/srv/restic-repo RESTIC_PASSWORD_FILE=/root/.restic-pass\n+ restic backup /home /etc --exclude-file=/etc/restic/excludes\nFatal: unable to open config file: Stat: stat /srv/restic-repo/config: permission denied",
                failed=True,
            ),
            A(
                "Now it's clear. The root run is the one in the log, and it fails on the repo itself: root can't stat /srv/restic-repo/config even though it's root. That happens because /srv sits on the ZFS dataset `tank/srv` which is shared over NFS and mounted back here via autofs with `root_squash`, so root is mapped to nobody and a 700 dir owned by `backup` is closed to it. When you run it by hand you're in an interactive shell where the autofs mount isn't triggered yet... no, sorry, let me check that rather than assert it."
            ),
            Bash(
                "findmnt -T /srv/restic-repo; sudo stat -c '%U %a' /srv/restic-repo/config",
                "TARGET SOURCE                 FSTYPE OPTIONS\n/srv   nas2:/export/srv       nfs4   rw,relatime,vers=4.2,sec=sys\nstat: cannot stat '/srv/restic-repo/config': Permission denied",
                failed=True,
            ),
            A(
                "Confirmed: /srv is an NFS4 mount from nas2 (earlier `mount | grep restic` missed it because the mount point is /srv, not the repo path). NFS exports are root_squash by default, so root on this machine reaches the server as `nobody`. Since tuesday the repo is `backup:backup 700`, so `nobody` can't read it and root's backup fails, while your manual runs work if you run them as `backup` (did you use `sudo -u backup`?).\n\nThe clean fix is to run the job only as `backup`: delete root's crontab line, keep /etc/cron.d/restic, and move the env file to /etc/restic/env owned `root:backup` mode 640 so the `backup` user can source it.",
                lesson=(RC, "NFS exports are root_squash by default, so root on this machine"),
            ),
            U("yes that's it, i ran it with sudo -u backup. do the fix"),
            Edit("/usr/local/bin/backup.sh"),
            Bash(
                "sudo install -o root -g backup -m 640 /root/.restic-env /etc/restic/env && sudo install -o root -g backup -m 640 /root/.restic-pass /etc/restic/pass && sudo sed -i 's#/root/.restic-pass#/etc/restic/pass#' /etc/restic/env && (sudo crontab -l | grep -v backup.sh | sudo crontab -) && sudo -u backup env -i HOME=/var/lib/backup PATH=/usr/bin:/bin sh /usr/local/bin/backup.sh 2>&1 | tail -4",
                "Added to the repository: 1.214 GiB (803.551 MiB stored)\n\nprocessed 412907 files, 611.032 GiB in 6:41\nsnapshot 4f0c21ab saved",
            ),
            A(
                "Backup ran as `backup` and saved snapshot 4f0c21ab. Root's crontab line is gone.\n\nOne more thing, because it bit here: `restic forget --prune` at the end of the script takes an exclusive lock on the repo. If a backup from the laptop (which you said also writes to this repo) is running at 02:30, the prune fails with \"repository is already locked\" and, with `set -e`, so does the script. Worth keeping the prune in a separate weekly job at a quiet hour rather than after every nightly backup.",
                lesson=(N, "`restic forget --prune` at the end of the script takes an exclusive lock"),
            ),
            U("yeah move prune to sunday 05:00 in its own cron.d file"),
            Edit("/etc/cron.d/restic"),
            Edit("/usr/local/bin/restic-prune.sh"),
            A("Done: backup.sh only does `restic backup` + `forget` without prune, and restic-prune.sh runs Sundays at 05:00 as `backup`."),
        ],
    ),
    (
        "blind17-gemini-svelte5-runes-store",
        "gemini",
        "blind17",
        [
            U(
                "we're migrating a svelte 4 app to svelte 5. the shared `settings` store (writable in src/lib/stores/settings.ts) is used in ~30 components with $settings. do we keep stores or move to runes?"
            ),
            Bash(
                "grep -rl '\\$settings' src | wc -l; grep -rn 'settings.subscribe\\|get(settings)' src | wc -l",
                "31\n4",
            ),
            A(
                "Stores still work in Svelte 5, so nothing forces this now. Two options:\n\n1. Keep `writable` and the `$settings` auto-subscriptions. Zero churn, but it's the legacy path, and `$store` syntax doesn't work inside `.svelte.ts` modules, which is where new shared logic will go.\n2. Replace it with a `.svelte.ts` module exporting a `$state` object: `export const settings = $state({ theme: 'light', density: 'comfortable' })`. Components read `settings.theme` directly, with fine-grained updates. The catch: you can't reassign an exported `$state` (`settings = {...}` won't propagate), only mutate its properties, so `settings.set(x)` calls become `Object.assign(settings, x)`.\n\nThe 4 places that call `settings.subscribe` / `get(settings)` are plain .ts files (the API client and the i18n loader), and those would read the object directly after the switch.\n\nI'd do option 2 for settings now since it's small and touches most components anyway during the migration, and keep the other stores as they are until their components get migrated.",
                lesson=(D, "I'd do option 2 for settings now since it's small"),
            ),
            U("go with 2"),
            Edit("src/lib/stores/settings.svelte.ts"),
            Bash(
                "grep -rl '\\$settings' src | xargs sed -i 's/\\$settings\\b/settings/g' && npx svelte-check --threshold error 2>&1 | tail -4",
                "/home/dev/app/src/routes/+layout.svelte:4:10\nError: Cannot find module '$lib/stores/settings' or its corresponding type declarations. (ts)\n\n====================================\nsvelte-check found 31 errors and 0 warnings in 31 files",
                failed=True,
            ),
            A("The imports still point at the old path; updating them to `$lib/stores/settings.svelte`."),
            Bash(
                "grep -rl \"stores/settings'\" src | xargs sed -i \"s#stores/settings'#stores/settings.svelte'#\" && npx svelte-check --threshold error 2>&1 | tail -2",
                "====================================\nsvelte-check found 0 errors and 0 warnings",
            ),
            Edit("src/lib/api/client.ts"),
            Edit("src/lib/i18n/load.ts"),
            Bash(
                "npx vitest run 2>&1 | tail -3",
                " Test Files  18 passed (18)\n      Tests  96 passed (96)\n   Duration  3.42s",
            ),
            A("svelte-check is clean and tests pass. The old settings.ts is deleted."),
            U("thx"),
        ],
    ),
    (
        "blind17-threejs-resize-handler",
        "claude",
        "blind17",
        [
            U(
                "the three.js viewer in src/viewer/scene.ts gets stretched when the window resizes. can you add a resize handler"
            ),
            Read(
                "src/viewer/scene.ts",
                "export function createViewer(container: HTMLElement) {\n  const renderer = new THREE.WebGLRenderer({ antialias: true })\n  renderer.setSize(container.clientWidth, container.clientHeight)\n  const camera = new THREE.PerspectiveCamera(50, container.clientWidth / container.clientHeight, 0.1, 1000)\n  ...\n  return { renderer, camera, scene, dispose }\n}\n",
            ),
            A(
                "I'll add a ResizeObserver on the container that updates `camera.aspect`, calls `camera.updateProjectionMatrix()` and `renderer.setSize(w, h)`, and disconnect it in `dispose`."
            ),
            Edit("src/viewer/scene.ts"),
            Bash(
                "npx tsc --noEmit && npx vitest run src/viewer 2>&1 | tail -3",
                " ✓ src/viewer/scene.test.ts (5 tests) 41ms\n\n Test Files  1 passed (1)\n      Tests  5 passed (5)",
            ),
            A("Type-checks and the viewer tests pass. I added a test that fires the observer callback and checks the camera aspect."),
            U("perfect, also set pixel ratio to min(devicePixelRatio, 2)"),
            Edit("src/viewer/scene.ts"),
            Bash(
                "npx vitest run src/viewer 2>&1 | tail -2",
                "      Tests  5 passed (5)\n   Duration  612ms",
            ),
            A("Done, `renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2))` right after creating the renderer."),
            U("thanks"),
        ],
    ),
    (
        "blind17-codex-solid-todo-filter",
        "codex",
        "blind17",
        [
            U("add a filter (all / active / done) to the todo list in src/components/TodoList.tsx, solid.js"),
            Read(
                "src/components/TodoList.tsx",
                "export function TodoList(props: { todos: Todo[] }) {\n  return (\n    <ul>\n      <For each={props.todos}>{(t) => <TodoItem todo={t} />}</For>\n    </ul>\n  )\n}\n",
            ),
            A("I'll add a `filter` signal, a `visible` memo over props.todos, and three buttons above the list."),
            Edit("src/components/TodoList.tsx"),
            Edit("src/components/TodoList.test.tsx"),
            Bash(
                "npx vitest run src/components/TodoList.test.tsx 2>&1 | tail -4",
                " ✓ src/components/TodoList.test.tsx (4 tests) 57ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)",
            ),
            Bash("npx eslint src/components/TodoList.tsx && echo ok", "ok"),
            A("Filter works and the tests cover all three modes. Lint is clean."),
            U("👍"),
        ],
    ),
    (
        "blind17-gemini-nest-dto-field",
        "gemini",
        "blind17",
        [
            U(
                "add an optional `notes` string to CreateBookingDto, max 500 chars. src/bookings/dto/create-booking.dto.ts"
            ),
            Read(
                "src/bookings/dto/create-booking.dto.ts",
                "export class CreateBookingDto {\n  @IsUUID()\n  roomId: string;\n\n  @IsISO8601()\n  startsAt: string;\n\n  @IsInt() @Min(1) @Max(8)\n  guests: number;\n}\n",
            ),
            A("Adding `@IsOptional() @IsString() @MaxLength(500) notes?: string;` and a matching column on the entity."),
            Edit("src/bookings/dto/create-booking.dto.ts"),
            Edit("src/bookings/booking.entity.ts"),
            Bash(
                "npm run migration:generate -- src/migrations/AddBookingNotes 2>&1 | tail -1",
                "Migration /home/dev/app/src/migrations/1741099912345-AddBookingNotes.ts has been generated successfully.",
            ),
            Bash(
                "npm test -- bookings 2>&1 | tail -4",
                "Test Suites: 3 passed, 3 total\nTests:       21 passed, 21 total\nSnapshots:   0 total\nTime:        4.87 s",
            ),
            A("Done: DTO field, entity column (varchar 500, nullable) and migration. Bookings tests pass, including a new one that rejects 501 chars."),
            U("ok ty"),
        ],
    ),
    (
        "blind17-smalltalk-conference",
        "claude",
        "blind17",
        [
            U("hey, not a coding thing. i'm going to a conference next week for the first time, any tips for not being totally exhausted by day 2"),
            A(
                "Congrats, first one is fun! A few things that help most people:\n\n- Don't try to attend every talk. Most get recorded; pick two or three per day you really care about and treat the rest as optional.\n- The hallway is the conference. Short conversations at breaks are usually worth more than another talk.\n- Bring a water bottle and eat actual lunch; venue coffee plus no food is how day 2 goes wrong.\n- Plan one quiet break per day where you leave the venue for 20 minutes.\n- Comfortable shoes, seriously."
            ),
            U("lol the shoes thing. ok. what do i say when i walk up to random people"),
            A(
                "Keep it simple: \"what talk did you just come from?\" or \"what are you working on these days?\" works almost every time, and everyone there is in the same slightly awkward situation. If you enjoyed a talk, telling the speaker afterwards is also an easy opener; speakers love hearing it."
            ),
            U("nice, thanks!"),
            A("Have a great time!"),
        ],
    ),
    (
        "blind17-codex-smalltalk-keyboard",
        "codex",
        "blind17",
        [
            U("random q, do you think split keyboards are worth it or is it a meme"),
            A(
                "Depends on what bugs you. If you get wrist or shoulder tension, a split lets your hands sit at shoulder width and that helps a lot of people. The cost is a couple of weeks of being slow, and more if you go columnar (ortholinear stagger) at the same time. If typing already feels fine, it's mostly a hobby, which is also a fine reason."
            ),
            U("i've had some wrist pain lately tbh"),
            A(
                "Then it might be worth trying, but I'd start with the cheap stuff first: check desk and chair height so your forearms are level, take breaks, and if it doesn't go away, see a doctor or physio rather than relying on hardware. A split with a normal row stagger is a gentler first step than jumping to a 36-key board."
            ),
            U("ok makes sense, thx"),
        ],
    ),
    (
        "blind17-smalltalk-name-for-cat",
        "claude",
        "blind17",
        [
            U("we adopted a cat today!! need a name. she's grey and very judgemental"),
            A(
                "Congratulations! For a grey, judgemental cat: Duchess, Earl Grey, Ash, Pebble, Smokey, Agatha, Minerva, Judge Judy, or Graphite if you want something nerdy."),
            U("minerva is good. or pebble. partner wants pebble"),
            A("Pebble for everyday, Minerva when she's being judgemental? Cats don't answer to their names anyway."),
            U("hahaha true. pebble it is"),
        ],
    ),
]
