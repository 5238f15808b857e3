"""A team Swiss of 8 teams x 4 boards (issue 39), end to end: played by bots through the
services (48 board matches, each a one-game Hollywood match to 10 points, every move its
own transaction, jobs eager), then its rows compared with a replay of its events, its
exchange file written and checked by tools/check_exchange.py, and read back as a new
event.

    .venv/bin/python bench/team_event.py [--repeats 1]
    (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/hg_team_bench)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hg_team_bench")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")

from bench._db import ensure_database  # noqa: E402

ensure_database(os.environ["DATABASE_URL"])

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from demo.team_simulation import team_event_simulate  # noqa: E402
from tournaments.exchange.export import team_event_exchange_text  # noqa: E402
from tournaments.exchange.imports import team_event_import  # noqa: E402
from tournaments.teams.projections import team_events_differences  # noqa: E402


def _checker():
    spec = importlib.util.spec_from_file_location("check", ROOT / "tools" / "check_exchange.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(label: str, fn):
    started = time.perf_counter()
    value = fn()
    print(f"{label}: {time.perf_counter() - started:.2f} s")
    return value


def once(checker) -> None:
    event = timed(
        "simulate 8 teams x 4 boards (3 rounds, 48 matches)",
        lambda: team_event_simulate(
            teams=8, boards=4, ruleset={"game_target": 10, "games": 1}, progress=False
        ),
    )
    diffs = timed("compare every team event's rows with a replay", team_events_differences)
    assert diffs == [], diffs[:3]
    text = timed("write its exchange file", lambda: team_event_exchange_text(event=event))
    problems = timed("check it (tools/check_exchange.py)", lambda: checker.check(text))
    assert problems == [], problems
    timed("import it as a new event", lambda: team_event_import(text=text, by=event.created_by))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    checker = _checker()
    for _ in range(args.repeats):
        once(checker)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
