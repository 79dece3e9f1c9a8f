"""The ahead-of-time compiled kernels: equal to the JIT's, GIL-free, refused when stale."""

import importlib.machinery
import importlib.util
import random
import shutil
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import helpers
import terminal
from bitknights import SAMPLE, TARGET, Board, native
from bitknights.engines import _ida_kernels, heuristics, ida
from bitknights.engines.options import StopFlag
from bitknights.results import STOPPED
from helpers import SMALL, brute_counts, checked_by, random_walk, relaxed_neighbours, run_python


@pytest.fixture(scope="module")
def natives(tmp_path_factory):
    """The compiled kernels by key: the installed extension when current, else a fresh build."""
    out = {}
    for key in native.EXTENSIONS:
        out[key] = native.load(key) or native.load_from(
            native.build(tmp_path_factory.mktemp(key), key), key
        )
        assert out[key] is not None and native.is_native(out[key])
    return out


@pytest.mark.slow
def test_a_fresh_build_is_current_and_agrees_with_jit(tmp_path):
    """``native.build`` gives an extension that loads as current and searches as the JIT."""
    module = native.load_from(native.build(tmp_path), "ida")
    assert module is not None and native.is_native(module)
    board = random_walk(TARGET, 20, random.Random(3))
    got = _search(module.ida_nearest, board, 15, False)
    assert got == _search(_ida_kernels.ida_nearest, board, 15, False)


def _search(kernel, board, limit, pdb, flags=None, stop=None):
    """``(code, steps, nodes, path)`` of ``kernel`` searching ``board`` under the
    nearest-square bound or the pattern databases (``flags``: another bound)."""
    bound = heuristics.PATTERNS if pdb else heuristics.NEAREST
    tables = ida._tables_of(bound, TARGET, None, StopFlag())
    job = ida._job(kernel, bound if flags is None else heuristics.Bound("", flags), TARGET, limit,
                   tables=tables)  # fmt: skip
    flag = np.zeros(1, np.int64) if stop is None else stop
    code = job(np.array([board.black]), np.array([board.blank]), flag)
    steps = int(job.tail[-2][0])
    return code, steps, int(job.tail[-1][0]), job.out[0, : steps + 1].tolist() if steps >= 0 else []


@pytest.mark.slow
def test_one_board_agrees_with_jit_node_for_node(natives):
    """Compiled kernels search as their JIT twins, and as the one reading its bound at run time."""
    rng = random.Random(5)
    boards = [random_walk(TARGET, n, rng) for n in range(0, 40, 2) for _ in range(3)]
    for board in boards:
        for pdb in (False, True):
            name = "ida_patterns" if pdb else "ida_nearest"
            for limit in (9, 15):
                got = _search(getattr(natives["ida"], name), board, limit, pdb)
                want = _search(getattr(_ida_kernels, name), board, limit, pdb)
                assert got == want, (board, pdb, limit)
                flags = heuristics.PATTERNS.flags if pdb else heuristics.NEAREST.flags
                assert _search(natives["ida"].ida_any, board, limit, pdb, flags) == got


def test_batch_agrees_with_naive_bfs(natives, ball8):
    rng = random.Random(6)
    boards = [Board(text) for text in rng.sample(sorted(ball8), 200)]
    boards += [random_walk(TARGET, rng.randrange(9, 30), rng) for _ in range(60)]
    boards.append(Board("11111/01111/00*11/00001/00001"))  # 11 white: unreachable
    keys = np.array([b.key for b in boards], np.int64)
    blacks, blanks = keys & ((1 << 25) - 1), keys >> 25
    job = ida._job(natives["ida"].ida_nearest, heuristics.NEAREST, TARGET, 8, boards=len(keys))
    job(blacks, blanks, np.zeros(1, np.int64))
    for board, s in zip(boards, job.tail[-2].tolist()):
        assert s == ball8.get("".join(board.rows()), -1), board


def test_kernel_releases_the_gil(natives):
    """A timer raises the stop flag while the kernel runs: STOPPED, so the GIL was released."""
    board = Board("00000/10001/1*010/01101/11111")  # far from the target
    with StopFlag().arm(0.05) as stop:
        code, *_ = _search(natives["ida"].ida_nearest, board, 200, False, stop=stop.array)
    assert code == STOPPED


def test_stale_or_foreign_extensions_are_refused(natives, tmp_path, monkeypatch):
    path = natives["ida"].__file__
    assert native.load_from(path) is not None
    monkeypatch.setattr(native, "source_fingerprint", lambda which="ida": 12345)
    assert native.load_from(path) is None
    junk = tmp_path / "junk.so"
    junk.write_bytes(b"not a shared object")
    assert native.load_from(junk) is None


