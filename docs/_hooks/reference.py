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

import ast
import dataclasses
import html
import inspect
import io
import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

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


# What each variable is for, where the comment the code gives it (used when there is none
# here) does not say it on its own line. A variable the code reads with neither fails
# tests/docs/test_reference.py; so does a line here for a variable the code no longer reads.
DESCRIPTIONS = {
    "ANYMAIL": "The mail provider's settings for django-anymail, as a JSON object (e.g. "
    '`{"MAILGUN_API_KEY": "…", "MAILGUN_SENDER_DOMAIN": "mg.example.org"}`), with '
    "EMAIL_BACKEND naming the provider's backend (`anymail.backends.mailgun.EmailBackend`). "
    "Unused with SMTP (EMAIL_URL). The players' notices (issue 40) go out this way.",
    "SECRET_KEY": "Django's secret key (sessions, signed stream tickets, login-code hashes). "
    "Required, and checked, in production: the development key is refused.",
    "DEBUG": "Django's debug mode. Never on in production.",
    "ALLOWED_HOSTS": "The host names the app answers to (comma-separated).",
    "CSRF_TRUSTED_ORIGINS": "Origins trusted for the pages' forms behind a proxy, e.g. "
    "`https://gin.example.org`.",
    "DATABASE_URL": "The database: e.g. `postgres://postgres@127.0.0.1:5432/hollywood_gin`; "
    "unset: a SQLite file `db.sqlite3` beside `manage.py` (what `make run` uses).",
    "CONN_MAX_AGE": "Seconds a worker keeps its database connection (and the prepared "
    "statements in it).",
    "SQLITE_BUSY_SECONDS": "On SQLite (`make run`): how long a write waits for another to "
    "finish; transactions begin `IMMEDIATE` in WAL mode, so two writes at once both land, one "
    "after the other, instead of one answering 503.",
    "DATABASE_REPLICA_URL": "Read replicas: one or more hot standbys of `DATABASE_URL`, "
    "comma-separated ([Scaling](scaling.md)). Unset: one database.",
    "DATABASE_REPLICA_MAX_LAG_SECONDS": "A replica lagging more than this is not read from.",
    "DATABASE_DIRECT_URL": "Behind PgBouncer: the primary itself, for the streams' LISTEN "
    "connection, which needs a session of its own.",
    "CACHE_URL": "The cache (throttles, idempotency keys, login budgets): e.g. "
    "`rediscache://127.0.0.1:6379/1`; unset: this process's memory.",
    "CELERY_BROKER_URL": "The jobs' broker, e.g. `redis://127.0.0.1:6379/0`; unset: jobs run "
    "at once in the process that queues them (`make run`).",
    "CELERY_RESULT_BACKEND": "Celery's result backend; the app reads no job results (unset).",
    "CELERY_TASK_ALWAYS_EAGER": "Run jobs in process instead of queueing them; on when there "
    "is no broker.",
    "OUTBOX_DRAIN_SECONDS": "Celery beat: how often the outbox's jobs whose relay after "
    "commit failed are queued again.",
    "TOURNAMENT_SCHEDULE_SECONDS": "Celery beat: how often rounds whose start time has come "
    "are paired.",
    "TOURNAMENT_DEADLINES_SECONDS": "Celery beat: how often players past their turn time or "
    "round deadline are forfeited.",
    "TOURNAMENT_RECONCILE_SECONDS": "Celery beat: how often results whose job was lost are "
    "taken into their pairings.",
    "EVENT_CHECKPOINT_SECONDS": "Celery beat: how often the heads of the streams that moved "
    "are signed (checkpoints).",
    "RETENTION_SECONDS": "Celery beat: how often the retention job runs (`core.retention`).",
    "RATINGS_RECONCILE_SECONDS": "Celery beat: how often club rating periods whose job was "
    "lost are applied.",
    "WEBHOOK_RECONCILE_SECONDS": "Celery beat: how often webhook deliveries no job made or "
    "sent are made and sent.",
    "WEBHOOK_TIMEOUT_SECONDS": "Each webhook attempt's timeout.",
    "WEBHOOK_BACKOFF_SECONDS": "The first wait before a failed webhook delivery is tried "
    "again; doubled each time, with jitter.",
    "WEBHOOK_BACKOFF_MAX_SECONDS": "The longest wait between two webhook attempts.",
    "WEBHOOK_MAX_ATTEMPTS": "Attempts before a webhook delivery is parked (sent again only "
    "when redelivered).",
    "EVENT_CHAIN_KEYS": "The chain keys as a keyring, `id1:secret1,id2:secret2`, oldest "
    "first: the last signs, all verify. Never in the database nor its backups "
    "([Backup, restore, keys](backup-restore.md)).",
    "EVENT_CHAIN_KEYS_FILE": "The keyring in a file, one `id:secret` a line.",
    "EVENT_CHAIN_KEY": "One chain key instead of a keyring. None of the four set: derived "
    "from `SECRET_KEY` (production refuses to start).",
    "EVENT_CHAIN_KEY_FILE": "One chain key, in a file.",
    "EVENT_CHAIN_KEY_ID": "The id of `EVENT_CHAIN_KEY`.",
    "IDEMPOTENCY_KEY_TTL_HOURS": "How long a POST's `Idempotency-Key` is remembered (its "
    "first answer replayed to retries); the retention job forgets older ones.",
    "LOGIN_CODES_KEEP_DAYS": "The retention job deletes login codes used, expired or revoked "
    "this long after.",
    "ACCESS_TOKENS_KEEP_DAYS": "... access tokens revoked or expired, this long after (a "
    "revoked token says so until then).",
    "WEBHOOK_DELIVERIES_KEEP_DAYS": "... webhook deliveries delivered or parked, this long after.",
    "OUTBOX_KEEP_DAYS": "... outbox messages sent, this long after.",
    "HEARTBEATS_KEEP_HOURS": "... heartbeats of workers gone, this long after (sessions go "
    "when they expire).",
    "API_PAGE_SIZE": "A list's page when the client sends no `limit`.",
    "THROTTLE_ANON": "Anonymous requests a client address may make (DRF's rate format).",
    "THROTTLE_LOGIN": "Logins a client address may try, counted apart from anonymous reads.",
    "THROTTLE_USER": "Signed-in requests a user may make; unset: signed-in play is never "
    "throttled.",
    "THROTTLE_LOGIN_ACCOUNT": "Token logins per account, from any address; once spent, only "
    "the addresses that have failed for the account are refused, so its owner still signs in.",
    "THROTTLE_PRACTICE": "Practice matches a player may start (429 past it); at most three "
    "in play, a fourth resigning the oldest.",
    "LOGIN_FAILURE_LIMIT": "django-axes: failed logins that lock out (see `LOGIN_LOCKOUT_BY`) "
    "every login path (`/api/auth/token/`, `/admin/login/`, `/api-auth/login/`, "
    "`/desk/login/`: 429) for the cool-off ([Logins](logins.md)).",
    "LOGIN_COOLOFF_HOURS": "How long a lockout lasts.",
    "LOGIN_LOCKOUT_BY": "What failed logins lock out: by default an account at one client "
    "address, so failing someone's password from elsewhere does not lock them out; "
    "`username,ip_address` locks the account (from everywhere) or the address, alone.",
    "API_SERVER_URL": "The schema's `servers` entry: the API's public base URL.",
    "ADMINS": "Who gets server errors by e-mail when Sentry is not set: `Name <address>,...`.",
    "EMAIL_BACKEND": "Django's e-mail backend; unset: the one `EMAIL_URL` names.",
    "DEFAULT_FROM_EMAIL": "The sender of the app's e-mail.",
    "SERVER_EMAIL": "The sender of the error e-mails; unset: `DEFAULT_FROM_EMAIL`'s value.",
    "EMAIL_SUBJECT_PREFIX": "The start of every e-mail's subject.",
    "LOG_LEVEL": "The lowest level logged.",
    "SESSION_COOKIE_SECURE": "Production: the session cookie only over HTTPS.",
    "CSRF_COOKIE_SECURE": "Production: the CSRF cookie only over HTTPS.",
    "SECURE_SSL_REDIRECT": "Production: plain HTTP redirected to HTTPS (the probes and "
    "`/metrics` apart).",
    "SECURE_HSTS_SECONDS": "Production: how long browsers are told to use only HTTPS (HSTS).",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "Production: HSTS for the subdomains too.",
    "DJANGO_SETTINGS_MODULE": "The settings of every entry point (`manage.py`, Celery, WSGI, "
    "ASGI, gunicorn); a developer's `.env` says `config.settings.local` (`make run` passes "
    "it itself).",
    "GUNICORN_BIND": "Where gunicorn listens (`config/gunicorn.py`, `deploy/gunicorn.conf.py`).",
    "WEB_CONCURRENCY": "gunicorn's sync workers; unset: 2 x cores + 1.",
    "PROMETHEUS_MULTIPROC_DIR": "The metrics of several processes (gunicorn's workers) "
    "added up: a directory every process of the service writes its metrics' files to.",
    "HOST": "`make run`: the address the demo's printed links name (and uvicorn listens on).",
    "PORT": "`make run`: the port the demo's printed links name (and uvicorn listens on).",
    "GUNICORN_ACCESS_LOG": "gunicorn's access log; empty turns it off.",
    "CACHE_RETRY_SECONDS": "Redis away: this process's memory serves instead (per-process "
    "throttles), and Redis is tried again this often; `/readyz` says the cache is down.",
    "CELERY_VISIBILITY_TIMEOUT": "Redis: seconds before a job taken by a worker that died "
    "goes back to the queue (Celery's default is an hour); every job is idempotent.",
    "HEARTBEAT_SECONDS": "How often each worker and beat write their heartbeat.",
    "READYZ_WORKER_SILENT_SECONDS": "`/readyz` fails when no worker's heartbeat is newer.",
    "READYZ_BEAT_SILENT_SECONDS": "`/readyz` fails when beat's heartbeat is older.",
    "LOGIN_HASHES_PER_ACCOUNT": "Password hashes a minute per account (past them, refused "
    "only from an address that has failed for it); 0: unbounded.",
    "LOGIN_HASHES_AT_ONCE_PER_ACCOUNT": "Password hashes running at once for one account; "
    "0: unbounded.",
    "METRICS_TOKEN": "A bearer token that may read `/metrics` from any address.",
    "SENTRY_ENVIRONMENT": "The environment Sentry files the errors under.",
    "SENTRY_TRACES_SAMPLE_RATE": "The share of requests Sentry traces (0: none).",
    # Django settings that have no environment variable (a settings module sets them).
    "LIVE_DB_THREADS": "Threads a stream process uses for its database reads.",
    "LIVE_DROP_GRACE_SECONDS": "A stream client that reads nothing at all for this long "
    "after its buffer is full is disconnected.",
    "LIVE_FOLLOWER_BUFFER_BYTES": "A stream client that falls this far behind is ended "
    "(with `retry:`: it reconnects with `Last-Event-ID`); the others are never slowed.",
    "LIVE_KEEPALIVE_SECONDS": "A stream sends a comment (`: keep-alive`) when nothing else "
    "went out for this long.",
    "LIVE_POLL_SECONDS": "On SQLite, where there is no NOTIFY: how often streams look for "
    "new events.",
    "LOGIN_CODE_HOURS": "How long a player's phone login code is valid.",
    "WEB_LIVE_POLL_SECONDS": "A live page whose stream is unavailable polls this often.",
    "DOCS_ROOT": "Where the built manual is, served at `/docs/` (`make install` builds it there).",
}


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
            f'| <code id="setting-{name}">{name}</code> | {_defaults(group)} | {_cell(text)} |'
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
            f"| {_cell(text)} |"
        )
    out.append("")
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


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
                    out.append(f"| `{p['name']}` | {p['in']} | {req} | {kind} | {_cell(text)} |")
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
                    out.append(f"| {status} | {_cell(names)} | {_cell(text)} |")
                out.append("")
    return "\n".join(out)


# -- Events ------------------------------------------------------------------------------


def event_classes() -> dict[str, list[type]]:
    """The event dataclasses: a match's (the engine's) and a tournament's (its domain)."""
    django_ready()
    from games.engine import events as match_events
    from tournaments.domain import events as tournament_events

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
