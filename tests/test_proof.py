"""Proved tables (issue 26): no answer before a whole-file proof, remembered per file."""

from __future__ import annotations

import os
import shutil
import zlib
from pathlib import Path

import numpy as np
import pytest

import bitknights as bk
import helpers
from bitknights import TARGET, Board, cache
from bitknights.coords import rank
from bitknights.squares import KNIGHT_TARGETS
from bitknights.table import compact, store, verify
from helpers import Ran, batch_file, copy_table, forge, forge_compact, forge_patterns, run


def _r(board: Board) -> int:
    return rank(board.black, board.blank)


def _neighbours(board: Board) -> list[Board]:
    return [board.play(n) for n in KNIGHT_TARGETS[board.blank]]


@pytest.fixture(scope="module")
def genuine(table_dir) -> np.ndarray:
    """The genuine payload (the session's table, built and so proved)."""
    return store.load(TARGET, table_dir).payload


def _boards_at(payload: np.ndarray, d: int, count: int = 400) -> list[Board]:
    return [store.unrank(int(r), 12) for r in np.flatnonzero(payload == d)[:count]]


def raised(payload: np.ndarray, d: int = 24) -> tuple[Board, dict[int, int]]:
    """A board at ``d`` to ``d + 2``, its one nearer neighbour to ``d + 1``."""
    for b in _boards_at(payload, d):
        nearer = [n for n in _neighbours(b) if payload[_r(n)] == d - 1]
        if len(nearer) == 1:
            return b, {_r(b): d + 2, _r(nearer[0]): d + 1}
    raise AssertionError("no such board")


def lowered(payload: np.ndarray, d: int = 24) -> tuple[Board, dict[int, int]]:
    """A board at ``d`` to ``d - 2``, farther neighbours to ``d - 1``, one nearer to ``d - 3``."""
    b = _boards_at(payload, d)[0]
    edits = {_r(b): d - 2}
    nbrs = _neighbours(b)
    edits.update({_r(n): d - 1 for n in nbrs if payload[_r(n)] == d + 1})
    edits[_r(next(n for n in nbrs if payload[_r(n)] == d - 1))] = d - 3
    return b, edits


def next_raised(payload: np.ndarray, d: int = 15) -> tuple[Board, dict[int, int]]:
    """One of several optimal next boards of a board at ``d`` raised to ``d + 1``."""
    for b in _boards_at(payload, d):
        nearer = [n for n in _neighbours(b) if payload[_r(n)] == d - 1]
        if len(nearer) >= 2:
            return b, {_r(nearer[0]): d + 1}
    raise AssertionError("no such board")


SHAPES = {"raised": raised, "lowered": lowered, "next-raised": next_raised}


@pytest.fixture(
    scope="module",
    params=[pytest.param(n, marks=[] if n == "lowered" else [pytest.mark.slow]) for n in SHAPES],
)
def forged(request, genuine, table_dir, tmp_path_factory):
    """``(cache_dir, board, true distance)``: a copy of the table forged in one shape."""
    board, edits = SHAPES[request.param](genuine)
    cache_dir = tmp_path_factory.mktemp(request.param) / "cache"
    forge(copy_table(table_dir, cache_dir), edits)
    return cache_dir, board, int(genuine[_r(board)])


# -- the proof and its record ---------------------------------------------------------------


def test_a_forged_table_is_refused_with_one_line_naming_the_file_and_the_fix(forged):
    cache_dir, _, _ = forged
    with pytest.raises(store.TableError) as e:
        store.load(TARGET, cache_dir)
    message = str(e.value)
    assert "\n" not in message
    assert str(store.table_path(TARGET, cache_dir)) in message
    assert "is not exact" in message and "bitknights table build" in message


def test_a_refusal_is_remembered_so_the_next_load_refuses_without_proving(forged, monkeypatch):
    cache_dir, _, _ = forged
    with pytest.raises(store.TableError):
        store.load(TARGET, cache_dir)  # proved (or refused from the record) here
    monkeypatch.delattr(verify, "first_inconsistency")  # proving again would fail
    with pytest.raises(store.TableError, match="is not exact"):
        store.load(TARGET, cache_dir)


def test_a_record_names_one_identity_and_any_change_to_the_file_breaks_it(tmp_path):
    path = tmp_path / "file"
    path.write_bytes(b"contents")

    def verdict():
        return cache.proof(path, os.stat(path), "tag")

    assert verdict() is None
    cache.record_proof(path, os.stat(path), "tag", "file")
    assert verdict() == cache.EXACT
    assert cache.proof(path, os.stat(path), "other tag") is None
    cache.record_proof(path, os.stat(path), "tag", "file", "board:7")
    assert verdict() == "board:7"
    cache.record_proof(path, os.stat(path), "tag", "file")
    os.utime(path, ns=(1, 1))  # even a write that puts the old times back changes ctime
    assert verdict() is None
    cache.record_proof(path, os.stat(path), "tag", "file")
    path.chmod(0o600)
    assert verdict() is None
    other = tmp_path / "other"
    shutil.copy2(path, other)  # same contents and times, another inode
    shutil.copyfile(f"{path}.proof", f"{other}.proof")
    assert cache.proof(other, os.stat(other), "tag") is None


