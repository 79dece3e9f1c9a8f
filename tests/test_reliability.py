"""Reliability: engines agree on arbitrary boards, caches in odd places, concurrent builds."""

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitknights import TARGET, Board
from bitknights.table import store
from helpers import SAMPLE, cache_env, many_and_few, one_line_error, run_python, solve_with

ENV = {k: v for k, v in os.environ.items() if k not in ("BITKNIGHTS_CACHE_DIR", "XDG_CACHE_HOME")}


@st.composite
def walked_boards(draw):
    """A board some random moves (at most 22) from the classic target."""
    board = TARGET
    for i in draw(st.lists(st.integers(0, 7), max_size=22)):
        moves = board.moves()
        board = board.play(moves[i % len(moves)])
    return board


ANY_BOARD = st.permutations("1" * 12 + "0" * 12 + "*").map(lambda cells: Board("".join(cells)))
"""Any board with 12 knights of each colour."""


@settings(max_examples=60, deadline=None)
@given(walked_boards())
def test_engines_agree_near_the_target(table_dir, board):
    with cache_env(table_dir):
        results = [solve_with(e, board, TARGET, None) for e in ("ida", "bidir", "table")]
    assert len({r.steps for r in results}) == 1
    for r in results:
        r.verify()


def engines_agree_anywhere(table_dir, board):
    """Uniformly random boards: bidir and the table agree, and each path replays."""
    with cache_env(table_dir):
        a = solve_with("bidir", board, TARGET, None)
        b = solve_with("table", board, TARGET, None)
    assert a.steps == b.steps is not None
    a.verify()
    b.verify()


test_engines_agree_anywhere, test_engines_agree_on_a_few_boards_anywhere = many_and_few(
    engines_agree_anywhere, ANY_BOARD, many=25, few=5
)


def run(args, env, **kw):
    return subprocess.run([sys.executable, "-m", "bitknights", *args], capture_output=True,
                          text=True, env=env, timeout=300, **kw)  # fmt: skip


def test_no_home_and_no_cache_settings():
    env = {k: v for k, v in ENV.items() if k != "HOME"}
    r = run(["solve", str(SAMPLE)], env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "7\n-1\n", "")


@pytest.mark.slow
def test_missing_cache_directory_is_created(tmp_path):
    env = {**ENV, "BITKNIGHTS_CACHE_DIR": str(tmp_path / "not" / "yet")}
    r = run(["table", "info"], env)
    assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout
    r = run(["solve", "--engine", "table", str(SAMPLE)], env)
    assert "bitknights table build" in one_line_error(r)
    r = run(["table", "build", "--quiet"], env)
    assert r.returncode == 0, r.stderr
    r = run(["solve", "--engine", "table", str(SAMPLE)], env)
    assert (r.returncode, r.stdout) == (0, "7\n-1\n")


@pytest.mark.slow
def test_unwritable_cache_location(tmp_path):
    """An uncreatable cache directory: builds fail clearly, searches answer."""
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    env = {**ENV, "BITKNIGHTS_CACHE_DIR": str(blocker / "sub")}
    err = one_line_error(run(["table", "build", "--quiet"], env))
    assert err.startswith(f"bitknights: error: cannot use cache directory {blocker / 'sub'}")
    r = run(["solve", str(SAMPLE)], env)
    assert (r.returncode, r.stdout) == (0, "7\n-1\n")
    code = (
        "from bitknights import TARGET, Board; from bitknights.engines import ida\n"
        "from bitknights.engines.options import SolveOptions\n"
        "s = ida.IdaEngine(use_pdb=True).solve(Board('0000000000' '00*11' '1111111111'), "
        "TARGET, SolveOptions(max_depth=36))\n"
        "print(s.steps)"
    )
    r = run_python(code, env={**env, "XDG_CACHE_HOME": None})
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) % 2 == 0 and int(r.stdout) >= 30


@pytest.mark.slow
def test_four_concurrent_builds_leave_one_valid_file(tmp_path):
    env = {**ENV, "BITKNIGHTS_CACHE_DIR": str(tmp_path)}
    build = [sys.executable, "-m", "bitknights", "table", "build", "--quiet"]
    pipe = subprocess.PIPE
    procs = [subprocess.Popen(build, env=env, stdout=pipe, stderr=pipe) for _ in range(4)]
    for p in procs:
        assert p.wait(timeout=600) == 0, p.stderr.read()
    files = sorted(x.name for x in tmp_path.iterdir())
    name = store.table_path(TARGET, tmp_path).name
    assert files == [name, f"{name}.proof"]  # no temporary files left
    store.load(TARGET, tmp_path)  # header, size and checksum all verify; the proof holds
    r = run(["solve", "--engine", "table", "--exact", str(SAMPLE)], env)
    assert (r.returncode, r.stdout) == (0, "7\n18\n")
