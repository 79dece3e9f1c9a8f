"""Measure the one-off steps whose estimates every notice, help text and the docs give
(``bitknights/estimates.py``), and say whether those constants still fit.

    python scripts/estimates.py             # 3 runs of each step
    python scripts/estimates.py --runs 5 --steps table-build,table-proof

Each step runs on the classic target in a fresh temporary cache directory, in this
process (Python's start and imports are not part of a step), with the kernels the
installed package runs.  A constant fits when it is the median rounded to whole seconds
(at least 1).  The load average is printed beside: a busy machine measures slower on
the clock (the CPU time, over all threads, changes less; on two idle cores the clock
shows about half of it for the parallel steps).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

from bitknights import TARGET, estimates, progress


def _table_build(cache: str) -> None:
    from bitknights.table.builder import build_table

    build_table(TARGET, cache)


def _table_proof(cache: str) -> None:
    from bitknights.table import store

    if not os.path.exists(store.table_path(TARGET, cache)):
        _table_build(cache)  # (not timed: see main)
        raise _Again
    store.load(TARGET, cache, reprove=True)


def _compact_build(cache: str) -> None:
    from bitknights.table import compact

    compact.build(TARGET, cache)


def _pattern_build(cache: str) -> None:
    from bitknights.engines.pdb import build_tables

    build_tables(TARGET.white, TARGET.white.bit_count())
    build_tables(TARGET.black, TARGET.black.bit_count())


class _Again(Exception):
    """A step's set-up ran instead of the step: time it again."""


STEPS: dict[str, tuple[Callable[[str], None], str]] = {
    "table-build": (_table_build, "TABLE_BUILD"),
    "table-proof": (_table_proof, "TABLE_PROOF"),
    "compact-build": (_compact_build, "COMPACT_BUILD"),
    "pattern-build": (_pattern_build, "PATTERN_BUILD"),
}


def measure(step: Callable[[str], None], cache: str) -> tuple[float, float]:
    """Seconds one run of ``step`` takes, on the clock and in CPU time over all threads
    (its set-up, if any, not counted)."""
    while True:
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            step(cache)
        except _Again:
            continue
        return time.perf_counter() - t0, time.process_time() - c0


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--runs", type=int, default=3, help="runs of each step (default 3)")
    p.add_argument("--steps", default=",".join(STEPS), help=f"which, of {','.join(STEPS)}")
    args = p.parse_args()
    names = [s for s in args.steps.split(",") if s]
    unknown = [s for s in names if s not in STEPS]
    if unknown or args.runs < 1:
        p.error(f"unknown step {unknown[0]!r}" if unknown else "--runs must be at least 1")
    progress.set_quiet(True)  # the steps' own notices and bars would mix with the table
    fits = True
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs, {args.runs} runs")
    print(f"{'step':<14} {'median':>7} {'range':>12} {'CPU':>6}  constant")
    with tempfile.TemporaryDirectory(prefix="bitknights-estimates-") as cache:
        for name in names:
            step, constant = STEPS[name]
            each = estimates.about(getattr(estimates, constant))
            print(f"measuring {name}: {args.runs} runs, {each} each", file=sys.stderr, flush=True)
            runs = [measure(step, cache) for _ in range(args.runs)]
            times = [wall for wall, _ in runs]
            median = statistics.median(times)
            cpu = statistics.median(c for _, c in runs)
            value = getattr(estimates, constant)
            ok = value == max(1, round(median))
            fits &= ok
            verdict = "fits" if ok else f"does not fit: {max(1, round(median))} would"
            print(f"{name:<14} {median:6.2f}s {min(times):5.2f}-{max(times):5.2f} s {cpu:5.2f}s  "
                  f"{constant} = {value} ({verdict})")  # fmt: skip
    return 0 if fits else 1


if __name__ == "__main__":
    raise SystemExit(main())
