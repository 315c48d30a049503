# ruff: noqa: E501  (the sessions' text, line for line)
"""The "blind19" half of the lessons set: sessions written without reading the drafting rules.

Same form as ``sessions_blind5.py``; written by someone who had not read the rules, measured once.
"""

from __future__ import annotations

from formats import A, Bash, Edit, Read, Step, U

C, R, RC, D, N = "correction", "rule", "root_cause", "decision", "note"

BLIND19: list[tuple[str, str, str, list[Step]]] = [
    (
        "blind19-datatable-setdt-mutates-caller",
        "claude",
        "blind19",
        [
            U(
                "weird one. after calling summarise_visits(visits) in the report script, the visits table in the global env suddenly has a `week` column and its rows are reordered. the function is supposed to be pure. R/summarise.R"
            ),
            Read(
                "R/summarise.R",
                "summarise_visits <- function(dt) {\n  setkey(dt, clinic_id, visit_date)\n  dt[, week := lubridate::floor_date(visit_date, \"week\")]\n  dt[, .(n = .N, median_wait = median(wait_min)), by = .(clinic_id, week)]\n}\n",
            ),
            Bash(
                "Rscript -e 'library(data.table); v <- fread(\"tests/fixtures/visits.csv\"); source(\"R/summarise.R\"); names(v); invisible(summarise_visits(v)); names(v); key(v)'",
                '[1] "clinic_id"  "visit_date" "wait_min"   "patient_id"\n[1] "clinic_id"  "visit_date" "wait_min"   "patient_id" "week"      \n[1] "clinic_id"  "visit_date"',
            ),
            A(
                "Reproduced it. data.table doesn't copy on function entry the way data.frames do: `dt` inside the function is the same object as `visits` outside, "
                "so `:=` adds `week` to the caller's table by reference, and `setkey()` physically re-sorts the caller's rows. Both are in-place operations, R's usual copy-on-modify never kicks in. "
                "Fix is to take a `copy(dt)` at the top of the function before any `:=` or `set*` call, or to compute week inside the `by=` so nothing is written to the input.",
                lesson=(RC, "`:=` adds `week` to the caller's table by reference"),
            ),
            U("do the copy. the tables are small, memory isnt a concern"),
            Edit("R/summarise.R"),
            Bash(
                "Rscript -e 'testthat::test_dir(\"tests/testthat\")' 2>&1 | tail -4",
                "══ Testing ═══════════════════════════════════════════════\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 23 ]\n\n══ DONE ═══════════════════════════════════════════════════",
            ),
            A("Added `dt <- copy(dt)` as the first line; tests pass and `names(v)`/`key(v)` are unchanged after the call now."),
            U(
                "thanks. and just so it's written down somewhere: any helper in R/ that takes a data.table and uses := or setkey/setorder has to copy() first, callers here never expect their input to change. only exception is functions with a trailing underscore like clean_names_() that are explicitly in-place",
                lesson=(R, "has to copy() first, callers here never expect their input to change"),
            ),
            A(
                "Got it. I grepped R/ for `:=` and `set(key|order|names)` in functions without the trailing underscore; `flag_outliers()` in R/qc.R has the same problem. Want me to fix that one too?"
            ),
            U("yes pls"),
            Edit("R/qc.R"),
            Bash(
                "Rscript -e 'testthat::test_dir(\"tests/testthat\")' 2>&1 | tail -2",
                "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 23 ]\n",
            ),
            A("Done, `flag_outliers()` copies its input now too."),
        ],
    ),
    (
        "blind19-codex-spss-missing-recode",
        "codex",
        "blind19",
        [
            U(
                "in syntax/02_derive.sps add a derived var income_k = income/1000, and treat the 99999 codes as missing. the survey file is wave3.sav"
            ),
            Read(
                "syntax/02_derive.sps",
                "GET FILE='data/wave3.sav'.\nMISSING VALUES age (-9) educ (-9, -8).\nRECODE educ (1 thru 3=1) (4 thru 5=2) (6=3) INTO educ3.\nVALUE LABELS educ3 1 'low' 2 'mid' 3 'high'.\nFREQUENCIES educ3.\n",
            ),
            A(
                "I'll add this after the RECODE:\n\n```\nIF (income = 99999) income = $SYSMIS.\nCOMPUTE income_k = income / 1000.\n```\n\nThat blanks out the 99999 codes and then derives income_k."
            ),
            Edit("syntax/02_derive.sps"),
            U(
                "no, dont overwrite the raw value with sysmis, we have to be able to tell 'refused' apart from 'system missing' in the archive. declare it with MISSING VALUES income (99999) like the other vars are, user-missing values already get excluded in COMPUTE",
                lesson=(C, "dont overwrite the raw value with sysmis, we have to be able"),
            ),
            A(
                "Right, user-missing keeps the original code in the file while COMPUTE still treats it as missing, so income_k becomes sysmis for those cases. Changing it to extend the existing MISSING VALUES line with `income (99999)` and a plain COMPUTE."
            ),
            Edit("syntax/02_derive.sps"),
            Bash(
                "stats syntax/02_derive.sps -out /tmp/derive.txt && grep -A6 'Descriptive Statistics' /tmp/derive.txt",
                "Descriptive Statistics\n                    N     Minimum   Maximum    Mean     Std. Deviation\nincome_k          1812      .00     412.50    38.2177      29.40113\nValid N (listwise) 1812",
            ),
            A(
                "income_k has 1812 valid cases, max 412.5, so the 99999s are out. One thing I ran into while checking: there's a `SELECT IF (wave = 3).` further down in 03_models.sps with no TEMPORARY before it. "
                "SELECT IF without TEMPORARY permanently deletes the unselected cases from the active dataset, so anything after it in the same job only sees wave 3 even if it looks like it runs on the full file. If that's intended fine, otherwise it needs `TEMPORARY.` on the line before.",
                lesson=(N, "SELECT IF without TEMPORARY permanently deletes the unselected cases"),
            ),
            U("huh, that explains the weird Ns in table 4. add the TEMPORARY"),
            Edit("syntax/03_models.sps"),
            Bash(
                "stats syntax/03_models.sps -out /tmp/models.txt && grep -m2 'N of Valid Cases' /tmp/models.txt",
                "N of Valid Cases          1812\nN of Valid Cases          5406",
            ),
            A("Now the wave-3 crosstab has 1812 and the pooled model after it is back to 5406 cases."),
        ],
    ),
    (
        "blind19-gemini-julia-arrow-intermediates",
        "gemini",
        "blind19",
        [
            U(
                "the pipeline in src/Pipeline.jl writes stage outputs as CSV between steps and reading them back takes forever (the joined table is like 40M rows). whats the better option"
            ),
            Read(
                "src/Pipeline.jl",
                'function stage2(path_in, path_out)\n    df = CSV.read(path_in, DataFrame; dateformat="yyyy-mm-dd")\n    df = leftjoin(df, stations, on=:station_id)\n    CSV.write(path_out, df)\nend\n',
            ),
            A(
                "Two realistic choices here:\n\n"
                "1. Arrow.jl (Feather v2 / Arrow IPC files). `Arrow.Table(path)` memory-maps the file, so reading is close to free and column types (Date, missing, categorical) round-trip exactly. Files are bigger than compressed parquet unless you pass `compress=:zstd`.\n"
                "2. Parquet2.jl. Smaller files and readable by everything, but the Julia implementation is slower to read than Arrow and a few types (e.g. CategoricalArray) come back as plain strings.\n\n"
                "Since these are intermediates that only this pipeline reads back, I'd go with Arrow with zstd compression: you lose nothing on types and the read is basically mmap. Parquet makes more sense for the final deliverable that other teams open.",
                lesson=(D, "I'd go with Arrow with zstd compression"),
            ),
            U("ok sounds good, keep final outputs as parquet then. go ahead"),
            Edit("src/Pipeline.jl"),
            Bash(
                'julia --project -e \'using Pkg; Pkg.add("Arrow")\' 2>&1 | tail -2',
                "   Resolving package versions...\n    Updating `~/proj/Project.toml`\n  [69666777] + Arrow v2.7.2",
            ),
            Bash(
                "julia --project -e 'include(\"src/Pipeline.jl\"); @time Pipeline.run_all(\"data/raw\", \"data/stage\")' 2>&1 | tail -1",
                " 48.213654 seconds (212.44 M allocations: 19.803 GiB, 9.12% gc time, 2.11% compilation time)",
            ),
            A(
                "Full run is 48s now (it was around 6 minutes with CSV per your earlier timing). Stage files are `.arrow` with zstd, and `stage_final` still writes parquet via Parquet2."
            ),
            U("nice, thats a huge diff"),
        ],
    ),
    (
        "blind19-matlab-butter-sos",
        "claude",
        "blind19",
        [
            U(
                "the bandpass in proc/emg_filter.m outputs NaN/huge values since I bumped the order to 8. order 4 was fine. fs is 2000, band 20-450"
            ),
            Read(
                "proc/emg_filter.m",
                "function y = emg_filter(x, fs)\n  [b, a] = butter(8, [20 450] / (fs/2), 'bandpass');\n  y = filtfilt(b, a, x);\nend\n",
            ),
            Bash(
                "matlab -batch \"[b,a]=butter(8,[20 450]/1000,'bandpass'); disp(max(abs(roots(a)))); x=randn(1,4000); y=filtfilt(b,a,x); disp(any(isnan(y)))\"",
                "    1.0003\n\n     1\n",
            ),
            A(
                "The transfer-function form is the problem. A bandpass of order 8 is a 16th-order polynomial in `a`, and expanding all those poles into one polynomial loses enough precision in double that some poles land just outside the unit circle (max |root| is 1.0003 above), "
                "so the filter is unstable and filtfilt blows up to Inf/NaN. Order 4 was only fine because the polynomial was short enough. "
                "The usual fix is to keep the design in zero-pole-gain form and convert to second-order sections: `[z,p,k] = butter(8, Wn, 'bandpass'); sos = zp2sos(z,p,k); y = filtfilt(sos, k, x)`... actually zp2sos folds the gain in, so `[sos,g] = zp2sos(z,p,k); y = filtfilt(sos, g, x);`.",
                lesson=(RC, "some poles land just outside the unit circle"),
            ),
            Edit("proc/emg_filter.m"),
            Bash(
                "matlab -batch \"addpath proc; x=randn(1,4000); y=emg_filter(x,2000); disp(any(isnan(y))); disp(max(abs(y)))\"",
                "     0\n\n    2.8146\n",
            ),
            Bash(
                "matlab -batch \"results = runtests('tests'); disp(table(results))\" 2>&1 | tail -6",
                "         Name                 Passed    Failed    Incomplete    Duration\n    _______________________    ______    ______    __________    ________\n\n    {'test_emg/testBand'  }    true      false       false       0.1123 \n    {'test_emg/testNotch' }    true      false       false       0.0418 ",
            ),
            A("Stable now and the tests pass. Response in the passband matches the order-4 version closely apart from the steeper skirts, as expected."),
            U(
                "ok. make that the standard here: IIR filters in this repo are always designed as zpk and applied as sos, never [b,a], even for low orders. someone will bump an order again",
                lesson=(R, "always designed as zpk and applied as sos, never [b,a]"),
            ),
            A(
                "Makes sense. The notch in proc/notch50.m still uses `[b,a] = iirnotch(...)`; that one is a 2nd-order section by construction so it can't have this problem, but I can convert it for consistency if you want."
            ),
            U("leave the notch, it's fine"),
        ],
    ),
    (
        "blind19-pyvisa-scope-waveform",
        "claude",
        "blind19",
        [
            U(
                "bench/scope.py fetch_waveform() times out on the new DSOX1204G. the old 2000X scope worked with the same code. usb connection"
            ),
            Bash(
                "python -m bench.scope --resource USB0::0x2A8D::0x0396::CN61234567::INSTR --channel 1",
                'Traceback (most recent call last):\n  File "/home/lab/bench/bench/scope.py", line 48, in fetch_waveform\n    raw = self.inst.read_raw()\n  File "/home/lab/.venv/lib/python3.11/site-packages/pyvisa/resources/messagebased.py", line 405, in read_raw\n    return bytes(self._read_raw(size))\n  File "/home/lab/.venv/lib/python3.11/site-packages/pyvisa/resources/messagebased.py", line 442, in _read_raw\n    chunk, status = self.visalib.read(self.session, size)\n  File "/home/lab/.venv/lib/python3.11/site-packages/pyvisa/ctwrapper/functions.py", line 2337, in read\n    ret = library.viRead(session, buffer, count, byref(return_count))\npyvisa.errors.VisaIOError: VI_ERROR_TMO (-1073807339): Timeout expired before operation completed.',
                failed=True,
            ),
            Read(
                "bench/scope.py",
                'def fetch_waveform(self, ch):\n    self.inst.write(f":WAVeform:SOURce CHANnel{ch}")\n    self.inst.write(":WAVeform:FORMat BYTE")\n    self.inst.write(":DIGitize")\n    self.inst.write(":WAVeform:DATA?")\n    raw = self.inst.read_raw()\n    return np.frombuffer(raw[10:-1], dtype=np.uint8)\n',
            ),
            A(
                "I'll check what the scope is actually doing when we ask for data. Querying the error queue first:"
            ),
            Bash(
                "python -c \"import pyvisa; s=pyvisa.ResourceManager().open_resource('USB0::0x2A8D::0x0396::CN61234567::INSTR'); print(s.query(':SYSTem:ERRor?'))\"",
                '-410,"Query INTERRUPTED"',
            ),
            A(
                "That's the cause. `:DIGitize` on the 1000X takes longer than on the 2000X at this memory depth, and we send `:WAVeform:DATA?` while the acquisition is still running. "
                "The scope aborts the pending query (-410 Query INTERRUPTED) and never answers, so read_raw sits until the VISA timeout. The old scope finished digitizing fast enough that the race never showed. "
                "Fix: wait for the operation to complete with `*OPC?` after `:DIGitize` before requesting data, and use `query_binary_values` so the IEEE block header is parsed properly instead of slicing `raw[10:-1]` (the header length depends on the point count).",
                lesson=(RC, "we send `:WAVeform:DATA?` while the acquisition is still running"),
            ),
            Edit("bench/scope.py"),
            Bash(
                "python -m bench.scope --resource USB0::0x2A8D::0x0396::CN61234567::INSTR --channel 1",
                "ch1: 62500 points, min=-0.412 V, max=1.877 V",
            ),
            Bash(
                "pytest tests/test_scope_sim.py -q 2>&1 | tail -1",
                "7 passed in 0.88s",
            ),
            A(
                "Works on the 1204G now. One more thing to keep in mind for the other instruments in bench/: the 1000X needs `read_termination = '\\n'` set on the resource but it must NOT be applied during binary reads, "
                "because a 0x0A byte can appear inside the waveform data and the read stops early with a truncated block. query_binary_values handles that by reading the block by its declared length, so don't go back to read()/read_raw for waveform data.",
                lesson=(N, "a 0x0A byte can appear inside the waveform data"),
            ),
            U("good catch, thanks"),
        ],
    ),
    (
        "blind19-codex-plc-st-timers",
        "codex",
        "blind19",
        [
            U(
                "need a function block for the conveyor jam detection. if the photo-eye PE_101 stays blocked for more than 3s while the motor runs, set Jam and stop the motor. add it to POUs/FB_ConveyorJam.st, we're on TwinCAT 3"
            ),
            A(
                "Here's a first version. I'll write it as a FUNCTION that takes the inputs and returns the jam flag, using a TON inside:\n\n```\nFUNCTION F_ConveyorJam : BOOL\nVAR_INPUT bMotorRun : BOOL; bEyeBlocked : BOOL; END_VAR\nVAR tonJam : TON; END_VAR\n```"
            ),
            U(
                "that won't work, a FUNCTION has no memory between calls so the TON restarts every scan. has to be a FUNCTION_BLOCK with the TON as an instance var",
                lesson=(C, "a FUNCTION has no memory between calls so the TON restarts"),
            ),
            A(
                "You're right, function locals are re-initialised every call so the timer's elapsed time would never accumulate. Writing it as FUNCTION_BLOCK FB_ConveyorJam with tonJam in VAR and Jam as a latched VAR_OUTPUT, reset by a rising edge on bReset."
            ),
            Edit("POUs/FB_ConveyorJam.st"),
            Bash(
                "python tools/st_lint.py POUs/FB_ConveyorJam.st",
                "POUs/FB_ConveyorJam.st:14:5: W203 literal time constant T#3S used in body, prefer a VAR_INPUT or GVL constant\n1 warning",
            ),
            U(
                "yeah the linter is right. in our projects no time literals in logic ever, every delay is a parameter in GVL_Params so maintenance can tune it from the HMI without a download",
                lesson=(R, "no time literals in logic ever, every delay is a parameter in GVL_Params"),
            ),
            A("Added `tJamDelay : TIME := T#3S;` to GVL_Params (with the {attribute 'TcHmiSymbol.AddSymbol'} pragma like the other entries) and the FB reads it from there."),
            Edit("GVLs/GVL_Params.st"),
            Edit("POUs/FB_ConveyorJam.st"),
            Bash(
                "python tools/st_lint.py POUs/ GVLs/",
                "0 warnings",
            ),
            A("Lint is clean. I didn't wire the FB into MAIN yet; tell me which conveyor instance names you want and I'll add the calls."),
            U("CV01 to CV04, just add them in MAIN after the motor section"),
            Edit("POUs/MAIN.st"),
            A("Added fbJamCV01..fbJamCV04 after the motor section in MAIN."),
        ],
    ),
    (
        "blind19-gemini-rpi5-gpio-edge",
        "gemini",
        "blind19",
        [
            U(
                "moved the doorbell project from a pi 4 to a pi 5 (bookworm). now it crashes at startup. doorbell.py"
            ),
            Bash(
                "python3 doorbell.py",
                'Traceback (most recent call last):\n  File "/home/pi/doorbell/doorbell.py", line 21, in <module>\n    GPIO.add_event_detect(BUTTON, GPIO.FALLING, callback=ring, bouncetime=200)\nRuntimeError: Failed to add edge detection',
                failed=True,
            ),
            Bash(
                "pip show RPi.GPIO | head -2; cat /proc/device-tree/model; echo; gpiodetect",
                "Name: RPi.GPIO\nVersion: 0.7.1\nRaspberry Pi 5 Model B Rev 1.0\ngpiochip0 [gpio-brcmstb@107d508500] (32 lines)\ngpiochip4 [pinctrl-rp1] (54 lines)",
            ),
            A(
                "On the Pi 5 the header GPIOs are no longer on the SoC; they're driven by the RP1 southbridge (gpiochip4 above). RPi.GPIO works by poking the BCM2835-family GPIO registers through /dev/gpiomem directly, "
                "and that register block doesn't exist on the Pi 5, so the edge-detect setup fails. It's not a permissions or wiring problem, the library simply can't drive this chip.",
                lesson=(RC, "that register block doesn't exist on the Pi 5"),
            ),
            A(
                "Options:\n- `rpi-lgpio`: a drop-in replacement that keeps the `import RPi.GPIO` API on top of lgpio. Zero code change, but some edge cases (e.g. bouncetime) behave slightly differently.\n"
                "- gpiozero (with the lgpio pin factory, the default on Bookworm): rewrite the ~30 lines to `Button(17, bounce_time=0.2)` with `when_pressed`. Cleaner, and it's what the Pi docs now recommend.\n\n"
                "Since the script is tiny I'd rewrite it with gpiozero rather than rely on a shim."
            ),
            U(
                "yeah go with gpiozero, I'd rather not depend on a compat shim that might get dropped",
                lesson=(D, "go with gpiozero, I'd rather not depend on a compat shim"),
            ),
            Edit("doorbell.py"),
            Bash(
                "pip uninstall -y RPi.GPIO && python3 -c 'import gpiozero, lgpio; print(gpiozero.__version__)'",
                "Found existing installation: RPi.GPIO 0.7.1\nUninstalling RPi.GPIO-0.7.1:\n  Successfully uninstalled RPi.GPIO-0.7.1\n2.0.1",
            ),
            Bash(
                "timeout 15 python3 doorbell.py",
                "doorbell armed on GPIO17\nring! 2026-03-02 10:14:07\n",
            ),
            A("Runs now, and pressing the button fired the callback once. I also removed RPi.GPIO from requirements.txt and added gpiozero and lgpio."),
            U("perfect, rang it myself. ty"),
        ],
    ),
    (
        "blind19-kicad-pcbnew-units",
        "claude",
        "blind19",
        [
            U(
                "write a pcbnew script that places the 16 LED footprints D1..D16 on a circle, radius 30mm, centered at (100,80) mm. kicad 8. put it in scripts/place_ring.py"
            ),
            A(
                "I'll write it against the KiCad 8 Python API and run it headless against a copy of the board so we can check positions before you touch the real file."
            ),
            Edit("scripts/place_ring.py"),
            Bash(
                "cp hw/ledring.kicad_pcb /tmp/ring_test.kicad_pcb && /usr/lib/kicad/bin/python3 scripts/place_ring.py /tmp/ring_test.kicad_pcb && /usr/lib/kicad/bin/python3 -c \"import pcbnew; b=pcbnew.LoadBoard('/tmp/ring_test.kicad_pcb'); f=b.FindFootprintByReference('D1'); print(pcbnew.ToMM(f.GetPosition().x), pcbnew.ToMM(f.GetPosition().y), f.GetOrientationDegrees())\"",
                "130.0 80.0 -90.0",
            ),
            A(
                "D1 lands at (130, 80) with the LED rotated to face outward, which is what we want. Something worth remembering for any future pcbnew scripts: the API works in integer nanometres internally, and "
                "`VECTOR2I(x, y)` silently takes raw nm, so passing millimetres directly puts parts a millionth of the intended distance away, all piled on the origin, with no error. "
                "Always wrap with `pcbnew.FromMM()` when building positions. Also the y axis points down in pcbnew, so angles go clockwise on screen compared to the usual math convention.",
                lesson=(N, "`VECTOR2I(x, y)` silently takes raw nm, so passing millimetres directly"),
            ),
            U("cool. run it on the real board"),
            Bash(
                "/usr/lib/kicad/bin/python3 scripts/place_ring.py hw/ledring.kicad_pcb && git diff --stat",
                " hw/ledring.kicad_pcb | 64 ++++++++++++++++++++++++++++----------------------------\n 1 file changed, 32 insertions(+), 32 deletions(-)",
            ),
            A("Done; 16 footprints moved (2 lines each in the board file). Open it in pcbnew and the ratsnest will need a refresh (press B to refill zones)."),
            U("looks great. thanks!"),
        ],
    ),
    (
        "blind19-opencv-contour-threshold",
        "claude",
        "blind19",
        [
            U(
                "the seed counting pipeline in vision/count_seeds.py overcounts on the darker trays, it's splitting single seeds into 2-3 blobs. can you tune it"
            ),
            Read(
                "vision/count_seeds.py",
                "gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)\nblur = cv2.GaussianBlur(gray, (5, 5), 0)\n_, mask = cv2.threshold(blur, 110, 255, cv2.THRESH_BINARY_INV)\ncnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)\nseeds = [c for c in cnts if cv2.contourArea(c) > 40]\n",
            ),
            Bash(
                "python -m vision.eval --set data/labelled --by tray_shade",
                "shade    n_img  mae    mean_pred  mean_true\nlight   34     0.9    51.2       50.6\nmedium  29     1.7    48.9       47.8\ndark    22     14.3   63.1       48.8",
            ),
            A(
                "The fixed threshold of 110 is the issue on dark trays: the background is close to the seed brightness there, so seeds get holes in the mask and break apart. "
                "I'll switch to Otsu (`THRESH_BINARY_INV + THRESH_OTSU`) so the threshold adapts per image, and add a morphological close with a 3x3 kernel to fill the holes."
            ),
            U(
                "not otsu, we tried that in the spring. the histogram is not bimodal on trays with few seeds so otsu picks a garbage threshold and the light trays go bad. use adaptiveThreshold, gaussian, block size around 51",
                lesson=(C, "not otsu, we tried that in the spring. the histogram is not bimodal"),
            ),
            A("OK, adaptive threshold with a Gaussian window, blockSize 51, C=5, followed by the 3x3 close."),
            Edit("vision/count_seeds.py"),
            Bash(
                "python -m vision.eval --set data/labelled --by tray_shade",
                "shade    n_img  mae    mean_pred  mean_true\nlight   34     0.8    50.9       50.6\nmedium  29     1.1    48.2       47.8\ndark    22     1.6    49.5       48.8",
            ),
            A("Dark trays drop from MAE 14.3 to 1.6, and light/medium also improved slightly."),
            Bash(
                "pytest tests/vision -q 2>&1 | tail -1",
                "12 passed in 3.41s",
            ),
            U("great, commit it with msg 'adaptive threshold for dark trays'"),
            Bash(
                "git commit -am 'adaptive threshold for dark trays'",
                "[main 4e1c9a2] adaptive threshold for dark trays\n 1 file changed, 4 insertions(+), 2 deletions(-)",
            ),
        ],
    ),
    (
        "blind19-codex-pytorch-eval-mode",
        "codex",
        "blind19",
        [
            U(
                "val accuracy in train.py jumps around like crazy between epochs (71%, 54%, 69%, 48%) while train loss goes down smoothly. the resnet has dropout + batchnorm. what's going on"
            ),
            Read(
                "train.py",
                "for epoch in range(cfg.epochs):\n    model.train()\n    for x, y in train_dl:\n        ...\n    acc = evaluate(model, val_dl)\n\ndef evaluate(model, dl):\n    correct = 0\n    with torch.no_grad():\n        for x, y in dl:\n            correct += (model(x.cuda()).argmax(1) == y.cuda()).sum().item()\n    return correct / len(dl.dataset)\n",
            ),
            A(
                "evaluate() never calls `model.eval()`. `torch.no_grad()` only disables gradient tracking; it doesn't change layer behaviour. So during validation dropout is still randomly zeroing activations and, "
                "worse, BatchNorm is normalising with the statistics of each val batch and updating its running mean/var with val data. With your val batch size of 16 those per-batch stats are noisy, hence the swings. "
                "I'll add `model.eval()` at the top of evaluate and `model.train()` back at the start of each epoch (it's already there).",
                lesson=(RC, "`torch.no_grad()` only disables gradient tracking; it doesn't change layer behaviour"),
            ),
            Edit("train.py"),
            Bash(
                "python train.py --config configs/small.yaml --epochs 4 2>&1 | grep val_acc",
                "epoch 0 val_acc=0.662\nepoch 1 val_acc=0.714\nepoch 2 val_acc=0.738\nepoch 3 val_acc=0.751",
            ),
            U(
                "much better. next thing, I want effective batch 256 but the 24GB card only fits 64 at 384px. grad accumulation or just drop the res?"
            ),
            A(
                "I'd do gradient accumulation over 4 steps: same effective batch and same resolution, so results stay comparable with the 256-batch baseline from the paper. Cost is wall time, not quality. "
                "Dropping to 320px would change the task (small lesions get lost), and you'd be comparing apples and oranges. "
                "One caveat: BatchNorm still sees micro-batches of 64, which is fine at that size. Divide the loss by accum_steps so the gradient scale matches."
            ),
            U(
                "ok accumulation it is, keep 384",
                lesson=(D, "accumulation it is, keep 384"),
            ),
            Edit("train.py"),
            Bash(
                "python train.py --config configs/full.yaml --epochs 1 --limit-batches 40 2>&1 | tail -2",
                "step 10/10 (accum 4) loss=2.031 lr=3.0e-04\nepoch 0 val_acc=0.412",
            ),
            A("Accumulation wired in (`accum_steps: 4` in configs/full.yaml), optimizer steps every 4 micro-batches, loss scaled by 1/4. Short smoke run completes."),
        ],
    ),
    (
        "blind19-gemini-hf-datasets-map-cache",
        "gemini",
        "blind19",
        [
            U(
                "I changed the tokenizer max_length in prep/tokenize.py from 512 to 1024 but the dataset coming out still has 512-token rows?? rerun it"
            ),
            Read(
                "prep/tokenize.py",
                'MAX_LEN = int(os.environ.get("MAX_LEN", 1024))\n\ndef tok(batch):\n    return tokenizer(batch["text"], truncation=True, max_length=MAX_LEN)\n\nds = load_dataset("json", data_files="data/raw/*.jsonl", split="train")\nds = ds.map(tok, batched=True, num_proc=8)\n',
            ),
            Bash(
                "MAX_LEN=1024 python prep/tokenize.py 2>&1 | tail -2; python -c \"from datasets import load_from_disk; d=load_from_disk('data/tok'); print(max(len(x) for x in d['input_ids'][:2000]))\"",
                "Loading cached processed dataset at /home/mo/.cache/huggingface/datasets/json/default-3c1f0a/0.0.0/cache-5b8e2f9d41a7c6e3_*_of_00008.arrow\n512",
            ),
            A(
                "It loaded a cached result. `datasets` fingerprints the `map` call by hashing the function, and `tok` reads MAX_LEN as a module global. In this version the hash didn't pick up the changed value, "
                "so it reused the cache from the 512 run. Passing the setting explicitly via `fn_kwargs={\"max_length\": MAX_LEN}` makes it part of the fingerprint; I'll do that (and you can always force it with `load_from_cache_file=False`).",

                lesson=(RC, "the hash didn't pick up the changed value"),
            ),
            Edit("prep/tokenize.py"),
            Bash(
                "MAX_LEN=1024 python prep/tokenize.py 2>&1 | tail -1; python -c \"from datasets import load_from_disk; d=load_from_disk('data/tok'); print(max(len(x) for x in d['input_ids'][:2000]))\"",
                "Map (num_proc=8): 100%|██████████| 412038/412038 [01:12<00:00, 5692.11 examples/s]\n1024",
            ),
            A(
                "Now 1024. Heads-up for later: anything that changes a `map` function's behaviour through globals, env vars or a config object the function closes over can be silently served from the old cache. "
                "Pass those values through fn_kwargs so they're hashed, or you'll keep getting stale data without any warning.",
                lesson=(N, "can be silently served from the old cache"),
            ),
            U(
                "ugh. ok. also while you're there, the load_dataset for the eval set pulls from the hub. always pin revision= to a commit sha for anything from the hub in this repo, we got burned when the upstream dataset got re-split",
                lesson=(R, "always pin revision= to a commit sha for anything from the hub"),
            ),
            Bash(
                "grep -rn 'load_dataset(' prep/ eval/ | grep -v data_files",
                'eval/build_eval.py:9:ds = load_dataset("cardiffnlp/tweet_eval", "sentiment", split="test")',
            ),
            Bash(
                "python -c \"from huggingface_hub import HfApi; print(HfApi().dataset_info('cardiffnlp/tweet_eval').sha)\"",
                "b3a375baf0f409c77e6bc7aa35102b7b3534f8be",
            ),
            Edit("eval/build_eval.py"),
            A("Pinned eval/build_eval.py to revision b3a375baf0f409c77e6bc7aa35102b7b3534f8be, which is the current head; it was the only hub load."),
        ],
    ),
    (
        "blind19-onnx-export-dynamic-axes",
        "claude",
        "blind19",
        [
            U(
                "we need the reranker (models/reranker.py) exported to onnx so the go service can run it with onnxruntime. batch size and seq len vary per request"
            ),
            A(
                "Plan: export with `torch.onnx.export`, mark batch and sequence as dynamic, then compare outputs against PyTorch on a few random shapes. A question on shapes first: "
                "fully dynamic axes is simplest, but onnxruntime can optimise a bit better with fixed shapes. Since your requests range from 1 to 64 pairs and 16-512 tokens, padding to a fixed shape would waste a lot, "
                "so I'd go fully dynamic on both batch and sequence and accept the small kernel-selection cost.",
            ),
            U(
                "agreed, fully dynamic on both axes, padding to 64x512 would waste way too much",
                lesson=(D, "fully dynamic on both axes, padding to 64x512 would waste"),
            ),
            Edit("scripts/export_onnx.py"),
            Bash(
                "python scripts/export_onnx.py --out build/reranker.onnx",
                "/home/ci/.venv/lib/python3.12/site-packages/torch/onnx/_internal/exporter/_registration.py:107: UserWarning: torchvision is not installed, skipping torchvision ops registration\n[torch.onnx] Obtain model graph for `Reranker([...]` with `torch.export.export(..., strict=False)`...\n[torch.onnx] Obtain model graph ... ✅\n[torch.onnx] Run decomposition...\n[torch.onnx] Translate the graph into ONNX... ✅\nsaved build/reranker.onnx (opset 18)",
            ),
            A("Exported with the new dynamo-based exporter (`dynamo=True`) at opset 18. Checking parity next."),
            U(
                "switch that to the legacy torchscript exporter with opset 17. the onnxruntime in the go service is pinned to 1.16 and the dynamo graphs use ops it chokes on, platform team won't bump it before Q3",
                lesson=(C, "switch that to the legacy torchscript exporter with opset 17"),
            ),
            A("Understood, using `dynamo=False, opset_version=17` with `dynamic_axes` for input_ids/attention_mask/logits."),
            Edit("scripts/export_onnx.py"),
            Bash(
                "python scripts/export_onnx.py --out build/reranker.onnx && python scripts/check_parity.py build/reranker.onnx --ort-version 1.16.3",
                "saved build/reranker.onnx (opset 17)\nshape (1, 16):   max abs diff 2.4e-06\nshape (8, 128):  max abs diff 3.1e-06\nshape (64, 512): max abs diff 4.8e-06\nOK",
            ),
            A("Parity holds on all three shapes against onnxruntime 1.16.3 (max diff ~5e-6)."),
            U("nice, thx"),
        ],
    ),
    (
        "blind19-triton-max-batch-dims",
        "claude",
        "blind19",
        [
            U(
                "triton refuses to load the new embedding model. model_repo/embedder/config.pbtxt. the onnx input is [batch, 256] int64"
            ),
            Bash(
                "docker logs triton 2>&1 | grep -i embedder | tail -2",
                "I0302 10:21:44.118273 1 model_lifecycle.cc:473] loading: embedder:1\nE0302 10:21:44.402719 1 model_lifecycle.cc:638] failed to load 'embedder' version 1: Invalid argument: model 'embedder', tensor 'input_ids': the model expects 2 dimensions (shape [-1,256]) but the model configuration specifies 3 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,-1,256])",
                failed=True,
            ),
            Read(
                "model_repo/embedder/config.pbtxt",
                'name: "embedder"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 32\ninput [\n  { name: "input_ids" data_type: TYPE_INT64 dims: [ -1, 256 ] }\n]\noutput [\n  { name: "embeddings" data_type: TYPE_FP32 dims: [ -1, 768 ] }\n]\n',
            ),
            A(
                "With `max_batch_size > 0`, Triton adds the batch dimension implicitly, and `dims` must describe a single example without it. The config lists `[-1, 256]`, so Triton thinks the full shape is [batch, -1, 256], "
                "one dimension more than the ONNX graph has. Same for the output. Dropping the leading -1 from both `dims` fixes it: `[ 256 ]` and `[ 768 ]`.",
                lesson=(RC, "`dims` must describe a single example without it"),
            ),
            Edit("model_repo/embedder/config.pbtxt"),
            Bash(
                "curl -s -X POST localhost:8000/v2/repository/models/embedder/load && curl -s localhost:8000/v2/models/embedder/ready -o /dev/null -w '%{http_code}\\n'",
                "200",
            ),
            Bash(
                "python clients/smoke_embed.py --url localhost:8001 --n 5",
                "embeddings: shape=(5, 768) dtype=float32 norm_mean=1.000",
            ),
            A("Loaded and serving; the smoke client gets (5, 768) back."),
            U("sweet"),
        ],
    ),
    (
        "blind19-codex-ray-nested-get",
        "codex",
        "blind19",
        [
            U(
                "the ray job in jobs/backfill.py hangs forever on the 8-node cluster once there are more than ~60 partitions. with 20 partitions it finishes fine"
            ),
            Read(
                "jobs/backfill.py",
                "@ray.remote(num_cpus=1)\ndef process_partition(p):\n    chunks = [fetch_chunk.remote(p, i) for i in range(4)]\n    rows = ray.get(chunks)\n    return write_rows(p, rows)\n\n@ray.remote(num_cpus=1)\ndef fetch_chunk(p, i): ...\n",
            ),
            Bash(
                "ray status --address auto | sed -n '/Usage/,/Demands/p'",
                "Usage:\n 64.0/64.0 CPU\n 0B/180.00GiB memory\n 2.41GiB/76.62GiB object_store_memory\n\nDemands:\n {'CPU': 1.0}: 240+ pending tasks/actors",
            ),
            A(
                "All 64 CPUs are taken by `process_partition` tasks, and each of those is waiting in `ray.get` on `fetch_chunk` tasks that need a CPU too, which none is free to give. "
                "Ray does release the CPU of a task blocked in ray.get, but here the scheduler keeps handing the freed slots to more pending process_partition tasks, so nothing ever reaches the fetch_chunk layer. "
                "With 20 partitions there's spare capacity so it never showed.\n\n"
                "Options: (a) make fetch_chunk `num_cpus=0.25`, (b) limit concurrent parents with a semaphore-style `ray.wait` loop in the driver, or (c) flatten it: submit all fetch_chunk tasks from the driver and pass their refs into process_partition as arguments, so Ray resolves them before the parent is even scheduled. "
                "I'd go with (c): no nested blocking at all, and it's the pattern Ray recommends.",

                lesson=(RC, "each of those is waiting in `ray.get` on `fetch_chunk` tasks"),
            ),
            U(
                "do c, passing refs as args is cleaner",
                lesson=(D, "do c, passing refs as args is cleaner"),
            ),
            Edit("jobs/backfill.py"),
            Bash(
                "ray job submit --address http://head:8265 --working-dir . -- python jobs/backfill.py --partitions 240 2>&1 | tail -3",
                "2026-03-02 10:52:13,004 INFO backfill.py:88 -- wrote 240/240 partitions (71,223,904 rows)\n------------------------------------------\nJob 'raysubmit_Lk2f9QwBv3xYtP1a' succeeded\n------------------------------------------",
            ),
            A(
                "240 partitions complete in about 11 minutes. Note that refs passed *inside a list* are not resolved automatically, only top-level arguments are; I passed the four chunk refs as `*chunk_refs` so Ray materialises them before the task starts. "
                "If someone later wraps them in a list again the task gets ObjectRefs instead of data and has to ray.get them itself.",
                lesson=(N, "refs passed *inside a list* are not resolved automatically"),
            ),
            U("good to know. thanks"),
        ],
    ),
    (
        "blind19-gemini-ipywidgets-observe",
        "gemini",
        "blind19",
        [
            U(
                "in notebooks/explore.ipynb I want the histogram to redraw when the user changes the bins slider. right now there's an 'update' button, get rid of it"
            ),
            A(
                "I'll replace the button with a `widgets.interact` call on the plotting function, `interact(plot_hist, bins=IntSlider(10, 5, 200))`. It redraws on every slider change and is the shortest version."
            ),
            U(
                "no interact please, it recreates the whole output and the figure flickers and loses zoom. use slider.observe(..., names='value') and update the existing FigureWidget's trace in place",
                lesson=(C, "no interact please, it recreates the whole output and the figure flickers"),
            ),
            A(
                "Right, with a plotly FigureWidget you can just assign `fig.data[0].nbinsx = change['new']` inside a `fig.batch_update()` and keep the axes state. Making that change."
            ),
            Edit("notebooks/explore.ipynb"),
            Bash(
                "jupyter nbconvert --to notebook --execute notebooks/explore.ipynb --output /tmp/explore_out.ipynb 2>&1 | tail -1",
                "[NbConvertApp] Writing 188204 bytes to /tmp/explore_out.ipynb",
            ),
            A("Notebook executes cleanly. The button and its on_click handler are gone; the slider observer updates nbinsx in place."),
            U("nice. how's your day going anyway lol"),
            A("Going fine, mostly histograms so far. Anything else in the notebook you want cleaned up?"),
            U("nah that's it for now"),
        ],
    ),
    (
        "blind19-streamlit-cache-connections",
        "claude",
        "blind19",
        [
            U(
                "the sales dashboard (app/dashboard.py) takes 8-10 s on every click of any filter. it queries postgres each rerun i think"
            ),
            Read(
                "app/dashboard.py",
                'region = st.selectbox("Region", REGIONS)\nconn = psycopg.connect(st.secrets["pg_dsn"])\ndf = pd.read_sql("select * from sales_daily where day >= now() - interval \'365 days\'", conn)\ndf = df[df.region == region]\nst.line_chart(df, x="day", y="revenue")\n',
            ),
            A(
                "Yes: every widget interaction reruns the whole script top to bottom, so it opens a new connection and pulls a year of sales each time. Two ways to fix:\n\n"
                "1. `@st.cache_data(ttl=600)` on a function that loads the year once and filter in pandas. Simple, one query per 10 minutes per server, but keeps ~200 MB in memory.\n"
                "2. `@st.cache_resource` for the connection plus a parametrised query per region with `st.cache_data` keyed on region. Less memory, one query per region per ttl.\n\n"
                "I'd take option 2: the table keeps growing and there are only 6 regions, so the memory of option 1 grows for no benefit.",
            ),
            U(
                "go with 2, no point holding a whole year per server in memory",
                lesson=(D, "go with 2, no point holding a whole year per server"),
            ),
            Edit("app/dashboard.py"),
            Bash(
                "pytest tests/test_dashboard.py -q 2>&1 | tail -1",
                "4 passed in 2.10s",
            ),
            A("Done. First load per region ~1.4 s, after that instant until the 10 min ttl expires."),
            U(
                "great. rule for this app from now on: never call psycopg.connect outside an st.cache_resource function. we ran the db out of connections last month because of exactly this",
                lesson=(R, "never call psycopg.connect outside an st.cache_resource function"),
            ),
            Bash(
                "grep -rn 'psycopg.connect' app/",
                "app/db.py:7:    return psycopg.connect(st.secrets[\"pg_dsn\"])\napp/pages/2_inventory.py:14:conn = psycopg.connect(st.secrets[\"pg_dsn\"])",
            ),
            A("app/pages/2_inventory.py has the same pattern. I'll switch it to `get_conn()` from app/db.py, which is now the cached one."),
            Edit("app/pages/2_inventory.py"),
            Bash(
                "pytest tests -q 2>&1 | tail -1",
                "9 passed in 3.02s",
            ),
        ],
    ),
    (
        "blind19-dash-pattern-matching-initial",
        "claude",
        "blind19",
        [
            U(
                "in the plant monitor dash app, each line card has a 'details' button (pattern-matching ids {'type': 'details-btn', 'index': line_id}). when the page loads, all 12 detail modals pop open at once. dash 2.17"
            ),
            Read(
                "monitor/callbacks.py",
                "@callback(\n    Output({'type': 'details-modal', 'index': MATCH}, 'is_open'),\n    Input({'type': 'details-btn', 'index': MATCH}, 'n_clicks'),\n)\ndef toggle_details(n):\n    return True\n",
            ),
            A(
                "The callback returns True no matter what, so it opens the modal whenever it runs, including on load. I'll add `prevent_initial_call=True` to the decorator.",
            ),
            Edit("monitor/callbacks.py"),
            Bash(
                "pytest tests/test_callbacks.py -q 2>&1 | tail -1",
                "5 passed in 4.87s",
            ),
            A(
                "Fixed. One caveat for this app specifically: the line cards are rendered by the `refresh-lines` interval callback, i.e. they're added to the layout after load. "
                "prevent_initial_call does NOT stop callbacks from firing when new components appear in the layout later, so when the interval re-renders the cards the modal callbacks run again. "
                "That's why toggle_details should also check `if not n: raise PreventUpdate`, otherwise modals would reopen every 30 s refresh.",
                lesson=(N, "prevent_initial_call does NOT stop callbacks from firing when new components appear"),
            ),
            Edit("monitor/callbacks.py"),
            U(
                "ok. btw don't use the dbc Modal here, the ops screens are kiosks and modals block the whole screen when nobody closes them. use a dbc.Collapse under each card instead",
                lesson=(C, "don't use the dbc Modal here, the ops screens are kiosks"),
            ),
            A(
                "Makes sense for unattended screens. Switching the details to `dbc.Collapse` inside each card and toggling `is_open` with the button, same MATCH pattern with the n_clicks guard."
            ),
            Edit("monitor/layout.py"),
            Edit("monitor/callbacks.py"),
            Bash(
                "pytest tests -q 2>&1 | tail -1",
                "11 passed in 6.02s",
            ),
            A("Done, details now expand inline under the card and nothing opens on load or on the 30 s refresh."),
        ],
    ),
    (
        "blind19-gemini-parquet-partition-scheme",
        "gemini",
        "blind19",
        [
            U(
                "we're writing the telemetry export to s3 as parquet with pyarrow, partitioned by device_id right now. it's ~40k devices and athena queries by date are super slow. what should the layout be"
            ),
            Bash(
                "aws s3 ls s3://acme-telemetry/export/ --recursive --summarize | tail -2",
                "Total Objects: 1843227\n   Total Size: 611382211584",
            ),
            A(
                "1.8M objects for ~570 GB is about 330 KB per file, which is far too small; Athena spends most of its time listing and opening files. And since you filter by date, partitioning by device_id gives no pruning at all.\n\n"
                "Options:\n1. `dt=YYYY-MM-DD/` hive partitions only, with device_id as a sorted column inside files. ~1 partition per day, files of a few hundred MB, date filters prune perfectly, device filters use row-group stats.\n"
                "2. `dt=/device_bucket=NN/` with 16 hash buckets. Helps if you often filter by a single device, at the cost of 16x more files.\n\n"
                "Given your queries are mostly date ranges across all devices, I'd do option 1 and sort by device_id, ts within each day.",
            ),
            U(
                "option 1. per-device lookups are rare and they can live with row group pruning",
                lesson=(D, "per-device lookups are rare and they can live with row group pruning"),
            ),
            Edit("export/write_parquet.py"),
            U(
                "also, partition columns in this bucket are always named dt and always a string YYYY-MM-DD, never a date type. glue crawlers and spark disagree on date partition types and we've had jobs break over it",
                lesson=(R, "partition columns in this bucket are always named dt and always a string"),
            ),
            A("OK, `dt` is derived as `pc.strftime(ts, '%Y-%m-%d')` and written as a string partition with `partitioning_flavor='hive'`."),
            Edit("export/write_parquet.py"),
            Bash(
                "python -m export.write_parquet --day 2026-03-01 --dest s3://acme-telemetry/export_v2/ && aws s3 ls s3://acme-telemetry/export_v2/dt=2026-03-01/ --human-readable",
                "wrote 1 partitions, 3 files, 48,210,773 rows\n2026-03-02 11:02:41  243.1 MiB part-0.parquet\n2026-03-02 11:02:44  241.8 MiB part-1.parquet\n2026-03-02 11:02:45  102.6 MiB part-2.parquet",
            ),
            A("One day is 3 files of ~100-240 MiB. I capped `max_rows_per_file` at 20M. Want me to backfill the last 90 days into export_v2?"),
            U("yes, run it in the background"),
            Bash(
                "nohup python -m export.write_parquet --from 2025-12-02 --to 2026-03-01 --dest s3://acme-telemetry/export_v2/ > /tmp/backfill.log 2>&1 & echo $!",
                "48213",
            ),
            A("Backfill started as pid 48213, logging to /tmp/backfill.log."),
        ],
    ),
    (
        "blind19-arrow-ipc-reader-routine",
        "claude",
        "blind19",
        [
            U(
                "add a `--columns` flag to tools/ipc_dump.py so I can only print selected columns from the .arrows stream files"
            ),
            Read(
                "tools/ipc_dump.py",
                'def main():\n    ap = argparse.ArgumentParser()\n    ap.add_argument("path")\n    ap.add_argument("--limit", type=int, default=20)\n    args = ap.parse_args()\n    with pa.OSFile(args.path) as f:\n        table = pa.ipc.open_stream(f).read_all()\n    print(table.slice(0, args.limit).to_pandas())\n',
            ),
            A("I'll add `--columns` as a comma-separated list and apply `table.select(...)` after reading; unknown names will raise a clear error."),
            Edit("tools/ipc_dump.py"),
            Edit("tests/test_ipc_dump.py"),
            Bash(
                "pytest tests/test_ipc_dump.py -q 2>&1 | tail -1",
                "4 passed in 0.31s",
            ),
            Bash(
                "python tools/ipc_dump.py samples/ticks.arrows --columns ts,symbol --limit 3",
                "                          ts symbol\n0 2026-03-01 09:30:00.001 AAPL\n1 2026-03-01 09:30:00.001 MSFT\n2 2026-03-01 09:30:00.003 AAPL",
            ),
            A("Added `--columns`, with a test for selection and one for an unknown column name. Works on the sample file."),
            U("thanks"),
        ],
    ),
    (
        "blind19-julia-dataframes-rename-routine",
        "claude",
        "blind19",
        [
            U(
                "in src/report.jl rename the output columns of summarize_site to snake_case (MeanTemp -> mean_temp etc) and update the test"
            ),
            Read(
                "src/report.jl",
                "function summarize_site(df)\n    combine(groupby(df, :site),\n        :temp => mean => :MeanTemp,\n        :temp => maximum => :MaxTemp,\n        nrow => :NObs)\nend\n",
            ),
            Edit("src/report.jl"),
            Edit("test/test_report.jl"),
            Bash(
                "julia --project -e 'using Pkg; Pkg.test()' 2>&1 | tail -4",
                "Test Summary: | Pass  Total  Time\nreport        |   11     11  1.8s\n     Testing Report tests passed ",
            ),
            A("Renamed to mean_temp, max_temp and n_obs; tests pass."),
            U("👍"),
        ],
    ),
    (
        "blind19-codex-duckdb-query-routine",
        "codex",
        "blind19",
        [
            U(
                "add a weekly_active query to analytics/queries.sql next to daily_active, same shape but by iso week. and a test"
            ),
            Read(
                "analytics/queries.sql",
                "-- name: daily_active\nSELECT date_trunc('day', event_ts) AS day, count(DISTINCT user_id) AS dau\nFROM read_parquet('events/*.parquet')\nGROUP BY 1 ORDER BY 1;\n",
            ),
            Edit("analytics/queries.sql"),
            Edit("tests/test_queries.py"),
            Bash(
                "pytest tests/test_queries.py -q 2>&1 | tail -1",
                "6 passed in 1.12s",
            ),
            Bash(
                "duckdb -c \"$(sed -n '/name: weekly_active/,/;/p' analytics/queries.sql | sed 's#events/#tests/fixtures/events/#')\"",
                "┌─────────────────────┬───────┐\n│        week         │  wau  │\n│      timestamp      │ int64 │\n├─────────────────────┼───────┤\n│ 2026-02-16 00:00:00 │   412 │\n│ 2026-02-23 00:00:00 │   397 │\n└─────────────────────┴───────┘",
            ),
            A("Added weekly_active using `date_trunc('week', ...)` (ISO weeks starting Monday) plus a test against the fixture data. All 6 tests pass."),
        ],
    ),
    (
        "blind19-smalltalk-keyboard",
        "claude",
        "blind19",
        [
            U("random q before I start, do you have opinions on split keyboards? my wrists have been complaining"),
            A(
                "Plenty of people with wrist strain find them helpful, mostly because you can keep your hands shoulder-width apart and stop bending your wrists outward. "
                "If you want to try without a big spend, a tented split like a used Kinesis Freestyle or an ErgoDox is a gentler start than jumping to a 36-key board. And a lot of it is just breaks and desk height, honestly."
            ),
            U("ha my desk is definitely too high. ok might try one. how long did people say it takes to get used to"),
            A("Typically a week or two to get back to normal speed if the layout is standard; columnar or very small layouts take longer, often a month."),
            U("ok cool, thanks. let's leave it there for now, gotta grab lunch"),
            A("Enjoy lunch!"),
        ],
    ),
    (
        "blind19-codex-smalltalk-conference",
        "codex",
        "blind19",
        [
            U("not a coding thing, I'm giving a 10 min lightning talk at a local meetup next week. any tips to not run over time"),
            A(
                "A few that work for most people: plan for 8 minutes of content, not 10; one idea per slide; rehearse out loud with a timer at least twice; and decide in advance which slide you drop if you're running late. "
                "Starting with the punchline also helps, so if you get cut off the audience already has the main point."
            ),
            U("the 'which slide to drop' thing is smart. thanks!"),
            A("Good luck with the talk!"),
        ],
    ),
    (
        "blind19-gemini-smalltalk-weekend",
        "gemini",
        "blind19",
        [
            U("friday finally. any idea for a rainy weekend that isn't more screen time"),
            A(
                "Some low-effort options: a jigsaw or a board game if you've got people around, cooking something slow like a stew or bread, a long walk anyway with proper rain gear, or a library visit. "
                "If you like making things, a cheap watercolor set is surprisingly relaxing even if the results are terrible."
            ),
            U("bread sounds good actually. never made it though"),
            A("A no-knead loaf is the easiest start: flour, water, salt, a little yeast, let it sit overnight, bake in a hot pot with the lid on. Hard to mess up."),
            U("sweet, thanks, have a good one"),
        ],
    ),
]
