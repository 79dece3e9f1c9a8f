"""Running a command as a person sees it: on a pseudo-terminal with a window size, and
what the screen keeps once the carriage returns, erasures and cursor moves have done their
work (a small emulator of the few control sequences bitknights and tqdm write)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

CLI = [sys.executable, "-m", "bitknights"]
ROWS, COLUMNS = 24, 100


def on_terminal(
    args,
    *,
    env=None,
    stdin=subprocess.DEVNULL,
    columns=COLUMNS,
    command=CLI,
    cwd=None,
    timeout=300,
):
    """Run ``bitknights ARGS`` (or another ``command``) with standard output and standard
    error on one pseudo-terminal of ``ROWS`` x ``columns``; returns ``(status, everything
    written)``."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, columns, 0, 0))
    p = subprocess.Popen([*command, *args], stdin=stdin, stdout=slave, stderr=slave, cwd=cwd,
                         env={**os.environ, **(env or {})})  # fmt: skip
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return p.wait(timeout=timeout), seen.decode(errors="replace")


_CONTROL = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


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
            op = m.group(2)
            if op == "A":
                row = max(0, row - n)
            elif op == "B":
                row += n
            elif op == "C":
                col += n
            elif op == "D":
                col = max(0, col - n)
            elif op == "K":
                while len(lines) <= row:
                    lines.append([])
                del lines[row][col:]
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
