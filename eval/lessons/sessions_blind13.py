# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind13" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND13: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind13-vivado-uart-latch",
        "claude",
        "blind13",
        [
            U("synth on the uart_rx block spits a latch warning and then the rx data is garbage on the board. rtl/uart_rx.v. arty a7"),
            Bash(
                "vivado -mode batch -source scripts/synth.tcl 2>&1 | grep -E 'WARNING: \\[Synth' | head -3",
                "WARNING: [Synth 8-327] inferring latch for variable 'next_state_reg' [/home/ravi/fpga/uart/rtl/uart_rx.v:58]\nWARNING: [Synth 8-327] inferring latch for variable 'bit_cnt_next_reg' [/home/ravi/fpga/uart/rtl/uart_rx.v:61]",
            ),
            Read(
                "rtl/uart_rx.v",
                "always @(*) begin\n  case (state)\n    IDLE:  if (!rx_sync) next_state = START;\n    START: if (tick) begin next_state = DATA; bit_cnt_next = 0; end\n    DATA:  if (tick && bit_cnt == 7) next_state = STOP;\n           else if (tick) bit_cnt_next = bit_cnt + 1;\n    STOP:  if (tick) next_state = IDLE;\n  endcase\nend",
            ),
            A(
                "The combinational always block only assigns next_state and bit_cnt_next on some paths: when `tick` is low nothing is assigned, so the "
                "synthesizer has to hold the old value, and holding a value in an always @(*) means a latch. That latch is transparent on the level of its "
                "enable, so the state glitches between baud ticks, which is why the sampled bytes are garbage. Fix: give both signals default assignments at "
                "the top of the block (`next_state = state; bit_cnt_next = bit_cnt;`) so every path assigns them.",
                lesson=(RC, "when `tick` is low nothing is assigned, so the synthesizer has to hold"),
            ),
            Edit("rtl/uart_rx.v"),
            Bash(
                "vivado -mode batch -source scripts/synth.tcl 2>&1 | grep -cE 'Synth 8-327'; vivado -mode batch -source scripts/sim.tcl 2>&1 | tail -2",
                "0\n$finish called at time : 1042 us : File \"/home/ravi/fpga/uart/tb/tb_uart_rx.v\" Line 88\nPASS: 64/64 bytes received",
            ),
            A("No more latch warnings and the testbench receives all 64 bytes. Want me to regenerate the bitstream?"),
            U(
                "yes. and fwiw we treat any 8-327 as an error here, i'd rather the build fail. add it to synth.tcl with set_msg_config so it gets promoted",
                lesson=(R, "we treat any 8-327 as an error here, i'd rather the build fail"),
            ),
            Edit("scripts/synth.tcl"),
            Bash(
                "vivado -mode batch -source scripts/build.tcl 2>&1 | tail -2",
                "INFO: [Common 17-206] Exiting Vivado at Sat Mar  7 10:14:02 2026...\nwrote ./out/uart_top.bit",
            ),
            A("Added `set_msg_config -id {Synth 8-327} -new_severity ERROR` at the top of synth.tcl and the bitstream is in out/uart_top.bit."),
        ],
    ),
    (
        "blind13-codex-latex-ci-fonts",
        "codex",
        "blind13",
        [
            U("thesis build in github actions fails, locally fine. log is in the last run, job 'pdf'"),
            Bash(
                "gh run view --log-failed | tail -6",
                "pdf\tBuild\t! Package fontspec Error: The font \"Libertinus Serif\" cannot be found.\npdf\tBuild\t\npdf\tBuild\tFor immediate help type H <return>.\npdf\tBuild\t ...\npdf\tBuild\tl.12 \\setmainfont{Libertinus Serif}\npdf\tBuild\tError: Process completed with exit code 12.",
                failed=True,
            ),
            A("The runner uses the slim texlive image which doesn't ship Libertinus. I'll add `apt-get install -y fonts-libertinus` to the workflow step before latexmk."),
            U(
                "no dont apt install in the runner, the whole point of the texlive/texlive container is we pin the TL year. use tlmgr install libertinus-fonts in the workflow instead so it comes from the same TL",
                lesson=(C, "use tlmgr install libertinus-fonts in the workflow instead"),
            ),
            A("Ok, switching to tlmgr."),
            Edit(".github/workflows/build.yml"),
            Bash(
                "act -j pdf 2>&1 | tail -3",
                "[build/pdf]   | Latexmk: All targets (thesis.pdf) are up-to-date\n[build/pdf]   ✅  Success - Main latexmk -lualatex thesis.tex\n[build/pdf] 🏁  Job succeeded",
            ),
            A(
                "Passes under act. One thing to keep in mind: fontspec looks fonts up by name through luaotfload's cache, and the cache is built the first time "
                "lualatex runs. If you ever add a font via tlmgr after a cached step, run `luaotfload-tool --update` first, otherwise it still says the font "
                "cannot be found even though the files are there.",
                lesson=(N, "If you ever add a font via tlmgr after a cached step, run `luaotfload-tool --update`"),
            ),
            U("ok good to know. thx"),
        ],
    ),
    (
        "blind13-gemini-nerves-wifi-config",
        "gemini",
        "blind13",
        [
            U("nerves rpi0 device comes up without wifi after a firmware update over nerves_hub. fresh burn works fine. vintage_wifi"),
            Bash(
                "ssh nerves.local 'VintageNet.get_configuration(\"wlan0\")' 2>&1",
                "%{type: VintageNetWiFi, vintage_net_wifi: %{networks: []}, ipv4: %{method: :dhcp}}",
            ),
            Read(
                "config/target.exs",
                'config :vintage_net,\n  regulatory_domain: "US",\n  config: [\n    {"wlan0", %{type: VintageNetWiFi, vintage_net_wifi: %{networks: [%{ssid: System.get_env("WIFI_SSID"), psk: System.get_env("WIFI_PSK")}]}}}\n  ]',
            ),
            A(
                "The SSID and PSK are read with System.get_env at compile time, inside config/target.exs. When you burn locally your shell has WIFI_SSID set, "
                "so they get baked into the firmware. The NervesHub build runs in CI where those vars aren't set, so the firmware ships with networks: [] "
                "and VintageNet persists that empty config over the one on the device. That's why only OTA-updated devices lose wifi.",
                lesson=(RC, "The NervesHub build runs in CI where those vars aren't set"),
            ),
            U("right. so how do we fix it, i dont want creds in the repo"),
            A(
                "Two options: (a) set WIFI_SSID/WIFI_PSK as CI secrets so the build bakes them in like locally, or (b) drop the wlan0 entry from config "
                "entirely and provision wifi once per device with VintageNetWiFi.quick_configure, which VintageNet persists to /root and keeps across "
                "firmware updates. (b) keeps credentials out of the firmware image, which matters since the .fw files are downloadable from the hub.",
            ),
            U(
                "b. creds shouldnt live in the image",
                lesson=(D, "creds shouldnt live in the image"),
            ),
            Edit("config/target.exs"),
            Bash("MIX_TARGET=rpi0 mix firmware 2>&1 | tail -1", "Firmware built successfully! 🎉"),
            A("Removed the wlan0 block from config/target.exs; wifi now has to be provisioned per device with quick_configure, and existing devices keep their persisted config."),
        ],
    ),
    (
        "blind13-redis-lua-ratelimit",
        "claude",
        "blind13",
        [
            U("add a sliding window rate limiter as a lua script, scripts/ratelimit.lua. key per api token, 100 req / 60s"),
            A("I'll use a sorted set per token: ZREMRANGEBYSCORE to drop old entries, ZCARD to count, ZADD the current request, and PEXPIRE the key."),
            Edit("scripts/ratelimit.lua"),
            Bash(
                "redis-cli --eval scripts/ratelimit.lua rl:tok_abc , 100 60000 1741341240123 req-1",
                "(integer) 1",
            ),
            A(
                "Works. Note that I pass the current time in as ARGV rather than calling TIME inside the script: scripts get replicated by effects now, but "
                "on our Redis 6 replicas with script replication the script is re-run and TIME would give a different value, so the timestamp must come "
                "from the caller.",
                lesson=(N, "I pass the current time in as ARGV rather than calling TIME inside"),
            ),
            U("ok. also pls make the member unique, two requests in the same ms would collapse"),
            A("Good catch, the request id is now appended to the score as the member (`now .. '-' .. reqid`)."),
            Edit("scripts/ratelimit.lua"),
            Bash(
                "npm test -- ratelimit 2>&1 | tail -4",
                " PASS  test/ratelimit.test.ts\n  ✓ allows 100 in window (41 ms)\n  ✓ rejects 101st (9 ms)\nTests:       2 passed, 2 total",
            ),
            A("Tests pass."),
            U(
                "cool. wire it up in the gateway too. and remember scripts get SCRIPT LOAD'ed at boot and called with EVALSHA, we never send the script body with EVAL from app code",
                lesson=(R, "scripts get SCRIPT LOAD'ed at boot and called with EVALSHA"),
            ),
            A("Got it. I'll add ratelimit.lua to the loader list in src/redis/scripts.ts so its sha is cached at startup, and call it via evalsha in the middleware."),
            Edit("src/redis/scripts.ts"),
            Edit("src/gateway/middleware/rateLimit.ts"),
            Bash("npm test 2>&1 | tail -2", "Tests:       48 passed, 48 total\nTime:        6.118 s"),
            A("Wired in; the full suite passes."),
        ],
    ),
    (
        "blind13-nginx-proxy-pass-slash",
        "claude",
        "blind13",
        [
            U("after moving the api behind /api/ in nginx every request 404s from the backend. the backend logs show paths like /api/users, which dont exist there"),
            Read(
                "deploy/nginx/site.conf",
                "location /api/ {\n    proxy_pass http://127.0.0.1:8080;\n    proxy_set_header Host $host;\n}",
            ),
            Bash(
                "curl -s -o /dev/null -w '%{http_code}\\n' https://staging.lumen.dev/api/users",
                "404",
            ),
            A(
                "proxy_pass has no URI part here (no path after the port), so nginx forwards the original request URI unchanged: /api/users goes to the backend as "
                "/api/users. When proxy_pass includes a URI, even just a trailing `/`, nginx replaces the part matching the location prefix with it, so "
                "`proxy_pass http://127.0.0.1:8080/;` turns /api/users into /users. Adding that slash is the fix.",
                lesson=(RC, "proxy_pass has no URI part here (no path after the port), so nginx forwards"),
            ),
            Edit("deploy/nginx/site.conf"),
            Bash(
                "sudo nginx -t && sudo systemctl reload nginx && curl -s -o /dev/null -w '%{http_code}\\n' https://staging.lumen.dev/api/users",
                "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\n200",
            ),
            A("200 now."),
            U("sweet, ty"),
        ],
    ),
    (
        "blind13-codex-helm-secrets",
        "codex",
        "blind13",
        [
            U("the billing chart needs the stripe key. how should we get it in, we have external-secrets operator installed and also sealed-secrets from the old days"),
            Bash(
                "kubectl get crd | grep -Ei 'externalsecret|sealedsecret'",
                "externalsecrets.external-secrets.io        2025-09-14T08:22:10Z\nsealedsecrets.bitnami.com                  2023-02-01T11:05:44Z",
            ),
            A(
                "I'd go with an ExternalSecret template in the chart pointing at the existing AWS Secrets Manager ClusterSecretStore. Sealed secrets have to "
                "be re-encrypted per cluster and the ciphertext lives in the repo, so rotating the stripe key means a commit and a redeploy; with ESO "
                "rotation is just updating the secret in AWS and it syncs on refreshInterval.",
            ),
            U(
                "yep ESO, rotation without a commit is the reason. go",
                lesson=(D, "ESO, rotation without a commit is the reason"),
            ),
            Edit("charts/billing/templates/externalsecret.yaml"),
            Edit("charts/billing/values.yaml"),
            Bash(
                "helm template billing charts/billing -f charts/billing/values-staging.yaml | kubeconform -strict -ignore-missing-schemas -summary",
                "Summary: 9 resources found in 1 file - Valid: 8, Invalid: 0, Errors: 0, Skipped: 1",
            ),
            A("Chart renders and validates; the ExternalSecret is skipped by kubeconform since it has no schema for the CRD."),
        ],
    ),
    (
        "blind13-gemini-zig-allocator-leak",
        "gemini",
        "blind13",
        [
            U("zig test reports a leak in the tokenizer tests since I switched to ArrayList for tokens. zig 0.13"),
            Bash(
                "zig build test 2>&1 | head -8",
                "test\n+- run test 1/12 passed, 1 failed, 1 leaked\nerror: 'tokenizer.test.tokenize identifiers' leaked: [gpa] (err): memory address 0x7f3a1c0a0000 leaked:\n/home/mo/src/kiln/src/tokenizer.zig:44:41: 0x1041c2f in tokenize (test)\n        try tokens.append(tok);\n                                        ^\n/home/mo/src/kiln/src/tokenizer.zig:31:5: 0x1041b8a in tokenize (test)\nerror: the following test command failed with exit code 1:",
                failed=True,
            ),
            Read(
                "src/tokenizer.zig",
                "pub fn tokenize(alloc: Allocator, src: []const u8) ![]Token {\n    var tokens = std.ArrayList(Token).init(alloc);\n    ...\n    return tokens.items;\n}",
            ),
            A(
                "tokenize returns `tokens.items`, which is a slice into the ArrayList's buffer, but the buffer's capacity is usually larger than items.len. "
                "The test frees the returned slice with `alloc.free(toks)`, which passes the wrong length, and the GPA tracks allocations by their exact "
                "size, so the original allocation is never released and shows up as leaked. `tokens.toOwnedSlice()` shrinks the buffer to the exact length "
                "and hands over ownership, so freeing that slice is correct.",
                lesson=(RC, "returns `tokens.items`, which is a slice into the ArrayList's buffer"),
            ),
            Edit("src/tokenizer.zig"),
            Bash("zig build test 2>&1 | tail -1", "Build Summary: 3/3 steps succeeded; 12/12 tests passed"),
            A(
                "All 12 pass. Heads up for when you move to 0.14: ArrayList's managed API is being deprecated in favour of ArrayListUnmanaged, where you pass "
                "the allocator to every call (`append(alloc, x)`, `toOwnedSlice(alloc)`), so these call sites will need touching again.",
                lesson=(N, "ArrayList's managed API is being deprecated in favour of ArrayListUnmanaged"),
            ),
            U("ok"),
        ],
    ),
    (
        "blind13-tsql-proc-errors",
        "claude",
        "blind13",
        [
            U("write a proc dbo.usp_TransferStock that moves qty between two warehouses in one transaction. tables are dbo.Stock (WarehouseId, Sku, Qty)"),
            A("I'll write it with BEGIN TRAN / COMMIT and check @@ERROR after each UPDATE, rolling back if it's non-zero."),
            U(
                "no @@ERROR checks please, that pattern misses stuff. TRY/CATCH with THROW in the catch, and SET XACT_ABORT ON at the top, like every other proc in here",
                lesson=(C, "TRY/CATCH with THROW in the catch, and SET XACT_ABORT ON at the top"),
            ),
            A("Understood, rewriting with SET XACT_ABORT ON and TRY/CATCH that rolls back if @@TRANCOUNT > 0 and rethrows."),
            Edit("db/procs/usp_TransferStock.sql"),
            Bash(
                "sqlcmd -S localhost -d Inventory -b -i db/procs/usp_TransferStock.sql && sqlcmd -S localhost -d Inventory -b -Q \"EXEC tSQLt.Run 'TransferStockTests'\" | tail -4",
                "+----------------------+\n|Test Execution Summary|\n+----------------------+\nTest Case Summary: 3 test case(s) executed, 3 succeeded, 0 skipped, 0 failed, 0 errored.",
            ),
            A("Created and the three tSQLt tests pass."),
            U(
                "good. one more thing, all procs in this db get schema-qualified names for every object, no bare table names, the deploy account has a different default schema",
                lesson=(R, "all procs in this db get schema-qualified names for every object"),
            ),
            Bash("grep -nE '(FROM|JOIN|UPDATE|INTO)\\s+[A-Za-z]+\\b' db/procs/usp_TransferStock.sql | grep -v 'dbo\\.'", "", failed=True),
            A("Checked: every reference in the proc is already dbo.-qualified, nothing bare."),
        ],
    ),
    (
        "blind13-gemini-maui-android-crash",
        "gemini",
        "blind13",
        [
            U("release build of the maui app crashes on android on startup, debug is fine. logcat attached below\n\nandroid.runtime.JavaProxyThrowable: System.MissingMethodException: No parameterless constructor defined for type 'Fieldbook.ViewModels.MainViewModel'."),
            Bash(
                "grep -n 'MainViewModel' MauiProgram.cs Views/MainPage.xaml.cs",
                "MauiProgram.cs:22:        builder.Services.AddTransient<MainViewModel>();\nViews/MainPage.xaml.cs:9:    public MainPage() { InitializeComponent(); BindingContext = Activator.CreateInstance(typeof(MainViewModel)); }",
            ),
            A(
                "MainPage creates its view model with Activator.CreateInstance, not through the DI container, and nothing else references "
                "MainViewModel's parameterless constructor statically. Release builds for Android run the IL trimmer (TrimMode=partial by default in .NET 8 MAUI), "
                "which removes members it can't see being used, so the constructor is gone at runtime and reflection fails. Debug doesn't trim, so it works there. "
                "Rather than adding [DynamicDependency] I'd inject the view model into MainPage's constructor and register MainPage in MauiProgram, so "
                "there's a static reference the trimmer keeps.",
                lesson=(RC, "Release builds for Android run the IL trimmer"),
            ),
            Edit("Views/MainPage.xaml.cs"),
            Edit("MauiProgram.cs"),
            Bash(
                "dotnet build -f net8.0-android -c Release -t:Run 2>&1 | tail -2; adb logcat -d | grep -c MissingMethodException",
                "Build succeeded.\n    0 Warning(s)\n0",
            ),
            A("Release build starts on the emulator now, no MissingMethodException in logcat."),
            U("nice thanks"),
        ],
    ),
    (
        "blind13-qt-cmake-automoc",
        "claude",
        "blind13",
        [
            U("we want to move the plugin loader out of the main app into its own lib so the tests can link it. static or shared? qt6, cmake"),
            A(
                "I'd make it a STATIC library. It's only used by the app and the test exe, so a shared lib buys nothing but deployment work "
                "(windeployqt, rpath on linux), and static avoids having to add export macros to every class. If a third consumer appears we can flip it."
            ),
            U(
                "static is fine, agreed, we dont ship it separately",
                lesson=(D, "static is fine, agreed, we dont ship it separately"),
            ),
            Edit("src/pluginloader/CMakeLists.txt"),
            Edit("CMakeLists.txt"),
            Bash(
                "cmake --build build -j8 2>&1 | tail -4",
                "[ 92%] Linking CXX executable tests/tst_pluginloader\n/usr/bin/ld: libpluginloader.a(pluginloader.cpp.o): in function `PluginLoader::PluginLoader(QObject*)':\npluginloader.cpp:(.text+0x3a): undefined reference to `vtable for PluginLoader'\ncollect2: error: ld returned 1 exit status",
                failed=True,
            ),
            A(
                "Undefined vtable for a QObject subclass means moc didn't run for pluginloader.h. In the new target I listed only the .cpp files, and "
                "AUTOMOC only scans headers it can find as sources or next to a listed .cpp with the same base name; the header lives in include/, so it "
                "wasn't picked up. I'll add the headers to qt_add_library's source list.",
                lesson=(RC, "the header lives in include/, so it wasn't picked up"),
            ),
            Edit("src/pluginloader/CMakeLists.txt"),
            Bash("cmake --build build -j8 2>&1 | tail -1 && ctest --test-dir build 2>&1 | tail -1", "[100%] Built target fieldview\nTotal Test time (real) =   1.84 sec"),
            A(
                "Builds and tests pass. Worth remembering for any other lib split out of this project: since the public headers sit in include/ rather than next "
                "to the .cpp, they have to be listed explicitly in the target sources or AUTOMOC silently skips them.",
                lesson=(N, "they have to be listed explicitly in the target sources or AUTOMOC silently skips them"),
            ),
        ],
    ),
    (
        "blind13-codex-foundry-fork-test",
        "codex",
        "blind13",
        [
            U("the fork test for the vault started failing out of nowhere this morning. nothing changed in the contracts"),
            Bash(
                "forge test --match-contract VaultForkTest -vv 2>&1 | tail -8",
                "Ran 3 tests for test/fork/VaultFork.t.sol:VaultForkTest\n[FAIL: revert: STALE_PRICE] testDepositUsesOraclePrice() (gas: 91234)\n[PASS] testWithdraw() (gas: 120331)\n[FAIL: revert: STALE_PRICE] testHarvest() (gas: 77012)\nSuite result: FAILED. 1 passed; 2 failed; 0 skipped; finished in 4.21s (3.02s CPU time)",
                failed=True,
            ),
            Bash("grep -n 'createSelectFork' test/fork/VaultFork.t.sol", 'test/fork/VaultFork.t.sol:18:        vm.createSelectFork(vm.envString("MAINNET_RPC_URL"));'),
            A(
                "The fork has no block number, so every run forks at the latest mainnet block. The Chainlink feed we read has a 1h heartbeat and the vault "
                "reverts with STALE_PRICE if updatedAt is older than 3600s; but the test also does vm.warp(block.timestamp + 1 days) before depositing, and "
                "at a fresh head that pushes us past the heartbeat. Before today it passed only because... actually, it was passing by luck of what the last "
                "update looked like. Pinning the fork to a fixed block makes it deterministic, and I'll mock the feed after the warp.",
                lesson=(RC, "The fork has no block number, so every run forks at the latest mainnet block"),
            ),
            Edit("test/fork/VaultFork.t.sol"),
            Bash("forge test --match-contract VaultForkTest 2>&1 | tail -1", "Ran 1 test suite in 5.02s (4.88s CPU time): 3 tests passed, 0 failed, 0 skipped (3 total tests)"),
            U(
                "ok. from now on every createSelectFork in this repo gets an explicit block number, put it in a constant at the top of the test",
                lesson=(R, "every createSelectFork in this repo gets an explicit block number"),
            ),
            Bash("grep -rn 'createSelectFork(' test/ | grep -v ', FORK_BLOCK'", "test/fork/Liquidation.t.sol:22:        vm.createSelectFork(vm.envString(\"MAINNET_RPC_URL\"));"),
            Edit("test/fork/Liquidation.t.sol"),
            A("Liquidation.t.sol was the only other one; it now forks at FORK_BLOCK = 21_804_000 too."),
        ],
    ),
    (
        "blind13-jupyter-lab-outputs",
        "claude",
        "blind13",
        [
            U("our lab repo is full of notebooks with giant outputs and every PR diff is unreadable. whats the best way to deal with it, nbstripout or jupytext?"),
            A(
                "Both work; they solve slightly different things. nbstripout as a git filter keeps .ipynb in the repo but strips outputs on commit, so "
                "diffs are still JSON. jupytext pairs each notebook with a .py (percent format) and you commit only the .py, which gives real line diffs "
                "and lets you review in PRs like code. For a lab where people mostly review each other's analysis code, I'd pick jupytext; the cost is "
                "that outputs (figures) aren't in git at all, so people need to re-run."
            ),
            U(
                "lets do jupytext, paired py:percent, and we'll gitignore the ipynb. figures that matter go to figures/ as png anyway",
                lesson=(D, "lets do jupytext, paired py:percent, and we'll gitignore the ipynb"),
            ),
            Edit("jupytext.toml"),
            Edit(".gitignore"),
            Bash(
                "jupytext --set-formats ipynb,py:percent notebooks/*.ipynb 2>&1 | tail -2",
                "[jupytext] Updating notebooks/04_spike_sorting.ipynb\n[jupytext] Updating notebooks/04_spike_sorting.py",
            ),
            A("All 14 notebooks are paired now and the .py files are ready to commit."),
            U(
                "great. also, rule for the lab: notebooks never hardcode data paths, everything goes through the DATA_ROOT env var, half of us are on the cluster and half on laptops",
                lesson=(R, "notebooks never hardcode data paths, everything goes through the DATA_ROOT env var"),
            ),
            Bash("grep -ln \"/mnt/lab\\|/Users/\" notebooks/*.py", "notebooks/02_preprocess.py\nnotebooks/04_spike_sorting.py"),
            A("Two notebooks have hardcoded paths. Want me to switch them to os.environ['DATA_ROOT'] now?"),
            U("yes"),
            Edit("notebooks/02_preprocess.py"),
            Edit("notebooks/04_spike_sorting.py"),
            A("Done, both read DATA_ROOT now."),
        ],
    ),
    (
        "blind13-gemini-blender-addon-register",
        "gemini",
        "blind13",
        [
            U("add a panel to our blender addon that shows the export presets in the N sidebar, under a 'Pipeline' tab. blender 4.1"),
            A("I'll add a PIPELINE_PT_presets Panel class and register it by adding it to the classes tuple in __init__.py. I'll also store the active preset on bpy.context.scene as a plain Python attribute."),
            U(
                "dont hang stuff off the scene as plain attributes, it doesnt survive save/reload. make it a PropertyGroup and register a PointerProperty on Scene",
                lesson=(C, "make it a PropertyGroup and register a PointerProperty on Scene"),
            ),
            A("Right, switching to a PropertyGroup."),
            Edit("pipeline_tools/props.py"),
            Edit("pipeline_tools/ui.py"),
            Edit("pipeline_tools/__init__.py"),
            Bash(
                "blender -b --python-expr \"import addon_utils; addon_utils.enable('pipeline_tools', default_set=True); import bpy; print(bpy.context.scene.pipeline.active_preset)\" 2>&1 | tail -2",
                "Traceback (most recent call last):\nValueError: bpy_struct \"PIPELINE_PT_presets\" registration error: 'pipeline' PointerProperty could not register, type PipelineSettings not registered",
                failed=True,
            ),
            A(
                "The PropertyGroup has to be registered before anything that points to it, so PipelineSettings needs to come first in the classes tuple and "
                "the Scene.pipeline PointerProperty must be assigned after register_class. On unregister it's the reverse: del the property, then unregister "
                "the classes in reversed order.",
                lesson=(N, "The PropertyGroup has to be registered before anything that points to it"),
            ),
            Edit("pipeline_tools/__init__.py"),
            Bash(
                "blender -b --python-expr \"import addon_utils; addon_utils.enable('pipeline_tools', default_set=True); import bpy; print(bpy.context.scene.pipeline.active_preset)\" 2>&1 | tail -1",
                "FBX_unreal",
            ),
            A("The panel registers and the preset survives a save and reload of the .blend."),
        ],
    ),
    (
        "blind13-grpc-go-deadlines",
        "claude",
        "blind13",
        [
            U("the inventory grpc service needs a streaming endpoint to push stock changes to the storefronts. server streaming or bidi?"),
            A(
                "Server streaming fits: the storefront sends one WatchStock request with the SKUs it cares about, and the server pushes updates. Bidi "
                "would only pay off if clients needed to change their subscription mid-stream; they don't today, they reconnect on page navigation anyway. "
                "Server streaming is also simpler to put behind the envoy we have, and easier to retry."
            ),
            U(
                "agree, server streaming. subscriptions dont change mid stream",
                lesson=(D, "agree, server streaming. subscriptions dont change mid stream"),
            ),
            Edit("proto/inventory/v1/inventory.proto"),
            Bash("buf generate && go build ./...", ""),
            A("Generated. For the server side I'll add a package-level map of channels guarded by a mutex, and the Kafka consumer goroutine fans out into it."),
            Edit("internal/server/watch.go"),
            U(
                "no global map pls. put the subscriber registry on the Server struct and inject it, we got burned by package globals in the test suite (tests share state)",
                lesson=(C, "put the subscriber registry on the Server struct and inject it"),
            ),
            A("Moving it to a `subs *registry` field on Server, constructed in NewServer."),
            Edit("internal/server/watch.go"),
            Edit("internal/server/server.go"),
            Bash(
                "go test ./internal/server/... -race 2>&1 | tail -2",
                "ok  \tgithub.com/kestrel/inventory/internal/server\t1.912s",
            ),
            A("Race detector is clean and tests pass."),
        ],
    ),
    (
        "blind13-codex-cf-worker-kv",
        "codex",
        "blind13",
        [
            U("feature flags in our worker are read from KV. after I flip a flag in the dashboard some requests still see the old value for a while, is that a bug?"),
            Bash("grep -n 'FLAGS.get' src/index.ts", "src/index.ts:14:  const raw = await env.FLAGS.get('flags', { type: 'json', cacheTtl: 300 });"),
            A(
                "Not a bug, it's how KV works. Writes are eventually consistent: other edge locations can keep serving the old value for up to 60 seconds "
                "after a write. On top of that, this code sets cacheTtl: 300, so each location may cache the read for 5 minutes. So a flip can take up to "
                "~6 minutes to be seen everywhere. If you need faster, lowering cacheTtl to the minimum 60 helps, but KV is never going to be instant; "
                "for a kill switch you'd want a Durable Object instead.",
                lesson=(N, "a flip can take up to ~6 minutes to be seen everywhere"),
            ),
            U("ok lower it to 60, thats fine for now"),
            Edit("src/index.ts"),
            Bash(
                "npx vitest run 2>&1 | tail -3",
                " ✓ test/flags.spec.ts (4 tests) 38ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)",
            ),
            A("cacheTtl is now 60, tests pass."),
        ],
    ),
    (
        "blind13-pulumi-ts-stack-config",
        "claude",
        "blind13",
        [
            U("add an rds postgres instance to the staging stack in infra/. pulumi typescript, aws classic"),
            Read(
                "infra/index.ts",
                'import * as aws from "@pulumi/aws";\nimport * as pulumi from "@pulumi/pulumi";\nconst cfg = new pulumi.Config();\nconst env = pulumi.getStack();\n...',
            ),
            A("I'll add an aws.rds.Instance with db.t4g.micro. For the master password should I use a random.RandomPassword resource or a secret in stack config?"),
            U(
                "stack config secret. we dont want the password to change if someone accidentally replaces the random resource. pulumi config set --secret dbPassword",
                lesson=(D, "stack config secret. we dont want the password to change"),
            ),
            Edit("infra/index.ts"),
            Bash(
                "cd infra && pulumi preview --stack staging 2>&1 | tail -6",
                "Previewing update (staging)\n\n     Type                 Name           Plan\n     pulumi:pulumi:Stack  infra-staging\n +   └─ aws:rds:Instance  app-db         create\n\nResources:\n    + 1 to create\n    14 unchanged",
            ),
            A("Preview shows just the one create. I didn't set a name on the instance, so Pulumi will auto-name it app-db-<suffix>."),
            U(
                "good, thats how we want it. we never set explicit physical names on aws resources in this repo, autonaming only, otherwise replacements fail on name conflicts",
                lesson=(R, "we never set explicit physical names on aws resources in this repo"),
            ),
            A("Makes sense; I'll leave it autonamed. Ready to `pulumi up` whenever you set the dbPassword secret on staging."),
        ],
    ),
    (
        "blind13-gemini-odoo-computed-field",
        "gemini",
        "blind13",
        [
            U("in our custom module fleet_maint, add a field on fleet.vehicle showing the total cost of maintenance orders this year. odoo 17"),
            A("I'll add a computed Monetary field total_maint_cost with store=True, depending on maint_order_ids.amount_total, so it can be used in list views and filters."),
            U(
                "not stored. 'this year' depends on today's date, a stored field would never recompute on jan 1. keep it non-stored and add a search method if we need filtering",
                lesson=(C, "'this year' depends on today's date, a stored field would never recompute"),
            ),
            A("Good point, a stored compute only re-triggers when its dependencies change, not when the date does. Non-stored it is."),
            Edit("fleet_maint/models/fleet_vehicle.py"),
            Edit("fleet_maint/views/fleet_vehicle_views.xml"),
            Bash(
                "odoo-bin -c odoo.conf -d fleet_test -u fleet_maint --test-tags /fleet_maint --stop-after-init 2>&1 | tail -2",
                "2026-03-09 10:21:44,118 4012 INFO fleet_test odoo.tests.stats: fleet_maint: 6 tests 0.41s 188 queries\n2026-03-09 10:21:44,120 4012 INFO fleet_test odoo.tests.result: 0 failed, 0 error(s) of 6 tests when loading database 'fleet_test'",
            ),
            A("Tests pass. Do you want filtering? I can add a _search method, or compute it with read_group in the list view only."),
            U("skip the search for now, nobody asked for it. just the form view"),
            A("Ok, it's only on the form view."),
        ],
    ),
    (
        "blind13-electron-ipc",
        "claude",
        "blind13",
        [
            U("the renderer needs to read the user's config file from disk. electron 30. make it work"),
            A("Simplest is to set nodeIntegration: true on the BrowserWindow so the renderer can require('fs') directly. I'll do that in main.ts."),
            U(
                "nope, nodeIntegration stays off and contextIsolation on. expose a readConfig through contextBridge in preload and do the fs read in main via ipcMain.handle",
                lesson=(C, "nodeIntegration stays off and contextIsolation on. expose a readConfig through contextBridge"),
            ),
            A("Right, that's safer. Adding `config:read` as an ipcMain.handle in main and `window.api.readConfig()` in preload."),
            Edit("src/main/main.ts"),
            Edit("src/preload/index.ts"),
            Edit("src/renderer/settings.ts"),
            Bash(
                "npm run typecheck && npx playwright test e2e/settings.spec.ts 2>&1 | tail -2",
                "> tsc --noEmit -p .\n\n  1 passed (3.4s)",
            ),
            A("Type check and the settings e2e pass."),
        ],
    ),
    (
        "blind13-codex-vimscript-routine",
        "codex",
        "blind13",
        [
            U("in autoload/todoline.vim, make ToggleDone also work on '- [X]' uppercase, right now only lowercase x"),
            Bash("grep -n 'function! todoline#ToggleDone' -A 8 autoload/todoline.vim", "12:function! todoline#ToggleDone() abort\n13:  let l = getline('.')\n14:  if l =~# '^\\s*- \\[x\\]'\n15:    call setline('.', substitute(l, '\\[x\\]', '[ ]', ''))\n16:  else\n17:    call setline('.', substitute(l, '\\[ \\]', '[x]', ''))\n18:  endif\n19:endfunction"),
            A("I'll make both the match and the substitute accept [xX]."),
            Edit("autoload/todoline.vim"),
            Bash(
                "vim -Nu NONE -Es -c 'set rtp+=.,./vader.vim' -c 'Vader! test/*.vader' 2>&1 | tail -2",
                "Success/Total: 9/9\nElapsed time: 0.21 sec.",
            ),
            A("Added a test for the uppercase case; all 9 Vader tests pass."),
            U("thx"),
        ],
    ),
    (
        "blind13-gemini-stepfunctions-routine",
        "gemini",
        "blind13",
        [
            U("bump the retry on the ChargeCard state in statemachines/checkout.asl.json to 4 attempts, backoff 2"),
            Read(
                "statemachines/checkout.asl.json",
                '"ChargeCard": {\n  "Type": "Task",\n  "Resource": "arn:aws:states:::lambda:invoke",\n  "Retry": [{"ErrorEquals": ["Lambda.TooManyRequestsException"], "IntervalSeconds": 1, "MaxAttempts": 2, "BackoffRate": 1.5}],\n  "Next": "SendReceipt"\n}',
            ),
            Edit("statemachines/checkout.asl.json"),
            Bash(
                "aws stepfunctions validate-state-machine-definition --definition file://statemachines/checkout.asl.json --query result --output text",
                "OK",
            ),
            A("MaxAttempts is 4 and BackoffRate 2 on ChargeCard; the definition validates."),
            U("ty"),
        ],
    ),
    (
        "blind13-cf-worker-routine",
        "claude",
        "blind13",
        [
            U("add a /healthz route to the worker that returns 200 'ok', no auth"),
            Read(
                "src/index.ts",
                "export default {\n  async fetch(req: Request, env: Env): Promise<Response> {\n    const url = new URL(req.url);\n    if (url.pathname.startsWith('/api/')) return handleApi(req, env);\n    return new Response('not found', { status: 404 });\n  },\n};",
            ),
            A("I'll add the check before the /api/ branch."),
            Edit("src/index.ts"),
            Edit("test/index.spec.ts"),
            Bash(
                "npx vitest run 2>&1 | tail -3",
                " ✓ test/index.spec.ts (6 tests) 52ms\n\n Test Files  1 passed (1)\n      Tests  6 passed (6)",
            ),
            A("Added with a test; all 6 pass."),
        ],
    ),
    (
        "blind13-smalltalk-weekend",
        "claude",
        "blind13",
        [
            U("no code today, just waiting on a build. you ever wonder why every dev team ends up with a sourdough person"),
            A("Ha, it's the same itch as debugging: a slow feedback loop, a process you can tune, and the starter behaves differently depending on temperature, like a flaky test. Are you the sourdough person?"),
            U("guilty. mine died over the holidays tho"),
            A("Sorry for your loss. The good news is starters are very forgiving, a week of feeding and you're back in business."),
            U("lol ok build's done, later"),
        ],
    ),
    (
        "blind13-smalltalk-conference",
        "claude",
        "blind13",
        [
            U("going to my first conference next month, any tips for not feeling completely lost"),
            A(
                "A few that help most people: pick two or three talks you really want and treat the rest as optional, the hallway conversations are often "
                "the best part. Having one question ready (\"what are you working on?\") makes starting conversations much easier. And bring a water bottle."
            ),
            U("the hallway thing is what scares me lol"),
            A("Totally normal. Lunch tables are the easiest spot, everyone's sitting anyway. You can also just go to the talk Q&A and talk to the speaker after."),
            U("ok that helps, thanks"),
        ],
    ),
    (
        "blind13-codex-smalltalk-keyboard",
        "codex",
        "blind13",
        [
            U("random q, do you think split keyboards are worth it or is it a meme"),
            A("For a lot of people who type all day they genuinely help with shoulder and wrist position, since your hands sit shoulder-width apart. The adjustment takes a week or two. If you're curious, trying a cheap one before going down the custom-keyboard rabbit hole is the sane path."),
            U("the rabbit hole is exactly what im afraid of"),
            A("Fair. It starts with one board and ends with a drawer of switches."),
        ],
    ),
]
