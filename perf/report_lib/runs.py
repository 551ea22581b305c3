"""Reading halogen_perf's Google Benchmark JSON into one Result per (case, impl, threads).

A benchmark is named `{case}/{impl}/t{threads}`; Google Benchmark may append parts of its own
("repeats:3", "real_time", ...), which are ignored. With repetitions R there are R entries of
run_type "iteration" per benchmark, and aggregates (mean, median, ...) that are only used when a
file holds no iteration entry for the benchmark (--benchmark_report_aggregates_only).

A paired run (halogen_perf --goals, perf/paired_rounds.h) labels each entry with its group, the
goal point it was timed for, and numbers it by round (repetition_index); a benchmark that serves
several groups (limit:stream) has one entry per group and round. Result.paired keeps those times
by (round, group), so a ratio can be taken between two timings of the same round and group.

The runs' contexts also give the registry of families and variants (registry.py).
"""

import json
import re
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .registry import Registry

MS_PER_UNIT = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
PEER_KINDS = ("libtorch", "onednn", "openblas")
Key = Tuple[str, str, int]   # (case, impl, threads)


@dataclass
class Result:
    """One benchmark over its repetitions: times of the repetitions that ran, counters, failures."""
    case: str
    impl: str
    threads: int
    times_ms: List[float] = field(default_factory=list)
    bytes: float = 0.0
    flops: float = 0.0
    kernels: int = 0
    max_abs_err: float = -1.0
    writes_output: Optional[bool] = None   # a "writes_output" counter, when the binary reports one
    failed: int = 0                        # repetitions that reported an error
    error: str = ""                        # the last error message
    note: str = ""                         # anything else worth a note (aggregates only, ...)
    source: str = ""                       # the file it came from
    paired: Dict[Tuple[int, str], float] = field(default_factory=dict)   # ms by (round, group), paired runs

    @property
    def is_paired(self) -> bool:
        return bool(self.paired)

    @property
    def ok(self) -> bool:
        return bool(self.times_ms)

    @property
    def best_ms(self) -> Optional[float]:
        return min(self.times_ms) if self.times_ms else None

    @property
    def median_ms(self) -> Optional[float]:
        return statistics.median(self.times_ms) if self.times_ms else None

    @property
    def family(self) -> str:       # "embedding", "layernorm", "conv2d", "limit", ...
        return self.case.split(":", 1)[0]

    @property
    def kind(self) -> str:         # "halogen", "libtorch", "onednn", "machine"
        return self.impl.split(":", 1)[0]

    @property
    def op(self) -> str:           # the variant or the peer's operation: "fused", "conv (nchw)"
        return self.impl.split(":", 1)[1] if ":" in self.impl else self.impl

    @property
    def is_peer(self) -> bool:
        return self.kind in PEER_KINDS


def is_paired_context(ctx: dict) -> bool:
    """Whether a run's context says it is a paired goals run (halogen_perf --goals)."""
    return ctx.get("interleaved") == "paired"


@dataclass
class Runs:
    """Everything read from the input files, later files overriding earlier ones per benchmark."""
    sources: List[Tuple[str, dict]] = field(default_factory=list)   # (path, context) per file
    results: Dict[Key, Result] = field(default_factory=dict)
    unparsed: List[str] = field(default_factory=list)               # names not {case}/{impl}/...
    registry: Registry = field(default_factory=Registry)            # families, homes, variants

    def of_case(self, case: str, threads: Optional[int] = None) -> List[Result]:
        return [r for r in self.results.values()
                if r.case == case and (threads is None or r.threads == threads)]

    def get(self, case: str, impl: str, threads: int) -> Optional[Result]:
        return self.results.get((case, impl, threads))

    def cases(self) -> List[str]:
        """Every case, in the order the runs first list it."""
        return list(dict.fromkeys(r.case for r in self.results.values()))

    def thread_counts(self) -> List[int]:
        return sorted({r.threads for r in self.results.values()})


def parse_name(name: str, entry: dict) -> Optional[Key]:
    """`case/impl/tN[/anything]` -> (case, impl, N); None when the name has no impl part."""
    parts = name.split("/")
    if len(parts) < 2 or not parts[0] or not parts[1]:
        return None
    threads = None
    for part in parts[2:]:
        match = re.fullmatch(r"t(\d+)", part)
        if match:
            threads = int(match.group(1))
    if threads is None:
        threads = int(entry.get("threads", 1) or 1)
    return parts[0], parts[1], threads


def entry_time_ms(entry: dict) -> float:
    return float(entry["real_time"]) * MS_PER_UNIT[entry.get("time_unit", "ns")]


def take_counters(result: Result, entry: dict) -> None:
    result.bytes = float(entry.get("bytes", 0) or 0)
    result.flops = float(entry.get("flops", 0) or 0)
    result.kernels = int(entry.get("kernels", 0) or 0)
    result.max_abs_err = float(entry.get("max_abs_err", -1))
    if "writes_output" in entry:
        result.writes_output = bool(entry["writes_output"])


def result_of(key: Key, iterations: List[dict], aggregates: Dict[str, dict], source: str) -> Result:
    """One benchmark of one file from its iteration entries, or from its aggregates if it has none."""
    result = Result(*key, source=source)
    good = [e for e in iterations if not e.get("error_occurred")]
    for entry in iterations:
        if entry.get("error_occurred"):
            result.failed += 1
            result.error = entry.get("error_message", "error")
    result.times_ms = [entry_time_ms(e) for e in good]
    result.paired = {(int(e.get("repetition_index", 0)), e["label"]): entry_time_ms(e)
                     for e in good if e.get("label")}
    if not iterations and "median" in aggregates:
        result.times_ms = [entry_time_ms(aggregates["median"])]
        result.note = "aggregates only: best and median are the median"
    counters_from = (good or iterations or list(aggregates.values()))[0]
    take_counters(result, counters_from)
    return result


def read_file(path: str, runs: Runs) -> None:
    """Adds one JSON file to runs; its benchmarks replace the same (case, impl, threads) read before."""
    with open(path) as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not JSON ({error})") from error
    runs.sources.append((path, data.get("context", {})))
    runs.registry.add(data.get("context", {}), path)
    iterations: Dict[Key, List[dict]] = {}
    aggregates: Dict[Key, Dict[str, dict]] = {}
    for entry in data.get("benchmarks", []):
        name = entry.get("run_name") or entry.get("name", "")
        key = parse_name(name, entry)
        if key is None:
            runs.unparsed.append(name)
            continue
        if entry.get("run_type", "iteration") == "aggregate":
            aggregates.setdefault(key, {})[entry.get("aggregate_name", "")] = entry
        else:
            iterations.setdefault(key, []).append(entry)
    for key in list(dict.fromkeys(list(iterations) + list(aggregates))):
        runs.results[key] = result_of(key, iterations.get(key, []), aggregates.get(key, {}), path)


def read_runs(paths: List[str]) -> Runs:
    runs = Runs()
    for path in paths:
        read_file(path, runs)
    return runs
