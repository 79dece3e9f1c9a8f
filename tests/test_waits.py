"""No silent second, a clean screen: on a terminal every step that can make a person wait
shows what it does and how far it got, bars sharing a line; the screen keeps the answers
and at most one line.  Through a pipe, nothing."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import terminal
from bitknights import progress
from bitknights.table.builder import LOG_LEGEND
from helpers import SAMPLE, SMALL, run_bitknights, target_file
from terminal import kept, wrapped

DATA = Path(__file__).parent / "data"


def on_terminal(args, cache, **env):
    return terminal.on_terminal(args, env={"BITKNIGHTS_CACHE_DIR": str(cache), **env})


def drawn(seen: str) -> list[str]:
    """Each state a line was drawn in (ended by a carriage return or line feed), no blanks."""
    return [s.strip() for s in re.split(r"[\r\n]", seen) if s.strip()]


def runs(states: list[str], *marks: str) -> list[str]:
    """Which of ``marks`` each drawn state shows, repeats merged: who had the line, in order."""
    out: list[str] = []
    for s in states:
        mark = next((m for m in marks if m in s), None)
        if mark is not None and (not out or out[-1] != mark):
            out.append(mark)
    return out


def test_bars_appear_soon():
    """A bar of a step that may be quick appears within the second a person notices."""
    os.environ.pop(progress.DELAY_ENV, None)
    assert progress._delay() <= 1


@pytest.fixture
def small_target(tmp_path):
    return target_file(tmp_path / "target.txt", SMALL)


def test_table_build_leaves_the_answer_alone(small_target, tmp_path):
    """``table build`` on a terminal: the build's bar at once, then one summary line kept
    (a pipe: the path and the counts, standard error empty); ``--quiet``: no bar."""
    args = ["table", "build", "--target", str(small_target)]
    status, seen = on_terminal(args, tmp_path / "cache")
    assert status == 0, seen
    states = drawn(seen)
    assert states[0].startswith("building the distance table (under a second): "), seen
    assert "6,900/6,900 boards, distance 25" in seen  # the whole search, counted
    pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
    assert pipe.returncode == 0 and pipe.stderr == ""
    assert len(pipe.stdout.splitlines()) == 2
    seconds = re.search(r"\((\d+\.\d) s\)", seen).group(1)
    summary = f"built: 6,900 boards, farthest 24 moves, 0 MB in {tmp_path / 'cache'} ({seconds} s)"
    assert kept(seen) == wrapped(summary), seen  # one line (wrapped: a long directory)
    assert pipe.stdout.splitlines()[1].startswith("6,900 boards, farthest 24 moves, ")
    status, seen = on_terminal([*args, "--quiet"], tmp_path / "cache")
    assert status == 0 and "building" not in seen, seen


def test_table_build_verbose_explains_its_log(small_target, tmp_path):
    """``--verbose`` keeps the search's log: legend, a line per distance, summary, result."""
    args = ["table", "build", "--verbose", "--target", str(small_target)]
    status, seen = on_terminal(args, tmp_path / "cache")
    assert status == 0, seen
    screen = kept(seen)
    legend = wrapped("bitknights: " + "\n".join(LOG_LEGEND))
    assert screen[: len(legend)] == legend, screen
    end = next(i for i, line in enumerate(screen) if "reach the target" in line)
    log = screen[len(legend) : end]
    assert log[0] == "distance  0:            1 board"
    assert all(re.fullmatch(r"distance +\d+: +[\d,]+ boards? +\((pushed from a list|pushed|pulled), "
                            r"\d+\.\d s\)", line) for line in log[1:]), log  # fmt: skip
    assert len(log) == 25  # distances 0 to 24
    assert screen[end].startswith("6,900 of 6,900 boards reach the target; farthest 24 moves")
    assert screen[end + 1].startswith("built: ")
    # asked for: the log goes to a pipe too
    pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
    assert pipe.stderr.startswith("bitknights: " + "\n".join(LOG_LEGEND) + "\n")


@pytest.fixture
def small_table(small_target, tmp_path):
    cache = tmp_path / "cache"
    r = run_bitknights(["table", "build", "--target", str(small_target)], cache_dir=cache)
    assert r.returncode == 0, r.stderr
    return cache


@pytest.mark.parametrize("delay", [None, "0"])
def test_random_shows_its_draw_and_leaves_the_batch(small_table, small_target, delay):
    """``random`` on a terminal: bars before the batch, never in it; the screen keeps the batch."""
    args = ["random", "--distance", "5", "--count", "12", "--seed", "3", "--target",
            str(small_target)]  # fmt: skip
    env = {} if delay is None else {progress.DELAY_ENV: delay}
    status, seen = on_terminal(args, small_table, **env)
    assert status == 0, seen
    pipe = run_bitknights(args, cache_dir=small_table)
    assert pipe.returncode == 0 and pipe.stderr == "" and pipe.stdout.startswith("12\n")
    assert kept(seen) == wrapped(pipe.stdout), seen
    if delay == "0":  # the read is a step of the draw: its bar, then the draw's again
        states = drawn(seen)
        order = runs(states, "drawing boards 5 moves away", "reading the distance table")
        assert order == ["drawing boards 5 moves away", "reading the distance table",
                         "drawing boards 5 moves away"], seen  # fmt: skip
        bars = [i for i, s in enumerate(states) if "boards 5 moves" in s or "reading" in s]
        assert states.index("12") > max(bars), seen  # the batch comes after


