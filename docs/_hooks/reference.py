"""The manual's reference pages, generated from the code each time the site is built
(MkDocs hooks; mkdocs.yml names this file). Nothing generated is committed, so none of it
can drift from the code:

- `operators/settings.md`: every environment variable the code reads, once, with its
  default as the code writes it and the comment above it (config/settings/*.py and the few
  entry points that read the environment themselves);
- `operators/commands.md`: every management command of ours, with its `--help`;
- `clients/reference.md`: every operation of the OpenAPI schema the app serves;
- `clients/events.md`: every event type, from the event dataclasses.

tests/docs/test_reference.py holds each page to what the code has."""

from __future__ import annotations

import dataclasses
import html
import inspect
import io
import json
import os
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

# The hooks beside this one (MkDocs loads this file by its path).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from settings_page import cell, settings_page  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Where the environment is read: the settings and the entry points (no tests, no bench).
ENV_SOURCES = ("config", "core", "eventstore", "games", "players", "tournaments", "web", "demo")
ENV_FILES = ("deploy/gunicorn.conf.py",)
# The settings modules, base first: a variable read again in another gives its default there.
SETTINGS_MODULES = ("base", "jobs", "local", "test", "production")
# Modules that are part of another (base imports jobs): shown under its name.
SETTINGS_PARTS = {"jobs": "base"}
OUR_APPS = ("core", "eventstore", "games", "players", "tournaments", "web", "demo")


# -- Django ------------------------------------------------------------------------------


def django_ready() -> None:
    """Django set up (the local settings unless the caller chose), for the schema, the
    commands and the events; the settings page reads the source, not these settings."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django
    from django.apps import apps

    if not apps.ready:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
        django.setup()


# -- Management commands -------------------------------------------------------------------


def our_commands() -> dict[str, str]:
    """Our management commands by name: {name: app}."""
    django_ready()
    from django.core.management import get_commands

    return {
        name: app
        for name, app in sorted(get_commands().items())
        if isinstance(app, str) and app.split(".")[0] in OUR_APPS
    }


def commands_page() -> str:
    from django.core.management import load_command_class

    out = [
        "# Management commands",
        "",
        "Every management command of ours, with its `--help` as the command prints it",
        "(generated when the manual is built). Run them as `python manage.py NAME` (in the",
        "virtualenv: `.venv/bin/python manage.py NAME`). Their output and errors are in",
        "English whatever the locale: they are an operator's tools, for a shell and its logs.",
        "Django's own (`migrate`, `createsuperuser`, `check --deploy`, `clearsessions`, ...)",
        "are in Django's documentation.",
        "",
    ]
    os.environ["COLUMNS"] = "96"  # argparse's width: the same page on every machine
    for name, app in our_commands().items():
        command = load_command_class(app, name)
        parser = command.create_parser("manage.py", name)
        help_text = parser.format_help().rstrip()
        out += [f"## `{name}` {{#command-{name}}}", "", f"From `{app}`.", ""]
        out += ["```text", help_text, "```", ""]
    return "\n".join(out)


# -- The API -----------------------------------------------------------------------------


def api_schema() -> dict[str, Any]:
    """The OpenAPI schema as the app serves it at /api/schema/."""
    django_ready()
    from drf_spectacular.generators import SchemaGenerator

    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(schema, default=str))


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def _ref_name(schema: dict[str, Any] | None) -> str:
    if not schema:
        return ""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if schema.get("type") == "array" and "items" in schema:
        return f"list of {_ref_name(schema['items'])}"
    return schema.get("type", "")


def reference_page() -> str:
    schema = api_schema()
    version = schema["info"]["version"]
    out = [
        "# API reference",
        "",
        f"Every operation of the API, version **{version}**, generated from the OpenAPI",
        "schema the app serves at `/api/schema/` when the manual is built. The same schema",
        "is browsable on the running app at `/api/docs/` (Swagger UI) and `/api/redoc/`",
        "(Redoc), with every request and answer field. What the codes and reasons of the",
        "errors mean: [Errors](errors.md).",
        "",
    ]
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, method, operation in operations(schema):
        tag = (operation.get("tags") or ["api"])[0]
        by_tag.setdefault(tag, []).append((path, method, operation))
    for tag, ops in by_tag.items():
        out += [f"## {tag}", ""]
        for path, method, operation in ops:
            op_id = operation["operationId"]
            summary = operation.get("summary") or op_id
            out += [f"### {summary} {{#op-{op_id}}}", ""]
            out += [f"`{method.upper()} {path}` · operation `{op_id}`", ""]
            if operation.get("deprecated"):
                out += ['!!! warning "Deprecated"', "    See its description.", ""]
            out += [operation.get("description", "").strip(), ""]
            params = operation.get("parameters") or []
            if params:
                out += ["| parameter | in | required | type | description |"]
                out += ["| --- | --- | --- | --- | --- |"]
                for p in params:
                    kind = _ref_name(p.get("schema"))
                    text = " ".join((p.get("description") or "").split())
                    req = "yes" if p.get("required") else ""
                    out.append(f"| `{p['name']}` | {p['in']} | {req} | {kind} | {cell(text)} |")
                out.append("")
            body = operation.get("requestBody", {}).get("content", {})
            if body:
                kinds = ", ".join(
                    f"`{ctype}` {_ref_name(c.get('schema'))}".strip() for ctype, c in body.items()
                )
                out += [f"Request body: {kinds}.", ""]
            responses = operation.get("responses", {})
            if responses:
                out += ["| status | body | what it means |", "| --- | --- | --- |"]
                for status, answer in responses.items():
                    content = answer.get("content", {})
                    names = ", ".join(
                        sorted({_ref_name(c.get("schema")) for c in content.values()} - {""})
                    )
                    text = " ".join((answer.get("description") or "").split())
                    out.append(f"| {status} | {cell(names)} | {cell(text)} |")
                out.append("")
    return "\n".join(out)


# -- Events ------------------------------------------------------------------------------


def event_classes() -> dict[str, list[type]]:
    """The event dataclasses: a match's (the engine's) and a tournament's (its domain)."""
    django_ready()
    from games.engine import events as match_events
    from tournaments.domain import events as tournament_events
    from tournaments.teams.domain import events as team_events

    def of(module: Any, base: type | None = None) -> list[type]:
        classes = [
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if cls.__module__ == module.__name__
            and dataclasses.is_dataclass(cls)
            and not cls.__name__.startswith("_")
            and (base is None or issubclass(cls, base))
        ]
        return sorted(classes, key=lambda cls: inspect.getsourcelines(cls)[1])

    return {
        "A match's events (stream `match-<id>`)": of(match_events),
        "A tournament's events (stream `tournament-<id>`)": of(
            tournament_events, getattr(tournament_events, "_Event", None)
        ),
        "A team event's events (stream `team-event-<id>`)": of(
            team_events, getattr(team_events, "_Event", None)
        ),
    }


