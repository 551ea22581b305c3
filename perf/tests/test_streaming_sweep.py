"""perf.streaming_sweep: `halogen_perf --streaming-sweep` on its two smallest cases (LayerNorm
1x128x4096, the gather at T = 128 with hot ids; 2 MiB of output each), one short repetition at
1 thread: each kernel runs through both entries, both agree with the reference (the gather's
bit for bit, LayerNorm's to about an ulp), the context records the runner's threshold, and
perf/report turns the run into its table. Checks the wiring, not the speed. Standard library only.

    HALOGEN_PERF_BINARY=build/perf/halogen_perf /usr/bin/python3 -B perf/tests/test_streaming_sweep.py
"""

import os
import tempfile
import unittest

from harness import perf_binary, report, run_perf

CASES = ["layernorm:1x128x4096", "embedding:V=128256,D=4096,T=128,ids=hot"]
ENTRIES = ["halogen:fused", "halogen:gather"]


def sweep_rows(lines):
    """The body rows of the table under "## Streaming stores by output size" (the family tables
    after it have rows of their own)."""
    start = lines.index("## Streaming stores by output size")
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("|"))
    end = next((i for i in range(first, len(lines)) if not lines[i].startswith("|")), len(lines))
    return lines[first + 2:end]


class StreamingSweep(unittest.TestCase):
    def test_both_entries_timed_checked_and_reported(self):
        binary = perf_binary(self)
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "sweep.json")
            data = run_perf(binary, run, "--streaming-sweep", "--threads", "1", "--repetitions", "1", "--min-time",
                            "0.01", "--benchmark_filter=^(layernorm:1x128x4096|embedding:V=128256,D=4096,T=128,ids=hot)/")
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
            for name, err in timed.items():
                if name.startswith("embedding"):
                    self.assertEqual(err, 0.0, name)   # a copy of rows: the same bits either way
                else:
                    # LayerNorm's twin normalizes one row per step where the ordinary kernel pairs
                    # rows (schedules/norms/schedules.cpp): the same sums, rounded apart by an ulp or so.
                    self.assertLess(err, 1e-6, name)

            lines = report(os.path.join(tmp, "sweep.md"), run).splitlines()
            rows = sweep_rows(lines)
            self.assertEqual(len(rows), 2)
            takes = "streaming" if 2 << 20 >= threshold else "cached"
            for row in rows:
                cells = [c.strip() for c in row.strip("|").split("|")]
                self.assertEqual((cells[2], cells[3], cells[7]), ("2", "1", takes), row)
                self.assertTrue(cells[6].endswith("×"), row)   # both entries timed, so a speedup


if __name__ == "__main__":
    unittest.main()
