import random

import bitknights
import naive
from bitknights import TARGET, Board, solve
from helpers import by_distance, keys_of, random_board, random_walk, solve_with, steps_with


def test_every_board_within_8_moves(ball8):
    """IDA* equals the naive BFS on every board within 8 moves, and respects limits (a
    batch a distance: one board's searches under limits are test_engines')."""
    for text, d in ball8.items():
        s = solve_with("ida", Board(text), TARGET, 15)
        assert s.steps == d, text
        s.verify()
    for d, texts in by_distance(ball8).items():
        keys = keys_of(texts)
        assert steps_with("ida", keys, TARGET, d, workers=1).tolist() == [d] * len(keys)
        if d:
            assert (steps_with("ida", keys, TARGET, d - 1, workers=1) == -1).all()


def test_random_walks_bound_and_parity():
    rng = random.Random(3)
    for _ in range(150):
        length = rng.randrange(0, 26)
        b = random_walk(TARGET, length, rng)
        s = solve_with("ida", b, TARGET, None)
        assert s.steps is not None and s.steps <= length
        assert s.steps % 2 == length % 2
        s.verify()


def test_custom_targets():
    rng = random.Random(4)
    for k in range(60):
        target = random_board(rng, black=rng.choice([12, 12, 10, 14, 0, 24, 5]))
        length = rng.randrange(0, 14)
        start = random_walk(target, length, rng)
        s = solve(start, engine="ida", target=target, max_depth=None)
        assert s.steps is not None and s.steps <= length and s.steps % 2 == length % 2
        assert s.boards[-1] == target
        s.verify()
        if k < 10 and s.steps <= 8:  # exact by the naive BFS from this target
            assert s.steps == naive.bfs(target.compact, 8)[start.compact]


def test_solve_many_order_and_types():
    boards = bitknights.read_batch(bitknights.SAMPLE)
    out = bitknights.solve_many([b.compact for b in boards] + [TARGET], engine="ida")
    assert [s.steps for s in out] == [7, None, 0]
    assert all(isinstance(s.seconds, float) and s.nodes >= 1 for s in out)
    assert len(out[0].moves) == 7
