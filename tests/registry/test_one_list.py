#!/usr/bin/env python3
"""No second list of families or variants: outside schedules/ (where the registry and the
families' homes live) no line of code names two registered families, or two variants of one
family, as a list would. Reads the names from schedules/registry.def; tests are left out, since
a test names the families it checks."""

import os
import re
import sys
import unittest

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", ".."))
CODE = (".h", ".cpp", ".in", ".py", ".txt", ".sh", ".cmake")
SCANNED = ["frontend", "halide_gen", "cli", "perf", "scripts", "CMakeLists.txt"]
LEFT_OUT = ("perf/tests/", "perf/runs/")


def registry():
    text = open(os.path.join(ROOT, "schedules", "registry.def"), encoding="utf-8").read()
    text = re.sub(r"//[^\n]*", "", text)
    families = re.findall(r"HALOGEN_FAMILY\(\s*(\w+)", text)
    variants = {f: set() for f in families}
    for f, v in re.findall(r"HALOGEN_VARIANT\(\s*(\w+)\s*,\s*(\w+)", text):
        variants[f].add(v)
    for f in re.findall(r"HALOGEN_AUTOSCHEDULERS\(\s*(\w+)", text):
        variants[f] |= {"adams2019", "mullapudi2016", "li2018"}
    return families, variants


def files():
    for entry in SCANNED:
        top = os.path.join(ROOT, entry)
        if os.path.isfile(top):
            yield top
            continue
        for dirpath, _, names in os.walk(top):
            for name in names:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                if name.endswith(CODE) and not rel.startswith(LEFT_OUT) and "__pycache__" not in rel:
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

    def test_a_planted_list_is_found(self):
        families, variants = registry()
        lines = ['set(FAMILIES "embedding:gather" "layernorm:fused")',
                 'if (v == "onehot" || v == "onehot_inline") return 1;']
        self.assertEqual([n for n, _ in second_lists(lines, families, variants)], [1, 2])


if __name__ == "__main__":
    unittest.main()