def events_page() -> str:
    out = [
        "# Event catalogue",
        "",
        "Every event type, generated from the event dataclasses when the manual is built",
        "(`games/engine/events.py`, `tournaments/domain/events.py`). A stored event's `data`",
        "holds these fields by name. The events API and the streams show a match event's",
        "data with players by id where the engine stores seats ([Conventions](conventions.md))",
        "and hide what the reader may not see; a tournament event's data also has `by` (who",
        "decided) and `reason`. The schema's typed form of each is in the",
        "[API reference](reference.md) (`Event` and its `oneOf`).",
        "",
    ]
    for title, classes in event_classes().items():
        out += [f"## {title}", ""]
        for cls in classes:
            doc = inspect.getdoc(cls) or ""
            if doc.startswith(f"{cls.__name__}("):  # dataclass's generated signature
                doc = ""
            out += [f"### `{cls.__name__}` {{#event-{cls.__name__}}}", ""]
            if doc:
                out += [doc, ""]
            fields = dataclasses.fields(cls)
            if fields:
                out += ["| field | type |", "| --- | --- |"]
                for f in fields:
                    if f.name == "at":
                        continue
                    kind = html.escape(str(f.type)).replace("|", "&#124;")  # not a cell's edge
                    out.append(f"| `{f.name}` | <code>{kind}</code> |")
                out.append("")
    return "\n".join(out)


# -- MkDocs hooks -------------------------------------------------------------------------

GENERATED = {
    "operators/settings.md": settings_page,
    "operators/commands.md": commands_page,
    "clients/reference.md": reference_page,
    "clients/events.md": events_page,
}


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for uri, page in GENERATED.items():
        files.append(File.generated(config, uri, content=page()))
    return files


if __name__ == "__main__":  # print one page: python docs/_hooks/reference.py settings
    name = sys.argv[1] if len(sys.argv) > 1 else "settings"
    print(next(page for uri, page in GENERATED.items() if name in uri)())
