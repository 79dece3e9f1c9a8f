"""Time the README's commands as a new user meets them: a fresh clone of this checkout, an
empty HOME (no pip, numba or bitknights caches), each command in the README's order, run
twice ("first" and "again"), whole process, wall-clock seconds.

    python scripts/first_use.py [--skip-tests] [--keep DIR]

Prints the table "How long things take" of docs/performance.md, to paste as it is
(``tests/test_estimates.py`` checks that the page lists these commands).  The set-up
commands are the README's first two lines, verbatim; the rest run with the venv they
create.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARD = "10110/01*11/10111/01001/00000"
FAR = "00000/10001/1*010/01101/11111"  # 33 moves away
GUEST = "'00000/10000/11*00/11110/11111'"  # the 7th Guest's board, 36 moves away
HINTS = "`bitknights hint BOARD`, `hint --count-solutions BOARD`"

COMMANDS = [
    ("`bitknights solve sample.txt`", "bitknights solve sample.txt", ""),
    ("`bitknights solve --exact sample.txt` (no table)", "bitknights solve --exact sample.txt",
     ""),
    ("`bitknights solve --engine ida --exact tests/data/distance32.txt`",
     "bitknights solve --engine ida --exact tests/data/distance32.txt",
     "the pattern databases are built (once, announced) and cached"),
    ("`bitknights solve --exact tests/data/distance39.txt` (no table)",
     "bitknights solve --exact tests/data/distance39.txt",
     "the compact table is built (once, announced: the boards are 39 moves away, the farthest "
     "there are) and cached"),
    ("`bitknights solve --exact tests/data/distance36.txt` (no table)",
     "bitknights solve --exact tests/data/distance36.txt", ""),
    ("`bitknights solutions GUEST` (the 7th Guest's 1,200, no table)",
     f"bitknights solutions {GUEST}",
     "the board is far: the compact table is built (once, announced) and the sequences "
     "read from it"),
    ("`bitknights solve --path sample.txt`", "bitknights solve --path sample.txt", ""),
    ("`bitknights table build`", "bitknights table build", ""),
    ("`bitknights table info`", "bitknights table info", ""),
    ("`bitknights table verify`", "bitknights table verify", ""),
    ("`bitknights random --distance 30 --count 100 --seed 1`",
     "bitknights random --distance 30 --count 100 --seed 1", ""),
    (HINTS, f"bitknights hint {BOARD}", ""),
    (HINTS, f"bitknights hint --count-solutions {BOARD}", ""),
    ("`bitknights solve sample.txt` (table built)", "bitknights solve sample.txt",
     "answered from the table in plain Python"),
    ("`bitknights solutions GUEST` (table built)", f"bitknights solutions {GUEST}", ""),
    ("Python from the checkout's root: `bk.solve(FAR, max_depth=None)` (table built)",
     f"python -c 'import bitknights as bk; print(bk.solve(\"{FAR}\", max_depth=None).steps)'",
     "the checkout is imported, not the installed copy; it runs the installed copy's compiled "
     "kernels (compiled from the same sources)"),
]  # fmt: skip
"""The table's rows after the set-up commands: its label, the command, what runs the
first time.  Consecutive rows with one label are one row of the table (a range)."""
SETUP_NOTES = [
    "pip builds bitknights and compiles every kernel ahead of time (four extension modules); "
    "`solve sample.txt` itself takes 0.03 s",
    "pip installs the test tools; the tests (about 2 minutes) compile the JIT twins of the "
    "kernels they compare against the compiled ones (cached next to the modules), and build "
    "distance tables, compact tables and pattern databases in temporary directories",
]


def readme_setup() -> list[str]:
    """The README's two set-up commands: the first two lines of its first code block."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("```bash") + 1
    return lines[start : start + 2]


def timed(command: str, cwd: Path, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)  # fmt: skip
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"{command!r} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return seconds


def say(text: str) -> None:
    """Progress on standard error: each command is named before it runs."""
    sys.stderr.write(text)
    sys.stderr.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-tests", action="store_true", help="skip set-up command 2")
    parser.add_argument("--keep", metavar="DIR", help="clone into DIR and keep it")
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="bitknights-first-use-"))
    clone = work / "bitknights"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    home = work / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BITKNIGHTS_", "XDG_"))}
    env.update(HOME=str(home), PATH=f"{clone / '.venv' / 'bin'}:{env['PATH']}")
    setup = readme_setup()
    timings = []  # (label, first, again, note)
    for i, command in enumerate(setup[: 1 if args.skip_tests else 2], 1):
        say(f"set-up command {i} (minutes): ")
        first = timed(command, clone, env)
        say(f"{first:.1f} s, again: ")
        again = timed(command, clone, env)
        say(f"{again:.1f} s\n")
        timings.append((f"set-up command {i}", first, again, SETUP_NOTES[i - 1]))
    for label, command, note in COMMANDS:
        say(f"{label}: ")
        first = timed(shlex.join(shlex.split(command)), clone, env)
        say(f"{first:.2f} s, again: ")
        again = timed(command, clone, env)
        say(f"{again:.2f} s\n")
        timings.append((label, first, again, note))
    print("\n".join(table(timings)))


def table(timings: list[tuple[str, float, float, str]]) -> list[str]:
    """The README's table of ``(label, first, again, note)`` rows; consecutive rows with
    one label become one row giving ranges."""
    lines = ["| command | first | again | what runs the first time |", "|---|---|---|---|"]
    rows: list[tuple[str, list[float], list[float], str]] = []
    for label, first, again, note in timings:
        if rows and rows[-1][0] == label:
            rows[-1][1].append(first)
            rows[-1][2].append(again)
        else:
            rows.append((label, [first], [again], note))
    for label, firsts, agains, note in rows:
        lines.append(
            f"| {label} | {_span(firsts)} | {_span(agains)} | {note} |".replace("|  |", "| |")
        )
    return lines


def _span(times: list[float]) -> str:
    lo, hi = _seconds(min(times)), _seconds(max(times))
    return lo if lo == hi else f"{lo.removesuffix(' s')}–{hi}"


def _seconds(t: float) -> str:
    return f"{t:.2f} s" if t < 1 else f"{t:.1f} s" if t < 10 else f"{t:.0f} s"


if __name__ == "__main__":
    main()
