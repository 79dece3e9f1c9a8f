"""The distance histogram as a matplotlib figure (matplotlib is optional and imported only
when a plot is asked for)."""

from __future__ import annotations

import functools
import io

from .boards import DARK, FRAME, INK, LIGHT
from .text import layer_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from matplotlib.figure import Figure


PAPER = "#fbf5ea"  # the figure's background, in the board's dark wooden frame
FRAME_WIDTH = 6  # points (half of it inside the picture)


@functools.cache
def _figure_class() -> type[Figure]:
    """A matplotlib ``Figure`` that shows itself in a notebook (as PNG) without pyplot, in
    its own colours: dark text on paper in a dark wooden frame, on any theme."""
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            own = {"facecolor": PAPER, "edgecolor": FRAME, "linewidth": FRAME_WIDTH}
            super().__init__(*args, **{**own, **kwargs})
            from matplotlib.layout_engine import ConstrainedLayoutEngine

            engine = self.get_layout_engine()
            if isinstance(engine, ConstrainedLayoutEngine):  # keep the text off the frame
                engine.set(w_pad=FRAME_WIDTH / 72 + 0.06, h_pad=FRAME_WIDTH / 72 + 0.06)

        def _repr_png_(self) -> bytes:
            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=96)
            return buf.getvalue()

    return NotebookFigure


def distribution_plot(layers: Sequence[int] | Mapping[int, int], *, log: bool = True) -> Figure:
    """A bar chart (a matplotlib ``Figure``) of how many boards lie at each distance
    (``log``: a log scale); needs ``bitknights[plot]``, unlike :func:`distribution_text`."""
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
