#!/usr/bin/env bash
# Fuzzes the chat-template engine (jinja/) with libFuzzer, Debian's clang 14.
#
#   scripts/fuzz_jinja.sh [SECONDS]        # default 60; HALOGEN_JINJA_FUZZ_BUILD=dir (default build-jinjafuzz)
#   scripts/fuzz_jinja.sh --merge          # copy the inputs found so far that add coverage to the
#                                          # committed corpus, as tests/jinja_fuzz/corpus/fuzzed-*.jinja
#
# Builds tests/jinja_fuzz/jinja_fuzz_target.cpp with the engine's sources and
# -fsanitize=fuzzer,address,undefined (UB is fatal), then runs it for SECONDS over the seed corpus
# tests/jinja_fuzz/corpus/ (read only; new inputs go to the build directory). A malloc over 64 MB
# counts as a crash, as do RSS over 1 GB, an input taking over 5 s, any sanitizer report, and any
# exception other than TemplateError. A crashing input is left in BUILD/artifacts/; copy it to the
# corpus as tests/jinja_fuzz/corpus/regression-<what>.jinja once it is fixed (CI replays the corpus).
# Not part of CI: CI replays the corpus with the project's own compiler (ctest jinja_fuzz.*).
set -euo pipefail
MERGE=0
if [ "${1:-}" = --merge ]; then MERGE=1; shift; fi
SECONDS_TO_RUN="${1:-60}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
HALOGEN_PACKAGES=(clang-14 libclang-rt-14-dev nlohmann-json3-dev)   # libclang-rt-14-dev ships libFuzzer
halogen_install_packages

root="$HALOGEN_ROOT"
build="${HALOGEN_JINJA_FUZZ_BUILD:-$root/build-jinjafuzz}"
mkdir -p "$build/artifacts" "$build/corpus"
sources=($(cd "$root" && ls jinja/*.cpp) tests/jinja_fuzz/jinja_fuzz_target.cpp)
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$root")
stamp="$build/jinja_fuzz.flags"
if [ ! -x "$build/jinja_fuzz" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${flags[*]}" ] ||
   [ -n "$(cd "$root" && find "${sources[@]}" jinja/*.h frontend/errors.h tests/jinja_fuzz/jinja_fuzz_target.h \
           tests/support/fuzz_target.h -newer "$build/jinja_fuzz")" ]; then
  echo "fuzz_jinja: building $build/jinja_fuzz with clang++-14"
  (cd "$root" && clang++-14 "${flags[@]}" "${sources[@]}" -o "$build/jinja_fuzz")
  echo "${flags[*]}" > "$stamp"
fi

if [ "$MERGE" = 1 ]; then
  seeds="$root/tests/jinja_fuzz/corpus"
  rm -rf "$build/merged" && mkdir "$build/merged" && cp "$seeds"/* "$build/merged/"
  "$build/jinja_fuzz" -merge=1 -max_len=4096 "$build/merged" "$build/corpus" 2>&1 | grep MERGE-OUTER
  added=0
  for f in $(comm -13 <(ls "$seeds") <(ls "$build/merged")); do
    cp "$build/merged/$f" "$seeds/fuzzed-${f:0:12}.jinja"
    added=$((added + 1))
  done
  echo "fuzz_jinja: $added input(s) added to $seeds"
  exit 0
fi

echo "fuzz_jinja: fuzzing for ${SECONDS_TO_RUN} s over $(ls "$root/tests/jinja_fuzz/corpus" | wc -l) seed files"
set +e
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
ASAN_OPTIONS=detect_leaks=1 \
"$build/jinja_fuzz" -max_total_time="$SECONDS_TO_RUN" -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=5 \
  -max_len=4096 -dict="$root/tests/jinja_fuzz/jinja.dict" -artifact_prefix="$build/artifacts/" \
  -print_final_stats=1 "$build/corpus" "$root/tests/jinja_fuzz/corpus" 2>&1 | tee "$build/last_run.log"
status=${PIPESTATUS[0]}
set -e
crashes=$(ls "$build/artifacts" | wc -l)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/last_run.log")
echo "fuzz_jinja: ${SECONDS_TO_RUN} s, ${execs:-?} executions, $(ls "$build/corpus" | wc -l) new corpus units," \
     "exit status $status, $crashes crashing input(s) in $build/artifacts"
exit "$status"
