"""A solution as pictures: every board along the path (the strip), an animation that
plays the moves, and the notebook view holding both."""

from __future__ import annotations

from collections.abc import Sequence

from ..board import Board, Move
from ..errors import BoardError, plural
from ..solution import Solution, moves_along
from ..squares import NUM_SQUARES, square_name
from .boards import (
    BOARD_UNITS,
    LABEL,
    Defs,
    HtmlPicture,
    M,
    SvgPicture,
    board_group,
    board_root,
    el,
    frame_rect,
    highlight,
    markup,
    num,
    piece,
    sub,
    svg_root,
    with_defs,
)
from .boards import square_corner as corner

TYPE_CHECKING = False
if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

Path = Solution | Sequence[Board]


def _path(solution: Path) -> tuple[list[Board], list[Move]]:
    """The boards and moves of ``solution`` (or of a list of boards), checked; of an unsolved
    one, its start alone."""
    unsolved = _unsolved(solution)
    if unsolved is not None:
        return [unsolved.start], []
    boards = list(solution.boards if isinstance(solution, Solution) else solution)
    for a, b in zip(boards, boards[1:]):
        if a.play(b.blank) != b:  # raises BoardError when not even a knight's jump
            raise BoardError(f"not a path: {b.compact} does not follow {a.compact}")
    return boards, moves_along(boards)


def _unsolved(solution: Path) -> Solution | None:
    return solution if isinstance(solution, Solution) and solution.steps is None else None


def unsolved_text(solution: Solution) -> str:
    """Why ``solution`` has no path, e.g. ``'no solution within 15 moves (over limit)'``."""
    status = str(getattr(solution.status, "value", solution.status)).replace("_", " ")
    limit = solution.max_depth
    within = f" within {limit} moves" if limit is not None and status == "over limit" else ""
    return f"no solution{within} ({status})"


def _caption(text: str, x: float, y: float, size: int, **attrs: str) -> ET.Element:
    return el("text", text, class_="caption", **attrs, x=x, y=y, font_size=size, fill=LABEL)


def _title(moves: list[Move]) -> str:
    return f"{len(moves)} moves: {' '.join(str(m) for m in moves)}"


def _band(ox: float, oy: float, height: float) -> ET.Element:
    """The caption band over a board, running into the board's frame below it."""
    return frame_rect(ox, oy, BOARD_UNITS, height + 30)


_CAP_H = 70  # the caption band over each board of a strip
_GAP = 30  # between the boards of a strip


def _step(root: ET.Element, k: int, boards: list[Board], moves: list[Move], ox: float,
          oy: float, defs: Defs) -> None:  # fmt: skip
    """Board ``k`` of a path at ``(ox, oy)`` of ``root``, under its caption band."""
    root.append(_band(ox, oy, _CAP_H))
    root.append(_caption("start" if k == 0 else f"{k}. {moves[k - 1]}", ox + M, oy + 50, 40))
    move = moves[k - 1] if k else None
    root.append(
        board_group(boards[k], defs, ox, oy + _CAP_H, move=move, placed=True, data_step=str(k))
    )