NESTED = """
import sys, time
from bitknights import progress
with progress.bar(3, "board", "the batch", delay=0) as outer:
    outer.update(1)
    with progress.bar(100, "board", "a build", delay=0) as inner:
        for _ in range(4):
            inner.update(25)
            outer.refresh()  # (the batch's own clock ticks too: it must not draw)
        with progress.writing(sys.stdout):
            print("during the build")
    outer.update(1)
    with progress.writing(sys.stdout):
        print("39")
    outer.update(1)
print("done")
"""


def test_a_build_inside_a_batch_has_the_line_then_gives_it_back():
    """Two bars share a line: a build's takes it from the batch's, gives it back; answers stay."""
    status, seen = terminal.on_terminal([], command=[sys.executable, "-c", NESTED])
    assert status == 0, seen
    order = runs(drawn(seen), "the batch", "a build", "during the build", "39", "done")
    assert order == ["the batch", "a build", "during the build", "a build", "the batch", "39",
                     "the batch", "done"], seen  # fmt: skip
    assert kept(seen) == ["during the build", "39", "done"]


@pytest.mark.slow
def test_first_far_board_shows_the_compact_build_then_the_batch(tmp_path):
    """The first ``solve --exact`` of far boards: the compact build's notice and bar first."""
    args = ["solve", "--exact", str(DATA / "distance39.txt")]
    status, seen = on_terminal(args, tmp_path / "cache")
    assert status == 0, seen
    states = drawn(seen)
    notice = states[0]
    assert notice.startswith("bitknights: building the compact distance table"), seen
    assert len(notice) <= terminal.COLUMNS, notice  # one line on the screen
    build = [s for s in states if s.startswith("building the compact table: ")]
    counts = {re.search(r"([\d,]+)/67,603,900 boards", s).group(1) for s in build}
    assert len(counts) > 10 and "67,603,900" in counts, build  # it moved, to the end
    order = runs(states, "building the compact table", "solving:", "39")
    assert order[:2] in (["building the compact table", "solving:"],
                         ["building the compact table", "39"]), seen  # fmt: skip
    assert "building the compact table" not in order[1:], seen
    assert kept(seen) == [notice, "39", "39", "39"], seen


def screen_lines(seen):
    """What each line shows once carriage returns have done their work."""
    return [line.rstrip("\r").split("\r")[-1].rstrip() for line in seen.split("\n")]


@pytest.mark.slow
def test_bar_moves_and_never_mixes_with_answers(tmp_path):
    """Three searches at distance 39: the growth said, the bar moving, the answers alone."""
    args = ["solve", "--exact", "--engine", "bidir", "--workers", "1", str(DATA / "distance39.txt")]
    status, seen = on_terminal(args, tmp_path / "cache")
    assert status == 0, seen
    first = screen_lines(seen)[0]  # the seconds of growing the target side are said
    assert first.startswith("bitknights: growing the bidirectional search's target side"), seen
    assert "(up to 5 s, once per process; `bitknights table build`" in first
    assert re.search(r"1/3 \[", seen) and re.search(r"2/3 \[", seen), seen  # moves per board
    answers = [line for line in screen_lines(seen) if "39" in line and "board" not in line]
    assert answers == ["39", "39", "39"], seen
    pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
    assert pipe.stdout == "39\n39\n39\n" and pipe.stderr == ""
    status, seen = on_terminal([*args, "--quiet"], tmp_path / "cache")
    assert status == 0 and screen_lines(seen) == ["39", "39", "39", ""], seen


@pytest.mark.slow
def test_pattern_databases_are_built_up_front_and_announced(tmp_path):
    """A deep IDA* batch builds its pattern databases first, with a notice and a bar."""
    args = ["solve", "--exact", "--engine", "ida", str(DATA / "distance32.txt")]
    status, seen = on_terminal(args, tmp_path / "cache")
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
    "options",
    [["--path"], ["--format", "json"], ["--engine", "ida", "--exact"]],
    ids=["path", "json", "ida-exact"],
)
def test_short_runs_leave_no_bar_on_the_terminal(options, delay, tmp_path):
    """A short run leaves on the terminal exactly what it writes through a pipe."""
    args = ["solve", *options, str(SAMPLE)]
    env = {} if delay is None else {progress.DELAY_ENV: delay}
    status, seen = on_terminal(args, tmp_path / "cache", **env)
    assert status == 0, seen
    status, quiet = on_terminal([*args, "--quiet"], tmp_path / "cache", **env)  # no bar at all
    assert status == 0 and kept(_timeless(seen)) == kept(_timeless(quiet)), seen
    if "--path" not in args:  # (drawn with knights on a terminal)
        pipe = run_bitknights(args, cache_dir=tmp_path / "cache")
        assert pipe.returncode == 0 and pipe.stderr == ""
        assert kept(_timeless(seen)) == wrapped(_timeless(pipe.stdout)), seen


def _timeless(text):
    return re.sub(r'"seconds":[-+.e0-9]+', '"seconds":0', text)
