"""What the perf tests that run halogen_perf share: the binary named by HALOGEN_PERF_BINARY (the
test is skipped without it), a run of it into a JSON file, and perf/report on such a run.
Standard library only."""

import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "report")


def perf_binary(test: unittest.TestCase) -> str:
    """The halogen_perf executable to run; skips `test` when HALOGEN_PERF_BINARY is not set."""
    binary = os.environ.get("HALOGEN_PERF_BINARY")
    if not binary:
        test.skipTest("HALOGEN_PERF_BINARY is not set")
    return binary


def run_perf(binary: str, out: str, *args: str, env: dict = None) -> dict:
    """Runs halogen_perf with `args` (and the variables `env` added to the environment), its JSON
    written to `out`, and returns that JSON."""
    subprocess.run([binary, *args, f"--benchmark_out={out}", "--benchmark_out_format=json"],
                   check=True, capture_output=True, text=True, env={**os.environ, **(env or {})})
    with open(out) as f:
        return json.load(f)


def report(out: str, *args: str) -> str:
    """Runs perf/report with `args` (runs and options), without plots, into `out`; returns the page."""
    subprocess.run([sys.executable, REPORT, *args, "--no-plots", "--out", out], check=True, capture_output=True)
    with open(out) as f:
        return f.read()
