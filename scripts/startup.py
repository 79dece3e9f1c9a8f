"""Start-up cost of the classic job: whole processes, side by side with `python -c pass`.

Runs `python -c pass`, `bitknights solve FILE` (the console script of this Python's
environment) and any --reference programs (which read FILE on standard input) in
interleaved rounds, and prints the median wall time of each and its ratio to
`python -c pass` and to each reference.  Every command must print the same answers.

Inputs: the 2-board sample (always), a seeded batch of N random boards for each --boards N
(random walks of 10-150 moves from the target, so most answers are -1: the slow case for a
search), and any FILEs given.  Two situations for bitknights:

  table     --table-dir DIR holds a built distance table (`bitknights table build
            --cache-dir DIR`), found where a user's table is: in the default cache
            directory, ~/.cache/bitknights (a temporary HOME whose .cache/bitknights
            links to DIR; no option, no cache variable); skipped without --table-dir
  no table  an empty HOME, no cache variables and an empty numba cache: a new user's
            first run, nothing cached at all

The package's bytecode is compiled first (as `pip install` does), since an editable
install run with PYTHONDONTWRITEBYTECODE would otherwise compile every module on every
run (--no-compile skips that).

    python scripts/startup.py --table-dir ~/.cache/bitknights --runs 21
    python scripts/startup.py --boards 10 50 200 --reference path/to/seed_ida
    python scripts/make_batch.py bench-out/first200.txt --distances 10-15 --total 200
    python scripts/startup.py bench-out/first200.txt --boards --runs 21 \\
        --reference /tmp/bitknights-reference/peer_ida    # a first run's classic batch
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SAMPLE = "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n"


def random_batch(count: int, seed: int) -> str:
    """``count`` boards from seeded random walks from the classic target."""
    from bitknights import TARGET

    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = TARGET
        for _ in range(rng.randrange(10, 150)):
            board = board.play(rng.choice(board.moves()))
        boards.append(str(board))
    return f"{count}\n" + "\n".join(boards) + "\n"


def bitknights_command() -> list[str]:
    script = Path(sys.executable).with_name("bitknights")
    return [str(script)] if script.exists() else [sys.executable, "-m", "bitknights"]


def run(cmd: list[str], stdin_path: str | None, env: dict[str, str]) -> tuple[float, str]:
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    try:
        t = time.perf_counter()
        r = subprocess.run(cmd, stdin=stdin, capture_output=True, env=env, check=False)
        elapsed = time.perf_counter() - t
    finally:
        if stdin_path:
            stdin.close()
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    return elapsed, r.stdout.decode()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="more batches to time")
    parser.add_argument("--boards", type=int, nargs="*", default=[10], metavar="N",
                        help="a random batch of N boards for each N (default: 10)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--runs", type=int, default=11, help="interleaved rounds (default 11)")
    parser.add_argument("--table-dir", metavar="DIR", help="a cache directory with the table")
    parser.add_argument("--reference", action="append", default=[], metavar="CMD",
                        help="a program reading the batch on stdin (repeatable)")  # fmt: skip
    parser.add_argument("--no-compile", action="store_true", help="do not byte-compile first")
    args = parser.parse_args()

    import bitknights
    from bitknights import progress

    if not args.no_compile:
        import compileall

        compileall.compile_dir(Path(bitknights.__file__).parent, quiet=2)

    with tempfile.TemporaryDirectory() as tmp:
        inputs = {"sample (2)": Path(tmp, "sample.txt")}
        inputs["sample (2)"].write_text(SAMPLE)
        for n in args.boards:
            inputs[f"random ({n})"] = Path(tmp, f"random{n}.txt")
            inputs[f"random ({n})"].write_text(random_batch(n, args.seed + n))
        for f in args.files:
            inputs[Path(f).name] = Path(f)

        empty = Path(tmp, "empty")
        empty.mkdir()
        base = dict(os.environ)
        for name in ("PYTHONDONTWRITEBYTECODE", "BITKNIGHTS_CACHE_DIR", "XDG_CACHE_HOME"):
            base.pop(name, None)
        nothing = {**base, "HOME": str(empty), "NUMBA_CACHE_DIR": str(empty / "numba")}
        user = Path(tmp, "user")  # a user's HOME with the table in the default place
        if args.table_dir:
            (user / ".cache").mkdir(parents=True)
            (user / ".cache" / "bitknights").symlink_to(Path(args.table_dir).resolve())
        with_table = {**base, "HOME": str(user), "NUMBA_CACHE_DIR": str(user / "numba")}
        bk = bitknights_command()
        for label, path in inputs.items():
            cmds: dict[str, tuple[list[str], str | None, dict[str, str]]] = {
                "python -c pass": ([sys.executable, "-c", "pass"], None, base),
            }
            if args.table_dir:
                cmds["bitknights solve (table)"] = ([*bk, "solve", str(path)], None, with_table)
            cmds["bitknights solve (no table, nothing cached)"] = (
                [*bk, "solve", str(path)],
                None,
                nothing,
            )
            for ref in args.reference:
                cmds[Path(ref).name] = ([ref], str(path), base)
            times: dict[str, list[float]] = {name: [] for name in cmds}
            answers: dict[str, str] = {}
            with progress.bar(args.runs * len(cmds), "runs", label) as bar:
                for _ in range(args.runs):
                    for name, (cmd, stdin_path, env) in cmds.items():
                        elapsed, out = run(cmd, stdin_path, env)
                        times[name].append(elapsed)
                        answers.setdefault(name, out)
                        # a cache written by the first run would make the rest "cached"
                        for p in empty.iterdir():
                            subprocess.run(["rm", "-rf", str(p)], check=True)
                        bar.update()
            outs = {out for name, out in answers.items() if name != "python -c pass"}
            if len(outs) > 1:
                sys.exit(f"{label}: the commands disagree: {answers}")
            floor = statistics.median(times["python -c pass"])
            shown = outs.pop().split() if outs else []
            shown = " ".join(shown[:12]) + (" ..." if len(shown) > 12 else "")
            print(f"\n{label}: {args.runs} interleaved runs, medians (answers: {shown})")
            refs = [Path(ref).name for ref in args.reference]
            print(f"  {'':<46} {'':>10} {'/ pass':>7}" + "".join(f" {'/ ' + r:>12}" for r in refs))
            for name, ts in times.items():
                m = statistics.median(ts)
                against = "".join(f" {m / statistics.median(times[r]):11.2f}x" for r in refs)
                print(f"  {name:<46} {m * 1000:7.1f} ms  {m / floor:5.2f}x{against}")


if __name__ == "__main__":
    main()
