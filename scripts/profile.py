"""Profile the IDA* engine: compile vs cached-load vs ahead-of-time run time, cache hits,
nodes per iteration, and how close the heuristic bound is to the true distance.

    python scripts/profile.py                       # all sections, classic sample
    python scripts/profile.py --batch bench-out/hard.txt --section heuristic

True distances come from the batch's ``.dist`` sidecar (``make_batch.py``) or, failing
that, from solving each board exactly.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from pathlib import Path

from bitknights import SAMPLE, TARGET, Board, progress, read_batch, solve
from bitknights.native import EXTENSIONS

_PROBE = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    from bitknights import TARGET, read_batch
    from bitknights.engines import ida
    import numpy as np
    t1 = time.perf_counter()
    keys = np.array([b.key for b in read_batch(open({batch!r}).read())], dtype=np.int64)
    t2 = time.perf_counter()
    from bitknights.engines.options import SolveOptions
    engine, options = ida.IdaEngine(use_pdb=False), SolveOptions(max_depth=15, workers=1)
    engine.steps(keys[:1], TARGET, options)
    t3 = time.perf_counter()
    engine.steps(keys, TARGET, options)
    t4 = time.perf_counter()
    jit = ida.backend() == "jit"
    stats = ida._kernels().ida_nearest.stats if jit else None
    print(json.dumps({{"import_s": t1 - t0, "first_call_s": t3 - t2, "batch_s": t4 - t3,
                      "backend": ida.backend(), "numba_imported": "numba" in sys.modules,
                      "cache_hits": sum(stats.cache_hits.values()) if jit else 0,
                      "cache_misses": sum(stats.cache_misses.values()) if jit else 0}}))
    """
)


def compile_section(batch: Path) -> None:
    """JIT with a fresh numba cache directory (the first process compiles, the second
    loads), then the ahead-of-time extension if it is installed and current.  One thread,
    nearest-square bound."""
    with tempfile.TemporaryDirectory() as cache:
        jit = {**os.environ, "NUMBA_CACHE_DIR": cache, "BITKNIGHTS_NATIVE": "0"}
        runs = [("JIT, empty cache", jit), ("JIT, warm cache", jit), ("ahead of time", None)]
        for label, env in runs:
            if label == "JIT, empty cache":  # the child's own notice goes to a pipe
                progress.announce("compiling the IDA* kernels just in time, in a fresh process "
                                  "with an empty numba cache", "then cached",
                                  EXTENSIONS["ida"].jit_seconds)  # fmt: skip
            out = subprocess.run([sys.executable, "-c", _PROBE.format(batch=str(batch))],
                                 env=env, capture_output=True, text=True, check=True)  # fmt: skip
            r = json.loads(out.stdout)
            if env is None and r["backend"] != "native":
                print(f"{label:<17} not installed (python -m bitknights.native builds it)")
                continue
            print(f"{label:<17} import bitknights {r['import_s']:.3f} s, "
                  f"first call {r['first_call_s']:.3f} s, batch run {r['batch_s']:.3f} s, "
                  f"numba imported: {r['numba_imported']}, "
                  f"cache hits {r['cache_hits']}, misses {r['cache_misses']}")  # fmt: skip


def iterations_section(boards: list[Board]) -> None:
    """Nodes per IDA* iteration: the difference between runs capped one bound apart."""
    from bitknights.engines.heuristics import NEAREST
    from bitknights.engines.ida import bound_at

    with progress.bar(min(5, len(boards)), "boards", "iterations") as shown:
        for b in boards[:5]:
            shown.update()
            s = solve(b, engine="ida", max_depth=None)
            if s.steps is None:
                continue
            h0 = bound_at(b, NEAREST, TARGET)
            prev, parts = 0, []
            for bound in range(h0, s.steps + 1, 2):
                n = solve(b, engine="ida", max_depth=bound).nodes
                parts.append(f"{bound}:{n - prev}")
                prev = n
            with progress.writing(sys.stdout):
                print(f"distance {s.steps:>2}, h0 {h0:>2}: nodes per bound " + " ".join(parts))


def heuristic_section(boards: list[Board], dists: list[int]) -> None:
    """Bound / true distance by distance band."""
    from bitknights.engines.common import nearest_bounds

    bounds = nearest_bounds([b.key for b in boards], TARGET).tolist()
    bands: dict[int, list[float]] = {}
    for h, d in zip(bounds, dists):
        if d > 0:
            bands.setdefault(d, []).append(h / d)
    print("distance  boards  mean h/d  min h/d")
    for d in sorted(bands):
        xs = bands[d]
        print(f"{d:>8} {len(xs):>7} {statistics.mean(xs):>9.3f} {min(xs):>8.3f}")


def true_distances(batch: Path, boards: list[Board]) -> list[int]:
    """Each board's exact distance: from the batch's ``.dist`` sidecar, else solved."""
    sidecar = Path(f"{batch}.dist")
    if sidecar.exists():
        return [int(x) for x in sidecar.read_text().split()][: len(boards)]
    dists = []
    with progress.bar(len(boards), "boards", "solving exactly (no .dist sidecar)") as shown:
        for b in boards:
            dists.append(solve(b, engine="ida", max_depth=None).steps)
            shown.update()
    return dists


def main() -> None:
    # fmt: off
    ap = ArgumentParser(description=__doc__, formatter_class=RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=Path, help="classic batch (default: the classic sample)")
    ap.add_argument("--section", choices=("compile", "iterations", "heuristic", "all"),
                    default="all")
    ap.add_argument("--limit", type=int, default=400,
                    help="boards used by the heuristic section")
    # fmt: on
    args = ap.parse_args()
    batch = args.batch
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tmp:
        tmp.write(SAMPLE)
    batch = batch or Path(tmp.name)
    boards = read_batch(batch.read_text())[: args.limit]
    if args.section in ("compile", "all"):
        compile_section(batch)
    if args.section in ("iterations", "all"):
        iterations_section(boards)
    if args.section in ("heuristic", "all"):
        heuristic_section(boards, true_distances(batch, boards))
    os.unlink(tmp.name)


if __name__ == "__main__":
    main()
