"""How fast the heuristic lab's built-in heuristics search, against the IDA* engine on the
same boards: nodes per second of `bitknights.lab` ("knight_distance", "pdb") beside
`--engine ida` with the same bound (both expand exactly the same nodes, which this script
checks), and of "misplaced" and "max(misplaced,pdb)", which the engine has no twin of.

Boards are drawn from the distance table at the distances given (it must be built), or
read from a classic batch FILE.  Each board is searched by each contender once per round,
contenders interleaved, one thread; the figure is the total nodes over the median total
seconds of the rounds.  Run it on a quiet machine: the ratio is what to read.

    python scripts/lab_speed.py --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bitknights import TARGET, progress, read_batch, table
from bitknights.engines import heuristics, ida, pdb
from bitknights.engines.options import SolveOptions

ENGINES = {use_pdb: ida.IdaEngine(use_pdb=use_pdb) for use_pdb in (False, True)}

PAIRS = {"knight_distance": False, "pdb": True}  # lab heuristic -> engine's use_pdb
ALONE = ("misplaced", "max(misplaced,pdb)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", help="a classic batch (default: boards from the table)")
    p.add_argument("--near", type=int, nargs="+", default=[24, 26],
                   help="distances for the nearest-square bound (default 24 26)")  # fmt: skip
    p.add_argument("--far", type=int, nargs="+", default=[32, 34],
                   help="distances for the pattern databases (default 32 34)")  # fmt: skip
    p.add_argument("--misplaced", type=int, nargs="+", default=[18, 20],
                   help="distances for the misplaced-knight bound (default 18 20)")  # fmt: skip
    p.add_argument("--count", type=int, default=4, help="boards per distance (default 4)")
    p.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    args = p.parse_args()

    def boards(distances: list[int]) -> list:
        if args.file:
            with open(args.file) as f:
                return read_batch(f.read())
        return [b for d in distances for b in table.random_boards(d, args.count, args.seed)]

    sets = {"knight_distance": boards(args.near), "pdb": boards(args.far)}
    sets["misplaced"] = boards(args.misplaced)
    sets["max(misplaced,pdb)"] = sets["pdb"]
    pdb.pattern_tables(TARGET.key)
    rows = []
    for name, bset in sets.items():
        bound = heuristics.builtin(name)
        contenders = {f"lab {name}": lambda b, bound=bound: ida.search(b, bound, TARGET).nodes}
        if name in PAIRS:
            use_pdb = PAIRS[name]
            contenders[f"engine ida ({'pdb' if use_pdb else 'nearest-square'})"] = (
                lambda b, engine=ENGINES[use_pdb]: (
                    engine.solve(b, TARGET, SolveOptions(max_depth=None)).nodes
                )
            )
        for fn in contenders.values():
            fn(bset[0])  # load kernels and tables before timing
        seconds: dict[str, list[float]] = {c: [] for c in contenders}
        nodes: dict[str, int] = {}
        with progress.bar(args.rounds * len(contenders), "runs", name) as shown:
            for r in range(args.rounds):
                order = list(contenders) if r % 2 == 0 else list(reversed(contenders))
                for c in order:
                    t0 = time.perf_counter()
                    n = sum(contenders[c](b) for b in bset)
                    seconds[c].append(time.perf_counter() - t0)
                    nodes[c] = n
                    shown.update()
        if len(set(nodes.values())) != 1:
            raise SystemExit(f"{name}: the lab and the engine expanded different nodes: {nodes}")
        for c in contenders:
            med = statistics.median(seconds[c])
            rows.append({"contender": c, "boards": len(bset), "nodes": nodes[c],
                         "seconds": med, "nodes_per_second": nodes[c] / med})  # fmt: skip
    print(f"{'contender':<36} {'boards':>6} {'nodes':>13} {'seconds':>8} {'M nodes/s':>9}  ratio")
    for i, r in enumerate(rows):
        ratio = ""
        if r["contender"].startswith("engine"):
            lab = rows[i - 1]
            ratio = f"lab/engine time {lab['seconds'] / r['seconds']:.2f}x"
        print(f"{r['contender']:<36} {r['boards']:>6} {r['nodes']:>13,} {r['seconds']:>8.3f} "
              f"{r['nodes_per_second'] / 1e6:>9.2f}  {ratio}")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
