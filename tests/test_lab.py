"""The heuristic lab against the distance table: built-ins, user heuristics, inadmissible."""

import json
import sys

import pytest
from numba import njit

import pixels
import terminal
from bitknights import TARGET, Board, lab
from bitknights.engines import heuristics, ida
from bitknights.engines.common import nearest_bounds
from bitknights.engines.pdb import pattern_bound
from bitknights.errors import BitknightsError
from bitknights.render.boards import FRAME
from bitknights.squares import square_color
from helpers import batch_file, copy_table, record_proof, replay, run_python, script, solve_with

TARGET_WHITE = TARGET.white
TARGET_BLACK = TARGET.black


@njit
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit
def misplaced_by_hand(white, black, blank):
    """The seed's bound written as a user would: knights off their colour's squares."""
    return popcount(white & ~TARGET_WHITE) + popcount(black & ~TARGET_BLACK)


@njit
def three_times_misplaced(white, black, blank):
    """Inadmissible: overestimates wherever a knight is misplaced."""
    return 3 * misplaced_by_hand(white, black, blank)


@pytest.fixture(scope="session")
def lab_dir(table_dir, classic_patterns, tmp_path_factory):
    """A proved copy of the session's table in a directory of its own (for the lab's caches)."""
    d = tmp_path_factory.mktemp("lab-cache")
    copy_table(table_dir, d)
    record_proof(d)
    return d


@pytest.fixture(scope="session")
def boards(classic):
    """Boards at distances 0 to 19 (the misplaced-knight bound takes seconds beyond)."""
    return [TARGET] + [b for d in range(1, 20, 3) for b in classic.random_boards(d, 2, d)]


def test_every_builtin_against_the_table(boards, classic, lab_dir):
    names = ["misplaced", "knight_distance", "pdb", "max(misplaced,knight_distance)"]
    trials = lab.compare(boards, names, cache_dir=lab_dir, check_all=True, workers=1)
    assert [(t.board, t.heuristic) for t in trials] == [(b, n) for b in boards for n in names]
    for t in trials:
        truth = classic.distance(t.board)
        assert t.status == "solved" and t.steps == t.distance == truth, t
        assert replay(t.board.compact, t.moves) == truth
        assert t.optimal is True and not t.flagged and t.overestimates == 0
        assert t.checked > 0 and t.h0 <= truth and t.h0_overestimates is False
        assert t.iterations[0][0] == t.h0 and sum(n for _, n in t.iterations) == t.nodes
        assert [b for b, _ in t.iterations] == sorted({b for b, _ in t.iterations})
        assert t.note == "" and t.verdict == "optimal"
        found = f"{truth} move{'s' * (truth != 1)}, {t.nodes:,} node{'s' * (t.nodes != 1)}"
        assert repr(t) == f"<Trial {t.heuristic!r} solved in {found}, h0 {t.h0}: optimal>"
    by = {(t.board, t.heuristic): t for t in trials}
    for b in boards:  # the stronger bound never expands more
        assert by[b, "pdb"].nodes <= by[b, "knight_distance"].nodes <= by[b, "misplaced"].nodes


@pytest.mark.parametrize("name, use_pdb, far", [("knight_distance", False, ()),
                                                 ("pdb", True, (28, 32))])  # fmt: skip
def test_builtins_search_exactly_as_the_engine(name, use_pdb, far, classic, lab_dir):
    """Same bound, same nodes, same path: the lab's kernel is the engine's search."""
    bs = [b for d in (8, 14, 20, 24, *far) for b in classic.random_boards(d, 2, d)]
    for t in lab.compare(bs, [name], cache_dir=lab_dir, workers=1):
        s = solve_with(ida.IdaEngine(use_pdb=use_pdb), t.board, TARGET, None)
        assert (t.steps, t.nodes) == (s.steps, s.nodes)
        assert [str(m) for m in t.moves] == [str(m) for m in s.moves]


@pytest.mark.slow  # compiles the search kernel for one more user function (~4 s)
def test_a_user_heuristic(boards, classic, lab_dir):
    """The seed's bound by hand searches exactly as the built-in, every value checked."""
    trials = lab.compare(boards, {"by hand": misplaced_by_hand, "built-in": "misplaced"},
                         cache_dir=lab_dir, workers=1)  # fmt: skip
    for mine, theirs in zip(trials[::2], trials[1::2]):
        assert (mine.heuristic, theirs.heuristic) == ("by hand", "built-in")
        assert (mine.steps, mine.nodes, mine.h0, mine.iterations) == (
            theirs.steps, theirs.nodes, theirs.h0, theirs.iterations)  # fmt: skip
        assert mine.steps == classic.distance(mine.board) and mine.optimal
        assert replay(mine.board.compact, mine.moves) == mine.steps
        assert mine.checked >= mine.nodes and mine.overestimates == 0 and not mine.flagged
        assert theirs.checked == 1  # built-ins: at the start, unless check_all


