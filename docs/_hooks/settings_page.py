"""The manual's settings page (`operators/settings.md`, a hook of docs/_hooks/reference.py):
every environment variable the code reads, once, with its default as the code writes it
and the comment above it (config/settings/*.py and the few entry points that read the
environment themselves), and the Django settings read with a default where they are used.
What each one is, where no comment says it: setting_descriptions.py."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

from setting_descriptions import DESCRIPTIONS

ROOT = Path(__file__).resolve().parents[2]
# Where the environment is read: the settings and the entry points (no tests, no bench).
ENV_SOURCES = ("config", "core", "eventstore", "games", "players", "tournaments", "web", "demo")
ENV_FILES = ("deploy/gunicorn.conf.py",)
# The settings modules, base first: a variable read again in another gives its default there.
SETTINGS_MODULES = ("base", "jobs", "local", "test", "production")
# Modules that are part of another (base imports jobs): shown under its name.
SETTINGS_PARTS = {"jobs": "base"}


# -- Settings ----------------------------------------------------------------------------


@dataclasses.dataclass
class EnvRead:
    name: str
    path: str  # relative to the root
    line: int
    cast: str  # str, int, float, bool, list, db, cache, email_url
    default: str | None  # as written in the code; None: no default (required)
    comment: str


def _python_files() -> Iterator[Path]:
    for top in ENV_SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path
    for name in ENV_FILES:
        yield ROOT / name


def _literal(node: ast.AST | None, source: str) -> str | None:
    if node is None:
        return None
    try:
        value = ast.literal_eval(node)
    except ValueError:
        text = ast.get_source_segment(source, node) or "?"
        if re.fullmatch(r"[\d\s*+.()]+", text):  # 24 * 30: the number, and how it is made
            return f"{eval(text)} ({text})"  # noqa: S307 - digits and * + only
        return text
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value) or "empty"
    if value == "":
        return "empty"
    return str(value)


def _comment_above(lines: list[str], line: int) -> str:
    """The comment block directly above line `line` (1-based), and one at its end."""
    own = lines[line - 1]
    trailing = own.split("  # ", 1)[1].strip() if "  # " in own else ""
    block: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        block.insert(0, lines[i].strip().lstrip("#").strip())
        i -= 1
    comment = " ".join(block)
    if trailing and "noqa" not in trailing:
        comment = f"{comment} {trailing}".strip()
    return comment


def _env_call(node: ast.Call) -> tuple[str, str] | None:
    """("env", cast) for env(...) / env.int(...); ("os", how) for os.environ.get / getenv."""
    func = node.func
    if isinstance(func, ast.Name) and func.id == "env":
        return "env", "str"
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name) and func.value.id == "env":
            return "env", func.attr
        owner = func.value
        is_environ = isinstance(owner, ast.Attribute) and owner.attr == "environ"
        if is_environ and func.attr in ("get", "setdefault"):
            return "os", "str"
        if isinstance(owner, ast.Name) and owner.id == "os" and func.attr == "getenv":
            return "os", "str"
    return None


def _module_constants(tree: ast.Module) -> dict[str, ast.AST]:
    out: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                out[target.id] = stmt.value
    return out


def env_reads() -> list[EnvRead]:
    """Every read of an environment variable by name in the code, in file order."""
    found: list[EnvRead] = []
    for path in _python_files():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        lines = source.splitlines()
        constants = _module_constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute):
                if node.value.attr == "environ" and isinstance(node.slice, ast.Constant):
                    if not isinstance(node.ctx, ast.Load):
                        continue
                    name = node.slice.value
                    found.append(
                        EnvRead(
                            name,
                            str(path.relative_to(ROOT)),
                            node.lineno,
                            "str",
                            None,
                            _comment_above(lines, node.lineno),
                        )
                    )
                continue
            if not isinstance(node, ast.Call):
                continue
            kind = _env_call(node)
            if not kind or not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            name = node.args[0].value
            if not isinstance(name, str) or not name.isupper():
                continue
            default_node: ast.AST | None = next(
                (k.value for k in node.keywords if k.arg == "default"), None
            )
            if default_node is None and len(node.args) > 1:
                default_node = node.args[1]
            if isinstance(default_node, ast.Name) and default_node.id in constants:
                default_node = constants[default_node.id]
            default = _literal(default_node, source)
            if default is None and kind[0] == "os":
                default = "unset"
            found.append(
                EnvRead(
                    name,
                    str(path.relative_to(ROOT)),
                    node.lineno,
                    kind[1],
                    default,
                    _comment_above(lines, node.lineno),
                )
            )
    found.sort(key=lambda r: (_file_rank(r.path), r.path, r.line))
    return found


def _parameter_defaults(source: str) -> dict[str, ast.AST]:
    out: dict[str, ast.AST] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args.args[len(node.args.args) - len(node.args.defaults) :]
            out.update({a.arg: d for a, d in zip(args, node.args.defaults, strict=True)})
    return out


def code_settings() -> list[EnvRead]:
    """Django settings read with a default in the code (`getattr(settings, "X", default)`,
    `_setting("X", default)`) that no environment variable sets."""
    from_env = {read.name for read in env_reads()}
    found: list[EnvRead] = []
    for path in _python_files():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            func, args = node.func, node.args
            name_node: ast.AST | None = None
            default_node: ast.AST | None = None
            if isinstance(func, ast.Name) and func.id == "getattr" and len(args) == 3:
                if isinstance(args[0], ast.Name) and args[0].id == "settings":
                    name_node, default_node = args[1], args[2]
            elif (
                isinstance(func, ast.Attribute | ast.Name)
                and getattr(func, "attr", getattr(func, "id", "")).endswith("_setting")
                and len(args) == 2
            ):
                name_node, default_node = args[0], args[1]
            if not isinstance(name_node, ast.Constant) or not isinstance(name_node.value, str):
                continue
            if name_node.value in from_env or any(r.name == name_node.value for r in found):
                continue
            rel = str(path.relative_to(ROOT))
            default = _literal(default_node, source)
            if isinstance(default_node, ast.Name):  # a constant or a parameter: its value
                known = {**_parameter_defaults(source), **_module_constants(ast.parse(source))}
                default = _literal(known.get(default_node.id), source) or default
            found.append(
                EnvRead(
                    name_node.value,
                    rel,
                    node.lineno,
                    "",
                    default,
                    _comment_above(lines, node.lineno),
                )
            )
    return sorted(found, key=lambda r: r.name)


def _file_rank(path: str) -> int:
    for rank, module in enumerate(SETTINGS_MODULES):
        if path == f"config/settings/{module}.py":
            return rank
    return len(SETTINGS_MODULES)


def _where(read: EnvRead) -> str:
    if read.path.startswith("config/settings/"):
        stem = Path(read.path).stem
        return SETTINGS_PARTS.get(stem, stem)
    return read.path


def _defaults(group: list[EnvRead]) -> str:
    """One cell: the default of each place that reads the variable, once each."""
    seen: dict[str, str] = {}
    for read in group:
        label = _where(read)
        if label not in seen:  # a file's first read of it says its default
            seen[label] = "**required**" if read.default is None else f"`{read.default}`"
    if len(set(seen.values())) == 1:
        return next(iter(seen.values()))
    return "; ".join(
        value if label == "base" else f"{label}: {value}" for label, value in seen.items()
    )


def settings_page() -> str:
    by_name: dict[str, list[EnvRead]] = {}
    for read in env_reads():
        by_name.setdefault(read.name, []).append(read)
    out = [
        "# Settings reference",
        "",
        "Every environment variable the app reads, once, generated from the code when the",
        "manual is built (`docs/_hooks/reference.py`): its default as the code writes it",
        "(per settings module where they differ: `base` is every environment's, `local` is",
        "`make run`'s, `production` the one every entry point uses when",
        "`DJANGO_SETTINGS_MODULE` is unset). A variable without a default is required",
        "there. Put them in the environment or in `.env` (`.env.example` shows the usual",
        "ones); the real environment wins over `.env`. `manage.py check --deploy` checks a",
        "production configuration ([Production](running.md)).",
        "",
        "| variable | default | what it is |",
        "| --- | --- | --- |",
    ]
    for name, group in by_name.items():
        text = DESCRIPTIONS.get(name) or next((r.comment for r in group if r.comment), "")
        # Where it is read, unless only by the settings (the default column says which).
        elsewhere = sorted({r.path for r in group if not r.path.startswith("config/settings/")})
        if elsewhere:
            text += " Read in " + ", ".join(f"`{path}`" for path in elsewhere) + "."
        out.append(
            f'| <code id="setting-{name}">{name}</code> | {_defaults(group)} | {cell(text)} |'
        )
    out += [
        "",
        "## Settings without an environment variable",
        "",
        "Read with a default where they are used; a settings module of your own (one that",
        "starts `from config.settings.production import *`) may set them.",
        "",
        "| setting | default | what it is |",
        "| --- | --- | --- |",
    ]
    for read in code_settings():
        text = (DESCRIPTIONS.get(read.name) or read.comment) + f" Read in `{read.path}`."
        out.append(
            f'| <code id="setting-{read.name}">{read.name}</code> | `{read.default}` '
            f"| {cell(text)} |"
        )
    out.append("")
    return "\n".join(out)


def cell(text: str) -> str:
    return text.replace("|", "\\|")
