"""The performance goals, evaluated from a run: every goal is a set of points (one case at one
thread count), each a measured ratio or a reason it is missing. A goal FAILs when a measured point
is under its threshold, PASSes only when every point it needs was measured, and is otherwise
NOT MEASURED.

In a full run a point is best time against best time. In a paired run (halogen_perf --goals) it
is the median over the rounds of the ratio between the two timings of one round, which ran back to
back; the range over the rounds follows the value.

Which families a goal covers comes from the run's registry (registry.py): the norm goals are
every family whose home is norms, the conv goals every case whose family's home is conv. A run that
does not record the registry has no homes, so those goals are NOT MEASURED for it."""

import statistics
from dataclasses import dataclass, field
from typing import List, Optional

from .markdown import ratio
from .metrics import Limits, case_params, family_of, in_tokens_sweep, rate, speedup, writes_output
from .runs import Result, Runs

THREADS = (1, 2)
TOKENS = (1, 16, 128, 2048)
IDS = ("hot", "fresh")


@dataclass
class Point:
    label: str
    value: Optional[float]
    missing: str = ""          # why value is None
    notes: List[str] = field(default_factory=list)   # shown after the value: the rounds' range, another limit
    key: str = ""              # the point across runs (the label without a run's own peer); label if empty

    def __post_init__(self):
        self.key = self.key or self.label

    @property
    def detail(self) -> str:
        return f" ({'; '.join(self.notes)})" if self.notes else ""


@dataclass
class Goal:
    name: str
    measured: str
    threshold: str
    verdict: str
    points: List[Point] = field(default_factory=list)
    minimum: float = 0.0       # the threshold every point must reach


def verdict(points: List[Point], threshold: float) -> str:
    measured = [p for p in points if p.value is not None]
    if any(p.value < threshold for p in measured):
        return "FAIL"
    if not points or len(measured) < len(points):
        return "NOT MEASURED"
    return "PASS"


def describe(points: List[Point], threshold: float, none_text: str) -> str:
    """All points when there are few, else the worst one, how many were measured and what is missing."""
    if not points:
        return none_text
    measured = [p for p in points if p.value is not None]
    missing = [p for p in points if p.value is None]
    if len(points) <= 4:
        return "; ".join(f"{p.label}: {ratio(p.value)}{p.detail}" if p.value is not None
                         else f"{p.label}: not measured ({p.missing})" for p in points)
    parts = []
    if measured:
        worst = min(measured, key=lambda p: p.value)
        below = sum(p.value < threshold for p in measured)
        parts.append(f"worst {ratio(worst.value)} at {worst.label}; {len(measured)} of "
                     f"{len(points)} points measured, {below} below")
    if missing:
        shown = ", ".join(f"{p.label} ({p.missing})" for p in missing[:3])
        parts.append(f"not measured: {shown}" + (f" and {len(missing) - 3} more" if len(missing) > 3 else ""))
    return "; ".join(parts)


def goal(name: str, points: List[Point], threshold: float, threshold_text: str, none_text: str) -> Goal:
    return Goal(name, describe(points, threshold, none_text), threshold_text, verdict(points, threshold),
                points, threshold)


def absent(result: Optional[Result], impl: str) -> str:
    """Why a result gives no time: missing, or skipped with its message."""
    if result is None:
        return f"no {impl}"
    return f"{impl}: {result.error or 'failed'}"


def paired_ratios(reference: Result, result: Result) -> List[float]:
    """reference time / result time within every (round, group) both were timed in; [] when the
    two come from no paired run."""
    return [reference.paired[k] / result.paired[k] for k in result.paired if k in reference.paired]


def paired_point(label: str, ratios: List[float]) -> Point:
    return Point(label, statistics.median(ratios),
                 notes=[f"median of {len(ratios)} rounds, {ratio(min(ratios))} to {ratio(max(ratios))}"])


def ratio_point(label: str, result: Optional[Result], impl: str,
                reference: Optional[Result], reference_impl: str) -> Point:
    """result against reference (reference time / result time), or why it cannot be measured."""
    if result is None or not result.ok:
        return Point(label, None, absent(result, impl))
    if reference is None or not reference.ok:
        return Point(label, None, absent(reference, reference_impl))
    if result.is_paired:
        ratios = paired_ratios(reference, result)
        if not ratios:
            return Point(label, None, f"{reference_impl} never timed in the same round")
        return paired_point(label, ratios)
    return Point(label, speedup(reference, result))


def typical_rate(result: Result) -> Optional[float]:
    """GB/s or GFLOP/s at the best time, or at the median in a paired run (whose points are medians)."""
    measured = rate(result)
    if measured is None or not result.is_paired:
        return measured[0] if measured else None
    return measured[0] * result.best_ms / result.median_ms


def gather_points(runs: Runs) -> List[Point]:
    """halogen:gather against libtorch:index_select over the tokens sweep, every (T, ids, threads)."""
    cases = {}
    for case in runs.cases():
        if in_tokens_sweep(case):
            params = case_params(case)
            cases[(int(params.get("T", 0)), params.get("ids", ""))] = case
    tokens = sorted(set(TOKENS) | {t for t, _ in cases})
    points = []
    for t in tokens:
        for ids in IDS:
            for threads in THREADS:
                label = f"T={t} ids={ids} t{threads}"
                case = cases.get((t, ids))
                if case is None:
                    points.append(Point(label, None, "no such case"))
                    continue
                points.append(ratio_point(label, runs.get(case, "halogen:gather", threads), "halogen:gather",
                                          runs.get(case, "libtorch:index_select", threads),
                                          "libtorch:index_select"))
    return points


