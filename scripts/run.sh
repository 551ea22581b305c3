#!/usr/bin/env bash
# Installs what is missing, builds (the Halide generators run at build time and emit every AOT
# kernel), and runs halogen's main job: the seed note's expression with its loop nest, then
# `halogen compare all` -- every schedule variant of every family, measured side by side -- and
# last the model path: a tiny random llama3 model with a random tokenizer is written, and text is
# generated from a prompt with it (random weights: the text is noise). Extra arguments go to
# `halogen compare` (e.g. `scripts/run.sh embedding --tokens 1`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
halogen_install_packages
halogen_build
"$HALOGEN_BUILD/cli/halogen" seed
if [ $# -eq 0 ]; then set -- all; fi
"$HALOGEN_BUILD/cli/halogen" compare "$@" --json "$HALOGEN_BUILD/compare.json"
model="$HALOGEN_BUILD/models/tiny"
"$HALOGEN_BUILD/cli/halogen" llama init --preset tiny --out "$model"
"$HALOGEN_BUILD/cli/halogen" llama generate --model "$model" --prompt "Once upon a time" --max-new 32 \
  --temperature 0.8 --top-k 40 --seed 1
