"""A federation's rating list (issue 39) at club scale: 3 clubs, each with 30 finished
evenings of 20 of its 60 players (4 rounds: 40 rated matches an evening, 3,600 in all),
written straight as events (demo.club_history). Timed:

- on read: the list computed from the events (every tournament's stream and its matches'
  facts read one tournament at a time, Glicko-2 over the months), as every read of it did
  before the stored list;
- rebuild: the stored list (tournaments.federation.projection) rebuilt from the events
  alone (streams and facts read in bulk), rows written: what verify_projections and
  rebuild_ratings do;
- re-rate: the stored list re-rated from the clubs' stored periods, rows written: what a
  club's ratings job does after a tournament finishes or a correction;
- read: the stored list's rows read (what a page or the API does).

    .venv/bin/python bench/federation_ratings.py [--repeats 3] [--fresh]
    (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/hg_federation_bench)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hg_federation_bench")

from bench._db import ensure_database  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--fresh", action="store_true")
args = parser.parse_args()
ensure_database(os.environ["DATABASE_URL"], fresh=args.fresh)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from demo.club_history import club_evening_generate  # noqa: E402
from players.models import Club, Player  # noqa: E402
from tournaments.federation.models import Federation, FederationRating  # noqa: E402
from tournaments.federation.projection import (  # noqa: E402
    federation_rebuild_in_tx,
    federation_rerate_in_tx,
)
from tournaments.federation.ratings import federation_rating_list  # noqa: E402
from tournaments.federation.services import federation_get_or_create  # noqa: E402
from tournaments.ratings.rebuild import ratings_rebuild  # noqa: E402


def history() -> Federation:
    found = Federation.objects.filter(name="Bench Federation").first()
    if found is not None:
        return found
    rng = random.Random(39)
    for c in range(3):
        club = Club.objects.create(name=f"Bench club {c}", slug=f"bench-club-{c}")
        players = [Player.objects.create(name=f"B{c}-{i}") for i in range(60)]
        for n in range(30):
            club_evening_generate(club=club, players=rng.sample(players, 20), rounds=4, rng=rng,
                                  name=f"Evening {n}")  # fmt: skip
    return federation_get_or_create(
        name="Bench Federation", club_slugs=[f"bench-club-{c}" for c in range(3)]
    )


def timed(label: str, run) -> None:  # noqa: ANN001
    times = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        with transaction.atomic():
            run()
        times.append(time.perf_counter() - started)
    print(f"{label}: median {statistics.median(times):.3f} s (min {min(times):.3f}, "
          f"max {max(times):.3f}, {args.repeats} runs)")  # fmt: skip


def main() -> None:
    call_command("migrate", verbosity=0)
    federation = history()
    if not FederationRating.objects.filter(federation=federation).exists():
        ratings_rebuild()  # the clubs' periods, as their jobs would have stored them
        with transaction.atomic():
            federation_rebuild_in_tx(federation_id=federation.pk)
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lines = federation_rating_list(federation=federation)
    matches = sum(x.matches for x in lines) // 2
    print(f"federation list: {len(lines)} players, {matches} rated matches, 90 tournaments")
    timed(
        "on read, computed from the events", lambda: federation_rating_list(federation=federation)
    )
    timed("rebuild from the events (rows written)",
          lambda: federation_rebuild_in_tx(federation_id=federation.pk))  # fmt: skip
    timed("re-rate from the clubs' stored periods (rows written)",
          lambda: federation_rerate_in_tx(federation_id=federation.pk))  # fmt: skip
    timed("read the stored list",
          lambda: list(FederationRating.objects.filter(federation=federation)
                       .order_by("rank").values_list("player_id", "rating", "rd")))  # fmt: skip
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
