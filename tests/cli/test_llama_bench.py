#!/usr/bin/env python3
"""`halogen llama bench` on the tiny preset: the table, and a JSON with one entry per thread count
whose ratios follow from each repetition's rates, the limits measured before it and the step's
costs counted by hand (the tiny preset: 295392 parameters, of which the embedding table is
512 x 96; a decoded token reads all but the table, and one of its rows, and the KV cache of the
positions it sees), and medians that are the
medians of the repetitions it lists; the attention schedule its decode steps ran."""

import json
import os
import statistics
import subprocess
import tempfile
import unittest

HALOGEN = os.environ.get("HALOGEN_CLI", "halogen")


def bench_tiny(*args):
    """`halogen llama bench` on a fresh tiny model with these arguments: its output and its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "tiny")
        subprocess.run([HALOGEN, "llama", "init", "--preset", "tiny", "--out", model], check=True,
                       capture_output=True)
        out = os.path.join(tmp, "bench.json")
        run = subprocess.run([HALOGEN, "llama", "bench", "--model", model, "--json", out, *args],
                             check=True, capture_output=True, text=True)
        with open(out) as f:
            return run, json.load(f)


class LlamaBench(unittest.TestCase):
    def test_table_and_json(self):
        run, j = bench_tiny("--prompt", "5", "--gen", "3", "--threads", "1,2", "--repetitions", "3")
        self.assertRegex(run.stdout, r"1 thread: limits: read [0-9.]+ GB/s \(the weights in place\), FMA [0-9]+ GFLOP/s\n"
                                     r"  prefill [0-9.]+ tokens/s, [0-9]+ GFLOP/s, [0-9.]+x its bound")
        self.assertRegex(run.stdout, r"2 threads: limits: [^\n]*\n  prefill [^\n]*\n  decode [0-9.]+ tokens/s, "
                                     r"[0-9.]+ GB/s of weights and cache, [0-9.]+x its bound \(attention: fused\)")
        self.assertRegex(run.stdout, r"\(985 kB of weights and 3.58 kB of KV cache read per decoded token\)")
        self.assertRegex(run.stdout, r"model: 5 kernels per layer \(weights in rows\)\nloaded: files mapped and checked in [0-9.]+ s; "
                                     r"programs: [^\n]*; weights ready in [0-9.]+ s; model ready in [0-9.]+ s\n"
                                     r"first token: [0-9.]+ s after the process started \(a 5-token prompt at 1 thread\)\n")
        self.assertRegex(run.stdout, r"peak resident memory: ")
        self.assertEqual(j["kernels_per_layer"], 5)
        self.assertEqual(j["layout"], "rows")   # the tiny preset's heads of 16 keep rows
        self.assertEqual(j["decode_weight_bytes_per_token"], (295392 - 512 * 96 + 96) * 4)
        # The middle decoded token (position 5 + 3 // 2 = 6) sees 7 positions: 2 layers x keys and
        # values x 2 KV heads x 16 floats each.
        self.assertEqual(j["decode_cache_bytes_per_token"], 2 * 2 * 2 * 16 * 4 * 7)
        decode_bytes = j["decode_weight_bytes_per_token"] + j["decode_cache_bytes_per_token"]
        self.assertEqual(j["weight_bytes"], 295392 * 4)
        # 2 layers x (2 x 98304 per token for the matrices) + the head once (2 x 512 x 96) over 5
        # tokens, + attention: 4 x 6 heads x 16 x (1 + 2 + 3 + 4 + 5) keys per layer.
        flops = 2 * 2 * 5 * 98304 + 2 * 512 * 96 + 2 * 4 * 6 * 16 * 15
        self.assertAlmostEqual(j["prefill_flops_per_token"], flops / 5)
        self.assertEqual([r["threads"] for r in j["runs"]], [1, 2])
        for r in j["runs"]:
            for key in ("read_bytes_per_s", "fma_flops_per_s", "prefill_tokens_per_s", "decode_tokens_per_s"):
                self.assertEqual(len(r[key]), 3, key)
                self.assertTrue(all(v > 0 for v in r[key]), key)
            for k in range(3):   # each repetition against its own limits
                self.assertAlmostEqual(r["decode_ratio_to_bound"][k], r["decode_tokens_per_s"][k] /
                                       (r["read_bytes_per_s"][k] / decode_bytes))
                self.assertAlmostEqual(r["prefill_ratio_to_bound"][k], r["prefill_tokens_per_s"][k] /
                                       (r["fma_flops_per_s"][k] / j["prefill_flops_per_token"]))
            self.assertEqual(r["decode_ratio_median"], statistics.median(r["decode_ratio_to_bound"]))
            self.assertEqual(r["prefill_ratio_median"], statistics.median(r["prefill_ratio_to_bound"]))
            # Two KV heads, a context of 8: the one-token steps keep the fused attention.
            self.assertEqual(r["decode_attention"], "fused")

    def test_decode_attention_asked_for(self):
        _, j = bench_tiny("--prompt", "5", "--gen", "2", "--threads", "2", "--repetitions", "1",
                          "--decode-attention", "decode")
        self.assertEqual([r["decode_attention"] for r in j["runs"]], ["decode"])

    def test_bad_thread_count_is_one_line(self):
        run = subprocess.run([HALOGEN, "llama", "bench", "--model", "nowhere", "--threads", "0"],
                             capture_output=True, text=True)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("--threads", run.stderr + run.stdout)


if __name__ == "__main__":
    unittest.main()
