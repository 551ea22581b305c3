#!/usr/bin/env bash
# Fuzzes the GGUF reader and writer and ggml's type decoders (formats/gguf_*.cpp, formats/ggml_*.cpp)
# with libFuzzer, Debian's clang 14.
#
#   scripts/fuzz_gguf.sh [SECONDS]     # default 60; HALOGEN_GGUF_FUZZ_BUILD=dir (default build-ggfuzz)
#   scripts/fuzz_gguf.sh --merge [N]   # copy to the committed corpus, as
#                                      # tests/gguf_fuzz/corpus/fuzzed-*.gguf, the N (default 16)
#                                      # inputs found so far that add the most edges
#                                      # (tests/safetensors_fuzz/pick_inputs.py), keeping the corpus
#                                      # under 100 files
#
# Builds tests/gguf_fuzz/gguf_fuzz_target.cpp with -fsanitize=fuzzer,address,undefined (UB is fatal)
# and -ffp-contract=off (as the library's ggml sources are built), then runs it for SECONDS over the
# seed corpus tests/gguf_fuzz/corpus/ (read only; new inputs go to the build directory). A malloc
# over 64 MB counts as a crash (a 4 kB input must never ask for that), as do RSS over 1 GB, an
# input taking over 5 s, any sanitizer report, and any exception other than FormatError. A
# crashing input is left in BUILD/artifacts/; copy it to the corpus as
# tests/gguf_fuzz/corpus/regression-<what>.gguf once it is fixed (CI replays the corpus).
# Not part of CI: CI replays the corpus with the project's own compiler (ctest gguf_fuzz.*).
set -euo pipefail
MERGE=0
MERGE_LIMIT=16
if [ "${1:-}" = --merge ]; then MERGE=1; shift; MERGE_LIMIT="${1:-16}"; fi
SECONDS_TO_RUN="${1:-60}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
HALOGEN_PACKAGES=(clang-14 libclang-rt-14-dev libfmt-dev)   # libclang-rt-14-dev ships libFuzzer
halogen_install_packages

root="$HALOGEN_ROOT"
build="${HALOGEN_GGUF_FUZZ_BUILD:-$root/build-ggfuzz}"
mkdir -p "$build/artifacts" "$build/corpus"
sources=(formats/gguf_file.cpp formats/gguf_parse.cpp formats/gguf_value.cpp formats/gguf_writer.cpp
         formats/ggml_types.cpp formats/ggml_dequantize.cpp formats/ggml_quantize.cpp formats/ggml_quantize_k.cpp
         formats/float16_encode.cpp formats/replacing_file.cpp formats/printable_text.cpp frontend/bfloat16.cpp
         tests/gguf_fuzz/gguf_fuzz_target.cpp)
headers=(formats/gguf.h formats/gguf_internal.h formats/gguf_writer.h formats/ggml_types.h formats/ggml_blocks.h
         formats/float16_encode.h formats/replacing_file.h formats/printable_text.h frontend/bfloat16.h
         frontend/errors.h tests/gguf_fuzz/gguf_fuzz_target.h tests/support/fuzz_target.h)
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -ffp-contract=off -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$root")
stamp="$build/gguf_fuzz.flags"
if [ ! -x "$build/gguf_fuzz" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${flags[*]}" ] ||
   [ -n "$(cd "$root" && find "${sources[@]}" "${headers[@]}" -newer "$build/gguf_fuzz")" ]; then
  echo "fuzz_gguf: building $build/gguf_fuzz with clang++-14"
  (cd "$root" && clang++-14 "${flags[@]}" "${sources[@]}" -lfmt -o "$build/gguf_fuzz")
  echo "${flags[*]}" > "$stamp"
fi

if [ "$MERGE" = 1 ]; then
  # The inputs that add edges (a merge without hit counters), then the few that add the most.
  seeds="$root/tests/gguf_fuzz/corpus"
  rm -rf "$build/merged" && mkdir "$build/merged" && cp "$seeds"/* "$build/merged/"
  "$build/gguf_fuzz" -merge=1 -use_counters=0 -max_len=4096 "$build/merged" "$build/corpus" 2>&1 | grep MERGE-OUTER
  rm -rf "$build/candidates" && mkdir "$build/candidates"
  for f in $(comm -13 <(ls "$seeds") <(ls "$build/merged")); do cp "$build/merged/$f" "$build/candidates/"; done
  room=$((99 - $(ls "$seeds" | wc -l)))
  [ "$MERGE_LIMIT" -lt "$room" ] && room=$MERGE_LIMIT
  added=0
  for f in $(python3 "$root/tests/safetensors_fuzz/pick_inputs.py" "$build/gguf_fuzz" "$seeds" \
               "$build/candidates" "$room"); do
    cp "$build/candidates/$f" "$seeds/fuzzed-${f:0:12}.gguf"
    added=$((added + 1))
  done
  echo "fuzz_gguf: $added input(s) added to $seeds"
  exit 0
fi

echo "fuzz_gguf: fuzzing for ${SECONDS_TO_RUN} s over $(ls "$root/tests/gguf_fuzz/corpus" | wc -l) seed files"
set +e
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
ASAN_OPTIONS=detect_leaks=1 \
"$build/gguf_fuzz" -max_total_time="$SECONDS_TO_RUN" -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=5 \
  -max_len=4096 -dict="$root/tests/gguf_fuzz/gguf.dict" -artifact_prefix="$build/artifacts/" \
  -print_final_stats=1 "$build/corpus" "$root/tests/gguf_fuzz/corpus" 2>&1 | tee "$build/last_run.log"
status=${PIPESTATUS[0]}
set -e
crashes=$(ls "$build/artifacts" | wc -l)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/last_run.log")
echo "fuzz_gguf: ${SECONDS_TO_RUN} s, ${execs:-?} executions, $(ls "$build/corpus" | wc -l) new corpus units," \
     "exit status $status, $crashes crashing input(s) in $build/artifacts"
exit "$status"
