"""Time bitknights engines, whole process, side by side with other classic-format solvers.

Every command reads the same batch (the classic format on standard input or as a file)
and must print the same answers; the script checks that, then reports the median wall
time over ``--repeat`` runs, peak memory (max RSS) and each engine's speed-up over each
reference.  With a ``FILE.dist`` sidecar (written by ``make_batch.py``) it also reports
ms per board (median, p95) and nodes/s by exact distance, from ``--format json``.

    python scripts/make_batch.py bench-out/hard.txt
    python scripts/bench.py bench-out/hard.txt --engines ida \\
        --reference /tmp/bitknights-reference/seed_ida --repeat 3
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from argparse import ArgumentParser, RawDescriptionHelpFormatter
from pathlib import Path

from bitknights import progress


def run_once(cmd: list[str], stdin_path: Path | None) -> tuple[float, float, bytes]:
    """(wall seconds, peak RSS in MiB, stdout) of one run of ``cmd`` (its standard error
    kept apart, so that its notices do not mix with this script's progress bar, and
    shown if it fails)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    with tempfile.TemporaryFile() as err:
        try:
            t0 = time.perf_counter()
            proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=err)
            out = proc.stdout.read()
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - t0
        finally:
            if stdin_path:
                stdin.close()
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"bench: {shlex.join(cmd)} exited with status {status}: "
                             f"{err.read().decode(errors='replace')[-500:]}")  # fmt: skip
    return wall, usage.ru_maxrss / 1024, out


def bitknights_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("bitknights")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bitknights"]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def per_board(cmd: list[str], batch: Path, dists: list[int]) -> dict[str, dict[str, float]]:
    """Per-distance ms per board (median, p95) and nodes/s from one JSON Lines run."""
    out = subprocess.run([*cmd, "--format", "json", str(batch)], capture_output=True, check=True)
    recs = [json.loads(line) for line in out.stdout.splitlines()]
    bands: dict[str, dict[str, float]] = {}
    for d in sorted(set(dists)):
        rs = [r for r, dd in zip(recs, dists) if dd == d]
        ms = [1000 * r["seconds"] for r in rs]
        secs = sum(r["seconds"] for r in rs)
        bands[str(d)] = {
            "boards": len(rs),
            "ms_median": round(statistics.median(ms), 4),
            "ms_p95": round(percentile(ms, 0.95), 4),
            "nodes_per_s": round(sum(r["nodes"] for r in rs) / secs) if secs else 0,
        }
    return bands


def main() -> None:
    # fmt: off
    ap = ArgumentParser(description=__doc__, formatter_class=RawDescriptionHelpFormatter)
    ap.add_argument("batch", type=Path, help="classic-format batch file")
    ap.add_argument("--engines", default="ida",
                    help="comma-separated bitknights engines (default ida)")
    ap.add_argument("--reference", action="append", default=[], metavar="CMD",
                    help="a solver command reading the classic format on stdin (repeatable)")
    ap.add_argument("--extra", default="",
                    help="extra options for bitknights solve, e.g. '--exact'")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per command; the median is reported")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    # fmt: on
    args = ap.parse_args()

    commands: dict[str, tuple[list[str], Path | None]] = {}
    for e in filter(None, args.engines.split(",")):
        cmd = [*bitknights_cmd(), "solve", "--engine", e, *shlex.split(args.extra), str(args.batch)]
        commands[f"bitknights:{e}"] = (cmd, None)
    for ref in args.reference:
        commands[ref] = (shlex.split(ref), args.batch)

    n_boards = int(args.batch.read_text().split()[0])
    results: dict[str, dict] = {}
    outputs: dict[str, bytes] = {}
    with progress.bar(len(commands) * args.repeat, "runs", "timing") as shown:
        for name, (cmd, stdin) in commands.items():
            shown.set_postfix_str(name)
            walls, rss = [], 0.0
            for _ in range(args.repeat):
                wall, peak, out = run_once(cmd, stdin)
                walls.append(wall)
                rss = max(rss, peak)
                outputs[name] = out
                shown.update()
            median = statistics.median(walls)
            results[name] = {"seconds_median": median, "seconds_all": walls,
                             "peak_rss_mib": round(rss, 1),
                             "boards_per_s": round(n_boards / median, 1)}  # fmt: skip
    answers = set(outputs.values())
    if len(answers) != 1:
        raise SystemExit("bench: the commands disagree on the answers: " + ", ".join(outputs))

    dist_file = Path(f"{args.batch}.dist")
    if dist_file.exists():
        dists = [int(x) for x in dist_file.read_text().split()]
        ours = [name for name in commands if name.startswith("bitknights:")]
        with progress.bar(len(ours), "runs", "timing each board (JSON)") as shown:
            for name in ours:
                cmd = commands[name][0]
                results[name]["by_distance"] = per_board(cmd[:-1], args.batch, dists)
                shown.update()

    print(f"{n_boards} boards from {args.batch}, {args.repeat} runs each; all answers agree")
    print(f"{'command':<48} {'median s':>9} {'boards/s':>10} {'peak MiB':>9}")
    for name, r in results.items():
        secs, rate, rss = r["seconds_median"], r["boards_per_s"], r["peak_rss_mib"]
        print(f"{name:<48} {secs:>9.3f} {rate:>10.1f} {rss:>9.1f}")
    for name, r in results.items():
        if not name.startswith("bitknights:"):
            continue
        for ref in args.reference:
            ratio = results[ref]["seconds_median"] / r["seconds_median"]
            r.setdefault("speedup", {})[ref] = round(ratio, 2)
            print(f"{name} is {ratio:.1f}x faster than {ref}")
        for d, band in r.get("by_distance", {}).items():
            print(f"  {name} distance {d}: {band['ms_median']:.3f} ms median, "
                  f"{band['ms_p95']:.3f} ms p95, {band['nodes_per_s']:,} nodes/s")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