@pytest.mark.slow
def test_a_copied_table_is_proved_once_then_remembered_until_it_changes(table_dir, tmp_path,
                                                                        monkeypatch):  # fmt: skip
    path = copy_table(table_dir, tmp_path / "cache")
    proofs = []
    real = verify.first_inconsistency
    monkeypatch.setattr(verify, "first_inconsistency",
                        lambda *a, **kw: proofs.append(1) or real(*a, **kw))  # fmt: skip
    store.load(TARGET, path.parent)
    assert len(proofs) == 1
    assert Path(f"{path}.proof").read_text().endswith(" exact\n")
    # a new process reads the record; a write or a chmod (the change time moves): proved again
    changes = [lambda: None, lambda: os.utime(path), lambda: path.chmod(0o600)]
    for times, change in enumerate(changes, 1):
        change()
        store._loaded.clear()
        store.load(TARGET, path.parent)
        assert len(proofs) == times


@pytest.mark.slow
def test_a_proof_record_for_another_file_proves_nothing(table_dir, tmp_path, monkeypatch):
    """A record copied beside a forged file names another identity: the file is proved."""
    genuine_path = copy_table(table_dir, tmp_path / "a")
    store.load(TARGET, genuine_path.parent)
    forged_path = copy_table(table_dir, tmp_path / "b")
    board = _boards_at(store.load(TARGET, genuine_path.parent).payload, 20, 1)[0]
    forge(forged_path, _r(board), 22)
    shutil.copyfile(f"{genuine_path}.proof", f"{forged_path}.proof")
    with pytest.raises(store.TableError, match="is not exact"):
        store.load(TARGET, forged_path.parent)


def test_the_build_records_its_proof(table_dir):
    path = store.table_path(TARGET, table_dir)
    assert cache.proof(path, os.stat(path), store.load(TARGET, table_dir).tag) == cache.EXACT


@pytest.mark.slow
def test_forged_layer_counts_are_refused_by_the_proof(table_dir, tmp_path):
    """The header's counts say what ``stats`` and ``random`` print: they are proved too."""
    path = copy_table(table_dir, tmp_path / "cache")
    a, b = store.load(TARGET, table_dir).layers[20:22]  # moved between them: the sum still fits
    helpers.rewrite_header(path, 16 + store._FIELDS.size + 8 * 20, "<QQ", a + 5, b - 5)
    with pytest.raises(store.TableError, match="layer counts do not match"):
        store.load(TARGET, path.parent)


# -- every surface: the true answer or one refusal --------------------------------------------


def test_the_python_api_gives_the_true_answer_or_refuses(forged):
    cache_dir, board, true = forged
    assert bk.solve(board, max_depth=None, cache_dir=cache_dir).steps == true
    [s] = bk.solve_many([board], max_depth=None, cache_dir=cache_dir)
    assert s.steps == true
    s.verify()
    checked = bk.check(board, [str(m) for m in s.moves], cache_dir=cache_dir)
    assert checked.reaches_target and checked.optimum == true and checked.optimal
    game = bk.Game(board, cache_dir=cache_dir)
    assert game.distance == true
    for h in game.hints():
        assert h.distance == true + (1 if not h.optimal else -1)
    for call in (bk.table.distance, bk.table.optimal_path, bk.table.hints,
                 bk.table.count_solutions):  # fmt: skip
        with pytest.raises(store.TableError, match="is not exact"):
            call(board, cache_dir=cache_dir)
    with pytest.raises(store.TableError, match="is not exact"):
        bk.table.distances([board], cache_dir=cache_dir)


def test_optimal_solutions_are_all_there_with_a_forged_next_board(genuine, table_dir, tmp_path,
                                                                  classic_compact):  # fmt: skip
    """Shape 3: the sequences through the raised next board used to vanish."""
    board, edits = next_raised(genuine)
    cache_dir = tmp_path / "cache"
    forge(copy_table(table_dir, cache_dir), edits)
    helpers.write_compact(classic_compact, cache_dir)  # as the first count leaves it
    want = list(bk.optimal_solutions(board, cache_dir=table_dir))
    assert len(want) >= 2
    got = list(bk.optimal_solutions(board, cache_dir=cache_dir))  # by search, said once
    assert got == want
    # counted from the compact table while the forged table is refused
    [counted] = bk.solve_many([board], count_solutions=True, cache_dir=cache_dir)
    assert counted.optimal_solutions == len(want)


def _answered_or_refused(r: Ran, check_answer) -> None:
    """Exit 0 with the true answer, or exit 2 with one error line; never a traceback."""
    assert "Traceback" not in r.stderr, r.stderr
    if r.returncode == 2:
        assert "is not exact" in helpers.one_line_error(r), r.args
        return
    assert r.returncode == 0, (r.args, r.returncode, r.stdout, r.stderr)
    assert "is not exact" in r.stderr, (r.args, r.stderr)
    assert check_answer(r.stdout), (r.args, r.stdout)


