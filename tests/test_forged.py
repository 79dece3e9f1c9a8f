"""Files forged with every checksum recomputed (issue 19): never a wrong answer."""

from __future__ import annotations

import functools
import os
import random
import shutil
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

import bitknights as bk
import helpers
from bitknights import TARGET, Board, cache
from bitknights.coords import rank
from bitknights.engines import mitm, pdb
from bitknights.engines.ida import IdaEngine
from bitknights.errors import BitknightsError
from bitknights.table import store
from helpers import SAMPLE, batch_file, copy_table, forge_patterns, keys_of, run, steps_with
from terminal import BOUND, CLI

SAMPLE_ANSWER = "7\n-1\n"
# targets with the classic counts: the blank elsewhere, or in the centre (layers fit too)
OTHER = Board("10111/01010/0*111/00011/01000")
OTHER_CENTRE = Board("10111/01110/00*10/00011/01001")


def one_warning(r) -> str:
    """The one warning line that says a refused file."""
    lines = r.stderr.splitlines()
    warnings = [line for line in lines if line.startswith("bitknights: warning: ")]
    assert len(warnings) == 1 and "error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    if "play" not in r.args:
        assert lines == warnings, r.stderr
    return warnings[0]


def exact(boards: list[Board], target: Board = TARGET, limit: int | None = None) -> list[int]:
    """The answers by IDA* with the nearest-square bound (no file involved)."""
    return steps_with(IdaEngine(use_pdb=False), keys_of(boards), target, limit, workers=1).tolist()


def walks(target: Board, count: int, seed: int, lengths=(4, 14)) -> list[Board]:
    """``count`` random walks from ``target``, of lengths drawn from ``range(*lengths)``."""
    rng = random.Random(seed)
    return [helpers.random_walk(target, rng.randrange(*lengths), rng) for _ in range(count)]


# -- the distance table ---------------------------------------------------------------------


@pytest.mark.parametrize("target", [OTHER, OTHER_CENTRE], ids=["other", "other-centre"])
def test_a_table_built_for_another_target_is_refused_everywhere(target, table_dir, cache_dir,
                                                                  tmp_path):  # fmt: skip
    """Issue 19, point 3: the classic table with another target in its header."""
    path = copy_table(table_dir, cache_dir, target)
    helpers.rewrite_header(path, 16, "<Q", target.key)
    with path.open("rb") as f:  # the header alone passes
        fields = store.ByteTable.parse_header(path, f.read(store._HEAD_MAX), target)[0]
    assert fields["target"] == target
    with pytest.raises(store.TableError, match="inconsistent.*table build"):
        store.load(target, cache_dir)
    assert not store.available(target, cache_dir)
    tfile = helpers.target_file(tmp_path / "target.txt", target)
    for command in ("info", "verify"):
        r = run(["table", command, "--target", tfile], cache_dir)
        assert r.returncode == 1 and "Traceback" not in r.stderr, (r.stdout, r.stderr)
        assert f"{path} is inconsistent" in r.stdout and "bitknights table build" in r.stdout
    boards = walks(target, 100, 1)  # above the batch size whose answers get their paths walked
    batch = batch_file(tmp_path / "boards.txt", boards)
    r = run(["solve", "--engine", "table", "--target", tfile, batch], cache_dir)
    err = helpers.one_line_error(r)
    assert str(path) in err and "bitknights table build" in err
    r = run(["solve", "--exact", "--target", tfile, batch], cache_dir)  # auto: by search
    assert r.returncode == 0 and r.stdout.split() == list(map(str, exact(boards, target)))
    assert str(path) in one_warning(r) and "answering by search" in r.stderr
    with pytest.raises(BitknightsError, match="inconsistent"):
        bk.solve(boards[0], engine="table", target=target, max_depth=None, cache_dir=cache_dir)
    got = bk.solve_many(boards[:5], target=target, max_depth=None, cache_dir=cache_dir)
    assert [s.steps for s in got] == exact(boards[:5], target)


AT_OPEN = {  # forgeries the check at open refuses, and what the refusal says
    "target": "puts its own target",
    "neighbour": "puts a neighbour of its target",
    "example": "its farthest example",
    "layer counts": "layer counts do not fit",  # (their sum still right)
    "shifted": "",  # every byte moved one rank on
}


