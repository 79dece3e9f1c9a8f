"""The heuristic lab's runs: heuristics named or given, IDA* under each (the engine's
own driver, :mod:`bitknights.engines.ida`), the records compared with the distance table
(see :mod:`bitknights.lab`), and their pictures (matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from functools import reduce

from .. import progress
from ..board import TARGET, Board, as_board
from ..engines.heuristics import BUILTINS, Bound, Trial, heuristic, maximum
from ..engines.ida import bound_at, search
from ..errors import BitknightsError
from ..results import Status
from ..service import service

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterable, Mapping, Sequence

    import numpy as np
    from matplotlib.figure import Figure

    Heuristic = str | Bound | Callable[..., int]

__all__ = ["BUILTINS", "NO_TABLE_NOTE", "Trial", "compare", "evaluate", "heuristic", "maximum",
           "nodes_plot", "values_plot"]  # fmt: skip

NO_TABLE_NOTE = (
    "no distance table for this target: optimality and admissibility cannot be checked "
    "(`bitknights table build` makes the truth available)"
)


def _bounds(heuristics: Mapping[str, Heuristic] | Sequence[Heuristic] | str) -> list[Bound]:
    if isinstance(heuristics, str):
        return [heuristic(heuristics)]
    if hasattr(heuristics, "items"):
        return [heuristic(spec, str(name)) for name, spec in heuristics.items()]
    return [heuristic(spec) for spec in heuristics]


def compare(
    boards: Iterable[Board | str],
    heuristics: Mapping[str, Heuristic] | Sequence[Heuristic] | str,
    *,
    max_depth: int | None = None,
    target: Board | str = TARGET,
    timeout: float | None = None,
    workers: int = 0,
    check_all: bool | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> list[Trial]:
    """Run IDA* with each heuristic (a mapping name -> heuristic, or a list) on each board:
    one :class:`Trial` per (board, heuristic), in order.  ``timeout``: seconds per search;
    ``workers``: threads (1 keeps the timings independent); ``check_all``: compare the
    bound with the table at every board (default: user heuristics only)."""
    from ..coords import comb_count
    from ..engines.options import SolveOptions, StopFlag, check_options
    from ..threads import ordered_map

    target = as_board(target)
    starts = [as_board(b) for b in boards]
    bounds = _bounds(heuristics)
    if not bounds:
        raise BitknightsError("compare() needs at least one heuristic")
    check_options(SolveOptions(max_depth=max_depth, timeout=timeout, workers=workers))
    for b in bounds:  # compiles what runs just in time now, in this thread, outside the times
        bound_at(target, b, target, cache_dir)
    table = service(target, cache_dir=cache_dir).truth()
    truths = None if table is None else [table.distance(s) for s in starts]
    payload = None if table is None else table.file.payload
    ncomb = 0 if table is None else comb_count(table.black_count)
    batch = StopFlag()

    def run(job: tuple[int, Bound]) -> Trial:
        i, bound = job
        every = bound.user is not None if check_all is None else check_all
        trial = search(starts[i], bound, target, max_depth, stop=StopFlag(batch),
                       timeout=timeout, payload=payload if every else None, ncomb=ncomb,
                       cache_dir=cache_dir)  # fmt: skip
        return _judged(trial, target, truths, i, every)

    jobs = [(i, b) for i in range(len(starts)) for b in bounds]
    runs = map(run, jobs) if workers == 1 or len(jobs) <= 1 else ordered_map(
        run, jobs, workers, stop=batch)  # fmt: skip
    trials: list[Trial] = []
    with progress.bar(len(jobs), "trials", "comparing heuristics") as shown:
        for trial in runs:
            trials.append(trial)
            shown.update()
    return trials


def _judged(trial: Trial, target: Board, truths: list[int | None] | None, i: int,
            every: bool) -> Trial:  # fmt: skip
    """``trial`` of the ``i``-th start judged by the truth (``truths``: the starts' true
    distances, ``None`` without a table), checked at every board when ``every``."""
    if trial.steps is not None and reduce(Board.play, trial.moves, trial.board) != target:
        raise RuntimeError(f"heuristic {trial.heuristic}: the search's path does not reach "
                           "the target")  # fmt: skip
    if truths is None:
        return trial._replace(note=NO_TABLE_NOTE)
    truth = truths[i]
    optimal = None if trial.steps is None or truth is None else trial.steps == truth
    h0_over = truth is not None and trial.h0 > truth
    notes = [] if every else ["bound compared with the truth at the start only"]
    if trial.steps is None and trial.status is not Status.UNREACHABLE:
        notes.append(f"no answer to compare ({trial.status})")
    judged = trial._replace(distance=truth, optimal=optimal, note="; ".join(notes),
                            h0_overestimates=h0_over)  # fmt: skip
    if every:
        return judged._replace(overestimates=trial.overestimates or 0)
    worst = (trial.board, trial.h0, truth) if h0_over and truth is not None else None
    return judged._replace(checked=1, overestimates=int(h0_over), worst=worst)


def evaluate(
    spec: Heuristic,
    boards: Iterable[Board | str],
    *,
    target: Board | str = TARGET,
    cache_dir: str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """The heuristic's value, as the search sees it, on each board.

    >>> evaluate("knight_distance", ["10110/01*11/10111/01001/00000"]).tolist()
    [7]
    """
    import numpy as np

    bound, goal = heuristic(spec), as_board(target)
    return np.array([bound_at(as_board(b), bound, goal, cache_dir) for b in boards],
                    dtype=np.int64)  # fmt: skip


def _figure(what: str, height: float) -> Figure:
    """A framed figure 7.5 inches wide for ``what``; an ImportError without matplotlib."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise ImportError(f"{what} needs matplotlib: pip install 'bitknights[plot]'") from None
    from ..render.plot import _figure_class

    return _figure_class()(figsize=(7.5, height), layout="constrained")


