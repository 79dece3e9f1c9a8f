"""No import cycles among bitknights' modules, lazy imports included.  The one accepted
pattern: a value type's ``_repr_*`` or ``__str__`` method importing the code that draws
it."""

import ast
from pathlib import Path

import bitknights

ROOT = Path(bitknights.__file__).parent


def _modules() -> dict[str, Path]:
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = ["bitknights", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """The bitknights modules ``name`` imports anywhere (at the top, in functions, under
    TYPE_CHECKING), except inside ``_repr_*`` and ``__str__`` methods."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef) and (
            node.name.startswith("_repr_") or node.name == "__str__"
        ):
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                full = f"{module}.{alias.name}"
                found.add(full if full in mods else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return {m for m in found if m in mods and m != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            connect(v)
    return out


def test_the_graph_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycles():
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    assert graph["bitknights.engines.ida"] >= {"bitknights.coords", "bitknights.results"}
    assert _cycles(graph) == []


def test_the_table_does_not_reach_into_the_engines():
    """The table sits below the engines: its kernels load through ``bitknights.native`` and
    run on ``bitknights.threads``, both at the bottom."""
    mods = _modules()
    for name, path in mods.items():
        if name == "bitknights.table" or name.startswith("bitknights.table."):
            wrong = {m for m in _imports(name, path, mods) if m.startswith("bitknights.engines")}
            assert not wrong, (name, wrong)
    assert not {m for m in _imports("bitknights.native", mods["bitknights.native"], mods)
                if m.startswith("bitknights.engines")} - {
        "bitknights.engines._ida_kernels", "bitknights.engines._pdb_kernels",
        "bitknights.engines._bidir_kernels", "bitknights.engines._lab_kernels"}  # fmt: skip