def _forge_at_open(name, path, file):
    """Make the copy at ``path`` of the genuine ``file`` forgery ``name``, checksums right."""
    if name == "shifted":
        payload = np.roll(file.payload, 1)
        store.ByteTable.write(
            path, TARGET, payload, list(file.layers), file.unreachable, file.example_rank
        )
    elif name == "layer counts":
        a, b = file.layers[1:3]
        helpers.rewrite_header(path, 16 + store._FIELDS.size + 8, "<QQ", a - 1, b + 1)
    else:  # one board's byte raised by 2
        board = {"target": TARGET, "neighbour": TARGET.play("b5"), "example": file.example()}
        r = rank(board[name].black, board[name].blank)
        helpers.forge(path, r, file[r] + 2)


@pytest.mark.parametrize("name", AT_OPEN)
def test_a_forgery_is_refused_at_open_everywhere(name, table_dir, cache_dir):
    path = copy_table(table_dir, cache_dir)
    _forge_at_open(name, path, store.load(TARGET, table_dir))  # (the copy's, proved already)
    store._loaded.clear()
    with pytest.raises(store.TableError, match=f"{path} is inconsistent .*{AT_OPEN[name]}"):
        store.load(TARGET, cache_dir)
    assert run(["table", "info"], cache_dir).returncode == 1
    err = helpers.one_line_error(run(["solve", "--engine", "table", SAMPLE], cache_dir))
    assert "inconsistent" in err and "bitknights table build" in err
    r = run(["solve", "--exact", SAMPLE], cache_dir)  # answered by search
    assert (r.returncode, r.stdout) == (0, "7\n18\n") and str(path) in one_warning(r)
    with helpers.cache_env(cache_dir):
        assert bk.solve(bk.read_batch(SAMPLE.read_text())[1], max_depth=None).steps == 18


def test_the_genuine_table_passes_the_check_at_open(table_dir):
    store._loaded.clear()
    file = store.load(TARGET, table_dir)
    file._check_open()  # what load ran
    assert file.layers[:2] == (1, 8) and file[file.example_rank] == file.max_distance == 39


# -- the pattern databases ------------------------------------------------------------------


@pytest.fixture
def patterns(classic_patterns, cache_dir, monkeypatch):
    """``(white, black, path)``: the genuine tables (a rebuild returns them), fresh cache."""
    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(cache_dir))
    white, black = classic_patterns
    built = {TARGET.white: white, TARGET.black: black}
    monkeypatch.setattr(pdb, "build_tables", lambda mask, k, *a, **kw: built[mask].copy())
    monkeypatch.setattr(pdb, "_TABLES", {})
    monkeypatch.setattr(pdb, "_REFUSED", set())
    return white, black, Path(pdb._cache_path(TARGET))


SEVEN = "10110/01*11/10111/01001/00000"  # the sample's first board, 7 moves away


def _plus(table: np.ndarray, at_least: int, by: int) -> np.ndarray:
    return np.where(table >= at_least, table + by, table).astype(np.uint8)


def _set(table: np.ndarray, mask: int, value=None, plus=0) -> np.ndarray:
    t = table.copy()
    t[pdb.pattern_rank(mask)] = t[pdb.pattern_rank(mask)] + plus if value is None else value
    return t


ELEVEN = helpers.random_walk(TARGET, 11, random.Random(0))


FORGED_PATTERNS = {
    # issue 19, point 4: every non-zero entry +3 made IDA* answer 9 for a 7-move board
    "shifted past the goal": lambda w, b: (_plus(w, 1, 3), _plus(b, 1, 3)),
    # what no check at load could see: a run-time check used to stop the search
    "overstated by 2": lambda w, b: (_plus(w, 2, 2), _plus(b, 2, 2)),
    # a board whose two patterns are 0 would be "the target" to IDA*
    "zero away from the target": lambda w, b: (_set(w, ELEVEN.white, 0), _set(b, ELEVEN.black, 0)),
    # the start's own entry raised past the limit: -1 before any move
    "the start's entry +30": lambda w, b: (_set(w, Board(SEVEN).white, plus=30), b),
}


