# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind11" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND11: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind11-haskell-stack-ci-yaml",
        "claude",
        "blind11",
        [
            U(
                "stack build fails on CI but works fine on my machine?? branch feat/otel-tracing. we're on lts-22.7"
            ),
            A("Let me reproduce it the way CI runs it. First I'll check the workflow."),
            Bash(
                "grep -n 'stack' .github/workflows/ci.yml",
                "31:      - uses: haskell-actions/setup@v2\n34:          enable-stack: true\n41:        run: stack --stack-yaml stack-ci.yaml build --test --no-run-tests --ghc-options=-Werror\n44:        run: stack --stack-yaml stack-ci.yaml test",
            ),
            Bash(
                "stack --stack-yaml stack-ci.yaml build --dry-run 2>&1 | tail -12",
                "Error: [S-4804]\n       Stack failed to construct a build plan.\n\n       While constructing the build plan, Stack encountered the following errors. The 'Stack configuration' refers to the set of package versions specified by the snapshot (if any) and 'extra-deps'.\n\n       In the dependencies for ledger-api-0.4.0:\n         * hs-opentelemetry-sdk must match >=0.0.3 && <0.1, but no version is in the Stack configuration (latest matching version is 0.0.3.6).\n         * hs-opentelemetry-instrumentation-wai must match >=0.1, but no version is in the Stack configuration (latest matching version is 0.1.0.1).\n       needed since ledger-api is a build target.\n\n       Some different approaches to resolving some or all of this:\n\n         * Recommended action: try adding the following to your extra-deps in /home/dev/app/stack-ci.yaml (project-level configuration):",
                failed=True,
            ),
            Bash(
                "git diff main -- stack.yaml stack-ci.yaml",
                "diff --git a/stack.yaml b/stack.yaml\nindex 4e1a0b2..9c7d3f1 100644\n--- a/stack.yaml\n+++ b/stack.yaml\n@@ -9,3 +9,7 @@ packages:\n extra-deps:\n   - servant-0.20.1@sha256:8f2a0c1d7a3c0b1e95d3b0f8f1d1a8e0c8b9a4f3e2d1c0b9a8f7e6d5c4b3a2f1,5810\n+  - hs-opentelemetry-api-0.1.0.0\n+  - hs-opentelemetry-sdk-0.0.3.6\n+  - hs-opentelemetry-instrumentation-wai-0.1.0.1\n+  - hs-opentelemetry-propagator-w3c-0.0.1.3",
            ),
            A(
                "Found it. CI never reads stack.yaml: the workflow passes `--stack-yaml stack-ci.yaml`, and that file has its own, separate extra-deps list "
                "(it exists so CI can turn on `-Werror` and the `ci` flag for ledger-core). You added the four opentelemetry packages only to stack.yaml, so locally the plan resolves "
                "and on CI the solver can't find them in the lts-22.7 snapshot. I'll add the same extra-deps to stack-ci.yaml.",
                lesson=(RC, "CI never reads stack.yaml: the workflow passes `--stack-yaml stack-ci.yaml`"),
            ),
            Edit("stack-ci.yaml"),
            Bash(
                "stack --stack-yaml stack-ci.yaml build --test --no-run-tests --ghc-options=-Werror 2>&1 | tail -4",
                "ledger-api     > [14 of 22] Compiling Ledger.Api.Tracing\nledger-api     > [22 of 22] Compiling Ledger.Api.Server\nledger-api     > Installing library in /home/dev/app/.stack-work/install/x86_64-linux/5c1f.../9.6.4/lib/x86_64-linux-ghc-9.6.4/ledger-api-0.4.0-8YxQ2\nCompleted 3 action(s).",
            ),
            A("Builds with the CI config now, including -Werror."),
            U(
                "ok good. btw those new ones arent pinned, the servant one has the @sha256. we pin every extra-dep with the hackage revision hash, in both files, otherwise a hackage revision can change the bounds under us",
                lesson=(R, "we pin every extra-dep with the hackage revision hash, in both files"),
            ),
            A(
                "Makes sense. I'll let stack write the lock file and then copy the exact `@sha256:...,size` pins from stack.yaml.lock into both yaml files."
            ),
            Bash(
                "stack build --dry-run >/dev/null 2>&1; grep -A2 'hs-opentelemetry' stack.yaml.lock | grep hackage",
                "    hackage: hs-opentelemetry-api-0.1.0.0@sha256:0b7c3e9a4d2f1c6b8e5a7d9f3c1b2a4e6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a5c,4127\n    hackage: hs-opentelemetry-sdk-0.0.3.6@sha256:6e1f3a5c7d9b2e4f6a8c0d1e3f5a7b9c2d4e6f8a0b1c3d5e7f9a2b4c6d8e0f1a,5590\n    hackage: hs-opentelemetry-instrumentation-wai-0.1.0.1@sha256:a3c5e7f9b1d2e4f6a8c0b2d4e6f8a1c3e5b7d9f0a2c4e6b8d1f3a5c7e9b0d2f4,2281\n    hackage: hs-opentelemetry-propagator-w3c-0.0.1.3@sha256:d9f1b3c5e7a2d4f6b8c0e1a3d5f7b9c2e4a6d8f0b1c3e5a7d9f2b4c6e8a0d1f3,1472",
            ),
            Edit("stack.yaml"),
            Edit("stack-ci.yaml"),
            Bash(
                "stack --stack-yaml stack-ci.yaml build --dry-run 2>&1 | tail -1 && stack build --dry-run 2>&1 | tail -1",
                "No packages would be unregistered.\nNo packages would be unregistered.",
            ),
            A("Both files now carry the same four pinned extra-deps and both plans resolve."),
        ],
    ),
    (
        "blind11-codex-terraform-azure-storage-pe",
        "codex",
        "blind11",
        [
            U(
                "need a storage account for invoice exports in modules/exports. should only be reachable from the aks vnet. this is for prod sub"
            ),
            Bash(
                "ls modules/exports && sed -n 1,40p modules/exports/main.tf",
                'main.tf\noutputs.tf\nvariables.tf\nresource "azurerm_resource_group" "exports" {\n  name     = "rg-exports-${var.env}"\n  location = var.location\n  tags     = var.tags\n}\n',
            ),
            Bash(
                "grep -rn 'public_network_access' docs/ modules/ | head",
                "docs/security-baseline.md:22:- Data stores in prod: `public_network_access_enabled = false`. No exceptions without a ticket in SEC.\nmodules/sql/main.tf:31:  public_network_access_enabled = false\nmodules/keyvault/main.tf:18:  public_network_access_enabled = false",
            ),
            A(
                "Two ways to limit it to the AKS vnet:\n\n"
                "1. Service endpoint: enable `Microsoft.Storage` on the aks node subnet and set `network_rules { default_action = \"Deny\", virtual_network_subnet_ids = [...] }`. Cheap and simple, but the account keeps its public endpoint; traffic is just filtered.\n"
                "2. Private endpoint: a NIC in the aks vnet plus a record in the `privatelink.blob.core.windows.net` zone, and `public_network_access_enabled = false`.\n\n"
                "docs/security-baseline.md requires public access off for prod data stores, and only option 2 lets us set that (sql and keyvault modules already do it this way). "
                "So I'd go with a private endpoint so public network access can stay disabled, at the cost of ~$7/month for the endpoint.",
                lesson=(D, "go with a private endpoint so public network access can stay disabled"),
            ),
            U(
                "yes private endpoint. the privatelink dns zone already exists in the hub rg (rg-hub-dns), use a data source for it, dont create another one"
            ),
            Edit("modules/exports/main.tf"),
            Edit("modules/exports/variables.tf"),
            Bash(
                "cd envs/prod && terraform init -upgrade >/dev/null && terraform plan -target=module.exports -no-color | tail -15",
                "  # module.exports.azurerm_private_endpoint.blob will be created\n  + resource \"azurerm_private_endpoint\" \"blob\" {\n      + name                          = \"pe-stinvexportsprod-blob\"\n      + subnet_id                     = \"/subscriptions/9b1d.../subnets/snet-aks-nodes\"\n      ...\n    }\n\n  # module.exports.azurerm_storage_account.exports will be created\n  + resource \"azurerm_storage_account\" \"exports\" {\n      + name                          = \"stinvexportsprod\"\n      + public_network_access_enabled = false\n      ...\n    }\n\nPlan: 4 to add, 0 to change, 0 to destroy.",
            ),
            A(
                "Plan is clean: storage account, private endpoint, the DNS zone group pointing at the existing zone in rg-hub-dns, and a `exports` container.\n\n"
                "Heads-up before this is applied from the GitHub runner: `azurerm_storage_container` is managed through the blob data plane, not ARM. With public access off, "
                "a runner outside the vnet gets a 403 on refresh of the container (AuthorizationFailure), even though the account itself plans fine. "
                "Either apply from the self-hosted runner in the hub vnet, or create the container with `azapi_resource` against the management plane.",
                lesson=(N, "a runner outside the vnet gets a 403 on refresh of the container"),
            ),
            U("hmm ok. switch the container to azapi then, the self hosted runner is flaky"),
            Edit("modules/exports/main.tf"),
            Bash(
                "cd envs/prod && terraform validate -no-color && terraform plan -target=module.exports -no-color | tail -1",
                "Success! The configuration is valid.\n\nPlan: 4 to add, 0 to change, 0 to destroy.",
            ),
            A("Container is now an `azapi_resource` of type `Microsoft.Storage/storageAccounts/blobServices/containers@2023-01-01`; validate and plan pass."),
        ],
    ),
    (
        "blind11-gemini-sveltekit-dashboard-load",
        "gemini",
        "blind11",
        [
            U(
                "the /dashboard page flashes empty and then the numbers pop in. also theres a hydration warning in the console. src/routes/dashboard/+page.svelte"
            ),
            Read(
                "src/routes/dashboard/+page.svelte",
                "<script lang=\"ts\">\n  import { onMount } from 'svelte';\n  import StatCard from '$lib/components/StatCard.svelte';\n  import { PUBLIC_API_BASE } from '$env/static/public';\n\n  let stats = $state<Stats | null>(null);\n  const updated = new Date().toLocaleTimeString();\n\n  onMount(async () => {\n    const res = await fetch(`${PUBLIC_API_BASE}/stats`, { credentials: 'include' });\n    stats = await res.json();\n  });\n</script>\n\n<p class=\"muted\">Last updated {updated}</p>\n{#if stats}\n  <StatCard label=\"MRR\" value={stats.mrr} />\n  ...\n{/if}",
            ),
            A(
                "The flash is because the stats are only fetched in onMount, i.e. after the page is already rendered and hydrated in the browser. "
                "I'll move the fetch into a `+page.ts` load function so it runs during SSR and the page arrives with the numbers, and the component just reads `data.stats`."
            ),
            U(
                "no, not +page.ts, that one also runs in the browser on client side navigation. we keep data loading in +page.server.ts, the stats endpoint needs the internal service token and that must never be shipped to the client",
                lesson=(C, "we keep data loading in +page.server.ts"),
            ),
            A(
                "Understood, I'll use a server load. I see `INTERNAL_API_TOKEN` in `$env/static/private` is already used by src/routes/billing/+page.server.ts, I'll follow that."
            ),
            Edit("src/routes/dashboard/+page.server.ts"),
            Edit("src/routes/dashboard/+page.svelte"),
            Bash(
                "npm run check 2>&1 | tail -3",
                "> svelte-check --tsconfig ./tsconfig.json\n\n====================================\nsvelte-check found 0 errors and 0 warnings",
            ),
            U("flash is gone. still getting this though\n\n[svelte] hydration_mismatch\nHydration failed because the initial UI does not match what was rendered on the server"),
            A(
                "That one comes from `const updated = new Date().toLocaleTimeString()`. The component runs twice: once on the server during SSR and once in the browser during hydration. "
                "The server renders it in UTC and the browser in the user's timezone (and a few seconds later), so the text node differs and Svelte reports the mismatch. "
                "I'll return `generatedAt` as an ISO string from the server load and format it with an explicit `timeZone` from the user's settings, so both sides produce the same string.",
                lesson=(RC, "The server renders it in UTC and the browser in the user's timezone"),
            ),
            Edit("src/routes/dashboard/+page.server.ts"),
            Edit("src/routes/dashboard/+page.svelte"),
            Bash(
                "npx playwright test tests/dashboard.spec.ts 2>&1 | tail -4",
                "Running 3 tests using 3 workers\n\n  3 passed (4.1s)",
            ),
            A("No hydration warning in the playwright console capture anymore, and the e2e tests pass."),
            U("👍"),
        ],
    ),
    (
        "blind11-unity-awake-order-healthbar",
        "claude",
        "blind11",
        [
            U(
                "getting a NullReferenceException as soon as i hit play in the new Arena scene, and the health bar never shows. Assets/Scripts/UI/HealthBar.cs. works in the old Test scene"
            ),
            Bash(
                "grep -n -A3 'NullReferenceException' ~/.config/unity3d/Editor.log | tail -5",
                "NullReferenceException: Object reference not set to an instance of an object\n  at HealthBar.Awake () [0x0000c] in /home/dev/arena/Assets/Scripts/UI/HealthBar.cs:18\n\n(Filename: Assets/Scripts/UI/HealthBar.cs Line: 18)",
            ),
            Read(
                "Assets/Scripts/UI/HealthBar.cs",
                "public class HealthBar : MonoBehaviour\n{\n    [SerializeField] private Image fill;\n    private PlayerStats stats;\n\n    private void Awake()\n    {\n        stats = GameManager.Instance.Player;\n        stats.OnHealthChanged += UpdateBar;   // line 18\n    }\n    ...",
            ),
            Read(
                "Assets/Scripts/Core/GameManager.cs",
                "public class GameManager : MonoBehaviour\n{\n    public static GameManager Instance { get; private set; }\n    public PlayerStats Player { get; private set; }\n\n    private void Awake()\n    {\n        Instance = this;\n        Player = FindFirstObjectByType<PlayerStats>();\n    }\n}",
            ),
            A(
                "The problem is ordering between two different GameObjects. Unity doesn't guarantee the order Awake runs in across objects, and in practice it follows load order, "
                "which depends on the scene. In Test the GameManager object happened to load first; in Arena the Canvas with the HealthBar comes first, so HealthBar.Awake reads "
                "GameManager.Instance before GameManager.Awake has set it. Awake should only touch the object's own state; anything that reaches into another object belongs in Start, "
                "because every Awake in the scene has finished before the first Start runs. I'll move the lookup and subscription to Start and unsubscribe in OnDestroy.",
                lesson=(RC, "HealthBar.Awake reads GameManager.Instance before GameManager.Awake has set it"),
            ),
            Edit("Assets/Scripts/UI/HealthBar.cs"),
            Bash(
                "/opt/unity/Editor/Unity -batchmode -nographics -projectPath . -runTests -testPlatform PlayMode -testResults /tmp/playmode.xml -logFile - 2>&1 | grep -E 'Test run|passed|failed' | tail -3",
                "Test run completed. Exiting with code 0 (Ok). Run completed.\nSaving results to: /tmp/playmode.xml\n<test-run id=\"2\" testcasecount=\"23\" result=\"Passed\" total=\"23\" passed=\"23\" failed=\"0\" inconclusive=\"0\" skipped=\"0\" asserts=\"0\">",
            ),
            A("PlayMode tests pass (23/23), including the Arena smoke test."),
            U("sweet. while youre in there rename `hp` in PlayerStats to `currentHealth`, hp is a terrible name"),
            Edit("Assets/Scripts/Gameplay/PlayerStats.cs"),
            Edit("Assets/Scripts/UI/HealthBar.cs"),
            A(
                "Renamed, and I put `[FormerlySerializedAs(\"hp\")]` on the field. Without it, renaming a serialized field silently resets the value on every prefab and scene "
                "that had it set, since Unity matches serialized data by field name. There are 9 prefabs under Assets/Prefabs/Enemies with a tuned value. "
                "Keep the attribute until those assets have been re-saved (open and save, or `AssetDatabase.ForceReserializeAssets`), after that it can go.",
                lesson=(N, "renaming a serialized field silently resets the value on every prefab"),
            ),
            U("oh good catch, thanks"),
        ],
    ),
    (
        "blind11-polars-clickstream-sessions",
        "claude",
        "blind11",
        [
            U(
                "write a pipeline step that takes the raw clickstream parquet in data/raw/clicks/ (hive partitioned by dt=) and produces sessions per user per day into data/marts/sessions.parquet. "
                "30 min inactivity = new session. its ~400M rows for the last 90 days"
            ),
            Bash(
                "ls pipeline/steps/ && sed -n 1,30p pipeline/steps/orders.py",
                "__init__.py\norders.py\nrefunds.py\nregistry.py\nimport polars as pl\n\nfrom pipeline.registry import step\n\n\n@step(\"orders\")\ndef build(cfg) -> None:\n    lf = pl.scan_parquet(cfg.raw / \"orders\" / \"**/*.parquet\", hive_partitioning=True)\n    ...\n    out.sink_parquet(cfg.marts / \"orders.parquet\")",
            ),
            U(
                "fyi in pipeline/ we always use scan_parquet and lazy frames end to end, never read_parquet or a collect in the middle. the worker box has 32gb and we've OOMed it twice",
                lesson=(R, "we always use scan_parquet and lazy frames end to end"),
            ),
            A(
                "Got it, fully lazy. The sessionization itself is: sort by user and timestamp, take the gap to the previous click per user, flag gaps over 30 minutes, "
                "and a cumulative sum of the flag over user gives the session number.\n\n"
                "The part to decide is how to execute it without holding 400M rows. Options:\n"
                "1. Loop over the dt= partitions and process one day at a time. Bounded memory, but sessions that cross midnight get split in two.\n"
                "2. One lazy query over all partitions and `sink_parquet`, which runs on the streaming engine and spills the sort.\n\n"
                "Since you want sessions per user per day, splitting at midnight would arguably be fine, but the analytics definition in docs/metrics.md says a session belongs to the day it started. "
                "So I'd use sink_parquet with the streaming engine rather than looping per dt partition.",
                lesson=(D, "use sink_parquet with the streaming engine rather than looping per dt partition"),
            ),
            U("yeah go with 2"),
            Edit("pipeline/steps/sessions.py"),
            Edit("pipeline/registry.py"),
            Bash(
                "/usr/bin/time -v python -m pipeline.run sessions --since 2026-01-01 2>&1 | grep -E 'step|rows|Maximum resident|Elapsed'",
                "[pipeline] step=sessions start\n[pipeline] step=sessions rows_out=38412977\n[pipeline] step=sessions done in 212.4s\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 3:34.91\n\tMaximum resident set size (kbytes): 11873204",
            ),
            A("Done. 38.4M sessions written, peak RSS ~11.3 GB, 3.5 minutes. I also added a small test with a session that spans midnight to pin the day-it-started behaviour."),
            Bash(
                "pytest tests/steps/test_sessions.py -q",
                "....                                                                     [100%]\n4 passed in 0.61s",
            ),
        ],
    ),
    (
        "blind11-codex-nix-flake-untracked-file",
        "codex",
        "blind11",
        [
            U("nix build .#api fails saying it cant find nix/overlays/pg.nix but the file is literally right there"),
            Bash(
                "nix build .#api 2>&1 | tail -8",
                "error:\n       … while calling the 'import' builtin\n         at /nix/store/7r2lx4c0q1mkyh3wq5v8cdjg2a0f3i9b-source/flake.nix:21:9:\n           20|       overlays = [\n           21|         (import ./nix/overlays/pg.nix)\n             |         ^\n           22|       ];\n\n       error: path '/nix/store/7r2lx4c0q1mkyh3wq5v8cdjg2a0f3i9b-source/nix/overlays/pg.nix' does not exist",
                failed=True,
            ),
            Bash(
                "git status --short nix/",
                "?? nix/overlays/pg.nix",
            ),
            A(
                "The path in the error is in the store, not your checkout. When the flake lives in a git repo, Nix copies only files git knows about into the store source "
                "(that's the `...-source` directory), so an untracked file is simply absent there even though it's on disk. pg.nix is untracked. "
                "It doesn't have to be committed, staging it is enough: `git add nix/overlays/pg.nix`.",
                lesson=(RC, "Nix copies only files git knows about into the store source"),
            ),
            Bash(
                "git add nix/overlays/pg.nix && nix build .#api 2>&1 | tail -2; ls -l result",
                "warning: Git tree '/home/dev/app' is dirty\nlrwxrwxrwx 1 dev dev 56 Mar  6 10:41 result -> /nix/store/l0f6yq8b2m3v9c1x7z5k4j2h1g0d9s8a-api-0.9.3",
            ),
            A("Builds now. The dirty-tree warning is just because pg.nix is staged and not committed yet."),
            U("ah classic. thx"),
        ],
    ),
    (
        "blind11-mojolicious-weather-proxy",
        "claude",
        "blind11",
        [
            U(
                "add GET /api/weather/:city to the Mojolicious app, it should proxy to openweathermap current weather and return temp + description. api key is in wx.yml under openweather.key"
            ),
            Read(
                "lib/Wx.pm",
                "sub startup ($self) {\n  my $config = $self->plugin('NotYAMLConfig');\n  my $r = $self->routes;\n  $r->get('/api/stations')->to('Stations#list');\n  $r->get('/api/stations/:id')->to('Stations#show');\n}",
            ),
            Edit("lib/Wx.pm"),
            Edit("lib/Wx/Controller/Weather.pm"),
            A(
                "Added the route and `Wx::Controller::Weather::current`:\n\n```perl\nsub current ($self) {\n  my $key = $self->config->{openweather}{key};\n  my $res = $self->ua->get('https://api.openweathermap.org/data/2.5/weather'\n    => form => {q => $self->param('city'), appid => $key, units => 'metric'})->result;\n  return $self->render(json => {error => 'upstream'}, status => 502) unless $res->is_success;\n  my $j = $res->json;\n  $self->render(json => {temp => $j->{main}{temp}, description => $j->{weather}[0]{description}});\n}\n```"
            ),
            U(
                "no blocking ua calls in controllers please. prod is hypnotoad with 4 workers, one slow upstream request and that worker cant serve anything else. use get_p and render in the then",
                lesson=(C, "no blocking ua calls in controllers please"),
            ),
            A(
                "Switching to the promise API: `$self->ua->get_p(...)->then(sub ($tx) { ... })->catch(sub ($err) { $self->reply->exception($err) })`, and the action returns that promise, "
                "so the worker goes back to the event loop while OpenWeather answers. I'll also set `inactivity_timeout` on the ua so a hung upstream fails after 5s instead of 40."
            ),
            Edit("lib/Wx/Controller/Weather.pm"),
            Edit("t/weather.t"),
            Read(
                "t/weather.t",
                "use Mojo::Base -strict;\nuse Test::More;\nuse Test::Mojo;\n\nmy $t = Test::Mojo->new('Wx');\n$t->get_ok('/api/weather/Lisbon')->status_is(200)->json_has('/temp');\n\ndone_testing;",
            ),
            U(
                "that test is hitting the real openweather. in t/ we never hit real upstreams, mock them with a little Mojolicious::Lite app and point the config base url at it, see t/stations.t",
                lesson=(R, "in t/ we never hit real upstreams, mock them"),
            ),
            Read(
                "t/stations.t",
                "my $mock = Mojolicious->new;\n$mock->routes->get('/v1/stations' => sub ($c) { $c->render(json => [{id => 1}]) });\nmy $t = Test::Mojo->new('Wx', {stations => {base => '/'}});\n$t->app->ua->server->app($mock);\n...",
            ),
            A(
                "I see the pattern: the upstream base url comes from config and the ua's embedded server is swapped for the mock app. The weather controller had the OpenWeather URL hard-coded, "
                "so I'll move it to `openweather.base` in wx.yml and mock `/data/2.5/weather` in the test, plus a 500 case for the 502 path."
            ),
            Edit("wx.yml"),
            Edit("lib/Wx/Controller/Weather.pm"),
            Edit("t/weather.t"),
            Bash(
                "prove -l t/",
                "t/stations.t .. ok\nt/weather.t ... ok\nAll tests successful.\nFiles=2, Tests=11,  1 wallclock secs ( 0.02 usr  0.01 sys +  0.52 cusr  0.06 csys =  0.61 CPU)\nResult: PASS",
            ),
            A("All green, and nothing leaves the box during the tests now."),
        ],
    ),
    (
        "blind11-gemini-erlang-ingest-supervisor",
        "gemini",
        "blind11",
        [
            U(
                "ingest app: when the amqp connection process crashes, the consumer workers keep running with a dead channel pid and just log {error,noproc} forever until someone restarts the node. apps/ingest/src/ingest_sup.erl"
            ),
            Read(
                "apps/ingest/src/ingest_sup.erl",
                "init([]) ->\n    SupFlags = #{strategy => one_for_one, intensity => 5, period => 10},\n    Children = [\n        #{id => ingest_metrics, start => {ingest_metrics, start_link, []}},\n        #{id => ingest_consumer_sup, start => {ingest_consumer_sup, start_link, []}, type => supervisor},\n        #{id => ingest_conn, start => {ingest_conn, start_link, []}}\n    ],\n    {ok, {SupFlags, Children}}.",
            ),
            A(
                "With one_for_one, when ingest_conn dies only ingest_conn is restarted. The consumers under ingest_consumer_sup grabbed the channel pid at init and never learn it's gone. Options:\n\n"
                "- **one_for_all**: any child crash restarts all three. Fixes it, but a crash in ingest_metrics would also tear down the connection and every consumer.\n"
                "- **rest_for_one** with the children reordered to metrics, conn, consumer_sup: a conn crash restarts conn and everything started after it (the consumers), a consumer_sup crash restarts only consumers, and metrics is left alone.\n"
                "- Keep one_for_one and have consumers monitor the channel and stop themselves on 'DOWN'. Works, but it's more code in every consumer.\n\n"
                "I'd pick rest_for_one with the connection started before the consumer supervisor; it encodes exactly the dependency you have.",
                lesson=(D, "rest_for_one with the connection started before the consumer supervisor"),
            ),
            U("rest_for_one, agreed"),
            Edit("apps/ingest/src/ingest_sup.erl"),
            Edit("apps/ingest/test/ingest_sup_SUITE.erl"),
            Bash(
                "rebar3 ct --suite apps/ingest/test/ingest_sup_SUITE 2>&1 | tail -5",
                "===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling ingest\n===> Running Common Test suites...\n%%% ingest_sup_SUITE: .....\nAll 5 tests passed.",
            ),
            A(
                "Done, and the new test kills ingest_conn and checks that the consumer pids changed and metrics' pid didn't.\n\n"
                "One more thing worth keeping in mind: consumers get the channel through `ingest_conn:channel/0`, which is a gen_server:call with the default 5000 ms timeout. "
                "While the connection is reconnecting with backoff (up to 8s per attempt in ingest_conn), that call can exceed 5s, and a call timeout is an exit in the caller, not an `{error, _}` return. "
                "So consumers starting during a reconnect will crash and count against the supervisor intensity (5 in 10s). If you see the whole app go down during a broker blip, that's where to look.",
                lesson=(N, "a gen_server:call with the default 5000 ms timeout"),
            ),
            U("hm ok. leave it for now, ill make a ticket"),
        ],
    ),
    (
        "blind11-swiftui-stateobject-toggle-reset",
        "claude",
        "blind11",
        [
            U(
                "in SettingsView the 'haptics' toggle flips back to on every ~30s, basically whenever the sync timer fires in the parent. ios 17 target"
            ),
            Read(
                "Tally/Views/SettingsView.swift",
                "struct SettingsView: View {\n    @ObservedObject var model = SettingsModel()\n\n    var body: some View {\n        Form {\n            Toggle(\"Haptics\", isOn: $model.hapticsEnabled)\n            ...",
            ),
            Read(
                "Tally/Views/ContentView.swift",
                "@EnvironmentObject var sync: SyncController\n...\nvar body: some View {\n    TabView {\n        LedgerView().tabItem { ... }\n        SettingsView().tabItem { ... }\n    }\n    .overlay(alignment: .top) { SyncBanner(lastSync: sync.lastSync) }",
            ),
            A(
                "It's the `@ObservedObject var model = SettingsModel()` line. @ObservedObject doesn't own the object; it only watches whatever instance the view was created with. "
                "ContentView reads `sync.lastSync`, so every time the timer publishes, ContentView's body re-runs, `SettingsView()` is initialized again, and that default value creates a brand-new "
                "SettingsModel with hapticsEnabled = true. The toggle state you set lives on the old instance, which gets thrown away. "
                "@StateObject is the owning version: SwiftUI creates it once per view identity and hands the same instance back on every re-init.",
                lesson=(RC, "every time the timer publishes, ContentView's body re-runs, `SettingsView()` is initialized again"),
            ),
            Edit("Tally/Views/SettingsView.swift"),
            Bash(
                "xcodebuild test -scheme Tally -destination 'platform=iOS Simulator,name=iPhone 15' -quiet 2>&1 | tail -3",
                "Test Suite 'All tests' passed at 2026-03-04 10:12:44.301.\n\t Executed 18 tests, with 0 failures (0 unexpected) in 2.114 (2.140) seconds\n** TEST SUCCEEDED **",
            ),
            A("Changed it to `@StateObject private var model = SettingsModel()`. Tests pass, and in the simulator the toggle now survives the sync ticks."),
            U("perfect. unrelated, can you bump the build number, testflight rejected the last upload as a duplicate"),
            Bash(
                "agvtool next-version -all",
                "Setting version of project Tally to: \n    57\n\nAlso setting CFBundleVersion key (assuming it exists)\n\nUpdating CFBundleVersion in Info.plist(s)...\n\nUpdated CFBundleVersion in \"Tally.xcodeproj/../Tally/Info.plist\" to 57\nUpdated CFBundleVersion in \"Tally.xcodeproj/../TallyWidget/Info.plist\" to 57",
            ),
            A("Build number is 57 now, for the app and the widget extension."),
            U("ty"),
        ],
    ),
    (
        "blind11-codex-spark-skew-repartition",
        "codex",
        "blind11",
        [
            U(
                "the daily join in jobs/src/main/scala/etl/EnrichEvents.scala went from ~20min to over 2h this week. spark ui shows one task in the join stage running forever while the other 399 are done. spark 3.5 on emr"
            ),
            Read(
                "jobs/src/main/scala/etl/EnrichEvents.scala",
                "val events = spark.read.parquet(s\"$raw/events/dt=$dt\")\n  .filter($\"event_type\".isin(tracked: _*))\n  .repartition(400, $\"account_id\")\n\nval accounts = spark.read.parquet(s\"$curated/accounts\")\n\nval enriched = events.join(accounts, Seq(\"account_id\"), \"left\")\nenriched.write.mode(\"overwrite\").parquet(s\"$curated/events_enriched/dt=$dt\")",
            ),
            A(
                "Classic skew: one account_id (probably the new enterprise customer) has most of the events, so one partition of the sort-merge join gets them all. "
                "I'll salt the join: add a random `salt` in 0..15 on events, explode accounts 16x with each salt value, and join on (account_id, salt). That spreads the hot key over 16 tasks."
            ),
            U(
                "salting is overkill. AQE is on in our cluster config with skewJoin enabled, it should already be splitting that partition. check why it isnt kicking in before rewriting the join",
                lesson=(C, "check why it isnt kicking in before rewriting the join"),
            ),
            Bash(
                "grep -E 'adaptive' infra/emr/spark-defaults.conf",
                "spark.sql.adaptive.enabled                                  true\nspark.sql.adaptive.skewJoin.enabled                         true\nspark.sql.adaptive.skewJoin.skewedPartitionFactor           5\nspark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes 256MB",
            ),
            Bash(
                "spark-submit --class etl.EnrichEvents --conf spark.sql.adaptive.logLevel=INFO jobs/target/scala-2.12/jobs.jar --dt 2026-03-02 --sample 0.05 --explain 2>&1 | grep -E 'SortMergeJoin|Exchange|AQEShuffleRead' | head -6",
                "   +- SortMergeJoin [account_id#12L], [account_id#88L], LeftOuter\n      :- Sort [account_id#12L ASC NULLS FIRST], false, 0\n      :  +- AQEShuffleRead coalesced\n      :     +- ShuffleQueryStage 0\n      :        +- Exchange hashpartitioning(account_id#12L, 400), REPARTITION_BY_NUM, [plan_id=41]\n      +- Sort [account_id#88L ASC NULLS FIRST], false, 0",
            ),
            A(
                "The config is fine; the plan shows why. The events side of the join is fed by `Exchange hashpartitioning(account_id, 400), REPARTITION_BY_NUM`, i.e. the shuffle from the explicit "
                "`.repartition(400, $\"account_id\")` on line 3. Because that already satisfies the join's distribution, Spark doesn't add its own shuffle, and AQE's skew-join handling only applies to shuffles "
                "the planner inserted itself (origin ENSURE_REQUIREMENTS). A user-requested repartition is treated as something you asked for explicitly, so AQE won't split it. "
                "Removing the repartition lets the planner insert the join shuffle and AQE can split the hot partition.",
                lesson=(RC, "AQE's skew-join handling only applies to shuffles the planner inserted itself"),
            ),
            Edit("jobs/src/main/scala/etl/EnrichEvents.scala"),
            Bash(
                "sbt -batch jobs/assembly >/dev/null && spark-submit --class etl.EnrichEvents jobs/target/scala-2.12/jobs.jar --dt 2026-03-02 --sample 0.05 --explain 2>&1 | grep -E 'SortMergeJoin|AQEShuffleRead' | head -3",
                "   +- SortMergeJoin(skew=true) [account_id#12L], [account_id#88L], LeftOuter\n      :  +- AQEShuffleRead coalesced and skewed\n      :  +- AQEShuffleRead coalesced and skewed",
            ),
            A(
                "Now the join shows `skew=true` and both reads are `coalesced and skewed`. On the 5% sample the join stage went from 11m to 1m40s. "
                "Want me to run the full 2026-03-02 partition on the cluster to confirm?"
            ),
            U("yes run it"),
            Bash(
                "aws emr add-steps --cluster-id j-2Q7XK9LMNB3 --steps file://infra/emr/steps/enrich-2026-03-02.json --query 'StepIds' --output text",
                "s-0A1B2C3D4E5F6",
            ),
            A("Submitted as step s-0A1B2C3D4E5F6; I'll leave it to you to check the runtime in the EMR console when it finishes."),
        ],
    ),
    (
        "blind11-jenkins-harbor-push",
        "claude",
        "blind11",
        [
            U("in the Jenkinsfile deploy stage add a step that logs into harbor and pushes the image, creds id is harbor-robot"),
            Read(
                "Jenkinsfile",
                "stage('Deploy') {\n  when { branch 'main' }\n  steps {\n    sh \"docker build -t ${IMAGE}:${GIT_COMMIT[0..7]} .\"\n  }\n}",
            ),
            Edit("Jenkinsfile"),
            A(
                "Added:\n\n```groovy\nwithCredentials([usernamePassword(credentialsId: 'harbor-robot', usernameVariable: 'HARBOR_USER', passwordVariable: 'HARBOR_PASS')]) {\n  sh \"echo ${HARBOR_PASS} | docker login harbor.internal -u ${HARBOR_USER} --password-stdin\"\n  sh \"docker push ${IMAGE}:${GIT_COMMIT[0..7]}\"\n}\n```"
            ),
            U(
                "build 412 log has this:\nWarning: A secret was passed to \"sh\" using Groovy String interpolation, which is insecure.\n\t\t Affected argument(s) used the following variable(s): [HARBOR_PASS]\n\nwe never do that. any sh with a secret uses single quotes so the shell expands the env var and groovy never sees the value",
                lesson=(R, "any sh with a secret uses single quotes so the shell expands"),
            ),
            A(
                "Right, with double quotes Groovy substitutes the password into the command string before `sh` runs, so it can end up in the process list and the build's step arguments. "
                "I'll change the login to `sh 'echo \"$HARBOR_PASS\" | docker login harbor.internal -u \"$HARBOR_USER\" --password-stdin'`."
            ),
            Edit("Jenkinsfile"),
            U("ok that's gone. but now the tag step I added yesterday blows up, 413:\n\nan exception which occurred:\n\tin field com.cloudbees.groovy.cps.impl.BlockScopeEnv.locals\n\tin object com.cloudbees.groovy.cps.impl.BlockScopeEnv@5c1e2d9a\n\t...\nCaused: java.io.NotSerializableException: groovy.json.internal.LazyMap\n\tat org.jboss.marshalling.river.RiverMarshaller.doWriteObject(RiverMarshaller.java:274)"),
            Read(
                "Jenkinsfile",
                "stage('Tag') {\n  steps {\n    script {\n      def meta = new groovy.json.JsonSlurper().parseText(readFile('build-meta.json'))\n      sh \"git tag v${meta.version}\"\n      sh 'git push origin --tags'\n    }\n  }\n}",
            ),
            A(
                "Pipeline scripts run CPS-transformed: at every step boundary (each `sh`, `readFile`, ...) Jenkins serializes the whole program state, local variables included, "
                "so the build can resume after a controller restart. `JsonSlurper.parseText` returns a `groovy.json.internal.LazyMap`, which isn't Serializable, and it's still held in `meta` "
                "when the next `sh` runs, so the checkpoint fails. Simplest fix is the `readJSON` step from pipeline-utility-steps, which returns a serializable map; the plugin is already installed (the release job uses it).",
                lesson=(RC, "which isn't Serializable, and it's still held in `meta` when the next `sh` runs"),
            ),
            Edit("Jenkinsfile"),
            Bash(
                "curl -s -X POST -u \"$JENKINS_USER:$JENKINS_TOKEN\" -F \"jenkinsfile=<Jenkinsfile\" https://ci.internal/pipeline-model-converter/validate",
                "Jenkinsfile successfully validated.",
            ),
            A("Validated. Kick off a build on main when you're ready; the Tag stage now uses `def meta = readJSON file: 'build-meta.json'`."),
            U("414 green. thanks"),
        ],
    ),
    (
        "blind11-gemini-simulink-bldc-solver",
        "gemini",
        "blind11",
        [
            U(
                "models/bldc_drive.slx takes ~9 min to simulate 2s. i need to run a sweep over 60 rotor inertia / load combos tonight, thats 9 hours. can it be faster? whats it using"
            ),
            Bash(
                "matlab -batch \"load_system('models/bldc_drive'); disp(get_param('bldc_drive',{'Solver','MaxStep','RelTol'})); tic; sim('bldc_drive','StopTime','0.2'); toc\"",
                "    {'ode45'}    {'1e-7'}    {'1e-3'}\n\nElapsed time is 51.882146 seconds.",
            ),
            A(
                "It's ode45 (explicit, non-stiff) with MaxStep forced to 1e-7. The inverter switches at 20 kHz and the phase currents have fast electrical dynamics next to a slow mechanical part, "
                "so the model is stiff and ode45 is taking tiny steps everywhere, which is why someone capped MaxStep. Options:\n\n"
                "1. **ode23tb, MaxStep auto**: a stiff variable-step solver. Keeps the switching inverter, so PWM ripple is still there. Typically 10-20x faster on this kind of model.\n"
                "2. **Average-value inverter**: replace the switching bridge with the averaged model. Much faster again (~100x), but you lose ripple and switching losses, and it's a second model to maintain.\n"
                "3. **Fixed-step ode4 at 1e-6**: matches what the code-gen target uses, but isn't faster than option 1 here.\n\n"
                "Your sweep looks at mean torque and speed settling (from scripts/sweep_inertia.m), not ripple, so I'd switch the solver to ode23tb and keep the switching inverter. "
                "It's a one-parameter change and the model stays the one you validated against the bench.",
                lesson=(D, "switch the solver to ode23tb and keep the switching inverter"),
            ),
            U("sounds right, do ode23tb. keep the switching model, the avg model never matched the bench at low speed anyway"),
            Bash(
                "matlab -batch \"load_system('models/bldc_drive'); set_param('bldc_drive','Solver','ode23tb','MaxStep','auto'); tic; sim('bldc_drive','StopTime','0.2'); toc; save_system('bldc_drive')\"",
                "Elapsed time is 3.417002 seconds.",
            ),
            Bash(
                "matlab -batch \"run('tests/run_bldc_regression.m')\"",
                "Running bldc_regression_test\n...\nDone bldc_regression_test\n__________\n\n  1x3 TestResult array with properties:\n\n    Name\n    Passed\n    Failed\n    Incomplete\n    Duration\n    Details\n\nTotals:\n   3 Passed, 0 Failed, 0 Incomplete.\n   11.6302 seconds testing time.",
            ),
            A(
                "0.2s of sim went from 51.9s to 3.4s, so the 2s run should be around 35-40s and the sweep roughly 40 minutes. The regression tests against the bench traces still pass (they compare mean torque within 2%)."
            ),
            U("🙌 thats tonight sorted"),
        ],
    ),
    (
        "blind11-shiny-filter-cascade",
        "claude",
        "blind11",
        [
            U(
                "in the sales dashboard when i drag the date slider the main plot re-renders like 4-5 times and flickers. filters are in app/R/mod_filters.R"
            ),
            Read(
                "app/R/mod_filters.R",
                "mod_filters_server <- function(id, sales) {\n  moduleServer(id, function(input, output, session) {\n    observeEvent(input$dates, {\n      regions <- sales() |>\n        dplyr::filter(date >= input$dates[1], date <= input$dates[2]) |>\n        dplyr::distinct(region) |> dplyr::pull()\n      updateSelectInput(session, \"region\", choices = regions, selected = intersect(input$region, regions))\n    })\n    reactive(list(dates = input$dates, region = input$region))\n  })\n}",
            ),
            A(
                "The slider fires on every step while you drag. I'll wrap the returned filter reactive in `debounce(..., 400)` so the plot only redraws once you stop moving it."
            ),
            U(
                "dont debounce, that just hides it and the ux folks already complain that page feels laggy. the real problem is the updateSelectInput in that observer, region changes after dates so everything downstream runs twice per step. fix the cascade",
                lesson=(C, "dont debounce, that just hides it"),
            ),
            A(
                "You're right, each slider step invalidates the plot once for `dates`, then the observer updates `region`, the browser sends the new value back, and the plot invalidates a second time with the region change. "
                "`freezeReactiveValue(input, \"region\")` before the `updateSelectInput` call is made for exactly this: anything reading `input$region` is held until the updated value arrives, so there's one render per change."
            ),
            Edit("app/R/mod_filters.R"),
            Bash(
                "Rscript -e 'testthat::test_dir(\"app/tests/testthat\")' 2>&1 | tail -3",
                "✔ | F W  S  OK | Context\n✔ |          14 | mod_filters [1.2s]\n\n══ Results ═════════════════════════════════════════════════════════════════\nDuration: 1.3 s\n\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 14 ]",
            ),
            A("Tests pass. Running locally with `options(shiny.reactlog = TRUE)`, one slider step now produces one plot invalidation instead of two to five."),
            U("nice, never knew about freezeReactiveValue"),
            A("It's fairly recent (shiny 1.6). The reactlog view (Ctrl+F3 in the running app) is also the quickest way to see these chains when something re-renders more than you expect."),
        ],
    ),
    (
        "blind11-codex-prisma-archived-at",
        "codex",
        "blind11",
        [
            U(
                "add `archivedAt DateTime?` to Project in prisma/schema.prisma and do the migration. fyi we never use db push here, always migrate dev with a name so the sql gets committed and reviewed",
                lesson=(R, "we never use db push here, always migrate dev with a name"),
            ),
            Edit("prisma/schema.prisma"),
            Bash(
                "npx prisma migrate dev --name add_project_archived_at",
                "Environment variables loaded from .env\nPrisma schema loaded from prisma/schema.prisma\nDatasource \"db\": PostgreSQL database \"tracker\", schema \"public\" at \"localhost:5432\"\n\nApplying migration `20260305101522_add_project_archived_at`\n\nThe following migration(s) have been created and applied from new schema changes:\n\nmigrations/\n  └─ 20260305101522_add_project_archived_at/\n    └─ migration.sql\n\nYour database is now in sync with your schema.\n\n✔ Generated Prisma Client (v5.22.0) to ./node_modules/@prisma/client in 142ms",
            ),
            Bash(
                "cat prisma/migrations/20260305101522_add_project_archived_at/migration.sql",
                "-- AlterTable\nALTER TABLE \"Project\" ADD COLUMN     \"archivedAt\" TIMESTAMP(3);",
            ),
            Bash(
                "npm test -- --run src/server/projects 2>&1 | tail -4",
                " ✓ src/server/projects/projects.test.ts (9 tests) 311ms\n\n Test Files  1 passed (1)\n      Tests  9 passed (9)",
            ),
            A(
                "Migration `20260305101522_add_project_archived_at` is created and applied; it's a single nullable `ADD COLUMN`, so it's safe to deploy on a live table.\n\n"
                "Something to be aware of before anyone starts setting archivedAt: nothing filters on it yet. Every findMany on Project will still return archived rows "
                "(there are 23 call sites, including the sidebar and the API list endpoint) until they add `where: { archivedAt: null }`, or we add a Prisma client extension that applies it by default."
                ,
                lesson=(N, "Every findMany on Project will still return archived rows"),
            ),
            U("yeah thats the next ticket. leave it for now"),
        ],
    ),
    (
        "blind11-laravel-invoice-pdf-queue",
        "claude",
        "blind11",
        [
            U(
                "invoice PDF generation makes the checkout request take ~6s. move it to a queue. laravel 11 on forge, one server, mysql, redis is already installed (we use it for cache)"
            ),
            Read(
                "app/Http/Controllers/CheckoutController.php",
                "public function store(CheckoutRequest $request)\n{\n    $invoice = DB::transaction(function () use ($request) {\n        $order = $this->orders->createFromCart($request->user()->cart);\n        $invoice = Invoice::fromOrder($order);\n        $this->pdf->render($invoice);   // ~5.5s\n        return $invoice;\n    });\n    return redirect()->route('orders.show', $invoice->order_id);\n}",
            ),
            A(
                "Plan: a `GenerateInvoicePdf` job implementing ShouldQueue, and a Forge daemon running `php artisan queue:work`. For the queue connection there are two realistic options on this box:\n\n"
                "- **database**: no new moving parts, but workers poll the `jobs` table, and MySQL is already what's slow at peak.\n"
                "- **redis**: already running, no polling load on MySQL, and it lets you add Horizon later for retries/metrics.\n\n"
                "I'd use the redis driver on its own database index (REDIS_QUEUE_DB=2), so a `cache:clear` (which flushes the cache db) can't wipe pending jobs.",
                lesson=(D, "use the redis driver on its own database index"),
            ),
            U("redis yes, separate db like you said"),
            Edit("config/database.php"),
            Edit("config/queue.php"),
            Edit("app/Jobs/GenerateInvoicePdf.php"),
            Edit("app/Http/Controllers/CheckoutController.php"),
            A("The controller now calls `GenerateInvoicePdf::dispatch($invoice)` in place of the render, inside the same transaction closure."),
            U(
                "not inside the DB::transaction, dispatch it after commit. the worker is fast enough to pick the job up before the invoice row is committed and then it just fails with ModelNotFoundException",
                lesson=(C, "not inside the DB::transaction, dispatch it after commit"),
            ),
            A("Good point. I'll chain `->afterCommit()` on the dispatch so it's held until the transaction commits (and dropped if it rolls back)."),
            Edit("app/Http/Controllers/CheckoutController.php"),
            Edit("tests/Feature/CheckoutTest.php"),
            Bash(
                "php artisan test --filter=Checkout",
                "\n   PASS  Tests\\Feature\\CheckoutTest\n  ✓ checkout creates invoice                                             0.21s\n  ✓ checkout queues invoice pdf after commit                             0.05s\n  ✓ rolled back checkout queues nothing                                  0.04s\n\n  Tests:    3 passed (7 assertions)\n  Duration: 0.48s\n",
            ),
            A(
                "All pass. On Forge you'll need a daemon for `php artisan queue:work redis --queue=default --tries=3 --max-time=3600`, and `php artisan queue:restart` in the deploy script so workers pick up new code."
            ),
            U("added the daemon, thx"),
        ],
    ),
    (
        "blind11-gemini-flutter-cart-badge",
        "gemini",
        "blind11",
        [
            U("cart badge in the app bar doesnt update when i add stuff on the product page. have to navigate away and back. lib/features/cart/ and lib/features/product/"),
            Read(
                "lib/features/product/product_page.dart",
                "class _ProductPageState extends State<ProductPage> {\n  int _inCart = 0;\n\n  void _add() {\n    CartRepository.instance.add(widget.product);\n    setState(() => _inCart++);\n  }\n  ...",
            ),
            Read(
                "lib/features/cart/cart_badge.dart",
                "class CartBadge extends StatelessWidget {\n  @override\n  Widget build(BuildContext context) {\n    final count = CartRepository.instance.items.length;\n    return Badge(label: Text('$count'), child: const Icon(Icons.shopping_cart));\n  }\n}",
            ),
            A(
                "The badge reads the repository once in build and nothing tells it to rebuild. I'll make CartRepository expose a `ValueNotifier<int>` for the count and wrap the badge in a ValueListenableBuilder."
            ),
            U(
                "we use riverpod for all shared state, no ValueNotifiers or singletons reaching across widgets. theres already cartProvider in lib/features/cart/cart_provider.dart, use that",
                lesson=(R, "we use riverpod for all shared state"),
            ),
            Read(
                "lib/features/cart/cart_provider.dart",
                "@riverpod\nclass Cart extends _$Cart {\n  @override\n  List<CartItem> build() => [];\n\n  void add(Product p) => state = [...state, CartItem.of(p)];\n  void remove(String id) => state = state.where((i) => i.id != id).toList();\n}",
            ),
            Edit("lib/features/cart/cart_badge.dart"),
            Edit("lib/features/product/product_page.dart"),
            Bash(
                "dart run build_runner build --delete-conflicting-outputs 2>&1 | tail -1 && flutter test 2>&1 | tail -1",
                "[INFO] Succeeded after 6.2s with 4 outputs (12 actions)\n00:05 +27: All tests passed!",
            ),
            A(
                "CartBadge is a ConsumerWidget that watches `cartProvider.select((c) => c.length)`, and ProductPage calls `ref.read(cartProvider.notifier).add(...)`. Badge updates immediately now.\n\n"
                "One thing to know about that provider: it's declared with @riverpod, which is autoDispose by default. It only lives while something is watching it. Today the badge in the app bar always watches it, "
                "so it survives, but on a screen without the app bar (the checkout flow uses a bare Scaffold) the cart would be disposed and rebuilt empty. "
                "For app-lifetime state like a cart it should be `@Riverpod(keepAlive: true)`.",
                lesson=(N, "declared with @riverpod, which is autoDispose by default"),
            ),
            U("oh wow yes thats the 'cart empties at checkout' bug from last week. make it keepAlive"),
            Edit("lib/features/cart/cart_provider.dart"),
            Bash(
                "dart run build_runner build --delete-conflicting-outputs 2>&1 | tail -1 && flutter test 2>&1 | tail -1",
                "[INFO] Succeeded after 5.8s with 2 outputs (6 actions)\n00:05 +27: All tests passed!",
            ),
            A("Done, regenerated and tests pass."),
        ],
    ),
    (
        "blind11-ghidra-label-crc-callers",
        "claude",
        "blind11",
        [
            U(
                "write a ghidra script that finds every call to the crc routine at 0x0801a3c0 in the stm32 firmware and renames the calling functions crc_caller_N (unless they already have a non-default name). ghidra 11.0, we run it headless"
            ),
            Bash(
                "ls scripts/ && head -5 scripts/rename_isr_vectors.py",
                "find_strings_xrefs.py\nrename_isr_vectors.py\n# Rename the vector table handlers\n# @category fw\n# @runtime Jython\nfrom ghidra.program.model.symbol import SourceType\n",
            ),
            Edit("scripts/label_crc_callers.py"),
            A(
                "The script walks `getReferencesTo(toAddr(0x0801a3c0))`, keeps references where `getReferenceType().isCall()`, takes `getFunctionContaining(ref.getFromAddress())`, "
                "dedupes, and renames those whose name still starts with `FUN_` using `SourceType.USER_DEFINED`.\n\n"
                "Worth noting since this is the first script here that does string formatting: Ghidra's built-in Python is Jython 2.7, so no f-strings, no type hints, and `print` works as a statement. "
                "I used `'crc_caller_%d' % n`. If you ever want Python 3 scripts, that means installing Ghidrathon or moving to PyGhidra (bundled from Ghidra 11.3).",
                lesson=(N, "Ghidra's built-in Python is Jython 2.7, so no f-strings"),
            ),
            Bash(
                "$GHIDRA_HOME/support/analyzeHeadless ~/ghidra_projects fw -process fw_v2.bin -scriptPath scripts -postScript label_crc_callers.py -noanalysis 2>&1 | grep -E 'SCRIPT|label_crc|REPORT'",
                "INFO  SCRIPT: /home/dev/fw-re/scripts/label_crc_callers.py (HeadlessAnalyzer)  \nlabel_crc_callers.py> 0x0801a3c0: 11 call refs, 7 functions\nlabel_crc_callers.py> renamed 6, kept 1 (uart_frame_check)\nINFO  REPORT: Save succeeded for: /fw_v2.bin (fw:/fw_v2.bin)  ",
            ),
            A("11 call sites in 7 functions; 6 renamed to crc_caller_0..5, and `uart_frame_check` kept its name since someone already labelled it."),
            U("great, thanks. can you also make it take the address as a script arg so i can reuse it for the other checksum"),
            Edit("scripts/label_crc_callers.py"),
            Bash(
                "$GHIDRA_HOME/support/analyzeHeadless ~/ghidra_projects fw -process fw_v2.bin -scriptPath scripts -postScript label_crc_callers.py 0x0801a5f8 sum_caller -noanalysis 2>&1 | grep label_crc",
                "label_crc_callers.py> 0x0801a5f8: 4 call refs, 3 functions\nlabel_crc_callers.py> renamed 3, kept 0",
            ),
            A("It now reads `getScriptArgs()`: address and an optional name prefix, defaulting to the crc ones when run without arguments from the GUI."),
        ],
    ),
    (
        "blind11-codex-rails-welcome-email-queue",
        "codex",
        "blind11",
        [
            U(
                "users say the welcome email sometimes shows up 20+ min after signup. app/jobs/send_welcome_email_job.rb, we're on sidekiq"
            ),
            Read(
                "app/jobs/send_welcome_email_job.rb",
                "class SendWelcomeEmailJob < ApplicationJob\n  queue_as :default\n\n  def perform(user)\n    UserMailer.welcome(user).deliver_now\n  end\nend",
            ),
            Bash(
                "cat config/sidekiq.yml; grep -rn 'queue_as' app/jobs | awk -F: '{print $3}' | sort | uniq -c",
                ":concurrency: 10\n:queues:\n  - default\n  - low\n      9   queue_as :default\n      2   queue_as :low",
            ),
            Bash(
                "grep -rln 'perform_later' app/ lib/ | xargs grep -l 'find_each' ",
                "lib/imports/csv_importer.rb",
            ),
            A(
                "The welcome job shares `default` with the CSV importer, which enqueues one `ImportRowJob` per row via find_each; a 40k-row import puts 40k jobs ahead of the welcome email, "
                "and with 10 threads that's roughly the 20 minutes people see. Options:\n\n"
                "1. Raise concurrency: helps a bit, but the next bigger import recreates the problem and the DB pool becomes the limit.\n"
                "2. Move the import rows to `low`: fixes this case, but any other bulk job on default would do it again.\n"
                "3. Move the job to a dedicated critical queue weighted above default, for user-facing work like this (password resets could go there too).\n\n"
                "I'd do 3.",
                lesson=(D, "Move the job to a dedicated critical queue weighted above default"),
            ),
            U("3, weight critical 5 default 2 low 1. put password reset in there too"),
            Edit("config/sidekiq.yml"),
            Edit("app/jobs/send_welcome_email_job.rb"),
            Edit("app/jobs/send_password_reset_job.rb"),
            A(
                "Done. While I'm in the job: I'd also add `retry_on StandardError, wait: :polynomially_longer, attempts: 10` so a Postmark hiccup doesn't lose the email."
            ),
            U(
                "dont retry on StandardError, if the postmark token is wrong that just hammers their api 10x per signup and gets us rate limited. retry only on Net::ReadTimeout / Postmark::TimeoutError, and discard_on ActiveJob::DeserializationError for deleted users",
                lesson=(C, "dont retry on StandardError, if the postmark token is wrong"),
            ),
            Edit("app/jobs/send_welcome_email_job.rb"),
            Edit("test/jobs/send_welcome_email_job_test.rb"),
            Bash(
                "bin/rails test test/jobs",
                "Running 6 tests in a single process (parallelization threshold is 50)\nRun options: --seed 41823\n\n# Running:\n\n......\n\nFinished in 0.412977s, 14.5287 runs/s, 21.7930 assertions/s.\n6 runs, 9 assertions, 0 failures, 0 errors, 0 skips",
            ),
            A("Retries now only on the two timeout errors (5 attempts, polynomial backoff) and deleted users are discarded. Tests pass."),
        ],
    ),
    (
        "blind11-openscad-bracket-hole-param",
        "claude",
        "blind11",
        [
            U("in cad/bracket.scad make the mounting hole diameter a top-level parameter, default 3.4 (M3 clearance). right now its hardcoded in two places"),
            Read(
                "cad/bracket.scad",
                "thickness = 4;\nwidth = 30;\n\nmodule plate() {\n  difference() {\n    cube([width, 20, thickness]);\n    translate([6, 10, -1]) cylinder(d = 3.2, h = thickness + 2, $fn = 32);\n    translate([width - 6, 10, -1]) cylinder(d = 3.2, h = thickness + 2, $fn = 32);\n  }\n}\n\nplate();",
            ),
            A("I'll add `hole_d = 3.4;` next to the other parameters and use it in both cylinders."),
            Edit("cad/bracket.scad"),
            Bash(
                "openscad -o out/bracket.stl cad/bracket.scad 2>&1 | tail -6",
                "Geometries in cache: 4\nGeometry cache size in bytes: 12744\nCGAL Polyhedrons in cache: 0\nCGAL cache size in bytes: 0\nTotal rendering time: 0:00:00.412\nTop level object is a 3D object:\n   Simple:        yes\n   Vertices:      144\n   Halfedges:     428\n   Edges:         214\n   Halffacets:    148\n   Facets:        74\n   Volumes:        2",
            ),
            Bash(
                "openscad -D hole_d=4.5 -o /tmp/bracket_m4.stl cad/bracket.scad 2>&1 | grep -E 'Simple|rendering'",
                "Total rendering time: 0:00:00.398\n   Simple:        yes",
            ),
            A("Done. It renders with the default, and `-D hole_d=4.5` overrides it from the command line, e.g. for an M4 variant."),
            U("nice ty"),
        ],
    ),
    (
        "blind11-gemini-powershell-dsc-iis-feature",
        "gemini",
        "blind11",
        [
            U("add the Web-Mgmt-Tools feature to the WebServer DSC configuration in dsc/WebServer.ps1, ensure present, depends on the Web-Server feature"),
            Read(
                "dsc/WebServer.ps1",
                "Configuration WebServer {\n    Import-DscResource -ModuleName PSDesiredStateConfiguration\n\n    Node $AllNodes.NodeName {\n        WindowsFeature IIS {\n            Name   = 'Web-Server'\n            Ensure = 'Present'\n        }\n        WindowsFeature AspNet45 {\n            Name      = 'Web-Asp-Net45'\n            Ensure    = 'Present'\n            DependsOn = '[WindowsFeature]IIS'\n        }\n    }\n}",
            ),
            Edit("dsc/WebServer.ps1"),
            Bash(
                "pwsh -NoProfile -Command \". ./dsc/WebServer.ps1; WebServer -ConfigurationData ./dsc/nodes.psd1 -OutputPath ./out/mof | Select-Object Name, Length\"",
                "\nName          Length\n----          ------\nWEB01.mof       3962\nWEB02.mof       3962\n",
            ),
            Bash(
                "pwsh -NoProfile -Command \"Invoke-Pester ./tests/WebServer.Tests.ps1 -Output Minimal\"",
                "Starting discovery in 1 files.\nDiscovery found 5 tests in 84ms.\nRunning tests.\nTests completed in 1.21s\nTests Passed: 5, Failed: 0, Skipped: 0 NotRun: 0",
            ),
            A("Added `WindowsFeature MgmtTools { Name = 'Web-Mgmt-Tools'; Ensure = 'Present'; DependsOn = '[WindowsFeature]IIS' }`. The MOFs for WEB01 and WEB02 compile and the Pester tests pass."),
            U("cool thanks"),
        ],
    ),
    (
        "blind11-codex-erlang-eunit-parse-line",
        "codex",
        "blind11",
        [
            U("add eunit tests for ingest_parser:parse_line/1, cover the empty line and a line with a quoted comma"),
            Read(
                "apps/ingest/src/ingest_parser.erl",
                "-module(ingest_parser).\n-export([parse_line/1]).\n\nparse_line(<<>>) -> {error, empty};\nparse_line(Line) ->\n    case csv_split(Line) of\n        [Ts, Src, Val] -> {ok, #{ts => Ts, source => Src, value => Val}};\n        Other -> {error, {bad_arity, length(Other)}}\n    end.\n...",
            ),
            Edit("apps/ingest/test/ingest_parser_tests.erl"),
            Bash(
                "rebar3 eunit --module=ingest_parser_tests",
                "===> Verifying dependencies...\n===> Analyzing applications...\n===> Compiling ingest\n===> Performing EUnit tests...\n....\nFinished in 0.021 seconds\n4 tests, 0 failures",
            ),
            A("Added four tests: a normal line, the empty binary, a quoted field containing a comma, and a line with too many fields (bad_arity). All pass."),
            U("thanks"),
        ],
    ),
    (
        "blind11-smalltalk-monday-coffee",
        "claude",
        "blind11",
        [
            U("morning. coffee hasn't kicked in yet so go easy on me today lol"),
            A("Morning! No rush. Whenever you're ready, tell me what you want to look at, or we can start small and warm up."),
            U("do you ever get tired of people asking you to center divs"),
            A("Not really. Centering things is one of those problems that stays interesting because the answer keeps changing, flexbox, grid, the old margin auto trick. It's a rite of passage at this point."),
            U("haha fair. ok im gonna grab a second cup and then come back, might be 20 min"),
            A("Sounds good, enjoy the coffee. I'll be here."),
        ],
    ),
    (
        "blind11-gemini-smalltalk-puppy-names",
        "gemini",
        "blind11",
        [
            U("random question, we're picking up a puppy on saturday (border collie mix) and my partner and i cant agree on a name. any ideas? she wants something classic, i want something nerdy"),
            A(
                "Congrats on the puppy! A few that might satisfy both of you:\n\n- **Ada** (Lovelace): classic-sounding name, nerdy origin\n- **Turing**: works well if it's a boy\n- **Pixel**: a nice fit for a speckled collie coat\n- **Scout**: classic, and collies are natural scouts\n- **Kepler**: friendly to say out loud at the park\n- **Hopper** (Grace Hopper): and the dog will definitely hop\n\nAda or Hopper are probably the best compromises: they sound like ordinary dog names to anyone who doesn't know the reference."
            ),
            U("ooh hopper is good. she'll like that it sounds normal"),
            A("Hopper it is, hopefully! Border collies are very smart and need lots of mental exercise, so you may end up with a dog that outsmarts you. Have fun on Saturday."),
            U("thanks!! will report back"),
        ],
    ),
    (
        "blind11-smalltalk-conference-nerves",
        "claude",
        "blind11",
        [
            U("not a coding thing but im giving my first conference talk next month and im kind of freaking out. any tips that arent just 'practice'"),
            A(
                "Totally normal to be nervous, most speakers still are. A few things that help beyond practice:\n\n"
                "- Memorize your first two minutes word for word. Nerves peak at the start, and once you're past the opening you settle into it.\n"
                "- Find two or three friendly faces in different parts of the room and talk to them, not to the room.\n"
                "- Have a plan for the demo failing, like a recording or screenshots. Knowing you have a fallback takes a lot of the pressure off.\n"
                "- Arrive early enough to stand on the stage and click through a few slides with the actual clicker.\n"
                "- Leave time at the end. Running short is fine; nobody has ever complained that a talk finished five minutes early."
            ),
            U("the demo backup thing is smart. my demo is live and wifi at these venues is always garbage"),
            A("Then definitely record it ahead of time. Lots of experienced speakers just play the recording and narrate over it live; the audience rarely minds, and it's a lot less stressful."),
            U("ok feeling slightly better. thanks"),
            A("You'll do great. Good luck with it!"),
        ],
    ),
]
