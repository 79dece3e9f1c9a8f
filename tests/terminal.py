"""Running a command as a person sees it: on a pseudo-terminal, and what the screen keeps
(a small emulator of the few control sequences bitknights and tqdm write)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from subprocess import DEVNULL

CLI = [sys.executable, "-m", "bitknights"]
ROWS, COLUMNS = 24, 100
BOUND = 300  # seconds any wait on a child may take: a hang fails with a message, never stalls


@contextlib.contextmanager
def _child(command, columns, *, env=None, **popen):
    """A child with standard error (and what ``popen`` names ``"pty"``) on a new terminal of
    ``ROWS`` x ``columns``; yields ``(process, master fd)``, kills the child at the end."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, columns, 0, 0))
    popen = {k: slave if v == "pty" else v for k, v in popen.items()}
    p = subprocess.Popen(command, stderr=slave, env={**os.environ, **(env or {})}, **popen)
    os.close(slave)
    try:
        yield p, master
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(timeout=BOUND)
        os.close(master)


def on_terminal(
    args, *, env=None, stdin=DEVNULL, columns=COLUMNS, command=CLI, cwd=None, timeout=BOUND
):
    """``bitknights ARGS`` (or ``command``) with both outputs on one pseudo-terminal: returns
    ``(status, everything written)``; fails, the child killed, past ``timeout`` seconds."""
    streams = {"stdin": stdin, "stdout": "pty"}
    with _child([*command, *args], columns, env=env, cwd=cwd, **streams) as (p, master):
        seen = drain(master, timeout, what=f"{' '.join(map(str, args))}")
        status = p.wait(timeout=timeout)
    return status, seen.decode(errors="replace")


def stderr_on_terminal(args, *, stdin=b"", env=None, columns=COLUMNS, timeout=BOUND):
    """``bitknights ARGS`` with standard error alone on a pseudo-terminal (a few KB unread
    make the writer wait): returns ``(status, standard output, what the terminal showed)``."""
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE}
    with _child([*CLI, *args], columns, env=env, **pipes) as (p, master):
        out, _ = p.communicate(stdin, timeout=timeout)
        seen = drain(master, timeout, what=" ".join(map(str, args)))
    return p.returncode, out, seen.decode(errors="replace")


def _shown(fd: int, deadline: float, seen: bytes, what: str) -> bytes:
    """What the terminal ``fd`` shows next (``b""`` once its other side closed); fails
    with ``what`` past ``deadline``, saying what it did show."""
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"{what}; the terminal shows {seen[-2000:]!r}"
        if select.select([fd], [], [], min(left, 1))[0]:
            try:
                return os.read(fd, 65536)
            except OSError:  # the other end closed
                return b""


def drain(fd: int, seconds: float = BOUND, *, what: str = "the child") -> bytes:
    """Everything a terminal's master side ``fd`` gives until its other side closes (the
    child and its children have ended), within ``seconds``."""
    seen = b""
    deadline = time.monotonic() + seconds
    while chunk := _shown(fd, deadline, seen, f"{what} still writing after {seconds} s"):
        seen += chunk
    return seen


def read_until(
    fd: int, marker: bytes, seen: bytes = b"", seconds: float = BOUND, *, count: int = 1
) -> bytes:
    """What the terminal ``fd`` shows, ``seen`` first, read until ``marker`` appears in it
    (``count`` times); fails after ``seconds``, saying what it did show."""
    deadline = time.monotonic() + seconds
    while seen.count(marker) < count:
        chunk = _shown(fd, deadline, seen, f"no {marker!r} within {seconds} s")
        assert chunk, f"the terminal closed without {marker!r}; it showed {seen[-2000:]!r}"
        seen += chunk
    return seen


# the child (a session leader) opens the terminal on its stdin to control it, then execs
_CONTROLLING = "import os, sys; os.close(os.open(os.ttyname(0), os.O_RDWR)); os.execv(sys.argv[1], sys.argv[1:])"


