"""The goals of several runs side by side: the same kernels measured again show how far a verdict
moves with the machine's noise. Each run's goals are evaluated from that run alone (every ratio is
still measured within one run); this section only lines them up, goal by goal name."""

from typing import List, Optional, Sequence, Tuple

from . import markdown as md
from .goals import Goal

Labelled = Tuple[str, List[Goal]]   # (the run's label, its goals)


def same_goal(goals: List[Goal], name: str) -> Optional[Goal]:
    """The goal called `name` in one run's list, matched by name (None when that run lacks it)."""
    return next((g for g in goals if g.name == name), None)


def verdict_cell(g: Optional[Goal]) -> str:
    if g is None:
        return "–"
    measured = [p.value for p in g.points if p.value is not None]
    return g.verdict + (f", worst {md.ratio(min(measured))}" if measured else "")


def verdict_table(runs: Sequence[Labelled]) -> str:
    rows = []
    for first in runs[0][1]:
        per_run = [same_goal(goals, first.name) for _, goals in runs]
        passed = sum(g is not None and g.verdict == "PASS" for g in per_run)
        rows.append([first.name] + [verdict_cell(g) for g in per_run] + [f"{passed} of {len(per_run)}"])
    return md.table(["goal"] + [label for label, _ in runs] + ["PASS in"], rows)


def missed_table(runs: Sequence[Labelled]) -> str:
    """Every point below its threshold in at least one run, with its value in each run (three
    digits, so that a point just under 1.00× does not read as 1.00×)."""
    rows = []
    for first in runs[0][1]:
        per_run = [same_goal(goals, first.name) for _, goals in runs]
        labels = []
        for g in per_run:
            for p in g.points if g else []:
                if p.value is not None and p.value < g.minimum and p.key not in labels:
                    labels.append(p.key)
        for label in labels:
            values = []
            for g in per_run:
                point = next((p for p in g.points if p.key == label), None) if g else None
                values.append(f"{md.sig(point.value)}×" if point and point.value is not None else "–")
            rows.append([first.name, label] + values + [f"≥ {first.minimum:.2f}×"])
    if not rows:
        return "No point is below its threshold in any of these runs.\n"
    return md.table(["goal", "point"] + [label for label, _ in runs] + ["threshold"], rows)


def section(runs: Sequence[Labelled]) -> str:
    """Empty for a single run."""
    if len(runs) < 2:
        return ""
    return ("## Goals across runs\n\n"
            f"The goals above, and the same goals evaluated in {len(runs) - 1} more "
            f"run{'s' if len(runs) > 2 else ''}, each with the kernels of the commit its file names "
            "and from its own numbers: in a "
            "paired run a point is the median of its per-round ratios, in a full run best time "
            "against best time.\n\n"
            + verdict_table(runs) + "\nPoints below their threshold in any of these runs:\n\n"
            + missed_table(runs))
