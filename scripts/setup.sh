#!/usr/bin/env bash
# Shared set-up for run.sh and test.sh: install missing Debian packages, configure, build.
# Sourced, not run. Quick when nothing changed: dpkg-query instead of apt-get, an incremental build.

# HALOGEN_SANITIZE=1 selects the AddressSanitizer + UndefinedBehaviorSanitizer build, in its own
# directory (build-asan unless HALOGEN_BUILD says otherwise): cmake -DHALOGEN_SANITIZE=ON.
# HALOGEN_AOT_FROM=DIR copies the AOT kernels from another build's schedules/aot instead of
# generating them (cmake -DHALOGEN_AOT_FROM; .ci/run gives the sanitizer pass the first pass's).

HALOGEN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${HALOGEN_SANITIZE:-0}" = 1 ]; then
  HALOGEN_BUILD="${HALOGEN_BUILD:-$HALOGEN_ROOT/build-asan}"
  HALOGEN_CMAKE_OPTIONS=(-DHALOGEN_SANITIZE=ON)
else
  HALOGEN_BUILD="${HALOGEN_BUILD:-$HALOGEN_ROOT/build}"
  HALOGEN_CMAKE_OPTIONS=()
fi
if [ -n "${HALOGEN_AOT_FROM:-}" ]; then
  HALOGEN_CMAKE_OPTIONS+=(-DHALOGEN_AOT_FROM="$HALOGEN_AOT_FROM")
fi

# Every package the build needs, all from Debian's archive.
HALOGEN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libhalide14-0-dev libisl-dev libfmt-dev libgtest-dev libcli11-dev nlohmann-json3-dev
  libbenchmark-dev python3
  # Python's jinja2: tests/fixtures/jinja/generate.py renders the chat-template fixtures with it
  # (the committed fixtures mean the tests themselves need no Python)
  python3-jinja2
  # tokenizer/'s pre-tokenizer patterns: PCRE2 with UTF, Unicode properties and JIT
  libpcre2-dev
  # perf/'s peers: oneDNN (its CMake config demands OpenCL) and OpenBLAS, which also becomes the
  # BLAS Debian's libtorch calls (libblas.so.3); libtorch itself is installed by scripts/perf.sh
  libdnnl-dev ocl-icd-opencl-dev opencl-c-headers libopenblas-dev
)

halogen_install_packages() {
  local missing=()
  for p in "${HALOGEN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "halogen: these Debian packages are missing: ${missing[*]}" >&2
    echo "halogen: install them as root:  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "halogen: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

halogen_build() {
  if [ ! -f "$HALOGEN_BUILD/CMakeCache.txt" ]; then
    cmake -S "$HALOGEN_ROOT" -B "$HALOGEN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "${HALOGEN_CMAKE_OPTIONS[@]}"
  fi
  cmake --build "$HALOGEN_BUILD" -j "$(nproc)"
}
