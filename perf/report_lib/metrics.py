"""Figures derived from Results: rates, the machine's limits, the limit a row is measured against,
the best peer of a case, the case parameters (embedding's V, D, T, ids), and the order of a
case's implementations."""

from typing import Dict, List, Optional, Sequence, Tuple

from .runs import Result, Runs

LIMITS = ("fma", "copy-cache", "copy-dram", "read-dram", "stream", "stream-cached")
CACHE_BYTES = 8 * 2**20      # hot embedding cases up to this many bytes run from cache
KIND_ORDER = ("halogen", "libtorch", "onednn")
TOKENS_SWEEP = {"V": "128256", "D": "4096"}   # the embedding cases of the tokens sweep


def family_of(case: str) -> str:
    return case.split(":", 1)[0]


def impl_order(variants: Sequence[str]):
    """Sort key of impls: halogen's variants in the order of `variants` (Registry.variant_order),
    those it does not name after them by name; then the peers by kind and name."""
    position = {v: i for i, v in enumerate(variants)}

    def key(impl: str):
        kind, _, op = impl.partition(":")
        return (KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER),
                position.get(op, len(position)) if kind == "halogen" else 0, op)
    return key


def case_params(case: str) -> Dict[str, str]:
    """"embedding:V=128256,D=4096,T=16,ids=hot" -> {V: 128256, ...}; a part without '=' is the shape."""
    params = {}
    spec = case.split(":", 1)[1] if ":" in case else ""
    for part in filter(None, spec.split(",")):
        name, sep, value = part.partition("=")
        if sep:
            params[name] = value
        else:
            params["shape"] = part
    return params


def in_tokens_sweep(case: str) -> bool:
    params = case_params(case)
    return case.startswith("embedding:") and all(params.get(k) == v for k, v in TOKENS_SWEEP.items())


def rate(result: Result) -> Optional[Tuple[float, str]]:
    """(value, unit) of the best time: GFLOP/s when the row counts flops, else GB/s; None without work."""
    if not result.ok:
        return None
    seconds = result.best_ms * 1e-3
    if result.flops > 0:
        return result.flops / seconds / 1e9, "GFLOP/s"
    if result.bytes > 0:
        return result.bytes / seconds / 1e9, "GB/s"
    return None


class Limits:
    """The machine's limit cases of a run: rate by (limit name, threads)."""

    def __init__(self, runs: Runs):
        self.rows: Dict[Tuple[str, int], Result] = {}
        for result in runs.results.values():
            if result.family == "limit":
                self.rows[(result.case.split(":", 1)[1], result.threads)] = result

    def result(self, name: str, threads: int) -> Optional[Result]:
        return self.rows.get((name, threads))

    def rate(self, name: str, threads: int) -> Optional[float]:
        result = self.result(name, threads)
        measured = rate(result) if result else None
        return measured[0] if measured else None


def limit_name(result: Result) -> Optional[str]:
    """The limit a row's rate is a fraction of: FMA peak for FLOP rates; for byte rates the stream
    rate, except embedding, which reads what a copy reads (from cache when hot and small)."""
    measured = rate(result)
    if measured is None or result.family == "limit":
        return None
    if measured[1] == "GFLOP/s":
        return "fma"
    if result.family == "embedding":
        hot = case_params(result.case).get("ids") == "hot"
        return "copy-cache" if hot and result.bytes <= CACHE_BYTES else "copy-dram"
    return "stream"


def fraction_of_limit(result: Result, limits: Limits) -> Optional[Tuple[float, str]]:
    """(rate / limit rate at the same thread count, limit name), or None."""
    name = limit_name(result)
    ceiling = limits.rate(name, result.threads) if name else None
    if not ceiling:
        return None
    return rate(result)[0] / ceiling, name


def writes_output(result: Result) -> bool:
    """Whether a peer op computes the case's output in its layout: reorders and oneDNN's own-layout
    conv do not (unless the run says otherwise with a writes_output counter)."""
    if result.writes_output is not None:
        return result.writes_output
    return not (result.op.startswith("reorder") or "own layout" in result.op)


def best_peer(rows: List[Result]) -> Optional[Result]:
    """The fastest peer op among rows (one case, one thread count) that writes the output."""
    peers = [r for r in rows if r.is_peer and r.ok and writes_output(r)]
    return min(peers, key=lambda r: r.best_ms) if peers else None


def speedup(reference: Optional[Result], result: Result) -> Optional[float]:
    """reference time / this time: above 1 when the row is faster than the reference."""
    if reference is None or not reference.ok or not result.ok:
        return None
    return reference.best_ms / result.best_ms
