"""Compare IDA* heuristics on a batch of boards with the heuristic lab (bitknights.lab):
nodes, seconds, the bound at the start, and, when the distance table is built, each
answer against the truth (an inadmissible heuristic's trials are flagged).

Heuristics are built-in names (misplaced, knight_distance, pdb, max(a,b,...)) or a user's
function given as FILE.py:NAME, a numba-compilable h(white, black, blank) -> int (compiled
into the search kernel, a few seconds).

    python scripts/heuristics.py tests/data/distance32.txt --heuristics knight_distance,pdb
    bitknights random --distance 16 --count 20 --seed 1 > d16.txt
    python scripts/heuristics.py d16.txt --plot nodes.png --values values.png
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path

from bitknights import TARGET, lab, read_batch, read_board
from bitknights.errors import BitknightsError


def split_names(text: str) -> list[str]:
    """``'a,max(b,c),d'`` -> ``['a', 'max(b,c)', 'd']`` (commas inside brackets stay)."""
    out, depth, word = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(word.strip())
            word = ""
        else:
            word += ch
    if word.strip():
        out.append(word.strip())
    return out


def load_heuristic(spec: str) -> object:
    """A built-in's name as it is, or the function NAME of FILE.py for FILE.py:NAME."""
    if ":" not in spec or spec.startswith("max("):
        return spec
    file, name = spec.rsplit(":", 1)
    module_spec = importlib.util.spec_from_file_location(Path(file).stem, file)
    if module_spec is None or module_spec.loader is None:
        raise SystemExit(f"heuristics.py: cannot load {file}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    try:
        return getattr(module, name)
    except AttributeError:
        raise SystemExit(f"heuristics.py: {file} has no function {name}") from None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="a classic batch (T, then the boards)")
    p.add_argument("--heuristics", default="misplaced,knight_distance,pdb",
                   help="comma-separated (default misplaced,knight_distance,pdb)")  # fmt: skip
    p.add_argument("--max-depth", type=int, help="give up beyond this many moves")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per search (default 60)")  # fmt: skip
    p.add_argument("--workers", type=int, default=1,
                   help="threads (default 1: timings undisturbed)")  # fmt: skip
    p.add_argument("--check-all", action="store_true",
                   help="compare every bound value with the table, built-ins too")  # fmt: skip
    p.add_argument("--target", help="a file with the target board (default: the classic one)")
    p.add_argument("--cache-dir", help="where the distance table and pattern databases live")
    p.add_argument("--plot", metavar="OUT.png", help="nodes against distance, per heuristic")
    p.add_argument("--values", metavar="OUT.png",
                   help="each heuristic's value against the true distance (the table)")  # fmt: skip
    p.add_argument("--json", metavar="OUT", help="every trial as JSON Lines")
    args = p.parse_args(argv)

    boards = read_batch(Path(args.file).read_text())
    target = read_board(Path(args.target).read_text()) if args.target else TARGET
    specs = split_names(args.heuristics)
    names = [s.rsplit(":", 1)[-1] if ":" in s and not s.startswith("max(") else s for s in specs]
    heuristics = {name: load_heuristic(spec) for name, spec in zip(names, specs)}
    try:
        trials = lab.compare(
            boards,
            heuristics,
            max_depth=args.max_depth,
            target=target,
            timeout=args.timeout,
            workers=args.workers,
            check_all=args.check_all or None,
            cache_dir=args.cache_dir,
        )
    except BitknightsError as e:
        print(f"heuristics.py: {e}", file=sys.stderr)
        return 2
    report(trials, names)
    if args.json:
        with open(args.json, "w") as f:
            for t in trials:
                f.write(json.dumps(t.as_dict()) + "\n")
    if args.plot:
        lab.nodes_plot(trials).savefig(args.plot, dpi=110)
        print(f"wrote {args.plot}")
    if args.values:
        lab.values_plot(heuristics, target=target, cache_dir=args.cache_dir).savefig(
            args.values, dpi=110
        )
        print(f"wrote {args.values}")
    return 0


def report(trials: list[lab.Trial], names: list[str]) -> None:
    """One line per trial, then one per heuristic."""
    wide = max(len(n) for n in names)
    print(f"{'#':>3} {'heuristic':<{wide}} {'dist':>4} {'steps':>5} {'h0':>3} "
          f"{'nodes':>12} {'seconds':>8} {'M/s':>6}  verdict")  # fmt: skip
    index = {}
    for t in trials:
        i = index.setdefault(t.board, len(index) + 1)
        dist = "?" if t.distance is None else t.distance
        steps = "-" if t.steps is None else t.steps
        print(f"{i:>3} {t.heuristic:<{wide}} {dist:>4} {steps:>5} {t.h0:>3} {t.nodes:>12,} "
              f"{t.seconds:>8.3f} {t.nodes_per_second / 1e6:>6.1f}  {verdict(t)}")  # fmt: skip
    print()
    print(f"{'heuristic':<{wide}} {'solved':>7} {'optimal':>7} {'flagged':>7} "
          f"{'nodes':>14} {'seconds':>9} {'M/s':>6} {'h0/dist':>7}")  # fmt: skip
    for name in names:
        mine = [t for t in trials if t.heuristic == name]
        solved = [t for t in mine if t.steps is not None]
        nodes = sum(t.nodes for t in mine)
        seconds = sum(t.seconds for t in mine)
        ratios = [t.h0 / t.distance for t in mine if t.distance]
        ratio = f"{statistics.mean(ratios):.2f}" if ratios else "?"
        optimal = sum(t.optimal is True for t in mine)
        have_truth = any(t.distance is not None for t in mine)
        print(f"{name:<{wide}} {len(solved):>7} {optimal if have_truth else '?':>7} "
              f"{sum(t.flagged for t in mine):>7} {nodes:>14,} {seconds:>9.2f} "
              f"{nodes / seconds / 1e6 if seconds else 0:>6.1f} {ratio:>7}")  # fmt: skip
    if trials and trials[0].note.startswith("no distance table"):
        print(f"\n{trials[0].note}")


def verdict(t: lab.Trial) -> str:
    if t.steps is None:
        return str(t.status)
    if t.distance is None:
        return "unchecked (no table)"
    words = ["optimal" if t.optimal else f"NOT OPTIMAL (+{t.steps - t.distance})"]
    if t.overestimates:
        words.append(f"OVERESTIMATES at {t.overestimates:,} of {t.checked:,} boards")
    return ", ".join(words)


if __name__ == "__main__":
    sys.exit(main())
