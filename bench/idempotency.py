"""What an `Idempotency-Key` costs: the stored bytes per keyed match action, and a replay's
time against a plain GET of the match.

1. Recreates the PostgreSQL database --db (default hg_bench_idempotency), migrates it, and
   creates an organiser and two players with API tokens.
2. Plays --actions bot actions through POST /api/matches/{id}/actions/ (Django's test
   client, in process), each with its own Idempotency-Key, starting a new seeded match when
   one ends.
3. Prints the average row size of these records (`pg_column_size` of the row) as stored
   now, and the size the row had before 3.0.0 (same row, the answer's JSON as `jsonb` in
   `body`, the 64-sign fingerprint, and no reference: what the old code stored), and the
   largest record now; then the disk per record of the two shapes (the same rows copied
   into a table of each: `pg_table_size`, TOAST's compression of big bodies included).
4. Times --reads replays of keyed actions (the same key and body again) against as many
   GETs of the match, interleaved, and prints both medians and their ratio.

    .venv/bin/python bench/idempotency.py [--actions 300] [--reads 300]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--db", default="hg_bench_idempotency")
parser.add_argument("--actions", type=int, default=300)
parser.add_argument("--reads", type=int, default=300)
args = parser.parse_args()
os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.db}"
os.environ.pop("CELERY_BROKER_URL", None)  # jobs in process

import django  # noqa: E402

from bench._db import ensure_database  # noqa: E402

ensure_database(os.environ["DATABASE_URL"], fresh=True)
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games.engine.melds import best_discard, min_deadwood  # noqa: E402
from players.selectors import ORGANISERS_GROUP  # noqa: E402
from players.services import player_create  # noqa: E402

settings.ALLOWED_HOSTS = ["*"]
call_command("migrate", verbosity=0)


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A reasonable legal action (as the tests' bot: take a discard that helps, knock
    with the least deadwood, else discard the worst card)."""
    actions, cards = view["legal_actions"], view["your_cards"]
    take = {"type": "draw", "source": "discard"}
    if view["phase"] in ("upcard", "draw"):
        if take in actions:
            discard, after = best_discard([*cards, view["discard_pile"][-1]])
            if discard != view["discard_pile"][-1] and after < min_deadwood(cards):
                return take
        return next(a for a in actions if a["type"] in ("pass", "draw") and a != take)
    knocks = [a["card"] for a in actions if a["type"] == "knock"]
    if knocks:
        return {
            "type": "knock",
            "card": min(knocks, key=lambda c: (min_deadwood([x for x in cards if x != c]), c)),
        }
    discards = [a["card"] for a in actions if a["type"] == "discard"]
    best, _ = best_discard(cards)
    return {"type": "discard", "card": best if best in discards else discards[0]}


organiser = player_create(name="Organiser", username="organiser", password="bench-pass-1").user
organiser.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
players = [player_create(name=n, username=n, password="bench-pass-1") for n in ("ann", "ben")]
org_client = client_for(organiser)
clients = [client_for(p.user) for p in players]


def new_match(n: int) -> str:
    body = {"player1": players[0].id, "player2": players[1].id, "seed": f"bench-{n}"}
    return org_client.post("/api/matches/", body, format="json").json()["id"]


matches = 0
match_id = new_match(matches)
sent: list[tuple[APIClient, str, str, dict, dict]] = []  # client, match, key, body, answer
while len(sent) < args.actions:
    for client in clients:
        view = client.get(f"/api/matches/{match_id}/").json()
        if view["status"] != "in_progress":
            matches += 1
            match_id = new_match(matches)
            break
        if view["legal_actions"]:
            body, key = choose(view), f"bench-{len(sent)}"
            url = f"/api/matches/{match_id}/actions/"
            answer = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            assert answer.status_code == 201, answer.content
            sent.append((client, match_id, key, body, answer.json()))
            break

answers = {key: answer for _, _, key, _, answer in sent}
with connection.cursor() as cursor:
    cursor.execute("SELECT key FROM players_idempotencyrecord WHERE path LIKE %s", ["%/actions/"])
    keys = [row[0] for row in cursor.fetchall()]
    now_sizes, old_sizes = [], []
    for key in keys:  # the old row: this one's columns then, with the answer as its body
        cursor.execute(
            "SELECT pg_column_size(r.*), pg_column_size(ROW(r.id, r.user_id, r.key, r.method,"
            " r.path, repeat('0', 64), r.status_code, %s::jsonb, r.created_at))"
            " FROM players_idempotencyrecord r WHERE r.key = %s",
            [json.dumps(answers[key]), key],
        )
        now, old = cursor.fetchone()
        now_sizes.append(now)
        old_sizes.append(old)

    # On disk: the same rows in two tables of each shape, TOAST compression included.
    cursor.execute(
        "CREATE TEMP TABLE shape_now AS SELECT * FROM players_idempotencyrecord WHERE path LIKE %s",
        ["%/actions/"],
    )
    cursor.execute(
        "CREATE TEMP TABLE shape_old AS SELECT id, user_id, key, method, path,"
        " repeat('0', 64) AS fingerprint, status_code, NULL::jsonb AS body, created_at"
        " FROM shape_now WITH NO DATA"
    )
    for key in keys:
        cursor.execute(
            "INSERT INTO shape_old SELECT id, user_id, key, method, path, repeat('0', 64),"
            " status_code, %s::jsonb, created_at FROM shape_now WHERE key = %s",
            [json.dumps(answers[key]), key],
        )
    cursor.execute("SELECT pg_table_size('shape_now'), pg_table_size('shape_old')")
    disk_now, disk_old = cursor.fetchone()

print(f"{len(sent)} keyed actions in {matches + 1} matches")
print(f"bytes per record before 3.0.0 (the answer's JSON kept): {statistics.mean(old_sizes):.0f}")
print(f"bytes per record now (a reference to the version):     {statistics.mean(now_sizes):.0f}")
print(f"largest record now: {max(now_sizes)} bytes")
print(
    f"on disk (table + TOAST, compressed) per record: before {disk_old / len(keys):.0f},"
    f" now {disk_now / len(keys):.0f}"
)

# Replays against GETs, interleaved so that the machine's load weighs on both alike.
replays, gets = [], []
for i in range(args.reads):
    client, mid, key, body, answer = sent[i % len(sent)]
    t0 = time.perf_counter()
    again = client.post(
        f"/api/matches/{mid}/actions/", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    t1 = time.perf_counter()
    view = client.get(f"/api/matches/{mid}/")
    t2 = time.perf_counter()
    assert again.json() == answer and view.status_code == 200
    replays.append(t1 - t0)
    gets.append(t2 - t1)
replay_ms, get_ms = statistics.median(replays) * 1000, statistics.median(gets) * 1000
print(
    f"replay median {replay_ms:.2f} ms, GET of the match median {get_ms:.2f} ms,"
    f" ratio {replay_ms / get_ms:.2f}"
)
