# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind2" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND2: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind2-elixir-repo-preload",
        "claude",
        "blind2",
        [
            U("the orders index page is slow, like 2s. can you see why"),
            Read("lib/shop_web/controllers/order_controller.ex", "def index(conn, _params) do\n  orders = Repo.all(Order)\n  render(conn, :index, orders: orders)\nend"),
            A("The template calls order.customer.name for each row, so each one triggers a query. I'll add Repo.preload(orders, :customer) in the controller."),
            Edit("lib/shop_web/controllers/order_controller.ex"),
            U("no, put the preload in the Orders context function, controllers here never touch Repo directly", lesson=(C, "controllers here never touch Repo directly")),
            A("Understood, moving it into Shop.Orders.list_orders/0 and calling that from the controller."),
            Edit("lib/shop/orders.ex"),
            Bash("mix test test/shop_web/controllers/order_controller_test.exs", "....\nFinished in 0.3 seconds\n4 tests, 0 failures"),
            A("Done, 4 tests pass."),
            U("thanks"),
        ],
    ),
    (
        "blind2-k8s-probe",
        "claude",
        "blind2",
        [
            U("billing-api pods keep restarting in staging after the deploy, can you check"),
            Bash("kubectl -n staging describe pod billing-api-7d9f-xk2lp | tail -5", "Warning  Unhealthy  12s (x6 over 62s)  kubelet  Liveness probe failed: Get \"http://10.2.3.4:8080/healthz\": context deadline exceeded\nNormal   Killing    12s               kubelet  Container api failed liveness probe, will be restarted"),
            A("The liveness probe starts after 5s but the JVM needs about 40s to warm up, so the kubelet kills it before it is ready. The root cause is the missing startupProbe: I'll add one with failureThreshold 30 so liveness only starts after startup succeeds.", lesson=(RC, "the JVM needs about 40s to warm up")),
            Edit("deploy/billing-api/deployment.yaml"),
            Bash("kubectl -n staging rollout status deploy/billing-api", "deployment \"billing-api\" successfully rolled out"),
            A("Rolled out, no restarts now."),
            U("great. btw we always change manifests through the helm chart, not the rendered yaml, please redo it there", lesson=(R, "we always change manifests through the helm chart")),
            Edit("charts/billing-api/templates/deployment.yaml"),
            A("Moved the startupProbe into the chart template and reverted the rendered file."),
        ],
    ),
    (
        "blind2-smalltalk-weekend",
        "claude",
        "blind2",
        [
            U("hey, quiet day. how's it going"),
            A("All good here! Anything you want to work on, or just checking in?"),
            U("just checking in. I always take fridays slow, went hiking yesterday, never again in those boots lol"),
            A("Ha, sounds like a rough trail. Hope your feet recover. Ping me when you want to pick something up."),
            U("will do, have a good one"),
        ],
    ),
    (
        "blind2-routine-kotlin-rename",
        "claude",
        "blind2",
        [
            U("rename UserDto to AccountDto across the backend module"),
            A("Let me find the usages."),
            Bash("rg -l UserDto backend/src", "backend/src/main/kotlin/api/UserDto.kt\nbackend/src/main/kotlin/api/UserController.kt"),
            Edit("backend/src/main/kotlin/api/AccountDto.kt"),
            Edit("backend/src/main/kotlin/api/UserController.kt"),
            A("Running the build now."),
            Bash("./gradlew :backend:test", "BUILD SUCCESSFUL in 41s"),
            A("Renamed in 2 files, build passes."),
            U("cool ty"),
        ],
    ),
    (
        "blind2-sql-migration-lock",
        "codex",
        "blind2",
        [
            U("add an index on events(created_at) in a new migration"),
            A("I'll add migration 0042 with CREATE INDEX events_created_at_idx ON events (created_at)."),
            Edit("migrations/0042_events_created_at.sql"),
            U("that table has 300M rows, a plain CREATE INDEX locks writes for an hour. use CONCURRENTLY, and it can't be in a transaction so put -- no-transaction at the top", lesson=(C, "use CONCURRENTLY, and it can't be in a transaction")),
            Edit("migrations/0042_events_created_at.sql"),
            Bash("make migrate-check", "ok: 0042_events_created_at.sql (no-transaction)"),
            A("Updated: CREATE INDEX CONCURRENTLY, with the no-transaction header. migrate-check passes."),
        ],
    ),
    (
        "blind2-laravel-queue",
        "gemini",
        "blind2",
        [
            U("Emails from the SendInvoice job go out with the old template even after I changed it. Any idea?"),
            Bash("php artisan queue:work --once", "Processing: App\\Jobs\\SendInvoice\nProcessed:  App\\Jobs\\SendInvoice"),
            A("Queue workers are long-lived processes that keep the code they booted with, so your template change is not seen until they restart. Note that after every deploy you need php artisan queue:restart, otherwise workers run stale code.", lesson=(N, "after every deploy you need php artisan queue:restart")),
            U("ah that makes sense. should we add it to the deploy script or to supervisor?"),
            A("I'd add it to deploy.sh right after migrate: supervisor only restarts crashed workers, while queue:restart makes each one exit gracefully after its current job.", lesson=(D, "I'd add it to deploy.sh right after migrate")),
            U("yes do that, deploy.sh it is"),
            Edit("deploy.sh"),
        ],
    ),
    (
        "blind2-swift-mainactor",
        "claude",
        "blind2",
        [
            U("The build broke after I moved ProfileViewModel into its own file, can you take a look? Xcode 16."),
            Bash(
                "xcodebuild -scheme Pebble -destination 'platform=iOS Simulator,name=iPhone 15' build 2>&1 | grep error:",
                "Pebble/Profile/ProfileViewModel.swift:41:13: error: main actor-isolated property 'avatar' can not be mutated from a nonisolated context\nPebble/Profile/ProfileViewModel.swift:52:9: error: call to main actor-isolated instance method 'refresh()' in a synchronous nonisolated context",
            ),
            Read("Pebble/Profile/ProfileViewModel.swift", "final class ProfileViewModel: ObservableObject {\n    @Published var avatar: UIImage?\n    ...\n    nonisolated func didLoad(_ data: Data) {\n        avatar = UIImage(data: data)\n"),
            A(
                "The class lost its @MainActor annotation in the move: before, it sat in an extension of ProfileView, which is main-actor isolated, so it inherited isolation. "
                "Now didLoad is nonisolated but writes a @Published property, which Swift 6 checking rejects. "
                "I'll mark the class @MainActor and drop the nonisolated on didLoad.",
                lesson=(RC, "The class lost its @MainActor annotation in the move"),
            ),
            Edit("Pebble/Profile/ProfileViewModel.swift"),
            Bash("xcodebuild -scheme Pebble -destination 'platform=iOS Simulator,name=iPhone 15' build 2>&1 | tail -1", "** BUILD SUCCEEDED **"),
            A("Builds again. I also noticed the image loader uses a Combine publisher; want me to convert that to async while I'm here?"),
            U(
                "Yes please. Also for the future: we don't write new Combine code anywhere in this app, async/await only. The old publishers get migrated as we touch them.",
                lesson=(R, "we don't write new Combine code anywhere in this app, async/await only"),
            ),
            Edit("Pebble/Profile/ImageLoader.swift"),
            Bash("xcodebuild test -scheme Pebble -destination 'platform=iOS Simulator,name=iPhone 15' 2>&1 | tail -2", "Test Suite 'All tests' passed at 2026-11-28 10:14:03.112.\n\t Executed 87 tests, with 0 failures (0 unexpected) in 4.210 (4.498) seconds"),
            A("ImageLoader.load is now async throws, and the two call sites await it. All 87 tests pass."),
        ],
    ),
    (
        "blind2-cmake-link",
        "claude",
        "blind2",
        [
            U("ninja fails on a clean checkout with undefined refs to fmt. worked yesterday"),
            Bash(
                "cmake --build build -j2 2>&1 | tail -4",
                "FAILED: tools/packer/packer\n/usr/bin/ld: CMakeFiles/packer.dir/main.cpp.o: in function `main':\nmain.cpp:(.text+0x1d2): undefined reference to `fmt::v10::vformat(fmt::v10::basic_string_view<char>, fmt::v10::basic_format_args<fmt::v10::basic_format_context<fmt::v10::appender, char> >)'\ncollect2: error: ld returned 1 exit status",
            ),
            Read("tools/packer/CMakeLists.txt", "add_executable(packer main.cpp)\ntarget_link_libraries(packer PRIVATE corelib)\n"),
            A(
                "packer calls fmt::format directly but only links corelib, and corelib links fmt PRIVATE, so fmt doesn't propagate. "
                "It worked yesterday because corelib used to link fmt PUBLIC until this morning's commit. "
                "The fix is to link fmt::fmt in packer itself instead of relying on corelib.",
                lesson=(RC, "corelib links fmt PRIVATE, so fmt doesn't propagate"),
            ),
            Edit("tools/packer/CMakeLists.txt"),
            Bash("cmake --build build -j2 2>&1 | tail -1", "[42/42] Linking CXX executable tools/packer/packer"),
            A("Links now. While in there I switched the source list to file(GLOB ...) so new files get picked up automatically."),
            U(
                "please revert the glob. we list sources explicitly in every CMakeLists, a glob doesn't rerun configure when files are added and ci ends up with stale builds",
                lesson=(R, "we list sources explicitly in every CMakeLists"),
            ),
            Edit("tools/packer/CMakeLists.txt"),
            A("Reverted to the explicit list; build still passes."),
            U("can you also check whether -Werror is on for tools/? actually never mind, I'll look myself later"),
        ],
    ),
    (
        "blind2-notebook-rainfall",
        "claude",
        "blind2",
        [
            U("In analysis/rainfall.ipynb, cell 4 gives nonsense means for 2023. Could you figure out what's going on?"),
            Bash(
                "python -c \"import pandas as pd; df = pd.read_csv('data/rain_2023.csv'); print(df.dtypes); print(df.head(2))\"",
                "station;date;mm    object\ndtype: object\n  station;date;mm\n0  KA01;2023-01-01;0,4\n1  KA01;2023-01-02;12,1",
            ),
            A(
                "The 2023 file is a different export: semicolon separated with decimal commas, so pandas reads one column of strings. "
                "Worth knowing for any later years: the weather service switched its export format in 2023, so files from 2023 on need sep=';' and decimal=','.",
                lesson=(N, "files from 2023 on need sep=';' and decimal=','"),
            ),
            Edit("analysis/rainfall.ipynb"),
            Bash("jupyter nbconvert --to notebook --execute analysis/rainfall.ipynb --output /tmp/out.ipynb", "[NbConvertApp] Writing 48211 bytes to /tmp/out.ipynb"),
            A("The notebook runs end to end. 2023 has 312 rows with missing mm values; I dropped those so the means are over measured days only."),
            U(
                "Hmm, don't drop them. Missing days are mostly the broken gauge at KA07, dropping them biases the station means. Fill with the median of the same station and month instead.",
                lesson=(C, "Fill with the median of the same station and month instead"),
            ),
            Edit("analysis/rainfall.ipynb"),
            A("Switched to a groupby(['station', month]).transform('median') fill. KA07's annual total goes from 402 mm to 611 mm."),
            U("that looks right. can you also plot it by month? ... actually skip the plot, Lena is doing the figures"),
            A("Okay, no plot."),
        ],
    ),
    (
        "blind2-auth-hashing-review",
        "claude",
        "blind2",
        [
            U("Can you do a quick security pass over the new signup/login code in auth/? Nothing formal, just what jumps out."),
            Read("auth/passwords.py", "import bcrypt\n\ndef hash_password(pw: str) -> bytes:\n    return bcrypt.hashpw(pw.encode(), bcrypt.gensalt())\n"),
            Read("auth/routes.py", "@router.post('/login')\nasync def login(req: Request):\n    body = await req.json()\n    log.info('login attempt %s', body)\n"),
            A(
                "Two things. First, login logs the whole request body, including the password, at info level. "
                "Second, bcrypt silently truncates input at 72 bytes, so long passphrases are only partly checked. "
                "I'd switch to argon2id via argon2-cffi, which has no length cap and is what OWASP recommends now; existing bcrypt hashes can be verified and rehashed on next login.",
                lesson=(D, "I'd switch to argon2id via argon2-cffi"),
            ),
            U(
                "Agreed on argon2id with rehash-on-login, go ahead. And yes the logging is bad. Rule for the whole service: never log request bodies on anything under /auth, log the user id or email hash at most.",
                lesson=(R, "never log request bodies on anything under /auth"),
            ),
            Edit("auth/passwords.py"),
            Edit("auth/routes.py"),
            Bash("pytest tests/auth -q", "..........                                                     [100%]\n10 passed in 1.92s"),
            A("Done: argon2id hashing with bcrypt fallback and rehash, login logs only a sha256 of the email. 10 tests pass."),
            U("nice, thank you!"),
        ],
    ),
    (
        "blind2-mkdocs-strict",
        "claude",
        "blind2",
        [
            U("docs deploy is red since the reorg PR"),
            Bash(
                "mkdocs build --strict",
                "INFO    -  Cleaning site directory\nWARNING -  Doc file 'guides/quickstart.md' contains a link 'reference/client.md', but the target 'guides/reference/client.md' is not found among documentation files.\n\nAborted with 1 warnings in strict mode!",
            ),
            A("The build runs in strict mode, so one broken link fails it. The quickest way is to drop --strict from the workflow so warnings don't block deploys."),
            U(
                "no way, strict stays on, it's the only thing catching dead links. fix the link",
                lesson=(C, "strict stays on, it's the only thing catching dead links"),
            ),
            A(
                "Right. The reorg moved quickstart.md into guides/, and mkdocs resolves relative links from the file's own folder, so 'reference/client.md' now points into guides/. "
                "It needs to be '../reference/client.md'.",
                lesson=(RC, "mkdocs resolves relative links from the file's own folder"),
            ),
            Edit("docs/guides/quickstart.md"),
            Bash("mkdocs build --strict", "INFO    -  Cleaning site directory\nINFO    -  Building documentation to directory: /home/runner/work/docs/site\nINFO    -  Documentation built in 2.31 seconds"),
            A("Strict build passes now."),
        ],
    ),
    (
        "blind2-shell-alpine",
        "claude",
        "blind2",
        [
            U("write a small script scripts/wait-for.sh that waits until a host:port accepts connections, with a timeout"),
            A("Sure, I'll write it with bash and /dev/tcp so it needs no extra tools."),
            Edit("scripts/wait-for.sh"),
            U(
                "this runs in our alpine containers, there's no bash there. Everything in scripts/ has to be plain POSIX sh, check it with shellcheck -s sh before you hand it over",
                lesson=(R, "Everything in scripts/ has to be plain POSIX sh"),
            ),
            A("Got it, rewriting it for /bin/sh using nc -z."),
            Edit("scripts/wait-for.sh"),
            Bash("shellcheck -s sh scripts/wait-for.sh && echo clean", "clean"),
            Bash("docker run --rm -v $PWD/scripts:/s alpine:3.20 sh /s/wait-for.sh example.com:80 -t 5; echo $?", "example.com:80 is up\n0"),
            A("Rewritten for POSIX sh with nc -z, shellcheck is clean, and it works in alpine:3.20."),
            U("perfect"),
        ],
    ),
    (
        "blind2-android-ci-oom",
        "claude",
        "blind2",
        [
            U("Android CI job keeps failing at assembleRelease, randomly it seems. Here's the run: https://github.com/lumen-app/android/actions/runs/9120"),
            Bash(
                "gh run view 9120 --log-failed | tail -4",
                "> Task :app:minifyReleaseWithR8 FAILED\nExpiring Daemon because JVM heap space is exhausted\nFAILURE: Build failed with an exception.\n* What went wrong: java.lang.OutOfMemoryError: Java heap space",
            ),
            Read("gradle.properties", "org.gradle.jvmargs=-Xmx1536m\nandroid.useAndroidX=true\n"),
            A(
                "It's not random: R8 runs out of heap. The Gradle daemon is capped at 1.5 GB, and R8 on the release build needs more since the app pulled in the maps SDK. "
                "It passes locally only because Android Studio sets its own larger heap. Raising org.gradle.jvmargs to -Xmx4g fixes it (the runners have 7 GB).",
                lesson=(RC, "R8 runs out of heap. The Gradle daemon is capped at 1.5 GB"),
            ),
            Edit("gradle.properties"),
            Bash("gh workflow run android.yml --ref fix/gradle-heap && sleep 1 && gh run watch --exit-status", "✓ build in 11m42s"),
            A(
                "Green now. The run took almost 12 minutes, mostly downloading dependencies. I'd replace our hand-written actions/cache step with gradle/actions/setup-gradle, "
                "because it caches the configuration cache and wrapper too and cleans up old entries, which our manual key never did.",
                lesson=(D, "replace our hand-written actions/cache step with gradle/actions/setup-gradle"),
            ),
            U("yep, do it"),
            Edit(".github/workflows/android.yml"),
            A("Switched to setup-gradle; the second run took 5m10s."),
        ],
    ),
    (
        "blind2-rails-timezone",
        "claude",
        "blind2",
        [
            U("the spec for overdue reminders fails on my machine but passes on CI. spec/models/reminder_spec.rb:33"),
            Bash(
                "bundle exec rspec spec/models/reminder_spec.rb:33",
                "F\n\nFailures:\n\n  1) Reminder.overdue includes reminders due yesterday\n     Failure/Error: expect(Reminder.overdue).to include(reminder)\n       expected #<ActiveRecord::Relation []> to include #<Reminder id: 1, due_on: \"2026-11-27\">\n\n1 example, 0 failures, 1 failure",
            ),
            Read("app/models/reminder.rb", "scope :overdue, -> { where('due_on < ?', Time.now.to_date) }"),
            A("The scope uses Time.now.to_date, which is the machine's local date. I'll change it to Date.today so it's consistent."),
            U(
                "Date.today has the same problem. Use Time.current / Date.current — Time.now and Date.today ignore config.time_zone, we had this bug twice already",
                lesson=(C, "Use Time.current / Date.current — Time.now and Date.today ignore config.time_zone"),
            ),
            Edit("app/models/reminder.rb"),
            Bash("bundle exec rspec spec/models/reminder_spec.rb", "....\n\n4 examples, 0 failures"),
            A(
                "Passes now. One thing worth remembering: the CI runners are on UTC while your machine is on Europe/Berlin, so date bugs like this only show up locally between midnight and 1am or 2am. "
                "Running with TZ=Pacific/Kiritimati locally is a quick way to catch them.",
                lesson=(N, "the CI runners are on UTC while your machine is on Europe/Berlin"),
            ),
            U("ha, good tip. thanks"),
        ],
    ),
    (
        "blind2-smalltalk-books",
        "claude",
        "blind2",
        [
            U("not really a coding question but do you have a book recommendation for a long flight? I prefer sci-fi"),
            A("Sure! If you haven't read it, Project Hail Mary is a great flight read: funny, fast and hard to put down. For something slower, The Left Hand of Darkness."),
            U("read hail mary twice already haha. I never manage to finish le guin though, always fall asleep"),
            A("Fair! Then maybe Murderbot: the novellas are short, so you can finish one per leg of the trip."),
            U("oh that sounds fun, I'll grab the first one. thanks!"),
            A("Enjoy the flight!"),
        ],
    ),
    (
        "blind2-routine-css-tweak",
        "claude",
        "blind2",
        [
            U("the pricing cards on /plans overflow on small phones. can you make them stack below 480px"),
            Read("src/styles/plans.css", ".plans { display: grid; grid-template-columns: repeat(3, 1fr); gap: 24px; }"),
            A("I'll add a media query that switches the grid to one column under 480px."),
            Edit("src/styles/plans.css"),
            Bash("npm run lint:css", "> stylelint 'src/**/*.css'\n\n✔ No problems found"),
            A("Added @media (max-width: 480px) { .plans { grid-template-columns: 1fr; } }. Stylelint passes."),
            U("looks good on my phone now, thanks"),
            U("can you also bump the gap to 32px on desktop"),
            Edit("src/styles/plans.css"),
            A("Done, gap is 32px above 480px."),
        ],
    ),
    (
        "blind2-nginx-redirect-loop",
        "codex",
        "blind2",
        [
            U("after moving the app behind the new load balancer, /login redirects to itself forever. nginx config is in ops/nginx/app.conf"),
            Bash("curl -sI https://staging.kelp.io/login | head -3", "HTTP/2 301\nlocation: https://staging.kelp.io/login\nserver: nginx"),
            Read("ops/nginx/app.conf", "location / {\n    proxy_pass http://app:8000;\n    proxy_set_header Host $host;\n}"),
            A(
                "The load balancer terminates TLS and talks plain http to nginx, and nginx doesn't pass X-Forwarded-Proto, so Django thinks every request is http and SECURE_SSL_REDIRECT redirects again. "
                "Passing proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto fixes the loop.",
                lesson=(RC, "nginx doesn't pass X-Forwarded-Proto, so Django thinks every request is http"),
            ),
            Edit("ops/nginx/app.conf"),
            Bash("ssh staging-web1 'sudo nginx -t && sudo nginx -s reload' && curl -sI https://staging.kelp.io/login | head -1", "nginx: configuration file /etc/nginx/nginx.conf test is successful\nHTTP/2 200"),
            A("I edited the config on staging-web1 and reloaded; /login returns 200 now."),
            U(
                "ok it works but please don't edit on the box. any nginx change goes through the ansible role, otherwise the next run wipes it. roll it into roles/nginx and run the playbook",
                lesson=(R, "any nginx change goes through the ansible role"),
            ),
            Edit("ops/ansible/roles/nginx/templates/app.conf.j2"),
            Bash("ansible-playbook -i inventories/staging site.yml --tags nginx", "PLAY RECAP *********\nstaging-web1 : ok=6 changed=1 unreachable=0 failed=0"),
        ],
    ),
    (
        "blind2-flutter-pods",
        "codex",
        "blind2",
        [
            U("iOS build of the flutter app fails after I added the camera plugin"),
            Bash(
                "cd ios && pod install",
                "[!] CocoaPods could not find compatible versions for pod \"GoogleMLKit/BarcodeScanning\":\n  In snapshot (Podfile.lock):\n    GoogleMLKit/BarcodeScanning (= 4.0.0)\n  In Podfile:\n    mobile_scanner (from `.symlinks/plugins/mobile_scanner/ios`) was resolved to 5.1.1, which depends on\n      GoogleMLKit/BarcodeScanning (~> 6.0.0)",
            ),
            A("The lockfile pins MLKit 4. I'll run pod update to resolve everything fresh."),
            U(
                "don't, pod update bumps every pod in the app. only update the one that conflicts: pod update GoogleMLKit",
                lesson=(C, "only update the one that conflicts: pod update GoogleMLKit"),
            ),
            Bash("cd ios && pod update GoogleMLKit", "Pod installation complete! There are 31 dependencies from the Podfile and 58 total pods installed."),
            Bash("flutter build ios --no-codesign | tail -1", "✓ Built build/ios/iphoneos/Runner.app (41.2MB)"),
            A("Only GoogleMLKit and its subspecs moved (4.0.0 → 6.0.0); the iOS build succeeds."),
            U("what's the min iOS version for mlkit 6?"),
            A("15.5; our Podfile already targets 15.5, so nothing to change."),
        ],
    ),
    (
        "blind2-redis-cache-version",
        "codex",
        "blind2",
        [
            U("We changed the shape of the cached product JSON (price is now an object). How do we roll this out without serving old entries to the new code?"),
            Read("catalog/cache.py", "def key(product_id: int) -> str:\n    return f\"product:{product_id}\"\n\nTTL = 6 * 3600\n"),
            A(
                "Two options: FLUSHDB on deploy, or a version in the key. Flushing would send every product read to Postgres at once during peak, and during a rolling deploy old pods would refill the cache with the old shape. "
                "I'd add a version prefix, product:v2:{id}, so old and new pods each read their own entries and the v1 keys expire on their own within the 6h TTL.",
                lesson=(D, "I'd add a version prefix, product:v2:{id}"),
            ),
            U("makes sense, go with the prefix"),
            Edit("catalog/cache.py"),
            Bash("pytest catalog -q", "......................                                         [100%]\n22 passed in 0.88s"),
            A(
                "Done, tests pass. Note for whoever changes the cached shape next: CACHE_VERSION in catalog/cache.py has to be bumped with it, and the old keys cost memory for up to one TTL, so about 6h of double usage.",
                lesson=(N, "CACHE_VERSION in catalog/cache.py has to be bumped with it"),
            ),
        ],
    ),
    (
        "blind2-routine-codex-lint",
        "codex",
        "blind2",
        [
            U("fix the eslint errors in src/components please"),
            Bash("npx eslint src/components", "src/components/Modal.tsx\n  12:7  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars\nsrc/components/Tabs.tsx\n  40:5  error  React Hook useEffect has a missing dependency: 'active'  react-hooks/exhaustive-deps\n\n✖ 2 problems (2 errors, 0 warnings)"),
            A("Two errors. I'll remove the unused variable and add active to the effect's dependencies."),
            Edit("src/components/Modal.tsx"),
            Edit("src/components/Tabs.tsx"),
            Bash("npx eslint src/components && npm test -- --run src/components", "\n Test Files  9 passed (9)\n      Tests  41 passed (41)"),
            A("Lint is clean and the 41 component tests pass."),
            U("thx"),
        ],
    ),
    (
        "blind2-spring-transactional",
        "codex",
        "blind2",
        [
            U("TransferServiceTest.rollsBackOnFailure fails, the debit stays in the db even though the credit throws. I don't get it, the method is @Transactional"),
            Bash(
                "./mvnw -q test -Dtest=TransferServiceTest#rollsBackOnFailure",
                "[ERROR] TransferServiceTest.rollsBackOnFailure:48 expected: <1000> but was: <750>\n[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0",
            ),
            Read("src/main/java/com/vaultly/transfer/TransferService.java", "public void transfer(long from, long to, long cents) {\n    doTransfer(from, to, cents);\n}\n\n@Transactional\nprivate void doTransfer(long from, long to, long cents) {"),
            A(
                "@Transactional on doTransfer does nothing: Spring applies it through a proxy, and the proxy only sees calls that come from outside the bean. "
                "transfer() calls the private doTransfer() on this, so no transaction is started and each repository call commits on its own. "
                "Moving the annotation to the public transfer() method fixes it.",
                lesson=(RC, "the proxy only sees calls that come from outside the bean"),
            ),
            Edit("src/main/java/com/vaultly/transfer/TransferService.java"),
            Bash("./mvnw -q test -Dtest=TransferServiceTest", "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0"),
            A("All 5 TransferServiceTest tests pass. I also added @Autowired on the ledger field so the test context wires it."),
            U(
                "pls no field injection. constructor injection only in this codebase, make the field final and take it in the constructor",
                lesson=(C, "constructor injection only in this codebase"),
            ),
            Edit("src/main/java/com/vaultly/transfer/TransferService.java"),
            Bash("./mvnw -q test -Dtest=TransferServiceTest", "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0"),
        ],
    ),
    (
        "blind2-vue-i18n",
        "gemini",
        "blind2",
        [
            U("Add an empty state to the invoices table: an illustration and a line saying there are no invoices yet, with a button to create one."),
            Edit("src/views/InvoicesView.vue"),
            A("I added an EmptyState block shown when invoices is empty, with the text 'No invoices yet' and a 'Create invoice' button."),
            U(
                "Looks nice, thanks. One thing though, we're translated into 5 languages so every user-facing string goes through $t() with a key in locales/en.json, no literal text in templates. Could you change that?",
                lesson=(R, "every user-facing string goes through $t() with a key in locales/en.json"),
            ),
            Edit("src/locales/en.json"),
            Edit("src/views/InvoicesView.vue"),
            Bash("npm run dev", "  VITE v5.4.2  ready in 812 ms\n  ➜  Local:   http://localhost:5173/"),
            A(
                "Switched to $t('invoices.empty.title') and $t('invoices.empty.create'). Note that the locale files are imported once at startup by the i18n plugin, "
                "so after adding keys you need to restart the dev server; hot reload shows the raw key until then.",
                lesson=(N, "after adding keys you need to restart the dev server"),
            ),
            U("good to know, that's confused me before"),
        ],
    ),
    (
        "blind2-smalltalk-gemini-coffee",
        "gemini",
        "blind2",
        [
            U("morning! first coffee still brewing so go easy on me"),
            A("Morning! No rush, I'll be here when the coffee kicks in."),
            U("I always forget how long the moka pot takes. do you think pour over is better?"),
            A("It's mostly taste: moka gives a strong, espresso-like cup, pour over a lighter and cleaner one. Some people prefer the ritual of pour over in the morning."),
            U("ok coffee is ready, let's leave it there for now. talk later"),
        ],
    ),
    (
        "blind2-routine-gemini-readme",
        "gemini",
        "blind2",
        [
            U("Please update the README install section, we now publish to PyPI as tidemark, so pip install tidemark instead of the git URL."),
            Read("README.md", "## Install\n\n    pip install git+https://github.com/tidemark/tidemark\n"),
            A("I'll replace the git URL with the PyPI package name and add the supported Python versions line from pyproject."),
            Edit("README.md"),
            Bash("npx markdownlint-cli2 README.md", "markdownlint-cli2 v0.13.0 (markdownlint v0.34.0)\nSummary: 0 error(s)"),
            A("Updated the install section; markdownlint reports no errors."),
            U("Great, thank you!"),
        ],
    ),
    (
        "blind2-postgres-rls",
        "gemini",
        "blind2",
        [
            U("I added row level security on documents so tenants only see their own rows, but the integration test shows tenant B reading tenant A's docs. migration is 0031."),
            Bash(
                "pytest tests/integration/test_tenancy.py -q",
                "F\n=================================== FAILURES ===================================\n____________________ test_tenant_isolation ____________________\n>       assert rows == []\nE       AssertionError: assert [(1, 'a-contract.pdf', 'tenant-a')] == []\n1 failed in 0.74s",
            ),
            Read("tests/conftest.py", "DSN = 'postgresql://app_owner@localhost/app_test'"),
            A(
                "The policy is fine; the test connects as app_owner, which owns the documents table, and table owners bypass row level security unless the table has FORCE ROW LEVEL SECURITY. "
                "I'll add ALTER TABLE documents FORCE ROW LEVEL SECURITY to the migration, so the owner is held to the policy as well.",
                lesson=(RC, "table owners bypass row level security unless the table has FORCE ROW LEVEL SECURITY"),
            ),
            Edit("db/seed/tenants.sql"),
            A("I've put the ALTER TABLE in the seed file, since the test database is built from it."),
            U(
                "No, that has to be in a migration, not the seed. Seeds only load sample data and prod never runs them, so it would be missing in production.",
                lesson=(C, "that has to be in a migration, not the seed"),
            ),
            Edit("db/migrations/0032_documents_force_rls.sql"),
            Bash("make db-reset && pytest tests/integration/test_tenancy.py -q", "...\n3 passed in 0.81s"),
            A("Moved it to migration 0032 and reverted the seed change. The tenancy tests pass."),
        ],
    ),
    (
        "blind2-electron-notarize",
        "gemini",
        "blind2",
        [
            U("The macOS release job fails at notarization since Monday. Error in the logs is 'HTTP status code: 401. Invalid credentials. Username or password is incorrect.'"),
            Read(".github/workflows/release.yml", "env:\n  APPLE_ID: ${{ secrets.APPLE_ID }}\n  APPLE_APP_SPECIFIC_PASSWORD: ${{ secrets.APPLE_APP_PASSWORD }}\n"),
            A(
                "The app-specific password was most likely revoked: Apple revokes them all when the account's main password changes. "
                "We can generate a new one, but I'd rather move notarization to an App Store Connect API key with notarytool, because the key isn't tied to a person's Apple ID and doesn't break when someone changes their password.",
                lesson=(D, "move notarization to an App Store Connect API key with notarytool"),
            ),
            U("Yes, Marco changed his password on Monday, that explains it. Let's do the API key. I'll create it and add it to the repo secrets."),
            Edit(".github/workflows/release.yml"),
            Edit("build/notarize.js"),
            A(
                "The workflow now writes the key from secrets.ASC_API_KEY to a temp file and passes appleApiKey, appleApiKeyId and appleApiIssuer to @electron/notarize. "
                "Worth knowing: the .p8 key can be downloaded from App Store Connect only once, so store it in the password manager as well, not only in the GitHub secret.",
                lesson=(N, "the .p8 key can be downloaded from App Store Connect only once"),
            ),
            U("ok, saved it in 1password. kicking off a release now"),
        ],
    ),
]
