"""docs/perf.md as a whole: the header, the goals, the machine's limits, a table per group of
families with its plots, and the streaming sweep when the run has one."""

from typing import Dict, List, Optional

from . import family_tables, streaming
from . import markdown as md
from .goals import Goal
from .header import header
from .metrics import LIMITS, Limits
from .runs import Runs

LIMIT_TITLES = {"fma": "FMA peak GFLOP/s", "copy-cache": "copy in-cache GB/s",
                "copy-dram": "copy DRAM GB/s", "read-dram": "read DRAM GB/s", "stream": "stream GB/s",
                "stream-cached": "stream, cached stores GB/s"}


def goals_section(goals: List[Goal], source: Optional[Runs] = None) -> str:
    """The verdicts; `source`, when given, is the paired goals run they come from (else this page's run)."""
    rows = [[g.name, g.measured, g.threshold, g.verdict] for g in goals]
    if source is not None:
        intro = (f"From the paired run `{source.sources[0][0]}`: a point is the median over the rounds of "
                 "the ratio between two timings taken back to back in one round, the lowest and highest "
                 "round in parentheses.\n\n")
    else:
        intro = "From the tables' run: a point is best time against best time.\n\n"
    intro += ("A point against a peer names how close the peer runs to the limit that bounds the work "
              "(\"the peer at 0.95× of fma\"): against a peer at f of a limit, a kernel bound by the same "
              "limit can be at most 1/f times faster.\n\n")
    return "## Goals\n\n" + intro + md.table(["goal", "measured", "threshold", "verdict"], rows)


def limits_section(runs: Runs, limits: Limits) -> str:
    threads = sorted({t for _, t in limits.rows}) or [1, 2]
    rows = [[str(t)] + [md.sig(limits.rate(name, t)) for name in LIMITS] for t in threads]
    text = "## Machine limits\n\n" + md.table(["threads"] + [LIMIT_TITLES[n] for n in LIMITS], rows,
                                               right=range(len(LIMITS) + 1))
    work = []
    for name in LIMITS:
        result = next((limits.result(name, t) for t in threads if limits.result(name, t)), None)
        if result and (result.flops or result.bytes):
            amount = f"{result.flops / 1e9:.3g} GFLOP" if result.flops else md.size(int(result.bytes))
            work.append(f"`{name}` {amount}")
    if work:
        text += "\nWork per call: " + ", ".join(work) + ".\n"
    text += ("\n`stream` is `y = a*x + b` with non-temporal stores; `stream-cached` the same with ordinary "
             "stores, which read each output line first: the ceiling of a kernel whose stores go through "
             "the cache. The norm goals give their ratio to it (\"of cached\").\n")
    for result in sorted(limits.rows.values(), key=lambda r: (r.case, r.threads)):
        if not result.ok:
            text += f"\n- `{result.case}` t{result.threads}: {result.error or 'no time'}\n"
    return text


def unparsed_section(runs: Runs) -> str:
    if not runs.unparsed:
        return ""
    names = sorted(set(runs.unparsed))
    return ("## Benchmarks not named {case}/{impl}/t{threads}\n\n"
            + "".join(f"- `{n}`\n" for n in names) + "\n")


def document(runs: Runs, limits: Limits, goals: List[Goal], plots: Dict[str, List[str]],
             command: str, plot_note: str, goals_source: Optional[Runs] = None) -> str:
    """The whole page; `goals_source` is the paired run the goals come from, if any."""
    parts = [header(runs, command, plot_note, goals_source), goals_section(goals, goals_source),
             limits_section(runs, limits), streaming.section(runs),
             *family_tables.sections(runs, limits, plots), unparsed_section(runs)]
    return "\n\n".join(p.strip() for p in parts if p) + "\n"