@pytest.mark.parametrize("shape", FORGED_PATTERNS)
def test_forged_pattern_databases_are_never_used_only_rebuilt(shape, patterns, capfd):
    """A forged pattern file is never read, only rebuilt, said once."""
    white, black, path = patterns
    forge_patterns(path, FORGED_PATTERNS[shape](white, black))
    assert pdb.cached_pattern_tables(TARGET.key) is None  # never read for a bound
    cache._warned.clear()
    for board in (Board(SEVEN), ELEVEN):
        s = helpers.solve_with(IdaEngine(use_pdb=True), board, TARGET, None)
        assert s.steps == exact([board])[0]
        s.verify()
    assert "were not exact" in capfd.readouterr().err
    pdb._TABLES.clear()
    rebuilt = pdb.cached_pattern_tables(TARGET.key)
    assert rebuilt is not None and all(map(np.array_equal, rebuilt, (white, black)))


def test_forged_pattern_databases_answer_right_on_the_command_line(patterns, tmp_path):
    white, black, path = patterns
    forge_patterns(path, FORGED_PATTERNS["overstated by 2"](white, black))
    boards = walks(TARGET, 8, 3, (6, 20))
    batch = batch_file(tmp_path / "boards.txt", boards)
    r = run(["solve", "--engine", "ida", "--max-depth", "25", batch])
    assert r.returncode == 0 and r.stdout.split() == list(map(str, exact(boards, TARGET, 25)))
    assert "Traceback" not in r.stderr


def test_the_run_time_check_passes_the_genuine_tables(patterns):
    boards = walks(TARGET, 30, 6, (0, 40))
    got = steps_with(IdaEngine(use_pdb=True), keys_of(boards), TARGET, None)
    assert got.tolist() == exact(boards)


UNTRUSTED = {  # how a file is untrusted: the change that makes it so, the fix said
    "mode 0666": (lambda p: p.chmod(0o666), "fix it with `chmod go-w {}`"),
    "directory 0777": (lambda p: p.parent.chmod(0o777), "fix it with `chmod go-w {}`"),
    "another owner": (
        lambda p: os.chown(p, 4242, -1),
        "owned by another user (uid 4242); remove it",
    ),
}


@pytest.fixture(params=[h for h in UNTRUSTED if h != "another owner" or os.geteuid() == 0])
def untrusted(request, patterns):
    """A forged pattern file refused as untrusted: ``(path, how, named)``; never written."""
    how = request.param
    white, black, path = patterns
    forge_patterns(path, FORGED_PATTERNS["overstated by 2"](white, black))
    UNTRUSTED[how][0](path)
    before = path.read_bytes(), path.stat()
    try:
        yield path, how, path.parent if how == "directory 0777" else path
        after = path.read_bytes(), path.stat()
        assert after[0] == before[0] and after[1].st_ino == before[1].st_ino  # never written
        assert [p.name for p in path.parent.iterdir()] == [path.name]
    finally:
        path.parent.chmod(0o755)


def _refused_once(r, untrusted) -> None:
    path, how, named = untrusted
    line = one_warning(r)
    assert line.startswith(f"bitknights: warning: not trusting pattern database: {named}")
    assert UNTRUSTED[how][1].format(named) in line
    assert line.endswith("building the pattern databases in memory instead")


SURFACES = {
    "solve --max-depth 25": lambda: (["solve", "--max-depth", "25", SAMPLE], None, "7\n18\n"),
    "check": lambda: (
        ["check", SEVEN, *map(str, bk.solve(SEVEN).moves)],
        None,
        "length 7, optimum 7\nscore 1 (optimal)",
    ),
    "play hint": lambda: (["play", SEVEN], "hint\nquit\n", "distance 7\n1 of 6 moves optimal"),
}


@pytest.mark.parametrize("surface", [*SURFACES, "api"])
def test_untrusted_pattern_databases_are_refused_said_once_and_done_without(surface,
                                                                            untrusted):  # fmt: skip
    """Issue 19, point 9: untrusted pattern files are refused, said once, done without."""
    env = {"BITKNIGHTS_CACHE_DIR": str(untrusted[0].parent)}
    if surface == "api":
        code = f"import bitknights as bk; print(bk.solve({SEVEN!r}, engine='ida', max_depth=None).steps)"
        r = helpers.run_python(code, env=env)
        assert (r.returncode, r.stdout) == (0, "7\n"), r.stderr
    else:
        args, feed, want = SURFACES[surface]()
        r = run(args, None, feed or "", env=env)
        assert r.returncode == 0 and want in r.stdout, (r.stdout, r.stderr)
        assert r.stdout == want or surface != "solve --max-depth 25"
    if surface in ("check", "play hint"):  # answered by bidirectional search: no file read
        assert "bitknights: warning: " not in r.stderr and "error" not in r.stderr, r.stderr
        return
    _refused_once(r, untrusted)


