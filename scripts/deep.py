"""Time deep requests whole process, as a user runs them: without the distance table (the
compact table answers), and side by side with it.

Every row runs its commands in fresh processes, interleaved round by round, and prints
medians over ``--runs`` rounds; the commands of a row must print the same bytes.  The
caches are warm: a warm-up run first builds what bitknights caches itself (the compact
table, pattern databases), as after a user's first deep request.

Without ``--table-dir``, the project's data files, ``bitknights solve --exact FILE`` with
no distance table: ``tests/data/distance36.txt`` (3 boards 36 moves away),
``distance39.txt`` (3 boards at 39, the farthest there are) and ``seventh_guest.txt``
(the 7th Guest's board: the target with its colours swapped, 36 moves away).

With ``--table-dir DIR`` (a cache directory holding the distance table, ``bitknights
table build --cache-dir DIR``), the rows compare the distance table ("full") with the
compact table alone ("compact"):

* 5,000 boards at 30/33/36 (drawn with ``bitknights random``): ``solve --exact FILE``;
* ``solutions`` of a distance-39 board with 275,082 optimal sequences, to /dev/null;
* ``solutions`` of ``1000010100110000111*11011`` (39 moves, 1,944,639 sequences, 455 MB of
  text) to /dev/null, beside Python copying the same bytes from a file to /dev/null (the
  yardstick: the speed of writing them), and how soon the first line comes (a pipe read
  until the first newline).

    python scripts/deep.py                                  # no distance table
    python scripts/deep.py --table-dir ~/.cache/bitknights  # full vs compact vs copy
    python scripts/deep.py --python /path/to/other/venv/bin/python   # another install
    python scripts/deep.py --cold                           # a fresh cache every run
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
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
FARTHEST = "1000010100110000111*11011"  # 39 moves, the most optimal sequences: 1,944,639
DEEP_LISTING = "00000*1000101001111011111"  # 39 moves, 275,082 optimal sequences
COPY = "import sys; open(sys.argv[2], 'wb').write(open(sys.argv[1], 'rb').read())"


def run(cmd: list[str], cache: str | None, out: str = "pipe") -> tuple[float, bytes]:
    """(wall seconds, standard output, or its SHA-256 when ``out`` is ``'hash'``; nothing
    when it is ``'null'``: written straight to /dev/null) of one whole process."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        env["BITKNIGHTS_CACHE_DIR"] = cache
    with open(os.devnull, "wb") as null:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=null if out == "null" else subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, cwd="/")  # fmt: skip
        digest = hashlib.sha256()
        data = b""
        if proc.stdout is not None:
            while chunk := proc.stdout.read(1 << 20):
                if out == "hash":
                    digest.update(chunk)
                else:
                    data += chunk
        err = proc.stderr.read() if proc.stderr else b""
        status = proc.wait()
        seconds = time.perf_counter() - t0
    if status:
        raise SystemExit(f"{' '.join(cmd)} exited with {status}: {err.decode()[-500:]}")
    return seconds, digest.digest() if out == "hash" else data


def first_line(cmd: list[str], cache: str) -> float:
    """Seconds until the first line of ``cmd``'s output arrives (the rest is drained)."""
    env = {**os.environ, "BITKNIGHTS_CACHE_DIR": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            cwd="/")  # fmt: skip
    assert proc.stdout is not None
    proc.stdout.readline()
    seconds = time.perf_counter() - t0
    while proc.stdout.read(1 << 20):
        pass
    proc.wait()
    return seconds


def medians(rows: dict[str, tuple[list[str], str | None, str]], runs: int) -> dict[str, float]:
    """Interleaved rounds of every command (``argv, cache, output``): the median seconds
    of each; every command must print the same bytes."""
    times: dict[str, list[float]] = {name: [] for name in rows}
    outputs: dict[str, bytes] = {}
    for _ in range(runs):
        for name, (cmd, cache, out) in rows.items():
            seconds, printed = run(cmd, cache, out)
            times[name].append(seconds)
            if out != "null":
                outputs.setdefault(name, printed)
    if len(set(outputs.values())) > 1:
        raise SystemExit(f"the commands disagree: {', '.join(outputs)}")
    return {name: statistics.median(ts) for name, ts in times.items()}


def deep_batch(bk: list[str], table_dir: str, path: Path) -> None:
    """5,000 boards, a third each 30, 33 and 36 moves away, shuffled."""
    boards: list[str] = []
    for d, count in ((30, 1667), (33, 1667), (36, 1666)):
        _, text = run([*bk, "random", "--distance", str(d), "--count", str(count), "--seed",
                       "5"], table_dir)  # fmt: skip
        rows = text.decode().split()[1:]
        boards += ["\n".join(rows[i : i + 5]) for i in range(0, len(rows), 5)]
    random.Random(1).shuffle(boards)
    path.write_text(f"{len(boards)}\n" + "\n".join(boards) + "\n")


