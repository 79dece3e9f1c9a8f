"""Meet-in-the-middle engine (``mitm``): plain Python, for a few boards under a small limit.

No numpy nor numba (importing numpy takes longer than a judge's test file takes to
answer).  The **ball** holds every board within :data:`RADIUS` moves of the target with
its distance (:func:`ball_of`; shipped for the classic target).  A **forward search**
from each board grows breadth-first layers, at most ``limit - radius`` of them, until a
board of one lies in the ball (:func:`_search`).  Limits above :data:`MAX_DEPTH` are
refused, by the distance service before the engine runs (the search grows 2.5x a move).
"""

from __future__ import annotations

import os
import struct
import zlib
from array import array
from bisect import bisect_left

from .. import cache, system
from ..board import TARGET, Board
from ..errors import BitknightsError
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES, square_color
from . import Engine, depth_limit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from . import Found
    from .options import SolveOptions, StopFlag

RADIUS = 10
"""Radius of the balls this engine computes and of the one it ships."""

AUTO_DEPTH = RADIUS + 5
AUTO_BOARDS = 200
"""``auto`` picks this engine for the move counts of at most ``AUTO_BOARDS`` boards under a
limit of at most ``AUTO_DEPTH`` (five forward layers; beyond, numpy's bidirectional
search is faster, its import included)."""

MAX_DEPTH = 22
"""The deepest limit this engine accepts (12 forward layers, a second a board at worst)."""

MAX_FORWARD = 1 << 20
"""The most forward boards one search may hold; more is an error (not within MAX_DEPTH)."""

_POLL = 4096  # forward boards between looks at the stop flag

MAGIC = b"BKNMBALL"
VERSION = 2
BALL_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "classic-ball.bkb")
"""The shipped ball of the classic target: a header (:func:`bitknights.cache.pack_header`
with the fields target key u64, radius u32, board count n u32, payload CRC-32 u32), then
n sorted keys (u32 each) and n distances (a byte each); every byte is under a checksum."""

CLASSIC_LAYERS = (1, 8, 14, 38, 148, 368, 1001, 2440, 6468, 14116, 32825)
"""How many boards are 0, 1, ..., 10 moves from the classic target."""

SHIPPED_CRC = 0xFE19BFC4
"""The CRC-32 of the shipped ball's payload: a file with it needs no further check."""

_FIELDS = struct.Struct("<QIII")
MAX_BALL_BYTES = 1 << 20
_FIX = "reinstall bitknights to restore it"


class BallError(ValueError):
    """The shipped ball fails a check; the message says which."""


class Ball:
    """Every board within ``radius`` moves of ``target``: sorted ``keys`` and their
    ``dists``, found by binary search."""

    __slots__ = ("dists", "keys", "radius", "target_key")

    def __init__(self, target_key: int, radius: int, keys: array, dists: bytes) -> None:
        self.target_key, self.radius, self.keys, self.dists = target_key, radius, keys, dists

    def __len__(self) -> int:
        return len(self.keys)

    def get(self, key: int) -> int | None:
        """The board's distance to the target, or ``None`` when more than ``radius``."""
        i = bisect_left(self.keys, key)
        return self.dists[i] if i < len(self.keys) and self.keys[i] == key else None

    def payload(self) -> bytes:
        return cache.u32_bytes(self.keys) + bytes(self.dists)


_MOVES = tuple(
    tuple((1 << n, (1 << n) | (1 << blank), n << NUM_SQUARES) for n in KNIGHT_TARGETS[blank])
    for blank in range(NUM_SQUARES)
)
"""``_MOVES[blank]``: for each square ``n`` a knight's jump from the blank, ``(bit of n,
the bits a black knight's jump flips, n as a key's blank)``."""


def _neighbours(key: int) -> Iterable[int]:
    black = key & FULL_MASK
    for bit, flip, shifted in _MOVES[key >> NUM_SQUARES]:
        yield (black ^ flip if black & bit else black) | shifted


def build_ball(target: Board, radius: int = RADIUS) -> Ball:
    """The ball of ``target`` by breadth-first search."""
    dist = {target.key: 0}
    frontier = [target.key]
    for d in range(1, radius + 1):
        layer = dict.fromkeys(c for key in frontier for c in _neighbours(key) if c not in dist)
        dist.update(dict.fromkeys(layer, d))
        frontier = list(layer)
    keys = sorted(dist)
    return Ball(target.key, radius, array("I", keys), bytes(dist[k] for k in keys))


def ball_bytes(ball: Ball) -> bytes:
    """The ball as a file (:data:`BALL_FILE`); ``ball_bytes(build_ball(TARGET))`` is the
    shipped one."""
    payload = ball.payload()
    fields = _FIELDS.pack(ball.target_key, ball.radius, len(ball), zlib.crc32(payload))
    return cache.pack_header(MAGIC, VERSION, fields) + payload


