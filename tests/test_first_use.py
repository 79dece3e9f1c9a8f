"""Issue 11's newcomer traps: standard input on a terminal, a batch without its count line,
a board argument, counting solutions with the classic output, one vocabulary."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys

import pytest

import terminal
from bitknights import TARGET, Board, InputError, cli, read_batch
from bitknights.batch import BatchReader
from bitknights.cli.common import OPTIMAL_MARK
from bitknights.table import load_table
from helpers import SAMPLE, played, run, run_bitknights, target_file

B1 = "10110\n01*11\n10111\n01001\n00000\n"
B2 = "01011\n110*1\n01110\n01010\n00100\n"
SLASHED = "10110/01*11/10111/01001/00000"


# -- standard input on a terminal -----------------------------------------------------


def test_solve_on_a_terminal_says_it_reads_standard_input():
    """Standard input and standard error a terminal, no FILE: a notice at once, before any
    input; then the boards typed and one Ctrl-D give the answers."""
    streams = {"stdin": "pty", "stdout": subprocess.PIPE}
    with terminal._child([*terminal.CLI, "solve"], terminal.COLUMNS, **streams) as (proc, master):
        shown = terminal.read_until(master, b"Ctrl-D", seconds=60)
        assert b"reading boards from standard input" in shown and b"number of boards T" in shown
        os.write(master, SAMPLE.read_bytes() + b"\x04")
        out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0 and out == b"7\n-1\n"


def test_no_notice_when_piped_or_quiet():
    r = run(["solve", "--engine", "ida"], stdin=SAMPLE.read_text())
    assert (r.returncode, r.stdout, r.stderr) == (0, "7\n-1\n", "")


# -- a batch without its count line ---------------------------------------------------


@pytest.mark.parametrize(
    "text, fix",
    [(B1, "add a first line '1'"), (B1 + B2, "add a first line '2'"),
     (B2[6:] + B1, "add a first line with the number of boards")],
)  # fmt: skip
def test_missing_count_line_is_reported_on_line_1(text, fix):
    with pytest.raises(InputError) as e:
        read_batch(text)
    assert e.value.line == 1 and "looks like a board row" in str(e.value)
    assert str(e.value).endswith(fix) or fix in str(e.value)
    # the same error for any block size the reader is given
    for size in range(1, 40):
        with pytest.raises(InputError) as again:
            list(BatchReader(io.BytesIO(text.encode()), block_size=size).key_lists())
        assert str(again.value) == str(e.value), size
    r = run(["solve"], stdin=text)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == f"bitknights: error: {e.value}\n"


def test_a_real_count_that_looks_like_a_row_still_reads():
    text = "10\n" + B1 * 10
    assert len(read_batch(text)) == 10
    with pytest.raises(InputError, match="line 7: unexpected content after the 1 board:"):
        read_batch("1\n" + B1 + B2)


# -- a board on the command line ------------------------------------------------------


@pytest.mark.parametrize("board", [SLASHED, SLASHED.replace("/", "")])
def test_solve_takes_a_board_argument(board):
    r = run(["solve", "--engine", "ida", board])
    assert (r.returncode, r.stdout, r.stderr) == (0, "7\n", "")
    r = run(["solve", "--engine", "ida", "--format", "json", "--path", board])
    record = json.loads(r.stdout)
    assert record["board"] == Board(SLASHED).compact and record["steps"] == 7
    assert played(SLASHED, record["moves"]) == TARGET


TYPOS = {  # a board with a typo: standard input gets the same problem
    "10110/01*11/10111/01001/00002": "character 29 is '2' (cells are 0, 1, *)",
    "10110/01*11/1O111/01001/00000": "character 14 is 'O' (cells are 0, 1, *)",
    "10110 01*11 10111 01001 00000": "character 6 is ' ' (rows are joined by '/')",
    "10110-01*11-10111-01001-00000": "character 6 is '-' (rows are joined by '/')",
    "1011001*1110111010010000\uff10": "character 25 is '\uff10' (cells are 0, 1, *)",
}
SHAPES = "expected 5 rows or 25 characters from '0', '1', '*', got"
MISSHAPEN = {
    "1011001*1110111010010000": f"{SHAPES} 24: 11 white knights, 12 black, 1 blank",
    "1011001*111011101001000000": f"{SHAPES} 26: 13 white knights, 12 black, 1 blank",
    "1011001111101110100100000": "a board needs exactly one blank '*', found 0 (12 white "
    "knights, 13 black, 0 blanks)",
    "10110/01*11/10111/01001/0000": "row 5: expected a row of five characters from '0', '1', "
    "'*', got '0000' (4 characters)",
    "10110/01*11/10111/01001": "a board has 5 rows, got 4",
}


@pytest.mark.parametrize("command", ["solve", "hint", "play", "check", "solutions"])
@pytest.mark.parametrize("board", [*TYPOS, *MISSHAPEN])
def test_a_bad_board_argument_says_what_it_found(board, command):
    """A bad board argument, not a missing file: every command's one line names the bad
    character, or how many characters and of each knight."""
    problem = TYPOS.get(board) or MISSHAPEN[board]
    want = f"bitknights: error: {board!r} is neither a file nor a board: {problem}\n"
    r = run([command, board, *(["e5"] if command == "check" else [])])
    assert (r.returncode, r.stdout, r.stderr) == (2, "", want)
    if command == "solve" and board in TYPOS:
        r = run(["solve"], stdin=board + "\n")
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr == f"bitknights: error: line 1: board 1: {problem}\n"


@pytest.mark.parametrize("board", [SLASHED, SLASHED.replace("/", "")])
def test_a_board_alone_on_standard_input_is_answered(board):
    """`echo BOARD | bitknights solve`: a board on one line cannot be a count; alone, it is
    a batch of one; with more after it, the error says what a batch is."""
    for stdin in (board + "\n", f"\n  {board}  \n\n", board):
        r = run(["solve"], stdin=stdin)
        assert (r.returncode, r.stdout, r.stderr) == (0, "7\n", "")
    r = run(["solve", "--format", "json"], stdin=board + "\n")
    assert json.loads(r.stdout)["steps"] == 7
    assert [b.compact for b in read_batch(board)] == [Board(SLASHED).compact]
    r = run(["solve"], stdin=f"{board}\n{board}\n")
    assert r.returncode == 2 and r.stdout == ""
    error = "bitknights: error: line 1: expected the number of boards T, got a board on one line"
    assert r.stderr.startswith(error)
    assert "a batch is T, then T boards of five rows" in r.stderr


def test_hint_takes_a_board_argument_and_a_batch(table_dir, tmp_path):
    classic = load_table(TARGET, cache_dir=table_dir)
    one = run(["hint", SLASHED], table_dir)
    assert one.returncode == 0, one.stderr
    f = target_file(tmp_path / "b1.txt", B1)
    assert run(["hint", str(f)], table_dir).stdout == one.stdout
    r = run(["hint", str(SAMPLE)], table_dir)
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.split("\n\n")
    assert len(blocks) == 2 and blocks[0] + "\n" == one.stdout
    for block, board in zip(blocks, read_batch(SAMPLE.read_text())):
        lines = block.splitlines()
        assert lines[:5] == board.rows()
        hints = classic.hints(board)
        assert len(lines) == 6 + len(hints)
        for line, h in zip(lines[6:], hints):
            assert line.startswith(OPTIMAL_MARK if h.optimal else " ")
            assert str(h.move) in line
    r = run(["hint", "--format", "json", str(SAMPLE)], table_dir)
    records = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["board"] for x in records] == [b.compact for b in read_batch(SAMPLE.read_text())]


# -- counting solutions with the classic output ----------------------------------------


def test_count_solutions_with_text_output(table_dir):
    classic = load_table(TARGET, cache_dir=table_dir)
    counts = [classic.count_solutions(b) for b in read_batch(SAMPLE.read_text())]
    r = run(["solve", "--exact", "--count-solutions", str(SAMPLE)], table_dir)
    assert r.returncode == 0, r.stderr

    def seqs(n):
        return f"{n:,} optimal move sequence{'' if n == 1 else 's'}"

    assert r.stdout == f"7 ({seqs(counts[0])})\n18 ({seqs(counts[1])})\n"
    r = run(["solve", "--count-solutions", str(SAMPLE)], table_dir)  # the classic limit
    assert r.stdout == f"7 ({seqs(counts[0])})\n-1\n"
    r = run(["solve", "--path", "--count-solutions", SLASHED], table_dir)
    assert r.stdout.startswith(f"7 ({seqs(counts[0])})\nmoves (7): ")
    r = run(["hint", "--count-solutions", SLASHED], table_dir)
    assert f"; {seqs(counts[0])}\n" in r.stdout


# -- one vocabulary ---------------------------------------------------------------------


def subparsers(parser: argparse.ArgumentParser, prefix=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*prefix, name), sub
                yield from subparsers(sub, (*prefix, name))


def test_the_command_list_matches_what_each_module_registers():
    """Each command's module (cli.COMMANDS) registers that command alone."""
    for name in cli.COMMANDS:
        sub = argparse.ArgumentParser().add_subparsers()
        cli.command_module(name).register(sub)
        assert tuple(sub.choices) == (name,), name


