#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
halogen_install_packages
halogen_build
ctest --test-dir "$HALOGEN_BUILD" --output-on-failure -j "$(nproc)" "$@"
