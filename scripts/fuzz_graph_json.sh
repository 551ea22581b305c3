#!/usr/bin/env bash
# Fuzzes the JSON graph reader behind `halogen groups FILE` (formats/graph_json.cpp) and the
# grouping pass it feeds (frontend/grouping/) with libFuzzer, Debian's clang 14.
#
#   scripts/fuzz_graph_json.sh [SECONDS]   # default 60; HALOGEN_GRAPH_JSON_FUZZ_BUILD=dir (default build-graphjsonfuzz)
#   scripts/fuzz_graph_json.sh --merge     # copy the inputs found so far that add the most coverage
#                                          # edges to the committed corpus (up to 199 files), as
#                                          # tests/graph_json_fuzz/corpus/fuzzed-*.json (select_corpus.py)
#
# Builds tests/graph_json_fuzz/graph_json_fuzz_target.cpp and the frontend sources it needs with
# -fsanitize=fuzzer,address,undefined (UB is fatal), then runs it for SECONDS over the seed corpus
# tests/graph_json_fuzz/corpus/ (read only; new inputs go to the build directory). A malloc over
# 64 MB counts as a crash (a 4 kB graph must never ask for that), as do RSS over 1 GB, an input
# taking over 5 s, any sanitizer report, any exception other than halogen::Error, and groups whose
# loops do not cover their anchor. A crashing input is left in BUILD/artifacts/; copy it to the
# corpus as tests/graph_json_fuzz/corpus/regression-<what>.json once it is fixed (CI replays the corpus).
# Not part of CI: CI replays the corpus with the project's own compiler (ctest graph_json_fuzz.*).
set -euo pipefail
MERGE=0
if [ "${1:-}" = --merge ]; then MERGE=1; shift; fi
SECONDS_TO_RUN="${1:-60}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
HALOGEN_PACKAGES=(clang-14 libclang-rt-14-dev libfmt-dev libisl-dev nlohmann-json3-dev pkg-config)   # libclang-rt-14-dev ships libFuzzer
halogen_install_packages

root="$HALOGEN_ROOT"
build="${HALOGEN_GRAPH_JSON_FUZZ_BUILD:-$root/build-graphjsonfuzz}"
mkdir -p "$build/artifacts" "$build/corpus"
# The reader, the builders it calls and the grouping pass: what `halogen groups` runs.
sources=(formats/graph_json.cpp formats/graph_json_fields.cpp formats/strict_json.cpp formats/printable_text.cpp frontend/primitives.cpp frontend/views.cpp frontend/derived.cpp frontend/dim.cpp
         frontend/dtype.cpp frontend/node.cpp frontend/ops.cpp frontend/graph.cpp frontend/reshape_segments.cpp
         frontend/grouping/access.cpp frontend/grouping/collapse.cpp frontend/grouping/grouping.cpp
         tests/graph_json_fuzz/graph_json_fuzz_target.cpp)
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$root" $(pkg-config --cflags isl))
stamp="$build/graph_json_fuzz.flags"
if [ ! -x "$build/graph_json_fuzz" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${flags[*]}" ] ||
   [ -n "$(cd "$root" && find "${sources[@]}" frontend/*.h formats/strict_json.h formats/printable_text.h frontend/grouping/*.h \
           tests/graph_json_fuzz/graph_json_fuzz_target.h tests/support/fuzz_target.h -newer "$build/graph_json_fuzz")" ]; then
  echo "fuzz_graph_json: building $build/graph_json_fuzz with clang++-14"
  (cd "$root" && clang++-14 "${flags[@]}" "${sources[@]}" -lfmt $(pkg-config --libs isl) -o "$build/graph_json_fuzz")
  echo "${flags[*]}" > "$stamp"
fi

if [ "$MERGE" = 1 ]; then
  # Not every input with a new feature (a thousand and more): the ones adding the most edges,
  # chosen by select_corpus.py, until the corpus holds 199 files.
  seeds="$root/tests/graph_json_fuzz/corpus"
  before=$(ls "$seeds" | wc -l)
  python3 "$root/tests/graph_json_fuzz/select_corpus.py" "$build/graph_json_fuzz" "$build" "$build/corpus" "$seeds" 199
  echo "fuzz_graph_json: $(( $(ls "$seeds" | wc -l) - before )) input(s) added to $seeds"
  exit 0
fi

echo "fuzz_graph_json: fuzzing for ${SECONDS_TO_RUN} s over $(ls "$root/tests/graph_json_fuzz/corpus" | wc -l) seed files"
set +e
# ASan's quarantine of freed memory (256 MB by default) filled with the grouping's isl allocations
# and took RSS to 921 MB of the 1 GB limit in a 20-minute run; without ASan the target stays
# between 14 and 18 MB over 51,696 runs. 64 MB keeps the limit for what the target allocates.
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64 \
"$build/graph_json_fuzz" -max_total_time="$SECONDS_TO_RUN" -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=5 \
  -max_len=4096 -dict="$root/tests/graph_json_fuzz/graph_json.dict" -artifact_prefix="$build/artifacts/" \
  -print_final_stats=1 "$build/corpus" "$root/tests/graph_json_fuzz/corpus" 2>&1 | tee "$build/last_run.log"
status=${PIPESTATUS[0]}
set -e
crashes=$(ls "$build/artifacts" | wc -l)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/last_run.log")
echo "fuzz_graph_json: ${SECONDS_TO_RUN} s, ${execs:-?} executions, $(ls "$build/corpus" | wc -l) new corpus units," \
     "exit status $status, $crashes crashing input(s) in $build/artifacts"
exit "$status"
