#!/usr/bin/python3
# Picks the fuzzer's finds worth committing to tests/graph_json_fuzz/corpus/, for
# `scripts/fuzz_graph_json.sh --merge`. libFuzzer's own merge keeps every input that adds a feature
# (over a thousand after 20 minutes), and the corpus stays under 200 files. So:
#   1. libFuzzer merges the fuzzer's corpus into the committed one counting edges only
#      (-use_counters=0): the candidates, each adding at least one edge;
#   2. each candidate's edges are measured on its own (a merge of that one file: its COV line),
#      and the committed corpus's together;
#   3. greedily, the candidate adding the most edges not yet covered (ties: more features, then
#      the smaller file) is copied in as fuzzed-<first 12 characters of its name>.json, until the
#      corpus holds LIMIT files or no candidate adds an edge.
# Usage: select_corpus.py FUZZ_BINARY WORK_DIR FUZZER_CORPUS COMMITTED_CORPUS LIMIT
import os
import shutil
import subprocess
import sys

binary, work, found, committed, limit = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
env = dict(os.environ, ASAN_OPTIONS="quarantine_size_mb=16")


def merge(control, into, *dirs, extra=()):
    if os.path.exists(control):
        os.remove(control)   # an existing control file would make libFuzzer resume that merge
    subprocess.run([binary, "-merge=1", "-max_len=4096", f"-merge_control_file={control}", *extra, into, *dirs],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)


def edges_and_features(control):
    """Union of the COV (edges) and FT (features) lines of a merge control file."""
    lines = open(control).read().split("\n")
    n = int(lines[0])
    cov, ft = set(), set()
    for line in lines[2 + n:]:
        parts = line.split()
        if parts and parts[0] == "COV":
            cov.update(map(int, parts[2:]))
        if parts and parts[0] == "FT":
            ft.update(map(int, parts[2:]))
    return cov, ft


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


# 1. Candidates: what an edges-only merge adds to a copy of the committed corpus.
merged = fresh(os.path.join(work, "select_merged"))
for f in os.listdir(committed):
    shutil.copy(os.path.join(committed, f), merged)
merge(os.path.join(work, "select_merged.ctl"), merged, found, extra=["-use_counters=0"])
candidates = sorted(set(os.listdir(merged)) - set(os.listdir(committed)))

# 2. Edges of the committed corpus, and of each candidate alone.
merge(os.path.join(work, "select_committed.ctl"), fresh(os.path.join(work, "select_out")), committed)
covered, features = edges_and_features(os.path.join(work, "select_committed.ctl"))
alone = {}
for name in candidates:
    one = fresh(os.path.join(work, "select_one"))
    shutil.copy(os.path.join(merged, name), one)
    control = os.path.join(work, "select_one.ctl")
    merge(control, fresh(os.path.join(work, "select_out")), one)
    alone[name] = edges_and_features(control)

# 3. Greedy cover.
room = limit - len(os.listdir(committed))
size = lambda name: os.path.getsize(os.path.join(merged, name))
total_new = len(set().union(covered, *(c for c, _ in alone.values())) - covered)
added = 0
while room > 0 and alone:
    best = max(sorted(alone), key=lambda f: (len(alone[f][0] - covered), len(alone[f][1] - features), -size(f)))
    gain = len(alone[best][0] - covered)
    if gain == 0:
        break
    covered |= alone[best][0]
    features |= alone[best][1]
    shutil.copy(os.path.join(merged, best), os.path.join(committed, f"fuzzed-{best[:12]}.json"))
    added += gain
    del alone[best]
    room -= 1
print(f"select_corpus: {len(candidates)} candidates adding {total_new} edges; "
      f"{len(os.listdir(committed))} files now, {added} of those edges added")
