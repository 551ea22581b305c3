"""The streaming sweep (`halogen_perf --streaming-sweep`): every kernel with a streamed twin, timed
through both of its entries in one run, by output size, beside the entry the AOT runner would take
at the run's streaming threshold. Empty for a run without the sweep's rows."""

import math
import re
from typing import Dict, List, Optional, Tuple

from . import markdown as md
from .metrics import case_params
from .runs import Result, Runs

CACHED, STREAMING = " (cached stores)", " (streaming stores)"
MIB = float(1 << 20)


def output_bytes(case: str) -> Optional[float]:
    """Float32 output bytes of a norm case (its shape) or an embedding case (T x D); None otherwise."""
    params = case_params(case)
    if "T" in params and "D" in params:
        return 4.0 * int(params["T"]) * int(params["D"])
    if re.fullmatch(r"\d+(x\d+)*", params.get("shape", "")):
        return 4.0 * math.prod(int(extent) for extent in params["shape"].split("x"))
    return None


def threshold(runs: Runs) -> Optional[int]:
    """The runner's threshold as halogen_perf recorded it in a run's context, or None."""
    for _, context in runs.sources:
        if "streaming_threshold_bytes" in context:
            return int(context["streaming_threshold_bytes"])
    return None


def pairs(runs: Runs) -> Dict[Tuple[str, str, int], Tuple[Optional[Result], Optional[Result]]]:
    """(case, variant, threads) -> (cached result, streaming result), for the rows of the sweep."""
    found: Dict[Tuple[str, str, int], List[Optional[Result]]] = {}
    for r in runs.results.values():
        for slot, suffix in enumerate((CACHED, STREAMING)):
            if r.kind == "halogen" and r.impl.endswith(suffix):
                key = (r.case, r.impl[:-len(suffix)], r.threads)
                found.setdefault(key, [None, None])[slot] = r
    return {k: (v[0], v[1]) for k, v in found.items()}


def row_order(key: Tuple[str, str, int]):
    """By family, hot ids before fresh ones, then by output size, kernel and threads."""
    case, impl, threads = key
    return case.split(":")[0], case_params(case).get("ids") == "fresh", output_bytes(case) or 0, impl, threads


def time_cell(r: Optional[Result]) -> str:
    if r is None:
        return "–"
    return md.sig(r.best_ms) if r.ok else f"failed: {r.error}"


def section(runs: Runs) -> str:
    found = pairs(runs)
    if not found:
        return ""
    limit = threshold(runs)
    rows = []
    for case, impl, threads in sorted(found, key=row_order):
        cached, streaming = found[(case, impl, threads)]
        size = output_bytes(case)
        speedup = (f"{md.ratio(cached.best_ms / streaming.best_ms)}"
                   if cached and streaming and cached.ok and streaming.ok else "–")
        takes = "–" if size is None or limit is None else ("streaming" if size >= limit else "cached")
        rows.append([f"`{case}`", impl, f"{size / MIB:.0f}" if size else "–", str(threads), time_cell(cached),
                     time_cell(streaming), speedup, takes])
    limit_text = f"{limit / MIB:.0f} MiB" if limit is not None else "not recorded"
    return ("## Streaming stores by output size\n\n"
            "Each kernel with a streamed twin through both entries, best of its repetitions; "
            "\"streaming speedup\" is the cached entry's time over the streaming one's (above 1: "
            f"streaming stores win). The runner's threshold in this run: {limit_text}; the last column "
            "is the entry it takes at that size.\n\n"
            + md.table(["case", "kernel", "output MiB", "t", "cached stores ms", "streaming stores ms",
                        "streaming speedup", "runner takes"], rows))
