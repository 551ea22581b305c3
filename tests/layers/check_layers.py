#!/usr/bin/env python3
"""The layers of halogen point one way: this reads every #include of the source tree and fails on
one that climbs from a lower layer to a higher one (docs/architecture.md draws them).

    frontend/              graph IR, nn layer, grouping, interpreter, contracts   no Halide, no LLVM, no files
    jinja/                 the Jinja subset of chat templates                     frontend/errors.h only; no Halide
    formats/               .npy, safetensors, checkpoints, graphs in JSON          knows no model; no Halide
    tokenizer/             byte-level BPE: tokenizer.json, encode, decode          no Halide; frontend/, formats/ only
    halide_gen/runtime/    the run path, AOT entries, OpenMP loops, host facts   Halide's run-time headers only
    halide_gen/compiler/   lowering, recipes, pipelines, JIT, autoschedulers      Halide
    schedules/             the families: homes, registry, kernels, AOT build      a home never includes another
    models/<model>/        everything about one model: its architecture, graph,  a model never includes another;
                           reference model (no Halide) and compiled model         only *_model and *_recipe files
                                                                                 reach the compiler and families
    cli/, perf/            the programs on top                                    neither includes the other

    tests/layers/check_layers.py [--root DIR]     exit 1 and one line per wrong-way include
"""

import argparse
import os
import re
import sys

SOURCES = (".h", ".cpp", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

# Each layer, lowest first, with the layers (path prefixes) it may include.
LAYERS = [
    ("frontend/", ["frontend/"]),
    ("jinja/", ["frontend/errors.h", "jinja/"]),   # of frontend, only the typed errors
    ("formats/", ["frontend/", "formats/"]),
    ("tokenizer/", ["frontend/", "formats/", "tokenizer/"]),
    ("halide_gen/runtime/", ["frontend/", "halide_gen/runtime/"]),
    ("halide_gen/compiler/", ["frontend/", "halide_gen/runtime/", "halide_gen/compiler/"]),
    ("schedules/", ["frontend/", "halide_gen/", "schedules/"]),
    ("models/", ["frontend/", "jinja/", "formats/", "tokenizer/", "halide_gen/", "schedules/", "models/"]),
    ("cli/", ["frontend/", "jinja/", "formats/", "tokenizer/", "halide_gen/", "schedules/", "models/", "cli/"]),
    ("perf/", ["frontend/", "jinja/", "formats/", "tokenizer/", "halide_gen/", "schedules/", "models/", "perf/"]),
]
# System headers a layer must not include: frontend knows nothing of Halide or LLVM; the run time
# only Halide's run-time headers (HalideBuffer.h, HalideRuntime.h), not the compiler's Halide.h.
FORBIDDEN_SYSTEM = {
    "frontend/": re.compile(r"^(Halide|llvm/)"),
    "jinja/": re.compile(r"^(Halide|llvm/)"),
    "formats/": re.compile(r"^(Halide|llvm/)"),
    "tokenizer/": re.compile(r"^(Halide|llvm/)"),
    "halide_gen/runtime/": re.compile(r"^(Halide\.h|Halide[A-Z][A-Za-z]*Generator|llvm/)"),
}
HOMES = "schedules/"   # schedules/<home>/ files include no other home
# In a model's folder, the compiled model and its recipe (files named *_model or *_recipe) are the
# only ones that reach the compiler and the families; the rest -- config, weights, step graph,
# reference model -- stays free of Halide, so the reference runs without a compiler.
COMPILED_MODEL_FILE = re.compile(r"^models/[^/]+/[^/]*_(model|recipe)\.(h|cpp)$")
MODEL_WITHOUT_HALIDE = ["frontend/", "jinja/", "formats/", "tokenizer/", "models/"]


def layer_of(path):
    for prefix, allowed in LAYERS:
        if path.startswith(prefix):
            return prefix, allowed
    return None, None


def model_of(path):
    """The model folder of a path under models/ ("models/llama/"), or None."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == "models":
        return "models/" + parts[1] + "/"
    return None


def home_of(path):
    """The family home of a path under schedules/ ("schedules/norms/"), or None for its root files."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == "schedules" and parts[1] != "aot":
        return "schedules/" + parts[1] + "/"
    return None


def violations(root):
    found = []
    for prefix, _ in LAYERS:
        top = os.path.join(root, prefix)
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                full = os.path.join(dirpath, name)
                path = os.path.relpath(full, root).replace(os.sep, "/")
                layer, allowed = layer_of(path)
                with open(full, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        kind, target = m.groups()
                        where = f"{path}:{number}: #include {kind}{target}{'>' if kind == '<' else kind}"
                        forbidden = FORBIDDEN_SYSTEM.get(layer)
                        halide_free_model_file = layer == "models/" and not COMPILED_MODEL_FILE.match(path)
                        if halide_free_model_file:
                            forbidden = FORBIDDEN_SYSTEM["frontend/"]
                        if kind == "<":
                            if forbidden and forbidden.match(target):
                                found.append(f"{where}: {layer} may not include it")
                            continue
                        target_layer, _ = layer_of(target)
                        if target_layer is None:
                            continue   # a generated header beside a library, a test's own file
                        if not any(target.startswith(a) for a in allowed):
                            found.append(f"{where}: {layer} sits below {target_layer}")
                        if halide_free_model_file and not any(target.startswith(a) for a in MODEL_WITHOUT_HALIDE):
                            found.append(f"{where}: only a model's *_model and *_recipe files may include {target_layer}")
                        own, other = home_of(path), home_of(target)
                        if own and other and own != other:
                            found.append(f"{where}: the family home {own} includes another home, {other}")
                        own, other = model_of(path), model_of(target)
                        if own and other and own != other:
                            found.append(f"{where}: the model {own} includes another model, {other}")
    return found


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", ".."))
    args = p.parse_args(argv)
    found = violations(os.path.realpath(args.root))
    for v in found:
        print(v)
    if found:
        print(f"check_layers: {len(found)} include(s) point the wrong way")
        return 1
    print("check_layers: every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
