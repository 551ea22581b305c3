"""perf.goals_run: `halogen_perf --goals` (paired rounds) on two small goal points, the gather at
T = 16 with hot ids and GroupNorm, two short rounds at 1 thread, each on its own set of buffers. Each timing carries its round and
its goal point; a point's kernel, its peers and (a norm) limit:stream are all timed in every round,
each leading in turn; limit:stream-cached gets its own group; perf/report --goals takes the
medians of the rounds. The full grid runs in rounds too, a group per case and thread count.
Every peer operation registered for a one-row matmul (GEMV) case runs there: a peer's operation
names are read off a family's tiny case, and must not change with the shape. --in-order, which
only the quick grid and the sweep honour, is refused elsewhere.
Checks the wiring, not the speed. Standard library only.

    HALOGEN_PERF_BINARY=build/perf/halogen_perf /usr/bin/python3 -B perf/tests/test_goals_run.py
"""

import os
import subprocess
import tempfile
import unittest
from collections import defaultdict

from harness import perf_binary, report, run_perf

HERE = os.path.dirname(os.path.abspath(__file__))
FULL_RUN = os.path.join(HERE, "fixtures", "sample_run.json")
GATHER = "embedding:V=128256,D=4096,T=16,ids=hot"
GROUPNORM = "groupnorm:8x256x56x56"


class GoalsRun(unittest.TestCase):
    def test_paired_rounds(self):
        binary = perf_binary(self)
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "goals.json")
            data = run_perf(binary, run, "--goals", "--placements", "2", "--threads", "1", "--repetitions", "2",
                            "--min-time", "0.01",
                            "--benchmark_filter=^(embedding:V=128256,D=4096,T=16,ids=hot|groupnorm:)")
            context = data["context"]
            self.assertEqual((context["grid"], context["interleaved"], context["placements"]), ("goals", "paired", "2"))
            peers = set(filter(None, data["context"]["peers"].split(",")))

            order = defaultdict(list)      # (group, round) -> benchmarks in the order they ran
            for b in data["benchmarks"]:
                self.assertFalse(b.get("error_occurred"), b.get("error_message"))
                order[(b["label"], b["repetition_index"])].append("/".join(b["run_name"].split("/")[:3]))
            groups = {group for group, _ in order}
            self.assertEqual(groups, {f"{GATHER}/t1", f"{GROUPNORM}/t1", "limit:stream-cached/t1"})
            self.assertEqual({r for _, r in order}, {0, 1})

            want = {f"{GATHER}/t1": {f"{GATHER}/halogen:gather/t1"}
                    | ({f"{GATHER}/libtorch:index_select/t1"} if "libtorch" in peers else set()),
                    f"{GROUPNORM}/t1": {f"{GROUPNORM}/halogen:fused/t1", "limit:stream/machine/t1"}
                    | ({f"{GROUPNORM}/libtorch:native_group_norm (allocates)/t1"} if "libtorch" in peers else set()),
                    "limit:stream-cached/t1": {"limit:stream-cached/machine/t1"}}
            for group, members in want.items():
                first, second = order[(group, 0)], order[(group, 1)]
                self.assertEqual((set(first), set(second)), (members, members), group)
                self.assertEqual(len(first), len(members), group)   # each once per round
                if len(members) > 1:
                    self.assertNotEqual(first[0], second[0], group)  # another member leads

            text = report(os.path.join(tmp, "goals.md"), FULL_RUN, "--goals", run)
            self.assertIn("GB/s vs `limit:stream` GB/s | 8x256x56x56 t1: ", text)
            self.assertIn("(median of 2 rounds, ", text)

    def test_full_grid_in_rounds(self):
        binary = perf_binary(self)
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "grid.json")
            data = run_perf(binary, run, "--threads", "1", "--repetitions", "2", "--min-time", "0.01",
                            f"--benchmark_filter=^({GATHER}/halogen:gather|limit:fma)/")
            context = data["context"]
            self.assertEqual((context["grid"], context["interleaved"]), ("full", "paired"))
            rounds = defaultdict(set)      # benchmark -> its rounds, each under its group's label
            for b in data["benchmarks"]:
                self.assertFalse(b.get("error_occurred"), b.get("error_message"))
                name = "/".join(b["run_name"].split("/")[:3])
                case, threads = name.split("/")[0], name.split("/")[-1]
                self.assertEqual(b["label"], f"{case}/{threads}")
                rounds[name].add(b["repetition_index"])
            self.assertEqual(dict(rounds), {f"{GATHER}/halogen:gather/t1": {0, 1},
                                            "limit:fma/machine/t1": {0, 1}})


    def test_in_order_is_refused_where_rounds_run(self):
        binary = perf_binary(self)
        for grid in ([], ["--goals"]):
            done = subprocess.run([binary, "--in-order", *grid, "--threads", "1"], capture_output=True, text=True)
            self.assertNotEqual(done.returncode, 0, grid)
            self.assertIn("--in-order: applies to --quick and --streaming-sweep only", done.stderr)

    def test_peers_run_on_one_row(self):
        binary = perf_binary(self)
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "gemv.json")
            data = run_perf(binary, run, "--quick", "--threads", "1", "--repetitions", "1", "--min-time", "0.01",
                            "--benchmark_filter=^(matmul|linear):M=1,K=2048,N=2048/")
            peers = set(filter(None, data["context"]["peers"].split(",")))
            ran = set()
            for b in data["benchmarks"]:
                self.assertFalse(b.get("error_occurred"), f"{b['run_name']}: {b.get('error_message')}")
                ran.add(b["run_name"].split("/")[1].split(":")[0])
            self.assertEqual(ran, {"halogen"} | peers)

    def test_libtorch_runs_its_matmuls_on_the_timed_threads(self):
        # OpenBLAS sized for 2 threads when it loads, as on any 2-core machine; libtorch's mm at
        # 1 thread must run on 1 (at::set_num_threads alone leaves the BLAS at 2).
        binary = perf_binary(self)
        with tempfile.TemporaryDirectory() as tmp:
            run = os.path.join(tmp, "mm.json")
            data = run_perf(binary, run, "--quick", "--threads", "1", "--repetitions", "1", "--min-time", "0.01",
                            "--benchmark_filter=^matmul:M=1,K=2048,N=2048/libtorch", env={"OPENBLAS_NUM_THREADS": "2"})
            if "libtorch" not in data["context"]["peers"].split(","):
                self.skipTest("no libtorch peer in this build")
            timed = [b for b in data["benchmarks"] if not b.get("error_occurred")]
            self.assertTrue(timed)
            if all(b["blas_threads"] == 0 for b in timed):
                self.skipTest("libtorch's BLAS is not OpenBLAS here")
            for b in timed:
                self.assertEqual((b["run_name"], b["blas_threads"]), (b["run_name"], b["threads"]))


if __name__ == "__main__":
    unittest.main()
