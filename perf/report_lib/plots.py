"""SVG plots of a run (matplotlib, Agg backend). Each function draws one figure into the plot
directory and returns its file name, or None when the run has nothing for it."""

import os
from typing import Dict, List, Optional

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from .family_tables import groups, main_limit, variant_order  # noqa: E402
from .metrics import Limits, case_params, in_tokens_sweep, rate  # noqa: E402
from .runs import Result, Runs  # noqa: E402

THREADS = (1, 2)
TOKENS_IMPLS = ("halogen:gather", "halogen:onehot_inline", "libtorch:index_select")
STYLE = {"font.size": 8, "axes.titlesize": 9, "legend.fontsize": 7, "svg.fonttype": "none",
         "axes.grid": True, "grid.alpha": 0.3, "svg.hashsalt": "halogen"}


def save(fig, directory: str, name: str) -> str:
    fig.savefig(os.path.join(directory, name), format="svg", bbox_inches="tight",
                metadata={"Date": None})
    plt.close(fig)
    return name


def thread_axes(n_rows: int = 1, height: float = 2.6):
    """A figure with one column per thread count, sharing the y axis."""
    fig, axes = plt.subplots(n_rows, len(THREADS), figsize=(7, height * n_rows), sharey=True,
                             squeeze=False)
    for ax, threads in zip(axes[0], THREADS):
        ax.set_title(f"{threads} thread" + ("s" if threads > 1 else ""))
    return fig, axes


def line(ax, points, label, **style) -> bool:
    """Draws the points that have a value; False when none has."""
    points = sorted(p for p in points if p[1] is not None)
    if points:
        ax.plot([p[0] for p in points], [p[1] for p in points], label=label, **style)
    return bool(points)


def tokens_plot(runs: Runs, directory: str) -> Optional[str]:
    """Time against tokens for gather, onehot_inline and index_select; hot solid, fresh dashed."""
    cases = [c for c in runs.cases() if in_tokens_sweep(c)]
    if not cases:
        return None
    fig, axes = thread_axes()
    drawn = 0
    for ax, threads in zip(axes[0], THREADS):
        for color, impl in enumerate(TOKENS_IMPLS):
            for ids, dash, marker in (("hot", "-", "o"), ("fresh", "--", "s")):
                points = [(int(case_params(c)["T"]), best(runs.get(c, impl, threads))) for c in cases
                          if case_params(c).get("ids") == ids]
                drawn += line(ax, points, f"{impl.split(':')[1]} {ids}", color=f"C{color}", linestyle=dash,
                              marker=marker, markersize=3)
        ax.set(xscale="log", yscale="log", xlabel="tokens T")
    if not drawn:   # e.g. a streaming sweep: its gathers are named by their entry
        plt.close(fig)
        return None
    axes[0][0].set_ylabel("best ms per call")
    legend_below(fig, axes)
    return save(fig, directory, "embedding_tokens.svg")


def best(result: Optional[Result]) -> Optional[float]:
    return result.best_ms if result is not None and result.ok else None


def legend_below(fig, axes) -> None:
    handles, labels = [], []
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    if not labels:
        fig.tight_layout()
        return
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(4, len(labels)),
               frameon=False)
    fig.tight_layout()


def vocab_plots(runs: Runs, directory: str) -> List[str]:
    """Time against vocabulary size, one figure per (T, D) with hot ids over at least two V."""
    groups: Dict[tuple, List[str]] = {}
    for case in runs.cases():
        params = case_params(case)
        if case.startswith("embedding:") and params.get("ids") == "hot":
            groups.setdefault((int(params.get("T", 0)), int(params.get("D", 0))), []).append(case)
    names = []
    for (tokens, dim), cases in sorted(groups.items()):
        if len({case_params(c)["V"] for c in cases}) < 2:
            continue
        impls = sorted({r.impl for c in cases for r in runs.of_case(c)
                        if r.kind == "halogen" or r.impl == "libtorch:index_select"},
                       key=variant_order(runs, cases))
        fig, axes = thread_axes()
        for ax, threads in zip(axes[0], THREADS):
            for color, impl in enumerate(impls):
                points = [(int(case_params(c)["V"]), best(runs.get(c, impl, threads))) for c in cases]
                line(ax, points, impl, color=f"C{color % 10}", marker="o", markersize=3,
                     linestyle=":" if impl.startswith("libtorch") else "-")
            ax.set(xscale="log", yscale="log", xlabel="vocabulary V")
        axes[0][0].set_ylabel(f"best ms per call (T={tokens}, D={dim})")
        legend_below(fig, axes)
        names.append(save(fig, directory, f"embedding_vocab_T{tokens}_D{dim}.svg"))
    return names


