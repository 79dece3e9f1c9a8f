"""The heuristic lab's runs: heuristics named or given, IDA* under each, the records
compared with the distance table (see :mod:`bitknights.lab`), and their pictures
(matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import reduce

from .. import progress
from ..board import TARGET, Board, Move, as_board
from ..errors import BitknightsError, plural
from ..results import Status
from ..service import heuristic, service

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

    import numpy as np
    from matplotlib.figure import Figure

    from ..service import Bound, Outcome

    Heuristic = str | Bound | Callable[..., int]

NO_TABLE_NOTE = (
    "no distance table for this target: optimality and admissibility cannot be checked "
    "(`bitknights table build` makes the truth available)"
)


@dataclass(frozen=True)
class Trial:
    """One IDA* run of one heuristic on one board: ``h0``, the bound at the start;
    ``iterations``, ``(threshold, nodes)`` each.  Against the distance table: the true
    ``distance``, ``optimal``, ``checked`` (bound values compared), ``overestimates`` and
    ``worst`` (``(board, bound, true distance)``); ``None`` where not compared (``note``).
    """

    board: Board
    heuristic: str
    steps: int | None
    status: Status
    nodes: int
    seconds: float
    h0: int
    iterations: tuple[tuple[int, int], ...]
    moves: tuple[Move, ...] = ()
    distance: int | None = None
    optimal: bool | None = None
    checked: int = 0
    overestimates: int | None = None
    worst: tuple[Board, int, int] | None = None
    note: str = ""
    h0_overestimates: bool | None = None

    @property
    def flagged(self) -> bool:
        """Whether the truth shows the heuristic wrong here."""
        return bool(self.overestimates) or self.optimal is False

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def __repr__(self) -> str:
        """One line: the heuristic, what it found, its work and the verdict.

        >>> from bitknights import lab
        >>> (t,) = lab.compare(["10110/01*11/10111/01001/00000"], "knight_distance")
        >>> t  # doctest: +ELLIPSIS
        <Trial 'knight_distance' solved in 7 moves, 9 nodes, h0 7: ...>
        """
        work = plural(self.nodes, "node", ",")
        if self.steps is None:
            found = f"{self.status} after {work}"
        else:
            found = f"solved in {plural(self.steps, 'move')}, {work}"
        return f"<Trial {self.heuristic!r} {found}, h0 {self.h0}: {self.verdict}>"

    @property
    def verdict(self) -> str:
        """What the distance table says of this trial, in a few words."""
        if self.overestimates is None:
            return "not checked (no table)"
        why = []
        if self.overestimates:
            where = "the start" if self.checked == 1 else f"{self.overestimates:,} boards"
            why.append(f"overestimates at {where}")
        if self.optimal is False:
            why.append(f"not optimal (the distance is {self.distance})")
        if why:
            return "flagged: " + ", ".join(why)
        if self.optimal:
            return "optimal"
        return "unreachable" if self.status is Status.UNREACHABLE else "no answer to check"

    def as_dict(self) -> dict[str, Any]:
        """The trial as JSON-ready data."""
        d = asdict(self)
        d["board"] = self.board.compact
        d["status"] = str(self.status)
        d["moves"] = [str(m) for m in self.moves]
        d["iterations"] = [list(x) for x in self.iterations]
        if self.worst is not None:
            d["worst"] = {"board": self.worst[0].compact, "bound": self.worst[1],
                          "distance": self.worst[2]}  # fmt: skip
        d["flagged"] = self.flagged
        return d


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
    target = as_board(target)
    starts = [as_board(b) for b in boards]
    bounds = _bounds(heuristics)
    if not bounds:
        raise BitknightsError("compare() needs at least one heuristic")
    truths, runs = service(target, cache_dir=cache_dir).heuristic_runs(
        starts, bounds, max_depth=max_depth, timeout=timeout, workers=workers,
        check_all=check_all)  # fmt: skip
    trials: list[Trial] = []
    with progress.bar(len(starts) * len(bounds), "trials", "comparing heuristics") as shown:
        for start, bound, outcome, every in runs:
            truth = None if truths is None else truths[len(trials) // len(bounds)]
            trials.append(_trial(start, target, bound, outcome, truth, truths is not None, every))
            shown.update()
    return trials


def _trial(start: Board, target: Board, bound: Bound, outcome: Outcome, truth: int | None,
           have_table: bool, every: bool) -> Trial:  # fmt: skip
    status = Status.of(outcome.code)
    path = outcome.blanks  # the blank's squares: each move's knight jumps from the next
    moves = tuple(Move(f, t) for t, f in zip(path, path[1:]))
    if outcome.steps is not None and reduce(Board.play, moves, start) != target:
        raise RuntimeError(f"heuristic {bound.name}: the search's path does not reach the target")
    found = (start, bound.name, outcome.steps, status, outcome.nodes, outcome.seconds,
             outcome.h0, outcome.iterations, moves)  # fmt: skip
    if not have_table:
        return Trial(*found, note=NO_TABLE_NOTE)
    optimal = None if outcome.steps is None or truth is None else outcome.steps == truth
    h0_over = truth is not None and outcome.h0 > truth
    over = outcome.over if every else int(h0_over)
    worst = None
    if every and outcome.worst_board is not None:
        worst = (outcome.worst_board, outcome.worst_h, outcome.worst_h - outcome.worst)
    elif h0_over and truth is not None:
        worst = (start, outcome.h0, truth)
    notes = [] if every else ["bound compared with the truth at the start only"]
    if outcome.steps is None and status is not Status.UNREACHABLE:
        notes.append(f"no answer to compare ({status})")
    return Trial(*found, truth, optimal, outcome.checked if every else 1, over, worst,
                 "; ".join(notes), h0_over)  # fmt: skip


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
    return service(target, cache_dir=cache_dir).bound_values(heuristic(spec), boards)


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
