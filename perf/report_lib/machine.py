"""Which machine a run was measured on, as its Google Benchmark context describes it. Ratios to
in-run references move with the machine (a VM with a 32 MiB L3 streams a 64 MiB norm from DRAM, one
with a 260 MiB L3 partly from cache), so perf/regress keeps one baseline per machine and checks a
run only against the baseline of the machine it ran on.
"""

import re
from typing import List

from . import markdown as md

KIND = {"Data": "d", "Instruction": "i", "Unified": ""}   # L1d, L1i, L2


def describe_caches(caches: List[dict]) -> str:
    """"L1d 32 KiB, L1i 32 KiB, L2 1 MiB, L3 32 MiB (shared by 2)"."""
    parts = []
    for c in caches:
        text = f"L{c.get('level', '?')}{KIND.get(c.get('type'), '')} {md.size(int(c.get('size', 0)))}"
        if c.get("num_sharing", 1) > 1:
            text += f" (shared by {c['num_sharing']})"
        parts.append(text)
    return ", ".join(parts) or "unknown"


def machine_key(ctx: dict) -> str:
    """What makes two machines the same for a baseline: the CPU count and the caches. Google
    Benchmark's context has no CPU model, and a VM's model name says little ("AMD EPYC" here)."""
    return f"{ctx.get('num_cpus', '?')} CPUs, caches {describe_caches(ctx.get('caches', []))}"


def baseline_file_name(ctx: dict) -> str:
    """perf/baselines/<this>: the machine key as a file name, e.g.
    "2cpus-l1d-32kib-l1i-32kib-l2-1mib-l3-32mib.json"."""
    caches = "-".join(f"l{c.get('level', '?')}{KIND.get(c.get('type'), '')}-"
                      + md.size(int(c.get("size", 0))).replace(" ", "") for c in ctx.get("caches", []))
    name = f"{ctx.get('num_cpus', 'unknown')}cpus-{caches or 'unknown-caches'}"
    return re.sub(r"[^a-z0-9-]+", "-", name.lower()) + ".json"