@pytest.mark.slow
def test_untrusted_pattern_databases_are_built_in_memory_when_needed(untrusted):
    deep = Path(__file__).parent / "data" / "distance32.txt"
    r = run(["solve", "--max-depth", "40", "--engine", "ida", deep], untrusted[0].parent)
    assert (r.returncode, r.stdout) == (0, "32\n32\n32\n"), r.stderr
    _refused_once(r, untrusted)


def test_an_untrusted_pattern_file_is_said_once_per_process(patterns, capsys):
    white, black, path = patterns
    pdb._save(path, TARGET, (white, black))
    path.chmod(0o666)
    cache._warned.clear()
    for _ in range(3):
        assert pdb.cached_pattern_tables(TARGET.key) is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and f"fix it with `chmod go-w {path}`" in err[0]
    assert err[0].endswith("building the pattern databases in memory instead")


# -- the shipped ball -----------------------------------------------------------------------


SHIPPED = Path(mitm.BALL_FILE)


@functools.cache
def _built() -> mitm.Ball:
    """The ball as computed (once per session: each build takes a while)."""
    return mitm.build_ball(TARGET)


def _ball_file(key=None, radius=None, keys=None, dists=None) -> bytes:
    """The shipped ball with fields or payload changed, every checksum recomputed."""
    good = mitm.read_ball(SHIPPED.read_bytes())
    keys = list(good.keys) if keys is None else keys
    dists = bytes(good.dists) if dists is None else dists
    payload = cache.u32_bytes(keys) + dists
    fields = mitm._FIELDS.pack(TARGET.key if key is None else key,
                               mitm.RADIUS if radius is None else radius, len(keys),
                               zlib.crc32(payload))  # fmt: skip
    return cache.pack_header(mitm.MAGIC, mitm.VERSION, fields) + payload


def _swapped_keys() -> list[int]:
    keys = list(_built().keys)
    keys[100], keys[101] = keys[101], keys[100]
    return keys


def _dropped() -> bytes:
    ball = _built()
    return _ball_file(keys=list(ball.keys)[:-1], dists=bytes(ball.dists)[:-1])


def _old_format() -> bytes:
    """The file as the previous format wrote it: its header outside every checksum."""
    ball = _built()
    payload = ball.payload()
    head = (b"BKNBALL1" + TARGET.key.to_bytes(8, "little") + (11).to_bytes(4, "little")
            + len(ball).to_bytes(4, "little") + zlib.crc32(payload).to_bytes(4, "little"))  # fmt: skip
    return head + zlib.compress(payload, 9)


FORGED_BALLS = {
    "radius 11": (lambda: _ball_file(radius=11), "radius 11, not 10"),
    "radius 9": (lambda: _ball_file(radius=9), "radius 9, not 10"),
    "other target": (lambda: _ball_file(key=OTHER.key), "not the classic target's"),
    "other target, centre": (lambda: _ball_file(key=OTHER_CENTRE.key), "not the classic target's"),
    "distances shifted": (
        lambda: _ball_file(dists=bytes(d and d + 1 for d in _built().dists)),
        "inconsistent",
    ),
    "keys out of order": (lambda: _ball_file(keys=_swapped_keys()), "not in order"),
    "a board dropped": (_dropped, "boards at each distance"),
    "previous format": (_old_format, "bad magic"),
}


def test_the_shipped_ball_is_covered_by_checksums_byte_for_byte():
    """Issue 19, point 5: one flipped bit anywhere, header included, and the ball is refused."""
    data = SHIPPED.read_bytes()
    assert mitm.read_ball(data).radius == mitm.RADIUS
    rng = random.Random(7)
    for pos in [*range(64), *rng.sample(range(64, len(data)), 200), len(data) - 1]:
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.randrange(8)
        with pytest.raises(mitm.BallError):
            mitm.read_ball(bytes(bad))
    for cut in (0, 10, 40, len(data) - 1):
        with pytest.raises(mitm.BallError):
            mitm.read_ball(data[:cut])
    with pytest.raises(mitm.BallError, match="header says"):
        mitm.read_ball(data + b"\0")


