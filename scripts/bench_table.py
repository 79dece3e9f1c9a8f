"""Benchmark the exhaustive distance table: build time, file size, load time, lookups/s.

Builds the classic table into a temporary cache directory (or --cache-dir), then times
loading it and looking up random boards one at a time and in vectorized batches.  The
first build includes numba compiling (or loading its cache); --builds N repeats it.

    .venv/bin/python scripts/bench_table.py
    .venv/bin/python scripts/bench_table.py --boards 4000000 --threads 1
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--cache-dir", help="build into this directory (default: a temp dir)")
    parser.add_argument("--builds", type=int, default=2, help="builds to time (default 2)")
    parser.add_argument("--boards", type=int, default=2_000_000, help="boards per batch lookup")
    parser.add_argument("--singles", type=int, default=20_000, help="boards looked up one by one")
    parser.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import numpy as np

    if args.threads:
        import numba

        numba.set_num_threads(args.threads)

    from bitknights import TARGET, Board
    from bitknights.table import build, load_table, store
    from bitknights.table.compact import unrank

    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache_dir or tmp
        for i in range(args.builds):
            t = time.perf_counter()
            build(TARGET, cache_dir=cache)  # its bar on a terminal, gone when it is built
            note = " (includes numba compile / cache load)" if i == 0 else ""
            print(f"build {i + 1}: {time.perf_counter() - t:.2f} s{note}")
        path = store.table_path(TARGET, cache)
        print(f"file: {os.path.getsize(path):,} bytes ({path.name})")

        store._loaded.clear()
        t = time.perf_counter()
        table = load_table(TARGET, cache_dir=cache)
        print(f"load + verify: {time.perf_counter() - t:.3f} s")

        rng = np.random.default_rng(args.seed)
        ranks = rng.integers(0, table.state_count, size=args.boards, dtype=np.int64)
        blacks, blanks = unrank(ranks, table.black_count)
        keys = blacks | (blanks << 25)
        table.distances(keys[:1000])  # compile / load the kernel
        t = time.perf_counter()
        d = table.distances(keys)
        dt = time.perf_counter() - t
        print(
            f"batch lookup: {args.boards:,} random boards in {dt:.2f} s = "
            f"{args.boards / dt / 1e6:.2f} M boards/s (mean distance {d.mean():.2f})"
        )

        from bitknights.table import probe

        t = time.perf_counter()
        d2 = probe.distances_array(table.file, keys, table.max_distance)
        dt = time.perf_counter() - t
        assert (d2 == d).all()
        print(f"batch lookup, numpy: {args.boards / dt / 1e6:.1f} M boards/s")

        boards = [Board.from_key(int(k)) for k in keys[: args.singles]]
        table.distance(boards[0])
        t = time.perf_counter()
        for b in boards:
            table.distance(b)
        dt = time.perf_counter() - t
        print(
            f"single lookups: {len(boards) / dt:,.0f} boards/s (Board -> distance, one call each)"
        )

        example = table.example()
        t = time.perf_counter()
        n = table.count_solutions(example)
        print(
            f"count_solutions at distance {table.max_distance}: {n:,} optimal sequences "
            f"in {time.perf_counter() - t:.3f} s"
        )


if __name__ == "__main__":
    main()
