"""The game, the solution checker and ``play`` / ``check`` / ``random --format json``
against the naive BFS, the terminal game through a pipe and a pseudo-terminal."""

from __future__ import annotations

import json
import os
import random
import signal

import pytest

import terminal
from bitknights import TARGET, Board, BoardError, Move, check
from bitknights.cli.common import OPTIMAL_MARK
from bitknights.cli.play import PROMPT
from bitknights.game import Game, GameError
from bitknights.service import DistanceService
from bitknights.squares import square_name
from helpers import Ran, one_line_error, random_walk, run_bitknights, still_square, target_file

SAMPLE = Board("10110/01*11/10111/01001/00000")


def run(*args: str, stdin: str = "", env: dict | None = None) -> Ran:
    return run_bitknights(args, stdin, env=env)


OPENING = 8  # lines before the board: "the target:", the target drawn, "your board:"


def drawn(lines: list[str]) -> Board:
    """The board a game draws in these six lines (files, then ranks 5 to 1)."""
    assert lines[0].split() == list("abcde"), lines
    return Board("/".join("".join(ln.split()[1:]) for ln in lines[1:6]))


def snapshot(g: Game) -> tuple:
    return g.board, g.start, g.history, g.redo_moves


# -- the game ---------------------------------------------------------------------------------


def test_distances_hints_and_solutions_match_naive_bfs(ball8):
    rng = random.Random(13)
    oracle = DistanceService(engine="bidir")
    for _ in range(40):
        board = random_walk(TARGET, rng.randrange(0, 12), rng)
        if board.compact not in ball8:
            continue
        g = Game(board, answers=oracle)
        here = ball8[board.compact]
        assert g.distance == g.optimum == here
        for h in g.hints():
            assert h.board == board.play(h.move)
            want = ball8.get(h.board.compact, 9)  # every neighbour is one nearer or farther
            assert h.distance == want and h.optimal == (want == here - 1)
        rest = g.solution()
        assert len(rest) == here
        for m in rest:
            g.move(m)
        assert g.solved and g.distance == 0


def test_move_undo_redo_and_refusals_leave_the_game_unchanged():
    g = Game(SAMPLE, answers=DistanceService(engine="bidir"))
    for bad in (g.undo, g.redo):
        with pytest.raises(GameError):
            bad()
    first, second = SAMPLE.moves()[:2]
    assert g.move(square_name(first.from_square)) == first
    far = still_square(g.board)
    before = snapshot(g)
    for bad_move in (far, square_name(far), str(second), "z9", "e1-e1", 99, Move(0, 0)):
        with pytest.raises(GameError):
            g.move(bad_move)
        assert snapshot(g) == before
    for bad_distance in (-1, 99):
        with pytest.raises(GameError):
            g.new(bad_distance)
    assert snapshot(g) == before
    assert g.undo() == first and g.board == SAMPLE and g.redo_moves == [first]
    assert g.redo() == first and g.board == SAMPLE.play(first) and g.redo_moves == []
    g.undo()
    g.move(second)  # a new move forgets what redo would replay
    assert g.redo_moves == [] and g.history == [second]
    g.reset()
    assert (g.board, g.history) == (SAMPLE, [])


def test_solve_step_and_an_unreachable_board():
    g = Game(SAMPLE, answers=DistanceService(engine="bidir"))
    while not g.solved:
        d = g.distance
        g.solve_step()
        assert g.distance == d - 1
    with pytest.raises(GameError):
        g.solve_step()
    lonely = Game("0000000000*00000000000000")  # no black knight: never reaches the target
    assert lonely.distance is None and all(h.distance is None for h in lonely.hints())
    with pytest.raises(GameError, match="never reaches"):
        lonely.solution()


@pytest.mark.parametrize("distance", [0, 1, 5, 8])
def test_new_boards_lie_at_the_distance_asked(distance, ball8):
    g = Game(distance=distance, seed=distance, answers=DistanceService(engine="bidir"))
    assert ball8[g.board.compact] == distance == g.distance
    again = Game(distance=distance, seed=distance, answers=DistanceService(engine="bidir"))
    assert again.board == g.board  # the same seed, the same board
    g.move(g.board.moves()[0])
    assert g.new(3) == g.board == g.start and ball8[g.board.compact] == 3 and g.history == []