def solution_svg(solution: Path, *, per_row: int = 5, board_size: float = 160) -> SvgPicture:
    """Every board along the solution's path (or list of boards), ``per_row`` to a row,
    each a ``<g class="board" data-step="k" data-board="...">`` headed by the move that made
    it, highlighted.  An unsolved result shows its start board and why."""
    defs = Defs()
    unsolved = _unsolved(solution)
    if unsolved is not None:  # its start board under why, on two lines
        root = svg_root("bitknights-solution", board_size, BOARD_UNITS, BOARD_UNITS + 100)
        root.append(_band(0, 0, 100))
        why, _, status = unsolved_text(unsolved).partition(" (")
        root.append(_caption(why, M, 42, 30))
        if status:
            root.append(_caption(f"({status}", M, 80, 30))
        root.append(board_group(unsolved.start, defs, 0, 100, data_step="0"))
    else:
        boards, moves = _path(solution)
        per_row = max(1, min(per_row, len(boards)))
        cell_w, cell_h = BOARD_UNITS + _GAP, _CAP_H + BOARD_UNITS + _GAP
        nrows = -(-len(boards) // per_row)
        units_w, units_h = per_row * cell_w - _GAP, nrows * cell_h - _GAP
        root = svg_root("bitknights-solution", board_size, units_w, units_h, _title(moves))
        for k in range(len(boards)):
            _step(root, k, boards, moves, (k % per_row) * cell_w, (k // per_row) * cell_h, defs)
    return SvgPicture(markup(with_defs(root, defs)))


def solution_animation_svg(
    solution: Path, *, size: float = 240, seconds_per_move: float = 1.0
) -> SvgPicture:
    """An animated picture of the solution (SMIL, no script; else the start board): the
    knights jump one move per ``seconds_per_move``, the move's squares lit, a caption
    counting moves; it pauses on the start and end boards and loops."""
    defs = Defs()
    return SvgPicture(markup(with_defs(_animation(solution, size, seconds_per_move, defs), defs)))


def _animation(solution: Path, size: float, seconds_per_move: float, defs: Defs) -> ET.Element:
    step = float(seconds_per_move)
    if not step > 0:
        raise ValueError(f"seconds_per_move must be positive, got {seconds_per_move!r}")
    boards, moves = _path(solution)
    n = len(moves)
    cap_h = 60
    units_h = BOARD_UNITS + cap_h
    hold_start, hold_end, travel = 1.0, 2.0, 0.45
    dur = (hold_start + hold_end + n) * step
    clock = {"dur": f"{num(round(dur, 3))}s", "repeatCount": "indefinite"}
    starts = [(hold_start + i) * step for i in range(n)]  # when move i+1 begins

    def animate(tag: str, name: str, values: list[str], ts: list[float], mode: str, **kind: str):
        fractions = (f"{min(1.0, t / dur):.6f}".rstrip("0").rstrip(".") or "0" for t in ts)
        keys = {"values": ";".join(values), "keyTimes": ";".join(fractions), "calcMode": mode}
        keys.update(clock)
        return el(tag, attributeName=name, **kind, **keys)

    def fade(values: list[str], ts: list[float]) -> ET.Element:
        return animate("animate", "opacity", values, ts, "discrete")

    def moving(squares: list[int], ts: list[float], mode: str) -> ET.Element:
        values = [xy(sq) for sq in squares]
        return animate("animateTransform", "transform", values, ts, mode, type="translate")

    def xy(sq: int) -> str:
        x, y = corner(sq)
        return f"{x},{y + cap_h}"

    root = svg_root("bitknights-animation", size, BOARD_UNITS, units_h, _title(moves))
    root.append(_band(0, 0, cap_h))
    g = sub(root, "g", class_="board", data_board=boards[0].compact)
    sub(g, "use", href=defs.use("bk-grid"), y=cap_h)
    # the move being made lights its two squares for the length of its step
    down = f"translate(0,{cap_h})"
    for i, m in enumerate(moves):
        hl = sub(g, "g", class_="hl-step", data_step=str(i + 1), opacity="0", transform=down)
        hl.extend([highlight(m.from_square, "from"), highlight(m.to_square, "to")])
        hl.append(fade(["0", "1", "0"], [0.0, starts[i], starts[i] + step]))
    # the blank moves to the square a knight left the moment the knight lands
    blank_path = [boards[0].blank] + [m.from_square for m in moves]
    blank = piece("*", blank_path[0], defs, transform=f"translate({xy(blank_path[0])})")
    g.append(blank)
    if n:
        blank.append(moving(blank_path, [0.0, *(t + travel * step for t in starts)], "discrete"))
    # each knight keeps its identity; track which knight stands where
    where = {sq: sq for sq in range(NUM_SQUARES) if sq != boards[0].blank}  # square -> knight
    track: dict[int, list[tuple[float, int]]] = {k: [(0.0, k)] for k in where.values()}
    for i, m in enumerate(moves):
        k = where.pop(m.from_square)
        where[m.to_square] = k
        track[k] += [(starts[i], m.from_square), (starts[i] + travel * step, m.to_square)]
    end = {k: sq for sq, k in where.items()}
    for k, keys in sorted(track.items()):
        ends = {"data_start": square_name(k), "data_end": square_name(end[k])}
        knight = piece(boards[0].cell(k), k, defs, transform=f"translate({xy(k)})", **ends)
        if len(keys) > 1:
            keys = [*keys, (dur, keys[-1][1])]
            knight.append(moving([sq for _, sq in keys], [t for t, _ in keys], "linear"))
        g.append(knight)
    # captions: "start", then "k/n from-to", one visible at a time
    caps = ["start"] + [f"{i + 1}/{n}  {m}" for i, m in enumerate(moves)]
    bounds = [0.0, *starts, dur]
    for i, cap in enumerate(caps):
        text = _caption(cap, M, 44, 36, data_step=str(i), opacity="1" if i == 0 else "0")
        if n and i == 0:
            text.append(fade(["1", "0"], [0.0, bounds[1]]))
        elif n and i < n:
            text.append(fade(["0", "1", "0"], [0.0, bounds[i], bounds[i + 1]]))
        elif n:
            text.append(fade(["0", "1"], [0.0, bounds[i]]))
        root.append(text)
    return root


def solution_html(solution: Path, *, per_row: int = 5, board_size: float = 160) -> HtmlPicture:
    """The notebook view of a solution (well-formed XHTML): the move count and list, the
    animation, then every board along the path, wrapping (``per_row`` is for
    :func:`solution_svg` alone); its pictures share one ``<defs>``."""
    div = el("div", class_="bitknights-solution")
    unsolved = _unsolved(solution)
    if unsolved is not None:
        sub(div, "p", unsolved_text(unsolved))
        div.append(board_root(unsolved.start, board_size))
        return HtmlPicture(markup(div))
    boards, moves = _path(solution)
    facts = {"engine": "engine {}", "nodes": "{:,} nodes", "seconds": "{:.3g} s"}
    values = {name: getattr(solution, name, None) for name in facts}  # a list of boards: none
    meta = [form.format(values[name]) for name, form in facts.items() if values[name]]
    head = sub(div, "p")
    b = sub(head, "b", plural(len(moves), "move"))
    b.tail = (f" ({', '.join(meta)})" if meta else "") + ": "
    code = sub(head, "code", None if moves else "none")
    for i, m in enumerate(moves):  # a line may break between moves, never inside one
        sub(code, "span", str(m), style="white-space:nowrap").tail = (
            " " if i + 1 < len(moves) else None
        )
    row = sub(div, "div", style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start")
    defs = Defs()
    animation = _animation(boards, max(board_size, 220), 1.0, defs)
    wrap = "display:flex;flex-wrap:wrap;gap:8px;flex:1 1 320px;min-width:0"
    steps = el("div", class_="bitknights-steps", style=wrap)  # a small picture per board
    for k in range(len(boards)):
        svg = svg_root("bitknights-step", board_size, BOARD_UNITS, _CAP_H + BOARD_UNITS)
        _step(svg, k, boards, moves, 0, 0, defs)
        steps.append(svg)
    row.extend([with_defs(animation, defs), steps])
    return HtmlPicture(markup(div))
