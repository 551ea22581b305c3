#!/usr/bin/env python3
"""The kernel cache through `halogen llama generate` on the tiny preset: a second run loads every
program from the cache and makes the same ids as a fresh compile and as the JIT (--no-cache); a
truncated entry, a garbage entry and an entry holding another key are each reported and rebuilt;
two processes filling an empty cache at once both succeed and leave valid entries; --no-cache
never reads or writes the folder; an unusable folder gives a warning, not an error; --threads 1
and --threads 2 give the same greedy ids."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

HALOGEN = os.environ.get("HALOGEN_CLI", "halogen")
IDS = "1,2,3,250"


class KernelCache(unittest.TestCase):
    """Compiles as few programs as it can: one filled cache (three programs), copied for each test."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.model = os.path.join(cls.tmp.name, "tiny")
        subprocess.run([HALOGEN, "llama", "init", "--preset", "tiny", "--seed", "5", "--out", cls.model],
                       check=True, capture_output=True)
        cls.filled = os.path.join(cls.tmp.name, "filled")
        cls.fill_run = cls.generate("--cache-dir", cls.filled)
        # --no-cache beside a cache whose every entry is garbage: never read (no report), never written.
        cls.poisoned = os.path.join(cls.tmp.name, "poisoned")
        shutil.copytree(cls.filled, cls.poisoned)
        for p in cls.entries(cls.poisoned):
            with open(p, "r+b") as f:
                f.write(b"garbage!")
        cls.poisoned_stamps = {p: os.stat(p).st_mtime_ns for p in cls.entries(cls.poisoned)}
        cls.jit = cls.generate("--no-cache", "--cache-dir", cls.poisoned)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def generate(cls, *args, env=None):
        run = subprocess.run([HALOGEN, "llama", "generate", "--model", cls.model, "--ids", IDS, "--max-new", "6",
                              *args], capture_output=True, text=True, timeout=600, env=env)
        if run.returncode != 0:
            raise AssertionError(f"rc {run.returncode}: {run.stderr}")
        return run

    @staticmethod
    def new_ids(run):
        return re.search(r"^new ids: ([0-9,]+)$", run.stdout, re.M).group(1)

    @staticmethod
    def entries(cache):
        folder = os.path.join(cache, "kernels")
        return sorted(os.path.join(folder, f) for f in os.listdir(folder)) if os.path.isdir(folder) else []

    def copy_of_filled(self, tmp):
        cache = os.path.join(tmp, "cache")
        shutil.copytree(self.filled, cache)
        return cache

    def test_the_first_run_compiles_and_stores_every_program(self):
        self.assertRegex(self.fill_run.stdout, r"programs: 3 compiled in [0-9.]+ s;")
        self.assertEqual(self.new_ids(self.fill_run), self.new_ids(self.jit))
        self.assertEqual(len(self.entries(self.filled)), 3)

    def test_a_second_run_loads_every_program(self):
        with tempfile.TemporaryDirectory() as tmp:
            second = self.generate("--cache-dir", self.copy_of_filled(tmp))
            self.assertRegex(second.stdout, r"programs: 3 loaded from the kernel cache in [0-9.]+ s;")
            self.assertNotIn("compiled in", second.stdout)
            self.assertEqual(self.new_ids(second), self.new_ids(self.jit))

    def test_the_environment_names_the_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = self.generate(env={**os.environ, "HALOGEN_CACHE_DIR": self.copy_of_filled(tmp)})
            self.assertRegex(run.stdout, r"programs: 3 loaded from the kernel cache")

    def damaged_entry_is_rebuilt(self, damage, problem):
        with tempfile.TemporaryDirectory() as tmp:
            cache = self.copy_of_filled(tmp)
            victim = self.entries(cache)[1]
            damage(victim)
            run = self.generate("--cache-dir", cache)
            self.assertRegex(run.stderr, re.escape(victim) + ": " + problem + "; compiling it again")
            self.assertRegex(run.stdout, r"programs: 2 loaded from the kernel cache in [0-9.]+ s, 1 compiled in")
            self.assertEqual(self.new_ids(run), self.new_ids(self.jit))
            again = self.generate("--cache-dir", cache)   # the rebuilt entry is whole
            self.assertRegex(again.stdout, r"programs: 3 loaded")
            self.assertNotIn("kernel cache:", again.stderr)

    def test_a_truncated_entry_is_rebuilt(self):
        def truncate(path):
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
        self.damaged_entry_is_rebuilt(truncate, "truncated: [0-9]+ bytes, the header asks for more")

    def test_a_garbage_entry_is_rebuilt(self):
        def garbage(path):
            size = os.path.getsize(path)
            with open(path, "r+b") as f:
                f.seek(size // 2)
                f.write(b"\xde\xad\xbe\xef" * 16)
        self.damaged_entry_is_rebuilt(garbage, "checksum mismatch")

    def test_an_entry_of_another_key_is_rebuilt(self):
        def swap(path):   # another program's entry in its place: what an entry of another target looks like
            other = [p for p in self.entries(os.path.dirname(os.path.dirname(path))) if p != path][0]
            shutil.copyfile(other, path)
        self.damaged_entry_is_rebuilt(swap, re.escape("holds another key (another target, Halide or halogen build)"))

    def test_two_processes_filling_one_cache_both_succeed(self):
        with tempfile.TemporaryDirectory() as cache:
            cmd = [HALOGEN, "llama", "generate", "--model", self.model, "--ids", IDS, "--max-new", "6",
                   "--cache-dir", cache]
            procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
            outs = [p.communicate(timeout=600) for p in procs]
            for p, (out, err) in zip(procs, outs):
                self.assertEqual(p.returncode, 0, err)
                self.assertEqual(re.search(r"^new ids: ([0-9,]+)$", out, re.M).group(1), self.new_ids(self.jit))
            self.assertEqual(len(self.entries(cache)), 3)   # one file per program, no temporary left
            third = self.generate("--cache-dir", cache)
            self.assertRegex(third.stdout, r"programs: 3 loaded")
            self.assertNotIn("kernel cache:", third.stderr)

    def test_no_cache_neither_reads_nor_writes(self):
        self.assertNotIn("kernel cache", self.jit.stderr)
        self.assertRegex(self.jit.stdout, r"programs: 3 compiled in")
        self.assertEqual({p: os.stat(p).st_mtime_ns for p in self.entries(self.poisoned)}, self.poisoned_stamps)

    def test_an_unusable_folder_is_a_warning_and_threads_do_not_change_ids(self):
        with tempfile.TemporaryDirectory() as tmp:
            blocker = os.path.join(tmp, "a-file")
            open(blocker, "w").close()
            one = self.generate("--cache-dir", os.path.join(blocker, "cache"), "--threads", "1")
            self.assertRegex(one.stderr, r"halogen: kernel cache: cannot create [^\n]*; compiling without the cache")
            self.assertEqual(one.stderr.count("compiling without the cache"), 1)
            self.assertEqual(self.new_ids(one), self.new_ids(self.jit))
            two = self.generate("--cache-dir", self.copy_of_filled(tmp), "--threads", "2")
            self.assertEqual(self.new_ids(two), self.new_ids(one))


if __name__ == "__main__":
    unittest.main()
