from __future__ import annotations

import os
import signal
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# A run where Ctrl-C is ignored (a background job, nohup) would pass that on to its children
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Never the user's cache: one fresh cache directory per run, shared by the xdist workers
# (which inherit the environment), so what a default-cache test builds is built once.
if "BITKNIGHTS_TEST_RUN_CACHE" not in os.environ:
    _CACHE = tempfile.TemporaryDirectory(prefix="bitknights-test-cache-")
    os.environ["BITKNIGHTS_TEST_RUN_CACHE"] = _CACHE.name
os.environ["BITKNIGHTS_CACHE_DIR"] = os.environ["BITKNIGHTS_TEST_RUN_CACHE"]

# tests/winlike is a standard library as Windows has it, for child processes alone
collect_ignore = ["winlike"]

import naive  # noqa: E402
from bitknights import TARGET  # noqa: E402


def _run_root(tmp_path_factory) -> Path:
    """A directory shared by the workers of this run."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def _once_per_run(tmp_path_factory, name: str, make):
    """``make()`` under the run's lock ``name``: what one worker builds, the others load."""
    from filelock import FileLock

    with FileLock(_run_root(tmp_path_factory) / f"bitknights-{name}.lock", timeout=300):
        return make()


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    """The classic distance table's cache directory, built once per session (all workers)."""
    from bitknights.table import ensure

    d = _run_root(tmp_path_factory) / "bitknights-table-cache"
    _once_per_run(tmp_path_factory, "table", lambda: ensure(TARGET, cache_dir=d, quiet=True))
    return d


@pytest.fixture
def cache_dir(tmp_path) -> Path:
    """A fresh, empty cache directory (mode 0755) of the test's own."""
    d = tmp_path / "cache"
    d.mkdir(mode=0o755)
    return d


@pytest.fixture(scope="session")
def classic_patterns(tmp_path_factory):
    """The classic pattern databases, built once per run (all workers) in the run's cache,
    held in this process for every later search of the classic target."""
    from bitknights.engines import pdb

    return _once_per_run(tmp_path_factory, "patterns", lambda: pdb.pattern_tables(TARGET.key))


@pytest.fixture(scope="session")
def classic(table_dir):
    """The classic distance table (built once per test session)."""
    from bitknights.table import load_table

    return load_table(TARGET, cache_dir=table_dir)


@pytest.fixture(scope="session")
def small_ball() -> dict[str, int]:
    """Every board reachable from :data:`helpers.SMALL` with its exact distance (naive BFS)."""
    from helpers import SMALL

    return naive.bfs(SMALL.compact, radius=1000)


@pytest.fixture(scope="session")
def ball8() -> dict[str, int]:
    """Exact distances (naive BFS) of every board within 8 moves of the classic target."""
    return naive.bfs(naive.TARGET, 8)


@pytest.fixture(scope="session")
def ball11() -> dict[str, int]:
    """Exact distances (naive BFS) of every board within 11 moves of the classic target."""
    return naive.bfs(naive.TARGET, 11)


@pytest.fixture(scope="session")
def classic_compact(classic):
    """The classic compact table in memory, packed from the distance table."""
    from bitknights.table import compact

    payload = compact.pack(classic.file.payload).tobytes()
    return compact.CompactTable.of("packed", TARGET, classic.max_distance + 1,
                                   classic.file.unreachable, payload)  # fmt: skip
