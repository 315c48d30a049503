# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind9" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND9: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind9-fastapi-shipment-webhook",
        "claude",
        "blind9",
        [
            U(
                "the carrier webhook endpoint started returning 422 for every DHL callback since this morning. app/routers/webhooks.py. we get ~40k of these a day so kind of urgent"
            ),
            Bash(
                "pytest tests/test_webhooks.py -x -q 2>&1 | tail -8",
                "F\n=================================== FAILURES ===================================\n_________________________ test_dhl_callback_accepted __________________________\n>       assert resp.status_code == 200\nE       assert 422 == 200\nE        +  where 422 = <Response [422 Unprocessable Entity]>.status_code\n1 failed in 0.61s",
                failed=True,
            ),
            Read(
                "app/schemas/carrier.py",
                "class DhlEvent(BaseModel):\n    model_config = ConfigDict(extra='forbid')\n    shipment_id: str\n    status: str\n    timestamp: datetime\n",
            ),
            Bash(
                "curl -s -X POST localhost:8000/webhooks/dhl -H 'content-type: application/json' -d @tests/fixtures/dhl_2026_03.json | jq .detail[0]",
                '{\n  "type": "extra_forbidden",\n  "loc": ["body", "events", 0, "pieceCount"],\n  "msg": "Extra inputs are not permitted",\n  "input": 2\n}',
            ),
            A(
                "Found it. DHL added a `pieceCount` field to their callback payload, and `DhlEvent` is declared with `extra='forbid'`, so Pydantic rejects the whole request "
                "the moment the carrier adds any new field. That's why every callback fails and not just some. For inbound third-party payloads we should use `extra='ignore'`: "
                "we only read the fields we know, and new ones from the carrier don't break us. I'll change the model config.",
                lesson=(RC, "`DhlEvent` is declared with `extra='forbid'`, so Pydantic rejects"),
            ),
            Edit("app/schemas/carrier.py"),
            Bash(
                "pytest tests/test_webhooks.py -q 2>&1 | tail -1",
                "7 passed in 0.58s",
            ),
            A("Tests pass and the fixture with `pieceCount` now returns 200."),
            U(
                "great thanks. can you also check UPS and FedEx models, same thing probably. and fyi from now on any schema for a carrier payload uses extra=ignore, forbid is only for our own internal API bodies",
                lesson=(R, "any schema for a carrier payload uses extra=ignore"),
            ),
            Bash(
                "grep -rn \"extra='forbid'\" app/schemas/",
                "app/schemas/carrier.py:31:    model_config = ConfigDict(extra='forbid')  # UpsEvent\napp/schemas/carrier.py:58:    model_config = ConfigDict(extra='forbid')  # FedexEvent\napp/schemas/orders.py:12:    model_config = ConfigDict(extra='forbid')",
            ),
            Edit("app/schemas/carrier.py"),
            A(
                "Switched UpsEvent and FedexEvent to `extra='ignore'`. I left `orders.py` alone since that's our own API body."
            ),
        ],
    ),
    (
        "blind9-django-newsroom-embargo",
        "claude",
        "blind9",
        [
            U(
                "Hi! On the newsroom CMS we need an 'embargo until' datetime on articles, so the desk can schedule stories that must not appear on the site before a given time (usually press releases from the ministry). "
                "The article model is in newsroom/articles/models.py. Please add the field and make the public queryset respect it."
            ),
            Read(
                "newsroom/articles/models.py",
                "class ArticleQuerySet(models.QuerySet):\n    def published(self):\n        return self.filter(status=Article.Status.PUBLISHED)\n\nclass Article(models.Model):\n    ...\n    status = models.CharField(max_length=12, choices=Status.choices)\n",
            ),
            Edit("newsroom/articles/models.py"),
            A(
                "I've added `embargo_until = models.DateTimeField(null=True, blank=True)` and changed `published()` to also filter "
                "`Q(embargo_until__isnull=True) | Q(embargo_until__lte=timezone.now())`. I'll also add a Celery beat task that flips status every minute when the embargo passes, so the sitemap picks it up."
            ),
            U(
                "No, please not a celery task for this. The status must stay as the editor set it, the embargo is only a filter at read time. "
                "The sitemap already uses published() so it will follow. We had a celery job flipping statuses before and it published a story 3 hours early when the beat clock drifted, never again.",
                lesson=(C, "the embargo is only a filter at read time"),
            ),
            A("Understood, no background task. Only the queryset filter and the migration."),
            Bash(
                "python manage.py makemigrations articles && python manage.py test newsroom.articles -v 1 2>&1 | tail -3",
                "Migrations for 'articles':\n  newsroom/articles/migrations/0042_article_embargo_until.py\n    - Add field embargo_until to article\n.........\n----------------------------------------------------------------------\nRan 9 tests in 1.214s\n\nOK",
            ),
            A(
                "Done, migration 0042 added and tests pass. One thing to know for later: the public pages are behind Varnish with a 10 minute TTL (see `deploy/varnish/default.vcl`), "
                "so an article whose embargo ends at 10:00 can appear up to 10 minutes late on cached section pages even though the queryset is right. "
                "If the desk ever needs exact release times, the section pages would need a shorter TTL or a purge at embargo time.",
                lesson=(N, "can appear up to 10 minutes late on cached section pages"),
            ),
            U("ok good to know, 10 min is fine for now"),
        ],
    ),
    (
        "blind9-codex-go-ledger-rounding",
        "codex",
        "blind9",
        [
            U(
                "fee calc in internal/fees is off by one cent on some FX transfers. finance flagged 14 txns from yesterday. repro: go test ./internal/fees -run TestFXFee"
            ),
            Bash(
                "go test ./internal/fees -run TestFXFee -v 2>&1 | tail -6",
                "=== RUN   TestFXFee/EUR_to_GBP_1234.565\n    fee_test.go:48: got 1234.56, want 1234.57\n--- FAIL: TestFXFee (0.00s)\n    --- FAIL: TestFXFee/EUR_to_GBP_1234.565 (0.00s)\nFAIL\nFAIL\tgithub.com/payfin/ledger/internal/fees\t0.004s",
                failed=True,
            ),
            Read(
                "internal/fees/fx.go",
                "func Convert(amount float64, rate float64) float64 {\n\treturn math.Round(amount*rate*100) / 100\n}\n",
            ),
            A(
                "The conversion multiplies float64 values and then rounds. 1234.565 can't be represented exactly in binary floating point; it is stored as 1234.56499999..., so `math.Round` "
                "goes down instead of half-up. That's the one-cent drift finance saw. The fix is to do the arithmetic in decimal.",
                lesson=(RC, "1234.565 can't be represented exactly in binary floating point"),
            ),
            A(
                "Two options: (1) `shopspring/decimal`, which is what `internal/payouts` already uses, or (2) integer minor units (int64 cents) with rate as a scaled integer. "
                "I'd go with shopspring/decimal here because the rates come from the provider with 6 decimal places and payouts already has the rounding helpers, so we keep one way of rounding in the codebase. Ok?",
                lesson=(D, "go with shopspring/decimal here because the rates come from"),
            ),
            U("yes do decimal, same as payouts"),
            Edit("internal/fees/fx.go"),
            Bash(
                "go test ./internal/fees/... 2>&1 | tail -2",
                "ok  \tgithub.com/payfin/ledger/internal/fees\t0.006s",
            ),
            A(
                "All fee tests pass, including the 1234.565 case. `Convert` now takes and returns `decimal.Decimal` and rounds with `Round(2)` (half away from zero), matching payouts."
            ),
            U("ok. I'll tell finance to rerun the 14"),
        ],
    ),
    (
        "blind9-gemini-terraform-agency-buckets",
        "gemini",
        "blind9",
        [
            U(
                "hey, new client site (bakery chain, static astro site) needs its s3 bucket + cloudfront. copy what we did for the florist client in infra/clients/florist and adapt. client slug is 'mehlwerk'"
            ),
            Bash(
                "ls infra/clients/florist && cat infra/clients/florist/backend.tf",
                'main.tf  outputs.tf  variables.tf  backend.tf\nterraform {\n  backend "s3" {\n    bucket = "agency-tfstate"\n    key    = "clients/florist/terraform.tfstate"\n    region = "eu-central-1"\n    dynamodb_table = "tf-locks"\n  }\n}',
            ),
            A(
                "I'll copy the florist folder to `infra/clients/mehlwerk` and change the state key and names."
            ),
            Bash(
                "cp -r infra/clients/florist infra/clients/mehlwerk && sed -i 's/florist/mehlwerk/g' infra/clients/mehlwerk/*.tf",
                "",
            ),
            U(
                "ah wait, one thing: every client gets its own state key under clients/<slug>/ and we NEVER share a state file between two clients, "
                "even if they look similar. also tag everything with client=<slug>, billing uses that tag to split the AWS invoice",
                lesson=(R, "we NEVER share a state file between two clients"),
            ),
            Bash(
                "grep -n 'key\\|client' infra/clients/mehlwerk/*.tf",
                'infra/clients/mehlwerk/backend.tf:4:    key    = "clients/mehlwerk/terraform.tfstate"\ninfra/clients/mehlwerk/main.tf:9:    client = "mehlwerk"\ninfra/clients/mehlwerk/main.tf:31:    client = "mehlwerk"',
            ),
            Bash(
                "cd infra/clients/mehlwerk && terraform init -input=false >/dev/null && terraform plan -input=false 2>&1 | tail -3",
                "Plan: 6 to add, 0 to change, 0 to destroy.\n\nNote: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly these actions if you run \"terraform apply\" now.",
            ),
            A(
                'The state key is `clients/mehlwerk/terraform.tfstate` and both the bucket and the distribution carry `client = "mehlwerk"`. Plan shows 6 resources to add.\n\n'
                "Something to keep in mind: the ACM certificate in `main.tf` uses `provider = aws.us_east_1`. CloudFront only accepts certificates from us-east-1, "
                "so even though everything else is in eu-central-1 that alias must stay when you copy a client folder.",
                lesson=(N, "CloudFront only accepts certificates from us-east-1"),
            ),
            U("yep. i'll apply it myself after the client confirms the domain"),
        ],
    ),
    (
        "blind9-ros2-lidar-qos",
        "claude",
        "blind9",
        [
            U(
                "our obstacle node doesnt get any scans from the new Ouster lidar driver. topic is there in ros2 topic list. humble, cyclonedds. package is mobile_nav, node obstacle_monitor"
            ),
            Bash(
                "ros2 topic info /ouster/scan -v | grep -A3 'QoS'",
                "QoS profile:\n  Reliability: BEST_EFFORT\n  History (Depth): KEEP_LAST (5)\n  Durability: VOLATILE\n--\nQoS profile:\n  Reliability: RELIABLE\n  History (Depth): KEEP_LAST (10)\n  Durability: VOLATILE",
            ),
            Bash(
                "ros2 run mobile_nav obstacle_monitor --ros-args --log-level debug 2>&1 | grep -i qos | head -2",
                "[WARN] [1741190423.118833021] [obstacle_monitor]: New publisher discovered on topic '/ouster/scan', offering incompatible QoS. No messages will be sent to it. Last incompatible policy: RELIABILITY_QOS_POLICY",
            ),
            A(
                "The driver publishes the scan with BEST_EFFORT reliability, and obstacle_monitor subscribes with the default profile, which is RELIABLE. "
                "In DDS a RELIABLE subscriber is incompatible with a BEST_EFFORT publisher, so no messages are delivered at all - no error, just the warning above. "
                "I'll subscribe with `rclcpp::SensorDataQoS()` which is best effort, depth 5.",
                lesson=(RC, "a RELIABLE subscriber is incompatible with a BEST_EFFORT publisher"),
            ),
            Edit("mobile_nav/src/obstacle_monitor.cpp"),
            Bash(
                "colcon build --packages-select mobile_nav 2>&1 | tail -1 && timeout 5 ros2 topic hz /obstacles 2>&1 | tail -2",
                "Summary: 1 package finished [14.2s]\naverage rate: 9.987\n\tmin: 0.098s max: 0.103s std dev: 0.00131s window: 48",
            ),
            A("obstacle_monitor gets scans now and publishes /obstacles at 10 Hz."),
            U(
                "cool. while youre at it, the lab wants the safety stop to not depend on this node crashing or not. suggestions?"
            ),
            A(
                "I'd put the stop logic in a separate lifecycle node, `safety_gate`, that subscribes to /obstacles and also watches a heartbeat; if it sees nothing for 200 ms it publishes zero velocity on /cmd_vel_safe. "
                "A separate process means a crash in obstacle_monitor (which does the heavy point cloud work) can't take the stop down with it, and lifecycle states let the launch file restart it cleanly.",
                lesson=(D, "A separate process means a crash in obstacle_monitor"),
            ),
            U(
                "yes lets do that, separate lifecycle node. start on it tomorrow, Jonas has the robot today"
            ),
        ],
    ),
    (
        "blind9-rails-invoice-pdf",
        "claude",
        "blind9",
        [
            U(
                "we need to generate the monthly invoice PDFs for the Pro customers. there's a stub in app/services/invoice_pdf.rb. use whatever is easiest"
            ),
            Bash("grep -E 'prawn|wicked|grover' Gemfile.lock", ""),
            A(
                "There is no PDF gem yet. I'll add `wicked_pdf` with `wkhtmltopdf-binary` so we can render the existing invoice HTML view to PDF."
            ),
            Bash(
                "bundle add wicked_pdf wkhtmltopdf-binary 2>&1 | tail -2",
                "Fetching wkhtmltopdf-binary 0.12.6.7\nInstalling wkhtmltopdf-binary 0.12.6.7",
            ),
            U(
                "hm, please not wkhtmltopdf, it's unmaintained and our Heroku stack doesn't even have the libs for it. use Prawn, write the layout in ruby. I know it's more work",
                lesson=(C, "please not wkhtmltopdf, it's unmaintained"),
            ),
            Bash(
                "bundle remove wicked_pdf wkhtmltopdf-binary && bundle add prawn prawn-table 2>&1 | tail -1",
                "Installing prawn-table 0.2.2",
            ),
            Edit("app/services/invoice_pdf.rb"),
            Bash(
                "bin/rails test test/services/invoice_pdf_test.rb 2>&1 | tail -2",
                "3 runs, 7 assertions, 0 failures, 0 errors, 0 skips",
            ),
            A(
                "InvoicePdf now builds the document with Prawn and prawn-table. Tests pass; a sample is at tmp/invoice_sample.pdf."
            ),
            U("looks fine. ship it"),
        ],
    ),
    (
        "blind9-codex-dbt-snowflake-incremental",
        "codex",
        "blind9",
        [
            U(
                "fct_deliveries takes 40 min in the nightly run now, it's a full table rebuild every time. can you make it incremental? models/marts/fct_deliveries.sql"
            ),
            Read(
                "models/marts/fct_deliveries.sql",
                "{{ config(materialized='table') }}\nselect d.delivery_id, d.route_id, d.delivered_at, d.updated_at, ...\nfrom {{ ref('stg_deliveries') }} d\n",
            ),
            A(
                "Rows in stg_deliveries get updated after delivery (proof-of-delivery and damage claims come in days later), so appending by `delivered_at` would miss those updates. "
                "I propose `incremental` with `unique_key='delivery_id'`, `incremental_strategy='merge'`, filtering on `updated_at` with a 3-day lookback. "
                "Merge on the key handles late updates, and the lookback covers the claims that arrive late from the drivers' app. Sound right?",
                lesson=(D, "Merge on the key handles late updates, and the lookback"),
            ),
            U(
                "yes merge + 3 day lookback is good. and please remember, in this project every incremental model must have a full-refresh tested in CI before merge, the dbt-ci job has a flag for it. we got burned by that",
                lesson=(R, "every incremental model must have a full-refresh tested in CI"),
            ),
            Edit("models/marts/fct_deliveries.sql"),
            Edit(".github/workflows/dbt-ci.yml"),
            Bash(
                "dbt build --select fct_deliveries --target ci 2>&1 | tail -4",
                "12:04:51  1 of 3 OK created sql incremental model ci_dbt.fct_deliveries ......... [SUCCESS 1 in 38.21s]\n12:05:02  2 of 3 PASS unique_fct_deliveries_delivery_id ............................ [PASS in 3.02s]\n12:05:04  3 of 3 PASS not_null_fct_deliveries_delivery_id .......................... [PASS in 1.87s]\n12:05:04  Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3",
            ),
            Bash(
                "dbt build --select fct_deliveries --target ci 2>&1 | grep 'incremental model'",
                "12:06:11  1 of 3 OK created sql incremental model ci_dbt.fct_deliveries ......... [SUCCESS 2140 in 6.44s]",
            ),
            A(
                "The model is incremental now: the first build is a full build (38s in CI), the second run merged 2140 rows in 6s. "
                "I added `fct_deliveries` to the `full_refresh_models` list in dbt-ci.yml so the CI job also runs it with `--full-refresh`."
            ),
        ],
    ),
    (
        "blind9-gemini-flutter-push-ios",
        "gemini",
        "blind9",
        [
            U(
                "Push notifications are not arriving on iOS in our delivery driver app (Flutter, firebase_messaging 15). Android is fine. On iPhone getToken() returns null. We build with Xcode 16."
            ),
            Bash(
                "grep -n 'aps-environment\\|UIBackgroundModes' -A2 ios/Runner/Runner.entitlements ios/Runner/Info.plist",
                "ios/Runner/Info.plist:52:\t<key>UIBackgroundModes</key>\nios/Runner/Info.plist-53-\t<array>\nios/Runner/Info.plist-54-\t\t<string>remote-notification</string>",
                failed=False,
            ),
            Bash(
                "flutter run -d 00008110-001A2C3E0E90401E 2>&1 | grep -i apns | head -2",
                "[firebase_messaging/apns-token-not-set] APNS token has not been set yet. Please ensure the APNS token is available by calling `getAPNSToken()`.\nflutter: FCM token: null",
            ),
            A(
                "There is no `aps-environment` key in Runner.entitlements, i.e. the Push Notifications capability isn't enabled for the Runner target. Without it iOS never gives the app an APNs token, "
                "and Firebase can't create an FCM token without the APNs one, so `getToken()` returns null. Android doesn't need any of this, which is why it works there. "
                "I'll add the capability (entitlement `aps-environment = development`) and wait for the APNs token before asking for the FCM token.",
                lesson=(RC, "Without it iOS never gives the app an APNs token"),
            ),
            Edit("ios/Runner/Runner.entitlements"),
            Edit("lib/services/push_service.dart"),
            A(
                "I'll also bump firebase_messaging to 15.2 while I'm in pubspec, there are a few iOS fixes in it."
            ),
            U(
                "no dont touch the versions, we pin all firebase packages together with the firebase BoM equivalent in pubspec and only upgrade them all at once in a separate PR. just the entitlement fix please",
                lesson=(C, "we pin all firebase packages together"),
            ),
            A("Ok, I left pubspec.yaml as it was."),
            Bash(
                "flutter run -d 00008110-001A2C3E0E90401E 2>&1 | grep -i 'token' | head -2",
                "flutter: APNS token: 8f3c1e0a9b...\nflutter: FCM token: cX9f2k1R0E0:APA91bH...",
            ),
            A(
                "The iPhone gets an APNs token and an FCM token now; a test message from the Firebase console arrived."
            ),
        ],
    ),
    (
        "blind9-nestjs-gov-permits-audit",
        "claude",
        "blind9",
        [
            U(
                "Good morning. For the building permits portal (NestJS, Postgres via TypeORM) the auditors require that every change to a permit application is recorded with who, when and old/new values. "
                "We are a public agency so this must hold for 10 years. What is your proposal? The entity is src/permits/permit.entity.ts."
            ),
            Read(
                "src/permits/permit.entity.ts",
                "@Entity('permit_application')\nexport class PermitApplication {\n  @PrimaryGeneratedColumn('uuid') id: string;\n  @Column() status: PermitStatus;\n  ...\n}",
            ),
            A(
                "Two ways:\n\n- a TypeORM `EntitySubscriber` that writes an audit row in `afterUpdate`\n- a Postgres trigger on `permit_application` writing to an `audit.permit_history` table\n\n"
                "I recommend the database trigger. Subscribers only fire when the change goes through the TypeORM repository; the nightly import from the state registry and any manual SQL fix by the DBA would bypass them. "
                "A trigger catches every write. The user id can be passed with `SET LOCAL app.user_id` in the same transaction.",
                lesson=(
                    D,
                    "Subscribers only fire when the change goes through the TypeORM repository",
                ),
            ),
            U("Agreed, the trigger it is. The DBA team will like that too."),
            Edit("src/migrations/1741600000000-PermitAudit.ts"),
            Edit("src/common/interceptors/audit-user.interceptor.ts"),
            Bash(
                "npm run migration:run 2>&1 | tail -3 && npm run test:e2e -- permits 2>&1 | tail -4",
                'query: CREATE TRIGGER permit_application_audit AFTER INSERT OR UPDATE OR DELETE ON "permit_application" FOR EACH ROW EXECUTE FUNCTION audit.log_permit_change()\nMigration PermitAudit1741600000000 has been executed successfully.\nquery: COMMIT\nTest Suites: 1 passed, 1 total\nTests:       11 passed, 11 total\nSnapshots:   0 total\nTime:        8.412 s',
            ),
            A(
                "Migration applied and the e2e tests pass; each update now creates a row in `audit.permit_history` with the user id, timestamp and old/new JSON.\n\n"
                "Important for later: `SET LOCAL` only lasts for the current transaction. The interceptor wraps each request in a transaction, but any code that uses `dataSource.query()` outside "
                "that transaction will write audit rows with an empty user_id. Background jobs must open their own transaction and set `app.user_id` to a service account.",
                lesson=(N, "`SET LOCAL` only lasts for the current transaction"),
            ),
            U("Thank you, I will forward this to Mr. Okafor who writes the background jobs."),
        ],
    ),
    (
        "blind9-hugo-newspaper-images",
        "claude",
        "blind9",
        [
            U(
                "the election results page on the hugo site loads like 14MB of images lol. content/politics/2026-election/index.md. can u fix the images"
            ),
            Bash(
                "ls -la content/politics/2026-election/ | awk '{print $5, $9}' | sort -n | tail -4",
                "2841223 map-districts.png\n3012875 candidates-row.jpg\n3499102 turnout-chart.png\n4410987 hero-night.jpg",
            ),
            A(
                "The page bundle uses the original files directly through markdown image syntax. I'll switch to the `figure` shortcode and add image processing so Hugo generates resized WebP versions."
            ),
            U(
                "ok. but the rule here: all images in articles go through our own `{{< img >}}` shortcode in layouts/shortcodes/img.html, never the built-in figure and never raw markdown images, "
                "because img.html adds the photo credit and the srcset the design desk wants. the photo desk will kill us if the credit is missing",
                lesson=(R, "all images in articles go through our own `{{< img >}}` shortcode"),
            ),
            Read(
                "layouts/shortcodes/img.html",
                '{{ $src := .Page.Resources.GetMatch (.Get "src") }}\n{{ $small := $src.Resize "640x webp q75" }}\n...\n<figcaption>{{ .Get "caption" }} <span class="credit">{{ .Get "credit" }}</span></figcaption>',
            ),
            Edit("content/politics/2026-election/index.md"),
            Bash(
                "hugo --gc --minify 2>&1 | tail -3 && du -ch public/politics/2026-election/*.webp | tail -1",
                "Processed images |  16\nTotal in 4821 ms\n1.2M\ttotal",
            ),
            A(
                "All four images use `{{< img >}}` with credits now. The generated WebP files for the page total 1.2 MB instead of 14 MB. I took the credits from the photo desk's caption notes in the front matter."
            ),
            U("perfect, push it to the preview branch pls, Marta wants to look before 6"),
            Bash(
                "git push origin HEAD:preview 2>&1 | tail -1",
                "   4f1a9c2..b83d017  HEAD -> preview",
            ),
        ],
    ),
    (
        "blind9-codex-tauri-updater",
        "codex",
        "blind9",
        [
            U(
                "release build of the tauri app fails in CI since we turned on the updater. local debug works. see run 8812"
            ),
            Bash(
                "gh run view 8812 --log-failed | tail -5",
                "build\tBuild app\t    Finished `release` profile [optimized] target(s) in 3m 12s\nbuild\tBuild app\t    Bundling Notetaker_1.4.0_x64_en-US.msi\nbuild\tBuild app\tError A public key has been found, but no private key. Make sure to set `TAURI_SIGNING_PRIVATE_KEY` environment variable.\nbuild\tBuild app\t##[error]Process completed with exit code 1.",
                failed=True,
            ),
            Read(
                ".github/workflows/release.yml",
                "      - uses: tauri-apps/tauri-action@v0\n        env:\n          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n          TAURI_PRIVATE_KEY: ${{ secrets.TAURI_PRIVATE_KEY }}\n",
            ),
            A(
                "The workflow passes the key as `TAURI_PRIVATE_KEY`, but that's the Tauri 1 name. Tauri 2's bundler reads `TAURI_SIGNING_PRIVATE_KEY` (and `TAURI_SIGNING_PRIVATE_KEY_PASSWORD`), "
                "so in the release build it sees the public key from tauri.conf.json and no private key, and refuses to bundle. Debug builds don't sign updater artifacts, so they never hit this. "
                "I'll rename the env vars in the workflow; the secret itself can stay as it is.",
                lesson=(RC, "`TAURI_PRIVATE_KEY`, but that's the Tauri 1 name"),
            ),
            Edit(".github/workflows/release.yml"),
            Bash(
                "gh workflow run release.yml --ref fix/updater-key && sleep 240 && gh run list --workflow release.yml -L 1",
                "completed\tsuccess\tfix updater signing env\tRelease\tfix/updater-key\tworkflow_dispatch\t8815\t4m2s\t2026-03-11T10:42:13Z",
            ),
            A(
                "Run 8815 is green and the .msi, .dmg and AppImage all have .sig files.\n\n"
                "Heads-up for the future: the updater public key is baked into every shipped build via tauri.conf.json. If the private key in the secret is ever rotated or lost, "
                "installed copies can no longer verify updates and users would have to download the new version by hand. The key should be backed up outside GitHub.",
                lesson=(N, "the updater public key is baked into every shipped build"),
            ),
            U("oh good point, I'll put it in 1password"),
        ],
    ),
    (
        "blind9-gemini-wordpress-woo-hooks",
        "gemini",
        "blind9",
        [
            U(
                "Client (wine shop) wants a 'gift wrap' checkbox on the WooCommerce checkout that adds 4.50 EUR. Theme is our child theme 'vinoteca-child'. Can you do it?"
            ),
            A(
                "I'll add it to `vinoteca-child/functions.php`: a field via `woocommerce_after_order_notes`, a fee via `woocommerce_cart_calculate_fees`, and save it to the order meta."
            ),
            U(
                "wait, not in functions.php of the theme. we keep all shop logic in the site plugin (wp-content/plugins/vinoteca-core), the theme is only for looks. "
                "they change themes every 2-3 years and we dont want to lose features then",
                lesson=(C, "we keep all shop logic in the site plugin"),
            ),
            Bash(
                "ls wp-content/plugins/vinoteca-core/includes/",
                "class-age-check.php\nclass-shipping-rules.php\nclass-vinoteca-core.php",
            ),
            A(
                "For the checkbox there's a choice: the classic checkout hooks only work on the shortcode checkout, while the site uses the Checkout block (I see `wp:woocommerce/checkout` on the checkout page). "
                "I'd switch the checkout page back to the `[woocommerce_checkout]` shortcode, because the age check in class-age-check.php is also built on classic hooks and currently does not show in the block checkout either. "
                "The alternative is rewriting both with the Additional Checkout Fields API, which is more work. Which do you want?",
                lesson=(
                    D,
                    "switch the checkout page back to the `[woocommerce_checkout]` shortcode",
                ),
            ),
            U(
                "oh wow the age check is not showing?? ok yes go back to the shortcode checkout, now. we'll look at blocks next year"
            ),
            Edit("wp-content/plugins/vinoteca-core/includes/class-gift-wrap.php"),
            Edit("wp-content/plugins/vinoteca-core/includes/class-vinoteca-core.php"),
            Bash(
                "wp post update $(wp post list --post_type=page --name=checkout --field=ID) --post_content='[woocommerce_checkout]' && wp eval 'WC()->cart->empty_cart();' && curl -s https://staging.vinoteca.test/checkout/ | grep -c 'gift_wrap\\|age_check'",
                "Success: Updated post 8.\n2",
            ),
            A(
                "Staging checkout shows both the age check and the gift wrap checkbox now; ticking it adds a 4.50 EUR fee line."
            ),
        ],
    ),
    (
        "blind9-argocd-sync-loop",
        "claude",
        "blind9",
        [
            U(
                "argocd keeps showing the payments-api app as OutOfSync right after every sync, it's been flapping all weekend. cluster prod-eu. manifests in gitops/apps/payments-api"
            ),
            Bash(
                "argocd app diff payments-api 2>&1 | head -14",
                "===== apps/Deployment payments/payments-api ======\n84c84\n<   replicas: 3\n---\n>   replicas: 7\n",
            ),
            Bash(
                "kubectl -n payments get hpa payments-api",
                "NAME           REFERENCE                 TARGETS   MINPODS   MAXPODS   REPLICAS   AGE\npayments-api   Deployment/payments-api   71%/60%   3         12        7          41d",
            ),
            A(
                "The only diff is `replicas`. The Deployment manifest in git sets `replicas: 3`, but the HPA scales it to 7, so after every sync the live object differs from git again and Argo flags it. "
                "With self-heal on, Argo even scales it back to 3 and the HPA scales up again - that's the flapping. When an HPA owns a Deployment, `replicas` must not be set in the manifest. "
                "I'll add `ignoreDifferences` for `/spec/replicas` in the Application and set `RespectIgnoreDifferences=true`.",
                lesson=(RC, "When an HPA owns a Deployment, `replicas` must not be set"),
            ),
            U(
                "no, dont paper over it with ignoreDifferences. just delete replicas from the deployment yaml. ignoreDifferences hides real drift and the platform team reviews every one of those",
                lesson=(C, "dont paper over it with ignoreDifferences"),
            ),
            Edit("gitops/apps/payments-api/deployment.yaml"),
            Bash(
                "git commit -am 'payments-api: let HPA own replicas' -q && git push -q && argocd app sync payments-api >/dev/null && sleep 60 && argocd app get payments-api -o json | jq -r .status.sync.status",
                "Synced",
            ),
            A(
                "Removed `replicas` from the Deployment. After the sync the app stays Synced and the HPA keeps 7 replicas."
            ),
            U("thx. i'll check again tomorrow morning"),
        ],
    ),
    (
        "blind9-spring-boot-fintech-idempotency",
        "claude",
        "blind9",
        [
            U(
                "We've had two duplicate card top-ups this week because the mobile app retries POST /v1/topups on timeout. I want idempotency keys on that endpoint. "
                "Spring Boot 3.3, Postgres, and we have Redis in the cluster already (used for rate limiting). How would you do it?"
            ),
            A(
                "Proposal: the client sends an `Idempotency-Key` header; we store (key, request hash, response) in a Postgres table `idempotency_record` with a unique constraint on the key, "
                "inserted in the same transaction as the top-up. I'd store it in Postgres rather than Redis because then the key and the top-up commit or roll back together - "
                "with Redis there is a window where the top-up committed but the key write failed (or the other way), and we'd be back to duplicates. Keys expire after 24h via a cleanup job.",
                lesson=(D, "the key and the top-up commit or roll back together"),
            ),
            U(
                "Makes sense, Postgres. Go ahead. Please keep the cleanup job out for now, Dmitri will add it to the scheduler service."
            ),
            Edit("src/main/resources/db/migration/V57__idempotency_record.sql"),
            Edit("src/main/java/com/walletco/topups/IdempotencyFilter.java"),
            Edit("src/main/java/com/walletco/topups/TopupService.java"),
            Bash(
                "./mvnw -q test -Dtest='Topup*' 2>&1 | tail -5",
                "[INFO] Tests run: 14, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
            ),
            A(
                "Implemented and tests pass, including two concurrent requests with the same key (the second gets the stored 201 response).\n\n"
                "Note for the team: Flyway here runs with `outOfOrder=false`, and main is already at V57 on another branch (`feature/fx-limits` has a V57 too). "
                "Whichever merges second will fail on startup with a checksum/version conflict, so one of them has to be renumbered before merging.",
                lesson=(N, "Flyway here runs with `outOfOrder=false`"),
            ),
            U("ugh, right. I'll renumber ours to V58."),
            Bash(
                "git mv src/main/resources/db/migration/V57__idempotency_record.sql src/main/resources/db/migration/V58__idempotency_record.sql && git status --short | head -2",
                "R  src/main/resources/db/migration/V57__idempotency_record.sql -> src/main/resources/db/migration/V58__idempotency_record.sql",
            ),
        ],
    ),
    (
        "blind9-codex-airflow-backfill",
        "codex",
        "blind9",
        [
            U(
                "the warehouse_inventory DAG missed 3 days (mar 2-4) because the SFTP from the WMS vendor was down. can you backfill? dags/warehouse_inventory.py"
            ),
            A(
                "I'll clear and rerun them with `airflow dags backfill -s 2026-03-02 -e 2026-03-04 warehouse_inventory`."
            ),
            U(
                "no not backfill from the CLI, it runs outside the scheduler on whatever box you're on and bypasses our pools. clear the dag runs in the UI or with `airflow tasks clear` so the scheduler picks them up",
                lesson=(C, "not backfill from the CLI, it runs outside the scheduler"),
            ),
            Bash(
                "airflow tasks clear warehouse_inventory -s 2026-03-02 -e 2026-03-04 -y 2>&1 | tail -2",
                "<TaskInstance: warehouse_inventory.load_snowflake scheduled__2026-03-04T02:00:00+00:00 [failed]>\nCleared 12 task instance(s)",
            ),
            Bash(
                "sleep 300; airflow dags list-runs -d warehouse_inventory -s 2026-03-02 -e 2026-03-05 -o plain | head -5",
                "dag_id              | run_id                               | state   | execution_date\nwarehouse_inventory | scheduled__2026-03-04T02:00:00+00:00 | success | 2026-03-04T02:00:00+00:00\nwarehouse_inventory | scheduled__2026-03-03T02:00:00+00:00 | success | 2026-03-03T02:00:00+00:00\nwarehouse_inventory | scheduled__2026-03-02T02:00:00+00:00 | success | 2026-03-02T02:00:00+00:00",
            ),
            A(
                "All three runs are green again. The load task wrote 3 partitions into RAW.INVENTORY_SNAPSHOTS."
            ),
            U(
                "good. one more thing while you're here: the DAG should alert when the SFTP has no file instead of failing silently. and please, in this repo, alerts always go through the `notify_ops` callback in plugins/alerts.py, "
                "not direct Slack webhooks in DAG files - we rotated the webhook twice and had to grep 60 DAGs",
                lesson=(R, "alerts always go through the `notify_ops` callback"),
            ),
            Edit("dags/warehouse_inventory.py"),
            Bash(
                "python -m pytest tests/dags/test_warehouse_inventory.py -q 2>&1 | tail -1",
                "4 passed in 2.31s",
            ),
            A(
                "The SFTP sensor now has `on_failure_callback=notify_ops` and a 2h timeout, so a missing file sends an ops alert."
            ),
        ],
    ),
    (
        "blind9-gemini-unreal-conan-fmt",
        "gemini",
        "blind9",
        [
            U(
                "Hi, I want to add the `fmt` library via conan to our Unreal 5.4 project's native plugin (Plugins/TelemetryCore). We already use conan for zlib and protobuf there. Can you add fmt/10.2.1?"
            ),
            Read(
                "Plugins/TelemetryCore/conanfile.py",
                'class TelemetryCoreDeps(ConanFile):\n    settings = "os", "compiler", "build_type", "arch"\n    requires = "zlib/1.3.1", "protobuf/3.21.12"\n    default_options = {"*:shared": False}\n    generators = "UnrealDeps"\n',
            ),
            Edit("Plugins/TelemetryCore/conanfile.py"),
            Bash(
                "cd Plugins/TelemetryCore && conan install . -pr:h profiles/win64-ue54 -pr:b default --build=missing 2>&1 | tail -3",
                "fmt/10.2.1: Package 'c8b6b3a0f1f7d2a6f7a7b4d0f2fd9f0c5d5e0b31' built\nfmt/10.2.1: Created package revision 1a5f5c0b3e1c\nInstall finished successfully",
            ),
            Bash(
                '"C:/UE_5.4/Engine/Build/BatchFiles/Build.bat" RoverSimEditor Win64 Development -Project=RoverSim.uproject 2>&1 | tail -3',
                "[4/6] Compile [x64] Module.TelemetryCore.cpp\n[6/6] Link [x64] UnrealEditor-TelemetryCore.dll\nTotal execution time: 48.20 seconds",
            ),
            A(
                "fmt builds and links into TelemetryCore. One thing worth remembering about the profile: `profiles/win64-ue54` sets `compiler.runtime=dynamic` and `compiler.runtime_type=Release` even for Debug editor builds. "
                "That's on purpose - Unreal always links the release CRT, so any conan package built against the debug CRT would give LNK2038 mismatch errors. "
                "Don't build packages for the plugin with the `default` host profile.",
                lesson=(N, "Unreal always links the release CRT"),
            ),
            U("thanks, makes sense. I had that LNK2038 error last year and never knew why"),
        ],
    ),
    (
        "blind9-kotlin-android-room-migration",
        "claude",
        "blind9",
        [
            U(
                "the app crashes on start for beta testers who update from 3.8 to 3.9. crashlytics says something about room. I added a `notes` column to ParcelEntity in 3.9"
            ),
            Bash(
                "adb logcat -d | grep -A2 'IllegalStateException' | head -3",
                "E AndroidRuntime: java.lang.IllegalStateException: A migration from 11 to 12 was required but not found. Please provide the necessary Migration path via RoomDatabase.Builder.addMigration(Migration ...) or allow for destructive migrations via one of the RoomDatabase.Builder.fallbackToDestructiveMigration* methods.\nE AndroidRuntime: \tat androidx.room.RoomOpenHelper.onUpgrade(RoomOpenHelper.kt:117)",
                failed=True,
            ),
            A(
                "Adding the column bumped `@Database(version = 12)`, but there is no `Migration(11, 12)` registered and no auto-migration, so Room refuses to open an existing version 11 database on upgrade. "
                "Fresh installs work because they create the schema from scratch, which is why this only hits updating testers. "
                "Since `exportSchema = true` and `schemas/11.json` is checked in, I'll add `@AutoMigration(from = 11, to = 12)`.",
                lesson=(RC, "there is no `Migration(11, 12)` registered and no auto-migration"),
            ),
            Edit("app/src/main/java/de/paketflitzer/data/AppDatabase.kt"),
            Bash(
                "./gradlew :app:connectedDebugAndroidTest --tests '*MigrationTest*' 2>&1 | tail -3",
                "Pixel_7_API_34(AVD) - 14 Tests 3/3 completed. (0 skipped) (0 failed)\n\nBUILD SUCCESSFUL in 1m 52s",
            ),
            A(
                "Auto-migration 11→12 added; MigrationTest opens a version 11 database and migrates it. I'll push a 3.9.1 beta build?"
            ),
            U(
                "yes push 3.9.1 to the beta track. and listen - never again fallbackToDestructiveMigration in this app, people have unsynced scans in there. "
                "every schema change needs a migration plus a MigrationTest case, thats the rule from now",
                lesson=(R, "every schema change needs a migration plus a MigrationTest case"),
            ),
            Edit("app/src/androidTest/java/de/paketflitzer/data/MigrationTest.kt"),
            Bash(
                "./gradlew :app:bundleRelease :app:publishBundle --track beta 2>&1 | tail -2",
                "> Task :app:publishBundle\nBUILD SUCCESSFUL in 3m 40s",
            ),
            A(
                "3.9.1 is on the beta track. MigrationTest now has a case for 11→12 and a test that fails if a version has no migration."
            ),
        ],
    ),
    (
        "blind9-shopify-liquid-variant-picker",
        "claude",
        "blind9",
        [
            U(
                "Hey! The ceramics shop theme needs the variant picker to show swatches for glaze colors instead of the dropdown. Dawn-based theme, sections/main-product.liquid. "
                "Client wants it live before the Friday drop."
            ),
            Read(
                "snippets/product-variant-picker.liquid",
                "{%- for option in product.options_with_values -%}\n  {%- if block.settings.picker_type == 'button' -%}\n    ...\n  {%- else -%}\n    <select ...>\n",
            ),
            A(
                "Where the colors come from is the main question:\n"
                "- hard-coded hex values in the snippet, keyed by option value name\n"
                "- Shopify's category metafield `shopify.color-pattern` on the option values (swatches are native since 2024)\n\n"
                "I'd use the native swatches: the client's staff can set a color or an image per glaze in the admin without asking us, and new glazes don't need a theme deploy. "
                "The hard-coded map breaks every time they name a glaze differently.",
                lesson=(D, "the client's staff can set a color or an image per glaze"),
            ),
            U("yes, native swatches. they add new glazes every month so that's the right call"),
            Edit("snippets/product-variant-picker.liquid"),
            Edit("snippets/swatch-input.liquid"),
            Bash(
                "shopify theme check --fail-level error 2>&1 | tail -2",
                "\n129 files inspected with 0 offenses found.",
            ),
            Bash(
                "shopify theme push --unpublished --theme 'glaze-swatches-preview' 2>&1 | tail -2",
                "The theme 'glaze-swatches-preview' (#142318774310) was uploaded to kilnhaus.myshopify.com\nPreview: https://kilnhaus.myshopify.com?preview_theme_id=142318774310",
            ),
            A(
                "Preview theme uploaded. The glaze option renders as swatches; glazes without a swatch set fall back to a text pill."
            ),
            U("lovely, sending the preview link to the client"),
        ],
    ),
    # --- small talk ---
    (
        "blind9-smalltalk-marathon",
        "claude",
        "blind9",
        [
            U(
                "morning! not much coding today, my brain is fried. ran my first half marathon yesterday"
            ),
            A("Congratulations! How did it go?"),
            U(
                "2:04, so just over the goal. the problem is I always start too fast, the first 5k were way under pace. my coach says never look at the watch in the first km, go by breathing"
            ),
            A(
                "That's a very common one - adrenaline at the start makes a fast pace feel easy. Going by breathing is a good approach; some people also pick a runner at their target pace and stay behind them for the first few kilometres."
            ),
            U("yeah. I prefer running alone though. next one is in october, Porto"),
            A(
                "Porto in October sounds lovely, and it's a flat course along the river for much of it. Good luck with the training!"
            ),
        ],
    ),
    (
        "blind9-codex-smalltalk-coffee",
        "codex",
        "blind9",
        [
            U("before we start - the office espresso machine died again lol. third time this year"),
            A("That's rough. Is it the same fault each time?"),
            U(
                "the grinder I think. we use a cheap one from a supermarket and the team drinks like 80 cups a day. I always said we should get a proper one but finance says no"
            ),
            A(
                "At 80 cups a day a home machine is running well beyond what it's built for. A small commercial machine, or even leasing one with service included, often ends up cheaper than replacing a consumer model every few months."
            ),
            U(
                "leasing, good idea, I'll mention that. anyway, I don't have a task yet, waiting for the PM. talk later"
            ),
            A("Sure, see you later."),
        ],
    ),
    (
        "blind9-gemini-smalltalk-german",
        "gemini",
        "blind9",
        [
            U(
                "Hello, I am learning German for my move to Hamburg next spring. My colleague told me never use 'Sie' with colleagues in a startup, is that true?"
            ),
            A(
                "In many German startups people do use 'du' with each other from the first day, including with managers. In more traditional companies, public offices or with older people you don't know, 'Sie' is still the safe default. "
                "A good rule is to start with 'Sie' and switch when the other person offers 'du'."
            ),
            U("Ok. And the articles der/die/das, I always get them wrong. Is there a trick?"),
            A(
                "There are some patterns: nouns ending in -ung, -heit, -keit are feminine (die), -chen and -lein are neuter (das), and many ending in -er that describe people are masculine (der). "
                "But most learners simply learn every noun together with its article."
            ),
            U(
                "Thank you, very helpful. I prefer to learn with flashcards, I will add the article to each card."
            ),
        ],
    ),
    # --- routine ---
    (
        "blind9-routine-express-pagination",
        "claude",
        "blind9",
        [
            U(
                "add pagination to GET /api/routes in the dispatch service, default 50 per page, max 200. src/routes/routes.controller.js"
            ),
            Read(
                "src/routes/routes.controller.js",
                "router.get('/', async (req, res) => {\n  const routes = await db('routes').orderBy('created_at', 'desc');\n  res.json(routes);\n});",
            ),
            Edit("src/routes/routes.controller.js"),
            Edit("test/routes.test.js"),
            Bash(
                "npx jest test/routes.test.js 2>&1 | tail -4",
                "PASS  test/routes.test.js\n  Tests:       8 passed, 8 total\n  Snapshots:   0 total\n  Time:        1.92 s",
            ),
            A(
                "GET /api/routes now takes `page` and `per_page` (default 50, capped at 200) and returns `{ data, page, per_page, total }`. Tests cover the default, the cap and an out-of-range page."
            ),
            U("thanks"),
        ],
    ),
    (
        "blind9-codex-routine-rename-env",
        "codex",
        "blind9",
        [
            U(
                "rename the env var MAILER_HOST to SMTP_HOST everywhere in the repo, including the docker compose and the helm values"
            ),
            Bash(
                "grep -rln MAILER_HOST --exclude-dir=node_modules .",
                "./docker-compose.yml\n./src/config/mail.ts\n./charts/notify/values.yaml\n./charts/notify/templates/deployment.yaml\n./.env.example",
            ),
            Bash(
                "grep -rl MAILER_HOST --exclude-dir=node_modules . | xargs sed -i 's/MAILER_HOST/SMTP_HOST/g' && grep -rc MAILER_HOST --exclude-dir=node_modules . | grep -v ':0' | wc -l",
                "0",
            ),
            Bash(
                "npx tsc --noEmit && helm template charts/notify | grep -A1 SMTP_HOST",
                '        - name: SMTP_HOST\n          value: "smtp.internal"',
            ),
            A(
                "Renamed in 5 files. TypeScript compiles and the rendered Helm chart uses SMTP_HOST."
            ),
            U("ok commit it"),
            Bash(
                "git commit -am 'Rename MAILER_HOST to SMTP_HOST' -q && git log --oneline -1",
                "e71c0b4 Rename MAILER_HOST to SMTP_HOST",
            ),
        ],
    ),
    (
        "blind9-gemini-routine-astro-footer",
        "gemini",
        "blind9",
        [
            U(
                "On the agency's own Astro site, please update the footer: new office address is Kastanienallee 12, 10435 Berlin, and add a link to the Mastodon account https://mastodon.social/@pixelhof"
            ),
            Read(
                "src/components/Footer.astro",
                '<footer class="site-footer">\n  <address>Torstraße 88<br/>10119 Berlin</address>\n  <ul class="social">\n    <li><a href="https://github.com/pixelhof">GitHub</a></li>\n  </ul>\n</footer>',
            ),
            Edit("src/components/Footer.astro"),
            Bash(
                "npm run build 2>&1 | tail -3",
                "12:14:03 [build] 23 page(s) built in 3.41s\n12:14:03 [build] Complete!",
            ),
            A(
                'Footer updated with the Kastanienallee address and a Mastodon link (with `rel="me"` so the profile can verify the site). The build is fine.'
            ),
            U("great, thanks!"),
        ],
    ),
]