def read_ball(data: bytes) -> Ball:
    """The ball a file holds if it is the one this version ships, else :class:`BallError`
    naming the first check that fails (header, size, checksum, target, radius; then, for
    a payload of another checksum, what is wrong with it)."""
    fields = cache.unpack_header(data, MAGIC, VERSION, BallError)
    size = cache.header_size(data) or 0
    if len(fields) != _FIELDS.size:
        raise BallError("has a corrupt header")
    key, radius, count, crc = _FIELDS.unpack(fields)
    if len(data) != size + 5 * count:
        raise BallError(f"has {len(data):,} bytes, its header says {size + 5 * count:,}")
    if zlib.crc32(memoryview(data)[size:]) != crc:
        raise BallError("is corrupt (payload checksum mismatch)")
    if key != TARGET.key:
        raise BallError("is not the classic target's ball")
    if radius != RADIUS:
        raise BallError(f"has radius {radius}, not {RADIUS}")
    keys = cache.u32_array(memoryview(data)[size : size + 4 * count])
    ball = Ball(key, radius, keys, data[size + 4 * count :])
    if crc == SHIPPED_CRC and count == sum(CLASSIC_LAYERS):
        return ball
    listed = keys.tolist()
    if listed != sorted(listed):
        raise BallError("is inconsistent (its keys are not in order)")
    if tuple(ball.dists.count(d) for d in range(RADIUS + 1)) != CLASSIC_LAYERS or (
        count != sum(CLASSIC_LAYERS)
    ):
        raise BallError("is inconsistent (its boards at each distance are not the classic ones)")
    if ball.get(key) != 0 or any(ball.get(n) != 1 for n in _neighbours(key)):
        raise BallError("is inconsistent (wrong distances next to the target)")
    raise BallError("is not the ball this version ships (its payload checksum differs)")


_balls: dict[int, Ball] = {}


def ball_of(target: Board) -> Ball:
    """The ball of ``target``: the shipped file for the classic target when
    :func:`read_ball` takes it, else computed (once per process)."""
    ball = _balls.get(target.key)
    if ball is None:
        ball = _read_shipped() if target == TARGET else None
        ball = _balls[target.key] = build_ball(target) if ball is None else ball
    return ball


def _read_shipped() -> Ball | None:
    """The shipped ball, or ``None`` after saying once why not.  It is opened as cache
    files are, without their trust rule (it lies beside the code that reads it)."""
    try:
        fd, st = cache.open_cached(BALL_FILE, "shipped ball", trust=False,
                                   max_size=MAX_BALL_BYTES, fix=_FIX)  # fmt: skip
        try:
            return read_ball(system.read_at(fd, st.st_size, 0))
        finally:
            os.close(fd)
    except FileNotFoundError:
        problem = f"shipped ball {BALL_FILE} is missing; {_FIX}"
    except OSError as e:
        problem = f"cannot read shipped ball {BALL_FILE}: {e.strerror or e}; {_FIX}"
    except cache.CacheError as e:
        problem = str(e)
    except BallError as e:
        problem = f"shipped ball {BALL_FILE} {e}; {_FIX}"
    cache.warn_once(problem, "computing it instead")
    return None


class _Stopped(Exception):
    """The stop flag was raised during a forward search."""


def _search(
    start: int, ball: Ball, limit: int, stop: StopFlag | None
) -> tuple[int, int, int, dict[int, int]]:
    """``(distance or -1 beyond limit, the forward board where the halves meet, boards
    looked up, each forward board's predecessor)``; raises :class:`_Stopped` when
    ``stop`` is raised.

    Exact: when no board of forward layers ``0 .. i - 1`` lies in the ball, the distance
    is at least ``radius + i``, so the first board of layer ``i`` found in the ball ends
    the search at ``radius + i``.  Layers of the wrong parity (the blank changes colour
    every move) are not looked up."""
    keys, dists, find = ball.keys, ball.dists, bisect_left
    n, radius = len(keys), ball.radius
    at = find(keys, start)
    if at < n and keys[at] == start:
        return (dists[at] if dists[at] <= limit else -1), start, 1, {start: start}
    parity = square_color(start >> NUM_SQUARES) ^ square_color(ball.target_key >> NUM_SQUARES)
    frontier = [start]
    parents = {start: start}
    nodes = 1
    for i in range(1, limit - radius + 1):
        look = (radius + i - parity) % 2 == 0
        last = i == limit - radius
        if last and not look:
            break
        nxt: list[int] = []
        for j, key in enumerate(frontier):
            if not j % _POLL and stop is not None and stop.raised:
                raise _Stopped
            black = key & FULL_MASK
            for bit, flip, shifted in _MOVES[key >> NUM_SQUARES]:
                child = (black ^ flip if black & bit else black) | shifted
                if child in parents:
                    continue
                if look:
                    nodes += 1
                    at = find(keys, child)
                    if at < n and keys[at] == child:
                        parents[child] = key
                        return radius + i, child, nodes, parents
                if not last:
                    parents[child] = key
                    nxt.append(child)
        frontier = nxt
        if len(parents) > MAX_FORWARD:
            raise BitknightsError(
                f"the mitm engine's forward search passed {MAX_FORWARD:,} boards (its "
                "memory budget); use --engine bidir, or table"
            )
    return -1, -1, nodes, parents


class MitmEngine(Engine):
    """Meeting in the middle, in plain Python on the calling thread: ``nodes`` counts
    the forward boards looked up."""

    name = "mitm"
    max_limit = MAX_DEPTH

    def steps(
        self, keys: Iterable[int], target: Board, options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> list[int]:  # fmt: skip
        ball, limit = ball_of(target), depth_limit(options.max_depth)
        out = []
        try:
            for key in map(int, keys):
                out.append(_search(key, ball, limit, stop)[0])
        except _Stopped:
            from ..results import STOPPED

            out += [STOPPED] * (len(keys) - len(out))  # type: ignore[arg-type]
        return out

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        from ..results import STOPPED

        ball = ball_of(target)
        try:
            steps, meet, nodes, parents = _search(start.key, ball, limit, stop)
        except _Stopped:
            return STOPPED, (), 0
        if steps < 0:
            return steps, (), nodes
        path = [meet]
        while path[-1] != start.key:
            path.append(parents[path[-1]])
        path.reverse()
        key = meet
        for want in range(ball.get(meet) - 1, -1, -1):  # type: ignore[operator]
            key = next(c for c in _neighbours(key) if ball.get(c) == want)
            path.append(key)
        return steps, [key >> NUM_SQUARES for key in path], nodes


ENGINE = MitmEngine()
