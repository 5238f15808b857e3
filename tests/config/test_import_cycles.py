"""No import cycle between our modules (issue 31), imports inside functions included: grimp
reads those too, so an import moved into a function cannot hide a cycle. An import that
must stay lazy for start-up (the Celery app and settings load before Django; AppConfig.ready)
says why in a comment beside it; one that closes a cycle is named in ALLOWED with its reason.

The packages are import-linter's root packages (pyproject.toml), so a new one is covered.
Not in the graph: what settings name and code loads by its dotted path (GAMES_MATCH_POLICY,
RETENTION_PRUNES: the composition root wiring an implementation, not an import)."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

import grimp
import pytest

import eventstore

ROOT = Path(__file__).resolve().parents[2]
PACKAGES: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
    "root_packages"
]

# (importer, imported): why that import must stay lazy although it closes a cycle. None does.
ALLOWED: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)
    # `import eventstore` then `eventstore.append`: the package loads its modules by name on
    # first use (eventstore.__getattr__), imports grimp cannot see; added here.
    for module in sorted(set(eventstore._EXPORTS.values())):
        graph.add_import(importer="eventstore", imported=f"eventstore.{module}")
    return graph


def cycles(graph: grimp.ImportGraph, allowed: Iterable[tuple[str, str]] = ()) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without
    recursion), each sorted; the `allowed` imports left out of the graph."""
    skip = set(allowed)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def edges(module: str) -> Iterator[str]:
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if (module, imported) not in skip:
                yield imported

    for start in sorted(graph.modules):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, edges(start))]
        while work:
            module, todo = work[-1]
            for imported in todo:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, edges(imported)))
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def described(graph: grimp.ImportGraph, component: list[str]) -> str:
    """The imports inside a cycle, each with its line, for the failure message."""
    members = set(component)
    lines = []
    for importer in component:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            details = graph.get_import_details(importer=importer, imported=imported)
            for detail in details:
                lines.append(
                    f"  {importer}:{detail['line_number']} {detail['line_contents']} -> {imported}"
                )
            if not details:  # added above: a name loaded on first use
                lines.append(f"  {importer} -> {imported} (by name, on first use)")
    return "\n".join(lines)


def test_no_import_cycle_between_our_modules(graph):
    found = cycles(graph, ALLOWED)
    assert not found, "import cycles:\n" + "\n\n".join(described(graph, c) for c in found)


def test_each_allowed_import_still_exists(graph):
    """An entry of ALLOWED whose import has gone goes too."""
    for importer, imported in ALLOWED:
        assert graph.direct_import_exists(importer=importer, imported=imported), (
            importer,
            imported,
        )


def test_the_check_finds_a_cycle_however_it_is_imported():
    """A cycle through a module and a package's other module, as grimp records an import
    inside a function (a line like any other): found, and left out once allowed."""
    graph = grimp.ImportGraph()
    for importer, imported in [("a.x", "a.y"), ("a.y", "a.z"), ("a.z", "a.x"), ("a.z", "b")]:
        graph.add_import(importer=importer, imported=imported)
    assert cycles(graph) == [["a.x", "a.y", "a.z"]]
    assert cycles(graph, allowed=[("a.z", "a.x")]) == []


def _lazy_imports(path: Path) -> Iterator[tuple[int, list[ast.stmt]]]:
    """Each run of import statements inside a function (not under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text())

    def visit(node: ast.AST, in_function: bool) -> Iterator[tuple[int, list[ast.stmt]]]:
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            run: list[ast.stmt] = []
            for statement in [*block, None]:
                if isinstance(statement, ast.Import | ast.ImportFrom) and in_function:
                    run.append(statement)
                    continue
                if run:
                    yield run[0].lineno, run
                    run = []
                if statement is None:
                    continue
                if isinstance(statement, ast.If) and "TYPE_CHECKING" in ast.unparse(statement.test):
                    continue
                inner = in_function or isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
                yield from visit(statement, inner)

    yield from visit(tree, False)


def test_every_import_inside_a_function_says_why():
    """A comment on the line above a run of lazy imports, or on one of its lines."""
    silent = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = path.read_text().splitlines()
            for first, run in _lazy_imports(path):
                own = [lines[n - 1] for s in run for n in range(s.lineno, (s.end_lineno or 0) + 1)]
                if lines[first - 2].lstrip().startswith("#") or any("#" in line for line in own):
                    continue
                silent.append(f"{path.relative_to(ROOT)}:{first} {lines[first - 1].strip()}")
    assert not silent, "imports inside a function without a comment saying why:\n" + "\n".join(
        silent
    )