def test_an_inadmissible_heuristic_is_flagged(classic, lab_dir):
    """Three times the misplaced count overestimates: every answer flagged."""
    bs = [b for d in (6, 9, 12, 15) for b in classic.random_boards(d, 6, d)]
    trials = lab.compare(bs, {"3x": three_times_misplaced}, cache_dir=lab_dir, workers=1)
    longer = [t for t in trials if t.steps != t.distance]
    assert longer, "the test needs boards where the inadmissible bound misleads IDA*"
    for t in trials:
        assert replay(t.board.compact, t.moves) == t.steps  # still a legal solution
        assert t.distance == classic.distance(t.board)
        assert t.flagged and t.overestimates > 0
        board, bound, truth = t.worst
        assert classic.distance(board) == truth < bound
        assert t.optimal == (t.steps == t.distance)
        assert t.verdict.startswith(f"flagged: overestimates at {t.overestimates:,} boards")
        assert repr(t).endswith(f": {t.verdict}>") and "\n" not in repr(t)
    for t in longer:
        assert t.optimal is False and t.steps > t.distance
        assert t.verdict.endswith(f", not optimal (the distance is {t.distance})")
    assert all(t.h0_overestimates for t in trials if t.h0 > t.distance)


def test_without_a_table_nothing_is_claimed(tmp_path):
    b = "10110/01*11/10111/01001/00000"
    (t,) = lab.compare([b], {"3x": three_times_misplaced}, cache_dir=tmp_path)
    assert t.steps is not None and replay(t.board.compact, t.moves) == t.steps
    assert t.distance is None and t.optimal is None and t.overestimates is None
    assert not t.flagged and t.note == lab.NO_TABLE_NOTE and "cannot be checked" in t.note
    assert t.as_dict()["flagged"] is False
    assert t.as_dict()["moves"] == [str(m) for m in t.moves] and t.moves
    assert t.verdict == "not checked (no table)"
    assert repr(t) == (
        f"<Trial '3x' solved in {t.steps} moves, {t.nodes:,} nodes, h0 {t.h0}: "
        "not checked (no table)>"
    )  # an inadmissible bound: a longer path


@pytest.mark.slow
def test_heuristic_specs_and_errors(lab_dir):
    b = Board("10110/01*11/10111/01001/00000")
    names = [t.heuristic for t in lab.compare([b], "pdb", cache_dir=lab_dir)]
    assert names == ["pdb"]
    spec = lab.maximum("misplaced", misplaced_by_hand, name="both")
    (t,) = lab.compare([b], [spec], cache_dir=lab_dir)
    assert t.heuristic == "both" and t.steps == 7

    def plain(white, black, blank):  # a plain function is compiled with njit
        return 0

    (t,) = lab.compare([b], {"zero": plain}, cache_dir=lab_dir)
    assert t.h0 == 0 and t.steps == 7 and t.iterations[0][0] == 0

    def broken(white, black, blank):
        return white.bit_count()  # Python ints have it, numba's do not

    with pytest.raises(BitknightsError, match="'broken' does not compile with numba: Unknown"):
        lab.compare([b], [broken])
    with pytest.raises(BitknightsError, match="unknown heuristic 'nope'"):
        lab.compare([b], ["nope"])
    with pytest.raises(BitknightsError, match="at most one user function"):
        lab.maximum(plain, misplaced_by_hand)
    with pytest.raises(TypeError):
        lab.compare([b], [3])
    with pytest.raises(BitknightsError):
        lab.compare([b], ["pdb"], timeout=-1)


def test_limits_timeouts_and_threads(classic, lab_dir):
    far = classic.random_boards(30, 2, 3)
    t1, t2 = lab.compare(far, ["misplaced"], timeout=0.2, cache_dir=lab_dir)
    assert t1.status == t2.status == "timeout" and t1.steps is None and t1.nodes > 0
    want = f"<Trial 'misplaced' timeout after {t1.nodes:,} nodes, h0 {t1.h0}: no answer to check>"
    assert repr(t1) == want
    (t,) = lab.compare(far[:1], ["pdb"], max_depth=20, cache_dir=lab_dir)
    assert t.status == "over_limit" and t.steps is None and t.optimal is None
    unreachable = Board("11111/01111/00*11/00001/00001")
    (t,) = lab.compare([unreachable], ["pdb"], cache_dir=lab_dir)
    assert t.status == "unreachable" and t.nodes == 0
    assert repr(t) == f"<Trial 'pdb' unreachable after 0 nodes, h0 {t.h0}: unreachable>"
    bs = classic.random_boards(16, 6, 2)
    one = lab.compare(bs, ["knight_distance", "pdb"], workers=1, cache_dir=lab_dir)
    two = lab.compare(bs, ["knight_distance", "pdb"], workers=2, cache_dir=lab_dir)
    strip = [(t.board, t.heuristic, t.steps, t.nodes, t.iterations) for t in one]
    assert strip == [(t.board, t.heuristic, t.steps, t.nodes, t.iterations) for t in two]


