"""The distance histogram as a matplotlib figure (matplotlib is optional and imported only
when a plot is asked for)."""

from __future__ import annotations

import functools
import io

from .boards import DARK, INK, LIGHT
from .text import layer_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from matplotlib.figure import Figure


@functools.cache
def _figure_class() -> type[Figure]:
    """A matplotlib ``Figure`` that shows itself in a notebook (as PNG) even when pyplot
    and its inline backend were never loaded; made on first use (imports matplotlib)."""
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        def _repr_png_(self) -> bytes:
            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=96)
            return buf.getvalue()

    return NotebookFigure


def distribution_plot(layers: Sequence[int] | Mapping[int, int], *, log: bool = True) -> Figure:
    """A bar chart (a matplotlib ``Figure``) of how many boards lie at each distance;
    ``log`` puts the counts on a log scale.  It displays itself in a notebook without
    pyplot.  Needs matplotlib (``pip install 'bitknights[plot]'``);
    :func:`~bitknights.render.distribution_text` draws the same without it."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise ImportError(
            "distribution_plot needs matplotlib: pip install 'bitknights[plot]' "
            "(distribution_text draws the same histogram as text)"
        ) from None
    counts = layer_counts(layers)
    fig = _figure_class()(figsize=(7.5, 3.6), layout="constrained")
    ax = fig.add_subplot()
    colours = [LIGHT if d % 2 == 0 else DARK for d in range(len(counts))]
    ax.bar(range(len(counts)), counts, color=colours, edgecolor=INK, linewidth=0.6)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("distance to the target (moves)")
    ax.set_ylabel("boards")
    far = max((d for d, c in enumerate(counts) if c), default=0)
    ax.set_title(f"{sum(counts):,} boards, largest distance {far}")
    ax.set_xlim(-0.6, len(counts) - 0.4)
    return fig


__all__ = ["distribution_plot"]