@pytest.mark.parametrize(
    "args, key, answers", [("'ida'", "ida", "7 -1"), ("'bidir', '--exact'", "bidir", "7 18")]
)
def test_installed_kernels_run_without_numba(args, key, answers, tmp_path):
    """The installed package's extensions: IDA* and exact bidir batches never import numba."""
    code = (
        "import sys; from bitknights import cli, native; "
        f"status = cli.main(['solve', '--engine', {args}]); "
        f"print(native.is_native(native.kernels({key!r})), 'numba' in sys.modules, status)"
    )
    out = run_python(code, input=SAMPLE, cwd=tmp_path, env={native.ENV: None}, check=True)
    assert out.stdout.split() == [*answers.split(), "True", "False", "0"], out.stderr


ROOT = Path(__file__).resolve().parent.parent


def _checkout(tmp_path, edit=None) -> Path:
    """A copy of this tree as a fresh clone has it (``edit``: a module to touch)."""
    dst = tmp_path / "checkout"
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.nbi", "*.nbc")
    shutil.copytree(ROOT / "bitknights", dst / "bitknights", ignore=skip)
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, dst)
    if edit:
        with open(dst / "bitknights" / edit, "a") as f:
            f.write("# edited\n")
    return dst


def test_python_in_a_checkout_runs_the_installed_kernels_of_its_sources(tmp_path):
    """Python in a checkout runs the installed copy's kernels of the same sources, no numba."""
    checkout = _checkout(tmp_path)
    code = (
        "import sys, bitknights as bk; from bitknights import native; "
        "print(bk.__file__); print(*(native.load(k).__file__ for k in native.EXTENSIONS)); "
        "board = bk.read_batch(bk.SAMPLE)[1]; "
        "print(*(bk.solve(board, engine=e, max_depth=None).steps for e in ('ida', 'bidir')), "
        "'numba' in sys.modules)"
    )
    out = run_python(code, cwd=checkout, env={native.ENV: None})
    assert out.returncode == 0 and out.stderr == "", out.stderr
    imported, loaded, answers = out.stdout.splitlines()
    assert imported == str(checkout / "bitknights" / "__init__.py")
    assert len(loaded.split()) == len(native.EXTENSIONS) and str(checkout) not in loaded, loaded
    assert answers.split() == ["18", "18", "False"]


