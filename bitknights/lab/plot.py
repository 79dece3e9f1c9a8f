"""The heuristic lab's pictures (matplotlib, the ``plot`` extra)."""

from __future__ import annotations

from ..board import TARGET, as_board
from ..render.plot import _figure_class

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Mapping, Sequence

    from matplotlib.figure import Figure

    from .core import Heuristic, Trial


def _need_matplotlib(what: str) -> None:
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise ImportError(f"{what} needs matplotlib: pip install 'bitknights[plot]'") from None


def nodes_plot(trials: Sequence[Trial], *, title: str | None = None) -> Figure:
    """Nodes expanded (log scale) against the board's distance, one colour per heuristic,
    medians joined; flagged trials as crosses, those that found nothing left out."""
    _need_matplotlib("nodes_plot")
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    fig = _figure_class()(figsize=(7.5, 4.2), layout="constrained")
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
    _need_matplotlib("values_plot")
    import numpy as np

    from ..service import service
    from .core import _bounds, evaluate

    target = as_board(target)  # type: ignore[arg-type]
    answers = service(target, engine="table", cache_dir=cache_dir)
    table = answers.file()  # raises TableError without one
    assert table is not None
    boards, truth = [], []
    for d, size in enumerate(table.layers):
        for b in answers.random_boards(d, min(per_distance, size), seed + d):
            boards.append(b)
            truth.append(d)
    dist = np.array(truth)
    fig = _figure_class()(figsize=(7.5, 4.6), layout="constrained")
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


__all__ = ["nodes_plot", "values_plot"]
