"""Each input is read once (issue 15, S1): a pipe, a FIFO, ``/dev/stdin`` or a process
substitution as FILE gives the same answers as the same bytes in a regular file."""

from __future__ import annotations

import os
import random
import subprocess
import threading
from pathlib import Path

import pytest

from bitknights import TARGET
from helpers import random_walk, run_bitknights
from terminal import CLI


def _batch(boards: list[str], pad: int = 0) -> bytes:
    rows = ["\n".join(b[i : i + 5] for i in range(0, 25, 5)) for b in boards]
    return (f"{len(boards)}\n" + "\n" * pad + "\n".join(rows) + "\n").encode()


def _crafted() -> bytes:
    """8,875 boards whose bytes after the first 266,240 are a one-board batch (once lost)."""
    rng = random.Random(15)
    boards = [random_walk(TARGET, rng.randrange(1, 7), rng).compact for _ in range(8873)]
    penultimate = "11111" + "0111*" + "00110" + "00010" + "00001"
    assert penultimate.count("1") == 12 and penultimate.count("*") == 1
    boards += [penultimate, TARGET.compact]
    data = _batch(boards, pad=21)
    assert data[266240:] == b"00001\n" + _batch([TARGET.compact])[2:]
    return data


@pytest.fixture(scope="module")
def crafted(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("input") / "crafted.txt"
    path.write_bytes(_crafted())
    return path


def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + args, capture_output=True, timeout=120, **kw)


def _answers(path: Path, extra: list[str]) -> bytes:
    """What ``solve PATH`` writes for a regular file, in this process."""
    done = run_bitknights(["solve", path, *extra], text=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


ENGINES = [["--engine", "auto"], ["--engine", "table"], ["--engine", "bidir"]]


@pytest.mark.parametrize("extra", ENGINES, ids=lambda e: e[-1])
def test_pipe_as_dev_stdin(crafted: Path, table_dir: Path, extra: list[str]) -> None:
    extra = [*extra, "--cache-dir", str(table_dir)]
    expected = _answers(crafted, extra)
    assert expected.count(b"\n") == 8875 and expected.endswith(b"\n0\n")
    with open(crafted, "rb") as f:
        cat = subprocess.Popen(["cat"], stdin=f, stdout=subprocess.PIPE)
        done = _run(["solve", "/dev/stdin", *extra], stdin=cat.stdout)
        cat.wait(timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_process_substitution(crafted: Path) -> None:
    expected = _answers(crafted, [])
    cmd = " ".join(CLI) + f" solve <(cat {crafted})"
    done = subprocess.run(["/bin/bash", "-c", cmd], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


@pytest.mark.parametrize("data", ["crafted", "sample"])
def test_named_fifo(crafted: Path, tmp_path: Path, data: str) -> None:
    source = crafted if data == "crafted" else Path(__file__).parent.parent / "sample.txt"
    expected = _answers(source, [])
    fifo = tmp_path / "boards.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as w:
            w.write(source.read_bytes())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = _run(["solve", str(fifo)])
    writer.join(timeout=10)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected
