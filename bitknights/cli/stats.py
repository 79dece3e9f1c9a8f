"""``bitknights stats``: how many boards lie at each distance (from the table's header)."""

from __future__ import annotations

from .. import estimates
from .common import command, json_line, read_target, slashed

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from .environment import Environment


def _cmd_stats(args: argparse.Namespace, env: Environment) -> int:
    out = env.out
    from ..table import store

    table = store.load(read_target(args, env), args.cache_dir)  # the header has it all: no numba
    table.verify()  # but a damaged file is reported, not summarised
    layers = list(table.layers)
    example = table.example()
    if args.format == "json":
        record = {
            "target": table.target.compact,
            "boards": table.state_count,
            "unreachable": table.unreachable,
            "layers": layers,
            "max_distance": table.max_distance,
            "example": example.compact,
        }
        out.write(json_line(record))
        return 0
    reach = sum(layers)
    out.write(
        f"target {slashed(table.target)}: {table.state_count:,} boards, "
        f"{'all' if reach == table.state_count else f'{reach:,}'} reach it\n"
        f"{'distance':>8}  {'boards':>12}  {'cumulative':>12}\n"
    )
    cumulative = 0
    for d, n in enumerate(layers):
        cumulative += n
        out.write(f"{d:>8}  {n:>12,}  {cumulative:>12,}\n")
    out.write(f"farthest: {table.max_distance} moves, for example\n{example}\n")
    return 0


register = command(
    "stats",
    _cmd_stats,
    help="how many boards lie at each distance (needs the table)",
    description="How many boards lie at each distance from the target, the largest "
    "distance and a board there. Needs the distance table (bitknights table build, "
    f"{estimates.about(estimates.TABLE_BUILD)} once): the counts are over all the "
    "boards there are.",
    formats=("a table of distances", "one JSON object"),
)