def test_every_option_has_help_and_formats_agree_and_every_command_has_quiet():
    formats = set()
    commands = list(subparsers(cli.build_parser()))
    assert len(commands) >= 6
    for name, parser in commands:
        if name != ("table",):  # (it only groups its actions)
            assert "--quiet" in parser._option_string_actions, name
        for action in parser._actions:
            if action.dest in ("help", "run") or isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, (name, action.dest)
            if action.dest == "format":
                formats.add(tuple(action.choices))
    assert formats == {("text", "json")}


def test_no_command_lists_the_commands(capsys):
    assert cli.main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    for name in ("solve", "table", "stats", "random", "hint"):
        assert f"\n    {name} " in err
    r = run([])
    assert r.returncode == 2 and "solve" in r.stderr and "hint" in r.stderr


def test_json_is_one_style(table_dir):
    outputs = [
        run(["solve", "--format", "json", str(SAMPLE)], table_dir).stdout,
        run(["hint", "--format", "json", SLASHED], table_dir).stdout,
        run(["stats", "--format", "json"], table_dir).stdout,
        run(["table", "info", "--format", "json"], table_dir).stdout,
        run(["random", "--distance", "5", "--count", "2", "--format", "json"], table_dir).stdout,
        run(["check", "--format", "json", SLASHED, "e5-c4"], table_dir).stdout,
    ]
    assert all(outputs)
    for text in outputs:
        for line in text.splitlines():
            assert json.dumps(json.loads(line), separators=(",", ":")) == line


