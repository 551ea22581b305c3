#!/usr/bin/env bash
# Fuzzes the tokenizer (tokenizer/: the tokenizer.json reader, encode and decode of arbitrary
# bytes) with libFuzzer, Debian's clang 14.
#
#   scripts/fuzz_tokenizer.sh [SECONDS]   # default 60; HALOGEN_TOKENIZER_FUZZ_BUILD=dir (default build-tokenizerfuzz)
#   scripts/fuzz_tokenizer.sh --merge     # copy the inputs found so far that add coverage to the
#                                         # committed corpus, as tests/tokenizer_fuzz/corpus/fuzzed-*
#
# Builds tests/tokenizer_fuzz/tokenizer_fuzz_target.cpp with -fsanitize=fuzzer,address,undefined
# (UB is fatal), then runs it for SECONDS over the seed corpus tests/tokenizer_fuzz/corpus/ (read
# only; new inputs go to the build directory). A malloc over 64 MB counts as a crash, as do RSS
# over 1 GB, an input taking over 5 s, any sanitizer report, and any exception the target does
# not allow (tokenizer_fuzz_target.cpp states the contract). A crashing input is left in
# BUILD/artifacts/; copy it to the corpus as tests/tokenizer_fuzz/corpus/regression-<what> once it
# is fixed (CI replays the corpus).
# Not part of CI: CI replays the corpus with the project's own compiler (ctest tokenizer_fuzz.*).
set -euo pipefail
MERGE=0
if [ "${1:-}" = --merge ]; then MERGE=1; shift; fi
SECONDS_TO_RUN="${1:-60}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
HALOGEN_PACKAGES=(clang-14 libclang-rt-14-dev libfmt-dev libpcre2-dev nlohmann-json3-dev)   # libclang-rt-14-dev ships libFuzzer
halogen_install_packages

root="$HALOGEN_ROOT"
build="${HALOGEN_TOKENIZER_FUZZ_BUILD:-$root/build-tokenizerfuzz}"
mkdir -p "$build/artifacts" "$build/corpus"
sources=(tokenizer/*.cpp formats/printable_text.cpp formats/strict_json.cpp tests/tokenizer_fuzz/tokenizer_fuzz_target.cpp)
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$root")
stamp="$build/tokenizer_fuzz.flags"
if [ ! -x "$build/tokenizer_fuzz" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${flags[*]}" ] ||
   [ -n "$(cd "$root" && find tokenizer formats/printable_text.* formats/strict_json.* frontend/errors.h \
           tests/tokenizer_fuzz tests/support/fuzz_target.h -name '*.[ch]*' -newer "$build/tokenizer_fuzz")" ]; then
  echo "fuzz_tokenizer: building $build/tokenizer_fuzz with clang++-14"
  (cd "$root" && clang++-14 "${flags[@]}" "${sources[@]}" -lfmt -lpcre2-8 -o "$build/tokenizer_fuzz")
  echo "${flags[*]}" > "$stamp"
fi

if [ "$MERGE" = 1 ]; then
  seeds="$root/tests/tokenizer_fuzz/corpus"
  rm -rf "$build/merged" && mkdir "$build/merged" && cp "$seeds"/* "$build/merged/"
  "$build/tokenizer_fuzz" -merge=1 -max_len=8192 "$build/merged" "$build/corpus" 2>&1 | grep MERGE-OUTER
  added=0
  for f in $(comm -13 <(ls "$seeds") <(ls "$build/merged")); do
    cp "$build/merged/$f" "$seeds/fuzzed-${f:0:12}"
    added=$((added + 1))
  done
  echo "fuzz_tokenizer: $added input(s) added to $seeds"
  exit 0
fi

echo "fuzz_tokenizer: fuzzing for ${SECONDS_TO_RUN} s over $(ls "$root/tests/tokenizer_fuzz/corpus" | wc -l) seed files"
set +e
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
ASAN_OPTIONS=detect_leaks=1 \
"$build/tokenizer_fuzz" -max_total_time="$SECONDS_TO_RUN" -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=5 \
  -max_len=8192 -artifact_prefix="$build/artifacts/" \
  -print_final_stats=1 "$build/corpus" "$root/tests/tokenizer_fuzz/corpus" 2>&1 | tee "$build/last_run.log"
status=${PIPESTATUS[0]}
set -e
crashes=$(ls "$build/artifacts" | wc -l)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/last_run.log")
echo "fuzz_tokenizer: ${SECONDS_TO_RUN} s, ${execs:-?} executions, $(ls "$build/corpus" | wc -l) new corpus units," \
     "exit status $status, $crashes crashing input(s) in $build/artifacts"
exit "$status"
