import ast
import subprocess
import sys
from pathlib import Path

import tournaments.pairing

PACKAGE = Path(tournaments.pairing.__file__).parent


def test_pairing_imports_no_django():
    code = "import sys, tournaments.pairing; print(sorted(m for m in sys.modules if 'django' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _imports(path: Path) -> set[str]:
    """The sibling modules a module imports, type-checking imports included."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    prefix = "tournaments.pairing."
    return {n.removeprefix(prefix) for n in names if n.startswith(prefix)}


def test_the_pairing_modules_import_each_other_without_a_circle():
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import circle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
