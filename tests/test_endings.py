"""Clean endings: Ctrl-C, a closed pipe."""

import os
import signal
import subprocess
import time

import pytest

import terminal
from helpers import batch_file, run_bitknights

# 39 moves away (tests/data/distance39.txt): seconds of IDA* even with pattern databases
FAR = "00000\n11000\n10101\n*1100\n11111\n"
NEAR = "10110/01*11/10111/01001/00000"  # 7 moves


@pytest.mark.slow
def test_ctrl_c_exits_130_without_traceback():
    p = subprocess.Popen(
        [*terminal.CLI, "solve", "--exact", "--engine", "ida"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    p.stdin.write(f"1\n{FAR}".encode())
    p.stdin.close()
    time.sleep(2.5)  # well into the search
    assert p.poll() is None, "the search ended before the interrupt"
    p.send_signal(signal.SIGINT)
    p.wait(timeout=30)  # a search left to finish would print its answer and exit 0
    out, err = p.stdout.read(), p.stderr.read()  # it has ended: its pipes are at their end
    assert p.returncode == 130
    assert err == b"bitknights: interrupted\n" and out == b""


def test_closed_pipe_ends_quietly(tmp_path):
    big = batch_file(tmp_path / "big.txt", [NEAR] * 20000)
    p = subprocess.Popen(
        [*terminal.CLI, "solve", "--engine", "ida", str(big)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert terminal.read_until(p.stdout.fileno(), b"\n", seconds=120).startswith(b"7\n")
    p.stdout.close()
    _, err = p.communicate(timeout=60)
    assert p.returncode in (0, 141)  # quiet exit (141 = 128 + SIGPIPE)
    assert err == b""


def test_progress_bar_only_on_a_terminal(tmp_path):
    big = batch_file(tmp_path / "big.txt", [NEAR] * 3000)
    args = ["solve", "--engine", "ida", str(big)]
    env = {"BITKNIGHTS_PROGRESS_DELAY": "0"}  # a bar even for a quick batch
    status, out, seen = terminal.stderr_on_terminal(args, env=env, columns=80, timeout=120)
    assert status == 0 and out == b"7\n" * 3000
    assert "board" in seen and "3000" in seen  # tqdm: "n/3000 ... board/s"
    quiet = run_bitknights([*args, "--quiet"])
    piped = run_bitknights(args)
    assert quiet.stderr == piped.stderr == "" and quiet.stdout == piped.stdout == "7\n" * 3000


def test_ctrl_c_while_solutions_stream_to_a_terminal_ends_on_a_line_of_its_own(table_dir):
    """Ctrl-C while `solutions` streams: the message on its own line after `^C`, status 130."""
    far = "000*0/10000/01010/11110/11111"  # 39 moves away: 1,944,639 optimal sequences
    pid, fd = terminal.spawn(["solutions", far], env={"BITKNIGHTS_CACHE_DIR": str(table_dir)})
    seen = terminal.read_until(fd, b"\n", seconds=120, count=200)  # well into the listing
    os.write(fd, b"\x03")
    status, seen = terminal.wait_exit(pid, fd, seen, seconds=60)
    screen = terminal.kept(seen.decode())
    assert status == 130, screen[-3:]
    assert screen[-1] == "bitknights: interrupted", screen[-3:]
