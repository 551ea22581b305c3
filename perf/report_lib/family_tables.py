"""One compact table per group of families: a row per case and thread count, the best time of
every halogen variant, the best peer, and the fastest variant's rate, share of the machine limit
and speed against that peer. A family's group is its home as the run records the registry
(registry.py: embedding, norms, conv); a family the run does not record is a group of its own."""

import re
from collections import Counter
from typing import Dict, List, Optional, Tuple

from . import markdown as md
from .metrics import Limits, best_peer, family_of, fraction_of_limit, impl_order, limit_name, rate, speedup
from .runs import Result, Runs

BUDGET = re.compile(r"skipped: about (\S+) s per call, over the \S+ s budget")
HOME_TITLES = {"conv": "Convolution"}   # titles other than the home's name capitalized


def natural(text: str):
    """Sort key that orders the numbers in a case name by value (T=16 before T=128)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def groups(runs: Runs) -> Dict[str, List[str]]:
    """Cases by group (their family's home; the machine's limits are in none), groups in the
    registry's order (Registry.home_order), cases by family and then by their numbers."""
    found: Dict[str, List[str]] = {}
    for case in runs.cases():
        if family_of(case) != "limit":
            found.setdefault(runs.registry.home(family_of(case)), []).append(case)
    return {g: sorted(found[g], key=natural) for g in sorted(found, key=runs.registry.home_order)}


def group_title(group: str) -> str:
    return HOME_TITLES.get(group, group[:1].upper() + group[1:])


def variant_order(runs: Runs, cases: List[str]):
    """Sort key of the impls of `cases`: halogen's variants in the registry's order for their families."""
    return impl_order(runs.registry.variant_order({family_of(c) for c in cases}))


def time_cell(result: Optional[Result], bold: bool) -> str:
    if result is None:
        return "–"
    if not result.ok:
        budget = BUDGET.fullmatch(result.error or "")
        return f"skipped (about {budget.group(1)} s)" if budget else (result.error or "failed")
    return f"**{md.sig(result.best_ms)}**" if bold else md.sig(result.best_ms)


def fastest(results: List[Optional[Result]]) -> Optional[Result]:
    timed = [r for r in results if r is not None and r.ok]
    return min(timed, key=lambda r: r.best_ms) if timed else None


def main_limit(results: List[Result]) -> str:
    names = Counter(limit_name(r) for r in results if limit_name(r))
    return names.most_common(1)[0][0] if names else "limit"


def peer_failures(runs: Runs, cases: List[str]) -> List[str]:
    """A line per peer and reason it gave no time (a mismatch, an error), which the best-peer column
    hides, naming the cases and thread counts it applies to."""
    where: Dict[Tuple[str, str], List[str]] = {}
    for case in cases:
        order = variant_order(runs, [case])
        threads: Dict[Tuple[str, str], List[str]] = {}
        for r in sorted(runs.of_case(case), key=lambda r: (r.threads, order(r.impl))):
            if r.is_peer and not r.ok:
                threads.setdefault((r.impl, r.error or "no time"), []).append(f"t{r.threads}")
        for key, ts in threads.items():
            where.setdefault(key, []).append(f"`{case}` {', '.join(ts)}")
    return [f"- `{impl}`, {'; '.join(at)}: {error}" for (impl, error), at in where.items()]


def group_table(runs: Runs, limits: Limits, cases: List[str]) -> str:
    rows_of = {case: runs.of_case(case) for case in cases}
    variants = sorted({r.impl for rows in rows_of.values() for r in rows if r.kind == "halogen"},
                      key=variant_order(runs, cases))
    one_family = len({family_of(c) for c in cases}) == 1
    limit = main_limit([r for rows in rows_of.values() for r in rows if r.kind == "halogen"])
    headers = (["case", "t"] + [v.split(":", 1)[1] for v in variants]
               + ["best peer", "peer ms", "rate", f"% of {limit}", "× best peer"])
    body = []
    for case in cases:
        label = case.split(":", 1)[1] if one_family and ":" in case else case
        for threads in sorted({r.threads for r in rows_of[case]}):
            results = [runs.get(case, v, threads) for v in variants]
            best = fastest(results)
            peer = best_peer(runs.of_case(case, threads))
            measured = rate(best) if best else None
            fraction = fraction_of_limit(best, limits) if best else None
            percent = md.percent(fraction[0]) if fraction else "–"
            if fraction and fraction[1] != limit:
                percent += f" of {fraction[1]}"
            body.append([f"`{label}`", str(threads)]
                        + [time_cell(r, r is best) for r in results]
                        + [f"`{peer.impl}`" if peer else "–", md.sig(peer.best_ms) if peer else "–",
                           f"{md.sig(measured[0])} {measured[1]}" if measured else "–", percent,
                           md.ratio(speedup(peer, best)) if best else "–"])
    text = md.table(headers, body, right=[i for i in range(1, len(headers)) if headers[i] != "best peer"])
    failures = peer_failures(runs, cases)
    if failures:
        text += "\nPeers without a time:\n\n" + "\n".join(failures) + "\n"
    return text


def images(paths: List[str], title: str) -> str:
    return "".join(f"![{title}]({path})\n\n" for path in paths)


def sections(runs: Runs, limits: Limits, plots: Dict[str, List[str]]) -> List[str]:
    """A section per group: its title, its plots, its table."""
    return [f"## {group_title(group)}\n\n" + images(plots.get(group, []), group_title(group))
            + group_table(runs, limits, cases)
            for group, cases in groups(runs).items()]