@pytest.mark.parametrize("name", list(FORGED_BALLS))
def test_a_forged_ball_is_refused_said_once_and_computed(name, tmp_path, monkeypatch, capsys):
    make, message = FORGED_BALLS[name]
    data = make()
    with pytest.raises(mitm.BallError, match=message):
        mitm.read_ball(data)
    path = tmp_path / "classic-ball.bkb"
    path.write_bytes(data)
    monkeypatch.setattr(mitm, "BALL_FILE", str(path))
    monkeypatch.setattr(mitm, "_balls", {})
    cache._warned.clear()
    built = _built()
    ball = mitm.ball_of(TARGET)
    assert ball.keys == built.keys and ball.dists == built.dists
    assert mitm.ball_of(TARGET) is ball
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"bitknights: warning: shipped ball {path} ") and message in line
    assert line.endswith("reinstall bitknights to restore it; computing it instead")
    boards, want = _far_boards()  # answered right through the API, the file read afresh
    monkeypatch.setattr(mitm, "_balls", {})
    assert steps_with("mitm", [b.key for b in boards], TARGET) == want
    got = bk.solve_many(boards, engine="mitm")
    assert [-1 if s.steps is None else s.steps for s in got] == want


@functools.cache
def _far_boards() -> tuple[list[Board], list[int]]:
    """Boards 12 to 15 moves away (and some farther): what a wrong radius got wrong."""
    boards = walks(TARGET, 60, 8, (12, 40))
    want = exact(boards, TARGET, 15)
    keep = [i for i, d in enumerate(want) if d >= 12 or d < 0][:10]
    assert {want[i] for i in keep} & {12, 13, 14, 15}
    return [boards[i] for i in keep], [want[i] for i in keep]


@pytest.fixture
def installed(tmp_path):
    """``(ball path, solve(*args))`` in a copy of the package, ``bitknights solve`` run on it."""
    site = tmp_path / "site"
    shutil.copytree(Path(bk.__file__).parent, site / "bitknights",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    env = {**os.environ, "BITKNIGHTS_CACHE_DIR": str(tmp_path / "empty-cache"), "PYTHONPATH": str(site)}  # fmt: skip

    def solve(*args) -> subprocess.CompletedProcess:
        return subprocess.run([*CLI, "solve", *map(str, args)], capture_output=True, text=True,
                              timeout=BOUND, env=env, cwd=site)  # fmt: skip

    return site / "bitknights" / "data" / "classic-ball.bkb", solve


@pytest.mark.parametrize("name", ["radius 11", "distances shifted", "previous format"])
def test_a_forged_ball_answers_right_through_the_command_line(name, tmp_path, installed):
    boards, want = _far_boards()
    batch = batch_file(tmp_path / "far.txt", boards)
    ball, solve = installed
    ball.write_bytes(FORGED_BALLS[name][0]())
    for args in ([SAMPLE], [batch], ["--engine", "mitm", batch]):
        r = solve(*args)
        expected = SAMPLE_ANSWER if args == [SAMPLE] else "".join(f"{d}\n" for d in want)
        assert (r.returncode, r.stdout) == (0, expected), r.stderr
        line = one_warning(r)
        assert f"shipped ball {ball}" in line and FORGED_BALLS[name][1] in line


@pytest.mark.parametrize("kind", helpers.ODD_FILES)
def test_odd_files_at_the_ball_path_are_refused_at_once(kind, installed):
    """/dev/zero, a FIFO, a directory, a huge file: refused unread, said once, computed."""
    ball, solve = installed
    ball.unlink()
    helpers.ODD_FILES[kind](ball)
    r = solve(SAMPLE)
    assert (r.returncode, r.stdout) == (0, SAMPLE_ANSWER), r.stderr
    line = one_warning(r)
    assert str(ball) in line and line.endswith("computing it instead")
    if kind in ("dev-zero", "fifo", "directory"):
        assert "FIFO" in line or "not a regular file" in line
    elif kind == "huge":
        assert "wrong size" in line


def test_the_ball_layers_are_the_computed_ones():
    ball = _built()
    assert tuple(ball.dists.count(d) for d in range(mitm.RADIUS + 1)) == mitm.CLASSIC_LAYERS
    assert len(ball) == sum(mitm.CLASSIC_LAYERS)
