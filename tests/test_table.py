"""The exhaustive distance table: build, storage, queries, the table engine, ``auto``."""

import math
import os
import random
import re
import struct
import sys

import numpy as np
import pytest

import bitknights
import helpers
from bitknights import SAMPLE, TARGET, BitknightsError, Board
from bitknights.coords import state_count, unrank
from bitknights.engines import ENGINES, bidir, get_engine
from bitknights.engines.options import SolveOptions
from bitknights.squares import square_color
from bitknights.table import build, ensure, load_table, probe, store
from bitknights.table.compact import unrank as unrank_many
from helpers import SMALL, cache_env, choose_engine, copy_table, keys_of, random_board, solve_with

STATES = 25 * math.comb(24, 12)


# -- layers, facts ----------------------------------------------------------------------


def test_layers_cover_every_board(classic):
    layers = classic.layers
    assert sum(layers) == STATES == classic.state_count == state_count(12)
    assert classic.file.unreachable == 0
    assert layers[0] == 1 and all(n > 0 for n in layers)
    assert classic.max_distance == len(layers) - 1
    ex = classic.example()
    assert classic.distance(ex) == classic.max_distance
    assert (ex.black, ex.blank) == unrank(classic.file.example_rank, 12)
    assert repr(classic) == (f"<DistanceTable of 11111/01111/00*11/00001/00000: 67,603,900 "
                             f"boards, farthest 39 moves, {classic.file.path}>")  # fmt: skip


@pytest.mark.slow
def test_farthest_board_is_confirmed_by_search(classic):
    """The example board at the largest distance: a search engine agrees."""
    ex = classic.example()
    engine = "bidir" if "bidir" in ENGINES else "ida"
    s = get_engine(engine).solve(ex, TARGET, SolveOptions(max_depth=None))
    assert s.steps == classic.max_distance
    s.verify()


def test_ball11_exactly(classic, ball11):
    """Every board within 11 moves has the naive BFS distance, and no other board does."""
    texts = list(ball11)
    d = classic.distances(keys_of(texts))
    assert d.tolist() == [ball11[t] for t in texts]
    assert sum(classic.layers[:12]) == len(ball11)


def test_bipartite_parity_and_reachability(classic):
    rng = np.random.default_rng(7)
    ranks = rng.integers(0, STATES, size=300_000, dtype=np.int64)
    blacks, blanks = unrank_many(ranks, 12)
    d = classic.distances(blacks | blanks << 25)
    assert (d >= 0).all()
    colour = np.array([square_color(s) for s in range(25)])
    assert ((d & 1) == colour[blanks] ^ square_color(TARGET.blank)).all()


@pytest.mark.parametrize("engine", ["ida", "bidir"])
def test_agrees_with_search_on_random_boards(classic, engine):
    rnd = random.Random(4 if engine == "ida" else 8)
    if engine == "ida":  # IDA* takes up to seconds beyond 24 moves: boards it solves quickly
        walks = (helpers.random_walk(TARGET, rnd.randrange(10, 40), rnd) for _ in range(200))
        boards = [b for b in walks if classic.distance(b) <= 20][:20]
        boards += [b for b in map(random_board, [rnd] * 60) if classic.distance(b) <= 20][:8]
    else:
        boards = [random_board(rnd) for _ in range(8)]
    for b in boards:
        s = solve_with(engine, b, TARGET, None)
        assert classic.distance(b) == s.steps
        s.verify()


def test_small_target_against_naive(tmp_path, small_ball):
    """Any target with one blank works: a 2-black-knight target, checked in full."""
    t = build(SMALL, cache_dir=tmp_path, quiet=True)
    assert t.state_count == 25 * math.comb(24, 2)
    assert sum(t.layers) + t.file.unreachable == t.state_count
    assert sum(t.layers) == len(small_ball)
    assert t.max_distance == max(small_ball.values())
    d = t.distances(keys_of(list(small_ball)))
    assert d.tolist() == list(small_ball.values())
    for text in random.Random(1).sample(sorted(small_ball), 50):
        assert t.distance(Board(text)) == small_ball[text]
        assert len(t.path(Board(text))) == small_ball[text] + 1
    # the whole farthest layer, by sampling all of it
    far = [b for b, x in small_ball.items() if x == t.max_distance]
    got = t.random_boards(t.max_distance, len(far), seed=1)
    assert sorted(b.compact for b in got) == sorted(far)


