"""Markdown tables and the number formats of docs/perf.md."""

import math
from typing import List, Optional, Sequence


def sig(x: Optional[float], digits: int = 3) -> str:
    """x to `digits` significant digits (trailing zeros kept, no exponent above 1e-6); '–' for None."""
    if x is None:
        return "–"
    if math.isnan(x) or math.isinf(x):
        return str(x)
    if x == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{digits - 1}e}" if decimals > 8 else f"{x:.{decimals}f}"


def ratio(x: Optional[float]) -> str:
    if x is None:
        return "–"
    return f"{sig(x, 2)}×" if x < 0.1 else f"{x:.2f}×"


def percent(x: Optional[float]) -> str:
    if x is None:
        return "–"
    return "<1 %" if 0 < x < 0.005 else f"{100 * x:.0f} %"


def error(x: float) -> str:
    """max|err|: -1 means not checked."""
    if math.isnan(x):
        return "NaN"
    if x < 0:
        return "–"
    return "0" if x == 0 else f"{x:.1e}"


def size(n: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(headers: Sequence[str], rows: List[Sequence[str]], right: Sequence[int] = ()) -> str:
    """A markdown table; columns whose index is in `right` are right-aligned."""
    rule = ["---:" if i in right else "---" for i in range(len(headers))]
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "|".join(rule) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
