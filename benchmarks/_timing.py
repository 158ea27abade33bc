"""Timing and formatting shared by every benchmark section.

Every number is the MINIMUM over ``repeats`` runs of a timeit loop whose length is auto-ranged
(1, 2, 5, 10, 20, ... calls) until one run lasts ``target_s``. The minimum is the least disturbed
run, which matters on small shared machines where the median drifts with other load. Statements
compared with each other are timed in interleaved rounds (every statement once per round), so a
burst of outside load lands on all of them alike instead of on whichever ran during it, and in
a new random order each round.
"""

from __future__ import annotations

import math
import os
import random
import timeit
from importlib.util import find_spec

METHOD = ("min of {repeats} timeit repeats in interleaved, shuffled rounds, loop count "
          "auto-ranged to >= {target_ms:g} ms per repeat")


class Settings:
    """How long to measure: ``--quick`` trades precision for a fast pass."""

    def __init__(self, quick: bool):
        self.quick = quick
        # Many short repeats, not a few long ones: on a busy machine a short window has a
        # better chance of running undisturbed, and the minimum picks that window.
        self.repeats = 25 if quick else 60
        self.target_s = 0.001 if quick else 0.003

    def method(self) -> str:
        return METHOD.format(repeats=self.repeats, target_ms=self.target_s * 1e3)


def _loop_count(timer: timeit.Timer, target_s: float) -> int:
    """Calls per repeat so that one repeat lasts about ``target_s``.

    The per-call estimate is the minimum of three short runs: a single run that a context
    switch lands in would make the loop far too short, and a loop of one cold call measures
    cache misses, not the call.
    """
    n = 1
    while timer.timeit(n) < target_s / 10:
        n *= 2
    per_call = min(timer.repeat(3, n)) / n
    return max(1, round(target_s / per_call))


def time_stmt(stmt: str, namespace: dict, settings: Settings) -> float:
    """Seconds per execution of ``stmt`` (a string, so no lambda call is timed with it)."""
    return time_many({0: (stmt, namespace)}, settings)[0]


def time_many(items: dict, settings: Settings) -> dict:
    """``{key: seconds per execution}`` for ``{key: (stmt, namespace)}``, in interleaved rounds."""
    # setup=stmt: each repeat starts with one untimed call, so the first timed call does not pay
    # for what the previous statement left behind (a trimmed heap, evicted caches).
    timers = {k: timeit.Timer(stmt, setup=stmt, globals=ns) for k, (stmt, ns) in items.items()}
    counts = {k: _loop_count(t, settings.target_s) for k, t in timers.items()}
    best = dict.fromkeys(timers, float("inf"))
    order = list(timers)
    shuffle = random.Random(0).shuffle
    for _ in range(settings.repeats):
        # A new order each round: what ran just before a statement (a heap it left trimmed, a
        # 4 MB buffer it freed) changes its time, and a fixed order would favour some.
        shuffle(order)
        for k in order:
            best[k] = min(best[k], timers[k].timeit(counts[k]) / counts[k])
    return best


def geomean(values) -> float:
    values = [v for v in values if v is not None]
    if not values:
        return float("nan")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def reason(e: BaseException) -> str:
    """A one-line, short reason for a row that could not be measured."""
    text = f"{type(e).__name__}: {e}".splitlines()[0]
    return text if len(text) <= 60 else text[:57] + "..."


def us(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    v = seconds * 1e6
    if v >= 1e4:
        return f"{v / 1e3:.1f} ms"
    return f"{v:.3g} us" if v < 100 else f"{v:.0f} us"


def ratio(r: float | None) -> str:
    return "n/a" if r is None or r != r else f"{r:.2f}x"


def table(header: list[str], rows: list[list[str]]) -> str:
    """Plain-text table, first column left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    def line(r):
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w)
                 for i, (c, w) in enumerate(zip(r, widths))]
        return "  ".join(cells).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("PASS" if ok else "FAIL")


# --- fresh interpreters (memory, imports) -------------------------------------------------------

def installed(name: str) -> bool:
    return find_spec(name) is not None


def child_env() -> dict[str, str]:
    """This environment with the repository first on the import path, for a fresh interpreter
    that imports dltensor from this checkout."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [
        root, os.environ.get("PYTHONPATH")])))
