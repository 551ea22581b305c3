"""Which machine a run was measured on. Ratios to in-run references move with the machine (a VM
with a 32 MiB L3 streams a 64 MiB norm from DRAM, one with a 260 MiB L3 partly from cache), so
perf/regress keys its baselines by the machine's KIND: the CPU's vendor, family and model, the
ISA extensions the kernels can use (AVX-512, AVX-512 BF16, AMX) and the CPU count, as
/proc/cpuinfo says them. The caches are not part of the kind: a VM of one kind can report its L3
differently from boot to boot (260 or 300 MiB), and they only rank other kinds' baselines by
nearness (report_lib/baselines.py). The model name is recorded, not compared: VMs of one model
show it differently ("AMD EPYC" or a full SKU)."""

import math
import re
from typing import Dict, List

from . import markdown as md

CACHE_KIND = {"Data": "d", "Instruction": "i", "Unified": ""}   # L1d, L1i, L2
ISA = ("avx512f", "avx512_bf16", "amx")   # the extensions that change which code the kernels run
KIND_FIELDS = ("vendor", "family", "model", "isa", "cpus")   # what two machines of one kind share


def describe_caches(caches: List[dict]) -> str:
    """"L1d 32 KiB, L1i 32 KiB, L2 1 MiB, L3 32 MiB (shared by 2)"."""
    parts = []
    for c in caches:
        text = f"L{c.get('level', '?')}{CACHE_KIND.get(c.get('type'), '')} {md.size(int(c.get('size', 0)))}"
        if c.get("num_sharing", 1) > 1:
            text += f" (shared by {c['num_sharing']})"
        parts.append(text)
    return ", ".join(parts) or "unknown"


def parse_cpuinfo(text: str) -> Dict[str, object]:
    """The kind of the machine /proc/cpuinfo's text describes: vendor, family, model, model_name,
    isa (the extensions of ISA it has, "amx" for any amx_* flag) and cpus (processor entries).
    x86 names first; ARM's "CPU implementer", "CPU architecture", "CPU part" and "Features" stand
    in where those are missing. A field /proc/cpuinfo lacks is None."""
    first: Dict[str, str] = {}
    cpus = 0
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if not sep:
            continue
        if name == "processor":
            cpus += 1
        first.setdefault(name, value)
    flags = set((first.get("flags") or first.get("Features") or "").split())
    isa = [x for x in ISA if x in flags or (x == "amx" and any(f.startswith("amx") for f in flags))]
    return {"vendor": first.get("vendor_id") or first.get("CPU implementer"),
            "family": first.get("cpu family") or first.get("CPU architecture"),
            "model": first.get("model") if "vendor_id" in first else first.get("CPU part"),
            "model_name": first.get("model name"),
            "isa": isa,
            "cpus": cpus or None}


def read_kind(path: str = "/proc/cpuinfo") -> Dict[str, object]:
    with open(path) as f:
        return parse_cpuinfo(f.read())


def same_kind(a: dict, b: dict) -> bool:
    """Whether two kinds are one: every field of KIND_FIELDS known in both and equal."""
    return all(a.get(k) is not None and a.get(k) == b.get(k) for k in KIND_FIELDS)


def describe_kind(kind: dict) -> str:
    """"AuthenticAMD family 25 model 17 (AMD EPYC), avx512f avx512_bf16, 2 CPUs"."""
    def known(value):
        return "unknown" if value is None else value
    name = f" ({kind['model_name']})" if kind.get("model_name") else ""
    isa = " ".join(kind.get("isa") or []) or "no AVX-512"
    return (f"{known(kind.get('vendor'))} family {known(kind.get('family'))} model {known(kind.get('model'))}"
            f"{name}, {isa}, {known(kind.get('cpus'))} CPUs")


def kind_file_name(kind: dict) -> str:
    """perf/baselines/<this>: the kind's fields as a file name, e.g.
    "authenticamd-family25-model17-avx512f-avx512bf16-2cpus.json"."""
    def known(value):
        return "unknown" if value is None else str(value)
    parts = [known(kind.get("vendor")), "family" + known(kind.get("family")), "model" + known(kind.get("model")),
             *[x.replace("_", "") for x in kind.get("isa") or []], known(kind.get("cpus")) + "cpus"]
    return re.sub(r"[^a-z0-9-]+", "", "-".join(parts).lower()) + ".json"


def cache_distance(a: List[dict], b: List[dict]) -> float:
    """How far apart two cache lists are: over the caches of either (by level and type), the
    absolute log2 of the size ratio where both have it, 1 where one lacks it; inf when either list
    is empty (nothing to compare)."""
    if not a or not b:
        return math.inf
    def sizes(caches):
        return {(c.get("level"), c.get("type")): int(c.get("size", 0)) for c in caches}
    sa, sb = sizes(a), sizes(b)
    return sum(abs(math.log2(sa[k] / sb[k])) if k in sa and k in sb and sa[k] > 0 and sb[k] > 0 else 1.0
               for k in set(sa) | set(sb))


def cache_list(ctx: dict) -> List[dict]:
    """The caches of a run's context, as a baseline records them."""
    return [{k: c[k] for k in ("type", "level", "size", "num_sharing") if k in c} for c in ctx.get("caches", [])]