def test_contradictions_in_the_table_are_reported(tmp_path, small_ball):
    """A board with no nearer neighbour, or 0 off the target, is refused before answering."""
    from bitknights.coords import rank

    t = build(SMALL, cache_dir=tmp_path, quiet=True)
    keys = keys_of(list(small_ball))
    assert t.distances(keys, limit=5).tolist() == [d if d <= 5 else -1 for d in small_ball.values()]
    one = next(Board(b) for b, d in small_ball.items() if d == 1)
    two = next(Board(b) for b, d in small_ball.items() if d == 2)
    path = store.table_path(SMALL, tmp_path)
    pristine = path.read_bytes()
    for board, value in ((SMALL, 7), (two, 0)):
        path.write_bytes(pristine)
        helpers.forge(path, rank(board.black, board.blank), value)
        with pytest.raises(BitknightsError, match="inconsistent|not exact"):
            load_table(SMALL, cache_dir=tmp_path).path(one if value == 7 else two)


# -- single-board queries ---------------------------------------------------------------


def test_paths_are_optimal_and_legal(classic):
    rnd = random.Random(5)
    for _ in range(50):
        b = random_board(rnd)
        p = classic.path(b)
        d = classic.distance(b)
        assert len(p) == d + 1 and p[0] == b and p[-1] == TARGET
        for a, c in zip(p, p[1:]):
            assert a.play(c.blank) == c
        assert [classic.distance(x) for x in p] == list(range(d, -1, -1))


def test_other_counts_never_arrive(classic):
    b = Board("11111/11111/11*11/00001/00000")
    assert classic.distance(b) is None
    assert classic.path(b) is None
    assert classic.count_solutions(b) == 0
    assert classic.distances([b]).tolist() == [-1]
    odd = np.array([-1, 25 << 25, (1 << 12) - 1 | 0 << 25])  # key -1; blank off; under a knight
    assert classic.distances(odd).tolist() == [-1, -1, -1]


def test_hints_agree_with_naive_and_ida(classic, ball11):
    rnd = random.Random(6)
    near = [t for t, d in ball11.items() if 1 <= d <= 10]
    for text in rnd.sample(near, 200):
        b = Board(text)
        hints = classic.hints(b)
        assert [h.move for h in hints] == b.moves()
        for h in hints:
            assert h.board == b.play(h.move)
            assert h.distance == ball11[h.board.compact]
            assert h.optimal == (h.distance == ball11[text] - 1)
        assert any(h.optimal for h in hints)
    for _ in range(5):
        b = helpers.random_walk(TARGET, 21, rnd)
        for h in classic.hints(b):
            assert h.distance == solve_with("ida", h.board, TARGET, None).steps
    assert not any(h.optimal for h in classic.hints(TARGET))


def test_count_solutions_against_brute_force(classic, ball11):
    paths = helpers.brute_counts(ball11)
    rnd = random.Random(9)
    sample = rnd.sample(sorted(ball11), 300) + [t for t, d in ball11.items() if d == 11][:50]
    for text in sample:
        assert classic.count_solutions(Board(text)) == paths(text), text
    assert classic.count_solutions(TARGET) == 1


def test_count_solutions_overflow_path(classic, ball11, monkeypatch):
    """With the int64 guard forced low, the Python-int path gives the same counts."""
    from bitknights.table import compact

    paths = helpers.brute_counts(ball11)
    far = [t for t, d in ball11.items() if d == 11][:20]
    monkeypatch.setattr(compact, "_INT64_SAFE", 1)
    for text in far:
        assert classic.count_solutions(Board(text)) == paths(text)
    ex = classic.example()
    n = classic.count_solutions(ex)
    monkeypatch.undo()
    assert classic.count_solutions(ex) == n > 0


# -- random boards ----------------------------------------------------------------------


@pytest.mark.parametrize("dist, count", [(20, 200), (26, 50), (1, 8), (9, 30)])
def test_random_boards(classic, ball11, dist, count):
    boards = classic.random_boards(dist, count, seed=3)
    assert len(boards) == count == len(set(boards))
    assert classic.distances(boards).tolist() == [dist] * count
    if dist <= 11:
        assert all(ball11[b.compact] == dist for b in boards)
    assert classic.random_boards(dist, count, seed=3) == boards
    assert classic.random_boards(dist, count, seed=4) != boards or count == classic.layers[dist]