def norm_points(runs: Runs, limits: Limits, family: str):
    """(fused against the best peer, fused GB/s against limit:stream GB/s) per case and thread count;
    a stream point also names its ratio to limit:stream-cached when the run has it."""
    peer_points, stream_points = [], []
    for case in (c for c in runs.cases() if c.split(":", 1)[0] == family):
        shape = case.split(":", 1)[1]
        for threads in THREADS:
            fused = runs.get(case, "halogen:fused", threads)
            rows = runs.of_case(case, threads)
            peer_points.append(peer_point(shape, threads, fused, rows, limits))
            label = f"{shape} t{threads}"
            stream = limits.result("stream", threads)
            if fused is None or not fused.ok or rate(fused) is None:
                stream_points.append(Point(label, None, absent(fused, "halogen:fused")))
            elif stream is None or rate(stream) is None:
                stream_points.append(Point(label, None, f"no limit:stream at t{threads}"))
            elif fused.is_paired:
                # rates in one round: (fused bytes / fused time) / (stream bytes / stream time)
                ratios = [r * fused.bytes / stream.bytes for r in paired_ratios(stream, fused)]
                point = paired_point(label, ratios) if ratios else Point(
                    label, None, "limit:stream never timed in the same round")
                point.notes += cached_note(typical_rate(fused), limits, threads) if ratios else []
                stream_points.append(point)
            else:
                stream_points.append(Point(label, rate(fused)[0] / rate(stream)[0],
                                           notes=cached_note(rate(fused)[0], limits, threads)))
    return peer_points, stream_points


def peer_point(shape: str, threads: int, fused: Optional[Result], rows: List[Result], limits: Limits) -> Point:
    """fused against the strongest peer: the one that leaves fused the lowest ratio (in a full run
    the fastest, best_peer)."""
    candidates = [p for p in rows if p.is_peer and p.ok and writes_output(p)]
    if not candidates:
        failed = [f"{r.impl}: {r.error}" for r in rows if r.is_peer and not r.ok]
        return Point(f"{shape} t{threads}", None, "no peer" + (": " + ", ".join(failed) if failed else ""))
    points = []
    for peer in candidates:
        point = ratio_point(f"{shape} t{threads} vs {peer.impl}", fused, "halogen:fused", peer, peer.impl)
        point.key = f"{shape} t{threads}"
        if point.value is not None:
            point.notes += peer_note(peer, limits, threads)
        points.append((point, peer))
    measured = [pp for pp in points if pp[0].value is not None]
    if not measured:
        return points[0][0]
    return min(measured, key=lambda pp: (pp[0].value, pp[1].best_ms))[0]


def peer_note(peer: Result, limits: Limits, threads: int) -> List[str]:
    """How close the peer runs to limit:stream-cached. A peer whose stores go through
    the cache moves each output byte twice (read for ownership, then written back) where streaming
    stores move it once, so against a peer near that limit a kernel at limit:stream reaches about
    limit:stream / limit:stream-cached, no more. None without that limit."""
    cached = limits.result("stream-cached", threads)
    measured = rate(peer)
    if cached is None or not cached.ok or not measured or measured[1] != "GB/s":
        return []
    return [f"the peer at {ratio(typical_rate(peer) / typical_rate(cached))} of cached"]


def cached_note(fused_rate: float, limits: Limits, threads: int) -> List[str]:
    """The same rate against limit:stream-cached, the ceiling of a kernel whose stores go through
    the cache (every store a Halide 14 kernel emits); none without that limit."""
    cached = limits.result("stream-cached", threads)
    if cached is None or typical_rate(cached) is None:
        return []
    return [f"{ratio(fused_rate / typical_rate(cached))} of cached"]


def conv_points(runs: Runs, peer_impl: str, threads: int = 2) -> List[Point]:
    points = []
    for case in (c for c in runs.cases() if runs.registry.home(family_of(c)) == "conv"):
        points.append(ratio_point(f"{case} t{threads}", runs.get(case, "halogen:tiled", threads),
                                  "halogen:tiled", runs.get(case, peer_impl, threads), peer_impl))
    return points


def evaluate(runs: Runs, limits: Limits) -> List[Goal]:
    unrecorded = "" if runs.registry.homes else " (the run does not record the families' homes)"
    goals = [goal("embedding `halogen:gather` vs `libtorch:index_select`, tokens sweep",
                  gather_points(runs), 1.0, "≥ 1.00× at every (T, ids, threads)", "no tokens sweep")]
    # With no family of home norms recorded, the norm goals stand as one pair for the home, NOT MEASURED.
    for family in runs.registry.families_of("norms") or ["norms"]:
        peer_points, stream_points = norm_points(runs, limits, family)
        none = f"no {family} case in the run{unrecorded}"
        goals.append(goal(f"{family} `halogen:fused` vs the best peer", peer_points, 1.5,
                          "≥ 1.50× per case and threads", none))
        goals.append(goal(f"{family} `halogen:fused` GB/s vs `limit:stream` GB/s", stream_points, 0.7,
                          "≥ 0.70× per case and threads", none))
    goals.append(goal("conv `halogen:tiled` vs `onednn:conv (nchw)`, 2 threads",
                      conv_points(runs, "onednn:conv (nchw)"), 1.0, "≥ 1.00× per case",
                      f"no conv case in the run{unrecorded}"))
    goals.append(goal("conv `halogen:tiled` vs `onednn:conv (own layout)`, 2 threads",
                      conv_points(runs, "onednn:conv (own layout)"), 0.7, "≥ 0.70× per case",
                      f"no conv case in the run{unrecorded}"))
    return goals