def side_by_side(bk: list[str], table_dir: str, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bitknights-deep-") as tmp:
        compact = str(Path(tmp, "compact"))
        batch, listing = Path(tmp, "deep5000.txt"), Path(tmp, "farthest.txt")
        deep_batch(bk, table_dir, batch)
        run([*bk, "solve", "--exact", "--quiet", str(DATA / "distance39.txt")], compact)
        print(f"{'request':<52} {'full':>8} {'compact':>8} {'ratio':>6}")
        for name, argv, out in (
            ("5,000 boards at 30/33/36, solve --exact", ["solve", "--exact", str(batch)], "pipe"),
            (f"solutions {DEEP_LISTING} (275,082)", ["solutions", DEEP_LISTING], "hash"),
        ):
            got = medians({"full": ([*bk, *argv], table_dir, out),
                           "compact": ([*bk, *argv], compact, out)}, runs)  # fmt: skip
            print(f"{name:<52} {got['full']:>7.2f}s {got['compact']:>7.2f}s "
                  f"{got['compact'] / got['full']:>5.2f}x")  # fmt: skip
        with open(listing, "wb") as f:  # the bytes the yardstick copies
            subprocess.run([*bk, "solutions", FARTHEST], stdout=f, check=True,
                           env={**os.environ, "BITKNIGHTS_CACHE_DIR": table_dir})  # fmt: skip
        argv = [*bk, "solutions", FARTHEST]
        got = medians({"full": (argv, table_dir, "null"), "compact": (argv, compact, "null"),
                       "copy": ([sys.executable, "-c", COPY, str(listing), os.devnull], None,
                                "null")}, runs)  # fmt: skip
        same = {run(argv, cache, "hash")[1] for cache in (table_dir, compact)}
        same.add(hashlib.sha256(listing.read_bytes()).digest())
        if len(same) != 1:
            raise SystemExit("the listings from the two tables differ")
        firsts = {name: statistics.median(first_line(argv, cache) for _ in range(runs))
                  for name, cache in (("full", table_dir), ("compact", compact))}  # fmt: skip
        size = listing.stat().st_size
        print(f"\nsolutions {FARTHEST} > /dev/null ({size / 1e6:,.0f} MB), medians of {runs}")
        print(f"{'':<12} {'time':>8} {'/ copy':>7} {'first line':>11}")
        for name in ("full", "compact", "copy"):
            first = f"{firsts[name]:>10.3f}s" if name in firsts else ""
            print(f"{name:<12} {got[name]:>7.2f}s {got[name] / got['copy']:>6.2f}x {first}")


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--python", default=sys.executable, help="the Python whose bitknights runs")
    p.add_argument("--engine", default="auto")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cold", action="store_true", help="an empty cache directory every run")
    p.add_argument("--table-dir", metavar="DIR",
                   help="a cache directory with the distance table: full vs compact")  # fmt: skip
    args = p.parse_args()
    bk = [args.python, "-m", "bitknights"]
    if args.table_dir:
        side_by_side(bk, str(Path(args.table_dir).resolve()), args.runs)
        return
    with tempfile.TemporaryDirectory(prefix="bitknights-deep-") as warm:
        if not args.cold:
            progress.announce("a warm-up run of each case builds what bitknights caches",
                              "the compact table", estimates.COMPACT_BUILD)  # fmt: skip
            for path in CASES.values():  # builds what bitknights caches, as a first run would
                run([*bk, "solve", "--exact", "--quiet", "--engine", args.engine, str(path)], warm)
        print(f"{'case':<22} {'median':>8} {'min':>8} {'max':>8}  answers")
        for name, path in CASES.items():
            times, answers = [], b""
            with progress.bar(args.runs, "runs", name) as shown:
                for _ in range(args.runs):
                    cmd = [*bk, "solve", "--exact", "--quiet", "--engine", args.engine, str(path)]
                    if args.cold:
                        with tempfile.TemporaryDirectory(prefix="bitknights-cold-") as cold:
                            seconds, answers = run(cmd, cold)
                    else:
                        seconds, answers = run(cmd, warm)
                    times.append(seconds)
                    shown.update()
            shown_answers = answers.decode().replace("\n", " ").strip()
            with progress.writing(sys.stdout):
                print(f"{name:<22} {statistics.median(times):>7.2f}s {min(times):>7.2f}s "
                      f"{max(times):>7.2f}s  {shown_answers}")  # fmt: skip


if __name__ == "__main__":
    main()