def test_random_boards_whole_layer(classic, ball11):
    layer3 = sorted(t for t, d in ball11.items() if d == 3)
    got = classic.random_boards(3, len(layer3), seed=0)
    assert sorted(b.compact for b in got) == layer3


def test_random_boards_too_many(classic):
    with pytest.raises(BitknightsError, match="only 8 boards"):
        classic.random_boards(1, 9)
    with pytest.raises(BitknightsError):
        classic.random_boards(classic.max_distance + 1, 1)
    with pytest.raises(BitknightsError, match="seed"):
        classic.random_boards(5, 1, seed=-1)


# -- the table engine and auto ----------------------------------------------------------


def test_table_engine(table_dir, ball11):
    rnd = random.Random(10)
    with cache_env(table_dir):
        for text in rnd.sample(sorted(ball11), 100):
            b = Board(text)
            d = ball11[text]
            s = solve_with("table", b, TARGET, 15)
            assert s.steps == d and s.status == "solved" and s.engine == "table"
            assert s.nodes >= d + 1
            s.verify()
            if d > 0:
                over = solve_with("table", b, TARGET, d - 1)
                assert over.steps is None and over.status == "over_limit" and over.boards == []
        far = helpers.random_walk(TARGET, 40, rnd)
        s = solve_with("table", far, TARGET, None)
        assert s.steps == solve_with("ida", far, TARGET, None).steps
        s.verify()
        other = solve_with("table", Board("11111/11111/11*11/00001/00000"), TARGET, None)
        assert other.status == "unreachable" and other.steps is None
        keys = keys_of(rnd.sample(sorted(ball11), 500))
        want = [ball11[Board.from_key(int(k)).compact] for k in keys]
        many = helpers.steps_with("table", keys, TARGET, None)
        assert many.tolist() == want
        many = helpers.steps_with("table", keys, TARGET, 9, workers=1)
        assert many.tolist() == [x if x <= 9 else -1 for x in want]


def test_table_engine_never_builds(tmp_path):
    with cache_env(tmp_path), pytest.raises(store.TableError, match="table build"):
        get_engine("table").solve(TARGET, TARGET, SolveOptions())
    assert list(tmp_path.iterdir()) == []


def test_auto_policy(table_dir, tmp_path):
    search = "bidir" if "bidir" in ENGINES else "ida"
    numpy_depth = bidir.NUMPY_RADIUS + bidir.NUMPY_LAYERS
    with cache_env(tmp_path):
        assert choose_engine("auto", 15) == "ida"
        assert choose_engine("auto", None) == search
        assert choose_engine("auto", 15, counts_only=True) == "bidir"
        assert choose_engine("auto", numpy_depth, counts_only=True) == "bidir"
        assert choose_engine("auto", numpy_depth + 1, counts_only=True) == "ida"
        assert bitknights.solve("10110/01*11/10111/01001/00000").engine == "ida"
    with cache_env(table_dir):
        assert choose_engine("auto", 15) == "table"
        assert choose_engine("auto", None) == "table"
        assert choose_engine("auto", 15, SMALL) == "ida"  # no table for that target
        assert choose_engine("auto", 15, counts_only=True) == "table"
        assert choose_engine("ida", 15) == "ida"
        s = bitknights.solve("10110/01*11/10111/01001/00000")
        assert s.engine == "table" and s.steps == 7
        assert bitknights.solve("01011/110*1/01110/01010/00100").steps is None
        assert bitknights.solve("01011/110*1/01110/01010/00100", max_depth=None).steps == 18


def test_import_stays_numba_free(table_dir):
    code = (
        "import sys, bitknights, bitknights.table, bitknights.table.store\n"
        "from bitknights.service import service\n"
        "assert service().choose(15) == 'table'\n"
        "assert 'numba' not in sys.modules, 'numba imported'\n"
    )
    r = helpers.run_python(code, env={"BITKNIGHTS_CACHE_DIR": str(table_dir)})
    assert r.returncode == 0, r.stderr


# -- storage ----------------------------------------------------------------------------


def test_cache_dir_resolution(monkeypatch, tmp_path):
    monkeypatch.delenv(store.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert store.default_cache_dir() == tmp_path / "xdg" / "bitknights"
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "env"))
    assert store.default_cache_dir() == tmp_path / "env"
    assert store.table_path(TARGET, tmp_path / "x").parent == tmp_path / "x"
    assert store.table_path(TARGET).parent == tmp_path / "env"


