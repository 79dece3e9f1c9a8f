"""Benchmark the bidirectional engine against the seed bidirectional program.

1. Hard batch: boards at each exact distance 14..18 from the classic target (random walks
   from the target, distances by exact search; seeded), solved with the classic limit 15
   by ``bitknights solve --engine bidir`` and by the seed program ``seed_bidir`` (built by
   ../shared/tools/build-reference), each as a whole process.  Both outputs must agree
   with the exact distances.  Prints seconds per board, the speed ratio and peak RSS.
2. Exact mode: deep boards (distance >= --deep-min: uniform random boards kept when deep
   enough, then a greedy walk away from the target from the deepest for the farthest
   found), solved by ``bitknights solve --engine bidir --exact``: whole-process time and
   peak RSS, and the median of the per-board seconds reported in JSON (one worker).

Timings on a shared machine are indicative; run on a quiet one for figures to quote.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bitknights import TARGET, Board, progress
from bitknights.engines import bidir
from bitknights.engines.options import SolveOptions
from bitknights.squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

ROOT = Path(__file__).resolve().parent.parent
BUILD_REFERENCE = ROOT.parent / "shared" / "tools" / "build-reference"
TIME = "/usr/bin/time"  # GNU time: peak RSS of exactly the child


def random_walk(board: Board, length: int, rng: random.Random) -> Board:
    for _ in range(length):
        board = board.play(rng.choice(board.moves()))
    return board


def random_board(rng: random.Random) -> Board:
    cells = ["1"] * 12 + ["0"] * 12
    rng.shuffle(cells)
    cells.insert(rng.randrange(25), "*")
    return Board("".join(cells))


def exact(boards: list[Board]) -> list[int]:
    keys = np.array([b.key for b in boards], dtype=np.int64)
    return bidir.ENGINE.steps(keys, TARGET, SolveOptions(max_depth=None)).tolist()


def hard_batch(per: int, lo: int, hi: int, seed: int) -> list[tuple[Board, int]]:
    """``per`` boards at each exact distance ``lo..hi`` (random walks from the target)."""
    rng = random.Random(seed)
    buckets: dict[int, list[Board]] = {d: [] for d in range(lo, hi + 1)}
    seen: set[int] = set()
    while any(len(v) < per for v in buckets.values()):
        walks = [random_walk(TARGET, rng.randrange(lo, 4 * hi), rng) for _ in range(2000)]
        walks = [b for b in walks if b.key not in seen]
        for b, d in zip(walks, exact(walks)):
            seen.add(b.key)
            if d in buckets and len(buckets[d]) < per:
                buckets[d].append(b)
    out = [(b, d) for d in buckets for b in buckets[d]]
    rng.shuffle(out)
    return out


def deep_boards(count: int, least: int, seed: int, climb: bool) -> list[tuple[Board, int]]:
    """``count`` boards at distance >= ``least`` (uniform sampling), plus with ``climb``
    the end of a greedy walk away from the target from the deepest of them."""
    rng = random.Random(seed)
    found: dict[Board, int] = {}
    while len(found) < count:
        sample = [random_board(rng) for _ in range(500)]
        for b, d in zip(sample, exact(sample)):
            if d >= least:
                found[b] = d
    if climb:
        board, d = max(found.items(), key=lambda item: item[1])
        while True:
            children = [c for _, c in board.children()]
            dist = exact(children)
            up = [(c, e) for c, e in zip(children, dist) if e > d]
            if not up:
                break
            board, d = rng.choice(up)
            found[board] = d
        print(f"greedy walk away from the target ended at distance {d}", flush=True)
    return sorted(found.items(), key=lambda item: item[1])[-count:]


def farthest(target: Board, least: int) -> dict[int, np.ndarray]:
    """Every board at distance >= ``least`` from ``target``, by distance: an exhaustive
    breadth-first search over all boards (a bit per key, the frontier in an array)."""
    from numba import njit

    @njit
    def layers(start, least, nbr, cnt):
        seen = np.zeros(((25 << 25) >> 6) + 1, np.int64)
        seen[start >> 6] |= 1 << (start & 63)
        cur = np.full(1, start, np.int64)
        out = []
        depth = 0
        while True:
            nxt = np.empty(3 * cur.size + 64, np.int64)
            n = 0
            for k in cur:
                if n + 8 > nxt.size:
                    bigger = np.empty(2 * nxt.size, np.int64)
                    bigger[:n] = nxt[:n]
                    nxt = bigger
                b = k >> 25
                black = k & ((1 << 25) - 1)
                for i in range(cnt[b]):
                    q = nbr[b, i]
                    nb = black ^ ((1 << q) | (1 << b)) if (black >> q) & 1 else black
                    y = nb | (q << 25)
                    if not (seen[y >> 6] >> (y & 63)) & 1:
                        seen[y >> 6] |= 1 << (y & 63)
                        nxt[n] = y
                        n += 1
            if n == 0:
                return out
            depth += 1
            cur = nxt[:n].copy()
            if depth >= least:
                out.append((depth, cur))

    return dict(layers(np.int64(target.key), least, KNIGHT_NEIGHBORS, KNIGHT_COUNTS))


def bfs_deep_boards(per: int, least: int, seed: int) -> list[tuple[Board, int]]:
    """``per`` boards at each distance from ``least`` to the farthest (exhaustive BFS)."""
    rng = np.random.default_rng(seed)
    out = []
    for d, keys in sorted(farthest(TARGET, least).items()):
        pick = rng.choice(keys, size=min(per, keys.size), replace=False)
        out += [(Board.from_key(int(k)), d) for k in pick]
    return out


def batch_text(boards: list[Board]) -> str:
    return f"{len(boards)}\n" + "".join(str(b) + "\n" for b in boards)


def run(cmd: list[str], data_path: str) -> tuple[float, float, float, str]:
    """Run ``cmd`` with ``data_path`` on standard input under ``/usr/bin/time``:
    (wall seconds, CPU seconds, peak RSS in MB, stdout).  (The child's own rusage from
    ``wait4`` would count this process's memory, inherited before ``exec``.)"""
    with open(data_path, "rb") as stdin, tempfile.NamedTemporaryFile("r") as usage:
        t0 = time.perf_counter()
        proc = subprocess.run([TIME, "-f", "%U %S %M", "-o", usage.name, *cmd], stdin=stdin,
                              capture_output=True, check=False)  # fmt: skip
        seconds = time.perf_counter() - t0
        if proc.returncode:
            raise SystemExit(f"{cmd[0]} exited with {proc.returncode}: {proc.stderr[-500:]}")
        user, system, rss_kb = usage.read().split()[-3:]
        return seconds, float(user) + float(system), int(rss_kb) / 1024, proc.stdout.decode()


def bitknights_cmd(args: argparse.Namespace, *extra: str) -> list[str]:
    prelude = (
        "import sys, bitknights.engines.bidir as b, bitknights.engines._bidir_search as s; "
        "from bitknights.cli import main; "
    )
    for setting in args.set:
        name, _, value = setting.partition("=")
        if not name.isidentifier() or not value.isdigit():
            raise SystemExit(f"--set expects NAME=INTEGER, got {setting!r}")
        prelude += f"setattr(b if hasattr(b, {name!r}) else s, {name!r}, {int(value)}); "
    return [sys.executable, "-c", prelude + "sys.exit(main(sys.argv[1:]))", "solve",
            "--engine", "bidir", "--quiet", *extra]  # fmt: skip


def reference_binary(args: argparse.Namespace) -> str:
    path = Path(args.reference_dir) / "seed_bidir"
    if not path.exists():
        progress.announce(f"compiling the seed programs into {args.reference_dir}", "once")
        subprocess.run([str(BUILD_REFERENCE), args.reference_dir], check=True)
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-distance", type=int, default=400, help="boards per distance")
    parser.add_argument("--seed", type=int, default=2024, help="random seed")
    parser.add_argument("--reference-dir", default="/tmp/bitknights-reference")
    parser.add_argument("--no-seed", action="store_true", help="skip the seed program")
    parser.add_argument("--repeat", type=int, default=3, help="runs of bitknights (best)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=N",
                        help="override a constant of bitknights.engines.bidir in the solving "
                        "process, e.g. --set NUMPY_RADIUS=11 (repeatable)")  # fmt: skip
    parser.add_argument(
        "--deep-source",
        choices=("bfs", "sample"),
        default="bfs",
        help="deep boards from an exhaustive BFS (every distance up to the "
        "farthest) or from random sampling and a greedy walk outward",
    )
    parser.add_argument(
        "--deep-per-distance",
        type=int,
        default=5,
        help="with --deep-source bfs: boards per distance",
    )
    parser.add_argument(
        "--deep",
        type=int,
        default=20,
        help="with --deep-source sample: how many (0: skip the deep part)",
    )
    parser.add_argument("--deep-min", type=int, default=30, help="least deep distance")
    parser.add_argument("--no-climb", action="store_true", help="no greedy walk outward")
    parser.add_argument("--only", choices=("hard", "deep"), help="run one part")
    parser.add_argument("--save", metavar="DIR", help="keep the generated batches here")
    args = parser.parse_args()

    workdir = Path(args.save or tempfile.mkdtemp(prefix="bench-bidir-"))
    workdir.mkdir(parents=True, exist_ok=True)
    if args.only != "deep":
        t0 = time.perf_counter()
        progress.announce(f"making the hard batch: {args.per_distance} boards a distance, "
                          "14 to 18, by random walks and exact search")  # fmt: skip
        batch = hard_batch(args.per_distance, 14, 18, args.seed)
        print(f"hard batch: {len(batch)} boards, distances 14..18 "
              f"(made in {time.perf_counter() - t0:.1f} s)", flush=True)  # fmt: skip
        path = workdir / "hard.txt"
        path.write_text(batch_text([b for b, _ in batch]))
        expected = [str(d if d <= 15 else -1) for _, d in batch]
        cmd = bitknights_cmd(args, "-")
        with progress.bar(args.repeat, "runs", "timing bitknights bidir") as shown:
            runs = []
            for _ in range(args.repeat):
                runs.append(run(cmd, str(path)))
                shown.update()
        ours, cpu, rss, out = min(runs)
        assert out.split() == expected, "bitknights disagrees with the exact distances"
        walls = ", ".join(f"{r[0]:.3f}" for r in runs)
        print(f"bitknights bidir: {ours:.3f} s wall (best of {args.repeat}: {walls}), "
              f"{cpu:.3f} s CPU, {ours / len(batch) * 1e3:.3f} ms per board, "
              f"peak RSS {rss:.0f} MB", flush=True)  # fmt: skip
        if not args.no_seed:
            seed = reference_binary(args)
            progress.announce("timing the seed program (once)")
            seed_s, seed_cpu, seed_rss, seed_out = run([seed], str(path))
            assert seed_out.split() == expected, "the seed program disagrees"
            per = seed_s / len(batch) * 1e3
            print(f"seed_bidir:       {seed_s:.3f} s wall, {seed_cpu:.3f} s CPU, "
                  f"{per:.3f} ms per board, peak RSS {seed_rss:.0f} MB")  # fmt: skip
            print(f"speed-up: {seed_s / ours:.1f}x wall, {seed_cpu / cpu:.1f}x CPU", flush=True)
    if args.only != "hard" and args.deep:
        t0 = time.perf_counter()
        progress.announce(f"finding deep boards ({args.deep_source}), at least {args.deep_min} "
                          "moves away")  # fmt: skip
        if args.deep_source == "bfs":
            deep = bfs_deep_boards(args.deep_per_distance, args.deep_min, args.seed)
        else:
            deep = deep_boards(args.deep, args.deep_min, args.seed, not args.no_climb)
        dists = [d for _, d in deep]
        print(f"deep boards: {len(deep)}, distances {min(dists)}..{max(dists)} "
              f"(found in {time.perf_counter() - t0:.1f} s)", flush=True)  # fmt: skip
        path = workdir / "deep.txt"
        path.write_text(batch_text([b for b, _ in deep]))
        bidir.clear_cache()
        cmd = bitknights_cmd(args, "--exact", "--format", "json", "--workers", "1", "-")
        progress.announce(f"timing exact mode on the {len(deep)} deep boards, one thread")
        seconds, cpu, rss, out = run(cmd, str(path))
        records = [json.loads(line) for line in out.splitlines()]
        assert [r["steps"] for r in records] == dists, "exact mode disagrees"
        per = [r["seconds"] for r in records]
        far = [r["seconds"] for r in records if r["steps"] == max(dists)]
        for d in sorted(set(dists)):
            at = [r["seconds"] for r in records if r["steps"] == d]
            print(f"  distance {d}: {len(at)} boards, median {statistics.median(at):.3f} s, "
                  f"max {max(at):.3f} s")  # fmt: skip
        print(f"exact mode: {seconds:.2f} s wall ({cpu:.2f} s CPU) for {len(deep)} boards, "
              f"peak RSS {rss:.0f} MB; per board median {statistics.median(per):.3f} s "
              f"(first board {per[0]:.2f} s builds the ball), at distance {max(dists)}: "
              f"median {statistics.median(far):.3f} s over {len(far)}", flush=True)  # fmt: skip
    print(f"batches in {workdir}")


if __name__ == "__main__":
    main()
