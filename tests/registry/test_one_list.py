#!/usr/bin/env python3
"""No second list of families or variants: outside schedules/ (where the registry and the
families' homes live) no line of code names two registered families, or two variants of one
family, as a list would; and the code above the registry (cli/, perf/, models/, and CMake) names
no family or family home in a string at all -- it takes the families from the registry and serves
them by the op they declare (Family::op), so an if-chain over family names, one per line, fails
too. Reads the names from schedules/registry.def and the homes from schedules/<home>/<home>.h;
tests are left out, since a test names the families it checks."""

import os
import re
import sys
import unittest

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", ".."))
CODE = (".h", ".cpp", ".in", ".py", ".txt", ".sh", ".cmake")
SCANNED = ["frontend", "halide_gen", "cli", "perf", "scripts", "CMakeLists.txt"]
LEFT_OUT = ("perf/tests/", "perf/runs/")
# Where code sits above the registry and must not pick a family by its name; C++ and CMake only
# (perf/report_lib, Python, lays its report out per family).
ABOVE_THE_REGISTRY = ["cli", "perf", "models", "CMakeLists.txt"]
BY_NAME_CODE = (".h", ".cpp", ".in", ".txt", ".cmake")


def registry():
    with open(os.path.join(ROOT, "schedules", "registry.def"), encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"//[^\n]*", "", text)
    families = re.findall(r"HALOGEN_FAMILY\(\s*(\w+)", text)
    variants = {f: set() for f in families}
    for f, v in re.findall(r"HALOGEN_VARIANT\(\s*(\w+)\s*,\s*(\w+)", text):
        variants[f].add(v)
    for f in re.findall(r"HALOGEN_AUTOSCHEDULERS\(\s*(\w+)", text):
        variants[f] |= {"adams2019", "mullapudi2016", "li2018"}
    return families, variants


def homes():
    """The family homes: the folders schedules/<home>/ with a header <home>.h (schedules/homes.cmake)."""
    top = os.path.join(ROOT, "schedules")
    return sorted(d for d in os.listdir(top) if os.path.isfile(os.path.join(top, d, d + ".h")))


def files(scanned=SCANNED, code=CODE):
    for entry in scanned:
        top = os.path.join(ROOT, entry)
        if os.path.isfile(top):
            yield top
            continue
        for dirpath, _, names in os.walk(top):
            for name in names:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                if name.endswith(code) and not rel.startswith(LEFT_OUT) and "__pycache__" not in rel:
                    yield path


def second_lists(lines, families, variants, comment="//"):
    """(line number, names) of each line that names two families, or two variants of one family;
    comments (after `comment`) do not count."""
    found = []
    for number, line in enumerate(lines, 1):
        code = line.split(comment)[0]
        words = set(re.findall(r"[A-Za-z0-9_]+", code))
        named = sorted(f for f in families if f in words)
        if len(named) >= 2:
            found.append((number, named))
            continue
        quoted = set(re.findall(r"[\"']([A-Za-z0-9_]+)[\"']", code))
        for hits in sorted({tuple(sorted(variants[f] & quoted)) for f in families}):
            if len(hits) >= 2:
                found.append((number, list(hits)))
                break
    return found


def names_in_strings(lines, names, comment="//"):
    """(line number, names) of each line whose code holds a string literal that is one of `names`
    (a family or a home): `family == "layernorm"`, `rfind("conv", 0)`, `set(FAMILIES "matmul")`."""
    found = []
    for number, line in enumerate(lines, 1):
        code = line.split(comment)[0]
        hits = sorted(set(re.findall(r"\"([A-Za-z0-9_]+)\"", code)) & names)
        if hits:
            found.append((number, hits))
    return found


class OneList(unittest.TestCase):
    def test_no_second_list_outside_the_registry(self):
        families, variants = registry()
        self.assertGreaterEqual(len(families), 8)
        problems = []
        for path in files():
            with open(path, encoding="utf-8", errors="replace") as f:
                comment = "//" if path.endswith((".h", ".cpp", ".in")) else "#"
                for number, names in second_lists(f.read().splitlines(), families, variants, comment):
                    problems.append(f"{os.path.relpath(path, ROOT)}:{number}: names {', '.join(names)}")
        self.assertEqual(problems, [], "\n".join(problems))

    def test_no_family_picked_by_name_above_the_registry(self):
        families, _ = registry()
        self.assertIn("conv", homes())
        names = set(families) | set(homes())
        problems = []
        for path in files(ABOVE_THE_REGISTRY, BY_NAME_CODE):
            with open(path, encoding="utf-8", errors="replace") as f:
                comment = "//" if path.endswith((".h", ".cpp", ".in")) else "#"
                for number, hits in names_in_strings(f.read().splitlines(), names, comment):
                    problems.append(f"{os.path.relpath(path, ROOT)}:{number}: names {', '.join(hits)}")
        self.assertEqual(problems, [], "\n".join(problems))

    def test_a_planted_if_chain_is_found(self):
        families, _ = registry()
        names = set(families) | set(homes())
        lines = ['if (c.family == "layernorm") return layernorm(c);      // one family a line',
                 'if (c.family.rfind("conv", 0) == 0) return conv_ops(c);   // a home',
                 'if (c.op == nn::ops::kLayerNorm) return layernorm(c);   // by its op: "layernorm" in a comment',
                 'return fmt::format("{}: no input \'{}\'", c.family, name);']
        self.assertEqual([n for n, _ in names_in_strings(lines, names)], [1, 2])

    def test_a_planted_list_is_found(self):
        families, variants = registry()
        lines = ['set(FAMILIES "embedding:gather" "layernorm:fused")',
                 'if (v == "onehot" || v == "onehot_inline") return 1;']
        self.assertEqual([n for n, _ in second_lists(lines, families, variants)], [1, 2])


if __name__ == "__main__":
    unittest.main()