@pytest.mark.slow
def test_the_table_oracle_agrees_with_search(table_dir, ball8):
    table = DistanceService(cache_dir=table_dir)
    search = DistanceService(engine="bidir")
    assert (table.source, search.source) == ("table", "search")
    rng = random.Random(5)
    for _ in range(30):
        board = random_walk(TARGET, rng.randrange(0, 30), rng)
        assert table.distance(board) == search.distance(board)
        if board.compact in ball8:
            assert table.distance(board) == ball8[board.compact]
    # a climbing walk with the table gives the board it gives with search
    climbed = [Game(distance=9, seed=1, answers=a).board for a in (table, search)]
    assert climbed[0] == climbed[1]
    far = Game(distance=table.farthest, seed=2, answers=table)  # drawn from the table
    assert far.distance == table.farthest == search.distance(far.board)


# -- the checker ------------------------------------------------------------------------------


def test_check_scores_solutions(ball8):
    oracle = DistanceService(engine="bidir")
    best = Game(SAMPLE, answers=oracle).solution()
    assert len(best) == ball8[SAMPLE.compact]
    r = check(SAMPLE, [str(m) for m in best], answers=oracle)
    assert (r.legal, r.reaches_target, r.length, r.optimum, r.score, r.optimal) == (
        True, True, 7, 7, 1.0, True)  # fmt: skip
    # a detour of two moves: still a solution, scored optimum / length
    there, back = best[0], Move(best[0].to_square, best[0].from_square)
    longer = [there, back, *best]
    r = check(SAMPLE, " ".join(str(m) for m in longer), answers=oracle)
    assert r.reaches_target and r.length == 9 and r.score == 7 / 9 and not r.optimal
    # stops short: legal, but no solution
    r = check(SAMPLE, best[:-1], answers=oracle)
    assert r.legal and not r.reaches_target and r.score == 0.0
    assert ball8[r.final] == 1
    # an illegal third move: its index, text and reason
    far = still_square(SAMPLE.play(best[0]).play(best[1]))
    moves = [str(best[0]), str(best[1]), square_name(far), str(best[2])]
    r = check(SAMPLE, moves, answers=oracle)
    assert (r.legal, r.illegal_index, r.illegal_move, r.reaches_target, r.score) == (
        False, 2, square_name(far), False, 0.0)  # fmt: skip
    assert "illegal move" in r.illegal_reason
    assert r.final == SAMPLE.play(best[0]).play(best[1]).compact
    d = r.as_dict()
    assert json.loads(json.dumps(d)) == d and d["illegal_index"] == 2 and d["optimal"] is False
    assert check(SAMPLE, ["??"], answers=oracle).illegal_index == 0
    with pytest.raises(BoardError):
        check("not a board", [])


# -- the command line -------------------------------------------------------------------------


def test_play_through_a_pipe(ball8):
    best = Game(SAMPLE, answers=DistanceService(engine="bidir")).solution()
    far = still_square(SAMPLE)
    script = f"hint\n{square_name(far)}\ndance\nundo\n{best[0]}\nundo\nredo\nsolve\nquit\nhint"
    p = run("play", "/".join(SAMPLE.rows()), stdin=script + "\n")
    assert p.returncode == 0, p.stderr
    assert "exact search" in p.stderr  # no table in the tests' cache: said once
    lines = p.stdout.splitlines()
    # the game opens with the target, once, then the board
    assert lines[0] == "the target:" and drawn(lines[1:7]) == TARGET
    assert lines[7] == "your board:" and drawn(lines[8:14]) == SAMPLE
    assert lines.count("the target:") == 1
    lines = lines[OPENING:]
    assert lines[6] == f"distance {ball8[SAMPLE.compact]}"
    assert lines[0].split() == [square_name(c)[0] for c in range(5)]
    assert lines[1].split()[1:] == list(SAMPLE.rows()[0])  # plain 0/1/* through a pipe
    hint = lines[7 : 8 + len(SAMPLE.moves())]
    assert hint[0] == f"1 of {len(SAMPLE.moves())} moves optimal"
    marked = [h.split()[1] for h in hint[1:] if h.startswith(OPTIMAL_MARK)]
    assert marked == [str(best[0])]
    refusals = [ln for ln in lines if ln.startswith("refused: ")]
    assert len(refusals) == 3 and "illegal move" in refusals[0] and "unknown command" in refusals[1]
    assert refusals[2] == "refused: nothing to undo"
    assert f"move 1: {best[0]} (redo)" in lines
    assert [ln for ln in lines if ln.startswith("move ")][-1] == f"move 7: {best[-1]}"
    assert lines[-1] == "solved in 7 moves; the optimum is 7 (optimal)"
    # commands in, the same lines out: a second run gives the same transcript
    assert run("play", SAMPLE.compact, stdin=script + "\n").stdout == p.stdout
    # the end of the input ends the game too
    p = run("play", SAMPLE.compact, stdin="hint")
    assert p.returncode == 0 and p.stdout.splitlines()[-1].startswith(" ")


