# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind20" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND20: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind20-celery-beat-db-scheduler",
        "claude",
        "blind20",
        [
            U(
                "i added a nightly cleanup task to CELERY_BEAT_SCHEDULE in settings/base.py two days ago and it has never run. beat is up, worker is up. whats going on"
            ),
            Bash(
                "docker compose logs beat --since 48h | grep -i -E 'scheduler|cleanup' | head -5",
                "beat-1  | [2026-03-02 00:00:01,112: INFO/MainProcess] beat: Starting...\nbeat-1  | [2026-03-02 00:00:01,140: INFO/MainProcess] Writing entries...\nbeat-1  | LocalTime -> 2026-03-02 00:00:01\nbeat-1  | Configuration ->\nbeat-1  |     . scheduler -> django_celery_beat.schedulers.DatabaseScheduler",
            ),
            Bash(
                "docker compose exec web python manage.py shell -c \"from django_celery_beat.models import PeriodicTask; print(list(PeriodicTask.objects.values_list('name', 'task', 'enabled')))\"",
                "[('celery.backend_cleanup', 'celery.backend_cleanup', True), ('send-digest', 'mail.tasks.send_digest', True), ('sync-stripe', 'billing.tasks.sync_stripe', False)]",
            ),
            A(
                "Found it. Beat is running with `django_celery_beat.schedulers.DatabaseScheduler`, so the schedule it actually uses is the `PeriodicTask` table, not the settings dict. "
                "The DatabaseScheduler only syncs `CELERY_BEAT_SCHEDULE` into the table when it starts up and writes entries, and your beat container has been up since before your change (started 2026-03-02 00:00), so `cleanup-stale-uploads` never got written. "
                "Restarting beat would pick it up, but the other entries in the table were clearly created through the admin, so the table is the source of truth here.\n\n"
                "I'd add it as a data migration so it exists in every environment without depending on a beat restart. Want me to do that?",
                lesson=(RC, "the schedule it actually uses is the `PeriodicTask` table, not the settings dict"),
            ),
            U(
                "yes do the migration. and remove it from CELERY_BEAT_SCHEDULE so nobody gets confused again. also the crontab needs to be in UTC, all our periodic tasks are defined in UTC, never local time, ops runs in 3 timezones"
                ,
                lesson=(R, "all our periodic tasks are defined in UTC, never local time"),
            ),
            Edit("uploads/migrations/0014_cleanup_periodic_task.py"),
            Edit("config/settings/base.py"),
            Bash(
                "docker compose exec web python manage.py migrate uploads && docker compose exec web python manage.py shell -c \"from django_celery_beat.models import PeriodicTask; t=PeriodicTask.objects.get(name='cleanup-stale-uploads'); print(t.crontab, t.crontab.timezone)\"",
                "Operations to perform:\n  Apply all migrations: uploads\nRunning migrations:\n  Applying uploads.0014_cleanup_periodic_task... OK\n30 3 * * * (m/h/dM/MY/d) UTC UTC",
            ),
            A(
                "Migration applied; the task is in the table with a 03:30 UTC crontab and the settings entry is gone. Beat's DatabaseScheduler polls for changes so no restart is needed this time."
            ),
            U("cool thx"),
        ],
    ),
    (
        "blind20-codex-express-zod-safeparse",
        "codex",
        "blind20",
        [
            U(
                "add validation to POST /api/invoices with zod. body: customerId (uuid), lines (array, min 1) each with sku string, qty positive int, unitPriceCents int >= 0. src/routes/invoices.ts"
            ),
            Read(
                "src/routes/invoices.ts",
                "import { Router } from 'express';\nimport { createInvoice } from '../services/invoices';\n\nexport const invoices = Router();\n\ninvoices.post('/', async (req, res) => {\n  const invoice = await createInvoice(req.body);\n  res.status(201).json(invoice);\n});\n",
            ),
            A(
                "I'll define `CreateInvoiceBody` with zod and call `CreateInvoiceBody.parse(req.body)` at the top of the handler, wrapping it in try/catch so a ZodError becomes a 400 with `err.issues`."
            ),
            Edit("src/routes/invoices.ts"),
            U(
                "no, we dont do try/catch around parse in handlers. there's validate() in src/middleware/validate.ts, pass the schema to it as middleware. it formats the 400 the way the frontend expects (flattened fieldErrors), your version would return raw issues and break the form",
                lesson=(C, "we dont do try/catch around parse in handlers"),
            ),
            Read(
                "src/middleware/validate.ts",
                "import type { RequestHandler } from 'express';\nimport type { ZodTypeAny } from 'zod';\n\nexport const validate = (schema: ZodTypeAny): RequestHandler => (req, res, next) => {\n  const result = schema.safeParse(req.body);\n  if (!result.success) {\n    return res.status(400).json({ error: 'validation_failed', fields: result.error.flatten().fieldErrors });\n  }\n  req.body = result.data;\n  next();\n};\n",
            ),
            A("Got it, switching to `invoices.post('/', validate(CreateInvoiceBody), ...)` and dropping the try/catch."),
            Edit("src/routes/invoices.ts"),
            Edit("src/routes/invoices.test.ts"),
            Bash(
                "npx vitest run src/routes/invoices.test.ts",
                " RUN  v2.1.4 /home/dev/app\n\n ✓ src/routes/invoices.test.ts (5 tests) 48ms\n\n Test Files  1 passed (1)\n      Tests  5 passed (5)\n   Start at  10:14:22\n   Duration  812ms",
            ),
            A(
                "Done. Schema lives next to the route, `validate()` handles the 400, and I added tests for empty `lines`, qty 0, a non-uuid customerId and a negative price."
            ),
        ],
    ),
    (
        "blind20-gemini-sqlc-pgx-uuid",
        "gemini",
        "blind20",
        [
            U(
                "regenerated sqlc after adding the orders.shipped_at column and now the build is broken in a bunch of places"
            ),
            Bash(
                "go build ./... 2>&1 | head -6",
                "# github.com/harbor/fulfil/internal/orders\ninternal/orders/service.go:58:25: cannot use row.ShippedAt (variable of type pgtype.Timestamptz) as *time.Time value in struct literal\ninternal/orders/service.go:91:17: cannot use o.CustomerID (variable of type pgtype.UUID) as uuid.UUID value in argument to s.customers.Get\ninternal/orders/service.go:112:17: cannot use o.CustomerID (variable of type pgtype.UUID) as uuid.UUID value in argument to s.customers.Get",
                failed=True,
            ),
            Read(
                "sqlc.yaml",
                'version: "2"\nsql:\n  - engine: postgresql\n    queries: internal/db/queries\n    schema: migrations\n    gen:\n      go:\n        package: db\n        out: internal/db\n        sql_package: pgx/v5\n',
            ),
            A(
                "Two separate things are going on. The `uuid.UUID` errors are not from your column at all: sqlc.yaml has no `overrides`, and with `sql_package: pgx/v5` sqlc maps `uuid` to `pgtype.UUID` by default. "
                "Looking at git, the previous generated code was produced with an older sqlc.yaml that had overrides which were dropped in the 'simplify sqlc config' commit last week, so this is the first regenerate since then. "
                "The `ShippedAt` error is expected: a nullable `timestamptz` becomes `pgtype.Timestamptz` under pgx/v5.\n\n"
                "Options: (a) convert at the service boundary with helper funcs, or (b) restore overrides so `uuid` -> `github.com/google/uuid.UUID` and nullable timestamptz -> `*time.Time`. (b) keeps the service code as it was and avoids pgtype leaking everywhere.",
                lesson=(RC, "with `sql_package: pgx/v5` sqlc maps `uuid` to `pgtype.UUID` by default"),
            ),
            U(
                "b. pgtype shouldnt leak out of internal/db, go with overrides"
            ),
            A(
                "Going with overrides in sqlc.yaml so generated structs use `uuid.UUID` and `*time.Time`, keeping pgtype inside internal/db.",
                lesson=(D, "Going with overrides in sqlc.yaml so generated structs use `uuid.UUID`"),
            ),
            Edit("sqlc.yaml"),
            Bash(
                "sqlc generate && go build ./... && go test ./internal/... 2>&1 | tail -4",
                "ok  \tgithub.com/harbor/fulfil/internal/customers\t0.412s\nok  \tgithub.com/harbor/fulfil/internal/db\t1.907s\nok  \tgithub.com/harbor/fulfil/internal/orders\t0.655s\n?   \tgithub.com/harbor/fulfil/internal/platform\t[no test files]",
            ),
            A("Builds and tests pass. Overrides added for `uuid`, nullable `uuid` (`uuid.NullUUID`) and nullable `timestamptz` (`*time.Time`)."),
        ],
    ),
    (
        "blind20-bevy-system-order",
        "claude",
        "blind20",
        [
            U(
                "bug in the roguelike: when the player steps on a trap the damage number pops up one frame late and sometimes the hp bar shows the old value. bevy 0.14. src/combat.rs src/ui/hud.rs"
            ),
            Read(
                "src/main.rs",
                "app.add_event::<DamageEvent>()\n    .add_systems(Update, (\n        ui::hud::update_hp_bar,\n        ui::hud::spawn_damage_numbers,\n        combat::trigger_traps,\n        combat::apply_damage,\n    ));",
            ),
            A(
                "The four systems are in one tuple with no ordering, so Bevy is free to run them in any order (and in parallel where access allows). When `spawn_damage_numbers` happens to run before `trigger_traps` writes the `DamageEvent`, it only sees the event next frame. I'll chain them: `(combat::trigger_traps, combat::apply_damage, ui::hud::update_hp_bar, ui::hud::spawn_damage_numbers).chain()`."
            ),
            U(
                "dont chain them, chain serializes the whole tuple and hud systems should be able to run in parallel with each other. we use system sets, theres GameSet::Combat and GameSet::Ui in src/sets.rs, configure_sets with Combat before Ui",
                lesson=(C, "dont chain them, chain serializes the whole tuple"),
            ),
            Read(
                "src/sets.rs",
                "#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]\npub enum GameSet {\n    Input,\n    Combat,\n    Ui,\n}\n",
            ),
            Edit("src/main.rs"),
            Bash(
                "cargo run --features bevy/dynamic_linking -- --headless-test traps 2>&1 | tail -4",
                "   Compiling roguelike v0.3.0 (/home/dev/roguelike)\n    Finished `dev` profile [optimized + debuginfo] target(s) in 6.81s\n     Running `target/debug/roguelike --headless-test traps`\n[traps] 40 frames, damage number frame delta: 0, hp bar stale frames: 0 ... OK",
            ),
            A(
                "Fixed with `configure_sets(Update, (GameSet::Combat, GameSet::Ui).chain())` and `.in_set(...)` on each system, so combat runs before UI but the HUD systems stay parallel.\n\n"
                "One thing to keep in mind: `EventReader` only keeps events for two frames (events are double-buffered and cleared by `event_update_system` in `First`), so a system that's gated by a run condition and skips a couple of frames will silently miss damage events. If you ever put the HUD behind `run_if(in_state(...))`, switch those to reading a resource instead.",
                lesson=(N, "`EventReader` only keeps events for two frames"),
            ),
            U("good to know, thanks"),
        ],
    ),
    (
        "blind20-blazor-statehaschanged-thread",
        "claude",
        "blind20",
        [
            U(
                "Blazor Server app, the live job progress component crashes as soon as a job reports progress. Components/JobProgress.razor"
            ),
            Bash(
                "dotnet run --project src/Ops.Web 2>&1 | grep -A4 'fail:' | head -8",
                "fail: Microsoft.AspNetCore.Components.Server.Circuits.CircuitHost[111]\n      Unhandled exception in circuit 'kH3x0x9tTz1sQ2r8v7GmXw'.\n      System.InvalidOperationException: The current thread is not associated with the Dispatcher. Use InvokeAsync() to switch execution to the Dispatcher when triggering rendering or component state.\n         at Microsoft.AspNetCore.Components.Dispatcher.AssertAccess()\n         at Microsoft.AspNetCore.Components.ComponentBase.StateHasChanged()",
                failed=True,
            ),
            Read(
                "src/Ops.Web/Components/JobProgress.razor",
                "@code {\n    [Parameter] public Guid JobId { get; set; }\n    private int percent;\n\n    protected override void OnInitialized()\n    {\n        Tracker.ProgressChanged += (id, p) =>\n        {\n            if (id != JobId) return;\n            percent = p;\n            StateHasChanged();\n        };\n    }\n}\n",
            ),
            A(
                "`Tracker.ProgressChanged` is raised from the background worker (the hosted service that runs the jobs), so the handler runs on a thread-pool thread, not on the circuit's synchronization context. "
                "Blazor Server only allows rendering from the circuit's dispatcher, so `StateHasChanged()` from there throws and the circuit dies. The fix is `await InvokeAsync(StateHasChanged)` in the handler. "
                "While I'm in there: the lambda is never unsubscribed, so every closed tab leaves a handler attached to a singleton; I'll make the component `IDisposable` and remove the handler in `Dispose`.",
                lesson=(RC, "the handler runs on a thread-pool thread, not on the circuit's synchronization context"),
            ),
            Edit("src/Ops.Web/Components/JobProgress.razor"),
            Bash(
                "dotnet test tests/Ops.Web.Tests --filter JobProgress 2>&1 | tail -2",
                "Passed!  - Failed:     0, Passed:     4, Skipped:     0, Total:     4, Duration: 312 ms - Ops.Web.Tests.dll (net8.0)",
            ),
            A("Tests pass and starting a job locally shows the bar moving without the circuit dropping."),
        ],
    ),
    (
        "blind20-codex-micronaut-data-jdbc",
        "codex",
        "blind20",
        [
            U(
                "new service for the loyalty points ledger, micronaut 4, postgres. need a repository for ledger_entries (id, member_id, delta, reason, created_at). should we do micronaut data jpa like the old catalog service or jdbc?"
            ),
            A(
                "I'd go with Micronaut Data JDBC here. The ledger is append-only with no relationships to map, and JDBC gives compile-time generated SQL with no Hibernate session, no lazy-loading surprises and a much faster startup (the catalog service spends ~1.8s in Hibernate bootstrap). "
                "JPA would mainly pay off if we needed entity graphs or dirty checking, which an insert-and-sum ledger doesn't. The cost is that queries like the running balance need `@Query` with native SQL, which is fine.",
            ),
            U("agreed, jdbc. append-only ledger doesnt need hibernate", lesson=(D, "agreed, jdbc. append-only ledger doesnt need hibernate")),
            Edit("ledger/src/main/java/com/acme/loyalty/ledger/LedgerEntry.java"),
            Edit("ledger/src/main/java/com/acme/loyalty/ledger/LedgerRepository.java"),
            Edit("ledger/src/main/java/com/acme/loyalty/ledger/LedgerService.java"),
            A(
                "Entity, `@JdbcRepository(dialect = Dialect.POSTGRES)` repository with `sumDeltaByMemberId`, and a `LedgerService` that injects the repository with `@Inject LedgerRepository repository;`."
            ),
            U(
                "change that to constructor injection. in this repo never use field injection, always constructor + final fields. field injection needs reflection in micronaut and it makes the tests ugly",
                lesson=(R, "never use field injection, always constructor + final fields"),
            ),
            Edit("ledger/src/main/java/com/acme/loyalty/ledger/LedgerService.java"),
            Bash(
                "./gradlew :ledger:test 2>&1 | tail -5",
                "> Task :ledger:compileJava\n> Task :ledger:test\n\nBUILD SUCCESSFUL in 23s\n7 actionable tasks: 7 executed",
            ),
            A("Switched to a constructor with `private final LedgerRepository repository`. Tests (Testcontainers Postgres) pass."),
        ],
    ),
    (
        "blind20-gemini-kmp-compose-resources",
        "gemini",
        "blind20",
        [
            U(
                "compose multiplatform 1.7. added an svg icon to composeApp/src/commonMain/composeResources/drawable/ic_streak.xml but Res.drawable.ic_streak is unresolved"
            ),
            Bash(
                "./gradlew :composeApp:compileKotlinDesktop 2>&1 | grep '^e:'",
                "e: file:///Users/mira/habits/composeApp/src/commonMain/kotlin/ui/StreakBadge.kt:14:37 Unresolved reference 'ic_streak'.",
                failed=True,
            ),
            Bash(
                "ls composeApp/src/commonMain/composeResources/drawable/",
                "ic_check.xml\nic_flame.xml\nic_streak.svg",
            ),
            A(
                "The file on disk is `ic_streak.svg`, not `.xml`. Compose resources don't support raw SVG as a drawable on every target (Android drawables must be vector XML), so the generator skips it and no accessor is created. I'll convert it to an Android vector drawable with the same name."
            ),
            Edit("composeApp/src/commonMain/composeResources/drawable/ic_streak.xml"),
            Bash(
                "rm composeApp/src/commonMain/composeResources/drawable/ic_streak.svg && ./gradlew :composeApp:generateComposeResClass :composeApp:compileKotlinDesktop 2>&1 | tail -1",
                "BUILD SUCCESSFUL in 18s",
            ),
            A(
                "Builds now. Heads-up for next time: the `Res` class is generated code, so after adding or renaming any file under composeResources the IDE won't see the new accessor until `generateComposeResClass` runs (a Gradle sync or a build does it). If it's red in the editor but the file is right, run that task before debugging further.",
                lesson=(N, "the IDE won't see the new accessor until `generateComposeResClass` runs"),
            ),
            U("ok"),
        ],
    ),
    (
        "blind20-swift-combine-cancellable",
        "claude",
        "blind20",
        [
            U(
                "SearchViewModel never updates results. the debounce pipeline looks right to me?? Sources/Search/SearchViewModel.swift"
            ),
            Read(
                "Sources/Search/SearchViewModel.swift",
                "final class SearchViewModel: ObservableObject {\n    @Published var query = \"\"\n    @Published private(set) var results: [Track] = []\n    private let api: CatalogAPI\n\n    init(api: CatalogAPI) {\n        self.api = api\n        _ = $query\n            .debounce(for: .milliseconds(300), scheduler: RunLoop.main)\n            .removeDuplicates()\n            .flatMap { self.api.search($0) }\n            .receive(on: DispatchQueue.main)\n            .sink(receiveCompletion: { _ in }, receiveValue: { self.results = $0 })\n    }\n}\n",
            ),
            A(
                "The pipeline itself is fine; the problem is `_ = $query...sink(...)`. `sink` returns an `AnyCancellable`, and an `AnyCancellable` cancels its subscription when it's deallocated. Assigning it to `_` drops it at the end of `init`, so the subscription is torn down before the first keystroke ever arrives.\n\n"
                "Also, `flatMap` with an API that can fail will end the whole pipeline on the first network error (the `receiveCompletion` swallows it), so after one failed request the search would go dead too. I'll store the cancellable in a `Set<AnyCancellable>`, use `switchToLatest` via `map` so stale requests get cancelled, and `catch` per request.",
                lesson=(RC, "Assigning it to `_` drops it at the end of `init`"),
            ),
            Edit("Sources/Search/SearchViewModel.swift"),
            Bash(
                "swift test --filter SearchViewModelTests 2>&1 | tail -3",
                "Test Suite 'SearchViewModelTests' passed at 2026-03-04 10:22:41.118.\n\t Executed 3 tests, with 0 failures (0 unexpected) in 0.842 (0.845) seconds\n◇ Test run with 0 tests passed after 0.001 seconds.",
            ),
            U(
                "nice. also use [weak self] in the closures, that self capture is a retain cycle. in our codebase every sink/assign that touches self goes through [weak self] or assign(to: &$prop), no exceptions",
                lesson=(R, "every sink/assign that touches self goes through [weak self] or assign(to: &$prop)"),
            ),
            A("Right, `self` was captured strongly inside a cancellable that `self` owns. I replaced the sink with `.assign(to: &$results)`, which ties the subscription to the published property and needs no cancellable, and made the `flatMap` closure `[weak self]`."),
            Edit("Sources/Search/SearchViewModel.swift"),
            Bash("swift test --filter SearchViewModelTests 2>&1 | tail -2", "\t Executed 3 tests, with 0 failures (0 unexpected) in 0.801 (0.803) seconds\n◇ Test run with 0 tests passed after 0.001 seconds."),
        ],
    ),
    (
        "blind20-flutter-riverpod-watch",
        "claude",
        "blind20",
        [
            U(
                "cart badge in the app bar doesnt update when i add items. lib/widgets/cart_badge.dart. riverpod 2.5 with codegen"
            ),
            Read(
                "lib/widgets/cart_badge.dart",
                "class CartBadge extends ConsumerWidget {\n  const CartBadge({super.key});\n\n  @override\n  Widget build(BuildContext context, WidgetRef ref) {\n    final count = ref.read(cartProvider).items.length;\n    return Badge(label: Text('$count'), child: const Icon(Icons.shopping_cart));\n  }\n}\n",
            ),
            A(
                "`ref.read` in `build` reads the value once and doesn't subscribe, so the badge never rebuilds. Simplest fix: keep `ref.read` but wrap the badge in a `Consumer` inside the AppBar that calls `ref.refresh(cartProvider)` when the cart screen pops."
            ),
            U(
                "thats way overcomplicated and refresh would throw away the cart state. just use ref.watch in build, read is only for callbacks like onPressed. and watch a select so it only rebuilds when the count changes",
                lesson=(C, "just use ref.watch in build, read is only for callbacks"),
            ),
            Edit("lib/widgets/cart_badge.dart"),
            Bash(
                "flutter test test/widgets/cart_badge_test.dart",
                "00:02 +2: All tests passed!",
            ),
            A(
                "Now `final count = ref.watch(cartProvider.select((c) => c.items.length));`.\n\n"
                "While testing I noticed something you'll probably hit: `@riverpod` codegen providers are autoDispose by default, and `cartProvider` has no listeners while the user is on the checkout web view (the app bar isn't mounted there), so the cart state gets disposed and comes back empty. "
                "Annotating it `@Riverpod(keepAlive: true)` keeps it alive for the app's lifetime. I haven't changed that yet, want me to?",
                lesson=(N, "`@riverpod` codegen providers are autoDispose by default"),
            ),
            U("yes keepAlive for the cart, it should live for the session"),
            Edit("lib/state/cart.dart"),
            Bash("dart run build_runner build --delete-conflicting-outputs 2>&1 | tail -1 && flutter test 2>&1 | tail -1", "[INFO] Succeeded after 7.4s with 2 outputs (6 actions)\n00:09 +41: All tests passed!"),
            A("Done, regenerated and all 41 tests pass."),
        ],
    ),
    (
        "blind20-codex-react-query-invalidate",
        "codex",
        "blind20",
        [
            U(
                "after renaming a project in the settings modal the sidebar still shows the old name until reload. tanstack query v5. src/features/projects/"
            ),
            Bash(
                "grep -rn \"queryKey\" src/features/projects/ | head",
                "src/features/projects/useProjects.ts:6:    queryKey: ['projects'],\nsrc/features/projects/useProject.ts:7:    queryKey: ['project'],\nsrc/features/projects/useRenameProject.ts:9:      qc.invalidateQueries({ queryKey: ['projects', id] });",
            ),
            A(
                "Two issues. `useRenameProject` invalidates `['projects', id]`, but the sidebar list lives under `['projects']` and prefix matching only goes one way: invalidating `['projects', id]` does not touch `['projects']`. And `useProject` uses `['project']` without the id at all, so every project detail shares one cache entry.\n\n"
                "For the mutation there are two ways: invalidate `['projects']` so everything under it refetches, or `setQueryData` to patch the list and the detail in place. Patching saves one request but duplicates the server's rename logic (slug regeneration) on the client. I'd invalidate.",
            ),
            U("invalidate, yes. we dont want to mirror server logic in the cache",
              lesson=(D, "we dont want to mirror server logic in the cache")),
            Edit("src/features/projects/useRenameProject.ts"),
            Edit("src/features/projects/useProject.ts"),
            Bash(
                "npx vitest run src/features/projects",
                " ✓ src/features/projects/useRenameProject.test.tsx (2 tests) 131ms\n ✓ src/features/projects/useProject.test.tsx (3 tests) 88ms\n\n Test Files  2 passed (2)\n      Tests  5 passed (5)",
            ),
            A(
                "Keys are now `['projects']` and `['projects', id]`, and the mutation invalidates `['projects']`, which covers both. "
                "Note for future hooks: anything the queryFn reads (id, filters, page) has to be in the queryKey, otherwise different inputs share one cache entry and you get the wrong project flashing in. The `['project']` key was exactly that bug.",
                lesson=(N, "anything the queryFn reads (id, filters, page) has to be in the queryKey"),
            ),
        ],
    ),
    (
        "blind20-gemini-remix-loader-date",
        "gemini",
        "blind20",
        [
            U(
                "app/routes/events.$slug.tsx throws 'event.startsAt.toLocaleDateString is not a function' in the browser but typescript is happy"
            ),
            Read(
                "app/routes/events.$slug.tsx",
                "export async function loader({ params }: LoaderFunctionArgs) {\n  const event = await db.event.findUniqueOrThrow({ where: { slug: params.slug } });\n  return json({ event });\n}\n\nexport default function EventPage() {\n  const { event } = useLoaderData<{ event: Event }>();\n  return <time>{event.startsAt.toLocaleDateString('en-GB')}</time>;\n}\n",
            ),
            A(
                "The loader returns a Prisma `Event` whose `startsAt` is a `Date`, but `json()` runs it through `JSON.stringify`, so on the client it arrives as an ISO string. "
                "TypeScript doesn't catch it because the component asserts the shape with `useLoaderData<{ event: Event }>()` instead of inferring it from the loader. With `useLoaderData<typeof loader>()` Remix's `SerializeFrom` type would have shown `startsAt: string` and the call would not compile.\n\n"
                "I'll switch to `typeof loader` and parse the date in the component.",
                lesson=(RC, "`json()` runs it through `JSON.stringify`, so on the client it arrives as an ISO string"),
            ),
            Edit("app/routes/events.$slug.tsx"),
            Bash(
                "npm run typecheck && npx vitest run app/routes 2>&1 | tail -3",
                "> typecheck\n> tsc\n\n Test Files  4 passed (4)\n      Tests  11 passed (11)\n   Duration  1.63s",
            ),
            A("Typecheck and tests pass; the event page renders the date again."),
            U("thanks"),
        ],
    ),
    (
        "blind20-astro-content-collections",
        "claude",
        "blind20",
        [
            U(
                "add a `tags` field to the blog collection in src/content/config.ts and a /tags/[tag] page listing posts"
            ),
            Read(
                "src/content/config.ts",
                "import { defineCollection, z } from 'astro:content';\n\nconst blog = defineCollection({\n  type: 'content',\n  schema: z.object({\n    title: z.string(),\n    pubDate: z.coerce.date(),\n    draft: z.boolean().default(false),\n  }),\n});\n\nexport const collections = { blog };\n",
            ),
            Edit("src/content/config.ts"),
            Edit("src/pages/tags/[tag].astro"),
            A(
                "Added `tags: z.array(z.string()).default([])` and a `[tag].astro` page whose `getStaticPaths` does `await getCollection('blog')` and builds one path per distinct tag."
            ),
            U(
                "the tags page will list drafts. every getCollection('blog') call has to filter with ({ data }) => !data.draft, there's no global filter in astro so we do it at every call site. there's getPublishedPosts() in src/lib/posts.ts for exactly this, use that",
                lesson=(R, "every getCollection('blog') call has to filter with ({ data }) => !data.draft"),
            ),
            A("Right, switching the tags page to `getPublishedPosts()`."),
            Edit("src/pages/tags/[tag].astro"),
            U(
                "also tags should be lowercase slugs, not free text. 'Rust' and 'rust' ended up as two pages on the old site. dont lowercase them in the page, enforce it in the schema",
                lesson=(C, "dont lowercase them in the page, enforce it in the schema"),
            ),
            Edit("src/content/config.ts"),
            Bash(
                "npx astro check 2>&1 | tail -3 && npx astro build 2>&1 | grep -E 'tags|error' | head -4",
                "Result (38 files): \n- 0 errors\n- 0 warnings\n  ├─ /tags/astro/index.html (+4ms)\n  ├─ /tags/rust/index.html (+2ms)\n  ├─ /tags/self-hosting/index.html (+2ms)",
            ),
            A(
                "Schema now uses `z.array(z.string().regex(/^[a-z0-9-]+$/, 'tags must be lowercase slugs'))`, so a post with `Rust` fails the build with a clear message. Build is clean, 11 tag pages generated."
            ),
        ],
    ),
    (
        "blind20-eleventy-passthrough-serve",
        "claude",
        "blind20",
        [
            U(
                "eleventy 3. images i drop into src/assets/img dont show up when running npm start, only after a full rebuild. also want to pick between keeping liquid or moving the layouts to nunjucks, the liquid includes are getting messy"
            ),
            Read(
                "eleventy.config.js",
                "export default function (eleventyConfig) {\n  eleventyConfig.addPassthroughCopy('src/assets');\n  return { dir: { input: 'src', output: '_site' }, templateFormats: ['md', 'liquid'] };\n}\n",
            ),
            Bash("cat package.json | grep '\"start\"'", '    "start": "npx @11ty/eleventy --serve --incremental",'),
            A(
                "That's the dev server, not a bug in your config. During `--serve`, Eleventy 3 doesn't copy passthrough files into `_site`; the dev server serves them straight from `src/assets` and it only learns about new files through the watcher. "
                "With `--incremental`, adding a file that no template references doesn't trigger a rebuild, so the new image isn't in the server's passthrough map until a template change or a restart. "
                "If you ever check `_site` during `npm start` and see images missing, that's also expected, they only get copied on a real `npx @11ty/eleventy` build. "
                "Adding `eleventyConfig.addWatchTarget('src/assets/img/')` makes new images trigger a reload.",
                lesson=(N, "During `--serve`, Eleventy 3 doesn't copy passthrough files into `_site`"),
            ),
            Edit("eleventy.config.js"),
            A(
                "On Liquid vs Nunjucks: the messy part is that Liquid's `{% include %}` can't take expressions as arguments cleanly and you're faking components with `{% assign %}` before each include. Nunjucks has macros with real parameters and `{% extends %}`/blocks, which fits the layout chain you have. "
                "The catch is that Nunjucks is more permissive (arbitrary JS-ish expressions) and the markdown files currently get preprocessed with Liquid. I'd move layouts and includes to Nunjucks and set `markdownTemplateEngine: 'njk'` so there's one syntax."
            ),
            U(
                "ok do it, nunjucks for everything, one syntax is the point",
                lesson=(D, "nunjucks for everything, one syntax is the point"),
            ),
            Bash(
                "git mv src/_includes/layouts/base.liquid src/_includes/layouts/base.njk && git mv src/_includes/layouts/post.liquid src/_includes/layouts/post.njk && ls src/_includes/partials",
                "card.liquid\nfooter.liquid\nnav.liquid",
            ),
            Edit("src/_includes/partials/macros.njk"),
            Edit("eleventy.config.js"),
            Bash(
                "npx @11ty/eleventy 2>&1 | tail -2",
                "[11ty] Copied 64 Wrote 37 files in 0.71 seconds (19.2ms each, v3.0.0)",
            ),
            A("Migrated: layouts are .njk, the three partials are macros in `macros.njk`, and `markdownTemplateEngine`/`htmlTemplateEngine` are both `njk`. The build output diffs clean against the old `_site` except whitespace."),
        ],
    ),
    (
        "blind20-codex-terraform-cloudflare-v5",
        "codex",
        "blind20",
        [
            U(
                "bumped cloudflare provider to ~> 5.0 in infra/dns, plan explodes. fix it"
            ),
            Bash(
                "cd infra/dns && terraform init -upgrade >/dev/null && terraform plan 2>&1 | head -14",
                "╷\n│ Error: Invalid resource type\n│ \n│   on records.tf line 1, in resource \"cloudflare_record\" \"apex\":\n│    1: resource \"cloudflare_record\" \"apex\" {\n│ \n│ The provider cloudflare/cloudflare does not support resource type\n│ \"cloudflare_record\".\n╵\n╷\n│ Error: Unsupported argument\n│ \n│   on records.tf line 5, in resource \"cloudflare_record\" \"apex\":\n│    5:   value   = var.origin_ip",
                failed=True,
            ),
            A(
                "v5 of the Cloudflare provider is generated from Cloudflare's OpenAPI schema, and a lot of resources were renamed to match the API: `cloudflare_record` is now `cloudflare_dns_record`, and its `value` argument became `content` (`ttl` is also required now). "
                "Since the resource type changed, Terraform would plan a destroy/create for all 23 records, so I'll add `moved {}` blocks from the old addresses to the new ones along with the renames.",
                lesson=(RC, "`cloudflare_record` is now `cloudflare_dns_record`, and its `value` argument became `content`"),
            ),
            Edit("infra/dns/records.tf"),
            Edit("infra/dns/moved.tf"),
            Bash(
                "cd infra/dns && terraform plan -no-color 2>&1 | tail -3",
                "  # cloudflare_record.www has moved to cloudflare_dns_record.www\n\nPlan: 0 to add, 0 to change, 0 to destroy.",
            ),
            A("Plan is clean: 23 moves, 0 changes. Want me to run `terraform apply` so the state gets the new addresses?"),
            U(
                "no. nobody applies from a laptop here, only plan. apply happens in the atlantis PR after review. just push the branch",
                lesson=(R, "nobody applies from a laptop here, only plan"),
            ),
            Bash(
                "git checkout -b cf-provider-v5 && git add infra/dns && git commit -qm 'dns: migrate to cloudflare provider v5' && git push -u origin cf-provider-v5 2>&1 | tail -2",
                "remote: Create a pull request for 'cf-provider-v5' on GitHub by visiting:\nremote:      https://github.com/northwind-ops/infra/pull/new/cf-provider-v5",
            ),
            A("Pushed `cf-provider-v5`; Atlantis will post the plan once you open the PR."),
        ],
    ),
    (
        "blind20-gemini-pulumi-stack-reference",
        "gemini",
        "blind20",
        [
            U(
                "pulumi python. the app stack (infra/app) needs the vpc id and private subnet ids from the network stack (infra/network). how should it get them"
            ),
            A(
                "Two common options:\n\n1. Copy the values into the app stack's config (`pulumi config set vpcId vpc-...`). Simple, but the values go stale if network is ever recreated and nothing tells you.\n"
                "2. A `pulumi.StackReference('acme/network/prod')` in the app stack and `require_output('vpc_id')`. The dependency is explicit and values always match what network exported.\n\n"
                "I'd go with the StackReference, with the network stack name derived from the current stack (`f\"acme/network/{pulumi.get_stack()}\"`) so dev uses dev network and prod uses prod."
            ),
            U(
                "yes stack reference, derived from the stack name like you said",
                lesson=(D, "stack reference, derived from the stack name like you said"),
            ),
            Read(
                "infra/network/__main__.py",
                "vpc = awsx.ec2.Vpc(\"main\", cidr_block=\"10.40.0.0/16\", number_of_availability_zones=3)\n\npulumi.export(\"vpcId\", vpc.vpc_id)\npulumi.export(\"privateSubnetIds\", vpc.private_subnet_ids)\n",
            ),
            A("Network exports `vpcId` and `privateSubnetIds`. I'll also rename those exports to snake_case `vpc_id` / `private_subnet_ids` so they match the Python style in the app code."),
            U(
                "dont rename the exports. the data-platform team has their own stack reading vpcId and privateSubnetIds from network, renaming would break their next up. just read the existing names",
                lesson=(C, "dont rename the exports. the data-platform team has their own stack reading"),
            ),
            Edit("infra/app/__main__.py"),
            Bash(
                "cd infra/app && pulumi preview --stack dev --diff 2>&1 | tail -6",
                "Previewing update (dev)\n\n     Type                 Name           Plan\n     pulumi:pulumi:Stack  app-dev\n +   ├─ aws:ec2:SecurityGroup  api-sg     create\n\nResources:\n    + 1 to create\n    14 unchanged",
            ),
            A("Preview for dev resolves the network outputs; the only change is the new security group that uses `vpcId`. Network exports are untouched."),
        ],
    ),
    (
        "blind20-packer-cloud-init-apt-lock",
        "claude",
        "blind20",
        [
            U(
                "packer build for the ubuntu 24.04 runner AMI fails randomly in the apt step, maybe 1 in 3 builds. images/runner.pkr.hcl"
            ),
            Bash(
                "packer build -only='amazon-ebs.runner' images/runner.pkr.hcl 2>&1 | grep -E 'amazon-ebs.runner: (E:|Waiting)|Build' | head -6",
                "    amazon-ebs.runner: E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1187 (apt-get)\n    amazon-ebs.runner: E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?\n==> amazon-ebs.runner: Provisioning step had errors: Running the cleanup provisioner, if present...\nBuild 'amazon-ebs.runner' errored after 3 minutes 12 seconds: Script exited with non-zero exit status: 100. Allowed exit statuses are: [0]",
                failed=True,
            ),
            A(
                "Process 1187 is cloud-init's own `apt-get`: the Ubuntu AMI runs cloud-init on first boot, which refreshes the package lists (and on some boots runs unattended-upgrades). "
                "Packer connects as soon as SSH is up, which is usually before cloud-init has finished, so our shell provisioner's `apt-get install` races cloud-init for the dpkg lock. Whether it loses depends on mirror speed, hence 1 in 3. "
                "The fix is to make the first provisioner `cloud-init status --wait` before touching apt.",
                lesson=(RC, "our shell provisioner's `apt-get install` races cloud-init for the dpkg lock"),
            ),
            Edit("images/runner.pkr.hcl"),
            Bash(
                "for i in 1 2 3; do packer build -only='amazon-ebs.runner' -var skip_create_ami=true images/runner.pkr.hcl 2>&1 | tail -1; done",
                "Build 'amazon-ebs.runner' finished after 6 minutes 48 seconds.\nBuild 'amazon-ebs.runner' finished after 6 minutes 31 seconds.\nBuild 'amazon-ebs.runner' finished after 7 minutes 2 seconds.",
            ),
            A(
                "Three builds in a row succeeded. One caveat: `cloud-init status --wait` exits 2 when cloud-init finished with recoverable errors (on this AMI it reports a deprecated key warning), so I call it as `cloud-init status --wait || [ $? -eq 2 ]` rather than plain; "
                "otherwise the provisioner fails the build on a warning. If anyone copies this into the other templates they need the same guard.",
                lesson=(N, "`cloud-init status --wait` exits 2 when cloud-init finished with recoverable errors"),
            ),
            U("ugh, of course it does. thanks"),
        ],
    ),
    (
        "blind20-gemini-loki-query-labels",
        "gemini",
        "blind20",
        [
            U(
                "write me a logql query for the grafana panel: rate of 5xx responses per route from the ingress logs, last 1h. logs are json with fields status, route, duration_ms"
            ),
            A(
                "Here's a first version:\n\n```\nsum by (route) (\n  rate({app=\"ingress-nginx\"} | json | status >= 500 [5m])\n)\n```"
            ),
            U(
                "needs the cluster and namespace label. every loki query on our dashboards must have cluster=\"$cluster\" and namespace in the stream selector, we got rate limited by the loki team last month because a panel without them scanned every cluster",
                lesson=(R, "every loki query on our dashboards must have cluster=\"$cluster\" and namespace in the stream selector"),
            ),
            A(
                "Updated:\n\n```\nsum by (route) (\n  rate({cluster=\"$cluster\", namespace=\"ingress-nginx\", app=\"ingress-nginx\"}\n    |= `\"status\":5`\n    | json status, route\n    | status >= 500 [5m])\n)\n```\n\n"
                "The `|=` line filter before `json` lets Loki throw away most lines without parsing them, and `json status, route` only extracts the two fields instead of the whole object."
            ),
            Bash(
                "logcli query --since=1h --limit=5 'sum by (route) (rate({cluster=\"prod-eu1\", namespace=\"ingress-nginx\", app=\"ingress-nginx\"} |= `\"status\":5` | json status, route | status >= 500 [5m]))' 2>&1 | tail -4",
                "2026/03/05 11:02:13 https://loki.internal/loki/api/v1/query_range?direction=BACKWARD&end=...&limit=5&query=sum+by...\n{route=\"/api/v2/checkout\"}    2026-03-05T11:00:00Z  0.0333\n{route=\"/api/v2/search\"}      2026-03-05T11:00:00Z  0.0167\n{route=\"/healthz\"}            2026-03-05T11:00:00Z  0.0017",
            ),
            A("Works against prod-eu1. For the panel, use `$__auto` instead of `[5m]` if you want the range to follow the dashboard interval."),
            U("👍"),
        ],
    ),
    (
        "blind20-otel-collector-memory-limiter",
        "claude",
        "blind20",
        [
            U(
                "the otel collector gateway gets OOMKilled when the batch job cluster floods it with spans. deploy/otel/gateway.yaml. we're on otelcol-contrib 0.112"
            ),
            Read(
                "deploy/otel/gateway.yaml",
                "processors:\n  batch:\n    send_batch_size: 8192\n  k8sattributes: {}\n\nservice:\n  pipelines:\n    traces:\n      receivers: [otlp]\n      processors: [k8sattributes, batch]\n      exporters: [otlp/tempo]\n",
            ),
            A(
                "There's no `memory_limiter`, so the collector keeps accepting spans until the pod limit. I'll add a memory_limiter at the end of the pipeline, after `batch`, so it sees the batched size: `processors: [k8sattributes, batch, memory_limiter]` with `limit_percentage: 80` and `spike_limit_percentage: 20`."
            ),
            U(
                "no, memory_limiter has to be the first processor. if it's after batch the data is already buffered in memory and it cant refuse it at the receiver, the receiver never gets backpressure",
                lesson=(C, "memory_limiter has to be the first processor"),
            ),
            A("You're right, refusing data only helps before anything has buffered it. Moving it first: `[memory_limiter, k8sattributes, batch]`."),
            Edit("deploy/otel/gateway.yaml"),
            A(
                "The other question is what happens to spans the limiter refuses. Two choices:\n"
                "- Leave it: the OTLP receiver returns `RESOURCE_EXHAUSTED` and well-behaved SDKs retry with backoff, but the batch jobs' SDKs have a small queue and will drop.\n"
                "- Add a `sending_queue` with `file_storage` on the exporter so bursts spill to disk instead of RAM. Needs a PVC per gateway pod.\n\n"
                "Given the bursts are short and predictable (job starts), I'd lean towards the persistent queue so we don't lose traces from the batch cluster."
            ),
            U(
                "hmm we run the gateway as a deployment, no pvcs and I dont want to turn it into a statefulset for this. leave it refusing and let the sdks retry, we'll bump the batch cluster's BSP queue size instead",
                lesson=(D, "leave it refusing and let the sdks retry"),
            ),
            Edit("deploy/batch/otel-env.yaml"),
            Bash(
                "otelcol-contrib validate --config deploy/otel/gateway.yaml && kubectl diff -k deploy/otel 2>&1 | grep -E '^[+-] ' | head -6",
                "+        - memory_limiter\n+      memory_limiter:\n+        check_interval: 1s\n+        limit_percentage: 80\n+        spike_limit_percentage: 20\n-        - k8sattributes",
            ),
            A("Config validates and the diff is what we want. `OTEL_BSP_MAX_QUEUE_SIZE` for the batch cluster is now 8192 (was default 2048)."),
        ],
    ),
    (
        "blind20-codex-kafka-connect-jdbc-sink",
        "codex",
        "blind20",
        [
            U(
                "add a jdbc sink connector config for the orders.v1 topic into the reporting db, same shape as connectors/payments-sink.json. table orders_raw, upsert on order_id"
            ),
            Read(
                "connectors/payments-sink.json",
                "{\n  \"name\": \"payments-sink\",\n  \"config\": {\n    \"connector.class\": \"io.confluent.connect.jdbc.JdbcSinkConnector\",\n    \"topics\": \"payments.v1\",\n    \"connection.url\": \"${file:/opt/secrets/reporting.properties:url}\",\n    \"insert.mode\": \"upsert\",\n    \"pk.mode\": \"record_value\",\n    \"pk.fields\": \"payment_id\",\n    \"table.name.format\": \"payments_raw\",\n    \"tasks.max\": \"2\"\n  }\n}\n",
            ),
            Edit("connectors/orders-sink.json"),
            Bash(
                "curl -s -X PUT -H 'Content-Type: application/json' localhost:8083/connector-plugins/JdbcSinkConnector/config/validate -d \"$(jq .config connectors/orders-sink.json)\" | jq '.error_count'",
                "0",
            ),
            A("Created `connectors/orders-sink.json` (topic `orders.v1`, `pk.fields: order_id`, table `orders_raw`), validated against the local Connect worker with 0 errors."),
            U("great, thanks"),
        ],
    ),
    (
        "blind20-lima-vm-cpus",
        "claude",
        "blind20",
        [
            U("bump the lima dev vm to 6 cpus and 12GiB in lima/dev.yaml and add a port forward for 5432"),
            Read(
                "lima/dev.yaml",
                "vmType: vz\ncpus: 4\nmemory: \"8GiB\"\nmounts:\n  - location: \"~/src\"\n    writable: true\nportForwards:\n  - guestPort: 8080\n    hostPort: 8080\n",
            ),
            Edit("lima/dev.yaml"),
            Bash(
                "limactl validate lima/dev.yaml",
                "INFO[0000] \"lima/dev.yaml\": OK",
            ),
            A("Updated to `cpus: 6`, `memory: \"12GiB\"` and added a `guestPort: 5432` / `hostPort: 5432` forward. It validates; the running VM picks it up after `limactl stop dev && limactl start dev`."),
            U("ty"),
        ],
    ),
    (
        "blind20-gemini-express-health-route",
        "gemini",
        "blind20",
        [
            U("add GET /healthz to the express app returning {status:'ok', version} from package.json, with a test"),
            Read(
                "src/app.ts",
                "import express from 'express';\nimport { invoices } from './routes/invoices';\n\nexport const app = express();\napp.use(express.json());\napp.use('/api/invoices', invoices);\n",
            ),
            Edit("src/routes/health.ts"),
            Edit("src/app.ts"),
            Edit("src/routes/health.test.ts"),
            Bash(
                "npx vitest run src/routes/health.test.ts",
                " ✓ src/routes/health.test.ts (1 test) 22ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)",
            ),
            A("Added `/healthz` (mounted before the API routes) and a supertest test checking the status and that `version` matches package.json."),
        ],
    ),
    (
        "blind20-smalltalk-keyboard",
        "claude",
        "blind20",
        [
            U("random q, do you have opinions on split keyboards? my wrists are killing me"),
            A(
                "I don't type, so no personal opinion, but a lot of people with wrist pain find a split board helps because it lets your hands sit shoulder-width apart instead of bending inward. "
                "Tenting (raising the inner edges) and a lower-force switch also help some people. If the pain is persistent, it's worth seeing someone about it rather than only changing hardware."
            ),
            U("yeah fair. thinking about a corne, but 42 keys sounds scary"),
            A("It takes a few weeks to get used to layers. Lots of people start with a 36/42-key layout in a config tool and keep a normal keyboard around for the first while so work doesn't grind to a halt."),
            U("ok thanks, back to work"),
        ],
    ),
    (
        "blind20-codex-smalltalk-friday",
        "codex",
        "blind20",
        [
            U("its friday and i have zero motivation lol"),
            A("Happens to everyone. If there's something small and satisfying in the backlog, like a flaky test or a tidy-up, that can be a good Friday task. Or just stop early if you can."),
            U("haha i wish. ok nothing to do rn, ill ping you later"),
            A("Sounds good, I'm here whenever."),
        ],
    ),
    (
        "blind20-smalltalk-conference",
        "claude",
        "blind20",
        [
            U("just got back from a conference, my brain is soup. the talk on local-first sync was great though"),
            A("Local-first is a fun space right now. Was it CRDT-based, or more the server-authoritative-with-offline-cache style?"),
            U("crdts, automerge mostly. not for work, just interesting"),
            A("Nice. Automerge 2 got a lot faster since the Rust rewrite; it's worth playing with on a weekend project if you're curious."),
            U("maybe. anyway nothing for you today, just saying hi"),
            A("Hi! Enjoy recovering from the conference."),
        ],
    ),
]
