# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind10" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND10: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind10-gradle-policy-pdf",
        "claude",
        "blind10",
        [
            U(
                "hi, the policy-docs service (java 17, gradle) has to render the new motor renewal letter. template is in src/main/resources/templates/renewal_motor.ftl, just wire it into RenewalLetterService like the home one"
            ),
            Read(
                "src/main/java/com/northmere/policydocs/RenewalLetterService.java",
                'public byte[] renderHome(Policy p) {\n    var model = Map.of("policy", p, "premium", money.format(p.premium()));\n    return pdf.render("renewal_home.ftl", model);\n}\n',
            ),
            Edit("src/main/java/com/northmere/policydocs/RenewalLetterService.java"),
            Bash(
                "./gradlew test --tests '*RenewalLetterServiceTest*'",
                '> Task :test FAILED\n\nRenewalLetterServiceTest > rendersMotorLetter() FAILED\n    freemarker.core.InvalidReferenceException: The following has evaluated to null or missing:\n    ==> policy.vehicle.registration  [in template "renewal_motor.ftl" at line 14, column 23]\n\n3 tests completed, 1 failed',
                failed=True,
            ),
            A(
                'The template reads `policy.vehicle.registration`, but the test fixture builds a Policy without a vehicle. I\'ll add `?? ""` defaults in the template so missing vehicle data renders blank instead of throwing.'
            ),
            U(
                "no please dont touch the templates, those are owned by the comms team and they sign them off with legal. fix the fixture instead, a motor policy without a vehicle is not a valid policy anyway",
                lesson=(C, "dont touch the templates, those are owned by the comms team"),
            ),
            A("Understood, leaving the template alone and fixing the fixture."),
            Edit("src/test/java/com/northmere/policydocs/fixtures/Policies.java"),
            Bash(
                "./gradlew test --tests '*RenewalLetterServiceTest*'",
                "> Task :test\n\nBUILD SUCCESSFUL in 14s\n5 actionable tasks: 2 executed, 3 up-to-date",
            ),
            A(
                "All three tests pass; `Policies.motor()` now includes a vehicle with a registration. "
                "For later: PdfConfig sets the FreeMarker template_exception_handler to RETHROW and no classic_compatible mode, so any missing value throws instead of rendering blank. New letter types will need complete fixtures too.",
                lesson=(N, "any missing value throws instead of rendering blank"),
            ),
        ],
    ),
    (
        "blind10-godot-save-path",
        "claude",
        "blind10",
        [
            U(
                "players on android are losing their save after the update. godot 4.2, we save in scripts/save_manager.gd. on desktop everything fine"
            ),
            Read(
                "scripts/save_manager.gd",
                'const SAVE_PATH := "res://saves/slot1.save"\n\nfunc save_game(data: Dictionary) -> void:\n\tvar f := FileAccess.open(SAVE_PATH, FileAccess.WRITE)\n\tf.store_var(data)\n',
            ),
            Bash(
                "adb logcat -d | grep -i godot | tail -3",
                "E/godot   : ERROR: Condition \"f.is_null()\" is true.\nE/godot   :    at: save_game (res://scripts/save_manager.gd:5)\nE/godot   : ERROR: Can't open file from path 'res://saves/slot1.save'.",
            ),
            A(
                "The save goes to `res://`, which is the packed game data. In the editor and on desktop debug builds res:// points at the project folder, so writing works there, but in an exported build res:// is read-only inside the .pck/APK. "
                "Saves have to go to `user://`, which maps to the app's private storage on Android. I'll switch SAVE_PATH to user://saves and create the folder on first run.",
                lesson=(RC, "in an exported build res:// is read-only"),
            ),
            Edit("scripts/save_manager.gd"),
            Bash(
                "godot --headless --export-debug Android build/android/merge.apk && adb install -r build/android/merge.apk && adb logcat -d | grep -i 'save' | tail -2",
                "Performing Streamed Install\nSuccess\nI/godot   : SaveManager: wrote user://saves/slot1.save (2314 bytes)",
            ),
            A(
                "Saves write on the device now. One caveat: players who already lost their save won't get it back, since the old writes never succeeded."
            ),
            U("ok thats fine, nobody had progress stored anyway since it never worked lol. thx"),
            A(
                "Since nobody has a save yet, this is a cheap moment to add a `version` key to the save dictionary. When we add the new world map in the next update, the loader can then tell old saves apart and migrate them instead of crashing on missing keys. Want me to add it?",
                lesson=(D, "add a `version` key to the save dictionary"),
            ),
            U("yes do it, start at 1"),
            Edit("scripts/save_manager.gd"),
        ],
    ),
    (
        "blind10-smalltalk-sourdough",
        "claude",
        "blind10",
        [
            U(
                "before we start anything, random question. do you know why my sourdough keeps coming out flat? my wife says the problem is the kitchen is too cold"
            ),
            A(
                "She may well be right. A cold kitchen slows the yeast and bacteria down a lot, so a bulk ferment that takes 5 hours at 24°C can need 8 or more at 18°C. "
                "If you follow the recipe's times rather than watching the dough, it goes in the oven underproofed and spreads instead of rising. Look for roughly a 50% rise and a domed, slightly jiggly surface."
            ),
            U("huh. i always go by the clock yeah. we never heat the kitchen in winter"),
            A(
                "Then try the oven with just the light on, it usually sits around 26-28°C. Or put the bowl near (not on) a radiator."
            ),
            U(
                "will try the oven light thing this weekend. i prefer not to buy a proofing box for one hobby lol"
            ),
            A("Makes sense, the oven light works fine for most people. Good luck with the bake."),
        ],
    ),
    (
        "blind10-codex-sas-macro",
        "codex",
        "blind10",
        [
            U(
                "Good morning. In the claims analytics repo there is macro %load_claims in macros/load_claims.sas. Since yesterday the nightly job fails on the new quarter. Can you look please? Log is in logs/nightly_20260302.log"
            ),
            Bash(
                "grep -n -B2 -A3 'ERROR' logs/nightly_20260302.log | head -20",
                "412-MPRINT(LOAD_CLAIMS):   data work.claims_q1;\n413-MPRINT(LOAD_CLAIMS):   set claims.claims_2026q1;\n414:ERROR: File CLAIMS.CLAIMS_2026Q1.DATA does not exist.\n415-NOTE: The SAS System stopped processing this step because of errors.",
            ),
            Bash(
                "ls /sasdata/claims/ | grep -i 2026",
                "claims_2026_q1.sas7bdat",
            ),
            A(
                "The data team named the new file `claims_2026_q1` (with an underscore before q1), while the macro builds `claims_&year.q&qtr`. Earlier years used `claims_2025q4` style. I can make the macro try both names."
            ),
            U(
                "No, not both. We have a naming standard, it is the data team who made the mistake. I will ask them to rename. But please add a check in the macro that stops with a clear message when the dataset is missing, the current error is confusing for the night operator.",
                lesson=(C, "not both. We have a naming standard"),
            ),
            Edit("macros/load_claims.sas"),
            Bash(
                "sas -sysin tests/test_load_claims.sas -log /tmp/t.log; grep -E 'ERROR|load_claims:' /tmp/t.log",
                "ERROR: load_claims: dataset CLAIMS.CLAIMS_2099Q1 not found. Ask the data team to publish it under claims_<yyyy>q<q>.",
            ),
            A(
                "Added a `%sysfunc(exist(...))` check at the top of the macro; when the dataset is missing it writes that ERROR line and calls `%abort cancel;` so the job stops right there."
            ),
        ],
    ),
    (
        "blind10-gemini-elm-decoder-field",
        "gemini",
        "blind10",
        [
            U(
                "elm frontend for the lesson planner: the teacher dashboard shows 'Problem loading classes' since the api deploy this morning"
            ),
            Bash(
                "curl -s https://api-staging.district42.org/v2/classes?teacher=1043 | head -c 300",
                '[{"id":881,"name":"Algebra I - P3","room":"B-114","studentCount":27,"term":{"code":"S26","label":"Spring 2026"}}',
            ),
            Read(
                "src/Api/Classes.elm",
                'classDecoder : Decoder Class\nclassDecoder =\n    Decode.map4 Class\n        (field "id" int)\n        (field "name" string)\n        (field "room" string)\n        (field "term" string)\n',
            ),
            A(
                "The API now sends `term` as an object (`{code, label}`) instead of a plain string. Elm decoders are strict: one field with the wrong shape fails the whole list, which is why the dashboard shows the generic error instead of just a blank term. "
                'I\'ll decode `term` with `at ["term", "label"] string`.',
                lesson=(RC, "one field with the wrong shape fails the whole list"),
            ),
            Edit("src/Api/Classes.elm"),
            Bash(
                "elm make src/Main.elm --output=/dev/null && npx elm-test tests/Api/ClassesTest.elm",
                "Success! Compiled 48 modules.\n\nelm-test 0.19.1-revision12\n--------------------------\n\nTEST RUN PASSED\n\nPassed:   6\nFailed:   0",
            ),
            U(
                "ok good. btw the api team changes stuff without telling us all the time, from now on every decoder change needs a test in tests/Api with a real json sample copied from staging",
                lesson=(R, "every decoder change needs a test in tests/Api"),
            ),
            A(
                "Added `tests/Api/ClassesTest.elm` case `decodes term object` with the staging payload above; I'll do the same for future decoder changes."
            ),
        ],
    ),
    (
        "blind10-routine-bevy-jump",
        "claude",
        "blind10",
        [
            U(
                "can you make the jump height in the bevy prototype 20% higher, it feels floaty-low right now. constants are in src/player.rs"
            ),
            Read(
                "src/player.rs",
                "pub const JUMP_VELOCITY: f32 = 9.5;\npub const GRAVITY: f32 = -28.0;\npub const MAX_FALL_SPEED: f32 = -40.0;\n",
            ),
            A(
                "Jump height scales with the square of the launch velocity, so for 20% higher I'll raise JUMP_VELOCITY by about 9.5% (sqrt(1.2) ≈ 1.095), to 10.4."
            ),
            Edit("src/player.rs"),
            Bash(
                "cargo test --lib player 2>&1 | tail -4",
                "running 3 tests\ntest player::tests::jump_apex_reached ... ok\ntest player::tests::no_double_jump ... ok\ntest player::tests::fall_speed_clamped ... ok\n\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
            ),
            A("Done, JUMP_VELOCITY is 10.4 now and the player tests pass. `cargo run` to try it."),
            U("feels right. ty"),
        ],
    ),
    (
        "blind10-kmp-ktor-engine",
        "claude",
        "blind10",
        [
            U(
                "we need to pick the ktor http engine for the shared module in the game companion app (kmp, android + ios). right now commonMain has ktor-client-cio. what do u think"
            ),
            Read(
                "shared/build.gradle.kts",
                'commonMain.dependencies {\n    implementation("io.ktor:ktor-client-core:2.3.12")\n    implementation("io.ktor:ktor-client-cio:2.3.12")\n}\n',
            ),
            A(
                "I'd put a platform engine in each source set instead of CIO in common: OkHttp in androidMain and Darwin in iosMain. "
                "Reason: CIO on iOS doesn't support HTTP/2 and doesn't use the system proxy/certificate settings, and our CDN asset downloads are HTTP/2; Darwin uses NSURLSession, so it honours the device's network config and ATS. "
                "HttpClient() without an engine argument then picks the one on the classpath for each platform.",
                lesson=(D, "OkHttp in androidMain and Darwin in iosMain"),
            ),
            U("yep makes sense, do it"),
            Edit("shared/build.gradle.kts"),
            Bash(
                "./gradlew :shared:allTests 2>&1 | tail -3",
                "> Task :shared:allTests\n\nBUILD SUCCESSFUL in 1m 12s\n38 actionable tasks: 19 executed, 19 up-to-date",
            ),
            A(
                "Switched: core in commonMain, ktor-client-okhttp in androidMain, ktor-client-darwin in iosMain. Tests pass on both targets."
            ),
            U("cool. also could you bump the app version to 1.8.0 while you're in there"),
            Edit("androidApp/build.gradle.kts"),
            A("versionName is 1.8.0 and versionCode 80 now."),
            U(
                "revert the versionCode pls, only versionName is ours. versionCode is set by bitrise from the build number, if it's hardcoded the play upload gets rejected",
                lesson=(C, "versionCode is set by bitrise from the build number"),
            ),
            Edit("androidApp/build.gradle.kts"),
            A("Reverted versionCode, versionName stays 1.8.0."),
        ],
    ),
    (
        "blind10-gemini-supabase-rls",
        "gemini",
        "blind10",
        [
            U(
                "Hi! We are a small translation agency, our client portal uses Supabase. A client just wrote us that they could see another client's file names in the upload list. This is urgent. Table is public.documents."
            ),
            Bash(
                "supabase db dump --schema public --data-only=false | grep -A6 'documents'",
                'CREATE TABLE public.documents (\n    id uuid DEFAULT gen_random_uuid() NOT NULL,\n    client_id uuid NOT NULL,\n    file_name text NOT NULL,\n    storage_path text NOT NULL\n);\nCREATE POLICY "clients read own docs" ON public.documents FOR SELECT USING ((client_id = auth.uid()));',
            ),
            Bash(
                'psql "$SUPABASE_DB_URL" -c "select relname, relrowsecurity from pg_class where relname=\'documents\';"',
                " relname   | relrowsecurity \n-----------+----------------\n documents | f\n(1 row)",
            ),
            A(
                "Found it. The policy exists, but row level security is not enabled on the table (`relrowsecurity = f`). In Postgres a policy does nothing until you run `ALTER TABLE ... ENABLE ROW LEVEL SECURITY`, so every logged-in client could select every row. "
                "The table was probably recreated in the migration from last week, and enabling RLS is a separate statement that was not in it. I'll add a migration that enables it.",
                lesson=(RC, "a policy does nothing until you run `ALTER TABLE"),
            ),
            Edit("supabase/migrations/20260305091200_enable_rls_documents.sql"),
            Bash(
                'supabase db push && psql "$SUPABASE_DB_URL" -c "select relname, relrowsecurity from pg_class where relname=\'documents\';"',
                "Applying migration 20260305091200_enable_rls_documents.sql...\nFinished supabase db push.\n relname   | relrowsecurity \n-----------+----------------\n documents | t\n(1 row)",
            ),
            A("RLS is on now. I tested with two client accounts: each only sees its own rows."),
            U(
                "Thank you!! From now on every new table in the public schema must have RLS enabled in the same migration that creates it, no exceptions. Please remember this.",
                lesson=(R, "every new table in the public schema must have RLS enabled"),
            ),
            A("Understood. I also checked the other public tables: all seven have RLS enabled."),
        ],
    ),
    (
        "blind10-codex-routine-stata-labels",
        "codex",
        "blind10",
        [
            U(
                "can you add value labels for the region variable in do/02_clean.do? 1=Sahel 2=Coastal 3=Highlands 4=Urban"
            ),
            Read(
                "do/02_clean.do",
                'use "data/raw/household_2025.dta", clear\nrename q3_region region\ndestring region, replace\n* TODO labels\nsave "data/clean/household_2025.dta", replace\n',
            ),
            Edit("do/02_clean.do"),
            Bash(
                "stata-mp -b do do/02_clean.do && tail -6 02_clean.log",
                '. label define region_lbl 1 "Sahel" 2 "Coastal" 3 "Highlands" 4 "Urban"\n\n. label values region region_lbl\n\n. save "data/clean/household_2025.dta", replace\nfile data/clean/household_2025.dta saved',
            ),
            A(
                "Labels are defined and attached to `region`; the clean file was re-saved. `tab region` now shows the names."
            ),
            U("great thanks"),
        ],
    ),
    (
        "blind10-apex-trigger-bulk",
        "claude",
        "blind10",
        [
            U(
                "salesforce thing. when the ops team imports seller accounts with data loader (like 2000 rows) the AccountTrigger blows up. single edits in the UI work fine"
            ),
            Read(
                "force-app/main/default/classes/AccountTriggerHandler.cls",
                "public static void afterInsert(List<Account> accts) {\n    for (Account a : accts) {\n        Seller_Profile__c p = [SELECT Id FROM Seller_Profile__c WHERE Account__c = :a.Id LIMIT 1];\n        insert new Onboarding_Task__c(Account__c = a.Id, Profile__c = p.Id);\n    }\n}\n",
            ),
            Bash(
                "sf apex run test --tests AccountTriggerHandlerTest --result-format human --wait 10 | tail -6",
                "Test Failure\nAccountTriggerHandlerTest.bulkInsert200  System.LimitException: Too many SOQL queries: 101\nClass.AccountTriggerHandler.afterInsert: line 3, column 1\n\nOutcome      Failed\nTests Ran    4\nPass Rate    75%",
            ),
            A(
                "The handler runs a SOQL query and a DML insert inside the loop. Data Loader sends records in batches of 200, and the governor limit is 100 SOQL queries per transaction, so batch 1 dies at record 101. "
                "In the UI it's one record, one query, which is why it never showed up. I'll query all profiles once into a Map keyed by Account__c and insert the tasks as one list after the loop.",
                lesson=(RC, "Data Loader sends records in batches of 200"),
            ),
            Edit("force-app/main/default/classes/AccountTriggerHandler.cls"),
            Bash(
                "sf project deploy start --source-dir force-app --target-org marketplace-uat --test-level RunSpecifiedTests --tests AccountTriggerHandlerTest | tail -4",
                "Deploying v60.0 metadata to ops@marketplace.uat using the v60.0 SOAP API.\nStatus: Succeeded\nTest Results\nPassing: 4\nFailing: 0",
            ),
            A("Deployed to UAT, the bulk test with 200 records passes now."),
            U("cool, can ops retry the import on uat today?"),
            A(
                "Yes, it's live in UAT. Prod needs a change set through your normal release, I haven't touched prod."
            ),
        ],
    ),
    (
        "blind10-gemini-smalltalk-football",
        "gemini",
        "blind10",
        [
            U("are you following the champions league at all? my office is split in two camps lol"),
            A(
                "I don't watch matches, but I can talk about it. Which teams are the two camps behind?"
            ),
            U(
                "half are madrid fans and half are city. i never liked either to be honest, i prefer watching the smaller clubs, more drama"
            ),
            A(
                "That's a fair position. Smaller clubs in a knockout round tend to bring the most open games since they have nothing to lose."
            ),
            U("exactly. we always do a sweepstake, i drew Benfica this year haha"),
            A(
                "Benfica is a decent draw, they've surprised bigger sides before. Good luck with the sweepstake."
            ),
        ],
    ),
    (
        "blind10-arduino-sensor-units",
        "claude",
        "blind10",
        [
            U(
                "Hey, our soil-moisture board (Arduino Nano 33 IoT) reports battery voltage as 0.0 since I moved the sensor read to a separate function in firmware/src/sensors.cpp. Can you look? We're shipping 40 units to the pilot farms next week so it's a bit pressing."
            ),
            Read(
                "firmware/src/sensors.cpp",
                "float readBattery() {\n  int raw = analogRead(A7);\n  return raw * (3.3 / 1023) * 2;\n}\n",
            ),
            Read(
                "firmware/src/main.cpp",
                "void setup() {\n  Serial.begin(115200);\n  analogReadResolution(12);\n  initSensors();\n}\n...\nint batt = readBattery();\npayload.battery_mv = batt;\n",
            ),
            A(
                "`main.cpp` stores the float from `readBattery()` into `int batt`, so 3.9 V gets truncated to 3, and the payload field is called battery_mv anyway. "
                "The formula also divides by 1023 while setup() switched to 12-bit reads, so it should be 4095. I'll have readBattery return millivolts as an int and fix the divisor.",
            ),
            U(
                "the 4095 part is right but please keep everything in volts as float in the firmware, the backend converts to mV. we had a whole mess last year with mixed units in the firmware so the rule is firmware only ever deals in SI units",
                lesson=(C, "keep everything in volts as float in the firmware"),
            ),
            A(
                "Got it: readBattery stays a float in volts, the int truncation goes away, and the conversion to mV stays on the backend side."
            ),
            Edit("firmware/src/sensors.cpp"),
            Edit("firmware/src/main.cpp"),
            Bash(
                "pio run -e nano33iot -t upload && pio device monitor -b 115200 --quiet | head -3",
                "========================= [SUCCESS] Took 9.84 seconds =========================\nmoisture=0.412 temp=18.6 battery=3.94\nmoisture=0.411 temp=18.6 battery=3.94",
            ),
            A(
                "Battery reads 3.94 V on the bench board, which matches the multimeter reading you noted in the README."
            ),
        ],
    ),
    (
        "blind10-codex-clojure-deps",
        "codex",
        "blind10",
        [
            U(
                "clojure service pricing-engine. `clj -M:test` dies right away after i pulled main. what happened"
            ),
            Bash(
                "clj -M:test 2>&1 | head -6",
                "Error building classpath. Could not find artifact com.marketplace:money-utils:jar:0.9.3 in central (https://repo1.maven.org/maven2/)",
                failed=True,
            ),
            Read(
                "deps.edn",
                '{:deps {org.clojure/clojure {:mvn/version "1.11.1"}\n        com.marketplace/money-utils {:mvn/version "0.9.3"}}\n :mvn/repos {"clojars" {:url "https://repo.clojars.org/"}}}\n',
            ),
            A(
                "money-utils is our internal library, it was never on Maven Central or Clojars. Someone removed the `internal` entry from `:mvn/repos` in deps.edn yesterday, so the CLI only looks in central and clojars. "
                "I can add it back pointing at the Nexus URL."
            ),
            U(
                "hm no dont put the nexus url in deps.edn, thats why it was removed, the URL has the token in it. it belongs in ~/.clojure/deps.edn on each machine / in CI secrets. just check if mine is set up",
                lesson=(C, "dont put the nexus url in deps.edn"),
            ),
            Bash(
                "cat ~/.clojure/deps.edn 2>/dev/null || echo 'no user deps.edn'",
                "no user deps.edn",
            ),
            A(
                "You don't have a user-level deps.edn. I've created ~/.clojure/deps.edn with the internal repo entry and left the token as ${NEXUS_TOKEN} from your env; can you export it?"
            ),
            U("done, exported"),
            Bash(
                "clj -M:test 2>&1 | tail -3",
                "Ran 112 tests containing 340 assertions.\n0 failures, 0 errors.",
            ),
            A(
                "Tests run and pass. Heads-up: clj caches the resolved classpath in .cpcache and only recomputes it when a deps.edn file changes, "
                "so when the Nexus token rotates and only the env var changes you'll need one `clj -Sforce -M:test` to pick it up.",
                lesson=(N, "clj caches the resolved classpath in .cpcache"),
            ),
        ],
    ),
    (
        "blind10-gemini-routine-lua-keymap",
        "gemini",
        "blind10",
        [
            U(
                "add a keymap <leader>tt that toggles the terminal in my neovim plugin, lua/quickterm/init.lua has a toggle() function already"
            ),
            Read(
                "lua/quickterm/init.lua",
                "local M = {}\n\nfunction M.toggle()\n  -- opens or hides the floating term\nend\n\nfunction M.setup(opts)\n  M.opts = vim.tbl_deep_extend('force', defaults, opts or {})\nend\n\nreturn M\n",
            ),
            A(
                "I'll register the mapping in setup() so users can pass `keymap = false` to opt out, defaulting to <leader>tt."
            ),
            Edit("lua/quickterm/init.lua"),
            Bash(
                'nvim --headless -c \'lua require("quickterm").setup()\' -c \'lua print(vim.fn.maparg("<leader>tt", "n") ~= "")\' -c \'qa\' 2>&1',
                "true",
            ),
            A(
                "Mapping is registered in normal mode after setup(). README updated with the new `keymap` option."
            ),
        ],
    ),
    (
        "blind10-climate-netcdf-chunks",
        "claude",
        "blind10",
        [
            U(
                "so I'm running the regridding step of our CMIP6 downscaling pipeline (python, xarray + dask on the institute's slurm cluster) and it's been crawling, the EC-Earth3 tas files take 6h for what used to be 40 min. Nothing changed in the code as far as I know, but we did move to the new scratch filesystem last week. Script is pipeline/regrid.py"
            ),
            Read(
                "pipeline/regrid.py",
                'ds = xr.open_mfdataset(files, combine="by_coords", chunks={"time": 1})\nout = regridder(ds["tas"])\nout.to_netcdf(dest)\n',
            ),
            Bash(
                "ncdump -hs /scratch2/cmip6/EC-Earth3/tas_day_EC-Earth3_ssp245_r1i1p1f1_gr_20150101-20151231.nc | grep -E '_ChunkSizes|_Storage'",
                '\t\ttas:_Storage = "chunked" ;\n\t\ttas:_ChunkSizes = 365, 16, 32 ;',
            ),
            A(
                "The files on the new scratch are chunked as (365, 16, 32), i.e. a full year of time per chunk but small spatial tiles. The script asks dask for `time: 1`, so every one-day dask chunk has to decompress the whole 365-day HDF5 chunk, "
                "which means each file is read and decompressed ~365 times. The copies on the old filesystem were probably rechunked by the transfer tool. I'll set the dask chunks to match the file layout (`time: 365`) and let the regridder work on full years.",
                lesson=(RC, "every one-day dask chunk has to decompress the whole"),
            ),
            Edit("pipeline/regrid.py"),
            Bash(
                "sbatch --wait jobs/regrid_test.slurm && tail -2 logs/regrid_test.out",
                "Submitted batch job 4418201\n[regrid] EC-Earth3 tas ssp245 2015: done in 00:03:12\n[regrid] peak memory 11.4 GiB",
            ),
            A(
                "One year took 3 minutes, so the full run should be back to around 40 min. Peak memory went up to 11.4 GiB per worker, still under the 16 GiB slurm limit in the job script."
            ),
            U(
                "brilliant, thanks. I'll tell Henrik about the chunking since he's doing the CNRM models next"
            ),
        ],
    ),
    (
        "blind10-codex-smalltalk-commute",
        "codex",
        "blind10",
        [
            U(
                "ugh the train was 40 min late again today. do u ever think about how much of life is waiting"
            ),
            A(
                "A lot of it, apparently. Surveys put the average commuter at several days a year just standing on platforms. Did you at least get a seat once it came?"
            ),
            U("no lol. i always end up standing next to the door. i never learn"),
            A("The door spot has its advantages, at least you get off first."),
            U(
                "true. my colleague says the problem is I take the 8:10 and everyone takes the 8:10. i prefer sleeping though"
            ),
            A("Sleep over a seat is a reasonable trade. Hope the ride home is smoother."),
        ],
    ),
    (
        "blind10-gemini-abap-select",
        "gemini",
        "blind10",
        [
            U(
                "Hello, in our SAP system the report ZMM_STOCK_AGING is very slow since the material table grew. I attached the code in src/zmm_stock_aging.prog.abap (we use abapGit). Can you suggest improvement?"
            ),
            Read(
                "src/zmm_stock_aging.prog.abap",
                "SELECT * FROM mard INTO TABLE @DATA(lt_mard) WHERE werks = @p_werks.\nLOOP AT lt_mard INTO DATA(ls_mard).\n  SELECT SINGLE maktx FROM makt INTO @DATA(lv_maktx)\n    WHERE matnr = @ls_mard-matnr AND spras = @sy-langu.\n  ...\nENDLOOP.\n",
            ),
            A(
                "The main cost is the SELECT SINGLE on MAKT inside the loop, one database round trip per stock row. Two options:\n"
                "- JOIN MAKT in the first SELECT (one query, simplest), or\n"
                "- FOR ALL ENTRIES on MAKT after reading MARD.\n"
                "I recommend the JOIN with a LEFT OUTER JOIN on MAKT, because materials without a text in the logon language would disappear with an inner join and with FOR ALL ENTRIES you must remember the empty-table check. I'd also select only the needed columns instead of `*`.",
                lesson=(D, "I recommend the JOIN with a LEFT OUTER JOIN on MAKT"),
            ),
            U("Yes, use left outer join. Our ABAP is on 7.52 so new syntax is fine."),
            Edit("src/zmm_stock_aging.prog.abap"),
            A(
                "Rewritten as one `SELECT ... FROM mard LEFT OUTER JOIN makt ON makt~matnr = mard~matnr AND makt~spras = @sy-langu` with a field list. I can't run it from here; please activate it in SE38 and compare the runtime with ST05 on plant 1000."
            ),
            U("Activated in DEV. Before 4 minutes, now 11 seconds. Very good."),
            A(
                "Good. Note for next time: abapGit serialises the program as `.prog.abap` plus a `.prog.xml` with the text elements. I only changed the .abap file, so when you pull in DEV the selection texts stay as they were.",
                lesson=(N, "abapGit serialises the program as `.prog.abap` plus a `.prog.xml`"),
            ),
        ],
    ),
    (
        "blind10-rabbitmq-prefetch",
        "claude",
        "blind10",
        [
            U(
                "order-events consumer (scala, akka + alpakka amqp) falls behind every evening around 19h when sales peak. rabbit shows 80k ready messages in orders.placed. config in src/main/resources/application.conf"
            ),
            Read(
                "src/main/resources/application.conf",
                'orders-consumer {\n  queue = "orders.placed"\n  prefetch = 1\n  parallelism = 1\n}\n',
            ),
            Bash(
                "rabbitmqctl list_queues name messages_ready messages_unacknowledged consumers | grep orders",
                "orders.placed\t81244\t1\t3",
            ),
            A(
                "Each of the 3 consumers has prefetch 1 and parallelism 1, so at most 3 messages are in flight across the whole service, and every message waits for a round trip to the broker before the next is delivered. "
                "I'd set prefetch to 50 and parallelism to 8 in the mapAsync stage. Ordering per order id is kept because the stream already groups by orderId before the handler, so parallelism only runs different orders at once.",
                lesson=(D, "I'd set prefetch to 50 and parallelism to 8"),
            ),
            U("ok go with 50/8. we did have ordering bugs before so good you checked that"),
            Edit("src/main/resources/application.conf"),
            Bash(
                "sbt 'testOnly *OrdersConsumerSpec' 2>&1 | tail -3",
                "[info] Tests: succeeded 9, failed 0, canceled 0, ignored 0, pending 0\n[info] All tests passed.\n[success] Total time: 38 s, completed 6 Mar 2026, 14:02:11",
            ),
            U(
                "dont deploy it today, Priya is doing a release tonight and wants a quiet queue. just push the branch"
            ),
            Bash(
                "git push -u origin perf/orders-prefetch",
                "remote: \nremote: Create a pull request for 'perf/orders-prefetch' on GitHub by visiting:\nremote:      https://github.com/marketplace/order-events/pull/new/perf/orders-prefetch\nTo github.com:marketplace/order-events.git\n * [new branch]      perf/orders-prefetch -> perf/orders-prefetch",
            ),
            A(
                "Pushed. One thing to keep in mind: prefetch is per channel, and alpakka opens one channel per source, so if someone later scales the consumers to 10 pods the broker can have 10×50 unacked messages in memory. "
                "Fine at today's message size, but worth rechecking if the payloads grow.",
                lesson=(N, "prefetch is per channel, and alpakka opens one channel per source"),
            ),
        ],
    ),
    (
        "blind10-fsharp-paket",
        "claude",
        "blind10",
        [
            U(
                "in the reinsurance pricing lib (F#) i want to add FsCheck for property tests on the layer calculations. tests are in tests/Pricing.Tests"
            ),
            A("I'll add it with `dotnet add tests/Pricing.Tests package FsCheck.Xunit`."),
            U(
                "we use paket here not nuget package references, everything goes through paket.dependencies + paket.references, otherwise the lock file goes out of sync and the build server complains",
                lesson=(R, "we use paket here not nuget package references"),
            ),
            Bash(
                "dotnet paket add FsCheck.Xunit --project tests/Pricing.Tests/Pricing.Tests.fsproj --version 2.16.6",
                "Paket version 8.0.3+...\nAdding package 'FsCheck.Xunit' 2.16.6\nResolving dependency graph...\nInstalled packages:\n - FsCheck.Xunit 2.16.6\n - FsCheck 2.16.6\nLocked version resolution written to paket.lock\nDependencies files saved to paket.dependencies",
            ),
            A(
                "Before writing the properties: FsCheck's default float generator produces NaN, infinity and negative zero, and the pricing functions reject those by design with an exception. "
                "I'd add a custom Arbitrary `Losses` that generates decimal amounts from 0 to 10× the layer limit, so the properties test the pricing logic instead of the input guards. OK?",
                lesson=(D, "add a custom Arbitrary `Losses` that generates decimal amounts"),
            ),
            U("yes good idea, decimals everywhere anyway in that lib"),
            Edit("tests/Pricing.Tests/LayerProperties.fs"),
            Bash(
                "dotnet test tests/Pricing.Tests 2>&1 | tail -3",
                "Passed!  - Failed:     0, Passed:    47, Skipped:     0, Total:    47, Duration: 2 s - Pricing.Tests.dll (net8.0)",
            ),
            A(
                "FsCheck is in via paket, and LayerProperties.fs has three properties: ceded amount never exceeds the layer limit, never negative, and monotone in the gross loss."
            ),
            U("perfect. add one more: ceded is 0 when loss is under the attachment point"),
            Edit("tests/Pricing.Tests/LayerProperties.fs"),
            Bash(
                "dotnet test tests/Pricing.Tests 2>&1 | tail -1",
                "Passed!  - Failed:     0, Passed:    48, Skipped:     0, Total:    48, Duration: 2 s - Pricing.Tests.dll (net8.0)",
            ),
            A("Added, 48 passing."),
        ],
    ),
    (
        "blind10-gemini-powerbi-refresh",
        "gemini",
        "blind10",
        [
            U(
                "our district attendance dashboard in power bi service didn't refresh last night. The dataset reads from the SIS export on the sharepoint site. I have the pbix in reports/attendance.pbix and the M query exported in reports/queries/Attendance.pq"
            ),
            Read(
                "reports/queries/Attendance.pq",
                'let\n    Source = Excel.Workbook(File.Contents("C:\\Users\\mlopez\\OneDrive - District 42\\SIS Exports\\attendance_daily.xlsx"), null, true),\n    Daily = Source{[Item="Daily",Kind="Sheet"]}[Data]\nin\n    Daily',
            ),
            A(
                'The query reads the file through a local OneDrive path (`File.Contents("C:\\Users\\mlopez\\...")`). That works in Desktop on your laptop, but the service refresh has no access to your C: drive, so it either needs a gateway or fails. '
                'Since the file is on SharePoint I\'d switch the source to `SharePoint.Files("https://district42.sharepoint.com/sites/SIS")` and filter to the file, which refreshes in the service without a gateway.',
                lesson=(RC, "the service refresh has no access to your C: drive"),
            ),
            U(
                "ok. but we already have an on-prem gateway (gw-district-01) for the SQL reports, all dashboards have to go through that gateway for auditing, IT security asked for it. so keep it going through the gateway",
                lesson=(C, "all dashboards have to go through that gateway for auditing"),
            ),
            A(
                "Then the source path must be something the gateway machine can reach. A personal OneDrive folder on your laptop is not. Options: point File.Contents at the SIS share `\\\\fs01\\sis-exports\\attendance_daily.xlsx` (which gw-district-01 can read) and add that file source to the gateway's data sources."
            ),
            U("yes the fs01 share has the same export, use that"),
            Edit("reports/queries/Attendance.pq"),
            A(
                "Updated the query to `File.Contents(\"\\\\fs01\\sis-exports\\attendance_daily.xlsx\")`. You'll need to paste it into the pbix, publish, and in the dataset settings map it to gw-district-01; I can't do those steps from here."
            ),
        ],
    ),
    (
        "blind10-codex-verilog-reset",
        "codex",
        "blind10",
        [
            U(
                "uart_rx in rtl/uart_rx.sv fails in sim after I changed the reset. we're on verilator 5.022. run `make sim TEST=uart_rx`"
            ),
            Bash(
                "make sim TEST=uart_rx 2>&1 | tail -5",
                "%Warning-SYNCASYNCNET: rtl/uart_rx.sv:23:15: Signal flopped as both synchronous and async: 'rst_n'\n%Error: Exiting due to 1 warning(s)\nmake: *** [Makefile:41: obj_dir/Vuart_rx] Error 1",
                failed=True,
            ),
            Read(
                "rtl/uart_rx.sv",
                "always_ff @(posedge clk or negedge rst_n) begin\n  if (!rst_n) state <= IDLE;\n  ...\nend\n\nalways_ff @(posedge clk) begin\n  if (!rst_n) bit_cnt <= '0;\n  ...\nend\n",
            ),
            A(
                "The first block resets asynchronously, the second one synchronously on the same rst_n. Verilator flags a net used both ways, and the Makefile builds with -Wall plus warnings-as-errors so it stops. I'd make the second block async too, so the whole module uses one reset style."
            ),
            U(
                "actually other way round. the project standard is synchronous active-high reset `rst` everywhere, the FPGA team wants it for timing. so convert both blocks to sync `rst`, and the top level does the synchroniser",
                lesson=(
                    R,
                    "the project standard is synchronous active-high reset `rst` everywhere",
                ),
            ),
            Edit("rtl/uart_rx.sv"),
            Edit("rtl/top.sv"),
            Bash(
                "make sim TEST=uart_rx 2>&1 | tail -3",
                "[tb_uart_rx] sent 256 bytes, received 256, errors 0\n- tb_uart_rx.sv:88: Verilog $finish\nPASS",
            ),
            A(
                "Both blocks now use `always_ff @(posedge clk)` with `if (rst)`. top.sv already had a 2-flop synchroniser for rst, I only rewired uart_rx to use its output. Sim passes."
            ),
        ],
    ),
    (
        "blind10-ecommerce-prisma-migrate",
        "claude",
        "blind10",
        [
            U(
                "seller dashboard (next.js + prisma + postgres). add a `payoutSchedule` enum to Seller with WEEKLY / MONTHLY, default WEEKLY"
            ),
            Edit("prisma/schema.prisma"),
            Bash(
                "npx prisma migrate dev --name seller_payout_schedule",
                'Environment variables loaded from .env\nPrisma schema loaded from prisma/schema.prisma\nDatasource "db": PostgreSQL database "sellers", schema "public" at "localhost:5432"\n\nApplying migration `20260306101500_seller_payout_schedule`\n\nYour database is now in sync with your schema.\n\n✔ Generated Prisma Client (v5.14.0) to ./node_modules/@prisma/client',
            ),
            A(
                "Migration created and applied locally. Do you want me to run `prisma db push` against staging as well?"
            ),
            U(
                "no never db push on staging or prod, only migrate deploy from the CI. db push skips the migration history and we got bitten by that once",
                lesson=(R, "never db push on staging or prod, only migrate deploy"),
            ),
            A(
                "Understood. The migration file is committed and the CI job will apply it with `prisma migrate deploy` on merge."
            ),
            Bash(
                "npm run typecheck && npm test -- sellers 2>&1 | tail -3",
                "> tsc --noEmit\n\nTest Suites: 4 passed, 4 total\nTests:       31 passed, 31 total\nTime:        6.214 s",
            ),
            A(
                "Typecheck and tests pass. Note the generated SQL: Prisma creates the enum type and adds the column with `DEFAULT 'WEEKLY'`, so on the big sellers table Postgres fills existing rows with the default without a table rewrite (PG 11+), no need for a backfill script.",
                lesson=(N, "without a table rewrite (PG 11+), no need for a backfill"),
            ),
        ],
    ),
    (
        "blind10-gemini-micropython-deepsleep",
        "gemini",
        "blind10",
        [
            U(
                "esp32 weather node with micropython. After deep sleep it wakes up and the wifi never connects again, it only works after a power cycle. main.py in the repo"
            ),
            Read(
                "main.py",
                "import network, machine, time\nwlan = network.WLAN(network.STA_IF)\nwlan.active(True)\nif not wlan.isconnected():\n    wlan.connect(SSID, PWD)\nwhile not wlan.isconnected():\n    time.sleep_ms(100)\nsend_reading()\nmachine.deepsleep(600000)\n",
            ),
            Bash(
                "mpremote connect /dev/ttyUSB0 run main.py",
                'Traceback (most recent call last):\n  File "<stdin>", line 5, in <module>\nOSError: Wifi Internal Error',
                failed=True,
            ),
            A(
                "On the ESP32 port, `wlan.connect()` raises `OSError: Wifi Internal Error` when the driver still thinks a previous connection attempt is in progress, and after deep sleep the radio state can come back half-initialised. "
                "The usual fix: call `wlan.active(False)` then `wlan.active(True)` at boot before connecting, and add a timeout so a failed connect goes back to sleep instead of looping forever and draining the battery.",
                lesson=(RC, "after deep sleep the radio state can come back half-initialised"),
            ),
            Edit("main.py"),
            Bash(
                "mpremote connect /dev/ttyUSB0 run main.py",
                "wifi: connected in 2.3s\nposted reading: t=14.2 h=71 p=1008.4\n",
            ),
            A("Connected on the first try after a wake. I'll let it cycle a few times."),
            Bash(
                "mpremote connect /dev/ttyUSB0 repl --capture /tmp/node.log & sleep 1900; grep -c 'posted reading' /tmp/node.log",
                "3",
            ),
            A("Three wake cycles, three readings posted."),
            U(
                "great. for this project please keep the timeout at 15 s max, the solar panel is small and each failed connect costs us a lot. same for any future network calls",
                lesson=(R, "keep the timeout at 15 s max, the solar panel is small"),
            ),
            A("The wifi timeout is 15 s already; I set the HTTP post timeout to 10 s as well."),
        ],
    ),
    (
        "blind10-codex-buildkite-cache",
        "codex",
        "blind10",
        [
            U(
                "buildkite pipeline for the mobile game (unity, il2cpp android builds) takes 55 min, mostly importing assets every time. .buildkite/pipeline.yml. ideas?"
            ),
            Read(
                ".buildkite/pipeline.yml",
                "steps:\n  - label: ':android: build'\n    command: ci/build_android.sh\n    agents:\n      queue: unity-linux\n",
            ),
            A(
                "The Library/ folder (Unity's import cache) is thrown away on every build since the agents are ephemeral. Two choices:\n"
                "1. cache Library/ in S3 with the cache plugin, keyed on the Unity version + a hash of Packages/packages-lock.json and ProjectSettings, or\n"
                "2. switch to persistent agents with a fixed checkout.\n"
                "I'd go with 1: keying on the Unity version matters because a Library from another editor version gets reimported completely anyway, and the ephemeral agents are what keep the builds reproducible.",
                lesson=(D, "keying on the Unity version matters because a Library"),
            ),
            U("agreed, option 1"),
            Edit(".buildkite/pipeline.yml"),
            Bash(
                "bk build create --pipeline game-android --branch ci/library-cache --message 'library cache' --wait | tail -3",
                "Build #2291 passed\n  :android: build  passed  52m14s\n  restore cache: miss (key unity-2022.3.41f1-7c9e01a4)",
            ),
            Bash(
                "bk build create --pipeline game-android --branch ci/library-cache --message 'library cache warm' --wait | tail -3",
                "Build #2292 passed\n  :android: build  passed  17m03s\n  restore cache: hit (key unity-2022.3.41f1-7c9e01a4)",
            ),
            A(
                "First build fills the cache (52 min), second one hits it: 17 min. The cache tarball is 6.1 GB. "
                "The bucket `game-ci-cache` has no lifecycle rule, so old keys from previous Unity versions pile up at ~6 GB each; when you upgrade Unity it's worth adding an expiry or deleting the old prefix.",
                lesson=(N, "old keys from previous Unity versions pile up"),
            ),
        ],
    ),
]
