#!/usr/bin/env python3
"""`halogen run` takes tensors as PyTorch holds them: leading axes collapsed by halogen (LayerNorm's x
[2, 7, 4097]), channels and spatial axes of NCHW (GroupNorm), ids of any rank (Embedding); a rank it
cannot take is one line stating the expected layout, and a tensor that does not fit is blamed by
name; --threads 1 and 2 write the same bytes. Files are written and read with the standard library (.npy version 1.0, little-endian)."""

import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import unittest

HALOGEN = os.environ.get("HALOGEN_CLI", "halogen")


def write_npy(path, dtype, shape, values):
    code = {"f4": "<f4", "i4": "<i4"}[dtype]
    shape_text = "(" + "".join(f"{d}, " for d in shape)[:-2] + ("," if len(shape) == 1 else "") + ")"
    header = f"{{'descr': '{code}', 'fortran_order': False, 'shape': {shape_text}, }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    fmt = "<" + ("f" if dtype == "f4" else "i") * len(values)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(fmt, *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + n].decode()
    shape = tuple(int(d) for d in header.split("'shape': (")[1].split(")")[0].split(",") if d.strip())
    count = math.prod(shape)
    return shape, struct.unpack(f"<{count}f", data[10 + n:10 + n + 4 * count])


class RunLayouts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.rng = random.Random(7)

    def tearDown(self):
        self.dir.cleanup()

    def floats(self, name, shape):
        values = [self.rng.uniform(-1, 1) for _ in range(math.prod(shape))]
        path = os.path.join(self.dir.name, name + ".npy")
        write_npy(path, "f4", shape, values)
        return path, [struct.unpack("<f", struct.pack("<f", v))[0] for v in values]

    def run_halogen(self, *args):
        return subprocess.run([HALOGEN, *args], capture_output=True, text=True)

    def test_layernorm_takes_leading_axes(self):
        x, xv = self.floats("x", (2, 7, 4097))
        w, wv = self.floats("w", (4097,))
        b, bv = self.floats("b", (4097,))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "layernorm", "--input", f"x={x}", "--input", f"weight={w}",
                                "--input", f"bias={b}", "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        shape, got = read_npy(out)
        self.assertEqual(shape, (2, 7, 4097))
        D = 4097
        for row in (0, 5, 13):
            r = xv[row * D:(row + 1) * D]
            mean = sum(r) / D
            var = sum((v - mean) ** 2 for v in r) / D
            for d in (0, 1, 2048, 4096):
                want = (r[d] - mean) / math.sqrt(var + 1e-5) * wv[d] + bv[d]
                self.assertAlmostEqual(got[row * D + d], want, delta=1e-4)

    def test_groupnorm_takes_nchw(self):
        x, xv = self.floats("x", (2, 64, 3, 5))
        w, wv = self.floats("w", (64,))
        b, bv = self.floats("b", (64,))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "groupnorm", "--input", f"x={x}", "--input", f"weight={w}",
                                "--input", f"bias={b}", "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        shape, got = read_npy(out)
        self.assertEqual(shape, (2, 64, 3, 5))
        group = 2 * 15   # 64 / 32 channels of 3 x 5
        for g in (0, 31, 45):
            vals = xv[g * group:(g + 1) * group]
            mean = sum(vals) / group
            var = sum((v - mean) ** 2 for v in vals) / group
            k = g * group + 17
            c = (k // 15) % 64
            want = (xv[k] - mean) / math.sqrt(var + 1e-5) * wv[c] + bv[c]
            self.assertAlmostEqual(got[k], want, delta=1e-4)

    def test_embedding_takes_ids_of_any_rank(self):
        ids = os.path.join(self.dir.name, "ids.npy")
        write_npy(ids, "i4", (2, 3), [0, 4, 2, 9, 1, 3])
        w, wv = self.floats("w", (5, 8))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "embedding", "--input", f"ids={ids}", "--input", f"weight={w}",
                                "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        shape, got = read_npy(out)
        self.assertEqual(shape, (2, 3, 8))
        self.assertAlmostEqual(got[1 * 8 + 3], wv[4 * 8 + 3])
        self.assertEqual(got[3 * 8:4 * 8], (0.0,) * 8)   # id 9 is outside [0, 5): a zero row

    def one_line_error(self, done, *words):
        self.assertNotEqual(done.returncode, 0)
        lines = done.stderr.strip().split("\n")
        self.assertEqual(len(lines), 1, done.stderr)
        self.assertTrue(lines[0].startswith("halogen: "), lines[0])
        for w in words:
            self.assertIn(w, lines[0])

    def test_a_rank_it_cannot_take_states_the_layout(self):
        x, _ = self.floats("x", (4, 4))
        w, _ = self.floats("w", (4, 1))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "rmsnorm", "--input", f"x={x}", "--input", f"weight={w}", "--output", out)
        self.one_line_error(done, "input 'weight'", "[4, 1]", "expected [D]", "rank 2, expected rank 1")

    def test_the_tensor_that_does_not_fit_is_blamed(self):
        x, _ = self.floats("x", (2, 7, 4097))
        w, _ = self.floats("w", (4097,))
        b, _ = self.floats("b", (7,))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "layernorm", "--input", f"x={x}", "--input", f"weight={w}",
                                "--input", f"bias={b}", "--output", out)
        self.one_line_error(done, "input 'bias'", "[7]", "[D] = [4097]", "from input 'x' axis 2")

    def test_eps_is_a_run_time_parameter(self):
        x, xv = self.floats("x", (3, 8))
        w, wv = self.floats("w", (8,))
        outs = {}
        for eps in ("1e-6", "0.5"):
            out = os.path.join(self.dir.name, f"out{eps}.npy")
            done = self.run_halogen("run", "rmsnorm", "--input", f"x={x}", "--input", f"weight={w}", "--eps", eps,
                                    "--output", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            outs[eps] = read_npy(out)[1]
            r = xv[8:16]
            want = r[3] / math.sqrt(sum(v * v for v in r) / 8 + float(eps)) * wv[3]
            self.assertAlmostEqual(outs[eps][8 + 3], want, delta=1e-5)
        self.assertNotAlmostEqual(outs["1e-6"][11], outs["0.5"][11], delta=1e-3)

    def test_groups_is_a_run_time_parameter(self):
        x, xv = self.floats("x", (1, 12, 5))
        w, wv = self.floats("w", (12,))
        b, bv = self.floats("b", (12,))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "groupnorm", "--groups", "4", "--input", f"x={x}", "--input", f"weight={w}",
                                "--input", f"bias={b}", "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        got = read_npy(out)[1]
        group = 3 * 5   # 12 / 4 channels of 5
        vals = xv[group:2 * group]
        mean = sum(vals) / group
        var = sum((v - mean) ** 2 for v in vals) / group
        k = group + 7
        c = k // 5
        self.assertAlmostEqual(got[k], (xv[k] - mean) / math.sqrt(var + 1e-5) * wv[c] + bv[c], delta=1e-4)
        done = self.run_halogen("run", "groupnorm", "--groups", "5", "--input", f"x={x}", "--input", f"weight={w}",
                                "--input", f"bias={b}", "--output", out)
        self.one_line_error(done, "input 'x'", "not a multiple of 5")

    def test_another_conv_geometry_runs_jit_compiled(self):
        x, xv = self.floats("x", (1, 2, 7, 6))
        w, wv = self.floats("w", (3, 2, 5, 5))
        b, bv = self.floats("b", (3,))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "conv2d", "--stride", "2", "--pad", "2", "--input", f"x={x}",
                                "--input", f"weight={w}", "--input", f"bias={b}", "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("JIT-compiled", done.stderr)
        shape, got = read_npy(out)
        self.assertEqual(shape, (1, 3, 4, 3))   # (7 + 4 - 5) / 2 + 1, (6 + 4 - 5) / 2 + 1
        k, oy, ox = 1, 2, 1
        want = bv[k]
        for c in range(2):
            for dy in range(5):
                for dx in range(5):
                    iy, ix = oy * 2 + dy - 2, ox * 2 + dx - 2
                    if 0 <= iy < 7 and 0 <= ix < 6:
                        want += xv[(c * 7 + iy) * 6 + ix] * wv[((k * 2 + c) * 5 + dy) * 5 + dx]
        self.assertAlmostEqual(got[(k * 4 + oy) * 3 + ox], want, delta=1e-4)

    def test_linear_takes_leading_axes_of_x(self):
        x, xv = self.floats("x", (2, 3, 5))
        w, wv = self.floats("w", (7, 5))
        b, bv = self.floats("b", (7,))
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "linear", "--input", f"x={x}", "--input", f"weight={w}", "--input", f"bias={b}",
                                "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        shape, got = read_npy(out)
        self.assertEqual(shape, (2, 3, 7))
        for m, n in ((0, 0), (4, 6), (5, 3)):
            want = sum(xv[m * 5 + k] * wv[n * 5 + k] for k in range(5)) + bv[n]
            self.assertAlmostEqual(got[m * 7 + n], want, delta=1e-5)

    def test_bfloat16_weights_packed_from_float32_then_multiplied(self):
        # A float32 weight file is rounded to bfloat16 at load (to nearest even); the packed panels
        # are written as '<u2' bits, which the packed kernel reads back as they are.
        x, xv = self.floats("x", (2, 5))
        w, wv = self.floats("w", (64, 5))
        packed = os.path.join(self.dir.name, "packed.npy")
        done = self.run_halogen("run", "matmul_pack_bf16", "--input", f"weight={w}", "--output", packed)
        self.assertEqual(done.returncode, 0, done.stderr)
        out = os.path.join(self.dir.name, "out.npy")
        done = self.run_halogen("run", "matmul_packed_bf16", "--input", f"x={x}", "--input", f"packed={packed}",
                                "--output", out)
        self.assertEqual(done.returncode, 0, done.stderr)
        shape, got = read_npy(out)
        self.assertEqual(shape, (2, 64))

        def bf16(v):
            bits = struct.unpack("<I", struct.pack("<f", v))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return struct.unpack("<f", struct.pack("<I", bits))[0]

        for m, n in ((0, 0), (1, 33), (1, 63)):
            want = sum(xv[m * 5 + k] * bf16(wv[n * 5 + k]) for k in range(5))
            self.assertAlmostEqual(got[m * 64 + n], want, delta=1e-5)
        done = self.run_halogen("run", "matmul_pack_bf16", "--input", f"weight={x}", "--output", packed)
        self.one_line_error(done, "input 'weight'", "[2, 5]", "not a multiple of 32")

    def test_threads_give_the_same_output(self):
        # LayerNorm's rows are split across the kernels' threads: one thread or two, the same bytes.
        x, _ = self.floats("x", (64, 4097))
        w, _ = self.floats("w", (4097,))
        b, _ = self.floats("b", (4097,))
        outputs = []
        for threads in ("1", "2"):
            out = os.path.join(self.dir.name, f"out{threads}.npy")
            done = self.run_halogen("run", "layernorm", "--threads", threads, "--input", f"x={x}",
                                    "--input", f"weight={w}", "--input", f"bias={b}", "--output", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out, "rb") as f:
                outputs.append(f.read())
        self.assertEqual(outputs[0], outputs[1])
        done = self.run_halogen("run", "layernorm", "--threads", "0", "--input", f"x={x}", "--output", "o.npy")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("--threads: must be >= 1, got 0", done.stderr)


if __name__ == "__main__":
    unittest.main()
