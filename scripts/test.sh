#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
# HALOGEN_SANITIZE=1 scripts/test.sh does the same in build-asan, everything built with
# AddressSanitizer + UndefinedBehaviorSanitizer (a leak or any UB fails the test that hit it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
halogen_install_packages
halogen_build
# The compiled kernels the tests make go into the build's own cache, not the user's.
export HALOGEN_CACHE_DIR="${HALOGEN_CACHE_DIR:-$HALOGEN_BUILD/kernel-cache}"
ctest --test-dir "$HALOGEN_BUILD" --output-on-failure -j "$(nproc)" "$@"
