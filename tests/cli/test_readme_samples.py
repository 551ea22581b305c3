#!/usr/bin/env python3
"""README.md's samples of output against the program: each `build/cli/halogen groups ...` line in
a shell block, followed by its output as `# ` comment lines, is run from the source directory and
must print exactly those lines."""

import os
import subprocess
import unittest

HALOGEN = os.environ.get("HALOGEN_CLI", "halogen")
SOURCE = os.environ.get("HALOGEN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def samples(readme):
    """(arguments, the sample's lines) for each `build/cli/halogen groups` line followed by `# ` lines."""
    lines = readme.splitlines()
    found = []
    for k, line in enumerate(lines):
        if not line.startswith("build/cli/halogen groups "):
            continue
        shown = []
        for after in lines[k + 1:]:
            if not after.startswith("# "):
                break
            shown.append(after[2:])
        found.append((line.split()[1:], shown))
    return found


class ReadmeSamples(unittest.TestCase):
    def test_groups_sample_is_what_the_program_prints(self):
        with open(os.path.join(SOURCE, "README.md")) as f:
            found = samples(f.read())
        self.assertTrue(found, "README.md shows no `halogen groups` sample")
        for args, shown in found:
            self.assertTrue(shown, f"no output shown under halogen {' '.join(args)}")
            run = subprocess.run([HALOGEN, *args], cwd=SOURCE, capture_output=True, text=True, check=True)
            self.assertEqual(run.stdout.splitlines(), shown, f"halogen {' '.join(args)}")


if __name__ == "__main__":
    unittest.main()
