#!/usr/bin/python3
"""Cross-checks the bit tables of tests/frontend/bfloat16_test.cpp with PyTorch (not part of the suite).

Reads the rows of kF32ToBf16 and kF16ToF32 from the test source and prints, for each, what torch
computes: float32 -> bfloat16 with .to(torch.bfloat16), float16 -> float32 with .to(torch.float32).
Run with Debian's python3 (torch 1.13):   /usr/bin/python3 tests/frontend/bfloat16_torch_check.py
Exit status 1 if a row differs, except the known difference: torch makes every float32 NaN one
fixed bfloat16 NaN (0xFFFF on its vectorized CPU path, 0x7FC0 in scalar c10::BFloat16).
"""
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = open(os.path.join(HERE, "bfloat16_test.cpp")).read()


def rows(table):
    body = SOURCE[SOURCE.index(table):]
    body = body[:body.index("};")]
    return [(int(a, 16), int(b, 16), why) for a, b, why in
            re.findall(r'\{0x([0-9A-Fa-f]+), 0x([0-9A-Fa-f]+), "([^"]*)"\}', body)]


failures = 0
for f32, want, why in rows("kF32ToBf16[]"):
    t = torch.tensor([f32], dtype=torch.int64).to(torch.int32).view(torch.float32)
    got = t.to(torch.bfloat16).view(torch.int16).item() & 0xFFFF
    is_nan = (f32 & 0x7FFFFFFF) > 0x7F800000
    status = "ok" if got == want else ("torch canonical NaN" if is_nan and got in (0x7FC0, 0xFFFF) else "DIFFERS")
    failures += status == "DIFFERS"
    print(f"f32 0x{f32:08X} -> bf16 table 0x{want:04X} torch 0x{got:04X}  {status:20s} {why}")
for f16, want, why in rows("kF16ToF32[]"):
    t = torch.tensor([f16], dtype=torch.int32).to(torch.int16).view(torch.float16)
    got = t.to(torch.float32).view(torch.int32).item() & 0xFFFFFFFF
    status = "ok" if got == want else "DIFFERS"
    failures += status == "DIFFERS"
    print(f"f16 0x{f16:04X} -> f32 table 0x{want:08X} torch 0x{got:08X}  {status:20s} {why}")
print(f"{failures} row(s) differ")
sys.exit(1 if failures else 0)
