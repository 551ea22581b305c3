#!/usr/bin/env bash
# Fuzzes the safetensors reader and writer (formats/safetensors_*.cpp) with libFuzzer, Debian's
# clang 14.
#
#   scripts/fuzz_safetensors.sh [SECONDS]   # default 60; HALOGEN_SAFETENSORS_FUZZ_BUILD=dir
#                                           # (default build-stfuzz)
#   scripts/fuzz_safetensors.sh --merge [N] # copy to the committed corpus, as
#                                           # tests/safetensors_fuzz/corpus/fuzzed-*.safetensors,
#                                           # the N (default 16) inputs found so far that add the
#                                           # most edges (tests/safetensors_fuzz/pick_inputs.py),
#                                           # keeping the corpus under 100 files
#
# Builds tests/safetensors_fuzz/safetensors_fuzz_target.cpp with -fsanitize=fuzzer,address,undefined
# (UB is fatal), then runs it for SECONDS over the seed corpus tests/safetensors_fuzz/corpus/ (read
# only; new inputs go to the build directory). A malloc over 64 MB counts as a crash (a 4 kB input
# must never ask for that), as do RSS over 1 GB, an input taking over 5 s, any sanitizer report,
# and any exception other than FormatError. A crashing input is left in BUILD/artifacts/; copy it to
# the corpus as tests/safetensors_fuzz/corpus/regression-<what>.safetensors once it is fixed (CI
# replays the corpus).
# Not part of CI: CI replays the corpus with the project's own compiler (ctest safetensors_fuzz.*).
set -euo pipefail
MERGE=0
MERGE_LIMIT=16
if [ "${1:-}" = --merge ]; then MERGE=1; shift; MERGE_LIMIT="${1:-16}"; fi
SECONDS_TO_RUN="${1:-60}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
HALOGEN_PACKAGES=(clang-14 libclang-rt-14-dev libfmt-dev)   # libclang-rt-14-dev ships libFuzzer
halogen_install_packages

root="$HALOGEN_ROOT"
build="${HALOGEN_SAFETENSORS_FUZZ_BUILD:-$root/build-stfuzz}"
mkdir -p "$build/artifacts" "$build/corpus"
sources=(formats/safetensors_header.cpp formats/safetensors_file.cpp formats/safetensors_writer.cpp
         frontend/bfloat16.cpp formats/printable_text.cpp formats/strict_json.cpp
         tests/safetensors_fuzz/safetensors_fuzz_target.cpp)
headers=(formats/safetensors.h formats/safetensors_internal.h formats/safetensors_writer.h
         frontend/bfloat16.h formats/printable_text.h formats/strict_json.h frontend/errors.h
         tests/safetensors_fuzz/safetensors_fuzz_target.h tests/support/fuzz_target.h)
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$root")
stamp="$build/safetensors_fuzz.flags"
if [ ! -x "$build/safetensors_fuzz" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${flags[*]}" ] ||
   [ -n "$(cd "$root" && find "${sources[@]}" "${headers[@]}" -newer "$build/safetensors_fuzz")" ]; then
  echo "fuzz_safetensors: building $build/safetensors_fuzz with clang++-14"
  (cd "$root" && clang++-14 "${flags[@]}" "${sources[@]}" -lfmt -o "$build/safetensors_fuzz")
  echo "${flags[*]}" > "$stamp"
fi

if [ "$MERGE" = 1 ]; then
  # The inputs that add edges (a merge without hit counters), then the few that add the most.
  seeds="$root/tests/safetensors_fuzz/corpus"
  rm -rf "$build/merged" && mkdir "$build/merged" && cp "$seeds"/* "$build/merged/"
  "$build/safetensors_fuzz" -merge=1 -use_counters=0 -max_len=4096 "$build/merged" "$build/corpus" 2>&1 |
    grep MERGE-OUTER
  rm -rf "$build/candidates" && mkdir "$build/candidates"
  for f in $(comm -13 <(ls "$seeds") <(ls "$build/merged")); do cp "$build/merged/$f" "$build/candidates/"; done
  room=$((99 - $(ls "$seeds" | wc -l)))
  [ "$MERGE_LIMIT" -lt "$room" ] && room=$MERGE_LIMIT
  added=0
  for f in $(python3 "$root/tests/safetensors_fuzz/pick_inputs.py" "$build/safetensors_fuzz" "$seeds" \
               "$build/candidates" "$room"); do
    cp "$build/candidates/$f" "$seeds/fuzzed-${f:0:12}.safetensors"
    added=$((added + 1))
  done
  echo "fuzz_safetensors: $added input(s) added to $seeds"
  exit 0
fi

echo "fuzz_safetensors: fuzzing for ${SECONDS_TO_RUN} s over $(ls "$root/tests/safetensors_fuzz/corpus" | wc -l) seed files"
set +e
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
ASAN_OPTIONS=detect_leaks=1 \
"$build/safetensors_fuzz" -max_total_time="$SECONDS_TO_RUN" -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=5 \
  -max_len=4096 -dict="$root/tests/safetensors_fuzz/safetensors.dict" -artifact_prefix="$build/artifacts/" \
  -print_final_stats=1 "$build/corpus" "$root/tests/safetensors_fuzz/corpus" 2>&1 | tee "$build/last_run.log"
status=${PIPESTATUS[0]}
set -e
crashes=$(ls "$build/artifacts" | wc -l)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/last_run.log")
echo "fuzz_safetensors: ${SECONDS_TO_RUN} s, ${execs:-?} executions, $(ls "$build/corpus" | wc -l) new corpus units," \
     "exit status $status, $crashes crashing input(s) in $build/artifacts"
exit "$status"
