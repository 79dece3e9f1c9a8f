"""No import cycles among bitknights' modules, lazy imports included, but a value type's
``_repr_*`` or ``__str__`` method importing the code that draws it."""

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
    """The strongly connected components with more than one module."""
    reach = {}
    for v in graph:
        seen, todo = set(), [v]
        while todo:
            new = graph[todo.pop()] - seen
            seen |= new
            todo += new
        reach[v] = seen
    parts = {frozenset({v} | {w for w in reach[v] if v in reach[w]}) for v in graph}
    return sorted(sorted(part) for part in parts if len(part) > 1)


def test_the_graph_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycles():
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    assert graph["bitknights.engines.ida"] >= {"bitknights.coords", "bitknights.results"}
    assert _cycles(graph) == []


def test_the_table_does_not_reach_into_the_engines():
    """The table sits below the engines (its kernels load through native, run on threads)."""
    mods = _modules()
    for name, path in mods.items():
        if name == "bitknights.table" or name.startswith("bitknights.table."):
            wrong = {m for m in _imports(name, path, mods) if m.startswith("bitknights.engines")}
            assert not wrong, (name, wrong)
    assert not {m for m in _imports("bitknights.native", mods["bitknights.native"], mods)
                if m.startswith("bitknights.engines")} - {
        "bitknights.engines._ida_kernels", "bitknights.engines._pdb_kernels",
        "bitknights.engines._bidir_kernels"}  # fmt: skip


# -- the layers, and the one door ---------------------------------------------------------

SURFACES = 4  # the rank of the library's surfaces; the command line is above them
KERNEL_LOADER = "bitknights.native"


# the layer of each part of the package above the bottom (0), by its first name after
# ``bitknights`` (docs/architecture.md); the table's modules sit below its functions
RANKS = {"engines": 2, "service": 3, "cli": 5, "__main__": 5}
RANKS.update(dict.fromkeys(("api", "checker", "game", "widget", "lab", "table"), SURFACES))


def _rank(name: str) -> int:
    """The layer of module ``name``, bottom up."""
    if name.startswith("bitknights.table."):
        return 1
    return RANKS.get(name.split(".")[1], 0) if "." in name else SURFACES


def _edges() -> list[tuple[str, str]]:
    mods = _modules()
    return [(a, b) for a, path in mods.items() for b in sorted(_imports(a, path, mods))]


def test_every_module_has_a_layer():
    mods = _modules()
    assert _rank("bitknights.table") == _rank("bitknights.lab.core") == SURFACES
    assert _rank("bitknights.table.store") == 1 and _rank("bitknights.board") == 0
    assert {_rank(m) for m in mods} == {0, 1, 2, 3, SURFACES, 5}


def test_no_import_climbs_a_layer():
    """Lazy imports and annotation-only ones included.  The one exception: the kernel
    loader (bottom) imports the kernel modules it compiles or loads."""
    edges = [(a, b) for a, b in _edges() if not (a == KERNEL_LOADER and b.endswith("kernels"))]
    assert [(a, b) for a, b in edges if _rank(b) > _rank(a)] == []


def test_only_the_service_opens_the_door_below():
    """Every surface asks the distance service: none imports an engine or the table's
    internals, but the heuristic lab, which runs IDA* itself."""
    below = [(a, b) for a, b in _edges() if _rank(a) >= SURFACES and _rank(b) in (1, 2)]
    # the table's functions re-export its error and path helpers, and annotate with its types
    assert below == [("bitknights.lab.core", "bitknights.engines.heuristics"),
                     ("bitknights.lab.core", "bitknights.engines.ida"),
                     ("bitknights.lab.core", "bitknights.engines.options"),
                     ("bitknights.table", "bitknights.table.distance_table"),
                     ("bitknights.table", "bitknights.table.store")]  # fmt: skip
    assert {a for a, b in _edges() if b == "bitknights.service"} >= {
        "bitknights.api", "bitknights.table", "bitknights.game",
        "bitknights.checker", "bitknights.lab.core", "bitknights.cli.solve",
        "bitknights.cli.stats", "bitknights.cli.table"}  # fmt: skip
