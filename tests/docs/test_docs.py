#!/usr/bin/env python3
"""tests/docs/check_docs.py passes on the docs as they are and fails on each kind of problem planted
into a copy of them (a path or a link that names nothing, a date, a hash, a section of what was
tried, a paragraph on one line, a machine's path, a date or hash just outside a family page's
generated region, a marker without its pair); and perf/report's header names no machine's path."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.realpath(os.path.join(HERE, "..", ".."))
CHECK = os.path.join(HERE, "check_docs.py")
sys.path.insert(0, os.path.join(ROOT, "perf"))

sys.path.insert(0, HERE)

import check_docs  # noqa: E402
from report_lib import family_pages, header  # noqa: E402


class Checked:
    """What the checker found under a root, as its command line reports it."""

    def __init__(self, problems):
        self.stdout = "".join(p + "\n" for p in problems)
        self.returncode = 1 if problems else 0


def check(root):
    return Checked(check_docs.check(root))


class Docs(unittest.TestCase):
    def test_the_docs_pass(self):
        done = subprocess.run([sys.executable, "-B", CHECK, "--root", ROOT], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def plant(self, page, text):
        """The checker's output on a copy of README.md and docs/ with `text` added to `page`, the
        rest of the tree linked in as it is."""
        with tempfile.TemporaryDirectory() as tmp:
            for name in os.listdir(ROOT):
                if name in ("docs", "README.md", ".git") or name.startswith("build"):
                    continue
                os.symlink(os.path.join(ROOT, name), os.path.join(tmp, name))
            subprocess.run(["cp", "-r", os.path.join(ROOT, "docs"), os.path.join(ROOT, "README.md"), tmp], check=True)
            with open(os.path.join(tmp, page), "a", encoding="utf-8") as f:
                f.write("\n" + text + "\n")
            return check(tmp)

    def assert_caught(self, page, text, words):
        done = self.plant(page, text)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertEqual(len(done.stdout.splitlines()), 1, done.stdout)
        self.assertIn(page + ":", done.stdout)
        for word in words:
            self.assertIn(word, done.stdout)

    def test_a_path_that_does_not_exist_fails(self):
        self.assert_caught("docs/architecture.md", "The reader is `formats/no_such_reader.h`.",
                           ["formats/no_such_reader.h", "does not exist"])

    def test_a_folder_that_moved_fails(self):
        self.assert_caught("README.md", "The llama tests are in `tests/models/`.", ["tests/models/"])

    def test_a_path_in_a_code_block_fails(self):
        self.assert_caught("docs/llama.md", "```sh\nscripts/no_such_script.sh --help\n```", ["scripts/no_such_script.sh"])

    def test_a_code_span_broken_across_lines_is_read(self):
        self.assert_caught("docs/grouping.md", "Run `scripts/no_such_script.sh\n--help` first.", ["scripts/no_such_script.sh"])

    def test_a_link_that_leads_nowhere_fails(self):
        self.assert_caught("docs/families/README.md", "See [the gone page](gone.md#top).", ["gone.md", "link"])
        self.assert_caught("README.md", "See [schedules](docs/schedules.md).", ["docs/schedules.md", "link"])

    def test_a_file_named_without_its_folder_that_does_not_exist_fails(self):
        self.assert_caught("docs/grouping.md", "See `no_such_pass.cpp`.", ["no_such_pass.cpp", "no file"])

    def test_paths_that_exist_pass(self):
        done = self.plant("docs/grouping.md", "See `formats/npy.h`, `tests/llama/`, `llama_rope.h`, "
                                              "`compiler/program.h`, `tests/fixtures/llama/llama_tiny_{untied,tied}.json`.")
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_a_date_fails(self):
        self.assert_caught("docs/reliability.md", "Measured on 2026-12-06.", ["2026-12-06"])

    def test_a_commit_fails(self):
        self.assert_caught("docs/grouping.md", "As of commit 2fa872a the pass is faster.", ["2fa872a"])
        self.assert_caught("docs/grouping.md", "d342fa641f056797fb97d3dd552a4ad5e5cb227d", ["hash"])

    def test_a_section_of_what_was_tried_fails(self):
        self.assert_caught("docs/architecture.md", "## Tried, not kept", ["tried"])
        self.assert_caught("docs/architecture.md", "Tried and not kept: four panels per task.", ["tried"])

    def test_an_issue_by_number_fails(self):
        self.assert_caught("docs/llama.md", "What issue 24 still needs.", ["issue 24"])

    def test_a_paragraph_on_one_line_fails(self):
        self.assert_caught("docs/grouping.md", "word " * 40, ["characters"])

    def test_a_machine_path_fails(self):
        self.assert_caught("docs/grouping.md", "Built in /work/main/build-dev.", ["this machine"])

    def test_an_absolute_path_on_the_generated_page_fails(self):
        self.assert_caught("docs/perf.md", "- Machine: vm (libtorch_blas /usr/lib/x86_64-linux-gnu/libblas.so.3).",
                           ["/usr/lib/x86_64-linux-gnu/", "generated"])

    def test_the_generated_page_may_name_its_runs_commits_and_dates(self):
        done = self.plant("docs/perf.md", "- Goals from `perf/runs/goals-2fa872a.json` at commit `2fa872a` "
                                          "on 2026-12-05T15:58:35+00:00.")
        self.assertNotIn("docs/perf.md", done.stdout)

    def test_a_family_pages_generated_region_may_name_its_runs_commits_and_dates(self):
        done = self.plant("docs/families/norms.md", f"{check_docs.REGION_BEGIN}\nFrom a run in `perf/runs/` "
                                                    f"at commit `2fa872a` on 2026-12-05.\n{check_docs.REGION_END}")
        self.assertEqual(done.returncode, 0, done.stdout)

    def test_a_date_or_hash_just_outside_the_region_fails(self):
        self.assert_caught("docs/families/norms.md", f"{check_docs.REGION_BEGIN}\n{check_docs.REGION_END}\n"
                                                     "Measured on 2026-12-06.", ["2026-12-06"])
        self.assert_caught("docs/families/conv.md", f"As of commit 2fa872a:\n{check_docs.REGION_BEGIN}\n"
                                                    f"{check_docs.REGION_END}", ["2fa872a"])

    def test_a_marker_without_its_pair_fails_and_exempts_nothing(self):
        done = self.plant("docs/families/norms.md", f"{check_docs.REGION_BEGIN}\nMeasured on 2026-12-06.")
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertIn("begin marker without its end marker", done.stdout)
        self.assertIn("2026-12-06", done.stdout)
        self.assert_caught("docs/families/conv.md", check_docs.REGION_END, ["end marker without its begin marker"])

    def test_an_absolute_path_in_the_region_fails(self):
        self.assert_caught("docs/families/norms.md", f"{check_docs.REGION_BEGIN}\nFrom `/srv/runs/full.json`.\n"
                                                     f"{check_docs.REGION_END}", ["/srv/runs/full.json", "generated"])

    def test_the_markers_are_the_ones_perf_report_writes(self):
        self.assertEqual((check_docs.REGION_BEGIN, check_docs.REGION_END), (family_pages.BEGIN, family_pages.END))


class ReportHeader(unittest.TestCase):
    def test_the_program_is_named_as_the_build_names_it(self):
        self.assertEqual(header.program_of("/work/main/build-dev/perf/halogen_perf"), "build/perf/halogen_perf")
        self.assertEqual(header.program_of("./perf/halogen_perf"), "build/perf/halogen_perf")
        self.assertEqual(header.program_of("build/perf/halogen_perf"), "build/perf/halogen_perf")
        self.assertEqual(header.program_of(None), "halogen_perf")

    def test_the_header_holds_no_absolute_path(self):
        ctx = {"executable": "/home/someone/halogen/build-dev/perf/halogen_perf", "grid": "goals", "repetitions": 3,
               "libtorch_blas": "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3", "num_cpus": 2}
        text = header.describe_run("perf/runs/goals-x.json", ctx) + header.describe_machine(ctx)
        self.assertIn("build/perf/halogen_perf --goals --repetitions 3", text)
        self.assertIn("libtorch_blas openblas-pthread/libblas.so.3", text)
        self.assertNotIn("/home/", text)
        self.assertNotIn("/usr/", text)


if __name__ == "__main__":
    unittest.main()
