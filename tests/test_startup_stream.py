"""Start-up promises, streaming of long inputs, timeouts and thread pools."""

import io
import os
import subprocess
import sys

import numpy as np
import pytest

from bitknights import TARGET, Board, cli, solve_many
from bitknights.cli import streams as cli_streams
from helpers import run_bitknights, run_python, steps_with

B1 = "10110\n01*11\n10111\n01001\n00000\n"
B2 = "01011\n110*1\n01110\n01010\n00100\n"


@pytest.mark.parametrize(
    "code",
    [
        "import bitknights.cli",  # compiles nothing
        # reading a batch and playing moves (the command line's small-batch path relies on it)
        "boards = bitknights.read_batch(bitknights.SAMPLE)\n"
        "assert [len(b.moves()) for b in boards] and boards[0].play('a5')\n"
        "from bitknights import cli, table\n"
        "from bitknights.table import probe, store",
        "bitknights.Game, bitknights.check",
    ],
)
def test_import_stays_light(code):
    """``import bitknights`` and what needs no search import no numba, numpy or anywidget."""
    light = "print(sorted(m for m in ('numba', 'numpy', 'anywidget') if m in sys.modules))"
    assert run_python(f"import sys, bitknights\n{code}\n{light}", check=True).stdout == "[]\n"


@pytest.mark.slow
def test_second_process_loads_kernels_from_cache(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "NUMBA_DEBUG_CACHE": "1",
           "BITKNIGHTS_NATIVE": "0"}  # fmt: skip
    args = [sys.executable, "-m", "bitknights", "solve", "--engine", "ida", "--workers", "1"]
    first, second = (
        subprocess.run(args, input=f"1\n{B1}", capture_output=True, text=True, env=env, timeout=300)
        for _ in range(2)
    )
    assert first.stdout.splitlines()[-1] == second.stdout.splitlines()[-1] == "7"
    assert "data saved" in first.stdout and any(tmp_path.rglob("*.nbc"))
    assert "data loaded" in second.stdout and "saved" not in second.stdout


@pytest.mark.parametrize("stdin", [True, False])
def test_long_input_is_read_twice_not_kept(monkeypatch, capsys, tmp_path, stdin):
    """Beyond KEEP_BOARDS the input is read again (stdin from a spooled copy), in order."""
    n = 300
    text = f"{2 * n}\n" + (B1 + B2) * n
    monkeypatch.setattr(cli_streams, "KEEP_BOARDS", 50)
    monkeypatch.setattr("bitknights.batch.BLOCK_SIZE", 97)
    if stdin:

        class Pipe(io.BufferedReader):
            def seekable(self):
                return False

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Pipe(io.BytesIO(text.encode()))))
        argv = ["solve"]
    else:
        f = tmp_path / "in.txt"
        f.write_text(text)
        argv = ["solve", str(f)]
    assert cli.main(argv) == 0
    assert capsys.readouterr().out == "7\n-1\n" * n


def test_bad_line_far_down_stops_before_any_output(monkeypatch, capsys, tmp_path):
    n = 200
    text = f"{n + 1}\n" + B1 * n + B1.replace("01*11", "01*1x")
    f = tmp_path / "in.txt"
    f.write_text(text)
    monkeypatch.setattr(cli_streams, "KEEP_BOARDS", 10)
    assert cli.main(["solve", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err == f"bitknights: error: {f}: line {2 + 5 * n + 1}: board {n + 1}, row 2: "
        "expected a row of five characters from '0', '1', '*', got '01*1x' (character 5 is 'x')\n"
    )


def test_timeout_reports_board_as_timed_out():
    # 39 moves away (the farthest): seconds for IDA* even with the pattern databases cached
    far = "000*0/10000/01010/11110/11111"
    from bitknights.engines.pdb import pattern_tables

    pattern_tables(TARGET.key)  # built or loaded first: a timeout covers the build it waits for
    (s,) = solve_many([far], engine="ida", max_depth=None, timeout=0.05)
    assert s.steps is None and s.status == "timeout" and s.nodes > 0
    r = run_bitknights(["solve", "--exact", "--timeout", "0.05", "--engine", "ida", "--format",
                        "json"], "1\n" + str(Board(far)) + "\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert '"status":"timeout"' in r.stdout and '"steps":null' in r.stdout


def test_workers_agree_and_keep_order(ball8):
    boards = sorted(ball8)[:3000]
    keys = np.array([Board(b).key for b in boards], dtype=np.int64)
    want = np.array([ball8[b] for b in boards])
    for w in (1, 2, 3):
        assert (steps_with("ida", keys, TARGET, 15, workers=w) == want).all()
    sols = solve_many(boards[:300], engine="ida", workers=2)
    assert [s.steps for s in sols] == want[:300].tolist()
    assert [s.start.compact for s in sols] == boards[:300]
