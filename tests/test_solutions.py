"""Every optimal solution (bitknights.optimal_solutions, `bitknights solutions`): replayed
and enumerated by the naive reference, the same from every source, forged tables refused."""

import json
import os
import re
import subprocess
from functools import partial

import numpy as np
import pytest

import bitknights.service as service_module
import naive
import terminal
from bitknights import TARGET, Board, api
from bitknights.coords import rank
from bitknights.table import build, load_table, solutions, store
from helpers import SMALL, by_distance, forge, replay, run, shell, target_file

GUEST = Board("00000/10000/11*00/11110/11111")  # the 7th Guest's board, colours swapped
optimal_solutions = partial(api.optimal_solutions, engine="table")  # the table's listing


def naive_solutions(start: str, dist: dict[str, int]) -> list[list[tuple[int, int]]]:
    """Every optimal path from ``start`` (naive), as (from, to) moves, in the documented order."""
    out = []

    def walk(board, moves):
        d = dist[board]
        if d == 0:
            out.append(list(moves))
            return
        for n in naive.neighbours(board):
            if dist.get(n) == d - 1:
                walk(n, [*moves, (n.index("*"), board.index("*"))])

    walk(start, [])
    return sorted(out, key=lambda path: [f for f, _ in path])


def pairs(sequence) -> list[tuple[int, int]]:
    return [(m.from_square, m.to_square) for m in sequence]


def naive_agrees(got, start: str, ball: dict[str, int], target: str = naive.TARGET) -> int:
    """Each sequence of ``got`` replayed from ``start`` (as long as the ball says) and the
    list exactly the naive reference's; returns how many."""
    assert all(replay(start, seq, target) == ball[start] for seq in got)
    assert [pairs(s) for s in got] == naive_solutions(start, ball)
    return len(got)


def test_every_sequence_against_the_naive_enumeration(table_dir, ball11):
    """Boards up to 11 moves away: the naive reference's list, as long as count_solutions."""
    rng = np.random.default_rng(3)
    layers = by_distance(ball11)
    table = load_table(cache_dir=table_dir)
    for d in range(12):
        for i in rng.choice(len(layers[d]), size=min(6, len(layers[d])), replace=False):
            start = layers[d][i]
            got = list(optimal_solutions(start, cache_dir=table_dir))
            assert naive_agrees(got, start, ball11) == table.count_solutions(Board(start))


def test_the_7th_guest_board(classic, table_dir):
    """1200 distinct sequences of 36 moves, each replayed, in order, the count the table's."""
    got = list(optimal_solutions(GUEST, cache_dir=table_dir))
    assert len(got) == classic.count_solutions(GUEST) == 1200
    assert len({tuple(s) for s in got}) == len(got)
    for seq in got:
        assert replay(GUEST.compact, seq) == 36 == classic.distance(GUEST)
    froms = [[m.from_square for m in s] for s in got]
    assert froms == sorted(froms)


def test_limit_and_special_boards(table_dir):
    every = list(optimal_solutions(GUEST, cache_dir=table_dir))
    assert list(optimal_solutions(GUEST, limit=5, cache_dir=table_dir)) == every[:5]
    assert list(api.optimal_solutions(GUEST, cache_dir=table_dir)) == every
    assert list(api.optimal_solutions(GUEST, limit=7, cache_dir=table_dir)) == every[:7]
    assert list(optimal_solutions(GUEST, limit=0, cache_dir=table_dir)) == []
    assert list(optimal_solutions(GUEST, limit=10**6, cache_dir=table_dir)) == every
    assert list(optimal_solutions(TARGET, cache_dir=table_dir)) == [()]  # no moves at all
    thirteen = Board("11111/01111/00*11/00001/00001")  # 13 black knights: never
    assert list(optimal_solutions(thirteen, cache_dir=table_dir)) == []
    with pytest.raises(TypeError):
        list(optimal_solutions(GUEST, limit="3", cache_dir=table_dir))
    with pytest.raises(ValueError):
        list(optimal_solutions(GUEST, limit=-1, cache_dir=table_dir))


