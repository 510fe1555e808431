"""The layers point one way (engines, records, analyze, then the service and the CLI beside
each other), the modules at the bottom (errors, registry) import none of them, no two modules
import each other, even inside a function, the engines do no I/O, and only the store speaks
SQL. Read from the sources, every import counted."""
from __future__ import annotations

import ast
import re
import importlib
import importlib.util
import pkgutil
from pathlib import Path

LAYERS = ("engines", "records", "analyze", "tournaments", "service", "cli")  # each may import those before it, never after
# the service and the CLI stand beside each other (the CLI only wires the service's serve)

STORE = "scorebook.records.store"  # the package whose modules alone speak SQL
SQL = re.compile(r"^\s*(SELECT\b.*\bFROM\b|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|"
                 r"(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW|TRIGGER|VIRTUAL)\b|PRAGMA\s+\w+)", re.IGNORECASE | re.DOTALL)
NO_IO = {"sqlite3", "socket", "shutil", "subprocess", "pathlib", "tempfile", "io", "urllib", "http", "click",
         "sqlite_utils"}


def _modules() -> list[str]:
    top = importlib.import_module("scorebook")
    names = [m.name for m in pkgutil.iter_modules(top.__path__, prefix="scorebook.") if not m.ispkg]
    for layer in LAYERS:
        package = importlib.import_module(f"scorebook.{layer}")
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")]
    return sorted(set(names))


def _imports(name: str) -> tuple[set[str], ast.Module]:
    """Every module ``name`` imports, anywhere in it (``from x import y`` counts x and x.y)."""
    path = Path(importlib.util.find_spec(name).origin)
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return found, tree


MODULES = _modules()
GRAPH = {n: _imports(n)[0] for n in MODULES}


def _layer(name: str) -> int | None:
    parts = name.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_two_modules_import_each_other():
    inner = {n: {d for d in deps if d in GRAPH and d != n} for n, deps in GRAPH.items()}
    circles = []
    for start in inner:  # a path back to itself from any module is a circle
        seen, todo = set(), [(start, (start,))]
        while todo:
            node, path = todo.pop()
            for nxt in inner[node]:
                if nxt == start:
                    circles.append(" -> ".join(path + (start,)))
                elif nxt not in seen:
                    seen.add(nxt)
                    todo.append((nxt, path + (nxt,)))
    assert not circles, circles[:3]


def test_the_layers_point_one_way():
    upward = [f"{n} -> {d}" for n, deps in GRAPH.items() for d in deps
              if d in GRAPH and _layer(n) is not None and _layer(d) is not None and _layer(d) > _layer(n)]
    assert not upward, upward
    # the bottom of the package: errors import nothing of Scorebook, the registry only the errors
    assert not {d for d in GRAPH["scorebook.errors"] if d.startswith("scorebook")}
    assert {d for d in GRAPH["scorebook.registry"] if d.startswith("scorebook")} <= {"scorebook.errors",
                                                                                     "scorebook.errors.UnknownGame"}
    engines_up = [f"{n} -> {d}" for n, deps in GRAPH.items() if _layer(n) == 0 for d in deps
                  if d.startswith("scorebook.") and _layer(d) != 0]
    assert not engines_up, engines_up


def test_the_engines_do_no_io():
    for name in MODULES:
        if _layer(name) != 0:
            continue
        deps, tree = _imports(name)
        assert not {d.split(".")[0] for d in deps} & NO_IO, name
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in ("open", "print", "input")]
        assert not calls, f"{name} line {calls[0].lineno}"


def test_the_service_imports_no_cli():
    found = [f"{n} -> {d}" for n, deps in GRAPH.items() if n.startswith("scorebook.service")
             for d in deps if d.startswith("scorebook.cli")]
    assert not found, found


def test_only_the_store_speaks_sql():
    """No string that is an SQL statement outside the store's modules (and so no query that
    escapes the store's indexes)."""
    found = []
    for name in MODULES:
        if name == STORE or name.startswith(STORE + "."):
            continue
        _, tree = _imports(name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
                found.append(f"{name} line {node.lineno}: {node.value[:40]}")
    assert not found, found


#: where a game's walk may be started: the shared reader (it owns each game's walk, started
#: from the setup the visitor's tags give), the replay module, and the two notations that read a
#: whole record before replaying it (docs/design.md, "One replay, one evaluate walk")
WALKS_STARTED_IN = {"scorebook.records.pgn", "scorebook.records.replay", "scorebook.records.iwoki",
                    "scorebook.records.tiny_islands"}


def _starts_a_walk(node) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Replay"


def test_a_game_walks_through_the_shared_reader():
    """A new game's reader starts no ``Replay`` of its own: it gives the shared reader its
    ``engine`` and ``setup`` and plays through the walk the reader hands it."""
    started = {}
    for name in MODULES:
        for node in ast.walk(_imports(name)[1]):
            if _starts_a_walk(node):
                started.setdefault(name, node.lineno)
    assert "scorebook.records.pgn" in started  # the shared reader's own (the search finds it)
    assert set(started) <= WALKS_STARTED_IN, {n: line for n, line in started.items() if n not in WALKS_STARTED_IN}
