"""Issue 38: the reference pages are generated from the code and miss nothing: every
setting the code reads (each once, its default as the code writes it), every management
command of ours, every operation of the served schema, every event type. What the code has
is found here independently of the generator (docs/_hooks/reference.py)."""

from __future__ import annotations

import dataclasses
import inspect
import re

import pytest
from django.core.management import get_commands

from tests.docs.helpers import ROOT, ids, page

# Where the app reads its settings (as the generator: no tests, no bench).
SOURCES = ("config", "core", "eventstore", "games", "players", "tournaments", "web", "demo")
ENV_READ = re.compile(
    r"""\benv(?:\.\w+)?\(\s*"([A-Z][A-Z0-9_]+)\""""
    r"""|os\.environ(?:\.get|\.setdefault)?[\[(]\s*"([A-Z][A-Z0-9_]+)\""""
    r"""|os\.getenv\(\s*"([A-Z][A-Z0-9_]+)\""""
    r"""|getattr\(settings,\s*"([A-Z][A-Z0-9_]+)\",\s*[^)]"""
    r"""|\b_setting\(\s*"([A-Z][A-Z0-9_]+)\","""
)


def _code_settings() -> set[str]:
    files = [p for top in SOURCES for p in (ROOT / top).rglob("*.py")]
    files = [p for p in files if "migrations" not in p.parts]
    files.append(ROOT / "deploy" / "gunicorn.conf.py")
    found = set()
    for path in files:
        for match in ENV_READ.finditer(path.read_text(encoding="utf-8")):
            found.add(next(group for group in match.groups() if group))
    return found


def test_every_setting_is_in_the_reference_once(manual):
    html = page(manual, "operators/settings/")
    anchors = [i.removeprefix("setting-") for i in ids(html) if i.startswith("setting-")]
    settings = _code_settings()
    assert len(settings) > 90
    missing = sorted(settings - set(anchors))
    assert not missing, f"settings the code reads, not in the reference: {missing}"
    twice = sorted({a for a in anchors if anchors.count(a) > 1})
    assert not twice, f"in the reference more than once: {twice}"
    assert html.count('id="setting-LOGIN_LOCKOUT_BY"') == 1


def _row(html: str, name: str) -> str:
    return re.search(rf'<tr>\s*<td><code id="setting-{name}">.*?</tr>', html, re.S).group(0)


def test_a_setting_s_default_is_the_one_the_code_gives(manual):
    html = page(manual, "operators/settings/")
    assert "<code>username+ip_address</code>" in _row(html, "LOGIN_LOCKOUT_BY")
    assert "<code>720 (24 * 30)</code>" in _row(html, "TOKEN_LOGIN_HOURS")
    conn = _row(html, "CONN_MAX_AGE")
    assert "<code>0</code>" in conn and "production: <code>300</code>" in conn
    assert "production: <strong>required</strong>" in _row(html, "ALLOWED_HOSTS")
    # Every number default of base.py (and jobs.py, its part) as written there.
    base = "".join((ROOT / "config" / "settings" / f"{m}.py").read_text() for m in ("base", "jobs"))
    numbers = re.findall(r'env\.(?:int|float)\("([A-Z_]+)", default=([0-9.]+)\)', base)
    assert len(numbers) > 40
    for name, default in numbers:
        assert f"<code>{default}</code>" in _row(html, name), name


def test_every_setting_says_what_it_is(manual):
    html = page(manual, "operators/settings/")
    cells = r'<code id="setting-([A-Z0-9_]+)">[^<]*</code></td>\s*<td>.*?</td>\s*<td>(.*?)</td>'
    rows = re.findall(cells, html, re.S)
    assert len(rows) > 90
    said = {name: re.sub(r"\s*Read in .*$", "", text, flags=re.S).strip() for name, text in rows}
    assert [name for name, text in said.items() if not text] == []


def test_every_management_command_is_in_the_reference(manual):
    html = page(manual, "operators/commands/")
    ours = sorted(
        name
        for name, app in get_commands().items()
        if isinstance(app, str)
        and not app.startswith(("django.", "rest_framework", "axes"))
        and not app.startswith(("drf_spectacular", "corsheaders", "django_filters"))
    )
    assert {"verify_events", "backup", "restore", "load_demo", "export_tournament"} <= set(ours)
    for name in ours:
        assert f'id="command-{name}"' in html, name
        assert f"usage: manage.py {name}" in html, name


def test_every_api_operation_is_in_the_reference(manual, client):
    schema = client.get("/api/schema/?format=json").json()
    html = page(manual, "clients/reference/")
    operations = [
        op
        for item in schema["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    assert len(operations) > 70
    anchors = set(ids(html))
    missing = [op["operationId"] for op in operations if f"op-{op['operationId']}" not in anchors]
    assert not missing, missing
    assert f"version <strong>{schema['info']['version']}</strong>" in html


def test_every_event_type_is_in_the_catalogue(manual):
    from games.engine import events as match_events
    from tournaments.domain import events as tournament_events

    html = page(manual, "clients/events/")
    for module in (match_events, tournament_events):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not dataclasses.is_dataclass(cls):
                continue
            if name.startswith("_") or name.endswith(("Entry", "Info", "Part")):
                continue  # the parts events are made of, not events
            if module is tournament_events and not issubclass(cls, tournament_events._Event):
                continue
            assert f'id="event-{name}"' in html, name


pytestmark = pytest.mark.django_db