def test_the_table_module_never_searches(tmp_path, table_dir):
    """The table's listing needs the table; table.optimal_solutions is a deprecated alias."""
    with pytest.raises(store.TableError, match="no distance table"):
        list(optimal_solutions(GUEST, cache_dir=tmp_path))
    from bitknights import table

    with pytest.warns(DeprecationWarning, match="engine='table'"):
        old = list(table.optimal_solutions(GUEST, limit=9, cache_dir=table_dir))
    assert old == list(optimal_solutions(GUEST, limit=9, cache_dir=table_dir))
    with pytest.warns(DeprecationWarning), pytest.raises(store.TableError):
        list(table.optimal_solutions(GUEST, cache_dir=tmp_path))


def test_search_lists_the_same_sequences_without_a_table(
    classic, classic_patterns, tmp_path, capfd, monkeypatch
):
    """No table: IDA* lists the same sequences as the table, saying so once; near boards
    under the nearest-square bound, far ones under the pattern databases (the run's)."""
    from bitknights.engines import ida, pdb
    from bitknights.engines.common import nearest_bounds

    rng = np.random.default_rng(8)
    boards = [
        b
        for d in (1, 6, 13, 18, 22, 26)
        for b in classic.random_boards(d, 3, int(rng.integers(99)))
    ]
    bounds = nearest_bounds([b.key for b in boards], TARGET)
    boards = [b for b, h in zip(boards, bounds) if h < service_module.FAR_BOUND]  # not far
    deep = [h >= ida.PDB_FROM_BOUND for h in bounds if h < service_module.FAR_BOUND]
    assert 0 < sum(deep) < len(boards)
    service_module._SAID_SEARCHING.clear()
    for b, far in zip(boards, deep):
        monkeypatch.setattr(pdb, "_TABLES", {TARGET.key: classic_patterns} if far else {})
        source, chunks = service_module.service(TARGET, cache_dir=tmp_path).solution_paths(b)
        assert source == "search"
        found = np.concatenate(list(chunks))
        want = np.concatenate(list(solutions.table_paths(b, classic)))
        assert found.shape == want.shape and (found == want).all(), b
        assert len(found) == classic.count_solutions(b)
    err = capfd.readouterr().err
    assert err.count("no distance table for this target: optimal solutions by search") == 1


def test_search_on_another_target(tmp_path, small_ball):
    """The search serves any target (and the small target's table agrees)."""
    far = [b for b, d in small_ball.items() if d >= 14][:8]
    for b in far:
        got = list(api.optimal_solutions(b, target=SMALL, cache_dir=tmp_path))
        naive_agrees(got, b, small_ball, SMALL.compact)


def test_small_target_against_naive(tmp_path, small_ball):
    table = build(SMALL, cache_dir=tmp_path, quiet=True)
    rng = np.random.default_rng(4)
    boards = list(small_ball)
    for i in rng.choice(len(boards), size=60, replace=False):
        b = boards[i]
        got = list(optimal_solutions(b, target=SMALL, cache_dir=tmp_path))
        assert naive_agrees(got, b, small_ball, SMALL.compact) == table.count_solutions(Board(b))


def forged_cases(small_ball, start):
    """(rank, value) pairs to forge: every board on the start's optimal paths and their
    neighbours, each set nearer, farther, 0 and 255."""
    boards = set()
    frontier = {start}
    while frontier:
        boards |= frontier
        nxt = set()
        for b in frontier:
            for n in naive.neighbours(b):
                boards.add(n)
                if small_ball[n] == small_ball[b] - 1:
                    nxt.add(n)
        frontier = nxt
    for b in sorted(boards):
        board = Board(b)
        r = rank(board.black, board.blank, 2)
        d = small_ball[b]
        for value in {d - 2, d - 1, d + 1, d + 2, 0, 255} - {d}:
            if 0 <= value <= 255:
                yield r, value