def test_evaluate_matches_the_engines_bounds(classic):
    bs = [TARGET] + [b for d in (1, 5, 17, 33) for b in classic.random_boards(d, 5, d)]
    nearest = nearest_bounds([b.key for b in bs], TARGET).tolist()
    assert lab.evaluate("knight_distance", bs).tolist() == nearest
    parity = [square_color(b.blank) ^ square_color(TARGET.blank) for b in bs]
    pdb = [pattern_bound(b, TARGET) for b in bs]
    want = [p + ((p + q) & 1) for p, q in zip(pdb, parity)]
    assert lab.evaluate("pdb", bs).tolist() == want
    hand = [misplaced_by_hand(b.white, b.black, b.blank) for b in bs]
    naive_count = [sum(ch not in ("*", t) for ch, t in zip(b.compact, TARGET.compact)) for b in bs]
    assert hand == naive_count
    assert lab.evaluate("misplaced", bs).tolist() == hand
    assert lab.evaluate(three_times_misplaced, bs).tolist() == [3 * h for h in hand]
    builtin = heuristics.builtin
    assert builtin("max(pdb,misplaced)").flags == builtin("max(misplaced,pdb)").flags


def test_pictures(classic, lab_dir, tmp_path):
    pytest.importorskip("matplotlib")
    bs = [b for d in (4, 8, 12) for b in classic.random_boards(d, 3, d)]
    trials = lab.compare(bs, ["misplaced", "pdb"], cache_dir=lab_dir)
    fig = lab.nodes_plot(trials)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and "nodes" in ax.get_ylabel()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "misplaced (median)", "pdb (median)"]  # fmt: skip
    fig.savefig(tmp_path / "nodes.png")
    pixels.check_framed_figure(fig, 10, FRAME)
    fig = lab.values_plot(["knight_distance", three_times_misplaced], per_distance=3,
                          cache_dir=lab_dir)  # fmt: skip
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels[0] == "true distance" and labels[1] == "knight_distance"
    assert labels[2].startswith("three_times_misplaced (") and "overestimates" in labels[2]
    fig.savefig(tmp_path / "values.png")
    pixels.check_framed_figure(fig, 10, FRAME)
    assert (tmp_path / "values.png").stat().st_size > 10_000


@pytest.mark.slow
@pytest.mark.timeout(900)  # the script: up to 600 s
def test_heuristics_script(classic, lab_dir, tmp_path):
    """The comparison of a batch, a user's heuristic from a file, the pictures."""
    batch = batch_file(tmp_path / "b.txt", classic.random_boards(10, 3, 5))
    user = tmp_path / "mine.py"
    user.write_text(
        "from numba import njit\n\n@njit\ndef zero(white, black, blank):\n    return 0\n\n"
        "@njit\ndef silly(white, black, blank):\n    return 40\n"
    )
    out = script("heuristics.py", batch, "--heuristics",
                 f"misplaced,max(misplaced,pdb),{user}:zero,{user}:silly", "--cache-dir",
                 lab_dir, "--plot", tmp_path / "n.png", "--values", tmp_path / "v.png",
                 "--json", tmp_path / "t.jsonl", "--timeout", "5")  # fmt: skip
    lines = out.splitlines()
    assert sum(line.endswith("  optimal") for line in lines) == 9, out
    assert sum("  optimal, OVERESTIMATES at " in line for line in lines) == 3, out
    prefixes = ("misp", "max", "zero", "silly")
    summary = {line.split()[0]: line.split() for line in lines if line.startswith(prefixes)}
    assert summary["zero"][1:4] == ["3", "3", "0"] and summary["silly"][3] == "3", out
    records = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    names = ["misplaced", "max(misplaced,pdb)", "zero", "silly"]
    assert [r["heuristic"] for r in records[:4]] == names
    assert all(r["distance"] == 10 for r in records)
    assert all((tmp_path / name).stat().st_size > 10_000 for name in ("n.png", "v.png"))


@pytest.mark.slow  # a run of its own (seconds); its --help runs by default (test_scripts.py)
@pytest.mark.timeout(900)  # the script: up to 600 s
def test_lab_speed_script(tmp_path):
    batch = tmp_path / "b.txt"
    batch.write_text("2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n")
    out = script("lab_speed.py", batch, "--rounds", "1")
    assert "lab/engine time" in out and "lab misplaced" in out


@pytest.mark.slow
def test_a_user_heuristic_compile_is_announced_on_a_terminal(tmp_path):
    """What compiles and about how long; nothing through a pipe."""
    code = ("from numba import njit\nfrom bitknights import lab\n@njit\n"
            "def mine(w, b, s):\n    return 0\n"
            "print(lab.compare(['10110/01*11/10111/01001/00000'], [mine])[0].steps)\n")  # fmt: skip
    env = {"BITKNIGHTS_CACHE_DIR": str(tmp_path)}
    status, seen = terminal.on_terminal(["-c", code], env=env, command=[sys.executable])
    seen = seen.replace("\r", "")
    assert status == 0, seen
    assert seen.splitlines()[0].startswith(
        "bitknights: compiling IDA* with the heuristic 'mine' (a user's heuristic is compiled "
        "into the search kernel, once per process, ~"
    ), seen
    assert seen.splitlines()[-1] == "7"
    r = run_python(code, env=env)
    assert (r.stdout, r.stderr) == ("7\n", "")
