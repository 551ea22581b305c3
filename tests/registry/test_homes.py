#!/usr/bin/env python3
"""A new family is its home and its registry.def lines: the build finds a home's sources and the
registry's include of its header (schedules/homes.cmake) instead of listing them. This plants a
family home in a copy of schedules/ and runs homes.cmake on it (cmake -P): the planted home's
header and sources are picked up with no other edit, every real home's sources are too, and
neither schedules/CMakeLists.txt nor registry.cpp names a home."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", ".."))
SCHEDULES = os.path.join(ROOT, "schedules")
CMAKE = os.environ.get("HALOGEN_CMAKE") or shutil.which("cmake")

PROBE = """include(${DIR}/homes.cmake)
halogen_family_homes(${DIR} sources ${OUT}/registry_homes.h)
file(WRITE ${OUT}/sources.txt "${sources}")
"""


def run_homes(schedules, out):
    """(included headers, source paths relative to `schedules`) that homes.cmake finds."""
    probe = os.path.join(out, "probe.cmake")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(PROBE)
    subprocess.run([CMAKE, f"-DDIR={schedules}", f"-DOUT={out}", "-P", probe], check=True, timeout=60,
                   capture_output=True, text=True)
    with open(os.path.join(out, "registry_homes.h"), encoding="utf-8") as f:
        headers = re.findall(r'#include "schedules/([^"]+)"', f.read())
    with open(os.path.join(out, "sources.txt"), encoding="utf-8") as f:
        sources = [os.path.relpath(s, schedules) for s in f.read().split(";") if s]
    return headers, sources


def real_homes():
    return sorted(d for d in os.listdir(SCHEDULES) if os.path.isfile(os.path.join(SCHEDULES, d, d + ".h")))


@unittest.skipIf(CMAKE is None, "no cmake")
class Homes(unittest.TestCase):
    def test_every_home_is_found_and_nothing_else(self):
        with tempfile.TemporaryDirectory() as out:
            headers, sources = run_homes(SCHEDULES, out)
        homes = real_homes()
        self.assertGreaterEqual(len(homes), 5)
        self.assertEqual(headers, [f"{h}/{h}.h" for h in homes])
        want = sorted(f"{h}/{n}" for h in homes for n in os.listdir(os.path.join(SCHEDULES, h)) if n.endswith(".cpp"))
        self.assertEqual(sorted(sources), want)
        self.assertFalse([s for s in sources if s.startswith("aot/")], "the AOT build is no home")

    def test_a_planted_family_needs_no_other_edit(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "schedules")
            shutil.copytree(SCHEDULES, copy)
            home = os.path.join(copy, "pooling")
            os.mkdir(home)
            files = {"pooling.h": "namespace halogen::pooling { Family maxpool(); }\n",
                     "family.cpp": "// the graph\n", "schedules.cpp": "// the schedules\n"}
            for name, text in files.items():
                with open(os.path.join(home, name), "w", encoding="utf-8") as f:
                    f.write(text)
            with open(os.path.join(copy, "registry.def"), "a", encoding="utf-8") as f:
                f.write("\nHALOGEN_FAMILY(maxpool, pooling::maxpool)\n"
                        "HALOGEN_VARIANT(maxpool, naive, nullptr, kDefault, \"unscheduled\")\n")
            out = os.path.join(tmp, "build")
            os.mkdir(out)
            headers, sources = run_homes(copy, out)
        self.assertIn("pooling/pooling.h", headers)
        self.assertIn("pooling/family.cpp", sources)
        self.assertIn("pooling/schedules.cpp", sources)

    def test_the_build_and_the_registry_list_no_home(self):
        homes = real_homes()
        for name in ("CMakeLists.txt", "registry.cpp"):
            with open(os.path.join(SCHEDULES, name), encoding="utf-8") as f:
                text = f.read()
            listed = sorted(h for h in homes if re.search(rf"\b{h}/", text))
            self.assertEqual(listed, [], f"schedules/{name} names the homes {listed}")


if __name__ == "__main__":
    unittest.main()
