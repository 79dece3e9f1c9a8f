"""Every wait in the tests has a bound (read from their source): a hang fails, never stalls."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent

RUNS = {"run", "check_output", "check_call", "call"}  # subprocess's waiting functions
NEEDS_A_BOUND = {"wait", "join", "communicate", "result", "acquire", "get"}


def unbounded(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, what)`` of each wait in ``tree`` that may block forever."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name, owner = node.func.attr, node.func.value
        keywords = {k.arg for k in node.keywords}
        owner_name = owner.id if isinstance(owner, ast.Name) else None
        if owner_name == "subprocess" and name in RUNS and "timeout" not in keywords:
            found.append((node.lineno, f"subprocess.{name} without timeout="))
        elif owner_name == "os" and name == "waitpid":
            options = node.args[1] if len(node.args) > 1 else None
            if not (isinstance(options, ast.Attribute) and options.attr == "WNOHANG"):
                found.append((node.lineno, "os.waitpid without WNOHANG"))
        elif owner_name == "select" and name == "select" and len(node.args) < 4:
            found.append((node.lineno, "select.select without a timeout"))
        elif name in NEEDS_A_BOUND and owner_name not in ("os", "json", "subprocess"):
            if name == "get" and (node.args or keywords):  # dict.get(key), q.get(timeout=)
                continue
            if not node.args and "timeout" not in keywords:
                found.append((node.lineno, f".{name}() without a bound"))
        elif name in ("read", "readline") and _child_pipe(owner) is not None:
            found.append((node.lineno, f".{owner.attr}.{name}() of a child"))  # type: ignore[attr-defined]
    ended = _ended_children(tree)
    return [(line, what) for line, what in found if (line, what) not in ended]


def _child_pipe(owner: ast.expr) -> str | None:
    """``P`` when ``owner`` is ``P.stdout`` or ``P.stderr``."""
    match owner:
        case ast.Attribute(value=ast.Name(id=child), attr="stdout" | "stderr"):
            return child
    return None


def _ended_children(tree: ast.AST) -> set[tuple[int, str]]:
    """Reads of a child's pipe after a bounded wait for it in the same function (it ended)."""
    ok = set()
    for _, calls in _functions(tree):
        waited: dict[str, int] = {}
        for c in calls:
            f = c.func
            bounded = c.args or any(k.arg == "timeout" for k in c.keywords)
            waits = isinstance(f, ast.Attribute) and f.attr in ("wait", "communicate")
            if waits and bounded and isinstance(f.value, ast.Name):  # type: ignore[attr-defined]
                child = f.value.id  # type: ignore[attr-defined]
                waited[child] = min(waited.get(child, c.lineno), c.lineno)
        for c in calls:
            f = c.func
            if isinstance(f, ast.Attribute) and f.attr in ("read", "readline"):
                child = _child_pipe(f.value)
                if child is not None and waited.get(child, c.lineno + 1) <= c.lineno:
                    ok.add((c.lineno, f".{f.value.attr}.{f.attr}() of a child"))  # type: ignore[attr-defined]
    return ok


def _functions(tree: ast.AST):
    """``(function, its calls)`` of each function in ``tree``."""
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield fn, [n for n in ast.walk(fn) if isinstance(n, ast.Call)]


def read_without_select(tree: ast.AST) -> list[tuple[int, str]]:
    """``os.read`` in a function that never waits with ``select`` first."""
    found = []
    for fn, calls in _functions(tree):
        names = {ast.unparse(c.func) for c in calls}
        if "os.read" in names and "select.select" not in names:
            line = next(c.lineno for c in calls if ast.unparse(c.func) == "os.read")
            found.append((line, f"os.read without select in {fn.name}()"))
    return found


def test_every_wait_in_the_tests_has_a_bound():
    problems = []
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text())
        for line, what in unbounded(tree) + read_without_select(tree):
            problems.append(f"{path.name}:{line}: {what}")
    assert not problems, "\n".join(problems)


def test_the_checks_find_what_they_look_for():
    """Each rule against a wait it must flag and one it must let pass."""
    bad = """
import os, select, subprocess
def f(p, t, fd):
    subprocess.run(["x"])
    p.wait()
    t.join()
    p.communicate()
    os.waitpid(1, 0)
    select.select([fd], [], [])
    p.stdout.read()
    p.wait(timeout=5)
    p.stderr.read()
def g(fd):
    return os.read(fd, 10)
"""
    good = """
import os, select, subprocess
def f(p, t, fd, d):
    subprocess.run(["x"], timeout=5)
    p.wait(timeout=5)
    t.join(5)
    p.communicate(timeout=5)
    os.waitpid(1, os.WNOHANG)
    ", ".join(["a"])
    d.get("k")
    if select.select([fd], [], [], 1)[0]:
        os.read(fd, 10)
"""
    tree = ast.parse(bad)
    assert len(unbounded(tree)) == 7 and len(read_without_select(tree)) == 1
    tree = ast.parse(good)
    assert unbounded(tree) == [] and read_without_select(tree) == []
