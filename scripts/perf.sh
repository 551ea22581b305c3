#!/usr/bin/env bash
# The full benchmark run by hand (the README's two commands stay run.sh and test.sh): installs the
# optional peers too (Debian's libtorch-dev; oneDNN comes with setup.sh) and matplotlib for the
# plots, builds, runs halogen_perf over the whole grid at 1 and 2 threads in one round, then the
# goals in three paired rounds (halogen_perf --goals, perf/README.md), keeps the two runs in
# perf/runs/ in place of the ones there (slimmed: perf/runs/ holds the runs docs/perf.md comes
# from, at most 2 MB, which one round of the grid and three of the goals fit), and writes
# docs/perf.md and docs/perf/*.svg: tables and plots from the grid, goals from the paired run. Run
# it on a quiet machine with an hour to spare: on the 2-core Zen 4 one round of the full grid took
# 27 minutes and three goals rounds 17.
#   scripts/perf.sh                       # the whole grid
#   scripts/perf.sh --benchmark_filter=conv   # a part of it (halogen_perf's flags pass through)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
HALOGEN_PACKAGES+=(libtorch-dev python3-matplotlib)
halogen_install_packages
if [ -f "$HALOGEN_BUILD/CMakeCache.txt" ]; then
  cmake "$HALOGEN_BUILD" >/dev/null   # a peer installed since the last configure is found now
fi
halogen_build
run="$(realpath -m "$HALOGEN_BUILD/perf/run.json")" goals="$(realpath -m "$HALOGEN_BUILD/perf/goals.json")"
"$HALOGEN_BUILD/perf/halogen_perf" --repetitions 1 --benchmark_out="$run" --benchmark_out_format=json "$@"
"$HALOGEN_BUILD/perf/halogen_perf" --goals --repetitions 3 --benchmark_out="$goals" "$@"
commit="$(git -C "$HALOGEN_ROOT" rev-parse --short HEAD)"
cd "$HALOGEN_ROOT"
rm -f perf/runs/*.json
/usr/bin/python3 perf/slim_run "$run" --out "perf/runs/full-$commit.json"
/usr/bin/python3 perf/slim_run "$goals" --out "perf/runs/goals-$commit.json"
/usr/bin/python3 perf/report "perf/runs/full-$commit.json" --goals "perf/runs/goals-$commit.json" \
  --out docs/perf.md --plots docs/perf
