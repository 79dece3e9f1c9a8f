"""The adversarial list of issue 15 kept as regression tests: hostile files in the cache,
hostile inputs, closed and full outputs.  Every command runs under a timeout; none of these
tests asserts a time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bitknights import TARGET
from bitknights.table import store
from helpers import SAMPLE, forge

CLI = [sys.executable, "-m", "bitknights"]
LIMIT = 120  # seconds; a hang fails the test instead of stalling the suite
SAMPLE_ANSWER = "7\n-1\n"


def run(args, cache=None, *, env=None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env or {})}
    if cache is not None:
        env["BITKNIGHTS_CACHE_DIR"] = str(cache)
    kw.setdefault("capture_output", True)
    return subprocess.run([*CLI, *args], text=True, timeout=LIMIT, env=env, **kw)


def one_line_error(r, status=2) -> str:
    assert r.returncode == status, (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith("bitknights: error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr
    return r.stderr


@pytest.fixture
def cache(tmp_path) -> Path:
    d = tmp_path / "cache"
    d.mkdir(mode=0o755)
    return d


def _table(table_dir, cache) -> Path:
    path = store.table_path(TARGET, cache)
    shutil.copyfile(store.table_path(TARGET, table_dir), path)
    return path


# -- S2, S3: what stands at a cache path ----------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_odd_files_at_the_cache_paths_are_refused_at_once(kind, cache):
    paths = [store.table_path(TARGET, cache), cache / "patterns-11111-01111-00x11-00001-00000.bkp"]
    for path in paths:
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "dev-zero":
            path.symlink_to("/dev/zero")
        else:
            path.mkdir()
    r = run(["solve", str(SAMPLE)], cache)
    assert r.returncode == 0 and r.stdout == SAMPLE_ANSWER, r.stderr
    r = run(["solve", "--engine", "ida", "--exact", str(SAMPLE)], cache)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "7", r.stderr
    info = run(["table", "info"], cache)
    assert info.returncode == 1 and "not a regular file" in info.stdout or "FIFO" in info.stdout
    err = one_line_error(run(["solve", "--engine", "table", str(SAMPLE)], cache))
    assert str(paths[0]) in err
    code = "import bitknights as bk; print(bk.solve(bk.read_batch(bk.SAMPLE)[0]).steps)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=LIMIT, env={**os.environ, "BITKNIGHTS_CACHE_DIR": str(cache)})  # fmt: skip
    assert r.stdout == "7\n", r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--target", "/dev/zero", str(SAMPLE)],
        ["table", "build", "--target", "/dev/zero"],
        ["solve", "/dev/zero"],
    ],
)
def test_endless_inputs_end_in_one_line(args, cache):
    err = one_line_error(run(args, cache))
    assert "/dev/zero" in err


def test_one_huge_line_is_refused_without_reading_it_all(cache):
    feed = subprocess.Popen(["head", "-c", "200000000", "/dev/zero"], stdout=subprocess.PIPE)
    r = run(["solve"], cache, stdin=feed.stdout)
    feed.kill()
    feed.wait()
    assert "line 1: a line longer than 4,096 bytes" in one_line_error(r)


# -- S4: forged and untrusted caches --------------------------------------------------------


def test_a_forged_table_never_answers_wrong(table_dir, cache):
    """One payload byte changed and every checksum recomputed (what someone with write
    access could do): the sample is answered right or refused, never answered wrong."""
    from bitknights import read_batch
    from bitknights.coords import rank

    path = _table(table_dir, cache)
    board = read_batch(SAMPLE.read_text())[0]
    forge(path, rank(board.black, board.blank), 3)
    for engine in ("auto", "table"):
        r = run(["solve", "--engine", engine, str(SAMPLE)], cache)
        assert r.stdout in ("", SAMPLE_ANSWER)
        if r.stdout == "":
            assert "is not exact" in one_line_error(r)
    r = run(["solve", "--engine", "table", "--format", "json", "--path", str(SAMPLE)], cache)
    assert '"steps":3' not in r.stdout and "is not exact" in one_line_error(r)


def test_a_table_others_may_write_is_not_trusted(table_dir, cache):
    path = _table(table_dir, cache)
    path.chmod(0o666)
    r = run(["solve", str(SAMPLE)], cache)
    assert r.returncode == 0 and r.stdout == SAMPLE_ANSWER  # answered by search
    assert f"not trusting distance table: {path} is writable by group and others" in r.stderr
    assert "chmod go-w" in r.stderr
    err = one_line_error(run(["solve", "--engine", "table", str(SAMPLE)], cache))
    assert "chmod go-w" in err
    path.chmod(0o644)
    cache.chmod(0o777)
    try:
        err = one_line_error(run(["solve", "--engine", "table", str(SAMPLE)], cache))
        assert f"{cache} is writable by group and others" in err
    finally:
        cache.chmod(0o755)
    assert run(["solve", "--engine", "table", str(SAMPLE)], cache).stdout == SAMPLE_ANSWER


def test_a_table_truncated_while_in_use_is_an_error_not_a_crash(table_dir, cache):
    from bitknights.table import probe

    path = _table(table_dir, cache)
    store._loaded.clear()
    store.load(TARGET, cache)  # proved: read whole in this process
    store._loaded.clear()
    file = store.load(TARGET, cache)  # as a later process: the proof remembered, read lazily
    os.truncate(path, path.stat().st_size // 2)
    far = store.unrank(store.block_count(file.state_count) * (1 << store.BLOCK_BITS) - 70_000, 12)
    with pytest.raises(store.TableError, match="truncated while in use"):
        probe.distances(file, [far.key], 99)
    store._loaded.clear()


# -- S5: closed and full outputs ------------------------------------------------------------


def _shell(command: str) -> subprocess.CompletedProcess:
    return subprocess.run(["/bin/bash", "-c", command], capture_output=True, text=True,
                          timeout=LIMIT)  # fmt: skip


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_closed_and_full_outputs_end_in_one_line():
    cli = " ".join(CLI)
    one_line_error(_shell(f"{cli} solve {SAMPLE} >&-"), 3)
    assert "standard input is closed" in one_line_error(_shell(f"{cli} solve <&-"))
    if Path("/dev/full").exists():
        err = one_line_error(_shell(f"{cli} solve --engine ida {SAMPLE} >/dev/full"), 3)
        assert "No space left on device" in err


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_output_past_ulimit_f(tmp_path):
    batch = tmp_path / "batch.txt"
    batch.write_text("3000\n" + SAMPLE.read_text().split("\n", 1)[1].split("\n\n")[0][:30] * 3000)
    out = tmp_path / "out.txt"
    r = _shell(f"ulimit -f 2; {' '.join(CLI)} solve --engine ida --format json {batch} > {out}")
    assert "File too large" in one_line_error(r, 3)


def test_absurd_timeout_is_a_usage_error():
    r = run(["solve", "--timeout", "1e10", str(SAMPLE)])
    assert r.returncode == 2 and "up to 1,000,000" in r.stderr and "Traceback" not in r.stderr


# -- S6: leftovers, settings, line breaks ---------------------------------------------------


def test_stale_temporary_files_are_cleaned_by_the_next_write(cache):
    """A killed writer's temporary file (unlocked, old) goes; a live writer's (locked)
    stays."""
    import fcntl

    from bitknights import cache as cache_layer

    stale = cache / ".tmp-killed.bkt"
    stale.write_bytes(b"x" * 1000)
    old = time.time() - 60
    os.utime(stale, (old, old))
    live = cache / ".tmp-live.bkt"
    live.write_bytes(b"y")
    os.utime(live, (old, old))
    with open(live, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        cache_layer.atomic_write(cache / "x.bin", [b"data"], "test file")
        assert not stale.exists() and live.exists()
    assert (cache / "x.bin").read_bytes() == b"data"
    assert oct((cache / "x.bin").stat().st_mode & 0o777) == oct(0o644 & ~_umask())


@pytest.mark.slow
def test_killed_build_leaves_nothing_behind_after_the_next(tmp_path):
    cache = tmp_path / "c"
    proc = subprocess.Popen([*CLI, "table", "build", "--quiet"], env={**os.environ,
                            "BITKNIGHTS_CACHE_DIR": str(cache)})  # fmt: skip
    deadline = time.time() + LIMIT
    while time.time() < deadline and not any(cache.glob(".tmp-*")):
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    leftovers = list(cache.glob(".tmp-*"))
    for p in leftovers:
        os.utime(p, (time.time() - 60, time.time() - 60))
    r = run(["table", "build", "--quiet"], cache)
    assert r.returncode == 0, r.stderr
    name = store.table_path(TARGET, cache).name
    assert sorted(p.name for p in cache.iterdir()) == [name, f"{name}.proof"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_an_empty_cache_dir_setting_means_the_default(tmp_path):
    from bitknights.cache import cache_directory

    env = {"BITKNIGHTS_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    for args in (["--cache-dir", ""], []):
        r = run(["table", "info", "--format", "json", *args], env=env)
        path = json.loads(r.stdout)["path"]
        assert path.startswith(f"{tmp_path / 'xdg' / 'bitknights'}/"), r.stdout
    assert cache_directory("") == cache_directory(None)


def test_the_target_parser_takes_the_batch_parsers_line_breaks():
    from bitknights import InputError, read_board

    good = "11111\r\n01111\r00*11\n00001\n00000\n"
    assert read_board(good) == TARGET
    for sep in ("\u2028", "\x1c", "\x85"):
        with pytest.raises(InputError):
            read_board(good.replace("\r\n", sep, 1))


@pytest.mark.slow
def test_table_verify_proves_the_table_exact_or_names_a_board(table_dir, cache):
    """`table verify` trusts no checksum or record: the real table is proven exact; a
    forged byte with every checksum recomputed is found, by `table info` too (every table
    is proved before it is used)."""
    path = _table(table_dir, cache)
    r = run(["table", "verify"], cache)
    assert r.returncode == 0 and "status: exact" in r.stdout, r.stdout + r.stderr
    from bitknights.coords import rank

    board = store.unrank(12_345_678, 12)
    forge(path, rank(board.black, board.blank), 9)
    r = run(["table", "verify"], cache)
    assert r.returncode == 1 and "is not exact" in r.stdout and "breaks the distance" in r.stdout
    assert run(["table", "info"], cache).returncode == 1


def test_bad_python_arguments_raise_clear_value_or_type_errors(table_dir, tmp_path):
    import numpy as np

    from bitknights import Board, table

    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        (lambda: Board.from_key(None), TypeError, "a board key is an integer"),
        (lambda: table.random_boards(5.0, 1, cache_dir=table_dir), TypeError, "distance"),
        (lambda: table.load_table(cache_dir=table_dir).distances(np.zeros((2, 2))), ValueError,
         "1-D integer array"),
        (lambda: table.build(cache_dir=blocker), ValueError, f"{blocker} is a file"),
    ]  # fmt: skip
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_out_of_memory_ends_in_one_line(tmp_path):
    """Under `ulimit -v` a deep bidirectional search runs out of memory: one line, exit 3."""
    board = "000*0/10000/01010/11110/11111"  # 39 moves away: a start side of millions of boards
    batch = tmp_path / "deep.txt"
    batch.write_text("1\n" + board.replace("/", "\n") + "\n")
    r = _shell(f"ulimit -v 500000; BITKNIGHTS_CACHE_DIR={tmp_path} {' '.join(CLI)} solve "
               f"--engine bidir --exact --workers 2 {batch}")  # fmt: skip
    assert "out of memory" in one_line_error(r, 3)
