"""The performance goals, evaluated from a run: every goal is a set of points (one case at one
thread count), each a measured ratio or a reason it is missing. A goal FAILs when a measured point
is under its threshold, PASSes only when every point it needs was measured, and is otherwise
NOT MEASURED.

In a full run a point is best time against best time. In a paired run (halogen_perf --goals) it
is the median over the rounds of the ratio between the two timings of one round, which ran back to
back; the range over the rounds follows the value.

Which families a goal covers comes from the run's registry (registry.py): the norm goals are
every family whose home is norms, the conv goals every case whose family's home is conv, the matmul
goals the cases of the packed matmul family and its bfloat16 twin when their home is matmul. A run that does
not record the registry has no homes, so those goals are NOT MEASURED for it.

The matmul goals take a case's M from its label (`M=1,K=2048,N=8192,dram`; `,dram`: its weights
are read from DRAM): a GEMM has M = 128 or 512, a GEMV M = 1 and weights from DRAM, and M = 4 to 16
with weights from DRAM is a few tokens. A few tokens are held against their roofline: the longer of
reading the case's bytes at `limit:read-dram` and doing its FLOPs at `limit:fma` (at 16 tokens and
one thread of a machine whose FMA peak is about 5 FLOP per byte of DRAM read bandwidth, the FMAs
take longer than the weights).

The attention goals take the cases of the family `attention` (home attention): decode (T = 1, its
cache read from DRAM: `,dram`) against `limit:read-dram`, the causal prefill (T = S) against
`naive`, the libtorch composite and, stated without a threshold, `limit:fma`."""

import statistics
from dataclasses import dataclass, field
from typing import Callable, List, Optional

from .markdown import ratio
from .metrics import Limits, case_params, family_of, in_tokens_sweep, rate, speedup, writes_output
from .runs import Result, Runs

