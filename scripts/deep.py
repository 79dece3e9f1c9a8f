"""Time deep exact requests without the distance table, whole process, as a user runs them.

Each case is ``bitknights solve --exact FILE`` in a fresh process with a cache directory
that holds no distance table; by default the caches bitknights builds itself (pattern
databases, the compact table) are built first by one warm-up run, as they are after a
user's first deep request.  Prints the median and range of ``--runs`` runs per case.

    python scripts/deep.py                                 # the installed bitknights
    python scripts/deep.py --engine ida                    # another engine
    python scripts/deep.py --python /path/to/other/venv/bin/python   # another install
    python scripts/deep.py --cold                          # a fresh cache every run

The cases are the project's data files: ``tests/data/distance36.txt`` (3 boards 36 moves
away), ``distance39.txt`` (3 boards at 39, the farthest there are) and
``seventh_guest.txt`` (the 7th Guest's board: the target with its colours swapped, 36
moves away).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bitknights import estimates, progress

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
CASES = {
    "3 boards at 36": DATA / "distance36.txt",
    "3 boards at 39": DATA / "distance39.txt",
    "the 7th Guest (36)": DATA / "seventh_guest.txt",
}


def run(python: str, engine: str, path: Path, cache: str) -> tuple[float, str]:
    env = {**os.environ, "BITKNIGHTS_CACHE_DIR": cache}
    cmd = [python, "-m", "bitknights", "solve", "--exact", "--quiet", "--engine", engine,
           str(path)]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")
    seconds = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} exited with {proc.returncode}: {proc.stderr}")
    return seconds, proc.stdout.replace("\n", " ").strip()


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--python", default=sys.executable, help="the Python whose bitknights runs")
    p.add_argument("--engine", default="auto")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cold", action="store_true", help="an empty cache directory every run")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bitknights-deep-") as warm:
        if not args.cold:
            progress.announce("a warm-up run of each case builds what bitknights caches",
                              "the compact table", estimates.COMPACT_BUILD)  # fmt: skip
            for path in CASES.values():  # builds what bitknights caches, as a first run would
                run(args.python, args.engine, path, warm)
        print(f"{'case':<22} {'median':>8} {'min':>8} {'max':>8}  answers")
        for name, path in CASES.items():
            times, answers = [], ""
            with progress.bar(args.runs, "runs", name) as shown:
                for _ in range(args.runs):
                    if args.cold:
                        with tempfile.TemporaryDirectory(prefix="bitknights-cold-") as cold:
                            seconds, answers = run(args.python, args.engine, path, cold)
                    else:
                        seconds, answers = run(args.python, args.engine, path, warm)
                    times.append(seconds)
                    shown.update()
            with progress.writing(sys.stdout):
                print(f"{name:<22} {statistics.median(times):>7.2f}s {min(times):>7.2f}s "
                      f"{max(times):>7.2f}s  {answers}")  # fmt: skip


if __name__ == "__main__":
    main()
