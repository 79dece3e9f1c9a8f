"""Write a classic batch of boards at chosen exact distances from the classic target.

Boards come from seeded random walks from the target; each is solved exactly with IDA*
and kept when its distance is wanted and it is new, until every distance has its count.
A sidecar ``FILE.dist`` lists each board's exact distance (one per line).

    python scripts/make_batch.py bench-out/hard.txt --distances 14-18 --per-distance 400
    python scripts/make_batch.py bench-out/first200.txt --distances 10-15 --total 200
"""

from __future__ import annotations

import random
import sys
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from pathlib import Path

from bitknights import TARGET, Board, progress, solve


def parse_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def make_batch(
    distances: list[int], per_distance: int, seed: int, total: int | None = None
) -> list[tuple[Board, int]]:
    """``per_distance`` distinct boards at each distance (or ``total`` spread over them as
    evenly as can be, the nearer first), shuffled, with their distances."""
    rng = random.Random(seed)
    if total is None:
        want = {d: per_distance for d in distances}
    else:
        share, extra = divmod(total, len(distances))
        want = {d: share + (i < extra) for i, d in enumerate(distances)}
    seen: set[Board] = set()
    out: list[tuple[Board, int]] = []
    top = max(distances)
    with progress.bar(sum(want.values()), "boards", "finding boards") as shown:
        while any(want.values()):
            board = TARGET
            for _ in range(rng.randrange(min(distances), top + 12)):
                board = board.play(rng.choice(board.moves()))
            if board in seen:
                continue
            seen.add(board)
            d = solve(board, engine="ida", max_depth=top).steps
            if d is not None and want.get(d, 0) > 0:
                want[d] -= 1
                out.append((board, d))
                shown.update()
    rng.shuffle(out)
    return out


def main() -> None:
    # fmt: off
    ap = ArgumentParser(description=__doc__, formatter_class=RawDescriptionHelpFormatter)
    ap.add_argument("--distances", default="14-18",
                    help="a distance or a range LO-HI (default 14-18)")
    ap.add_argument("--per-distance", type=int, default=400,
                    help="boards per distance (default 400)")
    ap.add_argument("--total", type=int, help="this many boards in all, instead")
    ap.add_argument("--seed", type=int, default=2005, help="random seed (default 2005)")
    ap.add_argument("out", type=Path, help="batch file to write")
    # fmt: on
    args = ap.parse_args()
    boards = make_batch(parse_range(args.distances), args.per_distance, args.seed, args.total)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(f"{len(boards)}\n" + "".join(f"{b}\n" for b, _ in boards))
    Path(f"{args.out}.dist").write_text("".join(f"{d}\n" for _, d in boards))
    print(f"wrote {len(boards)} boards to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