@pytest.mark.parametrize(
    ("xdg", "home"),
    [(None, "/home/u"), ("/x/cache", "/home/u"), ("", "/home/u"), ("relative", "/home/u"),
     (None, "/"), (None, "/home/u/"), ("/x/cache/", None), (None, "relative"), (None, None),
     (None, ""), (" /x", "/home/u"), ("/x/cache ", "/home/u"), ("/x//c", "/home/u"), ("  ", "/u")],
)  # fmt: skip
def test_default_cache_dir_is_platformdirs(monkeypatch, xdg, home):
    """The cache directory is platformdirs'; on Linux the usual cases skip importing it."""
    import platformdirs

    from bitknights import cache

    monkeypatch.delenv(store.CACHE_ENV, raising=False)
    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    try:
        want = platformdirs.user_cache_dir("bitknights")
    except RuntimeError:  # no home directory platformdirs can find
        want = None
    fast = cache._xdg_cache_home(os.environ)
    if sys.platform.startswith("linux") and xdg in (None, "/x/cache") and home == "/home/u":
        assert fast is not None  # the usual cases take the fast path
    if fast is not None:
        assert fast == want
    if want is not None:
        assert cache.cache_directory() == want


def test_file_format(classic, table_dir):
    path = store.table_path(TARGET, table_dir)
    raw = path.read_bytes()
    assert raw[:8] == store.MAGIC
    file = store.load(TARGET, table_dir)
    assert file.layers == tuple(classic.layers)
    header = len(raw) - file.state_count
    assert file.state_count == STATES  # one byte per board
    assert struct.unpack_from("<I", raw, 8)[0] == store.FORMAT_VERSION == 5
    blocks = -(-STATES // 4096)  # a CRC-32 for each 4 KiB payload block
    assert header == 16 + 44 + 8 * len(classic.layers) + 4 * blocks + 4
    # no temp files left (other tests may add the compact table); the build's proof record
    names = sorted(p.name for p in table_dir.iterdir())
    assert not [n for n in names if n.startswith(".tmp-")], names
    assert [n for n in names if n.startswith(path.name)] == [path.name, f"{path.name}.proof"]


def _flip(offset):
    def corrupt(p):  # in place: the table is 67 MB
        with open(p, "r+b") as f:
            f.seek(offset, os.SEEK_SET if offset >= 0 else os.SEEK_END)
            at, byte = f.tell(), f.read(1)[0]
            f.seek(at)
            f.write(bytes([byte ^ 0x10]))

    return corrupt


CORRUPTIONS = {
    "truncated": (lambda p: os.truncate(p, p.stat().st_size - 1000), "truncated"),
    "empty": (lambda p: os.truncate(p, 0), "truncated"),
    "short header": (lambda p: os.truncate(p, 20), "truncated"),
    "too long": (lambda p: os.truncate(p, p.stat().st_size + 1), "too long"),
    "header bit flip": (_flip(60), "corrupt header"),
    "target field flip": (_flip(17), "corrupt header"),
    "magic": (_flip(0), "bad magic"),
    "wrong version": (lambda p: helpers.rewrite_header(p, 8, "<I", 99), "format version 99"),
    "older format": (
        lambda p: helpers.rewrite_header(p, 8, "<I", store.FORMAT_VERSION - 1),
        f"format version {store.FORMAT_VERSION - 1}",
    ),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_files_are_never_used(name, table_dir, tmp_path, capsys):
    corrupt, message = CORRUPTIONS[name]
    path = copy_table(table_dir, tmp_path)
    corrupt(path)
    with pytest.raises(store.TableError, match=message):
        store.load(TARGET, tmp_path)
    with pytest.raises(store.TableError, match="table build"):
        load_table(TARGET, cache_dir=tmp_path)
    capsys.readouterr()
    assert not store.available(TARGET, tmp_path)
    assert not store.available(TARGET, tmp_path)
    warned = capsys.readouterr().err.splitlines()  # `auto` says why it searches, once
    assert len(warned) == 1 and message in warned[0] and "table build" in warned[0]
    assert warned[0].endswith("answering by search instead")
    with cache_env(tmp_path):
        assert choose_engine("auto", 15) == "ida"
        with pytest.raises(store.TableError):
            get_engine("table").solve(TARGET, TARGET, SolveOptions())
    # answered by search, said once
    r = helpers.run_bitknights(["solve"], SAMPLE, cache_dir=tmp_path)
    assert r.returncode == 0 and r.stdout == "7\n-1\n"
    (line,) = r.stderr.splitlines()
    assert message in line and "table build" in line


@pytest.mark.parametrize("offset", [-5_000_000, -1, 0])
def test_a_flipped_payload_byte_is_reported_never_answered(offset, table_dir, tmp_path):
    """A flipped payload byte: an error from every lookup path, never an answer."""
    path = copy_table(table_dir, tmp_path)
    header = path.stat().st_size - STATES
    rank = offset % STATES
    _flip(header + rank)(path)
    board = store.unrank(rank, 12)
    far = store.unrank((rank + STATES // 2) % STATES, 12)
    store._loaded.clear()
    with pytest.raises(store.TableError, match="payload checksum mismatch"):
        store.load(TARGET, tmp_path)  # changed, so proved first: the proof reads it all
    # the same flip after the proof (bit rot: the file's identity unchanged)
    helpers.record_proof(tmp_path)
    store._loaded.clear()
    file = store.load(TARGET, tmp_path)
    with pytest.raises(store.TableError, match="payload checksum mismatch"):
        probe.distances(file, [board.key], 99)
    with pytest.raises(store.TableError, match="payload checksum mismatch"):
        probe.distances_array(file, np.array([board.key]), 99)
    assert probe.distances(file, [far.key], 99)[0] >= 0
    with pytest.raises(store.TableError, match="payload checksum mismatch"):
        file.verify()
    store._loaded.clear()
    with pytest.raises(store.TableError, match="payload checksum mismatch"):
        load_table(TARGET, cache_dir=tmp_path).distance(board)
    batch = "1\n" + str(board) + "\n"
    done = helpers.run_bitknights(["solve", "--cache-dir", tmp_path], batch)
    assert "payload checksum mismatch" in helpers.one_line_error(done)
    info = helpers.run_bitknights(["table", "info", "--cache-dir", tmp_path])
    assert info.returncode == 1 and "payload checksum mismatch" in info.stdout


REFUSED = {SMALL: "built for target 11111/01111/00", TARGET: "inconsistent"}


@pytest.mark.parametrize("target", REFUSED)
def test_a_foreign_or_stale_table_is_refused(table_dir, tmp_path, target):
    path = copy_table(table_dir, tmp_path, target)
    if target == TARGET:  # a stale state count
        helpers.rewrite_header(path, 32, "<Q", STATES + 1)
    with pytest.raises(store.TableError, match=REFUSED[target]):
        store.load(target, tmp_path)
    assert not store.available(target, tmp_path)


@pytest.fixture
def small_table(tmp_path):
    """``(path, bytes)`` of the table of :data:`SMALL`, built in ``tmp_path``."""
    build(SMALL, cache_dir=tmp_path, quiet=True)
    path = store.table_path(SMALL, tmp_path)
    return path, path.read_bytes()


def test_build_replaces_a_corrupt_file(tmp_path, small_table):
    path, good = small_table
    _flip(-3)(path)
    with pytest.raises(store.TableError):
        load_table(SMALL, cache_dir=tmp_path).file.verify()
    t = ensure(SMALL, cache_dir=tmp_path, quiet=True)  # ensure rebuilds what is invalid
    assert path.read_bytes() == good
    assert t.distance(SMALL) == 0
    path.write_bytes(b"junk")
    build(SMALL, cache_dir=tmp_path, quiet=True)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name, f"{path.name}.proof"]


def test_failed_write_leaves_old_file(tmp_path, small_table, monkeypatch):
    path, good = small_table

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(store.os, "replace", boom)
    with pytest.raises(BitknightsError, match=f"cannot write distance table {path}: disk full"):
        build(SMALL, cache_dir=tmp_path, quiet=True)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name, f"{path.name}.proof"]


FORMATS = {  # SHA-256 of the small target's files as every release since format 5 builds them
    ".bkt": "3de9cf4fd3d06e4c6f3279f68e3fb39ccf97f7f3eed77fa28b2c7da1456e9868",
    ".bk3": "132b056e6a18033e9410e6d5903aa2d11a5d725d1c449ddaacd917df1c9da0a0",
}


def test_both_encodings_build_the_files_earlier_releases_built(tmp_path):
    """Byte for byte: so a file an earlier release built loads, and this one's load there."""
    import hashlib

    from bitknights.table import compact

    build(SMALL, cache_dir=tmp_path, quiet=True)
    compact.build(SMALL, tmp_path)
    for kind, digest in zip((store.ByteTable, compact.CompactTable), FORMATS.values()):
        with open(kind.path_of(SMALL, tmp_path), "rb") as f:
            data = f.read()
        assert hashlib.sha256(data).hexdigest() == digest, kind
    store.forget()
    assert compact.load(SMALL, tmp_path).max_distance == store.load(SMALL, tmp_path).max_distance


def test_progress_lines(tmp_path, capsys):
    """The build's bar even off a terminal; asked for, the per-distance log; quiet: nothing."""
    from bitknights.table.builder import LOG_LEGEND, build_table

    build(SMALL, cache_dir=tmp_path, quiet=False)
    err = capsys.readouterr().err
    layers = load_table(SMALL, cache_dir=tmp_path).layers
    last = f"{sum(layers):,}/{sum(layers):,} boards, distance {len(layers)}"
    assert err.startswith("\rbuilding the distance table (under a second):") and last in err
    assert "distance  0:" not in err
    with bitknights.progress.feedback(False, log=True):
        build_table(SMALL, tmp_path)
    log = [line.split("\r")[-1] for line in capsys.readouterr().err.split("\n")][:-1]
    assert log[: len(LOG_LEGEND)] == ["bitknights: " + LOG_LEGEND[0], *LOG_LEGEND[1:]]
    hows = [re.search(r"\((.*), [0-9.]+ s\)$", line).group(1) for line in log if "  (" in line]
    assert len(hows) == len(layers) - 1 and set(hows) <= {"pushed from a list", "pushed", "pulled"}
    assert all(word in "".join(LOG_LEGEND) for word in ("pushed", "from a list", "pulled"))
    assert log[len(LOG_LEGEND)] == "distance  0:            1 board"
    assert "reach the target" in log[-1]
    build(SMALL, cache_dir=tmp_path, quiet=True)
    with bitknights.progress.feedback(True):
        build_table(SMALL, tmp_path)
    assert capsys.readouterr().err == ""


def test_module_functions(table_dir):
    from bitknights import table

    kw = {"cache_dir": table_dir}
    b = "10110/01*11/10111/01001/00000"
    assert table.distance(b, **kw) == 7
    assert table.layer_counts(**kw)[:4] == [1, 8, 14, 38]
    assert len(table.optimal_path(b, **kw)) == 8
    assert table.count_solutions(b, **kw) == 1
    assert sum(h.optimal for h in table.hints(b, **kw)) == 1
    assert table.distances([Board(b)], **kw).tolist() == [7]
    assert len(table.random_boards(12, 3, seed=1, **kw)) == 3


@pytest.mark.parametrize("count", [3000, pytest.param(200_000, marks=pytest.mark.slow)])
def test_numpy_lookup_matches_the_numba_lookup(classic, count):
    """Random boards, one with 13 black knights (never) and the target; with many, the
    layer counts account for every byte."""
    blacks, blanks = unrank_many(np.random.default_rng(count).integers(0, STATES, count), 12)
    odd = keys_of(["11111/01111/00*11/00001/00001", TARGET.compact])
    keys = np.concatenate([blacks | blanks << 25, odd])
    for limit in (0, 15, 25, 39):
        want = classic.distances(keys, limit)
        assert (probe.distances_array(classic.file, keys, limit) == want).all()
    d = probe.distances_array(classic.file, keys, 39)
    assert d[-1] == 0 and d[-2] == -1 and (d[:-2] > 0).all()
    if count > 3000:  # the slow case: the whole payload too
        assert np.bincount(classic.file.payload).tolist() == classic.layers


def test_solve_many_counts_solutions(classic, table_dir):
    boards = ["10110/01*11/10111/01001/00000", "01011/110*1/01110/01010/00100"]
    with cache_env(table_dir):
        sols = bitknights.solve_many(boards, max_depth=None, count_solutions=True)
        assert [s.engine for s in sols] == ["table", "table"]
        counts = [classic.count_solutions(Board(b)) for b in boards]
        assert [s.optimal_solutions for s in sols] == counts
        assert all(s.optimal_solutions >= 1 for s in sols)
        assert bitknights.solve(boards[0], engine="table").optimal_solutions is None
        assert "optimal_solutions" not in bitknights.solve(boards[0]).to_dict()
        with pytest.raises(ValueError, match="needs the table or compact engine"):
            bitknights.solve_many(boards, engine="ida", count_solutions=True)
