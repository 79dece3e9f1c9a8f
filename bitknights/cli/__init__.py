"""The ``bitknights`` command line: :func:`main` runs ``bitknights ARGV`` in an
:class:`Environment` and returns an :class:`ExitStatus`; :func:`entry` is the console script.
Each command is a module (``bitknights.cli.solve``, ...), imported only when it runs."""

from __future__ import annotations

import contextlib
import os
import sys

from ..errors import BitknightsError
from .common import (
    COMMANDS,
    Environment,
    ExitStatus,
    ResourceError,
    UsageError,
    command_module,
    one_line,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def build_parser(
    argv: Sequence[str] | None = None, env: Environment | None = None
) -> argparse.ArgumentParser:
    """The whole command line (:func:`bitknights.cli.parser.build_parser`)."""
    from .parser import build_parser

    return build_parser(argv, env)


def main(argv: Sequence[str] | None = None, env: Environment | None = None) -> ExitStatus:
    """Run ``bitknights ARGV`` (default: the process's arguments) in ``env`` (default: the
    process's own) and return its exit status: every failure is one line on
    ``env.stderr``, nothing raises; no arguments print the commands and return ``USAGE``.
    While a command runs, ``sys.stderr`` (progress bars, warnings) goes to ``env.stderr``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    env = Environment() if env is None else env
    try:
        return ExitStatus(_run(argv, env))
    except (UsageError, BitknightsError) as e:
        status = ExitStatus.RESOURCES if getattr(e, "refused", False) else ExitStatus.USAGE
        return _fail(env, str(e), status)
    except ResourceError as e:
        return _fail(env, str(e))
    except KeyboardInterrupt:
        _interrupted(env)
        return ExitStatus.INTERRUPTED
    except Exception as e:
        return _refused(env, e)


def _run(argv: list[str], env: Environment) -> int:
    # the classic job, `bitknights solve [FILE]`, needs no parser (argparse and what it
    # imports cost as much as starting Python): the same defaults, from one place
    args = command_module("solve").classic_args(argv) if argv[:1] == ["solve"] else None
    if args is None:
        parser = build_parser(argv, env)
        if not argv:
            # no command: the list of commands, as a usage error (status 2, like argparse's)
            if env.stderr is not None:
                with contextlib.suppress(OSError, ValueError):
                    parser.print_help(env.stderr)
            return ExitStatus.USAGE
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # argparse: --help, --version (0) or a usage error (2)
            return e.code if isinstance(e.code, int) else ExitStatus.USAGE
    if env.stdout is None:  # refused before anything runs
        raise ResourceError("standard output is closed")
    args.cache_dir = env.cache_dir(args.cache_dir)
    from .. import progress

    # the library's feedback follows env and --quiet (every command has it)
    quiet = not env.feedback(args.quiet)
    with progress.feedback(quiet), contextlib.redirect_stderr(env.stderr):  # type: ignore[type-var]
        return args.run(args, env)  # type: ignore[no-any-return]


def _refused(env: Environment, e: Exception) -> ExitStatus:
    """The line and status of a failure of the system; anything else is a bug, raised."""
    module = _failed_import(e)
    if module is not None:
        message = (
            f"cannot load {module}: {_detail(e)} (short of memory or file handles? see "
            "`ulimit -a`; else the installation is broken)"
        )
    elif isinstance(e, RuntimeError) and "thread" in str(e):
        message = (
            f"cannot start a thread ({e}): threads are limited here (`ulimit -u`, a pids "
            "cgroup); try fewer --workers where a command takes them"
        )
    elif isinstance(e, (OSError, MemoryError)):
        # reading errors are UsageErrors where they happen: this is the output (or a pipe
        # whose reader went away, e.g. `| head`: stop quietly)
        with contextlib.suppress(OSError, ValueError, AttributeError):  # nothing more is tried
            os.dup2(os.open(os.devnull, os.O_WRONLY), env.stdout.fileno())  # type: ignore[union-attr]
        if reader_gone(e):
            return ExitStatus.OK
        message = (
            "out of memory (solve: fewer --workers, or a smaller batch)"
            if isinstance(e, MemoryError)
            else f"cannot write the output: {_detail(e)}"
        )
    else:
        raise e
    return _fail(env, message)


def reader_gone(e: BaseException) -> bool:
    """Whether writing the output failed because its reader went away (``| head``): a
    broken pipe, or on Windows ``EINVAL``, which it gives instead."""
    import errno

    return isinstance(e, BrokenPipeError) or getattr(e, "errno", None) == errno.EINVAL


def _detail(e: BaseException) -> str:
    """The first line of the original error's message."""
    while e.__cause__ is not None:
        e = e.__cause__
    if isinstance(e, MemoryError):
        return "out of memory"
    text = (e.strerror if isinstance(e, OSError) else None) or str(e)
    line = next((line.strip() for line in text.splitlines() if line.strip()), type(e).__name__)
    return line if len(line) <= 160 or ". " not in line else line.split(". ")[0] + "."


def _failed_import(e: BaseException) -> str | None:
    """The library (or bitknights module) whose import ``e`` broke off (an ImportError, an
    OSError, MemoryError or SystemError while a module loaded -- the last from a C
    extension short of memory -- a half-imported module), or None."""
    partial = isinstance(e, AttributeError) and "partially initialized module" in str(e)
    if not (partial or isinstance(e, (ImportError, OSError, MemoryError, SystemError))):
        return None
    importing = []
    tb = e.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "<module>":
            importing.append(frame.f_globals.get("__name__"))
        elif frame.f_code.co_name == "_find_and_load":  # importlib, finding the module
            importing.append(frame.f_locals.get("name"))
        tb = tb.tb_next
    names = [m for m in importing if isinstance(m, str) and m]
    module = names[-1] if names else None
    if isinstance(e, ImportError):
        module = e.name or module or "a module"
    elif partial:
        module = getattr(getattr(e, "obj", None), "__name__", None) or module
    if module is None:
        return None
    return module if module.startswith("bitknights") else module.split(".")[0]


def _interrupted(env: Environment) -> None:
    """Say that Ctrl-C ended the command, on a line of its own after the terminal's ``^C``."""
    out = env.stdout
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if env.stdout_isatty:
            out.flush()  # type: ignore[union-attr]
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if env.stdout_isatty and not env.stderr_isatty:  # the ^C ends its line there
            out.write("\n")  # type: ignore[union-attr]
    env.say(("\n" if env.stderr_isatty else "") + "bitknights: interrupted\n")
    with contextlib.suppress(OSError, ValueError, AttributeError):
        out.flush()  # type: ignore[union-attr]


def _fail(env: Environment, message: str, status: ExitStatus = ExitStatus.RESOURCES) -> ExitStatus:
    env.say(f"bitknights: error: {one_line(message)}\n")
    return status


def entry() -> None:
    """The console script: :func:`main`, flush, then leave without the interpreter's slow
    teardown (numba, LLVM) and without waiting for worker threads."""
    # numpy's OpenBLAS starts a thread per CPU on import, which fails where threads are scarce
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # text the output's encoding lacks (an ANSI code page on Windows) is escaped, not fatal
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    env = Environment()
    status = main(sys.argv[1:], env)
    try:
        if env.stdout is not None:
            env.stdout.flush()
    except OSError as e:
        status = _refused(env, e)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        env.stderr.flush()  # type: ignore[union-attr]
    os._exit(status)


__all__ = [
    "COMMANDS",
    "Environment",
    "ExitStatus",
    "ResourceError",
    "UsageError",
    "build_parser",
    "entry",
    "main",
]