def test_play_fresh_boards_and_bad_arguments(tmp_path, ball8):
    p = run("play", "--distance", "5", "--seed", "3", stdin="new 2\nreset\n")
    assert p.returncode == 0
    boards = [ln for ln in p.stdout.splitlines() if ln.startswith("distance ")]
    assert boards == ["distance 5", "distance 2", "distance 2"]
    shown = p.stdout.splitlines()[OPENING : OPENING + 6]
    assert ball8[drawn(shown).compact] == 5
    assert run("play", "--distance", "5", "--seed", "3", stdin="new 2\n").stdout in p.stdout
    p = run("play", str(target_file(tmp_path / "board.txt", SAMPLE)), stdin="")
    assert p.returncode == 0 and "distance 7" in p.stdout
    for args in (["play", "10110"], ["play", str(tmp_path / "none/x")],
                 ["play", SAMPLE.compact, "--distance", "3"], ["check", "xx", "a1"]):  # fmt: skip
        one_line_error(run(*args))


def _play_on_a_terminal(args, keys, env=None):
    """``bitknights play ARGS`` on its controlling pseudo-terminal, typing each of ``keys``
    once the prompt shows; returns the exit status and what the terminal kept."""
    pid, fd = terminal.spawn(["play", *args], env=env)
    out = b""
    for typed, key in enumerate(keys):
        out = terminal.read_until(fd, PROMPT.encode(), out, 60, count=typed + 1)
        os.write(fd, key)
    status, out = terminal.wait_exit(pid, fd, out, seconds=60)
    return status, terminal.kept(out.decode())


def test_play_on_a_pseudo_terminal():
    best = Game(SAMPLE, answers=DistanceService(engine="bidir")).solution()
    keys = [f"{best[0]}\n".encode(), b"nonsense\n", b"q\n"]
    status, screen = _play_on_a_terminal([SAMPLE.compact], keys)
    text = "\n".join(screen)
    assert status == 0 and "distance 6" in text and "refused: " in text
    assert "\u2658" in text and "\u265e" in text and "\u00b7" in text  # ♘ ♞ · on a UTF-8 tty
    assert f"move 1: {best[0]}" in text and "distance 7" in text
    assert text.count("the target:") == 1 and text.index("the target:") < text.index("distance 7")


def test_play_on_a_terminal_whose_encoding_lacks_the_knights():
    """A terminal in an ANSI code page (cp1252) gets the board in digits, as with --ascii."""
    env = {"PYTHONIOENCODING": "cp1252"}
    status, screen = _play_on_a_terminal([SAMPLE.compact], [b"q\n"], env=env)
    assert status == 0 and all(line in screen for line in _in_digits(SAMPLE)), screen
    assert not any(ch in "".join(screen) for ch in "\u2658\u265e\u00b7")


def test_play_prompt_and_ctrl_c_on_a_terminal():
    """The prompt is not the optimal-move mark; Ctrl-C at it ends the echoed line before
    saying so, and exits 130; Ctrl-D ends the game on a line of its own."""
    status, screen = _play_on_a_terminal(["--ascii", SAMPLE.compact], [b"\x03"])
    assert status == 130, screen
    assert screen[-2:] == [f"{PROMPT}^C", "bitknights: interrupted"], screen
    assert not PROMPT.startswith(OPTIMAL_MARK)
    status, screen = _play_on_a_terminal(["--ascii", SAMPLE.compact], [b"target\n", b"\x04"])
    assert status == 0 and screen[-1] == PROMPT.rstrip(), screen
    assert screen[-8:-1] == ["the target:", *_in_digits(TARGET)], screen


def _in_digits(board: Board) -> list[str]:
    """The lines that draw ``board`` in digits (``--ascii``)."""
    return ["   a b c d e", *(f" {5 - r} {' '.join(row)}" for r, row in enumerate(board.rows()))]


