"""A standard library as Windows has it, for bitknights alone, on a Linux Python (the
suite's Windows-like mode: ``PYTHONPATH`` names this folder).  What the documentation marks
*Availability: Unix* is gone (modules, ``os`` functions and constants, signals);
``select.select`` and ``signal.set_wakeup_fd`` refuse all but sockets; ``os.open`` without
``os.O_BINARY`` fails; a file a process holds open cannot be renamed, replaced or deleted
(``winerror`` 32).  What no simulation shows: ``docs/reliability.md``."""

import builtins
import os
import select
import signal
import stat
import sys
import types

UNIX_MODULES = {"fcntl", "termios", "tty", "pty", "resource", "grp", "pwd", "syslog", "posix",
                "nis", "spwd", "crypt", "readline", "curses", "_posixsubprocess"}  # fmt: skip

# the public names of Windows' os module (3.10-3.13), os.py's pure-Python ones included
WINDOWS_OS = set(
    str.split("""
_exit abort access add_dll_directory chdir chmod close closerange cpu_count device_encoding
dup dup2 execv execve fchmod fspath fstat fsync ftruncate get_handle_inheritable
get_inheritable get_terminal_size getcwd getcwdb getlogin getpid getppid isatty kill lchmod
link listdir listdrives listmounts listvolumes lseek lstat mkdir open pipe putenv read
readlink remove rename replace rmdir scandir set_handle_inheritable set_inheritable spawnv
spawnve startfile stat strerror symlink system times truncate umask unlink unsetenv urandom
utime waitpid waitstatus_to_exitcode write process_cpu_count
O_RDONLY O_WRONLY O_RDWR O_APPEND O_CREAT O_EXCL O_TRUNC O_BINARY O_NOINHERIT O_TEXT
O_SHORT_LIVED O_TEMPORARY O_RANDOM O_SEQUENTIAL F_OK R_OK W_OK X_OK SEEK_SET SEEK_CUR
SEEK_END TMP_MAX P_WAIT P_NOWAIT P_NOWAITO P_DETACH P_OVERLAY
DirEntry PathLike GenericAlias Mapping MutableMapping abc st sys path name linesep sep altsep
curdir pardir extsep pathsep defpath devnull environ error stat_result terminal_size
times_result fdopen fsencode fsdecode get_exec_path getenv makedirs removedirs renames walk
popen spawnl spawnle execl execle execlp execlpe execvp execvpe supports_bytes_environ
supports_dir_fd supports_effective_ids supports_fd supports_follow_symlinks
""")
)
if sys.version_info >= (3, 12):  # Windows' os has these from 3.12 on (for pipes)
    WINDOWS_OS |= {"get_blocking", "set_blocking"}
WINDOWS_SIGNAL = {
    *("SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIG_DFL", "SIG_IGN"),
    *("Signals", "Handlers", "default_int_handler", "getsignal", "raise_signal"),
    *("set_wakeup_fd", "signal", "strsignal", "valid_signals"),
}
WINDOWS_SELECT = {"select", "error"}
O_BINARY = 0o100000  # Windows' _O_BINARY is 0x8000; Linux reads this bit as O_LARGEFILE


def _ours(depth: int = 2) -> bool:
    """Whether the code asking (``depth`` frames up) is bitknights'."""
    name = sys._getframe(depth).f_globals.get("__name__") or ""
    return name == "bitknights" or name.startswith("bitknights.")


def _surface(module: types.ModuleType, keep: set, replaced: dict) -> None:
    """``module`` as bitknights sees it: only the names in ``keep`` (and dunders), and
    ``replaced``'s versions of some of them."""
    hidden = {n for n in dir(module) if not n.startswith("__") and n not in keep}

    class Surface(types.ModuleType):
        def __getattribute__(self, name: str):  # noqa: ANN204
            if (name in hidden or name in replaced) and _ours():
                if name in hidden:
                    raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")
                return replaced[name]
            return super().__getattribute__(name)

    module.__class__ = Surface


def _is_socket(fd: object) -> bool:
    try:
        number = fd if isinstance(fd, int) else fd.fileno()  # type: ignore[attr-defined]
        return stat.S_ISSOCK(os.fstat(number).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


def _select(rlist, wlist, xlist, timeout=None):  # noqa: ANN001, ANN202
    if not all(map(_is_socket, [*rlist, *wlist, *xlist])):
        raise OSError(10038, "An operation was attempted on something that is not a socket")
    return real_select(rlist, wlist, xlist, timeout)


def _set_wakeup_fd(fd, *, warn_on_full_buffer=True):  # noqa: ANN001, ANN202
    if fd != -1 and not _is_socket(fd):
        raise ValueError(f"the fd {fd} must be a socket")
    return real_set_wakeup_fd(fd, warn_on_full_buffer=warn_on_full_buffer)


def _open(path, flags, mode=0o777, *, dir_fd=None):  # noqa: ANN001, ANN202
    if not flags & O_BINARY and os.fspath(path) != os.devnull:
        raise OSError(22, f"text-mode open of {path!r}: Windows translates line endings "
                          "in it (add os.O_BINARY)")  # fmt: skip
    return real_open(path, flags & ~O_BINARY, mode, dir_fd=dir_fd)


class SharingViolation(PermissionError):
    winerror = 32


def _held_open(path) -> bool:  # noqa: ANN001
    """Whether a process on this machine has ``path`` open (``/proc/PID/fd``)."""
    target = os.path.realpath(path)
    for pid in filter(str.isdigit, real_listdir("/proc")):
        try:
            fds = real_listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return True
            except OSError:
                pass
    return False


def _refusing_open(real):  # noqa: ANN001, ANN202
    def call(*paths, **kwargs):  # noqa: ANN002, ANN003, ANN202
        for path in paths:
            if isinstance(path, (str, bytes, os.PathLike)) and _held_open(path):
                raise SharingViolation(13, "The process cannot access the file because it "
                                           "is being used by another process", path)  # fmt: skip
        return real(*paths, **kwargs)

    return call


def _import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002, ANN001, ANN202
    if level == 0 and name.partition(".")[0] in UNIX_MODULES:
        caller = (globals or {}).get("__name__") or ""
        if caller == "bitknights" or caller.startswith("bitknights."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    return real_import(name, globals, locals, fromlist, level)


real_select, real_set_wakeup_fd, real_open = select.select, signal.set_wakeup_fd, os.open
real_import, real_listdir = builtins.__import__, os.listdir
os.O_BINARY = O_BINARY
held = {n: _refusing_open(getattr(os, n)) for n in ("replace", "rename", "remove", "unlink")}
_surface(os, WINDOWS_OS, {"open": _open, **held})
_surface(signal, WINDOWS_SIGNAL, {"set_wakeup_fd": _set_wakeup_fd})
_surface(select, WINDOWS_SELECT, {"select": _select})
builtins.__import__ = _import
