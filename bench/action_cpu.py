"""The CPU a player's action costs the process that serves it, through the service.

Bots play four matches in turn through `games.services.match_act` in one process (the
match's state remembered there, as a worker that serves a match's moves has it), and the
process's own CPU time (`time.process_time`, not PostgreSQL's, not other processes') is
taken around each call: a figure a machine shared with other jobs moves much less than a
throughput. Run it in two trees (a `git worktree` of the commit before) to compare:

    TAG=new .venv/bin/python bench/action_cpu.py          # in this tree
    (cd /path/to/base && TAG=base /path/to/.venv/bin/python /path/to/bench/action_cpu.py)

TAG names the database (hg_arch_cpu_<TAG>, made afresh on DATABASE_URL's server); N the
number of actions (default 600).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.getcwd())
SERVER = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x").rsplit("/", 1)[0]
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
os.environ["DATABASE_URL"] = f"{SERVER}/hg_arch_cpu_{os.environ.get('TAG', 'new')}"
os.environ.pop("CELERY_BROKER_URL", None)
os.environ.pop("CACHE_URL", None)


def main() -> None:
    from bench._db import ensure_database

    ensure_database(os.environ["DATABASE_URL"], fresh=True)
    import django

    django.setup()
    from celery import current_app
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    current_app.conf.task_always_eager = False
    current_app.conf.broker_url = "memory://"
    from games.engine.bot import choose_action
    from games.selectors import match_state_at
    from games.services import match_act, match_create
    from players.services import player_create

    pairs = [
        tuple(
            player_create(name=f"{s}{i}", username=f"{s}{i}", password="pw-cpu-123") for s in "ab"
        )
        for i in range(4)
    ]
    matches = [match_create(player1=a, player2=b, seed=f"s{i}") for i, (a, b) in enumerate(pairs)]
    states = {m.id: match_state_at(match=m) for m in matches}
    cpu, wall, n = [], [], 0
    while n < int(os.environ.get("N", "600")):
        for i, m in enumerate(matches):
            state, version = states[m.id]
            if state.status != "in_progress" or state.turn is None:
                matches[i] = m = match_create(player1=pairs[i][0], player2=pairs[i][1], seed=f"{n}")
                state, version = match_state_at(match=m)
            action = choose_action(state, state.turn)
            c0, w0 = time.process_time(), time.perf_counter()
            saved = match_act(
                match_id=m.id, player=pairs[i][state.turn], action=action, expected_version=version
            )
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            states[m.id] = (saved.state, saved.version)
            n += 1
    print(
        f"{os.environ.get('TAG', 'new')}: {n} actions; CPU per action median"
        f" {statistics.median(cpu) * 1000:.2f} ms, mean {statistics.mean(cpu) * 1000:.2f} ms;"
        f" wall median {statistics.median(wall) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