@pytest.mark.parametrize("sample", [150, pytest.param(None, marks=pytest.mark.slow)])
def test_forged_tables_are_refused_before_they_list_anything(tmp_path, small_ball, sample):
    """One payload byte forged, for every board a far board's listing could read (``None``)
    or ``sample`` of them: refused before it lists anything."""
    build(SMALL, cache_dir=tmp_path, quiet=True)
    path = store.table_path(SMALL, tmp_path)
    pristine = path.read_bytes()
    start = max(small_ball, key=lambda b: (small_ball[b], b))  # a far board
    truth = naive_solutions(start, small_ball)
    assert len(truth) > 50
    cases = list(forged_cases(small_ball, start))
    if sample is not None:
        rng = np.random.default_rng(11)
        cases = [cases[i] for i in rng.choice(len(cases), size=sample, replace=False)]
    errors = 0
    for r, value in cases:
        path.write_bytes(pristine)
        forge(path, r, value)
        got = []
        try:
            table = load_table(SMALL, cache_dir=tmp_path)  # refused at open, or listed
            for chunk in solutions.table_paths(Board(start), table):
                got += list(solutions.moves_of_chunks([chunk]))
        except store.TableError as e:
            assert "inconsistent" in str(e) or "not exact" in str(e)
            errors += 1
            assert got == [], (r, value)
        else:
            assert [pairs(seq) for seq in got] == truth, (r, value)
    assert errors == len(cases), (len(cases), errors)
    path.write_bytes(pristine)
    store._loaded.clear()


def replay_paths(board: Board, paths: np.ndarray, block: int = 1 << 18) -> None:
    """Every path (rows of the blank's squares) replayed on bitboards, ending on the
    target; all distinct, in the documented order."""
    from bitknights.squares import KNIGHT_MASKS

    for lo in range(0, len(paths), block):
        rows = paths[lo : lo + block].astype(np.int64)
        assert (rows[:, 0] == board.blank).all() and (rows[:, -1] == TARGET.blank).all()
        black = np.full(len(rows), board.black, dtype=np.int64)
        for t in range(rows.shape[1] - 1):
            b, n = rows[:, t], rows[:, t + 1]
            assert ((KNIGHT_MASKS[b] >> n) & 1).all()  # a knight's jump into the blank
            black ^= ((black >> n) & 1) * ((1 << n) | (1 << b))
        assert (black == TARGET.black).all()
    if paths.shape[1] > 1:  # in order, so distinct when each row follows the one before
        later = paths[1:] != paths[:-1]
        first = later.argmax(axis=1)
        assert later.any(axis=1).all()
        at = np.arange(len(first))
        assert (paths[1:][at, first] > paths[:-1][at, first]).all()


def paths_of_text(text: bytes, board: Board, moves: int) -> np.ndarray:
    """The paths of the command line's text lines for ``board``, ``moves`` moves each."""
    if moves == 0:
        assert set(text) <= {10}
        return np.full((len(text), 1), board.blank, dtype=np.int64)
    cells = np.frombuffer(text, dtype=np.uint8).reshape(-1, moves, 6)
    assert (cells[:, :-1, 5] == ord(" ")).all() and (cells[:, -1, 5] == ord("\n")).all()
    assert (cells[:, :, 2] == ord("-")).all()

    def square(file, rank):
        named = (file >= ord("a")) & (file <= ord("e")) & (rank >= ord("1")) & (rank <= ord("5"))
        assert named.all()
        return (file.astype(np.int64) - ord("a")) + 5 * (ord("5") - rank.astype(np.int64))

    froms, tos = square(cells[:, :, 0], cells[:, :, 1]), square(cells[:, :, 3], cells[:, :, 4])
    assert (tos[:, 1:] == froms[:, :-1]).all()  # each move into the blank the last one left
    assert (tos[:, 0] == board.blank).all()
    return np.concatenate([tos[:, :1], froms], axis=1)


def test_the_compact_table_lists_what_the_distance_table_lists(classic, classic_compact):
    """Boards 0 to 36 moves away: the same paths from the compact table as from the
    distance table, each replayed, as many as the counts say."""
    boards = [b for d in (1, 5, 12, 19, 26, 30, 33, 36)
              for b in classic.random_boards(d, 2, seed=d)] + [GUEST, TARGET]  # fmt: skip
    for b in boards:
        listing = solutions.table_paths(b, classic_compact)
        got = np.concatenate(list(listing))
        want = np.concatenate(list(solutions.table_paths(b, classic)))
        assert got.shape == want.shape and (got == want).all(), b
        replay_paths(b, got)
        assert len(got) == listing.count == classic_compact.count_solutions(b)
        assert len(got) == classic.count_solutions(b)
        for limit in (1, 2, 300):
            some = np.concatenate(list(solutions.table_paths(b, classic_compact, limit=limit)))
            assert (some == got[:limit]).all()
    thirteen = Board("11111/01111/00*11/00001/00001")  # never reaches the target
    assert list(solutions.table_paths(thirteen, classic_compact)) == []


