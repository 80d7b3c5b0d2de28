"""The package's shape: no import cycles between keypeg's modules (function-level imports
count too), and the layers of docs/architecture.md hold."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "keypeg"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict[str, set[str]]:
    """Return each keypeg module's keypeg imports (any depth in the file)."""
    modules = {module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        tree = ast.parse(path.read_text())
        typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                       and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                       for n in ast.walk(block)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue  # imports for type checkers only do not run
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                # `from .x import y` may import the submodule x.y
                for alias in node.names:
                    if f"{target}.{alias.name}" in modules:
                        found.add(f"{target}.{alias.name}")
                found.add(target)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        m = todo.pop()
        for n in graph[m]:
            # importing a submodule runs its packages' __init__ first (except the packages
            # the importer is itself inside, which are already running)
            chain = [n] + [p for p in (n.rsplit(".", i)[0] for i in range(1, n.count(".")))
                           if not (m == p or m.startswith(p + "."))]
            for x in chain:
                if x in graph and x not in seen:
                    seen.add(x)
                    todo.append(x)
    return seen


def test_no_import_cycles():
    graph = imports()
    cycles = sorted(m for m in graph if m in reachable(graph, m))
    assert cycles == []


def test_the_solver_is_below_the_strategy_registry():
    graph = imports()
    below = reachable(graph, "keypeg.solver.search") | reachable(graph, "keypeg.onestep")
    assert "keypeg.strategies" not in below and "keypeg.strategies.optimal" not in below
    assert not any(m.startswith(("keypeg.web", "keypeg.cli")) for m in below)


def test_the_library_never_imports_its_front_ends():
    graph = imports()
    library = [m for m in graph
               if not m.startswith(("keypeg.web", "keypeg.cli", "keypeg.__main__",
                                    "keypeg._command"))]  # the command's entry point
    for m in library:
        assert not any(n.startswith(("keypeg.web", "keypeg.cli")) for n in reachable(graph, m)), m
