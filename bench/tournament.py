"""The tournament core end to end through its services, on PostgreSQL.

For each field size (checked-in players): the time to pair a Swiss round 1 (every match
made) and to record one result (a forfeit ruled on a match, then its result recorded),
through `tournaments.services`. With `--baseline DIR` (a `git worktree` of an older commit,
e.g. `git worktree add /tmp/hg-base ba90a33`) the same measurements run in that tree too,
interleaved run by run in child processes, each tree with its own database, and the ratio
new/old is printed. Then, in this tree only: loading a 256-player Swiss for update at round
9 against round 1 (the repository's snapshots keep it flat).

    .venv/bin/python bench/tournament.py [--sizes 64 256 1024] [--runs 2] [--baseline DIR]

DATABASE_URL: a PostgreSQL server (default postgres://postgres@127.0.0.1:5432); each tree
uses its own database hg_tournament_bench_<tag> there (BENCH_DB_PREFIX: another prefix),
made afresh.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SERVER = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x").rsplit("/", 1)[0]


def _setup(tag: str) -> None:
    sys.path.insert(0, os.getcwd())
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    # BENCH_DB_PREFIX: another prefix where several sessions bench on one server at once.
    prefix = os.environ.get("BENCH_DB_PREFIX", "hg_tournament_bench")
    os.environ["DATABASE_URL"] = f"{SERVER}/{prefix}_{tag}"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
    os.environ.pop("CELERY_BROKER_URL", None)

    from bench._db import ensure_database

    ensure_database(os.environ["DATABASE_URL"], fresh=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # Jobs are not run here (no broker, nothing eager): the bench times the services alone.
    from celery import current_app

    current_app.conf.task_always_eager = False
    current_app.conf.broker_url = "memory://"


def _field(n: int, tag: str):  # noqa: ANN202
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from players.models import Player
    from tournaments import services

    user = get_user_model().objects.create_user(username=f"director-{tag}-{n}", password="x")
    group, _ = Group.objects.get_or_create(name="organisers")
    user.groups.add(group)
    user.is_staff = True
    user.save()
    players = Player.objects.bulk_create(Player(name=f"P{n}-{i:04d}") for i in range(n))
    t = services.tournament_create(
        name=f"Bench {n}", format="swiss", rounds=9, created_by=user,
        check_in_required=True, play_mode="table",
    )  # fmt: skip
    for p in players:
        services.tournament_register(tournament_id=t.pk, player=p, by=user)
        services.tournament_check_in(tournament_id=t.pk, player=p, by=user)
    return user, t


def _finish_one(t, user, number: int) -> float:  # noqa: ANN001
    """Rule one match of round `number` forfeited and record its result; the seconds."""
    from games.services import match_rule
    from tournaments import services
    from tournaments.models import Pairing

    p = (
        Pairing.objects.filter(round__tournament=t, round__number=number, status="pending")
        .exclude(match=None)
        .first()
    )
    began = time.perf_counter()
    match_rule(match_id=p.match_id, by=user, type="forfeit", player=p.player1, reason="bench")
    services.tournament_match_result_record(match_id=p.match_id)
    return time.perf_counter() - began


def child(size: int, tag: str) -> None:
    _setup(tag)
    from tournaments import services

    user, t = _field(size, tag)
    began = time.perf_counter()
    services.tournament_start(tournament_id=t.pk, by=user)
    pair = time.perf_counter() - began
    record = _finish_one(t, user, 1)
    print(json.dumps({"pair": pair, "record": record}))


def _run(tree: Path, size: int, tag: str) -> dict:
    out = subprocess.run(
        [sys.executable, str(HERE / "bench" / "tournament.py"), "--child", str(size), "--tag", tag],
        cwd=tree, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"the {tag} run failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def loading(rounds: int = 9, size: int = 256) -> None:
    _setup("load")
    from django.db import transaction

    from tournaments import services
    from tournaments.models import Pairing
    from tournaments.repository import tournament_load

    user, t = _field(size, "load")
    services.tournament_start(tournament_id=t.pk, by=user)

    from tournaments.repository import tournament_states_forget

    def load_time(*, cold: bool) -> float:
        times = []
        for _ in range(15):
            if cold:  # a process that has not written this tournament: the snapshot path
                tournament_states_forget()
            with transaction.atomic():
                began = time.perf_counter()
                tournament_load(tournament_id=t.pk)
                times.append(time.perf_counter() - began)
        return statistics.median(times)

    first, first_cold = load_time(cold=False), load_time(cold=True)
    from games.services import match_rule

    for number in range(1, rounds):
        for p in Pairing.objects.filter(round__tournament=t, round__number=number).exclude(
            match=None
        ):
            match_rule(match_id=p.match_id, by=user, type="forfeit", player=p.player1,
                       reason="bench")  # fmt: skip
            services.tournament_match_result_record(match_id=p.match_id)
        services.tournament_round_pair(tournament_id=t.pk, round_number=number + 1, by=user)
        print(f"  round {number + 1} paired", flush=True)
    last, last_cold = load_time(cold=False), load_time(cold=True)
    t.refresh_from_db()
    print(
        f"load for update, {size}-player Swiss ({t.version} events), median of 15:\n"
        f"  the writing worker (remembered state): round 1 {first * 1000:.1f} ms, round"
        f" {rounds} {last * 1000:.1f} ms, ratio {last / first:.2f} (goal <= 1.3)\n"
        f"  a cold worker (sealed snapshot + events since): round 1 {first_cold * 1000:.1f} ms,"
        f" round {rounds} {last_cold * 1000:.1f} ms, ratio {last_cold / first_cold:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--baseline", type=Path, help="an older tree (git worktree)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default="new", help=argparse.SUPPRESS)
    parser.add_argument("--no-loading", action="store_true")
    parser.add_argument("--only-loading", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.tag)
        return
    if args.only_loading:
        loading()
        return
    trees = [("new", HERE)] + ([("old", args.baseline.resolve())] if args.baseline else [])
    for size in args.sizes:
        figures: dict[str, list[dict]] = {tag: [] for tag, _ in trees}
        for run in range(args.runs):
            for tag, tree in trees if run % 2 == 0 else list(reversed(trees)):
                figures[tag].append(_run(tree, size, tag))
                print(f"  {size} players, run {run + 1}, {tag}: {figures[tag][-1]}", flush=True)
        line = f"{size:5d} players:"
        for tag, _ in trees:
            pair = statistics.median(f["pair"] for f in figures[tag])
            record = statistics.median(f["record"] for f in figures[tag])
            line += f"  {tag}: pair round 1 {pair:.2f} s, record a result {record * 1000:.0f} ms;"
        if args.baseline:
            new_pair = statistics.median(f["pair"] for f in figures["new"])
            old_pair = statistics.median(f["pair"] for f in figures["old"])
            new_rec = statistics.median(f["record"] for f in figures["new"])
            old_rec = statistics.median(f["record"] for f in figures["old"])
            line += f"  new/old: pair {new_pair / old_pair:.2f}, record {new_rec / old_rec:.2f}"
        print(line, flush=True)
    if not args.no_loading:
        loading()


if __name__ == "__main__":
    main()