def test_lines_are_the_moves_of_the_paths(classic, classic_compact):
    """The lines a listing writes are those of its paths one by one, text and JSON."""
    from bitknights.table.solutions import LineWriter

    for b in [GUEST, *classic.random_boards(31, 2, seed=5), TARGET]:
        paths = np.concatenate(list(solutions.table_paths(b, classic)))
        for json_lines in (False, True):
            one = LineWriter(json=json_lines)
            want = b"".join(one.line(p) for p in paths.tolist())
            for table in (classic, classic_compact):
                got = b"".join(bytes(x) for x, _, _ in
                               LineWriter(json=json_lines).write_all(solutions.table_paths(b, table)))  # fmt: skip
                assert got == want
            chunked = LineWriter(json=json_lines)
            assert b"".join(bytes(chunked.lines(c)) for c in np.array_split(paths, 3)) == want
        text = b"".join(LineWriter().line(p) for p in paths.tolist())
        assert (paths_of_text(text, b, paths.shape[1] - 1) == paths).all()
        sequences = solutions.moves_of_chunks([paths])
        for i, (line, moves) in enumerate(zip(want.decode().splitlines(), sequences)):
            assert json.loads(line) == {"moves": [str(m) for m in moves], "index": i}


def test_solution_paths_come_from_the_compact_table_without_the_distance_table(tmp_path):
    """No distance table: the compact table's sequences when it is there, else search's."""
    service_module._SAID_SEARCHING.clear()
    board = Board("10000/00000/00000/00000/0001*")
    source, chunks = service_module.service(SMALL, cache_dir=tmp_path).solution_paths(board)
    searched = np.concatenate(list(chunks))
    assert source == "search" and not list(tmp_path.iterdir())
    service_module._services.clear()
    answers = service_module.DistanceService(SMALL, engine="compact", cache_dir=tmp_path)
    source, chunks = answers.solution_paths(board)
    assert source == "compact" and list(tmp_path.glob("*.bk3"))  # built once
    assert (np.concatenate(list(chunks)) == searched).all()
    source, chunks = service_module.service(SMALL, cache_dir=tmp_path).solution_paths(board)
    assert source == "compact" and (np.concatenate(list(chunks)) == searched).all()
    assert answers.count_solutions(board) == len(searched)


def test_search_says_why_when_no_table_can_be_built(tmp_path, monkeypatch, capfd):
    """IDA* lists them when the compact table cannot be built, and says why once."""
    from bitknights.engines import compact as compact_engine

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(compact_engine, "compact_table", no_memory)
    monkeypatch.setattr(compact_engine, "_TABLES", {})
    service_module._SAID_SEARCHING.clear()
    board = Board("10000/00000/00000/00000/0001*")
    answers = service_module.DistanceService(SMALL, engine="compact", cache_dir=tmp_path)
    source, chunks = answers.solution_paths(board)
    assert source == "search" and len(np.concatenate(list(chunks))) > 0
    err = capfd.readouterr().err
    assert err.count("by search (IDA*: the compact table cannot be built here: out of memory") == 1
    service_module._SAID_SEARCHING.clear()
    source, _ = service_module.DistanceService(SMALL, engine="ida").solution_paths(board)
    assert source == "search" and "the ida engine was asked for" in capfd.readouterr().err


@pytest.mark.slow
def test_a_distance_39_board_streams_every_sequence(classic, classic_compact):
    """468,648 sequences of 39 moves, the same from either table, replayed, all counted."""
    board = Board("0*00010000010101110111111")
    paths = np.concatenate(list(solutions.table_paths(board, classic))).astype(np.int64)
    assert paths.shape == (classic.count_solutions(board), 40) == (468_648, 40)
    replay_paths(board, paths)
    assert (np.concatenate(list(solutions.table_paths(board, classic_compact))) == paths).all()
    for moves in solutions.moves_of_chunks([paths[::9973]]):
        replay(board.compact, moves)


