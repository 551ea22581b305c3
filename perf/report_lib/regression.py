"""The comparison behind perf/regress: every halogen kernel of a run as ratios to references
measured in the same run -- its fraction of the machine limit (copy, stream or FMA peak) and its
speed relative to each peer library -- checked against the ratios of a committed baseline.
Ratios, not times, so that a machine that is slower all over does not read as a regression; and a
kernel regresses only when it got worse against every one of its references.
"""

import re
from dataclasses import dataclass
from typing import Dict, List, Optional

from .metrics import Limits, fraction_of_limit, speedup, writes_output
from .runs import Runs


def ratios(runs: Runs) -> Dict[str, dict]:
    """{"case/impl/tN vs reference": {"ratio": r, "kernel": benchmark, "reference": benchmark}};
    higher is better (the kernel's share of the limit, or a peer's time / the kernel's time)."""
    limits = Limits(runs)
    out = {}
    for r in runs.results.values():
        if r.kind != "halogen" or not r.ok:
            continue
        name = f"{r.case}/{r.impl}/t{r.threads}"
        fraction = fraction_of_limit(r, limits)
        if fraction:
            out[f"{name} vs limit:{fraction[1]}"] = {
                "ratio": fraction[0], "kernel": name, "reference": f"limit:{fraction[1]}/machine/t{r.threads}"}
        # Every peer op computing the case, not only the fastest: a run without one library (CI
        # has no libtorch) still checks against the others.
        for peer in runs.of_case(r.case, r.threads):
            if peer.is_peer and peer.ok and writes_output(peer):
                out[f"{name} vs {peer.impl}"] = {
                    "ratio": speedup(peer, r), "kernel": name, "reference": f"{peer.case}/{peer.impl}/t{peer.threads}"}
    return out


@dataclass
class Check:
    key: str
    baseline: Optional[float]
    now: Optional[float]
    kernel: str = ""
    reference: str = ""

    @property
    def slowdown(self) -> Optional[float]:
        """How much worse the ratio got: 0.25 = the kernel is 25 % slower against its reference."""
        if self.baseline is None or not self.now:
            return None
        return self.baseline / self.now - 1

    def regressed(self, tolerance: float) -> bool:
        return self.slowdown is not None and self.slowdown > tolerance


def regressions(checks: List[Check], tolerance: float) -> List[Check]:
    """The checks of every kernel that got worse past `tolerance` against each reference measured
    for it now. A kernel that got slower moves all of its ratios; a peer library or a machine limit
    that swings on a noisy machine moves only the ratios against it, so one ratio alone is not a
    regression."""
    by_kernel: Dict[str, List[Check]] = {}
    for c in checks:
        if c.slowdown is not None:
            by_kernel.setdefault(c.kernel, []).append(c)
    return [c for group in by_kernel.values() if all(c.regressed(tolerance) for c in group) for c in group]


def suspects(checks: List[Check], tolerance: float) -> List[Check]:
    """The checks of every kernel worse past `tolerance` against at least one reference: what a
    check re-measures before it judges. One worse ratio alone is no regression, but it means the
    kernel or that reference swung, and a swing either way can hide a real slowdown (a slow limit in
    the run, or a slow kernel in the baseline, narrows the gap a slower kernel opens)."""
    worse = {c.kernel for c in checks if c.regressed(tolerance)}
    return [c for c in checks if c.kernel in worse and c.slowdown is not None]


def compare(baseline: Dict[str, float], now: Dict[str, dict]) -> List[Check]:
    """One Check per ratio in either: baseline-only ones have now=None (not measured in this run,
    e.g. a peer library missing here), run-only ones have baseline=None (new)."""
    checks = []
    for key in list(dict.fromkeys(list(baseline) + list(now))):
        measured = now.get(key)
        checks.append(Check(key, baseline.get(key), measured["ratio"] if measured else None,
                            measured["kernel"] if measured else "", measured["reference"] if measured else ""))
    return checks


def filter_for(checks: List[Check]) -> str:
    """A --benchmark_filter regex selecting exactly the kernels and references of these checks."""
    names = sorted({c.kernel for c in checks} | {c.reference for c in checks})
    return "^(" + "|".join(escape(n) for n in names) + ")(/|$)"


def escape(name: str) -> str:
    """A benchmark name as a literal in Google Benchmark's (POSIX extended / std::regex) filter:
    only the metacharacters get a backslash (Python's re.escape also escapes spaces and '-')."""
    return re.sub(r"([.^$|()\[\]{}*+?\\])", r"\\\1", name)