def bars_plot(runs: Runs, limits: Limits, directory: str, group: str, cases: List[str]) -> Optional[str]:
    """Rate of every implementation of each case of a group, bars per thread count, the group's
    machine limit as a horizontal line per thread count. GFLOP/s on a log scale (a compute-bound
    family's naive loops run orders of magnitude behind its tiled kernel), GB/s on a linear one
    (a memory-bound kernel is read against its bandwidth limit)."""
    if not cases:
        return None
    limit = main_limit([r for c in cases for r in runs.of_case(c) if r.kind == "halogen"])
    unit = "GFLOP/s" if limit == "fma" else "GB/s"
    columns = 2 if len(cases) > 2 else 1
    rows_of_axes = (len(cases) + columns - 1) // columns
    fig, axes = plt.subplots(rows_of_axes, columns, figsize=(7, 2.5 * rows_of_axes), squeeze=False)
    for ax in axes.flat[len(cases):]:
        ax.set_visible(False)
    for ax, case in zip(axes.flat, cases):
        rows = [r for r in runs.of_case(case) if rate(r) is None or rate(r)[1] == unit]
        impls = sorted({r.impl for r in rows}, key=variant_order(runs, [case]))
        width = 0.8 / len(THREADS)
        for i, threads in enumerate(THREADS):
            values = [rate_of(runs.get(case, impl, threads)) for impl in impls]
            xs = [x + (i - (len(THREADS) - 1) / 2) * width for x in range(len(impls))]
            ax.bar([x for x, v in zip(xs, values) if v], [v for v in values if v], width,
                   color=f"C{i}", label=f"t{threads}")
            for x, v in zip(xs, values):
                if v is None:
                    ax.text(x, 0.03, "skipped", rotation=90, fontsize=6, ha="center", va="bottom",
                            transform=ax.get_xaxis_transform())
            ceiling = limits.rate(limit, threads)
            if ceiling:
                ax.axhline(ceiling, color=f"C{i}", linestyle="--", linewidth=1, label=f"limit:{limit} t{threads}")
        ax.set_xlim(-0.5, len(impls) - 0.5)
        ax.set_xticks(range(len(impls)))
        ax.set_xticklabels([i.replace("halogen:", "") for i in impls], rotation=30, ha="right")
        ax.set_title(case)
        ax.set_ylabel(unit)
        if unit == "GFLOP/s":
            ax.set_yscale("log")
    legend_below(fig, axes)
    return save(fig, directory, f"{group}.svg")


def rate_of(result: Optional[Result]) -> Optional[float]:
    measured = rate(result) if result is not None else None
    return measured[0] if measured else None


def draw_all(runs: Runs, limits: Limits, directory: str) -> Dict[str, List[str]]:
    """Every plot; returns file names by the group (family_tables.groups) whose section embeds them:
    embedding's by tokens and by vocabulary, every other group's bars."""
    os.makedirs(directory, exist_ok=True)
    drawn: Dict[str, List[Optional[str]]] = {}
    with plt.rc_context(STYLE):
        for group, cases in groups(runs).items():
            if group == "embedding":
                drawn[group] = [tokens_plot(runs, directory)] + vocab_plots(runs, directory)
            else:
                drawn[group] = [bars_plot(runs, limits, directory, group, cases)]
    return {key: [n for n in names if n] for key, names in drawn.items()}
