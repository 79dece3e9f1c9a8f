"""Feedback on standard error (bitknights.progress), seen through a pseudo-terminal and
through pipes."""

import re
from pathlib import Path

import pytest

import terminal
from bitknights import progress
from helpers import SAMPLE, run_bitknights
from terminal import kept, wrapped

DATA = Path(__file__).parent / "data"


def on_terminal(args, tmp_path):
    """``bitknights ARGS`` on a 100x24 pseudo-terminal with its own cache directory."""
    return terminal.on_terminal(args, env={"BITKNIGHTS_CACHE_DIR": str(tmp_path / "cache")})


def screen_lines(seen):
    """What each line shows once carriage returns have done their work."""
    return [line.rstrip("\r").split("\r")[-1].rstrip() for line in seen.split("\n")]


@pytest.mark.slow
def test_bar_moves_and_never_mixes_with_answers(tmp_path):
    """Three exact searches at distance 39: the target side's growth is announced, the bar
    advances board by board, and every answer line holds the answer alone."""
    args = ["solve", "--exact", "--engine", "bidir", "--workers", "1", str(DATA / "distance39.txt")]
    status, seen = on_terminal(args, tmp_path)
    assert status == 0, seen
    first = screen_lines(seen)[0]  # the seconds of growing the target side are said
    assert first.startswith("bitknights: growing the bidirectional search's target side"), seen
    assert "(up to 5 s, once per process; `bitknights table build`" in first
    assert re.search(r"1/3 \[", seen) and re.search(r"2/3 \[", seen), seen  # moves per board
    answers = [line for line in screen_lines(seen) if "39" in line and "board" not in line]
    assert answers == ["39", "39", "39"], seen
    pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
    assert pipe.stdout == "39\n39\n39\n" and pipe.stderr == ""
    status, seen = on_terminal([*args, "--quiet"], tmp_path)
    assert status == 0 and screen_lines(seen) == ["39", "39", "39", ""], seen


@pytest.mark.slow
def test_pattern_databases_are_built_up_front_and_announced(tmp_path):
    """A deep IDA* batch builds its pattern databases first, saying so with a bar; the
    screen keeps the notice and the answers."""
    args = ["solve", "--exact", "--engine", "ida", str(DATA / "distance32.txt")]
    status, seen = on_terminal(args, tmp_path)
    assert status == 0, seen
    notice = "bitknights: building pattern databases (once, for deep IDA* searches, ~2 s)"
    assert screen_lines(seen)[0] == notice, seen
    assert re.search(r"pattern databases: +\d+%\|.*\| [\d.]+M/10\.4M", seen), seen
    assert kept(seen) == [notice, "32", "32", "32"], seen
    # the databases are cached now: nothing to say anyway
    pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
    assert pipe.stdout == "32\n32\n32\n" and pipe.stderr == ""


@pytest.mark.parametrize("delay", [None, "0", "100"])
@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--path", str(SAMPLE)],
        ["solve", "--format", "json", str(SAMPLE)],
        ["solve", "--engine", "ida", "--exact", str(SAMPLE)],
    ],
    ids=["path", "json", "ida-exact"],
)
def test_short_runs_leave_no_bar_on_the_terminal(args, delay, tmp_path):
    """A short run leaves on the terminal exactly what it writes through a pipe."""
    env = {"BITKNIGHTS_CACHE_DIR": str(tmp_path / "cache")}
    if delay is not None:
        env[progress.DELAY_ENV] = delay
    status, seen = terminal.on_terminal(args, env=env)
    assert status == 0, seen
    status, quiet = terminal.on_terminal([*args, "--quiet"], env=env)  # no bar at all
    assert status == 0 and kept(_timeless(seen)) == kept(_timeless(quiet)), seen
    if "--path" not in args:  # (drawn with knights on a terminal)
        pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
        assert pipe.returncode == 0 and pipe.stderr == ""
        assert kept(_timeless(seen)) == wrapped(_timeless(pipe.stdout)), seen


def _timeless(text):
    return re.sub(r'"seconds":[-+.e0-9]+', '"seconds":0', text)
