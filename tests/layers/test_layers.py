#!/usr/bin/env python3
"""tests/layers/check_layers.py passes on the tree as it is and fails on each kind of wrong-way
include planted into a copy of it."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.realpath(os.path.join(HERE, "..", ".."))
CHECK = os.path.join(HERE, "check_layers.py")
FOLDERS = ["frontend", "jinja", "formats", "tokenizer", "halide_gen", "schedules", "models", "cli", "perf"]


def check(root):
    return subprocess.run([sys.executable, "-B", CHECK, "--root", root], capture_output=True, text=True)


class Layers(unittest.TestCase):
    def test_the_tree_points_one_way(self):
        done = check(ROOT)
        self.assertEqual(done.returncode, 0, done.stdout)

    def plant(self, path, line):
        """A copy of the source folders with `line` added to `path`; the checker's output on it."""
        with tempfile.TemporaryDirectory() as tmp:
            for folder in FOLDERS:
                shutil.copytree(os.path.join(ROOT, folder), os.path.join(tmp, folder),
                                ignore=shutil.ignore_patterns("__pycache__", "runs", "*.json", "*.svg"))
            full = os.path.join(tmp, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "a", encoding="utf-8") as f:
                f.write("\n" + line + "\n")
            return check(tmp)

    def assert_caught(self, path, line, words):
        done = self.plant(path, line)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn(path, done.stdout)
        for w in words:
            self.assertIn(w, done.stdout)

    def test_frontend_including_the_compiler_fails(self):
        self.assert_caught("frontend/graph.h", '#include "halide_gen/compiler/lower.h"', ["sits below"])

    def test_frontend_including_halide_fails(self):
        self.assert_caught("frontend/dim.cpp", "#include <Halide.h>", ["may not include"])

    def test_runtime_including_the_compiler_fails(self):
        self.assert_caught("halide_gen/runtime/kernel_call.cpp", '#include "halide_gen/compiler/program.h"',
                           ["sits below halide_gen/compiler/"])

    def test_runtime_including_halide_h_fails(self):
        self.assert_caught("halide_gen/runtime/aot_kernel.cpp", "#include <Halide.h>", ["may not include"])

    def test_compiler_including_a_family_fails(self):
        self.assert_caught("halide_gen/compiler/pipeline.cpp", '#include "schedules/registry.h"',
                           ["sits below schedules/"])

    def test_a_home_including_another_home_fails(self):
        self.assert_caught("schedules/norms/family.cpp", '#include "schedules/conv/conv.h"',
                           ["includes another home"])

    def test_a_family_including_the_programs_fails(self):
        self.assert_caught("schedules/kernel.cpp", '#include "cli/compare.h"', ["sits below cli/"])

    def test_a_format_including_a_model_fails(self):
        self.assert_caught("formats/checkpoint.cpp", '#include "models/llama/llama_config.h"', ["sits below models/"])

    def test_the_tokenizer_including_a_model_fails(self):
        self.assert_caught("tokenizer/tokenizer.cpp", '#include "models/llama/llama_config.h"', ["sits below models/"])

    def test_the_tokenizer_including_halide_fails(self):
        self.assert_caught("tokenizer/bpe.cpp", "#include <Halide.h>", ["may not include"])

    def test_a_format_including_the_tokenizer_fails(self):
        self.assert_caught("formats/npy.cpp", '#include "tokenizer/tokenizer.h"', ["sits below tokenizer/"])

    def test_frontend_including_a_format_fails(self):
        self.assert_caught("frontend/array.cpp", '#include "formats/npy.h"', ["sits below formats/"])

    def test_the_reference_model_including_the_compiler_fails(self):
        self.assert_caught("models/llama/llama_reference.cpp", '#include "halide_gen/compiler/program.h"',
                           ["only a model's *_model and *_recipe files"])

    def test_the_reference_model_including_halide_fails(self):
        self.assert_caught("models/llama/llama_graph.cpp", "#include <Halide.h>", ["may not include"])

    def test_the_compiled_model_may_include_the_families(self):
        done = self.plant("models/llama/llama_model.cpp", '#include "schedules/registry.h"')
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_a_model_including_another_model_fails(self):
        self.assert_caught("models/mistral/mistral_model.cpp", '#include "models/llama/llama_config.h"',
                           ["includes another model"])

    def test_jinja_including_a_format_fails(self):
        self.assert_caught("jinja/template.cpp", '#include "formats/npy.h"', ["sits below formats/"])

    def test_jinja_including_the_graph_ir_fails(self):
        self.assert_caught("jinja/value.cpp", '#include "frontend/graph.h"', ["sits below frontend/"])

    def test_jinja_including_halide_fails(self):
        self.assert_caught("jinja/lexer.cpp", "#include <Halide.h>", ["may not include"])

    def test_frontend_including_jinja_fails(self):
        self.assert_caught("frontend/graph.cpp", '#include "jinja/template.h"', ["sits below jinja/"])

    def test_models_cli_and_perf_may_include_jinja(self):
        for path in ["models/llama/llama_config.cpp", "cli/main.cpp", "perf/cases.cpp"]:
            done = self.plant(path, '#include "jinja/chat_template.h"')
            self.assertEqual(done.returncode, 0, path + ": " + done.stdout)

    def test_perf_and_cli_stay_apart(self):
        self.assert_caught("perf/cases.cpp", '#include "cli/compare.h"', ["sits below cli/"])


if __name__ == "__main__":
    unittest.main()