@pytest.mark.parametrize("rounds", [3, pytest.param(30, marks=pytest.mark.slow)])
def test_sigint_the_moment_the_prompt_shows_ends_play_every_time(rounds):
    """SIGINT the moment the prompt shows (one CPU shared with the game: before ``input()``
    waits, where it hung), in each of ``rounds`` games: each ends, status 130, in a bound."""
    pin = hasattr(os, "sched_setaffinity")
    if pin:
        mask = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(mask)})  # this thread (and the children it forks) only
    try:
        for round_ in range(rounds):
            pid, fd = terminal.spawn(["play", "--quiet", "--ascii", SAMPLE.compact])
            out = terminal.read_until(fd, PROMPT.encode(), seconds=60)
            os.kill(pid, signal.SIGINT)
            status, out = terminal.wait_exit(pid, fd, out, seconds=20)
            screen = terminal.kept(out.decode())
            assert status == 130, (round_, screen)
            assert screen[-2:] == [PROMPT.rstrip(), "bitknights: interrupted"], (round_, screen)
    finally:
        if pin:
            os.sched_setaffinity(0, mask)


def test_play_words_and_refusals():
    """Plurals, the hint at the target, a fullwidth digit, an endless line (refused
    without echoing it back), and --quiet without the notice about search."""
    one_away = TARGET.play(TARGET.moves()[0])  # the knight back on c3 solves it
    p = run("play", "--quiet", one_away.compact, stdin=f"{square_name(TARGET.blank)}\nhint\n")
    assert p.returncode == 0 and p.stderr == ""
    lines = p.stdout.splitlines()
    assert "solved in 1 move; the optimum is 1 (optimal)" in lines, p.stdout
    hint = lines.index("the board is the target: every move leads away")
    assert [ln.split()[1] for ln in lines[hint + 1 :]] == ["1"] * len(TARGET.moves())
    p = run("play", SAMPLE.compact, stdin="new \uff13\n" + "x" * 1_000_000 + "\nhint\n")
    refusals = [ln for ln in p.stdout.splitlines() if ln.startswith("refused: ")]
    assert refusals == [
        "refused: new takes one distance, a non-negative integer, got '\uff13'",
        "refused: a line longer than 4,096 characters",
    ]
    assert "1 of 6 moves optimal" in p.stdout  # the line after it still counts
    assert p.stderr.startswith("bitknights: no distance table") or p.stderr == ""
    p = run("play", "--quiet", SAMPLE.compact, stdin="hint\n")
    assert p.returncode == 0 and p.stderr == ""


@pytest.mark.parametrize("move", ["e5c4", "z9-c4", "c4-", "e5-c4-d3", "\uff45\uff15"])
def test_check_refuses_text_that_is_no_move_as_bad_input(move):
    err = one_line_error(run("check", SAMPLE.compact, "e5-c4", move))
    assert err.startswith(f"bitknights: error: move 2: {move!r} is not a move: "), err


def test_check_command(ball8):
    best = [str(m) for m in Game(SAMPLE, answers=DistanceService(engine="bidir")).solution()]
    p = run("check", SAMPLE.compact, *best, "--format", "json")
    assert p.returncode == 0
    rec = json.loads(p.stdout)
    assert rec["score"] == 1.0 and rec["optimum"] == ball8[SAMPLE.compact]
    assert rec["moves"] == best and rec["legal"] and rec["reaches_target"]
    p = run("check", "/".join(SAMPLE.rows()), " ".join(best[:3]))
    assert p.returncode == 1
    assert "reaches the target: no" in p.stdout and "score 0" in p.stdout
    p = run("check", SAMPLE.compact, best[1])
    assert p.returncode == 1 and f"move 1 ({best[1]}) is illegal" in p.stdout
    detour = [best[0], "-".join(reversed(best[0].split("-"))), *best]
    p = run("check", SAMPLE.compact, *detour)
    assert p.returncode == 0 and "length 9, optimum 7" in p.stdout and "score 0.7778" in p.stdout


@pytest.mark.slow
def test_random_json_records_replay(table_dir, ball8):
    p = run("random", "--distance", "9", "--count", "5", "--seed", "1", "--format", "json",
            "--cache-dir", str(table_dir))  # fmt: skip
    assert p.returncode == 0, p.stderr
    records = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(records) == 5
    for rec in records:
        assert rec["distance"] == 9 == len(rec["moves"])
        board = Board(rec["board"])
        # exactly 9 by the naive BFS: outside its ball of 8, next to a board at 8
        assert board.compact not in ball8
        assert 8 in {ball8.get(c.compact) for _, c in board.children()}
        for m in rec["moves"]:
            board = board.play(m)
        assert board == TARGET
        r = check(rec["board"], rec["moves"], cache_dir=table_dir)
        assert r.score == 1.0
