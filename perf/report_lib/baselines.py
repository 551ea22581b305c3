"""perf/regress's baselines: one file per machine in perf/baselines/, named after the machine
(report_lib/machine.py), holding the ratios of a run on that machine. A run is checked only against
the baseline of the machine it ran on: ratios to in-run references still move with the machine's
caches (perf/notes.md, *Baselines per machine*).
"""

import datetime
import json
import os
from typing import Dict, Optional, Tuple

from .machine import baseline_file_name, machine_key

NO_BASELINE = 77   # perf/regress's exit code when the machine has none (ctest's SKIP_RETURN_CODE)


def baseline_path(directory: str, context: dict) -> str:
    return os.path.join(directory, baseline_file_name(context))


def write_baseline(path: str, context: dict, ratios: Dict[str, dict], written_by: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    cpu = f", {context['cpu_model']}" if context.get("cpu_model") else ""
    with open(path, "w") as f:
        json.dump({"written_by": written_by, "date": datetime.date.today().isoformat(),
                   "commit": context.get("halogen_commit", "?"), "machine": machine_key(context),
                   "host": f"{context.get('num_cpus', '?')} CPUs, {context.get('mhz_per_cpu', '?')} MHz{cpu}",
                   "peers": context.get("peers", ""),
                   "ratios": {k: round(v["ratio"], 4) for k, v in sorted(ratios.items())}}, f, indent=1)
        f.write("\n")


def read_baseline(path: str, context: dict) -> Tuple[Optional[Dict[str, float]], str]:
    """(the baseline's ratios, "") or (None, why not): the file is missing or is another machine's."""
    machine = machine_key(context)
    if not os.path.exists(path):
        directory = os.path.dirname(path)
        known = sorted(f for f in os.listdir(directory) if f.endswith(".json")) if os.path.isdir(directory) else []
        return None, (f"no baseline for this machine ({machine}): {path} does not exist "
                      f"(baselines there: {', '.join(known) or 'none'}).")
    with open(path) as f:
        baseline = json.load(f)
    if baseline.get("machine") != machine:
        return None, (f"{path} was measured on another machine ({baseline.get('machine', 'not recorded')}) "
                      f"than this run ({machine}); its ratios do not apply here.")
    return baseline["ratios"], ""