@pytest.mark.slow
def test_every_command_gives_the_true_answer_or_one_refusal_line(forged, tmp_path):
    cache_dir, board, true = forged
    b = board.compact
    best = bk.solve(board, max_depth=None, cache_dir=cache_dir)
    moves = [str(m) for m in best.moves]
    batch = batch_file(tmp_path / "batch.txt", [board] * 65)
    lines = lambda n: lambda out: out.split()[:n] == [str(true)] * n  # noqa: E731
    cases = [
        (["solve", "--exact", b], None, lines(1)),
        (["solve", "--exact", batch], None, lines(65)),
        (["solve", "--exact", "--path", b], None, lambda out: out.startswith(f"{true}")),
        (["solve", "--exact", "--format", "json", b], None,
         lambda out: f'"steps": {true}' in out or f'"steps":{true}' in out),
        (["solve", "--engine", "table", "--exact", b], None, None),
        (["solve", "--exact", "--count-solutions", b], None,
         lambda out: out.startswith(f"{true} (")),  # counted from the compact table
        (["hint", b], None, lambda out: f"distance {true}" in out or str(true) in out),
        (["hint", "--count-solutions", b], None, lambda out: f"distance {true}" in out),
        (["check", b, *moves], None, lambda out: f"optimum {true}" in out and "score 1" in out),
        (["play", b], "hint\nquit\n", lambda out: f"distance {true}" in out),
        (["solutions", "--limit", "2", b], None, lambda out: len(out.splitlines()) == 2),
        (["random", "--distance", "20", "--count", "2"], None,
         lambda out: out.splitlines()[0] == "2"),  # drawn from the compact table
        (["stats"], None, None),
    ]  # fmt: skip
    for args, feed, check_answer in cases:
        r = run(args, cache_dir, feed or "")
        if check_answer is None:  # needs the table itself: refused
            assert r.returncode == 2, (args, r.stdout, r.stderr)
        _answered_or_refused(r, check_answer)
    for command in ("verify", "info"):
        r = run(["table", command], cache_dir)
        assert r.returncode == 1 and "is not exact" in r.stdout, (command, r.stdout, r.stderr)


# -- the compact table ------------------------------------------------------------------------


def detour(payload: np.ndarray, d: int = 33) -> tuple[Board, dict[int, int]]:
    """A board at ``d`` whose code says ``d - 1`` (mod 3): its walk answers ``d + 2``."""
    b = _boards_at(payload, d, 1)[0]
    return b, {_r(b): (d - 1) % 3}


@pytest.mark.slow
def test_a_compact_detour_is_caught_by_the_proof_and_the_file_rebuilt(genuine, tmp_path, capfd):
    cache_dir = tmp_path / "cache"
    built = compact.build(TARGET, cache_dir)
    path = Path(built.path)
    board, codes = detour(genuine)
    forge_compact(path, TARGET, codes, layers=int(genuine[genuine != 255].max()) + 3)
    from bitknights.engines import compact as engine

    engine._TABLES.clear()
    table = compact.load(TARGET, cache_dir)
    assert table.walk(board.black, board.blank)[0] == int(genuine[_r(board)])
    assert "is not exact" in capfd.readouterr().err
    tag = f"{zlib.crc32(path.read_bytes()[: cache.header_size(path.read_bytes())]):08x}"
    assert cache.proof(path, os.stat(path), tag) == cache.EXACT  # the fresh build replaced it


@pytest.mark.slow
def test_a_genuine_compact_copy_is_proved_and_kept(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    compact.build(TARGET, a)  # (it makes its directory)
    b.mkdir()
    src, dst = compact.path_of(TARGET, a), compact.path_of(TARGET, b)
    shutil.copyfile(src, dst)
    inode = os.stat(dst).st_ino
    compact.load(TARGET, b)
    assert os.stat(dst).st_ino == inode  # compared, not replaced
    assert Path(f"{dst}.proof").read_text().endswith(" exact\n")


# -- the pattern databases ----------------------------------------------------------------------


@pytest.mark.slow
def test_unproved_pattern_databases_are_rebuilt_not_used(tmp_path, monkeypatch, capfd):
    """A forged file can only cost a rebuild: it is never read for a bound."""
    from bitknights.engines import pdb

    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))
    pdb._TABLES.clear()
    white, black = pdb.pattern_tables(TARGET.key, tmp_path)  # built and recorded
    path = Path(pdb._cache_path(TARGET, tmp_path))
    assert pdb.cached_pattern_tables(TARGET.key, tmp_path) is not None
    pdb._TABLES.clear()
    forged = (np.where(white >= 2, white + 2, white).astype(np.uint8), black)
    forge_patterns(path, forged)
    pdb._TABLES.clear()
    assert pdb.cached_pattern_tables(TARGET.key, tmp_path) is None
    again = pdb.pattern_tables(TARGET.key, tmp_path)
    assert all(np.array_equal(x, y) for x, y in zip(again, (white, black)))
    assert "were not exact" in capfd.readouterr().err
    pdb._TABLES.clear()
    assert pdb.cached_pattern_tables(TARGET.key, tmp_path) is not None
    pdb._TABLES.clear()
