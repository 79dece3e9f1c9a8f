"""Pictures of boards, solutions, hints and distance counts: SVG and HTML for notebooks,
text for terminals, a matplotlib plot.

Every SVG or HTML picture is a :class:`SvgPicture` or :class:`HtmlPicture`: a ``str`` of
self-contained markup (no script, nothing fetched) that a notebook shows as a picture, in
its own colours (``docs/notebook.md``).

Every square is a ``<rect class="sq ..." data-square="...">``, every knight a ``<use
class="knight white|black" data-square="...">`` and the blank a ``<use class="blank"
data-square="...">``, so a picture can be checked (or styled) by machine:

>>> from bitknights import TARGET
>>> svg = board_svg(TARGET, move=TARGET.moves()[0])
>>> svg.count('class="sq '), svg.count('class="knight '), svg.count('class="blank"')
(25, 24, 1)

The package sits above the value types and imports nothing else of bitknights: hints and
distance counts come in as data.  It needs only the standard library (matplotlib only
inside :func:`distribution_plot`).
"""

from __future__ import annotations

from ..solution import Hint
from .boards import HtmlPicture, SvgPicture, board_html, board_svg, hints_html, hints_svg
from .plot import distribution_plot
from .solutions import solution_animation_svg, solution_html, solution_svg
from .text import board_rows, board_text, distribution_text, path_text

__all__ = [
    "Hint",
    "HtmlPicture",
    "SvgPicture",
    "board_html",
    "board_rows",
    "board_svg",
    "board_text",
    "distribution_plot",
    "distribution_text",
    "hints_html",
    "hints_svg",
    "path_text",
    "solution_animation_svg",
    "solution_html",
    "solution_svg",
]