@pytest.mark.slow
def test_a_jit_compile_is_announced_on_a_terminal_with_its_reason_and_fix(tmp_path):
    """Edited kernels compile just in time, said once on a terminal; then cached, silently."""
    checkout = _checkout(tmp_path, edit="engines/_ida_kernels.py")
    code = "import bitknights as bk; print(bk.solve(bk.read_batch(bk.SAMPLE)[0]).steps)"
    env = {native.ENV: "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    run = [sys.executable, "-c", code]
    status, seen = terminal.on_terminal([], env=env, command=run, cwd=checkout)
    assert status == 0, seen
    notice = (
        "bitknights: compiling the IDA* kernels just in time (~5 s, then cached): Python "
        f"imported the checkout {checkout} (started in it), which has no kernels compiled "
        "from its sources; `pip install -e .` compiles them there, or start Python outside "
        "it to use an installed copy"
    )
    assert terminal.kept(seen) == terminal.wrapped(f"{notice}\n7\n"), seen
    status, seen = terminal.on_terminal([], env=env, command=run, cwd=checkout)
    assert status == 0 and terminal.kept(seen) == ["7"], seen


@pytest.mark.parametrize(
    "checkout, built, fix",
    [
        (True, False, "`pip install -e .` compiles them there"),
        (True, True, "`python -m bitknights.native` compiles them again"),
        (False, False, "installed without compiling them (no C compiler?); reinstall"),
        (False, True, "do not match the installed sources; reinstall"),
    ],
)
def test_the_reason_for_compiling_just_in_time_names_the_fix(
    checkout, built, fix, tmp_path, monkeypatch
):
    package = tmp_path / "bitknights"
    (package / "engines").mkdir(parents=True)
    if checkout:
        for name in ("setup.py", "pyproject.toml"):
            (tmp_path / name).write_text("")
    if built:
        (package / "engines" / ("_ida_native" + importlib.machinery.EXTENSION_SUFFIXES[0])).touch()
    monkeypatch.setattr(native, "_ROOT", package)
    monkeypatch.setenv(native.ENV, "1")
    assert fix in native.jit_reason("ida")
    monkeypatch.setenv(native.ENV, "0")
    assert native.jit_reason("ida") == "BITKNIGHTS_NATIVE=0 turns the compiled kernels off"


def test_switch_turns_the_extension_off(monkeypatch):
    monkeypatch.setenv(native.ENV, "0")
    monkeypatch.setattr(native, "load", cache(native.load.__wrapped__))  # an empty cache
    assert native.load() is None


# -- every compiled kernel against its JIT twin and the naive BFS (slow: ~35 s JIT each) ----


def _both(monkeypatch, natives, key, run):
    """``run(name, module)`` with the compiled module, then the JIT's: equal; that result."""
    out = {}
    real = native.kernels
    for name, module in (("native", natives[key]), ("jit", native._jit(key))):
        with monkeypatch.context() as m:
            m.setattr(native, "kernels", lambda w, mod=module: mod if w == key else real(w))
            out[name] = run(name, module)
    assert out["native"] == out["jit"]
    return out["native"]


def test_every_extension_exports_what_its_jit_twin_has(natives):
    for key, module in natives.items():
        for name in native._signatures(key):
            assert callable(getattr(module, name)), (key, name)
            assert callable(getattr(native._jit(key), name)), (key, name)


@pytest.mark.slow
@pytest.mark.parametrize("list_max", [0, 1 << 18])
def test_table_build_agrees_with_jit_and_naive(
    natives, small_ball, monkeypatch, tmp_path, capsys, list_max
):
    """A small target's build, compiled and JIT (``list_max=0``: blocks), equals the naive BFS."""
    from bitknights import progress
    from bitknights.table import build
    from bitknights.table import builder as bfs

    monkeypatch.setattr(bfs, "_LIST_MAX", list_max)
    rng = random.Random(3)
    sample = rng.sample(sorted(small_ball), 300)
    keys = np.array([Board(t).key for t in sample], np.int64)

    def run(name, module):
        with progress.feedback(log=True):
            dist, layers = bfs.bfs_distances(SMALL)
        err = capsys.readouterr().err
        if list_max == 0:
            assert "(pushed," in err and "(pulled," in err
        t = build(SMALL, cache_dir=tmp_path / name, quiet=True)
        assert t.distances(keys).tolist() == [small_ball[s] for s in sample], name
        assert sum(layers) == len(small_ball)
        counts = [t.count_solutions(Board(s)) for s in sample[:40]]
        widest = t.layers.index(max(t.layers))
        randoms = [b.compact for b in t.random_boards(widest, 5, seed=2)]
        return dist.tolist(), layers, counts, randoms, t.file.example_rank

    counts = _both(monkeypatch, natives, "table", run)[2]
    assert counts == list(map(brute_counts(small_ball), sample[:40]))


@pytest.mark.slow
def test_rank_kernels_agree_with_jit(natives, monkeypatch):
    from bitknights.coords import arrays, comb_count, state_count
    from bitknights.table.compact import unrank

    rng = np.random.default_rng(4)
    ranks = rng.integers(0, state_count(12), 5000, dtype=np.int64)

    def run(name, module):
        blacks, blanks = unrank(ranks, 12)
        assert arrays.ranks(blacks, blanks, comb_count(12)).tolist() == ranks.tolist()
        return blacks.tolist(), blanks.tolist()

    _both(monkeypatch, natives, "table", run)


@pytest.mark.slow
def test_bidir_kernels_agree_with_jit_and_naive(natives, ball8, monkeypatch):
    """Bidirectional searches, compiled and JIT: the same steps, nodes, paths; naive distances."""
    from bitknights.engines import _bidir_search, bidir

    rng = random.Random(8)
    boards = [Board(t) for t in rng.sample(sorted(ball8), 40)]
    boards += [random_walk(TARGET, rng.randrange(9, 40), rng) for _ in range(8)]
    keys = np.array([b.key for b in boards], np.int64)
    monkeypatch.setattr(_bidir_search, "BALL_RADIUS", 3)  # let the searches grow the ball

    def run(name, module):
        bidir.clear_cache()
        steps = helpers.steps_with("bidir", keys, TARGET, None, workers=2).tolist()
        sols = [checked_by(helpers.solve_with("bidir", b, TARGET, None), b, engine="bidir")
                for b in boards[-8:]]  # fmt: skip
        bidir.clear_cache()
        return steps, [(s.steps, s.nodes, [x.key for x in s.boards]) for s in sols]

    for board, s in zip(boards[:40], _both(monkeypatch, natives, "bidir", run)[0]):
        assert s == ball8["".join(board.rows())], board


@pytest.mark.slow
def test_pattern_database_build_agrees_with_jit_and_naive(natives):
    """Compiled and JIT pattern databases are equal; a small one equals a plain relaxed BFS."""
    from bitknights.coords import pattern_rank
    from bitknights.engines import _pdb_kernels, pdb

    for mask in (TARGET.white, TARGET.black):
        k = mask.bit_count()
        a = pdb.build_tables(mask, k, kernel=natives["ida"].pdb_layer)
        b = pdb.build_tables(mask, k, kernel=_pdb_kernels.layer)
        assert (a == b).all()
    small = 0b10011  # three knights
    got = pdb.build_tables(small, 3, kernel=natives["ida"].pdb_layer)
    seen, frontier = {small: 0}, {small}
    while frontier:
        layer = {y for m in frontier for y in relaxed_neighbours(m)} - seen.keys()
        seen.update(dict.fromkeys(layer, seen[next(iter(frontier))] + 1))
        frontier = layer
    assert len(seen) == got.size
    assert all(got[pattern_rank(m)] == v for m, v in seen.items())


@pytest.mark.slow
def test_table_verify_kernel_agrees_with_jit(natives, monkeypatch, tmp_path):
    """The proof, compiled and JIT: a real table passes, a forged byte is caught."""
    from bitknights.coords import rank
    from bitknights.table import build, store
    from bitknights.table.verify import first_inconsistency
    from helpers import forge

    build(SMALL, cache_dir=tmp_path, quiet=True)
    path = store.table_path(SMALL, tmp_path)
    board = Board("10000/00000/01*00/00000/00000")

    def run(name, module):
        store._loaded.clear()
        return first_inconsistency(store.open_unproved(SMALL, tmp_path)[0].payload, SMALL)

    assert _both(monkeypatch, natives, "table", run) is None
    forge(path, rank(board.black, board.blank), 9)
    assert _both(monkeypatch, natives, "table", run) is not None


def test_fingerprints_cover_what_the_kernels_import_and_nothing_else():
    """Fingerprints cover the modules the kernels import, and nothing else."""
    for key, ext in native.EXTENSIONS.items():
        sources = set(ext.sources)
        assert {"squares.py", "results.py", "coords/__init__.py"} <= sources, key
        assert ("coords/kernels.py" in sources) == (key != "bidir"), key  # ranking, popcount
        assert not sources & {"engines/pdb.py", "engines/common.py", "engines/ida.py",
                              "table/store.py", "native.py"}, key  # fmt: skip
    assert "engines/hashset.py" in native.EXTENSIONS["bidir"].sources
    assert "engines/_pdb_kernels.py" in native.EXTENSIONS["ida"].sources
    assert {"table/kernels.py", "table/layout.py"} <= set(native.EXTENSIONS["table"].sources)


def test_the_listed_sources_are_what_a_parse_of_the_kernels_finds():
    """Each extension lists its kernels' modules and what they import at top level, transitively."""
    import ast

    root = Path(native.__file__).parent

    def module_file(dotted):
        base = dotted.replace(".", "/")
        return next((n for n in (f"{base}.py", f"{base}/__init__.py") if (root / n).is_file()),
                    None)  # fmt: skip

    def parsed(name):
        package = ".".join(("bitknights", *Path(name).parent.parts))
        found = set()
        for node in ast.parse((root / name).read_bytes()).body:
            if isinstance(node, ast.ImportFrom) and node.level:
                relative = "." * node.level + (node.module or "")
                module = importlib.util.resolve_name(relative, package).partition(".")[2]
                for alias in node.names:
                    sub = f"{module}.{alias.name}" if module else alias.name
                    found.add(sub if module_file(sub) else module)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bitknights."):
                found.add(node.module.removeprefix("bitknights."))
        return {module_file(m) for m in found if m and module_file(m)}

    for key, ext in native.EXTENSIONS.items():
        seen, todo = set(), [module_file(m) for m in ext.modules]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(parsed(name))
        assert tuple(sorted(seen)) == ext.sources, key


@pytest.mark.slow
def test_walk_and_listing_kernels_agree_with_jit(natives, small_ball, monkeypatch, tmp_path):
    """Compact walks, batches, path graphs and listings, compiled and JIT: the same, exact."""
    from bitknights.table import build, compact, solutions

    rng = random.Random(6)
    sample = rng.sample(sorted(small_ball), 200)
    keys = np.array([Board(t).key for t in sample], np.int64)
    far = max(sample, key=lambda t: small_ball[t])
    monkeypatch.setattr(compact, "PLAIN_BOARDS", 0)

    def run(name, module):
        packed = compact.build(SMALL, tmp_path / name)
        full = build(SMALL, cache_dir=tmp_path / name, quiet=True)
        walks = [packed.walk(Board(t).black, Board(t).blank) for t in sample[:50]]
        batch = packed.distances(keys, 1000).tolist()
        assert batch == [small_ball[t] for t in sample], name
        counts = [packed.count_solutions(Board(t)) for t in sample[:30]]
        listed = []
        for table in (full, packed):
            listing = solutions.table_paths(Board(far), table)
            listed.append(np.concatenate(list(listing)).tolist())
            for json in (False, True):
                writer = solutions.LineWriter(json=json)
                listed.append(b"".join(bytes(x) for x, _, _ in writer.write_all(
                    solutions.table_paths(Board(far), table))))  # fmt: skip
        text = bytes(solutions.LineWriter().lines(np.array(listed[0], dtype=np.int8)))
        return walks, batch, counts, listed, text

    _both(monkeypatch, natives, "table", run)