def spawn(args, *, columns=COLUMNS, env=None) -> tuple[int, int]:
    """``bitknights ARGS`` in a UTF-8 locale, in a new session whose controlling terminal is
    a new one of ``ROWS`` x ``columns`` (Ctrl-C typed on it reaches the child); returns
    ``(pid, master fd)``, for :func:`wait_exit`.  (No ``fork()`` of this threaded process.)"""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, columns, 0, 0))
    # PYTHONFAULTHANDLER: a child that hangs shows its threads' stacks (see wait_exit)
    environ = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "PYTHONIOENCODING": "utf-8", "PYTHONFAULTHANDLER": "1", **(env or {})}  # fmt: skip
    p = subprocess.Popen([sys.executable, "-c", _CONTROLLING, *CLI, *args], stdin=slave,
                         stdout=slave, stderr=slave, env=environ, start_new_session=True)  # fmt: skip
    os.close(slave)
    return p.pid, master


def kill(pid: int, seconds: float = 30) -> None:
    """Kill the child ``pid`` and reap it, within ``seconds``."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + seconds
    while not os.waitpid(pid, os.WNOHANG)[0]:
        assert time.monotonic() < deadline, f"child {pid} survived SIGKILL for {seconds} s"
        time.sleep(0.01)


def wait_exit(pid: int, fd: int, seen: bytes = b"", seconds: float = BOUND) -> tuple[int, bytes]:
    """``(exit code, everything shown)`` of the child :func:`spawn` started, ``fd`` closed;
    a child still running after ``seconds`` is killed and the test fails, saying why."""
    deadline = time.monotonic() + seconds
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGABRT)  # the fault handler writes every thread's stack
                end = time.monotonic() + 3
                while time.monotonic() < end and select.select([fd], [], [], 0.2)[0]:
                    with contextlib.suppress(OSError):
                        seen += os.read(fd, 65536)
                kill(pid)
                raise AssertionError(
                    f"the child did not end within {seconds} s; the terminal shows {seen[-4000:]!r}"
                )
            if select.select([fd], [], [], min(left, 0.05))[0]:
                with contextlib.suppress(OSError):
                    seen += os.read(fd, 4096)
        try:  # what is left: the child has ended, its side is closed or closing
            while select.select([fd], [], [], 0.2)[0]:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                seen += chunk
        except OSError:
            pass
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status), seen


_CONTROL = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")
_MOVES = {"A": (-1, 0), "B": (1, 0), "C": (0, 1), "D": (0, -1)}


def screen(seen: str, columns: int = COLUMNS) -> tuple[list[str], tuple[int, int]]:
    """The lines a terminal of ``columns`` shows after ``seen`` (trailing spaces and
    trailing empty lines dropped) and where its cursor stands, ``(row, column)``."""
    lines: list[list[str]] = [[]]
    row = col = 0
    i = 0
    while i < len(seen):
        ch = seen[i]
        m = _CONTROL.match(seen, i) if ch == "\x1b" else None
        if m:
            n = int(m.group(1) or 1) if m.group(1).isdigit() else 1
            if m.group(2) == "K":
                while len(lines) <= row:
                    lines.append([])
                del lines[row][col:]
            elif m.group(2) in _MOVES:  # the cursor up, down, right, left
                down, right = _MOVES[m.group(2)]
                row, col = max(0, row + down * n), max(0, col + right * n)
            i = m.end()
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row += 1
        elif ch == "\b":
            col = max(0, col - 1)
        elif ch >= " ":
            if col >= columns:  # the terminal wraps before writing past the edge
                row, col = row + 1, 0
            while len(lines) <= row:
                lines.append([])
            line = lines[row]
            line.extend(" " * (col + 1 - len(line)))
            line[col] = ch
            col += 1
        i += 1
    text = ["".join(line).rstrip() for line in lines]
    while text and not text[-1]:
        text.pop()
    return text, (row, col)


def kept(seen: str, columns: int = COLUMNS) -> list[str]:
    """What the screen keeps, checking that the cursor ends at the start of an empty line
    below it all (where the shell's next prompt goes)."""
    text, (row, col) = screen(seen, columns)
    assert col == 0 and row >= len(text), (text, row, col, seen)
    return text


def wrapped(text: str, columns: int = COLUMNS) -> list[str]:
    """``text`` (lines as a pipe gets them) as a terminal of ``columns`` shows it."""
    return [
        line[i : i + columns].rstrip()
        for line in text.splitlines()
        for i in range(0, max(len(line), 1), columns)
    ]
