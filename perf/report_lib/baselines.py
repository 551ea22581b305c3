"""perf/regress's baselines: one file per machine kind in perf/baselines/ (report_lib/machine.py),
named after the kind, holding the ratios of a run on a machine of that kind and the caches it
reported. A run is checked against its own kind's baseline at the normal tolerance, whatever its
caches read. Without one, it is checked against the NEAREST baseline -- the same CPU vendor
first, then the closest caches, then the closest CPU count -- at WIDER times the tolerance, since
ratios to in-run references move with the caches (perf/notes.md, *Baselines per machine*). With no
baseline at all the check fails, naming the command that writes one.
"""

import datetime
import json
import os
from dataclasses import dataclass
from typing import Dict, List, Optional

from .machine import cache_distance, describe_caches, describe_kind, kind_file_name, same_kind

WIDER = 1.5        # the tolerance against another kind's baseline, as a multiple of the normal one
NO_BASELINE = 3    # perf/regress's exit code when there is no baseline to check against (2 is argparse's)


@dataclass
class Baseline:
    path: str
    kind: dict
    caches: List[dict]
    ratios: Dict[str, float]


@dataclass
class Choice:
    baseline: Baseline
    widen: float       # 1 for this kind's own baseline, WIDER for the nearest of another kind
    why: str           # which baseline and why, for the run's output


def read(path: str) -> Baseline:
    with open(path) as f:
        data = json.load(f)
    return Baseline(path, data.get("kind", {}), data.get("caches", []), data["ratios"])


def read_all(directory: str) -> List[Baseline]:
    """Every baseline in `directory`, by file name; [] when it has none or does not exist."""
    if not os.path.isdir(directory):
        return []
    return [read(os.path.join(directory, name)) for name in sorted(os.listdir(directory)) if name.endswith(".json")]


def nearness(baseline: Baseline, kind: dict, caches: List[dict]):
    """Sort key, nearest first: another vendor after the same, then cache distance, then how far
    the CPU count is, then the file name (so that the choice does not depend on listing order)."""
    cpus = abs((baseline.kind.get("cpus") or 0) - (kind.get("cpus") or 0))
    return (baseline.kind.get("vendor") != kind.get("vendor"), cache_distance(baseline.caches, caches), cpus,
            os.path.basename(baseline.path))


def choose(baselines: List[Baseline], kind: dict, caches: List[dict]) -> Optional[Choice]:
    """This kind's baseline, or the nearest other one with a wider tolerance; None when there is none."""
    if not baselines:
        return None
    own = [b for b in baselines if same_kind(b.kind, kind)]
    if own:
        chosen = min(own, key=lambda b: nearness(b, kind, caches))
        why = f"{chosen.path}, this machine's kind ({describe_kind(kind)})"
        if cache_distance(chosen.caches, caches) > 0:
            why += (f"; its caches read {describe_caches(caches)} here and {describe_caches(chosen.caches)} "
                    "in the baseline, which the kind does not depend on")
        return Choice(chosen, 1.0, why)
    chosen = min(baselines, key=lambda b: nearness(b, kind, caches))
    vendor = "the same CPU vendor" if chosen.kind.get("vendor") == kind.get("vendor") else "another CPU vendor"
    why = (f"{chosen.path}, the nearest baseline ({vendor}; caches {describe_caches(chosen.caches)} against "
           f"{describe_caches(caches)} here): none is of this machine's kind ({describe_kind(kind)}; the "
           f"nearest is {describe_kind(chosen.kind)}), so the tolerance is {WIDER:g} times the normal one. "
           "`perf/regress --update` on this machine writes its kind's own")
    return Choice(chosen, WIDER, why)


def write_baseline(path: str, kind: dict, context: dict, caches: List[dict], ratios: Dict[str, dict],
                   written_by: str) -> None:
    """Writes the ratios to 4 significant digits (a slow variant's ratio can be 1e-5)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"written_by": written_by, "date": datetime.date.today().isoformat(),
                   "commit": context.get("halogen_commit", "?"), "kind": kind, "caches": caches,
                   "machine": f"{describe_kind(kind)}, caches {describe_caches(caches)}",
                   "host": f"{context.get('num_cpus', '?')} CPUs, {context.get('mhz_per_cpu', '?')} MHz",
                   "peers": context.get("peers", ""),
                   "ratios": {k: float(f"{v['ratio']:.4g}") for k, v in sorted(ratios.items())}}, f, indent=1)
        f.write("\n")


def own_path(directory: str, kind: dict) -> str:
    return os.path.join(directory, kind_file_name(kind))
