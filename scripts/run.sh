#!/usr/bin/env bash
# Installs what is missing, builds, and runs halogen's main job: for now, compile and run the
# seed note's where/eq/index_components expression and print its result and loop nest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
halogen_install_packages
halogen_build
"$HALOGEN_BUILD/cli/halogen" seed "$@"
