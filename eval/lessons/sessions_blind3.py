# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind3" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind2.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND3: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind3-haskell-cabal-bounds",
        "claude",
        "blind3",
        [
            U("cabal build broke on CI after the ghc bump to 9.8, locally still fine on 9.6. can you look"),
            Bash(
                "cabal build all 2>&1 | tail -6",
                "Resolving dependencies...\nError: cabal: Could not resolve dependencies:\n[__0] trying: ledger-core-0.4.1 (user goal)\n[__1] next goal: base (dependency of ledger-core)\n[__1] rejecting: base-4.19.0.0/installed-4.19.0.0 (conflict: ledger-core => base>=4.14 && <4.19)\n[__1] fail (backjumping, conflict set: base, ledger-core)",
            ),
            Read("ledger-core/ledger-core.cabal", "library\n  build-depends:\n      base >=4.14 && <4.19\n    , containers\n    , text >=2.0\n"),
            A(
                "GHC 9.8 ships base 4.19, and ledger-core caps base below 4.19, so the solver has no plan. "
                "base can't be reinstalled, it comes with the compiler, so the bound has to move. I'll raise it to <4.20.",
                lesson=(RC, "GHC 9.8 ships base 4.19, and ledger-core caps base"),
            ),
            Edit("ledger-core/ledger-core.cabal"),
            Bash(
                "cabal build all 2>&1 | tail -2",
                "[12 of 12] Compiling Ledger.Report ( src/Ledger/Report.hs, dist-newstyle/build/x86_64-linux/ghc-9.8.2/ledger-core-0.4.1/build/Ledger/Report.o )\nLinking dist-newstyle/build/x86_64-linux/ghc-9.8.2/ledger-core-0.4.1/x/ledger/build/ledger/ledger ...",
            ),
            A("Builds on 9.8 now. containers has no bounds at all, should I add some while I'm in there?"),
            U(
                "yes. every build-depends entry gets a lower and an upper bound, that's how we keep hackage releases from breaking. use the PVP style, < next major",
                lesson=(R, "every build-depends entry gets a lower and an upper bound"),
            ),
            Edit("ledger-core/ledger-core.cabal"),
            Bash("cabal check", "No errors or warnings could be found in the package."),
            A("Added containers >=0.6 && <0.8; cabal check is clean."),
        ],
    ),
    (
        "blind3-bazel-genrule-cache",
        "claude",
        "blind3",
        [
            U("Colleagues get a different version.txt from the remote cache than what they build locally. Sometimes it says the git sha of some other branch. Any idea?"),
            Read("tools/version/BUILD.bazel", "genrule(\n    name = \"version\",\n    outs = [\"version.txt\"],\n    cmd = \"git rev-parse HEAD > $@\",\n)\n"),
            Bash("bazel build //tools/version --execution_log_json_file=/tmp/exec.json && grep -c remote_cache_hit /tmp/exec.json", "INFO: Build completed successfully, 1 total action\n1"),
            A(
                "The genrule runs git rev-parse, but git's HEAD is not an input of the action, so Bazel computes the same cache key on every commit. "
                "The first build that uploads version.txt wins, and everyone else gets that file back from the cache. "
                "The usual fix is to take the sha from workspace status (--workspace_status_command) and read it via stable-status.txt, which Bazel tracks as an input.",
                lesson=(RC, "git's HEAD is not an input of the action"),
            ),
            U("ok do that"),
            Edit("tools/workspace_status.sh"),
            Edit(".bazelrc"),
            Edit("tools/version/BUILD.bazel"),
            Bash("bazel build //tools/version && cat bazel-bin/tools/version/version.txt", "INFO: Build completed successfully, 2 total actions\n3f9c2a1e7b0d"),
            A(
                "version.txt now matches HEAD. Something worth knowing about this: only keys starting with STABLE_ go to stable-status.txt and cause a rebuild when they change. "
                "A plain BUILD_SCM_REVISION key would land in volatile-status.txt, and Bazel doesn't rebuild for changes there, so it would be stale again.",
                lesson=(N, "only keys starting with STABLE_ go to stable-status.txt"),
            ),
            U("huh, I didn't know that. thanks!"),
        ],
    ),
    (
        "blind3-airflow-logical-date",
        "claude",
        "blind3",
        [
            U("write a DAG that exports yesterday's orders from postgres to s3 as parquet, daily at 3am. put it in dags/orders_export.py"),
            A("I'll use a PythonOperator that queries orders where created_at falls on the previous day, computing it with datetime.now() - timedelta(days=1)."),
            Edit("dags/orders_export.py"),
            U(
                "hm no, don't use now() in a DAG. if we rerun or backfill a day it'd export the wrong day. use the data interval from the context, data_interval_start/end",
                lesson=(C, "don't use now() in a DAG. if we rerun or backfill"),
            ),
            A("Right, switching to context['data_interval_start'] and data_interval_end, so each run exports exactly its own interval."),
            Edit("dags/orders_export.py"),
            Bash("airflow dags test orders_export 2026-11-27 2>&1 | grep -E 'ERROR|Marking run'", "[2026-11-28T09:12:44.118+0000] {dagrun.py:823} INFO - Marking run <DagRun orders_export @ 2026-11-27 00:00:00+00:00: manual__2026-11-27T00:00:00+00:00, state:running> successful"),
            A(
                "The test run for 2026-11-27 succeeds. I set start_date to 2026-11-01 and catchup=False. "
                "Note that catchup defaults to True in our airflow.cfg, so any DAG without catchup=False will queue a run for every interval since its start_date the moment it's unpaused.",
                lesson=(N, "catchup defaults to True in our airflow.cfg"),
            ),
            U("good. can you also make it retry twice?"),
            Edit("dags/orders_export.py"),
            A("Added retries=2 with a 10 minute retry_delay in default_args."),
        ],
    ),
    (
        "blind3-django-admin-slow",
        "claude",
        "blind3",
        [
            U("The Shipment changelist in the admin takes forever to load, ~900 queries according to debug toolbar"),
            Read("logistics/admin.py", "@admin.register(Shipment)\nclass ShipmentAdmin(admin.ModelAdmin):\n    list_display = ('tracking_no', 'carrier', 'warehouse', 'status')\n"),
            A("carrier and warehouse are foreign keys, so each row runs two more queries for their __str__. I'll override get_queryset to add select_related('carrier', 'warehouse')."),
            Edit("logistics/admin.py"),
            U(
                "use list_select_related for that, not a get_queryset override. the override also hits the change form and the autocomplete views",
                lesson=(C, "use list_select_related for that, not a get_queryset override"),
            ),
            Edit("logistics/admin.py"),
            Bash("python manage.py test logistics.tests.test_admin -v 1 2>&1 | tail -3", "Ran 6 tests in 0.412s\n\nOK"),
            A("Switched to list_select_related = ('carrier', 'warehouse'). The changelist is down to 4 queries locally, and the admin tests pass."),
            U(
                "nice. while you're there, add status to list_filter. and fyi, any new ModelAdmin here needs a test in test_admin that loads its changelist, so this stuff gets caught",
                lesson=(R, "any new ModelAdmin here needs a test in test_admin"),
            ),
            Edit("logistics/admin.py"),
            Edit("logistics/tests/test_admin.py"),
            Bash("python manage.py test logistics.tests.test_admin -v 1 2>&1 | tail -3", "Ran 7 tests in 0.455s\n\nOK"),
            A("Added status to list_filter and a changelist test asserting at most 6 queries. 7 tests pass."),
        ],
    ),
    (
        "blind3-nextjs-public-env",
        "claude",
        "blind3",
        [
            U("we set NEXT_PUBLIC_API_URL to the prod api in the vercel project but the prod site still calls staging. wtf"),
            Bash(
                "grep -o 'https://api[^\"]*' .next/static/chunks/pages/_app-*.js | sort -u",
                "https://api.staging.fernly.dev",
            ),
            Read("Dockerfile", "FROM node:20-alpine AS build\nCOPY . .\nRUN npm ci && npm run build\n\nFROM node:20-alpine\nCOPY --from=build /app/.next .next\nENV NEXT_PUBLIC_API_URL=https://api.fernly.dev\nCMD [\"npm\", \"start\"]\n"),
            A(
                "NEXT_PUBLIC_ variables are inlined into the JS bundle at build time, not read at runtime. "
                "Your image is built once in CI with the staging value from .env.production, so setting the variable on the running container changes nothing in the browser code.",
                lesson=(RC, "NEXT_PUBLIC_ variables are inlined into the JS bundle at build time"),
            ),
            U("ugh. so what do we do, we want one image for staging and prod"),
            A(
                "Two ways: build one image per environment with a build arg, or keep one image and have the browser fetch the API URL at runtime from a small /api/config route. "
                "I'd go with the runtime config route, because it keeps the one-image promotion from staging to prod that your pipeline relies on, and it's only one fetch on app load.",
                lesson=(D, "I'd go with the runtime config route"),
            ),
            U("agreed, runtime config"),
            Edit("pages/api/config.ts"),
            Edit("lib/api.ts"),
            Bash("npm run build 2>&1 | tail -3 && npm test -- lib/api", "Route (pages)                              Size     First Load JS\n├ ƒ /api/config                            0 B            81.2 kB\n\n PASS  lib/api.test.ts\n  3 passed"),
            A("The client now loads the URL from /api/config (read from API_URL at runtime). Build and tests pass."),
        ],
    ),
    (
        "blind3-pytorch-worker-seed",
        "claude",
        "blind3",
        [
            U("my augmentations look weird, like every 4th batch has identical crops. train.py with --workers 4"),
            Bash(
                "python scripts/dump_crops.py --workers 4 --batches 8 | head -8",
                "batch 0 crop offsets: [(12, 40), (3, 7), (55, 21)]\nbatch 1 crop offsets: [(12, 40), (3, 7), (55, 21)]\nbatch 2 crop offsets: [(12, 40), (3, 7), (55, 21)]\nbatch 3 crop offsets: [(12, 40), (3, 7), (55, 21)]\nbatch 4 crop offsets: [(31, 2), (48, 60), (9, 14)]\nbatch 5 crop offsets: [(31, 2), (48, 60), (9, 14)]\nbatch 6 crop offsets: [(31, 2), (48, 60), (9, 14)]\nbatch 7 crop offsets: [(31, 2), (48, 60), (9, 14)]",
            ),
            Read("data/augment.py", "def random_crop(img, size):\n    y = np.random.randint(0, img.shape[0] - size)\n    x = np.random.randint(0, img.shape[1] - size)\n"),
            A(
                "The crops use np.random, and each DataLoader worker is forked with a copy of the parent's numpy RNG state. "
                "So all 4 workers produce the same sequence. torch seeds its own generator per worker but not numpy's. "
                "I'll add a worker_init_fn that seeds numpy from torch.initial_seed().",
                lesson=(RC, "forked with a copy of the parent's numpy RNG state"),
            ),
            Edit("data/loader.py"),
            Bash("python scripts/dump_crops.py --workers 4 --batches 4 | head -4", "batch 0 crop offsets: [(12, 40), (3, 7), (55, 21)]\nbatch 1 crop offsets: [(44, 9), (20, 33), (1, 58)]\nbatch 2 crop offsets: [(7, 27), (61, 5), (38, 46)]\nbatch 3 crop offsets: [(29, 52), (14, 0), (50, 17)]"),
            A("Crops differ across workers now. I'll kick off a short training run to check nothing else changed."),
            Bash("python train.py --config configs/small.yaml --epochs 1 2>&1 | tail -2", "epoch 1/1  train_loss 1.932  val_acc 0.412\nsaved checkpoints/small-e1.pt"),
            A("Done, one epoch runs fine. I saved the checkpoint under checkpoints/."),
            U(
                "pls don't write checkpoints into the repo dir, that folder got committed by accident last month. they go to $CKPT_DIR (it's on the scratch disk), delete that one",
                lesson=(C, "they go to $CKPT_DIR (it's on the scratch disk)"),
            ),
            Bash("rm checkpoints/small-e1.pt && rmdir checkpoints", ""),
            Edit("configs/small.yaml"),
            A("Removed it, and the config now reads the output dir from $CKPT_DIR."),
        ],
    ),
    (
        "blind3-godot-signals",
        "claude",
        "blind3",
        [
            U("Hi! In our Godot 4 project, can you make the health bar update when the player takes damage? Scenes are player.tscn and hud.tscn"),
            Read("scenes/player.gd", "extends CharacterBody2D\n\nvar health := 100\n\nfunc take_damage(amount: int) -> void:\n\thealth -= amount\n"),
            A("I'll have take_damage call get_node(\"/root/Main/HUD/HealthBar\").value = health directly."),
            U(
                "Please not like that. We keep scenes decoupled: the player emits a signal, the HUD connects to it. No get_node paths across scenes in this project, they break the moment someone reparents something.",
                lesson=(R, "No get_node paths across scenes in this project"),
            ),
            A("Makes sense. I'll add signal health_changed(new_health) in player.gd and connect it in main.gd, where both scenes are instanced."),
            Edit("scenes/player.gd"),
            Edit("scenes/hud.gd"),
            Edit("scenes/main.gd"),
            Bash("godot --headless --path . -s addons/gut/gut_cmdln.gd -gexit 2>&1 | tail -3", "Totals\n  Tests 14  Passing 14\n---- All tests passed! ----"),
            A(
                "Hooked up and the GUT tests pass. One thing to keep in mind: a signal connected in the editor is stored in the .tscn, so if you rename health_changed later you have to reconnect it in the editor too, the rename won't update the scene file.",
                lesson=(N, "a signal connected in the editor is stored in the .tscn"),
            ),
            U("good to know. and can the bar flash red when it drops below 20? actually no, leave that, design hasn't decided yet"),
            A("Okay, leaving it as is."),
        ],
    ),
    (
        "blind3-embedded-rust-stack",
        "claude",
        "blind3",
        [
            U("the stm32 board hard faults as soon as the display task starts. embassy, probe-rs. log attached from `cargo run --release`"),
            Bash(
                "cargo run --release 2>&1 | tail -5",
                "INFO  display: init ok\n────────────────────────────────────────────────────────────────────────────────\nStack Overflow detected at 0x2000_0f3c\nError: CPU halted unexpectedly.\nHardFault: Stack overflow",
                failed=True,
            ),
            Read("src/display.rs", "#[embassy_executor::task]\nasync fn display_task(mut lcd: Lcd) {\n    let mut frame = [Rgb565::BLACK; 240 * 135];\n"),
            A(
                "display_task declares the frame buffer as a local array: 240 * 135 pixels at 2 bytes is about 64 KB, and embassy keeps a task's locals in the task's future, which here lives on the main stack during the first poll. "
                "The stack is only 16 KB, so it overflows. Moving the buffer into a static (with StaticCell) takes it off the stack.",
                lesson=(RC, "240 * 135 pixels at 2 bytes is about 64 KB"),
            ),
            Edit("src/display.rs"),
            Bash("cargo run --release 2>&1 | tail -3", "INFO  display: init ok\nINFO  display: frame 1 pushed (31 ms)\nINFO  display: frame 2 pushed (30 ms)"),
            A("Runs now and pushes frames at ~33 fps. I also bumped the stack to 32 KB in memory.x to leave some headroom."),
            U(
                "revert the memory.x change please. that layout is shared with the bootloader, the RAM split is fixed. if something needs more memory it has to be static",
                lesson=(C, "that layout is shared with the bootloader, the RAM split is fixed"),
            ),
            Edit("memory.x"),
            Bash("cargo run --release 2>&1 | tail -1", "INFO  display: frame 2 pushed (30 ms)"),
            A("Reverted memory.x; still runs fine with the static buffer."),
        ],
    ),
    (
        "blind3-terraform-module-versions",
        "claude",
        "blind3",
        [
            U("we want to reuse the vpc setup from infra/prod in the new eu account. what's the cleanest way?"),
            Read("infra/prod/vpc.tf", "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"10.10.0.0/16\"\n}\n# ... 14 subnets, NAT, flow logs\n"),
            A(
                "I'd pull it out into a module in our terraform-modules repo and reference it by git tag, rather than a local ../modules path. "
                "With a tag each account pins the version it was applied with, so a change for eu can't silently alter prod on its next plan.",
                lesson=(D, "pull it out into a module in our terraform-modules repo"),
            ),
            U("sounds right, let's do that. tag it v1.0.0"),
            Edit("modules/vpc/main.tf"),
            Edit("modules/vpc/variables.tf"),
            Edit("infra/prod/vpc.tf"),
            Bash("cd infra/prod && terraform init -upgrade >/dev/null && terraform plan -no-color | tail -3", "Terraform will perform the following actions:\n\nPlan: 0 to add, 0 to change, 0 to destroy."),
            A("Prod now uses the module with no diff. I'll add moved blocks for the state addresses too. Then the eu account."),
            Edit("infra/prod/moved.tf"),
            Edit("infra/eu/vpc.tf"),
            A("For eu I put region = \"eu-central-1\" in a provider block inside the module so it's self-contained."),
            U(
                "modules never declare providers, they get them passed from the root. a provider block inside a module means you can't remove the module later without terraform choking. take it out and pass providers = { aws = aws.eu }",
                lesson=(R, "modules never declare providers, they get them passed from the root"),
            ),
            Edit("modules/vpc/main.tf"),
            Edit("infra/eu/vpc.tf"),
            Bash("cd infra/eu && terraform validate", "Success! The configuration is valid."),
        ],
    ),
]
BLIND3 += [
    (
        "blind3-kafka-rebalance",
        "claude",
        "blind3",
        [
            U("the invoice-consumer group keeps rebalancing every few minutes and lag grows. consumer is in services/invoicer, python confluent-kafka"),
            Bash(
                "kubectl -n billing logs deploy/invoicer --since=15m | grep -i -m3 -E 'rebalanc|max.poll'",
                "%4|1764321043.112|MAXPOLL|rdkafka#consumer-1| [thrd:main]: Application maximum poll interval (300000ms) exceeded by 88ms\n%5|1764321043.113|REBALANCE|invoicer-7c9 | Group \"invoice-consumer\" is rebalancing\n%4|1764321401.930|MAXPOLL|rdkafka#consumer-1| [thrd:main]: Application maximum poll interval (300000ms) exceeded by 1204ms",
            ),
            Read("services/invoicer/consume.py", "msgs = consumer.consume(num_messages=500, timeout=1.0)\nfor msg in msgs:\n    render_pdf_and_upload(msg)\nconsumer.commit(asynchronous=False)\n"),
            A("Each consume() call takes up to 500 messages and renders a PDF for each one before polling again."),
            A(
                "At roughly 0.6 s per PDF that's about 300 s per batch, which crosses max.poll.interval.ms (300 s), so the broker considers the consumer dead and kicks it out of the group. "
                "The batch size is the root cause, not the broker. Dropping num_messages to 50 keeps each loop well under a minute.",
                lesson=(RC, ["crosses max.poll.interval.ms (300 s), so the broker considers the consumer dead", "The batch size is the root cause"]),
            ),
            Edit("services/invoicer/consume.py"),
            Bash("kubectl -n billing rollout restart deploy/invoicer && sleep 1 && kubectl -n billing rollout status deploy/invoicer", "deployment.apps/invoicer restarted\ndeployment \"invoicer\" successfully rolled out"),
            Bash("kubectl -n billing logs deploy/invoicer --since=10m | grep -ci rebalanc", "0"),
            A(
                "No rebalances in the last 10 minutes, lag is going down. Longer term, I'd move PDF rendering off the consumer onto a worker pool and have the consumer only enqueue, "
                "because render time depends on invoice size and a single huge invoice could still blow the poll interval.",
                lesson=(D, "I'd move PDF rendering off the consumer onto a worker pool"),
            ),
            U("yeah that's the right call, let's plan it for next sprint. make a ticket draft in docs/todo.md?"),
            Edit("docs/todo.md"),
            A("Added a short ticket draft to docs/todo.md."),
        ],
    ),
    (
        "blind3-ansible-become",
        "claude",
        "blind3",
        [
            U("add a task to the monitoring role that installs node_exporter 1.8.2 from the github release and runs it as a systemd service"),
            Edit("roles/monitoring/tasks/main.yml"),
            Bash(
                "ansible-playbook -i inventory/lab site.yml --tags monitoring --limit lab-01",
                "TASK [monitoring : Download node_exporter] *****\nfatal: [lab-01]: FAILED! => {\"changed\": false, \"dest\": \"/opt/node_exporter\", \"msg\": \"Destination /opt/node_exporter not writable\"}\n\nPLAY RECAP *****\nlab-01 : ok=3 changed=0 unreachable=0 failed=1",
                failed=True,
            ),
            A("The download needs root to write to /opt. I'll add become: true at the top of site.yml so the whole play runs as root."),
            U(
                "no, don't put become on the whole play. we set become per task only where it's needed, the rest runs as the deploy user",
                lesson=(C, "we set become per task only where it's needed"),
            ),
            Edit("roles/monitoring/tasks/main.yml"),
            Bash("ansible-playbook -i inventory/lab site.yml --tags monitoring --limit lab-01 | tail -2", "PLAY RECAP *****\nlab-01 : ok=7 changed=4 unreachable=0 failed=0"),
            A("become: true is now on the download, unpack and systemd tasks only. The play passes on lab-01."),
            U(
                "ok. also pin the checksum on the get_url. anything we download from the internet has to have a checksum: in the task, no exceptions",
                lesson=(R, "anything we download from the internet has to have a checksum"),
            ),
            Edit("roles/monitoring/tasks/main.yml"),
            Bash("ansible-lint roles/monitoring", "Passed: 0 failure(s), 0 warning(s) on 6 files."),
            A("Added checksum: sha256:... from the release's sha256sums.txt; ansible-lint passes."),
        ],
    ),
    (
        "blind3-efcore-migration",
        "claude",
        "blind3",
        [
            U("add a nullable DiscountCode column to Orders and make the migration. we're on EF Core 8"),
            Edit("src/Shop.Data/Entities/Order.cs"),
            Bash(
                "dotnet ef migrations add AddDiscountCode --project src/Shop.Data",
                "Build started...\nBuild failed. Use dotnet build to see the errors.",
                failed=True,
            ),
            Bash("dotnet build src/Shop.Data 2>&1 | grep error", "src/Shop.Data/Entities/Order.cs(18,23): error CS1002: ; expected"),
            Edit("src/Shop.Data/Entities/Order.cs"),
            Bash("dotnet ef migrations add AddDiscountCode --project src/Shop.Data", "Build started...\nBuild succeeded.\nDone. To undo this action, use 'ef migrations remove'"),
            A("Migration created. I'll apply it to your local database with dotnet ef database update."),
            Bash("dotnet ef database update --project src/Shop.Data | tail -1", "Done."),
            A("Applied. I'll also run it against staging so QA can test."),
            U(
                "wait, don't touch staging from here. migrations only reach staging and prod through the release pipeline (it generates an idempotent script), nobody runs database update against shared dbs",
                lesson=(C, "migrations only reach staging and prod through the release pipeline"),
            ),
            A(
                "Understood, I won't. One thing for the pipeline: the idempotent script comes from dotnet ef migrations script --idempotent, and it needs the startup project to build, so the Shop.Api project must be passed with --startup-project or it fails on the CI agent.",
                lesson=(N, "the Shop.Api project must be passed with --startup-project"),
            ),
            U("ok good catch, the pipeline already does that I think. thanks"),
        ],
    ),
    (
        "blind3-smalltalk-music",
        "claude",
        "blind3",
        [
            U("do you listen to music? stupid question I guess"),
            A("Not a stupid question! I don't listen to anything myself, but I'm happy to talk about it. What are you listening to?"),
            U("mostly lo-fi while coding, always the same playlist. my partner says I should never wear headphones at dinner lol"),
            A("Sounds like a fair household rule! Lo-fi is a popular pick for focus, the steady beat without lyrics helps a lot of people."),
            U("yeah. anyway, back to work in a bit, thanks for the chat"),
            A("Anytime, enjoy the playlist."),
        ],
    ),
    (
        "blind3-routine-ocaml-flag",
        "claude",
        "blind3",
        [
            U("add a --verbose flag to the ocaml cli in bin/main.ml that prints each file as it's processed"),
            Read("bin/main.ml", "let files = ref []\nlet spec = [ (\"--out\", Arg.Set_string out, \" output dir\") ]\n"),
            A("I'll add a verbose ref and an Arg.Set entry, then print in the processing loop."),
            Edit("bin/main.ml"),
            Bash(
                "dune build 2>&1 | head -4",
                "File \"bin/main.ml\", line 31, characters 20-26:\n31 |     if !verbose then Prinft.printf \"%s\\n\" f;\n                         ^^^^^^\nError: Unbound module Prinft",
            ),
            A("Typo, fixing Prinft to Printf."),
            Edit("bin/main.ml"),
            Bash("dune build && dune test", ""),
            A("Added --verbose; build and tests pass."),
            U("perfect thanks"),
        ],
    ),
]
BLIND3 += [
    (
        "blind3-codex-nix-flake-git",
        "codex",
        "blind3",
        [
            U("nix build says it can't find src/parser.rs but the file is right there??"),
            Bash(
                "nix build .#cli 2>&1 | tail -3",
                "error: builder for '/nix/store/9x2k...-cli-0.3.0.drv' failed with exit code 101;\n       last 3 log lines:\n       > error: couldn't read src/parser.rs: No such file or directory (os error 2)",
                failed=True,
            ),
            Bash("git status --short src/", "?? src/parser.rs"),
            A(
                "With flakes, nix copies only files git knows about into the store, so an untracked file is invisible to the build even though it exists on disk. "
                "src/parser.rs has never been added. git add (no commit needed) is enough.",
                lesson=(RC, "nix copies only files git knows about into the store"),
            ),
            Bash("git add src/parser.rs && nix build .#cli 2>&1 | tail -1 ; ls result/bin", "cli"),
            A("Builds now, result/bin/cli is there."),
            U("ok thanks. can you also bump the rust toolchain in the flake to 1.83?"),
            Edit("flake.nix"),
            Bash("nix flake lock --update-input rust-overlay && nix build .#cli", ""),
            A("Toolchain is 1.83 now and the build passes."),
        ],
    ),
    (
        "blind3-codex-sbt-scalafmt",
        "codex",
        "blind3",
        [
            U("the CI check `sbt scalafmtCheckAll` fails on my PR, can you fix formatting"),
            Bash(
                "sbt scalafmtCheckAll 2>&1 | tail -3",
                "[warn] /repo/core/src/main/scala/pricing/Quote.scala isn't formatted properly!\n[error] (core / Compile / scalafmtCheck) 1 files must be formatted\n[error] Total time: 9 s",
                failed=True,
            ),
            A("One file. I'll run sbt scalafmtAll and also update .scalafmt.conf to version 3.8.3, since the one pinned is older than what metals uses."),
            Edit(".scalafmt.conf"),
            Bash("sbt scalafmtAll && sbt scalafmtCheckAll 2>&1 | tail -1", "[success] Total time: 7 s"),
            U(
                "please undo the .scalafmt.conf bump. bumping scalafmt reformats the whole repo, that's its own PR agreed with the team, never bundled with feature work",
                lesson=(C, "bumping scalafmt reformats the whole repo, that's its own PR"),
            ),
            Bash("git checkout .scalafmt.conf && sbt scalafmtAll && git diff --stat", " core/src/main/scala/pricing/Quote.scala | 6 +++---\n 1 file changed, 3 insertions(+), 3 deletions(-)"),
            A("Reverted the config; only Quote.scala is reformatted now."),
            U("thanks. also I saw a `return` in Quote.total in your earlier suggestion, is that still in there?"),
            A("No, Quote.total as it stands in your PR is a single expression without return, so nothing to change there."),
            U(
                "good. while you're at it: all money amounts are BigDecimal, never Double. Quote.discount is a Double in your PR, fix that",
                lesson=(R, "all money amounts are BigDecimal, never Double"),
            ),
            Edit("core/src/main/scala/pricing/Quote.scala"),
            Bash("sbt core/test 2>&1 | tail -2", "[info] Passed: Total 38, Failed 0, Errors 0, Passed 38\n[success] Total time: 21 s"),
        ],
    ),
    (
        "blind3-codex-foundry-upgrade",
        "codex",
        "blind3",
        [
            U("we need to be able to fix bugs in the Vault contract after deployment. what are our options?"),
            Read("src/Vault.sol", "contract Vault is ERC4626, Ownable {\n    constructor(IERC20 asset_) ERC4626(asset_) ERC20(\"vUSD\", \"vUSD\") Ownable(msg.sender) {}\n"),
            A(
                "The main options are a transparent proxy, UUPS, or a beacon. Beacons only pay off with many identical instances, which you don't have. "
                "I'd go with UUPS via OpenZeppelin's upgradeable contracts: the upgrade logic lives in the implementation, so the proxy is cheaper per call than a transparent proxy, "
                "and _authorizeUpgrade can be tied to the timelock you already use for parameter changes.",
                lesson=(D, "I'd go with UUPS via OpenZeppelin's upgradeable contracts"),
            ),
            U("how much cheaper are we talking?"),
            A("Roughly 2-3k gas per call, since the transparent proxy checks msg.sender against the admin on every call."),
            U("ok go with UUPS + timelock"),
            Edit("src/Vault.sol"),
            Edit("script/DeployVault.s.sol"),
            Bash("forge test 2>&1 | tail -2", "Ran 4 test suites in 1.21s (2.88s CPU time): 31 tests passed, 0 failed, 0 skipped (31 total tests)"),
            A("Vault is now UUPSUpgradeable with an initializer instead of the constructor, upgrades are gated by the timelock. 31 tests pass."),
        ],
    ),
    (
        "blind3-codex-grpc-deadline",
        "codex",
        "blind3",
        [
            U("search-gateway returns DEADLINE_EXCEEDED for about 5% of requests since yesterday's deploy. the ranker service itself reports p99 of 80ms"),
            Bash(
                "./scripts/loadtest.sh search-gateway --rps 200 --duration 60s | grep -E 'errors|p99|DEADLINE'",
                "errors: 5.12%\n  DEADLINE_EXCEEDED: 614\np99: 250ms",
            ),
            Bash(
                "grep -rn 'timeout=' gateway/clients/ranker.py",
                "gateway/clients/ranker.py:22:        return self._stub.Rank(req, timeout=0.1)",
            ),
            Bash("git log -1 --format='%h %s' -- gateway/clients/ranker.py", "a81c3fe gateway: retry ranker calls on UNAVAILABLE"),
            Read("gateway/clients/ranker.py", "@retry(on=grpc.StatusCode.UNAVAILABLE, attempts=3, backoff=0.05)\ndef rank(self, req):\n    return self._stub.Rank(req, timeout=0.1)\n"),
            A(
                "The retry decorator added yesterday wraps the call, and each attempt gets its own 100 ms timeout plus 50 ms backoff, but the caller's request deadline from the frontend is 250 ms. "
                "When the first attempt fails the second one outruns the parent deadline, which gRPC propagates, so the whole request fails. "
                "The fix is to pass the remaining time of the incoming context (context.time_remaining()) as the timeout instead of a fixed 0.1.",
                lesson=(RC, "each attempt gets its own 100 ms timeout plus 50 ms backoff"),
            ),
            Edit("gateway/clients/ranker.py"),
            Bash("pytest gateway/tests/test_ranker_client.py -q", "......\n6 passed in 0.43s"),
            Bash("./scripts/loadtest.sh search-gateway --rps 200 --duration 60s | grep -E 'errors|p99'", "errors: 0.04%\np99: 188ms"),
            A("Error rate is down to 0.04% under load, p99 188 ms."),
            U("👍"),
        ],
    ),
    (
        "blind3-codex-smalltalk-weather",
        "codex",
        "blind3",
        [
            U("it's snowing here for the first time this year!"),
            A("Oh nice, first snow is always a good day. Is it sticking?"),
            U("a bit. we never get much, so the whole office is at the window instead of working haha"),
            A("Sounds like a well-earned break. Enjoy it while it lasts."),
            U("thanks, I'll get back to you later with the actual stuff"),
        ],
    ),
    (
        "blind3-codex-routine-enum",
        "codex",
        "blind3",
        [
            U("add a CANCELLED value to the OrderStatus enum in models/status.py and handle it in the status badge helper"),
            Read("models/status.py", "class OrderStatus(StrEnum):\n    PENDING = 'pending'\n    PAID = 'paid'\n    SHIPPED = 'shipped'\n"),
            Edit("models/status.py"),
            Edit("web/helpers/badges.py"),
            Bash("pytest tests/test_badges.py -q", "....\n4 passed in 0.09s"),
            A("Added OrderStatus.CANCELLED and a grey badge for it; tests pass."),
            U("can you add a test for the new badge too"),
            Edit("tests/test_badges.py"),
            Bash("pytest tests/test_badges.py -q", ".....\n5 passed in 0.10s"),
            A("Added test_cancelled_badge_is_grey, 5 pass."),
        ],
    ),
]
BLIND3 += [
    (
        "blind3-gemini-sveltekit-load",
        "gemini",
        "blind3",
        [
            U("On the /projects page in our SvelteKit app, fetch the project list from the API and show it in a table."),
            A("I'll fetch the projects in onMount inside +page.svelte and store them in a local variable for the table."),
            Edit("src/routes/projects/+page.svelte"),
            U(
                "Hmm, please load it in +page.server.ts instead. With onMount the page renders empty on the server and then flashes, and the API token would end up in the browser.",
                lesson=(C, "load it in +page.server.ts instead. With onMount"),
            ),
            A("Good point. Moving the fetch to a load function in +page.server.ts and reading data.projects in the page."),
            Edit("src/routes/projects/+page.server.ts"),
            Edit("src/routes/projects/+page.svelte"),
            Bash("npm run check 2>&1 | tail -2", "svelte-check found 0 errors and 0 warnings"),
            A("svelte-check passes. Should I also add sorting by name to the table?"),
            U(
                "Not now, thanks. For the future though: calls to our internal API always go through $lib/server/api.ts, never a raw fetch with the token, that module handles auth and retries.",
                lesson=(R, "calls to our internal API always go through $lib/server/api.ts"),
            ),
            Edit("src/routes/projects/+page.server.ts"),
            Bash("npm run check 2>&1 | tail -1 && npx vitest run src/routes/projects", "svelte-check found 0 errors and 0 warnings\n Test Files  1 passed (1)\n      Tests  2 passed (2)"),
            A("The load function now uses api.get('/projects') from $lib/server/api.ts. Checks and tests pass."),
        ],
    ),
    (
        "blind3-gemini-spark-skew",
        "gemini",
        "blind3",
        [
            U("The nightly sessionize job in Spark went from 20 min to almost 2 hours. One task seems to run forever, the rest finish quickly."),
            Bash(
                "python tools/spark_stage_stats.py --app nightly-sessionize --stage 14 | head -4",
                "tasks: 400  median: 41s  max: 1h38m\nmax task input: 61.2 GiB (key user_id=NULL)\nnext largest: 212 MiB\n",
            ),
            A(
                "Almost all of the data for one task has user_id NULL: the anonymous events all hash to the same partition in the join. "
                "Two ways out: salt the join key, or split the nulls off, since anonymous events never match a user anyway. "
                "I'd filter the NULL user_id rows out before the join and union them back afterwards, because it's a two-line change, keeps the plan readable, and salting would add a shuffle for no gain here.",
                lesson=(D, "I'd filter the NULL user_id rows out before the join"),
            ),
            U("Yes, let's do the split, that's simpler. Please keep the anonymous events in the output though, analytics uses them."),
            Edit("jobs/sessionize.py"),
            Bash("spark-submit --master local[2] jobs/sessionize.py --date 2026-11-27 --sample 0.01 2>&1 | tail -2", "INFO sessionize: wrote 1,204,331 sessions (incl. 88,102 anonymous)\nINFO SparkContext: Successfully stopped SparkContext"),
            A("The sample run keeps the anonymous sessions in the output. I'll let tonight's run confirm the timing."),
            U("great, thanks"),
        ],
    ),
    (
        "blind3-gemini-prometheus-rate",
        "gemini",
        "blind3",
        [
            U("Could you write an alert that fires when the checkout error rate is over 2% for 10 minutes? Metrics are http_requests_total with a status label."),
            Edit("alerts/checkout.rules.yml"),
            Bash("promtool check rules alerts/checkout.rules.yml", "Checking alerts/checkout.rules.yml\n  SUCCESS: 1 rules found"),
            Bash("promtool test rules alerts/tests/checkout_test.yml", "Unit Testing:  alerts/tests/checkout_test.yml\n  SUCCESS"),
            A(
                "Added CheckoutErrorRateHigh: sum(rate(http_requests_total{job=\"checkout\",status=~\"5..\"}[5m])) / sum(rate(http_requests_total{job=\"checkout\"}[5m])) > 0.02 with for: 10m, and a unit test for it. "
                "Something to be aware of: our scrape interval is 1m, so the rate window must be at least 4 times that; a [1m] or [2m] window would often have fewer than two samples and the alert would flap or never fire.",
                lesson=(N, "the rate window must be at least 4 times that"),
            ),
            U("ah, that explains why the old latency alert never fired. which channel does it route to?"),
            A("It has severity: page, so Alertmanager sends it to the checkout on-call in PagerDuty."),
            U("make it severity ticket for now, we're still calibrating"),
            Edit("alerts/checkout.rules.yml"),
            Bash("promtool check rules alerts/checkout.rules.yml", "Checking alerts/checkout.rules.yml\n  SUCCESS: 1 rules found"),
            A("Changed to severity: ticket."),
        ],
    ),
    (
        "blind3-gemini-wp-cron",
        "gemini",
        "blind3",
        [
            U("Our WordPress plugin schedules a daily sync with wp_schedule_event but on the client's site it only runs every few days. Can you check the plugin in wp-content/plugins/acme-sync?"),
            Read("wp-content/plugins/acme-sync/acme-sync.php", "register_activation_hook(__FILE__, function () {\n    wp_schedule_event(time(), 'daily', 'acme_sync_daily');\n});\n"),
            Bash("wp cron event list --fields=hook,next_run_relative | grep acme", "acme_sync_daily   3 days ago"),
            A(
                "The scheduling itself is fine. WP-Cron isn't a real scheduler: events only run when someone visits the site, and the client's site gets very little traffic. "
                "Worth knowing for all the low-traffic client sites: set DISABLE_WP_CRON to true and call wp-cron.php from a real system cron every 5 minutes, otherwise scheduled events can be days late.",
                lesson=(N, "set DISABLE_WP_CRON to true and call wp-cron.php from a real system cron"),
            ),
            U("Makes sense. I'll ask their host to add the cron job. Can you write the line I should send them?"),
            A("*/5 * * * * curl -s https://client-site.example/wp-cron.php?doing_wp_cron > /dev/null 2>&1, plus define('DISABLE_WP_CRON', true); in wp-config.php."),
            U("perfect, sent"),
        ],
    ),
    (
        "blind3-gemini-smalltalk-holiday",
        "gemini",
        "blind3",
        [
            U("Hello! Just wanted to say thanks for the help this week, it's been a productive one."),
            A("Thank you, that's kind of you to say! It was a good week. Any plans for the weekend?"),
            U("Visiting my parents, they always insist on cooking way too much food. I prefer to bring dessert so I at least contribute something."),
            A("That sounds lovely. Enjoy the food and the time with them!"),
            U("Will do. See you Monday!"),
        ],
    ),
    (
        "blind3-gemini-routine-changelog",
        "gemini",
        "blind3",
        [
            U("Please add a 2.4.0 section to CHANGELOG.md with the three PRs merged since 2.3.1."),
            Bash("git log --oneline v2.3.1..HEAD --merges", "c01d2aa Merge pull request #412 from lumi/export-csv\n9be4410 Merge pull request #409 from lumi/fix-tz-offset\n71f0e3c Merge pull request #405 from lumi/dark-mode"),
            A("Let me look at the existing format first."),
            Read("CHANGELOG.md", "## 2.3.1 - 2026-10-30\n\n### Fixed\n- Crash when the config file is empty (#398)\n"),
            Edit("CHANGELOG.md"),
            A("Added 2.4.0 with Added: CSV export (#412), dark mode (#405); Fixed: timezone offset in reports (#409)."),
            U("Thanks! Date it today please."),
            Edit("CHANGELOG.md"),
            A("Dated 2026-11-28."),
        ],
    ),
]
