"""perf.streaming_sweep: `halogen_perf --streaming-sweep` on its two smallest cases (LayerNorm
1x128x4096, the gather at T = 128 with hot ids; 2 MiB of output each), one short repetition at
1 thread: each kernel runs through both entries, both agree with the reference, the context
records the runner's threshold, and perf/report turns the run into its table. Checks the wiring,
not the speed. Standard library only.

    HALOGEN_PERF_BINARY=build/perf/halogen_perf /usr/bin/python3 -B perf/tests/test_streaming_sweep.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "report")
CASES = ["layernorm:1x128x4096", "embedding:V=128256,D=4096,T=128,ids=hot"]
ENTRIES = ["halogen:fused", "halogen:gather"]


class StreamingSweep(unittest.TestCase):
    def test_both_entries_timed_checked_and_reported(self):
        binary = os.environ.get("HALOGEN_PERF_BINARY")
        if not binary:
            self.skipTest("HALOGEN_PERF_BINARY is not set")
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "sweep.json")
            subprocess.run([binary, "--streaming-sweep", "--threads", "1", "--repetitions", "1", "--min-time", "0.01",
                            "--benchmark_filter=^(layernorm:1x128x4096|embedding:V=128256,D=4096,T=128,ids=hot)/",
                            f"--benchmark_out={run}", "--benchmark_out_format=json"],
                           check=True, capture_output=True, text=True)
            with open(run) as f:
                data = json.load(f)
            self.assertEqual(data["context"]["grid"], "streaming-sweep")
            threshold = int(data["context"]["streaming_threshold_bytes"])
            timed = {}
            for b in data["benchmarks"]:
                if b.get("run_type") == "iteration":
                    self.assertFalse(b.get("error_occurred"), b.get("error_message"))
                    timed["/".join(b["run_name"].split("/")[:3])] = b["max_abs_err"]
            want = {f"{case}/{impl}{suffix}/t1" for case, impl in zip(CASES, ENTRIES)
                    for suffix in (" (cached stores)", " (streaming stores)")}
            self.assertEqual(set(timed), want)
            self.assertEqual(set(timed.values()), {0.0})   # a norm and a copy: the same bits either way

            out = os.path.join(tmp, "sweep.md")
            subprocess.run([sys.executable, REPORT, run, "--no-plots", "--out", out], check=True, capture_output=True)
            with open(out) as f:
                lines = f.read().splitlines()
            start = lines.index("## Streaming stores by output size")
            rows = [line for line in lines[start:] if line.startswith("| `")]
            self.assertEqual(len(rows), 2)
            takes = "streaming" if 2 << 20 >= threshold else "cached"
            for row in rows:
                cells = [c.strip() for c in row.strip("|").split("|")]
                self.assertEqual((cells[2], cells[3], cells[7]), ("2", "1", takes), row)
                self.assertTrue(cells[6].endswith("×"), row)   # both entries timed, so a speedup


if __name__ == "__main__":
    unittest.main()