def test_cli_text_and_json(table_dir, classic):
    r = run(["solutions", "00000/10000/11*00/11110/11111"], table_dir)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    lines = r.stdout.splitlines()
    want = [" ".join(map(str, s)) for s in optimal_solutions(GUEST, cache_dir=table_dir)]
    assert lines == want and len(lines) == 1200
    r = run(["solutions", GUEST.compact, "--format", "json", "--limit", "3"], table_dir)
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["index"] for x in records] == [0, 1, 2]
    assert [" ".join(x["moves"]) for x in records] == want[:3]
    r = run(["solutions", TARGET.compact, "--format", "json"], table_dir)
    assert r.stdout == '{"moves":[],"index":0}\n'


def test_cli_board_file_target_and_errors(table_dir, tmp_path):
    f = target_file(tmp_path / "b.txt", "10110/01*11/10111/01001/00000")
    r = run(["solutions", str(f)], table_dir)
    assert r.stdout == "e5-c4 d3-e5 b2-d3 c4-b2 a3-c4 b5-a3 c3-b5\n"
    t = target_file(tmp_path / "t.txt", SMALL)
    r = run(["solutions", "10000/00000/00000/00000/0001*", "--target", str(t)], tmp_path / "none")
    assert r.returncode == 0 and r.stdout
    assert "optimal solutions by search" in r.stderr
    r = run(["solutions", "1011/01*11"], table_dir)
    assert r.returncode == 2 and r.stderr.startswith("bitknights: error: ") and r.stdout == ""
    r = run(["solutions", GUEST.compact, "--limit", "-2"], table_dir)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_cli_head_ends_quietly(table_dir):
    """`| head` closes the pipe early: no traceback, status 0."""
    p = shell(f"$BK solutions {GUEST.compact} | head -2", env={store.CACHE_ENV: str(table_dir)})
    assert p.stdout.count("\n") == 2 and p.stderr == ""


@pytest.mark.parametrize("limit", [None, 4])
def test_cli_on_a_terminal_streams_and_sums_up(table_dir, limit):
    """On a terminal: the lines, a progress line (gone at the end), one summary line."""
    want = [" ".join(map(str, s)) for s in optimal_solutions(GUEST, cache_dir=table_dir)][:limit]
    args = ["solutions", GUEST.compact, *(["--limit", str(limit)] if limit else [])]
    env = {store.CACHE_ENV: str(table_dir), "BITKNIGHTS_PROGRESS_DELAY": "0"}
    status, seen = terminal.on_terminal(args, env=env)
    assert status == 0
    shown = terminal.kept(seen)
    lines = terminal.wrapped("\n".join(want))
    assert shown[: len(lines)] == lines
    summary = seen.rstrip().split("\r")[-1]  # the last line, after the progress line's
    assert shown[len(lines) :] == terminal.wrapped(summary)
    assert summary.startswith(f"bitknights: {len(want):,} optimal move sequences of 36 moves")
    assert ("(--limit 4; there may be more)" in summary) == bool(limit)
    assert "from the distance table" in summary
    assert re.search(rf"\b\d+/{len(want)} \[", seen), seen  # the progress line, at any count


@pytest.mark.slow
def test_cli_lists_the_farthest_board_from_either_table(table_dir, classic, tmp_path):
    """The board with the most optimal sequences (1,944,639): either table, all replayed."""
    board = Board("1000010100110000111*11011")
    argv = [*terminal.CLI, "solutions", board.compact]
    full = subprocess.run(argv, capture_output=True, timeout=600,
                          env={**os.environ, store.CACHE_ENV: str(table_dir)})  # fmt: skip
    assert full.returncode == 0 and full.stderr == b""
    paths = paths_of_text(full.stdout, board, 39)
    assert len(paths) == classic.count_solutions(board) == 1_944_639
    replay_paths(board, paths)
    del paths
    compact = subprocess.run(argv, capture_output=True, timeout=600,
                             env={**os.environ, store.CACHE_ENV: str(tmp_path)})  # fmt: skip
    assert compact.returncode == 0 and compact.stdout == full.stdout
    assert list(tmp_path.glob("*.bk3")) and not list(tmp_path.glob("*.bkt"))