def nodes_plot(trials: Sequence[Trial], *, title: str | None = None) -> Figure:
    """Nodes expanded (log scale) against the board's distance, one colour per heuristic,
    medians joined; flagged trials as crosses, those that found nothing left out."""
    fig = _figure("nodes_plot", 4.2)
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    names = list(dict.fromkeys(t.heuristic for t in trials))
    for i, name in enumerate(names):
        colour = f"C{i}"
        done = [t for t in trials if t.heuristic == name and t.steps is not None]
        xs = np.array([t.distance if t.distance is not None else t.steps for t in done])
        ys = np.array([max(t.nodes, 1) for t in done], dtype=float)
        bad = np.array([t.flagged for t in done], dtype=bool)
        if not len(done):
            continue
        ax.scatter(xs[~bad], ys[~bad], s=14, alpha=0.45, color=colour, linewidths=0)
        if bad.any():
            ax.scatter(xs[bad], ys[bad], s=30, marker="x", color=colour)
        ds = np.unique(xs)
        ax.plot(ds, [np.median(ys[xs == d]) for d in ds], color=colour, marker="o", ms=3,
                label=f"{name} (median)")  # fmt: skip
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("distance to the target (moves)")
    ax.set_ylabel("nodes expanded by IDA*")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    ax.set_title(title or f"IDA* work by heuristic ({len(trials)} searches)")
    return fig


def values_plot(
    heuristics: Mapping[str, Heuristic] | Sequence[Heuristic] | str,
    *,
    per_distance: int = 40,
    seed: int = 0,
    target: object = TARGET,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Figure:
    """Each heuristic's value against the true distance over ``per_distance`` boards a
    distance from the distance table: mean, range, and overestimates as crosses."""
    fig = _figure("values_plot", 4.6)
    import numpy as np

    target = as_board(target)  # type: ignore[arg-type]
    answers = service(target, engine="table", cache_dir=cache_dir)
    table = answers.file()  # raises TableError without one
    assert table is not None
    layers = [answers.random_boards(d, min(per_distance, size), seed + d)
              for d, size in enumerate(table.layers)]  # fmt: skip
    boards = [b for layer in layers for b in layer]
    dist = np.repeat(np.arange(len(layers)), [len(layer) for layer in layers])
    ax = fig.add_subplot()
    far = table.max_distance
    ax.plot([0, far], [0, far], color="0.3", ls="--", lw=1, label="true distance")
    for i, bound in enumerate(_bounds(heuristics)):
        colour = f"C{i}"
        values = evaluate(bound, boards, target=target, cache_dir=cache_dir)
        ds = np.unique(dist)
        mean = [values[dist == d].mean() for d in ds]
        low = [values[dist == d].min() for d in ds]
        high = [values[dist == d].max() for d in ds]
        ax.fill_between(ds, low, high, color=colour, alpha=0.18, linewidth=0)
        over = values > dist
        label = bound.name + (f" ({int(over.sum())} overestimates)" if over.any() else "")
        ax.plot(ds, mean, color=colour, lw=1.8, label=label)
        if over.any():
            ax.scatter(dist[over], values[over], marker="x", s=18, color=colour)
    ax.set_xlabel("true distance (moves, from the table)")
    ax.set_ylabel("heuristic value")
    ax.set_xlim(0, far)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    ax.set_title(f"heuristic against the truth ({len(boards):,} boards, up to {per_distance} "
                 "per distance; band: min to max)")  # fmt: skip
    return fig
