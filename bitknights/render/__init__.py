"""Pictures of boards, solutions, hints and distance counts: SVG and HTML for notebooks,
text for terminals, a matplotlib plot.

Every SVG or HTML picture is a :class:`SvgPicture` or :class:`HtmlPicture`: a ``str`` of
self-contained markup (no script, nothing fetched: no fonts, images or style sheets; text
uses the viewer's own ``sans-serif``) that a notebook shows as a picture.  The knights are
one outline defined once per picture and placed with ``<use>``, ivory with a dark
outline for white (``0``) and near-black for black (``1``); the blank square is drawn
dashed.  The board stands in a dark wooden frame that carries the labels (light on the
frame), so a picture reads the same on light and dark notebook themes, inline or as an
``<img>`` (see :mod:`~bitknights.render.boards`).  The labels on the edges, and with
``names=True`` on every square, are the square names of
:func:`bitknights.squares.square_name`.

Every square is a ``<rect class="sq ..." data-square="...">`` (once, in the picture's
grid), every knight a ``<use class="knight white|black" data-square="...">`` and the blank
a ``<use class="blank" data-square="...">``, so a picture can be checked (or styled) by
machine (in a solution's strip of boards, each piece is a ``<use>`` of such an element
defined once on its square):

>>> from bitknights import TARGET
>>> svg = board_svg(TARGET, move=TARGET.moves()[0])
>>> svg.count('class="sq '), svg.count('class="knight '), svg.count('class="blank"')
(25, 24, 1)

The package sits above the value types (:mod:`bitknights.board`,
:mod:`bitknights.solution`, :mod:`bitknights.squares`) and imports nothing else of
bitknights: hints and distance counts come in as data (``bitknights.table.hints(board)``,
``bitknights.table.layer_counts()``).  It needs only the standard library; matplotlib only
inside :func:`distribution_plot`.  :class:`~bitknights.Board` and
:class:`~bitknights.Solution` import it when a notebook first asks for a picture.
"""

from __future__ import annotations

from .boards import Hint, board_html, board_svg, hints_html, hints_svg
from .plot import distribution_plot
from .solutions import solution_animation_svg, solution_html, solution_svg
from .svg import HtmlPicture, SvgPicture
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
