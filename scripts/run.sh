#!/usr/bin/env bash
# Installs what is missing, builds (the Halide generators run at build time and emit every AOT
# kernel), and runs halogen's main job: the seed note's expression with its loop nest, then
# `halogen compare all` -- every schedule variant of embedding, norms and conv, measured side by
# side. Extra arguments go to `halogen compare` (e.g. `scripts/run.sh embedding --tokens 1`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
halogen_install_packages
halogen_build
"$HALOGEN_BUILD/cli/halogen" seed
if [ $# -eq 0 ]; then set -- all; fi
"$HALOGEN_BUILD/cli/halogen" compare "$@" --json "$HALOGEN_BUILD/compare.json"
