# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind4" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind3.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND4: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind4-ruby-gem-frozen-string",
        "claude",
        "blind4",
        [
            U(
                "the specs for the csv_tidy gem started failing after I added the magic comment to lib/. can you look"
            ),
            Bash(
                "bundle exec rspec 2>&1 | tail -8",
                'Failures:\n\n  1) CsvTidy::Cleaner#strip! removes trailing spaces\n     Failure/Error: value << "\\n" if @keep_newline\n\n     FrozenError:\n       can\'t modify frozen String: "name "\n     # ./lib/csv_tidy/cleaner.rb:31:in `strip!\'\n\n14 examples, 1 failure',
                failed=True,
            ),
            Read(
                "lib/csv_tidy/cleaner.rb",
                '# frozen_string_literal: true\n\nmodule CsvTidy\n  class Cleaner\n    def strip!(value)\n      value = value.rstrip if @trim\n      value << "\\n" if @keep_newline\n',
            ),
            A(
                "With `# frozen_string_literal: true` every literal in the file is frozen, and the spec passes a literal in; "
                "when @trim is false `value` is still that literal, so `<<` raises FrozenError. I'll build a new string with `+` instead of appending in place.",
                lesson=(RC, "when @trim is false `value` is still that literal"),
            ),
            Edit("lib/csv_tidy/cleaner.rb"),
            Bash(
                "bundle exec rspec 2>&1 | tail -2",
                "Finished in 0.0412 seconds (files took 0.21 seconds to load)\n14 examples, 0 failures",
            ),
            A("All 14 examples pass."),
            U(
                "cool. btw in this gem nothing mutates an argument it was given, ever. dup it first if you have to. people pass us rows from their own parsers",
                lesson=(R, "in this gem nothing mutates an argument it was given"),
            ),
            A(
                "Understood. I checked the other cleaners, `squish!` also appends to its argument; I'll change it to work on a dup."
            ),
            Edit("lib/csv_tidy/squisher.rb"),
            Bash("bundle exec rspec 2>&1 | tail -1", "15 examples, 0 failures"),
        ],
    ),
    (
        "blind4-postgres-autovacuum",
        "claude",
        "blind4",
        [
            U(
                "our events table in postgres keeps growing on disk even though we delete old rows every night. 400GB now. help"
            ),
            Bash(
                "psql -c \"select relname, n_dead_tup, last_autovacuum from pg_stat_user_tables where relname='events'\"",
                " relname | n_dead_tup |        last_autovacuum\n---------+------------+-------------------------------\n events  |  912443120 | 2026-11-02 04:11:09.52+00\n(1 row)",
            ),
            A(
                "Autovacuum last finished on the events table almost four weeks ago and it has 900M dead tuples. I'll run VACUUM FULL on events tonight to give the space back to the OS."
            ),
            U(
                "no no, VACUUM FULL takes an ACCESS EXCLUSIVE lock for hours on a table that size, the ingest would stall. use pg_repack, it's already installed on that cluster",
                lesson=(C, "VACUUM FULL takes an ACCESS EXCLUSIVE lock for hours"),
            ),
            A(
                "Got it, pg_repack then. Before that, the reason autovacuum can't keep up: scale_factor is the default 0.2, so on a billion-row table it waits for 200M dead rows. I'll set a per-table autovacuum_vacuum_scale_factor of 0.01."
            ),
            Edit("migrations/20261128_events_autovacuum.sql"),
            Bash(
                "pg_repack --dry-run -t events -d analytics 2>&1 | tail -2",
                'INFO: Dry run enabled, not executing repack\nINFO: repacking table "public.events"',
            ),
            A(
                "The dry run is fine. One thing to be aware of: pg_repack needs free disk roughly equal to the table plus its indexes while it runs, since it builds a full copy before swapping, so check the volume has ~450GB free before starting it.",
                lesson=(N, "pg_repack needs free disk roughly equal to the table plus its indexes"),
            ),
            U("we have 1.2T free, go ahead tonight at 2am"),
        ],
    ),
    (
        "blind4-clojure-deps-aliases",
        "claude",
        "blind4",
        [
            U("Can you add kaocha so we can run tests with a watcher? project is deps.edn"),
            Read(
                "deps.edn",
                '{:paths ["src"]\n :deps {org.clojure/clojure {:mvn/version "1.11.1"}\n        ring/ring-core {:mvn/version "1.10.0"}}\n :aliases {:dev {:extra-paths ["dev"]}}}\n',
            ),
            A(
                'Two ways: put kaocha under the existing :dev alias, or give it its own :test alias with "test" in :extra-paths. '
                "I'd go with a separate :test alias, because then CI can run `clojure -M:test` without pulling in the dev tooling (cider-nrepl, portal).",
                lesson=(D, "I'd go with a separate :test alias"),
            ),
            U("yep separate alias, makes sense"),
            Edit("deps.edn"),
            Edit("tests.edn"),
            Bash(
                "clojure -M:test -m kaocha.runner 2>&1 | tail -2",
                "24 tests, 61 assertions, 0 failures.",
            ),
            A(
                "Added a :test alias with lambdaisland/kaocha 1.87.1366 and a tests.edn. 24 tests pass. Want me to add a bin/kaocha wrapper too?"
            ),
            U(
                "no wrappers. we pin every dependency to an exact :mvn/version or a :git/sha, never a RELEASE or LATEST, and keep everything reachable via clojure -M:alias",
                lesson=(R, "we pin every dependency to an exact :mvn/version or a :git/sha"),
            ),
            A("OK, no wrapper. Everything in deps.edn is already pinned exactly."),
        ],
    ),
    (
        "blind4-unity-serializefield",
        "claude",
        "blind4",
        [
            U(
                "In the inspector my EnemySpawner's waves list resets to empty every time I enter play mode. I set it up in the editor, 3 waves. Unity 2022.3"
            ),
            Read(
                "Assets/Scripts/EnemySpawner.cs",
                "public class EnemySpawner : MonoBehaviour\n{\n    [SerializeField] private List<Wave> waves = new();\n\n    private void Awake() { waves = LoadWaves(); }\n}\n\npublic class Wave\n{\n    public int count;\n    public float delay;\n}\n",
            ),
            A(
                "Two things. Wave isn't marked [System.Serializable], so Unity can't serialize the list's elements and what you set in the inspector never gets saved into the scene. "
                "Also, Awake overwrites the field with LoadWaves(), which returns an empty list when there's no Resources/waves.json. I'll add [System.Serializable] to Wave and only load when the list is empty.",
                lesson=(RC, "Wave isn't marked [System.Serializable], so Unity can't serialize"),
            ),
            Edit("Assets/Scripts/EnemySpawner.cs"),
            U("ok that works now, waves survive play mode. thx"),
            U("can you also make the delay show as a slider 0-10"),
            Edit("Assets/Scripts/EnemySpawner.cs"),
            A("Added [Range(0f, 10f)] on delay."),
        ],
    ),
    (
        "blind4-deno-permissions",
        "claude",
        "blind4",
        [
            U(
                "the deno script that syncs our notion pages to markdown dies on the server with some permission thing. it's scripts/sync.ts"
            ),
            Bash(
                "deno run --allow-net scripts/sync.ts",
                'error: Uncaught (in promise) NotCapable: Requires env access to "NOTION_TOKEN", run again with the --allow-env flag\n    const token = Deno.env.get("NOTION_TOKEN");\n                           ^\n    at Object.getEnv [as get] (ext:deno_os/30_os.js:124:16)',
                failed=True,
            ),
            A(
                "It reads NOTION_TOKEN but only has net access. I'll run it with -A so it has everything it needs."
            ),
            U(
                "please not -A, that defeats the whole point of deno. give it exactly --allow-env=NOTION_TOKEN and --allow-net=api.notion.com and put those in the deno.json task",
                lesson=(C, "please not -A, that defeats the whole point of deno"),
            ),
            Edit("deno.json"),
            Bash(
                "deno task sync 2>&1 | tail -3",
                'Task sync deno run --allow-env=NOTION_TOKEN --allow-net=api.notion.com scripts/sync.ts\nerror: Uncaught (in promise) NotCapable: Requires write access to "./content/handbook.md", run again with the --allow-write flag',
            ),
            A(
                "It gets further now: the script also writes the markdown into ./content, so the task needs --allow-write=./content as well.",
                lesson=(RC, "the script also writes the markdown into ./content"),
            ),
            Edit("deno.json"),
            Bash("deno task sync 2>&1 | tail -1", "synced 41 pages"),
            A("The sync runs with only those three permissions and wrote 41 pages."),
        ],
    ),
    (
        "blind4-fastapi-depends-session",
        "claude",
        "blind4",
        [
            U(
                "I want to add a /invoices/{id}/pdf endpoint to the fastapi app, returns the rendered pdf"
            ),
            Read(
                "app/routers/invoices.py",
                'router = APIRouter(prefix="/invoices")\n\n@router.get("/{invoice_id}")\ndef get_invoice(invoice_id: int, db: Session = Depends(get_db)):\n    ...\n',
            ),
            A(
                "Rendering with WeasyPrint takes 1-3 s per invoice. We could render inline in the endpoint, or render on invoice finalisation and store the PDF in S3 and just redirect. "
                "I'd render on finalisation and store it, since an invoice never changes after it's finalised and the endpoint stays fast.",
                lesson=(
                    D,
                    "I'd render on finalisation and store it, since an invoice never changes",
                ),
            ),
            U("hmm, what about credit notes that amend an invoice?"),
            A(
                "Credit notes are separate documents with their own number, the original invoice PDF stays as issued. So storing is still correct."
            ),
            U("ok then go with storing on finalisation"),
            Edit("app/services/invoice_pdf.py"),
            Edit("app/routers/invoices.py"),
            Bash("pytest tests/test_invoices.py -q 2>&1 | tail -1", "9 passed in 1.84s"),
            A(
                "Done: finalise_invoice renders and uploads to s3://billing-pdfs/{year}/{number}.pdf, and the endpoint returns a 307 to a presigned URL. 9 tests pass."
            ),
            U(
                "ok. also, routes never open a db session themselves, they always get it through Depends(get_db), I saw you import SessionLocal in the service. services take the session as a parameter",
                lesson=(
                    R,
                    "routes never open a db session themselves, they always get it through Depends(get_db)",
                ),
            ),
            Edit("app/services/invoice_pdf.py"),
            Bash("pytest tests/test_invoices.py -q 2>&1 | tail -1", "9 passed in 1.79s"),
        ],
    ),
    (
        "blind4-jenkins-shared-lib",
        "claude",
        "blind4",
        [
            U("add a stage to the Jenkinsfile that runs the trivy scan on the image after build"),
            Read(
                "Jenkinsfile",
                "@Library('platform-lib@v3') _\npipeline {\n  agent { label 'docker' }\n  stages {\n    stage('Build') { steps { sh 'docker build -t $IMAGE .' } }\n  }\n}\n",
            ),
            Edit("Jenkinsfile"),
            A(
                "Added a 'Scan' stage: `sh 'trivy image --exit-code 1 --severity HIGH,CRITICAL $IMAGE'`."
            ),
            U(
                "hm, we don't call trivy directly in Jenkinsfiles, the shared lib has securityScan() which also uploads the report to defectdojo. use that",
                lesson=(
                    C,
                    "we don't call trivy directly in Jenkinsfiles, the shared lib has securityScan()",
                ),
            ),
            Edit("Jenkinsfile"),
            Bash(
                'curl -s -X POST -F "jenkinsfile=<Jenkinsfile" $JENKINS_URL/pipeline-model-converter/validate',
                "Jenkinsfile successfully validated.",
            ),
            A(
                "Switched to `securityScan(image: env.IMAGE)`. Worth knowing: the replay button in Jenkins doesn't pick up changes to the shared library, it replays with the library version pinned by @Library('platform-lib@v3'), "
                "so to test a library change you have to point the @Library line at your branch.",
                lesson=(
                    N,
                    "the replay button in Jenkins doesn't pick up changes to the shared library",
                ),
            ),
            U("good to know. merge it"),
        ],
    ),
    (
        "blind4-helm-values-merge",
        "claude",
        "blind4",
        [
            U(
                "helm upgrade on staging wiped out the sidecar env vars for the api. values-staging.yaml still has them"
            ),
            Bash(
                "helm template api ./charts/api -f values.yaml -f values-staging.yaml | grep -A6 'name: log-shipper' | tail -4",
                "          env:\n            - name: SHIP_TO\n              value: loki.staging\n          resources: {}",
            ),
            Read(
                "values-staging.yaml",
                "sidecars:\n  logShipper:\n    env:\n      - name: SHIP_TO\n        value: loki.staging\n",
            ),
            Read(
                "values.yaml",
                'sidecars:\n  logShipper:\n    env:\n      - name: SHIP_TO\n        value: loki.prod\n      - name: BATCH_SIZE\n        value: "500"\n      - name: TENANT\n        value: platform\n',
            ),
            A(
                "Helm merges maps from the values files key by key but replaces lists whole. env is a list, so values-staging.yaml's single entry replaces all three from values.yaml and BATCH_SIZE and TENANT are gone. "
                "I'll turn env into a map (name: value) in the chart and render it into a list in the template, so overrides merge per key.",
                lesson=(
                    RC,
                    "Helm merges maps from the values files key by key but replaces lists whole",
                ),
            ),
            Edit("charts/api/templates/deployment.yaml"),
            Edit("values.yaml"),
            Edit("values-staging.yaml"),
            Bash(
                "helm template api ./charts/api -f values.yaml -f values-staging.yaml | grep -A8 'name: log-shipper' | grep -c 'name: '",
                "4",
            ),
            A(
                "Now all three variables render for staging, with SHIP_TO overridden. Should I run the upgrade?"
            ),
            U("yes, staging only"),
            Bash(
                "helm upgrade api ./charts/api -n api -f values.yaml -f values-staging.yaml 2>&1 | tail -2",
                "STATUS: deployed\nREVISION: 58",
            ),
        ],
    ),
    (
        "blind4-svelte-i18n-store",
        "claude",
        "blind4",
        [
            U("we need the svelte app in german and french too. what's the least painful way"),
            A(
                "Options: svelte-i18n (runtime, ICU messages, a $_ store), or typesafe-i18n / Paraglide (compiled, typed keys, tree-shaken). "
                "I'd pick Paraglide: keys are checked at build time so a missing translation fails the build instead of showing a raw key, and only the messages a page uses get shipped.",
                lesson=(D, "a missing translation fails the build instead of showing a raw key"),
            ),
            U("paraglide it is"),
            Bash(
                "npx @inlang/paraglide-js@latest init 2>&1 | tail -2",
                "✔ Created project.inlang/settings.json\n✔ Added paraglide to vite.config.ts",
            ),
            Edit("src/lib/components/Header.svelte"),
            A(
                "I moved the header strings into messages/en.json and added de.json and fr.json with machine translations for a start, flagged with a TODO."
            ),
            U(
                "don't put machine translations in. leave de and fr with only the keys our translators have done; the fallback to english is fine until they're done",
                lesson=(C, "don't put machine translations in"),
            ),
            Edit("messages/de.json"),
            Edit("messages/fr.json"),
            Bash(
                "npm run build 2>&1 | tail -2", "✓ built in 3.21s\n> Using @sveltejs/adapter-node"
            ),
            A(
                "de.json and fr.json are empty objects now, English is the fallback, and the build passes."
            ),
        ],
    ),
    (
        "blind4-zig-allocator-leak",
        "claude",
        "blind4",
        [
            U("zig build test reports a leak in the tokenizer test, can't find it"),
            Bash(
                "zig build test 2>&1 | grep -B2 -A6 'leaked'",
                "error: 'tokenizer.test.tokenizes nested lists' leaked: 1 allocation(s)\n[gpa] (err): memory address 0x7f3a1c0a0000 leaked:\n/home/ivo/tomlz/src/tokenizer.zig:88:44: 0x1049a2f in nextToken (test)\n            const buf = try self.allocator.dupe(u8, slice);\n                                           ^\n/home/ivo/tomlz/src/tokenizer.zig:142:32: 0x104a1b0 in test.tokenizes nested lists (test)",
            ),
            Read(
                "src/tokenizer.zig",
                "        .string => {\n            const buf = try self.allocator.dupe(u8, slice);\n            return Token{ .string = buf };\n        },\n",
            ),
            A(
                "nextToken dupes every string token into memory the Token owns, and the test drops the tokens without freeing them, so the caller has to free it. I'll add a Token.deinit and `defer tok.deinit(alloc)` in the tests.",
                lesson=(RC, "the test drops the tokens without freeing them"),
            ),
            Edit("src/tokenizer.zig"),
            Edit("src/tokenizer_test.zig"),
            Bash("zig build test 2>&1 | tail -1", "All 31 tests passed."),
            A("No more leaks, all 31 tests pass."),
            U("ty"),
        ],
    ),
    (
        "blind4-r-dplyr-join",
        "claude",
        "blind4",
        [
            U(
                "The survey summary in R/summary.R has way more rows than respondents after I joined regions. 5012 respondents -> 7340 rows"
            ),
            Bash(
                "Rscript -e 'source(\"R/load.R\"); regions |> dplyr::count(postcode) |> dplyr::filter(n > 1) |> nrow()'",
                "[1] 811",
            ),
            A(
                "811 postcodes appear more than once in regions.csv, because a postcode can span two regions. I'll dedupe regions with distinct(postcode, .keep_all = TRUE) before the join."
            ),
            U(
                "wait, that just picks a region at random. we have the official lookup table with a primary_region flag, filter to primary_region == TRUE instead",
                lesson=(C, "filter to primary_region == TRUE instead"),
            ),
            Edit("R/load.R"),
            Bash("Rscript -e 'source(\"R/summary.R\"); nrow(summary_tbl)'", "[1] 5012"),
            A(
                '5012 rows, one per respondent. Note that dplyr 1.1 can warn about this by itself: passing `relationship = "many-to-one"` to left_join makes it error if the right side ever has duplicate keys again, so I added that to the join.',
                lesson=(N, 'passing `relationship = "many-to-one"` to left_join makes it error'),
            ),
            U("nice, didn't know that one"),
        ],
    ),
    (
        "blind4-smalltalk-coffee",
        "claude",
        "blind4",
        [
            U(
                "hey, not a coding question. what's the difference between a flat white and a cortado? my cafe has both"
            ),
            A(
                "A cortado is espresso cut with roughly the same amount of warm milk, little foam, served small (about 120 ml). A flat white is usually a double ristretto with more steamed milk and a thin, velvety microfoam, around 160-180 ml."
            ),
            U("so the flat white is milkier. I always get the cortado, never liked too much milk"),
            A(
                "Then the cortado suits you. Some places also do a gibraltar, which is basically a cortado in a specific glass."
            ),
            U("lol ok. thanks, back to work"),
        ],
    ),
    (
        "blind4-routine-terraform-tags",
        "claude",
        "blind4",
        [
            U('add a cost_center = "data" tag to the two s3 buckets in infra/storage.tf'),
            Read(
                "infra/storage.tf",
                'resource "aws_s3_bucket" "raw" {\n  bucket = "acme-raw-events"\n  tags = { team = "data" }\n}\n\nresource "aws_s3_bucket" "curated" {\n  bucket = "acme-curated"\n  tags = { team = "data" }\n}\n',
            ),
            Edit("infra/storage.tf"),
            Bash(
                "terraform fmt -check infra && terraform -chdir=infra validate",
                "Success! The configuration is valid.",
            ),
            A("Added the tag to both buckets. Let me run a plan to double-check."),
            Bash(
                "terraform -chdir=infra plan -no-color 2>&1 | tail -1",
                "Plan: 0 to add, 2 to change, 0 to destroy.",
            ),
            A("The plan only updates tags in place on the two buckets."),
            U("perfect, thanks"),
        ],
    ),
    (
        "blind4-codex-lambda-cold-start",
        "codex",
        "blind4",
        [
            U(
                "p99 latency of the thumbnail lambda is like 4s, p50 is 200ms. node 20, ~60MB bundle. why"
            ),
            Bash(
                "aws logs filter-log-events --log-group-name /aws/lambda/thumbnailer --filter-pattern 'Init Duration' --max-items 3 | jq -r '.events[].message'",
                "REPORT RequestId: 2c1f... Duration: 212.40 ms Billed Duration: 3911 ms Memory Size: 512 MB Init Duration: 3698.51 ms\nREPORT RequestId: 9ab0... Duration: 198.02 ms Billed Duration: 3702 ms Memory Size: 512 MB Init Duration: 3503.77 ms",
            ),
            Read("src/handler.ts", "import * as AWS from 'aws-sdk';\nimport sharp from 'sharp';\n"),
            A(
                "The slow requests are cold starts: Init Duration is 3.5 s. The handler imports the whole aws-sdk v2 at the top, which Node 20 runtimes don't even bundle, so all 60MB is in your zip and gets parsed on init. "
                "Switching to @aws-sdk/client-s3 (v3, modular) should cut the init a lot.",
                lesson=(RC, "imports the whole aws-sdk v2 at the top"),
            ),
            Edit("src/handler.ts"),
            Bash("npm run build && du -h dist/handler.zip", "dist/handler.zip  9.1M"),
            A(
                "Bundle is 9.1 MB now. For the remaining init we could either turn on provisioned concurrency (2 instances, ~$22/month) or SnapStart, which Lambda supports for Node only in some regions. "
                "I'd go with provisioned concurrency of 2 because traffic is steady during office hours and it removes cold starts for those hours entirely.",
                lesson=(D, "I'd go with provisioned concurrency of 2"),
            ),
            U("fine, 2 provisioned. schedule it to 0 at night though"),
            Edit("infra/lambda.tf"),
            Bash(
                "terraform -chdir=infra plan -no-color | tail -1",
                "Plan: 3 to add, 1 to change, 0 to destroy.",
            ),
        ],
    ),
    (
        "blind4-codex-sqlite-wal",
        "codex",
        "blind4",
        [
            U(
                "The little flask inventory app gets 'database is locked' when two people save at once. sqlite file on the same box"
            ),
            Read("inventory/db.py", "def connect():\n    return sqlite3.connect(DB_PATH)\n"),
            A(
                "I'll enable WAL mode and a busy timeout: `PRAGMA journal_mode=WAL` once and `timeout=5` on connect, so writers wait instead of failing."
            ),
            Edit("inventory/db.py"),
            Bash(
                "python -m pytest tests/test_concurrent.py -q 2>&1 | tail -1", "3 passed in 2.02s"
            ),
            A(
                "Passing. Note that WAL mode creates inventory.db-wal and inventory.db-shm next to the database, so the backup script has to copy all three or use `sqlite3 inventory.db .backup`, copying the .db file alone can lose recent writes.",
                lesson=(N, "the backup script has to copy all three or use"),
            ),
            U(
                "ok. rule for this repo: schema changes go in numbered files under migrations/, never an ALTER in app code at startup like the old create_tables() did",
                lesson=(R, "schema changes go in numbered files under migrations/"),
            ),
            Edit("migrations/004_wal.sql"),
            A(
                "Moved the pragma into migrations/004_wal.sql and removed the ALTER from create_tables()."
            ),
        ],
    ),
    (
        "blind4-codex-a11y-modal",
        "codex",
        "blind4",
        [
            U(
                "screen reader users say the 'share' modal is invisible to them. components/ShareModal.tsx"
            ),
            Read(
                "components/ShareModal.tsx",
                'return (\n  <div className="modal" onClick={onClose}>\n    <div className="modal-body">...\n',
            ),
            A(
                'I\'ll add role="dialog", aria-modal="true" and aria-labelledby pointing at the title, and move focus into the modal on open with a useEffect.'
            ),
            Edit("components/ShareModal.tsx"),
            U(
                "actually don't hand-roll it. we use the native <dialog> element with showModal() for every modal now, it does the focus trap and escape key for free",
                lesson=(C, "we use the native <dialog> element with showModal() for every modal"),
            ),
            Edit("components/ShareModal.tsx"),
            Bash(
                "npx playwright test a11y/share-modal.spec.ts 2>&1 | tail -2", "  2 passed (4.1s)"
            ),
            A(
                "ShareModal now renders a <dialog> opened with showModal(), and the axe check passes."
            ),
            U(
                "and every interactive thing we add needs an axe test in a11y/, no exceptions, that's how this one slipped through",
                lesson=(R, "every interactive thing we add needs an axe test in a11y/"),
            ),
            A("Noted; the share modal spec is in a11y/share-modal.spec.ts."),
        ],
    ),
    (
        "blind4-codex-vector-logs",
        "codex",
        "blind4",
        [
            U(
                "vector stopped shipping logs to loki since yesterday's config change, nothing in grafana after 14:00"
            ),
            Bash(
                "journalctl -u vector --since '1 hour ago' | grep -m3 -i error",
                'Nov 28 09:41:02 log-01 vector[811]: 2026-11-28T09:41:02.118Z ERROR sink{component_id=loki}: vector::sinks::util::retries: Not retriable; dropping the request. reason="Response status 400 Bad Request: entry for stream \'{app=\\"checkout\\", request_id=\\"7f2a...\\"}\' has timestamp too old"',
            ),
            Read(
                "vector/vector.toml",
                '[sinks.loki]\ntype = "loki"\ninputs = ["parse"]\nlabels.app = "{{ app }}"\nlabels.request_id = "{{ request_id }}"\n',
            ),
            A(
                "Yesterday's change added request_id as a Loki label. Every request is then its own stream, and Loki rejects entries that arrive out of order per stream once the stream count explodes, hence the 400s. "
                "request_id should stay in the log line, not be a label. I'll remove it from labels.",
                lesson=(RC, "Every request is then its own stream"),
            ),
            Edit("vector/vector.toml"),
            Bash(
                "vector validate vector/vector.toml && sudo systemctl restart vector && sleep 5 && journalctl -u vector --since '1 min ago' | grep -c ERROR",
                '√ Loaded ["vector/vector.toml"]\n√ Component configuration\n√ Health check "loki"\n------------------------------------\n                                   Validated\n0',
            ),
            A(
                'No errors since the restart and logs show up in Grafana again. You can filter by request_id with `| json | request_id="..."` in LogQL.'
            ),
            U("thanks. what's the retention on that loki again?"),
            A("30 days, from limits_config.retention_period in loki.yaml."),
        ],
    ),
    (
        "blind4-codex-smalltalk-marathon",
        "codex",
        "blind4",
        [
            U(
                "random q, how long does it take to train for a half marathon if you can run 5k now?"
            ),
            A(
                "Most plans for that starting point run 10-12 weeks, building the long run by about 1.5 km a week up to 16-18 km, with 3-4 runs a week."
            ),
            U("ok that's doable. my knees always complain after long runs though"),
            A(
                "That's common; slower long runs, good shoes and some strength work for hips and quads usually help. If the pain is sharp, better see a physio."
            ),
            U("cool, thanks!"),
        ],
    ),
    (
        "blind4-codex-routine-readme-badge",
        "codex",
        "blind4",
        [
            U(
                "add the CI status badge to the top of README.md, workflow is .github/workflows/ci.yml"
            ),
            Read("README.md", "# pricewatch\n\nTrack price changes on product pages.\n"),
            Edit("README.md"),
            Bash(
                "grep -n badge README.md",
                "3:[![CI](https://github.com/tamsin-k/pricewatch/actions/workflows/ci.yml/badge.svg)](https://github.com/tamsin-k/pricewatch/actions/workflows/ci.yml)",
            ),
            A("Added the badge under the title."),
        ],
    ),
    (
        "blind4-gemini-tfc-workspace",
        "gemini",
        "blind4",
        [
            U("set up terraform cloud for the networking repo, one workspace per env"),
            A(
                'I\'ll add a cloud block with `workspaces { name = "networking" }` and use terraform workspaces (dev/stage/prod) under it.'
            ),
            Edit("networking/backend.tf"),
            U(
                'that\'s not how TFC works for us — use tags = ["networking"] in the cloud block, and each env is its own TFC workspace like networking-prod with its own variables. CLI workspaces get mapped to those',
                lesson=(C, 'use tags = ["networking"] in the cloud block'),
            ),
            Edit("networking/backend.tf"),
            Bash(
                "terraform -chdir=networking init -input=false 2>&1 | tail -2",
                "Terraform Cloud has been successfully initialized!\n",
            ),
            A(
                "Initialized. `terraform workspace list` shows networking-dev, networking-stage and networking-prod."
            ),
            U("good"),
        ],
    ),
    (
        "blind4-gemini-dramatiq",
        "gemini",
        "blind4",
        [
            U(
                "celery keeps losing tasks when workers get OOM killed. we only use it for ~10 background jobs. is there something simpler"
            ),
            A(
                "For that size I'd suggest Dramatiq with the Redis broker: messages are acked only after the actor finishes (acks late by default), so a killed worker's message goes back to the queue, and there's no result backend or beat to run unless you want them. "
                "RQ is simpler still but has no retries with backoff built in.",
                lesson=(
                    D,
                    "I'd suggest Dramatiq with the Redis broker: messages are acked only after",
                ),
            ),
            U("ok let's do dramatiq. start with the email jobs"),
            Edit("app/tasks/email.py"),
            Bash("python -m pytest tests/tasks -q 2>&1 | tail -1", "7 passed in 0.91s"),
            A(
                "Email actors are ported and the tests use the StubBroker. Heads-up: actors must be imported before the worker starts, so `dramatiq app.tasks` only sees actors in modules app/tasks/__init__.py imports — a new tasks module that isn't imported there is silently never run.",
                lesson=(N, "a new tasks module that isn't imported there is silently never run"),
            ),
            U("got it"),
        ],
    ),
    (
        "blind4-gemini-icu-plurals",
        "gemini",
        "blind4",
        [
            U(
                "the cart says '1 items' in english and polish is totally wrong. strings are in locales/*.json"
            ),
            Read("locales/pl.json", '{\n  "cart.count": "{count} produktów"\n}\n'),
            A(
                "Polish has one, few, many and other plural forms. I'll switch cart.count to an ICU plural: `{count, plural, one {# produkt} few {# produkty} many {# produktów} other {# produktu}}`, and the same with one/other in English."
            ),
            Edit("locales/pl.json"),
            Edit("locales/en.json"),
            Bash(
                "npm test -- i18n 2>&1 | tail -2",
                "Tests:       12 passed, 12 total\nTime:        1.3 s",
            ),
            U(
                "great. from now on any string with a number in it is an ICU plural message, even in english, never string concatenation with the count",
                lesson=(R, "any string with a number in it is an ICU plural message"),
            ),
            A("Will do. I also found `wishlist.count` built with concatenation, converted it too."),
            Edit("locales/en.json"),
        ],
    ),
    (
        "blind4-gemini-smalltalk-plants",
        "gemini",
        "blind4",
        [
            U("my monstera has yellow leaves at the bottom. overwatering?"),
            A(
                "Often, yes: yellowing lower leaves with damp soil usually means too much water. Let the top few cm dry out before watering again and check the pot drains."
            ),
            U("I water it every sunday no matter what lol"),
            A(
                "A fixed schedule is the usual culprit; in winter it may need water only every two or three weeks. Check the soil with a finger first."
            ),
            U("will try. thanks"),
        ],
    ),
    (
        "blind4-gemini-routine-bump-version",
        "gemini",
        "blind4",
        [
            U(
                "bump the version to 2.4.0 in pyproject and add a changelog entry 'Add --since filter to export'"
            ),
            Read("pyproject.toml", '[project]\nname = "ledgerly"\nversion = "2.3.1"\n'),
            Edit("pyproject.toml"),
            Edit("CHANGELOG.md"),
            Bash(
                "grep -n '2.4.0' pyproject.toml CHANGELOG.md",
                'pyproject.toml:3:version = "2.4.0"\nCHANGELOG.md:3:## 2.4.0',
            ),
            A("Version is 2.4.0 and the changelog has the entry under 2.4.0."),
            U("thx"),
        ],
    ),
]
