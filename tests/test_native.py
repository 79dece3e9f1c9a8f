"""The ahead-of-time compiled IDA* kernels: built here from the current sources, they must
agree with the JIT kernels node for node, release the GIL, and be refused when stale."""

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from bitknights import SAMPLE, TARGET, Board
from bitknights.coords.arrays import SQUARE_COLOR
from bitknights.engines import _ida_kernels, ida, native
from bitknights.engines.common import StopFlag
from bitknights.results import STOPPED
from bitknights.squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
from helpers import random_walk


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    path = native.build(tmp_path_factory.mktemp("native"))
    module = native.load_from(path)
    assert module is not None
    return module


def _args(board, limit, pdb):
    return (
        board.black, board.blank, TARGET.blank, limit,
        KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR, *ida._bounds(TARGET, pdb),
    )  # fmt: skip


def test_one_board_agrees_with_jit_node_for_node(compiled):
    rng = random.Random(5)
    boards = [random_walk(TARGET, n, rng) for n in range(0, 40, 2) for _ in range(3)]
    for board in boards:
        for pdb in (False, True):
            for limit in (9, 15):
                got_path = np.zeros(limit + 2, np.int64)
                want_path = np.zeros(limit + 2, np.int64)
                stop = np.zeros(1, np.int64)
                args = _args(board, limit, pdb)
                got = compiled.ida_one(*args, ida.NO_BUDGET, got_path, stop)
                want = _ida_kernels.ida_one(*args, ida.NO_BUDGET, want_path, stop)
                assert got == want, (board, pdb, limit)
                if got[0] >= 0:
                    assert (got_path[: got[0] + 1] == want_path[: got[0] + 1]).all()


def test_batch_agrees_with_naive_bfs(compiled, ball8):
    rng = random.Random(6)
    boards = [Board(text) for text in rng.sample(sorted(ball8), 200)]
    boards += [random_walk(TARGET, rng.randrange(9, 30), rng) for _ in range(60)]
    boards.append(Board("11111/01111/00*11/00001/00001"))  # 11 white: unreachable
    keys = np.array([b.key for b in boards], np.int64)
    blacks, blanks = keys & ((1 << 25) - 1), keys >> 25
    steps = np.zeros(len(keys), np.int64)
    nodes = np.zeros(len(keys), np.int64)
    compiled.ida_many(
        blacks, blanks, TARGET.blank, 12, 8, KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR,
        *ida._bounds(TARGET, False), steps, nodes, np.zeros(1, np.int64),
    )  # fmt: skip
    for board, s in zip(boards, steps.tolist()):
        assert s == ball8.get("".join(board.rows()), -1), board


def test_kernel_releases_the_gil(compiled):
    """A timer thread can raise the stop flag while the kernel runs: were the GIL held,
    the search (seconds long) would run to its end instead of returning STOPPED."""
    board = Board("00000/10001/1*010/01101/11111")  # far from the target
    path = np.zeros(202, np.int64)
    with StopFlag().arm(0.05) as stop:
        steps, _ = compiled.ida_one(*_args(board, 200, False), ida.NO_BUDGET, path, stop.array)
    assert steps == STOPPED


def test_stale_or_foreign_extensions_are_refused(compiled, tmp_path, monkeypatch):
    path = compiled.__file__
    assert native.load_from(path) is not None
    monkeypatch.setattr(native, "source_fingerprint", lambda: 12345)
    assert native.load_from(path) is None
    junk = tmp_path / "junk.so"
    junk.write_bytes(b"not a shared object")
    assert native.load_from(junk) is None


def test_installed_ida_runs_without_numba(tmp_path):
    """The installed package (here: outside the source tree) carries a current extension,
    and the classic IDA* batch never imports numba.  Fails when the install could not
    compile it (no C compiler): IDA* then works, but starts ~0.6 s slower."""
    code = (
        "import sys; from bitknights import cli; from bitknights.engines import ida; "
        "status = cli.main(['solve', '--engine', 'ida']); "
        "print(ida.backend(), 'numba' in sys.modules, status)"
    )
    env = {k: v for k, v in os.environ.items() if k != native.ENV}
    out = subprocess.run([sys.executable, "-c", code], input=SAMPLE, capture_output=True,
                         text=True, cwd=tmp_path, env=env, check=True)  # fmt: skip
    assert out.stdout.split() == ["7", "-1", "native", "False", "0"], out.stderr


def test_switch_turns_the_extension_off(monkeypatch):
    monkeypatch.setenv(native.ENV, "0")
    native.load.cache_clear()
    try:
        assert native.load() is None
    finally:
        native.load.cache_clear()
