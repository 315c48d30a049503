# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind6" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND6: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind6-zephyr-bme280-i2c1",
        "claude",
        "blind6",
        [
            U(
                "hey, trying to get the bme280 working on the nrf52840dk over i2c1 (pins 30/31). west build dies with some devicetree thing, can u look. app is firmware/envnode"
            ),
            Bash(
                "west build -p -b nrf52840dk/nrf52840 firmware/envnode 2>&1 | tail -6",
                "-- Found devicetree overlay: /home/dev/app/firmware/envnode/boards/nrf52840dk_nrf52840.overlay\n"
                "devicetree error: /home/dev/app/firmware/envnode/boards/nrf52840dk_nrf52840.overlay:1 (column 1): parse error: undefined node label 'i2c_1'\n"
                "CMake Error at /home/dev/zephyrproject/zephyr/cmake/modules/dts.cmake:295 (message):\n"
                "  dtc failed with return code: 1\n"
                "-- Configuring incomplete, errors occurred!\n"
                "FATAL ERROR: command exited with status 1: /usr/bin/cmake -DWEST_PYTHON=/usr/bin/python3 -B/home/dev/app/build -GNinja -DBOARD=nrf52840dk/nrf52840 -S/home/dev/app/firmware/envnode",
                failed=True,
            ),
            Read(
                "firmware/envnode/boards/nrf52840dk_nrf52840.overlay",
                '&i2c_1 {\n\tstatus = "okay";\n\tpinctrl-0 = <&i2c1_default>;\n\tpinctrl-1 = <&i2c1_sleep>;\n\tpinctrl-names = "default", "sleep";\n\n\tbme280@76 {\n\t\tcompatible = "bosch,bme280";\n\t\treg = <0x76>;\n\t};\n};\n',
            ),
            A(
                "The label is `i2c1`, not `i2c_1` (that's the name from the SoC .dtsi). Fixing the reference and rebuilding."
            ),
            Edit("firmware/envnode/boards/nrf52840dk_nrf52840.overlay"),
            Bash(
                "west build -b nrf52840dk/nrf52840 firmware/envnode 2>&1 | grep -B1 -A3 'error:' | head -8",
                "In file included from /home/dev/zephyrproject/zephyr/soc/nordic/validate_enabled_instances.c:7:\n"
                '/home/dev/zephyrproject/zephyr/include/zephyr/toolchain/gcc.h:87:36: error: static assertion failed: "Only one of the following peripherals can be enabled: SPI1, SPIM1, SPIS1, TWI1, TWIM1, TWIS1. Check nodes with status \\"okay\\" in zephyr.dts."\n'
                '   87 | #define BUILD_ASSERT(EXPR, MSG...) _Static_assert((EXPR), "" MSG)\n'
                "      |                                    ^~~~~~~~~~~~~~\n"
                "ninja: build stopped: subcommand failed.",
                failed=True,
            ),
            A(
                "Devicetree parses now, but the SoC check rejects it. On the nRF52840, TWIM1 and SPIM1 are the same hardware instance (both at 0x40004000), "
                "so only one of i2c1/spi1 can be okay at a time, and the nrf52840dk board file already enables spi1 by default. "
                'So whenever we use i2c1 on this board, the overlay has to disable spi1 explicitly. I\'ll add `&spi1 { status = "disabled"; };` to the overlay.',
                lesson=(RC, "only one of i2c1/spi1 can be okay at a time"),
            ),
            Edit("firmware/envnode/boards/nrf52840dk_nrf52840.overlay"),
            Bash(
                "west build -b nrf52840dk/nrf52840 firmware/envnode 2>&1 | tail -5",
                "[174/174] Linking C executable zephyr/zephyr.elf\n"
                "Memory region         Used Size  Region Size  %age Used\n"
                "           FLASH:       61244 B         1 MB      5.84%\n"
                "             RAM:       14120 B       256 KB      5.39%\n"
                "        IdtEntries:          0 GB        32 B      0.00%",
            ),
            A(
                "Builds. You can flash it with `west flash`; the sensor should show up as `bme280@76` on i2c1."
            ),
            U("flashed, temp and humidity look sane. ty"),
        ],
    ),
    (
        "blind6-terraform-rds-pg15",
        "claude",
        "blind6",
        [
            U(
                "need to bump the postgres engine on the staging RDS from 14 to 15. it's in infra/envs/staging/rds.tf. make the change and show me the plan please"
            ),
            Read(
                "infra/envs/staging/rds.tf",
                'module "db" {\n  source  = "terraform-aws-modules/rds/aws"\n  version = "6.5.4"\n\n  identifier     = "orders-staging"\n  engine         = "postgres"\n  engine_version = "14.10"\n  family         = "postgres14"\n  instance_class = "db.t4g.medium"\n  ...\n}\n',
            ),
            Edit("infra/envs/staging/rds.tf"),
            Bash(
                "cd infra/envs/staging && terraform plan -out=tfplan 2>&1 | tail -14",
                "  # module.db.module.db_instance.aws_db_instance.this[0] will be updated in-place\n"
                '  ~ resource "aws_db_instance" "this" {\n'
                "      + allow_major_version_upgrade = true\n"
                "      ~ apply_immediately           = false -> true\n"
                '      ~ engine_version              = "14.10" -> "15.5"\n'
                '        id                          = "db-7KQ2ZVX3M4JH5LEXAMPLE"\n'
                '      ~ parameter_group_name        = "orders-staging-20240311" -> (known after apply)\n'
                "        # (52 unchanged attributes hidden)\n"
                "    }\n\n"
                "  # module.db.module.db_parameter_group.aws_db_parameter_group.this[0] must be replaced\n"
                '+/- resource "aws_db_parameter_group" "this" {\n'
                '      ~ family      = "postgres14" -> "postgres15" # forces replacement\n'
                "\nPlan: 1 to add, 1 to change, 1 to destroy.",
            ),
            A(
                "Plan looks as expected: engine 14.10 -> 15.5, the parameter group gets replaced because the family changes, and I set allow_major_version_upgrade = true (RDS refuses a major upgrade without it). "
                "I also set apply_immediately = true so it doesn't sit waiting for the maintenance window. Want me to apply it?"
            ),
            U(
                "no, take apply_immediately out. staging upgrades go in the maintenance window same as prod, thats the whole point of having staging",
                lesson=(C, "staging upgrades go in the maintenance window same as prod"),
            ),
            Edit("infra/envs/staging/rds.tf"),
            A(
                "Removed apply_immediately; the plan is otherwise unchanged. Shall I run terraform apply with the saved plan?"
            ),
            U(
                "nope. we never run apply from a laptop in this repo, everything goes through atlantis on the PR. push a branch and I'll comment `atlantis plan` myself",
                lesson=(R, "we never run apply from a laptop in this repo"),
            ),
            Bash(
                "git checkout -b staging-rds-pg15 && git commit -qam 'staging rds: postgres 14 -> 15' && git push -u origin staging-rds-pg15 2>&1 | tail -3",
                "remote: Create a pull request for 'staging-rds-pg15' on GitHub by visiting:\nremote:      https://github.com/ordersco/infra/pull/new/staging-rds-pg15\nbranch 'staging-rds-pg15' set up to track 'origin/staging-rds-pg15'.",
            ),
            A(
                "Pushed `staging-rds-pg15`. I deleted the local tfplan file so nothing stale is lying around."
            ),
        ],
    ),
    (
        "blind6-unity-inventory-icons",
        "claude",
        "blind6",
        [
            U(
                "So the inventory screen hitches really badly the first time you open it, something like 300ms on Quest 2, which is very noticeable in VR. "
                "My guess is the item icons being loaded on the spot. Could you have a look at Assets/Scripts/UI/InventoryView.cs and make it not stutter? Preloading them somewhere would be fine."
            ),
            Read(
                "Assets/Scripts/UI/InventoryView.cs",
                'public void Open(IReadOnlyList<ItemStack> items)\n{\n    foreach (var stack in items)\n    {\n        var slot = Instantiate(slotPrefab, grid);\n        slot.Icon.sprite = Resources.Load<Sprite>($"Icons/{stack.Item.IconId}");\n        slot.Count.text = stack.Count.ToString();\n    }\n    gameObject.SetActive(true);\n}\n',
            ),
            A(
                "Right, every slot does a synchronous Resources.Load on open, and the first call also has to load the texture from disk. "
                'I\'ll preload all of them once at startup with Resources.LoadAll<Sprite>("Icons") into a dictionary on ItemDatabase, and InventoryView will just look them up.'
            ),
            U(
                "hmm no, please don't add more Resources stuff, we're migrating off the Resources folder. icons are already in the ui-icons addressables group with the label `icon`, "
                "load them async by label when the inventory scene loads",
                lesson=(
                    C,
                    "don't add more Resources stuff, we're migrating off the Resources folder",
                ),
            ),
            A("Got it, I'll go through Addressables instead."),
            Edit("Assets/Scripts/UI/IconCache.cs"),
            Edit("Assets/Scripts/UI/InventoryView.cs"),
            Edit("Assets/Scripts/Scenes/InventorySceneBootstrap.cs"),
            Bash(
                "/opt/unity/2022.3.21f1/Editor/Unity -batchmode -nographics -projectPath . -runTests -testPlatform EditMode -testResults /tmp/editmode.xml -logFile - 2>&1 | grep -E 'Test run completed|Passed:|Failed:' | tail -3",
                "Test run completed. Exit code 0\nPassed: 48  Failed: 0  Skipped: 2",
            ),
            A(
                "Done. IconCache.PreloadAsync() loads everything with the `icon` label via Addressables.LoadAssetsAsync and the bootstrap awaits it before enabling the inventory; InventoryView now only reads from the cache. "
                "Worth knowing: Addressables reference-counts that handle, so the cache must call Addressables.Release(handle) when the inventory scene unloads. I put that in OnDestroy; if someone later just clears the dictionary instead, the icon atlases stay in memory for the rest of the session.",
                lesson=(
                    N,
                    "the cache must call Addressables.Release(handle) when the inventory scene unloads",
                ),
            ),
            U("nice, will test on device after lunch"),
        ],
    ),
    (
        "blind6-codex-dbt-fct-orders-incremental",
        "codex",
        "blind6",
        [
            U(
                "fct_orders takes 25 min every night now, it's a full rebuild on snowflake. can we make it incremental? models/marts/fct_orders.sql"
            ),
            Read(
                "models/marts/fct_orders.sql",
                "{{ config(materialized='table') }}\n\nselect\n    o.order_id,\n    o.customer_id,\n    o.updated_at,\n    o.total_amount,\n    r.refunded_amount\nfrom {{ ref('stg_shopify__orders') }} o\nleft join {{ ref('int_refunds_by_order') }} r using (order_id)\n",
            ),
            A(
                "Plan: materialized='incremental' with incremental_strategy='merge' and unique_key='order_id'. "
                "For the incremental filter I'd filter on updated_at with a 3-day lookback rather than `> max(updated_at)`. "
                "Shopify orders land late from the connector and get updated again after refunds, so a strict max() filter would silently skip rows that arrive after the last run; the 3 days cost a bit more scan but keep the table correct. OK with that?",
                lesson=(D, "filter on updated_at with a 3-day lookback"),
            ),
            U("yes go with that, 3 days is fine"),
            Edit("models/marts/fct_orders.sql"),
            Bash(
                "dbt build --select fct_orders 2>&1 | tail -8",
                "14:02:11  1 of 6 START sql incremental model analytics.fct_orders ........................ [RUN]\n"
                "14:02:13  1 of 6 ERROR creating sql incremental model analytics.fct_orders ............... [ERROR in 1.92s]\n"
                "14:02:13  \n"
                "14:02:13  Finished running 1 incremental model, 5 data tests in 0 hours 0 minutes and 6.40 seconds (6.40s).\n"
                "14:02:13  Completed with 1 error and 0 warnings:\n"
                "14:02:13    Database Error in model fct_orders (models/marts/fct_orders.sql)\n"
                "  100090 (42P18): Duplicate row detected during DML action\n"
                '  Row Values: [5518234871, 88213, "2026-02-27 09:14:51.000", 129.9, NULL]',
                failed=True,
            ),
            A(
                "Snowflake won't MERGE when the source has more than one row for the same unique_key. "
                "stg_shopify__orders keeps every version of an order (one row per webhook), so an order updated twice inside the 3-day window shows up twice. "
                "I'll dedupe in the model with `qualify row_number() over (partition by order_id order by updated_at desc) = 1` before the merge.",
                lesson=(
                    RC,
                    "stg_shopify__orders keeps every version of an order (one row per webhook)",
                ),
            ),
            Edit("models/marts/fct_orders.sql"),
            Bash(
                "dbt build --select fct_orders 2>&1 | tail -3",
                "14:05:40  1 of 6 OK created sql incremental model analytics.fct_orders .................. [SUCCESS 1 in 38.20s]\n"
                "14:05:47  \n"
                "14:05:47  Done. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6",
            ),
            U(
                "nice. can you write me a quick script that compares row counts per day between the old table and the new one for the last 30 days, just so I can eyeball it before we switch the dashboard"
            ),
            Edit("analyses/compare_fct_orders_counts.sql"),
            A(
                "Added analyses/compare_fct_orders_counts.sql; `dbt compile --select compare_fct_orders_counts` gives you the SQL to paste into a worksheet. It lists days where the counts differ."
            ),
        ],
    ),
    (
        "blind6-gemini-flutter-profile-refresh",
        "gemini",
        "blind6",
        [
            U(
                "profile screen doesnt refresh after editing the display name, you have to go back and open it again. code is in lib/features/profile/"
            ),
            Read(
                "lib/features/profile/profile_screen.dart",
                "class ProfileScreen extends ConsumerWidget {\n  const ProfileScreen({super.key});\n\n  @override\n  Widget build(BuildContext context, WidgetRef ref) {\n    final profile = ref.read(profileProvider);\n    return profile.when(\n      data: (p) => ProfileView(profile: p),\n      loading: () => const Center(child: CircularProgressIndicator()),\n      error: (e, _) => ErrorView(error: e),\n    );\n  }\n}\n",
            ),
            A(
                "The screen reads profileProvider with `ref.read` inside build, so it never subscribes and won't rebuild when the value changes. "
                "I'll switch it to `ref.watch`, and in EditNameSheet I'll return the new name with `Navigator.pop(context, newName)` and update the view from the result."
            ),
            U(
                "ref.watch yes. but no, don't pass results back through Navigator.pop, we never do that here - after a save you invalidate the provider and let it refetch",
                lesson=(C, "after a save you invalidate the provider and let it refetch"),
            ),
            Edit("lib/features/profile/profile_screen.dart"),
            Edit("lib/features/profile/edit_name_sheet.dart"),
            A(
                "Done: ProfileScreen watches the provider and EditNameSheet calls `ref.invalidate(profileProvider)` after the save succeeds. "
                "I also added a small `StateNotifierProvider<SaveState>` called `profileSaveProvider` so the sheet can show a spinner while saving."
            ),
            U(
                "hm, any new provider has to use the @riverpod annotation + build_runner, we dont hand-write StateNotifierProvider anymore. can you redo that one",
                lesson=(R, "any new provider has to use the @riverpod annotation"),
            ),
            Edit("lib/features/profile/profile_save_controller.dart"),
            Bash(
                "dart run build_runner build --delete-conflicting-outputs 2>&1 | tail -2",
                "[INFO] Running build completed, took 6.1s\n[INFO] Succeeded after 6.3s with 4 outputs (14 actions)",
            ),
            Bash(
                "flutter test test/features/profile",
                "00:05 +11: All tests passed!",
            ),
            A(
                "Rewrote it as a `@riverpod class ProfileSaveController` (generated file profile_save_controller.g.dart). Tests pass."
            ),
        ],
    ),
    (
        "blind6-elixir-oban-welcome-twice",
        "claude",
        "blind6",
        [
            U(
                "some users get the welcome email twice. job is enqueued in Accounts.register_user/1, we use oban. support says it happens when people double-click the signup button on slow connections"
            ),
            Read(
                "lib/ledgerly/workers/welcome_email.ex",
                'defmodule Ledgerly.Workers.WelcomeEmail do\n  use Oban.Worker, queue: :mailers, max_attempts: 5\n\n  @impl Oban.Worker\n  def perform(%Oban.Job{args: %{"user_id" => user_id}}) do\n    user = Ledgerly.Accounts.get_user!(user_id)\n    user |> Ledgerly.Emails.welcome() |> Ledgerly.Mailer.deliver()\n  end\nend\n',
            ),
            A(
                "The worker has no uniqueness, so every register_user call that gets far enough enqueues a new job. "
                "I'd make the job unique per user_id with period :infinity rather than a time window (`unique: [period: :infinity, keys: [:user_id]]`): a user should only ever get one welcome email, and a 60s period would still let a retried request through if it comes later. "
                "I'll also add a test for the double submit. Sound good?",
                lesson=(D, "unique per user_id with period :infinity rather than a time window"),
            ),
            U("yep infinity makes sense, go"),
            Edit("lib/ledgerly/workers/welcome_email.ex"),
            Edit("test/ledgerly/accounts_test.exs"),
            Bash(
                "mix test test/ledgerly/accounts_test.exs 2>&1 | tail -14",
                "  1) test register_user/1 sends the welcome email once on double submit (Ledgerly.AccountsTest)\n"
                "     test/ledgerly/accounts_test.exs:48\n"
                '     Expected no email to have been sent, got %Swoosh.Email{subject: "Welcome to Ledgerly", from: {"Ledgerly", "hello@ledgerly.app"}, to: [{"", "ana@example.com"}], ...}\n'
                "     code: refute_email_sent()\n"
                "     stacktrace:\n"
                "       test/ledgerly/accounts_test.exs:55: (test)\n\n"
                "Finished in 0.8 seconds (0.3s async, 0.5s sync)\n"
                "14 tests, 1 failure",
                failed=True,
            ),
            Read(
                "config/test.exs",
                "config :ledgerly, Oban, testing: :inline\n\nconfig :ledgerly, Ledgerly.Mailer, adapter: Swoosh.Adapters.Test\n",
            ),
            A(
                "The failure is the test setup, not the fix: config/test.exs runs Oban with `testing: :inline`, and in inline mode jobs are executed immediately without being inserted, "
                "so the unique check (a query against oban_jobs) never runs and both calls send mail. "
                "Any test that relies on uniqueness has to switch to manual mode; I'll wrap this one in `Oban.Testing.with_testing_mode(:manual, fn -> ... end)` and assert with `assert_enqueued` / `all_enqueued` instead of checking mail.",
                lesson=(RC, "in inline mode jobs are executed immediately without being inserted"),
            ),
            Edit("test/ledgerly/accounts_test.exs"),
            Bash(
                "mix test test/ledgerly/accounts_test.exs 2>&1 | tail -2",
                "Finished in 0.9 seconds (0.3s async, 0.6s sync)\n14 tests, 0 failures",
            ),
            A(
                "Green. The worker is unique per user_id forever, and the test checks that two register calls leave a single WelcomeEmail job."
            ),
        ],
    ),
    (
        "blind6-r-targets-server-janitor",
        "claude",
        "blind6",
        [
            U(
                "The targets pipeline fails on the new analysis server but runs fine on my laptop. Everything is in _targets.R and R/. Could you take a look? I'm logged into the server in this terminal."
            ),
            Bash(
                "Rscript -e 'targets::tar_make()' 2>&1 | tail -12",
                "✔ skipped target raw_survey_file\n"
                "✔ skipped target raw_survey\n"
                "▶ dispatched target cleaned_survey\n"
                "✖ errored target cleaned_survey\n"
                "✖ errored pipeline [1.204 seconds]\n"
                "Error:\n"
                "! Error running targets::tar_make()\n"
                "  Error messages: targets::tar_meta(fields = error, complete_only = TRUE)\n"
                "  Debugging guide: https://books.ropensci.org/targets/debugging.html\n"
                "  How to ask for help: https://books.ropensci.org/targets/help.html\n"
                "  Last error message:\n"
                '    could not find function "clean_names"',
                failed=True,
            ),
            Read(
                "_targets.R",
                'library(targets)\ntar_source("R")\ntar_option_set(packages = c("dplyr", "readr", "tidyr", "lubridate"))\n\nlist(\n  tar_target(raw_survey_file, "data/survey_2025.csv", format = "file"),\n  tar_target(raw_survey, read_csv(raw_survey_file)),\n  tar_target(cleaned_survey, clean_survey(raw_survey)),\n  ...\n)\n',
            ),
            A(
                "clean_survey() in R/clean.R calls `clean_names()`, which comes from janitor, but janitor isn't in `tar_option_set(packages = ...)`. "
                "It works on your laptop because your ~/.Rprofile attaches janitor, and that profile is loaded in the callr process targets starts; the server has no such profile. "
                "targets only attaches what's listed in `packages`, so I'll add janitor there.",
                lesson=(RC, "works on your laptop because your ~/.Rprofile attaches janitor"),
            ),
            Edit("_targets.R"),
            Bash(
                "Rscript -e 'targets::tar_make()' 2>&1 | tail -3",
                "  Last error message:\n    there is no package called ‘janitor’\n",
                failed=True,
            ),
            A(
                "Now it's simply not installed on the server. Should I install it into the project library?"
            ),
            U(
                "yes. the server restores from renv.lock, thats why. so: whenever you add a package, run renv::snapshot() and commit renv.lock in the same PR, otherwise the server won't have it",
                lesson=(R, "whenever you add a package, run renv::snapshot() and commit renv.lock"),
            ),
            Bash(
                "Rscript -e 'renv::install(\"janitor\"); renv::snapshot(prompt = FALSE)' 2>&1 | tail -6",
                'The following package(s) will be updated in the lockfile:\n\n# CRAN --------------------------------------------------\n- janitor     [* -> 2.2.0]\n- snakecase   [* -> 0.11.1]\n\n- Lockfile written to "/srv/analysis/survey/renv.lock".',
            ),
            Bash(
                "Rscript -e 'targets::tar_make()' 2>&1 | tail -4",
                "▶ dispatched target cleaned_survey\n● completed target cleaned_survey [0.412 seconds, 1.88 megabytes]\n▶ dispatched target survey_summary\n● completed target survey_summary [0.09 seconds, 4.2 kilobytes]\n▶ ended pipeline [3.9 seconds]",
            ),
            A(
                "Pipeline completes on the server. renv.lock and _targets.R are changed; I haven't committed yet."
            ),
        ],
    ),
    (
        "blind6-swift-imagecache-actor",
        "claude",
        "blind6",
        [
            U(
                "turned on swift 6 language mode for the Gallery package and ImageCache blows up with concurrency errors. Sources/Gallery/ImageCache.swift. what's the least painful fix"
            ),
            Bash(
                "swift build 2>&1 | grep 'error:' | head -4",
                "/Users/kai/dev/Gallery/Sources/Gallery/ImageCache.swift:14:23: error: static property 'shared' is not concurrency-safe because non-'Sendable' type 'ImageCache' may have shared mutable state\n"
                "/Users/kai/dev/Gallery/Sources/Gallery/ImageCache.swift:31:13: error: capture of 'self' with non-sendable type 'ImageCache' in a `@Sendable` closure\n"
                "/Users/kai/dev/Gallery/Sources/Gallery/ImageCache.swift:33:17: error: mutation of captured var 'storage' in concurrently-executing code",
                failed=True,
            ),
            A(
                "ImageCache is a plain class with a mutable dictionary shared across tasks, so Swift 6 can't prove it's safe. Two realistic options: mark it @MainActor, or turn it into an actor. "
                "I'd make it an actor rather than @MainActor: the cache is hit from the thumbnail decoding tasks, which run off the main thread, and @MainActor would make every lookup hop to main, which is the scroll jank you fixed in the prefetcher last month. "
                "Callers already `await load(url)`, so the API barely changes. Go with actor?",
                lesson=(D, "I'd make it an actor rather than @MainActor"),
            ),
            U("yeah actor. go"),
            Edit("Sources/Gallery/ImageCache.swift"),
            Bash(
                "swift build 2>&1 | grep 'error:' | head -3",
                "/Users/kai/dev/Gallery/Sources/Gallery/ThumbnailGrid.swift:22:15: error: actor-isolated property 'memoryLimit' can not be mutated from the main actor",
                failed=True,
            ),
            A(
                "ThumbnailGrid sets `memoryLimit` directly; I'll add a `setMemoryLimit(_:)` method on the actor and call it with await."
            ),
            Edit("Sources/Gallery/ImageCache.swift"),
            Edit("Sources/Gallery/ThumbnailGrid.swift"),
            Bash(
                "swift build 2>&1 | tail -1 && swift test 2>&1 | tail -1",
                "Build complete! (14.22s)\nTest Suite 'All tests' passed at 2026-03-02 10:41:07.118.\n\t Executed 37 tests, with 0 failures (0 unexpected) in 1.204 (1.209) seconds",
            ),
            A(
                "Builds clean under Swift 6 and the tests pass. One thing to keep in mind for later changes: actors are reentrant, so between the `await decode(...)` and storing the result another load for the same URL can start. "
                "ImageCache relies on the in-flight Task dictionary to avoid duplicate decodes (concurrent requests for one URL await the same Task). If load() gets refactored, that dictionary has to stay.",
                lesson=(N, "relies on the in-flight Task dictionary to avoid duplicate decodes"),
            ),
        ],
    ),
    (
        "blind6-codex-kubebuilder-maxreplicas",
        "codex",
        "blind6",
        [
            U(
                "add a maxReplicas field to the BackupPolicy spec (api/v1alpha1/backuppolicy_types.go). int32, default 3, must be 1..10. then regenerate whatever needs regenerating"
            ),
            Read(
                "api/v1alpha1/backuppolicy_types.go",
                '// BackupPolicySpec defines the desired state of BackupPolicy\ntype BackupPolicySpec struct {\n\t// +kubebuilder:validation:Pattern=`^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$`\n\tSchedule string `json:"schedule"`\n\n\tRetention RetentionSpec `json:"retention"`\n}\n',
            ),
            Edit("api/v1alpha1/backuppolicy_types.go"),
            Bash(
                "make manifests generate",
                '/home/dev/app/bin/controller-gen rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases\n/home/dev/app/bin/controller-gen object:headerFile="hack/boilerplate.go.txt" paths="./..."',
            ),
            Bash(
                "make test 2>&1 | tail -3",
                "ok  \tgithub.com/acme/backup-operator/api/v1alpha1\t0.031s\tcoverage: 12.5% of statements\nok  \tgithub.com/acme/backup-operator/internal/controller\t12.118s\tcoverage: 64.2% of statements",
            ),
            Bash(
                "cp config/crd/bases/backup.acme.io_backuppolicies.yaml charts/backup-operator/crds/ && git status --short",
                " M api/v1alpha1/backuppolicy_types.go\n M api/v1alpha1/zz_generated.deepcopy.go\n M charts/backup-operator/crds/backup.acme.io_backuppolicies.yaml\n M config/crd/bases/backup.acme.io_backuppolicies.yaml",
            ),
            A(
                "Added `MaxReplicas *int32` with `+kubebuilder:default=3`, `+kubebuilder:validation:Minimum=1` and `+kubebuilder:validation:Maximum=10`, and regenerated the CRD and deepcopy. "
                "Worth knowing: the helm chart under charts/backup-operator/crds has its own copy of the CRD that `make manifests` doesn't touch, so it goes stale unless it's synced after every API change. I copied the new one over.",
                lesson=(N, "the helm chart under charts/backup-operator/crds has its own copy"),
            ),
            U(
                "thanks. on that - the chart CRDs should never be edited or copied by hand, always `make helm-crds`, it copies and adds the keep annotation. redo that bit pls",
                lesson=(R, "the chart CRDs should never be edited or copied by hand"),
            ),
            Bash(
                "git checkout -- charts/ && make helm-crds",
                'cp config/crd/bases/*.yaml charts/backup-operator/crds/\nyq -i \'.metadata.annotations."helm.sh/resource-policy" = "keep"\' charts/backup-operator/crds/*.yaml',
            ),
            Bash(
                "git diff --stat charts/",
                " charts/backup-operator/crds/backup.acme.io_backuppolicies.yaml | 9 +++++++++\n 1 file changed, 9 insertions(+)",
            ),
            A(
                "Redone with `make helm-crds`; the chart CRD now has the new field and keeps the `helm.sh/resource-policy: keep` annotation."
            ),
        ],
    ),
    (
        "blind6-gemini-haskell-aeson-bump",
        "gemini",
        "blind6",
        [
            U("cabal build fails after i bumped aeson to 2.2 in ledger-api.cabal. fix pls"),
            Bash(
                "cabal build 2>&1 | tail -9",
                "Resolving dependencies...\n"
                "Error: cabal: Could not resolve dependencies:\n"
                "[__0] trying: ledger-api-0.4.0 (user goal)\n"
                "[__1] trying: servant-server-0.19.2 (dependency of ledger-api)\n"
                "[__2] next goal: aeson (dependency of ledger-api)\n"
                "[__2] rejecting: aeson-2.2.1.0 (conflict: servant-server => aeson>=1.4.1.0 && <2.2)\n"
                "[__2] rejecting: aeson-2.1.2.1, aeson-2.1.2.0, aeson-2.1.1.0 (conflict: ledger-api => aeson>=2.2 && <2.3)\n"
                "[__2] fail (backjumping, conflict set: aeson, ledger-api, servant-server)\n"
                "After searching the rest of the dependency tree exhaustively, these were the goals I've had most trouble fulfilling: aeson, ledger-api, servant-server",
                failed=True,
            ),
            A(
                "servant-server 0.19.2 has an upper bound `aeson < 2.2`. The quickest way through is `allow-newer: servant-server:aeson` in cabal.project; servant doesn't use anything that changed in 2.2, so it should compile fine. Adding that now."
            ),
            Edit("cabal.project"),
            U(
                "no, revert that. no allow-newer in this repo, we don't paper over bounds, if something needs a newer dep we bump the thing that depends on it. servant 0.20 supports aeson 2.2",
                lesson=(C, "no allow-newer in this repo, we don't paper over bounds"),
            ),
            Edit("cabal.project"),
            Edit("ledger-api.cabal"),
            Bash(
                "cabal build 2>&1 | tail -3",
                "[14 of 15] Compiling Ledger.Api.Server ( src/Ledger/Api/Server.hs, dist-newstyle/build/x86_64-linux/ghc-9.6.6/ledger-api-0.4.0/build/Ledger/Api/Server.o, dist-newstyle/build/x86_64-linux/ghc-9.6.6/ledger-api-0.4.0/build/Ledger/Api/Server.dyn_o )\n"
                "[15 of 15] Compiling Ledger.Api ( src/Ledger/Api.hs, dist-newstyle/build/x86_64-linux/ghc-9.6.6/ledger-api-0.4.0/build/Ledger/Api.o, dist-newstyle/build/x86_64-linux/ghc-9.6.6/ledger-api-0.4.0/build/Ledger/Api.dyn_o )\n"
                "Linking dist-newstyle/build/x86_64-linux/ghc-9.6.6/ledger-api-0.4.0/x/ledger-api/build/ledger-api/ledger-api ...",
            ),
            Bash(
                "cabal test 2>&1 | tail -3",
                "Test suite ledger-api-test: PASS\nTest suite logged to:\n/home/dev/app/dist-newstyle/build/x86_64-linux/ghc-9.6.6/ledger-api-0.4.0/t/ledger-api-test/test/ledger-api-0.4.0-ledger-api-test.log",
            ),
            A(
                "Reverted allow-newer and bumped servant and servant-server to `>=0.20 && <0.21`. Builds without code changes and the test suite passes."
            ),
        ],
    ),
    (
        "blind6-latex-thesis-biblatex",
        "claude",
        "blind6",
        [
            U(
                "my thesis doesn't build anymore since I switched the bibliography from natbib to biblatex. I just run `make` in the thesis folder. something about bbl missing"
            ),
            Bash(
                "cd thesis && make 2>&1 | grep -A6 'This is BibTeX'",
                "This is BibTeX, Version 0.99d (TeX Live 2023/Debian)\n"
                "The top-level auxiliary file: main.aux\n"
                "I found no \\citation commands---while reading file main.aux\n"
                "I found no \\bibdata command---while reading file main.aux\n"
                "I found no \\bibstyle command---while reading file main.aux\n"
                "(There were 3 error messages)\n"
                "make: *** [Makefile:6: main.pdf] Error 2",
                failed=True,
            ),
            Read(
                "thesis/main.tex",
                "\\documentclass[12pt,twoside]{unithesis}\n\\usepackage[backend=biber,style=authoryear,maxcitenames=2]{biblatex}\n\\addbibresource{refs.bib}\n...",
            ),
            A(
                "The Makefile still runs pdflatex, bibtex, pdflatex by hand. But biblatex with backend=biber needs biber, not bibtex: "
                "it writes the citations to main.bcf instead of \\citation/\\bibdata lines in main.aux, which is why bibtex finds nothing. "
                "I'll replace the manual sequence with latexmk, which reads the .bcf and runs biber on its own.",
                lesson=(RC, "biblatex with backend=biber needs biber, not bibtex"),
            ),
            Edit("thesis/Makefile"),
            U(
                "sure but make it `latexmk -lualatex`, not -pdf. the uni template only builds with lualatex (fontspec), it used to work with pdflatex only by accident because of an old fallback. same for anything else in this repo, ci builds with lualatex too",
                lesson=(R, "the uni template only builds with lualatex (fontspec)"),
            ),
            Edit("thesis/Makefile"),
            Bash(
                "cd thesis && make 2>&1 | tail -5",
                "Output written on main.pdf (142 pages, 2318044 bytes).\n"
                "Transcript written on main.log.\n"
                "Latexmk: Examining 'main.log'\n"
                "=== TeX engine is 'LuaHBTeX'\n"
                "Latexmk: All targets (main.pdf) are up-to-date",
            ),
            U(
                "works. for now can you make it skip the appendix chapters when I build, the tikz plots in there take forever"
            ),
            A(
                "I'll add a `DRAFT=1` switch to the Makefile that passes `\\includeonly{chapters/ch1,...,chapters/ch6}` to latexmk, so plain `make` still builds everything and `make DRAFT=1` skips the appendices."
            ),
            Edit("thesis/Makefile"),
            Bash(
                "cd thesis && make DRAFT=1 2>&1 | grep 'Output written'",
                "Output written on main.pdf (97 pages, 1403322 bytes).",
            ),
        ],
    ),
    (
        "blind6-gemini-airflow-deferrable-sensor",
        "gemini",
        "blind6",
        [
            U(
                "our airflow workers are all tied up by the S3KeySensor in the vendor_ingest DAG, it waits up to 6h for the vendor's file and meanwhile other dags queue behind it. dags/vendor_ingest.py. we're on composer 2, airflow 2.7"
            ),
            Read(
                "dags/vendor_ingest.py",
                'wait_for_file = S3KeySensor(\n    task_id="wait_for_vendor_file",\n    bucket_name="acme-vendor-drop",\n    bucket_key="inbound/{{ ds_nodash }}/orders.csv.gz",\n    aws_conn_id="aws_vendor",\n    poke_interval=60,\n    timeout=6 * 60 * 60,\n)\n',
            ),
            A(
                'The sensor runs in the default poke mode, so it holds a worker slot for up to 6 hours. There are two ways out: mode="reschedule", which frees the slot between pokes but still takes one every minute and adds scheduler load, '
                "or deferrable=True, which hands the wait to the triggerer. Since Composer 2 already runs a triggerer, I'd make the sensor deferrable=True so it holds no worker slot; "
                "a long, mostly idle wait is exactly what deferrable operators are for. Shall I do that?",
                lesson=(D, "make the sensor deferrable=True so it holds no worker slot"),
            ),
            U("deferrable sounds right, go ahead. does the triggerer have enough capacity though?"),
            Edit("dags/vendor_ingest.py"),
            Bash(
                "python -m pytest tests/dags/test_dag_integrity.py -q",
                "....                                                                     [100%]\n4 passed in 3.21s",
            ),
            Bash(
                "gcloud composer environments describe data-prod --location europe-west1 --format='value(config.workloadsConfig.triggerer)'",
                "count=1;cpu=0.5;memoryGb=0.5",
            ),
            A(
                "The triggerer has 1 instance with 0.5 vCPU and 0.5 GB, which is plenty for this: a deferred sensor is just a coroutine there, one instance handles hundreds. "
                "Heads up for debugging later: once it's deferred, the waiting happens in the triggerer, so if the sensor hangs, look in the airflow-triggerer logs in Cloud Logging, not the worker logs; the task log only shows the defer and the resume.",
                lesson=(N, "if the sensor hangs, look in the airflow-triggerer logs"),
            ),
            U("good to know. thanks"),
        ],
    ),
    (
        "blind6-solidity-vesting-release",
        "claude",
        "blind6",
        [
            U(
                "add a `release(address beneficiary)` to TokenVesting.sol that pays out whatever has vested so far. linear vesting, the cliff and duration are already in the Schedule struct"
            ),
            Read(
                "src/TokenVesting.sol",
                "struct Schedule {\n    uint64 start;\n    uint64 cliff;\n    uint64 duration;\n    uint256 total;\n    uint256 released;\n}\n\nmapping(address => Schedule) public schedules;\nIERC20 public immutable token;\n",
            ),
            Edit("src/TokenVesting.sol"),
            Edit("test/TokenVesting.t.sol"),
            A("I'll run the vesting tests now."),
            Bash(
                "forge test --match-contract TokenVestingTest 2>&1 | tail -9",
                "Ran 6 tests for test/TokenVesting.t.sol:TokenVestingTest\n"
                "[PASS] test_release_afterCliff() (gas: 98213)\n"
                "[PASS] test_release_afterEnd_paysTotal() (gas: 97120)\n"
                "[PASS] test_release_beforeCliff_reverts() (gas: 14502)\n"
                "[PASS] test_release_emitsEvent() (gas: 99876)\n"
                "[PASS] test_release_twice_paysDelta() (gas: 121840)\n"
                "[PASS] test_release_unknownBeneficiary_reverts() (gas: 12044)\n"
                "Suite result: ok. 6 passed; 0 failed; 0 skipped; finished in 4.12ms (3.01ms CPU time)",
            ),
            A(
                "release() computes vested = total * (now - start) / duration (capped at total, zero before the cliff), updates `released` before the transfer and uses SafeERC20. Six unit tests pass."
            ),
            U(
                "looks good. but every external function that moves tokens needs a fuzz test as well, not only unit tests - that's a standing rule here, the auditors check for it. add a testFuzz_release",
                lesson=(R, "every external function that moves tokens needs a fuzz test"),
            ),
            Edit("test/TokenVesting.t.sol"),
            Bash(
                "forge test --match-test testFuzz_release 2>&1 | tail -3",
                "Ran 1 test for test/TokenVesting.t.sol:TokenVestingTest\n[PASS] testFuzz_release(uint64,uint256) (runs: 256, μ: 104331, ~: 104512)\nSuite result: ok. 1 passed; 0 failed; 0 skipped; finished in 61.77ms (61.02ms CPU time)",
            ),
            A(
                "Added testFuzz_release: it bounds the warp time and total, releases, and checks released + balance never exceed total and match the linear formula. Passes 256 runs."
            ),
        ],
    ),
    (
        "blind6-codex-zig-013-lazypath",
        "codex",
        "blind6",
        [
            U("upgraded to zig 0.13 and build.zig doesnt compile anymore"),
            Bash(
                "zig build 2>&1 | head -8",
                "/home/dev/app/build.zig:9:30: error: no field named 'path' in union 'Build.LazyPath'\n"
                '        .root_source_file = .{ .path = "src/main.zig" },\n'
                "                             ^~~~\n"
                "/home/dev/.local/zig-0.13.0/lib/std/Build.zig:2171:22: note: union declared here\n"
                "pub const LazyPath = union(enum) {\n"
                "                     ^~~~~",
                failed=True,
            ),
            Bash(
                "grep -n '.path =' build.zig",
                '9:        .root_source_file = .{ .path = "src/main.zig" },\n21:        .root_source_file = .{ .path = "src/root.zig" },\n34:    exe.addIncludePath(.{ .path = "vendor/miniz" });',
            ),
            A(
                'Zig 0.13 removed the `.path` variant of std.Build.LazyPath (it was deprecated in 0.12). Paths relative to the build root now come from `b.path("...")`. '
                "There are three uses in build.zig; I'll switch them all to b.path.",
                lesson=(RC, "Zig 0.13 removed the `.path` variant of std.Build.LazyPath"),
            ),
            Edit("build.zig"),
            Bash("zig build", ""),
            Bash(
                "zig build test --summary all 2>&1 | tail -4",
                "Build Summary: 5/5 steps succeeded; 23/23 tests passed\ntest success\n+- run test 23 passed 8ms MaxRSS:2M\n   +- zig test Debug native success 3s MaxRSS:198M",
            ),
            U("cool. also bump the version in build.zig.zon to 0.4.0"),
            Edit("build.zig.zon"),
            A("Done: build.zig uses b.path everywhere, tests pass, and build.zig.zon is at 0.4.0."),
        ],
    ),
    (
        "blind6-grpc-billing-page-token",
        "claude",
        "blind6",
        [
            U(
                "ListInvoices needs pagination. add page_size + page_token to the request and next_page_token to the response, proto is proto/billing/v1/billing.proto"
            ),
            Edit("proto/billing/v1/billing.proto"),
            Bash(
                "protoc --go_out=. --go_opt=module=github.com/northwind/billing --go-grpc_out=. --go-grpc_opt=module=github.com/northwind/billing proto/billing/v1/billing.proto",
                "",
            ),
            A("Regenerated the Go stubs with protoc. Next I'll wire the fields into the server."),
            U(
                "ah don't run protoc by hand, we use buf - `buf generate` from the repo root, it pins the plugin versions. protoc output has a different header and CI diffs the generated code",
                lesson=(C, "don't run protoc by hand, we use buf"),
            ),
            Bash("git checkout -- gen/ && buf generate && buf lint", ""),
            Bash("buf breaking --against '.git#branch=main'", ""),
            A(
                "Regenerated with buf; lint and breaking checks are clean (the new fields are additive). "
                "For the page token, I'd make the page token an opaque cursor rather than an offset: it would encode the last invoice's (created_at, id) as base64. "
                "Invoices are inserted all the time, so with offsets a client paging through would skip or repeat rows. Tokens the server can't decode get InvalidArgument. OK?",
                lesson=(D, "make the page token an opaque cursor rather than an offset"),
            ),
            U("yes cursor. same as ListCustomers iirc"),
            Read(
                "internal/pagination/cursor.go",
                "// Package pagination encodes keyset cursors for List RPCs.\npackage pagination\n\nfunc Encode(createdAt time.Time, id string) string { ... }\nfunc Decode(token string) (time.Time, string, error) { ... }\n",
            ),
            Edit("internal/billing/list_invoices.go"),
            Edit("internal/billing/list_invoices_test.go"),
            Bash(
                "go test ./internal/billing/... ./internal/pagination/...",
                "ok  \tgithub.com/northwind/billing/internal/billing\t0.842s\nok  \tgithub.com/northwind/billing/internal/pagination\t(cached)",
            ),
            A(
                "Done. ListInvoices uses the existing internal/pagination cursor like ListCustomers, page_size defaults to 50 and is capped at 500."
            ),
        ],
    ),
    (
        "blind6-gemini-ansible-bookworm-become",
        "gemini",
        "blind6",
        [
            U(
                "the playbook fails on the new debian 12 web hosts at the package step, old ones are fine. `ansible-playbook -i inventory/prod site.yml --limit web`"
            ),
            Bash(
                "ansible-playbook -i inventory/prod site.yml --limit web-04.prod 2>&1 | grep -A2 'FAILED'",
                'fatal: [web-04.prod]: FAILED! => {"cache_update_time": 1772358120, "cache_updated": false, "changed": false, "msg": "\'/usr/bin/apt-get -y -o \\"Dpkg::Options::=--force-confdef\\" -o \\"Dpkg::Options::=--force-confold\\"       install \'chrony=4.3-2+deb12u1\' \'nginx=1.22.1-9\'\' failed: E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?\\n", "rc": 100}',
                failed=True,
            ),
            Bash(
                "ansible-inventory -i inventory/prod --host web-04.prod | grep ansible_user; ansible-inventory -i inventory/prod --host web-01.prod | grep ansible_user",
                '    "ansible_user": "admin",\n    "ansible_user": "root",',
            ),
            A(
                "The new Debian 12 hosts log in as `admin` (the default user of the Debian cloud images), while the older hosts connect as root. "
                "Nothing in site.yml or the roles sets become, so the package tasks only worked before because the old hosts log in as root. "
                "I'll add `become: true` to the plays in site.yml so it doesn't depend on the login user.",
                lesson=(RC, "only worked before because the old hosts log in as root"),
            ),
            Edit("site.yml"),
            Bash(
                "ansible-playbook -i inventory/prod site.yml --limit web 2>&1 | tail -5",
                "PLAY RECAP *********************************************************************\n"
                "web-01.prod                : ok=31   changed=0    unreachable=0    failed=0    skipped=4    rescued=0    ignored=0\n"
                "web-02.prod                : ok=31   changed=0    unreachable=0    failed=0    skipped=4    rescued=0    ignored=0\n"
                "web-04.prod                : ok=31   changed=9    unreachable=0    failed=0    skipped=4    rescued=0    ignored=0\n"
                "web-05.prod                : ok=31   changed=9    unreachable=0    failed=0    skipped=4    rescued=0    ignored=0",
            ),
            U(
                "ok that fixed it. but next time: on prod always run with --check --diff first and show me the diff before doing the real run. you just changed 2 prod boxes without me seeing anything",
                lesson=(R, "on prod always run with --check --diff first"),
            ),
            A(
                "Understood, sorry about that. The 9 changes on web-04/05 were the first-time setup (chrony, nginx, the node exporter unit), the same as on the older hosts; nothing changed on web-01/02."
            ),
        ],
    ),
    (
        "blind6-nix-flake-devshell",
        "claude",
        "blind6",
        [
            U(
                "I'd like a dev shell for this repo with nix flakes so new people stop fighting with python versions. Needs python 3.11, poetry, the postgres 15 client and pre-commit. Nothing fancy."
            ),
            A(
                "I'd pin nixpkgs to the nixos-24.05 release branch rather than nixpkgs-unstable. Unstable moves python and postgres minor versions under you every few days, "
                "while 24.05 has python311, postgresql_15 and poetry 1.8 and only gets fixes; we'd bump it on purpose, roughly twice a year. Sound OK?",
                lesson=(D, "pin nixpkgs to the nixos-24.05 release branch"),
            ),
            U("yes stable is better for us"),
            Edit("flake.nix"),
            A(
                'Note that flakes only see files tracked by git: an untracked flake.nix (or any new file it imports) is invisible to `nix develop` and you get a confusing "does not exist" error. '
                "So I'll `git add` flake.nix before trying it; same for future files the flake refers to.",
                lesson=(N, "flakes only see files tracked by git"),
            ),
            Bash(
                "git add flake.nix && nix develop -c python --version",
                "warning: Git tree '/home/dev/app' is dirty\nwarning: creating lock file '/home/dev/app/flake.lock'\nPython 3.11.9",
            ),
            Bash(
                "nix develop -c sh -c 'psql --version; poetry --version; pre-commit --version'",
                "warning: Git tree '/home/dev/app' is dirty\npsql (PostgreSQL) 15.7\nPoetry (version 1.8.3)\npre-commit 3.7.1",
            ),
            A(
                "All there. I also added a `.envrc` with `use flake` for people on direnv; flake.nix and flake.lock are staged."
            ),
            U("perfect, thanks"),
        ],
    ),
    (
        "blind6-codex-rails-subscriptions-index",
        "codex",
        "blind6",
        [
            U(
                "admin subscriptions page is slow, ~40M rows. it filters by customer_id and status. add an index and a test for the scope Subscription.for_admin"
            ),
            Edit("db/migrate/20260301101500_add_customer_status_index_to_subscriptions.rb"),
            Bash(
                "bin/rails db:migrate 2>&1 | tail -4",
                "== 20260301101500 AddCustomerStatusIndexToSubscriptions: migrating ============\n-- add_index(:subscriptions, [:customer_id, :status], {:algorithm=>:concurrently})\n   -> 0.0213s\n== 20260301101500 AddCustomerStatusIndexToSubscriptions: migrated (0.0215s) ===",
            ),
            A(
                "Migration uses `disable_ddl_transaction!` and `algorithm: :concurrently` so it won't lock the table. For the test I'll add factory_bot factories for customer and subscription and create a few records in test/models/subscription_test.rb."
            ),
            U(
                "no factories please, this app uses fixtures (test/fixtures/*.yml). factory_bot is only in the Gemfile for the old spec/ folder we're deleting",
                lesson=(C, "no factories please, this app uses fixtures"),
            ),
            Read(
                "test/fixtures/subscriptions.yml",
                "acme_monthly:\n  customer: acme\n  plan: monthly\n  status: active\n\nacme_old:\n  customer: acme\n  plan: yearly\n  status: canceled\n",
            ),
            Edit("test/fixtures/subscriptions.yml"),
            Edit("test/models/subscription_test.rb"),
            Bash(
                "bin/rails test test/models/subscription_test.rb 2>&1 | tail -3",
                "Finished in 0.412305s, 14.5524 runs/s, 26.6797 assertions/s.\n6 runs, 11 assertions, 0 failures, 0 errors, 0 skips",
            ),
            A(
                "Tests use the existing fixtures plus one new `globex_paused` subscription. The index migration and db/structure.sql are in the diff."
            ),
        ],
    ),
    # --- small talk ---
    (
        "blind6-smalltalk-coffee",
        "claude",
        "blind6",
        [
            U(
                "before we start anything, random question. do you think a v60 is worth it over a french press? my press makes everything taste kind of muddy"
            ),
            A(
                "If muddy is the complaint, a V60 will probably make you happy. The paper filter holds back most of the fines and oils that give press coffee its heavy body, so the cup comes out cleaner and brighter. "
                "The trade-off is that it's more hands-on: you pour in stages and grind size matters more. A cheap plastic V60 and a pack of filters is a low-risk way to try it."
            ),
            U(
                "i always drink it black so cleaner sounds good. and I never have coffee after 3pm or i dont sleep lol"
            ),
            A(
                "Black coffee is where the difference shows most, so good fit. For a start try 15 g of medium-fine coffee to 250 g of water just off the boil, a 30-second bloom, and aim to finish pouring around 2:30-3:00."
            ),
            U("ok ordering one. thanks!"),
        ],
    ),
    (
        "blind6-smalltalk-hike-weather",
        "claude",
        "blind6",
        [
            U(
                "totally off topic but I'm planning a hike this saturday, around 18km, forecast says 31°C. I prefer trails with shade but the one I want is mostly exposed ridge. am I being dumb?"
            ),
            A(
                "Not dumb, but 18 km on an exposed ridge at 31°C is a real heat load. If you go, start at first light so the exposed part is done before late morning, carry more water than you think (3 litres or so, with some electrolytes), "
                "and pick a turnaround time in advance. A hat and a light long-sleeve shirt help more than people expect."
            ),
            U("hmm. there's a forest loop nearby thats 14km. less views though"),
            A(
                "Honestly the forest loop sounds like the better call for that forecast. You could save the ridge for a cooler weekend, when you'll actually enjoy the views instead of counting the minutes until shade."
            ),
            U("yeah you're right. forest it is"),
        ],
    ),
    (
        "blind6-gemini-smalltalk-books",
        "gemini",
        "blind6",
        [
            U(
                "Can you recommend something to read on a long flight? I like sci-fi but I never finish long fantasy series, I lose track after book 2."
            ),
            A(
                'For a flight, standalone sci-fi is a safe bet. A few: "Project Hail Mary" by Andy Weir (fast, funny, very hard to put down), "The Left Hand of Darkness" by Ursula K. Le Guin (slower, thoughtful), '
                'and "Piranesi" by Susanna Clarke if you\'d like something stranger. All of them are single books, so nothing to keep track of.'
            ),
            U("read project hail mary already, loved it. anything similar?"),
            A(
                'Then try "The Martian" if you somehow haven\'t, or "Children of Time" by Adrian Tchaikovsky: big ideas, very readable, and the first book stands fine on its own. '
                '"Exhalation" by Ted Chiang is short stories, which is nice on a plane since you can stop anywhere.'
            ),
            U("children of time it is. thx"),
        ],
    ),
    # --- routine work, nothing to keep ---
    (
        "blind6-routine-rename-checkout-handler",
        "claude",
        "blind6",
        [
            U("rename HandleCheckoutV2 to HandleCheckout everywhere, v1 was deleted last week"),
            Bash(
                "grep -rn 'HandleCheckoutV2' --include='*.go' .",
                './internal/api/checkout.go:41:func (s *Server) HandleCheckoutV2(w http.ResponseWriter, r *http.Request) {\n./internal/api/routes.go:27:\tmux.HandleFunc("POST /v2/checkout", s.HandleCheckoutV2)\n./internal/api/checkout_test.go:88:\ts.HandleCheckoutV2(rec, req)\n./internal/api/checkout_test.go:112:\ts.HandleCheckoutV2(rec, req)',
            ),
            Bash(
                "grep -rl 'HandleCheckoutV2' --include='*.go' . | xargs sed -i 's/HandleCheckoutV2/HandleCheckout/g' && gofmt -l ./internal/api",
                "",
            ),
            Bash(
                "go build ./... && go test ./internal/api/...",
                "ok  \tgithub.com/brightcart/shop/internal/api\t0.517s",
            ),
            A(
                "Renamed in checkout.go, routes.go and the two test call sites; builds and the api tests pass. The route path `/v2/checkout` is unchanged."
            ),
            U("good, leave the path"),
        ],
    ),
    (
        "blind6-routine-ctest-run",
        "claude",
        "blind6",
        [
            U(
                "can you build and run the test suite, just want to know if main is green before I branch off"
            ),
            A("I'll configure a fresh build directory and run ctest."),
            Bash(
                "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Debug > /dev/null && cmake --build build 2>&1 | tail -1",
                "[212/212] Linking CXX executable tests/raster_tests",
            ),
            Bash(
                "ctest --test-dir build --output-on-failure -j8 2>&1 | tail -4",
                "100% tests passed, 0 tests failed out of 57\n\nLabel Time Summary:\nunit    =  11.84 sec*proc (57 tests)",
            ),
            A("main is green: the build completes and all 57 tests pass."),
            U("👍"),
        ],
    ),
    (
        "blind6-codex-routine-chart-bump",
        "codex",
        "blind6",
        [
            U("bump the notifier chart to 1.8.2 and appVersion to 2.14.0, then lint it"),
            Read(
                "charts/notifier/Chart.yaml",
                'apiVersion: v2\nname: notifier\ndescription: Push and email notification service\ntype: application\nversion: 1.8.1\nappVersion: "2.13.4"\n',
            ),
            Edit("charts/notifier/Chart.yaml"),
            Bash(
                "helm lint charts/notifier",
                "==> Linting charts/notifier\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed",
            ),
            Bash(
                "helm template notifier charts/notifier | grep 'image:'",
                '          image: "registry.internal/notifier:2.14.0"',
            ),
            A(
                "Chart is at 1.8.2 with appVersion 2.14.0; lint passes (only the usual icon info) and the rendered image tag is 2.14.0."
            ),
        ],
    ),
]
