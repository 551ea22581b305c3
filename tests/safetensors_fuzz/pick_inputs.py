#!/usr/bin/python3
"""Picks the few fuzzer-found inputs that add the most coverage to the committed corpus.

   pick_inputs.py FUZZER SEEDS_DIR CANDIDATES_DIR LIMIT

A libFuzzer merge after a long run keeps hundreds of inputs; the committed corpus stays under 100
files. This is greedy set cover on edges: the coverage libFuzzer reports for SEEDS plus one
candidate (a -runs=0 pass) is measured for each candidate, then repeatedly the candidate adding
the most edges is taken (lazily re-measured against what was taken), up to LIMIT. Prints the
chosen file names, one per line, on standard output; the edges gained on standard error.
"""
import heapq
import os
import re
import shutil
import subprocess
import sys
import tempfile

fuzzer, seeds, candidates, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
work = tempfile.mkdtemp(prefix="pick_inputs_")
for f in os.listdir(seeds):
    shutil.copy(os.path.join(seeds, f), work)


def coverage():
    err = subprocess.run([fuzzer, "-runs=0", work], capture_output=True, text=True).stderr
    return int(re.search(r"INITED cov: (\d+)", err).group(1))


def gain(name):
    probe = os.path.join(work, "zz-probe")
    shutil.copy(os.path.join(candidates, name), probe)
    try:
        return coverage() - base
    finally:
        os.remove(probe)


base = coverage()
start = base
heap = [(-gain(f), f) for f in sorted(os.listdir(candidates))]
heapq.heapify(heap)
chosen = []
while heap and len(chosen) < limit:
    _, name = heapq.heappop(heap)
    g = gain(name)
    if heap and g < -heap[0][0]:
        heapq.heappush(heap, (-g, name))   # stale bound: re-queue with the fresh gain
        continue
    if g <= 0:
        break
    shutil.copy(os.path.join(candidates, name), os.path.join(work, "picked-" + name))
    base += g
    chosen.append(name)
    print(name)
shutil.rmtree(work)
print(f"pick_inputs: {len(chosen)} input(s), coverage {start} -> {base} edges", file=sys.stderr)