THREADS = (1, 2)
TOKENS = (1, 16, 128, 2048)
IDS = ("hot", "fresh")
FUSED, TILED = "halogen:fused", "halogen:tiled"      # the default variants the goals time
MATMUL_HOME = "matmul"
PACKED = "matmul_packed"                            # the GEMM/GEMV family the goals hold
PACKED_BF16 = PACKED + "_bf16"                      # the same on bfloat16 weights
ATTENTION = "attention"
NAIVE = "halogen:naive"
GEMM_M = (128, 512)
FEW_TOKENS = range(4, 17)                           # M = 4 … 16


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
        parts.append(f"worst {ratio(worst.value)} at {worst.label}{worst.detail}; {len(measured)} of "
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


def typical_ms(result: Result) -> float:
    """The time a point takes: the best in a full run, the median over the rounds in a paired one."""
    return result.median_ms if result.is_paired else result.best_ms


def typical_rate(result: Result) -> Optional[float]:
    """GB/s or GFLOP/s at the best time, or at the median in a paired run (whose points are medians)."""
    measured = rate(result)
    return measured[0] * result.best_ms / typical_ms(result) if measured else None


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


def point_label(case: str, threads: int) -> str:
    """The case without its family, and the thread count: "M=1,K=2048,N=8192,dram t1"."""
    return f"{case.split(':', 1)[1]} t{threads}"


def peers_of(runs: Runs, case: str, threads: int) -> List[Result]:
    """The peer rows of one case at one thread count."""
    return [r for r in runs.of_case(case, threads) if r.is_peer]


def limit_point(label: str, result: Optional[Result], impl: str, limits: Limits, name: str, threads: int,
                counter: str) -> Point:
    """result's rate against limit:`name`'s at `threads`, the rates of `counter` ("bytes": GB/s,
    "flops": GFLOP/s) over time; in a paired run the rates of one round."""
    limit = limits.result(name, threads)
    if result is None or not result.ok:
        return Point(label, None, absent(result, impl))
    if not getattr(result, counter):
        return Point(label, None, f"{impl} counts no {counter}")
    if limit is None or not limit.ok or not getattr(limit, counter):
        return Point(label, None, f"no limit:{name} at t{threads}")
    work = getattr(result, counter) / getattr(limit, counter)
    if not result.is_paired:
        return Point(label, work * speedup(limit, result))
    ratios = [r * work for r in paired_ratios(limit, result)]
    if not ratios:
        return Point(label, None, f"limit:{name} never timed in the same round")
    return paired_point(label, ratios)


def roofline_point(label: str, result: Optional[Result], impl: str, limits: Limits, threads: int) -> Point:
    """result against its roofline: the longer of moving its bytes at limit:read-dram and doing its
    FLOPs at limit:fma, over result's time; in a paired run both limits' rates of the same round.
    The notes say which bound the rounds' median roofline was."""
    if result is None or not result.ok:
        return Point(label, None, absent(result, impl))
    if not (result.bytes and result.flops):
        return Point(label, None, f"{impl} counts no bytes or no flops")
    bounds = {"read-dram": "bytes", "fma": "flops"}
    refs = {name: limits.result(name, threads) for name in bounds}
    for name, ref in refs.items():
        if ref is None or not ref.ok or not getattr(ref, bounds[name]):
            return Point(label, None, f"no limit:{name} at t{threads}")

    def roof_ms(times: dict) -> tuple:   # (ms of the roofline, its bound) from each limit's time
        ms = {name: getattr(result, counter) / getattr(refs[name], counter) * times[name]
              for name, counter in bounds.items()}
        bound = max(ms, key=ms.get)
        return ms[bound], bound

    if not result.is_paired:
        ms, bound = roof_ms({name: ref.best_ms for name, ref in refs.items()})
        return Point(label, ms / result.best_ms, notes=[f"{bound}-bound"])
    rounds = [k for k in result.paired if all(k in ref.paired for ref in refs.values())]
    if not rounds:
        return Point(label, None, "limit:read-dram and limit:fma never timed in its rounds")
    roofs = [roof_ms({name: ref.paired[k] for name, ref in refs.items()}) for k in rounds]
    point = paired_point(label, [ms / result.paired[k] for (ms, _), k in zip(roofs, rounds)])
    bounds_seen = [bound for _, bound in roofs]
    point.notes.append(f"{max(set(bounds_seen), key=bounds_seen.count)}-bound")
    return point


def norm_points(runs: Runs, limits: Limits, family: str):
    """(fused against the best peer, fused GB/s against limit:stream GB/s) per case and thread count;
    a stream point also names its ratio to limit:stream-cached when the run has it."""
    peer_points, stream_points = [], []
    for case in (c for c in runs.cases() if family_of(c) == family):
        for threads in THREADS:
            fused, label = runs.get(case, FUSED, threads), point_label(case, threads)
            peer_points.append(peer_point(label, fused, FUSED, peers_of(runs, case, threads), limits, threads,
                                          "stream-cached"))
            point = limit_point(label, fused, FUSED, limits, "stream", threads, "bytes")
            if point.value is not None:
                point.notes += cached_note(typical_rate(fused), limits, threads)
            stream_points.append(point)
    return peer_points, stream_points


def peer_point(label: str, result: Optional[Result], impl: str, peers: List[Result], limits: Limits,
               threads: int, limit: Optional[str]) -> Point:
    """result against the strongest of `peers` that writes the output: the one that leaves result
    the lowest ratio (in a full run the fastest, best_peer); the point names how close that peer
    runs to limit:`limit` (peer_note), unless `limit` is None."""
    candidates = [p for p in peers if p.ok and writes_output(p)]
    if not candidates:
        failed = [f"{r.impl}: {r.error}" for r in peers if not r.ok]
        return Point(label, None, "no peer" + (": " + ", ".join(failed) if failed else ""))
    points = []
    for peer in candidates:
        point = ratio_point(f"{label} vs {peer.impl}", result, impl, peer, peer.impl)
        point.key = label
        if point.value is not None:
            point.notes += peer_note(peer, limits, threads, limit)
        points.append((point, peer))
    measured = [pp for pp in points if pp[0].value is not None]
    if not measured:
        return points[0][0]
    return min(measured, key=lambda pp: (pp[0].value, pp[1].best_ms))[0]


# The limits a peer is held against: the work it counts, and the name the note gives the limit.
PEER_LIMITS = {"stream-cached": ("bytes", "cached"), "fma": ("flops", "fma"), "read-dram": ("bytes", "read-dram")}


def peer_note(peer: Result, limits: Limits, threads: int, limit: Optional[str]) -> List[str]:
    """How close the peer runs to limit:`limit` at the same threads, its work over its time against
    the limit's. A peer at f of a limit leaves a kernel bound by that limit at most 1/f times
    faster: a GEMM or a conv against limit:fma, a GEMV against limit:read-dram. A norm's peer
    against limit:stream-cached: a peer whose stores go through the cache moves each output byte
    twice (read for ownership, then written back) where streaming stores move it once, so against a
    peer near that limit a kernel at limit:stream reaches about limit:stream / limit:stream-cached,
    no more. None without that limit, or when the peer counts none of its work."""
    if limit is None:
        return []
    counter, name = PEER_LIMITS[limit]
    reference = limits.result(limit, threads)
    if reference is None or not reference.ok or not getattr(reference, counter) or not getattr(peer, counter):
        return []
    peer_rate = getattr(peer, counter) / typical_ms(peer)
    limit_rate = getattr(reference, counter) / typical_ms(reference)
    return [f"the peer at {ratio(peer_rate / limit_rate)} of {name}"]


def cached_note(fused_rate: float, limits: Limits, threads: int) -> List[str]:
    """The same rate against limit:stream-cached, the ceiling of a kernel whose stores go through
    the cache (every store a Halide 14 kernel emits); none without that limit."""
    cached = limits.result("stream-cached", threads)
    if cached is None or typical_rate(cached) is None:
        return []
    return [f"{ratio(fused_rate / typical_rate(cached))} of cached"]


def conv_points(runs: Runs, limits: Limits, peer_impl: str, threads: int = 2) -> List[Point]:
    """halogen:tiled against `peer_impl` per conv case, each point naming the peer's fraction of limit:fma."""
    points = []
    for case in (c for c in runs.cases() if runs.registry.home(family_of(c)) == "conv"):
        peer = runs.get(case, peer_impl, threads)
        point = ratio_point(f"{case} t{threads}", runs.get(case, TILED, threads), TILED, peer, peer_impl)
        if point.value is not None:
            point.notes += peer_note(peer, limits, threads, "fma")
        points.append(point)
    return points


def matmul_m(case: str) -> int:
    """A matmul case's M, 0 when its label names none."""
    return int(case_params(case).get("M", 0))


def from_dram(case: str) -> bool:
    return case.endswith(",dram")


def is_gemm(case: str) -> bool:
    return matmul_m(case) in GEMM_M


def is_gemv(case: str) -> bool:
    return matmul_m(case) == 1 and from_dram(case)


def is_few_tokens(case: str) -> bool:
    return matmul_m(case) in FEW_TOKENS and from_dram(case)


def matmul_cases(runs: Runs, family: str, wanted: Callable[[str], bool]) -> List[str]:
    """The cases of `family` that `wanted` takes; none unless the run's registry puts the family
    in the matmul home."""
    if runs.registry.home(family) != MATMUL_HOME:
        return []
    return [c for c in runs.cases() if family_of(c) == family and wanted(c)]


def matmul_limit_points(runs: Runs, limits: Limits, cases: List[str], name: str, counter: str) -> List[Point]:
    """halogen:tiled's rate against limit:`name`'s per case and thread count."""
    return [limit_point(point_label(case, t), runs.get(case, TILED, t), TILED, limits, name, t, counter)
            for case in cases for t in THREADS]


def matmul_peer_points(runs: Runs, limits: Limits, cases: List[str], limit: str) -> List[Point]:
    """halogen:tiled against the best peer per case and thread count, with that peer's fraction of limit:`limit`."""
    return [peer_point(point_label(case, t), runs.get(case, TILED, t), TILED, peers_of(runs, case, t), limits, t,
                       limit)
            for case in cases for t in THREADS]


def few_tokens_point(runs: Runs, limits: Limits, case: str, threads: int) -> Point:
    """halogen:tiled against its roofline (roofline_point), naming how close the peer that comes
    closest to the same roofline gets: a goal no peer reaches either is a limit of the machine as
    much as of the kernel."""
    point = roofline_point(point_label(case, threads), runs.get(case, TILED, threads), TILED, limits, threads)
    if point.value is None:
        return point
    peers = [p for p in peers_of(runs, case, threads) if p.ok and writes_output(p)]
    reached = [(roofline_point(p.impl, p, p.impl, limits, threads).value, p.impl) for p in peers]
    reached = [(value, impl) for value, impl in reached if value is not None]
    if reached:
        value, impl = max(reached)
        point.notes.append(f"{impl} at {ratio(value)}")
    return point


def bf16_point(label: str, fp32: Optional[Result], bf16: Optional[Result]) -> Point:
    """fp32 time / bf16 time. In a paired run the two are timed in different groups, never back to
    back, so the ratio is of their median times."""
    if bf16 is None or not bf16.ok:
        return Point(label, None, absent(bf16, f"{PACKED_BF16} {TILED}"))
    if fp32 is None or not fp32.ok:
        return Point(label, None, absent(fp32, f"{PACKED} {TILED}"))
    if not (fp32.is_paired or bf16.is_paired):
        return Point(label, speedup(fp32, bf16))
    return Point(label, fp32.median_ms / bf16.median_ms,
                 notes=[f"median times of {len(fp32.times_ms)} and {len(bf16.times_ms)} rounds, not paired: "
                        "timed in different groups"])


def bf16_points(runs: Runs) -> List[Point]:
    """The bfloat16 packed family against the float32 one on every GEMV case either has (same K, N, weights
    from DRAM), per thread count."""
    shapes = dict.fromkeys(c.split(":", 1)[1] for family in (PACKED, PACKED_BF16)
                           for c in matmul_cases(runs, family, is_gemv))
    return [bf16_point(f"{shape} t{t}", runs.get(f"{PACKED}:{shape}", TILED, t),
                       runs.get(f"{PACKED_BF16}:{shape}", TILED, t)) for shape in shapes for t in THREADS]


def matmul_goals(runs: Runs, limits: Limits, unrecorded: str) -> List[Goal]:
    """GEMM against the FMA peak and the best peer, GEMV against the DRAM read bandwidth and the
    best peer, bfloat16 weights against float32 at GEMV, and a few tokens against their roofline."""
    gemm, gemv = matmul_cases(runs, PACKED, is_gemm), matmul_cases(runs, PACKED, is_gemv)
    tiled = f"{PACKED} `{TILED}`"
    per_gemm, per_gemv = "per case (M = 128, 512) and threads", "per case (M = 1, weights from DRAM) and threads"
    no_gemm, no_gemv = f"no {PACKED} GEMM case in the run{unrecorded}", f"no {PACKED} GEMV case in the run{unrecorded}"
    goals = [
        goal(f"{tiled} GEMM GFLOP/s vs `limit:fma` GFLOP/s",
             matmul_limit_points(runs, limits, gemm, "fma", "flops"), 0.75, f"≥ 0.75× {per_gemm}", no_gemm),
        goal(f"{tiled} GEMM vs the best peer", matmul_peer_points(runs, limits, gemm, "fma"), 1.2,
             f"≥ 1.20× {per_gemm}", no_gemm),
        goal(f"{tiled} GEMV GB/s vs `limit:read-dram` GB/s",
             matmul_limit_points(runs, limits, gemv, "read-dram", "bytes"), 0.85, f"≥ 0.85× {per_gemv}", no_gemv),
        goal(f"{tiled} GEMV vs the best peer", matmul_peer_points(runs, limits, gemv, "read-dram"), 1.0,
             f"≥ 1.00× {per_gemv}", no_gemv),
        goal(f"{PACKED_BF16} `{TILED}` GEMV vs {tiled}", bf16_points(runs), 1.8, f"≥ 1.80× {per_gemv}",
             f"no {PACKED} or {PACKED_BF16} GEMV case in the run{unrecorded}")]
    for family in (PACKED, PACKED_BF16):
        points = [few_tokens_point(runs, limits, case, t)
                  for case in matmul_cases(runs, family, is_few_tokens) for t in THREADS]
        goals.append(goal(f"{family} `{TILED}` M = 4 … 16 vs its roofline (`limit:read-dram` bytes, `limit:fma` FLOPs)",
                          points, 0.8, "≥ 0.80× per case (weights from DRAM) and threads",
                          f"no {family} M = 4 … 16 case in the run{unrecorded}"))
    return goals


def attention_cases(runs: Runs, wanted: Callable[[str], bool]) -> List[str]:
    """The attention cases `wanted` takes; none unless the run's registry puts the family in its home."""
    if runs.registry.homes.get(ATTENTION) != ATTENTION:
        return []
    return [c for c in runs.cases() if family_of(c) == ATTENTION and wanted(c)]


def is_decode(case: str) -> bool:
    return case_params(case).get("T") == "1" and from_dram(case)


def is_prefill(case: str) -> bool:
    p = case_params(case)
    return p.get("T", "1") != "1" and p.get("T") == p.get("S")


def attention_goals(runs: Runs, limits: Limits, unrecorded: str) -> List[Goal]:
    """Decode (`fused`, the kernel a model runs at every step) reads the cache at the DRAM read
    bandwidth; the fused causal prefill against naive, the libtorch composite and the FMA peak."""
    decode, prefill = attention_cases(runs, is_decode), attention_cases(runs, is_prefill)
    fused = f"{ATTENTION} `{FUSED}`"
    per_decode, per_prefill = "per case (T = 1, cache from DRAM) and threads", "per case (T = S) and threads"
    no_decode = f"no {ATTENTION} decode case from DRAM in the run{unrecorded}"
    no_prefill = f"no {ATTENTION} prefill case in the run{unrecorded}"

    def torch_points():
        return [peer_point(point_label(case, t), runs.get(case, FUSED, t), FUSED,
                           [p for p in peers_of(runs, case, t) if p.impl.startswith("libtorch:")], limits, t,
                           None)
                for case in prefill for t in THREADS]
    return [
        goal(f"{fused} decode GB/s vs `limit:read-dram` GB/s",
             [limit_point(point_label(case, t), runs.get(case, FUSED, t), FUSED, limits, "read-dram", t, "bytes")
              for case in decode for t in THREADS], 0.7, f"≥ 0.70× {per_decode}", no_decode),
        goal(f"{fused} prefill vs `{NAIVE}`",
             [ratio_point(point_label(case, t), runs.get(case, FUSED, t), FUSED, runs.get(case, NAIVE, t), NAIVE)
              for case in prefill for t in THREADS], 3.0, f"≥ 3.00× {per_prefill}", no_prefill),
        goal(f"{fused} prefill vs the libtorch composite", torch_points(), 2.0, f"≥ 2.00× {per_prefill}", no_prefill),
        goal(f"{fused} prefill GFLOP/s (the unmasked half) vs `limit:fma` GFLOP/s",
             [limit_point(point_label(case, t), runs.get(case, FUSED, t), FUSED, limits, "fma", t, "flops")
              for case in prefill for t in THREADS], 0.0, "stated", no_prefill)]


def evaluate(runs: Runs, limits: Limits) -> List[Goal]:
    unrecorded = "" if runs.registry.homes else " (the run does not record the families' homes)"
    goals = [goal("embedding `halogen:gather` vs `libtorch:index_select`, tokens sweep",
                  gather_points(runs), 1.0, "≥ 1.00× at every (T, ids, threads)", "no tokens sweep")]
    # With no family of home norms recorded, the norm goals stand as one pair for the home, NOT MEASURED.
    for family in runs.registry.families_of("norms") or ["norms"]:
        peer_points, stream_points = norm_points(runs, limits, family)
        none = f"no {family} case in the run{unrecorded}"
        goals.append(goal(f"{family} `{FUSED}` vs the best peer", peer_points, 1.0,
                          "≥ 1.00× per case and threads", none))
        goals.append(goal(f"{family} `{FUSED}` GB/s vs `limit:stream` GB/s", stream_points, 0.8,
                          "≥ 0.80× per case and threads", none))
    goals.append(goal("conv `halogen:tiled` vs `onednn:conv (nchw)`, 2 threads",
                      conv_points(runs, limits, "onednn:conv (nchw)"), 1.0, "≥ 1.00× per case",
                      f"no conv case in the run{unrecorded}"))
    goals.append(goal("conv `halogen:tiled` vs `onednn:conv (own layout)`, 2 threads",
                      conv_points(runs, limits, "onednn:conv (own layout)"), 1.0, "≥ 1.00× per case",
                      f"no conv case in the run{unrecorded}"))
    return goals + matmul_goals(runs, limits, unrecorded) + attention_goals(runs, limits, unrecorded)