def test_classic_is_another_name_for_text():
    a = run(["solve", "--format", "classic", "--engine", "ida", SLASHED])
    b = run(["solve", "--format", "text", "--engine", "ida", SLASHED])
    assert a.stdout == b.stdout == "7\n"


# -- usage and help ---------------------------------------------------------------------


def leaf_commands():
    """Every command that runs (``table`` only groups its actions)."""
    return [(name, p) for name, p in subparsers(cli.build_parser()) if name != ("table",)]


@pytest.mark.parametrize(
    "args, usage",
    [
        (["solve", "--bogus", str(SAMPLE)], "usage: bitknights solve "),
        (["table", "build", "--bogus"], "usage: bitknights table build "),
        (["play", "--distance", "3", "--bogus"], "usage: bitknights play "),
        (["hint", "--bogus", SLASHED], "usage: bitknights hint "),
    ],
)
def test_an_unknown_option_shows_its_commands_usage(args, usage):
    r = run(args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(usage), r.stderr
    command = " ".join(a for a in args if a.isalpha())
    assert r.stderr.endswith(f"bitknights {command}: error: unrecognized arguments: --bogus\n")


def test_a_group_without_its_action_lists_the_actions():
    r = run(["table"])
    assert r.returncode == 2 and r.stdout == ""
    for action in ("build", "info", "verify"):
        assert f"\n    {action} " in r.stderr, r.stderr
    missing = "bitknights table: error: the following arguments are required: ACTION\n"
    assert r.stderr.endswith(missing)


def test_help_fits_the_terminal_and_keeps_the_list_of_play_commands():
    """Every --help at 80 columns: no line wider (play's description is wrapped), and the
    list of play's commands stays a list."""
    for name, _ in [((), None), *leaf_commands(), (("table",), None)]:
        r = run_bitknights([*name, "--help"], env={"COLUMNS": "80"})
        assert r.returncode == 0 and r.stderr == "", name
        long = [line for line in r.stdout.splitlines() if len(line) > 80]
        # (argparse does not break a metavar list such as {auto,ida,bidir,mitm,table})
        assert all("{" in line for line in long), (name, long)
    r = run(["play", "--help"])
    assert "\n  undo, redo      take back the last move" in r.stdout


def test_unicode_digits_are_refused_in_options_as_in_the_input():
    for args in (["play", "--distance", "\uff13"], ["solve", "--max-depth", "\uff13", SLASHED],
                 ["solve", "--timeout", "\uff13", SLASHED]):  # fmt: skip
        r = run(args)
        assert r.returncode == 2 and r.stdout == "" and "'\uff13'" in r.stderr, args


def test_counts_are_worded_in_the_singular_when_one(table_dir):
    r = run(["random", "--distance", "0", "--count", "2"], table_dir)
    assert r.returncode == 2 and r.stderr == (
        "bitknights: error: asked for 2 boards at distance 0, but only 1 board lies at that distance\n"
    )
    r = run(["random", "--distance", "99", "--count", "1"], table_dir)
    assert r.stderr.endswith("for 1 board at distance 99, but only 0 boards lie at that distance\n")


# -- messages that answer the next question ---------------------------------------------

THIRTEEN = "10110/01*11/10111/01001/00001"  # a typo that makes 13 black knights
WHY_13 = "never reaches the target: it has 13 black knights, the target 12 (moves never change it)"


def test_an_unreachable_board_says_why_on_a_terminal_and_stdout_stays_classic(tmp_path):
    """Other knight counts: `-1` on standard output; on a terminal one line says why."""
    status, out, seen = terminal.stderr_on_terminal(["solve", THIRTEEN])
    assert (status, out) == (0, b"-1\n")
    assert terminal.kept(seen) == terminal.wrapped(f"bitknights: {THIRTEEN} {WHY_13}"), seen
    r = run(["solve", THIRTEEN])
    assert (r.returncode, r.stdout, r.stderr) == (0, "-1\n", "")
    # a batch: the first such board named, the others counted; every output format
    batch = f"3\n{THIRTEEN}\n{SLASHED}\n{THIRTEEN.replace('00001', '00011')}\n".replace("/", "\n")
    want = terminal.wrapped(f"bitknights: board 1 ({THIRTEEN}) {WHY_13}; as does 1 more board")
    for args, stdout in ((["solve"], b"-1\n7\n-1\n"), (["solve", "--path"], None),
                         (["solve", "--format", "json"], None)):  # fmt: skip
        status, out, seen = terminal.stderr_on_terminal(args, stdin=batch.encode())
        assert status == 0 and terminal.kept(seen) == want, (args, seen)
        assert stdout is None or out == stdout
    status, out, seen = terminal.stderr_on_terminal(["solve", "--quiet", THIRTEEN])
    assert (status, out, seen) == (0, b"-1\n", "")


def test_solutions_hint_and_check_of_an_unreachable_board_say_why(table_dir):
    """`solutions` with nothing to list: one line says why, even through a pipe, status 1,
    with or without the table; `hint` and `check` give the same reason."""
    want = f"bitknights: no solution: {THIRTEEN} {WHY_13}\n"
    for cache in (table_dir, None):
        for args in (["solutions", THIRTEEN], ["solutions", "--format", "json", THIRTEEN]):
            r = run(args, cache)
            assert (r.returncode, r.stdout, r.stderr) == (1, "", want), (cache, args)
    r = run(["hint", THIRTEEN])
    assert r.stdout.splitlines()[5] == WHY_13
    r = run(["check", THIRTEEN, "e5"])
    assert r.returncode == 1 and f"length 1; the board {WHY_13}\n" in r.stdout


FAR_24 = "01011/11010/10*11/00000/10011"  # 24 moves away: the bidirectional search's ball grows


@pytest.mark.parametrize("with_table", [True, False], ids=["table", "no-table"])
def test_advice_never_suggests_what_is_done(with_table, table_dir, tmp_path):
    """`--engine bidir` on a far board says on a terminal that it grows its target side,
    and advises `bitknights table build` only without a table (the notice from layer 14)."""
    cache = table_dir if with_table else tmp_path
    code = (
        "import sys; from bitknights.engines import _bidir_search as s; "
        "s.SLOW_GROWTH_DEPTH = 14; from bitknights import cli; sys.exit(cli.main(sys.argv[1:]))"
    )
    args = ["-c", code, "solve", "--engine", "bidir", "--exact", "--cache-dir", str(cache), FAR_24]
    status, seen = terminal.on_terminal(args, command=[sys.executable], timeout=120)
    screen = " ".join(terminal.kept(seen))
    assert status == 0 and "growing the bidirectional search's target side" in screen, seen
    assert ("table build" in screen) is not with_table, seen
